//! Three players or more, `ffa=maxn`: a MaxN search.
//!
//! Every searched rider maximises its own component of a vector of values,
//! instead of all of them minimising ours (the paranoid assumption of
//! [`super::multi`]). The riders searched are the same as the paranoid
//! search's: us and the [`NEAR`](super::multi::NEAR) closest riders that share our room; the
//! others ride on by the fixed rule.
//!
//! The moves of one tick are simultaneous; the search takes them in turn,
//! us first, then each near rider choosing with the choices before it in
//! view, and once every searched rider has chosen the engine's own `step`
//! plays the tick, so head-on crashes end as the referee ends them.
//!
//! A rider's component is its chamber-bounded Voronoi space against the
//! largest space of any other rider (one multi-player Voronoi split values
//! every rider at once), a rider that rides alone wins, and one that has
//! crashed loses, later being better. The root is deepened tick by tick
//! within the budget, as the other searches are; there is no pruning (the
//! values do not sum to a constant, so MaxN's shallow pruning has no bound
//! to cut on).

use lightcycles_core::config::MAX_PLAYERS;
use lightcycles_core::space::{safe_moves, safe_moves_or_straight};
use lightcycles_core::{Action, Dir, Engine, FastGame};

use super::alphabeta::{deepen, Decision, RootSearch};
use super::budget::Budget;
use super::cells::CellGraph;
use super::eval::{Evaluator, Weights, WIN};
use super::multi::{nearest_rivals, rule_move, MAX_NEAR, NEAR};

/// Deepest search, in ticks.
pub const MAX_DEPTH: usize = 16;

/// A value for each player id.
type Values = [i32; MAX_PLAYERS];

/// The MaxN search of one player, with its memory.
pub struct MaxN {
    me: usize,
    /// How many opponents choose their moves (`near=N`).
    near_count: usize,
    eval: Evaluator,
    stack: Vec<FastGame>,
    /// The riders that choose their moves, us first.
    searched: Vec<usize>,
    spaces: Vec<u32>,
    /// The actions of the tick being chosen at each ply.
    actions: Vec<[Action; MAX_PLAYERS]>,
}

impl MaxN {
    /// The search of player `me`.
    pub fn new(me: usize) -> MaxN {
        MaxN::with_weights(me, Weights::DEFAULT)
    }

    /// [`MaxN::new`], valuing positions with `weights`.
    pub fn with_weights(me: usize, weights: Weights) -> MaxN {
        MaxN {
            me,
            near_count: NEAR,
            eval: Evaluator::with_weights(weights),
            stack: Vec::new(),
            searched: Vec::new(),
            spaces: Vec::new(),
            actions: Vec::new(),
        }
    }

    /// Searches the `n` nearest opponents move by move (1 to [`MAX_NEAR`]).
    pub fn with_near(mut self, n: usize) -> MaxN {
        self.near_count = n.clamp(1, MAX_NEAR);
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
            self.actions = vec![[Action::Keep; MAX_PLAYERS]; MAX_DEPTH + 2];
        }
        self.stack[0].copy_from(root);
        self.spaces.resize(root.num_players(), 0);
        self.pick_searched(root);
        Some(deepen(self, graph, moves, MAX_DEPTH, budget))
    }

    /// Us, then the closest living riders (by distance between heads) whose
    /// room meets ours.
    fn pick_searched(&mut self, root: &FastGame) {
        self.searched.clear();
        self.searched.push(self.me);
        self.searched.extend(nearest_rivals(&mut self.eval, root, self.me, self.near_count));
    }

    /// A tick at ply `ply`: sets every unsearched rider's rule move, then
    /// lets the searched riders choose from `first` on.
    fn tick(&mut self, graph: &CellGraph, ply: usize, depth: u32, budget: &mut Budget) -> Values {
        let game = &self.stack[ply];
        let mut base = [Action::Keep; MAX_PLAYERS];
        for (p, a) in base.iter_mut().enumerate().take(game.num_players()) {
            if game.is_alive(p) {
                *a = Action::Move(rule_move(game, p));
            }
        }
        self.actions[ply] = base;
        self.choose_at(graph, ply, depth, 0, budget)
    }

    /// The searched rider `self.searched[turn]` chooses its move at ply
    /// `ply`, the riders before it having chosen theirs; after the last,
    /// the tick is played.
    fn choose_at(&mut self, graph: &CellGraph, ply: usize, depth: u32, turn: usize, budget: &mut Budget) -> Values {
        if turn == self.searched.len() {
            return self.play(graph, ply, depth, budget);
        }
        let p = self.searched[turn];
        let game = &self.stack[ply];
        if !game.is_alive(p) {
            return self.choose_at(graph, ply, depth, turn + 1, budget);
        }
        let mut best: Option<Values> = None;
        for d in safe_moves_or_straight(game, p).iter() {
            self.actions[ply][p] = Action::Move(d);
            let v = self.choose_at(graph, ply, depth, turn + 1, budget);
            if budget.stopped() {
                return [0; MAX_PLAYERS];
            }
            if best.map_or(true, |b| v[p] > b[p]) {
                best = Some(v);
            }
        }
        best.unwrap_or([0; MAX_PLAYERS])
    }

    /// Plays the chosen tick at ply `ply` and values the position after it.
    fn play(&mut self, graph: &CellGraph, ply: usize, depth: u32, budget: &mut Budget) -> Values {
        if budget.spend() {
            return [0; MAX_PLAYERS];
        }
        let n = self.stack[ply].num_players();
        let actions = self.actions[ply];
        let (done, below) = self.stack.split_at_mut(ply + 1);
        let child = &mut below[0];
        child.copy_from(&done[ply]);
        child.step(&actions[..n]).expect("a game in the tree is not over");
        let end = child.is_over() || !child.is_alive(self.me);
        if end || depth <= 1 {
            return self.leaf(graph, ply + 1);
        }
        let mut v = self.tick(graph, ply + 1, depth - 1, budget);
        // A rider that crashed on this tick keeps the tick of its crash.
        let (before, after) = (&self.stack[ply], &self.stack[ply + 1]);
        for (p, value) in v.iter_mut().enumerate().take(n) {
            if before.is_alive(p) && !after.is_alive(p) {
                *value = -WIN + ply as i32 + 1;
            }
        }
        v
    }

    /// The values of the position at ply `ply`: for a rider alone, a win;
    /// for a crashed one, a loss (later is better); otherwise its space
    /// against the largest other.
    fn leaf(&mut self, graph: &CellGraph, ply: usize) -> Values {
        let game = &self.stack[ply];
        let n = game.num_players();
        let mut values = [-WIN; MAX_PLAYERS];
        let alive = game.alive_mask();
        let tick = ply as i32;
        if alive == 0 {
            // Everyone left crashed on this tick: a draw between them.
            return [0; MAX_PLAYERS];
        }
        if alive.count_ones() == 1 {
            for (p, v) in values.iter_mut().enumerate().take(n) {
                *v = if game.is_alive(p) { WIN - tick } else { -WIN + tick };
            }
            return values;
        }
        self.eval.spaces(graph, game, &mut self.spaces);
        for (p, v) in values.iter_mut().enumerate().take(n) {
            *v = if !game.is_alive(p) {
                -WIN + tick
            } else {
                let rival = (0..n).filter(|&q| q != p).map(|q| self.spaces[q]).max().unwrap_or(0);
                self.eval.value(false, self.spaces[p], rival)
            };
        }
        values
    }
}

impl RootSearch for MaxN {
    fn root_move(&mut self, graph: &CellGraph, mine: Dir, depth: u32, _alpha: i32, budget: &mut Budget) -> i32 {
        let game = &self.stack[0];
        let mut base = [Action::Keep; MAX_PLAYERS];
        for (p, a) in base.iter_mut().enumerate().take(game.num_players()) {
            if game.is_alive(p) {
                *a = Action::Move(rule_move(game, p));
            }
        }
        base[self.me] = Action::Move(mine);
        self.actions[0] = base;
        self.choose_at(graph, 0, depth, 1, budget)[self.me]
    }
}
