//! What each bot adapter costs per tick: every adapter asked, tick after
//! tick, through the positions of one game, by a bot that answers at once, so the time measured is the
//! adapter's own (building and sending the observation, waking the bot,
//! reading and judging the answer), not the bot's thinking.
//!
//! The bots: `builtin:straight` (the floor: no adapter), a Rust plugin bot
//! and a C plugin bot on their threads through their interfaces' function
//! tables (the same code paths as a loaded `.so`, minus the loading), a `cmd:` program in
//! `perl` that answers `N` to every line (JSON lines: the host's JSON and
//! pipes, and a program that reads a line and answers), a CodeClash `main.py` whose `get_move` returns `"N"`
//! (the adapter decodes every observation in Python), a 2010 bot in
//! `perl` that answers `1` after each board, and a wasm module that
//! answers 0 with fuel counted (the whole wasm adapter: the record, the
//! fuel and the call). With a plugin host program
//! (the `lightcycles` binary) and a C compiler (`cc`), also a C plugin that
//! answers 0 under `--isolate`: built here from a few lines of C, loaded by
//! a child process of that program.

// A C plugin table is built here, in Rust, to time the C plugin adapter.
#![allow(unsafe_code)]

use std::ffi::c_void;
use std::time::{Duration, Instant};

use lightcycles_core::{Action, Config, Engine, Position, ReferenceGame};
use lightcycles_ffi::{LcBotV1, LcObservation, LC_BOT_ABI_VERSION};
use lightcycles_plugin::{module_of, Dir, PluginBot, View};

use crate::bot::adapter::json_lines::CommandFactory;
use crate::bot::adapter::plugin::c::CPluginFactory;
use crate::bot::adapter::plugin::isolated::IsolatedFactory;
use crate::bot::adapter::plugin::rust::RustPluginFactory;
use crate::bot::adapter::python::PythonFactory;
use crate::bot::adapter::tron2010::Tron2010Factory;
#[cfg(feature = "wasm")]
use crate::bot::adapter::wasm::{WasmBudget, WasmFactory};
use crate::bot::builtin::Builtin;
use crate::bot::process::log::LogPlace;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::{Bot, BotContext, BotFactory, Reply, Turn};

/// The time per tick of one adapter.
#[derive(Clone, Debug, PartialEq)]
pub struct AdapterFigure {
    /// What was measured.
    pub adapter: &'static str,
    /// The bot behind it.
    pub bot: &'static str,
    /// Ticks timed (after one untimed tick that starts the bot).
    pub ticks: u32,
    /// The mean time of one tick: ask, answer, collect.
    pub per_tick: Duration,
}

/// A plugin bot that answers at once.
struct AnswersAtOnce;

impl PluginBot for AnswersAtOnce {
    fn new(_first: &View<'_>, _seed: u64) -> Result<Self, String> {
        Ok(AnswersAtOnce)
    }
    fn choose(&mut self, _obs: &View<'_>) -> Option<Dir> {
        Some(Dir::N)
    }
}

/// A C plugin bot that answers N at once (its state: nothing).
unsafe extern "C" fn c_create(_first: *const LcObservation, _seed: u64) -> *mut c_void {
    std::ptr::NonNull::<c_void>::dangling().as_ptr()
}

unsafe extern "C" fn c_choose(_bot: *mut c_void, _obs: *const LcObservation) -> i32 {
    0
}

unsafe extern "C" fn c_destroy(_bot: *mut c_void) {}

static C_TABLE: LcBotV1 = LcBotV1 {
    struct_size: std::mem::size_of::<LcBotV1>() as u32,
    abi_version: LC_BOT_ABI_VERSION,
    name: std::ptr::null(),
    create: Some(c_create),
    choose: Some(c_choose),
    destroy: Some(c_destroy),
};

#[cfg(feature = "wasm")]
/// The trivial wasm bot of the bench: [`TRIVIAL_WAT`] compiled (a test
/// checks that these are its bytes). Its `lc_move` answers 0 (N).
const TRIVIAL_WASM: &[u8] = &[
    0, 97, 115, 109, 1, 0, 0, 0, 1, 21, 4, 96, 0, 1, 127, 96, 1, 126, 1, 127, 96, 1, 127, 1, 127, 96, 2, 127, 127, 1,
    127, 3, 5, 4, 0, 1, 2, 3, 5, 3, 1, 0, 2, 7, 58, 5, 6, 109, 101, 109, 111, 114, 121, 2, 0, 14, 108, 99, 95, 97, 98,
    105, 95, 118, 101, 114, 115, 105, 111, 110, 0, 0, 6, 108, 99, 95, 110, 101, 119, 0, 1, 9, 108, 99, 95, 98, 117,
    102, 102, 101, 114, 0, 2, 7, 108, 99, 95, 109, 111, 118, 101, 0, 3, 10, 22, 4, 4, 0, 65, 1, 11, 4, 0, 65, 0, 11, 5,
    0, 65, 128, 8, 11, 4, 0, 65, 0, 11,
];

/// The text of [`TRIVIAL_WASM`].
#[cfg(all(test, feature = "wasm"))]
const TRIVIAL_WAT: &str = r#"(module
  (memory (export "memory") 2)
  (func (export "lc_abi_version") (result i32) i32.const 1)
  (func (export "lc_new") (param i64) (result i32) i32.const 0)
  (func (export "lc_buffer") (param i32) (result i32) i32.const 1024)
  (func (export "lc_move") (param i32 i32) (result i32) i32.const 0))"#;

/// An adapter to measure: its name, the bot behind it, and how to make it.
type Subject = (&'static str, &'static str, Result<Box<dyn BotFactory>, String>);

/// A C plugin that answers 0 (N) at once, for the isolated row; the table
/// is declared as `include/lightcycles.h` declares it.
const C_PLUGIN: &str = r#"
#include <stdint.h>
typedef struct { uint32_t struct_size; uint32_t abi_version; const char *name;
    void *(*create)(const void *, uint64_t); int32_t (*choose)(void *, const void *);
    void (*destroy)(void *); } Table;
static int state;
static void *create(const void *first, uint64_t seed) { (void)first; (void)seed; return &state; }
static int32_t choose(void *bot, const void *obs) { (void)bot; (void)obs; return 0; }
static void destroy(void *bot) { (void)bot; }
static const Table TABLE = { sizeof(Table), 1, "instant", create, choose, destroy };
const Table *lightcycles_bot_v1(void) { return &TABLE; }
"#;

/// The isolated C plugin adapter: the plugin built with `cc` in `dir`,
/// hosted by `host`.
fn isolated(dir: &std::path::Path, host: &std::path::Path) -> Result<Box<dyn BotFactory>, String> {
    let source = dir.join("instant.c");
    let library = dir.join("libinstant.so");
    std::fs::write(&source, C_PLUGIN).map_err(|e| e.to_string())?;
    let built = std::process::Command::new("cc")
        .args(["-O2", "-fPIC", "-shared", "-o"])
        .arg(&library)
        .arg(&source)
        .output()
        .map_err(|e| format!("cannot run cc: {e}"))?;
    if !built.status.success() {
        return Err(format!("cc failed: {}", String::from_utf8_lossy(&built.stderr).trim()));
    }
    let factory = IsolatedFactory::with_program(host, &library, None, Sandbox::default())?;
    Ok(Box::new(factory))
}

/// The adapters measured, with the bot behind each; the isolated plugin
/// only with a plugin host program.
fn subjects(dir: &std::path::Path, host: Option<&std::path::Path>) -> Vec<Subject> {
    let main = dir.join("main.py");
    let python = std::fs::write(&main, "def get_move(obs):\n    return 'N'\n")
        .map_err(|e| e.to_string())
        .and_then(|()| PythonFactory::new(&main, None::<LogPlace>, Sandbox::default()));
    let perl = r#"perl -ne 'BEGIN { $| = 1 } if (!$left) { (undef, $left) = split } elsif (!--$left) { print "1\n" }'"#;
    let mut subjects: Vec<Subject> = vec![
        ("none (built-in bot)", "builtin:straight", Ok(Box::new(Builtin::Straight))),
        (
            "in-process Rust plugin",
            "Rust plugin that answers N",
            Ok(Box::new(RustPluginFactory::new(module_of::<AnswersAtOnce>(), std::path::Path::new("instant"), None))),
        ),
        (
            "in-process C plugin",
            "C plugin that answers 0 (N)",
            // SAFETY: the functions above follow the plugin ABI (they read nothing).
            unsafe { CPluginFactory::from_table(&C_TABLE, "instant") }.map(|f| Box::new(f) as Box<dyn BotFactory>),
        ),
        (
            "JSON-lines subprocess",
            "cmd:perl answering N",
            Ok(Box::new(CommandFactory::new(r#"perl -ne 'BEGIN { $| = 1 } print "N\n"'"#, None, Sandbox::default()))),
        ),
        ("CodeClash Python adapter", "main.py returning 'N'", python.map(|f| Box::new(f) as Box<dyn BotFactory>)),
        (
            "2010 protocol",
            "tron2010:perl answering 1",
            Ok(Box::new(Tron2010Factory::new(perl, None, Sandbox::default()))),
        ),
    ];
    #[cfg(feature = "wasm")]
    {
        let budget = WasmBudget { fuel_per_tick: Some(1_000_000), tick_ms: 50, margin_ms: 0 };
        let wasm = WasmFactory::from_bytes("trivial.wasm", TRIVIAL_WASM, 1024, budget);
        subjects.insert(
            3,
            (
                "wasm (wasmtime, --fuel-per-tick)",
                "wasm module answering 0 (N)",
                wasm.map(|f| Box::new(f) as Box<dyn BotFactory>),
            ),
        );
    }
    if let Some(host) = host {
        subjects.insert(3, ("isolated C plugin (--isolate)", "C plugin that answers 0 (N)", isolated(dir, host)));
    }
    subjects
}

/// How long to measure each adapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Exactly this many ticks.
    Ticks(u32),
    /// Ticks until this much time has passed (at least 10 ticks).
    Time(Duration),
}

/// The positions of one seeded game on the default board, both players
/// taking their first safe move, tick after tick: what the adapters are
/// shown, so that each tick changes the board as a real game does.
fn game_positions() -> Vec<Position> {
    let mut game = ReferenceGame::seeded(&Config::default(), 0).expect("the default board");
    let mut positions = vec![game.position()];
    while !game.is_over() && positions.len() < 400 {
        let moves: Vec<Action> = (0..2)
            .map(|id| lightcycles_core::space::safe_moves(&game, id).iter().next().map_or(Action::Keep, Action::Move))
            .collect();
        if game.step(&moves).is_err() {
            break;
        }
        positions.push(game.position());
    }
    positions
}

/// Times answers of `bot` to the positions of a game, in order (from the
/// start again after the last), for `budget`, after one untimed answer;
/// gives the ticks timed and the mean time of one.
fn time_ticks(bot: &mut dyn Bot, positions: &[Position], budget: Budget) -> Result<(u32, Duration), String> {
    let limit = Duration::from_secs(10);
    let check = |reply: Reply| match reply {
        Reply::Line(_) => Ok(()),
        other => Err(format!("the bot gave {other:?}")),
    };
    check(bot.answer(&Turn::new(&positions[0], 0), limit))?;
    let start = Instant::now();
    let mut ticks = 0u32;
    loop {
        let done = match budget {
            Budget::Ticks(n) => ticks >= n,
            Budget::Time(time) => ticks >= 10 && start.elapsed() >= time,
        };
        if done {
            break;
        }
        let position = &positions[(ticks as usize + 1) % positions.len()];
        check(bot.answer(&Turn::new(position, 0), limit))?;
        ticks += 1;
    }
    Ok((ticks, start.elapsed() / ticks.max(1)))
}

/// Measures every adapter for `budget` on the default 48 × 36 board, and
/// a C plugin under `--isolate` hosted by `host` (the `lightcycles` binary)
/// when one is given. An adapter that cannot run here (no `python3`, no
/// `perl`) gives an error naming it.
pub fn measure(budget: Budget, host: Option<&std::path::Path>) -> Vec<Result<AdapterFigure, String>> {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return vec![Err(format!("no temporary folder: {e}"))],
    };
    let positions = game_positions();
    let ctx = BotContext { game: 0, seat: 0, players: 2, seed: 0 };
    subjects(dir.path(), host)
        .into_iter()
        .map(|(adapter, bot, factory)| {
            let factory = factory.map_err(|e| format!("{adapter}: {e}"))?;
            let mut made = factory.create(&ctx).map_err(|e| format!("{adapter}: {e}"))?;
            let (ticks, per_tick) =
                time_ticks(made.as_mut(), &positions, budget).map_err(|e| format!("{adapter}: {e}"))?;
            Ok(AdapterFigure { adapter, bot, ticks, per_tick })
        })
        .collect()
}

/// The figures as a Markdown table, one adapter a row.
pub fn table(figures: &[Result<AdapterFigure, String>]) -> String {
    let mut out = String::from("| adapter | bot | per tick |\n| --- | --- | ---: |\n");
    for f in figures {
        match f {
            Ok(f) => {
                out.push_str(&format!("| {} | {} | {:.2} µs |\n", f.adapter, f.bot, f.per_tick.as_secs_f64() * 1e6))
            }
            Err(e) => out.push_str(&format!("| not measured | {e} | |\n")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "wasm")]
    fn the_trivial_wasm_bot_is_its_text_compiled() {
        assert_eq!(wat::parse_str(TRIVIAL_WAT).unwrap(), TRIVIAL_WASM);
    }

    #[test]
    fn every_adapter_answers_the_bench_position() {
        let figures = measure(Budget::Ticks(3), None);
        assert_eq!(figures.len(), 7);
        for f in &figures {
            let f = f.as_ref().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(f.ticks, 3);
        }
        let text = table(&figures);
        assert_eq!(text.lines().count(), 9);
        assert!(text.contains("JSON-lines subprocess"));
        let timed = measure(Budget::Time(Duration::from_millis(1)), None);
        assert!(timed.iter().all(|f| f.as_ref().is_ok_and(|f| f.ticks >= 10)), "{timed:?}");
    }
}
