//! Tournaments: many two-player games between two or more bots, every seed
//! in both seats, in parallel, with statistics a bot author can trust and a
//! results file that survives being killed.
//!
//! - [`schedule`]: which games, in a stable order (pairings, seeds, seats).
//! - [`shard`]: the games one machine of many plays (`--shard I/N`).
//! - [`merge`]: the shards' results files made one (`tournament merge`).
//! - [`results`]: the results file, one JSON line per game, and resuming it.
//! - [`standings`]: counting games in index order: statistics, ratings, SPRT.
//! - [`progress`]: the live bar or log on stderr.
//! - [`report`]: the final table and JSON.
//!
//! [`run()`] ties them together: workers take the next game index not yet
//! played, play it, and send it back; the calling thread appends its line
//! to the results file, counts it, shows progress, and stops starting games
//! once an SPRT has decided (games in flight finish and are recorded).

pub mod merge;
pub mod progress;
pub mod report;
pub mod results;
pub mod schedule;
pub mod shard;
pub mod standings;

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::PathBuf;

use lightcycles_core::Engine;

use self::progress::{Progress, ProgressMode};
use self::report::Report;
use self::results::{Faults, GameLine, Header, HeaderBot, ResultsError, ResultsFile, ShardHeader};
use self::schedule::{PairingMode, Schedule, ScheduledGame};
use self::shard::Shard;
use self::standings::Standings;
use crate::bot::spec::Entrant;
use crate::game::pool;
use crate::game::report::{game_line as game_text, Timeouts};
use crate::game::run::{self, GameOptions, RunError};
use crate::io::interrupt;
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
                .map(|(e, spec)| HeaderBot { name: e.name.clone(), spec: spec.clone() })
                .collect(),
            pairing: self.mode,
            seed: self.schedule.base_seed(),
            config: self.options.config,
            map: self.options.map_file.as_ref().map(|m| m.text.clone()),
            time_first_ms: self.options.limits.first.as_millis() as u64,
            time_ms: self.options.limits.rest.as_millis() as u64,
            shard: self.shard.map(|s| ShardHeader {
                index: s.index(),
                count: s.count(),
                games_per_pairing: self.schedule.games_per_pairing(),
            }),
        }
    }

    fn names(&self) -> Vec<String> {
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
        words.iter().map(|w| shell_quote(w)).collect::<Vec<_>>().join(" ")
    }
}

/// A word as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes (a quote
/// inside written `'\''`).
impl Tournament {
    /// What an interrupted run says: the games done, and how to go on.
    fn interrupted_note(&self, done: u64, total: u64) -> String {
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

/// `words` as one shell command line, each word quoted when a shell would
/// change it, with `--resume` added when it is not there.
pub fn resume_command(words: &[String]) -> String {
    let mut quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
    if !words.iter().any(|w| w == "--resume") {
        quoted.push("--resume".into());
    }
    quoted.join(" ")
}

fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-.,:/=@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) && !word.starts_with('=') {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The games already finished: every index below `below`, and the few
/// above it in `rest` (games finish nearly in order), so it stays small
/// however long the tournament and whatever `-g` says.
#[derive(Debug, Default)]
struct DoneGames {
    below: u64,
    rest: BTreeSet<u64>,
}

impl DoneGames {
    fn contains(&self, game: u64) -> bool {
        game < self.below || self.rest.contains(&game)
    }

    fn insert(&mut self, game: u64) {
        self.rest.insert(game);
        while self.rest.remove(&self.below) {
            self.below += 1;
        }
    }
}

/// Plays the tournament on engine `E` and returns its report. With
/// `resume`, the games already in the results file are counted and not
/// played again.
pub fn run<E: Engine>(t: &Tournament) -> Result<Report, TournamentError> {
    let all = t.schedule.total_games();
    // The games this run plays: all, or one shard's (its nth game is
    // `game_index(n)`).
    let total = t.shard.map_or(all, |s| s.games_of(all));
    let game_index = |nth: u64| t.shard.map_or(nth, |s| s.game(nth));
    let names = t.names();
    let mut standings = Standings::new(&t.schedule, t.entrants.len(), t.sprt);
    if let Some(shard) = t.shard {
        standings = standings.of_shard(shard);
    }
    let mut done = DoneGames::default();
    let mut done_count = 0u64;
    let mut beyond = 0u64;
    let mut file = match &t.results {
        Some(path) if t.resume => Some(ResultsFile::resume(path, &t.header(), |line: GameLine| {
            if line.game >= all {
                // Played under a larger -g: kept in the file, not counted here.
                beyond += 1;
                return Ok(());
            }
            if let Some(shard) = t.shard.filter(|s| !s.contains(line.game)) {
                return Err(format!("game {} is not one of shard {shard}'s games", line.game));
            }
            line.check_scheduled(&t.schedule)?;
            // Shard games are numbered n = (k - I) / N in `done`.
            let nth = t.shard.map_or(line.game, |s| line.game / s.count());
            if done.contains(nth) {
                return Err(format!("game {} is in the file twice", line.game));
            }
            done.insert(nth);
            done_count += 1;
            standings.add(line.result());
            Ok(())
        })?),
        Some(path) => Some(ResultsFile::create(path, &t.header())?),
        None => None,
    };
    let progress = Progress::new(t.progress, total, done_count);
    if done_count > 0 || beyond > 0 {
        let mut note = format!("resuming: {done_count} of {total} games are done");
        if beyond > 0 {
            note.push_str(&format!(", and {beyond} more in the file lie beyond -g and are left out"));
        }
        progress.println(&note);
    }
    progress.update(done_count, &standings, &names);
    interrupt::set(t.interrupted_note(done_count, total));

    let mut failure: Option<TournamentError> = None;
    let mut timeouts = Timeouts::new(t.entrants.len());
    let play = |nth| {
        if done.contains(nth) {
            return None;
        }
        let scheduled = t.schedule.game(game_index(nth));
        let result = run::play_game::<E>(&t.entrants, &t.options, scheduled.plan(), &mut run::unwatched);
        Some((scheduled, result.map(|(summary, _replay)| summary)))
    };
    pool::play_all(t.jobs, total, standings.decided(), play, |_, (scheduled, result)| {
        let summary = match result {
            Ok(summary) => summary,
            Err(e) => {
                failure.get_or_insert(e.into());
                return ControlFlow::Break(());
            }
        };
        let faults = [Faults::from(summary.faults[0]), Faults::from(summary.faults[1])];
        let faulty = faults.iter().any(|f| f.total() > 0);
        let command = faulty.then(|| t.replay_command(&scheduled));
        let line = results::game_line(
            &scheduled,
            [summary.names[0].clone(), summary.names[1].clone()],
            summary.outcome.winner,
            summary.outcome.ticks,
            faults,
            summary.replay_path.as_deref(),
            command.clone(),
        );
        if let Some(file) = &mut file {
            if let Err(e) = file.append(&line) {
                failure.get_or_insert(e.into());
                return ControlFlow::Break(());
            }
        }
        if let Some(command) = command {
            progress.println(&format!("{}\n  replay: {command}", game_text(&summary, t.options.config.max_ticks)));
        }
        standings.add(line.result());
        timeouts.add(&summary);
        done_count += 1;
        progress.update(done_count, &standings, &names);
        interrupt::set(t.interrupted_note(done_count, total));
        if standings.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    progress.finish(done_count, &standings, &names);
    interrupt::set(String::new());
    for note in timeouts.advice(&names, t.options.limits.rest, t.jobs) {
        eprintln!("{note}");
    }
    if let Some(e) = failure {
        return Err(e);
    }
    standings.finish();
    Ok(Report::new(&t.schedule, t.mode, &standings, &names, &t.specs).of_shard(t.shard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_games_keep_a_prefix_and_the_few_beyond_it() {
        let mut done = DoneGames::default();
        for g in [2, 0, 5, 1] {
            done.insert(g);
        }
        assert_eq!((done.below, done.rest.iter().copied().collect::<Vec<_>>()), (3, vec![5]));
        assert!(done.contains(0) && done.contains(2) && done.contains(5));
        assert!(!done.contains(3) && !done.contains(4) && !done.contains(6));
        done.insert(3);
        done.insert(4);
        assert_eq!((done.below, done.rest.len()), (6, 0));
    }

    #[test]
    fn words_are_quoted_only_when_a_shell_would_change_them() {
        assert_eq!(shell_quote("f=builtin:fuzz"), "f=builtin:fuzz");
        assert_eq!(shell_quote("--map=maps/a-1.txt"), "--map=maps/a-1.txt");
        assert_eq!(shell_quote("b=cmd:./bot --depth 3"), "'b=cmd:./bot --depth 3'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("=x"), "'=x'");
        assert_eq!(shell_quote("a$b"), "'a$b'");
    }
}
