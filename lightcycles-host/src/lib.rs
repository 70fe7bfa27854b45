//! # lightcycles-host
//!
//! Plays bots against each other under the rules of `lightcycles-core`:
//! bot adapters behind one trait, a deterministic match loop, runs of many
//! games in parallel, reports, replay checks, and the `lightcycles` CLI.
//!
//! - [`bot`]: the [`bot::Bot`] trait every kind of bot implements; bot
//!   specs and names ([`bot::spec`]), the adapters ([`bot::adapter`]: JSON
//!   lines, 2010 bots, CodeClash Python bots, native plugins), the built-in
//!   strategies ([`bot::builtin`]) and bot processes ([`bot::process`]).
//! - [`game`]: one game ([`game::match_loop`]), many games ([`game::run`])
//!   on the one worker pool ([`game::pool`]), per-game lines and
//!   FINAL_RESULTS ([`game::report`]), replay checks ([`game::verify`]).
//! - [`tournament`]: the plan of a tournament from its options, paired
//!   seeds, parallel games, results file, resume, report.
//! - [`stats`]: score, Elo and its interval, LOS, pentanomial, SPRT.
//! - [`io`]: reading the files a user names, writing files whole, and
//!   escaping untrusted text.
//! - [`view`]: watching games: the replay page, the board in a terminal,
//!   maps as pictures and JSON.
//! - [`mod@bench`]: the performance tables of `lightcycles bench`.
//! - [`cli`]: the command line: flags in [`cli::args`], one module per command.
//!
//! Playing games is a library call: bots from the same specs the command
//! line takes, the games of a run, each finished game handed back in order.
//!
//! ```
//! use lightcycles_core::{Config, FastGame};
//! use lightcycles_host::bot::adapter::Hosting;
//! use lightcycles_host::bot::spec;
//! use lightcycles_host::game::match_loop::Limits;
//! use lightcycles_host::game::run::{self, GameOptions, Rounds};
//!
//! let bots = ["builtin:floodfill".to_string(), "builtin:random".to_string()];
//! let entrants = spec::entrants(&bots, None, &Hosting::default()).unwrap();
//! let options = GameOptions::new(Config::default(), None, Limits::default(), None);
//! // Seeds 0 and 1, each played in both seat orders: four games, two at a time.
//! let rounds = Rounds { rounds: 2, base_seed: 0, swap: true };
//! let mut games = Vec::new();
//! run::run::<FastGame>(&entrants, &options, &rounds, 2, |game| {
//!     games.push((game.plan.seed, game.names.clone(), game.winning_entrant()));
//!     Ok(())
//! })
//! .unwrap();
//! assert_eq!(games.len(), 4);
//! assert_eq!(games[1].1, ["random", "floodfill"], "game 1 swaps the seats");
//! ```
//!
//! A tournament is planned from its options, as the CLI plans it from its
//! flags and the Python package from its keywords
//! ([`tournament::plan::TournamentOptions`]: every check and default is
//! made there), then played, its report file and page written:
//!
//! ```
//! use lightcycles_host::game::board::Board;
//! use lightcycles_host::tournament::plan::{self, Entry, ProgressChoice, TournamentOptions};
//!
//! let options = TournamentOptions {
//!     bots: vec![Entry::Spec("builtin:floodfill".into()), Entry::Spec("builtin:random".into())],
//!     games: Some(4),
//!     jobs: Some(2),
//!     board: Board { width: Some(20), height: Some(16), ..Board::default() },
//!     progress: ProgressChoice { bar: false, log_every: 0, log_seconds: 0 },
//!     ..TournamentOptions::default()
//! };
//! let planned = options.plan().unwrap();
//! assert!(planned.broken.is_empty(), "every bot answered its probe");
//! let report = plan::run(&planned).unwrap();
//! assert_eq!(report.pairings[0].games.games(), 4);
//! ```
//!
//! A planned [`tournament::Tournament`] is played by [`tournament::run()`],
//! and a single game by [`game::run::play_game`], the same way.
// Unsafe code is refused everywhere but where C plugins are called
// (`bot::adapter::plugin::c`), where a C plugin table is made to time that
// adapter (`bench::adapters`), where the C ABI is timed (`bench::abi`), where bot processes get their limits and
// their containment (`bot::process::sandbox`, `bot::process::contain`) and
// where an exit from inside the host is caught (`cli::exit_guard`); each
// allows it and says why at each use.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod bot;
pub mod cli;
pub mod game;
pub mod io;
pub mod metric;
pub mod stats;
pub mod tournament;
pub mod tune;
pub mod view;

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
