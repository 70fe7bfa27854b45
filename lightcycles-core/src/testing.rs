//! Positions drawn as text, for tests of this crate and of the crates above
//! it (the host's search bot): one parser of the drawings, not one per
//! crate. Hidden from the docs: it is no part of the rules' API and may
//! change with the tests.
//!
//! A drawing is rows of one width: `.` empty, `#` rock, `a`…`h` a trail
//! cell of player 0…7, `A`…`H` its head.

use alloc::vec::Vec;

use crate::config::{Config, MAX_PLAYERS};
use crate::geometry::{CellValue, Dir, Pos, EMPTY, ROCK};
use crate::player::PlayerState;
use crate::position::Position;

/// The cells of a drawing, row by row, and each player's head (players are
/// lettered from `A` on, so the heads are `Some` up to the last player).
pub struct Drawing {
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The cells, row by row.
    pub grid: Vec<CellValue>,
    /// The head of player `id`, if the drawing shows one.
    pub heads: [Option<Pos>; MAX_PLAYERS],
}

impl Drawing {
    /// Reads `rows`; panics on a character it does not know or rows of
    /// different widths, as a test should.
    pub fn parse(rows: &[&str]) -> Drawing {
        let (width, height) = (rows[0].len() as u32, rows.len() as u32);
        let mut grid = Vec::with_capacity((width * height) as usize);
        let mut heads = [None; MAX_PLAYERS];
        for (y, row) in rows.iter().enumerate() {
            assert_eq!(row.len() as u32, width, "rows of one width");
            for (x, ch) in row.bytes().enumerate() {
                grid.push(match ch {
                    b'.' => EMPTY,
                    b'#' => ROCK,
                    b'a'..=b'h' => (ch - b'a') as CellValue,
                    b'A'..=b'H' => {
                        heads[(ch - b'A') as usize] = Some(Pos::new(x as u8, y as u8));
                        (ch - b'A') as CellValue
                    }
                    other => panic!("unexpected {:?}", other as char),
                });
            }
        }
        Drawing { width, height, grid, heads }
    }

    /// How many cells player `id` holds: its trail and its head.
    pub fn trail(&self, id: usize) -> u32 {
        self.grid.iter().filter(|&&v| v == id as CellValue).count() as u32
    }

    /// The players, from `A` on up to the first letter not drawn.
    pub fn players(&self) -> usize {
        self.heads.iter().take_while(|h| h.is_some()).count()
    }

    /// The direction player `id` rides: away from a trail cell next to its
    /// head (its neck), north when there is none.
    pub fn facing(&self, id: usize) -> Dir {
        let (w, h) = (self.width, self.height);
        let head = self.heads[id].expect("a drawn head");
        Dir::ALL
            .into_iter()
            .find(|&d| head.step(d, w, h).is_some_and(|n| self.grid[n.index(w)] == id as CellValue))
            .map_or(Dir::N, Dir::opposite)
    }
}

/// The position of a drawing: every player rides, faces away from its
/// neck ([`Drawing::facing`]) and has as many trail cells as the drawing
/// shows; no rocks are drawn at random; the tick is 10.
pub fn drawn_position(rows: &[&str]) -> Position {
    let drawing = Drawing::parse(rows);
    let players = drawing.players();
    let config = Config {
        width: drawing.width,
        height: drawing.height,
        players: players as u32,
        rock_density: 0,
        ..Config::default()
    };
    let players = (0..players)
        .map(|id| PlayerState {
            pos: drawing.heads[id].expect("heads are lettered from A on"),
            dir: drawing.facing(id),
            alive: true,
            trail: drawing.trail(id),
            eliminated_at: None,
        })
        .collect();
    let position = Position { config, tick: 10, grid: drawing.grid, players };
    position.validate().expect("a valid drawing");
    position
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawing_reads_cells_heads_and_necks() {
        let position = drawn_position(&[
            "aA......", //
            ".......B", //
            "#......b", //
            "........", //
            "........", //
            "........", //
            "........", //
            "........", //
        ]);
        assert_eq!((position.config.width, position.config.height, position.players.len()), (8, 8, 2));
        assert_eq!((position.players[0].dir, position.players[1].dir), (Dir::E, Dir::N));
        assert_eq!((position.players[0].trail, position.players[1].trail), (2, 2));
        assert_eq!((position.grid[16], position.grid[2]), (ROCK, EMPTY));
    }
}
