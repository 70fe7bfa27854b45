//! The board as a graph of cells, for the searches that walk it one cell at
//! a time (chambers, the endgame filler): each cell's four neighbours and
//! where its bit sits in a [`bitboard`](lightcycles_core::bitboard) set,
//! computed once per game so the hot loops do no division or bounds tests.

use lightcycles_core::bitboard::Layout;
use lightcycles_core::{Dir, Pos};

/// A cell number: `y · width + x`. Boards have at most 255 × 255 cells, so
/// every number fits below [`NONE`].
pub type Cell = u16;

/// No cell: a neighbour off the board.
pub const NONE: Cell = Cell::MAX;

/// Neighbours and bit positions of every cell of one board size.
#[derive(Clone, Debug)]
pub struct CellGraph {
    layout: Layout,
    width: u32,
    /// Per cell, what the hot loops read about it, in one place.
    info: Vec<CellInfo>,
}

/// One cell's neighbours, bit and colour (12 bytes).
#[derive(Clone, Copy, Debug)]
struct CellInfo {
    /// The neighbour in each direction (by direction code), or [`NONE`].
    neighbours: [Cell; 4],
    /// The word of its bit in a bitboard.
    word: u16,
    /// Its bit within that word.
    bit: u8,
    /// Its checkerboard colour.
    color: u8,
}

impl CellGraph {
    /// The graph of a board laid out as `layout`.
    pub fn new(layout: Layout) -> CellGraph {
        let (w, h) = (layout.width(), layout.height());
        let mut info = Vec::with_capacity((w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                let pos = Pos::new(x as u8, y as u8);
                let (word, mask) = layout.locate(pos);
                info.push(CellInfo {
                    neighbours: Dir::ALL.map(|d| pos.step(d, w, h).map_or(NONE, |n| n.index(w) as Cell)),
                    word: word as u16,
                    bit: mask.trailing_zeros() as u8,
                    color: ((x + y) & 1) as u8,
                });
            }
        }
        CellGraph { layout, width: w, info }
    }

    /// The board's bit layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// Whether the board has no cells (never: boards are at least 8 × 8).
    pub fn is_empty(&self) -> bool {
        self.info.is_empty()
    }

    /// The number of `pos` (a cell on the board).
    #[inline]
    pub fn cell(&self, pos: Pos) -> Cell {
        pos.index(self.width) as Cell
    }

    /// The position of cell `c`.
    #[inline]
    pub fn pos(&self, c: Cell) -> Pos {
        let w = self.width as usize;
        Pos::new((c as usize % w) as u8, (c as usize / w) as u8)
    }

    /// The four neighbours of `c` by direction code, [`NONE`] off the board.
    #[inline]
    pub fn neighbours(&self, c: Cell) -> [Cell; 4] {
        self.info[c as usize].neighbours
    }

    /// Whether `c`'s bit is set in `bits` (a bitboard of this layout).
    #[inline]
    pub fn contains(&self, bits: &[u64], c: Cell) -> bool {
        let i = &self.info[c as usize];
        bits[i.word as usize] >> i.bit & 1 != 0
    }

    /// Sets `c`'s bit in `bits`.
    #[inline]
    pub fn insert(&self, bits: &mut [u64], c: Cell) {
        let i = &self.info[c as usize];
        bits[i.word as usize] |= 1 << i.bit;
    }

    /// Clears `c`'s bit in `bits`.
    #[inline]
    pub fn remove(&self, bits: &mut [u64], c: Cell) {
        let i = &self.info[c as usize];
        bits[i.word as usize] &= !(1 << i.bit);
    }

    /// How many of `c`'s neighbours are set in `free`: the moves onward
    /// from `c`, or its edges within the free cells.
    #[inline]
    pub fn free_degree(&self, free: &[u64], c: Cell) -> u32 {
        self.neighbours(c).into_iter().filter(|&n| n != NONE && self.contains(free, n)).count() as u32
    }

    /// The colour of `c` on a checkerboard: 0 or 1. Every move changes it.
    #[inline]
    pub fn color(&self, c: Cell) -> usize {
        self.info[c as usize].color as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stop_at_the_edges_and_bits_follow_the_layout() {
        let g = CellGraph::new(Layout::new(70, 9).unwrap());
        let c = g.cell(Pos::new(0, 0));
        assert_eq!(g.neighbours(c), [NONE, 1, 70, NONE]);
        let corner = g.cell(Pos::new(69, 8));
        assert_eq!(g.neighbours(corner), [corner - 70, NONE, NONE, corner - 1]);
        assert_eq!(g.pos(corner), Pos::new(69, 8));
        let mut bits = vec![0u64; g.layout().words()];
        let far = g.cell(Pos::new(65, 3));
        g.insert(&mut bits, far);
        assert!(g.layout().get(&bits, Pos::new(65, 3)));
        assert!(g.contains(&bits, far) && !g.contains(&bits, far - 1));
        g.remove(&mut bits, far);
        assert!(bits.iter().all(|&w| w == 0));
        assert_eq!((g.color(c), g.color(1), g.color(70), g.color(71)), (0, 1, 1, 0));
    }
}
