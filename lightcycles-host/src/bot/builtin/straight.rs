//! `builtin:straight`: keeps its direction.

use std::time::Duration;

use crate::bot::{Bot, Reply, Turn};

/// `builtin:straight`.
#[derive(Debug)]
pub(super) struct StraightBot;

impl Bot for StraightBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        Reply::of_dir(turn.me().dir)
    }
}
