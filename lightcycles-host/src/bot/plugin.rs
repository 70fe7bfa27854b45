//! Native plugins (`PATH.so`, `.dylib`, `.dll`): which interface a library
//! speaks. A library that exports `lightcycles_bot_v1` is a C plugin
//! ([`super::plugin_c`]); one that exports an abi_stable root module is a
//! Rust plugin ([`super::plugin_rust`]); any other library is refused with
//! a message that says what a plugin must export.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::in_process::{Brain, ThreadBot};
use super::log::{BotLog, LogPlace};
use super::plugin_c;
use super::plugin_rust::{self, RustPluginFactory};
use super::{Bot, BotContext, BotError, BotFactory};

/// Makes the code of one bot of a loaded plugin (its [`Brain`]) for a game
/// and seat, to run on a thread of the host or in the plugin host process.
pub trait BrainSource: Send + Sync {
    /// The brain of the bot of `ctx`, made with the bot's own seed.
    fn brain(&self, ctx: &BotContext) -> Box<dyn Brain>;
}

/// The brains of the plugin at `path`, or why it cannot be played.
pub fn brain_source(path: &Path, log: Option<LogPlace>) -> Result<Arc<dyn BrainSource>, String> {
    let library = match plugin_c::load(path, log.clone())? {
        plugin_c::Loaded::Plugin(factory) => return Ok(Arc::new(factory)),
        plugin_c::Loaded::NotC(library) => library,
    };
    let found = plugin_rust::load(path);
    // The Rust loader opened the library again (and keeps it): this handle
    // is no longer needed.
    drop(library);
    match found? {
        plugin_rust::Loaded::Plugin(module) => Ok(Arc::new(RustPluginFactory::new(module, path, log))),
        plugin_rust::Loaded::NotRust => Err(format!(
            "{} is not a plugin this build can load: it exports neither lightcycles_bot_v1 (a C plugin, \
             include/lightcycles.h) nor an abi_stable root module (a Rust plugin built with lightcycles-plugin \
             and export_bot!)",
            path.display()
        )),
    }
}

/// The factory of the plugin at `path`, run in-process (each bot on a
/// thread of its own), or why it cannot be played.
pub fn factory(path: &Path, log: Option<LogPlace>) -> Result<Arc<dyn BotFactory>, String> {
    Ok(Arc::new(InProcessFactory { source: brain_source(path, log.clone())?, path: path.to_path_buf(), log }))
}

/// Makes each bot of a plugin on a thread of the host.
struct InProcessFactory {
    source: Arc<dyn BrainSource>,
    path: PathBuf,
    log: Option<LogPlace>,
}

impl BotFactory for InProcessFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        let log = BotLog::open(self.log.as_ref(), ctx.game, ctx.seat);
        let name = self.path.file_stem().map_or_else(|| "plugin".into(), |s| s.to_string_lossy().into_owned());
        Ok(Box::new(ThreadBot::start(self.source.brain(ctx), &name, log)?))
    }
}
