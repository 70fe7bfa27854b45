//! Bot adapters: one module per way of reaching a bot's code.
//!
//! - [`builtin`](crate::bot::builtin): bots compiled into the host (`builtin:NAME`).
//! - [`json_lines`]: any program speaking JSON lines (`cmd:COMMAND`).
//! - [`tron2010`]: bots of the 2010 Google AI Challenge (`tron2010:COMMAND`).
//! - [`line`]: what the two line protocols above share: their factory,
//!   bot and adapter.
//! - [`python`]: CodeClash `main.py` bots (`get_move(obs) -> str`).
//! - [`plugin`]: native plugins (`PATH.so`), in the host or isolated.
//! - `wasm`: WebAssembly modules (`wasm:PATH.wasm`), run under wasmtime
//!   (feature `wasm`, on by default).
//!
//! A new adapter is a module with a type that implements [`Adapter`], and
//! one line in [`ADAPTERS`](crate::bot::registry::ADAPTERS).

pub mod base;
pub mod json_lines;
pub mod line;
pub mod naming;
pub mod plugin;
pub mod python;
pub mod tron2010;
#[cfg(feature = "wasm")]
pub mod wasm;

pub use base::{Adapter, Hosting, WasmBudget};
pub use naming::{command_after, command_name, file_stem_name, path_ending_in, path_name};
