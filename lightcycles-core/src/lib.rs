//! # lightcycles-core
//!
//! The rules of LightCycles (`docs/RULES.md`) as a pure, deterministic library:
//! no I/O, no clock, no global state. A game is a state and a step
//! function; the same state and the same commands give the same game on
//! every machine.
//!
//! - [`reference::ReferenceGame`]: the readable reference engine.
//! - [`fast::FastGame`]: the same rules on bitboards, for search; and
//!   [`space`]: room, Voronoi split, separation and safe moves on it.
//! - [`search_state::SearchState`]: the lean, fixed-size state a search
//!   copies and steps (boards up to 64 × 64), and [`space::lean`]: the
//!   space helpers on it.
//! - [`player`]: a player's state and the neck rule of its moves.
//! - [`map`]: the seeded map generator, the 2010 map loader and
//!   [`MapFile`], a loaded map file.
//! - [`defaults`]: the defaults of a game and a run (board, ticks, rocks,
//!   time limits), read by the host's flags and the Python package.
//! - [`command`]: the one parser of answer lines, and fault recording.
//! - [`outcome`]: winner, draw and placements.
#![cfg_attr(
    feature = "serde",
    doc = "- [`observation`] and [`replay`] (feature `serde`): what bots see, and the replay file with its verifier."
)]
#![cfg_attr(
    not(feature = "serde"),
    doc = "- `observation` and `replay` (feature `serde`): what bots see, and the replay file with its verifier."
)]
//!
//! ```
//! use lightcycles_core::{Action, Answer, Config, Dir, Engine, ReferenceGame};
//!
//! let mut game = ReferenceGame::seeded(&Config::default(), 42).unwrap();
//! while !game.is_over() {
//!     // Bots answer with lines of text; the one parser turns them into actions.
//!     let a = Answer::from_line(b"N\n").action();
//!     let b = Answer::from_line(b"left").action(); // invalid: a fault, no move
//!     game.step(&[a, b]).unwrap();
//! }
//! let outcome = game.outcome().unwrap();
//! assert!(outcome.ticks >= 1);
//! # let _ = (Action::Keep, Dir::N);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod bitboard;
#[cfg(feature = "serde")]
mod bounded;
pub mod command;
pub mod config;
pub mod defaults;
pub mod engine;
pub mod fast;
pub mod geometry;
pub mod map;
#[cfg(feature = "serde")]
pub mod observation;
pub mod outcome;
pub mod player;
pub mod position;
pub mod reference;
#[cfg(feature = "serde")]
pub mod replay;
pub mod rng;
pub mod search_state;
#[cfg(feature = "serde")]
mod serde_names;
pub mod space;
#[doc(hidden)]
pub mod testing;

pub use command::{parse_move, Action, Answer, FaultKind};
pub use config::{Config, ConfigError, FaultPolicy};
pub use engine::{Engine, GameError, StepError};
pub use fast::FastGame;
pub use geometry::{CellValue, Dir, DirSet, Pos, EMPTY, ROCK};
pub use map::{Map, MapError, MapFile, MapParseError, Start};
pub use outcome::Outcome;
pub use player::PlayerState;
pub use position::{Position, PositionError};
pub use reference::ReferenceGame;
pub use rng::SplitMix64;
pub use search_state::SearchState;
