//! A recorded game sent back into a bot (`lightcycles replay feed`): the
//! observations one seat received, tick by tick, under the same limits,
//! and the first tick where the bot's answer now differs from the one
//! recorded. The game goes on with the recorded answers whatever the bot
//! says, so every observation is exactly the one of the recording.

use std::time::Duration;

use lightcycles_core::observation::Observation;
use lightcycles_core::replay::{self, Replay, ReplayError};
use lightcycles_core::{Action, Answer, Engine, FastGame, Position};

use crate::bot::spec::Entrant;
use crate::bot::{Asked, BotContext, Turn};
use crate::game::bank::MAX_BANK_MS;
use crate::game::match_loop::{answer_of, Limits};

/// How a replay is fed.
#[derive(Clone, Debug)]
pub struct FeedOptions {
    /// The seat whose observations are sent.
    pub seat: usize,
    /// Stop after this tick (the last one decided).
    pub until: Option<u32>,
    /// The limits; default those the replay records for the seat, else
    /// the host's defaults.
    pub limits: Option<Limits>,
    /// The game number the bot is told (a replay `sim_<g>.json` is game g).
    pub game: u64,
    /// The seed the bot is made with: the replay's, or this for a game on a
    /// map file (whose replay has none).
    pub seed: Option<u64>,
    /// Go on past the first difference, to the end (or `until`): every
    /// recorded observation is sent and every answer compared, as when
    /// following a bot's own reasoning (a traced `builtin:search`) through
    /// a whole recorded game.
    pub keep_going: bool,
}

/// One answer compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compared {
    /// The tick decided.
    pub tick: u32,
    /// The answer recorded.
    pub recorded: Answer,
    /// The answer the bot gave now.
    pub now: Answer,
}

impl Compared {
    /// Whether the two answers make the same move (or the same fault).
    pub fn matches(&self) -> bool {
        self.recorded.action() == self.now.action()
    }
}

/// What feeding found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fed {
    /// Every answer asked, in tick order, up to and with the first that
    /// differs (with `keep_going`, every one).
    pub answers: Vec<Compared>,
    /// The first answer that differs, if one does.
    pub first_difference: Option<Compared>,
}

/// Why a replay cannot be fed.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    /// The replay is not one the rules can replay.
    #[error("{0}")]
    Replay(#[from] ReplayError),
    /// The seat is not one of the game's.
    #[error("--seat {seat}: the game has seats 0 to {}", players - 1)]
    Seat {
        /// The seat asked for.
        seat: usize,
        /// Players in the game.
        players: usize,
    },
    /// The tick is not one the seat decided.
    #[error("--observation {tick}: seat {seat} decided ticks 1 to {last}")]
    Tick {
        /// The tick asked for.
        tick: u32,
        /// The seat.
        seat: usize,
        /// The last tick it decided.
        last: u32,
    },
    /// The bot could not be made.
    #[error("the bot cannot be started: {0}")]
    Bot(String),
}

/// The positions before each tick the seat decided (the position before
/// tick `k + 1` at `k`), with the answers recorded for it; the replay
/// checked against the rules first.
fn decisions(replay: &Replay, seat: usize) -> Result<Vec<(Position, Answer)>, FeedError> {
    let players = replay.config.players as usize;
    if seat >= players {
        return Err(FeedError::Seat { seat, players });
    }
    replay::verify::<FastGame>(replay)?;
    let map = replay.build_map()?;
    let mut engine = FastGame::from_map(&replay.config, &map).map_err(|e| ReplayError::Malformed(format!("{e}")))?;
    let mut out = Vec::new();
    for (commands, faults) in replay.commands.iter().zip(&replay.faults) {
        let answers: Vec<Answer> =
            commands.iter().zip(faults).map(|(line, fault)| Answer { line: line.clone(), fault: *fault }).collect();
        if engine.player(seat).alive {
            out.push((engine.position(), answers[seat].clone()));
        }
        let actions: Vec<Action> = answers.iter().map(Answer::action).collect();
        engine.step(&actions).map_err(|e| ReplayError::Malformed(format!("{e}")))?;
    }
    Ok(out)
}

/// The observation seat `seat` received before deciding tick `tick`: the
/// JSON line a JSON-lines bot was sent.
pub fn observation_at(replay: &Replay, seat: usize, tick: u32) -> Result<Observation, FeedError> {
    let decided = decisions(replay, seat)?;
    let last = decided.len() as u32;
    let (position, _) = decided.get((tick as usize).wrapping_sub(1)).filter(|_| tick >= 1).ok_or(FeedError::Tick {
        tick,
        seat,
        last,
    })?;
    Ok(Turn::new(position, seat).with_bank(recorded_bank(replay, seat, tick)).observation())
}

/// The time bank seat `seat` was told it had left before deciding `tick`,
/// when the replay records one (a replay is untrusted: at most a day).
fn recorded_bank(replay: &Replay, seat: usize, tick: u32) -> Option<Duration> {
    let rows = replay.time_banks.as_ref()?;
    let ms = (*rows.get((tick as usize).checked_sub(1)?)?.get(seat)?)?;
    Some(Duration::from_millis(ms.min(MAX_BANK_MS)))
}

/// The limits the replay records for `seat`, if it records any. A replay
/// is untrusted: each is taken as at most a day, so that no deadline
/// overflows the clock.
pub fn recorded_limits(replay: &Replay, seat: usize) -> Option<(Limits, Duration)> {
    let limits = replay.time_limits.as_ref()?;
    let ms = |n: u64| Duration::from_millis(n.min(MAX_BANK_MS));
    let of_seat = |list: &Option<Vec<u64>>| ms(list.as_ref().and_then(|l| l.get(seat)).copied().unwrap_or(0));
    let first = *limits.first_ms.get(seat)?;
    let rest = *limits.ms.get(seat)?;
    Some((
        Limits { first: ms(first), rest: ms(rest), bank: of_seat(&limits.bank_ms), inc: of_seat(&limits.inc_ms) },
        ms(limits.margin_ms),
    ))
}

/// Sends `bot` every observation seat `options.seat` received, in order
/// (with the time bank it was told it had, when it had one), each under
/// the seat's limit and that bank, and compares each answer with the recorded
/// one; stops at the first difference (unless `options.keep_going`) or after
/// `options.until`.
pub fn feed(replay: &Replay, bot: &Entrant, options: &FeedOptions) -> Result<Fed, FeedError> {
    let decided = decisions(replay, options.seat)?;
    let (limits, margin) = match (options.limits, recorded_limits(replay, options.seat)) {
        (Some(limits), recorded) => (limits, recorded.map_or(Duration::ZERO, |(_, m)| m)),
        (None, Some(recorded)) => recorded,
        (None, None) => (Limits::default(), Duration::ZERO),
    };
    let context = BotContext {
        game: options.game,
        seat: options.seat,
        players: replay.config.players as usize,
        seed: options.seed.or(replay.seed).unwrap_or(0),
    };
    let mut made = bot.factory.create(&context).map_err(|e| FeedError::Bot(e.to_string()))?;
    let mut fed = Fed { answers: Vec::new(), first_difference: None };
    for (position, recorded) in decided {
        let tick = position.tick + 1;
        if options.until.is_some_and(|until| tick > until) {
            break;
        }
        let bank = recorded_bank(replay, options.seat, tick);
        let turn = Turn::new(&position, options.seat).with_bank(bank);
        let limit = limits.for_tick(tick).saturating_add(bank.unwrap_or_default()).saturating_add(margin);
        let reply = match made.ask(&turn, limit) {
            Asked::Answered(reply) => reply,
            Asked::Pending => made.collect(),
        };
        let compared = Compared { tick, recorded, now: answer_of(&reply) };
        fed.answers.push(compared.clone());
        if !compared.matches() && fed.first_difference.is_none() {
            fed.first_difference = Some(compared);
            if !options.keep_going {
                break;
            }
        }
    }
    Ok(fed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::adapter::Hosting;
    use crate::bot::spec;
    use crate::game::run::{self, GameOptions, Rounds};
    use lightcycles_core::Config;

    fn recorded(bots: &[&str], seed: u64) -> Replay {
        let args: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
        let entrants = spec::entrants(&args, None, &Hosting::default()).unwrap();
        let config = Config { width: 20, height: 16, ..Config::default() };
        let options = GameOptions::new(config, None, Limits::default(), None);
        let plan = Rounds { rounds: 1, base_seed: seed, swap: false }.plan(0, entrants.len());
        let (_, replay) = run::play_game::<FastGame>(&entrants, &options, plan, &mut run::unwatched).unwrap();
        replay
    }

    fn entrant(spec: &str) -> Entrant {
        spec::entrants(&[spec.to_string()], None, &Hosting::default()).unwrap().remove(0)
    }

    fn options(seat: usize) -> FeedOptions {
        FeedOptions { seat, until: None, limits: None, game: 0, seed: None, keep_going: false }
    }

    #[test]
    fn the_same_bot_gives_every_recorded_answer_again() {
        let replay = recorded(&["builtin:floodfill", "builtin:random"], 3);
        for seat in 0..2 {
            let name = ["builtin:floodfill", "builtin:random"][seat];
            let fed = feed(&replay, &entrant(name), &options(seat)).unwrap();
            assert_eq!(fed.first_difference, None, "seat {seat}");
            let decided = replay.result.eliminated_at[seat].unwrap_or(replay.result.ticks);
            assert_eq!(fed.answers.len() as u32, decided, "every tick the seat decided");
        }
    }

    #[test]
    fn another_bot_differs_at_a_tick_and_until_stops_before_it() {
        let replay = recorded(&["builtin:floodfill", "builtin:random"], 5);
        let fed = feed(&replay, &entrant("builtin:straight"), &options(0)).unwrap();
        let first = fed.first_difference.clone().expect("straight does not ride as floodfill does");
        assert_eq!(fed.answers.last(), Some(&first));
        assert!(fed.answers[..fed.answers.len() - 1].iter().all(Compared::matches));
        let before = FeedOptions { until: Some(first.tick - 1), ..options(0) };
        let fed = feed(&replay, &entrant("builtin:straight"), &before).unwrap();
        assert_eq!((fed.first_difference, fed.answers.len() as u32), (None, first.tick - 1));
    }

    #[test]
    fn keep_going_sends_every_observation_and_keeps_the_first_difference() {
        let replay = recorded(&["builtin:floodfill", "builtin:random"], 5);
        let stopped = feed(&replay, &entrant("builtin:straight"), &options(0)).unwrap();
        let going = FeedOptions { keep_going: true, ..options(0) };
        let fed = feed(&replay, &entrant("builtin:straight"), &going).unwrap();
        let decided = replay.result.eliminated_at[0].unwrap_or(replay.result.ticks);
        assert_eq!(fed.answers.len() as u32, decided, "every tick the seat decided, past the difference");
        assert_eq!(fed.first_difference, stopped.first_difference, "the first difference is still the first");
        assert_eq!(fed.answers[..stopped.answers.len()], stopped.answers[..]);
        let ticks: Vec<u32> = fed.answers.iter().map(|a| a.tick).collect();
        assert_eq!(ticks, (1..=decided).collect::<Vec<u32>>(), "in tick order, none skipped");
        // The recorded bot itself still gives every answer again.
        let same = feed(&replay, &entrant("builtin:floodfill"), &going).unwrap();
        assert_eq!((same.first_difference, same.answers.len() as u32), (None, decided));
        let until = FeedOptions { until: Some(5), ..going };
        assert_eq!(feed(&replay, &entrant("builtin:straight"), &until).unwrap().answers.len(), 5);
    }

    #[test]
    fn the_observation_of_a_tick_is_the_one_the_seat_was_sent() {
        let replay = recorded(&["builtin:floodfill", "builtin:random"], 2);
        let obs = observation_at(&replay, 1, 1).unwrap();
        assert_eq!((obs.tick, obs.you), (1, 1));
        assert!(matches!(observation_at(&replay, 1, 0), Err(FeedError::Tick { .. })));
        assert!(matches!(observation_at(&replay, 2, 1), Err(FeedError::Seat { seat: 2, players: 2 })));
        let past = replay.result.ticks + 1;
        assert!(matches!(observation_at(&replay, 0, past), Err(FeedError::Tick { .. })));
    }

    #[test]
    fn a_replays_huge_limits_and_banks_are_taken_as_a_day_and_feed_the_bot() {
        let mut replay = recorded(&["builtin:floodfill", "builtin:random"], 3);
        let huge = vec![u64::MAX; 2];
        replay.time_limits = Some(lightcycles_core::replay::TimeLimits {
            first_ms: huge.clone(),
            ms: huge.clone(),
            margin_ms: u64::MAX,
            bank_ms: Some(huge.clone()),
            inc_ms: Some(huge),
        });
        replay.time_banks = Some(vec![vec![Some(u64::MAX), None]; replay.commands.len()]);
        let (limits, margin) = recorded_limits(&replay, 0).unwrap();
        let day = Duration::from_millis(MAX_BANK_MS);
        assert_eq!((limits.first, limits.rest, limits.bank, limits.inc, margin), (day, day, day, day, day));
        assert_eq!(observation_at(&replay, 0, 1).unwrap().time_bank_ms, Some(MAX_BANK_MS));
        let fed = feed(&replay, &entrant("builtin:floodfill"), &options(0)).unwrap();
        assert_eq!(fed.first_difference, None, "no deadline overflowed");
    }
}
