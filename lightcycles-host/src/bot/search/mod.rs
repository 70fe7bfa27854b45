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
//! limit for the tick (with a margin, see [`budget::HARD_SHARE`]); with
//! `builtin:search:nodes=N` a fixed number of nodes per answer instead, and
//! then the bot is deterministic: the same game gives the same moves on any
//! machine. `builtin:search:stats` prints one line per game on stderr with
//! the slowest answer it gave (and one for any answer later than its limit).

pub mod alphabeta;
pub mod budget;
pub mod cells;
pub mod chambers;
pub mod endgame;
pub mod eval;
pub mod multi;
pub mod table;
pub mod zobrist;

#[cfg(test)]
mod testing;

use std::fmt;
use std::time::{Duration, Instant};

use lightcycles_core::{Dir, Engine, FastGame};

use self::alphabeta::Duel;
use self::budget::{Budget, Limit};
use self::cells::CellGraph;
use self::endgame::Filler;
use self::eval::Evaluator;
use self::multi::Paranoid;
use super::{Bot, BotContext, Reply, Turn};

/// Size of the transposition table: `2^TABLE_BITS` entries of 24 bytes.
pub const TABLE_BITS: u32 = 18;

/// How `builtin:search` is set up: the text after `builtin:search`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// A fixed number of nodes per answer (deterministic) instead of the
    /// tick's time limit.
    pub nodes: Option<u64>,
    /// Print a line of statistics per game on stderr.
    pub stats: bool,
}

impl SearchOptions {
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
        for option in list.split(':') {
            if option == "stats" {
                options.stats = true;
            } else if let Some(n) = option.strip_prefix("nodes=") {
                match n.parse::<u64>() {
                    Ok(n) if n >= 1 => options.nodes = Some(n),
                    _ => return Err(format!("nodes={n}: expected a whole number of nodes, 1 or more")),
                }
            } else {
                return Err(format!("unknown option {option:?}; the options are nodes=N and stats"));
            }
        }
        Ok(options)
    }
}

impl fmt::Display for SearchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.nodes {
            write!(f, ":nodes={n}")?;
        }
        if self.stats {
            f.write_str(":stats")?;
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

/// One answer, as the bot saw it: for tests and statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move.
    pub dir: Dir,
    /// The search that chose it.
    pub mode: Mode,
    /// The deepest iteration completed (ticks, or moves in the endgame).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The memory of one game: built on the first answer, for the board size.
struct Memory {
    graph: CellGraph,
    duel: Option<Duel>,
    paranoid: Option<Paranoid>,
    filler: Filler,
    eval: Evaluator,
}

/// The slowest answers of one game, for `builtin:search:stats`.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    answers: u32,
    total: Duration,
    /// The slowest answer of tick 1, and of any later tick, with its tick
    /// and limit.
    first: Option<(Duration, Duration)>,
    slowest: Option<(Duration, u32, Duration)>,
    deepest: u32,
    nodes: u64,
    /// Answers and time by mode: forced, duel, endgame, multi.
    by_mode: [(u32, Duration); 4],
}

/// `builtin:search`.
pub struct SearchBot {
    options: SearchOptions,
    ctx: BotContext,
    memory: Option<Memory>,
    clock: Clock,
}

impl SearchBot {
    /// A bot for one game and seat.
    pub fn new(options: SearchOptions, ctx: BotContext) -> SearchBot {
        SearchBot { options, ctx, memory: None, clock: Clock::default() }
    }

    /// Decides the move of player `me` in `game`, started at `start` with
    /// `limit` for this tick.
    pub fn think(&mut self, game: &FastGame, me: usize, start: Instant, limit: Duration) -> Thought {
        let limit = match self.options.nodes {
            Some(n) => Limit::Nodes(n),
            None => Limit::Time(limit),
        };
        let mut budget = Budget::new(start, limit);
        let memory = self.memory.get_or_insert_with(|| Memory {
            graph: CellGraph::new(game.layout()),
            duel: None,
            paranoid: None,
            filler: Filler::new(),
            eval: Evaluator::new(),
        });
        let straight = Thought { dir: game.dir(me), mode: Mode::Forced, depth: 0, nodes: 0 };
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
                    nodes: 0,
                })
            }
            [other] if game.alive_mask().count_ones() == 2 => {
                let fits = memory.duel.as_ref().is_some_and(|d| d.other() == other);
                if !fits {
                    memory.duel = Some(Duel::new(graph, game.num_players(), me, other, TABLE_BITS));
                }
                let duel = memory.duel.as_mut().expect("made above");
                duel.choose(graph, game, &mut budget).map(|d| Thought {
                    dir: d.dir,
                    mode: if d.depth == 0 { Mode::Forced } else { Mode::Duel },
                    depth: d.depth,
                    nodes: 0,
                })
            }
            _ => {
                let paranoid = memory.paranoid.get_or_insert_with(|| Paranoid::new(me));
                paranoid.choose(graph, game, &mut budget).map(|d| Thought {
                    dir: d.dir,
                    mode: if d.depth == 0 { Mode::Forced } else { Mode::Multi },
                    depth: d.depth,
                    nodes: 0,
                })
            }
        };
        let mut thought = thought.unwrap_or(straight);
        thought.nodes = budget.spent();
        thought
    }
}

impl Bot for SearchBot {
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        let start = Instant::now();
        let Ok(game) = FastGame::from_position(turn.position()) else {
            // The host's position is always valid; without a game, ride on.
            return Reply::of_dir(turn.me().dir);
        };
        let thought = self.think(&game, turn.you(), start, limit);
        let took = start.elapsed();
        if self.options.stats && took > limit {
            eprintln!(
                "search stats: game {} seed {} seat {}: tick {} answered late, {:.2} ms of {:.0} ({:?}, depth {}, {} nodes)",
                self.ctx.game,
                self.ctx.seed,
                self.ctx.seat,
                turn.tick(),
                took.as_secs_f64() * 1000.0,
                limit.as_secs_f64() * 1000.0,
                thought.mode,
                thought.depth,
                thought.nodes
            );
        }
        let c = &mut self.clock;
        c.answers += 1;
        c.total += took;
        c.deepest = c.deepest.max(thought.depth);
        c.nodes += thought.nodes;
        let m = &mut c.by_mode[thought.mode as usize];
        m.0 += 1;
        m.1 += took;
        if turn.tick() <= 1 {
            c.first = Some((took, limit));
        } else if c.slowest.map_or(true, |(t, _, _)| took > t) {
            c.slowest = Some((took, turn.tick(), limit));
        }
        Reply::of_dir(thought.dir)
    }
}

impl Drop for SearchBot {
    fn drop(&mut self) {
        if !self.options.stats {
            return;
        }
        let c = &self.clock;
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let first = c.first.map_or("-".to_string(), |(t, l)| format!("{:.2} ms of {:.0}", ms(t), ms(l)));
        let slowest =
            c.slowest.map_or("-".to_string(), |(t, k, l)| format!("{:.2} ms of {:.0} on tick {k}", ms(t), ms(l)));
        let mean = if c.answers > 0 { ms(c.total) / c.answers as f64 } else { 0.0 };
        let modes: Vec<String> = ["forced", "duel", "endgame", "multi"]
            .iter()
            .zip(c.by_mode)
            .filter(|(_, (n, _))| *n > 0)
            .map(|(name, (n, t))| format!("{name} {n} ({:.1} ms)", ms(t) / n as f64))
            .collect();
        eprintln!(
            "search stats: game {} seed {} seat {}: {} answers [{}], tick 1 {first}, slowest later {slowest}, mean {mean:.2} ms, deepest {}, nodes {}",
            self.ctx.game,
            self.ctx.seed,
            self.ctx.seat,
            c.answers,
            modes.join(", "),
            c.deepest,
            c.nodes
        );
    }
}
