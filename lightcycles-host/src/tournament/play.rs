//! Playing a tournament: workers take the next game index not yet played,
//! play it and send it back; the calling thread appends its line to the
//! results file, counts it, shows progress, and stops starting games once
//! an SPRT has decided (games in flight finish and are recorded).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

use lightcycles_core::Engine;

use super::league::{self, Planner, Shared};
use super::progress::Progress;
use super::report::Report;
use super::results::{self, Faults, GameLine, GameResult, ResultsFile};
use super::schedule::{Schedule, ScheduledGame};
use super::standings::Standings;
use super::{Tournament, TournamentError};
use crate::game::match_loop::{AnswerTimes, NEAR_LIMIT};
use crate::game::pool;
use crate::game::report::{game_line as game_text, BankUses, Timeouts};
use crate::game::run;
use crate::io::interrupt;
use crate::metric;

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

/// Where the games of a run come from: a fixed schedule, or a league's
/// choices as they are made.
enum Source<'a> {
    Fixed(&'a Schedule),
    League(&'a Shared),
}

impl Source<'_> {
    /// Game `game`; a league's waits for its set to be chosen (`None`:
    /// the league closed first).
    fn game(&self, game: u64) -> Option<ScheduledGame> {
        match self {
            Source::Fixed(schedule) => Some(schedule.game(game)),
            Source::League(shared) => shared.game(game),
        }
    }
}

/// How the games read back from a results file are counted.
enum Counter {
    Fixed(Standings),
    League(Box<Planner>, Standings),
}

impl Counter {
    fn add(&mut self, result: GameResult, shared: Option<&Shared>) {
        match (self, shared) {
            (Counter::Fixed(st), _) => st.add(result),
            (Counter::League(planner, st), Some(shared)) => planner.add(result, st, shared),
            (Counter::League(_, st), None) => st.add(result),
        }
    }

    fn standings(&self) -> &Standings {
        match self {
            Counter::Fixed(st) | Counter::League(_, st) => st,
        }
    }

    fn finish(self) -> Standings {
        match self {
            Counter::Fixed(mut st) => {
                st.finish();
                st
            }
            Counter::League(mut planner, mut st) => {
                planner.finish(&mut st);
                st.finish();
                st
            }
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
    let seats = t.schedule.seats();
    let map_order = t.maps.as_ref().map(|pool| pool.map_order(t.schedule.base_seed()));
    let shared = t.league.map(|_| Shared::new(seats, t.schedule.base_seed(), map_order.clone()));
    let mut done = DoneGames::default();
    let mut done_count = 0u64;
    let mut beyond = 0u64;
    // Games read back from the file, counted once the counter exists (a
    // league must know every set the file holds before it chooses one).
    let mut read: Vec<GameResult> = Vec::new();
    let mut known_sets: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
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
            match &shared {
                None => line.check_scheduled(&t.schedule)?,
                Some(shared) => {
                    let set = line.game / seats as u64;
                    let group = league::group_of_line(&line.seats, line.game)?;
                    if let Some(other) = known_sets.get(&set) {
                        if *other != group {
                            return Err(format!(
                                "game {} is of set {set}, whose other games hold {other:?}",
                                line.game
                            ));
                        }
                    }
                    let scheduled = shared.scheduled(line.game, league::colex_rank(&group), &group);
                    if (line.round, line.pairing, line.seed) != (scheduled.round, scheduled.pairing, scheduled.seed) {
                        return Err(format!(
                            "game {} has round {}, pairing {} and seed {}; a league game of set {set} has round {}, \
                             pairing {} and seed {}",
                            line.game,
                            line.round,
                            line.pairing,
                            line.seed,
                            scheduled.round,
                            scheduled.pairing,
                            scheduled.seed
                        ));
                    }
                    known_sets.insert(set, group);
                }
            }
            // Shard games are numbered n = (k - I) / N in `done`.
            let nth = t.shard.map_or(line.game, |s| line.game / s.count());
            if done.contains(nth) {
                return Err(format!("game {} is in the file twice", line.game));
            }
            done.insert(nth);
            done_count += 1;
            read.push(line.result());
            Ok(())
        })?),
        Some(path) => Some(ResultsFile::create(path, &t.header())?),
        None => None,
    };
    let mut counter = match (&shared, t.league) {
        (Some(shared), Some(lag)) => {
            let mut planner =
                Planner::new(t.entrants.len(), seats, lag, known_sets).map_err(TournamentError::League)?;
            let standings = Standings::league(t.entrants.len(), seats);
            planner.start(&standings, shared);
            Counter::League(Box::new(planner), standings)
        }
        _ => {
            let standings = Standings::new(&t.schedule, t.entrants.len(), t.sprt);
            Counter::Fixed(match t.shard {
                Some(shard) => standings.of_shard(shard),
                None => standings,
            })
        }
    };
    for result in read {
        counter.add(result, shared.as_ref());
    }
    let progress = Progress::new(t.progress, total, done_count);
    if done_count > 0 || beyond > 0 {
        let mut note = format!("resuming: {done_count} of {total} games are done");
        if beyond > 0 {
            note.push_str(&format!(", and {beyond} more in the file lie beyond -g and are left out"));
        }
        progress.println(&note);
    }
    progress.update(done_count, counter.standings(), &names);
    interrupt::set(t.interrupted_note(done_count, total));

    let mut failure: Option<TournamentError> = None;
    let mut timeouts = Timeouts::new(t.entrants.len());
    let mut banks = BankUses::new(t.entrants.len());
    let mut times = vec![AnswerTimes::default(); t.entrants.len()];
    let source = match &shared {
        Some(shared) => Source::League(shared),
        None => Source::Fixed(&t.schedule),
    };
    let pinned = pool::Pinning::new(t.pin_cpus);
    let play = |nth| {
        if done.contains(nth) {
            return None;
        }
        let scheduled = source.game(game_index(nth))?;
        pinned.pin_this_worker();
        let options = t.game_options(&scheduled);
        let result = run::play_game::<E>(&t.entrants, &options, scheduled.plan(), &mut run::unwatched);
        // The metrics the bots reported, read from the replay here (on the
        // worker) so that only their summaries travel.
        let result = result.map(|(summary, replay)| {
            let metrics = replay.said.as_deref().and_then(|said| metric::summaries(said, summary.names.len()));
            (summary, metrics)
        });
        Some((scheduled, result))
    };
    let decided = counter.standings().decided();
    pool::play_all(t.jobs, total, decided, play, |_, (scheduled, result)| {
        let (summary, metrics) = match result {
            Ok(done) => done,
            Err(e) => {
                failure.get_or_insert(e.into());
                if let Some(shared) = &shared {
                    shared.close();
                }
                return ControlFlow::Break(());
            }
        };
        let faults: Vec<Faults> = summary.faults.iter().map(|&f| Faults::from(f)).collect();
        let faulty = faults.iter().any(|f| f.total() > 0);
        let command = faulty.then(|| t.replay_command(&scheduled));
        let map_name = match (&t.maps, scheduled.map) {
            (Some(pool), Some(index)) => Some(pool.maps[index].name.clone()),
            _ => None,
        };
        let mut line = results::game_line(
            &scheduled,
            summary.names.clone(),
            &summary.outcome,
            faults,
            map_name,
            summary.replay_path.as_deref(),
            command.clone(),
        );
        line.metrics = metrics;
        if let Some(file) = &mut file {
            if let Err(e) = file.append(&line) {
                failure.get_or_insert(e.into());
                if let Some(shared) = &shared {
                    shared.close();
                }
                return ControlFlow::Break(());
            }
        }
        if let Some(command) = command {
            progress.println(&format!("{}\n  replay: {command}", game_text(&summary, t.options.config.max_ticks)));
        }
        counter.add(line.result(), shared.as_ref());
        timeouts.add(&summary);
        banks.add(&summary);
        for (seat, &e) in summary.plan.seats.iter().enumerate() {
            if let Some(x) = summary.times.get(seat) {
                times[e].merge(x);
            }
        }
        done_count += 1;
        progress.update(done_count, counter.standings(), &names);
        interrupt::set(t.interrupted_note(done_count, total));
        if counter.standings().decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(shared) = &shared {
        shared.close();
    }
    progress.finish(done_count, counter.standings(), &names);
    interrupt::set(String::new());
    for note in timeouts.advice(&names, t.options.limits.rest, t.jobs) {
        eprintln!("{note}");
    }
    if let Some(note) = near_limit_note(&names, &times, t.options.margin) {
        eprintln!("{note}");
    }
    if let Some(note) = banks.note(&names) {
        eprintln!("{note}");
    }
    if let Some(note) = pinned.note() {
        eprintln!("{note}");
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let standings = counter.finish();
    let mut report = Report::new(&t.schedule, t.mode, &standings, &names, &t.specs).of_shard(t.shard);
    if t.league.is_some() {
        report.league = true;
        // A league's pairings are those its games had: none played, none shown.
        report.pairings.retain(|p| p.games.games() > 0);
    }
    Ok(report)
}

/// The summary of how many timed answers came near their limit (and how
/// many the margin let in), per bot; `None` when no answer was timed.
pub fn near_limit_note(names: &[String], times: &[AnswerTimes], margin: std::time::Duration) -> Option<String> {
    let timed: u64 = times.iter().map(|t| t.timed as u64).sum();
    if timed == 0 {
        return None;
    }
    let near: u64 = times.iter().map(|t| t.near as u64).sum();
    let mut note = format!(
        "answers near the limit (at least {}% of it): {near} of {timed} timed answers",
        100 * NEAR_LIMIT.0 / NEAR_LIMIT.1
    );
    let parts: Vec<String> = names
        .iter()
        .zip(times)
        .filter(|(_, t)| t.timed > 0)
        .map(|(name, t)| {
            let mut part = format!("{} {} of {}", crate::io::untrusted::terminal_text(name), t.near, t.timed);
            if !margin.is_zero() {
                part.push_str(&format!(", {} in the margin", t.in_margin));
            }
            part
        })
        .collect();
    note.push_str(&format!(" ({})", parts.join("; ")));
    if !margin.is_zero() {
        let in_margin: u64 = times.iter().map(|t| t.in_margin as u64).sum();
        note.push_str(&format!("; {in_margin} came after the limit and within the {} ms margin", margin.as_millis()));
    }
    Some(note)
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
}
