//! Boards as bits: one bit per cell, each row a whole number of 64-bit words.
//!
//! Row `y` is [`Layout::words_per_row`] words, and cell `(x, y)` is bit
//! `x % 64` of word `y * words_per_row + x / 64`. Bits past the width are
//! always zero. Keeping rows word-aligned costs a few unused bits (16 per
//! row on the default 48-wide board) and buys two things: the vertical
//! neighbours of a row are simply the rows above and below, and a row's runs
//! of open cells are one integer, so a flood fill crosses a whole run in a
//! few instructions instead of one cell at a time.
//!
//! The functions here work on plain word slices in this layout, so the fast
//! engine, the space helpers and the map generator share them.

use crate::geometry::{Dir, Pos};

/// Most words a row can take: 255 cells fit in 4 words.
pub const MAX_WORDS_PER_ROW: usize = 4;

/// The shape of a bitboard: width, height and words per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    width: u32,
    height: u32,
    words_per_row: u32,
}

impl Layout {
    /// The layout of a `width × height` board, or `None` unless both sides
    /// are in `1..=255`.
    pub const fn new(width: u32, height: u32) -> Option<Layout> {
        if width == 0 || height == 0 || width > 255 || height > 255 {
            return None;
        }
        Some(Layout { width, height, words_per_row: width.div_ceil(64) })
    }

    /// Board width in cells.
    pub const fn width(&self) -> u32 {
        self.width
    }

    /// Board height in cells (and rows).
    pub const fn height(&self) -> u32 {
        self.height
    }

    /// Words per row: `⌈width / 64⌉`.
    pub const fn words_per_row(&self) -> usize {
        self.words_per_row as usize
    }

    /// Words in one bitboard: `height · words_per_row`.
    pub const fn words(&self) -> usize {
        self.height as usize * self.words_per_row as usize
    }

    /// Whether `pos` is on the board.
    #[inline]
    pub const fn contains(&self, pos: Pos) -> bool {
        (pos.x as u32) < self.width && (pos.y as u32) < self.height
    }

    /// The word index and bit mask of an on-board cell.
    #[inline]
    pub const fn locate(&self, pos: Pos) -> (usize, u64) {
        let word = pos.y as usize * self.words_per_row as usize + (pos.x as usize >> 6);
        (word, 1u64 << (pos.x & 63))
    }

    /// The mask of the cells of word `k` of a row (`k < words_per_row`):
    /// all ones except past the width in the last word.
    #[inline]
    pub const fn column_mask(&self, k: usize) -> u64 {
        let left = self.width as usize - 64 * k;
        if left >= 64 {
            u64::MAX
        } else {
            (1u64 << left) - 1
        }
    }

    /// Whether bit `pos` is set in `bits` (off the board: `false`).
    #[inline]
    pub fn get(&self, bits: &[u64], pos: Pos) -> bool {
        if !self.contains(pos) {
            return false;
        }
        let (word, mask) = self.locate(pos);
        bits[word] & mask != 0
    }

    /// Whether an on-board 4-neighbour of `pos` is set in `bits`. A room
    /// (free cells only, heads being solid) meets another head exactly
    /// when it holds a neighbour of that head: the space helpers and the
    /// C ABI's separation test ask this.
    #[inline]
    pub fn any_neighbour(&self, bits: &[u64], pos: Pos) -> bool {
        Dir::ALL.iter().filter_map(|&d| pos.step(d, self.width, self.height)).any(|cell| self.get(bits, cell))
    }

    /// Sets bit `pos` in `bits` (an on-board cell).
    #[inline]
    pub fn set(&self, bits: &mut [u64], pos: Pos) {
        let (word, mask) = self.locate(pos);
        bits[word] |= mask;
    }
}

/// The number of set bits.
pub fn count(bits: &[u64]) -> u32 {
    bits.iter().map(|w| w.count_ones()).sum()
}

/// The cells whose bits are set, row by row, each row in increasing `x`.
pub fn cells(layout: Layout, bits: &[u64]) -> impl Iterator<Item = Pos> + '_ {
    let k = layout.words_per_row();
    bits.iter().enumerate().flat_map(move |(i, &word)| {
        let (y, base) = ((i / k) as u8, (i % k) as u32 * 64);
        let mut rest = word;
        core::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            Some(Pos::new((base + bit) as u8, y))
        })
    })
}

/// Writes `!solid` limited to the board into `open`.
pub fn complement(layout: Layout, solid: &[u64], open: &mut [u64]) {
    let k = layout.words_per_row();
    for (i, (o, s)) in open.iter_mut().zip(solid).enumerate() {
        *o = !s & layout.column_mask(i % k);
    }
}

/// Sets in `out` the on-board 4-neighbours of `pos` that are set in `allowed`.
pub fn mark_neighbours(layout: Layout, allowed: &[u64], pos: Pos, out: &mut [u64]) {
    let (x, y) = (pos.x as i32, pos.y as i32);
    for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
        let (nx, ny) = (x + dx, y + dy);
        if nx < 0 || ny < 0 || nx >= layout.width as i32 || ny >= layout.height as i32 {
            continue;
        }
        let (word, mask) = layout.locate(Pos::new(nx as u8, ny as u8));
        out[word] |= allowed[word] & mask;
    }
}

/// Fills downward (toward bit 0) from `seeds` through the ones of `open`:
/// an occluded fill in six doubling steps.
#[inline(always)]
pub(crate) const fn fill_down(seeds: u64, open: u64) -> u64 {
    let mut g = seeds & open;
    let mut p = open;
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    p &= p >> 16;
    g | (p & (g >> 32))
}

/// The runs of `open` (one row of `K` words) that hold a bit of `seeds`
/// (`seeds ⊆ open`), whole.
///
/// Upward the fill is one addition: adding the seeds to the run carries from
/// the lowest seed to the top of its run, flipping every open bit on the
/// way (seeds excepted, which stay set). Downward there is no carry, so an
/// occluded fill of doubling shifts does it.
#[inline(always)]
fn run_fill<const K: usize>(seeds: [u64; K], open: [u64; K]) -> [u64; K] {
    let mut out = [0u64; K];
    let mut carry = false;
    for k in 0..K {
        let (sum, c1) = open[k].overflowing_add(seeds[k]);
        let (sum, c2) = sum.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[k] = ((sum ^ open[k]) | seeds[k]) & open[k];
    }
    let mut from_above = 0u64;
    for k in (0..K).rev() {
        let down = fill_down(seeds[k] | (from_above << 63), open[k]);
        from_above = down & 1;
        out[k] |= down;
    }
    out
}

/// Row `y` of a bitboard of `K` words per row, as an array.
#[inline(always)]
pub(crate) fn row<const K: usize>(bits: &[u64], y: usize) -> [u64; K] {
    let mut r = [0u64; K];
    r.copy_from_slice(&bits[y * K..y * K + K]);
    r
}

/// Grows `reach` (a subset of `open`) into every cell of `open` 4-connected
/// to it, by sweeping the rows down and up until a sweep changes nothing.
/// Each row takes whole runs at once, so an open board is done in three
/// sweeps, and a small room costs only the rows it spans.
pub fn fill(layout: Layout, open: &[u64], reach: &mut [u64]) {
    match layout.words_per_row() {
        1 => fill_k::<1>(layout.height as usize, open, reach),
        2 => fill_k::<2>(layout.height as usize, open, reach),
        3 => fill_k::<3>(layout.height as usize, open, reach),
        _ => fill_k::<4>(layout.height as usize, open, reach),
    }
}

fn fill_k<const K: usize>(h: usize, open: &[u64], reach: &mut [u64]) {
    let open = &open[..h * K];
    let reach = &mut reach[..h * K];
    // Close the seed rows into whole runs first: after that every row is a
    // union of runs, and a row whose new seeds add nothing can be skipped.
    let (mut lo, mut hi) = (h, 0);
    for y in 0..h {
        let r = row::<K>(reach, y);
        if r.iter().any(|&w| w != 0) {
            let o = row::<K>(open, y);
            let mut s = [0u64; K];
            for k in 0..K {
                s[k] = r[k] & o[k];
            }
            reach[y * K..y * K + K].copy_from_slice(&run_fill(s, o));
            (lo, hi) = (lo.min(y), y);
        }
    }
    if lo > hi {
        return;
    }
    // Sweeps cover the rows `lo..=hi` that hold cells and one row beyond on
    // each side (the only rows that can gain), the range growing as they go.
    let mut downward = true;
    loop {
        let mut changed = false;
        if downward {
            let mut y = lo.saturating_sub(1);
            while y <= (hi + 1).min(h - 1) {
                if grow_row::<K>(open, reach, h, y) {
                    changed = true;
                    (lo, hi) = (lo.min(y), hi.max(y));
                }
                y += 1;
            }
        } else {
            let mut y = (hi + 1).min(h - 1) as isize;
            while y >= lo.saturating_sub(1) as isize {
                if grow_row::<K>(open, reach, h, y as usize) {
                    changed = true;
                    (lo, hi) = (lo.min(y as usize), hi.max(y as usize));
                }
                y -= 1;
            }
        }
        if !changed {
            return;
        }
        downward = !downward;
    }
}

/// Adds to row `y` of `reach` the open runs touching the rows above and
/// below; returns whether it grew.
#[inline(always)]
fn grow_row<const K: usize>(open: &[u64], reach: &mut [u64], h: usize, y: usize) -> bool {
    let r = row::<K>(reach, y);
    let above = if y > 0 { row::<K>(reach, y - 1) } else { [0; K] };
    let below = if y + 1 < h { row::<K>(reach, y + 1) } else { [0; K] };
    let o = row::<K>(open, y);
    let mut s = [0u64; K];
    let mut grows = false;
    for k in 0..K {
        s[k] = ((above[k] | below[k]) & o[k]) | r[k];
        grows |= s[k] != r[k];
    }
    if grows {
        reach[y * K..y * K + K].copy_from_slice(&run_fill(s, o));
    }
    grows
}

/// Writes into `out` the 4-neighbours of the cells of `from` that are set in
/// `allowed`, for rows `lo..=hi` of `from` (rows of `from` outside that range
/// must be empty); rows of `out` from `lo - 1` to `hi + 1` are overwritten,
/// the others left as they are. Returns the rows of `out` that came out
/// non-empty, as `(first, last)`, or `None`.
pub fn expand(
    layout: Layout,
    from: &[u64],
    allowed: &[u64],
    lo: usize,
    hi: usize,
    out: &mut [u64],
) -> Option<(usize, usize)> {
    match layout.words_per_row() {
        1 => expand_k::<1>(layout.height as usize, from, allowed, lo, hi, out),
        2 => expand_k::<2>(layout.height as usize, from, allowed, lo, hi, out),
        3 => expand_k::<3>(layout.height as usize, from, allowed, lo, hi, out),
        _ => expand_k::<4>(layout.height as usize, from, allowed, lo, hi, out),
    }
}

fn expand_k<const K: usize>(
    h: usize,
    from: &[u64],
    allowed: &[u64],
    lo: usize,
    hi: usize,
    out: &mut [u64],
) -> Option<(usize, usize)> {
    let first = lo.saturating_sub(1);
    let last = (hi + 1).min(h - 1);
    let mut rows: Option<(usize, usize)> = None;
    for y in first..=last {
        let r = row::<K>(from, y);
        let above = if y > 0 { row::<K>(from, y - 1) } else { [0; K] };
        let below = if y + 1 < h { row::<K>(from, y + 1) } else { [0; K] };
        let a = row::<K>(allowed, y);
        let mut any = 0u64;
        for k in 0..K {
            let left_in = if k + 1 < K { r[k + 1] << 63 } else { 0 };
            let right_in = if k > 0 { r[k - 1] >> 63 } else { 0 };
            let n = ((r[k] << 1) | right_in | (r[k] >> 1) | left_in | above[k] | below[k]) & a[k];
            out[y * K + k] = n;
            any |= n;
        }
        if any != 0 {
            rows = Some(match rows {
                None => (y, y),
                Some((f, _)) => (f, y),
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// Cell by cell, for comparison.
    fn naive_fill(layout: Layout, open: &[u64], seeds: &[u64]) -> Vec<u64> {
        let mut reach = vec![0u64; layout.words()];
        let mut stack: Vec<Pos> = cells(layout, seeds).filter(|&p| layout.get(open, p)).collect();
        for &p in &stack {
            layout.set(&mut reach, p);
        }
        while let Some(p) = stack.pop() {
            for d in crate::geometry::Dir::ALL {
                if let Some(q) = p.step(d, layout.width, layout.height) {
                    if layout.get(open, q) && !layout.get(&reach, q) {
                        layout.set(&mut reach, q);
                        stack.push(q);
                    }
                }
            }
        }
        reach
    }

    fn board(layout: Layout, bools: &[bool]) -> Vec<u64> {
        let mut bits = vec![0u64; layout.words()];
        for y in 0..layout.height {
            for x in 0..layout.width {
                if bools[(y * layout.width + x) as usize] {
                    layout.set(&mut bits, Pos::new(x as u8, y as u8));
                }
            }
        }
        bits
    }

    #[test]
    fn layout_of_the_default_board_and_the_largest() {
        let l = Layout::new(48, 36).unwrap();
        assert_eq!((l.words_per_row(), l.words()), (1, 36));
        assert_eq!(l.column_mask(0), (1 << 48) - 1);
        let big = Layout::new(255, 255).unwrap();
        assert_eq!((big.words_per_row(), big.words()), (4, 1020));
        assert_eq!(big.column_mask(2), u64::MAX);
        assert_eq!(big.column_mask(3), u64::MAX >> 1);
        assert_eq!(Layout::new(64, 8).unwrap().column_mask(0), u64::MAX);
        assert_eq!(Layout::new(65, 8).unwrap().column_mask(1), 1);
        assert_eq!(Layout::new(0, 8), None);
        assert_eq!(Layout::new(8, 256), None);
        assert_eq!(big.locate(Pos::new(130, 2)), (2 * 4 + 2, 1 << 2));
    }

    #[test]
    fn run_fill_takes_whole_runs_across_words() {
        // Open: bits 60..=69 (across the word boundary) and 80..=90.
        let mut open = [0u64; 2];
        for b in (60..70).chain(80..91) {
            open[b / 64] |= 1 << (b % 64);
        }
        let seed = [0, 1 << (66 - 64)];
        assert_eq!(run_fill(seed, open), [0xF << 60, 0b11_1111]);
        let seed = [1 << 61, 0];
        assert_eq!(run_fill(seed, open), [0xF << 60, 0b11_1111]);
        let seed = [0, 1 << (85 - 64)];
        assert_eq!(run_fill(seed, open), [0, open[1] & !0b11_1111]);
        // Two seeds in one run.
        assert_eq!(run_fill([0b0101], [0b1111]), [0b1111]);
        assert_eq!(run_fill([1 << 63], [u64::MAX]), [u64::MAX]);
    }

    fn arb_board() -> impl Strategy<Value = (Layout, Vec<bool>, Vec<bool>)> {
        (1u32..=140, 1u32..=20, 0u32..=100).prop_flat_map(|(w, h, density)| {
            let cells = (w * h) as usize;
            (
                Just(Layout::new(w, h).unwrap()),
                proptest::collection::vec(proptest::bool::weighted(1.0 - density as f64 / 100.0), cells),
                proptest::collection::vec(proptest::bool::weighted(0.02), cells),
            )
        })
    }

    proptest! {
        #[test]
        fn fill_matches_a_cell_by_cell_search((layout, open, seeds) in arb_board()) {
            let open = board(layout, &open);
            let seeds = board(layout, &seeds);
            let expected = naive_fill(layout, &open, &seeds);
            let mut reach: Vec<u64> = seeds.iter().zip(&open).map(|(s, o)| s & o).collect();
            fill(layout, &open, &mut reach);
            prop_assert_eq!(reach, expected);
        }

        #[test]
        fn expand_is_the_set_of_neighbours((layout, allowed, from) in arb_board()) {
            let allowed = board(layout, &allowed);
            let from = board(layout, &from);
            let mut expected = vec![0u64; layout.words()];
            for p in cells(layout, &from) {
                mark_neighbours(layout, &allowed, p, &mut expected);
            }
            let mut out = vec![u64::MAX; layout.words()];
            let h = layout.height as usize;
            let rows = expand(layout, &from, &allowed, 0, h - 1, &mut out);
            prop_assert_eq!(&out, &expected);
            let nonempty: Vec<usize> = (0..h).filter(|&y| {
                let k = layout.words_per_row();
                expected[y * k..y * k + k].iter().any(|&w| w != 0)
            }).collect();
            prop_assert_eq!(rows, nonempty.first().map(|&f| (f, *nonempty.last().unwrap())));
        }
    }

    #[test]
    fn cells_lists_set_bits_row_by_row() {
        let l = Layout::new(70, 3).unwrap();
        let mut bits = vec![0u64; l.words()];
        for p in [Pos::new(69, 0), Pos::new(0, 1), Pos::new(64, 2), Pos::new(3, 2)] {
            l.set(&mut bits, p);
        }
        let got: Vec<Pos> = cells(l, &bits).collect();
        assert_eq!(got, vec![Pos::new(69, 0), Pos::new(0, 1), Pos::new(3, 2), Pos::new(64, 2)]);
        assert_eq!(count(&bits), 4);
    }
}
