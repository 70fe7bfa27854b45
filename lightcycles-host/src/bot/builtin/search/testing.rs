//! Positions drawn as text, for the tests of the search.

use lightcycles_core::{CellValue, Config, Dir, Engine, FastGame, PlayerState, Pos, Position, EMPTY, ROCK};

/// A game drawn as text: `.` empty, `#` rock, `a`…`h` a trail cell of
/// player 0…7, `A`…`H` its head. Every player rides and has as many trail
/// cells as the drawing shows; it faces away from a trail cell next to its
/// head (its neck), north when there is none. The tick is 10.
pub fn drawn_game(rows: &[&str]) -> FastGame {
    FastGame::from_position(&drawn_position(rows)).expect("a valid drawing")
}

/// The position of [`drawn_game`].
pub fn drawn_position(rows: &[&str]) -> Position {
    let (w, h) = (rows[0].len() as u32, rows.len() as u32);
    let mut grid = Vec::new();
    let mut heads: Vec<Option<Pos>> = vec![None; 8];
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len() as u32, w, "rows of one width");
        for (x, ch) in row.bytes().enumerate() {
            let value: CellValue = match ch {
                b'.' => EMPTY,
                b'#' => ROCK,
                b'a'..=b'h' => (ch - b'a') as CellValue,
                b'A'..=b'H' => {
                    heads[(ch - b'A') as usize] = Some(Pos::new(x as u8, y as u8));
                    (ch - b'A') as CellValue
                }
                other => panic!("unexpected {:?}", other as char),
            };
            grid.push(value);
        }
    }
    let players = heads.iter().take_while(|h| h.is_some()).count();
    let config = Config { width: w, height: h, players: players as u32, rock_density: 0, ..Config::default() };
    let players = (0..players)
        .map(|id| PlayerState {
            pos: heads[id].expect("heads are lettered from A on"),
            dir: facing(&grid, w, h, heads[id].unwrap(), id as CellValue),
            alive: true,
            trail: grid.iter().filter(|&&v| v == id as CellValue).count() as u32,
            eliminated_at: None,
        })
        .collect();
    let position = Position { config, tick: 10, grid, players };
    position.validate().expect("a valid drawing");
    position
}

/// Player `id` rides one cell in `dir` while everybody else stands still
/// (no rule does that; tests of one cycle's own search use it to keep the
/// others out of the way); `None` when the cell is not free.
pub fn ride_alone(position: &Position, id: usize, dir: Dir) -> Option<Position> {
    let (w, h) = (position.config.width, position.config.height);
    let target = position.players[id].pos.step(dir, w, h)?;
    if position.grid[target.index(w)] != EMPTY {
        return None;
    }
    let mut next = position.clone();
    next.grid[target.index(w)] = id as CellValue;
    let p = &mut next.players[id];
    (p.pos, p.dir, p.trail) = (target, dir, p.trail + 1);
    next.tick += 1;
    Some(next)
}

/// The direction from the neck (a cell of `id`'s trail next to `head`) to
/// the head; north without a neck.
fn facing(grid: &[CellValue], w: u32, h: u32, head: Pos, id: CellValue) -> Dir {
    Dir::ALL
        .into_iter()
        .find(|&d| head.step(d, w, h).is_some_and(|n| grid[n.index(w)] == id))
        .map_or(Dir::N, Dir::opposite)
}
