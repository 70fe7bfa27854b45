//! One game between bots, deterministic: the same setup and the same bots
//! give the same replay, byte for byte.
//!
//! Each tick every living bot is asked for an answer to the state before
//! the tick, all of them at once (each on its own clock); each [`Reply`]
//! becomes an [`Answer`] through the core's one parser
//! ([`Answer::from_line`]); the engine applies the tick and the
//! [`Recorder`] writes it down. A bot is dropped (and with it any process it
//! runs) as soon as its player is eliminated.

use std::time::{Duration, Instant};

use lightcycles_core::replay::{Origin, Recorder, Replay, Said, TimeLimits};
use lightcycles_core::{defaults, map};
use lightcycles_core::{Answer, Config, Engine, FaultKind, GameError, Outcome, StepError};

use crate::bot::{Asked, Bot, Reply, Turn};
use crate::game::bank::{Bank, BankUse};

/// Where a run's map file was defined before it moved to the core.
pub use lightcycles_core::map::MapFile;

/// The time a bot has to answer one observation, and the bank it may
/// spend beyond that in one game (docs/bots.md, "Time banks").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// On the first tick (a bot may still be starting).
    pub first: Duration,
    /// On every later tick.
    pub rest: Duration,
    /// The time bank a game starts with: time a bot may spend past a
    /// tick's limit, taken from the bank (kaggle's overage time).
    pub bank: Duration,
    /// What each answer adds to the bank (fastchess's increment).
    pub inc: Duration,
}

impl Default for Limits {
    /// 1000 ms for the first tick, 50 ms after (as on CodinGame); no bank.
    fn default() -> Self {
        Limits::per_tick(Duration::from_millis(defaults::TIME_FIRST_MS), Duration::from_millis(defaults::TIME_MS))
    }
}

impl Limits {
    /// Limits of `first` and `rest` per answer, with no bank.
    pub fn per_tick(first: Duration, rest: Duration) -> Limits {
        Limits { first, rest, bank: Duration::ZERO, inc: Duration::ZERO }
    }

    /// Whether a bot under these limits has a time bank.
    pub fn banked(&self) -> bool {
        !self.bank.is_zero() || !self.inc.is_zero()
    }

    /// The limit for the decision of `tick` (1 for the first).
    pub fn for_tick(&self, tick: u32) -> Duration {
        if tick <= 1 {
            self.first
        } else {
            self.rest
        }
    }
}

/// The time of each seat's bot, and the margin: a line that comes after
/// its limit but within the margin is taken as in time (and counted), as
/// fastchess's `timemargin` does against scheduling noise.
#[derive(Clone, Copy, Debug)]
pub struct Timing<'a> {
    /// The limits by seat.
    pub seats: &'a [Limits],
    /// Time past a limit still taken as in time.
    pub margin: Duration,
}

/// An answer that took at least this share of its limit came near it:
/// `NEAR_LIMIT.0 / NEAR_LIMIT.1` (4/5, 80%), compared in whole nanoseconds.
pub const NEAR_LIMIT: (u128, u128) = (4, 5);

/// How one seat's timed answers went against its limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnswerTimes {
    /// Answers timed (by the adapters that time their bots' lines).
    pub timed: u32,
    /// Answers that took [`NEAR_LIMIT`] of the limit or more, in time or not.
    pub near: u32,
    /// Answers past the limit that the margin let in.
    pub in_margin: u32,
}

impl AnswerTimes {
    /// Counts one answer of `took` against `limit`, taken as in time or not.
    pub fn add(&mut self, took: Duration, limit: Duration, in_time: bool) {
        self.timed += 1;
        if took.as_nanos() * NEAR_LIMIT.1 >= limit.as_nanos() * NEAR_LIMIT.0 {
            self.near += 1;
        }
        if in_time && took > limit {
            self.in_margin += 1;
        }
    }

    /// Adds another count to this one.
    pub fn merge(&mut self, other: &AnswerTimes) {
        self.timed = self.timed.saturating_add(other.timed);
        self.near = self.near.saturating_add(other.near);
        self.in_margin = self.in_margin.saturating_add(other.in_margin);
    }
}

/// Everything that decides a game besides its bots.
#[derive(Clone, Copy, Debug)]
pub struct GameSetup<'a> {
    /// The configuration (for a map file, [`MapFile::config`]).
    pub config: Config,
    /// The game's seed: it builds the map unless `map_file` is given.
    pub seed: u64,
    /// A map file to play on instead of a seeded map.
    pub map_file: Option<&'a MapFile>,
    /// Time limits per answer.
    pub limits: Limits,
}

/// How many faults of each kind a player made in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// Lines that were no move.
    pub invalid: u32,
    /// Answers that did not come in time.
    pub timeout: u32,
    /// Ticks on which the bot had crashed or exited.
    pub crash: u32,
}

impl FaultCounts {
    /// Counts one fault.
    pub fn add(&mut self, kind: FaultKind) {
        match kind {
            FaultKind::Invalid => self.invalid += 1,
            FaultKind::Timeout => self.timeout += 1,
            FaultKind::Crash => self.crash += 1,
        }
    }

    /// All faults.
    pub fn total(&self) -> u32 {
        self.invalid + self.timeout + self.crash
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The transcript, ready to be written as `sim_<g>.json`.
    pub replay: Replay,
    /// How the game ended.
    pub outcome: Outcome,
    /// Faults per seat.
    pub faults: Vec<FaultCounts>,
    /// The slowest answer of each seat's bot, when its adapter times them
    /// ([`Bot::slowest_answer`]).
    pub slowest: Vec<Option<Duration>>,
    /// How each seat's timed answers went against its limit.
    pub times: Vec<AnswerTimes>,
    /// How each seat used its time bank, for seats that had one.
    pub banks: Vec<Option<BankUse>>,
}

/// Why a game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The map could not be made or does not fit the configuration.
    #[error(transparent)]
    Setup(#[from] GameError),
    /// Not one bot per player.
    #[error("{bots} bots for a game of {players} players")]
    BotCount {
        /// Bots given.
        bots: usize,
        /// Players in the game.
        players: usize,
    },
    /// The engine refused a tick (a bug: the loop stops at the end).
    #[error("tick {tick}: {source}")]
    Step {
        /// The tick.
        tick: u32,
        /// The engine's reason.
        source: StepError,
    },
}

/// The answer a reply stands for: a line through the core's parser, no
/// move, or a fault of its kind.
pub fn answer_of(reply: &Reply) -> Answer {
    match reply {
        Reply::Line(bytes) => Answer::from_line(bytes),
        Reply::NoMove => Answer::none(),
        Reply::Timeout => Answer::fault(FaultKind::Timeout),
        Reply::Crash => Answer::fault(FaultKind::Crash),
    }
}

/// The watcher of a game nobody watches.
pub fn unwatched<E>(_: &E, _: &[Answer]) {}

/// Plays one game on engine `E` with one bot per seat (`names` by seat),
/// to its end, showing `watch` the game before the first tick (with no
/// answers) and after every tick (with the answers of that tick), as
/// `play --watch` draws it; pass [`unwatched`] when nobody looks. Watching
/// never changes the game.
pub fn play<E: Engine>(
    setup: &GameSetup<'_>,
    names: Vec<String>,
    bots: Vec<Box<dyn Bot>>,
    watch: &mut dyn FnMut(&E, &[Answer]),
) -> Result<GameRecord, MatchError> {
    let limits = vec![setup.limits; bots.len()];
    play_inner(setup, Timing { seats: &limits, margin: Duration::ZERO }, false, names, bots, watch)
}

/// [`play`] with a time limit per seat and a margin (`timing`), recorded
/// in the replay (`time_limits`); `setup.limits` is not read.
pub fn play_timed<E: Engine>(
    setup: &GameSetup<'_>,
    timing: Timing<'_>,
    names: Vec<String>,
    bots: Vec<Box<dyn Bot>>,
    watch: &mut dyn FnMut(&E, &[Answer]),
) -> Result<GameRecord, MatchError> {
    play_inner(setup, timing, true, names, bots, watch)
}

fn play_inner<E: Engine>(
    setup: &GameSetup<'_>,
    timing: Timing<'_>,
    record_limits: bool,
    names: Vec<String>,
    bots: Vec<Box<dyn Bot>>,
    watch: &mut dyn FnMut(&E, &[Answer]),
) -> Result<GameRecord, MatchError> {
    let players = setup.config.players as usize;
    if bots.len() != players || names.len() != players || timing.seats.len() != players {
        return Err(MatchError::BotCount { bots: bots.len(), players });
    }
    let (mut engine, mut recorder) = match setup.map_file {
        Some(file) => {
            let engine = E::from_map(&setup.config, &file.map)?;
            let recorder = Recorder::new(&engine, &file.map, Origin::MapFile(&file.text), names);
            (engine, recorder)
        }
        None => {
            let map = map::generate(&setup.config, setup.seed).map_err(GameError::from)?;
            let engine = E::from_map(&setup.config, &map)?;
            let recorder = Recorder::new(&engine, &map, Origin::Seed(setup.seed), names);
            (engine, recorder)
        }
    };
    let mut bots: Vec<Option<Box<dyn Bot>>> = bots.into_iter().map(Some).collect();
    let mut faults = vec![FaultCounts::default(); players];
    let mut slowest: Vec<Option<Duration>> = vec![None; players];
    let mut times = vec![AnswerTimes::default(); players];
    let mut banks: Vec<Option<Bank>> = timing.seats.iter().map(Bank::of).collect();
    let banked = banks.iter().any(Option::is_some);
    let mut bank_rows: Vec<Vec<Option<u64>>> = Vec::new();
    let mut said: Vec<Said> = Vec::new();
    watch(&engine, &[]);
    while !engine.is_over() {
        let position = engine.position();
        // On the fast engine, the bots that search copy it (Turn::with_game).
        let fast = (&engine as &dyn std::any::Any).downcast_ref::<lightcycles_core::FastGame>();
        let limit = |seat: usize| timing.seats[seat].for_tick(position.tick + 1);
        // What each bot may spend of its bank on this answer, as it is told.
        let told: Vec<Option<Duration>> = banks.iter().map(|bank| bank.as_ref().map(Bank::left)).collect();
        let deadline = |seat: usize| limit(seat).saturating_add(told[seat].unwrap_or_default());
        // Every observation goes out first, each bot on its own clock; then
        // the answers are collected in seat order, each against its own
        // deadline. The order of collection cannot change an answer. An
        // answer given in `ask` is timed here, for the bank.
        let asked: Vec<Option<(Asked, Duration)>> = bots
            .iter_mut()
            .enumerate()
            .map(|(seat, bot)| match bot {
                Some(bot) if position.players[seat].alive => {
                    let turn = match fast {
                        Some(game) => Turn::with_game(&position, seat, game),
                        None => Turn::new(&position, seat),
                    };
                    let started = Instant::now();
                    let asked = bot.ask(&turn.with_bank(told[seat]), deadline(seat).saturating_add(timing.margin));
                    Some((asked, started.elapsed()))
                }
                _ => None,
            })
            .collect();
        if banked {
            bank_rows.push(
                asked.iter().zip(&told).map(|(a, t)| t.filter(|_| a.is_some()).map(|t| t.as_millis() as u64)).collect(),
            );
        }
        let mut answers = Vec::with_capacity(players);
        for (seat, (bot, asked)) in bots.iter_mut().zip(asked).enumerate() {
            // The reply, and how long it took when that was measured: by
            // the adapter when it times its bot, else (an answer given in
            // `ask`) by this loop.
            let (reply, took) = match (bot.as_mut(), asked) {
                (Some(bot), Some((Asked::Answered(reply), took))) => (reply, bot.last_answer().or(Some(took))),
                (Some(bot), Some((Asked::Pending, _))) => {
                    let reply = bot.collect();
                    let took = bot.last_answer();
                    if let Some(took) = took {
                        times[seat].add(took, deadline(seat), reply != Reply::Timeout);
                    }
                    (reply, took)
                }
                _ => {
                    answers.push(Answer::none());
                    continue;
                }
            };
            if let Some(bank) = &mut banks[seat] {
                bank.charge(took, limit(seat), reply == Reply::Timeout);
            }
            let answer = answer_of(&reply);
            // What the bot wrote up to its answer is this tick's
            // (bot::said): taken at once, in seat order.
            if let Some(told) = bot.as_mut().and_then(|bot| bot.take_said()) {
                let (tick, player) = (position.tick + 1, seat as u32);
                said.push(Said { tick, player, lines: told.lines, truncated: told.truncated });
            }
            if let Some(kind) = answer.fault {
                faults[seat].add(kind);
            }
            answers.push(answer);
        }
        let actions: Vec<_> = answers.iter().map(Answer::action).collect();
        engine.step(&actions).map_err(|source| MatchError::Step { tick: position.tick + 1, source })?;
        recorder.record(&answers, &engine);
        watch(&engine, &answers);
        for (seat, bot) in bots.iter_mut().enumerate() {
            if let Some(b) = bot {
                slowest[seat] = slowest[seat].max(b.slowest_answer());
            }
            if !engine.player(seat).alive {
                *bot = None;
            }
        }
    }
    let outcome = engine.outcome().expect("the loop ends with the game");
    let mut replay = recorder.finish();
    let ms = |of: fn(&Limits) -> Duration| timing.seats.iter().map(|l| of(l).as_millis() as u64).collect();
    // Absent when no bot said anything: such replays are as they were.
    replay.said = (!said.is_empty()).then_some(said);
    if record_limits || banked {
        replay.time_limits = Some(TimeLimits {
            first_ms: ms(|l| l.first),
            ms: ms(|l| l.rest),
            margin_ms: timing.margin.as_millis() as u64,
            bank_ms: banked.then(|| ms(|l| l.bank)),
            inc_ms: banked.then(|| ms(|l| l.inc)),
        });
    }
    if banked {
        replay.time_banks = Some(bank_rows);
    }
    let banks = banks.iter().map(|bank| bank.as_ref().map(Bank::usage)).collect();
    Ok(GameRecord { replay, outcome, faults, slowest, times, banks })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin::Builtin;
    use crate::bot::{BotContext, Failed};
    use lightcycles_core::replay::verify;
    use lightcycles_core::FaultPolicy;
    use lightcycles_core::ReferenceGame;

    fn bots(kinds: &[Builtin], seed: u64) -> Vec<Box<dyn Bot>> {
        let players = kinds.len();
        kinds.iter().enumerate().map(|(seat, b)| b.make(&BotContext { game: 0, seat, players, seed })).collect()
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}")).collect()
    }

    fn setup(config: Config, seed: u64) -> GameSetup<'static> {
        GameSetup { config, seed, map_file: None, limits: Limits::default() }
    }

    #[test]
    fn a_game_is_deterministic_and_verifies() {
        for (players, side, seed) in [(2, 48, 7), (3, 20, 3), (4, 24, 11), (8, 32, 5)] {
            let config = Config { width: side, height: side, players, ..Config::default() };
            let kinds: Vec<Builtin> = (0..players as usize).map(|i| Builtin::ALL[i % 3]).collect();
            let one =
                play::<ReferenceGame>(&setup(config, seed), names(kinds.len()), bots(&kinds, seed), &mut unwatched)
                    .unwrap();
            let two =
                play::<ReferenceGame>(&setup(config, seed), names(kinds.len()), bots(&kinds, seed), &mut unwatched)
                    .unwrap();
            assert_eq!(one.replay.to_json(), two.replay.to_json());
            assert_eq!(verify::<ReferenceGame>(&one.replay).unwrap(), one.outcome);
            assert_eq!(one.replay.seed, Some(seed));
            assert_eq!(one.replay.names, names(kinds.len()));
        }
    }

    #[test]
    fn faults_are_recorded_and_counted() {
        let config = Config::default();
        let mut kinds = bots(&[Builtin::Fuzz, Builtin::Random], 1);
        kinds[1] = Box::new(Failed { error: crate::bot::BotError("no such program".into()) });
        let record = play::<ReferenceGame>(&setup(config, 1), names(2), kinds, &mut unwatched).unwrap();
        let crashes = record.replay.faults.iter().filter(|row| row[1] == Some(FaultKind::Crash)).count() as u32;
        assert!(crashes >= 1);
        assert_eq!(record.faults[1], FaultCounts { crash: crashes, ..FaultCounts::default() });
        let fuzz_faults = record.replay.faults.iter().filter(|row| row[0].is_some()).count() as u32;
        assert_eq!(record.faults[0].total(), fuzz_faults);
        verify::<ReferenceGame>(&record.replay).unwrap();
    }

    #[test]
    fn the_eliminate_policy_ends_a_crashed_bot_at_once() {
        let config = Config { fault_policy: FaultPolicy::Eliminate, ..Config::default() };
        let kinds: Vec<Box<dyn Bot>> = vec![
            Box::new(Failed { error: crate::bot::BotError("gone".into()) }),
            bots(&[Builtin::Random], 2).remove(0),
        ];
        let record = play::<ReferenceGame>(&setup(config, 2), names(2), kinds, &mut unwatched).unwrap();
        assert_eq!(record.outcome.winner, Some(1));
        assert_eq!(record.outcome.ticks, 1);
        assert_eq!(record.replay.faults, vec![vec![Some(FaultKind::Crash), None]]);
    }

    #[test]
    fn dead_players_are_not_asked_and_record_nothing() {
        let config = Config { width: 24, height: 24, players: 3, ..Config::default() };
        let record = play::<ReferenceGame>(
            &setup(config, 21),
            names(3),
            bots(&[Builtin::Straight, Builtin::Random, Builtin::Random], 21),
            &mut unwatched,
        )
        .unwrap();
        for (k, row) in record.replay.commands.iter().enumerate() {
            for (i, line) in row.iter().enumerate() {
                let dead_before = record.outcome.eliminated_at[i].is_some_and(|t| (t as usize) < k + 1);
                if dead_before {
                    assert_eq!(*line, None, "player {i} on tick {}", k + 1);
                    assert_eq!(record.replay.faults[k][i], None);
                }
            }
        }
    }

    #[test]
    fn a_map_file_game_records_its_text_and_no_seed() {
        let text = "10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n";
        let file = MapFile::parse(text.to_string()).unwrap();
        let config = file.config(100, FaultPolicy::Straight);
        let setup = GameSetup { config, seed: 5, map_file: Some(&file), limits: Limits::default() };
        let record =
            play::<ReferenceGame>(&setup, names(2), bots(&[Builtin::Random, Builtin::Random], 5), &mut unwatched)
                .unwrap();
        assert_eq!(record.replay.seed, None);
        assert_eq!(record.replay.map.as_deref(), Some(text));
        assert_eq!((record.replay.config.players, record.replay.config.rock_density), (2, 0));
        verify::<ReferenceGame>(&record.replay).unwrap();
    }

    #[test]
    fn a_watcher_sees_every_tick_and_changes_nothing() {
        let config = Config::default();
        let kinds = [Builtin::Random, Builtin::Fuzz];
        let mut seen: Vec<(u32, Vec<Answer>)> = Vec::new();
        let watched = play::<ReferenceGame>(&setup(config, 4), names(2), bots(&kinds, 4), &mut |game, answers| {
            seen.push((game.tick(), answers.to_vec()));
        })
        .unwrap();
        let plain = play::<ReferenceGame>(&setup(config, 4), names(2), bots(&kinds, 4), &mut unwatched).unwrap();
        assert_eq!(watched.replay, plain.replay);
        let ticks: Vec<u32> = seen.iter().map(|(t, _)| *t).collect();
        assert_eq!(ticks, (0..=plain.outcome.ticks).collect::<Vec<_>>(), "the start, then every tick");
        assert!(seen[0].1.is_empty());
        for (t, answers) in &seen[1..] {
            let k = *t as usize - 1;
            let lines: Vec<_> = answers.iter().map(|a| a.line.clone()).collect();
            assert_eq!(lines, plain.replay.commands[k], "the answers of tick {t}");
        }
    }

    #[test]
    fn answers_are_counted_near_the_limit_and_in_the_margin() {
        let ms = Duration::from_millis;
        let mut t = AnswerTimes::default();
        t.add(ms(10), ms(50), true); // far from it
        t.add(ms(40), ms(50), true); // 80%: near
        t.add(ms(60), ms(50), true); // late, let in by a margin
        t.add(ms(90), ms(50), false); // late, a timeout
        assert_eq!(t, AnswerTimes { timed: 4, near: 3, in_margin: 1 });
        let mut sum = AnswerTimes { timed: u32::MAX, ..AnswerTimes::default() };
        sum.merge(&t);
        assert_eq!(sum, AnswerTimes { timed: u32::MAX, near: 3, in_margin: 1 }, "saturating");
    }

    #[test]
    fn a_timed_game_records_each_seats_limits_in_its_replay() {
        let config = Config::default();
        let seats = [Limits::default(), Limits::per_tick(Duration::from_millis(3000), Duration::from_millis(200))];
        let timing = Timing { seats: &seats, margin: Duration::from_millis(7) };
        let kinds = [Builtin::Random, Builtin::Fuzz];
        let timed =
            play_timed::<ReferenceGame>(&setup(config, 4), timing, names(2), bots(&kinds, 4), &mut unwatched).unwrap();
        let limits = timed.replay.time_limits.clone().unwrap();
        assert_eq!((limits.first_ms, limits.ms, limits.margin_ms), (vec![1000, 3000], vec![50, 200], 7));
        let plain = play::<ReferenceGame>(&setup(config, 4), names(2), bots(&kinds, 4), &mut unwatched).unwrap();
        assert_eq!(plain.replay.time_limits, None);
        let mut without = timed.replay.clone();
        without.time_limits = None;
        assert_eq!(without, plain.replay, "the limits change nothing else");
        verify::<ReferenceGame>(&timed.replay).unwrap();
        let back = Replay::from_json(&timed.replay.to_json()).unwrap();
        assert_eq!(back, timed.replay, "written and read back");
        let short = [Limits::default()];
        let err = play_timed::<ReferenceGame>(
            &setup(config, 4),
            Timing { seats: &short, margin: Duration::ZERO },
            names(2),
            bots(&kinds, 4),
            &mut unwatched,
        );
        assert!(err.is_err(), "one limit per seat");
    }

    /// A bot that rides straight and says it took the times of `took`, one
    /// per answer (`None`: a timeout), then 1 ms; it keeps what it was told.
    /// What a bot was told: its bank left, and its deadline.
    type Told = std::sync::Arc<std::sync::Mutex<Vec<(Option<u64>, Duration)>>>;

    struct Slow {
        took: Vec<Option<Duration>>,
        told: Told,
        last: Option<Duration>,
    }

    impl Bot for Slow {
        fn answer(&mut self, _: &Turn<'_>, _: Duration) -> Reply {
            unreachable!("asked, then collected")
        }
        fn ask(&mut self, turn: &Turn<'_>, limit: Duration) -> Asked {
            self.told.lock().unwrap().push((turn.observation().time_bank_ms, limit));
            Asked::Pending
        }
        fn collect(&mut self) -> Reply {
            let n = self.told.lock().unwrap().len();
            // After the script, answers in 1 ms.
            self.last = self.took.get(n - 1).copied().unwrap_or(Some(Duration::from_millis(1)));
            if self.last.is_some() {
                Reply::NoMove
            } else {
                Reply::Timeout
            }
        }
        fn last_answer(&self) -> Option<Duration> {
            self.last
        }
    }

    #[test]
    fn time_past_the_limit_comes_out_of_the_bank_the_bot_is_told_and_the_replay_records() {
        let ms = Duration::from_millis;
        let config = Config { width: 40, height: 16, rock_density: 0, ..Config::default() };
        let banked = Limits { bank: ms(100), inc: ms(5), ..Limits::per_tick(ms(1000), ms(50)) };
        let seats = [banked, Limits::default()];
        let told = Told::default();
        // Tick 1 in time; tick 2 takes 80 ms past its 50; tick 3 times out.
        let took = vec![Some(ms(10)), Some(ms(130)), None, Some(ms(20))];
        let slow = Slow { took, told: told.clone(), last: None };
        let bots: Vec<Box<dyn Bot>> = vec![Box::new(slow), bots(&[Builtin::Straight], 3).remove(0)];
        let timing = Timing { seats: &seats, margin: ms(3) };
        let record = play_timed::<ReferenceGame>(&setup(config, 3), timing, names(2), bots, &mut unwatched).unwrap();
        let told = told.lock().unwrap().clone();
        // Told 100, 105 (the increment), 30 (105 - 80 + 5), then 5 (a
        // timeout empties the bank; the increment still comes).
        let expected = [(Some(100), ms(1103)), (Some(105), ms(158)), (Some(30), ms(83)), (Some(5), ms(58))];
        assert_eq!(told[..4], expected, "the bank left, and the deadline: limit, bank and margin");
        let rows = record.replay.time_banks.clone().unwrap();
        assert_eq!(rows.len(), record.replay.commands.len(), "one row a tick");
        let seat0: Vec<Option<u64>> = rows.iter().take(4).map(|r| r[0]).collect();
        assert_eq!(seat0, [Some(100), Some(105), Some(30), Some(5)]);
        assert!(rows.iter().all(|r| r[1].is_none()), "the other seat has no bank");
        assert_eq!(record.replay.faults[2][0], Some(FaultKind::Timeout));
        let limits = record.replay.time_limits.clone().unwrap();
        assert_eq!((limits.bank_ms, limits.inc_ms), (Some(vec![100, 0]), Some(vec![5, 0])));
        assert_eq!(record.banks[1], None);
        assert_eq!(record.banks[0].unwrap().used, ms(80 + 30), "80 ms on tick 2, the 30 left on tick 3");
        let back = Replay::from_json(&record.replay.to_json()).unwrap();
        assert_eq!(back, record.replay, "written and read back");
        verify::<ReferenceGame>(&record.replay).unwrap();
    }

    #[test]
    fn without_a_bank_the_observation_and_replay_are_as_before() {
        let config = Config::default();
        let kinds = [Builtin::Random, Builtin::Fuzz];
        let record = play::<ReferenceGame>(&setup(config, 4), names(2), bots(&kinds, 4), &mut unwatched).unwrap();
        assert_eq!(record.replay.time_banks, None);
        assert!(!record.replay.to_json().contains("time_bank"));
        assert_eq!(record.banks, vec![None, None]);
    }

    #[test]
    fn wrong_bot_count_is_an_error() {
        let err = play::<ReferenceGame>(
            &setup(Config::default(), 0),
            names(3),
            bots(&[Builtin::Random; 3], 0),
            &mut unwatched,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "3 bots for a game of 2 players");
    }

    #[test]
    fn replies_become_answers_through_the_core_parser() {
        assert_eq!(answer_of(&Reply::Line(b" N\r".to_vec())), Answer::from_line(b"N"));
        assert_eq!(answer_of(&Reply::Line(b"north".to_vec())).fault, Some(FaultKind::Invalid));
        assert_eq!(answer_of(&Reply::NoMove), Answer::none());
        assert_eq!(answer_of(&Reply::Timeout), Answer::fault(FaultKind::Timeout));
        assert_eq!(answer_of(&Reply::Crash), Answer::fault(FaultKind::Crash));
        assert_eq!(Limits::default().for_tick(1), Duration::from_millis(1000));
        assert_eq!(Limits::default().for_tick(2), Duration::from_millis(50));
    }
}
