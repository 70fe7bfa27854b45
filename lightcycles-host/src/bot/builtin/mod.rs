//! Bots compiled into the host: `random`, `fuzz`, `straight`, `wallhug`,
//! `floodfill` and `search` (its own module tree, [`crate::bot::builtin::search`]).
//!
//! A built-in bot's randomness comes from a SplitMix64 of its own, seeded
//! from the game's seed and its seat ([`bot_seed`]); it never draws from the
//! map generator, so a bot's draws cannot shift a map.

pub mod search;
pub mod space;

use std::time::Duration;

use lightcycles_core::space::{self as room, Scratch};
use lightcycles_core::{Dir, Engine, FastGame, Pos, SplitMix64};

use crate::bot::builtin::search::{SearchBot, SearchOptions};

use crate::bot::{Bot, BotContext, BotError, BotFactory, Reply, Turn};
use std::sync::Arc;

use crate::bot::adapter::{Adapter, Hosting};
use crate::bot::process::log::LogPlace;
use crate::bot::spec::SpecError;

/// A bot compiled into the host, named by `builtin:NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// Uniformly random among the moves that do not crash at once.
    Random,
    /// Random moves mixed with every kind of invalid answer.
    Fuzz,
    /// Keeps its direction.
    Straight,
    /// Follows walls and trails, keeping one at its side.
    Wallhug,
    /// Takes the move that keeps the most reachable space.
    Floodfill,
    /// Searches: alpha-beta, chamber evaluation, endgame filler.
    Search(SearchOptions),
}

impl Builtin {
    /// Every built-in bot, in the order help lists them.
    pub const ALL: [Builtin; 6] = [
        Builtin::Random,
        Builtin::Fuzz,
        Builtin::Straight,
        Builtin::Wallhug,
        Builtin::Floodfill,
        Builtin::Search(SearchOptions { nodes: None, stats: false }),
    ];

    /// The name after `builtin:`.
    pub const fn name(self) -> &'static str {
        match self {
            Builtin::Random => "random",
            Builtin::Fuzz => "fuzz",
            Builtin::Straight => "straight",
            Builtin::Wallhug => "wallhug",
            Builtin::Floodfill => "floodfill",
            Builtin::Search(_) => "search",
        }
    }

    /// One line on what the bot does, for help texts.
    pub const fn description(self) -> &'static str {
        match self {
            Builtin::Random => "a random move among those that do not crash at once",
            Builtin::Fuzz => "random moves mixed with invalid lines of every kind and missing answers",
            Builtin::Straight => "keeps its direction",
            Builtin::Wallhug => "follows walls and trails, keeping one on its left (deterministic)",
            Builtin::Floodfill => "the move that keeps the most reachable space (ties: seeded)",
            Builtin::Search(_) => {
                "alpha-beta on a chamber-aware Voronoi split, endgame filler; uses the tick's time \
                 (search:nodes=N: N nodes per answer, deterministic; search:stats: slowest answer on stderr)"
            }
        }
    }

    /// The built-in bot called `name` (with its options, for `search`).
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::parse(name).ok().flatten()
    }

    /// The built-in bot `text` names: `NAME`, or `search:OPTION…`.
    /// `Ok(None)` when no built-in bot has that name; an error when the name
    /// is right and an option is not.
    pub fn parse(text: &str) -> Result<Option<Builtin>, String> {
        if let Some(options) = text.strip_prefix("search") {
            if options.is_empty() || options.starts_with(':') {
                return SearchOptions::parse(options).map(|o| Some(Builtin::Search(o)));
            }
        }
        Ok(Builtin::ALL.into_iter().find(|b| !matches!(b, Builtin::Search(_)) && b.name() == text))
    }

    /// The names of all built-in bots, comma-separated.
    pub fn names() -> String {
        Builtin::ALL.map(Builtin::name).join(", ")
    }

    /// A bot of this kind for one game and seat.
    pub fn make(self, ctx: &BotContext) -> Box<dyn Bot> {
        let rng = SplitMix64::new(bot_seed(ctx.seed, ctx.seat));
        match self {
            Builtin::Random => Box::new(RandomBot { rng }),
            Builtin::Fuzz => Box::new(FuzzBot { rng }),
            Builtin::Straight => Box::new(StraightBot),
            Builtin::Wallhug => Box::new(WallhugBot),
            Builtin::Floodfill => Box::new(FloodfillBot { rng, scratch: Scratch::new() }),
            Builtin::Search(options) => Box::new(SearchBot::new(options, *ctx)),
        }
    }
}

impl BotFactory for Builtin {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        Ok(self.make(ctx))
    }
}

/// The seed of a built-in bot's own generator: the game seed and the seat
/// mixed through SplitMix64 outputs, so that neighbouring seeds and seats
/// give unrelated streams, and none equals the map generator's stream.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    // "botseed!" in ASCII: keeps the bot stream apart from the map's.
    const SALT: u64 = 0x626F_7473_6565_6421;
    let game = SplitMix64::new(game_seed ^ SALT).next_u64();
    SplitMix64::new(game ^ (seat as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// Uniform in `0..n` for a small `n ≥ 1`.
fn pick(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// A random move among those that do not crash at once; any move if none is
/// safe. A reversal into the neck is not a move of its own (it goes
/// straight), so it is never counted twice.
fn random_safe_move(turn: &Turn<'_>, rng: &mut SplitMix64) -> Dir {
    let distinct = Dir::ALL.into_iter().filter(|&d| turn.effective(d) == d);
    let safe: Vec<Dir> = distinct.filter(|&d| !turn.crashes_at_once(d)).collect();
    if safe.is_empty() {
        Dir::ALL[pick(rng, 4)]
    } else {
        safe[pick(rng, safe.len())]
    }
}

/// `builtin:random`.
#[derive(Debug)]
struct RandomBot {
    rng: SplitMix64,
}

impl Bot for RandomBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        Reply::of_dir(random_safe_move(turn, &mut self.rng))
    }
}

/// `builtin:straight`.
#[derive(Debug)]
struct StraightBot;

impl Bot for StraightBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        Reply::of_dir(turn.me().dir)
    }
}

/// The moves worth weighing, in the order left turn, straight, right turn,
/// then back (only on the first move, before the cycle has a neck; later a
/// reversal is no move of its own), with the cell each leads to, keeping
/// those that do not crash at once.
fn safe_moves(turn: &Turn<'_>) -> Vec<(Dir, Pos)> {
    let dir = turn.me().dir;
    let turned = |quarter: u8| Dir::from_code(u32::from((dir.code() + quarter) % 4)).expect("a code below 4");
    let (w, h) = (turn.width(), turn.height());
    [turned(3), dir, turned(1), turned(2)]
        .into_iter()
        .filter(|&d| turn.effective(d) == d && !turn.crashes_at_once(d))
        .filter_map(|d| turn.me().pos.step(d, w, h).map(|target| (d, target)))
        .collect()
}

/// `builtin:wallhug`: a wall follower. Of the moves that do not crash at
/// once it takes the one whose new cell touches the most solid cells
/// (walls, rocks, trails, heads), so it rides along a wall and packs its own
/// trail tightly; a cell with no free neighbour (a dead end) only when
/// nothing else is left. Ties go to the left turn, then straight, then the
/// right turn, which keeps the wall on its left. No randomness.
#[derive(Debug)]
struct WallhugBot;

impl Bot for WallhugBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        let position = turn.position();
        let best = safe_moves(turn)
            .into_iter()
            .enumerate()
            .max_by_key(|&(order, (_, target))| {
                let solid = space::solid_neighbours(position, target);
                // A dead end's four neighbours are all solid.
                (solid < 4, solid, std::cmp::Reverse(order))
            })
            .map(|(_, (dir, _))| dir);
        Reply::of_dir(best.unwrap_or(turn.me().dir))
    }
}

/// `builtin:floodfill`: for each move that does not crash at once, counts
/// the free cells still reachable from the new cell (the core's
/// [`reachable`](lightcycles_core::space::reachable): the new cell and every
/// free cell joined to it, or none when it is a dead end; one more than the
/// room beyond the cell whenever there is any, so the order of the moves is
/// that of the room they leave) and takes the move that keeps the most.
/// Among equals it prefers a cell no other living head touches (no head-on
/// risk), then the cell that touches the most solid cells (filling space
/// tightly, as `wallhug` does); remaining ties are drawn from its own
/// seeded generator.
#[derive(Debug)]
struct FloodfillBot {
    rng: SplitMix64,
    scratch: Scratch,
}

impl Bot for FloodfillBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        let position = turn.position();
        let Ok(game) = FastGame::from_position(position) else {
            return Reply::of_dir(turn.me().dir);
        };
        let (w, h) = (turn.width(), turn.height());
        let others: Vec<Pos> = position
            .players
            .iter()
            .enumerate()
            .filter(|&(id, p)| id != turn.you() && p.alive)
            .map(|(_, p)| p.pos)
            .collect();
        let near_head =
            |target: Pos| others.iter().any(|&head| Dir::ALL.into_iter().any(|d| head.step(d, w, h) == Some(target)));
        let scored: Vec<(Dir, (u32, bool, u32))> = safe_moves(turn)
            .into_iter()
            .map(|(dir, target)| {
                let room = room::reachable_with(&game, target, &mut self.scratch);
                (dir, (room, !near_head(target), space::solid_neighbours(position, target)))
            })
            .collect();
        let Some(top) = scored.iter().map(|&(_, key)| key).max() else {
            return Reply::of_dir(turn.me().dir);
        };
        let best: Vec<Dir> = scored.iter().filter(|&&(_, key)| key == top).map(|&(dir, _)| dir).collect();
        let dir = if best.len() == 1 { best[0] } else { best[pick(&mut self.rng, best.len())] };
        Reply::of_dir(dir)
    }
}

/// Every kind of answer the fuzz bot gives besides a plain move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FuzzKind {
    /// A move surrounded by ASCII whitespace: valid after trimming.
    PaddedMove,
    /// A direction in lower case: `n`.
    LowerCase,
    /// A word: `NORTH`, `East`, `left`.
    Word,
    /// An empty line, or one of whitespace only.
    Empty,
    /// Two moves on one line: `N E`, `NS`.
    TwoMoves,
    /// A line of 65 to 1024 bytes (recorded cut, with `…`).
    Over64,
    /// A line over 1024 bytes.
    Over1024,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// No answer: the host records a timeout.
    NoAnswer,
    /// Declines to move, without fault.
    Declines,
}

impl FuzzKind {
    /// Every kind, in draw order.
    pub const ALL: [FuzzKind; 10] = [
        FuzzKind::PaddedMove,
        FuzzKind::LowerCase,
        FuzzKind::Word,
        FuzzKind::Empty,
        FuzzKind::TwoMoves,
        FuzzKind::Over64,
        FuzzKind::Over1024,
        FuzzKind::NotUtf8,
        FuzzKind::NoAnswer,
        FuzzKind::Declines,
    ];

    /// A reply of this kind, drawn from `rng`; `dir` is a sensible move.
    pub fn reply(self, dir: Dir, rng: &mut SplitMix64) -> Reply {
        let letter = dir.letter();
        let line = |s: String| Reply::Line(s.into_bytes());
        match self {
            FuzzKind::PaddedMove => {
                let pads = [" ", "\t", "\r", "  ", "\x0b", "\x0c"];
                line(format!("{}{letter}{}", pads[pick(rng, pads.len())], pads[pick(rng, pads.len())]))
            }
            FuzzKind::LowerCase => line(letter.to_ascii_lowercase().to_string()),
            FuzzKind::Word => {
                let words = ["NORTH", "East", "south", "WEST", "left", "up", "0", "1"];
                line(words[pick(rng, words.len())].to_string())
            }
            FuzzKind::Empty => line([" ", "", "\t ", "\r"][pick(rng, 4)].to_string()),
            FuzzKind::TwoMoves => {
                let other = Dir::ALL[pick(rng, 4)].letter();
                line(if pick(rng, 2) == 0 { format!("{letter} {other}") } else { format!("{letter}{other}") })
            }
            FuzzKind::Over64 => {
                let len = 65 + pick(rng, 1024 - 65 + 1);
                let mut s: String = std::iter::repeat(letter).take(len).collect();
                if pick(rng, 2) == 0 {
                    // A two-byte character across the recording cut at 60 bytes.
                    s.replace_range(59..61, "é");
                }
                line(s)
            }
            FuzzKind::Over1024 => {
                // A move, padding past the limit, and a second letter so that
                // the trimmed line is no move either (a move padded with
                // whitespace alone would be recorded as that move).
                let mut s = String::with_capacity(1100);
                s.push(letter);
                s.extend(std::iter::repeat(' ').take(1024 + pick(rng, 64)));
                s.push(letter);
                line(s)
            }
            FuzzKind::NotUtf8 => {
                let mut bytes = vec![letter as u8];
                let junk: [&[u8]; 4] = [b"\xff", b"\xc3", b"\xe2\x82", b"\x80\x80"];
                let j = junk[pick(rng, junk.len())];
                if pick(rng, 2) == 0 {
                    bytes.extend_from_slice(j);
                } else {
                    bytes.splice(0..0, j.iter().copied());
                }
                Reply::Line(bytes)
            }
            FuzzKind::NoAnswer => Reply::Timeout,
            FuzzKind::Declines => Reply::NoMove,
        }
    }
}

/// `builtin:fuzz`: on two ticks in three a random safe move, otherwise an
/// answer of a [`FuzzKind`] drawn uniformly.
#[derive(Debug)]
struct FuzzBot {
    rng: SplitMix64,
}

impl Bot for FuzzBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        let dir = random_safe_move(turn, &mut self.rng);
        if pick(&mut self.rng, 3) != 0 {
            return Reply::of_dir(dir);
        }
        let kind = FuzzKind::ALL[pick(&mut self.rng, FuzzKind::ALL.len())];
        kind.reply(dir, &mut self.rng)
    }
}

/// `builtin:NAME`.
pub struct BuiltinAdapter;

impl Adapter for BuiltinAdapter {
    fn form(&self) -> &'static str {
        "built-in bots (builtin:NAME)"
    }

    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        let name = form.strip_prefix("builtin:")?;
        Some(match Builtin::parse(name) {
            Ok(Some(_)) => Ok(name.to_string()),
            Ok(None) => Err(SpecError::UnknownBuiltin { arg: arg.to_string(), name: name.to_string() }),
            Err(message) => Err(SpecError::BuiltinOption { arg: arg.to_string(), message }),
        })
    }

    fn default_name(&self, target: &str) -> String {
        Builtin::of_target(target).name().to_string()
    }

    fn factory(&self, target: &str, _log: Option<LogPlace>, _hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        Ok(Arc::new(Builtin::of_target(target)))
    }
}

impl Builtin {
    /// The builtin of a target [`BuiltinAdapter`] claimed.
    pub fn of_target(target: &str) -> Builtin {
        Builtin::parse(target).ok().flatten().expect("a claimed builtin target parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{parse_move, Action, Answer, Config, Engine, FaultKind, Position, ReferenceGame, Start};
    use std::collections::HashSet;

    fn ctx(seed: u64, seat: usize) -> BotContext {
        BotContext { game: 0, seat, players: 2, seed }
    }

    #[test]
    fn names_round_trip() {
        for b in Builtin::ALL {
            assert_eq!(Builtin::from_name(b.name()), Some(b));
        }
        assert_eq!(Builtin::from_name("Random"), None);
        assert_eq!(Builtin::names(), "random, fuzz, straight, wallhug, floodfill, search");
    }

    #[test]
    fn bot_seeds_differ_by_seed_and_seat_and_from_the_map_stream() {
        let mut seen = HashSet::new();
        for seed in 0..200u64 {
            for seat in 0..8 {
                let s = bot_seed(seed, seat);
                assert!(seen.insert(s), "seed {seed} seat {seat} repeats a bot seed");
                assert_ne!(s, seed);
                assert_ne!(SplitMix64::new(s).next_u64(), SplitMix64::new(seed).next_u64());
            }
        }
        assert_eq!(bot_seed(5, 1), bot_seed(5, 1));
    }

    /// A hand-made position: player 0 at (1, 1) facing E with a neck at
    /// (0, 1); rocks at (2, 1) and (1, 0); so only S is safe.
    fn cornered() -> Position {
        let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
        let mut position = Position::start(
            &config,
            &lightcycles_core::Map::from_parts(
                8,
                8,
                &[lightcycles_core::Pos::new(2, 1), lightcycles_core::Pos::new(1, 0)],
                &[
                    lightcycles_core::Start { pos: lightcycles_core::Pos::new(0, 1), dir: Dir::E },
                    lightcycles_core::Start { pos: lightcycles_core::Pos::new(6, 6), dir: Dir::W },
                ],
            )
            .unwrap(),
        );
        let mut game = ReferenceGame::from_position(&position).unwrap();
        game.step(&[Action::Move(Dir::E), Action::Keep]).unwrap();
        position = game.position();
        assert_eq!(position.players[0].pos, lightcycles_core::Pos::new(1, 1));
        position
    }

    #[test]
    fn random_takes_the_only_safe_move_and_never_reverses_into_its_neck() {
        let position = cornered();
        let turn = Turn::new(&position, 0);
        for seed in 0..100 {
            let mut bot = Builtin::Random.make(&ctx(seed, 0));
            assert_eq!(bot.answer(&turn, Duration::ZERO), Reply::of_dir(Dir::S), "seed {seed}");
        }
    }

    #[test]
    fn random_spreads_over_the_safe_moves() {
        let config = Config { width: 16, height: 16, rock_density: 0, ..Config::default() };
        let game = ReferenceGame::seeded(&config, 9).unwrap();
        let position = game.position();
        let turn = Turn::new(&position, 0);
        let mut seen = HashSet::new();
        for seed in 0..64 {
            let mut bot = Builtin::Random.make(&ctx(seed, 0));
            let Reply::Line(line) = bot.answer(&turn, Duration::ZERO) else { panic!("random always answers") };
            let dir = parse_move(&line).expect("random answers a valid move");
            assert!(!turn.crashes_at_once(dir));
            seen.insert(dir);
        }
        assert_eq!(seen.len(), 4, "on an open board with no neck every direction is drawn");
    }

    #[test]
    fn random_moves_anyway_when_nothing_is_safe() {
        let mut position = cornered();
        // Block the last way out.
        position.grid[2 * 8 + 1] = lightcycles_core::ROCK;
        let turn = Turn::new(&position, 0);
        let mut bot = Builtin::Random.make(&ctx(1, 0));
        assert!(matches!(bot.answer(&turn, Duration::ZERO), Reply::Line(l) if parse_move(&l).is_some()));
    }

    #[test]
    fn straight_names_its_own_direction() {
        let position = cornered();
        let mut bot = Builtin::Straight.make(&ctx(0, 0));
        assert_eq!(bot.answer(&Turn::new(&position, 0), Duration::ZERO), Reply::of_dir(Dir::E));
        assert_eq!(bot.answer(&Turn::new(&position, 1), Duration::ZERO), Reply::of_dir(Dir::W));
    }

    /// An 8 × 8 board without rocks, player 0 starting at `start` (no neck
    /// yet) and player 1 at (7, 7) facing W, with `rocks` added.
    fn board(start: Start, rocks: &[lightcycles_core::Pos]) -> Position {
        let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
        let starts = [start, Start { pos: lightcycles_core::Pos::new(7, 7), dir: Dir::W }];
        Position::start(&config, &lightcycles_core::Map::from_parts(8, 8, rocks, &starts).unwrap())
    }

    fn answer_of(bot: Builtin, position: &Position, seed: u64) -> Dir {
        let mut bot = bot.make(&ctx(seed, 0));
        let Reply::Line(line) = bot.answer(&Turn::new(position, 0), Duration::ZERO) else { panic!("no line") };
        parse_move(&line).expect("a valid move")
    }

    #[test]
    fn wallhug_rides_along_the_wall_keeping_it_on_its_left() {
        // At (0, 3) facing N: N and S both touch the edge and the head; N
        // comes first (straight before back); W is off the board.
        let position = board(Start { pos: lightcycles_core::Pos::new(0, 3), dir: Dir::N }, &[]);
        assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::N);
        // Facing E along the top edge: the left turn (N) is off the board,
        // straight keeps the edge on its left.
        let position = board(Start { pos: lightcycles_core::Pos::new(3, 0), dir: Dir::E }, &[]);
        assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::E);
        // The only safe move is taken, for any seed: no randomness.
        let position = cornered();
        for seed in 0..20 {
            assert_eq!(answer_of(Builtin::Wallhug, &position, seed), Dir::S);
        }
    }

    #[test]
    fn wallhug_enters_a_dead_end_only_when_nothing_else_is_left() {
        // At (3, 3) facing E. (4, 3) is a pocket: rocks above, below and
        // beyond it, so it touches 4 solid cells and leads nowhere; (3, 2)
        // touches 2 (the rock at (4, 2) and the head).
        let p = lightcycles_core::Pos::new;
        let pocket = [p(4, 2), p(4, 4), p(5, 3)];
        let position = board(Start { pos: p(3, 3), dir: Dir::E }, &pocket);
        assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::N);
        // Close every other way: the pocket is the last move left.
        let walled = [p(4, 2), p(4, 4), p(5, 3), p(3, 2), p(3, 4), p(2, 3)];
        let position = board(Start { pos: p(3, 3), dir: Dir::E }, &walled);
        assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::E);
    }

    #[test]
    fn floodfill_takes_the_side_with_more_room() {
        let p = lightcycles_core::Pos::new;
        // A wall of rock across row `y` with a gap at x = 3 where player 0
        // starts facing E: N leads into rows above, S into rows below.
        let split = |y: u8| {
            let rocks: Vec<_> = (0..8).filter(|&x| x != 3).map(|x| p(x, y)).collect();
            board(Start { pos: p(3, y), dir: Dir::E }, &rocks)
        };
        for seed in 0..20 {
            assert_eq!(answer_of(Builtin::Floodfill, &split(4), seed), Dir::N, "32 cells above, 24 below");
            assert_eq!(answer_of(Builtin::Floodfill, &split(3), seed), Dir::S, "24 cells above, 32 below");
        }
    }

    #[test]
    fn floodfill_breaks_ties_with_its_seeded_generator() {
        let config = Config { width: 16, height: 16, rock_density: 0, ..Config::default() };
        let starts = [
            Start { pos: lightcycles_core::Pos::new(7, 7), dir: Dir::N },
            Start { pos: lightcycles_core::Pos::new(14, 14), dir: Dir::W },
        ];
        let position = Position::start(&config, &lightcycles_core::Map::from_parts(16, 16, &[], &starts).unwrap());
        // Every direction keeps the same room and touches one solid cell.
        let seen: HashSet<Dir> = (0..64).map(|seed| answer_of(Builtin::Floodfill, &position, seed)).collect();
        assert_eq!(seen.len(), 4);
        for seed in 0..8 {
            assert_eq!(answer_of(Builtin::Floodfill, &position, seed), answer_of(Builtin::Floodfill, &position, seed));
        }
    }

    #[test]
    fn floodfill_avoids_a_head_on_when_the_room_is_equal() {
        let p = lightcycles_core::Pos::new;
        // Player 0 at (3, 3) facing N, player 1 two cells east at (5, 3):
        // (4, 3) touches player 1's head; N, W and S keep the same room.
        let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
        let starts = [Start { pos: p(3, 3), dir: Dir::N }, Start { pos: p(5, 3), dir: Dir::W }];
        let position = Position::start(&config, &lightcycles_core::Map::from_parts(8, 8, &[], &starts).unwrap());
        for seed in 0..32 {
            assert_ne!(answer_of(Builtin::Floodfill, &position, seed), Dir::E, "seed {seed}");
        }
    }

    #[test]
    fn every_fuzz_kind_is_what_it_claims() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..50 {
            for kind in FuzzKind::ALL {
                let reply = kind.reply(Dir::S, &mut rng);
                let answer = match &reply {
                    Reply::Line(bytes) => Answer::from_line(bytes),
                    Reply::Timeout => Answer::fault(FaultKind::Timeout),
                    Reply::NoMove => Answer::none(),
                    Reply::Crash => unreachable!("fuzz never crashes"),
                };
                let Reply::Line(bytes) = &reply else {
                    assert!(matches!(kind, FuzzKind::NoAnswer | FuzzKind::Declines), "{kind:?}");
                    continue;
                };
                match kind {
                    FuzzKind::PaddedMove => assert_eq!(answer.action(), Action::Move(Dir::S)),
                    _ => assert_eq!(answer.fault, Some(FaultKind::Invalid), "{kind:?} {reply:?}"),
                }
                match kind {
                    FuzzKind::Over64 => assert!((65..=1024).contains(&bytes.len()), "{}", bytes.len()),
                    FuzzKind::Over1024 => assert!(bytes.len() > 1024),
                    FuzzKind::NotUtf8 => assert!(std::str::from_utf8(bytes).is_err()),
                    FuzzKind::LowerCase => assert_eq!(bytes, b"s"),
                    _ => {}
                }
                if kind == FuzzKind::Over64 {
                    let line = answer.line.unwrap();
                    assert!(line.ends_with('…') && line.len() <= 60 + '…'.len_utf8(), "{line:?}");
                }
            }
        }
    }

    #[test]
    fn fuzz_is_seeded_and_mixes_moves_with_every_kind_of_fault() {
        let config = Config { width: 16, height: 16, rock_density: 0, ..Config::default() };
        let game = ReferenceGame::seeded(&config, 4).unwrap();
        let position = game.position();
        let turn = Turn::new(&position, 1);
        let run = |seed| {
            let mut bot = Builtin::Fuzz.make(&ctx(seed, 1));
            (0..300).map(|_| bot.answer(&turn, Duration::ZERO)).collect::<Vec<_>>()
        };
        let replies = run(11);
        assert_eq!(replies, run(11), "same seed and seat, same answers");
        assert_ne!(replies, run(12));
        let moves = replies.iter().filter(|r| matches!(r, Reply::Line(l) if parse_move(l).is_some())).count();
        assert!(moves > 150, "mostly moves: {moves}");
        assert!(replies.contains(&Reply::Timeout));
        assert!(replies.contains(&Reply::NoMove));
        let invalid = replies.iter().filter(|r| matches!(r, Reply::Line(l) if parse_move(l).is_none())).count();
        assert!(invalid > 30, "{invalid}");
    }
}
