//! The board, rules and time limits of a run as every face gives them (the
//! CLI's flags, the Python package's keywords): the one place they are
//! checked and turned into a game configuration and time limits, and back
//! into the flags of `lightcycles play` that play one of its games again.
//!
//! Errors name the setting by its flag (`--width`); the Python package
//! says its keyword instead ([`crate::tournament::plan::in_keywords`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use lightcycles_core::{Config, ConfigError, FaultPolicy};

use crate::game::bank::MAX_BANK_MS;
use crate::game::match_loop::{Limits, MapFile};

/// Board, rules and time limits. `None` for the board's size and rocks is
/// the default board (or, with a map pool, the pool's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Board width, 8 to 255.
    pub width: Option<u32>,
    /// Board height, 8 to 255.
    pub height: Option<u32>,
    /// The tick cap.
    pub max_ticks: u32,
    /// Rock cover of seeded maps, in percent.
    pub rock_density: Option<u32>,
    /// What a fault costs.
    pub fault_policy: FaultPolicy,
    /// A 2010 map file every game is played on.
    pub map: Option<PathBuf>,
    /// Time for a bot's first answer, in milliseconds.
    pub time_first_ms: u64,
    /// Time for each later answer, in milliseconds.
    pub time_ms: u64,
    /// Each bot's time bank for a game, in milliseconds (0: none).
    pub time_bank_ms: u64,
    /// What each answer adds to the bank, in milliseconds.
    pub time_inc_ms: u64,
    /// Time limits of single bots: `NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS]`.
    pub bot_time: Vec<String>,
    /// Time past a limit still taken as in time, in milliseconds.
    pub time_margin_ms: u64,
}

pub use lightcycles_core::defaults::{HEIGHT, MAX_TICKS, ROCK_DENSITY, TIME_FIRST_MS, TIME_MS, WIDTH};

impl Default for Board {
    fn default() -> Self {
        Board {
            width: None,
            height: None,
            max_ticks: MAX_TICKS,
            rock_density: None,
            fault_policy: lightcycles_core::defaults::FAULT_POLICY,
            map: None,
            time_first_ms: TIME_FIRST_MS,
            time_ms: TIME_MS,
            time_bank_ms: 0,
            time_inc_ms: 0,
            bot_time: Vec::new(),
            time_margin_ms: 0,
        }
    }
}

impl Board {
    /// The board of a `config` (its size, rocks, tick cap and fault policy).
    pub fn of_config(config: &Config) -> Board {
        Board {
            width: Some(config.width),
            height: Some(config.height),
            max_ticks: config.max_ticks,
            rock_density: Some(config.rock_density),
            fault_policy: config.fault_policy,
            ..Board::default()
        }
    }

    /// The width, height and rock density, defaults filled in.
    fn size(&self) -> (u32, u32, u32) {
        (self.width.unwrap_or(WIDTH), self.height.unwrap_or(HEIGHT), self.rock_density.unwrap_or(ROCK_DENSITY))
    }

    /// The rock density, the default filled in.
    pub fn rock_density(&self) -> u32 {
        self.size().2
    }

    /// The time limits per answer, or why they are no limits.
    pub fn limits(&self) -> Result<Limits, String> {
        if self.time_first_ms == 0 || self.time_ms == 0 {
            return Err("--time-first-ms and --time-ms are at least 1 ms".to_string());
        }
        if self.time_bank_ms > MAX_BANK_MS || self.time_inc_ms > MAX_BANK_MS {
            return Err(format!("--time-bank-ms and --time-inc-ms are at most {MAX_BANK_MS} ms (a day)"));
        }
        Ok(Limits {
            first: Duration::from_millis(self.time_first_ms),
            rest: Duration::from_millis(self.time_ms),
            bank: Duration::from_millis(self.time_bank_ms),
            inc: Duration::from_millis(self.time_inc_ms),
        })
    }

    /// The time margin.
    pub fn margin(&self) -> Duration {
        Duration::from_millis(self.time_margin_ms)
    }

    /// The limits of `--bot-time`, by entrant (named `names`): empty when
    /// none is given, else one per entrant, `None` for those it does not name.
    pub fn bot_limits(&self, names: &[String]) -> Result<Vec<Option<Limits>>, String> {
        if self.bot_time.is_empty() {
            return Ok(Vec::new());
        }
        let mut limits = vec![None; names.len()];
        for arg in &self.bot_time {
            let (name, own) = parse_bot_time(arg, self.limits()?)?;
            let Some(i) = names.iter().position(|n| *n == name) else {
                return Err(format!("--bot-time {arg}: no bot is named {name:?}; the bots are {}", names.join(", ")));
            };
            if limits[i].is_some() {
                return Err(format!("--bot-time {arg}: {name} is given a time twice"));
            }
            limits[i] = Some(own);
        }
        Ok(limits)
    }

    /// These settings as `lightcycles play` takes them, leaving out those at
    /// their defaults: what a command that plays one game again needs.
    pub fn to_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        let mut push = |flag: &str, value: String, default: String| {
            if value != default {
                flags.push(flag.to_string());
                flags.push(value);
            }
        };
        if self.map.is_none() {
            let (width, height, rocks) = self.size();
            push("--width", width.to_string(), WIDTH.to_string());
            push("--height", height.to_string(), HEIGHT.to_string());
            push("--rock-density", rocks.to_string(), ROCK_DENSITY.to_string());
        }
        push("--max-ticks", self.max_ticks.to_string(), MAX_TICKS.to_string());
        push(
            "--fault-policy",
            self.fault_policy.as_str().to_string(),
            lightcycles_core::defaults::FAULT_POLICY.as_str().to_string(),
        );
        if let Some(map) = &self.map {
            push("--map", map.display().to_string(), String::new());
        }
        push("--time-first-ms", self.time_first_ms.to_string(), TIME_FIRST_MS.to_string());
        push("--time-ms", self.time_ms.to_string(), TIME_MS.to_string());
        push("--time-bank-ms", self.time_bank_ms.to_string(), "0".to_string());
        push("--time-inc-ms", self.time_inc_ms.to_string(), "0".to_string());
        push("--time-margin-ms", self.time_margin_ms.to_string(), "0".to_string());
        for arg in &self.bot_time {
            flags.push("--bot-time".to_string());
            flags.push(arg.clone());
        }
        flags
    }

    /// The configuration of a game of `players` bots, and the map file when
    /// one is given.
    pub fn config(&self, players: u32) -> Result<(Config, Option<MapFile>), String> {
        let map_file = self.map.as_deref().map(load_map).transpose()?;
        let config = match &map_file {
            Some(file) => {
                if players != 2 {
                    return Err(format!(
                        "--map {}: a 2010 map has starts for 2 bots, but {players} bots were given",
                        self.map.as_deref().unwrap_or(Path::new("")).display()
                    ));
                }
                file.config(self.max_ticks, self.fault_policy)
            }
            None => {
                let (width, height, rock_density) = self.size();
                Config {
                    width,
                    height,
                    players,
                    max_ticks: self.max_ticks,
                    rock_density,
                    fault_policy: self.fault_policy,
                }
            }
        };
        config.validate().map_err(|e| config_message(&e, PlayersFrom::Bots))?;
        Ok((config, map_file))
    }
}

fn load_map(path: &Path) -> Result<MapFile, String> {
    crate::tournament::maps::load_one(&path.to_string_lossy(), "--map")
}

/// Reads `NAME=FIRST_MS,MS` or `NAME=MS` (later answers only; the first
/// keeps `default`'s), either followed by `,bank=MS` and `,inc=MS` in any
/// order (a bank and increment of the bot's own; those not given keep
/// `default`'s).
pub fn parse_bot_time(arg: &str, default: Limits) -> Result<(String, Limits), String> {
    let bad = || {
        format!("--bot-time {arg}: expected NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS], time limits in milliseconds from 1")
    };
    let (name, times) = arg.split_once('=').ok_or_else(bad)?;
    let number = |s: &str| s.trim().parse::<u64>().ok().map(Duration::from_millis).ok_or_else(bad);
    let limit = |s: &str| number(s).and_then(|d| if d.is_zero() { Err(bad()) } else { Ok(d) });
    let mut limits = default;
    let (mut plain, mut bank, mut inc) = (Vec::new(), None, None);
    for part in times.split(',') {
        let keyed = part.trim().split_once('=');
        let slot = match keyed {
            Some(("bank", _)) => &mut bank,
            Some(("inc", _)) => &mut inc,
            Some(_) => return Err(bad()),
            None => {
                plain.push(part);
                continue;
            }
        };
        let ms = number(keyed.map_or("", |k| k.1))?;
        if ms > Duration::from_millis(MAX_BANK_MS) {
            return Err(format!("--bot-time {arg}: a bank or increment is at most {MAX_BANK_MS} ms (a day)"));
        }
        if slot.replace(ms).is_some() {
            return Err(bad());
        }
    }
    match plain[..] {
        [first, rest] => (limits.first, limits.rest) = (limit(first)?, limit(rest)?),
        [rest] => limits.rest = limit(rest)?,
        _ => return Err(bad()),
    }
    limits.bank = bank.unwrap_or(limits.bank);
    limits.inc = inc.unwrap_or(limits.inc);
    if name.is_empty() {
        return Err(bad());
    }
    Ok((name.to_string(), limits))
}

/// Where the number of players came from, for error messages.
#[derive(Clone, Copy, Debug)]
pub enum PlayersFrom {
    /// The bots given.
    Bots,
    /// The `--players` flag.
    Flag,
}

/// A configuration error in the words of the command line: the flag, the
/// value and the allowed range.
pub fn config_message(e: &ConfigError, players: PlayersFrom) -> String {
    fn flag(field: &str) -> String {
        format!("--{}", field.replace('_', "-"))
    }
    match (e, players) {
        (ConfigError::OutOfRange { field: "players", value, min, max }, PlayersFrom::Bots) => {
            format!("{value} bots given: a game takes {min} to {max} bots")
        }
        (ConfigError::OutOfRange { field, value, min, max }, _) => {
            format!("{} {value} is out of range: allowed {min} to {max}", flag(field))
        }
        (ConfigError::TooSmallForPlayers { field, value, players }, _) => {
            format!("{} {value} is too small for {players} players: allowed 16 to 255 when 3 or more ride", flag(field))
        }
        (ConfigError::UnknownFaultPolicy, _) => "--fault-policy must be straight or eliminate".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_errors_name_the_flag_the_value_and_the_range() {
        let base = Config::default();
        let msg = |c: Config, from| config_message(&c.validate().unwrap_err(), from);
        assert_eq!(msg(Config { width: 7, ..base }, PlayersFrom::Bots), "--width 7 is out of range: allowed 8 to 255");
        assert_eq!(
            msg(Config { max_ticks: 0, ..base }, PlayersFrom::Bots),
            "--max-ticks 0 is out of range: allowed 1 to 1000000"
        );
        assert_eq!(
            msg(Config { rock_density: 26, ..base }, PlayersFrom::Bots),
            "--rock-density 26 is out of range: allowed 0 to 25"
        );
        assert_eq!(msg(Config { players: 9, ..base }, PlayersFrom::Bots), "9 bots given: a game takes 2 to 8 bots");
        assert_eq!(
            msg(Config { players: 9, ..base }, PlayersFrom::Flag),
            "--players 9 is out of range: allowed 2 to 8"
        );
        assert_eq!(
            msg(Config { players: 3, height: 12, ..base }, PlayersFrom::Bots),
            "--height 12 is too small for 3 players: allowed 16 to 255 when 3 or more ride"
        );
    }

    #[test]
    fn the_defaults_are_the_cores_default_game() {
        let (config, map) = Board::default().config(2).unwrap();
        assert_eq!((config, map.is_none()), (Config::default(), true));
        assert!(Board::default().to_flags().is_empty());
        assert_eq!(Board::of_config(&Config::default()).to_flags(), Vec::<String>::new());
    }
}
