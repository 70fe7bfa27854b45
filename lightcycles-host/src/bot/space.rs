//! Room on the board, as the space-minded built-in bots (`wallhug`,
//! `floodfill`) measure it on a [`Position`]: how many solid cells touch a
//! cell, and how many free cells a cycle could still reach from it.
//!
//! A plain breadth-first search over the position's grid, with its working
//! memory kept between calls so a bot allocates once per game, not per tick.

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

/// Breadth-first search memory: a visit stamp per cell (a fresh stamp per
/// search, so nothing is cleared between searches) and the queue.
#[derive(Clone, Debug, Default)]
pub struct Flood {
    stamp: Vec<u32>,
    current: u32,
    queue: Vec<Pos>,
}

impl Flood {
    /// Memory for boards of any size; sized on first use.
    pub fn new() -> Flood {
        Flood::default()
    }

    /// The number of empty cells reachable from `from` through empty cells,
    /// 4-connected, as if `from` itself were solid (a cycle that moves to
    /// `from` puts its head there): `from` is not counted. `blocked` cells
    /// are treated as solid too (cells another cycle may take first).
    pub fn reachable(&mut self, position: &Position, from: Pos, blocked: &[Pos]) -> u32 {
        let (w, h) = (position.config.width, position.config.height);
        let cells = (w * h) as usize;
        if self.stamp.len() != cells {
            self.stamp = vec![0; cells];
            self.current = 0;
        }
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
        let mark = self.current;
        self.stamp[from.index(w)] = mark;
        for b in blocked {
            self.stamp[b.index(w)] = mark;
        }
        self.queue.clear();
        self.queue.push(from);
        let mut count = 0;
        let mut next = 0;
        while next < self.queue.len() {
            let cell = self.queue[next];
            next += 1;
            for d in Dir::ALL {
                let Some(n) = cell.step(d, w, h) else { continue };
                let i = n.index(w);
                if self.stamp[i] != mark && position.grid[i] == EMPTY {
                    self.stamp[i] = mark;
                    count += 1;
                    self.queue.push(n);
                }
            }
        }
        count
    }
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
    fn reachable_counts_the_open_region_without_the_start() {
        let position = open();
        let mut flood = Flood::new();
        // 64 cells, two heads, and the start cell itself.
        assert_eq!(flood.reachable(&position, Pos::new(1, 0), &[]), 61);
        // Again with the same memory: the stamps do not leak between searches.
        assert_eq!(flood.reachable(&position, Pos::new(1, 0), &[]), 61);
        assert_eq!(flood.reachable(&position, Pos::new(1, 0), &[Pos::new(4, 4)]), 60);
    }

    #[test]
    fn a_wall_of_rock_splits_the_board() {
        let mut position = open();
        for y in 0..8 {
            position.grid[Pos::new(3, y).index(8)] = ROCK;
        }
        let mut flood = Flood::new();
        // Left of the wall: columns 0..3, 24 cells less head 0 and the start.
        assert_eq!(flood.reachable(&position, Pos::new(1, 0), &[]), 22);
        // Right of the wall: columns 4..8, 32 cells less head 1 and the start.
        assert_eq!(flood.reachable(&position, Pos::new(6, 7), &[]), 30);
        assert_eq!(solid_neighbours(&position, Pos::new(0, 1)), 2, "the edge and head 0");
        assert_eq!(solid_neighbours(&position, Pos::new(2, 4)), 1, "the wall");
        assert_eq!(solid_neighbours(&position, Pos::new(1, 4)), 0);
    }
}
