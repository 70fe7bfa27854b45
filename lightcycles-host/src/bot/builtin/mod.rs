//! Bots compiled into the host: `random`, `fuzz`, `straight`, `wallhug`,
//! `floodfill` and `search` (its own module tree, [`crate::bot::builtin::search`]).
//!
//! A built-in bot's randomness comes from a SplitMix64 of its own, seeded
//! from the game's seed and its seat ([`bot_seed`](crate::bot::seed::bot_seed)); it never draws from the
//! map generator, so a bot's draws cannot shift a map.

pub mod adapter;
pub mod catalog;
pub mod floodfill;
pub mod fuzz;
pub mod moves;
pub mod random;
pub mod search;
pub mod straight;
pub mod wallhug;
pub mod walls;

pub use adapter::BuiltinAdapter;
pub use catalog::Builtin;
pub use fuzz::FuzzKind;

#[cfg(test)]
mod tests;
