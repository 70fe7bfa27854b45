//! What a tournament is, once planned ([`super::plan`]): its bots,
//! schedule, game options and outputs; the header of its results file, and
//! the commands that play one of its games again or resume it.

use std::path::PathBuf;

use super::maps::MapPool;
use super::progress::ProgressMode;
use super::results::{self, Header, HeaderBot, HeaderLeague, ResultsError, ShardHeader};
use super::schedule::{PairingMode, Schedule, ScheduledGame};
use super::shard::Shard;
use super::shell::shell_quote;
use crate::bot::spec::Entrant;
use crate::game::match_loop::Limits;
use crate::game::run::{GameOptions, RunError};
use crate::stats::Sprt;

/// Everything a tournament needs.
#[derive(Clone)]
pub struct Tournament {
    /// The bots, in the order given.
    pub entrants: Vec<Entrant>,
    /// Their specs as given (`NAME=` included when it was), for the header
    /// and for replay commands.
    pub specs: Vec<String>,
    /// Who plays whom.
    pub mode: PairingMode,
    /// The games.
    pub schedule: Schedule,
    /// Play only this shard's games (`--shard I/N`).
    pub shard: Option<Shard>,
    /// What every game is: configuration (two players), map file, time
    /// limits, replay directory.
    pub options: GameOptions,
    /// Games played at once.
    pub jobs: usize,
    /// The SPRT to run on pairing 0 (two bots only).
    pub sprt: Option<Sprt>,
    /// The results file, if any.
    pub results: Option<PathBuf>,
    /// Continue the results file instead of starting it.
    pub resume: bool,
    /// Flags that `lightcycles play` needs to play one of these games again
    /// (board, map, time limits), in command-line form.
    pub replay_flags: Vec<String>,
    /// How progress is shown.
    pub progress: ProgressMode,
    /// The command that resumes this tournament, said when it is
    /// interrupted (with a results file only).
    pub resume_command: Option<String>,
    /// The map pool, when games are played on one (its order is the
    /// schedule's).
    pub maps: Option<MapPool>,
    /// A league: games chosen as the ratings go, this many sets at once;
    /// `schedule` then gives the seats per game, the seed and the games.
    pub league: Option<u64>,
    /// Pin each worker, and the bots it starts, to a core of its own
    /// (Linux; elsewhere a note says it is not done).
    pub pin_cpus: bool,
    /// Wasm bots budgeted in fuel: this much for an answer of `time_ms`.
    pub fuel_per_tick: Option<u64>,
}

/// Why a tournament stopped before its report.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The results file could not be used.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// A game could not be played or its replay written.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A league could not go on from its results file.
    #[error("{0}")]
    League(String),
}

impl Tournament {
    /// The header line of this tournament's results file.
    pub fn header(&self) -> Header {
        Header {
            format: results::FORMAT.to_string(),
            bots: self
                .entrants
                .iter()
                .zip(&self.specs)
                .enumerate()
                .map(|(i, (e, spec))| {
                    let own = self.options.bot_limits.get(i).copied().flatten();
                    HeaderBot {
                        name: e.name.clone(),
                        spec: spec.clone(),
                        time_first_ms: own.map(|l| l.first.as_millis() as u64),
                        time_ms: own.map(|l| l.rest.as_millis() as u64),
                        time_bank_ms: own.filter(Limits::banked).map(|l| l.bank.as_millis() as u64),
                        time_inc_ms: own.filter(Limits::banked).map(|l| l.inc.as_millis() as u64),
                    }
                })
                .collect(),
            pairing: self.mode,
            seed: self.schedule.base_seed(),
            config: self.options.config,
            map: self.options.map_file.as_ref().map(|m| m.text.clone()),
            time_first_ms: self.options.limits.first.as_millis() as u64,
            time_ms: self.options.limits.rest.as_millis() as u64,
            time_margin_ms: self.options.margin.as_millis() as u64,
            time_bank_ms: self.options.limits.bank.as_millis() as u64,
            time_inc_ms: self.options.limits.inc.as_millis() as u64,
            fuel_per_tick: self.fuel_per_tick,
            seats: self.schedule.seats(),
            maps: self.maps.as_ref().map(MapPool::header),
            league: self.league.map(|lag| HeaderLeague { lag }),
            shard: self.shard.map(|s| ShardHeader {
                index: s.index(),
                count: s.count(),
                games_per_pairing: self.schedule.games_per_pairing(),
            }),
            sprt_model: self.sprt.map(|s| s.model).filter(|m| *m != crate::stats::SprtModel::Logistic),
        }
    }

    /// The options of game `game`: its map's board when there is a pool.
    pub(super) fn game_options(&self, game: &ScheduledGame) -> std::borrow::Cow<'_, GameOptions> {
        match (&self.maps, game.map) {
            (Some(pool), Some(index)) => std::borrow::Cow::Owned(pool.options(&self.options, index)),
            _ => std::borrow::Cow::Borrowed(&self.options),
        }
    }

    pub(super) fn names(&self) -> Vec<String> {
        self.entrants.iter().map(|e| e.name.clone()).collect()
    }

    /// The command that plays game `game` again: `lightcycles play` with
    /// the bots in its seats (named as here), one round of its seed, and
    /// the flags of this tournament.
    pub fn replay_command(&self, game: &ScheduledGame) -> String {
        let mut words: Vec<String> = vec!["lightcycles".into(), "play".into()];
        for &bot in &game.seats {
            let name = &self.entrants[bot].name;
            let spec = &self.specs[bot];
            let form = match spec.split_once('=') {
                Some((given, form)) if crate::bot::spec::is_valid_name(given) => form,
                _ => spec.as_str(),
            };
            words.push(format!("{name}={form}"));
        }
        words.extend(["-r".to_string(), "1".to_string(), "-s".to_string(), game.seed.to_string()]);
        words.extend(self.replay_flags.iter().cloned());
        if let (Some(pool), Some(index)) = (&self.maps, game.map) {
            words.extend(pool.flags(index));
        }
        words.iter().map(|w| shell_quote(w)).collect::<Vec<_>>().join(" ")
    }
}

impl Tournament {
    /// What an interrupted run says: the games done, and how to go on.
    pub(super) fn interrupted_note(&self, done: u64, total: u64) -> String {
        let mut note = format!("{done} of {total} games were played");
        match (&self.results, &self.resume_command) {
            (Some(path), Some(command)) => {
                note.push_str(&format!(" and are in {}; resume with:\n  {command}", path.display()));
            }
            _ => note.push_str(" and are lost: with --results FILE a tournament can be resumed (--resume)"),
        }
        note
    }
}
