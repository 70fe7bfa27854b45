//! `lightcycles bench`: the performance tables of docs/performance.md, measured on
//! this machine, the fast engine beside the reference engine in one run.

mod abi;
pub mod adapters;
mod bots;
mod engines;
mod lean;
mod limit;
mod plain;
pub mod python_games;
mod script;
mod search_bot;
mod table;
mod timing;
#[cfg(feature = "wasm")]
pub mod wasm_search;

pub use abi::{print_abi_table, AbiRow};
pub use engines::{measure, measure_saying, run, run_saying, Measured};
pub use search_bot::{measure_search, print_search_table, SearchRow, SearchUnit};
pub use table::{print_table, Row, Unit};
pub use timing::DEFAULT_TIME;
