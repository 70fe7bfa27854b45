//! A misbehaving Rust plugin for the host's tests: it panics on ticks 3 and
//! 4 (each should cost it a `crash` for that tick only), and otherwise takes
//! the free neighbour with the longest straight run ahead.

use lightcycles_plugin::{export_bot, Dir, PluginBot, View, EMPTY};

/// The bot.
pub struct Panicky;

fn run_ahead(obs: &View<'_>, dir: Dir) -> usize {
    let me = obs.me();
    let (dx, dy) = match dir {
        Dir::N => (0, -1),
        Dir::E => (1, 0),
        Dir::S => (0, 1),
        Dir::W => (-1, 0),
    };
    let (mut x, mut y, mut n) = (me.x as i64 + dx, me.y as i64 + dy, 0);
    while obs.cell(x, y) == EMPTY {
        n += 1;
        x += dx;
        y += dy;
    }
    n
}

impl PluginBot for Panicky {
    fn new(_first: &View<'_>, _seed: u64) -> Result<Self, String> {
        Ok(Panicky)
    }

    fn choose(&mut self, obs: &View<'_>) -> Option<Dir> {
        if obs.tick == 3 || obs.tick == 4 {
            panic!("panicky plugin: tick {}", obs.tick);
        }
        Dir::ALL.into_iter().max_by_key(|&d| (run_ahead(obs, d), d == obs.me().dir))
    }
}

export_bot!(Panicky);
