//! The start of a game: the map (rocks and start cells), its seeded
//! generator ([`generate()`], docs/RULES.md section 4), the connectivity check
//! the generator relies on, and the 2010 Google AI Challenge map format
//! ([`parse_2010`], section 9), a file of it as a run holds it ([`MapFile`])
//! and, with the feature `serde`, a map as JSON (`to_json`).

use alloc::vec;
use alloc::vec::Vec;

use crate::config::{ConfigError, MAX_SIDE, MIN_SIDE};
use crate::geometry::{Dir, Pos};

mod connectivity;
mod file;
mod format_2010;
mod generate;
#[cfg(feature = "serde")]
mod json;

pub use file::MapFile;
pub use format_2010::{parse_2010, MapParseError};
pub use generate::{generate, generate_reference};
#[cfg(feature = "serde")]
pub use json::to_json;

/// A player's start cell and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// The start cell, which holds the player's id from the start.
    pub pos: Pos,
    /// The direction the cycle faces before its first move.
    pub dir: Dir,
}

/// The board before the first tick: its size, its rocks and the starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Map {
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `true` for a rock, row-major (`y * width + x`).
    pub rocks: Vec<bool>,
    /// One start per player, by id.
    pub starts: Vec<Start>,
}

impl Map {
    /// The rock cells sorted by `y`, then `x` (the order of the replay file).
    pub fn rock_cells(&self) -> Vec<Pos> {
        let w = self.width as usize;
        self.rocks.iter().enumerate().filter(|(_, &r)| r).map(|(i, _)| Pos::new((i % w) as u8, (i / w) as u8)).collect()
    }

    /// Whether `pos` is a rock (off-board cells are not rocks; they are walls).
    pub fn is_rock(&self, pos: Pos) -> bool {
        (pos.x as u32) < self.width && (pos.y as u32) < self.height && self.rocks[pos.index(self.width)]
    }

    /// Builds a map from its parts, as a replay file lists them, checking
    /// that the parts fit together.
    pub fn from_parts(width: u32, height: u32, rocks: &[Pos], starts: &[Start]) -> Result<Map, MapError> {
        check_side("width", width)?;
        check_side("height", height)?;
        let mut grid = vec![false; width as usize * height as usize];
        for &rock in rocks {
            if rock.x as u32 >= width || rock.y as u32 >= height {
                return Err(MapError::OffBoard { what: "rock", pos: rock });
            }
            grid[rock.index(width)] = true;
        }
        let map = Map { width, height, rocks: grid, starts: starts.to_vec() };
        map.validate()?;
        Ok(map)
    }

    /// Checks that the parts fit together: the board size, one rock flag per
    /// cell, and starts on the board, off the rocks and on distinct cells.
    pub fn validate(&self) -> Result<(), MapError> {
        check_side("width", self.width)?;
        check_side("height", self.height)?;
        let cells = self.width as usize * self.height as usize;
        if self.rocks.len() != cells {
            return Err(MapError::RockGrid { len: self.rocks.len(), cells });
        }
        for (i, start) in self.starts.iter().enumerate() {
            if start.pos.x as u32 >= self.width || start.pos.y as u32 >= self.height {
                return Err(MapError::OffBoard { what: "start", pos: start.pos });
            }
            if self.rocks[start.pos.index(self.width)] {
                return Err(MapError::StartOnRock { player: i, pos: start.pos });
            }
            if self.starts[..i].iter().any(|s| s.pos == start.pos) {
                return Err(MapError::SharedStart { player: i, pos: start.pos });
            }
        }
        Ok(())
    }
}

fn check_side(field: &'static str, value: u32) -> Result<(), MapError> {
    if (MIN_SIDE..=MAX_SIDE).contains(&value) {
        Ok(())
    } else {
        Err(MapError::Config(ConfigError::OutOfRange {
            field,
            value: value as u64,
            min: MIN_SIDE as u64,
            max: MAX_SIDE as u64,
        }))
    }
}

/// Why a map could not be generated or assembled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// The configuration is out of bounds.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// 1000 tries could not place a player at distance ≥ 4 from the others.
    #[error("board too small for {players} players: player {player} could not be placed in 1000 tries")]
    BoardTooSmall {
        /// The number of players asked for.
        players: u32,
        /// The player that could not be placed.
        player: u32,
    },
    /// A rock or start outside the board.
    #[error("{what} at {pos} is off the board")]
    OffBoard {
        /// `rock` or `start`.
        what: &'static str,
        /// The cell.
        pos: Pos,
    },
    /// A start cell on a rock.
    #[error("player {player} starts on a rock at {pos}")]
    StartOnRock {
        /// The player.
        player: usize,
        /// The cell.
        pos: Pos,
    },
    /// A rock grid whose length is not `width · height`.
    #[error("the rock grid has {len} cells, the board {cells}")]
    RockGrid {
        /// Length of the rock grid.
        len: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// Two players on one start cell.
    #[error("player {player} starts on the cell of an earlier player at {pos}")]
    SharedStart {
        /// The player.
        player: usize,
        /// The cell.
        pos: Pos,
    },
}
