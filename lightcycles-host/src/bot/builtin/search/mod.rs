//! `builtin:search`: the strong built-in bot, the opponent bot authors
//! measure themselves against.
//!
//! Each answer rebuilds the fast engine from the position and picks one of
//! three searches:
//!
//! - [`alphabeta`]: two riders who can still meet; iterative-deepening
//!   alpha-beta over simultaneous moves with a transposition table, valued
//!   by [`eval`] (a Voronoi split refined by [`chambers`]);
//! - [`endgame`]: nobody can reach us any more; fill our region along the
//!   longest path the budget can find;
//! - [`multi`]: three riders or more; a paranoid search against the nearest.
//!
//! Its thinking is bounded by a [`budget`]: by default the host's time
//! limit for the tick less a margin (half of it, or `margin=MS`), at most
//! `ms=MS` when given ([`budget::thinking_time`]); with
//! `builtin:search:nodes=N` a fixed number of nodes per answer instead, and
//! then the bot is deterministic: the same game gives the same moves on any
//! machine. `builtin:search:stats` prints one line per game on stderr with
//! the slowest answer it gave (and one for any answer later than its limit).

pub mod alphabeta;
pub mod budget;
pub mod cells;
pub mod chambers;
pub mod contracted;
pub mod endgame;
pub mod eval;
pub mod maxn;
pub mod mcts;
pub mod multi;
pub mod secure;
pub mod stats;
pub mod table;
pub mod zobrist;

#[cfg(test)]
mod ffa_tests;
#[cfg(test)]
mod testing;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use lightcycles_core::{Dir, Engine, FastGame, SplitMix64};

use self::alphabeta::Duel;
use self::budget::{Budget, Limit};
use self::cells::CellGraph;
use self::endgame::Filler;
use self::eval::{Evaluator, Weights};
use self::maxn::MaxN;
use self::mcts::Mcts;
use self::multi::{Ffa, FfaValue, Paranoid};
use self::stats::{AnswerClock, GameClock};
use crate::bot::seed::bot_seed;
use crate::bot::{Bot, BotContext, Reply, Turn};

/// Size of the transposition table: `2^TABLE_BITS` entries of 24 bytes.
pub const TABLE_BITS: u32 = 18;

/// How `builtin:search` is set up: the text after `builtin:search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// A fixed number of nodes per answer (deterministic) instead of the
    /// tick's time limit.
    pub nodes: Option<u64>,
    /// Print a line of statistics per game on stderr.
    pub stats: bool,
    /// `trace`: print a line per answer on stderr (the tick, the search,
    /// its depth and value, and each living rider's space), to follow the
    /// bot's judgement through a game (`lightcycles replay feed
    /// --keep-going` replays a recorded one).
    pub trace: bool,
    /// `ms=MS`: think at most this long per answer (within the limit less
    /// the margin), as a bot holding itself to its own budget does.
    pub ms: Option<u64>,
    /// `first_ms=MS`: think at most this long on the game's first answer,
    /// whose limit is often longer (`--time-first-ms`); `ms` when not given.
    /// A bot that takes more time for its first move (a1k0n's takes
    /// 500 ms) is met at equal time with this.
    pub first_ms: Option<u64>,
    /// `margin=MS`: the time of each limit kept free of thinking (by
    /// default half the limit).
    pub margin: Option<u64>,
    /// `deepen=PCT`: a deeper iteration starts when this share of it is
    /// predicted to fit in the time left (0 to 100; 0, the default, thinks
    /// for the whole time).
    pub deepen: u32,
    /// `extend=N`: how many ticks the duel searches a line past its
    /// horizon while the heads are close (0 to 8; 2 by default).
    pub extend: u32,
    /// `extend_within=D`: heads at most this many moves apart are close
    /// (1 to 16; 3 by default).
    pub extend_within: u32,
    /// `pvs=0|1`: whether the duel searches the moves after a node's first
    /// with a null window first (principal variation search; 1 by
    /// default).
    pub pvs: u32,
    /// `history=0|1`: whether the duel orders the moves no table entry or
    /// killer hints by their history (1 by default).
    pub history: u32,
    /// `headon=PCT`: how often the duel takes the other to meet our move
    /// head-on when it could and has another safe move (0 to 100; 100, the
    /// default, always: the pessimistic model).
    pub headon: u32,
    /// The weights of the evaluation (`cell=N`, `separated_cell=N`,
    /// `separated_bonus=N`, `edge=N`).
    pub weights: Weights,
    /// The search for three riders or more (`ffa=paranoid|maxn|mcts`).
    pub ffa: Ffa,
    /// `near=N`: how many opponents the paranoid and MaxN searches play
    /// move by move (the nearest who share our room; 1 by default).
    pub near: usize,
    /// `value=own|lead`: what the paranoid search values for three riders
    /// or more (our space alone, the default, or less the largest
    /// rival's).
    pub value: FfaValue,
}

impl SearchOptions {
    /// The options of a plain `builtin:search`: the one place they are
    /// written, for [`Default`] and for the built-in catalog's constant.
    pub const DEFAULT: SearchOptions = SearchOptions {
        nodes: None,
        stats: false,
        trace: false,
        ms: None,
        first_ms: None,
        margin: None,
        deepen: budget::WORTH_STARTING,
        extend: alphabeta::EXTEND,
        extend_within: alphabeta::CLOSE,
        pvs: alphabeta::PVS as u32,
        history: alphabeta::HISTORY as u32,
        headon: alphabeta::HEADON,
        weights: Weights::DEFAULT,
        ffa: Ffa::Paranoid,
        near: multi::NEAR,
        value: FfaValue::Own,
    };
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions::DEFAULT
    }
}

/// The most milliseconds `ms=` and `margin=` take: a day, as every limit.
const MAX_MS: u64 = 86_400_000;

/// The options of `builtin:search` that take a bounded whole number: the
/// name, what the number counts (for the error), the least and the most
/// (`None`: no most).
const NUMBER_OPTIONS: [(&str, &str, u64, Option<u64>); 11] = [
    ("nodes", "a whole number of nodes", 1, None),
    ("ms", "a whole number of milliseconds", 1, Some(MAX_MS)),
    ("first_ms", "a whole number of milliseconds", 1, Some(MAX_MS)),
    ("margin", "a whole number of milliseconds", 0, Some(MAX_MS)),
    ("deepen", "a percentage", 0, Some(100)),
    ("extend", "a number of ticks", 0, Some(alphabeta::MAX_EXTEND as u64)),
    ("extend_within", "a number of moves", 1, Some(alphabeta::MAX_CLOSE as u64)),
    ("near", "a number of riders", 1, Some(multi::MAX_NEAR as u64)),
    ("pvs", "a whole number", 0, Some(1)),
    ("history", "a whole number", 0, Some(1)),
    ("headon", "a percentage", 0, Some(100)),
];

/// `value` read as the whole number option `key` takes, or an error that
/// names the option and says what it takes.
fn bounded<T: FromStr + PartialOrd + fmt::Display>(
    key: &str,
    value: &str,
    what: &str,
    least: T,
    most: Option<T>,
) -> Result<T, String> {
    match value.parse::<T>() {
        Ok(n) if n >= least && !matches!(&most, Some(most) if n > *most) => Ok(n),
        _ => Err(match most {
            Some(most) => format!("{key}={value}: expected {what}, {least} to {most}"),
            None => format!("{key}={value}: expected {what}, {least} or more"),
        }),
    }
}

/// The weight options of `builtin:search`, their ranges, and where each
/// goes: what `lightcycles tune` can tune in the built-in bot.
pub const WEIGHT_OPTIONS: [(&str, i32, i32); 15] = [
    ("cell", 0, 10_000),
    ("separated_cell", 0, 10_000),
    ("separated_bonus", 0, 100_000),
    ("edge", 0, 10_000),
    ("chamber_edge", 0, 10_000),
    ("secure", 0, 10_000),
    ("secure_by", 0, secure::MAX_MARGIN as i32),
    ("front", 0, 1),
    ("ffa_edge", 0, 10_000),
    ("contempt", 0, 100_000),
    ("wall", 0, 10_000),
    ("ffa_wall", 0, 10_000),
    ("opening", 0, 100),
    ("ffa_rival", 0, 100),
    ("ffa_ahead", 0, 200),
];

fn weight_mut<'w>(weights: &'w mut Weights, name: &str) -> Option<&'w mut i32> {
    match name {
        "cell" => Some(&mut weights.cell),
        "separated_cell" => Some(&mut weights.separated_cell),
        "separated_bonus" => Some(&mut weights.separated_bonus),
        "edge" => Some(&mut weights.edge),
        "chamber_edge" => Some(&mut weights.chamber_edge),
        "secure" => Some(&mut weights.secure),
        "secure_by" => Some(&mut weights.secure_by),
        "front" => Some(&mut weights.front),
        "ffa_edge" => Some(&mut weights.ffa_edge),
        "contempt" => Some(&mut weights.contempt),
        "wall" => Some(&mut weights.wall),
        "ffa_wall" => Some(&mut weights.ffa_wall),
        "opening" => Some(&mut weights.opening),
        "ffa_rival" => Some(&mut weights.ffa_rival),
        "ffa_ahead" => Some(&mut weights.ffa_ahead),
        _ => None,
    }
}

/// The value of the weight option `name` in `weights`.
fn weight(weights: &Weights, name: &str) -> Option<i32> {
    let mut copy = *weights;
    weight_mut(&mut copy, name).map(|v| *v)
}

impl SearchOptions {
    /// The most milliseconds to think at tick `tick`: `first_ms` on the
    /// game's first (tick 0), `ms` on the others and when `first_ms` is
    /// not given; `None`: the limit less the margin.
    pub fn ms_at(&self, tick: u32) -> Option<u64> {
        match tick {
            0 => self.first_ms.or(self.ms),
            _ => self.ms,
        }
    }

    /// Parses the options of `builtin:search:OPTION:OPTION…` from the text
    /// after `search` (empty, or starting with `:`).
    pub fn parse(text: &str) -> Result<SearchOptions, String> {
        let mut options = SearchOptions::default();
        if text.is_empty() {
            return Ok(options);
        }
        let Some(list) = text.strip_prefix(':') else {
            return Err(format!("expected ':' after builtin:search, found {text:?}"));
        };
        // Options that only some free-for-all searches read, given: an
        // option the chosen search would ignore is an error, not a no-op.
        let (mut value_given, mut near_given) = (false, false);
        for option in list.split(':') {
            let number = option
                .split_once('=')
                .and_then(|(key, value)| Some((key, value, NUMBER_OPTIONS.iter().find(|(name, ..)| *name == key)?)));
            let weight_option = option
                .split_once('=')
                .and_then(|(key, value)| Some((key, value, WEIGHT_OPTIONS.iter().find(|(name, ..)| *name == key)?)));
            if option == "stats" {
                options.stats = true;
            } else if option == "trace" {
                options.trace = true;
            } else if let Some((key, value, &(_, what, least, most))) = number {
                let n = bounded(key, value, what, least, most)?;
                // In its range, so each narrowing below is lossless.
                match key {
                    "nodes" => options.nodes = Some(n),
                    "ms" => options.ms = Some(n),
                    "first_ms" => options.first_ms = Some(n),
                    "margin" => options.margin = Some(n),
                    "deepen" => options.deepen = n as u32,
                    "extend" => options.extend = n as u32,
                    "extend_within" => options.extend_within = n as u32,
                    "pvs" => options.pvs = n as u32,
                    "history" => options.history = n as u32,
                    "headon" => options.headon = n as u32,
                    "near" => {
                        options.near = n as usize;
                        near_given = true;
                    }
                    _ => unreachable!("every entry of NUMBER_OPTIONS has its field here"),
                }
            } else if let Some(name) = option.strip_prefix("value=") {
                match FfaValue::from_name(name) {
                    Some(value) => options.value = value,
                    None => return Err(format!("value={name}: expected own or lead")),
                }
                value_given = true;
            } else if let Some(name) = option.strip_prefix("ffa=") {
                match Ffa::from_name(name) {
                    Some(ffa) => options.ffa = ffa,
                    None => return Err(format!("ffa={name}: expected paranoid, maxn or mcts")),
                }
            } else if let Some((name, value, &(_, least, most))) = weight_option {
                let v = bounded(name, value, "a whole number", least, Some(most))?;
                *weight_mut(&mut options.weights, name).expect("every entry of WEIGHT_OPTIONS has its field") = v;
            } else {
                return Err(format!(
                    "unknown option {option:?}; the options are nodes=N, ms=MS, first_ms=MS, margin=MS, deepen=PCT, extend=N, extend_within=D, pvs=0|1, history=0|1, headon=PCT, stats, trace, ffa=paranoid|maxn|mcts, near=N, value=own|lead, \
                     cell=N, separated_cell=N, separated_bonus=N, edge=N, chamber_edge=N, secure=N, secure_by=K, front=0|1, ffa_edge=N, contempt=N, wall=N, ffa_wall=N, opening=PCT, ffa_rival=PCT and ffa_ahead=PCT"
                ));
            }
        }
        if value_given && options.ffa != Ffa::Paranoid {
            return Err(format!(
                "value={} sets what ffa=paranoid values; ffa={} values each rider's space against the largest other's",
                options.value.name(),
                options.ffa.name()
            ));
        }
        if near_given && options.ffa == Ffa::Mcts {
            return Err(format!(
                "near={} sets the riders ffa=paranoid and ffa=maxn search move by move; ffa=mcts searches every rider",
                options.near
            ));
        }
        Ok(options)
    }
}

impl fmt::Display for SearchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.nodes {
            write!(f, ":nodes={n}")?;
        }
        if let Some(ms) = self.ms {
            write!(f, ":ms={ms}")?;
        }
        if let Some(ms) = self.first_ms {
            write!(f, ":first_ms={ms}")?;
        }
        if let Some(ms) = self.margin {
            write!(f, ":margin={ms}")?;
        }
        if self.deepen != budget::WORTH_STARTING {
            write!(f, ":deepen={}", self.deepen)?;
        }
        if self.extend != alphabeta::EXTEND {
            write!(f, ":extend={}", self.extend)?;
        }
        if self.extend_within != alphabeta::CLOSE {
            write!(f, ":extend_within={}", self.extend_within)?;
        }
        if self.pvs != alphabeta::PVS as u32 {
            write!(f, ":pvs={}", self.pvs)?;
        }
        if self.history != alphabeta::HISTORY as u32 {
            write!(f, ":history={}", self.history)?;
        }
        if self.headon != alphabeta::HEADON {
            write!(f, ":headon={}", self.headon)?;
        }
        if self.stats {
            f.write_str(":stats")?;
        }
        if self.trace {
            f.write_str(":trace")?;
        }
        if self.ffa != Ffa::default() {
            write!(f, ":ffa={}", self.ffa.name())?;
        }
        if self.near != multi::NEAR {
            write!(f, ":near={}", self.near)?;
        }
        if self.value != FfaValue::default() {
            write!(f, ":value={}", self.value.name())?;
        }
        for (name, _, _) in WEIGHT_OPTIONS {
            let value = weight(&self.weights, name).expect("a weight option");
            if weight(&Weights::DEFAULT, name) != Some(value) {
                write!(f, ":{name}={value}")?;
            }
        }
        Ok(())
    }
}

/// Which search gave an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only one move does not crash at once, or none does.
    Forced,
    /// Two riders who can still meet.
    Duel,
    /// Nobody can reach us: filling our region.
    Endgame,
    /// Three riders or more who can meet.
    Multi,
}

impl Mode {
    /// The mode's name in statistics.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Forced => "forced",
            Mode::Duel => "duel",
            Mode::Endgame => "endgame",
            Mode::Multi => "multi",
        }
    }
}

/// One answer, as the bot saw it: for tests and statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move.
    pub dir: Dir,
    /// The search that chose it.
    pub mode: Mode,
    /// The deepest iteration completed (ticks, or moves in the endgame).
    pub depth: u32,
    /// What the search found the move worth, from the bot's side, in its
    /// own units: the evaluation's ([`eval::CELL`] a cell of space) for the
    /// duel, paranoid and MaxN searches, the mean playout reward in
    /// thousandths for MCTS, the most moves the region allows in the
    /// endgame, 0 for a forced move.
    pub value: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The memory of one game: built on the first answer, for the board size.
struct Memory {
    graph: CellGraph,
    duel: Option<Duel>,
    paranoid: Option<Paranoid>,
    maxn: Option<MaxN>,
    mcts: Option<Mcts>,
    filler: Filler,
    eval: Evaluator,
}

/// Whether this process has told its user that an `ms=` (or `first_ms=`)
/// asked for more time than the limit less the margin leaves
/// ([`budget::capped_note`]): once, not once an answer.
static CAPPED_TOLD: AtomicBool = AtomicBool::new(false);

/// `builtin:search`.
pub struct SearchBot {
    options: SearchOptions,
    ctx: BotContext,
    memory: Option<Memory>,
    clock: GameClock,
    /// The seed of each answer's random choices (MCTS playouts): drawn from
    /// the game's seed and the seat, so a node budget stays deterministic.
    rng: SplitMix64,
}

impl SearchBot {
    /// A bot for one game and seat.
    pub fn new(options: SearchOptions, ctx: BotContext) -> SearchBot {
        let rng = SplitMix64::new(bot_seed(ctx.seed, ctx.seat));
        SearchBot { options, ctx, memory: None, clock: GameClock::default(), rng }
    }

    /// Decides the move of player `me` in `game`, started at `start` with
    /// `limit` for this tick.
    pub fn think(&mut self, game: &FastGame, me: usize, start: Instant, limit: Duration) -> Thought {
        let ms = |ms: Option<u64>| ms.map(Duration::from_millis);
        let cap = self.options.ms_at(game.tick());
        let limit = match self.options.nodes {
            Some(n) => Limit::Nodes(n),
            None => {
                let margin = ms(self.options.margin);
                if !CAPPED_TOLD.load(Ordering::Relaxed) {
                    if let Some(note) = budget::capped_note(limit, ms(cap), margin) {
                        if !CAPPED_TOLD.swap(true, Ordering::Relaxed) {
                            eprintln!("{note}");
                        }
                    }
                }
                Limit::Time(budget::thinking_time(limit, ms(cap), margin))
            }
        };
        let mut budget = Budget::new(start, limit).deepen_at(self.options.deepen);
        let memory = self.memory.get_or_insert_with(|| Memory {
            graph: CellGraph::new(game.layout()),
            duel: None,
            paranoid: None,
            maxn: None,
            mcts: None,
            filler: Filler::new(),
            eval: Evaluator::with_weights(self.options.weights),
        });
        let straight = Thought { dir: game.dir(me), mode: Mode::Forced, depth: 0, value: 0, nodes: 0 };
        if !game.is_alive(me) || game.is_over() {
            return straight;
        }
        let rivals: Vec<usize> = (0..game.num_players())
            .filter(|&p| p != me && game.is_alive(p) && memory.eval.can_meet(game, me, p))
            .collect();
        let graph = &memory.graph;
        let thought = match rivals[..] {
            [] => {
                let rival = (0..game.num_players())
                    .filter(|&p| p != me && game.is_alive(p))
                    .map(|p| memory.eval.room_bound(graph, game, p))
                    .max();
                memory.filler.choose(graph, game, me, rival, &mut budget).map(|f| Thought {
                    dir: f.dir,
                    mode: Mode::Endgame,
                    depth: f.depth,
                    value: f.bound as i32,
                    nodes: 0,
                })
            }
            [other] if game.alive_mask().count_ones() == 2 => {
                let fits = memory.duel.as_ref().is_some_and(|d| d.other() == other);
                if !fits {
                    memory.duel = Some(
                        Duel::with_weights(graph, game.num_players(), me, other, TABLE_BITS, self.options.weights)
                            .with_extend(self.options.extend)
                            .with_extend_within(self.options.extend_within)
                            .with_pvs(self.options.pvs != 0)
                            .with_history(self.options.history != 0)
                            .with_headon(self.options.headon),
                    );
                }
                let duel = memory.duel.as_mut().expect("made above");
                duel.choose(graph, game, &mut budget).map(|d| Thought {
                    dir: d.dir,
                    mode: if d.forced { Mode::Forced } else { Mode::Duel },
                    depth: d.depth,
                    value: d.value,
                    nodes: 0,
                })
            }
            _ => {
                let (weights, near) = (self.options.weights, self.options.near);
                let decision = match self.options.ffa {
                    Ffa::Paranoid => memory
                        .paranoid
                        .get_or_insert_with(|| {
                            Paranoid::with_weights(me, weights).with_near(near).with_value(self.options.value)
                        })
                        .choose(graph, game, &mut budget),
                    Ffa::MaxN => memory
                        .maxn
                        .get_or_insert_with(|| MaxN::with_weights(me, weights).with_near(near))
                        .choose(graph, game, &mut budget),
                    Ffa::Mcts => {
                        let seed = self.rng.next_u64();
                        memory.mcts.get_or_insert_with(|| Mcts::with_weights(me, weights)).choose(
                            graph,
                            game,
                            seed,
                            &mut budget,
                        )
                    }
                };
                decision.map(|d| Thought {
                    dir: d.dir,
                    mode: if d.forced { Mode::Forced } else { Mode::Multi },
                    depth: d.depth,
                    value: d.value,
                    nodes: 0,
                })
            }
        };
        let mut thought = thought.unwrap_or(straight);
        thought.nodes = budget.spent();
        thought
    }

    /// The `trace` line of one answer: where, what was chosen and why, and
    /// the space of every living rider as the evaluation counts it at the
    /// root (chamber-bounded Voronoi cells, or rooms once apart).
    fn trace_line(&mut self, game: &FastGame, me: usize, thought: &Thought) -> String {
        let (g, seed, seat) = (self.ctx.game, self.ctx.seed, self.ctx.seat);
        let mut line = format!(
            "search trace: game {g} seed {seed} seat {seat}: tick {} {} {}, depth {}, ",
            game.tick() + 1,
            thought.mode.name(),
            thought.dir,
            thought.depth,
        );
        line += &match thought.mode {
            Mode::Endgame => format!("bound {}", thought.value),
            _ => format!("value {}", thought.value),
        };
        line += &format!(", {} nodes", thought.nodes);
        if let Some(memory) = self.memory.as_mut() {
            let mut spaces = vec![0; game.num_players()];
            memory.eval.spaces(&memory.graph, game, &mut spaces);
            let shown: Vec<String> = (0..game.num_players())
                .filter(|&p| game.is_alive(p))
                .map(|p| if p == me { format!("{p}: {} (me)", spaces[p]) } else { format!("{p}: {}", spaces[p]) })
                .collect();
            line += &format!("; space {}", shown.join(", "));
        }
        line
    }
}

impl Bot for SearchBot {
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        let clock = AnswerClock::start(self.options.stats);
        let Some(game) = turn.fast_game() else {
            // The host's position is always valid; without a game, ride on.
            return Reply::of_dir(turn.me().dir);
        };
        let thought = self.think(&game, turn.you(), clock.started(), budget::with_bank(limit, turn.time_bank()));
        let timing = clock.stop();
        if self.options.stats {
            if timing.wall > limit {
                eprintln!(
                    "search stats: game {} seed {} seat {}: tick {} answered late, {} of {:.0} ({}, depth {}, {} nodes)",
                    self.ctx.game,
                    self.ctx.seed,
                    self.ctx.seat,
                    turn.tick(),
                    stats::show(&timing),
                    limit.as_secs_f64() * 1000.0,
                    thought.mode.name(),
                    thought.depth,
                    thought.nodes
                );
            }
            self.clock.record(turn.tick(), limit, timing, &thought);
        }
        if self.options.trace {
            eprintln!("{}", self.trace_line(&game, turn.you(), &thought));
        }
        late_is_timeout(self.options, timing.wall, limit).unwrap_or_else(|| Reply::of_dir(thought.dir))
    }
}

/// The host does not time built-in bots (they are its own code, and the
/// others answer in microseconds), so the search bot holds itself to the
/// rule every timed bot lives by: with a time limit, an answer given after
/// the limit is a timeout (docs/RULES.md section 6). With a node budget the
/// clock is not consulted, so the game stays the same on every machine.
fn late_is_timeout(options: SearchOptions, wall: Duration, limit: Duration) -> Option<Reply> {
    (options.nodes.is_none() && wall > limit).then_some(Reply::Timeout)
}

impl Drop for SearchBot {
    fn drop(&mut self) {
        if self.options.stats {
            let (g, seed, seat) = (self.ctx.game, self.ctx.seed, self.ctx.seat);
            eprintln!("search stats: game {g} seed {seed} seat {seat}: {}", self.clock.summary());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{self, drawn_game, OPEN_CORNERS};
    use super::*;
    use crate::bot::builtin::Builtin;
    use crate::game::match_loop::{play, unwatched, GameSetup, Limits};
    use lightcycles_core::space::safe_moves;
    use lightcycles_core::{Action, Config, SplitMix64};

    fn bot(nodes: u64, seat: usize, players: usize) -> SearchBot {
        let ctx = BotContext { game: 0, seat, players, seed: 1 };
        SearchBot::new(SearchOptions { nodes: Some(nodes), stats: false, ..SearchOptions::default() }, ctx)
    }

    /// The bot's thought for `me` in `game`, with a node budget (the time
    /// limit given is then never read).
    fn think(bot: &mut SearchBot, game: &FastGame, me: usize) -> Thought {
        bot.think(game, me, Instant::now(), Duration::ZERO)
    }

    #[test]
    fn a_late_answer_is_a_timeout_only_under_a_time_limit() {
        let ms = Duration::from_millis;
        let timed = SearchOptions::default();
        assert_eq!(late_is_timeout(timed, ms(51), ms(50)), Some(Reply::Timeout));
        assert_eq!(late_is_timeout(timed, ms(50), ms(50)), None, "on the limit is in time");
        let counted = SearchOptions { nodes: Some(100), ..SearchOptions::default() };
        assert_eq!(late_is_timeout(counted, ms(500), ms(50)), None, "a node budget never reads the clock");
    }

    #[test]
    fn options_print_as_they_are_written() {
        for text in [
            "",
            ":nodes=20000",
            ":stats",
            ":nodes=5:stats",
            ":ms=45",
            ":ms=45:margin=5",
            ":ms=45:first_ms=500",
            ":margin=0:stats",
            ":ms=45:deepen=60",
            ":ms=45:extend=0",
            ":nodes=500:deepen=60:extend=4",
            ":ms=45:extend_within=2",
            ":nodes=500:extend=4:extend_within=16",
            ":nodes=50:stats:trace",
            ":nodes=500:ffa_rival=0",
            // Every weight, in the order of `WEIGHT_OPTIONS`.
            ":cell=20:separated_cell=30:separated_bonus=300:edge=2:chamber_edge=8:secure=4:secure_by=2:front=1:ffa_edge=4:contempt=16",
        ] {
            assert_eq!(SearchOptions::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(SearchOptions::parse(":stats:nodes=5").unwrap().to_string(), ":nodes=5:stats");
        assert!(SearchOptions::parse("nodes=5").is_err(), "options follow a colon");
    }

    #[test]
    fn first_ms_caps_the_first_answer_and_ms_the_others() {
        let o = SearchOptions::parse(":ms=45:first_ms=500").unwrap();
        assert_eq!((o.ms_at(0), o.ms_at(1), o.ms_at(700)), (Some(500), Some(45), Some(45)));
        let o = SearchOptions::parse(":ms=45").unwrap();
        assert_eq!((o.ms_at(0), o.ms_at(1)), (Some(45), Some(45)), "ms alone caps every answer");
        let o = SearchOptions::parse(":first_ms=300").unwrap();
        assert_eq!((o.ms_at(0), o.ms_at(1)), (Some(300), None), "the limit less the margin after the first");
        assert_eq!(SearchOptions::default().ms_at(0), None);
        for bad in [":first_ms=0", ":first_ms=x", ":first_ms=86400001"] {
            let err = SearchOptions::parse(bad).unwrap_err();
            assert!(err.starts_with(&bad[1..]) && err.contains("1 to 86400000"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_trace_line_tells_the_search_its_value_and_every_riders_space() {
        let trace_of = |rows: &[&str]| {
            let game = drawn_game(rows);
            let mut b = SearchBot::new(
                SearchOptions::parse(":nodes=300:trace").unwrap(),
                BotContext { game: 4, seat: 1, players: 2, seed: 9 },
            );
            let thought = think(&mut b, &game, 1);
            let mut spaces = vec![0; 2];
            Evaluator::new().spaces(&CellGraph::new(game.layout()), &game, &mut spaces);
            (b.trace_line(&game, 1, &thought), thought, spaces)
        };
        // Apart: the filler, its bound, and each rider's room.
        let (line, thought, spaces) = trace_of(&[
            "A....#..", //
            ".....#..", //
            ".....#..", //
            ".....#..", //
            ".....#..", //
            ".....#..", //
            ".....#..", //
            ".....#.B", //
        ]);
        assert_eq!(thought.mode, Mode::Endgame);
        let head =
            format!("search trace: game 4 seed 9 seat 1: tick 11 endgame {}, depth {}, ", thought.dir, thought.depth);
        assert!(line.starts_with(&head), "{line}");
        let tail = format!(
            ", bound {}, {} nodes; space 0: {}, 1: {} (me)",
            thought.value, thought.nodes, spaces[0], spaces[1]
        );
        assert!(line.ends_with(&tail), "{line}");
        assert!(spaces[0] > spaces[1] && spaces[1] > 0, "{spaces:?}");
        // Able to meet: the duel search and its value.
        let (line, thought, spaces) = trace_of(&OPEN_CORNERS);
        assert_eq!(thought.mode, Mode::Duel);
        assert!(
            line.contains(&format!("tick 11 duel {}, depth {}, value {}, ", thought.dir, thought.depth, thought.value)),
            "{line}"
        );
        assert!(line.ends_with(&format!("; space 0: {}, 1: {} (me)", spaces[0], spaces[1])), "{line}");
    }

    #[test]
    fn deepen_takes_a_percentage_and_0_is_the_default() {
        assert_eq!(SearchOptions::parse(":deepen=60").unwrap().deepen, 60);
        assert_eq!(SearchOptions::parse(":deepen=100").unwrap().deepen, 100);
        assert_eq!(SearchOptions::parse(":deepen=0").unwrap(), SearchOptions::default(), "0 is the default");
        for bad in [":deepen=101", ":deepen=-1", ":deepen=x", ":deepen="] {
            let e = SearchOptions::parse(bad).unwrap_err();
            assert!(e.contains("expected a percentage, 0 to 100"), "{bad}: {e}");
        }
    }

    #[test]
    fn extend_takes_ticks_and_2_is_the_default() {
        assert_eq!(SearchOptions::parse(":extend=0").unwrap().extend, 0);
        assert_eq!(SearchOptions::parse(":extend=8").unwrap().extend, 8);
        assert_eq!(SearchOptions::parse(":extend=2").unwrap(), SearchOptions::default(), "2 is the default");
        for bad in [":extend=9", ":extend=-1", ":extend=x", ":extend="] {
            let e = SearchOptions::parse(bad).unwrap_err();
            assert!(e.starts_with(&bad[1..]) && e.contains("expected a number of ticks, 0 to 8"), "{bad}: {e}");
        }
    }

    #[test]
    fn extend_within_takes_moves_and_3_is_the_default() {
        assert_eq!(SearchOptions::parse(":extend_within=1").unwrap().extend_within, 1);
        assert_eq!(SearchOptions::parse(":extend_within=16").unwrap().extend_within, 16);
        assert_eq!(SearchOptions::parse(":extend_within=3").unwrap(), SearchOptions::default(), "3 is the default");
        for bad in [":extend_within=0", ":extend_within=17", ":extend_within=-1", ":extend_within=x", ":extend_within="]
        {
            let e = SearchOptions::parse(bad).unwrap_err();
            assert!(e.starts_with(&bad[1..]) && e.contains("expected a number of moves, 1 to 16"), "{bad}: {e}");
        }
    }

    #[test]
    fn every_number_option_names_itself_and_its_range_when_refused() {
        for (bad, error) in [
            (":nodes=0", "nodes=0: expected a whole number of nodes, 1 or more"),
            (":ms=0", "ms=0: expected a whole number of milliseconds, 1 to 86400000"),
            (":first_ms=86400001", "first_ms=86400001: expected a whole number of milliseconds, 1 to 86400000"),
            (":margin=-1", "margin=-1: expected a whole number of milliseconds, 0 to 86400000"),
            (":deepen=", "deepen=: expected a percentage, 0 to 100"),
            (":extend=x", "extend=x: expected a number of ticks, 0 to 8"),
            (":extend_within=0", "extend_within=0: expected a number of moves, 1 to 16"),
            (":near=4", "near=4: expected a number of riders, 1 to 3"),
            (":headon=101", "headon=101: expected a percentage, 0 to 100"),
            (":cell=10001", "cell=10001: expected a whole number, 0 to 10000"),
            (":front=2", "front=2: expected a whole number, 0 to 1"),
            (":pvs=2", "pvs=2: expected a whole number, 0 to 1"),
            (":history=-1", "history=-1: expected a whole number, 0 to 1"),
        ] {
            assert_eq!(SearchOptions::parse(bad).unwrap_err(), error);
        }
        // The ends of each range are taken.
        let o = SearchOptions::parse(":nodes=18446744073709551615:margin=0:ms=86400000:near=3:front=1").unwrap();
        assert_eq!(
            (o.nodes, o.margin, o.ms, o.near, o.weights.front),
            (Some(u64::MAX), Some(0), Some(86_400_000), 3, 1)
        );
        // Each entry of the table reaches its own field: set to its most
        // (or least, when it has no most or the most is the default), it
        // prints under its own name.
        for (name, _, least, most) in NUMBER_OPTIONS {
            let mut text = format!(":{name}={}", most.unwrap_or(least));
            if SearchOptions::parse(&text).unwrap() == SearchOptions::default() {
                text = format!(":{name}={least}");
            }
            assert_eq!(SearchOptions::parse(&text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn weight_options_set_the_evaluation_and_the_defaults_are_the_constants() {
        let o = SearchOptions::parse(":nodes=50:cell=20:separated_bonus=300").unwrap();
        assert_eq!(o.weights, Weights { cell: 20, separated_bonus: 300, ..Weights::DEFAULT });
        assert_eq!(o.to_string(), ":nodes=50:cell=20:separated_bonus=300");
        // A weight given at its default value is the default bot.
        assert_eq!(
            SearchOptions::parse(":cell=16:separated_cell=24:separated_bonus=480:edge=0:chamber_edge=4").unwrap(),
            SearchOptions::default()
        );
        let o = SearchOptions::parse(":secure=8:secure_by=2").unwrap();
        assert_eq!(o.weights, Weights { secure: 8, secure_by: 2, ..Weights::DEFAULT });
        assert_eq!(o.to_string(), ":secure=8:secure_by=2");
        assert_eq!(SearchOptions::parse(":secure=0:secure_by=4").unwrap(), SearchOptions::default());
        let o = SearchOptions::parse(":contempt=64").unwrap();
        assert_eq!(o.weights, Weights { contempt: 64, ..Weights::DEFAULT });
        assert_eq!(o.to_string(), ":contempt=64");
        for bad in [
            ":cell=-1",
            ":cell=x",
            ":separated_cell=10001",
            ":separated_bonus=100001",
            ":bonus=3",
            ":secure_by=17",
            ":secure=-2",
            ":contempt=-1",
            ":contempt=100001",
        ] {
            let e = SearchOptions::parse(bad).unwrap_err();
            assert!(e.contains("expected a whole number") || e.contains("unknown option"), "{bad}: {e}");
        }
        // Each entry of the table, set to either end, lands in its own
        // field and nowhere else, and is written back as given.
        for (name, least, most) in WEIGHT_OPTIONS {
            for v in [least, most] {
                let o = SearchOptions::parse(&format!(":{name}={v}")).unwrap();
                assert_eq!(weight(&o.weights, name), Some(v), "{name}={v}");
                for (other, ..) in WEIGHT_OPTIONS.iter().filter(|(other, ..)| *other != name) {
                    assert_eq!(weight(&o.weights, other), weight(&Weights::DEFAULT, other), "{name}={v} moved {other}");
                }
                let written = o.to_string();
                assert_eq!(SearchOptions::parse(&written).unwrap(), o, "{name}={v} wrote {written:?}");
            }
        }
    }

    #[test]
    fn other_weights_change_the_values_not_the_default_moves() {
        // The same game with explicit default weights plays the same moves;
        // with every weight doubled the values double, and without the edge
        // term they differ (the evaluation reads the weights).
        let config = Config { width: 12, height: 10, ..Config::default() };
        let game = FastGame::seeded(&config, 3).unwrap();
        let ctx = BotContext { game: 0, seat: 0, players: 2, seed: 3 };
        let mut plain = SearchBot::new(SearchOptions { nodes: Some(300), ..SearchOptions::default() }, ctx);
        let explicit = SearchOptions::parse(":nodes=300:cell=16:separated_cell=24:separated_bonus=480").unwrap();
        let mut same = SearchBot::new(explicit, ctx);
        assert_eq!(think(&mut plain, &game, 0), think(&mut same, &game, 0));
        // An uneven position.
        let mut game = game;
        testing::ride_unevenly(&mut game, 3);
        let graph = CellGraph::new(game.layout());
        let w = Weights::DEFAULT;
        let doubled = Weights {
            cell: 2 * w.cell,
            separated_cell: 2 * w.separated_cell,
            separated_bonus: 2 * w.separated_bonus,
            edge: 2 * w.edge,
            chamber_edge: 2 * w.chamber_edge,
            secure: 2 * w.secure,
            secure_by: w.secure_by,
            front: w.front,
            ffa_edge: 2 * w.ffa_edge,
            contempt: 2 * w.contempt,
            wall: 2 * w.wall,
            ffa_wall: 2 * w.ffa_wall,
            opening: w.opening,
            ffa_rival: w.ffa_rival,
            ffa_ahead: w.ffa_ahead,
        };
        let mut tuned = Evaluator::with_weights(doubled);
        let (d, t) = (Evaluator::new().duel(&graph, &game, 0, 1), tuned.duel(&graph, &game, 0, 1));
        assert_eq!(t.space, d.space);
        assert_ne!(d.value, 0);
        assert_eq!(t.value, 2 * d.value, "the value scales with the weights");
        let mut no_edges = Evaluator::with_weights(Weights { chamber_edge: 0, ..w });
        assert_ne!(no_edges.duel(&graph, &game, 0, 1).value, d.value, "the chambers' edge weight counts by default");
    }

    #[test]
    fn never_rides_into_a_solid_cell_while_a_safe_move_is_left() {
        // Positions of every phase of games of 2, 3 and 4 players: the bots'
        // own moves mixed with random ones, so that tight spots come up.
        for (players, w, h, seed) in [(2, 12, 10, 1), (2, 16, 12, 2), (3, 16, 16, 3), (4, 16, 16, 4), (2, 10, 8, 5)] {
            let config = Config { width: w, height: h, players, rock_density: 10, ..Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            let mut bots: Vec<SearchBot> = (0..players as usize).map(|s| bot(40, s, players as usize)).collect();
            let mut rng = SplitMix64::new(seed);
            let mut checked = 0;
            while !game.is_over() {
                let mut actions = vec![Action::Keep; players as usize];
                for (seat, b) in bots.iter_mut().enumerate().filter(|(s, _)| game.is_alive(*s)) {
                    let thought = think(b, &game, seat);
                    let safe = safe_moves(&game, seat);
                    if !safe.is_empty() {
                        assert!(safe.contains(thought.dir), "seed {seed} tick {}: {thought:?}", game.tick());
                        checked += 1;
                    }
                    let random = safe.iter().nth(rng.below(safe.len().max(1) as u64) as usize);
                    let dir = if rng.below(3) == 0 { random.unwrap_or(thought.dir) } else { thought.dir };
                    actions[seat] = Action::Move(dir);
                }
                game.step(&actions).unwrap();
            }
            assert!(checked >= 10, "seed {seed}: {checked} answers checked");
        }
    }

    #[test]
    fn a_node_budget_gives_the_same_game_every_time() {
        let config = Config { width: 20, height: 16, ..Config::default() };
        let setup = GameSetup { config, seed: 12, map_file: None, limits: Limits::default() };
        let specs = [
            [
                Builtin::Search(SearchOptions { nodes: Some(60), stats: false, ..SearchOptions::default() }),
                Builtin::Floodfill,
            ],
            [Builtin::Search(SearchOptions { nodes: Some(60), stats: false, ..SearchOptions::default() }); 2],
        ];
        for kinds in specs {
            let game = || {
                let bots = kinds
                    .iter()
                    .enumerate()
                    .map(|(seat, k)| k.make(&BotContext { game: 0, seat, players: 2, seed: 12 }))
                    .collect();
                play::<FastGame>(&setup, vec!["a".into(), "b".into()], bots, &mut unwatched).unwrap().replay.to_json()
            };
            assert_eq!(game(), game(), "{kinds:?}");
        }
    }

    #[test]
    fn a_forced_move_is_answered_without_search() {
        // Player 0 in a corridor that opens onto player 1's side: only east
        // is free.
        let game = drawn_game(&[
            "########", //
            "aA......", //
            "#######.", //
            "........", //
            "........", //
            "........", //
            "........", //
            ".......B", //
        ]);
        let thought = think(&mut bot(1000, 0, 2), &game, 0);
        assert_eq!((thought.dir, thought.mode, thought.nodes), (Dir::E, Mode::Forced, 0));
    }

    #[test]
    fn walled_in_it_still_answers_a_move() {
        let game = drawn_game(&[
            "#A#.....", //
            "#a#.....", //
            "........", //
            "........", //
            "........", //
            "........", //
            "........", //
            ".......B", //
        ]);
        let thought = think(&mut bot(1000, 0, 2), &game, 0);
        assert_eq!(thought.mode, Mode::Forced);
        assert_eq!(thought.dir, Dir::N, "rides on");
    }

    #[test]
    fn ahead_it_refuses_the_head_on_that_would_only_draw() {
        // Player 0 owns the lower left as well; (3, 3) lies between the two
        // heads, and moving there lets player 1 force a draw.
        let game = drawn_game(&[
            "........", //
            "........", //
            "........", //
            "aaA.B###", //
            "....b###", //
            "....b###", //
            "....b###", //
            "....b###", //
        ]);
        let thought = think(&mut bot(3000, 0, 2), &game, 0);
        assert_eq!(thought.mode, Mode::Duel);
        assert_ne!(thought.dir, Dir::E, "{thought:?}");
    }

    #[test]
    fn lost_otherwise_it_takes_the_head_on_that_draws() {
        // Player 1's one free cell is (1, 1), which player 0 can take too:
        // riding there both crash, a draw. North leads player 0 into a dead
        // end while player 1 rides on south: a loss, however late.
        let game = drawn_game(&[
            ".#######", //
            "A.B#####", //
            "#.######", //
            "########", //
            "########", //
            "########", //
            "########", //
            "########", //
        ]);
        let thought = think(&mut bot(1000, 0, 2), &game, 0);
        assert_eq!(thought.mode, Mode::Duel);
        assert_eq!(thought.dir, Dir::E, "{thought:?}");
    }

    #[test]
    fn separated_it_fills_its_own_region() {
        let game = drawn_game(&[
            "A...#...", //
            "....#...", //
            "....#...", //
            "....#...", //
            "....#...", //
            "....#...", //
            "....#...", //
            "....#..B", //
        ]);
        let thought = think(&mut bot(1000, 0, 2), &game, 0);
        assert_eq!(thought.mode, Mode::Endgame);
        assert!([Dir::E, Dir::S].contains(&thought.dir));
    }

    #[test]
    fn three_riders_are_searched_paranoid() {
        let config = Config { width: 16, height: 16, players: 3, rock_density: 0, ..Config::default() };
        let game = FastGame::seeded(&config, 3).unwrap();
        let thought = think(&mut bot(300, 0, 3), &game, 0);
        assert_eq!(thought.mode, Mode::Multi);
        assert!(safe_moves(&game, 0).contains(thought.dir));
        assert!(thought.depth >= 1 && thought.nodes > 0, "{thought:?}");
    }
}
