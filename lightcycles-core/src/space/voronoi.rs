//! The Voronoi split of the free cells between the living players: who
//! reaches each cell first.

use super::Scratch;
use crate::bitboard::{self, Layout};
use crate::config::MAX_PLAYERS;
use crate::engine::Engine;
use crate::fast::FastGame;
use crate::geometry::Pos;
use crate::search_state::{SearchState, MAX_SEARCH_SIDE};

/// How the free cells split between the living players: each goes to the
/// player that reaches it in strictly fewer moves than every other (moving
/// through free cells from its head); cells reached first by two or more at
/// once are ties, and belong to nobody.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Voronoi {
    /// Cells owned, by player id (0 for eliminated players and unused ids).
    pub counts: [u32; MAX_PLAYERS],
    /// Cells reached first by two or more players at once.
    pub ties: u32,
}

/// The Voronoi split of the free cells between the living players.
pub fn voronoi(game: &FastGame) -> Voronoi {
    voronoi_with(game, &mut Scratch::for_game(game))
}

/// [`voronoi`] with caller-provided memory; the cells each player owns are
/// left in [`Scratch::owned`].
///
/// First each living player's room (the cells it can reach at all, a flood
/// fill): a cell in one room only is that player's, whatever the distances.
/// Then, on the cells that several rooms share, a breadth-first search from
/// their heads at once, one layer per move, each layer computed with bit
/// shifts over the rows the layer spans: a cell first reached by one player
/// is that player's; one reached by several at once is a tie, and the
/// search goes on through it for each of them (their distances are equal).
/// When only one player's search still has cells ahead, a flood fill
/// finishes it. Separated players cost only their flood fills. With two
/// living players (the usual game) a leaner search runs both frontiers in
/// one pass per layer: see `voronoi_pair`. On boards up to 64 × 64 three
/// riders or more take the search state's split ([`super::lean`]), which
/// needs less than half the instructions.
pub fn voronoi_with(game: &FastGame, scratch: &mut Scratch) -> Voronoi {
    let layout = game.layout();
    scratch.fit(layout);
    let n = game.num_players();
    scratch.players = n;
    let words = layout.words();
    let k = layout.words_per_row();
    let h = layout.height() as usize;
    let mut result = Voronoi::default();
    let mut living = [0usize; MAX_PLAYERS];
    let mut riders = 0;
    for id in (0..n).filter(|&id| game.is_alive(id)) {
        living[riders] = id;
        riders += 1;
    }
    let living = &living[..riders];
    if let [a, b] = *living {
        return voronoi_pair(game, scratch, [a, b]);
    }
    if riders >= 3 && k == 1 && h <= MAX_SEARCH_SIDE as usize {
        // Boards of one word a row: the search state's split, whose
        // passes vectorize (less than half the instructions of the search
        // below on a four-rider board).
        if let Ok(state) = SearchState::from_game(game) {
            let mut planes = [[0u64; MAX_SEARCH_SIDE as usize]; MAX_PLAYERS];
            let result = super::lean::voronoi_cells(&state, &mut planes);
            for (block, plane) in scratch.owned[..n * words].chunks_exact_mut(words).zip(&planes) {
                block.copy_from_slice(&plane[..h]);
            }
            return result;
        }
    }

    let free = &mut scratch.open[..words];
    bitboard::complement(layout, game.solid(), free);
    let (frontier, next, owned) =
        (&mut scratch.frontier[..n * words], &mut scratch.next[..n * words], &mut scratch.owned[..n * words]);
    owned.fill(0);
    frontier.fill(0);
    next.fill(0);

    // Rooms, in `next`; cells of one room only are owned at once, and the
    // search below runs on the shared ones.
    for &id in living {
        let room = &mut next[id * words..(id + 1) * words];
        bitboard::mark_neighbours(layout, free, game.head(id), room);
        bitboard::fill(layout, free, room);
    }
    let mut shared_any = 0u64;
    for w in 0..words {
        let (mut once, mut twice) = (0u64, 0u64);
        for &id in living {
            let v = next[id * words + w];
            twice |= once & v;
            once |= v;
        }
        for &id in living {
            let mine = next[id * words + w] & !twice;
            owned[id * words + w] = mine;
            result.counts[id] += mine.count_ones();
        }
        free[w] = twice;
        shared_any |= twice;
    }
    next.fill(0);
    if shared_any == 0 {
        return result;
    }

    // The layered search on the shared cells. `rows[id]`: the rows of the
    // player's current layer, `None` once it has nowhere left to go.
    let mut rows: [Option<(usize, usize)>; MAX_PLAYERS] = [None; MAX_PLAYERS];
    for &id in living {
        let head = game.head(id);
        layout.set(&mut frontier[id * words..(id + 1) * words], head);
        rows[id] = Some((head.y as usize, head.y as usize));
    }
    let mut swapped = false;
    loop {
        let (cur, nxt) = if swapped { (&mut *next, &mut *frontier) } else { (&mut *frontier, &mut *next) };
        let mut searching = living.iter().filter(|&&id| rows[id].is_some());
        if let (Some(&id), None) = (searching.next(), searching.next()) {
            // The others have nowhere left to go: whatever this player still
            // reaches is its own. One flood fill finishes it.
            let (lo, hi) = rows[id].expect("the player is searching");
            let span = &mut nxt[id * words..(id + 1) * words];
            bitboard::expand(layout, &cur[id * words..(id + 1) * words], free, lo, hi, span);
            bitboard::fill(layout, free, span);
            for (o, v) in owned[id * words..(id + 1) * words].iter_mut().zip(span.iter()) {
                *o |= v;
                result.counts[id] += v.count_ones();
            }
            break;
        }
        let mut grown: [Option<(usize, usize)>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        let mut written: Option<(usize, usize)> = None;
        for &id in living {
            let Some((lo, hi)) = rows[id] else { continue };
            let span = &mut nxt[id * words..(id + 1) * words];
            grown[id] = bitboard::expand(layout, &cur[id * words..(id + 1) * words], free, lo, hi, span);
            let (first, last) = (lo.saturating_sub(1), (hi + 1).min(h - 1));
            written = Some(written.map_or((first, last), |(f, l)| (f.min(first), l.max(last))));
        }
        let Some((first, last)) = written else { break };
        // Settle who got each cell of the rows written this layer.
        for w in first * k..(last + 1) * k {
            let (mut once, mut twice) = (0u64, 0u64);
            for &id in living {
                let v = nxt[id * words + w];
                twice |= once & v;
                once |= v;
            }
            if once == 0 {
                continue;
            }
            for &id in living {
                let mine = nxt[id * words + w] & !twice;
                owned[id * words + w] |= mine;
                result.counts[id] += mine.count_ones();
            }
            result.ties += twice.count_ones();
            free[w] &= !once;
        }
        // The old layer becomes the buffer of the next one: clear its rows.
        for &id in living {
            if let Some((lo, hi)) = rows[id] {
                cur[id * words + lo * k..id * words + (hi + 1) * k].fill(0);
            }
        }
        rows = grown;
        swapped = !swapped;
    }
    result
}

/// [`voronoi_with`] for exactly two living players `a < b`, the usual case.
///
/// First the room of one player (a flood fill; on boards of one word a
/// row the search state's, which stops at the first cell beside the other
/// head): when it does not touch the other's head the two are separated
/// and each owns its room, whatever the distances.
/// Otherwise one breadth-first search from both heads at once, both
/// frontiers expanded in the same pass over the rows they span: on boards
/// of one word a row and at most 64 rows (up to 64 × 64) the search of the
/// search state's split, [`super::lean`], two rows at once; on wider or
/// taller ones [`pair_search`].
fn voronoi_pair(game: &FastGame, scratch: &mut Scratch, [a, b]: [usize; 2]) -> Voronoi {
    let layout = game.layout();
    let words = layout.words();
    let n = game.num_players();
    let heads = [game.head(a), game.head(b)];
    let free = &mut scratch.open[..words];
    bitboard::complement(layout, game.solid(), free);
    let owned = &mut scratch.owned[..n * words];
    owned.fill(0);
    let (below_b, from_b) = owned.split_at_mut(b * words);
    let (own_a, own_b) = (&mut below_b[a * words..(a + 1) * words], &mut from_b[..words]);
    let mut result = Voronoi::default();

    // The room of one player, to tell whether the two meet: on boards of
    // one word a row the search state's fill, which stops where they meet,
    // from the upper head (it goes down first); otherwise `a`'s, whole.
    let lean = layout.words_per_row() == 1 && layout.height() <= MAX_SEARCH_SIDE;
    let first = if lean { (heads[1].y < heads[0].y) as usize } else { 0 };
    let (from, to) = (heads[first], heads[1 - first]);
    let (own_first, own_second) = if first == 0 { (&mut *own_a, &mut *own_b) } else { (&mut *own_b, &mut *own_a) };
    let meet = if lean {
        let h = layout.height() as usize;
        let (mut open, mut room) = ([0u64; MAX_SEARCH_SIDE as usize], [0u64; MAX_SEARCH_SIDE as usize]);
        open[..h].copy_from_slice(free);
        let meet = super::lean::room_or_meet((layout.width(), layout.height()), &open, [from, to], &mut room);
        if !meet {
            own_first.copy_from_slice(&room[..h]);
        }
        meet
    } else {
        bitboard::mark_neighbours(layout, free, from, own_first);
        bitboard::fill(layout, free, own_first);
        let meet = layout.any_neighbour(own_first, to);
        if meet {
            own_first.fill(0);
        }
        meet
    };
    if !meet {
        bitboard::mark_neighbours(layout, free, to, own_second);
        bitboard::fill(layout, free, own_second);
        result.counts[a] = bitboard::count(own_a);
        result.counts[b] = bitboard::count(own_b);
        return result;
    }

    // The search grows the cells each player has reached (ties included),
    // starting from the heads, in `own_a` and `own_b`.
    layout.set(own_a, heads[0]);
    layout.set(own_b, heads[1]);
    match layout.words_per_row() {
        1 if lean => {
            let (y0, y1) = (heads[0].y as usize, heads[1].y as usize);
            super::lean::pair_layers(layout.height() as usize, (y0.min(y1), y0.max(y1)), free, [own_a, own_b])
        }
        1 => pair_search::<1>(layout, heads, free, [own_a, own_b]),
        2 => pair_search::<2>(layout, heads, free, [own_a, own_b]),
        3 => pair_search::<3>(layout, heads, free, [own_a, own_b]),
        _ => pair_search::<4>(layout, heads, free, [own_a, own_b]),
    }
    // The heads are nobody's; what both reached is a tie.
    for (head, own) in heads.iter().zip([&mut *own_a, &mut *own_b]) {
        let (word, mask) = layout.locate(*head);
        own[word] &= !mask;
    }
    [result.counts[a], result.counts[b], result.ties] = super::lean::take_ties(own_a, own_b);
    result
}

/// The cells beside the cells of `r` in the same row (`K` words).
#[inline(always)]
fn sideways<const K: usize>(r: &[u64; K], k: usize) -> u64 {
    let from_right = if k + 1 < K { r[k + 1] << 63 } else { 0 };
    let from_left = if k > 0 { r[k - 1] >> 63 } else { 0 };
    (r[k] << 1) | from_left | (r[k] >> 1) | from_right
}

/// The layered search of [`voronoi_pair`]. `reached` hold the heads, `free`
/// the free cells; on return `reached` hold every cell each player reaches
/// no later than the other (the heads too).
///
/// A layer is one pass over the rows next to the last layer's: each row
/// takes the free cells beside the reached cells of the rows above, at and
/// below it, as they were before the pass (kept in registers, so the planes
/// are updated in place), for both players, and takes them out of `free`.
/// A free cell beside an older layer was taken when that layer was new, so
/// the cells beside everything reached are the next layer. When one player
/// gains nothing, the other gets whatever it still reaches: a flood fill.
// Not inlined: its loop wants every register.
#[inline(never)]
fn pair_search<const K: usize>(layout: Layout, heads: [Pos; 2], free: &mut [u64], reached: [&mut [u64]; 2]) {
    let h = layout.height() as usize;
    let words = h * K;
    let [r0, r1] = reached;
    let (free, r0, r1) = (&mut free[..words], &mut r0[..words], &mut r1[..words]);
    let (y0, y1) = (heads[0].y as usize, heads[1].y as usize);
    let (mut lo, mut hi) = (y0.min(y1), y0.max(y1));
    loop {
        // Only the rows next to the rows the last layer gained can gain: a
        // free cell beside an older reached cell was taken back then. So
        // the rows just outside the span count as empty.
        let first = lo.saturating_sub(1);
        let last = (hi + 1).min(h - 1);
        // The rows above (`up`) and at (`at`) row `y`, as they were before
        // this pass.
        let mut up = [[0; K], [0; K]];
        let mut at = [bitboard::row::<K>(r0, first), bitboard::row::<K>(r1, first)];
        let mut any = [0u64; 2];
        let (mut new_lo, mut new_hi) = (h, 0);
        for y in first..last {
            let down = [bitboard::row::<K>(r0, y + 1), bitboard::row::<K>(r1, y + 1)];
            if layer_row::<K>(free, r0, r1, y, &up, &at, &down, &mut any) {
                new_lo = new_lo.min(y);
                new_hi = y;
            }
            up = at;
            at = down;
        }
        if layer_row::<K>(free, r0, r1, last, &up, &at, &[[0; K], [0; K]], &mut any) {
            new_lo = new_lo.min(last);
            new_hi = last;
        }
        if any[0] == 0 || any[1] == 0 {
            // One side (or both) has nowhere left to go: the other gets all
            // it still reaches.
            if any[0] != 0 {
                finish(layout, free, r0);
            } else if any[1] != 0 {
                finish(layout, free, r1);
            }
            return;
        }
        (lo, hi) = (new_lo, new_hi);
    }
}

/// One row of a layer of [`pair_search`]: the free cells of row `y` beside
/// the reached cells `up`, `at` and `down` (rows `y - 1`, `y`, `y + 1`
/// before the pass) of each player, added to `r0` and `r1`, taken out of
/// `free`, and or-ed into `any`. Whether the row gained a cell.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn layer_row<const K: usize>(
    free: &mut [u64],
    r0: &mut [u64],
    r1: &mut [u64],
    y: usize,
    up: &[[u64; K]; 2],
    at: &[[u64; K]; 2],
    down: &[[u64; K]; 2],
    any: &mut [u64; 2],
) -> bool {
    let (free, r0, r1) = (&mut free[y * K..y * K + K], &mut r0[y * K..y * K + K], &mut r1[y * K..y * K + K]);
    let mut gained = 0u64;
    for k in 0..K {
        let open = free[k];
        let n0 = (sideways(&at[0], k) | up[0][k] | down[0][k]) & open;
        let n1 = (sideways(&at[1], k) | up[1][k] | down[1][k]) & open;
        free[k] = open & !(n0 | n1);
        r0[k] = at[0][k] | n0;
        r1[k] = at[1][k] | n1;
        any[0] |= n0;
        any[1] |= n1;
        gained |= n0 | n1;
    }
    gained != 0
}

/// Grows `reached` into every free cell 4-connected to it.
fn finish(layout: Layout, free: &mut [u64], reached: &mut [u64]) {
    for (f, r) in free.iter_mut().zip(reached.iter()) {
        *f |= r;
    }
    bitboard::fill(layout, free, reached);
}
