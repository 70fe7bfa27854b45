//! # lightcycles-plugin
//!
//! Write a LightCycles bot in Rust as a plugin: a `cdylib` that the
//! `lightcycles` host loads in its own process and asks for a move every
//! tick, with no process, pipe or JSON in between.
//!
//! The interface crosses the library boundary through
//! [abi_stable](https://docs.rs/abi_stable): when the host loads a plugin,
//! abi_stable checks that the plugin was built against a compatible version
//! of this crate (the same major version: the major version *is* the plugin
//! interface version) and that every type of the interface has the layout
//! the host expects. A plugin that fails a check is refused with a message
//! naming both versions or the type that differs; it is never called.
//!
//! ```
//! use lightcycles_plugin::{export_bot, Dir, PluginBot, View};
//!
//! struct Straight;
//!
//! impl PluginBot for Straight {
//!     fn new(_first: &View<'_>, _seed: u64) -> Result<Self, String> {
//!         Ok(Straight)
//!     }
//!     fn choose(&mut self, obs: &View<'_>) -> Option<Dir> {
//!         Some(obs.me().dir)
//!     }
//! }
//!
//! export_bot!(Straight);
//! ```
//!
//! The plugin's `Cargo.toml` needs `crate-type = ["cdylib"]` and both this
//! crate and `abi_stable` as dependencies (the export macro names
//! `abi_stable` directly). `examples/rust-plugin-bot` is a complete one.
//!
//! A panic in [`PluginBot::new`] or [`PluginBot::choose`] is caught inside
//! the plugin and reported to the host, which records a `crash` for that
//! tick. What no host can catch in its own process is documented in
//! docs/untrusted-bots.md: an abort, a crash by a signal, a loop without end (the host stops
//! waiting, but the thread runs on), or output on the host's stdout.

use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use abi_stable::library::RootModule;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{RResult, RSlice, RStr, RString};
use abi_stable::{declare_root_module_statics, package_version_strings, StableAbi};

pub use lightcycles_core::observation::{Observation, PlayerView};
pub use lightcycles_core::{CellValue, Dir, EMPTY, ROCK};

/// One player as a plugin sees it.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PluginPlayer {
    /// Player id.
    pub id: u32,
    /// Head column (the last head when dead).
    pub x: u32,
    /// Head row.
    pub y: u32,
    /// Current direction: 0 N, 1 E, 2 S, 3 W (docs/RULES.md section 2).
    pub dir: u8,
    /// Whether the player still rides.
    pub alive: bool,
}

/// The observation of docs/RULES.md section 5, borrowed by the plugin for the
/// length of one call.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug)]
pub struct View<'a> {
    /// The tick being decided: 1 on the first decision.
    pub tick: u32,
    /// The tick cap.
    pub max_ticks: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The id of the player deciding.
    pub you: u32,
    /// The time the bot has for this answer, in milliseconds (0 when not
    /// known): a search bot's budget. The host stops waiting after it.
    pub time_limit_ms: u32,
    /// Every player by id, dead ones too.
    pub players: RSlice<'a, PluginPlayer>,
    /// Cell values, row-major (`y * width + x`): `-1` empty, `-2` rock, `p`
    /// a trail of player `p`.
    pub grid: RSlice<'a, i8>,
}

impl<'a> View<'a> {
    /// The view of an observation, with no time limit given: `players` and
    /// `grid` are filled from it.
    pub fn of(obs: &Observation, players: &'a mut Vec<PluginPlayer>, grid: &'a mut Vec<i8>) -> View<'a> {
        players.clear();
        players.extend(obs.players.iter().map(|p| PluginPlayer {
            id: p.id as u32,
            x: p.x,
            y: p.y,
            dir: p.dir as u8,
            alive: p.alive,
        }));
        grid.clear();
        grid.extend(obs.grid.iter().flatten().copied());
        View {
            tick: obs.tick,
            max_ticks: obs.max_ticks,
            width: obs.width,
            height: obs.height,
            you: obs.you as u32,
            time_limit_ms: 0,
            players: RSlice::from_slice(players),
            grid: RSlice::from_slice(grid),
        }
    }

    /// The same view with a time limit.
    pub fn with_time_limit_ms(self, time_limit_ms: u32) -> View<'a> {
        View { time_limit_ms, ..self }
    }

    /// The value of cell `(x, y)`; off the board is a rock.
    pub fn cell(&self, x: i64, y: i64) -> CellValue {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return ROCK;
        }
        self.grid.as_slice()[(y * self.width as i64 + x) as usize]
    }

    /// Player `id`.
    pub fn player(&self, id: usize) -> PlayerView {
        let p = self.players.as_slice()[id];
        PlayerView { id: p.id as usize, x: p.x, y: p.y, dir: Dir::ALL[(p.dir & 3) as usize], alive: p.alive }
    }

    /// The player deciding.
    pub fn me(&self) -> PlayerView {
        self.player(self.you as usize)
    }

    /// The same observation as the core's owned type, to build an engine
    /// from (`Observation::to_position`) and search.
    pub fn to_observation(&self) -> Observation {
        let w = self.width as usize;
        Observation {
            tick: self.tick,
            max_ticks: self.max_ticks,
            width: self.width,
            height: self.height,
            you: self.you as usize,
            players: (0..self.players.len()).map(|i| self.player(i)).collect(),
            grid: self.grid.as_slice().chunks(w.max(1)).map(<[i8]>::to_vec).collect(),
            time_bank_ms: None,
        }
    }
}

/// A plugin's answer for one tick.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PluginMove {
    /// Ride north.
    N = 0,
    /// Ride east.
    E = 1,
    /// Ride south.
    S = 2,
    /// Ride west.
    W = 3,
    /// Keep the direction, without fault.
    NoMove = 4,
}

impl From<Option<Dir>> for PluginMove {
    fn from(dir: Option<Dir>) -> PluginMove {
        match dir {
            Some(Dir::N) => PluginMove::N,
            Some(Dir::E) => PluginMove::E,
            Some(Dir::S) => PluginMove::S,
            Some(Dir::W) => PluginMove::W,
            None => PluginMove::NoMove,
        }
    }
}

impl PluginMove {
    /// The direction, if this is a move.
    pub fn dir(self) -> Option<Dir> {
        match self {
            PluginMove::N => Some(Dir::N),
            PluginMove::E => Some(Dir::E),
            PluginMove::S => Some(Dir::S),
            PluginMove::W => Some(Dir::W),
            PluginMove::NoMove => None,
        }
    }
}

/// A bot instance inside the plugin, opaque to the host.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug)]
pub struct BotHandle(*mut c_void);

// The host moves a handle to the one thread that calls the bot.
unsafe impl Send for BotHandle {}

/// The table a plugin exports, checked by abi_stable when it is loaded.
/// Every function catches the plugin's panics: an `RErr` carries the panic
/// message.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = BotModuleRef)))]
#[sabi(missing_field(panic))]
pub struct BotModule {
    /// A bot for one game and seat, from the first observation and a seed
    /// of its own.
    pub create: for<'a> extern "C" fn(first: &View<'a>, seed: u64) -> RResult<BotHandle, RString>,
    /// The bot's answer to an observation.
    pub choose: for<'a> extern "C" fn(bot: BotHandle, obs: &View<'a>) -> RResult<PluginMove, RString>,
    /// Frees a bot made by `create`; the handle is not used again.
    #[sabi(last_prefix_field)]
    pub destroy: extern "C" fn(bot: BotHandle),
    /// The bot's display name ([`PluginBot::NAME`]; empty: none). Added
    /// after the prefix: a plugin built before it has none, and the host
    /// reads `None`.
    #[sabi(missing_field(option))]
    pub name: extern "C" fn() -> RStr<'static>,
}

impl RootModule for BotModuleRef {
    declare_root_module_statics! {BotModuleRef}
    const BASE_NAME: &'static str = "lightcycles_bot";
    const NAME: &'static str = "lightcycles bot plugin";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// The version of this interface: the major version of this crate.
pub const INTERFACE_VERSION: &str = env!("CARGO_PKG_VERSION_MAJOR");

/// A bot written as a plugin.
pub trait PluginBot: Sized + 'static {
    /// A bot for one game and seat. `seed` is the bot's own: a bot that
    /// wants randomness draws from a generator seeded with it, so the same
    /// game plays the same way every time. An error is logged by the host,
    /// and the bot crashes on every tick of that game.
    fn new(first: &View<'_>, seed: u64) -> Result<Self, String>;

    /// The move for this tick, or `None` to keep the direction.
    fn choose(&mut self, obs: &View<'_>) -> Option<Dir>;

    /// The name the host shows the bot by when its spec gives none (empty:
    /// the plugin file's name).
    const NAME: &'static str = "";
}

thread_local! {
    /// Whether this thread is inside a call from the host, whose panics are
    /// reported to the host rather than printed.
    static IN_HOST_CALL: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic into its message. Panics caught here are not
/// printed: the host logs them.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_HOST_CALL.with(Cell::get) {
                default(info);
            }
        }));
    });
    IN_HOST_CALL.with(|c| c.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_HOST_CALL.with(|c| c.set(false));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        format!("panicked: {message}")
    })
}

extern "C" fn create<B: PluginBot>(first: &View<'_>, seed: u64) -> RResult<BotHandle, RString> {
    match guarded(|| B::new(first, seed)) {
        Ok(Ok(bot)) => RResult::ROk(BotHandle(Box::into_raw(Box::new(bot)).cast())),
        Ok(Err(message)) | Err(message) => RResult::RErr(message.into()),
    }
}

extern "C" fn choose<B: PluginBot>(bot: BotHandle, obs: &View<'_>) -> RResult<PluginMove, RString> {
    // SAFETY: the handle was made by `create::<B>` and the host calls one
    // bot from one thread at a time.
    let bot = unsafe { &mut *bot.0.cast::<B>() };
    match guarded(|| bot.choose(obs)) {
        Ok(dir) => RResult::ROk(dir.into()),
        Err(message) => RResult::RErr(message.into()),
    }
}

extern "C" fn destroy<B: PluginBot>(bot: BotHandle) {
    // SAFETY: made by `create::<B>`, destroyed once.
    let bot = unsafe { Box::from_raw(bot.0.cast::<B>()) };
    let _ = guarded(move || drop(bot));
}

extern "C" fn name<B: PluginBot>() -> RStr<'static> {
    RStr::from_str(B::NAME)
}

/// The module of bot type `B`; used by [`export_bot!`].
pub fn module_of<B: PluginBot>() -> BotModuleRef {
    BotModule { create: create::<B>, choose: choose::<B>, destroy: destroy::<B>, name: name::<B> }.leak_into_prefix()
}

/// Exports bot type `B` (a [`PluginBot`]) as the plugin's root module.
#[macro_export]
macro_rules! export_bot {
    ($bot:ty) => {
        /// The root module of this plugin, found and checked by the host.
        #[::abi_stable::export_root_module]
        pub fn lightcycles_bot_root_module() -> $crate::BotModuleRef {
            $crate::module_of::<$bot>()
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Config, Engine, ReferenceGame};

    struct Panicky;

    impl PluginBot for Panicky {
        fn new(first: &View<'_>, _seed: u64) -> Result<Self, String> {
            if first.you == 1 {
                return Err("seat 1 refused".into());
            }
            Ok(Panicky)
        }
        fn choose(&mut self, obs: &View<'_>) -> Option<Dir> {
            if obs.tick == 2 {
                panic!("tick two");
            }
            Some(obs.me().dir)
        }
    }

    #[test]
    fn a_view_shows_the_observation_and_gives_it_back() {
        let game = ReferenceGame::seeded(&Config::default(), 4).unwrap();
        let obs = Observation::new(&game, 1);
        let (mut players, mut grid) = (Vec::new(), Vec::new());
        let view = View::of(&obs, &mut players, &mut grid);
        assert_eq!(view.to_observation(), obs);
        assert_eq!(view.me(), obs.players[1]);
        assert_eq!(view.cell(-1, 0), ROCK);
        assert_eq!(view.cell(obs.players[0].x as i64, obs.players[0].y as i64), 0);
    }

    #[test]
    fn panics_and_errors_come_back_as_messages() {
        let module = module_of::<Panicky>();
        let game = ReferenceGame::seeded(&Config::default(), 4).unwrap();
        let mut obs = Observation::new(&game, 0);
        let (mut players, mut grid) = (Vec::new(), Vec::new());
        let view = View::of(&obs, &mut players, &mut grid);
        let bot = match (module.create())(&view, 1) {
            RResult::ROk(bot) => bot,
            RResult::RErr(e) => panic!("{e}"),
        };
        assert_eq!((module.choose())(bot, &view), RResult::ROk(PluginMove::from(Some(obs.players[0].dir))));
        obs.tick = 2;
        let view = View::of(&obs, &mut players, &mut grid);
        assert_eq!((module.choose())(bot, &view), RResult::RErr("panicked: tick two".into()));
        (module.destroy())(bot);
        let view = View::of(&obs.for_player(1), &mut players, &mut grid);
        assert!(matches!((module.create())(&view, 1), RResult::RErr(e) if e == "seat 1 refused"));
    }

    #[test]
    fn moves_round_trip() {
        for d in [None, Some(Dir::N), Some(Dir::E), Some(Dir::S), Some(Dir::W)] {
            assert_eq!(PluginMove::from(d).dir(), d);
        }
    }
}
