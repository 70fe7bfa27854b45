//! Three players or more: a paranoid search around the cycle.
//!
//! The tree of every joint move of eight players is far too wide, and most
//! riders are too far away to matter within a few ticks. So the players
//! that can still reach us are split in two:
//!
//! - the **near** ones (the [`NEAR`] closest that share our room, or
//!   `near=N` of them) are searched move by move and answer each of our
//!   moves with their worst joint reply for us (as one coalition when
//!   there are several) — the paranoid assumption, which never counts on
//!   an opponent's mistake;
//! - the others ride on by a fixed rule (straight on when that is safe,
//!   otherwise the first safe turn), enough to keep them in the picture
//!   without branching on them; at the leaves they also set out from each
//!   cell of that guess, `ffa_ahead=PCT` % of the ticks since ahead (60
//!   by default), so that a guess does not hand us the cells they could
//!   have taken by turning.
//!
//! Positions are valued by our chamber-bounded Voronoi space, the edges
//! of the chambers our walk takes (`ffa_edge=N`) and, in the opening, the
//! walls beside them (`ffa_wall=N`, a cost), less a share of the same
//! value of the nearest searched rider (`ffa_rival=PCT`, half by default:
//! the rider who can shut us out of our room); with `value=lead`, our
//! space less the largest space of any other rider, no edges or walls.
//! The end of our own ride is a loss counted in ticks (later is
//! better), being the last rider a win. Moves are applied together with
//! the engine's `step`, as in the game.

use lightcycles_core::space::lean::Start;
use lightcycles_core::space::{safe_moves, safe_moves_or_straight};
use lightcycles_core::{Action, Dir, Engine, FastGame, Pos};

use super::alphabeta::{deepen, Decision, RootSearch};
use super::budget::Budget;
use super::cells::CellGraph;
use super::eval::{game_end, Evaluator, Weights, WIN};

/// Which search plays for three riders or more: the `ffa=` option of
/// `builtin:search`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ffa {
    /// [`Paranoid`]: the nearest riders answer as a coalition against us.
    #[default]
    Paranoid,
    /// [`super::maxn::MaxN`]: every searched rider maximises its own space.
    MaxN,
    /// [`super::mcts::Mcts`]: decoupled UCT with short playouts.
    Mcts,
}

impl Ffa {
    /// Every search, in the order of the option's help.
    pub const ALL: [Ffa; 3] = [Ffa::Paranoid, Ffa::MaxN, Ffa::Mcts];

    /// The option's value: `paranoid`, `maxn` or `mcts`.
    pub const fn name(self) -> &'static str {
        match self {
            Ffa::Paranoid => "paranoid",
            Ffa::MaxN => "maxn",
            Ffa::Mcts => "mcts",
        }
    }

    /// The search called `name`.
    pub fn from_name(name: &str) -> Option<Ffa> {
        Ffa::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What the paranoid search values at its leaves: the `value=` option of
/// `builtin:search` (three riders or more).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FfaValue {
    /// Our chamber-bounded space less the largest of any other rider's:
    /// the last rider wins, so a rival's room counts against ours.
    Lead,
    /// Our chamber-bounded space, less `ffa_rival` % of the nearest
    /// searched rider's (half by default; alone with `ffa_rival=0`): grow
    /// our own room and leave the others farther off to each other. The
    /// default: with `near=1` it won 30.4 % of
    /// 480 free-for-alls against three copies of the bot of commit
    /// 19e900b, where `lead` against the two nearest won 19.8 %
    /// (docs/search-bot.md).
    #[default]
    Own,
}

impl FfaValue {
    /// Every valuation, in the order of the option's help.
    pub const ALL: [FfaValue; 2] = [FfaValue::Own, FfaValue::Lead];

    /// The option's value: `own` or `lead`.
    pub const fn name(self) -> &'static str {
        match self {
            FfaValue::Lead => "lead",
            FfaValue::Own => "own",
        }
    }

    /// The valuation called `name`.
    pub fn from_name(name: &str) -> Option<FfaValue> {
        FfaValue::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// How many opponents are searched move by move unless `near=N` says
/// otherwise: the nearest alone searches deepest, and with
/// [`FfaValue::Own`] won the most free-for-alls.
pub const NEAR: usize = 1;
/// The most opponents `near=N` may search move by move (their joint
/// replies grow as 3^N).
pub const MAX_NEAR: usize = 3;
/// Deepest search, in ticks.
pub const MAX_DEPTH: usize = 32;

/// The paranoid search of one player, with its memory.
pub struct Paranoid {
    me: usize,
    /// How many opponents are searched move by move (`near=N`).
    near_count: usize,
    /// What the leaves are worth (`value=`).
    value: FfaValue,
    eval: Evaluator,
    stack: Vec<FastGame>,
    near: Vec<usize>,
    spaces: Vec<u32>,
    /// The leaf's starts of the riders not searched ([`starts_behind`]).
    starts: Vec<Start>,
}

impl Paranoid {
    /// The search of player `me`.
    pub fn new(me: usize) -> Paranoid {
        Paranoid::with_weights(me, Weights::DEFAULT)
    }

    /// [`Paranoid::new`], valuing positions with `weights`.
    pub fn with_weights(me: usize, weights: Weights) -> Paranoid {
        Paranoid {
            me,
            near_count: NEAR,
            value: FfaValue::default(),
            eval: Evaluator::with_weights(weights),
            stack: Vec::new(),
            near: Vec::new(),
            spaces: Vec::new(),
            starts: Vec::new(),
        }
    }

    /// Searches the `n` nearest opponents move by move (1 to [`MAX_NEAR`]).
    pub fn with_near(mut self, n: usize) -> Paranoid {
        self.near_count = n.clamp(1, MAX_NEAR);
        self
    }

    /// Values the leaves by `value`.
    pub fn with_value(mut self, value: FfaValue) -> Paranoid {
        self.value = value;
        self
    }

    /// The best move at `root` within `budget`; `None` when every move
    /// crashes into a solid cell.
    pub fn choose(&mut self, graph: &CellGraph, root: &FastGame, budget: &mut Budget) -> Option<Decision> {
        let moves: Vec<Dir> = safe_moves(root, self.me).iter().collect();
        match moves.len() {
            0 => return None,
            1 => return Some(Decision { dir: moves[0], value: 0, depth: 0, forced: true }),
            _ => {}
        }
        if self.stack.is_empty() {
            self.stack = (0..MAX_DEPTH + 2).map(|_| root.clone()).collect();
        }
        self.stack[0].copy_from(root);
        self.spaces.resize(root.num_players(), 0);
        self.pick_near(root);
        Some(deepen(self, graph, moves, MAX_DEPTH, budget))
    }

    /// The opponents searched move by move: the closest living ones (by
    /// distance between heads) whose room meets ours.
    fn pick_near(&mut self, root: &FastGame) {
        self.near = nearest_rivals(&mut self.eval, root, self.me, self.near_count).collect();
    }

    /// Our move `mine` at ply `ply` against the coalition's worst reply.
    #[allow(clippy::too_many_arguments)]
    fn reply(
        &mut self,
        graph: &CellGraph,
        ply: usize,
        depth: u32,
        mine: Dir,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        let game = &self.stack[ply];
        let mut base = [Action::Keep; 8];
        for (p, a) in base.iter_mut().enumerate().take(game.num_players()) {
            *a = if p == self.me { Action::Move(mine) } else { Action::Move(rule_move(game, p)) };
        }
        // Each near rider's moves, and the number of joint replies.
        let mut options = [([Dir::N; 4], 0usize); MAX_NEAR];
        for (slot, &p) in options.iter_mut().zip(&self.near) {
            for d in safe_moves_or_straight(game, p).iter() {
                slot.0[slot.1] = d;
                slot.1 += 1;
            }
        }
        let joint: usize = options[..self.near.len()].iter().map(|o| o.1).product();
        let mut best = WIN + 1;
        let mut beta = beta;
        for k in 0..joint {
            if budget.spend() {
                return 0;
            }
            let mut actions = base;
            let mut rest = k;
            for (&(dirs, n), &p) in options.iter().zip(&self.near) {
                actions[p] = Action::Move(dirs[rest % n]);
                rest /= n;
            }
            let n = self.stack[ply].num_players();
            let (done, below) = self.stack.split_at_mut(ply + 1);
            let child = &mut below[0];
            child.copy_from(&done[ply]);
            child.step(&actions[..n]).expect("a game in the tree is not over");
            let v = if child.is_over() || !child.is_alive(self.me) {
                game_end(child, self.me, ply as u32 + 1, self.eval.weights().contempt)
            } else if depth <= 1 {
                self.leaf(graph, ply + 1)
            } else {
                self.choice(graph, ply + 1, depth - 1, alpha, beta, budget)
            };
            if budget.stopped() {
                return 0;
            }
            best = best.min(v);
            if best <= alpha {
                return best;
            }
            beta = beta.min(best);
        }
        best
    }

    /// Our best move at ply `ply`.
    fn choice(&mut self, graph: &CellGraph, ply: usize, depth: u32, alpha: i32, beta: i32, budget: &mut Budget) -> i32 {
        let mut best = -WIN - 1;
        let mut alpha = alpha;
        for m in safe_moves_or_straight(&self.stack[ply], self.me).iter() {
            let v = self.reply(graph, ply, depth, m, alpha, beta, budget);
            if budget.stopped() {
                return 0;
            }
            best = best.max(v);
            if best >= beta {
                break;
            }
            alpha = alpha.max(best);
        }
        best
    }

    fn leaf(&mut self, graph: &CellGraph, ply: usize) -> i32 {
        let game = &self.stack[ply];
        match self.value {
            FfaValue::Lead => {
                self.eval.spaces(graph, game, &mut self.spaces);
                let rival = (0..game.num_players()).filter(|&p| p != self.me).map(|p| self.spaces[p]).max();
                self.eval.value(false, self.spaces[self.me], rival.unwrap_or(0))
            }
            // Our own walk, less a share of the nearest rivals' (ffa_rival),
            // the riders not searched setting out from their path too.
            FfaValue::Own => {
                let pct = self.eval.weights().ffa_ahead;
                starts_behind(&self.stack[..=ply], self.me, &self.near, pct, &mut self.starts);
                self.eval.own_against(graph, game, self.me, &self.near, &self.starts)
            }
        }
    }
}

impl RootSearch for Paranoid {
    fn root_move(&mut self, graph: &CellGraph, mine: Dir, depth: u32, alpha: i32, budget: &mut Budget) -> i32 {
        self.reply(graph, 0, depth, mine, alpha, WIN + 1, budget)
    }
}

/// The move of a rider that is not searched: straight on when safe,
/// otherwise the first safe direction, otherwise straight on.
pub(super) fn rule_move(game: &FastGame, id: usize) -> Dir {
    let dir = game.dir(id);
    let safe = safe_moves(game, id);
    if safe.contains(dir) {
        return dir;
    }
    safe.iter().next().unwrap_or(dir)
}

/// Into `starts`, the cells the riders not searched rode through on the
/// way to the last game of `path` (a line of the tree from the root, a
/// tick a game), each `pct` % of the ticks since ahead: for each rider
/// still riding that is neither `me` nor in `near`, its head in every
/// earlier game (starts 0 ticks ahead left out; none at `pct` 0).
pub(super) fn starts_behind(path: &[FastGame], me: usize, near: &[usize], pct: i32, starts: &mut Vec<Start>) {
    starts.clear();
    let Some((leaf, before)) = path.split_last() else {
        return;
    };
    if pct <= 0 {
        return;
    }
    let unsearched = (0..leaf.num_players()).filter(|&p| p != me && leaf.is_alive(p) && !near.contains(&p));
    for id in unsearched {
        for (k, game) in before.iter().enumerate() {
            let ahead = ((before.len() - k) as i64 * pct as i64 / 100) as u32;
            if ahead > 0 {
                starts.push(Start { id, pos: game.head(id), ahead });
            }
        }
    }
}

/// The `n` closest living riders to `me` (by distance between heads)
/// whose room meets `me`'s: the riders a 3+-rider search plays move by
/// move.
pub(super) fn nearest_rivals(
    eval: &mut Evaluator,
    root: &FastGame,
    me: usize,
    n: usize,
) -> impl Iterator<Item = usize> {
    let head = root.head(me);
    let mut near: Vec<(u32, usize)> = (0..root.num_players())
        .filter(|&p| p != me && root.is_alive(p))
        .filter(|&p| eval.can_meet(root, me, p))
        .map(|p| (manhattan(head, root.head(p)), p))
        .collect();
    near.sort_unstable();
    near.into_iter().take(n).map(|(_, p)| p)
}

pub(super) fn manhattan(a: Pos, b: Pos) -> u32 {
    a.x.abs_diff(b.x) as u32 + a.y.abs_diff(b.y) as u32
}
