//! Two players who can still meet: alpha-beta over simultaneous moves.
//! (In a game of more players, once only two are left riding.)
//!
//! A tick is modelled as the searching player committing to a move first
//! and the other answering with the commitment in view (a max node over our
//! moves, each followed by a min node over theirs). That is pessimistic —
//! the other side never really sees our move — which is what a bot that
//! must not lose wants. Both moves are then applied together by the
//! engine's own `step`, so a head-on into one cell, two cycles swapping
//! cells and a cycle following into a head that leaves all end exactly as
//! the referee ends them: the tree cannot disagree with the rules.
//! The sight gives the other most where the heads can meet: it can always
//! step into the cell we enter, and so take a draw whenever it likes;
//! `headon=PCT` has it find that cell only so often ([`HEADON`]).
//!
//! Iterative deepening, one tick deeper each time, until the budget says
//! stop; a transposition table (kept between ticks: the next tick's root is
//! a node of this tick's tree) gives each position the move that was best
//! last time, and the root orders its moves by the last iteration's values.
//! Replies that cut a branch off are tried first at the same depth
//! elsewhere (killer replies), and the moves nothing hints go in the order
//! of their history (what each move from that head cell has cut off or
//! raised before). A move after a node's first is searched with a null
//! window first, and again with the whole window only when it may be
//! better (principal variation search): the same values, fewer nodes.
//!
//! A position at the horizon whose heads are within `extend_within`
//! moves of each other ([`CLOSE`] by default) is searched a tick further
//! (up to `extend` ticks on one line): there the next ticks can bring a
//! head-on, a swap or a cut that the evaluation, a count of cells, cannot
//! see.

use lightcycles_core::space::{safe_moves, safe_moves_or_straight};
use lightcycles_core::{Action, Dir, DirSet, Engine, FastGame};

use super::budget::Budget;
use super::cells::CellGraph;
use super::eval::{game_end, Evaluator, Weights, MATE, WIN};
use super::multi::manhattan;
use super::table::{Bound, Table};
use super::zobrist::Zobrist;

/// Deepest search, in ticks.
pub const MAX_DEPTH: usize = 64;

/// How many ticks a line may be searched past the horizon by default
/// (`builtin:search:extend=N`): against the 2010 winner 2 scored 61.7 %
/// where 0 scored 55.0 % on the same 150 generated games
/// (docs/search-bot.md).
pub const EXTEND: u32 = 2;

/// The most ticks `extend=N` may add to a line.
pub const MAX_EXTEND: u32 = 8;

/// Heads this many moves apart or fewer (Manhattan distance) make a
/// position at the horizon worth a tick more, by default
/// (`builtin:search:extend_within=D`).
///
/// Both heads move a cell a tick, so the parity of the moves between
/// them never changes in a game: on a seeded two-player board it is the
/// parity of `W + H` (the starts are turned 180° about the centre). With
/// heads an even number apart, 3 extends what 2 does; with an odd
/// number (a map file, or `W + H` odd) 2 would extend only heads side by
/// side, where 3 also takes heads two ticks from a swap. On the 2010 map
/// `duel-small` (heads side by side at the start) 3 won 23 of 24 games
/// against a1k0n's bot over three pool runs, where 2 won 1 of 32
/// (docs/search-bot.md).
pub const CLOSE: u32 = 3;

/// The widest `extend_within=D`.
pub const MAX_CLOSE: u32 = 16;

/// Whether the duel orders moves no table entry or killer hints by their
/// history by default (`builtin:search:history=0|1`).
pub const HISTORY: bool = true;

/// Whether the duel searches with principal variation search by default
/// (`builtin:search:pvs=0|1`).
pub const PVS: bool = true;

/// How often, in percent, the other is taken to meet our move head-on
/// when it could and has another safe move (`builtin:search:headon=PCT`).
/// At 100, the default, it always does: the pessimistic model, in which it
/// sees our move. Below, a head-on it could only find by guessing our move
/// is valued as that chance of the draw and the rest of its best other
/// answer ([`blend`]).
pub const HEADON: u32 = 100;

/// What the search decided at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move.
    pub dir: Dir,
    /// Its value (from the searching player's side).
    pub value: i32,
    /// The deepest iteration completed, in ticks (0 when none was).
    pub depth: u32,
    /// Whether only one move did not crash at once: no search was needed.
    pub forced: bool,
}

/// The search of one player in a game of two, with its memory.
pub struct Duel {
    me: usize,
    other: usize,
    zobrist: Zobrist,
    table: Table,
    eval: Evaluator,
    /// `stack[k]`: the position `k` ticks below the root; `keys[k]` its key.
    stack: Vec<FastGame>,
    keys: Vec<u64>,
    /// A reply that cut a branch off, per ply.
    killers: Vec<Option<Dir>>,
    /// The most ticks a line is searched past the horizon.
    extend: u32,
    /// The ticks the line being searched has gone past it so far.
    extended: u32,
    /// Heads at most this many moves apart at the horizon extend a line.
    within: u32,
    /// Whether moves after a node's first are searched with a null window
    /// first (principal variation search).
    pvs: bool,
    /// Whether moves not hinted by the table or a killer are tried in the
    /// order of their history (`history[side][cell][dir]`: how much
    /// searching the move from that head cell has cut off or improved
    /// before; side 0 is us, 1 the other), rather than in code order.
    use_history: bool,
    history: [Vec<[u32; 4]>; 2],
    /// How often, in percent, the other meets our move head-on when it has
    /// another safe move ([`HEADON`]).
    headon: u32,
}

impl Duel {
    /// The search of player `me` against `other` on `graph`'s board, with a
    /// table of `2^table_bits` entries.
    pub fn new(graph: &CellGraph, players: usize, me: usize, other: usize, table_bits: u32) -> Duel {
        Duel::with_weights(graph, players, me, other, table_bits, Weights::DEFAULT)
    }

    /// [`Duel::new`], valuing positions with `weights`.
    pub fn with_weights(
        graph: &CellGraph,
        players: usize,
        me: usize,
        other: usize,
        table_bits: u32,
        weights: Weights,
    ) -> Duel {
        Duel {
            me,
            other,
            zobrist: Zobrist::new(graph, players),
            table: Table::new(table_bits, MATE),
            eval: Evaluator::with_weights(weights),
            stack: Vec::new(),
            keys: vec![0; MAX_DEPTH + 2],
            killers: vec![None; MAX_DEPTH + 2],
            extend: EXTEND,
            extended: 0,
            within: CLOSE,
            pvs: PVS,
            use_history: HISTORY,
            history: [vec![[0; 4]; graph.len()], vec![[0; 4]; graph.len()]],
            headon: HEADON,
        }
    }

    /// Searches a line at most `ticks` past the horizon while the heads
    /// are close (0: never; at most [`MAX_EXTEND`]).
    pub fn with_extend(mut self, ticks: u32) -> Duel {
        self.extend = ticks.min(MAX_EXTEND);
        self
    }

    /// Counts heads at most `moves` apart as close (at most [`MAX_CLOSE`]).
    pub fn with_extend_within(mut self, moves: u32) -> Duel {
        self.within = moves.min(MAX_CLOSE);
        self
    }

    /// Searches the moves after a node's first with a null window first
    /// (`true`), or each with the node's whole window.
    pub fn with_pvs(mut self, pvs: bool) -> Duel {
        self.pvs = pvs;
        self
    }

    /// Orders the moves no table entry or killer hints by their history
    /// (`true`), or in code order.
    pub fn with_history(mut self, on: bool) -> Duel {
        self.use_history = on;
        self
    }

    /// Takes the other to meet our move head-on `percent` % of the times it
    /// could and has another safe move (at most 100, the pessimistic model).
    pub fn with_headon(mut self, percent: u32) -> Duel {
        self.headon = percent.min(100);
        self
    }

    /// The moves of `side` (0 us, 1 the other) from the head at `ply`, in
    /// search order: `first` (when among them), then by history or code.
    fn order(
        &self,
        graph: &CellGraph,
        ply: usize,
        side: usize,
        moves: DirSet,
        first: Option<Dir>,
        out: &mut [Dir; 4],
    ) -> usize {
        let n = ordered(moves, first, out);
        if self.use_history {
            if let Some(h) = self.history[side].get(self.head_cell(graph, ply, side)) {
                let skip = usize::from(first.is_some_and(|f| moves.contains(f)));
                // Stable: ties keep code order.
                out[skip..n].sort_by_key(|d| core::cmp::Reverse(h[d.code() as usize]));
            }
        }
        n
    }

    /// The cell of `side`'s head (0 us, 1 the other) at `ply`: where its
    /// history is kept.
    fn head_cell(&self, graph: &CellGraph, ply: usize, side: usize) -> usize {
        let id = if side == 0 { self.me } else { self.other };
        graph.cell(self.stack[ply].head(id)) as usize
    }

    /// Credits `side`'s move `dir` from its head at `ply` with a search of
    /// `depth` ticks that cut off or raised the node's value.
    fn credit(&mut self, graph: &CellGraph, ply: usize, side: usize, dir: Dir, depth: u32) {
        if !self.use_history {
            return;
        }
        let cell = self.head_cell(graph, ply, side);
        if let Some(h) = self.history[side].get_mut(cell) {
            let slot = &mut h[dir.code() as usize];
            *slot = slot.saturating_add(depth * depth);
            if *slot > 1 << 30 {
                for row in self.history.iter_mut().flatten() {
                    for v in row.iter_mut() {
                        *v /= 2;
                    }
                }
            }
        }
    }

    /// The player searched against.
    pub fn other(&self) -> usize {
        self.other
    }

    /// The best move at `root` within `budget`; `None` when no move avoids
    /// a crash into a solid cell (any move is then as bad as another).
    pub fn choose(&mut self, graph: &CellGraph, root: &FastGame, budget: &mut Budget) -> Option<Decision> {
        let mine = safe_moves(root, self.me);
        let mut moves: Vec<Dir> = mine.iter().collect();
        match moves.len() {
            0 => return None,
            1 => return Some(Decision { dir: moves[0], value: 0, depth: 0, forced: true }),
            _ => {}
        }
        self.set_root(graph, root);
        if let Some(best) = self.table.probe(self.keys[0], 0).and_then(|e| e.best) {
            if let Some(i) = moves.iter().position(|&d| d == best) {
                moves[..=i].rotate_right(1);
            }
        }
        Some(deepen(self, graph, moves, MAX_DEPTH, budget))
    }

    /// Makes `root` the position at ply 0.
    fn set_root(&mut self, graph: &CellGraph, root: &FastGame) {
        if self.stack.is_empty() {
            self.stack = (0..MAX_DEPTH + 2).map(|_| root.clone()).collect();
        }
        self.stack[0].copy_from(root);
        self.keys[0] = self.zobrist.key(graph, root);
        self.killers.fill(None);
        // Last tick's history still orders well, but the tree has moved on.
        for v in self.history.iter_mut().flatten().flatten() {
            *v /= 2;
        }
    }

    /// The value of our move `mine` at ply `ply`: the other player's best
    /// answer to it (a min node). With `headon` below 100, an answer that
    /// meets `mine` head-on while the other has another safe one is not
    /// taken as surely found: the node is worth [`blend`] of the draw and
    /// the best of the other answers, searched within the window that
    /// blend maps onto `alpha..beta`; unless each of those loses to a
    /// proven win of ours, when the other meets us as its one hope.
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
        let replies = safe_moves_or_straight(&self.stack[ply], self.other);
        let mut order = [Dir::N; 4];
        let n = self.order(graph, ply, 1, replies, self.killers[ply], &mut order);
        let meeting = (self.headon < 100 && n > 1)
            .then(|| meets_head_on(&self.stack[ply], self.me, mine, self.other, &order[..n]))
            .flatten();
        let Some(i) = meeting else {
            return self.answers(graph, ply, depth, mine, &order[..n], alpha, beta, budget);
        };
        if budget.spend() {
            return 0;
        }
        let draw = self.answer(graph, ply, depth, mine, order[i], true, alpha, beta, budget);
        if budget.stopped() {
            return 0;
        }
        order.copy_within(i + 1..n, i);
        let miss = 100 - self.headon;
        // Searched up to a proven win at least, to tell one from less: the
        // window's top then proves it.
        let (low, high) = (unblend_low(draw, miss, alpha), unblend_high(draw, miss, beta).max(MATE));
        let rest = self.answers(graph, ply, depth, mine, &order[..n - 1], low, high, budget);
        if rest >= MATE && rest > low {
            // Every other answer loses: the other takes the head-on, found
            // or not, as its one hope.
            draw
        } else {
            blend(draw, miss, rest)
        }
    }

    /// The least value of the other's `replies` to our move `mine` at
    /// `ply`, searched within `alpha..beta` (a min node over them).
    #[allow(clippy::too_many_arguments)]
    fn answers(
        &mut self,
        graph: &CellGraph,
        ply: usize,
        depth: u32,
        mine: Dir,
        replies: &[Dir],
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        let mut best = WIN + 1;
        let mut beta = beta;
        for (i, &theirs) in replies.iter().enumerate() {
            if budget.spend() {
                return 0;
            }
            let v = self.answer(graph, ply, depth, mine, theirs, i == 0, alpha, beta, budget);
            if budget.stopped() {
                return 0;
            }
            if v < best {
                best = v;
            }
            if best <= alpha {
                self.killers[ply] = Some(theirs);
                self.credit(graph, ply, 1, theirs, depth);
                return best;
            }
            beta = beta.min(best);
        }
        best
    }

    /// The value of the tick at `ply` on which we play `mine` and the other
    /// `theirs`, searched `depth` ticks deep in all within `alpha..beta`
    /// (`first`: the min node's first answer, searched with the whole
    /// window).
    #[allow(clippy::too_many_arguments)]
    fn answer(
        &mut self,
        graph: &CellGraph,
        ply: usize,
        depth: u32,
        mine: Dir,
        theirs: Dir,
        first: bool,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        let mut actions = [Action::Keep; 8];
        actions[self.me] = Action::Move(mine);
        actions[self.other] = Action::Move(theirs);
        let (done, rest) = self.stack.split_at_mut(ply + 1);
        let child = &mut rest[0];
        child.copy_from(&done[ply]);
        let n = child.num_players();
        child.step(&actions[..n]).expect("a game in the tree is not over");
        self.keys[ply + 1] = self.zobrist.after_tick(graph, self.keys[ply], &done[ply], child);
        if child.is_over() {
            game_end(child, self.me, ply as u32 + 1, self.eval.weights().contempt)
        } else if depth > 1 {
            self.below(graph, ply, depth - 1, first, alpha, beta, budget)
        } else if self.extended < self.extend && ply + 2 < MAX_DEPTH && close(child, self.me, self.other, self.within) {
            self.extended += 1;
            let v = self.below(graph, ply, 1, first, alpha, beta, budget);
            self.extended -= 1;
            v
        } else {
            self.leaf(graph, ply + 1)
        }
    }

    /// The value of the position at ply `ply + 1` (just stepped to by a
    /// reply), searched `depth` ticks deep within `alpha..beta`; a reply
    /// after the node's `first` gets [`Duel::windowed`]'s null window at
    /// `beta`, the bound a min node moves.
    #[allow(clippy::too_many_arguments)]
    fn below(
        &mut self,
        graph: &CellGraph,
        ply: usize,
        depth: u32,
        first: bool,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
    ) -> i32 {
        self.windowed(first, false, alpha, beta, budget, |duel, a, b, budget| {
            duel.choice(graph, ply + 1, depth, a, b, budget)
        })
    }

    /// A move searched by `search` within `alpha..beta`, the one place of
    /// principal variation search: with the whole window when `whole` (a
    /// node's first move), when the search is off or when the window is
    /// already null; else with a null window at the bound the node moves
    /// (`alpha` in our max node when `at_alpha`, `beta` in the min node)
    /// first, and again with the whole window only when the value falls
    /// inside it, as the move may then change the node's value.
    fn windowed(
        &mut self,
        whole: bool,
        at_alpha: bool,
        alpha: i32,
        beta: i32,
        budget: &mut Budget,
        mut search: impl FnMut(&mut Duel, i32, i32, &mut Budget) -> i32,
    ) -> i32 {
        if whole || !self.pvs || beta <= alpha.saturating_add(1) {
            return search(self, alpha, beta, budget);
        }
        let (low, high) = if at_alpha { (alpha, alpha + 1) } else { (beta - 1, beta) };
        let v = search(self, low, high, budget);
        if v > alpha && v < beta && !budget.stopped() {
            search(self, alpha, beta, budget)
        } else {
            v
        }
    }

    /// The value of the position at ply `ply` with `depth` ticks to search:
    /// our best move (a max node).
    fn choice(&mut self, graph: &CellGraph, ply: usize, depth: u32, alpha: i32, beta: i32, budget: &mut Budget) -> i32 {
        let key = self.keys[ply];
        let mut hint = None;
        if let Some(e) = self.table.probe(key, ply as u32) {
            hint = e.best;
            if e.depth as u32 >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower if e.value >= beta => return e.value,
                    Bound::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
        }
        let mut order = [Dir::N; 4];
        let n = self.order(graph, ply, 0, safe_moves_or_straight(&self.stack[ply], self.me), hint, &mut order);
        let (mut best, mut best_dir, mut alpha_now) = (-WIN - 1, None, alpha);
        for (i, &m) in order[..n].iter().enumerate() {
            // After the first, a move that does not beat the best so far
            // is known as such by a null window at `alpha_now`.
            let v = self.windowed(i == 0, true, alpha_now, beta, budget, |duel, a, b, budget| {
                duel.reply(graph, ply, depth, m, a, b, budget)
            });
            if budget.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_dir = Some(m);
            }
            if best >= beta {
                break;
            }
            alpha_now = alpha_now.max(best);
        }
        if let Some(d) = best_dir.filter(|_| best > alpha) {
            self.credit(graph, ply, 0, d, depth);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.table.store(key, ply as u32, depth as u8, best, bound, best_dir);
        best
    }

    /// The evaluation of the position at ply `ply`, remembered in the table
    /// as a search of depth 0.
    fn leaf(&mut self, graph: &CellGraph, ply: usize) -> i32 {
        let key = self.keys[ply];
        if let Some(e) = self.table.probe(key, ply as u32) {
            if e.bound == Bound::Exact {
                return e.value;
            }
        }
        let v = self.eval.duel(graph, &self.stack[ply], self.me, self.other).value;
        self.table.store(key, ply as u32, 0, v, Bound::Exact, None);
        v
    }
}

impl RootSearch for Duel {
    fn root_move(&mut self, graph: &CellGraph, mine: Dir, depth: u32, alpha: i32, budget: &mut Budget) -> i32 {
        self.reply(graph, 0, depth, mine, alpha, WIN + 1, budget)
    }

    fn completed(&mut self, depth: u32, best: Dir, value: i32) {
        self.table.store(self.keys[0], 0, depth as u8, value, Bound::Exact, Some(best));
    }
}

/// The index in `replies` of the other's move into the cell our move
/// `mine` enters (a head-on), if any.
fn meets_head_on(game: &FastGame, me: usize, mine: Dir, other: usize, replies: &[Dir]) -> Option<usize> {
    let (w, h) = (game.config().width, game.config().height);
    let target = game.head(me).step(mine, w, h)?;
    replies.iter().position(|&d| game.head(other).step(d, w, h) == Some(target))
}

/// A min node's value when its head-on answer, worth `draw`, is found
/// only `100 - miss` % of the time and `rest` is the best of its other
/// answers: `rest` when the other would rather answer so, else the draw
/// and `miss` % of what `rest` adds to it. Never less than `rest` or the
/// draw, whichever is less; rising with `rest`.
fn blend(draw: i32, miss: u32, rest: i32) -> i32 {
    if rest <= draw {
        rest
    } else {
        draw + ((i64::from(rest) - i64::from(draw)) * i64::from(miss) / 100) as i32
    }
}

/// The largest `rest` whose [`blend`] is at most `alpha` (so a search of
/// the other answers that fails low there fails the node low at `alpha`):
/// one less than the least whose blend is above it, blend going in whole
/// steps.
fn unblend_low(draw: i32, miss: u32, alpha: i32) -> i32 {
    within_values(least_rest(draw, miss, i64::from(alpha) + 1) - 1)
}

/// The least `rest` whose [`blend`] is at least `beta`.
fn unblend_high(draw: i32, miss: u32, beta: i32) -> i32 {
    within_values(least_rest(draw, miss, i64::from(beta)))
}

/// The least `rest` whose [`blend`] is at least `bound`, past every value
/// when no rest above the draw raises the blend (`miss` 0).
fn least_rest(draw: i32, miss: u32, bound: i64) -> i64 {
    let draw = i64::from(draw);
    if bound <= draw {
        bound
    } else if miss == 0 {
        i64::from(WIN) + 2
    } else {
        let miss = i64::from(miss);
        draw + ((bound - draw) * 100 + miss - 1) / miss
    }
}

/// `rest` capped at one past every value a search returns.
fn within_values(rest: i64) -> i32 {
    rest.min(i64::from(WIN + 1)) as i32
}

/// Whether the heads of `a` and `b` are at most `within` moves apart.
fn close(game: &FastGame, a: usize, b: usize, within: u32) -> bool {
    manhattan(game.head(a), game.head(b)) <= within
}

/// Writes `moves` into `out`, `first` (when among them) before the others;
/// returns how many.
fn ordered(moves: DirSet, first: Option<Dir>, out: &mut [Dir; 4]) -> usize {
    let mut n = 0;
    if let Some(f) = first.filter(|&f| moves.contains(f)) {
        out[0] = f;
        n = 1;
    }
    for d in moves.iter() {
        if Some(d) != first {
            out[n] = d;
            n += 1;
        }
    }
    n
}

/// A search whose root [`deepen`] drives: each root move is valued by the
/// search's own tree, one iteration deeper each time.
pub(super) trait RootSearch {
    /// The value of our root move `mine`, searched `depth` ticks deep with
    /// `alpha` as the lower end of the window.
    fn root_move(&mut self, graph: &CellGraph, mine: Dir, depth: u32, alpha: i32, budget: &mut Budget) -> i32;

    /// Told when the iteration of `depth` searched every root move, with its
    /// best move and value.
    fn completed(&mut self, _depth: u32, _best: Dir, _value: i32) {}
}

/// Iterative deepening at the root, shared by the duel and the paranoid
/// search: one tick deeper each time, up to `max_depth`, until the budget
/// stops it or a game end is found; each iteration tries the root moves in
/// the order of the last one's values (`moves` first, as given). Ties go to
/// the move tried first.
pub(super) fn deepen<S: RootSearch>(
    search: &mut S,
    graph: &CellGraph,
    mut moves: Vec<Dir>,
    max_depth: usize,
    budget: &mut Budget,
) -> Decision {
    let mut decision = Decision { dir: moves[0], value: 0, depth: 0, forced: false };
    for depth in 1..=max_depth as u32 {
        let mut values: Vec<(Dir, i32)> = Vec::with_capacity(moves.len());
        let mut alpha = -WIN - 1;
        for &m in &moves {
            let v = search.root_move(graph, m, depth, alpha, budget);
            if budget.stopped() {
                break;
            }
            values.push((m, v));
            alpha = alpha.max(v);
        }
        if values.is_empty() {
            break;
        }
        // A partial iteration still counts when its first move (the last
        // iteration's best) was searched: its best is then at least as
        // well founded as the last iteration's.
        let (best_dir, best_value) =
            values.iter().copied().max_by_key(|&(d, v)| (v, -(index(&moves, d) as i32))).unwrap();
        let complete = values.len() == moves.len();
        if complete || best_dir != moves[0] {
            decision = Decision {
                dir: best_dir,
                value: best_value,
                depth: if complete { depth } else { depth - 1 },
                forced: false,
            };
        }
        if !complete {
            break;
        }
        search.completed(depth, best_dir, best_value);
        let mut order: Vec<(usize, (Dir, i32))> = values.into_iter().enumerate().collect();
        order.sort_by_key(|&(i, (_, v))| (std::cmp::Reverse(v), i));
        moves = order.into_iter().map(|(_, (d, _))| d).collect();
        if best_value.abs() > MATE || !budget.may_deepen() {
            break;
        }
    }
    decision
}

fn index(moves: &[Dir], d: Dir) -> usize {
    moves.iter().position(|&m| m == d).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{drawn_game, OPEN_CORNERS};
    use super::*;

    /// Our root move `mine` searched `depth` ticks deep with a full window,
    /// a line going at most `extend` ticks past the horizon; and the nodes.
    fn searched(rows: &[&str], mine: Dir, depth: u32, extend: u32) -> (i32, u64) {
        searched_within(rows, mine, depth, extend, CLOSE)
    }

    /// Every root move of `rows` searched 1 to `deepest` ticks deep, as
    /// iterative deepening does (one table through the iterations), by
    /// principal variation search or not and with history ordering or not:
    /// the values by depth and move, and the nodes in all.
    fn deepened(rows: &[&str], deepest: u32, pvs: bool, history: bool) -> (Vec<i32>, u64) {
        let game = drawn_game(rows);
        let graph = CellGraph::new(game.layout());
        let mut duel = Duel::new(&graph, 2, 0, 1, 12).with_pvs(pvs).with_history(history);
        duel.set_root(&graph, &game);
        let mut budget = Budget::nodes(u64::MAX);
        let mut values = Vec::new();
        for depth in 1..=deepest {
            for mine in safe_moves(&game, 0).iter() {
                values.push(duel.root_move(&graph, mine, depth, -WIN - 1, &mut budget));
            }
        }
        (values, budget.spent())
    }

    /// Two riders in a room with walls and a door, close enough to fight.
    const ROOM: [&str; 8] = [
        "........", //
        ".A..#...", //
        "....#...", //
        "..###...", //
        "........", //
        "...#..B.", //
        "...#....", //
        "........", //
    ];

    #[test]
    fn null_windows_and_history_change_no_value() {
        // Principal variation search searches a move after the first with a
        // null window and again with the whole window only when it might
        // be better; history only reorders: the values of a full-window
        // root move are the plain search's, at every depth.
        for rows in [&OPEN_CORNERS, &ROOM] {
            let (plain, plain_nodes) = deepened(rows, 5, false, false);
            for (pvs, history) in [(true, false), (false, true), (true, true)] {
                let (values, nodes) = deepened(rows, 5, pvs, history);
                assert_eq!(values, plain, "pvs {pvs}, history {history}");
                assert!(nodes > 0 && plain_nodes > 0);
            }
        }
    }

    #[test]
    fn null_windows_and_history_search_fewer_nodes() {
        let (_, plain) = deepened(&ROOM, 6, false, false);
        let (_, both) = deepened(&ROOM, 6, true, true);
        assert!(both < plain, "{both} nodes with both, {plain} without");
    }

    #[test]
    fn history_orders_the_moves_it_credited_first() {
        let game = drawn_game(&OPEN_CORNERS);
        let graph = CellGraph::new(game.layout());
        let mut duel = Duel::new(&graph, 2, 0, 1, 4).with_history(true);
        duel.set_root(&graph, &game);
        let mut out = [Dir::N; 4];
        let moves = DirSet::NONE.with(Dir::E).with(Dir::S);
        assert_eq!(duel.order(&graph, 0, 0, moves, None, &mut out), 2);
        assert_eq!(out[..2], [Dir::E, Dir::S], "code order without history");
        duel.credit(&graph, 0, 0, Dir::S, 3);
        duel.order(&graph, 0, 0, moves, None, &mut out);
        assert_eq!(out[..2], [Dir::S, Dir::E], "the credited move first");
        duel.order(&graph, 0, 0, moves, Some(Dir::E), &mut out);
        assert_eq!(out[..2], [Dir::E, Dir::S], "a hint still goes first");
        // The other side's history is its own.
        duel.order(&graph, 0, 1, DirSet::NONE.with(Dir::N).with(Dir::W), None, &mut out);
        assert_eq!(out[..2], [Dir::N, Dir::W]);
        // Off, code order whatever was credited.
        let mut plain = Duel::new(&graph, 2, 0, 1, 4).with_history(false);
        plain.set_root(&graph, &game);
        plain.credit(&graph, 0, 0, Dir::S, 3);
        plain.order(&graph, 0, 0, moves, None, &mut out);
        assert_eq!(out[..2], [Dir::E, Dir::S]);
    }

    #[test]
    fn the_blend_window_maps_onto_the_nodes_window() {
        for draw in [-64, 0, 16] {
            for miss in [1, 25, 50, 99] {
                let f = |rest| blend(draw, miss, rest);
                for y in -300..300 {
                    let low = unblend_low(draw, miss, y);
                    assert!(f(low) <= y && f(low + 1) > y, "draw {draw}, miss {miss}, alpha {y}: {low}");
                    let high = unblend_high(draw, miss, y);
                    assert!(f(high) >= y && f(high - 1) < y, "draw {draw}, miss {miss}, beta {y}: {high}");
                }
                for rest in -300..300 {
                    assert!(f(rest) <= f(rest + 1), "rising");
                    assert!(f(rest) >= rest.min(draw), "never below the rest or the draw");
                }
            }
        }
        assert_eq!(blend(0, 50, 200), 100, "half the way from the draw");
        assert_eq!(blend(0, 50, -200), -200, "the other would rather answer so");
    }

    /// Heads four moves apart: they can meet head-on in the cells between.
    const FACING: [&str; 8] = [
        "..#.....", //
        "........", //
        "..A.....", //
        "........", //
        "....B...", //
        "......#.", //
        "........", //
        "........", //
    ];

    /// The value of our move `mine` in `game` at `ply`, `depth` ticks deep,
    /// by plain minimax over every answer, a head-on found `headon` % of
    /// the time as [`blend`] says: what the duel's windows must not change.
    fn plain_reply(graph: &CellGraph, game: &FastGame, ply: u32, depth: u32, mine: Dir, headon: u32) -> i32 {
        let replies: Vec<Dir> = safe_moves_or_straight(game, 1).iter().collect();
        let mut eval = Evaluator::with_weights(Weights::DEFAULT);
        let mut values: Vec<i32> = replies
            .iter()
            .map(|&theirs| {
                let mut child = game.clone();
                child.step(&[Action::Move(mine), Action::Move(theirs)]).unwrap();
                if child.is_over() {
                    game_end(&child, 0, ply + 1, 0)
                } else if depth > 1 {
                    safe_moves_or_straight(&child, 0)
                        .iter()
                        .map(|m| plain_reply(graph, &child, ply + 1, depth - 1, m, headon))
                        .max()
                        .unwrap()
                } else {
                    eval.duel(graph, &child, 0, 1).value
                }
            })
            .collect();
        let meeting = (headon < 100 && replies.len() > 1).then(|| meets_head_on(game, 0, mine, 1, &replies)).flatten();
        match meeting {
            None => values.into_iter().min().unwrap(),
            Some(i) => {
                let draw = values.remove(i);
                let rest = values.into_iter().min().unwrap();
                if rest >= MATE {
                    draw
                } else {
                    blend(draw, 100 - headon, rest)
                }
            }
        }
    }

    #[test]
    fn a_head_on_found_by_chance_is_valued_as_plain_minimax_values_it() {
        let game = drawn_game(&FACING);
        let graph = CellGraph::new(game.layout());
        let mut changed = false;
        for depth in 1..=3 {
            for mine in safe_moves(&game, 0).iter() {
                let mut by_headon = Vec::new();
                for headon in [100, 50, 0] {
                    let plain = plain_reply(&graph, &game, 0, depth, mine, headon);
                    for pvs in [false, true] {
                        // A root move after the first is searched with the
                        // best so far as alpha: the value when above it,
                        // else a bound at most alpha.
                        for alpha in [-WIN - 1, plain - 40, plain - 1, plain, plain + 1, plain + 40] {
                            let mut duel =
                                Duel::new(&graph, 2, 0, 1, 12).with_extend(0).with_pvs(pvs).with_headon(headon);
                            duel.set_root(&graph, &game);
                            let v = duel.root_move(&graph, mine, depth, alpha, &mut Budget::nodes(u64::MAX));
                            let case = format!("depth {depth}, {mine:?}, headon {headon}, pvs {pvs}, alpha {alpha}");
                            if plain > alpha {
                                assert_eq!(v, plain, "{case}");
                            } else {
                                assert!(v <= alpha, "{case}: {v}");
                            }
                        }
                    }
                    by_headon.push(plain);
                }
                changed |= by_headon[0] != by_headon[2];
            }
        }
        assert!(changed, "on this board some head-on is worth more when not surely found");
    }

    #[test]
    fn a_head_on_that_is_the_others_one_hope_is_surely_found() {
        // B's other move, east, ends in a pocket: moving north into the cell
        // between the heads, we win unless it meets us there, so it will.
        let rows = [
            "..#B.#..", //
            "....#...", //
            "...A....", //
            "........", //
            "........", //
            "........", //
            "........", //
            "........", //
        ];
        let game = drawn_game(&rows);
        let graph = CellGraph::new(game.layout());
        for headon in [0, 50, 100] {
            assert_eq!(plain_reply(&graph, &game, 0, 3, Dir::N, headon), 0, "headon {headon}");
            let mut duel = Duel::new(&graph, 2, 0, 1, 12).with_extend(0).with_headon(headon);
            duel.set_root(&graph, &game);
            let v = duel.root_move(&graph, Dir::N, 3, -WIN - 1, &mut Budget::nodes(u64::MAX));
            assert_eq!(v, 0, "a draw, headon {headon}");
        }
    }

    /// [`searched`], heads counted close up to `within` moves apart.
    fn searched_within(rows: &[&str], mine: Dir, depth: u32, extend: u32, within: u32) -> (i32, u64) {
        let game = drawn_game(rows);
        let graph = CellGraph::new(game.layout());
        let mut duel = Duel::new(&graph, 2, 0, 1, 10).with_extend(extend).with_extend_within(within);
        duel.set_root(&graph, &game);
        let mut budget = Budget::nodes(u64::MAX);
        let v = duel.root_move(&graph, mine, depth, -WIN - 1, &mut budget);
        (v, budget.spent())
    }

    #[test]
    fn close_heads_at_the_horizon_are_searched_a_tick_further() {
        // East puts the heads side by side, and player 1 has no move left
        // after it: it crashes on the next tick, one past a depth of 1.
        let rows = [
            ".#######", //
            "A..B####", //
            "#.######", //
            "#.######", //
            "########", //
            "########", //
            "########", //
            "########", //
        ];
        let (plain, plain_nodes) = searched(&rows, Dir::E, 1, 0);
        let (extended, extended_nodes) = searched(&rows, Dir::E, 1, 1);
        assert!(plain.abs() < MATE, "the evaluation of the position at the horizon: {plain}");
        assert!(extended > MATE, "the crash a tick later is a win: {extended}");
        assert!(extended_nodes > plain_nodes);
        // Searched two ticks deep, the plain search sees it too.
        assert!(searched(&rows, Dir::E, 2, 0).0 > MATE);
    }

    #[test]
    fn heads_an_odd_number_apart_are_close_within_three() {
        // Player 1 must ride south into a dead end and crashes on tick 2.
        // After our east on tick 1 the heads are 3 moves apart (an odd
        // number: they started 5 apart), which 2 does not count as close.
        let rows = [
            "..#B####", //
            "..#.####", //
            "A.######", //
            "........", //
            "........", //
            "........", //
            "........", //
            "........", //
        ];
        let (at_two, _) = searched_within(&rows, Dir::E, 1, 1, 2);
        let (at_three, _) = searched_within(&rows, Dir::E, 1, 1, 3);
        assert!(at_two.abs() < MATE, "within 2 the horizon is a leaf: {at_two}");
        assert!(at_three > MATE, "within 3 the crash a tick later is seen: {at_three}");
        assert_eq!(searched(&rows, Dir::E, 1, 1).0, at_three, "3 is the default");
        let graph = CellGraph::new(drawn_game(&rows).layout());
        assert_eq!(Duel::new(&graph, 2, 0, 1, 4).with_extend_within(99).within, MAX_CLOSE);
    }

    #[test]
    fn heads_apart_are_not_searched_further() {
        for depth in 1..=3 {
            for mine in [Dir::E, Dir::S] {
                assert_eq!(
                    searched(&OPEN_CORNERS, mine, depth, 0),
                    searched(&OPEN_CORNERS, mine, depth, MAX_EXTEND),
                    "{mine} at depth {depth}"
                );
            }
        }
    }

    #[test]
    fn extend_is_capped() {
        let game = drawn_game(&OPEN_CORNERS);
        let graph = CellGraph::new(game.layout());
        assert_eq!(Duel::new(&graph, 2, 0, 1, 4).with_extend(100).extend, MAX_EXTEND);
        assert_eq!(Duel::new(&graph, 2, 0, 1, 4).extend, EXTEND, "the default");
    }
}
