//! The state file of a tune (`--state FILE`): its configuration, the
//! current values, and every iteration played, as JSON, written whole
//! (a temporary file renamed over it) after every iteration.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::params::Param;
use super::spsa::{Gains, Spsa};
use crate::io::{input, whole_file};

/// The `format` of a state file.
pub const FORMAT: &str = "lightcycles-tune/1";

/// The most a state file may hold.
pub const STATE_LIMIT: input::Limit = input::Limit { what: "tune state", max_bytes: 64 << 20 };

/// What a tune is: everything its iterations depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// The spec of the tuned bot, a template the values go into.
    pub bot: String,
    /// The fixed opponent both points play (`--against`), or none: the
    /// two points play each other.
    pub against: Option<String>,
    /// The parameters.
    pub params: Vec<Param>,
    /// The iterations planned (`--iterations`); the only setting a resume
    /// may change.
    pub iterations: u64,
    /// Games per pairing per iteration (`--games-per-iter`), even: game
    /// pairs, each seed in both seats.
    pub games_per_iter: u64,
    /// The seed of the signs, and of iteration 0's games (`--seed`).
    pub seed: u64,
    /// The gains' constants.
    pub gains: Gains,
    /// The board, rules and time limits, as the flags that give them
    /// (none: the defaults).
    pub board: Vec<String>,
    /// The map pool (`--maps`), as given; none: generated maps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub maps: Vec<String>,
    /// Seats of a free-for-all (`--ffa N`, 3 to 8): both points ride in
    /// every game, the other seats held by the field; none: two-player
    /// games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffa: Option<u64>,
}

impl TuneConfig {
    /// The SPSA these settings run.
    pub fn spsa(&self) -> Spsa<'_> {
        Spsa { params: &self.params, iterations: self.iterations, seed: self.seed, gains: self.gains }
    }

    /// Seats in every game: 2, or the free-for-all's N.
    pub fn seats(&self) -> u64 {
        self.ffa.unwrap_or(2)
    }

    /// The rounds (a seed in every seat) the iterations before `k` played:
    /// where iteration `k` goes on, in seeds and in the map pool.
    fn rounds_before(&self, k: u64) -> u64 {
        k.wrapping_mul(self.games_per_iter / self.seats())
    }

    /// The seed of round 0 of iteration `k`'s games: each iteration plays
    /// seeds no other iteration plays.
    pub fn games_seed(&self, k: u64) -> u64 {
        self.seed.wrapping_add(self.rounds_before(k))
    }

    /// The place in the map pool of round 0 of iteration `k`'s games: the
    /// rounds of all iterations take the pool's maps in turn (the pool
    /// wraps it to its size).
    pub fn map_start(&self, k: u64) -> usize {
        self.rounds_before(k) as usize
    }

    /// Why a run with these settings cannot resume the state `old` was
    /// made with, naming the first setting that differs; `--iterations`
    /// may differ.
    pub fn refuse_resume(&self, old: &TuneConfig) -> Option<String> {
        let show = |o: &Option<String>| o.clone().unwrap_or_else(|| "none".into());
        let params = |c: &TuneConfig| c.params.iter().map(|p| format!("--param {p}")).collect::<Vec<_>>().join(" ");
        let board = |c: &TuneConfig| if c.board.is_empty() { "the defaults".to_string() } else { c.board.join(" ") };
        let maps = |c: &TuneConfig| if c.maps.is_empty() { "generated maps".to_string() } else { c.maps.join(" ") };
        let ffa = |c: &TuneConfig| c.ffa.map_or("two-player games".to_string(), |n| format!("--ffa {n}"));
        let checks = [
            ("the bot", old.bot != self.bot, old.bot.clone(), self.bot.clone()),
            ("--against", old.against != self.against, show(&old.against), show(&self.against)),
            ("the parameters", old.params != self.params, params(old), params(self)),
            (
                "--games-per-iter",
                old.games_per_iter != self.games_per_iter,
                old.games_per_iter.to_string(),
                self.games_per_iter.to_string(),
            ),
            ("--seed", old.seed != self.seed, old.seed.to_string(), self.seed.to_string()),
            ("the gains", old.gains != self.gains, format!("{:?}", old.gains), format!("{:?}", self.gains)),
            ("the board and time flags", old.board != self.board, board(old), board(self)),
            ("--maps", old.maps != self.maps, maps(old), maps(self)),
            ("--ffa", old.ffa != self.ffa, ffa(old), ffa(self)),
        ];
        checks.into_iter().find(|c| c.1).map(|(what, _, was, now)| {
            format!(
                "{what} of this command differ from the state file's: it was made with {was}, this command gives \
                 {now}; resume with the same flags (only --iterations and -j may change), or start anew with \
                 another --state file"
            )
        })
    }
}

/// One iteration played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    /// Its number, from 0.
    pub iteration: u64,
    /// The sign of each parameter's perturbation.
    pub delta: Vec<f64>,
    /// The values of the plus point.
    pub plus: Vec<f64>,
    /// The values of the minus point.
    pub minus: Vec<f64>,
    /// Games each point played.
    pub games: u64,
    /// The plus point's score over its games.
    pub score_plus: f64,
    /// The minus point's score over its games.
    pub score_minus: f64,
    /// The values after the update.
    pub theta: Vec<f64>,
}

/// A tune: its settings, where it stands, and what it played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Always [`FORMAT`].
    pub format: String,
    /// The settings.
    pub config: TuneConfig,
    /// Iterations done.
    pub iteration: u64,
    /// The current values, by parameter.
    pub theta: Vec<f64>,
    /// Every iteration done, in order.
    pub history: Vec<Iteration>,
}

impl State {
    /// A tune not started: the values at their starts.
    pub fn new(config: TuneConfig) -> State {
        let theta = config.params.iter().map(|p| p.start).collect();
        State { format: FORMAT.to_string(), config, iteration: 0, theta, history: Vec::new() }
    }

    /// Whether every iteration planned is done.
    pub fn is_done(&self) -> bool {
        self.iteration >= self.config.iterations
    }

    /// The state read from `path`; `Ok(None)` when there is no such file
    /// (or it is empty: made by a run killed before it wrote anything).
    pub fn load(path: &Path) -> Result<Option<State>, String> {
        let name = path.display();
        if std::fs::symlink_metadata(path).is_err() {
            return Ok(None);
        }
        let text = input::read_text(path, &STATE_LIMIT).map_err(|e| format!("--state {name}: {e}"))?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        let state: State =
            serde_json::from_str(&text).map_err(|e| format!("--state {name}: not a tune state file: {e}"))?;
        state.check().map_err(|e| format!("--state {name}: {e}"))?;
        Ok(Some(state))
    }

    /// Checks a state read back: its format, and that its parts agree.
    fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("format {:?}, not {FORMAT:?}", self.format));
        }
        let n = self.config.params.len();
        if self.iteration != self.history.len() as u64 {
            return Err(format!("iteration {} but {} iterations in its history", self.iteration, self.history.len()));
        }
        let lengths_fit = self.theta.len() == n
            && self.history.iter().enumerate().all(|(k, it)| {
                it.iteration == k as u64 && [&it.delta, &it.plus, &it.minus, &it.theta].iter().all(|v| v.len() == n)
            });
        if !lengths_fit {
            return Err(format!("its values do not fit its {n} parameters, or its iterations are out of order"));
        }
        let within = |v: &[f64]| v.iter().zip(&self.config.params).all(|(x, p)| (p.min..=p.max).contains(x));
        if !within(&self.theta) {
            return Err("a current value lies outside its parameter's MIN and MAX".into());
        }
        if self.config.games_per_iter == 0 || self.config.games_per_iter % 2 == 1 {
            return Err(format!("games_per_iter {} is not a positive even number", self.config.games_per_iter));
        }
        Ok(())
    }

    /// Writes the state to `path` whole.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())? + "\n";
        whole_file::write(path, text.as_bytes()).map_err(|e| format!("--state {}: cannot write: {e}", path.display()))
    }
}
