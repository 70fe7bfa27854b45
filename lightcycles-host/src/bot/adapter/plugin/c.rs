//! C plugins: a shared library that exports `lightcycles_bot_v1` (the
//! plugin ABI of `include/lightcycles.h`), loaded with libloading.
//!
//! Loading checks the table before anything is called: its size covers the
//! first version of `LcBotV1`, its `abi_version` is the one this host
//! speaks (another version is refused, naming both), and every function is
//! there. Each game and seat gets its own bot, made with the first
//! observation and the bot's own seed, run on a thread of its own
//! ([`crate::bot::adapter::plugin::in_process`]). `choose` returns 0 to 3 for N, E, S, W, or −1
//! for no move (without fault); any other code is an invalid answer,
//! recorded as the line `code 7` so that it stays invalid on replay. A
//! `create` that returns NULL makes the bot crash on every tick of that
//! game.
//!
//! What cannot be protected: the plugin runs in the host's process, so a
//! C++ exception or a Rust panic that leaves its functions, an abort, a
//! segfault or an `exit` ends the host (see [`crate::bot::adapter::plugin::in_process`]).
#![allow(unsafe_code)]

use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use libloading::Library;
use lightcycles_core::observation::Observation;
use lightcycles_core::Dir;
use lightcycles_ffi::{plugin::check_table, LcBotEntryFn, LcBotV1, ObservationBuffer, LC_BOT_ENTRY_SYMBOL};

use crate::bot::adapter::naming::plain_name;
use crate::bot::adapter::plugin::in_process::{thread_bot, Brain, BrainSource};
use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::seed::bot_seed;
use crate::bot::{Bot, BotContext, BotError, BotFactory, Reply};

/// A loaded C plugin: the library, kept loaded while any bot of it lives,
/// and its checked table.
struct CPlugin {
    table: LcBotV1,
    // Dropped last: the table's functions live in it. None for a table
    // that lives in this program.
    _library: Option<Library>,
}

// SAFETY: the table is immutable data and plain function pointers; the ABI
// lets different bots of one plugin run on different threads.
unsafe impl Send for CPlugin {}
// SAFETY: as above.
unsafe impl Sync for CPlugin {}

/// What loading a library as a C plugin found.
pub enum Loaded {
    /// A C plugin this host can play.
    Plugin(CPluginFactory),
    /// The library does not export `lightcycles_bot_v1`.
    NotC(Library),
}

/// Loads `path` and, when it exports `lightcycles_bot_v1`, checks its
/// table. Opening a library runs its initialisers: that cannot be avoided
/// for any plugin.
pub fn load(path: &Path, log: Option<LogPlace>) -> Result<Loaded, String> {
    let shown = path.display();
    // SAFETY: loading a library runs its initialisers; a plugin is code the
    // user chose to run in this process.
    let library = unsafe { Library::new(path) }.map_err(|e| format!("cannot load {shown}: {e}"))?;
    let symbol = format!("{LC_BOT_ENTRY_SYMBOL}\0");
    // SAFETY: the symbol has the entry signature of the plugin ABI.
    let entry = match unsafe { library.get::<LcBotEntryFn>(symbol.as_bytes()) } {
        Ok(entry) => *entry,
        Err(_) => return Ok(Loaded::NotC(library)),
    };
    // SAFETY: calling the entry of the ABI; `check_table` reads only the
    // fields `struct_size` covers and checks the version and functions.
    let table = unsafe { check_table(entry()) }.map_err(|e| format!("{shown}: refused: {e}"))?;
    let plugin = Arc::new(CPlugin { table: *table, _library: Some(library) });
    Ok(Loaded::Plugin(CPluginFactory { plugin, path: path.to_path_buf(), log }))
}

/// Makes a bot of a loaded C plugin for each game and seat.
#[derive(Clone)]
pub struct CPluginFactory {
    plugin: Arc<CPlugin>,
    path: PathBuf,
    log: Option<LogPlace>,
}

impl std::fmt::Debug for CPluginFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CPluginFactory").field("path", &self.path).field("log", &self.log).finish()
    }
}

impl CPluginFactory {
    /// A factory for a plugin table that lives in this program (no library
    /// to load), checked as a loaded one is: the same adapter, for
    /// measurements and tests.
    ///
    /// # Safety
    /// The table's functions must follow the plugin ABI of
    /// `include/lightcycles.h`.
    pub unsafe fn from_table(table: &'static LcBotV1, name: &str) -> Result<CPluginFactory, String> {
        // SAFETY: a valid reference; the caller vouches for the functions.
        let table = unsafe { check_table(table) }.map_err(|e| format!("{name}: refused: {e}"))?;
        Ok(CPluginFactory {
            plugin: Arc::new(CPlugin { table: *table, _library: None }),
            path: PathBuf::from(name),
            log: None,
        })
    }
}

impl CPluginFactory {
    /// The display name the plugin's table declares, if it declares one
    /// that is not empty (made to keep to the name grammar).
    pub fn table_name(&self) -> Option<String> {
        let name = self.plugin.table.name;
        if name.is_null() {
            return None;
        }
        // SAFETY: the ABI says a non-null `name` is a NUL-terminated string
        // that stays valid while the library is loaded.
        let text = unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned();
        plain_name(&text)
    }
}

impl BrainSource for CPluginFactory {
    fn declared_name(&self) -> Option<String> {
        self.table_name()
    }

    fn brain(&self, ctx: &BotContext) -> Box<dyn Brain> {
        Box::new(CBrain {
            plugin: Arc::clone(&self.plugin),
            bot: None,
            failed: false,
            seed: bot_seed(ctx.seed, ctx.seat),
            buffer: ObservationBuffer::default(),
        })
    }
}

impl BotFactory for CPluginFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        thread_bot(self, &self.path, self.log.as_ref(), ctx)
    }
}

/// One bot of a C plugin, made on the first observation.
struct CBrain {
    plugin: Arc<CPlugin>,
    bot: Option<*mut c_void>,
    failed: bool,
    seed: u64,
    /// The observation in C form, refilled each tick.
    buffer: ObservationBuffer,
}

// SAFETY: the bot pointer is used by the one thread that owns this brain.
unsafe impl Send for CBrain {}

/// The reply for a code `choose` returned.
pub fn reply_of_code(code: i32) -> Reply {
    match code {
        0..=3 => Reply::of_dir(Dir::ALL[code as usize]),
        -1 => Reply::NoMove,
        other => Reply::Line(format!("code {other}").into_bytes()),
    }
}

impl Brain for CBrain {
    fn choose(&mut self, obs: &Observation, limit: Duration, log: &BotLog) -> Reply {
        // One buffer a bot, refilled each tick: no allocation after the first.
        if let Err(e) = self.buffer.update_from_observation(obs) {
            log.note(&format!("tick {}: the observation cannot be given to the plugin: {e}", obs.tick));
            return Reply::Crash;
        }
        let buffer = &mut self.buffer;
        buffer.set_time_limit_ms(u32::try_from(limit.as_millis()).unwrap_or(u32::MAX));
        let table = &self.plugin.table;
        if self.bot.is_none() && !self.failed {
            let create = table.create.expect("checked at load");
            // SAFETY: a checked table; the observation lives for the call.
            let bot = unsafe { create(buffer.as_ptr(), self.seed) };
            if bot.is_null() {
                log.note(&format!("tick {}: the plugin's create returned NULL", obs.tick));
                self.failed = true;
            } else {
                self.bot = Some(bot);
            }
        }
        let Some(bot) = self.bot else { return Reply::Crash };
        let choose = table.choose.expect("checked at load");
        // SAFETY: a bot made by this table's create, used by one thread.
        let code = unsafe { choose(bot, buffer.as_ptr()) };
        if !(-1..=3).contains(&code) {
            log.note(&format!("tick {}: choose returned {code}, not a move (0-3) or -1", obs.tick));
        }
        reply_of_code(code)
    }
}

impl Drop for CBrain {
    fn drop(&mut self) {
        if let Some(bot) = self.bot.take() {
            let destroy = self.plugin.table.destroy.expect("checked at load");
            // SAFETY: made by create, destroyed once.
            unsafe { destroy(bot) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Turn;
    use lightcycles_core::{Answer, Config, Engine, FaultKind, ReferenceGame};
    use lightcycles_ffi::{LcObservation, LC_BOT_ABI_VERSION};

    /// A bot in C's clothes: answers its tick number minus 2 (so -1, 0, 1,
    /// 2, 3, 4 on ticks 1 to 6) when told its limit of 777 ms, and refuses
    /// to be made for seat 1.
    unsafe extern "C" fn create(first: *const LcObservation, _seed: u64) -> *mut c_void {
        // SAFETY: the host passes a valid observation.
        if unsafe { (*first).you } == 1 {
            return std::ptr::null_mut();
        }
        Box::into_raw(Box::new(0u32)).cast()
    }
    unsafe extern "C" fn choose(bot: *mut c_void, obs: *const LcObservation) -> i32 {
        // SAFETY: made by `create`; a valid observation.
        unsafe {
            *bot.cast::<u32>() += 1;
            if (*obs).time_limit_ms != 777 {
                return 99; // not told its limit: an answer the test rejects
            }
            (*obs).tick as i32 - 2
        }
    }
    unsafe extern "C" fn destroy(bot: *mut c_void) {
        // SAFETY: made by `create`, destroyed once.
        drop(unsafe { Box::from_raw(bot.cast::<u32>()) });
    }
    static TABLE: LcBotV1 = LcBotV1 {
        struct_size: std::mem::size_of::<LcBotV1>() as u32,
        abi_version: LC_BOT_ABI_VERSION,
        name: std::ptr::null(),
        create: Some(create),
        choose: Some(choose),
        destroy: Some(destroy),
    };

    #[test]
    fn a_c_bot_is_made_per_seat_and_its_codes_are_judged() {
        // SAFETY: the functions above follow the ABI.
        let factory = unsafe { CPluginFactory::from_table(&TABLE, "table") }.unwrap();
        let mut zero = factory.create(&BotContext { game: 0, seat: 0, players: 2, seed: 1 }).unwrap();
        let mut one = factory.create(&BotContext { game: 0, seat: 1, players: 2, seed: 1 }).unwrap();
        let mut game = ReferenceGame::seeded(&Config { width: 20, height: 20, ..Config::default() }, 1).unwrap();
        let mut replies = Vec::new();
        for _ in 0..6 {
            let position = game.position();
            replies.push(zero.answer(&Turn::new(&position, 0), Duration::from_millis(777)));
            assert_eq!(one.answer(&Turn::new(&position, 1), Duration::from_millis(777)), Reply::Crash);
            game.step(&[lightcycles_core::Action::Keep; 2]).unwrap();
        }
        let expected = [Reply::NoMove, Reply::of_dir(Dir::N), Reply::of_dir(Dir::E), Reply::of_dir(Dir::S)];
        assert_eq!(replies[..4], expected);
        assert_eq!(replies[4], Reply::of_dir(Dir::W));
        assert_eq!(replies[5], Reply::Line(b"code 4".to_vec()));
    }

    #[test]
    fn a_table_of_another_version_or_with_a_hole_is_refused() {
        static NEWER: LcBotV1 = LcBotV1 { abi_version: LC_BOT_ABI_VERSION + 1, ..TABLE };
        static HOLE: LcBotV1 = LcBotV1 { choose: None, ..TABLE };
        // SAFETY: as above.
        let err = unsafe { CPluginFactory::from_table(&NEWER, "newer") }.err().unwrap();
        assert_eq!(err, "newer: refused: the plugin speaks bot ABI version 2, this host version 1");
        // SAFETY: as above.
        let err = unsafe { CPluginFactory::from_table(&HOLE, "hole") }.err().unwrap();
        assert_eq!(err, "hole: refused: the LcBotV1 table has no `choose` function");
    }

    #[test]
    fn codes_become_moves_no_move_or_invalid_lines() {
        assert_eq!(reply_of_code(0), Reply::of_dir(Dir::N));
        assert_eq!(reply_of_code(3), Reply::of_dir(Dir::W));
        assert_eq!(reply_of_code(-1), Reply::NoMove);
        for code in [4, -2, i32::MAX, i32::MIN] {
            let reply = reply_of_code(code);
            let Reply::Line(line) = &reply else { panic!("{reply:?}") };
            let answer = Answer::from_line(line);
            assert_eq!(answer.fault, Some(FaultKind::Invalid));
            assert_eq!(answer.line.as_deref(), Some(format!("code {code}").as_str()));
        }
    }
}
