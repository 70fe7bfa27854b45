//! An example LightCycles bot as a Rust plugin: each tick it takes the move
//! that keeps the most room, counting the empty cells it could still reach
//! after that move (a flood fill), and breaks ties with its own seeded
//! random numbers.
//!
//! Build it with `cargo build --release -p rust-plugin-bot` and play it with
//! `lightcycles play target/release/librust_plugin_bot.so builtin:random`.

use std::collections::VecDeque;

use lightcycles_plugin::{export_bot, Dir, PluginBot, View, EMPTY};

/// The bot: a flood fill per move, and a generator of its own for ties.
pub struct RoomBot {
    rng: u64,
}

impl RoomBot {
    /// SplitMix64: the bot's own randomness, seeded by the host.
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The cell one step from `(x, y)` in `dir`.
fn step(x: i64, y: i64, dir: Dir) -> (i64, i64) {
    match dir {
        Dir::N => (x, y - 1),
        Dir::E => (x + 1, y),
        Dir::S => (x, y + 1),
        Dir::W => (x - 1, y),
    }
}

/// Empty cells reachable from `start` (itself included) if `start` were
/// taken, with every other cell as it is now.
pub fn room(obs: &View<'_>, start: (i64, i64)) -> usize {
    let (w, h) = (obs.width as usize, obs.height as usize);
    let mut seen = vec![false; w * h];
    let mut queue = VecDeque::from([start]);
    seen[start.1 as usize * w + start.0 as usize] = true;
    let mut count = 0;
    while let Some((x, y)) = queue.pop_front() {
        count += 1;
        for dir in Dir::ALL {
            let (nx, ny) = step(x, y, dir);
            if obs.cell(nx, ny) == EMPTY && !seen[ny as usize * w + nx as usize] {
                seen[ny as usize * w + nx as usize] = true;
                queue.push_back((nx, ny));
            }
        }
    }
    count
}

impl PluginBot for RoomBot {
    /// The name the host shows this bot by.
    const NAME: &'static str = "room-bot";

    fn new(_first: &View<'_>, seed: u64) -> Result<Self, String> {
        Ok(RoomBot { rng: seed })
    }

    fn choose(&mut self, obs: &View<'_>) -> Option<Dir> {
        let me = obs.me();
        let (x, y) = (me.x as i64, me.y as i64);
        let mut best: Vec<Dir> = Vec::new();
        let mut best_room = 0;
        for dir in Dir::ALL {
            let target = step(x, y, dir);
            if obs.cell(target.0, target.1) != EMPTY {
                continue;
            }
            let r = room(obs, target);
            if r > best_room {
                best_room = r;
                best.clear();
            }
            if r == best_room {
                best.push(dir);
            }
        }
        if best.is_empty() {
            return None;
        }
        let pick = (self.next() % best.len() as u64) as usize;
        Some(best[pick])
    }
}

export_bot!(RoomBot);

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_plugin::{Observation, PlayerView};

    #[test]
    fn it_rides_into_the_larger_room() {
        // An 8x8 board split by a wall at x = 2, the bot in the one gap at
        // (2, 3): west is a room of 16 cells, east one of 39.
        let mut grid = vec![vec![-1i8; 8]; 8];
        for row in grid.iter_mut() {
            row[2] = -2;
        }
        grid[3][2] = 0;
        grid[7][7] = 1;
        let obs = Observation {
            tick: 1,
            max_ticks: 100,
            width: 8,
            height: 8,
            you: 0,
            players: vec![
                PlayerView { id: 0, x: 2, y: 3, dir: Dir::N, alive: true },
                PlayerView { id: 1, x: 7, y: 7, dir: Dir::W, alive: true },
            ],
            grid,
            time_bank_ms: None,
        };
        let (mut players, mut cells) = (Vec::new(), Vec::new());
        let view = View::of(&obs, &mut players, &mut cells);
        let mut bot = RoomBot::new(&view, 1).unwrap();
        for _ in 0..10 {
            assert_eq!(bot.choose(&view), Some(Dir::E));
        }
        assert_eq!(room(&view, (1, 3)), 16);
        assert_eq!(room(&view, (3, 3)), 39);
    }
}
