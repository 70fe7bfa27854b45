//! `lightcycles bench`: the performance tables of docs/performance.md, measured on
//! this machine, the fast engine beside the reference engine in one run.
//!
//! Every measure runs the same work on both engines: the same scripted
//! games for `step`, the same positions for `clone`, the same boards for the
//! search helpers (the reference column is a plain breadth-first search on
//! the reference engine's grid, the way a bot without the fast engine would
//! do it), the same random bot for full games. Times are medians of several
//! batches, each batch long enough for the clock; figures from one run are
//! comparable with each other, less so across machines or runs.

mod abi;
pub mod adapters;
mod lean;
mod limit;
mod plain;
pub mod python_games;
mod search_bot;

pub use abi::{print_abi_table, AbiRow};

pub use search_bot::{measure_search, print_search_table, SearchRow, SearchUnit};

use lean::LeanScript;
use plain::PlainSearch;

use std::hint::black_box;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use lightcycles_core::bitboard;
use lightcycles_core::engine::Engine;
use lightcycles_core::search_state::SearchState;
use lightcycles_core::space::{self, Scratch};
use lightcycles_core::{map, Action, Config, Dir, DirSet, FastGame, Pos, ReferenceGame, SplitMix64, EMPTY};

/// How long each measure runs by default (per engine).
pub const DEFAULT_TIME: Duration = Duration::from_millis(1500);

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What is measured.
    pub what: String,
    /// The unit of both figures.
    pub unit: Unit,
    /// The fast engine's figure.
    pub fast: f64,
    /// The reference engine's figure.
    pub reference: f64,
}

/// The unit of a row: a time per operation (lower is better), a rate
/// (higher is better) or a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Nanoseconds per operation.
    Nanos,
    /// Operations per second.
    PerSecond,
    /// Bytes.
    Bytes,
}

impl Row {
    /// How many times better the fast engine does (time and rate alike);
    /// for sizes, how many times smaller.
    pub fn speedup(&self) -> f64 {
        match self.unit {
            Unit::Nanos | Unit::Bytes => self.reference / self.fast,
            Unit::PerSecond => self.fast / self.reference,
        }
    }
}

/// Everything the engine tables of one run hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The engine table.
    pub rows: Vec<Row>,
    /// The limit probe's step, in nanoseconds: the yardstick of the
    /// table's last column.
    pub limit_ns: f64,
    /// The C ABI table.
    pub abi: Vec<AbiRow>,
}

/// Measures every row, spending about `time` per engine on each.
pub fn measure(time: Duration) -> Measured {
    measure_saying(time, &mut |_| {})
}

/// [`measure`], telling `progress` what it measures next, as it goes.
pub fn measure_saying(time: Duration, progress: &mut dyn FnMut(&str)) -> Measured {
    let mut rows = Vec::new();
    progress("engines: the limit probe, step, clone + step, copy into + step");
    let ns = |what: &str, fast: f64, reference: f64| Row { what: what.into(), unit: Unit::Nanos, fast, reference };

    let (script_fast, script_ref) = (Script::<FastGame>::new(), Script::<ReferenceGame>::new());
    let script_lean = LeanScript::new(&script_fast);
    let ref_step = script_ref.ns_per_step(time);
    let ref_clone_step = script_ref.ns_per_clone_step(time);
    let limit_ns = script_lean.probe_ns_per_step(time);
    rows.push(ns("limit probe: step (a minimal two-player bitboard tick, 48 × 36)", limit_ns, ref_step));
    rows.push(ns("limit probe: copy + step (296 B)", script_lean.probe_ns_per_copy_step(time), ref_clone_step));
    rows.push(ns("step (2 players, 48 × 36)", script_fast.ns_per_step(time), ref_step));
    rows.push(ns("search state: step", script_lean.ns_per_step(time), ref_step));
    rows.push(ns("clone + step", script_fast.ns_per_clone_step(time), ref_clone_step));
    rows.push(ns(
        "copy into + step (no allocation)",
        script_fast.ns_per_copy_step(time),
        script_ref.ns_per_copy_step(time),
    ));
    rows.push(ns(
        "search state: copy + step (640 B, no allocation)",
        script_lean.ns_per_copy_step(time),
        ref_clone_step,
    ));

    let early = board_at(EARLY_TICK);
    for (label, ticks) in [("early game", EARLY_TICK), ("mid game", MID_TICK)] {
        progress(&format!("engines: reachable cells and the Voronoi split, {label}"));
        let fast = board_at(ticks);
        let lean = SearchState::from_game(&fast).expect("the default board fits a search state");
        let reference = ReferenceGame::from_position(&fast.position()).expect("a position of a played game is valid");
        let free = Config::default().cells() as u32 - bitboard::count(fast.solid());
        let mut scratch = Scratch::for_game(&fast);
        let mut plain = PlainSearch::new(&reference);
        let head = fast.head(0);
        let plain_reach = per_op(time, || plain.reachable(black_box(&reference), head));
        let plain_voronoi = per_op(time, || plain.voronoi(black_box(&reference)));
        rows.push(ns(
            &format!("reachable cells, {label} (tick {}, {free} free)", fast.tick()),
            per_op(time, || space::reachable_with(black_box(&fast), head, &mut scratch)),
            plain_reach,
        ));
        rows.push(ns(
            &format!("search state: reachable cells, {label}"),
            per_op(time, || space::lean::reachable(black_box(&lean), head)),
            plain_reach,
        ));
        rows.push(ns(
            &format!("Voronoi split, {label}"),
            per_op(time, || space::voronoi_with(black_box(&fast), &mut scratch)),
            plain_voronoi,
        ));
        rows.push(ns(
            &format!("search state: Voronoi split, {label}"),
            per_op(time, || space::lean::voronoi(black_box(&lean))),
            plain_voronoi,
        ));
    }

    let open = Config { rock_density: 0, ..Config::default() };
    progress("engines: full games, moves only, map generation");
    let per_second =
        |what: &str, fast: f64, reference: f64| Row { what: what.into(), unit: Unit::PerSecond, fast, reference };
    let ref_games = games_per_second::<ReferenceGame>(&open, time);
    let ref_moves = moves_per_second::<ReferenceGame>(&open, time);
    rows.push(per_second(
        "full random games per second (48 × 36, open board, one thread)",
        games_per_second::<FastGame>(&open, time),
        ref_games,
    ));
    rows.push(per_second("search state: full random games per second", lean::games_per_second(&open, time), ref_games));
    rows.push(per_second(
        "the same games, moves only (starts built beforehand, copied in)",
        moves_per_second::<FastGame>(&open, time),
        ref_moves,
    ));
    rows.push(per_second("search state: the same games, moves only", lean::moves_per_second(&open, time), ref_moves));
    let default = Config::default();
    rows.push(per_second(
        "maps generated per second (48 × 36, rock density 4)",
        1e9 / per_op_seeded(time, |seed| map::generate(&default, seed)),
        1e9 / per_op_seeded(time, |seed| map::generate_reference(&default, seed)),
    ));
    let fast = FastGame::seeded(&default, 1).expect("the default configuration builds");
    let reference = ReferenceGame::seeded(&default, 1).expect("the default configuration builds");
    let reference_bytes = (std::mem::size_of::<ReferenceGame>()
        + std::mem::size_of_val(reference.grid())
        + std::mem::size_of_val(reference.players())) as f64;
    let bytes = |what: &str, fast: f64| Row { what: what.into(), unit: Unit::Bytes, fast, reference: reference_bytes };
    rows.push(bytes("one game state (48 × 36, 2 players)", fast.state_bytes() as f64));
    rows.push(bytes("search state: one game state (any board up to 64 × 64)", SearchState::state_bytes() as f64));

    progress("engines: through the C ABI");
    let abi = abi::abi_rows(&script_fast, &script_lean, &early, time);
    Measured { rows, limit_ns, abi }
}

/// Measures and prints the tables (Markdown) to `out`: the engines, then
/// the search bot.
pub fn run<W: Write + ?Sized>(out: &mut W, time: Duration) -> io::Result<()> {
    run_saying(out, time, &mut |_| {})
}

/// [`run`], telling `progress` what it measures next; each table is
/// printed (and flushed) as soon as it is measured.
pub fn run_saying<W: Write + ?Sized>(out: &mut W, time: Duration, progress: &mut dyn FnMut(&str)) -> io::Result<()> {
    let measured = measure_saying(time, progress);
    print_table(out, &measured.rows, measured.limit_ns)?;
    writeln!(out)?;
    print_abi_table(out, &measured.abi)?;
    writeln!(out)?;
    out.flush()?;
    progress("the search bot");
    print_search_table(out, &measure_search(time))?;
    out.flush()
}

/// Prints rows as the Markdown table of docs/performance.md; the last
/// column is the fast figure in steps of the limit probe (`limit_ns`), a
/// ratio that moves less with the machine's load than the times do.
pub fn print_table<W: Write + ?Sized>(out: &mut W, rows: &[Row], limit_ns: f64) -> io::Result<()> {
    writeln!(out, "| measure | fast | reference | fast vs reference | fast in limit steps |")?;
    writeln!(out, "| --- | ---: | ---: | ---: | ---: |")?;
    for row in rows {
        let ratio = match row.unit {
            Unit::Bytes => format!("{:.1}× smaller", row.speedup()),
            _ => format!("{:.0}×", row.speedup()),
        };
        let limit = match row.unit {
            Unit::Nanos => format!("{:.1}", row.fast / limit_ns),
            Unit::PerSecond => format!("{:.0}", 1e9 / row.fast / limit_ns),
            Unit::Bytes => "—".to_string(),
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            row.what,
            show(row.fast, row.unit),
            show(row.reference, row.unit),
            ratio,
            limit
        )?;
    }
    Ok(())
}

pub(crate) fn show(value: f64, unit: Unit) -> String {
    match unit {
        Unit::Nanos if value < 10.0 => format!("{value:.1} ns"),
        Unit::Nanos if value < 10_000.0 => format!("{value:.0} ns"),
        Unit::Nanos => format!("{:.1} µs", value / 1000.0),
        Unit::PerSecond => format!("{}/s", thousands(value)),
        Unit::Bytes => format!("{} B", thousands(value)),
    }
}

pub(crate) fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value);
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Nanoseconds per call of `op`: batches sized to about a tenth of `time`,
/// the median of them.
pub(crate) fn per_op<T>(time: Duration, mut op: impl FnMut() -> T) -> f64 {
    per_op_seeded(time, |_| op())
}

/// As [`per_op`], passing a fresh seed (0, 1, 2, …) to each call.
pub(crate) fn per_op_seeded<T>(time: Duration, mut op: impl FnMut(u64) -> T) -> f64 {
    let mut seed = 0u64;
    let mut batch = |iterations: u64| {
        let start = Instant::now();
        for _ in 0..iterations {
            black_box(op(seed));
            seed = seed.wrapping_add(1);
        }
        start.elapsed()
    };
    // Calibrate: double until a batch takes a tenth of the time.
    let slice = time / 10;
    let mut iterations = 1u64;
    loop {
        let took = batch(iterations);
        if took >= slice / 4 || iterations >= 1 << 40 {
            let per = took.as_secs_f64() / iterations as f64;
            iterations = ((slice.as_secs_f64() / per.max(1e-12)) as u64).max(1);
            break;
        }
        iterations *= 2;
    }
    let mut samples: Vec<f64> = (0..7).map(|_| batch(iterations).as_nanos() as f64 / iterations as f64).collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// How many positions (from tick 100 on) the clone measures cycle through.
const HOT_STATES: usize = 16;

/// The tick of the early-game board.
pub(crate) const EARLY_TICK: u32 = 10;
/// The tick of the mid-game board.
pub(crate) const MID_TICK: u32 = 250;

/// A bot that lasts: the safe move with the most free cells around its
/// target, straight on ties, then the lowest direction. Deterministic.
pub(crate) fn steady<E: Engine>(game: &E, id: usize) -> Action {
    let p = game.player(id);
    let (w, h) = (game.config().width, game.config().height);
    let free = |c: Pos| game.cell(c) == EMPTY;
    let best = safe(game, id).as_slice().iter().copied().max_by_key(|&d| {
        let target = p.pos.step(d, w, h).expect("safe moves stay on the board");
        let room = Dir::ALL.iter().filter(|&&e| target.step(e, w, h).is_some_and(free)).count();
        (room, d == p.dir, std::cmp::Reverse(d.code()))
    });
    best.map_or(Action::Keep, Action::Move)
}

/// The moves that do not crash into the board as it is (neck rule applied),
/// through the `Engine` trait so both engines run the same bot; no
/// allocation, so that the bot costs little beside the engine.
fn safe<E: Engine>(game: &E, id: usize) -> Moves {
    Moves::from(space::safe_moves(game, id))
}

/// The moves that do not crash at once, found the quickest way each engine
/// allows: the fast engine's [`space::safe_moves`] (four bit tests), the
/// reference's own grid (four cell reads). The random games use it, so that
/// each engine runs the bot a bot author would write for it.
trait NaturalSafe: Engine {
    fn natural_safe(&self, id: usize) -> Moves;
}

impl NaturalSafe for FastGame {
    fn natural_safe(&self, id: usize) -> Moves {
        Moves::from(space::safe_moves(self, id))
    }
}

impl NaturalSafe for ReferenceGame {
    fn natural_safe(&self, id: usize) -> Moves {
        let p = self.players()[id];
        let (w, h) = (self.config().width, self.config().height);
        let grid = self.grid();
        if !p.alive {
            return Moves::from(DirSet::NONE);
        }
        Moves::from(p.safe_moves(w, h, |c| grid[c.index(w)] == EMPTY))
    }
}

/// The bots' own random numbers (never the game's): SplitMix64 outputs
/// scaled into a range by a multiplication, not the rule book's division
/// based `below`, so that the bot costs little beside the engine. The small
/// bias does not matter to a bot.
struct BotRng(SplitMix64);

impl BotRng {
    fn new(seed: u64) -> BotRng {
        BotRng(SplitMix64::new(seed))
    }

    /// In `0..n`.
    fn below(&mut self, n: usize) -> usize {
        ((self.0.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Up to four directions.
struct Moves {
    dirs: [Dir; 4],
    len: usize,
}

impl From<DirSet> for Moves {
    fn from(set: DirSet) -> Moves {
        let mut moves = Moves { dirs: [Dir::N; 4], len: 0 };
        for d in set.iter() {
            moves.dirs[moves.len] = d;
            moves.len += 1;
        }
        moves
    }
}

impl Moves {
    fn as_slice(&self) -> &[Dir] {
        &self.dirs[..self.len]
    }

    /// One of them at random, or any direction when there is none.
    fn pick(&self, rng: &mut BotRng) -> Dir {
        match self.len {
            0 => Dir::ALL[rng.below(4)],
            n => self.dirs[rng.below(n)],
        }
    }
}

/// A default board played by two steady bots up to `ticks` (the first seed
/// whose game gets that far).
pub(crate) fn board_at(ticks: u32) -> FastGame {
    for seed in 0.. {
        let mut game = FastGame::seeded(&Config::default(), seed).expect("the default configuration builds");
        while game.tick() < ticks && !game.is_over() {
            let actions = [steady(&game, 0), steady(&game, 1)];
            game.step(&actions).expect("the game goes on");
        }
        if game.tick() == ticks && !game.is_over() {
            return game;
        }
    }
    unreachable!("some seed reaches the tick")
}

/// A recorded game on the default board for the step measures: its start,
/// the actions of every tick, and a few positions of its middle with the
/// actions played on them (a search copies from positions it has just
/// made, warm in the cache, so the clone measures cycle through a few).
struct Script<E: Engine> {
    start: E,
    actions: Vec<[Action; 2]>,
    hot: Vec<(E, [Action; 2])>,
}

impl<E: Engine> Script<E> {
    fn new() -> Script<E> {
        let mut rng = BotRng::new(7);
        for seed in 0.. {
            let start = E::seeded(&Config::default(), seed).expect("the default configuration builds");
            let mut game = start.clone();
            let (mut hot, mut actions) = (Vec::new(), Vec::new());
            while !game.is_over() {
                // Steady, with a random safe move now and then.
                let pick = |id: usize, rng: &mut BotRng| {
                    let moves = safe(&game, id);
                    if rng.below(4) == 0 && moves.len > 0 {
                        Action::Move(moves.pick(rng))
                    } else {
                        steady(&game, id)
                    }
                };
                let tick = [pick(0, &mut rng), pick(1, &mut rng)];
                if game.tick() >= 100 && hot.len() < HOT_STATES {
                    hot.push((game.clone(), tick));
                }
                actions.push(tick);
                game.step(&tick).expect("the game goes on");
            }
            if actions.len() >= 200 {
                return Script { start, actions, hot };
            }
        }
        unreachable!("some seed gives a long game")
    }

    fn ns_per_step(&self, time: Duration) -> f64 {
        let mut game = self.start.clone();
        let per_game = per_op(time, || {
            game.clone_from(&self.start);
            for a in &self.actions {
                let _ = game.step(black_box(a));
            }
            game.tick()
        });
        per_game / self.actions.len() as f64
    }

    fn ns_per_clone_step(&self, time: Duration) -> f64 {
        let mut i = 0;
        per_op(time, || {
            i = (i + 1) % self.hot.len();
            let (state, actions) = &self.hot[i];
            let mut game = state.clone();
            let _ = game.step(black_box(actions));
            game
        })
    }

    fn ns_per_copy_step(&self, time: Duration) -> f64 {
        let mut i = 0;
        let mut game = self.start.clone();
        per_op(time, || {
            i = (i + 1) % self.hot.len();
            let (state, actions) = &self.hot[i];
            game.clone_from(state);
            let _ = game.step(black_box(actions));
            game.tick()
        })
    }
}

/// Full games per second: a fresh seeded game each time, two random bots
/// (a random safe move, found through [`NaturalSafe`], any move when none is
/// safe), played to the end.
fn games_per_second<E: NaturalSafe>(config: &Config, time: Duration) -> f64 {
    let mut rng = BotRng::new(11);
    let ns = per_op_seeded(time, |seed| {
        let mut game = E::seeded(config, seed).expect("the configuration builds");
        play_out(&mut game, &mut rng)
    });
    1e9 / ns
}

/// Plays a two-player game to its end with two random bots; its last tick.
fn play_out<E: NaturalSafe>(game: &mut E, rng: &mut BotRng) -> u32 {
    while !game.is_over() {
        let mut actions = [Action::Keep; 2];
        for (id, action) in actions.iter_mut().enumerate() {
            *action = Action::Move(game.natural_safe(id).pick(rng));
        }
        game.step(&actions).expect("the game goes on");
    }
    game.tick()
}

/// As [`games_per_second`], without building each game: the starts of 64
/// seeds are built once and copied into one game, so that the figure is
/// the engine's and the bot's alone.
fn moves_per_second<E: NaturalSafe>(config: &Config, time: Duration) -> f64 {
    let starts: Vec<E> = (0..64).map(|seed| E::seeded(config, seed).expect("the configuration builds")).collect();
    let mut game = starts[0].clone();
    let mut rng = BotRng::new(11);
    let ns = per_op_seeded(time, |seed| {
        game.clone_from(&starts[seed as usize % starts.len()]);
        play_out(&mut game, &mut rng)
    });
    1e9 / ns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_says_what_it_measures_as_it_goes_and_prints_each_table_when_measured() {
        // The notes see the output as it is when they are made: the engine
        // table is out before the search bot is measured.
        let out = std::cell::RefCell::new(Vec::new());
        let mut seen: Vec<String> = Vec::new();
        let mut writer = SharedOut(&out);
        run_saying(&mut writer, Duration::from_millis(1), &mut |what| {
            let tables = String::from_utf8_lossy(&out.borrow()).matches("| measure |").count();
            seen.push(format!("{what} (tables so far: {tables})"));
        })
        .unwrap();
        assert_eq!(seen.len(), 6, "{seen:?}");
        assert!(seen[0].starts_with("engines: the limit probe") && seen[0].ends_with("(tables so far: 0)"), "{seen:?}");
        assert!(
            seen[4].starts_with("engines: through the C ABI") && seen[4].ends_with("(tables so far: 0)"),
            "{seen:?}"
        );
        assert!(seen[5].starts_with("the search bot") && seen[5].ends_with("(tables so far: 1)"), "{seen:?}");
    }

    struct SharedOut<'a>(&'a std::cell::RefCell<Vec<u8>>);

    impl Write for SharedOut<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lightcycles_bench_prints_every_row_with_figures() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from(["lightcycles", "bench", "--measure-ms", "1"]).unwrap();
        let mut out = Vec::new();
        crate::cli::execute(cli, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // The engine table, the C ABI table, the search bot's table, then
        // the bot adapters' table.
        let mut tables = text.split("\n\n");
        let engines = tables.next().expect("the engine table first");
        let abi = tables.next().expect("the C ABI table");
        let searches = tables.next().expect("the search bot's table");
        let lines: Vec<&str> = engines.lines().collect();
        assert_eq!(lines[0], "| measure | fast | reference | fast vs reference | fast in limit steps |");
        for adapter in ["| none (built-in bot) |", "| in-process C plugin |", "| JSON-lines subprocess |"] {
            assert!(text.contains(adapter), "{adapter} in {text}");
        }
        let rows: Vec<Vec<&str>> =
            lines[2..].iter().map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect()).collect();
        let wanted = [
            "limit probe: step",
            "limit probe: copy + step",
            "step (2 players, 48 × 36)",
            "search state: step",
            "clone + step",
            "copy into + step",
            "search state: copy + step",
            "reachable cells, early game",
            "search state: reachable cells, early game",
            "Voronoi split, early game",
            "search state: Voronoi split, early game",
            "reachable cells, mid game",
            "search state: reachable cells, mid game",
            "Voronoi split, mid game",
            "search state: Voronoi split, mid game",
            "full random games per second",
            "search state: full random games per second",
            "the same games, moves only",
            "search state: the same games, moves only",
            "maps generated per second",
            "one game state",
            "search state: one game state",
        ];
        assert_eq!(rows.len(), wanted.len(), "{text}");
        for (row, wanted) in rows.iter().zip(wanted) {
            assert!(row[0].starts_with(wanted), "{row:?} is not {wanted:?}");
            let sizes = row[0].contains("game state");
            for (i, figure) in row[1..].iter().enumerate() {
                if sizes && i == 3 {
                    assert_eq!(*figure, "—", "{row:?}: a size has no limit steps");
                    continue;
                }
                assert!(figure.starts_with(|c: char| c.is_ascii_digit()), "{row:?}");
                assert!(!figure.contains("inf") && !figure.contains("NaN"), "{row:?}");
            }
        }
        let lines: Vec<&str> = abi.lines().collect();
        assert_eq!(lines[0], "| through liblightcycles | C ABI | Rust | C ABI vs Rust |");
        assert_eq!(lines.len() - 2, 7, "{abi}");
        for line in &lines[2..] {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert!(cells[0].starts_with("`lc_"), "{line}");
            assert!(cells[1..].iter().all(|f| f.starts_with(|c: char| c.is_ascii_digit())), "{line}");
        }
        let lines: Vec<&str> = searches.lines().collect();
        assert_eq!(lines[0], "| search bot | figure |");
        let wanted = [
            "chamber bound of player 0's Voronoi cells, early game",
            "evaluation: Voronoi split and both chamber bounds, early game",
            "chamber bound of player 0's Voronoi cells, mid game",
            "evaluation: Voronoi split and both chamber bounds, mid game",
            "alpha-beta nodes per second",
            "ticks searched within a 50 ms limit",
        ];
        assert_eq!(lines.len() - 2, wanted.len(), "{text}");
        for (line, wanted) in lines[2..].iter().zip(wanted) {
            let (what, figure) = line.trim_matches('|').split_once(" | ").expect("two columns");
            assert!(what.trim().starts_with(wanted), "{line:?} is not {wanted:?}");
            assert!(figure.trim().starts_with(|c: char| c.is_ascii_digit()), "{line:?}");
        }
    }

    #[test]
    fn the_plain_searches_agree_with_the_helpers() {
        for ticks in [EARLY_TICK, MID_TICK] {
            let fast = board_at(ticks);
            let reference = ReferenceGame::from_position(&fast.position()).unwrap();
            let mut plain = PlainSearch::new(&reference);
            assert_eq!(plain.reachable(&reference, fast.head(0)), space::reachable(&fast, fast.head(0)));
            let v = space::voronoi(&fast);
            let counts = plain.voronoi(&reference);
            assert_eq!((counts[0], counts[1], counts[8]), (v.counts[0], v.counts[1], v.ties));
        }
    }

    #[test]
    fn both_engines_find_the_same_safe_moves() {
        for ticks in [0, EARLY_TICK, MID_TICK] {
            let fast = board_at(ticks);
            let reference = ReferenceGame::from_position(&fast.position()).unwrap();
            for id in 0..2 {
                let want = safe(&fast, id);
                assert_eq!(fast.natural_safe(id).as_slice(), want.as_slice());
                assert_eq!(reference.natural_safe(id).as_slice(), want.as_slice());
            }
        }
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(show(7.26, Unit::Nanos), "7.3 ns");
        assert_eq!(show(512.4, Unit::Nanos), "512 ns");
        assert_eq!(show(25_300.0, Unit::Nanos), "25.3 µs");
        assert_eq!(show(1_234_567.0, Unit::PerSecond), "1,234,567/s");
        assert_eq!(show(960.0, Unit::Bytes), "960 B");
    }
}
