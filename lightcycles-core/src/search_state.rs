//! The lean state a search copies and steps thousands of times per move:
//! [`SearchState`], a fixed-size value (no heap, `Copy`) for boards up to
//! 64 × 64, one word per row.
//!
//! It keeps what the rules read during a tick and nothing else: the solid
//! plane (a bit per cell that is not empty), the riders, the tick and the
//! configuration. The owner planes of [`FastGame`] are left out: no step
//! reads them, and a search asks where it can go, not who left each trail.
//! So [`SearchState::cell_is_empty`] says whether a cell is empty, not
//! whose trail fills it; for the full cell values of docs/RULES.md section
//! 1 (an observation, a replay) keep the [`FastGame`] the search started
//! from and step it along the line the search chose.
//!
//! The tick is the fast engine's own ([`crate::fast`]), so the rules are
//! written once; the trajectory gate (`tests/trajectory_gate.rs`) plays
//! every fuzz game that fits through this state beside the reference
//! engine and compares every frame.
//!
//! ```
//! use lightcycles_core::search_state::SearchState;
//! use lightcycles_core::{Action, Config, Dir, Engine, FastGame};
//!
//! let game = FastGame::seeded(&Config::default(), 7).unwrap();
//! let root = SearchState::from_game(&game).unwrap();
//! let mut child = root; // a copy: no allocation
//! child.step(&[Action::Move(Dir::N), Action::Keep]).unwrap();
//! assert_eq!(child.tick(), 1);
//! assert_eq!(root.tick(), 0);
//! ```

use crate::bitboard::Layout;
use crate::command::Action;
use crate::config::{Config, FaultPolicy, MAX_PLAYERS};
use crate::engine::{Engine, GameError, StepError};
use crate::fast::{advance, step_any, Advance, Rider, TickBoard, TickCells, NO_RIDER, RIDING};
use crate::geometry::{CellValue, Dir, Pos, EMPTY};
use crate::outcome::{is_over, Outcome};
use crate::player::PlayerState;
use crate::position::Position;
use crate::FastGame;

/// The longest side a [`SearchState`] holds: one 64-bit word per row, at
/// most 64 rows.
pub const MAX_SEARCH_SIDE: u32 = 64;

/// Why a [`SearchState`] could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchStateError {
    /// The board is larger than a search state holds.
    #[error("the board is {width} × {height}; a search state holds boards up to {max} × {max} (use FastGame for larger ones)", max = MAX_SEARCH_SIDE)]
    TooLarge {
        /// Board width.
        width: u32,
        /// Board height.
        height: u32,
    },
    /// The game could not be set up.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// A game state for search: the rules of [`FastGame`] on a fixed-size
/// value of 640 bytes, copied by assignment, stepped without allocation.
/// Boards up to [`MAX_SEARCH_SIDE`] on each side, 2 to 8 players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchState {
    /// The solid plane: row `y` is word `y`, cell `x` its bit `x`; rows
    /// from the height on and bits from the width on are zero.
    rows: [u64; MAX_SEARCH_SIDE as usize],
    riders: [Rider; MAX_PLAYERS],
    config: Config,
    tick: u32,
    players: u8,
    /// Bit `i` set while player `i` rides.
    alive: u8,
    over: bool,
}

/// The solid plane as the tick on bits sees it: 64 bits per row.
struct Rows<'a>(&'a mut [u64; MAX_SEARCH_SIDE as usize]);

impl TickCells for Rows<'_> {
    #[inline(always)]
    fn is_solid_bit(&self, bit: u32) -> bool {
        self.0[(bit >> 6) as usize & 63] >> (bit & 63) & 1 != 0
    }

    #[inline(always)]
    fn claim<const N: usize>(&mut self, bit: u32, _id: usize) {
        self.0[(bit >> 6) as usize & 63] |= 1u64 << (bit & 63);
    }
}

impl SearchState {
    /// The lean copy of `game`: everything but the owner planes. Fails for
    /// a board wider or higher than [`MAX_SEARCH_SIDE`].
    pub fn from_game(game: &FastGame) -> Result<SearchState, SearchStateError> {
        let config = *game.config();
        if config.width > MAX_SEARCH_SIDE || config.height > MAX_SEARCH_SIDE {
            return Err(SearchStateError::TooLarge { width: config.width, height: config.height });
        }
        let mut rows = [0u64; MAX_SEARCH_SIDE as usize];
        // One word per row: the fast engine's layout is this one.
        rows[..game.solid().len()].copy_from_slice(game.solid());
        let mut riders = [NO_RIDER; MAX_PLAYERS];
        for (id, rider) in riders.iter_mut().enumerate().take(game.num_players()) {
            let p = game.player(id);
            *rider = Rider { pos: p.pos, dir: p.dir, trail: p.trail, eliminated_at: p.eliminated_at.unwrap_or(RIDING) };
        }
        Ok(SearchState {
            rows,
            riders,
            config,
            tick: game.tick(),
            players: game.num_players() as u8,
            alive: game.alive_mask(),
            over: game.is_over(),
        })
    }

    /// The game that goes on from `position` (checked as
    /// [`Engine::from_position`] checks it).
    pub fn from_position(position: &Position) -> Result<SearchState, SearchStateError> {
        let config = position.config;
        if config.width > MAX_SEARCH_SIDE || config.height > MAX_SEARCH_SIDE {
            return Err(SearchStateError::TooLarge { width: config.width, height: config.height });
        }
        SearchState::from_game(&FastGame::from_position(position)?)
    }

    /// The seeded game of `config` (as [`Engine::seeded`]).
    pub fn seeded(config: &Config, seed: u64) -> Result<SearchState, SearchStateError> {
        if config.width > MAX_SEARCH_SIDE || config.height > MAX_SEARCH_SIDE {
            return Err(SearchStateError::TooLarge { width: config.width, height: config.height });
        }
        SearchState::from_game(&FastGame::seeded(config, seed)?)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The bit layout of the board (one word per row).
    pub fn layout(&self) -> Layout {
        Layout::new(self.config.width, self.config.height).expect("a search state's sides are in 8..=64")
    }

    /// Ticks played so far.
    pub fn tick(&self) -> u32 {
        self.tick
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.players as usize
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The living players as a bit set: bit `i` for player `i`.
    pub fn alive_mask(&self) -> u8 {
        self.alive
    }

    /// Whether player `id` still rides (`false` for an id out of range).
    pub fn is_alive(&self, id: usize) -> bool {
        id < MAX_PLAYERS && self.alive >> id & 1 != 0
    }

    fn rider(&self, id: usize) -> &Rider {
        assert!(id < self.players as usize, "player {id} does not exist: the game has {} players", self.players);
        &self.riders[id]
    }

    /// The head of player `id` (its last head once eliminated).
    ///
    /// # Panics
    /// When `id ≥ num_players()`.
    pub fn head(&self, id: usize) -> Pos {
        self.rider(id).pos
    }

    /// The direction of player `id`.
    ///
    /// # Panics
    /// When `id ≥ num_players()`.
    pub fn dir(&self, id: usize) -> Dir {
        self.rider(id).dir
    }

    /// Player `id` as the rules see it.
    ///
    /// # Panics
    /// When `id ≥ num_players()`.
    pub fn player(&self, id: usize) -> PlayerState {
        let r = self.rider(id);
        PlayerState {
            pos: r.pos,
            dir: r.dir,
            alive: self.is_alive(id),
            trail: r.trail,
            eliminated_at: (r.eliminated_at != RIDING).then_some(r.eliminated_at),
        }
    }

    /// The solid plane, one word per row (`height` words; bit `x` of word
    /// `y` is cell `(x, y)`), the [`crate::bitboard`] layout of a board up
    /// to 64 wide.
    pub fn solid(&self) -> &[u64] {
        &self.rows[..self.config.height as usize]
    }

    /// All 64 rows of the solid plane (rows from the height on are zero).
    pub fn rows(&self) -> &[u64; MAX_SEARCH_SIDE as usize] {
        &self.rows
    }

    /// Whether a cell is empty (`-1`); off the board is a wall, not empty.
    #[inline]
    pub fn cell_is_empty(&self, pos: Pos) -> bool {
        (pos.x as u32) < self.config.width
            && (pos.y as u32) < self.config.height
            && self.rows[pos.y as usize & 63] >> (pos.x & 63) & 1 == 0
    }

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let players: alloc::vec::Vec<PlayerState> = (0..self.num_players()).map(|i| self.player(i)).collect();
        Outcome::decide(self.tick, self.config.max_ticks, &players)
    }

    /// Applies one tick with one action per player (ignored for the dead),
    /// as [`Engine::step`]; no allocation.
    pub fn step(&mut self, actions: &[Action]) -> Result<(), StepError> {
        step_any(self, actions)
    }

    /// [`SearchState::step`] for a game of two players, the usual duel:
    /// the tick without the dispatch on the number of players.
    #[inline]
    pub fn step2(&mut self, actions: [Action; 2]) -> Result<(), StepError> {
        if self.over {
            return Err(StepError::GameOver);
        }
        if self.players != 2 {
            return Err(StepError::WrongLength { expected: self.players as usize, got: 2 });
        }
        self.advance(&actions);
        Ok(())
    }

    /// The cell values of this state where `base` (a position this state
    /// was played from) already knows them, and `owner` of each cell that
    /// turned solid since: the whole position again, when the caller
    /// knows who rode into the new cells (a search that kept its line
    /// does). `None` when `base` is not of this board or a cell that
    /// `base` holds is empty here.
    pub fn position_over(&self, base: &Position, mut owner: impl FnMut(Pos) -> CellValue) -> Option<Position> {
        if base.config.width != self.config.width
            || base.config.height != self.config.height
            || base.players.len() != self.num_players()
        {
            return None;
        }
        let w = self.config.width;
        let mut grid = base.grid.clone();
        for (i, value) in grid.iter_mut().enumerate() {
            let pos = Pos::new((i as u32 % w) as u8, (i as u32 / w) as u8);
            match (*value == EMPTY, self.cell_is_empty(pos)) {
                (true, false) => *value = owner(pos),
                (false, true) => return None,
                _ => {}
            }
        }
        let players = (0..self.num_players()).map(|i| self.player(i)).collect();
        Some(Position { config: self.config, tick: self.tick, grid, players })
    }

    /// Bytes of one state (all of it: there is no buffer).
    pub const fn state_bytes() -> usize {
        core::mem::size_of::<SearchState>()
    }
}

impl Advance for SearchState {
    fn running(&self) -> Option<usize> {
        (!self.over).then_some(self.players as usize)
    }

    /// One tick with `N` players, through the one tick on bits on the rows.
    #[inline(always)]
    fn advance<const N: usize>(&mut self, actions: &[Action; N]) {
        let board = TickBoard {
            width: self.config.width,
            height: self.config.height,
            row_bits: 64,
            eliminate: self.config.fault_policy == FaultPolicy::Eliminate,
        };
        self.tick = advance(Rows(&mut self.rows), board, &mut self.riders, &mut self.alive, self.tick, actions);
        self.over = is_over(self.tick, self.config.max_ticks, self.alive.count_ones() as usize);
    }
}

impl TryFrom<&FastGame> for SearchState {
    type Error = SearchStateError;
    fn try_from(game: &FastGame) -> Result<SearchState, SearchStateError> {
        SearchState::from_game(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::ReferenceGame;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    proptest! {
        /// Any game that fits, any answers (faults and reversals too): the
        /// search state is the lean copy of the fast engine on every tick.
        #[test]
        fn steps_as_the_fast_engine_on_any_answers(
            w in 8u32..=64,
            h in 8u32..=64,
            players in 2u32..=8,
            eliminate in any::<bool>(),
            seed in any::<u64>(),
            max_ticks in 1u32..400,
            answers in proptest::collection::vec(0u8..7, 8 * 400),
        ) {
            let players = if w < 16 || h < 16 { 2 } else { players };
            let fault_policy = if eliminate { FaultPolicy::Eliminate } else { FaultPolicy::Straight };
            let config = Config { width: w, height: h, players, max_ticks, fault_policy, ..Config::default() };
            let Ok(mut fast) = FastGame::seeded(&config, seed) else { return Ok(()) };
            let mut lean = SearchState::from_game(&fast).unwrap();
            let mut answers = answers.chunks(players as usize);
            while !fast.is_over() {
                let actions: Vec<Action> = answers.next().unwrap().iter().map(|&a| match a {
                    0..=3 => Action::Move(Dir::ALL[a as usize]),
                    4 => Action::Keep,
                    5 => Action::Fault(crate::FaultKind::Invalid),
                    _ => Action::Fault(crate::FaultKind::Timeout),
                }).collect();
                prop_assert_eq!(lean.step(&actions), fast.step(&actions));
                prop_assert_eq!(lean, SearchState::from_game(&fast).unwrap());
            }
            prop_assert_eq!(lean.outcome(), fast.outcome());
        }
    }

    #[test]
    fn a_search_state_is_small_and_plain() {
        assert!(SearchState::state_bytes() <= 640, "{} bytes", SearchState::state_bytes());
        fn is_copy<T: Copy>() {}
        is_copy::<SearchState>();
    }

    #[test]
    fn boards_past_64_are_refused_by_name() {
        let config = Config { width: 65, height: 20, ..Config::default() };
        let e = SearchState::seeded(&config, 1).unwrap_err();
        assert_eq!(e, SearchStateError::TooLarge { width: 65, height: 20 });
        assert!(e.to_string().contains("65 × 20"), "{e}");
        let big = FastGame::seeded(&Config { width: 20, height: 70, ..Config::default() }, 1).unwrap();
        assert!(SearchState::from_game(&big).is_err());
        assert!(SearchState::seeded(&Config { width: 64, height: 64, ..Config::default() }, 1).is_ok());
    }

    #[test]
    fn steps_as_the_fast_engine_and_keeps_the_copy_apart() {
        let config = Config { width: 20, height: 16, players: 3, ..Config::default() };
        let mut fast = FastGame::seeded(&config, 5).unwrap();
        let mut lean = SearchState::from_game(&fast).unwrap();
        let root = lean;
        let mut t = 0;
        while !fast.is_over() {
            let actions: [Action; 3] = core::array::from_fn(|i| Action::Move(Dir::ALL[(t / 3 + i) % 4]));
            fast.step(&actions).unwrap();
            lean.step(&actions).unwrap();
            assert_eq!(lean, SearchState::from_game(&fast).unwrap(), "tick {}", fast.tick());
            t += 1;
        }
        assert_eq!(lean.outcome(), fast.outcome());
        assert_eq!(lean.step(&[Action::Keep; 3]), Err(StepError::GameOver));
        assert_eq!(root, SearchState::seeded(&config, 5).unwrap());
    }

    #[test]
    fn step2_is_step_for_two_and_refuses_other_counts() {
        let mut a = SearchState::seeded(&Config::default(), 3).unwrap();
        let mut b = a;
        a.step(&[Action::Move(Dir::E), Action::Keep]).unwrap();
        b.step2([Action::Move(Dir::E), Action::Keep]).unwrap();
        assert_eq!(a, b);
        let mut three =
            SearchState::seeded(&Config { width: 16, height: 16, players: 3, ..Config::default() }, 1).unwrap();
        assert_eq!(three.step2([Action::Keep; 2]), Err(StepError::WrongLength { expected: 3, got: 2 }));
        assert_eq!(three.step(&[Action::Keep; 2]), Err(StepError::WrongLength { expected: 3, got: 2 }));
    }

    #[test]
    fn the_position_comes_back_with_the_owners_of_the_new_cells() {
        let config = Config { width: 12, height: 10, ..Config::default() };
        let mut reference = ReferenceGame::seeded(&config, 8).unwrap();
        let base = reference.position();
        let mut lean = SearchState::from_position(&base).unwrap();
        for _ in 0..4 {
            let actions = [Action::Keep, Action::Keep];
            reference.step(&actions).unwrap();
            lean.step(&actions).unwrap();
        }
        let want = reference.position();
        let got = lean.position_over(&base, |pos| want.grid[pos.index(config.width)]).unwrap();
        assert_eq!(got, want);
        // A base this state did not come from.
        let other = ReferenceGame::seeded(&Config { width: 13, ..config }, 8).unwrap().position();
        assert!(lean.position_over(&other, |_| 0).is_none());
    }
}
