//! What every Tron bot asks of a position, on the fast engine: how much room
//! a cycle has, who gets to which part of the board first, whether the
//! players can still meet, and which moves do not crash at once.
//!
//! Every helper comes in two forms: a plain one that allocates its working
//! memory, and a `_with` one that takes a [`Scratch`] and, once the scratch
//! has been sized for the board, allocates nothing. Search code keeps one
//! scratch per thread and calls the `_with` forms.
//!
//! All of them read the solid plane of a [`FastGame`] only: a cell is free
//! when it holds `-1`. Heads are solid, so a cycle's room never includes its
//! own head, and off the board is a wall.

use alloc::vec;
use alloc::vec::Vec;

use crate::bitboard::{self, Layout};
use crate::engine::Engine;
use crate::fast::{FastGame, MAX_PLAYERS};
use crate::geometry::{Dir, Pos};

/// Working memory of the search helpers, kept between calls so that hot
/// paths allocate nothing. It resizes itself (allocating) only when it meets
/// a board larger than any before.
///
/// It also keeps what the last calls found: [`Scratch::reached`] after
/// [`reachable_with`], [`Scratch::owned`] and [`Scratch::owner`] after
/// [`voronoi_with`].
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
/// A breadth-first search from all living heads at once, one layer per
/// move, each layer computed with bit shifts: a cell first reached by one
/// player is that player's; one reached by several at once is a tie, and the
/// search goes on through it for each of them (their distances are equal).
pub fn voronoi_with(game: &FastGame, scratch: &mut Scratch) -> Voronoi {
    let layout = game.layout();
    scratch.fit(layout);
    let n = game.num_players();
    scratch.players = n;
    let words = layout.words();
    let k = layout.words_per_row();
    let h = layout.height() as usize;
    let free = &mut scratch.open[..words];
    bitboard::complement(layout, game.solid(), free);
    let (frontier, next, owned) =
        (&mut scratch.frontier[..n * words], &mut scratch.next[..n * words], &mut scratch.owned[..n * words]);
    frontier.fill(0);
    next.fill(0);
    owned.fill(0);

    let mut result = Voronoi::default();
    let mut living = [0usize; MAX_PLAYERS];
    let mut riders = 0;
    for id in (0..n).filter(|&id| game.is_alive(id)) {
        living[riders] = id;
        riders += 1;
    }
    let living = &living[..riders];
    let mut range: Option<(usize, usize)> = None;
    for &id in living {
        let head = game.head(id);
        layout.set(&mut frontier[id * words..(id + 1) * words], head);
        let y = head.y as usize;
        range = Some(range.map_or((y, y), |(lo, hi)| (lo.min(y), hi.max(y))));
    }
    let mut swapped = false;
    while let Some((lo, hi)) = range {
        let (cur, nxt) = if swapped { (&mut *next, &mut *frontier) } else { (&mut *frontier, &mut *next) };
        let mut grown: Option<(usize, usize)> = None;
        for &id in living {
            let from = &cur[id * words..(id + 1) * words];
            let rows = bitboard::expand(layout, from, free, lo, hi, &mut nxt[id * words..(id + 1) * words]);
            if let Some((f, l)) = rows {
                grown = Some(grown.map_or((f, l), |(gf, gl)| (gf.min(f), gl.max(l))));
            }
        }
        // The rows written this layer; settle who got each cell.
        let first = lo.saturating_sub(1);
        let last = (hi + 1).min(h - 1);
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
            cur[id * words + lo * k..id * words + (hi + 1) * k].fill(0);
        }
        swapped = !swapped;
        range = grown;
    }
    result
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
            let head = game.head(q);
            let touches = Dir::ALL
                .iter()
                .filter_map(|&d| head.step(d, layout.width(), layout.height()))
                .any(|cell| layout.get(reach, cell));
            if touches {
                return false;
            }
        }
    }
    true
}

/// A set of directions, one bit per direction code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Moves(u8);

impl Moves {
    /// No direction.
    pub const NONE: Moves = Moves(0);

    /// The set as bits: bit `d.code()` for each direction `d` in it.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `dir` is in the set.
    pub const fn contains(self, dir: Dir) -> bool {
        self.0 >> dir.code() & 1 != 0
    }

    /// The number of directions in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `dir` added.
    pub const fn with(self, dir: Dir) -> Moves {
        Moves(self.0 | 1 << dir.code())
    }

    /// The directions in the set, in code order.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |&d| self.contains(d))
    }
}

/// The moves of player `id` that do not crash into the board as it is now:
/// the target is on the board and free, and the direction is not the
/// reversal into the neck (with a trail of two cells or more, that command
/// keeps the current direction, so it is not a move of its own). Other
/// players' moves this tick are not foreseen: a head-on into a free cell is
/// still possible. Empty for an eliminated player or an id out of range.
pub fn safe_moves(game: &FastGame, id: usize) -> Moves {
    if !game.is_alive(id) {
        return Moves::NONE;
    }
    let (head, dir, trail) = (game.head(id), game.dir(id), game.trail(id));
    let layout = game.layout();
    let mut moves = Moves::NONE;
    for d in Dir::ALL {
        if trail >= 2 && d == dir.opposite() {
            continue;
        }
        if let Some(target) = head.step(d, layout.width(), layout.height()) {
            if !layout.get(game.solid(), target) {
                moves = moves.with(d);
            }
        }
    }
    moves
}
