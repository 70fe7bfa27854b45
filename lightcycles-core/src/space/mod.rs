//! What every Tron bot asks of a position, on the fast engine: how much room
//! a cycle has, who gets to which part of the board first, whether the
//! players can still meet; and, on any engine, which moves do not crash at
//! once ([`safe_moves`]).
//!
//! Every flood fill comes in two forms: a plain one that allocates its working
//! memory, and a `_with` one that takes a [`Scratch`] and, once the scratch
//! has been sized for the board, allocates nothing. Search code keeps one
//! scratch per thread and calls the `_with` forms.
//!
//! The flood fills read the solid plane of a [`FastGame`] only: a cell is free
//! when it holds `-1`. Heads are solid, so a cycle's room never includes its
//! own head, and off the board is a wall.

use alloc::vec;
use alloc::vec::Vec;

use crate::bitboard::{self, Layout};
use crate::config::MAX_PLAYERS;
use crate::engine::Engine;
use crate::fast::FastGame;
use crate::geometry::{DirSet, Pos, EMPTY};

pub mod lean;
mod voronoi;

pub use voronoi::{voronoi, voronoi_with, Voronoi};

/// Working memory of the space helpers, kept between calls so that hot
/// paths allocate nothing. It resizes itself (allocating) only when it meets
/// a board larger than any before.
///
/// It also keeps what the last call found: [`Scratch::reached`] after
/// [`reachable_with`], [`Scratch::owned`] and [`Scratch::owner`] after
/// [`voronoi_with`]. Any later call with the same scratch may overwrite
/// them: read them first.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    layout: Option<Layout>,
    open: Vec<u64>,
    reach: Vec<u64>,
    /// Per player, `words` each: the current BFS layer, the next one, and
    /// the cells owned.
    frontier: Vec<u64>,
    next: Vec<u64>,
    owned: Vec<u64>,
    players: usize,
}

impl Scratch {
    /// An empty scratch; the first call sizes it.
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// A scratch already sized for `game`'s board: calls on boards of this
    /// size or smaller allocate nothing.
    pub fn for_game(game: &FastGame) -> Scratch {
        let mut s = Scratch::new();
        s.fit(game.layout());
        s
    }

    fn fit(&mut self, layout: Layout) {
        let words = layout.words();
        if self.open.len() < words {
            self.open = vec![0; words];
            self.reach = vec![0; words];
            self.frontier = vec![0; words * MAX_PLAYERS];
            self.next = vec![0; words * MAX_PLAYERS];
            self.owned = vec![0; words * MAX_PLAYERS];
        }
        self.layout = Some(layout);
    }

    fn words(&self) -> usize {
        self.layout.map_or(0, |l| l.words())
    }

    /// The cells counted by the last [`reachable_with`], in the
    /// [`crate::bitboard`] layout of that board (empty before any call).
    pub fn reached(&self) -> &[u64] {
        &self.reach[..self.words()]
    }

    /// The cells player `id` reaches strictly first, as found by the last
    /// [`voronoi_with`] (empty for a player that was not alive, an id out of
    /// range, or before any call).
    pub fn owned(&self, id: usize) -> &[u64] {
        let words = self.words();
        if id >= self.players {
            return &[];
        }
        &self.owned[id * words..(id + 1) * words]
    }

    /// Who reaches `pos` strictly first according to the last
    /// [`voronoi_with`]: `None` for a tie, a cell nobody reaches, a solid
    /// cell or a cell off the board.
    pub fn owner(&self, pos: Pos) -> Option<usize> {
        let layout = self.layout?;
        (0..self.players).find(|&id| layout.get(self.owned(id), pos))
    }

    /// [`Scratch::owner`] of every cell of the board of the last
    /// [`voronoi_with`], row by row (nothing before any call).
    pub fn owners(&self) -> impl Iterator<Item = Option<usize>> + '_ {
        let (w, h) = self.layout.map_or((0, 0), |l| (l.width(), l.height()));
        (0..h).flat_map(move |y| (0..w).map(move |x| self.owner(Pos::new(x as u8, y as u8))))
    }
}

/// The number of free cells a cycle at `from` can reach: the free cells
/// 4-connected to `from` through free cells, `from` itself not counted
/// (it is usually a head, which is solid). `0` for a cell off the board.
pub fn reachable(game: &FastGame, from: Pos) -> u32 {
    reachable_with(game, from, &mut Scratch::for_game(game))
}

/// [`reachable`] with caller-provided memory; the cells are left in
/// [`Scratch::reached`].
pub fn reachable_with(game: &FastGame, from: Pos, scratch: &mut Scratch) -> u32 {
    let layout = game.layout();
    scratch.fit(layout);
    let words = layout.words();
    let (open, reach) = (&mut scratch.open[..words], &mut scratch.reach[..words]);
    reach.fill(0);
    if !layout.contains(from) {
        return 0;
    }
    bitboard::complement(layout, game.solid(), open);
    bitboard::mark_neighbours(layout, open, from, reach);
    bitboard::fill(layout, open, reach);
    bitboard::count(reach)
}

/// Whether the living players are separated: no path of free cells joins
/// the heads of any two of them, so no move of one can ever meet another.
/// Fewer than two living players are separated. Two heads side by side with
/// no free cell in common are separated too (neither can enter the other's
/// head).
pub fn separated(game: &FastGame) -> bool {
    separated_with(game, &mut Scratch::for_game(game))
}

/// [`separated`] with caller-provided memory.
pub fn separated_with(game: &FastGame, scratch: &mut Scratch) -> bool {
    let layout = game.layout();
    scratch.fit(layout);
    let words = layout.words();
    let alive = game.alive_mask();
    if alive.count_ones() < 2 {
        return true;
    }
    let (open, reach) = (&mut scratch.open[..words], &mut scratch.reach[..words]);
    bitboard::complement(layout, game.solid(), open);
    let living = || (0..MAX_PLAYERS).filter(move |&i| alive >> i & 1 != 0);
    // Each player's room, in turn: if it touches another living head, the
    // two can meet. Rooms that touch no other head need no second look.
    for p in living() {
        reach.fill(0);
        bitboard::mark_neighbours(layout, open, game.head(p), reach);
        bitboard::fill(layout, open, reach);
        for q in living().filter(|&q| q != p) {
            if layout.any_neighbour(reach, game.head(q)) {
                return false;
            }
        }
    }
    true
}

/// Whether players `a` and `b` can no longer meet: no free cell is
/// reachable by both, so each fills its own room. True when either is no
/// longer riding (or is no player), false for `a == b` while it rides.
pub fn separated_pair(game: &FastGame, a: usize, b: usize) -> bool {
    separated_pair_with(game, a, b, &mut Scratch::for_game(game))
}

/// [`separated_pair`] with caller-provided memory.
pub fn separated_pair_with(game: &FastGame, a: usize, b: usize, scratch: &mut Scratch) -> bool {
    if !game.is_alive(a) || !game.is_alive(b) {
        return true;
    }
    if a == b {
        return false;
    }
    reachable_with(game, game.head(a), scratch);
    // b's room is the free cells joined to its head's neighbours: the rooms
    // meet when a reaches one of those neighbours.
    !game.layout().any_neighbour(scratch.reached(), game.head(b))
}

/// The moves of player `id` that do not crash into the board as it is now
/// ([`PlayerState::safe_moves`](crate::player::PlayerState::safe_moves)
/// on the engine's cells). Other players' moves this tick are not
/// foreseen: a head-on into a free cell is still possible. Empty for an
/// eliminated player or an id out of range.
pub fn safe_moves<E: Engine>(game: &E, id: usize) -> DirSet {
    if id >= game.num_players() {
        return DirSet::NONE;
    }
    let p = game.player(id);
    if !p.alive {
        return DirSet::NONE;
    }
    let config = game.config();
    p.safe_moves(config.width, config.height, |c| game.cell(c) == EMPTY)
}

/// The moves a search tries for player `id`: its [`safe_moves`], or going
/// straight on when every move crashes (one lost move stands for all).
pub fn safe_moves_or_straight(game: &FastGame, id: usize) -> DirSet {
    let safe = safe_moves(game, id);
    if safe.is_empty() {
        DirSet::NONE.with(game.dir(id))
    } else {
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::geometry::{CellValue, Dir, ROCK};
    use crate::player::PlayerState;
    use crate::position::Position;
    use crate::testing::Drawing;
    use alloc::collections::VecDeque;
    use alloc::format;
    use alloc::string::String;
    use proptest::prelude::*;

    /// A position drawn as text: `.` empty, `#` rock, `a`…`h` a trail of
    /// player 0…7, `A`…`H` its head. Players listed in `dead` are
    /// eliminated; every player faces `dir`.
    fn drawn(rows: &[&str], dead: &[usize], dir: Dir) -> FastGame {
        let drawing = Drawing::parse(rows);
        let players: Vec<PlayerState> = (0..drawing.players())
            .map(|id| {
                let (pos, trail, alive) = (drawing.heads[id].unwrap(), drawing.trail(id), !dead.contains(&id));
                PlayerState { pos, dir, alive, trail, eliminated_at: (!alive).then_some(1) }
            })
            .collect();
        let (width, height) = (drawing.width, drawing.height);
        let config = Config { width, height, players: players.len() as u32, ..Config::default() };
        FastGame::from_position(&Position { config, tick: 1, grid: drawing.grid, players }).unwrap()
    }

    /// Plain breadth-first distances through empty cells from `from`
    /// (`from` itself not counted, its free neighbours at 1).
    fn distances(game: &FastGame, from: Pos) -> Vec<Option<u32>> {
        let (w, h) = (game.config().width, game.config().height);
        let mut dist = vec![None; (w * h) as usize];
        let mut queue = VecDeque::from([(from, 0)]);
        while let Some((p, d)) = queue.pop_front() {
            for dir in Dir::ALL {
                if let Some(q) = p.step(dir, w, h) {
                    if game.cell(q) == EMPTY && dist[q.index(w)].is_none() {
                        dist[q.index(w)] = Some(d + 1);
                        queue.push_back((q, d + 1));
                    }
                }
            }
        }
        dist
    }

    fn living(game: &FastGame) -> Vec<usize> {
        (0..game.num_players()).filter(|&i| game.is_alive(i)).collect()
    }

    /// The Voronoi split by its definition: per cell, the players at the
    /// least distance.
    fn plain_voronoi(game: &FastGame) -> (Voronoi, Vec<Option<usize>>) {
        let dists: Vec<(usize, Vec<Option<u32>>)> =
            living(game).into_iter().map(|i| (i, distances(game, game.head(i)))).collect();
        let mut result = Voronoi::default();
        let cells = game.config().cells();
        let mut owners = vec![None; cells];
        for (c, owner) in owners.iter_mut().enumerate() {
            let best = dists.iter().filter_map(|(_, d)| d[c]).min();
            let Some(best) = best else { continue };
            let at_best: Vec<usize> = dists.iter().filter(|(_, d)| d[c] == Some(best)).map(|(i, _)| *i).collect();
            if at_best.len() == 1 {
                result.counts[at_best[0]] += 1;
                *owner = Some(at_best[0]);
            } else {
                result.ties += 1;
            }
        }
        (result, owners)
    }

    fn plain_separated(game: &FastGame) -> bool {
        let dists: Vec<Vec<Option<u32>>> = living(game).into_iter().map(|i| distances(game, game.head(i))).collect();
        (0..dists.len()).all(|a| {
            (a + 1..dists.len()).all(|b| dists[a].iter().zip(&dists[b]).all(|(x, y)| x.is_none() || y.is_none()))
        })
    }

    fn check_against_plain_search(game: &FastGame, scratch: &mut Scratch) {
        let w = game.config().width;
        for id in 0..game.num_players() {
            let head = game.head(id);
            let expected = distances(game, head).iter().filter(|d| d.is_some()).count() as u32;
            assert_eq!(reachable_with(game, head, scratch), expected, "room of player {id}");
            let layout = game.layout();
            for (c, d) in distances(game, head).iter().enumerate() {
                let pos = Pos::new((c as u32 % w) as u8, (c as u32 / w) as u8);
                assert_eq!(layout.get(scratch.reached(), pos), d.is_some(), "cell {pos}");
            }
        }
        let (expected, owners) = plain_voronoi(game);
        assert_eq!(voronoi_with(game, scratch), expected);
        for (c, owner) in owners.iter().enumerate() {
            let pos = Pos::new((c as u32 % w) as u8, (c as u32 / w) as u8);
            assert_eq!(scratch.owner(pos), *owner, "owner of {pos}");
        }
        assert_eq!(separated_with(game, scratch), plain_separated(game));
    }

    #[test]
    fn room_of_a_head_in_a_walled_pocket() {
        let game = drawn(
            &[
                "........", //
                ".aaA#...", "....#...", "#####...", "......B.", "......b.", "......b.", "........",
            ],
            &[],
            Dir::E,
        );
        // Player 0's head has the cells left of the wall x = 4 above y = 3,
        // which opens at the top row to the rest of the board.
        // 13 solid cells; the wall x = 4 ends at the top row and the wall y = 3
        // leaves the right side open: one region.
        assert_eq!(reachable(&game, game.head(0)), 64 - 13);
        assert_eq!(reachable(&game, Pos::new(0, 4)), 64 - 13);
        assert_eq!(reachable(&game, Pos::new(8, 0)), 0, "off the board");
        assert!(!separated(&game));
        check_against_plain_search(&game, &mut Scratch::new());
    }

    #[test]
    fn a_closed_wall_separates_and_splits_the_board() {
        let game = drawn(
            &[
                "...#....", //
                ".A.#....", ".a.#....", "...#..B.", "...#..b.", "...#....", "...#....", "...#....",
            ],
            &[],
            Dir::N,
        );
        assert!(separated(&game));
        assert_eq!(reachable(&game, game.head(0)), 22);
        assert_eq!(reachable(&game, game.head(1)), 30);
        let v = voronoi(&game);
        assert_eq!((v.counts[0], v.counts[1], v.ties), (22, 30, 0));
        check_against_plain_search(&game, &mut Scratch::new());
    }

    /// Rows padded with rocks to 16 × 16, the smallest board for 3 players.
    fn padded(rows: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = rows.iter().map(|r| format!("{r:#<16}")).collect();
        out.resize(16, "#".repeat(16));
        out
    }

    fn drawn16(rows: &[&str], dead: &[usize], dir: Dir) -> FastGame {
        let rows = padded(rows);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        drawn(&rows, dead, dir)
    }

    #[test]
    fn equal_distances_are_ties_and_dead_players_own_nothing() {
        // Heads at (1, 0) and (5, 0): the cell (3, 0) is 2 moves from both.
        // Player 2 is eliminated next to the row and owns nothing.
        let game = drawn16(&[".A...B..", "###C####"], &[2], Dir::N);
        let v = voronoi(&game);
        assert_eq!((v.counts[0], v.counts[1], v.counts[2], v.ties), (2, 3, 0, 1));
        let mut scratch = Scratch::new();
        voronoi_with(&game, &mut scratch);
        assert_eq!(scratch.owner(Pos::new(3, 0)), None);
        assert_eq!(scratch.owner(Pos::new(2, 0)), Some(0));
        assert_eq!(scratch.owner(Pos::new(7, 0)), Some(1));
        assert_eq!(scratch.owner(Pos::new(3, 1)), None, "a dead head");
        assert_eq!(scratch.owned(2), vec![0u64; game.layout().words()].as_slice());
        assert!(scratch.owned(3).is_empty());
        assert!(!separated(&game));
        check_against_plain_search(&game, &mut scratch);
        // A dead head on the row walls the two apart; alive, it shares the
        // cell (2, 0) with player 0.
        assert!(separated(&drawn16(&[".A.C.B.."], &[2], Dir::N)));
        assert!(!separated(&drawn16(&[".A.C#B.."], &[], Dir::N)));
        assert!(separated(&drawn16(&[".A#C#B.."], &[], Dir::N)));
    }

    #[test]
    fn safe_moves_skip_walls_solid_cells_and_the_neck() {
        let game = drawn16(&["A.......", "a.......", "a..#....", "..bB....", "........", ".......C"], &[2], Dir::N);
        // Player 0 at the top-left corner, facing N with a neck below: only E.
        assert_eq!(safe_moves(&game, 0).iter().collect::<Vec<_>>(), vec![Dir::E]);
        // Player 1 faces N (drawn so): N is a rock, W its own trail, and S
        // reverses its direction with a neck, which keeps going N: only E.
        let moves = safe_moves(&game, 1);
        assert_eq!(moves.iter().collect::<Vec<_>>(), vec![Dir::E]);
        assert!(!moves.contains(Dir::S));
        assert_eq!(safe_moves(&game, 2), DirSet::NONE, "eliminated");
        assert_eq!(safe_moves(&game, 9), DirSet::NONE, "no such player");
        // On its first move a cycle may go any way.
        let fresh = FastGame::seeded(&Config { width: 8, height: 8, rock_density: 0, ..Config::default() }, 1).unwrap();
        assert_eq!(safe_moves(&fresh, 0).len(), 4);
        assert_eq!(safe_moves(&fresh, 0).bits(), 0b1111);
    }

    #[test]
    fn a_scratch_serves_boards_of_any_size_in_turn() {
        let mut scratch = Scratch::new();
        for (w, h, players, seed) in [(48, 36, 2, 1), (255, 255, 8, 2), (8, 8, 2, 3), (130, 20, 3, 4)] {
            let config = Config { width: w, height: h, players, rock_density: 20, ..Config::default() };
            let game = FastGame::seeded(&config, seed).unwrap();
            check_against_plain_search(&game, &mut scratch);
        }
    }

    /// A position from a seeded board and random moves, stopped at a random
    /// tick: trails, rocks and dead players like in a real game.
    fn played(config: Config, seed: u64, ticks: u32) -> FastGame {
        let mut game = FastGame::seeded(&config, seed).unwrap();
        let mut rng = crate::rng::SplitMix64::new(seed ^ 0xabcdef);
        for _ in 0..ticks {
            if game.is_over() {
                break;
            }
            let actions: Vec<_> = (0..game.num_players())
                .map(|i| {
                    let safe = safe_moves(&game, i);
                    let pick = if safe.is_empty() { 0 } else { rng.below(safe.len() as u64) as usize };
                    safe.iter().nth(pick).map_or(crate::command::Action::Keep, crate::command::Action::Move)
                })
                .collect();
            game.step(&actions).unwrap();
        }
        game
    }

    fn arb_config() -> impl Strategy<Value = Config> {
        (2u32..=8, 0u32..=120, 0u32..=60, 0u32..=25).prop_map(|(players, w, h, rock_density)| {
            let low = if players >= 3 { 16 } else { 8 };
            Config { width: low + w, height: low + h, players, rock_density, ..Config::default() }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn helpers_agree_with_plain_search_on_played_boards(
            config in arb_config(),
            seed in any::<u64>(),
            ticks in 0u32..400,
        ) {
            let game = played(config, seed, ticks);
            check_against_plain_search(&game, &mut Scratch::new());
            for id in 0..game.num_players() {
                let head = game.head(id);
                let expected: Vec<Dir> = Dir::ALL
                    .into_iter()
                    .filter(|&d| !game.player(id).reverses_into_neck(d))
                    .filter(|&d| head.step(d, config.width, config.height).is_some_and(|c| game.cell(c) == EMPTY))
                    .filter(|_| game.is_alive(id))
                    .collect();
                prop_assert_eq!(safe_moves(&game, id).iter().collect::<Vec<_>>(), expected);
            }
        }

        #[test]
        fn helpers_agree_with_plain_search_on_random_cells(
            w in 8u32..=90,
            // Past 64 rows too: boards of one word a row and up to 64 rows
            // take the two-player search of `lean`, taller ones their own.
            h in 8u32..=70,
            cells in proptest::collection::vec(prop_oneof![6 => Just(EMPTY), 3 => Just(ROCK), 1 => Just(0), 1 => Just(1), 1 => Just(2)], 90 * 70),
            heads in proptest::collection::vec((0u8..90, 0u8..70), 3),
            alive in proptest::collection::vec(any::<bool>(), 3),
        ) {
            let mut grid: Vec<CellValue> = (0..(w * h) as usize).map(|i| cells[i]).collect();
            let mut players = Vec::new();
            for (id, (&(x, y), &alive)) in heads.iter().zip(&alive).enumerate() {
                let pos = Pos::new(x % w as u8, y % h as u8);
                if players.iter().any(|p: &PlayerState| p.pos == pos) {
                    return Ok(());
                }
                grid[pos.index(w)] = id as CellValue;
                players.push(PlayerState { pos, dir: Dir::E, alive, trail: 0, eliminated_at: (!alive).then_some(1) });
            }
            for (id, p) in players.iter_mut().enumerate() {
                p.trail = grid.iter().filter(|&&v| v == id as CellValue).count() as u32;
            }
            let config = Config { width: w, height: h, players: 3, ..Config::default() };
            let w16 = Config { width: w.max(16), height: h.max(16), ..config };
            if w16 != config {
                // Three players need 16 × 16; smaller boards are drawn with two.
                grid.iter_mut().filter(|v| **v == 2).for_each(|v| *v = EMPTY);
                players.pop();
            }
            let config = Config { players: players.len() as u32, ..config };
            let game = FastGame::from_position(&Position { config, tick: 1, grid, players }).unwrap();
            check_against_plain_search(&game, &mut Scratch::new());
        }
    }
}
