//! Many games: which seed and seats each game gets, games in parallel, and
//! results handed on in game order whatever order they finish in.
//!
//! Game numbers and seeds: without `swap`, game `g` (from 0) is played with
//! seed `(base + g) mod 2^64` and the bots in the seats they were given.
//! With `swap`, each round `r` is played twice: game `2r` with the bots as
//! given and game `2r + 1` with the seats reversed, both with seed
//! `(base + r) mod 2^64`.
//!
//! What a game is ([`GameOptions`]) is kept apart from which games a run
//! plays ([`Rounds`]): a tournament plays games of the same kind on a
//! schedule of its own.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lightcycles_core::replay::Replay;
use lightcycles_core::rng::game_seed;
use lightcycles_core::{Answer, Config, Engine, Outcome};

use crate::bot::spec::Entrant;
use crate::bot::{Bot, BotContext, Failed};
use crate::game::bank::BankUse;
use crate::game::match_loop::{self, AnswerTimes, FaultCounts, GameSetup, Limits, MatchError, Timing};
use crate::game::pool;
use lightcycles_core::MapFile;

/// What every game of a run is: its board and rules, its map file, its time
/// limits, and where its replay goes.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// The configuration of every game (players: one per seat).
    pub config: Config,
    /// A map file every game is played on, instead of seeded maps.
    pub map_file: Option<MapFile>,
    /// Time limits per answer.
    pub limits: Limits,
    /// Where `sim_<g>.json` files are written, if anywhere.
    pub out_dir: Option<PathBuf>,
    /// Limits of their own, by entrant (`--bot-time`): empty, or one per
    /// entrant, `None` for those that keep `limits`.
    pub bot_limits: Vec<Option<Limits>>,
    /// Time past a limit still taken as in time (`--time-margin-ms`).
    pub margin: Duration,
}

impl GameOptions {
    /// Options for games of `config` (on `map_file`, if given) with one
    /// limit for every bot and no margin.
    pub fn new(config: Config, map_file: Option<MapFile>, limits: Limits, out_dir: Option<PathBuf>) -> GameOptions {
        GameOptions { config, map_file, limits, out_dir, bot_limits: Vec::new(), margin: Duration::ZERO }
    }

    /// The limits of entrant `entrant`.
    pub fn limits_of(&self, entrant: usize) -> Limits {
        self.bot_limits.get(entrant).copied().flatten().unwrap_or(self.limits)
    }

    /// The most time any bot has for its first and its later answers, and
    /// the margin on top: what the probe before game 0 gives every bot.
    pub fn widest_limits(&self) -> Limits {
        let all = std::iter::once(self.limits).chain(self.bot_limits.iter().flatten().copied());
        // A first answer may spend the whole bank.
        let (first, rest) =
            all.fold((Duration::ZERO, Duration::ZERO), |(f, r), l| (f.max(l.first + l.bank), r.max(l.rest)));
        Limits::per_tick(first + self.margin, rest + self.margin)
    }

    /// Whether bots have limits of their own, a margin or a time bank: then
    /// each replay records its seats' limits.
    pub fn is_timed_per_bot(&self) -> bool {
        self.bot_limits.iter().any(Option::is_some) || !self.margin.is_zero() || self.limits.banked()
    }
}

/// Which games a run plays: rounds of seeds from a base seed, each played
/// once or, with `swap`, once in each seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounds {
    /// Rounds: one seed each.
    pub rounds: u64,
    /// The seed of round 0.
    pub base_seed: u64,
    /// Whether each round is played again with the seats reversed.
    pub swap: bool,
}

impl Rounds {
    /// The number of games: `rounds`, twice that with `swap`.
    pub fn games(&self) -> u64 {
        if self.swap {
            self.rounds.saturating_mul(2)
        } else {
            self.rounds
        }
    }

    /// The seed and seats of game `game`.
    pub fn plan(&self, game: u64, bots: usize) -> GamePlan {
        let (round, reversed) = if self.swap { (game / 2, game % 2 == 1) } else { (game, false) };
        let seats = if reversed { (0..bots).rev().collect() } else { (0..bots).collect() };
        GamePlan { game, seed: game_seed(self.base_seed, round), seats }
    }
}

/// The seed and seat arrangement of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlan {
    /// The game number, from 0.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// `seats[s]` is the index of the entrant riding in seat `s`.
    pub seats: Vec<usize>,
}

/// One finished game, as a run reports it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// Its seed and seats.
    pub plan: GamePlan,
    /// The display names by seat.
    pub names: Vec<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// Faults by seat.
    pub faults: Vec<FaultCounts>,
    /// The replay file written, if any.
    pub replay_path: Option<PathBuf>,
    /// The slowest answer of each seat's bot, when its adapter times them.
    pub slowest: Vec<Option<std::time::Duration>>,
    /// How each seat's timed answers went against its limit.
    pub times: Vec<AnswerTimes>,
    /// How each seat used its time bank, for seats that had one.
    pub banks: Vec<Option<BankUse>>,
}

impl GameSummary {
    /// The entrant who won, if one did.
    pub fn winning_entrant(&self) -> Option<usize> {
        self.outcome.winner.map(|seat| self.plan.seats[seat])
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A game could not be played.
    #[error("game {game} (seed {seed}): {source}")]
    Game {
        /// The game number.
        game: u64,
        /// Its seed.
        seed: u64,
        /// Why.
        source: MatchError,
    },
    /// A replay file could not be written.
    #[error("game {game}: cannot write {}: {source}", path.display())]
    Write {
        /// The game number.
        game: u64,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The consumer of results stopped the run.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

/// Why the consumer of a run's results stopped it.
#[derive(Debug, thiserror::Error)]
pub enum Stop {
    /// The person watching pressed `q`.
    #[error("quit with q")]
    Quit,
    /// A signal (Ctrl-C) asked the run to stop.
    #[error("interrupted")]
    Interrupted,
    /// The results could not be written where they go.
    #[error("cannot write to standard output: {0}")]
    Output(std::io::Error),
}

/// The path of game `game`'s replay in `dir`.
pub fn replay_path(dir: &Path, game: u64) -> PathBuf {
    dir.join(format!("sim_{game}.json"))
}

/// Writes a replay to `path` through a temporary file in the same
/// directory and a rename, so that no reader ever sees half a file.
pub fn write_replay(path: &Path, replay: &Replay) -> std::io::Result<()> {
    let mut json = replay.to_json();
    json.push('\n');
    crate::io::whole_file::write(path, json.as_bytes())
}

/// What a watcher is shown of a game: its plan, the names by seat, the
/// engine and the answers of the tick just played (none at the start).
pub type Watch<'w, E> = dyn FnMut(&GamePlan, &[String], &E, &[Answer]) + 'w;

/// The watcher of games nobody watches.
pub fn unwatched<E>(_: &GamePlan, _: &[String], _: &E, _: &[Answer]) {}

/// Plays one game whose seed and seats are chosen, on engine `E`, showing
/// `watch` every tick (see [`match_loop::play`]): `plan.seats` index
/// `entrants`, so a tournament can seat two bots of many. Writes its
/// replay when `options` names a folder.
pub fn play_game<E: Engine>(
    entrants: &[Entrant],
    options: &GameOptions,
    plan: GamePlan,
    watch: &mut Watch<'_, E>,
) -> Result<(GameSummary, Replay), RunError> {
    let game = plan.game;
    let players = plan.seats.len();
    let bots: Vec<Box<dyn Bot>> = plan
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &e)| {
            let ctx = BotContext { game, seat, players, seed: plan.seed };
            entrants[e].factory.create(&ctx).unwrap_or_else(|error| Box::new(Failed { error }))
        })
        .collect();
    let names: Vec<String> = plan.seats.iter().map(|&e| entrants[e].name.clone()).collect();
    let setup = GameSetup {
        config: options.config,
        seed: plan.seed,
        map_file: options.map_file.as_ref(),
        limits: options.limits,
    };
    let mut watcher = |engine: &E, answers: &[Answer]| watch(&plan, &names, engine, answers);
    let record = if options.is_timed_per_bot() {
        let limits: Vec<Limits> = plan.seats.iter().map(|&e| options.limits_of(e)).collect();
        let timing = Timing { seats: &limits, margin: options.margin };
        match_loop::play_timed::<E>(&setup, timing, names.clone(), bots, &mut watcher)
    } else {
        match_loop::play::<E>(&setup, names.clone(), bots, &mut watcher)
    }
    .map_err(|source| RunError::Game { game, seed: plan.seed, source })?;
    let replay_path = match &options.out_dir {
        Some(dir) => {
            let path = replay_path(dir, game);
            write_replay(&path, &record.replay).map_err(|source| RunError::Write {
                game,
                path: path.clone(),
                source,
            })?;
            Some(path)
        }
        None => None,
    };
    let summary = GameSummary {
        plan,
        names,
        outcome: record.outcome,
        faults: record.faults,
        replay_path,
        slowest: record.slowest,
        times: record.times,
        banks: record.banks,
    };
    Ok((summary, record.replay))
}

/// Plays every game of `rounds` on engine `E`, `jobs` at a time, and hands
/// each finished game to `on_game` in game order. Stops at the first error
/// (games already started finish first).
pub fn run<E: Engine>(
    entrants: &[Entrant],
    options: &GameOptions,
    rounds: &Rounds,
    jobs: usize,
    mut on_game: impl FnMut(&GameSummary) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let mut pending: BTreeMap<u64, Result<GameSummary, RunError>> = BTreeMap::new();
    let mut emitted = 0u64;
    let mut failure: Option<RunError> = None;
    let play = |game| {
        let plan = rounds.plan(game, entrants.len());
        Some(play_game::<E>(entrants, options, plan, &mut unwatched).map(|(summary, _replay)| summary))
    };
    pool::play_all(jobs, rounds.games(), false, play, |game, result| {
        let failed = result.is_err();
        pending.insert(game, result);
        while failure.is_none() {
            let Some(result) = pending.remove(&emitted) else { break };
            emitted += 1;
            if let Err(e) = result.and_then(|summary| on_game(&summary)) {
                failure = Some(e);
            }
        }
        if failed || failure.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    match failure {
        Some(e) => Err(e),
        // A failed game stops the others, so a gap can be left before it:
        // report the earliest error.
        None => match pending.into_values().find_map(Result::err) {
            Some(e) => Err(e),
            None => Ok(()),
        },
    }
}

/// Plays every game of `rounds` on engine `E` one after another on this
/// thread, showing each tick to `watch` and handing each finished game to
/// `on_game`: what `play --watch` needs, since a person watches one game at
/// a time. Results, replays and files are those of [`run`] with one job.
pub fn run_watched<E: Engine>(
    entrants: &[Entrant],
    options: &GameOptions,
    rounds: &Rounds,
    watch: &mut Watch<'_, E>,
    mut on_game: impl FnMut(&GameSummary) -> Result<(), RunError>,
) -> Result<(), RunError> {
    for game in 0..rounds.games() {
        let plan = rounds.plan(game, entrants.len());
        let (summary, _replay) = play_game::<E>(entrants, options, plan, watch)?;
        on_game(&summary)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin::Builtin;
    use lightcycles_core::FastGame;
    use std::sync::Arc;

    fn entrants(kinds: &[Builtin]) -> Vec<Entrant> {
        kinds.iter().enumerate().map(|(i, b)| Entrant { name: format!("b{i}"), factory: Arc::new(*b) }).collect()
    }

    fn options() -> GameOptions {
        GameOptions::new(Config { width: 20, height: 16, ..Config::default() }, None, Limits::default(), None)
    }

    fn rounds(rounds: u64, swap: bool) -> Rounds {
        Rounds { rounds, base_seed: u64::MAX - 1, swap }
    }

    #[test]
    fn seeds_and_seats_of_each_game() {
        let plain = rounds(3, false);
        assert_eq!(plain.games(), 3);
        assert_eq!(plain.plan(0, 2), GamePlan { game: 0, seed: u64::MAX - 1, seats: vec![0, 1] });
        assert_eq!(plain.plan(2, 2), GamePlan { game: 2, seed: 0, seats: vec![0, 1] }, "seeds wrap");
        let swapped = rounds(3, true);
        assert_eq!(swapped.games(), 6);
        assert_eq!(swapped.plan(2, 3), GamePlan { game: 2, seed: u64::MAX, seats: vec![0, 1, 2] });
        assert_eq!(swapped.plan(3, 3), GamePlan { game: 3, seed: u64::MAX, seats: vec![2, 1, 0] });
    }

    #[test]
    fn results_come_in_game_order_with_any_number_of_jobs() {
        let bots = entrants(&[Builtin::Random, Builtin::Fuzz]);
        let collect = |jobs| {
            let mut seen = Vec::new();
            run::<FastGame>(&bots, &options(), &rounds(12, true), jobs, |s| {
                seen.push((s.plan.clone(), s.outcome.clone(), s.faults.clone()));
                Ok(())
            })
            .unwrap();
            seen
        };
        let one = collect(1);
        assert_eq!(one.iter().map(|(p, _, _)| p.game).collect::<Vec<_>>(), (0..24).collect::<Vec<_>>());
        assert_eq!(one, collect(2));
        assert_eq!(one, collect(5));
    }

    #[test]
    fn a_watched_run_gives_the_results_of_a_plain_one() {
        let bots = entrants(&[Builtin::Random, Builtin::Fuzz]);
        let (o, r) = (options(), rounds(3, true));
        let mut plain = Vec::new();
        run::<FastGame>(&bots, &o, &r, 1, |s| {
            plain.push((s.plan.clone(), s.outcome.clone()));
            Ok(())
        })
        .unwrap();
        let mut watched = Vec::new();
        let mut starts = Vec::new();
        let mut ticks = 0;
        let mut watch = |plan: &GamePlan, names: &[String], engine: &FastGame, _: &[Answer]| {
            if engine.tick() == 0 {
                starts.push((plan.game, names.to_vec()));
            }
            ticks += 1;
        };
        run_watched::<FastGame>(&bots, &o, &r, &mut watch, |s| {
            watched.push((s.plan.clone(), s.outcome.clone()));
            Ok(())
        })
        .unwrap();
        assert_eq!(watched, plain);
        let names = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
        assert_eq!(starts.len(), 6, "every game is shown from its start");
        assert_eq!(starts[0], (0, names("b0", "b1")));
        assert_eq!(starts[1], (1, names("b1", "b0")), "names by seat, swapped");
        let total: u32 = plain.iter().map(|(_, o)| o.ticks + 1).sum();
        assert_eq!(ticks, total, "the start and every tick of every game");
    }

    #[test]
    fn a_stopping_consumer_stops_the_run() {
        let bots = entrants(&[Builtin::Random, Builtin::Random]);
        let mut count = 0;
        let err = run::<FastGame>(&bots, &options(), &rounds(50, false), 2, |_| {
            count += 1;
            if count == 3 {
                Err(RunError::Stopped(Stop::Interrupted))
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert!(matches!(err, RunError::Stopped(Stop::Interrupted)), "{err}");
        assert_eq!(count, 3);
    }

    #[test]
    fn a_game_that_cannot_be_set_up_is_reported_with_its_number_and_seed() {
        let bots = entrants(&[Builtin::Random, Builtin::Random]);
        let mut o = options();
        o.config.players = 3; // two entrants for three seats
        let err = run::<FastGame>(&bots, &o, &rounds(2, false), 2, |_| Ok(())).unwrap_err();
        assert!(err.to_string().starts_with("game 0 (seed 18446744073709551614): 2 bots"), "{err}");
    }

    #[test]
    fn replays_are_written_whole_under_their_game_number() {
        let dir = tempfile::tempdir().unwrap();
        let bots = entrants(&[Builtin::Straight, Builtin::Random]);
        let mut o = options();
        o.out_dir = Some(dir.path().to_path_buf());
        let mut paths = Vec::new();
        run::<FastGame>(&bots, &o, &rounds(3, false), 2, |s| {
            paths.push(s.replay_path.clone().unwrap());
            Ok(())
        })
        .unwrap();
        assert_eq!(paths, (0..3).map(|g| dir.path().join(format!("sim_{g}.json"))).collect::<Vec<_>>());
        let mut files: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        files.sort();
        assert_eq!(files, ["sim_0.json", "sim_1.json", "sim_2.json"], "no temporary file is left behind");
        for path in paths {
            let replay = Replay::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
            lightcycles_core::replay::verify::<FastGame>(&replay).unwrap();
        }
    }
}
