//! The fast engine: the rules of the reference engine on bitboards, made for
//! search (copy, step, evaluate, thousands of times per move).
//!
//! A [`FastGame`] is a small fixed part (configuration, tick, up to eight
//! riders inline) and one buffer of words in the [`crate::bitboard`] layout:
//!
//! - the **solid** plane: one bit per cell that is not empty (rock, trail,
//!   head); the only plane a step or a flood fill reads;
//! - **owner planes**: the binary code of who holds a solid cell, `0` for a
//!   rock and `i + 1` for player `i`, one plane per code bit (two planes for
//!   2 or 3 players, three up to 7, four for 8). They exist so that
//!   [`Engine::cell`] gives the exact value of docs/RULES.md section 1.
//!
//! On the default 48 × 36 board with two players the buffer is 3 planes of
//! 36 words, 864 bytes. Cloning is one allocation and one copy;
//! [`FastGame::copy_from`] copies into an existing game without allocating.
//! [`Engine::step`] never allocates: everything it needs lives on the stack.
//!
//! The trajectory gate (`tests/trajectory_gate.rs`) plays fuzz games through
//! this engine and the reference [`crate::reference::ReferenceGame`] and compares
//! every frame, every cell and the outcome.

use alloc::vec;
use alloc::vec::Vec;

use crate::bitboard::Layout;
use crate::command::Action;
use crate::config::{Config, FaultPolicy, MAX_PLAYERS};
use crate::engine::{check_map, Engine, GameError, StepError};
use crate::geometry::{CellValue, Dir, Pos, EMPTY, ROCK};
use crate::map::Map;
use crate::outcome::{is_over, Outcome};
use crate::player::{self, PlayerState};
use crate::position::Position;

/// One player, packed: 12 bytes (whether it rides is a bit of
/// [`FastGame`]'s `alive` mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rider {
    pub(crate) pos: Pos,
    pub(crate) dir: Dir,
    pub(crate) trail: u32,
    /// The tick of elimination, [`RIDING`] while riding.
    pub(crate) eliminated_at: u32,
}

/// `eliminated_at` of a player still riding: no tick is this large (the cap
/// is at most 1 000 000), while a position may say a player was eliminated
/// on tick 0.
pub(crate) const RIDING: u32 = u32::MAX;

pub(crate) const NO_RIDER: Rider = Rider { pos: Pos::new(0, 0), dir: Dir::N, trail: 0, eliminated_at: RIDING };

/// A target that is off the board (no cell has this bit index).
pub(crate) const OFF_BOARD: u32 = u32::MAX;

/// A game on bitboards: the same rules and results as the reference engine,
/// cheap to copy, no allocation per step.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct FastGame {
    config: Config,
    layout: Layout,
    tick: u32,
    over: bool,
    players: u8,
    owner_planes: u8,
    /// Bit `i` set while player `i` rides.
    alive: u8,
    riders: [Rider; MAX_PLAYERS],
    /// The solid plane, then the owner planes, each `layout.words()` words.
    bits: Vec<u64>,
}

impl Clone for FastGame {
    fn clone(&self) -> Self {
        FastGame {
            config: self.config,
            layout: self.layout,
            tick: self.tick,
            over: self.over,
            players: self.players,
            owner_planes: self.owner_planes,
            alive: self.alive,
            riders: self.riders,
            bits: self.bits.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.copy_from(source);
    }
}

/// Owner planes needed for codes `0..=players` (rock and each player).
const fn owner_planes(players: u32) -> u8 {
    (u32::BITS - players.leading_zeros()) as u8
}

impl FastGame {
    /// Makes `self` an exact copy of `source`, reusing `self`'s buffer: no
    /// allocation when `self` was built for a board at least as large
    /// (the usual case: a search copies positions of one game into a few
    /// preallocated slots).
    pub fn copy_from(&mut self, source: &FastGame) {
        self.config = source.config;
        self.layout = source.layout;
        self.tick = source.tick;
        self.over = source.over;
        self.players = source.players;
        self.owner_planes = source.owner_planes;
        self.alive = source.alive;
        self.riders = source.riders;
        self.bits.clear();
        self.bits.extend_from_slice(&source.bits);
    }

    /// The bit layout of the board.
    #[inline]
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The solid plane: a bit per cell that is not empty (rocks, trails,
    /// heads), rows in the [`crate::bitboard`] layout. Off the board is a wall too,
    /// but has no bit.
    #[inline]
    pub fn solid(&self) -> &[u64] {
        &self.bits[..self.layout.words()]
    }

    /// Whether a cell is solid; off the board counts as solid (a wall).
    #[inline]
    pub fn is_solid(&self, pos: Pos) -> bool {
        !self.layout.contains(pos) || self.layout.get(self.solid(), pos)
    }

    /// Whether player `id` still rides (`false` for an id out of range).
    #[inline]
    pub fn is_alive(&self, id: usize) -> bool {
        id < MAX_PLAYERS && self.alive >> id & 1 != 0
    }

    /// The living players as a bit set: bit `i` for player `i`.
    #[inline]
    pub fn alive_mask(&self) -> u8 {
        self.alive
    }

    /// The head of player `id` (its last head once eliminated).
    ///
    /// # Panics
    /// When `id ≥ num_players()`.
    #[inline]
    pub fn head(&self, id: usize) -> Pos {
        self.rider(id).pos
    }

    /// The direction of player `id`.
    ///
    /// # Panics
    /// When `id ≥ num_players()`.
    #[inline]
    pub fn dir(&self, id: usize) -> Dir {
        self.rider(id).dir
    }

    /// The trail length of player `id`, head included.
    ///
    /// # Panics
    /// When `id ≥ num_players()`.
    pub fn trail(&self, id: usize) -> u32 {
        self.rider(id).trail
    }

    #[inline]
    fn rider(&self, id: usize) -> &Rider {
        assert!(id < self.players as usize, "player {id} does not exist: the game has {} players", self.players);
        &self.riders[id]
    }

    /// Bytes of one game state: the value itself and its buffer.
    pub fn state_bytes(&self) -> usize {
        core::mem::size_of::<FastGame>() + self.bits.len() * core::mem::size_of::<u64>()
    }

    /// An empty board of `config`'s size, before rocks and players.
    fn blank(config: &Config, tick: u32) -> FastGame {
        let layout = Layout::new(config.width, config.height).expect("a validated configuration has sides in 8..=255");
        let owner_planes = owner_planes(config.players);
        FastGame {
            config: *config,
            layout,
            tick,
            over: false,
            players: config.players as u8,
            owner_planes,
            alive: 0,
            riders: [NO_RIDER; MAX_PLAYERS],
            bits: vec![0; layout.words() * (1 + owner_planes as usize)],
        }
    }

    /// Marks a cell solid with owner code `code` (0 rock, `i + 1` player `i`).
    #[inline]
    fn put(&mut self, word: usize, mask: u64, code: u32) {
        let plane = self.layout.words();
        self.bits[word] |= mask;
        for b in 0..self.owner_planes as usize {
            if code >> b & 1 != 0 {
                self.bits[(1 + b) * plane + word] |= mask;
            }
        }
    }

    fn decide(&mut self) {
        self.over = self.tick > 0 && is_over(self.tick, self.config.max_ticks, self.alive.count_ones() as usize);
    }

    fn player_states(&self) -> Vec<PlayerState> {
        (0..self.players as usize).map(|i| self.player(i)).collect()
    }
}

impl Engine for FastGame {
    fn from_position(position: &Position) -> Result<Self, GameError> {
        position.validate()?;
        let mut game = FastGame::blank(&position.config, position.tick);
        let width = position.config.width as usize;
        for (i, &value) in position.grid.iter().enumerate() {
            if value == EMPTY {
                continue;
            }
            let pos = Pos::new((i % width) as u8, (i / width) as u8);
            let (word, mask) = game.layout.locate(pos);
            let code = if value == ROCK { 0 } else { value as u32 + 1 };
            game.put(word, mask, code);
        }
        for (id, (rider, p)) in game.riders.iter_mut().zip(&position.players).enumerate() {
            *rider = Rider { pos: p.pos, dir: p.dir, trail: p.trail, eliminated_at: p.eliminated_at.unwrap_or(RIDING) };
            game.alive |= (p.alive as u8) << id;
        }
        game.decide();
        Ok(game)
    }

    /// Builds the board straight from the map (the same game as going
    /// through [`Position::start`], without the intermediate grid).
    fn from_map(config: &Config, map: &Map) -> Result<Self, GameError> {
        check_map(config, map)?;
        map.validate()?;
        let mut game = FastGame::blank(config, 0);
        let width = config.width as usize;
        // Rocks are sparse: skip 64 cells at a time while none is a rock
        // (the comparison is a plain memory compare).
        const NO_ROCKS: [bool; 64] = [false; 64];
        for (c, chunk) in map.rocks.chunks(64).enumerate() {
            if chunk == &NO_ROCKS[..chunk.len()] {
                continue;
            }
            for (j, _) in chunk.iter().enumerate().filter(|(_, &r)| r) {
                let i = c * 64 + j;
                let (word, mask) = game.layout.locate(Pos::new((i % width) as u8, (i / width) as u8));
                game.bits[word] |= mask;
            }
        }
        for (id, start) in map.starts.iter().enumerate() {
            let (word, mask) = game.layout.locate(start.pos);
            game.put(word, mask, id as u32 + 1);
            game.riders[id] = Rider { pos: start.pos, dir: start.dir, trail: 1, eliminated_at: RIDING };
            game.alive |= 1 << id;
        }
        Ok(game)
    }

    #[inline]
    fn config(&self) -> &Config {
        &self.config
    }

    #[inline]
    fn tick(&self) -> u32 {
        self.tick
    }

    #[inline]
    fn num_players(&self) -> usize {
        self.players as usize
    }

    #[inline]
    fn player(&self, id: usize) -> PlayerState {
        let r = self.rider(id);
        PlayerState {
            pos: r.pos,
            dir: r.dir,
            alive: self.alive >> id & 1 != 0,
            trail: r.trail,
            eliminated_at: (r.eliminated_at != RIDING).then_some(r.eliminated_at),
        }
    }

    /// The value of a cell. A cell off the board reads as a rock (`-2`):
    /// off the board is a wall.
    #[inline]
    fn cell(&self, pos: Pos) -> CellValue {
        if !self.layout.contains(pos) {
            return ROCK;
        }
        let (word, mask) = self.layout.locate(pos);
        if self.bits[word] & mask == 0 {
            return EMPTY;
        }
        let plane = self.layout.words();
        let mut code = 0;
        for b in 0..self.owner_planes as usize {
            code |= ((self.bits[(1 + b) * plane + word] & mask != 0) as u32) << b;
        }
        if code == 0 {
            ROCK
        } else {
            (code - 1) as CellValue
        }
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.over
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        Outcome::decide(self.tick, self.config.max_ticks, &self.player_states())
    }

    /// docs/RULES.md section 7 on bits; no allocation.
    fn step(&mut self, actions: &[Action]) -> Result<(), StepError> {
        step_any(self, actions)
    }
}

impl Advance for FastGame {
    fn running(&self) -> Option<usize> {
        (!self.over).then_some(self.players as usize)
    }

    /// One tick with `N` players (docs/RULES.md section 7), through the
    /// one tick on bits ([`advance`]).
    #[inline(always)]
    fn advance<const N: usize>(&mut self, actions: &[Action; N]) {
        let bits = Planes { bits: &mut self.bits, plane: self.layout.words() };
        let board = TickBoard {
            width: self.layout.width(),
            height: self.layout.height(),
            row_bits: self.layout.words_per_row() as u32 * 64,
            eliminate: self.config.fault_policy == FaultPolicy::Eliminate,
        };
        self.tick = advance(bits, board, &mut self.riders, &mut self.alive, self.tick, actions);
        self.over = is_over(self.tick, self.config.max_ticks, self.alive.count_ones() as usize);
    }
}

/// A game that steps through the one tick on bits ([`advance`]), given
/// its players' actions as an array of their count.
pub(crate) trait Advance {
    /// The number of players while the game runs; `None` once it has ended.
    fn running(&self) -> Option<usize>;
    /// One tick with `N` players.
    fn advance<const N: usize>(&mut self, actions: &[Action; N]);
}

/// One step of the fast engine or the search state: refused when the game
/// is over or the actions are not one per player; else [`Advance::advance`]
/// with `actions` as an array of their count, one copy of the tick per
/// player count, so that every loop over the players has a known length
/// and unrolls.
#[inline(always)]
pub(crate) fn step_any<A: Advance>(game: &mut A, actions: &[Action]) -> Result<(), StepError> {
    let n = game.running().ok_or(StepError::GameOver)?;
    if actions.len() != n {
        return Err(StepError::WrongLength { expected: n, got: actions.len() });
    }
    match actions {
        [a, b] => game.advance(&[*a, *b]),
        [a, b, c] => game.advance(&[*a, *b, *c]),
        [a, b, c, d] => game.advance(&[*a, *b, *c, *d]),
        [a, b, c, d, e] => game.advance(&[*a, *b, *c, *d, *e]),
        [a, b, c, d, e, f] => game.advance(&[*a, *b, *c, *d, *e, *f]),
        [a, b, c, d, e, f, g] => game.advance(&[*a, *b, *c, *d, *e, *f, *g]),
        [a, b, c, d, e, f, g, h] => game.advance(&[*a, *b, *c, *d, *e, *f, *g, *h]),
        _ => unreachable!("a game has 2 to 8 players"),
    }
    Ok(())
}

/// What the tick on bits needs to know of a board besides its cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TickBoard {
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Bits per row: cell `(x, y)` is bit `y * row_bits + x`.
    pub(crate) row_bits: u32,
    /// Whether a fault eliminates (`FaultPolicy::Eliminate`).
    pub(crate) eliminate: bool,
}

/// The cells as the tick on bits reads and writes them: whether a cell is
/// solid, and a cell made solid as a player's trail.
pub(crate) trait TickCells {
    /// Whether the cell of bit index `bit` is solid.
    fn is_solid_bit(&self, bit: u32) -> bool;
    /// Makes the cell of bit index `bit` solid, held by player `id` of `N`.
    fn claim<const N: usize>(&mut self, bit: u32, id: usize);
}

/// The buffer of a [`FastGame`]: the solid plane, then the owner planes.
struct Planes<'a> {
    bits: &'a mut [u64],
    plane: usize,
}

impl TickCells for Planes<'_> {
    #[inline(always)]
    fn is_solid_bit(&self, bit: u32) -> bool {
        self.bits[(bit >> 6) as usize] >> (bit & 63) & 1 != 0
    }

    #[inline(always)]
    fn claim<const N: usize>(&mut self, bit: u32, id: usize) {
        let (word, mask) = ((bit >> 6) as usize, 1u64 << (bit & 63));
        self.bits[word] |= mask;
        // With `N` and `id` known here, the planes of the owner code's zero
        // bits drop out at compile time.
        let code = id + 1;
        for b in 0..owner_planes(N as u32) as usize {
            if code >> b & 1 != 0 {
                self.bits[(1 + b) * self.plane + word] |= mask;
            }
        }
    }
}

/// The one tick on bits (docs/RULES.md section 7, steps 1 to 6) for `N`
/// players: the fast engine and the lean [`crate::search_state::SearchState`]
/// both step through it. Returns the new tick; whether the game is over is
/// the caller's (section 8, [`is_over`]).
#[inline(always)]
pub(crate) fn advance<const N: usize, C: TickCells>(
    mut cells: C,
    board: TickBoard,
    riders: &mut [Rider; MAX_PLAYERS],
    alive: &mut u8,
    tick: u32,
    actions: &[Action; N],
) -> u32 {
    let t = tick + 1;
    let TickBoard { width: w, height: h, row_bits, eliminate } = board;

    // Steps 1 to 3: faults under `eliminate`, new directions, targets
    // (as bit indices, equal for two players exactly when their targets
    // are). Every player in A takes its new direction (step 5) right
    // away: nothing later in the tick reads the old one.
    let mut in_a = [false; N];
    let mut target = [OFF_BOARD; N];
    let mut next = [Pos::new(0, 0); N];
    for i in 0..N {
        if *alive >> i & 1 == 0 {
            continue;
        }
        let action = actions[i];
        if eliminate && action.is_fault() {
            *alive &= !(1 << i);
            riders[i].eliminated_at = t;
            continue;
        }
        let rider = &mut riders[i];
        let d = match action {
            Action::Move(d) => player::resolve(rider.dir, rider.trail, d),
            _ => rider.dir,
        };
        rider.dir = d;
        in_a[i] = true;
        // Off the board to the left or the top wraps to a huge value.
        let x = (rider.pos.x as u32).wrapping_add(STEP_X[d as usize]);
        let y = (rider.pos.y as u32).wrapping_add(STEP_Y[d as usize]);
        if x < w && y < h {
            target[i] = y * row_bits + x;
            next[i] = Pos::new(x as u8, y as u8);
        }
    }

    // Step 4: crashes, judged on the board as it was: off the board or
    // into a solid cell, or a head-on with another player of A.
    let mut crashed = [false; N];
    for i in 0..N {
        let ti = target[i];
        crashed[i] |= in_a[i] && (ti == OFF_BOARD || cells.is_solid_bit(ti));
        for j in i + 1..N {
            if in_a[i] && in_a[j] && target[j] == ti {
                crashed[i] = true;
                crashed[j] = true;
            }
        }
    }

    // Step 5: the crashed are eliminated, the rest move.
    for i in 0..N {
        if !in_a[i] {
            continue;
        }
        if crashed[i] {
            *alive &= !(1 << i);
            riders[i].eliminated_at = t;
            continue;
        }
        cells.claim::<N>(target[i], i);
        let r = &mut riders[i];
        r.pos = next[i];
        r.trail += 1;
    }
    // Step 6: the tick is over.
    t
}

/// `dx` of each direction code, as a wrapping `u32` (−1 wraps).
const STEP_X: [u32; 4] = [0, 1, 0, u32::MAX];
/// `dy` of each direction code, as a wrapping `u32`.
const STEP_Y: [u32; 4] = [u32::MAX, 0, 1, 0];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::ReferenceGame;

    #[test]
    fn owner_planes_cover_rock_and_every_player() {
        assert_eq!([2, 3, 4, 5, 6, 7, 8].map(owner_planes), [2, 2, 3, 3, 3, 3, 4]);
    }

    #[test]
    fn the_default_board_is_small() {
        let game = FastGame::seeded(&Config::default(), 1).unwrap();
        assert_eq!(game.bits.len(), 3 * 36);
        assert!(game.state_bytes() <= 1100, "{} bytes", game.state_bytes());
        let big = Config { width: 255, height: 255, players: 8, ..Config::default() };
        assert_eq!(FastGame::seeded(&big, 1).unwrap().bits.len(), 5 * 255 * 4);
    }

    #[test]
    fn built_from_a_map_or_a_position_alike() {
        for (seed, players, side) in [(1, 2, 48), (7, 4, 24), (3, 3, 20), (9, 8, 70), (5, 2, 200)] {
            let config = Config { width: side, height: side - 4, players, ..Config::default() };
            let map = crate::map::generate(&config, seed).unwrap();
            let direct = FastGame::from_map(&config, &map).unwrap();
            let through = FastGame::from_position(&Position::start(&config, &map)).unwrap();
            assert_eq!(direct, through);
            assert_eq!(direct.position(), ReferenceGame::from_map(&config, &map).unwrap().position());
        }
    }

    #[test]
    fn copy_from_reuses_the_buffer_and_copies_everything() {
        let mut a = FastGame::seeded(&Config::default(), 3).unwrap();
        let b_config = Config { width: 20, height: 16, players: 3, ..Config::default() };
        let mut b = FastGame::seeded(&b_config, 4).unwrap();
        b.step(&[Action::Keep; 3]).unwrap();
        let capacity = a.bits.capacity();
        let pointer = a.bits.as_ptr();
        a.copy_from(&b);
        assert_eq!(a, b);
        assert_eq!((a.bits.capacity(), a.bits.as_ptr()), (capacity, pointer), "no new allocation");
        let mut c = b.clone();
        c.clone_from(&FastGame::seeded(&Config::default(), 3).unwrap());
        assert_eq!(c, FastGame::seeded(&Config::default(), 3).unwrap());
    }

    #[test]
    fn a_player_eliminated_on_tick_0_stays_so() {
        // A position may say so (one rebuilt from the first observation).
        let config = Config { width: 8, height: 8, ..Config::default() };
        let mut position = ReferenceGame::seeded(&config, 2).unwrap().position();
        position.players[1].alive = false;
        position.players[1].eliminated_at = Some(0);
        let fast = FastGame::from_position(&position).unwrap();
        assert_eq!(fast.position(), position);
        assert_eq!(fast.player(1).eliminated_at, Some(0));
        assert!(!fast.is_over(), "the outcome is decided after a tick, as in the reference");
    }

    #[test]
    fn off_board_cells_read_as_walls() {
        let game = FastGame::seeded(&Config { width: 8, height: 8, ..Config::default() }, 0).unwrap();
        assert_eq!(game.cell(Pos::new(8, 0)), ROCK);
        assert!(game.is_solid(Pos::new(0, 8)));
        assert!(!game.is_alive(2));
    }
}
