//! The space helpers on a [`SearchState`]: reachable cells and the
//! Voronoi split, whole boards of one word per row held in registers and on
//! the stack, no scratch memory and no allocation.
//!
//! They answer exactly what [`super::reachable`] and [`super::voronoi`]
//! answer on the [`crate::FastGame`] of the same position (the plain
//! versions stay as the references; `tests/properties.rs` and the tests
//! below compare them), and are faster because the layout lets them be:
//!
//! - **reachable cells**: a row takes whole runs of free cells at once
//!   (an addition carries a seed up its run, a doubling fill down), and a
//!   row is visited again only when a neighbour row has just offered it
//!   new cells: a bit set of pending rows (a board has at most 64) drives
//!   the sweeps, so an open board is filled in about one visit per row
//!   instead of three full sweeps;
//! - **Voronoi split**: one breadth-first search from both heads at once,
//!   each layer one pass over the rows next to the last layer's, both
//!   players' rows in the same pass, two rows at once (each row read from
//!   the last layer's planes and written to a second pair, so the compiler
//!   vectorizes the pass); when one side has nowhere left to go
//!   the other takes the rest with one flood fill. Whether the players
//!   meet is a flood fill from one head that stops at the first cell
//!   beside the other; separated players cost their two flood fills only.

use crate::bitboard::{count, fill_down};
use crate::config::MAX_PLAYERS;
use crate::geometry::{Dir, DirSet, Pos};
use crate::search_state::{SearchState, MAX_SEARCH_SIDE};

use super::Voronoi;

/// A whole board of a [`SearchState`]: row `y` is word `y`.
pub type Plane = [u64; MAX_SEARCH_SIDE as usize];

/// The free cells of `state`, row by row (zero past the height).
#[inline(always)]
pub fn free_cells(state: &SearchState) -> Plane {
    let w = state.config().width;
    let h = state.config().height as usize;
    let columns = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let mut free = [0u64; MAX_SEARCH_SIDE as usize];
    for (f, s) in free[..h].iter_mut().zip(state.rows()) {
        *f = !s & columns;
    }
    free
}

/// The runs of `open` holding a bit of `seeds` (`seeds ⊆ open`), whole.
#[inline(always)]
fn run_fill(seeds: u64, open: u64) -> u64 {
    // Upward an addition carries from the lowest seed to the top of its
    // run; downward a doubling fill.
    let up = ((open.wrapping_add(seeds) ^ open) | seeds) & open;
    up | fill_down(seeds, open)
}

/// The bit of row `y` in a set of rows.
#[inline(always)]
const fn row_bit(y: usize) -> u64 {
    1u64 << (y & 63)
}

/// Grows `reach` into every cell of `free` 4-connected to it. `pending`:
/// the rows of `reach` that may hold cells not yet closed into whole runs
/// (every other row of `reach` must be a union of whole runs of `free`).
///
/// A row is filled from its seeds and its neighbours in one run fill; a
/// neighbour row becomes pending only if the row offers it a free cell it
/// does not hold yet. Passes go down, then up,
/// over the pending rows, until none is left.
#[inline(always)]
fn fill(h: usize, free: &Plane, reach: &mut Plane, pending: u64) {
    fill_until(h, free, reach, pending, |_, _| false);
}

/// [`fill`], stopped as soon as `stop(y, row)` holds for a row just
/// filled (`row` its new value): whether it stopped. Cells are only ever
/// added, so a test that holds once holds at the end too; a fill that does
/// not stop is [`fill`]'s, whole.
#[inline(always)]
fn fill_until(
    h: usize,
    free: &Plane,
    reach: &mut Plane,
    mut pending: u64,
    mut stop: impl FnMut(usize, u64) -> bool,
) -> bool {
    let last = h - 1;
    let mut grow = |y: usize, pending: &mut u64| -> u64 {
        *pending &= !row_bit(y);
        // Rows are masked to the plane (`& 63`, a no-op for `y < 64`):
        // no bounds checks.
        let (up, at, down) = (y.wrapping_sub(1) & 63, y & 63, (y + 1) & 63);
        let open = free[at];
        let above = if y > 0 { reach[up] } else { 0 };
        let below = if y < last { reach[down] } else { 0 };
        let seeds = (reach[at] | above | below) & open;
        let row = run_fill(seeds, open);
        reach[at] = row;
        // Even a row that did not change may hold seeds its neighbours
        // have not seen.
        if y > 0 && row & free[up] & !reach[up] != 0 {
            *pending |= row_bit(y - 1);
        }
        if y < last && row & free[down] & !reach[down] != 0 {
            *pending |= row_bit(y + 1);
        }
        row
    };
    while pending != 0 {
        // Down: the lowest pending row at or after the last one, again and again.
        let mut y = pending.trailing_zeros() as usize;
        loop {
            if stop(y, grow(y, &mut pending)) {
                return true;
            }
            let ahead = pending & (u64::MAX << y);
            if ahead == 0 {
                break;
            }
            y = ahead.trailing_zeros() as usize;
        }
        if pending == 0 {
            return false;
        }
        // Up: the highest pending row at or before the last one.
        let mut y = 63 - pending.leading_zeros() as usize;
        loop {
            if stop(y, grow(y, &mut pending)) {
                return true;
            }
            let behind = pending & (u64::MAX >> (63 - y));
            if behind == 0 {
                break;
            }
            y = 63 - behind.leading_zeros() as usize;
        }
    }
    false
}

/// Grows `reach` into every cell of `open` 4-connected to it, on planes of
/// `h` rows (`1..=64`; `reach` a subset of `open`, both zero past `h`): the
/// flood fill of [`reachable`], from any seeds, for callers that keep their
/// own planes (the search bot's chamber bound labels the parts of a region
/// with [`grow_from`]).
pub fn grow(h: usize, open: &Plane, reach: &mut Plane) {
    let h = h.min(MAX_SEARCH_SIDE as usize);
    let mut rows = 0;
    for (y, &row) in reach[..h].iter().enumerate() {
        rows |= ((row != 0) as u64) << y;
    }
    grow_from(h, open, reach, rows);
}

/// [`grow`] when the caller knows which rows of `reach` hold its cells:
/// `rows`, a bit per row (`1 << y`; every row with a cell must be in it),
/// so the fill does not look for them. A chamber bound grows one part of
/// its region at a time from a single cell, and a scan of every row for
/// each part cost about as much as filling a small one.
pub fn grow_from(h: usize, open: &Plane, reach: &mut Plane, rows: u64) {
    if h == 0 {
        return;
    }
    let h = h.min(MAX_SEARCH_SIDE as usize);
    fill(h, open, reach, rows & (u64::MAX >> (64 - h)));
}

/// Sets in `reach` the free 4-neighbours of `pos`; the rows set.
#[inline(always)]
fn seed_neighbours(state: &SearchState, free: &Plane, pos: Pos, reach: &mut Plane) -> u64 {
    seed_neighbours_on(state.config().width, state.config().height, free, pos, reach)
}

/// [`seed_neighbours`] on a board of `w` × `h` cells.
#[inline(always)]
fn seed_neighbours_on(w: u32, h: u32, free: &Plane, pos: Pos, reach: &mut Plane) -> u64 {
    let mut rows = 0;
    for d in Dir::ALL {
        if let Some(q) = pos.step(d, w, h) {
            let bit = free[q.y as usize] & 1u64 << q.x;
            reach[q.y as usize] |= bit;
            rows |= ((bit != 0) as u64) << q.y;
        }
    }
    rows
}

/// The number of free cells a cycle at `from` can reach (as
/// [`super::reachable`]): `from` itself not counted, `0` off the board.
pub fn reachable(state: &SearchState, from: Pos) -> u32 {
    let mut reach = [0u64; MAX_SEARCH_SIDE as usize];
    reachable_cells(state, from, &mut reach)
}

/// [`reachable`], leaving the cells in `reach` (overwritten whole).
pub fn reachable_cells(state: &SearchState, from: Pos, reach: &mut Plane) -> u32 {
    *reach = [0; MAX_SEARCH_SIDE as usize];
    let (w, h) = (state.config().width, state.config().height);
    if from.x as u32 >= w || from.y as u32 >= h {
        return 0;
    }
    let free = free_cells(state);
    let pending = seed_neighbours(state, &free, from, reach);
    fill(h as usize, &free, reach, pending);
    count(&reach[..h as usize])
}

/// The first question of a two-player split, on a board of `size` (`w` ×
/// `h`, one word a row, at most 64 rows): the room of the player at
/// `heads[0]` (the free cells joined to its free neighbours) grows in
/// `room` (empty), and whether it holds a cell beside `heads[1]` (the two
/// players meet). The fill stops at the first such cell, as the room is
/// then not needed (the layered search finds the cells each reaches
/// first). When they do not meet, `room` is the whole room. The fill's
/// first pass goes down the board, so a caller starts from the upper head.
pub(crate) fn room_or_meet(size: (u32, u32), free: &Plane, heads: [Pos; 2], room: &mut Plane) -> bool {
    let (w, h) = size;
    // The cells beside the other head, in its row and the rows above and
    // below (bits past the board's edges are never in a row of `free`).
    let (x, y) = (heads[1].x as u32, heads[1].y as usize);
    let column = 1u64 << x;
    let beside = [column, column << 1 | column >> 1, column];
    // Every row that gains a cell, the seeds' rows first, is grown, and
    // tested as it is.
    let pending = seed_neighbours_on(w, h, free, heads[0], room);
    fill_until(h as usize, free, room, pending, |row_y, row| {
        let i = row_y.wrapping_sub(y).wrapping_add(1);
        i < 3 && row & beside[i] != 0
    })
}

/// Whether a cell of `room` is next to `pos`.
fn touches(state: &SearchState, room: &Plane, pos: Pos) -> bool {
    let (w, h) = (state.config().width, state.config().height);
    Dir::ALL.iter().filter_map(|&d| pos.step(d, w, h)).any(|q| room[q.y as usize] >> q.x & 1 != 0)
}

/// Whether the living players are separated (as [`super::separated`]): no
/// path of free cells joins the heads of any two of them.
pub fn separated(state: &SearchState) -> bool {
    let alive = state.alive_mask();
    let living = || (0..state.num_players()).filter(move |&id| alive >> id & 1 != 0);
    let mut room = [0u64; MAX_SEARCH_SIDE as usize];
    for p in living() {
        reachable_cells(state, state.head(p), &mut room);
        if living().any(|q| q != p && touches(state, &room, state.head(q))) {
            return false;
        }
    }
    true
}

/// The moves of player `id` that do not crash into the board as it is now
/// (as [`super::safe_moves`]): empty for an eliminated player or an id out
/// of range.
pub fn safe_moves(state: &SearchState, id: usize) -> DirSet {
    if id >= state.num_players() || !state.is_alive(id) {
        return DirSet::NONE;
    }
    let c = state.config();
    state.player(id).safe_moves(c.width, c.height, |pos| state.cell_is_empty(pos))
}

/// The Voronoi split of the free cells between the living players (as
/// [`super::voronoi`]).
pub fn voronoi(state: &SearchState) -> Voronoi {
    let alive = state.alive_mask();
    if alive.count_ones() == 2 {
        // Two planes, not eight: the usual duel.
        let a = alive.trailing_zeros() as usize;
        let b = 7 - (alive.leading_zeros() as usize);
        let (mut own_a, mut own_b) = ([0u64; MAX_SEARCH_SIDE as usize], [0u64; MAX_SEARCH_SIDE as usize]);
        return pair(state, [a, b], [&mut own_a, &mut own_b]).0;
    }
    let mut owned = [[0u64; MAX_SEARCH_SIDE as usize]; MAX_PLAYERS];
    voronoi_cells(state, &mut owned)
}

/// [`voronoi`], leaving the cells each player owns in `owned` (by id; the
/// rows below the height of every plane are overwritten, the others left
/// as they are; the planes of eliminated players are emptied).
pub fn voronoi_cells(state: &SearchState, owned: &mut [Plane; MAX_PLAYERS]) -> Voronoi {
    let (living, riders) = living_and_cleared(state, owned);
    match living[..riders] {
        [] => Voronoi::default(),
        [a] => {
            let mut result = Voronoi::default();
            result.counts[a] = reachable_cells(state, state.head(a), &mut owned[a]);
            result
        }
        [a, b] => {
            let (low, high) = owned.split_at_mut(b);
            pair(state, [a, b], [&mut low[a], &mut high[0]]).0
        }
        _ => many(state, &living[..riders], core::iter::empty(), owned),
    }
}

/// The ids of the living players, in order, and how many there are; with
/// the rows of every plane of `owned` below the height zeroed, as the
/// splits that fill it expect. Inlined: called, it cost the four-rider
/// split about 290 instructions more (callgrind's `lean-voronoi-four`).
#[inline(always)]
fn living_and_cleared(state: &SearchState, owned: &mut [Plane; MAX_PLAYERS]) -> ([usize; MAX_PLAYERS], usize) {
    let h = state.config().height as usize;
    for plane in owned.iter_mut() {
        plane[..h].fill(0);
    }
    let alive = state.alive_mask();
    let mut living = [0usize; MAX_PLAYERS];
    let mut riders = 0;
    for (id, slot) in (0..state.num_players()).filter(|&id| alive >> id & 1 != 0).zip(living.iter_mut()) {
        *slot = id;
        riders += 1;
    }
    (living, riders)
}

/// The most moves a [`Start`] sets out ahead of the heads: more is read as
/// this (the cells of the largest board, so the search ends within as
/// many layers).
pub const MAX_AHEAD: u32 = MAX_SEARCH_SIDE * MAX_SEARCH_SIDE;

/// A cell a rider also sets out from in [`voronoi_cells_ahead`], `ahead`
/// moves before the heads do (at most [`MAX_AHEAD`]): a place it has
/// been, counted as if it could have gone another way from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// The rider's id.
    pub id: usize,
    /// The cell it sets out from (a solid one: a cell of its trail).
    pub pos: Pos,
    /// How many moves before the heads it sets out.
    pub ahead: u32,
}

/// [`voronoi_cells`] where riders also set out from earlier cells of
/// theirs, each `ahead` moves before the heads: a free cell goes to the
/// rider that reaches it in strictly fewer moves than every other, from
/// its head or from any of its `starts` (a cell `d` moves from a start
/// `ahead` moves early is reached at `d - ahead`); cells reached first by
/// several at once are ties. The paranoid search of three riders or more
/// lets the riders it does not play set out from every cell they rode
/// through in the ticks it searched, so that their guessed moves do not
/// hand us the cells they could have taken. Starts of riders not living,
/// off the board or on a free cell are left out; without any, this is
/// [`voronoi_cells`].
pub fn voronoi_cells_ahead(state: &SearchState, starts: &[Start], owned: &mut [Plane; MAX_PLAYERS]) -> Voronoi {
    let (w, h) = (state.config().width, state.config().height);
    let alive = state.alive_mask();
    let counts = |s: &&Start| {
        s.id < MAX_PLAYERS
            && alive >> s.id & 1 != 0
            && (s.pos.x as u32) < w
            && (s.pos.y as u32) < h
            && !state.cell_is_empty(s.pos)
    };
    if !starts.iter().any(|s| counts(&s)) {
        return voronoi_cells(state, owned);
    }
    let (living, riders) = living_and_cleared(state, owned);
    let capped = starts.iter().filter(counts).map(|s| Start { ahead: s.ahead.min(MAX_AHEAD), ..*s });
    many(state, &living[..riders], capped, owned)
}

/// The duel of two living players `a` and `b` (distinct ids, in either
/// order), in one call: whether they are separated (no free path joins
/// their heads: `a`'s room holds no neighbour of `b`'s head) and then
/// each one's room, or else the Voronoi split of [`voronoi_cells`] between
/// the two, as if nobody else rode. The cells go to `own_a` and `own_b`
/// (the rows below the height overwritten). A search that asks both
/// questions of a position pays for one flood fill fewer than
/// [`reachable_cells`] followed by [`voronoi_cells`].
pub fn duel_cells(state: &SearchState, a: usize, b: usize, own_a: &mut Plane, own_b: &mut Plane) -> (Voronoi, bool) {
    let h = state.config().height as usize;
    own_a[..h].fill(0);
    own_b[..h].fill(0);
    pair(state, [a, b], [own_a, own_b])
}

/// [`voronoi_cells`] for exactly two living players `a` and `b` (empty
/// planes), and whether they are separated.
fn pair(state: &SearchState, [a, b]: [usize; 2], owned: [&mut Plane; 2]) -> (Voronoi, bool) {
    let h = state.config().height as usize;
    let heads = [state.head(a), state.head(b)];
    let free = free_cells(state);
    let [own_a, own_b] = owned;
    let mut result = Voronoi::default();

    // From the upper head (the fill goes down first, toward the other).
    let size = (state.config().width, state.config().height);
    let upper = (heads[1].y < heads[0].y) as usize;
    let (first, second) = if upper == 0 { (&mut *own_a, &mut *own_b) } else { (&mut *own_b, &mut *own_a) };
    if !room_or_meet(size, &free, [heads[upper], heads[1 - upper]], first) {
        let pending = seed_neighbours(state, &free, heads[1 - upper], second);
        fill(h, &free, second, pending);
        result.counts[a] = count(&own_a[..h]);
        result.counts[b] = count(&own_b[..h]);
        return (result, true);
    }
    first[..h].fill(0);

    own_a[heads[0].y as usize] |= 1 << heads[0].x;
    own_b[heads[1].y as usize] |= 1 << heads[1].x;
    let (y0, y1) = (heads[0].y as usize, heads[1].y as usize);
    pair_layers(h, (y0.min(y1), y0.max(y1)), &free, [own_a, own_b]);
    // Reached by both: a tie (a cell reached by one is out of the other's
    // way from then on, so both got there at the same distance).
    own_a[heads[0].y as usize] &= !(1 << heads[0].x);
    own_b[heads[1].y as usize] &= !(1 << heads[1].x);
    [result.counts[a], result.counts[b], result.ties] = take_ties(&mut own_a[..h], &mut own_b[..h]);
    (result, false)
}

/// Takes the cells both `own_a` and `own_b` hold (ties: both reached them
/// at the same distance, as a cell reached by one is out of the other's
/// way from then on) out of both; the cells left to each, and the ties.
/// Each count is a pass of its own over the words, which the compiler
/// vectorizes: on the early board of the benches about 1,000 instructions,
/// where one pass counting word by word took about 2,400 (the x86-64
/// baseline has no count of ones of its own; callgrind).
pub(crate) fn take_ties(own_a: &mut [u64], own_b: &mut [u64]) -> [u32; 3] {
    let ties = own_a.iter().zip(own_b.iter()).map(|(x, y)| (x & y).count_ones()).sum();
    for (x, y) in own_a.iter_mut().zip(own_b.iter_mut()) {
        let both = *x & *y;
        *x &= !both;
        *y &= !both;
    }
    [count(own_a), count(own_b), ties]
}

/// Planes with a zero row above and below: row `y` of the board is entry
/// `y + 1`, so a layer reads the rows next to any row without a test.
type Padded = [u64; MAX_SEARCH_SIDE as usize + 2];

/// The layered search of a two-player Voronoi split on boards of one word
/// per row (`h` rows, `1..=64`), for [`pair`] and for the fast engine's
/// split: `reached` hold the heads (in rows `span.0..=span.1`), `free` the
/// free cells; on return `reached` hold every cell each player reaches no
/// later than the other (the heads too).
///
/// A layer reads the planes of the last one and writes the other pair of
/// planes (two pairs, taken in turn), every row from the same old rows:
/// no row waits for the one before, so the compiler works on two rows at
/// once (SSE2), about half the instructions of rows updated in place. The
/// rows a layer passes over are those from the first to the last the
/// last one gained and the rows beside them, less one run of rows between
/// that gained nothing (on an open board, the rows about the heads once
/// full: 846 rows passed over in all on the early board of the benches,
/// 576 without them); a row left out has the same value in both pairs (it
/// did not change), so taking turns loses nothing. When one side gains
/// nothing the other takes the rest, one flood fill.
pub(crate) fn pair_layers(h: usize, span: (usize, usize), free: &[u64], reached: [&mut [u64]; 2]) {
    let h = h.min(MAX_SEARCH_SIDE as usize);
    let [own_a, own_b] = reached;
    let mut open = pad(free, h);
    let start = [pad(own_a, h), pad(own_b, h)];
    let mut planes = [start, start];
    let (mut lo, mut hi) = (span.0 + 1, span.1 + 1);
    // Rows `gap.0..=gap.1` did not gain at the last layer, the rows beside
    // that run did: the next layer passes over its two end rows only
    // (nothing is left out when `gap.1 < gap.0 + 2`).
    let mut gap = (0, 0);
    let mut turn = 0;
    let rest = loop {
        let (first, last) = ((lo - 1).max(1), (hi + 1).min(h));
        let (x, y) = planes.split_at_mut(1);
        let (old, new) = if turn == 0 { (&x[0], &mut y[0]) } else { (&y[0], &mut x[0]) };
        let [na, nb] = new;
        let split = gap.1 >= gap.0 + 2;
        let (any0, any1) = if split {
            let (above0, above1) = layer(&old[0], &old[1], na, nb, &mut open, first, gap.0);
            let (below0, below1) = layer(&old[0], &old[1], na, nb, &mut open, gap.1, last);
            (above0 | below0, above1 | below1)
        } else {
            layer(&old[0], &old[1], na, nb, &mut open, first, last)
        };
        turn ^= 1;
        if any0 == 0 || any1 == 0 {
            // One side (or both) has nowhere left to go.
            break (any0 != 0) as usize + 2 * (any1 != 0) as usize;
        }
        // Only the rows next to those this layer gained can gain next (as
        // both sides gained, some row did).
        let (a, b) = (&new[0], &new[1]);
        let gained = |y: usize| (a[y] ^ old[0][y]) | (b[y] ^ old[1][y]) != 0;
        lo = first;
        while lo < last && !gained(lo) {
            lo += 1;
        }
        hi = last;
        while hi > lo && !gained(hi) {
            hi -= 1;
        }
        // On an open board the rows about the heads fill up while the top
        // and the bottom still fill: the run of rows in between that did
        // not gain, grown from the last one, or else from the middle row.
        // `lo` and `hi` gained, so the scans stop between them.
        let (mut top, mut bottom) = if split && lo <= gap.0 && gap.1 <= hi {
            (gap.0 + 1, gap.1 - 1)
        } else {
            let middle = (lo + hi) / 2;
            if hi - lo < 4 || gained(middle) {
                gap = (0, 0);
                continue;
            }
            (middle, middle)
        };
        while !gained(top - 1) {
            top -= 1;
        }
        while !gained(bottom + 1) {
            bottom += 1;
        }
        gap = (top, bottom);
    };
    let done = &planes[turn];
    own_a[..h].copy_from_slice(&done[0][1..=h]);
    own_b[..h].copy_from_slice(&done[1][1..=h]);
    if rest != 0 {
        // The other takes everything it still reaches.
        let side = if rest == 1 { &mut *own_a } else { &mut *own_b };
        let mut room = [0u64; MAX_SEARCH_SIDE as usize];
        room[..h].copy_from_slice(&side[..h]);
        let mut field = room;
        let mut pending = 0;
        for (y, (f, open)) in field[..h].iter_mut().zip(&open[1..]).enumerate() {
            pending |= ((*f != 0) as u64) << y;
            *f |= open;
        }
        fill(h, &field, &mut room, pending);
        side[..h].copy_from_slice(&room[..h]);
    }
}

/// One layer of [`pair_layers`] over rows `first..=last` (padded indices):
/// the free cells beside `a` and `b` added to `na` and `nb`, taken out of
/// `open`; what each side gained, or-ed over the rows.
#[inline(always)]
fn layer(
    a: &Padded,
    b: &Padded,
    na: &mut Padded,
    nb: &mut Padded,
    open: &mut Padded,
    first: usize,
    last: usize,
) -> (u64, u64) {
    let (mut any0, mut any1) = (0u64, 0u64);
    // An exclusive range, capped so that `y + 1` is in the plane: the loop
    // then carries no bounds checks and vectorizes (an inclusive one does not).
    let end = last.min(MAX_SEARCH_SIDE as usize) + 1;
    for y in first.max(1)..end {
        let f = open[y];
        let n0 = beside(a, y) & f;
        let n1 = beside(b, y) & f;
        open[y] = f & !(n0 | n1);
        na[y] = a[y] | n0;
        nb[y] = b[y] | n1;
        any0 |= n0;
        any1 |= n1;
    }
    (any0, any1)
}

/// [`voronoi_cells`] for three living players or more, and
/// [`voronoi_cells_ahead`] for any number: one layered search from every
/// head at once, each layer settled as it comes (a cell first reached by
/// one player is its own, by several a tie; the searches go on through
/// ties for each of them). A start `ahead` moves early joins its rider's
/// layer that many layers before the heads do (`starts`: living riders'
/// cells on the board, at most [`MAX_AHEAD`] ahead; `owned` zeroed below
/// the height).
///
/// Each rider's newest layer is grown into a second plane (the two taken
/// in turn, every row rewritten each layer, so the planes are zeroed once
/// a call), and a layer is settled over whole planes, the cells counted
/// once at the end: no row waits for another, so every pass vectorizes,
/// as in [`pair_layers`].
fn many(
    state: &SearchState,
    living: &[usize],
    starts: impl Iterator<Item = Start> + Clone,
    owned: &mut [Plane; MAX_PLAYERS],
) -> Voronoi {
    let h = (state.config().height as usize).min(MAX_SEARCH_SIDE as usize);
    let mut open = pad(&free_cells(state), h);
    let mut result = Voronoi::default();
    let mut ties = [0u64; MAX_SEARCH_SIDE as usize + 2];
    // By the rider's place in `living`: its layer of the last step, and of this one.
    let mut planes = [[[0u64; MAX_SEARCH_SIDE as usize + 2]; MAX_PLAYERS]; 2];
    let riders = living.len().min(MAX_PLAYERS);
    // The heads set out at layer `lead`, a start `ahead` early at `lead - ahead`.
    let lead = starts.clone().map(|s| s.ahead).max().unwrap_or(0);
    // A rider's place in `living`, by id (a start names its rider by id).
    let mut place = [usize::MAX; MAX_PLAYERS];
    for (k, &id) in living[..riders].iter().enumerate() {
        place[id] = k;
    }
    let (mut once, mut twice) = ([0u64; MAX_SEARCH_SIDE as usize + 2], [0u64; MAX_SEARCH_SIDE as usize + 2]);
    let mut turn = 0;
    for layer in 0.. {
        let (x, y) = planes.split_at_mut(1);
        let (last, next) = if turn == 0 { (&mut x[0], &mut y[0]) } else { (&mut y[0], &mut x[0]) };
        if layer <= lead {
            // One pass over the starts a layer, whoever's they are.
            for s in starts.clone().filter(|s| lead - s.ahead == layer) {
                if let Some(plane) = last[..riders].get_mut(place[s.id]) {
                    plane[s.pos.y as usize + 1] |= 1 << s.pos.x;
                }
            }
            if layer == lead {
                for (plane, &id) in last.iter_mut().zip(living) {
                    let head = state.head(id);
                    plane[head.y as usize + 1] |= 1 << head.x;
                }
            }
        }
        let mut any = 0u64;
        for (from, to) in last[..riders].iter().zip(next[..riders].iter_mut()) {
            any |= grow_layer(from, to, &open, h);
        }
        if any == 0 && layer >= lead {
            break;
        }
        // Settled over whole planes, row by row (no row waits for another,
        // so these passes vectorize too); cells are counted once, at the end.
        // `once` and `twice` start each layer from the first two riders'
        // cells (the second plane stays empty when one rides alone), the
        // rows of the board only, in one pass: zeroing both whole each
        // layer took a fifth of the split's instructions in the search
        // bot's free-for-all games.
        let rows = 1..h + 1;
        for (((o, t), a), b) in once[rows.clone()]
            .iter_mut()
            .zip(&mut twice[rows.clone()])
            .zip(&next[0][rows.clone()])
            .zip(&next[1][rows.clone()])
        {
            *o = a | b;
            *t = a & b;
        }
        for plane in &next[riders.min(2)..riders] {
            for ((o, t), v) in once[rows.clone()].iter_mut().zip(&mut twice[rows.clone()]).zip(&plane[rows.clone()]) {
                *t |= *o & v;
                *o |= v;
            }
        }
        for (plane, &id) in next[..riders].iter().zip(living) {
            for ((own, v), t) in owned[id][..h].iter_mut().zip(&plane[rows.clone()]).zip(&twice[rows.clone()]) {
                *own |= v & !t;
            }
        }
        for ((tie, f), (o, t)) in
            ties[rows.clone()].iter_mut().zip(&mut open[rows.clone()]).zip(once[rows.clone()].iter().zip(&twice[rows]))
        {
            *tie |= t;
            *f &= !o;
        }
        turn ^= 1;
    }
    for &id in living {
        result.counts[id] = count(&owned[id][..h]);
    }
    result.ties = count(&ties);
    result
}

/// The cells of row `y` (`1..=64`) beside a cell of `plane`: left, right,
/// above or below. The one place the layered searches step.
#[inline(always)]
fn beside(plane: &Padded, y: usize) -> u64 {
    plane[y] << 1 | plane[y] >> 1 | plane[y - 1] | plane[y + 1]
}

/// The first `h` rows of `plane` with a zero row above and below (rows
/// past `h` zero too). Built row by row rather than zeroed and then copied
/// into: zeroing 2 KiB cost about a tenth of an early two-player split.
fn pad(plane: &[u64], h: usize) -> Padded {
    core::array::from_fn(|y| if (1..=h).contains(&y) { plane[y - 1] } else { 0 })
}

/// The free cells (`open`) beside the cells of `from`, every row of
/// `1..=h` written to `to` (padded planes); or-ed over the rows.
#[inline(always)]
fn grow_layer(from: &Padded, to: &mut Padded, open: &Padded, h: usize) -> u64 {
    let mut any = 0u64;
    // An exclusive range capped within the plane: no bounds checks, and
    // the loop vectorizes.
    for y in 1..h.min(MAX_SEARCH_SIDE as usize) + 1 {
        let n = beside(from, y) & open[y];
        to[y] = n;
        any |= n;
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::engine::Engine;
    use crate::geometry::{CellValue, EMPTY, ROCK};
    use crate::player::PlayerState;
    use crate::position::Position;
    use crate::space::{self, Scratch};
    use crate::{Action, FastGame};
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The lean helpers against the plain ones on the fast engine, cell by cell.
    fn check(fast: &FastGame) {
        let lean = SearchState::from_game(fast).unwrap();
        let mut scratch = Scratch::for_game(fast);
        let h = fast.config().height as usize;
        let mut reach = [0u64; 64];
        for id in 0..fast.num_players() {
            for from in [fast.head(id), Pos::new(0, 0), Pos::new(3, 5)] {
                let want = space::reachable_with(fast, from, &mut scratch);
                assert_eq!(reachable_cells(&lean, from, &mut reach), want, "room from {from}");
                assert_eq!(&reach[..h], scratch.reached(), "cells from {from}");
                assert!(reach[h..].iter().all(|&w| w == 0));
            }
        }
        let want = space::voronoi_with(fast, &mut scratch);
        let mut owned = [[u64::MAX; 64]; MAX_PLAYERS];
        assert_eq!(voronoi_cells(&lean, &mut owned), want);
        for (id, plane) in owned.iter().enumerate().take(fast.num_players()) {
            assert_eq!(&plane[..h], scratch.owned(id), "cells of player {id}");
        }
        assert_eq!(voronoi(&lean), want);
        let living: Vec<usize> = (0..fast.num_players()).filter(|&id| fast.is_alive(id)).collect();
        for &a in &living {
            for &b in living.iter().filter(|&&b| b != a) {
                let (mut own_a, mut own_b) = ([u64::MAX; 64], [u64::MAX; 64]);
                let (split, apart) = duel_cells(&lean, a, b, &mut own_a, &mut own_b);
                assert_eq!(apart, space::separated_pair(fast, a, b), "separated {a} {b}");
                if apart {
                    assert_eq!(split.counts[a], space::reachable_with(fast, fast.head(a), &mut scratch));
                    assert_eq!(&own_a[..h], scratch.reached(), "room of {a}");
                    assert_eq!(split.counts[b], space::reachable_with(fast, fast.head(b), &mut scratch));
                    assert_eq!(&own_b[..h], scratch.reached(), "room of {b}");
                } else if living.len() == 2 {
                    assert_eq!(split, want, "the duel's split is the split");
                    assert_eq!(&own_a[..h], &owned[a][..h]);
                    assert_eq!(&own_b[..h], &owned[b][..h]);
                }
            }
        }
        assert_eq!(separated(&lean), space::separated(fast), "separated");
        for id in 0..=fast.num_players() {
            assert_eq!(safe_moves(&lean, id), space::safe_moves(fast, id), "safe moves of {id}");
        }
    }

    #[test]
    fn played_games_agree_with_the_plain_helpers_every_tick() {
        for (seed, players, w, h) in [(1, 2, 48, 36), (2, 2, 64, 64), (3, 3, 20, 16), (4, 5, 33, 40), (5, 8, 64, 17)] {
            let config = Config { width: w, height: h, players, rock_density: 10, ..Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            let mut t = 0usize;
            while !game.is_over() {
                check(&game);
                let actions: Vec<Action> = (0..players as usize)
                    .map(|i| {
                        let safe = space::safe_moves(&game, i);
                        safe.iter().nth((t + i) % safe.len().max(1) as usize).map_or(Action::Keep, Action::Move)
                    })
                    .collect();
                game.step(&actions).unwrap();
                t += 1;
            }
            check(&game);
        }
    }

    /// [`voronoi_cells_ahead`] the plain way: each rider's arrival at each
    /// free cell is the least, over its head and its starts, of the
    /// breadth-first distance less the head start; a cell goes to the one
    /// least arrival, and is a tie when several share it.
    fn split_ahead(state: &SearchState, starts: &[Start]) -> (Voronoi, [Plane; MAX_PLAYERS]) {
        let (w, h) = (state.config().width, state.config().height);
        let cells = (w * h) as usize;
        let distances = |from: Pos| {
            let mut d = alloc::vec![None; cells];
            let mut queue = alloc::collections::VecDeque::from([(from, 0i64)]);
            while let Some((p, k)) = queue.pop_front() {
                for q in Dir::ALL.iter().filter_map(|&dir| p.step(dir, w, h)) {
                    if state.cell_is_empty(q) && d[q.index(w)].is_none() {
                        d[q.index(w)] = Some(k + 1);
                        queue.push_back((q, k + 1));
                    }
                }
            }
            d
        };
        let alive = state.alive_mask();
        let mut arrival = alloc::vec![alloc::vec![i64::MAX; cells]; MAX_PLAYERS];
        for id in (0..state.num_players()).filter(|&id| alive >> id & 1 != 0) {
            let from_starts = starts
                .iter()
                .filter(|s| s.id == id && (s.pos.x as u32) < w && (s.pos.y as u32) < h && !state.cell_is_empty(s.pos));
            for (pos, ahead) in core::iter::once((state.head(id), 0)).chain(from_starts.map(|s| (s.pos, s.ahead))) {
                for (a, d) in arrival[id].iter_mut().zip(distances(pos)) {
                    if let Some(d) = d {
                        *a = (*a).min(d - ahead as i64);
                    }
                }
            }
        }
        let mut split = Voronoi::default();
        let mut owned = [[0u64; 64]; MAX_PLAYERS];
        for c in 0..cells {
            let best = (0..MAX_PLAYERS).map(|id| arrival[id][c]).min().unwrap();
            let firsts: Vec<usize> = (0..MAX_PLAYERS).filter(|&id| arrival[id][c] == best).collect();
            match firsts[..] {
                _ if best == i64::MAX => {}
                [id] => {
                    split.counts[id] += 1;
                    owned[id][c / w as usize] |= 1 << (c % w as usize);
                }
                _ => split.ties += 1,
            }
        }
        (split, owned)
    }

    #[test]
    fn a_start_ahead_takes_the_cells_it_reaches_first() {
        // One free row between rocks: the rider at the east end set out
        // two moves early from its head, so it reaches x at 6 - x, the
        // west rider at x: x = 3 ties, the west owns 1 and 2, the east 4 to 7.
        let (w, h) = (9u32, 8u32);
        let mut grid = alloc::vec![ROCK; (w * h) as usize];
        for x in 1..w - 1 {
            grid[(w + x) as usize] = EMPTY;
        }
        grid[w as usize] = 0;
        grid[(2 * w - 1) as usize] = 1;
        let players = alloc::vec![
            PlayerState { pos: Pos::new(0, 1), dir: Dir::E, alive: true, trail: 1, eliminated_at: None },
            PlayerState { pos: Pos::new(8, 1), dir: Dir::W, alive: true, trail: 1, eliminated_at: None },
        ];
        let config = Config { width: w, height: h, ..Config::default() };
        let game = FastGame::from_position(&Position { config, tick: 0, grid, players }).unwrap();
        let lean = SearchState::from_game(&game).unwrap();
        let mut owned = [[u64::MAX; 64]; MAX_PLAYERS];
        let start = Start { id: 1, pos: Pos::new(8, 1), ahead: 2 };
        let split = voronoi_cells_ahead(&lean, &[start], &mut owned);
        assert_eq!((split.counts[0], split.counts[1], split.ties), (2, 4, 1));
        assert_eq!(owned[0][1], 0b110);
        assert_eq!(owned[1][1], 0b1111_0000);
        let (want, want_owned) = split_ahead(&lean, &[start]);
        assert_eq!(split, want);
        assert!(owned.iter().zip(&want_owned).all(|(a, b)| a[..h as usize] == b[..h as usize]));
        // Without a start, or with one on a free cell, of a rider not
        // riding or off the board: the plain split (4 tie; 3 cells each).
        for starts in [
            &[][..],
            &[Start { pos: Pos::new(5, 1), ..start }],
            &[Start { id: 2, ..start }],
            &[Start { pos: Pos::new(9, 1), ..start }],
        ] {
            let split = voronoi_cells_ahead(&lean, starts, &mut owned);
            assert_eq!((split.counts[0], split.counts[1], split.ties), (3, 3, 1), "{starts:?}");
            assert_eq!(split, voronoi(&lean));
        }
        // However far ahead, the search ends: the east rider takes the row.
        let far = Start { ahead: u32::MAX, ..start };
        let split = voronoi_cells_ahead(&lean, &[far], &mut owned);
        assert_eq!((split.counts[0], split.counts[1], split.ties), (0, 7, 0));
    }

    #[test]
    fn a_spiral_needs_many_passes_and_still_fills_whole() {
        // A winding corridor: every pass of the fill gains one bend.
        let (w, h) = (17u32, 17u32);
        let mut grid = alloc::vec![EMPTY; (w * h) as usize];
        for y in (1..h - 1).step_by(2) {
            for x in 0..w {
                let gap = if (y / 2) % 2 == 0 { w - 1 } else { 0 };
                if x != gap {
                    grid[(y * w + x) as usize] = ROCK;
                }
            }
        }
        grid[0] = 0;
        grid[(h * w - 1) as usize] = 1;
        let players = alloc::vec![
            PlayerState { pos: Pos::new(0, 0), dir: Dir::E, alive: true, trail: 1, eliminated_at: None },
            PlayerState { pos: Pos::new(16, 16), dir: Dir::W, alive: true, trail: 1, eliminated_at: None },
        ];
        let config = Config { width: w, height: h, ..Config::default() };
        let game = FastGame::from_position(&Position { config, tick: 0, grid, players }).unwrap();
        check(&game);
        let lean = SearchState::from_game(&game).unwrap();
        assert_eq!(reachable(&lean, Pos::new(0, 0)), 9 * 17 + 8 - 2);
    }

    proptest! {
        #[test]
        fn grow_fills_as_the_plain_fill(
            w in 1u32..=64,
            h in 1u32..=64,
            density in 0u64..=70,
            bits in proptest::collection::vec(any::<u64>(), 64 * 3),
        ) {
            use crate::bitboard::{self, Layout};
            let layout = Layout::new(w, h).unwrap();
            let columns = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let mut open = [0u64; 64];
            let mut reach = [0u64; 64];
            for y in 0..h as usize {
                // About `density` % solid: a cell is solid when two of three
                // random words say so, thinned by the density.
                let (a, b, c) = (bits[3 * y], bits[3 * y + 1], bits[3 * y + 2]);
                let solid = if density < 35 { a & b & c } else { (a & b) | (b & c) | (a & c) };
                open[y] = !solid & columns;
                reach[y] = open[y] & a & c.rotate_left(17) & b.rotate_left(5) & bits[(3 * y + 7) % 192];
            }
            let mut want = reach;
            bitboard::fill(layout, &open[..h as usize], &mut want[..h as usize]);
            // From the seeds' rows alone, as a chamber bound grows a part.
            let mut from_rows = reach;
            let rows = (0..h as usize).filter(|&y| reach[y] != 0).fold(0u64, |r, y| r | 1 << y);
            grow_from(h as usize, &open, &mut from_rows, rows);
            grow(h as usize, &open, &mut reach);
            prop_assert_eq!(reach, want);
            prop_assert_eq!(from_rows, want);
        }
    }

    /// A board of `w` × `h` for the property tests: a rock where `cells`
    /// falls under `density` (in %), and a rider at each of `heads` (its
    /// head its only trail cell; two riders below 16 a side), or `None`
    /// when two heads share a cell. Gives the riders' count, the grid and
    /// their states.
    fn random_board(
        w: u32,
        h: u32,
        density: u32,
        cells: &[u32],
        heads: &[(u8, u8, bool)],
    ) -> Option<(usize, Vec<CellValue>, Vec<PlayerState>)> {
        let players = if w < 16 || h < 16 { 2 } else { heads.len() };
        let mut grid: Vec<CellValue> =
            (0..(w * h) as usize).map(|i| if cells[i] < density { ROCK } else { EMPTY }).collect();
        let mut states = Vec::new();
        for (id, &(x, y, alive)) in heads.iter().take(players).enumerate() {
            let pos = Pos::new(x % w as u8, y % h as u8);
            if states.iter().any(|p: &PlayerState| p.pos == pos) {
                return None;
            }
            grid[pos.index(w)] = id as CellValue;
            states.push(PlayerState { pos, dir: Dir::N, alive, trail: 1, eliminated_at: (!alive).then_some(1) });
        }
        Some((players, grid, states))
    }

    proptest! {
        #[test]
        fn random_boards_agree_with_the_plain_helpers(
            w in 8u32..=64,
            h in 8u32..=64,
            density in 0u32..=60,
            cells in proptest::collection::vec(0u32..100, 64 * 64),
            heads in proptest::collection::vec((0u8..64, 0u8..64, any::<bool>()), 2..=5),
        ) {
            let Some((players, grid, states)) = random_board(w, h, density, &cells, &heads) else {
                return Ok(());
            };
            let config = Config { width: w, height: h, players: players as u32, ..Config::default() };
            let game = FastGame::from_position(&Position { config, tick: 1, grid, players: states }).unwrap();
            check(&game);
        }

        #[test]
        fn starts_ahead_split_as_the_plain_arrivals(
            w in 8u32..=64,
            h in 8u32..=64,
            density in 0u32..=40,
            cells in proptest::collection::vec(0u32..100, 64 * 64),
            heads in proptest::collection::vec((0u8..64, 0u8..64, any::<bool>()), 2..=5),
            starts in proptest::collection::vec((0usize..6, 0u8..70, 0u8..70, 0u32..8, any::<bool>()), 0..12),
        ) {
            let Some((players, mut grid, mut states)) = random_board(w, h, density, &cells, &heads) else {
                return Ok(());
            };
            // Most starts on a cell of their rider's trail; some on any
            // cell, of any id, or off the board (left out by both).
            let starts: Vec<Start> = starts
                .iter()
                .map(|&(id, x, y, ahead, trail)| {
                    let pos = Pos::new(x, y);
                    if trail && id < players && (x as u32) < w && (y as u32) < h
                        && states.iter().all(|p| p.pos != pos)
                    {
                        grid[pos.index(w)] = id as CellValue;
                    }
                    Start { id, pos, ahead }
                })
                .collect();
            for (id, state) in states.iter_mut().enumerate() {
                state.trail = grid.iter().filter(|&&c| c == id as CellValue).count() as u32;
            }
            let config = Config { width: w, height: h, players: players as u32, ..Config::default() };
            let game = FastGame::from_position(&Position { config, tick: 1, grid, players: states }).unwrap();
            let lean = SearchState::from_game(&game).unwrap();
            let mut owned = [[u64::MAX; 64]; MAX_PLAYERS];
            let split = voronoi_cells_ahead(&lean, &starts, &mut owned);
            let (want, want_owned) = split_ahead(&lean, &starts);
            prop_assert_eq!(split, want);
            for id in 0..MAX_PLAYERS {
                prop_assert_eq!(&owned[id][..h as usize], &want_owned[id][..h as usize], "cells of {}", id);
            }
        }
    }
}
