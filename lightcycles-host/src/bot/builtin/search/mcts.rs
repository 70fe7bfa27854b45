//! Three players or more, `ffa=mcts`: Monte Carlo tree search with
//! decoupled UCT.
//!
//! The moves of a tick are simultaneous, so the tree does not take them in
//! turn: at each node every living rider keeps its own statistics, one per
//! move, and picks its move by its own UCB1 value; the joint move is played
//! with the engine's own `step` (head-on crashes end as the referee ends
//! them) and leads to the child of that joint move, made on the first
//! visit. From a new node a playout rides every rider on for at most
//! [`PLAYOUT_TICKS`] ticks with a cheap policy (a random move that does not
//! crash at once, weighted towards cells with more free neighbours), then a
//! multi-player Voronoi split, measured by chamber bounds, values every
//! rider still riding. Each rider's reward is its own: a rider alone wins
//! (1), one that crashed scores by how many crashed before it (at most
//! [`CRASHED`]), one still riding scores between [`RIDING`] and 0.95 by its
//! space against the largest other's.
//!
//! The answer is our root move visited most. One iteration costs one node
//! of the budget; with a node budget the playouts' randomness comes from a
//! seed the bot draws from the game's seed and its seat, so the answer is
//! the same on every run.

use lightcycles_core::config::MAX_PLAYERS;
use lightcycles_core::space::{safe_moves, safe_moves_or_straight};
use lightcycles_core::{Action, Dir, Engine, FastGame, SplitMix64};

use super::alphabeta::Decision;
use super::budget::Budget;
use super::cells::CellGraph;
use super::eval::{Evaluator, Weights};

/// The longest playout, in ticks.
pub const PLAYOUT_TICKS: u32 = 8;
/// UCB1's exploration constant (rewards are in 0..=1).
pub const EXPLORATION: f32 = 0.5;
/// The most a rider that crashed can score (when every other crashed
/// before it).
pub const CRASHED: f32 = 0.3;
/// The least a rider still riding scores.
pub const RIDING: f32 = 0.35;
/// Cells of space lead that move a riding rider's reward most of the way
/// towards its top.
pub const SPACE_SCALE: f32 = 12.0;

/// One move's statistics at a node, for one rider.
#[derive(Clone, Copy, Debug, Default)]
struct Stat {
    visits: u32,
    reward: f32,
}

/// A position in the tree.
#[derive(Clone, Debug, Default)]
struct Node {
    visits: u32,
    stats: [[Stat; 4]; MAX_PLAYERS],
    /// The children made so far: joint move (two bits per rider) and index.
    children: Vec<(u32, u32)>,
}

/// The MCTS of one player, with its memory.
pub struct Mcts {
    me: usize,
    eval: Evaluator,
    nodes: Vec<Node>,
    game: Option<FastGame>,
    spaces: Vec<u32>,
    /// The nodes of one iteration's descent, each with the joint move
    /// played from it and the riders then alive.
    path: Vec<(u32, u32, u8)>,
}

impl Mcts {
    /// The search of player `me`.
    pub fn new(me: usize) -> Mcts {
        Mcts::with_weights(me, Weights::DEFAULT)
    }

    /// [`Mcts::new`], measuring space with `weights`' evaluator.
    pub fn with_weights(me: usize, weights: Weights) -> Mcts {
        Mcts {
            me,
            eval: Evaluator::with_weights(weights),
            nodes: Vec::new(),
            game: None,
            spaces: Vec::new(),
            path: Vec::new(),
        }
    }

    /// The best move at `root` within `budget`, the playouts drawn from
    /// `seed`; `None` when every move crashes into a solid cell.
    pub fn choose(&mut self, graph: &CellGraph, root: &FastGame, seed: u64, budget: &mut Budget) -> Option<Decision> {
        let moves = safe_moves(root, self.me);
        let first = moves.iter().next()?;
        if moves.len() == 1 {
            return Some(Decision { dir: first, value: 0, depth: 0, forced: true });
        }
        let mut rng = SplitMix64::new(seed);
        self.nodes.clear();
        self.nodes.push(Node::default());
        self.spaces.resize(root.num_players(), 0);
        let mut deepest = 0;
        while !budget.spend() {
            deepest = deepest.max(self.iterate(graph, root, &mut rng));
        }
        // The root move visited most (ties: the better mean, then the first).
        let stats = &self.nodes[0].stats[self.me];
        let best = moves
            .iter()
            .max_by(|&a, &b| {
                let (sa, sb) = (stats[a as usize], stats[b as usize]);
                sa.visits.cmp(&sb.visits).then(mean(sa).total_cmp(&mean(sb))).then((b as u8).cmp(&(a as u8)))
            })
            .unwrap_or(first);
        let value = (mean(stats[best as usize]) * 1000.0) as i32;
        Some(Decision { dir: best, value, depth: deepest, forced: false })
    }

    /// One iteration: descend, expand, play out, back up. Returns the depth
    /// of the node reached.
    fn iterate(&mut self, graph: &CellGraph, root: &FastGame, rng: &mut SplitMix64) -> u32 {
        let game = self.game.get_or_insert_with(|| root.clone());
        game.copy_from(root);
        let n = root.num_players();
        let start = root.alive_mask();
        // The tick on which each rider crashed (u32::MAX: still riding).
        let mut crashed = [u32::MAX; MAX_PLAYERS];
        let mut tick = 0;
        self.path.clear();
        let mut node = 0u32;
        // Descent through the tree, one tick per node, until a new node.
        while !game.is_over() && game.is_alive(self.me) {
            let alive = game.alive_mask();
            let mut actions = [Action::Keep; MAX_PLAYERS];
            let mut joint = 0u32;
            let here = &self.nodes[node as usize];
            for p in (0..n).filter(|&p| game.is_alive(p)) {
                let d = ucb(here, p, safe_moves_or_straight(game, p));
                actions[p] = Action::Move(d);
                joint |= (d as u32) << (2 * p);
            }
            self.path.push((node, joint, alive));
            game.step(&actions[..n]).expect("a game in the tree is not over");
            tick += 1;
            note_crashes(game, alive, tick, &mut crashed);
            let found = self.nodes[node as usize].children.iter().find(|c| c.0 == joint).map(|c| c.1);
            match found {
                Some(child) => node = child,
                None => {
                    let child = self.nodes.len() as u32;
                    self.nodes.push(Node::default());
                    self.nodes[node as usize].children.push((joint, child));
                    break;
                }
            }
        }
        let depth = tick;
        // The playout.
        for _ in 0..PLAYOUT_TICKS {
            if game.is_over() || !game.is_alive(self.me) {
                break;
            }
            let alive = game.alive_mask();
            let mut actions = [Action::Keep; MAX_PLAYERS];
            for p in (0..n).filter(|&p| game.is_alive(p)) {
                actions[p] = Action::Move(playout_move(game, p, rng));
            }
            game.step(&actions[..n]).expect("a game in the playout is not over");
            tick += 1;
            note_crashes(game, alive, tick, &mut crashed);
        }
        // Rewards, by rider.
        let mut reward = [0f32; MAX_PLAYERS];
        let riding = game.alive_mask();
        let riders = start.count_ones().max(2) as f32;
        if riding.count_ones() >= 2 {
            self.eval.spaces(graph, game, &mut self.spaces);
        }
        for (p, r) in reward.iter_mut().enumerate().take(n) {
            if start & (1 << p) == 0 {
                continue;
            }
            *r = if crashed[p] != u32::MAX {
                let before = (0..n).filter(|&q| start & (1 << q) != 0 && crashed[q] < crashed[p]).count();
                CRASHED * before as f32 / (riders - 1.0)
            } else if riding.count_ones() == 1 {
                1.0
            } else {
                let rival = (0..n).filter(|&q| q != p).map(|q| self.spaces[q]).max().unwrap_or(0);
                let lead = self.spaces[p] as f32 - rival as f32;
                RIDING + (0.95 - RIDING) / (1.0 + (-lead / SPACE_SCALE).exp())
            };
        }
        // Back up.
        for &(node, joint, alive) in &self.path {
            let node = &mut self.nodes[node as usize];
            node.visits += 1;
            for p in (0..n).filter(|&p| alive & (1 << p) != 0) {
                let stat = &mut node.stats[p][((joint >> (2 * p)) & 3) as usize];
                stat.visits += 1;
                stat.reward += reward[p];
            }
        }
        depth
    }
}

/// The mean reward of a move's statistics (0 when never tried).
fn mean(s: Stat) -> f32 {
    if s.visits == 0 {
        0.0
    } else {
        s.reward / s.visits as f32
    }
}

/// Rider `p`'s move at `node` among `moves` by UCB1: the first move not
/// yet tried, otherwise the best mean plus exploration.
fn ucb(node: &Node, p: usize, moves: lightcycles_core::DirSet) -> Dir {
    let stats = &node.stats[p];
    let log = (node.visits.max(1) as f32).ln();
    let mut best = (f32::NEG_INFINITY, Dir::N);
    for d in moves.iter() {
        let s = stats[d as usize];
        if s.visits == 0 {
            return d;
        }
        let v = mean(s) + EXPLORATION * (log / s.visits as f32).sqrt();
        if v > best.0 {
            best = (v, d);
        }
    }
    best.1
}

/// Records the riders alive before a tick (`alive`) that crashed on it.
fn note_crashes(game: &FastGame, alive: u8, tick: u32, crashed: &mut [u32; MAX_PLAYERS]) {
    for (p, c) in crashed.iter_mut().enumerate().take(game.num_players()) {
        if alive & (1 << p) != 0 && !game.is_alive(p) {
            *c = tick;
        }
    }
}

/// A playout move of rider `p`: a move that does not crash at once, drawn
/// with weight the square of the free neighbours of the cell it enters (a
/// dead end weighs nothing while another move exists); straight on when
/// every move crashes.
fn playout_move(game: &FastGame, p: usize, rng: &mut SplitMix64) -> Dir {
    let safe = safe_moves(game, p);
    let layout = game.layout();
    let (w, h) = (layout.width(), layout.height());
    let head = game.head(p);
    let mut weights = [0u64; 4];
    let mut dirs = [Dir::N; 4];
    let mut k = 0;
    let mut total = 0;
    for d in safe.iter() {
        let Some(cell) = head.step(d, w, h) else { continue };
        let free =
            Dir::ALL.into_iter().filter_map(|e| cell.step(e, w, h)).filter(|&c| c != head && !game.is_solid(c)).count()
                as u64;
        dirs[k] = d;
        weights[k] = free * free;
        total += free * free;
        k += 1;
    }
    match k {
        0 => game.dir(p),
        1 => dirs[0],
        _ if total == 0 => dirs[rng.below(k as u64) as usize],
        _ => {
            let mut x = rng.below(total);
            for i in 0..k {
                if x < weights[i] {
                    return dirs[i];
                }
                x -= weights[i];
            }
            dirs[k - 1]
        }
    }
}
