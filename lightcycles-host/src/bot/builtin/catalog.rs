//! The built-in bots by name: [`Builtin`], what `builtin:NAME` may name,
//! and the bot each name makes for a game and seat.

use lightcycles_core::space::Scratch;
use lightcycles_core::SplitMix64;

use crate::bot::builtin::floodfill::FloodfillBot;
use crate::bot::builtin::fuzz::FuzzBot;
use crate::bot::builtin::random::RandomBot;
use crate::bot::builtin::search::{SearchBot, SearchOptions};
use crate::bot::builtin::straight::StraightBot;
use crate::bot::builtin::wallhug::WallhugBot;
use crate::bot::seed::bot_seed;
use crate::bot::{Bot, BotContext, BotError, BotFactory};

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
        Builtin::Search(SearchOptions::DEFAULT),
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
                "alpha-beta on a chamber-aware Voronoi split, endgame filler; uses the tick's time less \
                 a margin (search:ms=MS: at most MS a tick, within the limit less the margin; search:first_ms=MS: at most MS for the first answer, as ms= by default; search:margin=MS: the margin, half the limit by \
                 default; search:deepen=PCT: start a deeper iteration only when PCT % of it fits, 0 by default: \
                 think the whole time; search:extend=N: ticks the duel searches past its horizon while the heads are \
                 close, 0 to 8, 2 by default; search:extend_within=D: heads at most D moves apart are close, 1 to 16, 3 by default; \
                 search:pvs=0|1, history=0|1: the duel's null-window search and history move ordering, on (1) by default; \
                 search:headon=PCT: how often the duel takes the other to find a head-on with our move when it has another safe one, 100 by default; \
                 search:nodes=N: N nodes per answer, deterministic; search:stats: slowest answer on stderr; \
                 search:trace: a line per answer on stderr (its search, depth, value, every rider's space); \
                 search:cell=N, separated_cell=N, separated_bonus=N, edge=N, chamber_edge=N, secure=N: the evaluation's weights, 16, 24, 480, 0, 4, 0; \
                 search:secure_by=K: the margin in moves past which a cell is secure, 4; \
                 search:front=1: a1k0n's battlefront rule in the duel's chamber walk, off (0) by default; \
                 search:ffa_edge=N: the weight of an edge of our walked chambers when 3+ riders' search values our own space, 8; \
                 search:contempt=N: what a draw costs, a drawn game worth -N where an even position is 0, 0; \
                 search:wall=N: what each wall beside a rider's walked chambers costs in the duel's opening, 24 (0 turns it off); \
                 search:ffa_wall=N: the same beside our walked chambers in the opening when 3+ riders' search values our own space, 16; \
                 search:opening=PCT: the opening lasts while PCT % of the cells are free, 75; \
                 search:ffa_rival=PCT: the share of the nearest rival's own value taken from ours when 3+ riders' search values our own space, 50 (0 turns it off); \
                 search:ffa_ahead=PCT: how far ahead, in % of the ticks searched since, the riders 3+ riders' search does not play set out from each cell of their guessed path, 60 (0 turns it off); \
                 search:ffa=paranoid|maxn|mcts: the search for 3+ riders, paranoid by default; \
                 search:near=N: the riders it searches move by move, 1 to 3, 1 by default; \
                 search:value=own|lead: what 3+ riders' paranoid search values, our space alone (the default) \
                 or less the largest rival's)"
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

    /// The builtin of a target [`BuiltinAdapter`] claimed.
    pub fn of_target(target: &str) -> Builtin {
        Builtin::parse(target).ok().flatten().expect("a claimed builtin target parses")
    }
}

impl BotFactory for Builtin {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        Ok(self.make(ctx))
    }
}
