//! The limit probe of `lightcycles bench`: the tightest two-player tick on
//! a 48 × 36 board this crate can write, measured in the same run as the
//! engines, so that every engine row has a ratio to what the machine
//! allows today.
//!
//! It is a yardstick, not an engine: it knows one board size, two players
//! and the `straight` fault policy, and no tick cap or outcome. It plays
//! the same moves as the engines (a test replays the bench's scripted game
//! on it beside the fast engine and compares every tick), and keeps only
//! what a tick needs: 36 row words, two heads, two directions, the trail
//! lengths' one bit that the neck rule reads, and who still rides.

use lightcycles_core::{Action, Engine, FastGame};

const WIDTH: u32 = 48;
const HEIGHT: u32 = 36;

/// One game state of the probe: 296 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    rows: [u64; HEIGHT as usize],
    /// Head of each player, as `y * 64 + x`.
    head: [u32; 2],
    dir: [u8; 2],
    /// Whether each player has a neck (a trail of two cells or more).
    neck: [bool; 2],
    /// Bit `i` set while player `i` rides.
    alive: u8,
    over: bool,
}

impl Probe {
    /// The probe's copy of a two-player 48 × 36 game.
    pub(crate) fn from_game(game: &FastGame) -> Probe {
        assert!(game.num_players() == 2 && game.config().width == WIDTH && game.config().height == HEIGHT);
        let mut rows = [0u64; HEIGHT as usize];
        rows.copy_from_slice(game.solid());
        let p = [game.player(0), game.player(1)];
        Probe {
            rows,
            head: p.map(|p| p.pos.y as u32 * 64 + p.pos.x as u32),
            dir: p.map(|p| p.dir.code()),
            neck: p.map(|p| p.trail >= 2),
            alive: game.alive_mask(),
            over: game.is_over(),
        }
    }

    /// One tick: the neck rule, the move, the crash tests, the trails.
    #[inline]
    pub(crate) fn step(&mut self, actions: &[Action; 2]) {
        // (dx, dy) as an offset of the bit index; -1 and -64 wrap.
        const OFFSET: [u32; 4] = [64u32.wrapping_neg(), 1, 64, 1u32.wrapping_neg()];
        let mut target = [0u32; 2];
        let mut ok = [false; 2];
        for i in 0..2 {
            let asked = match actions[i] {
                Action::Move(d) => d.code(),
                _ => self.dir[i],
            };
            let riding = self.alive >> i & 1 != 0;
            let d = if !riding || self.neck[i] && asked ^ self.dir[i] == 2 { self.dir[i] } else { asked };
            self.dir[i] = d;
            let t = self.head[i].wrapping_add(OFFSET[d as usize]);
            let (x, y) = (t & 63, t >> 6);
            target[i] = t;
            ok[i] = riding && x < WIDTH && y < HEIGHT && self.rows[y as usize % HEIGHT as usize] >> x & 1 == 0;
        }
        let head_on = target[0] == target[1];
        for i in 0..2 {
            if self.alive >> i & 1 == 0 {
                continue;
            }
            if ok[i] && !(head_on && self.alive == 0b11) {
                let t = target[i];
                self.rows[(t >> 6) as usize % HEIGHT as usize] |= 1 << (t & 63);
                self.head[i] = t;
                self.neck[i] = true;
            } else {
                self.alive &= !(1 << i);
            }
        }
        self.over = self.alive.count_ones() <= 1;
    }

    /// Whether the game has ended (a tick cap is not the probe's).
    pub(crate) fn is_over(&self) -> bool {
        self.over
    }

    /// Heads and directions of both players and who rides.
    #[cfg(test)]
    fn riders(&self) -> ([(u32, u32); 2], [u8; 2], u8) {
        (self.head.map(|h| (h & 63, h >> 6)), self.dir, self.alive)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::bots::{board_at, steady};
    use lightcycles_core::{Config, Dir, SplitMix64};

    /// The probe plays the rules' game, tick by tick, on the bench's board
    /// and on games with random moves (crashes, head-ons, reversals).
    #[test]
    fn the_probe_plays_what_the_engine_plays() {
        let mut rng = SplitMix64::new(3);
        let mut games = vec![board_at(0)];
        games.extend((0..200).map(|seed| FastGame::seeded(&Config::default(), seed).unwrap()));
        for (g, mut game) in games.into_iter().enumerate() {
            let mut probe = Probe::from_game(&game);
            while !game.is_over() {
                let actions = if g == 0 {
                    [steady(&game, 0), steady(&game, 1)]
                } else {
                    [0, 1].map(|_| match rng.below(6) {
                        0..=3 => Action::Move(Dir::ALL[rng.below(4) as usize]),
                        4 => Action::Keep,
                        _ => Action::Move(Dir::ALL[(rng.below(2) * 2) as usize]),
                    })
                };
                game.step(&actions).unwrap();
                probe.step(&actions);
                let heads = [0, 1].map(|i| (game.head(i).x as u32, game.head(i).y as u32));
                let dirs = [game.dir(0).code(), game.dir(1).code()];
                assert_eq!(probe.riders(), (heads, dirs, game.alive_mask()), "game {g} tick {}", game.tick());
                assert_eq!(&probe.rows[..], game.solid());
                if game.tick() < game.config().max_ticks {
                    assert_eq!(probe.is_over(), game.is_over());
                }
            }
        }
    }
}
