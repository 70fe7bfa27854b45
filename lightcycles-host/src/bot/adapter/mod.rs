//! Bot adapters: one module per way of reaching a bot's code.
//!
//! - [`json_lines`]: any program speaking JSON lines (`cmd:COMMAND`).
//! - [`tron2010`]: bots of the 2010 Google AI Challenge (`tron2010:COMMAND`).
//! - [`python`]: CodeClash `main.py` bots (`get_move(obs) -> str`).
//! - [`plugin`]: native plugins (`PATH.so`), in the host or isolated.

pub mod json_lines;
pub mod plugin;
pub mod python;
pub mod tron2010;
