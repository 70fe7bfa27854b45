//! `PATH.so`, `.dylib`, `.dll`: the adapter of native plugins, and the
//! factory that runs each bot of one on a thread of the host.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bot::adapter::plugin::in_process::{thread_bot, BrainSource};
use crate::bot::adapter::plugin::isolated;
use crate::bot::adapter::plugin::load::{self, brain_source};
use crate::bot::process::log::LogPlace;

use crate::bot::adapter::base::{Adapter, Hosting};
use crate::bot::adapter::naming::{file_stem_name, path_ending_in};
use crate::bot::spec_error::SpecError;
use crate::bot::{Bot, BotContext, BotError, BotFactory};

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
        thread_bot(self.source.as_ref(), &self.path, self.log.as_ref(), ctx)
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

    /// The file's stem without the `lib` that shared libraries are given
    /// (`./libsearch.so` is `search`).
    fn default_name(&self, target: &str) -> String {
        let stem = file_stem_name(Path::new(target)).unwrap_or_else(|| "plugin".to_string());
        match stem.strip_prefix("lib") {
            Some(rest) if !rest.is_empty() => rest.to_string(),
            _ => stem,
        }
    }

    /// The name in a C plugin's table, read by loading it in the host, or
    /// with `--isolate` in a child (its code never runs in the host): the
    /// same name either way.
    fn declared_name(&self, target: &str, hosting: &Hosting) -> Option<String> {
        if hosting.isolate {
            isolated::declared_name(Path::new(target), &hosting.sandbox)
        } else {
            load::declared_name(Path::new(target))
        }
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
