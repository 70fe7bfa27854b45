//! Positions drawn as text, for the tests of the search: the core's one
//! parser of drawings ([`lightcycles_core::testing`]), as a game.

use lightcycles_core::{CellValue, Dir, Engine, FastGame, Position, EMPTY};

pub use lightcycles_core::testing::drawn_position;

/// An open 8 × 8 board, player 0 in the top left corner and player 1 in
/// the bottom right: two riders who can meet, far apart.
pub const OPEN_CORNERS: [&str; 8] = [
    "A.......", //
    "........", //
    "........", //
    "........", //
    "........", //
    "........", //
    "........", //
    ".......B", //
];

/// A game drawn as text: `.` empty, `#` rock, `a`…`h` a trail cell of
/// player 0…7, `A`…`H` its head. Every player rides and has as many trail
/// cells as the drawing shows; it faces away from a trail cell next to its
/// head (its neck), north when there is none. The tick is 10.
pub fn drawn_game(rows: &[&str]) -> FastGame {
    FastGame::from_position(&drawn_position(rows)).expect("a valid drawing")
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

/// Plays `ticks` ticks of a duel in which player 0 takes its first safe move
/// and player 1 its last (each keeps its heading when none is safe): a
/// cheap way to an uneven position, for tests that need the two sides'
/// values to differ.
pub fn ride_unevenly(game: &mut FastGame, ticks: usize) {
    for _ in 0..ticks {
        let moves: Vec<_> = (0..2)
            .map(|p| {
                let mut safe = lightcycles_core::space::safe_moves(game, p).iter();
                let dir = if p == 0 { safe.next() } else { safe.last() };
                lightcycles_core::Action::Move(dir.unwrap_or(game.dir(p)))
            })
            .collect();
        game.step(&moves).expect("two riders, two moves");
    }
}

/// Plays one tick in which every rider takes its `(tick + id)`-th safe move
/// (cycling through them; it keeps its heading when none is safe): a cheap,
/// varied and repeatable way through a game, for tests that check a value
/// at every tick.
pub fn step_scripted(game: &mut FastGame, tick: usize) {
    let actions: Vec<lightcycles_core::Action> = (0..game.num_players())
        .map(|id| {
            let safe = lightcycles_core::space::safe_moves(game, id);
            safe.iter()
                .nth((tick + id) % safe.len().max(1) as usize)
                .map_or(lightcycles_core::Action::Keep, lightcycles_core::Action::Move)
        })
        .collect();
    game.step(&actions).expect("a game that is not over");
}
