//! What every engine offers, so that replays, observations and tests work
//! with the reference and the fast engine alike.

use crate::command::Action;
use crate::config::{Config, ConfigError};
use crate::geometry::{CellValue, Pos};
use crate::map::{Map, MapError};
use crate::outcome::Outcome;
use crate::player::PlayerState;
use crate::position::{Position, PositionError};

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The configuration is out of bounds.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The map could not be generated or does not fit.
    #[error(transparent)]
    Map(#[from] MapError),
    /// The position breaks an invariant.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The map and the configuration disagree.
    #[error("the map is {map_width} × {map_height} with {map_players} players, the configuration {width} × {height} with {players}")]
    MapMismatch {
        /// Map width.
        map_width: u32,
        /// Map height.
        map_height: u32,
        /// Players on the map.
        map_players: usize,
        /// Configured width.
        width: u32,
        /// Configured height.
        height: u32,
        /// Configured players.
        players: u32,
    },
}

/// Why a tick could not be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Not one action per player.
    #[error("expected {expected} actions (one per player), got {got}")]
    WrongLength {
        /// Number of players.
        expected: usize,
        /// Number of actions given.
        got: usize,
    },
}

/// A LightCycles engine: a state and the tick of docs/RULES.md section 7.
/// (`'static`: an engine owns its state, so a caller may ask whether it is
/// the fast one, whose copy a searching bot takes.)
pub trait Engine: Clone + Sized + 'static {
    /// The game that goes on from `position` (checked with
    /// [`Position::validate`]).
    fn from_position(position: &Position) -> Result<Self, GameError>;

    /// The game on `map` under `config` (whose size and players must match).
    fn from_map(config: &Config, map: &Map) -> Result<Self, GameError> {
        check_map(config, map)?;
        map.validate()?;
        Self::from_position(&Position::start(config, map))
    }

    /// The seeded game of `config`: [`crate::map::generate`] then [`Engine::from_map`].
    fn seeded(config: &Config, seed: u64) -> Result<Self, GameError> {
        let map = crate::map::generate(config, seed)?;
        Self::from_map(config, &map)
    }

    /// The configuration.
    fn config(&self) -> &Config;
    /// Ticks played so far (0 at the start).
    fn tick(&self) -> u32;
    /// Number of players.
    fn num_players(&self) -> usize;
    /// Player `id` (`id < num_players()`).
    fn player(&self, id: usize) -> PlayerState;
    /// The value of a cell on the board.
    fn cell(&self, pos: Pos) -> CellValue;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// The outcome, once the game has ended.
    fn outcome(&self) -> Option<Outcome>;
    /// The current state as plain data.
    fn position(&self) -> Position {
        let config = *self.config();
        let mut grid = alloc::vec::Vec::with_capacity(config.cells());
        for y in 0..config.height {
            for x in 0..config.width {
                grid.push(self.cell(Pos::new(x as u8, y as u8)));
            }
        }
        let players = (0..self.num_players()).map(|i| self.player(i)).collect();
        Position { config, tick: self.tick(), grid, players }
    }
    /// Applies one tick with one action per player (ignored for the dead).
    fn step(&mut self, actions: &[Action]) -> Result<(), StepError>;
}

/// Checks that a map fits a configuration.
pub(crate) fn check_map(config: &Config, map: &Map) -> Result<(), GameError> {
    config.validate()?;
    if map.width != config.width || map.height != config.height || map.starts.len() != config.players as usize {
        return Err(GameError::MapMismatch {
            map_width: map.width,
            map_height: map.height,
            map_players: map.starts.len(),
            width: config.width,
            height: config.height,
            players: config.players,
        });
    }
    Ok(())
}
