//! Native plugins (`PATH.so`, `.dylib`, `.dll`): which interface a library
//! speaks. A library that exports `lightcycles_bot_v1` is a C plugin
//! ([`super::plugin_c`]); one that exports an abi_stable root module is a
//! Rust plugin ([`super::plugin_rust`]); any other library is refused with
//! a message that says what a plugin must export.

use std::path::Path;
use std::sync::Arc;

use super::log::LogPlace;
use super::plugin_c;
use super::plugin_rust::{self, RustPluginFactory};
use super::BotFactory;

/// The factory of the plugin at `path`, or why it cannot be played.
pub fn factory(path: &Path, log: Option<LogPlace>) -> Result<Arc<dyn BotFactory>, String> {
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
