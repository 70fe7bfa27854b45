//! Which interface a plugin library speaks. A library that exports
//! `lightcycles_bot_v1` is a C plugin ([`super::c`]); one that exports an
//! abi_stable root module is a Rust plugin ([`super::rust`]); any other
//! library is refused with a message that says what a plugin must export.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bot::adapter::plugin::in_process::BrainSource;
use crate::bot::adapter::plugin::rust::RustPluginFactory;
use crate::bot::adapter::plugin::{c, rust};
use crate::bot::process::log::LogPlace;

/// `path` as a path the loader opens as a file: a bare file name
/// (`libbot.so`) is made `./libbot.so`, since `dlopen` looks a name
/// without a slash up in the library search path, not in the current
/// folder.
pub fn as_path(path: &Path) -> PathBuf {
    if path.is_relative() && path.parent().map_or(true, |p| p.as_os_str().is_empty()) {
        Path::new(".").join(path)
    } else {
        path.to_path_buf()
    }
}

/// The name a plugin declares: a C plugin in its table (`LcBotV1::name`),
/// a Rust plugin as `PluginBot::NAME`; `None` when it declares none or
/// does not load (the factory then says why).
pub fn declared_name(path: &Path) -> Option<String> {
    brain_source(path, None).ok()?.declared_name()
}

/// The brains of the plugin at `path`, or why it cannot be played.
pub fn brain_source(path: &Path, log: Option<LogPlace>) -> Result<Arc<dyn BrainSource>, String> {
    let path = &as_path(path);
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
