//! A position: everything the rules need to go on with a game, as plain
//! data. Engines are built from one, so a bot can rebuild the referee's
//! state from an observation (`Observation::to_position`, feature `serde`)
//! and search from it.

use alloc::vec::Vec;

use crate::config::{Config, ConfigError};
use crate::geometry::{CellValue, EMPTY, ROCK};
use crate::map::Map;
use crate::player::PlayerState;

/// A game state as plain data: the configuration, the tick, every cell and
/// every player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The configuration (its size and players must match the grid).
    pub config: Config,
    /// Ticks played so far.
    pub tick: u32,
    /// Cell values, row-major (`y * width + x`).
    pub grid: Vec<CellValue>,
    /// Every player by id.
    pub players: Vec<PlayerState>,
}

/// A position that breaks an invariant of the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The configuration is out of bounds.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The grid does not have `width · height` cells.
    #[error("the grid has {len} cells, the board {cells}")]
    GridSize {
        /// Cells in the grid.
        len: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// Not one player state per configured player.
    #[error("{len} player states for {players} players")]
    PlayerCount {
        /// Player states given.
        len: usize,
        /// Configured players.
        players: u32,
    },
    /// A cell value that is neither empty, rock nor a player id.
    #[error("cell ({x}, {y}) holds {value}, expected -1, -2 or a player id below {players}")]
    CellValue {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// The value.
        value: CellValue,
        /// Number of players.
        players: u32,
    },
    /// A head off the board or not on its own trail.
    #[error("player {player}'s head ({x}, {y}) is not a cell of its own trail")]
    Head {
        /// The player.
        player: usize,
        /// Head column.
        x: u32,
        /// Head row.
        y: u32,
    },
    /// A trail length that is not the number of the player's cells.
    #[error("player {player} has a trail of {trail} but {cells} cells on the board")]
    Trail {
        /// The player.
        player: usize,
        /// The trail length given.
        trail: u32,
        /// Cells holding the player's id.
        cells: u32,
    },
    /// `alive` and `eliminated_at` disagree, or the elimination is in the future.
    #[error("player {player}: alive = {alive} does not fit eliminated_at = {eliminated_at:?} at tick {tick}")]
    Elimination {
        /// The player.
        player: usize,
        /// Whether it is alive.
        alive: bool,
        /// When it was eliminated.
        eliminated_at: Option<u32>,
        /// The position's tick.
        tick: u32,
    },
    /// The tick is past the cap.
    #[error("tick {tick} is past max_ticks = {max_ticks}")]
    Tick {
        /// The tick.
        tick: u32,
        /// The cap.
        max_ticks: u32,
    },
}

impl Position {
    /// The position before the first tick of a game on `map`: rocks, and each
    /// start cell holding its player's id.
    pub fn start(config: &Config, map: &Map) -> Position {
        let mut grid: Vec<CellValue> = map.rocks.iter().map(|&r| if r { ROCK } else { EMPTY }).collect();
        let players: Vec<PlayerState> = map
            .starts
            .iter()
            .map(|s| PlayerState { pos: s.pos, dir: s.dir, alive: true, trail: 1, eliminated_at: None })
            .collect();
        for (id, p) in players.iter().enumerate() {
            if let Some(cell) = grid.get_mut(p.pos.index(map.width)) {
                *cell = id as CellValue;
            }
        }
        Position { config: *config, tick: 0, grid, players }
    }

    /// Checks every invariant an engine relies on.
    pub fn validate(&self) -> Result<(), PositionError> {
        let c = &self.config;
        c.validate()?;
        if self.grid.len() != c.cells() {
            return Err(PositionError::GridSize { len: self.grid.len(), cells: c.cells() });
        }
        if self.players.len() != c.players as usize {
            return Err(PositionError::PlayerCount { len: self.players.len(), players: c.players });
        }
        if self.tick > c.max_ticks {
            return Err(PositionError::Tick { tick: self.tick, max_ticks: c.max_ticks });
        }
        let mut cells = [0u32; 8];
        for (i, &value) in self.grid.iter().enumerate() {
            if value < ROCK || value >= c.players as CellValue {
                let (x, y) = ((i % c.width as usize) as u32, (i / c.width as usize) as u32);
                return Err(PositionError::CellValue { x, y, value, players: c.players });
            }
            if value >= 0 {
                cells[value as usize] += 1;
            }
        }
        for (id, p) in self.players.iter().enumerate() {
            let (x, y) = (p.pos.x as u32, p.pos.y as u32);
            if x >= c.width || y >= c.height || self.grid[p.pos.index(c.width)] != id as CellValue {
                return Err(PositionError::Head { player: id, x, y });
            }
            if p.trail != cells[id] {
                return Err(PositionError::Trail { player: id, trail: p.trail, cells: cells[id] });
            }
            let fits = match p.eliminated_at {
                None => p.alive,
                Some(t) => !p.alive && t <= self.tick,
            };
            if !fits {
                return Err(PositionError::Elimination {
                    player: id,
                    alive: p.alive,
                    eliminated_at: p.eliminated_at,
                    tick: self.tick,
                });
            }
        }
        Ok(())
    }
}
