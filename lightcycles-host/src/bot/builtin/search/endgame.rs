//! The endgame: once nobody can reach the cycle any more, make as many
//! moves as the region allows. That is a longest simple path from the head,
//! a hard problem in general, searched here as well as the time allows:
//!
//! - a depth-first search over the cycle's own moves, iteratively
//!   deepened; at the depth limit a path is worth what it has plus the
//!   [chamber bound](super::chambers) of what is left, and a branch whose
//!   bound cannot beat the best found is cut;
//! - moves are tried in Warnsdorff's order (the cell with the fewest free
//!   neighbours first), which hugs walls and is the best first guess for
//!   filling a region, with dead ends last;
//! - every complete path met (one that ends where no move is left) is kept;
//!   a complete path as long as the bound is a proof of the optimum, and the
//!   search stops there: the path becomes a plan, followed on later ticks
//!   without searching again (nobody else can enter the region);
//! - when the rivals' rooms are known, a first, unbounded dive looks for a
//!   complete path longer than any rival can ride (the rivals' own chamber
//!   bounds): such a path is a proven win, and is followed as a plan too.
//!   Won games, the most common endgames, then cost no more thinking.
//!
//! On small regions the deepening reaches the end of every path and the
//! answer is exact; on large ones it is the best bound-guided lookahead the
//! budget buys.

use lightcycles_core::bitboard;
use lightcycles_core::{Dir, FastGame};

use super::budget::Budget;
use super::cells::{Cell, CellGraph, NONE};
use super::chambers::Chambers;

/// What the filler decided, and how sure it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fill {
    /// The move.
    pub dir: Dir,
    /// The most moves the region allows (the bound), including this one.
    pub bound: u32,
    /// The longest complete path found, in moves (0 when none was found).
    pub longest: u32,
    /// Whether the path is proven as long as any can be.
    pub proven: bool,
    /// Whether the path is proven longer than any rival can ride.
    pub winning: bool,
    /// The deepest iteration completed (0 when the move came from a plan).
    pub depth: u32,
}

/// The filler's memory: the free cells, the search's path, and a proven
/// plan kept between ticks.
#[derive(Clone, Debug, Default)]
pub struct Filler {
    free: Vec<u64>,
    chambers: Chambers,
    path: Vec<Cell>,
    longest: Vec<Cell>,
    /// A proven path, next cell last.
    plan: Vec<Cell>,
    /// The bound at the root of this answer: a complete path this long ends
    /// the search.
    root_bound: u32,
    /// A complete path longer than this wins: it ends the search too.
    target: u32,
    proven: bool,
    won: bool,
    /// Whether the plan is a winning one (rather than a proven optimum).
    plan_wins: bool,
}

/// The share of the budget the dive for a winning path may take.
pub const DIVE_SHARE: f64 = 0.5;

impl Filler {
    /// Empty memory.
    pub fn new() -> Filler {
        Filler::default()
    }

    /// The move of player `me` that keeps the longest path open, searched
    /// within `budget`; `None` when every neighbour is solid. `rival`: the
    /// most moves any other rider can still make, when known.
    pub fn choose(
        &mut self,
        graph: &CellGraph,
        game: &FastGame,
        me: usize,
        rival: Option<u32>,
        budget: &mut Budget,
    ) -> Option<Fill> {
        let layout = game.layout();
        self.free.resize(layout.words(), 0);
        bitboard::complement(layout, game.solid(), &mut self.free);
        let head = graph.cell(game.head(me));
        if let Some(fill) = self.follow_plan(graph, head) {
            return Some(fill);
        }
        let mut moves = self.ordered_moves(graph, head);
        if moves.is_empty() {
            return None;
        }
        self.root_bound = self.chambers.bound(graph, &self.free, head);
        self.longest.clear();
        self.path.clear();
        self.proven = false;
        self.won = false;
        self.target = u32::MAX;
        if let Some(rival) = rival.filter(|&r| r < self.root_bound) {
            // Look for a path no rival can outlast, cutting every branch that
            // cannot beat the rival.
            self.target = rival;
            let mut part = budget.part(DIVE_SHARE);
            self.search(graph, head, u32::MAX, rival, &mut part);
            budget.absorb(&part);
            if self.won || self.proven {
                return Some(self.make_plan(graph, head, 0));
            }
        }
        let mut chosen: Option<(Cell, u32, bool)> = None;
        let mut completed = 0;
        let mut depth = 1u32;
        // Values of the root moves in the last completed iteration, for order.
        let mut values: Vec<(Cell, u32, bool)> = moves.iter().map(|&m| (m, 0, false)).collect();
        loop {
            let mut iteration: Vec<(Cell, u32, bool)> = Vec::with_capacity(moves.len());
            let mut best = 0u32;
            for &m in &moves {
                graph.remove(&mut self.free, m);
                self.path.push(m);
                let (v, exact) = self.search(graph, m, depth - 1, best.saturating_sub(1), budget);
                self.path.pop();
                graph.insert(&mut self.free, m);
                if budget.stopped() && !self.done() {
                    break;
                }
                iteration.push((m, v + 1, exact));
                best = best.max(v + 1);
                if self.done() {
                    break;
                }
            }
            if self.done() {
                return Some(self.make_plan(graph, head, completed));
            }
            if iteration.len() < moves.len() {
                break; // stopped halfway: keep the last completed iteration
            }
            values = iteration;
            completed = depth;
            let top = values.iter().map(|&(_, v, _)| v).max().unwrap_or(0);
            // Best value first; among equals an exact one, then the move of
            // the longest path found; otherwise Warnsdorff's order.
            let first = self.longest.first().copied().unwrap_or(NONE);
            let mut order: Vec<(usize, (Cell, u32, bool))> = values.iter().copied().enumerate().collect();
            order.sort_by_key(|&(i, (m, v, ex))| (std::cmp::Reverse(v), !ex, m != first, i));
            moves = order.iter().map(|&(_, (m, _, _))| m).collect();
            values = order.into_iter().map(|(_, e)| e).collect();
            chosen = Some(values[0]);
            let all_exact = values.iter().all(|&(_, v, ex)| ex || v < top) && values[0].2;
            if all_exact && self.longest.len() as u32 == top && self.longest.first() == Some(&values[0].0) {
                // Every move is searched to its end: the longest path is the optimum.
                self.proven = true;
                return Some(self.make_plan(graph, head, completed));
            }
            if all_exact || depth >= self.root_bound || !budget.may_deepen() {
                break;
            }
            depth = depth + depth / 2 + 1;
        }
        let (m, _, _) = chosen.unwrap_or(values[0]);
        let longest = self.longest.len() as u32;
        let dir = direction(graph, head, m);
        Some(Fill { dir, bound: self.root_bound, longest, proven: false, winning: false, depth: completed })
    }

    fn done(&self) -> bool {
        self.proven || self.won
    }

    /// Makes the longest path found the plan, and its first move the answer.
    fn make_plan(&mut self, graph: &CellGraph, head: Cell, depth: u32) -> Fill {
        let first = self.longest[0];
        self.plan = self.longest.iter().rev().copied().collect();
        self.plan.pop();
        self.plan_wins = self.won;
        Fill {
            dir: direction(graph, head, first),
            bound: self.root_bound,
            longest: self.longest.len() as u32,
            proven: self.proven,
            winning: self.won,
            depth,
        }
    }

    /// The next move of a proven plan, if the plan still fits the board.
    fn follow_plan(&mut self, graph: &CellGraph, head: Cell) -> Option<Fill> {
        let next = *self.plan.last()?;
        let fits = graph.neighbours(head).contains(&next) && self.plan.iter().all(|&c| graph.contains(&self.free, c));
        if !fits {
            self.plan.clear();
            return None;
        }
        self.plan.pop();
        let left = self.plan.len() as u32 + 1;
        let (proven, winning) = (!self.plan_wins, self.plan_wins);
        Some(Fill { dir: direction(graph, head, next), bound: left, longest: left, proven, winning, depth: 0 })
    }

    /// The free neighbours of `head`: fewest onward free neighbours first,
    /// dead ends last; ties in direction order.
    fn ordered_moves(&self, graph: &CellGraph, head: Cell) -> Vec<Cell> {
        let mut moves: Vec<(u32, Cell)> = graph
            .neighbours(head)
            .into_iter()
            .filter(|&n| n != NONE && graph.contains(&self.free, n))
            .map(|n| (self.onward(graph, n), n))
            .collect();
        moves.sort_by_key(|&(k, _)| (k == 0, k));
        moves.into_iter().map(|(_, n)| n).collect()
    }

    fn onward(&self, graph: &CellGraph, cell: Cell) -> u32 {
        graph.free_degree(&self.free, cell)
    }

    /// The most moves from `head` (already solid) over the free cells, as
    /// found within `depth` more moves: a value and whether it is exact
    /// (otherwise it is an upper bound). A branch that cannot exceed
    /// `alpha` is cut at once.
    fn search(&mut self, graph: &CellGraph, head: Cell, depth: u32, alpha: u32, budget: &mut Budget) -> (u32, bool) {
        if self.done() || budget.spend() {
            return (0, false);
        }
        let bound = self.chambers.bound(graph, &self.free, head);
        if bound == 0 {
            if self.path.len() > self.longest.len() {
                self.longest.clone_from(&self.path);
                let len = self.longest.len() as u32;
                self.proven = len >= self.root_bound;
                self.won = len > self.target;
            }
            return (0, true);
        }
        if depth == 0 || bound <= alpha {
            return (bound, false);
        }
        let (mut best, mut exact, mut others) = (0u32, false, 0u32);
        let mut buf = [NONE; 4];
        let moves = self.ordered_moves(graph, head);
        buf[..moves.len()].copy_from_slice(&moves);
        for &m in &buf[..moves.len()] {
            graph.remove(&mut self.free, m);
            self.path.push(m);
            let (v, ex) = self.search(graph, m, depth - 1, alpha.max(best).saturating_sub(1), budget);
            self.path.pop();
            graph.insert(&mut self.free, m);
            if self.done() || budget.stopped() {
                return (best.max(v + 1), false);
            }
            let v = v + 1;
            if v > best || (v == best && ex && !exact) {
                others = others.max(best);
                best = v;
                exact = ex;
            } else {
                others = others.max(v);
            }
            if best >= bound {
                break;
            }
        }
        (best, exact && best >= others)
    }
}

/// The direction from `from` to its neighbour `to`.
fn direction(graph: &CellGraph, from: Cell, to: Cell) -> Dir {
    let d = graph.neighbours(from).iter().position(|&n| n == to).expect("a neighbour");
    Dir::ALL[d]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin::search::chambers::tests::longest_path;
    use crate::bot::builtin::search::testing::{drawn_game, drawn_position, ride_alone};
    use lightcycles_core::Engine;

    /// Lets the filler ride player 0 alone until no move is left; the
    /// moves it made.
    fn fill_alone(rows: &[&str], nodes: u64) -> u32 {
        let mut position = drawn_position(rows);
        let game = FastGame::from_position(&position).unwrap();
        let graph = CellGraph::new(game.layout());
        let mut filler = Filler::new();
        let mut moves = 0;
        loop {
            let game = FastGame::from_position(&position).unwrap();
            let Some(fill) = filler.choose(&graph, &game, 0, None, &mut Budget::nodes(nodes)) else { return moves };
            position = ride_alone(&position, 0, fill.dir).expect("the filler never rides into a solid cell");
            moves += 1;
        }
    }

    fn optimum(rows: &[&str]) -> u32 {
        let game = drawn_game(rows);
        let graph = CellGraph::new(game.layout());
        let mut free = vec![0u64; game.layout().words()];
        bitboard::complement(game.layout(), game.solid(), &mut free);
        longest_path(&graph, &mut free, graph.cell(game.head(0)))
    }

    /// Checks the filler against the exhaustive optimum of a drawing.
    fn reaches_the_optimum(rows: &[&str]) {
        let best = optimum(rows);
        let made = fill_alone(rows, 20_000);
        assert!(made + 1 >= best, "the filler made {made} moves of {best}:\n{}", rows.join("\n"));
        assert!(made <= best);
    }

    #[test]
    fn fills_rooms_behind_doors_as_well_as_any_path() {
        // Two rooms off a corridor: the larger one, entered last.
        reaches_the_optimum(&[
            "#########", //
            "#...#####", //
            "#...#####", //
            "##.######", //
            "A.....###", //
            "#####.###", //
            "####...##", //
            "####...##", //
            "#######B#", //
        ]);
        // A room with a pocket on each side: the path must not shut itself
        // off from the pocket it ends in.
        reaches_the_optimum(&[
            "########", //
            "#.######", //
            "#....###", //
            "A....#.#", //
            "#.......", //
            "###..###", //
            "###.####", //
            "#######B", //
        ]);
    }

    #[test]
    fn a_checkerboard_room_loses_only_what_parity_takes() {
        // 4 × 5 room entered from a cell of the colour it has fewer of.
        reaches_the_optimum(&[
            "########", //
            "#....###", //
            "#....###", //
            "A....###", //
            "#....###", //
            "#....###", //
            "########", //
            "#######B", //
        ]);
    }

    #[test]
    fn fills_random_small_regions_to_the_optimum() {
        // 8 × 8 boards with rocks; player 0 somewhere, player 1 walled off at
        // the far corner. Twenty regions of 6 to 15 cells and twenty of 16
        // to 28 are solved both ways: by trying every path, and by the
        // filler riding them move by move.
        let mut rng = lightcycles_core::SplitMix64::new(2024);
        let (mut small, mut large) = (0, 0);
        while small < 20 || large < 20 {
            let density = if small < 20 { 42 } else { 30 };
            let mut rows: Vec<Vec<u8>> =
                (0..8).map(|_| (0..8).map(|_| if rng.below(100) < density { b'#' } else { b'.' }).collect()).collect();
            let (ax, ay) = (rng.below(6) as usize, rng.below(6) as usize);
            rows[ay][ax] = b'A';
            (rows[7][7], rows[6][7], rows[7][6]) = (b'B', b'#', b'#');
            let text: Vec<String> = rows.iter().map(|r| String::from_utf8(r.clone()).unwrap()).collect();
            let rows: Vec<&str> = text.iter().map(String::as_str).collect();
            let game = drawn_game(&rows);
            let room = lightcycles_core::space::reachable(&game, game.head(0));
            let band = match room {
                6..=15 if small < 20 => &mut small,
                16..=28 if large < 20 => &mut large,
                _ => continue,
            };
            let best = optimum(&rows);
            let made = fill_alone(&rows, 20_000);
            assert_eq!(made, best, "the filler made {made} moves of {best}:\n{}", rows.join("\n"));
            *band += 1;
        }
    }

    #[test]
    fn a_proven_path_becomes_a_plan_followed_without_search() {
        let rows = [
            "########", //
            "#....###", //
            "A....###", //
            "########", //
            "########", //
            "########", //
            "########", //
            "#######B", //
        ];
        let mut position = drawn_position(&rows);
        let game = FastGame::from_position(&position).unwrap();
        let graph = CellGraph::new(game.layout());
        let mut filler = Filler::new();
        let first = filler.choose(&graph, &game, 0, None, &mut Budget::nodes(10_000)).unwrap();
        assert!(first.proven, "{first:?}");
        assert_eq!((first.bound, first.longest), (8, 8));
        position = ride_alone(&position, 0, first.dir).unwrap();
        let game = FastGame::from_position(&position).unwrap();
        let mut budget = Budget::nodes(10_000);
        let next = filler.choose(&graph, &game, 0, None, &mut budget).unwrap();
        assert_eq!((next.proven, next.depth, budget.spent()), (true, 0, 0), "{next:?}");
    }

    #[test]
    fn a_walled_in_head_has_no_move() {
        let rows = ["#A######", "########", "########", "########", "########", "########", "########", "#######B"];
        let game = drawn_game(&rows);
        let graph = CellGraph::new(game.layout());
        assert_eq!(Filler::new().choose(&graph, &game, 0, None, &mut Budget::nodes(100)), None);
    }
}
