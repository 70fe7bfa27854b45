//! `builtin:wallhug`: a deterministic wall follower.

use std::time::Duration;

use crate::bot::builtin::moves::safe_moves;
use crate::bot::builtin::walls;
use crate::bot::{Bot, Reply, Turn};

/// `builtin:wallhug`: a wall follower. Of the moves that do not crash at
/// once it takes the one whose new cell touches the most solid cells
/// (walls, rocks, trails, heads), so it rides along a wall and packs its own
/// trail tightly; a cell with no free neighbour (a dead end) only when
/// nothing else is left. Ties go to the left turn, then straight, then the
/// right turn, which keeps the wall on its left. No randomness.
#[derive(Debug)]
pub(super) struct WallhugBot;

impl Bot for WallhugBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        let position = turn.position();
        let best = safe_moves(turn)
            .into_iter()
            .enumerate()
            .max_by_key(|&(order, (_, target))| {
                let solid = walls::solid_neighbours(position, target);
                // A dead end's four neighbours are all solid.
                (solid < 4, solid, std::cmp::Reverse(order))
            })
            .map(|(_, (dir, _))| dir);
        Reply::of_dir(best.unwrap_or(turn.me().dir))
    }
}
