//! Bots: the one trait every kind of bot implements, and the ways of
//! reaching a bot's code. Imports go one way, from the top down:
//!
//! - [`spec`]: what a bot argument means (`builtin:random`, `NAME=SPEC`,
//!   …), the names bots are shown by, and the entrants of a run; the only
//!   reader of [`registry`].
//! - [`registry`]: every adapter, in the order a spec is tried.
//! - [`adapter`] and [`builtin`]: the transports, one module per way of
//!   reaching a bot's code, and the strategies compiled into the host.
//! - [`process`]: what every bot process needs: spawning in a group of its
//!   own, limits, capped line reading, logs, and its end.
//! - [`spec_error`], [`seed`] and [`interface`]: what all of them share
//!   (the error of a bad spec, a bot's own seed, the [`Bot`] trait).

pub mod adapter;
pub mod builtin;
pub mod interface;
pub mod process;
pub mod registry;
pub mod said;
pub mod seed;
pub mod spec;
pub mod spec_error;

pub use interface::{ask_and_collect, Asked, Bot, BotContext, BotError, BotFactory, Failed, Reply, Turn};
