//! Games: one game ([`match_loop`]), many games ([`run`]), the lines and
//! tallies that report them ([`report`]), checking replay files
//! ([`verify`]), and the probe of every bot before game 0 ([`preflight`]).

pub mod bank;
pub mod board;
pub mod feed;
pub mod match_loop;
pub mod pool;
pub mod preflight;
pub mod report;
pub mod run;
pub mod verify;
