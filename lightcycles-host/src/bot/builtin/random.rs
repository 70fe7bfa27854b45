//! `builtin:random`: a random move among those that do not crash at once.

use std::time::Duration;

use lightcycles_core::SplitMix64;

use crate::bot::builtin::moves::random_safe_move;
use crate::bot::{Bot, Reply, Turn};

/// `builtin:random`.
#[derive(Debug)]
pub(super) struct RandomBot {
    pub(super) rng: SplitMix64,
}

impl Bot for RandomBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        Reply::of_dir(random_safe_move(turn, &mut self.rng))
    }
}
