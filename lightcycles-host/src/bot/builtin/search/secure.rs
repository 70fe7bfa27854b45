//! Secure territory: the cells a rider reaches more than `k` moves before
//! its rival.
//!
//! The Voronoi split gives a cell to whoever reaches it first, by one move
//! or by thirty alike. Far territory won by a few moves is not held: a
//! rival riding toward it takes it over a few ticks at a time, beyond the
//! horizon of the search, while the owner sees its count unchanged until
//! the cells flip. (A duel lost to a1k0n's bot went that way: a corner of
//! 280 cells, 56 moves from the search bot's head on average and 63 from
//! the rival's, went over to the rival in 60 ticks while the search bot
//! filled another corner.) Counting the cells won by a margin, as well,
//! makes keeping the margin, and riding toward such a region, worth
//! something now.
//!
//! The term is off by default (`secure=0`): none of the weights tried made
//! the bot stronger, against a1k0n or at equal nodes against itself
//! (docs/search-bot.md, "Where the games are lost"); it stays for tuning.
//!
//! [`secure_counts`] runs two breadth-first searches in layers on the lean
//! rows, the rival's `k` layers ahead of each; [`secure_counts_by_cell`] is
//! the plain reference (one distance per cell), which the tests compare it
//! with.

use std::collections::VecDeque;

use lightcycles_core::space::lean::Plane;
use lightcycles_core::{Dir, Engine, FastGame, Pos, EMPTY};

/// The most `k` [`secure_counts`] takes (`secure_by=K`).
pub const MAX_MARGIN: u32 = 16;

/// Working memory of [`secure_counts`], kept between calls (a fresh one
/// would be 19 KiB to clear).
#[derive(Clone, Debug)]
pub struct Layers {
    /// Each search's cells reached so far (heads included).
    reach: [Plane; 2],
    /// `fresh[p][t % (k + 2)]`: the cells p first reaches in t moves,
    /// valid on the rows of `added[p][t % (k + 2)]`.
    fresh: [[Plane; MAX_MARGIN as usize + 2]; 2],
}

/// Fresh [`Layers`], on the heap.
pub fn layers() -> Box<Layers> {
    Box::new(Layers { reach: [[0; 64]; 2], fresh: [[[0; 64]; MAX_MARGIN as usize + 2]; 2] })
}

/// `[a's, b's]` count of free cells that one reaches in more than `k`
/// fewer moves than the other (a cell the other cannot reach at all counts
/// when the first can). `free`: the free cells, row `y` word `y` (heads
/// are not free), `h` rows (1 to 64); `heads` the two heads. `k` is at
/// most [`MAX_MARGIN`]; with `k = 0` these are the Voronoi cells.
/// `layers`: working memory, whatever it holds.
///
/// Both searches advance a layer at a time, in place, over the rows next
/// to the last layer's; the cells a layer adds are kept for `k + 1` more
/// layers, then counted as secure unless the rival has reached them by
/// then.
pub fn secure_counts(free: &Plane, h: usize, heads: [Pos; 2], k: u32, layers: &mut Layers) -> [u32; 2] {
    let k = k.min(MAX_MARGIN) as usize;
    let ring = k + 2;
    let Layers { reach, fresh } = layers;
    for (p, head) in heads.iter().enumerate() {
        reach[p][..h].fill(0);
        reach[p][head.y as usize & 63] |= 1u64 << head.x;
    }
    // added[p][t % ring]: the rows where layer t of p added cells
    // (`None`: it added none).
    let mut added = [[None::<(usize, usize)>; MAX_MARGIN as usize + 2]; 2];
    let mut counts = [0u32; 2];
    let mut growing = [true, true];
    // The rows the last layer of each search added cells in.
    let mut span = [(heads[0].y as usize, heads[0].y as usize), (heads[1].y as usize, heads[1].y as usize)];
    // The last layer that added a cell to either search.
    let mut last_layer = 0usize;
    let mut t = 0usize;
    loop {
        // The cells first reached at layer t - k are secure unless the
        // rival has reached them by layer t (now).
        if t > k {
            let slot = (t - k) % ring;
            for p in 0..2 {
                let Some((lo, hi)) = added[p][slot] else { continue };
                let (new, rival) = (&fresh[p][slot], &reach[1 - p]);
                for y in lo..=hi {
                    counts[p] += (new[y & 63] & !rival[y & 63]).count_ones();
                }
            }
        }
        if !growing[0] && !growing[1] && t >= last_layer + k {
            // Every layer that added a cell is counted.
            break;
        }
        // Layer t + 1 of each search, in place: a row's old value is kept
        // for the row below it.
        let next = (t + 1) % ring;
        for p in 0..2 {
            added[p][next] = None;
            if !growing[p] {
                continue;
            }
            let (lo, hi) = span[p];
            let (first, last) = (lo.saturating_sub(1), (hi + 1).min(h - 1));
            let plane = &mut reach[p];
            let out = &mut fresh[p][next];
            let mut above = if first > 0 { plane[(first - 1) & 63] } else { 0 };
            let (mut new_lo, mut new_hi) = (usize::MAX, 0);
            for y in first..=last {
                let row = plane[y & 63];
                let below = if y + 1 < h { plane[(y + 1) & 63] } else { 0 };
                let grown = (row << 1 | row >> 1 | above | below) & free[y & 63] & !row;
                out[y & 63] = grown;
                if grown != 0 {
                    plane[y & 63] = row | grown;
                    new_lo = new_lo.min(y);
                    new_hi = new_hi.max(y);
                }
                above = row;
            }
            if new_lo <= new_hi {
                span[p] = (new_lo, new_hi);
                added[p][next] = Some((new_lo, new_hi));
                last_layer = t + 1;
            } else {
                growing[p] = false;
            }
        }
        t += 1;
    }
    counts
}

/// [`secure_counts`] on any board, one distance per cell: the reference.
pub fn secure_counts_by_cell(game: &FastGame, heads: [Pos; 2], k: u32) -> [u32; 2] {
    let layout = game.layout();
    let (w, h) = (layout.width(), layout.height());
    let distances = |head: Pos| {
        let mut dist = vec![u32::MAX; (w * h) as usize];
        dist[head.index(w)] = 0;
        let mut queue = VecDeque::from([head]);
        while let Some(c) = queue.pop_front() {
            for d in Dir::ALL {
                if let Some(n) = c.step(d, w, h) {
                    if game.cell(n) == EMPTY && dist[n.index(w)] == u32::MAX {
                        dist[n.index(w)] = dist[c.index(w)] + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        dist
    };
    let (a, b) = (distances(heads[0]), distances(heads[1]));
    let k = k.min(MAX_MARGIN) as u64;
    let mut counts = [0u32; 2];
    for (i, (&da, &db)) in a.iter().zip(&b).enumerate() {
        let pos = Pos::new((i as u32 % w) as u8, (i as u32 / w) as u8);
        if game.cell(pos) != EMPTY {
            continue;
        }
        let (da, db) = (da as u64, db as u64);
        if da != u32::MAX as u64 && da + k < db {
            counts[0] += 1;
        }
        if db != u32::MAX as u64 && db + k < da {
            counts[1] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin::search::testing::drawn_game;
    use lightcycles_core::search_state::SearchState;
    use lightcycles_core::space::lean;
    use lightcycles_core::{Action, Config, SplitMix64};

    fn lean_counts(game: &FastGame, k: u32) -> [u32; 2] {
        let state = SearchState::from_game(game).unwrap();
        let free = lean::free_cells(&state);
        let mut reach = layers();
        // Whatever the memory held before.
        reach.reach[0].fill(u64::MAX);
        reach.fresh[1][3].fill(u64::MAX);
        secure_counts(&free, game.layout().height() as usize, [game.head(0), game.head(1)], k, &mut reach)
    }

    #[test]
    fn a_corridor_counts_the_cells_won_by_more_than_k() {
        // A row of 8 between the heads' walls: A at 0, B at 7; the six free
        // cells between are 1 to 6 moves from A, 6 to 1 from B.
        let game = drawn_game(&[
            "A......B", //
            "########", //
            "########", //
            "########", //
            "########", //
            "########", //
            "########", //
            "########", //
        ]);
        // Cell x (1 to 6) is x moves from A and 7 - x from B: A wins
        // x = 1, 2, 3 by 5, 3 and 1 moves, B the others the same way.
        assert_eq!(lean_counts(&game, 0), [3, 3], "the Voronoi cells");
        assert_eq!(lean_counts(&game, 1), [2, 2]);
        assert_eq!(lean_counts(&game, 3), [1, 1]);
        assert_eq!(lean_counts(&game, 5), [0, 0]);
        for k in 0..6 {
            assert_eq!(lean_counts(&game, k), secure_counts_by_cell(&game, [game.head(0), game.head(1)], k), "k {k}");
        }
    }

    #[test]
    fn a_room_the_rival_cannot_reach_is_all_secure() {
        let game = drawn_game(&[
            "A..#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#...B", //
        ]);
        for k in [0, 3, MAX_MARGIN] {
            assert_eq!(lean_counts(&game, k), [23, 31], "k {k}");
        }
    }

    #[test]
    fn the_layered_search_counts_as_the_reference_on_played_games() {
        let mut rng = SplitMix64::new(7);
        for seed in 0..12u64 {
            let config =
                Config { width: 8 + (seed as u32 * 5) % 40, height: 8 + (seed as u32 * 7) % 30, ..Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            while !game.is_over() {
                for k in [0, 1, 2, 4, 7, MAX_MARGIN] {
                    let heads = [game.head(0), game.head(1)];
                    assert_eq!(
                        lean_counts(&game, k),
                        secure_counts_by_cell(&game, heads, k),
                        "seed {seed} tick {} k {k}",
                        game.tick()
                    );
                }
                let moves: Vec<Action> = (0..2)
                    .map(|p| {
                        let safe: Vec<Dir> = lightcycles_core::space::safe_moves(&game, p).iter().collect();
                        let dir =
                            if safe.is_empty() { game.dir(p) } else { safe[rng.next_u64() as usize % safe.len()] };
                        Action::Move(dir)
                    })
                    .collect();
                game.step(&moves).unwrap();
            }
        }
    }
}
