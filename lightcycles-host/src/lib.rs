//! # lightcycles-host
//!
//! Plays bots against each other under the rules of `lightcycles-core`:
//! bot adapters behind one trait, a deterministic match loop, runs of many
//! games in parallel, reports, replay checks, and the `lightcycles` CLI.
//!
//! - [`bot`]: the [`bot::Bot`] trait every kind of bot implements, and its
//!   adapters: built-in bots, JSON-lines programs, 2010 bots, CodeClash
//!   Python bots, native plugins.
//! - [`spec`]: bot arguments (`builtin:random`, `name=SPEC`, …) and names.
//! - [`match_loop`]: one game, deterministic, recorded as a replay.
//! - [`run`]: many games: seeds, seats, parallel jobs, replay files.
//! - [`report`]: per-game lines and the FINAL_RESULTS block.
//! - [`stats`]: score, Elo and its interval, LOS, pentanomial, SPRT.
//! - [`tournament`]: paired seeds, parallel games, results file, resume, report.
//! - [`verify`]: checking replay files.
//! - [`input`]: reading the files a user names, capped and checked.
//! - [`whole_file`]: writing files whole, through a rename.
//! - [`map_view`]: maps as pictures and JSON.
//! - [`view`]: watching games: the replay page, and the board in a terminal.
//! - [`mod@bench`]: the performance table of `lightcycles bench`.
//! - [`adapter_bench`]: what each bot adapter costs per tick.
//! - [`cli`]: the command line.
// Unsafe code is refused everywhere but where C plugins are called
// (`bot::plugin_c`) and where a C plugin table is made to time that adapter
// (`adapter_bench`); both allow it and say why at each use.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod adapter_bench;
pub mod bench;
pub mod bot;
pub mod cli;
pub mod input;
pub mod map_view;
pub mod match_loop;
pub mod report;
pub mod run;
pub mod spec;
pub mod stats;
pub mod tournament;
pub mod verify;
pub mod view;
pub mod whole_file;

/// The Rust examples of the documentation pages, compiled and run as
/// doctests of this crate (`cargo test -p lightcycles-host --doc`) so that
/// none of them goes stale. `tests/docs.rs` checks that every page with a
/// Rust block is listed here.
#[cfg(doctest)]
pub mod doc_pages {
    #[doc = include_str!("../../docs/library.md")]
    pub struct Library;
    #[doc = include_str!("../../docs/OBSERVATION.md")]
    pub struct Observation;
}
