//! The [chamber bound](super::chambers) on boards up to 64 × 64, on the
//! row words of the lean search state: one `u64` per row, bit `x` for
//! column `x`.
//!
//! The same depth-first search as the cell-by-cell reference
//! ([`Chambers::bound_cells`](super::chambers::Chambers::bound_cells)),
//! the same cells in the same order, so the same value to the bit; what
//! changes is what each step touches:
//!
//! - **No marking pass.** Whether a cell is in the region, and whether the
//!   search has reached it, are two bits of two row words (the region and
//!   what is still open of it), not a record per cell written before the
//!   search starts.
//! - **Neighbours by shifts.** A cell's four neighbours in the region are
//!   four shifts of three row words (the rows above and below are padded
//!   with a zero word), read once when the cell is entered into a 4-bit
//!   mask; the search then walks that mask's bits.
//! - **State on the stack.** Low link, colour counts and the best chamber
//!   below live in the cell's stack frame (16 bytes), folded into the
//!   parent's when it is done; only the discovery number, which back edges
//!   read, stays in a per-cell array (`u16`, 8 KiB for 64 × 64, never
//!   cleared: only cells reached in this run are ever read).

use lightcycles_core::Pos;

use super::chambers::parity_bound;

/// Cells of the largest board this module takes (64 × 64).
const CELLS: usize = 64 * 64;

/// Working memory of the row-word chamber search, reused between calls.
#[derive(Clone, Debug, Default)]
pub struct RowChambers {
    /// The discovery number of each cell reached, at `y · 64 + x`.
    disc: Vec<u16>,
    stack: Vec<Frame>,
}

/// One cell on the search's stack.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// `y · 64 + x`.
    cell: u16,
    disc: u16,
    /// The lowest discovery number reachable from the cell's subtree by one
    /// edge that is not a tree edge.
    low: u16,
    /// Cells of each colour in the part of the cell's chamber below it.
    body: [u16; 2],
    /// The best chamber value hanging below the cell's own chamber.
    below: u16,
    /// Neighbours (bit `d` for direction code `d`) in the region, or the
    /// head, not looked at yet; never the parent.
    todo: u8,
}

/// The cell one step from `cell` in direction `d` (N, E, S, W), on a board
/// of stride 64; the caller knows the step stays on the board.
#[inline(always)]
fn step(cell: u16, d: u32) -> u16 {
    match d {
        0 => cell - 64,
        1 => cell + 1,
        2 => cell + 64,
        _ => cell - 1,
    }
}

/// Which of the four neighbours of `(x, y)` are set in `rows` (padded: row
/// `y` at `rows[y + 1]`, a zero word above and below): bit `d` for
/// direction `d`.
#[inline(always)]
fn around(rows: &[u64; 66], x: usize, y: usize) -> u8 {
    let row = rows[y + 1];
    let n = (rows[y] >> x) & 1;
    let e = (row >> x >> 1) & 1;
    let s = (rows[y + 2] >> x) & 1;
    let w = ((row << 1) >> x) & 1;
    (n | e << 1 | s << 2 | w << 3) as u8
}

#[inline(always)]
fn is_set(rows: &[u64; 66], cell: u16) -> bool {
    (rows[(cell >> 6) as usize + 1] >> (cell & 63)) & 1 != 0
}

#[inline(always)]
fn color(cell: u16) -> usize {
    (((cell >> 6) + (cell & 63)) & 1) as usize
}

/// The value of a finished chamber entered at `child`.
#[inline(always)]
fn chamber_value(child: &Frame) -> u32 {
    let [b0, b1] = child.body;
    let (same, other) = if color(child.cell) == 0 { (b0, b1) } else { (b1, b0) };
    parity_bound(same as u32, other as u32) + child.below as u32
}

/// Puts `cell`, reached from its parent by direction `from`, on the
/// search: numbers it and takes it out of `open`.
#[inline(always)]
fn enter(disc: &mut [u16], region: &[u64; 66], open: &mut [u64; 66], cell: u16, from: u32, count: &mut u16) -> Frame {
    *count += 1;
    disc[cell as usize] = *count;
    let (x, y) = ((cell & 63) as usize, (cell >> 6) as usize);
    open[y + 1] &= !(1u64 << x);
    let mut body = [0; 2];
    body[color(cell)] = 1;
    // The parent is one step back, the opposite direction.
    let todo = around(region, x, y) & !(1u8 << ((from + 2) & 3));
    Frame { cell, disc: *count, low: *count, body, below: 0, todo }
}

impl RowChambers {
    /// Empty memory; the first call sizes it.
    pub fn new() -> RowChambers {
        RowChambers::default()
    }

    /// The chamber bound of `rows` (row `y`'s cells as bit `x` of
    /// `rows[y]`; at most 64 rows) on a board `width` ≤ 64 wide, seen from
    /// the head at `head`: the same value as
    /// [`Chambers::bound_cells`](super::chambers::Chambers::bound_cells).
    /// Bits past the width are ignored; the head's own bit may be set or not.
    pub fn bound(&mut self, rows: &[u64], width: u32, head: Pos) -> u32 {
        assert!(width <= 64 && rows.len() <= 64, "a board of at most 64 × 64 cells");
        let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        // `region`: the region and the head; `open`: what of the region the
        // search has not reached yet.
        let mut region = [0u64; 66];
        for (y, &row) in rows.iter().enumerate() {
            region[y + 1] = row & mask;
        }
        let (hx, hy) = (head.x as usize, head.y as usize);
        let mut open = region;
        open[hy + 1] &= !(1u64 << hx);
        region[hy + 1] |= 1u64 << hx;
        if self.disc.len() < CELLS {
            self.disc = vec![0; CELLS];
            self.stack = vec![Frame::default(); CELLS];
        }
        let root = (hy << 6 | hx) as u16;
        self.disc[root as usize] = 1;
        let mut counter = 1u16;
        let mut best = 0;
        let mut doors = around(&region, hx, hy);
        while doors != 0 {
            let d = doors.trailing_zeros();
            doors &= doors - 1;
            let child = step(root, d);
            if is_set(&open, child) {
                best = best.max(self.search_from(&region, &mut open, child, d, &mut counter));
            }
        }
        best
    }

    /// Tarjan's search from `start`, entered from the head by direction
    /// `from`: the value of the chamber `start` opens.
    fn search_from(&mut self, region: &[u64; 66], open: &mut [u64; 66], start: u16, from: u32, counter: &mut u16) -> u32 {
        let (disc, stack) = (&mut self.disc[..], &mut self.stack[..]);
        let mut count = *counter;
        stack[0] = enter(disc, region, open, start, from, &mut count);
        let mut sp = 1;
        'cells: loop {
            let top = sp - 1;
            while stack[top].todo != 0 {
                let todo = stack[top].todo;
                let d = todo.trailing_zeros();
                stack[top].todo = todo & (todo - 1);
                let n = step(stack[top].cell, d);
                if is_set(open, n) {
                    stack[sp] = enter(disc, region, open, n, d, &mut count);
                    sp += 1;
                    continue 'cells;
                }
                // A cell reached before (the head among them).
                stack[top].low = stack[top].low.min(disc[n as usize]);
            }
            // The top is done: fold it into its parent.
            sp -= 1;
            if sp == 0 {
                break;
            }
            let child = stack[sp];
            let parent = &mut stack[sp - 1];
            parent.low = parent.low.min(child.low);
            if child.low >= parent.disc {
                // The parent is a door to the child's side: a chamber of its own.
                parent.below = parent.below.max(chamber_value(&child) as u16);
            } else {
                parent.body[0] += child.body[0];
                parent.body[1] += child.body[1];
                parent.below = parent.below.max(child.below);
            }
        }
        *counter = count;
        chamber_value(&stack[0])
    }
}

#[cfg(test)]
mod tests {
    use lightcycles_core::bitboard::Layout;
    use lightcycles_core::engine::Engine;
    use lightcycles_core::space::{self, Scratch};
    use lightcycles_core::{Action, Config, FastGame, SplitMix64};
    use proptest::prelude::*;

    use super::*;
    use crate::bot::builtin::search::cells::CellGraph;
    use crate::bot::builtin::search::chambers::Chambers;

    /// The row-word bound and the cell-by-cell reference on one region.
    fn both(graph: &CellGraph, region: &[u64], head: Pos, rows: &mut RowChambers, cells: &mut Chambers) -> (u32, u32) {
        let layout = graph.layout();
        let fast = rows.bound(&region[..layout.height() as usize], layout.width(), head);
        (fast, cells.bound_cells(graph, region, graph.cell(head)))
    }

    /// A region of `w × h` cells drawn from `bits` (row words) at a density
    /// of `density` eighths: the words of one row ANDed or ORed together.
    fn region_of(w: u32, h: u32, bits: &[u64], density: u32, head: Pos) -> Vec<u64> {
        let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        (0..h as usize)
            .map(|y| {
                let [a, b, c] = [bits[3 * y], bits[3 * y + 1], bits[3 * y + 2]];
                let row = match density {
                    1 => a & b & c,
                    2 => a & b,
                    3 => a & (b | c),
                    4 => a,
                    5 => a | (b & c),
                    6 => a | b,
                    _ => a | b | c,
                };
                let row = row & mask;
                if y == head.y as usize {
                    row & !(1u64 << head.x)
                } else {
                    row
                }
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn random_regions_give_the_reference_value(
            w in 1u32..=64,
            h in 1u32..=64,
            bits in prop::collection::vec(any::<u64>(), 3 * 64),
            density in 1u32..=7,
            hx in any::<u8>(),
            hy in any::<u8>(),
        ) {
            let graph = CellGraph::new(Layout::new(w, h).unwrap());
            let head = Pos::new((hx as u32 % w) as u8, (hy as u32 % h) as u8);
            let region = region_of(w, h, &bits, density, head);
            let (fast, reference) = both(&graph, &region, head, &mut RowChambers::new(), &mut Chambers::new());
            prop_assert_eq!(fast, reference);
        }

        #[test]
        fn bits_past_the_width_and_the_head_bit_change_nothing(
            w in 1u32..64,
            h in 1u32..=64,
            bits in prop::collection::vec(any::<u64>(), 3 * 64),
            density in 1u32..=7,
            hx in any::<u8>(),
            hy in any::<u8>(),
        ) {
            let head = Pos::new((hx as u32 % w) as u8, (hy as u32 % h) as u8);
            let clean = region_of(w, h, &bits, density, head);
            let mut dirty = clean.clone();
            for (y, row) in dirty.iter_mut().enumerate() {
                *row |= !((1u64 << w) - 1) & bits[y];
            }
            dirty[head.y as usize] |= 1u64 << head.x;
            let mut rows = RowChambers::new();
            prop_assert_eq!(rows.bound(&dirty, w, head), rows.bound(&clean, w, head));
        }
    }

    #[test]
    fn memory_reused_across_boards_gives_the_reference_value() {
        let mut rng = SplitMix64::new(20);
        let (mut rows, mut cells) = (RowChambers::new(), Chambers::new());
        for _ in 0..2000 {
            let (w, h) = (1 + rng.below(64) as u32, 1 + rng.below(64) as u32);
            let graph = CellGraph::new(Layout::new(w, h).unwrap());
            let bits: Vec<u64> = (0..3 * 64).map(|_| rng.next_u64()).collect();
            let head = Pos::new(rng.below(w as u64) as u8, rng.below(h as u64) as u8);
            let region = region_of(w, h, &bits, 1 + rng.below(7) as u32, head);
            let (fast, reference) = both(&graph, &region, head, &mut rows, &mut cells);
            assert_eq!(fast, reference, "{w} × {h}, head {head:?}");
        }
    }

    #[test]
    fn played_games_give_the_reference_value_every_tick() {
        // Voronoi cells and whole rooms of every rider at every tick, on
        // boards from 8 × 8 to 64 × 64, two players and more.
        let boards = [(8, 8, 2), (48, 36, 2), (64, 64, 2), (20, 60, 3), (64, 17, 4), (33, 64, 2)];
        let (mut rows, mut cells) = (RowChambers::new(), Chambers::new());
        let mut checked = 0;
        for (i, &(w, h, players)) in boards.iter().enumerate() {
            let config = Config { width: w, height: h, players, rock_density: 6, ..Config::default() };
            for seed in 0..3 {
                let mut game = FastGame::seeded(&config, seed + 10 * i as u64).unwrap();
                let graph = CellGraph::new(game.layout());
                let mut scratch = Scratch::for_game(&game);
                let mut rng = SplitMix64::new(seed);
                while !game.is_over() {
                    space::voronoi_with(&game, &mut scratch);
                    let owned: Vec<Vec<u64>> = (0..players as usize).map(|id| scratch.owned(id).to_vec()).collect();
                    for (id, owned) in owned.iter().enumerate().filter(|&(id, _)| game.is_alive(id)) {
                        let head = game.head(id);
                        let (fast, reference) = both(&graph, owned, head, &mut rows, &mut cells);
                        assert_eq!(fast, reference, "{w} × {h} seed {seed} tick {} player {id}", game.tick());
                        space::reachable_with(&game, head, &mut scratch);
                        let room = scratch.reached().to_vec();
                        let (fast, reference) = both(&graph, &room, head, &mut rows, &mut cells);
                        assert_eq!(fast, reference, "{w} × {h} seed {seed} tick {} room of {id}", game.tick());
                        checked += 2;
                    }
                    let actions: Vec<Action> = (0..players as usize)
                        .map(|id| {
                            let safe = space::safe_moves(&game, id);
                            let n = safe.iter().count();
                            safe.iter().nth(rng.below(n.max(1) as u64) as usize).map_or(Action::Keep, Action::Move)
                        })
                        .collect();
                    game.step(&actions).unwrap();
                }
            }
        }
        assert!(checked > 500, "{checked} regions checked");
    }
}
