//! `builtin:NAME`: the adapter of the built-in bots.

use std::sync::Arc;

use crate::bot::adapter::base::{Adapter, Hosting};
use crate::bot::builtin::catalog::Builtin;
use crate::bot::process::log::LogPlace;
use crate::bot::spec_error::SpecError;
use crate::bot::BotFactory;

/// `builtin:NAME`.
pub struct BuiltinAdapter;

impl Adapter for BuiltinAdapter {
    fn form(&self) -> &'static str {
        "built-in bots (builtin:NAME)"
    }

    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        let name = form.strip_prefix("builtin:")?;
        Some(match Builtin::parse(name) {
            Ok(Some(_)) => Ok(name.to_string()),
            Ok(None) => Err(SpecError::UnknownBuiltin { arg: arg.to_string(), name: name.to_string() }),
            Err(message) => Err(SpecError::BuiltinOption { arg: arg.to_string(), message }),
        })
    }

    fn default_name(&self, target: &str) -> String {
        Builtin::of_target(target).name().to_string()
    }

    fn factory(&self, target: &str, _log: Option<LogPlace>, _hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        Ok(Arc::new(Builtin::of_target(target)))
    }
}
