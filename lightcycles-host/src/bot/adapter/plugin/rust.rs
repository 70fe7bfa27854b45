//! Rust plugins: a `cdylib` built on the `lightcycles-plugin` crate,
//! loaded through abi_stable.
//!
//! abi_stable checks at load time that the plugin was built against the
//! same major version of `lightcycles-plugin` (the plugin interface
//! version) and that every type of the interface has the layout this host
//! expects; a plugin that fails is refused before it is ever called, with
//! a message naming both versions or what differs. A library is loaded once
//! per run and never unloaded (abi_stable's rule: a module may leave
//! references behind). Each game and seat gets its own bot from the
//! plugin, made with the first observation and the bot's own seed, run on a
//! thread of its own ([`crate::bot::adapter::plugin::in_process`]).
//!
//! Panics inside the plugin are caught by the plugin's side of the
//! interface and come back as messages: the tick is a `crash`, the message
//! goes to the bot's log, and the bot is asked again next tick.

use std::path::{Path, PathBuf};
use std::time::Duration;

use abi_stable::library::{lib_header_from_path, LibraryError};
use abi_stable::std_types::RResult;
use lightcycles_core::observation::Observation;
use lightcycles_plugin::{BotHandle, BotModuleRef, PluginPlayer, View};

use crate::bot::adapter::naming::plain_name;
use crate::bot::adapter::plugin::in_process::{thread_bot, Brain, BrainSource};
use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::seed::bot_seed;
use crate::bot::{Bot, BotContext, BotError, BotFactory, Reply};

/// The plugin interface version this host loads: the major version of
/// `lightcycles-plugin`.
pub const INTERFACE_VERSION: &str = lightcycles_plugin::INTERFACE_VERSION;

/// What loading a library as a Rust plugin found.
pub enum Loaded {
    /// A Rust plugin this host can play.
    Plugin(BotModuleRef),
    /// The library has no abi_stable root module: not a Rust plugin.
    NotRust,
}

/// Loads `path` as a Rust plugin. An error names the path and why it is
/// refused: a library that cannot be opened, another interface version, an
/// interface layout that differs.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let header = match lib_header_from_path(path) {
        Ok(header) => header,
        Err(LibraryError::GetSymbolError { .. }) => return Ok(Loaded::NotRust),
        Err(LibraryError::OpenError { err, .. }) => return Err(format!("cannot load {}: {err}", path.display())),
        Err(e) => return Err(refusal(path, &e)),
    };
    header.init_root_module::<BotModuleRef>().map(Loaded::Plugin).map_err(|e| refusal(path, &e))
}

fn refusal(path: &Path, e: &LibraryError) -> String {
    let shown = path.display();
    match e {
        LibraryError::IncompatibleVersionNumber { expected_version, actual_version, .. } => format!(
            "{shown} is a Rust plugin for plugin interface version {} (lightcycles-plugin {actual_version}), \
             but this host loads version {} (lightcycles-plugin {expected_version}); rebuild the plugin \
             against lightcycles-plugin {}.x",
            actual_version.major, expected_version.major, expected_version.major
        ),
        LibraryError::AbiInstability(_) | LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. } => {
            let detail = e.to_string();
            let detail = detail.trim();
            format!("{shown}: the plugin's interface types differ from this host's, so it is refused:\n{detail}")
        }
        other => format!("{shown}: cannot load the Rust plugin: {}", other.to_string().trim()),
    }
}

/// Makes a bot of a loaded Rust plugin for each game and seat.
#[derive(Clone)]
pub struct RustPluginFactory {
    module: BotModuleRef,
    path: PathBuf,
    log: Option<LogPlace>,
}

impl std::fmt::Debug for RustPluginFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RustPluginFactory").field("path", &self.path).field("log", &self.log).finish()
    }
}

impl RustPluginFactory {
    /// A factory for the plugin `module`, loaded from `path`.
    pub fn new(module: BotModuleRef, path: &Path, log: Option<LogPlace>) -> RustPluginFactory {
        RustPluginFactory { module, path: path.to_path_buf(), log }
    }
}

impl BrainSource for RustPluginFactory {
    /// `PluginBot::NAME`, when the plugin was built with a lightcycles-plugin
    /// that has it and gives one.
    fn declared_name(&self) -> Option<String> {
        let name = self.module.name()?;
        plain_name(&name().as_str().chars().take(64).collect::<String>())
    }

    fn brain(&self, ctx: &BotContext) -> Box<dyn Brain> {
        Box::new(RustBrain {
            module: self.module,
            bot: None,
            failed: false,
            seed: bot_seed(ctx.seed, ctx.seat),
            players: Vec::new(),
            grid: Vec::new(),
        })
    }
}

impl BotFactory for RustPluginFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        thread_bot(self, &self.path, self.log.as_ref(), ctx)
    }
}

/// One bot of a Rust plugin, made on the first observation.
struct RustBrain {
    module: BotModuleRef,
    bot: Option<BotHandle>,
    /// The plugin refused to make the bot: it crashes every tick.
    failed: bool,
    seed: u64,
    players: Vec<PluginPlayer>,
    grid: Vec<i8>,
}

impl Brain for RustBrain {
    fn choose(&mut self, obs: &Observation, limit: Duration, log: &BotLog) -> Reply {
        let ms = u32::try_from(limit.as_millis()).unwrap_or(u32::MAX);
        let view = View::of(obs, &mut self.players, &mut self.grid).with_time_limit_ms(ms);
        if self.bot.is_none() && !self.failed {
            match (self.module.create())(&view, self.seed) {
                RResult::ROk(bot) => self.bot = Some(bot),
                RResult::RErr(e) => {
                    log.note(&format!("tick {}: the plugin could not make its bot: {e}", obs.tick));
                    self.failed = true;
                }
            }
        }
        let Some(bot) = self.bot else { return Reply::Crash };
        match (self.module.choose())(bot, &view) {
            RResult::ROk(m) => m.dir().map_or(Reply::NoMove, Reply::of_dir),
            RResult::RErr(e) => {
                log.note(&format!("tick {}: {e}", obs.tick));
                Reply::Crash
            }
        }
    }
}

impl Drop for RustBrain {
    fn drop(&mut self) {
        if let Some(bot) = self.bot.take() {
            (self.module.destroy())(bot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Turn;
    use abi_stable::sabi_types::VersionNumber;
    use lightcycles_core::{Config, Engine, ReferenceGame};
    use lightcycles_plugin::{module_of, Dir, PluginBot};

    /// Answers E when it is told its time limit of 1234 ms, N when the
    /// seed is odd, and refuses seat 1.
    struct Teller;

    impl PluginBot for Teller {
        fn new(first: &View<'_>, _seed: u64) -> Result<Self, String> {
            if first.you == 1 {
                return Err("no seat 1".into());
            }
            Ok(Teller)
        }
        fn choose(&mut self, obs: &View<'_>) -> Option<Dir> {
            if obs.tick == 2 {
                panic!("tick 2");
            }
            Some(if obs.time_limit_ms == 1234 { Dir::E } else { Dir::W })
        }
    }

    #[test]
    fn a_plugin_bot_is_made_once_told_its_limit_and_its_panics_are_crashes() {
        let dir = tempfile::tempdir().unwrap();
        let place = LogPlace { dir: dir.path().to_path_buf(), name: "teller".into() };
        let factory = RustPluginFactory::new(module_of::<Teller>(), Path::new("teller.so"), Some(place.clone()));
        let mut game = ReferenceGame::seeded(&Config::default(), 2).unwrap();
        let mut zero = factory.create(&BotContext { game: 0, seat: 0, players: 2, seed: 2 }).unwrap();
        let mut one = factory.create(&BotContext { game: 0, seat: 1, players: 2, seed: 2 }).unwrap();
        let mut replies = Vec::new();
        for _ in 0..3 {
            let position = game.position();
            replies.push(zero.answer(&Turn::new(&position, 0), Duration::from_millis(1234)));
            assert_eq!(one.answer(&Turn::new(&position, 1), Duration::from_millis(1234)), Reply::Crash);
            game.step(&[lightcycles_core::Action::Keep; 2]).unwrap();
        }
        assert_eq!(replies, vec![Reply::of_dir(Dir::E), Reply::Crash, Reply::of_dir(Dir::E)]);
        drop((zero, one));
        let log = std::fs::read_to_string(place.path(0, 0)).unwrap();
        assert_eq!(log, "[lightcycles] tick 2: panicked: tick 2\n");
        let log = std::fs::read_to_string(place.path(0, 1)).unwrap();
        assert_eq!(log, "[lightcycles] tick 1: the plugin could not make its bot: no seat 1\n");
    }

    #[test]
    fn another_interface_version_is_refused_naming_both() {
        let e = LibraryError::IncompatibleVersionNumber {
            library_name: "lightcycles bot plugin",
            expected_version: VersionNumber { major: 1, minor: 0, patch: 0 },
            actual_version: VersionNumber { major: 2, minor: 3, patch: 1 },
        };
        assert_eq!(
            refusal(Path::new("libx.so"), &e),
            "libx.so is a Rust plugin for plugin interface version 2 (lightcycles-plugin 2.3.1), but this host \
             loads version 1 (lightcycles-plugin 1.0.0); rebuild the plugin against lightcycles-plugin 1.x"
        );
        assert_eq!(INTERFACE_VERSION, "1");
    }

    #[test]
    fn a_missing_library_is_not_loaded() {
        let err = match load(Path::new("/nonexistent/libbot.so")) {
            Err(e) => e,
            Ok(_) => panic!("loaded a missing file"),
        };
        assert!(err.starts_with("cannot load /nonexistent/libbot.so"), "{err}");
    }
}
