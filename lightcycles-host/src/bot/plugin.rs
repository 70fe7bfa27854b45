//! Native plugins (`PATH.so`, `.dylib`, `.dll`): which interface a library
//! speaks. A Rust plugin exports an abi_stable root module
//! ([`super::plugin_rust`]); any other library is refused with a message
//! that says what a plugin must export.

use std::path::Path;
use std::sync::Arc;

use super::log::LogPlace;
use super::plugin_rust::{self, Loaded, RustPluginFactory};
use super::BotFactory;

/// The factory of the plugin at `path`, or why it cannot be played.
pub fn factory(path: &Path, log: Option<LogPlace>) -> Result<Arc<dyn BotFactory>, String> {
    match plugin_rust::load(path)? {
        Loaded::Plugin(module) => Ok(Arc::new(RustPluginFactory::new(module, path, log))),
        Loaded::NotRust => Err(format!(
            "{} is not a plugin this build can load: it exports no abi_stable root module \
             (a Rust plugin built with lightcycles-plugin and export_bot!); C plugins \
             (lightcycles_bot_v1) are not supported by this build yet",
            path.display()
        )),
    }
}
