//! Tournaments: many games between two or more bots, every seed in every
//! seat, in parallel, with statistics a bot author can trust and a results
//! file that survives being killed.
//!
//! - [`plan`]: every option of a tournament, checked and defaulted in one
//!   place; the faces (the CLI, the Python package) only fill it in.
//! - [`setup`]: the [`Tournament`] a plan makes, its results header and
//!   the commands that replay its games; [`shell`] quotes them.
//! - [`schedule`]: which games, in a stable order (pairings or free-for-all
//!   groups, seeds, seats, maps).
//! - [`maps`]: map pools and the named maps shipped with LightCycles.
//! - [`league`]: leagues, whose games go where the ratings are least certain.
//! - [`shard`]: the games one machine of many plays (`--shard I/N`).
//! - [`mod@play`]: playing the games and counting them as they finish ([`run()`]).
//! - [`merge`]: the shards' results files made one (`tournament merge`).
//! - [`results`]: the results file, one JSON line per game, and resuming it.
//! - [`standings`]: counting games in index order: statistics, ratings, SPRT.
//! - [`progress`]: the live bar or log on stderr.
//! - [`report`]: the final table and JSON; [`page`] the HTML page of
//!   results files, which [`live_page`] keeps current during a run.

pub mod league;
pub mod live_page;
pub mod maps;
pub mod merge;
pub mod page;
pub mod plan;
pub mod play;
pub mod progress;
pub mod report;
pub mod results;
pub mod schedule;
pub mod setup;
pub mod shard;
pub mod shell;
pub mod standings;

pub use self::play::{near_limit_note, run};
pub use self::setup::{Tournament, TournamentError};
pub use self::shell::resume_command;
