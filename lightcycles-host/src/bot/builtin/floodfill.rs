//! `builtin:floodfill`: the move that keeps the most reachable space.

use std::time::Duration;

use lightcycles_core::space::{reachable_with, Scratch};
use lightcycles_core::{Dir, Pos, SplitMix64};

use crate::bot::builtin::moves::{pick, safe_moves};
use crate::bot::builtin::walls;
use crate::bot::{Bot, Reply, Turn};

/// `builtin:floodfill`: for each move that does not crash at once, counts
/// the free cells still reachable from the new cell (the core's
/// [`reachable`](lightcycles_core::space::reachable): the new cell and every
/// free cell joined to it, or none when it is a dead end; one more than the
/// room beyond the cell whenever there is any, so the order of the moves is
/// that of the room they leave) and takes the move that keeps the most.
/// Among equals it prefers a cell no other living head touches (no head-on
/// risk), then the cell that touches the most solid cells (filling space
/// tightly, as `wallhug` does); remaining ties are drawn from its own
/// seeded generator.
#[derive(Debug)]
pub(super) struct FloodfillBot {
    pub(super) rng: SplitMix64,
    pub(super) scratch: Scratch,
}

impl Bot for FloodfillBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        let position = turn.position();
        let Some(game) = turn.fast_game() else {
            return Reply::of_dir(turn.me().dir);
        };
        let (w, h) = (turn.width(), turn.height());
        let others: Vec<Pos> = position
            .players
            .iter()
            .enumerate()
            .filter(|&(id, p)| id != turn.you() && p.alive)
            .map(|(_, p)| p.pos)
            .collect();
        let near_head =
            |target: Pos| others.iter().any(|&head| Dir::ALL.into_iter().any(|d| head.step(d, w, h) == Some(target)));
        // Targets in the room the last fill found share its count (one
        // room, one count): most answers need one fill, not three.
        let mut last: Option<u32> = None;
        let scored: Vec<(Dir, (u32, bool, u32))> = safe_moves(turn)
            .into_iter()
            .map(|(dir, target)| {
                let room = match last {
                    Some(room) if game.layout().get(self.scratch.reached(), target) => room,
                    _ => {
                        let room = reachable_with(&game, target, &mut self.scratch);
                        last = Some(room);
                        room
                    }
                };
                (dir, (room, !near_head(target), walls::solid_neighbours(position, target)))
            })
            .collect();
        let Some(top) = scored.iter().map(|&(_, key)| key).max() else {
            return Reply::of_dir(turn.me().dir);
        };
        let best: Vec<Dir> = scored.iter().filter(|&&(_, key)| key == top).map(|&(dir, _)| dir).collect();
        let dir = if best.len() == 1 { best[0] } else { best[pick(&mut self.rng, best.len())] };
        Reply::of_dir(dir)
    }
}
