//! Native plugins (`PATH.so`, `.dylib`, `.dll`): which interface a library
//! speaks. A library that exports `lightcycles_bot_v1` is a C plugin
//! ([`crate::bot::adapter::plugin::c`]); one that exports an abi_stable root module is a
//! Rust plugin ([`crate::bot::adapter::plugin::rust`]); any other library is refused with
//! a message that says what a plugin must export.

pub mod c;
pub mod in_process;
pub mod isolated;
pub mod rust;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bot::adapter::plugin::in_process::{Brain, ThreadBot};
use crate::bot::process::log::{BotLog, LogPlace};

use crate::bot::adapter::{file_stem_name, path_ending_in, Adapter, Hosting};
use crate::bot::spec::SpecError;
use crate::bot::{Bot, BotContext, BotError, BotFactory};
use rust::RustPluginFactory;

/// Makes the code of one bot of a loaded plugin (its [`Brain`]) for a game
/// and seat, to run on a thread of the host or in the plugin host process.
pub trait BrainSource: Send + Sync {
    /// The brain of the bot of `ctx`, made with the bot's own seed.
    fn brain(&self, ctx: &BotContext) -> Box<dyn Brain>;
}

/// The brains of the plugin at `path`, or why it cannot be played.
pub fn brain_source(path: &Path, log: Option<LogPlace>) -> Result<Arc<dyn BrainSource>, String> {
    let library = match c::load(path, log.clone())? {
        c::Loaded::Plugin(factory) => return Ok(Arc::new(factory)),
        c::Loaded::NotC(library) => library,
    };
    let found = rust::load(path);
    // The Rust loader opened the library again (and keeps it): this handle
    // is no longer needed.
    drop(library);
    match found? {
        rust::Loaded::Plugin(module) => Ok(Arc::new(RustPluginFactory::new(module, path, log))),
        rust::Loaded::NotRust => Err(format!(
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

/// `PATH.so`, `.dylib`, `.dll`.
pub struct PluginAdapter;

impl Adapter for PluginAdapter {
    fn form(&self) -> &'static str {
        "native plugins (PATH.so, .dylib, .dll)"
    }

    fn claim(&self, _arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        path_ending_in(form, &["so", "dylib", "dll"]).map(Ok)
    }

    fn default_name(&self, target: &str) -> String {
        file_stem_name(Path::new(target)).unwrap_or_else(|| "plugin".to_string())
    }

    fn isolatable(&self) -> bool {
        true
    }

    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        let path = Path::new(target);
        if hosting.isolate {
            Ok(Arc::new(isolated::IsolatedFactory::new(path, log, hosting.sandbox)?))
        } else {
            factory(path, log)
        }
    }
}
