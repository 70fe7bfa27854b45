//! The walls around a cell, as the space-minded built-in bots (`wallhug`,
//! `floodfill`) weigh them on a [`Position`]: how many solid cells touch a
//! cell. (The room a cycle has is the core's `space::reachable`.)

use lightcycles_core::{Dir, Pos, Position, EMPTY};

/// Whether `pos` is on the board and empty.
pub fn is_free(position: &Position, pos: Pos) -> bool {
    position.grid[pos.index(position.config.width)] == EMPTY
}

/// How many of the four neighbours of `pos` are solid: off the board, a
/// rock, a trail or a head.
pub fn solid_neighbours(position: &Position, pos: Pos) -> u32 {
    let (w, h) = (position.config.width, position.config.height);
    Dir::ALL.into_iter().filter(|&d| pos.step(d, w, h).map_or(true, |n| !is_free(position, n))).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Config, Map, Start, ROCK};

    /// An 8 × 8 board with player 0 at (0, 0) and player 1 at (7, 7).
    fn open() -> Position {
        let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
        let starts = [Start { pos: Pos::new(0, 0), dir: Dir::E }, Start { pos: Pos::new(7, 7), dir: Dir::W }];
        Position::start(&config, &Map::from_parts(8, 8, &[], &starts).unwrap())
    }

    #[test]
    fn solid_neighbours_count_edges_rocks_and_heads() {
        let mut position = open();
        for y in 0..8 {
            position.grid[Pos::new(3, y).index(8)] = ROCK;
        }
        assert_eq!(solid_neighbours(&position, Pos::new(0, 1)), 2, "the edge and head 0");
        assert_eq!(solid_neighbours(&position, Pos::new(2, 4)), 1, "the wall");
        assert_eq!(solid_neighbours(&position, Pos::new(1, 4)), 0);
    }
}
