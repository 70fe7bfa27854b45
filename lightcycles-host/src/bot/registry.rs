//! The registry: every adapter, in the order a spec is tried against them.
//! Only the spec parser ([`crate::bot::spec`]) reads it, so no adapter
//! depends on another through it.

use crate::bot::adapter::base::Adapter;
use crate::bot::adapter::json_lines::JsonLines;
use crate::bot::adapter::line::LineAdapter;
use crate::bot::adapter::tron2010::Tron2010;
use crate::bot::adapter::{plugin, python};
use crate::bot::builtin::BuiltinAdapter;

/// Prefixes first, then file endings; a new adapter is one line here.
#[cfg(feature = "wasm")]
pub static ADAPTERS: &[&dyn Adapter] = &[
    &BuiltinAdapter,
    &LineAdapter(JsonLines),
    &LineAdapter(Tron2010),
    &python::PythonAdapter,
    &plugin::PluginAdapter,
    &crate::bot::adapter::wasm::WasmAdapter,
];

/// The registry of a build without the wasm adapter (feature `wasm` off).
#[cfg(not(feature = "wasm"))]
pub static ADAPTERS: &[&dyn Adapter] =
    &[&BuiltinAdapter, &LineAdapter(JsonLines), &LineAdapter(Tron2010), &python::PythonAdapter, &plugin::PluginAdapter];
