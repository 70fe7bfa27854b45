//! Game configuration and its bounds (docs/RULES.md section 1).
//!
//! A configuration outside the bounds is rejected with an error naming the
//! field, its value and the allowed range; nothing is clamped.

use core::fmt;
use core::str::FromStr;

/// What a fault (invalid line, timeout, crash) costs a player (docs/RULES.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FaultPolicy {
    /// A fault is no move: the cycle keeps its direction (CodeClash).
    #[default]
    Straight,
    /// A faulted player crashes where it stands (CodinGame).
    Eliminate,
}

impl FaultPolicy {
    /// The name used on the command line and in replays.
    pub const fn as_str(self) -> &'static str {
        match self {
            FaultPolicy::Straight => "straight",
            FaultPolicy::Eliminate => "eliminate",
        }
    }
}

impl fmt::Display for FaultPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FaultPolicy {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        match s {
            "straight" => Ok(FaultPolicy::Straight),
            "eliminate" => Ok(FaultPolicy::Eliminate),
            _ => Err(ConfigError::UnknownFaultPolicy),
        }
    }
}

/// Smallest board side.
pub const MIN_SIDE: u32 = 8;
/// Largest board side.
pub const MAX_SIDE: u32 = 255;
/// Smallest board side when three or more players ride.
pub const MIN_SIDE_MANY_PLAYERS: u32 = 16;
/// Fewest players.
pub const MIN_PLAYERS: u32 = 2;
/// Most players; a length, as every fixed array of per-player data (the
/// fast engine's riders, the space helpers' buffers, the C ABI's results)
/// is this long.
pub const MAX_PLAYERS: usize = 8;
/// Largest tick cap.
pub const MAX_TICKS: u32 = 1_000_000;
/// Largest rock density, in percent.
pub const MAX_ROCK_DENSITY: u32 = 25;

/// A configuration rejected by [`Config::validate`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A field outside its range.
    #[error("{field} = {value} is out of range: allowed {min} to {max}")]
    OutOfRange {
        /// The field's name, as in the replay's `config` object.
        field: &'static str,
        /// The rejected value.
        value: u64,
        /// Smallest allowed value.
        min: u64,
        /// Largest allowed value.
        max: u64,
    },
    /// Three or more players on a board narrower or lower than 16.
    #[error("{field} = {value} is too small for {players} players: allowed 16 to 255 when players ≥ 3")]
    TooSmallForPlayers {
        /// `width` or `height`.
        field: &'static str,
        /// The rejected value.
        value: u32,
        /// The number of players.
        players: u32,
    },
    /// A fault policy other than `straight` or `eliminate`.
    #[error("fault_policy must be \"straight\" or \"eliminate\"")]
    UnknownFaultPolicy,
}

/// Everything that defines a game besides its seed (or map) and its bots.
/// A replay records it as it is (docs/RULES.md section 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Config {
    /// Board width `W`, 8 to 255.
    pub width: u32,
    /// Board height `H`, 8 to 255.
    pub height: u32,
    /// Number of players `n`, 2 to 8.
    pub players: u32,
    /// The tick cap, 1 to 1 000 000.
    pub max_ticks: u32,
    /// Target rock cover in percent, 0 to 25.
    pub rock_density: u32,
    /// What a fault costs.
    pub fault_policy: FaultPolicy,
}

fn check(field: &'static str, value: u32, min: u32, max: u32) -> Result<(), ConfigError> {
    if value < min || value > max {
        Err(ConfigError::OutOfRange { field, value: value as u64, min: min as u64, max: max as u64 })
    } else {
        Ok(())
    }
}

impl Config {
    /// Checks every bound of docs/RULES.md section 1, the first failing field first.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check("width", self.width, MIN_SIDE, MAX_SIDE)?;
        check("height", self.height, MIN_SIDE, MAX_SIDE)?;
        check("players", self.players, MIN_PLAYERS, MAX_PLAYERS as u32)?;
        check("max_ticks", self.max_ticks, 1, MAX_TICKS)?;
        check("rock_density", self.rock_density, 0, MAX_ROCK_DENSITY)?;
        if self.players >= 3 {
            for (field, value) in [("width", self.width), ("height", self.height)] {
                if value < MIN_SIDE_MANY_PLAYERS {
                    return Err(ConfigError::TooSmallForPlayers { field, value, players: self.players });
                }
            }
        }
        Ok(())
    }

    /// Number of cells `W · H`.
    pub const fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn default_is_valid_and_matches_the_rule_book() {
        let c = Config::default();
        assert_eq!(c.validate(), Ok(()));
        assert_eq!((c.width, c.height, c.players, c.max_ticks, c.rock_density), (48, 36, 2, 2000, 4));
        assert_eq!(c.fault_policy, FaultPolicy::Straight);
    }

    #[test]
    fn each_bound_is_enforced_and_named() {
        let ok = Config::default();
        let cases: [(Config, &str); 10] = [
            (Config { width: 7, ..ok }, "width = 7 is out of range: allowed 8 to 255"),
            (Config { width: 256, ..ok }, "width = 256 is out of range: allowed 8 to 255"),
            (Config { height: 7, ..ok }, "height = 7 is out of range: allowed 8 to 255"),
            (Config { players: 1, ..ok }, "players = 1 is out of range: allowed 2 to 8"),
            (Config { players: 9, ..ok }, "players = 9 is out of range: allowed 2 to 8"),
            (Config { max_ticks: 0, ..ok }, "max_ticks = 0 is out of range: allowed 1 to 1000000"),
            (Config { max_ticks: 1_000_001, ..ok }, "max_ticks = 1000001 is out of range: allowed 1 to 1000000"),
            (Config { rock_density: 26, ..ok }, "rock_density = 26 is out of range: allowed 0 to 25"),
            (
                Config { players: 3, width: 15, ..ok },
                "width = 15 is too small for 3 players: allowed 16 to 255 when players ≥ 3",
            ),
            (
                Config { players: 8, height: 12, ..ok },
                "height = 12 is too small for 8 players: allowed 16 to 255 when players ≥ 3",
            ),
        ];
        for (config, message) in cases {
            assert_eq!(config.validate().unwrap_err().to_string(), message);
        }
        for edge in [
            Config { width: 8, height: 8, ..ok },
            Config { width: 255, height: 255, ..ok },
            Config { players: 8, width: 16, height: 16, ..ok },
            Config { max_ticks: 1, rock_density: 0, ..ok },
            Config { max_ticks: 1_000_000, rock_density: 25, ..ok },
        ] {
            assert_eq!(edge.validate(), Ok(()), "{edge:?}");
        }
    }

    #[test]
    fn fault_policy_names() {
        assert_eq!("straight".parse::<FaultPolicy>(), Ok(FaultPolicy::Straight));
        assert_eq!("eliminate".parse::<FaultPolicy>(), Ok(FaultPolicy::Eliminate));
        assert!("Straight".parse::<FaultPolicy>().is_err());
        assert_eq!(FaultPolicy::Eliminate.to_string(), "eliminate");
    }
}
