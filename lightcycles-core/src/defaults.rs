//! The defaults of a game and of a run, written once: the core's
//! [`Config::default`](crate::Config::default), the host's flags and the
//! Python package's keywords all read them, so they cannot drift apart.

use crate::config::{Config, FaultPolicy};

/// Board width, in cells.
pub const WIDTH: u32 = 48;
/// Board height, in cells.
pub const HEIGHT: u32 = 36;
/// Players in a game.
pub const PLAYERS: u32 = 2;
/// The last tick a game may reach.
pub const MAX_TICKS: u32 = 2000;
/// Rocks, in percent of the cells.
pub const ROCK_DENSITY: u32 = 4;
/// What a fault costs.
pub const FAULT_POLICY: FaultPolicy = FaultPolicy::Straight;
/// A bot's time for its first answer, in milliseconds (it may still be
/// starting).
pub const TIME_FIRST_MS: u64 = 1000;
/// A bot's time for every later answer, in milliseconds (as on CodinGame).
pub const TIME_MS: u64 = 50;

impl Default for Config {
    /// `48 × 36`, 2 players, 2000 ticks, 4 % rocks, `straight`
    /// (the constants above: the default game is defined
    /// here, beside them).
    fn default() -> Self {
        Config {
            width: WIDTH,
            height: HEIGHT,
            players: PLAYERS,
            max_ticks: MAX_TICKS,
            rock_density: ROCK_DENSITY,
            fault_policy: FAULT_POLICY,
        }
    }
}
