//! Games: one game ([`match_loop`]), many games ([`run`]), the lines and
//! tallies that report them ([`report`]), and checking replay files
//! ([`verify`]).

pub mod match_loop;
pub mod pool;
pub mod report;
pub mod run;
pub mod verify;
