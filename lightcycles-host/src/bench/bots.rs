//! The bench's own bots and boards: a steady bot that lasts, a random one
//! that costs little beside the engine, and boards played to a tick.

use lightcycles_core::engine::Engine;
use lightcycles_core::space;
use lightcycles_core::{Action, Config, Dir, DirSet, FastGame, Pos, ReferenceGame, SplitMix64, EMPTY};

/// The tick of the early-game board.
pub(crate) const EARLY_TICK: u32 = 10;
/// The tick of the mid-game board.
pub(crate) const MID_TICK: u32 = 250;

/// A bot that lasts: the safe move with the most free cells around its
/// target, straight on ties, then the lowest direction. Deterministic.
pub(crate) fn steady<E: Engine>(game: &E, id: usize) -> Action {
    let p = game.player(id);
    let (w, h) = (game.config().width, game.config().height);
    let free = |c: Pos| game.cell(c) == EMPTY;
    let best = safe(game, id).as_slice().iter().copied().max_by_key(|&d| {
        let target = p.pos.step(d, w, h).expect("safe moves stay on the board");
        let room = Dir::ALL.iter().filter(|&&e| target.step(e, w, h).is_some_and(free)).count();
        (room, d == p.dir, std::cmp::Reverse(d.code()))
    });
    best.map_or(Action::Keep, Action::Move)
}

/// The moves that do not crash into the board as it is (neck rule applied),
/// through the `Engine` trait so both engines run the same bot; no
/// allocation, so that the bot costs little beside the engine.
pub(crate) fn safe<E: Engine>(game: &E, id: usize) -> Moves {
    Moves::from(space::safe_moves(game, id))
}

/// The moves that do not crash at once, found the quickest way each engine
/// allows: the fast engine's [`space::safe_moves`] (four bit tests), the
/// reference's own grid (four cell reads). The random games use it, so that
/// each engine runs the bot a bot author would write for it.
pub(crate) trait NaturalSafe: Engine {
    fn natural_safe(&self, id: usize) -> Moves;
}

impl NaturalSafe for FastGame {
    fn natural_safe(&self, id: usize) -> Moves {
        Moves::from(space::safe_moves(self, id))
    }
}

impl NaturalSafe for ReferenceGame {
    fn natural_safe(&self, id: usize) -> Moves {
        let p = self.players()[id];
        let (w, h) = (self.config().width, self.config().height);
        let grid = self.grid();
        if !p.alive {
            return Moves::from(DirSet::NONE);
        }
        Moves::from(p.safe_moves(w, h, |c| grid[c.index(w)] == EMPTY))
    }
}

/// The bots' own random numbers (never the game's): SplitMix64 outputs
/// scaled into a range by a multiplication, not the rule book's division
/// based `below`, so that the bot costs little beside the engine. The small
/// bias does not matter to a bot.
pub(crate) struct BotRng(pub(crate) SplitMix64);

impl BotRng {
    pub(crate) fn new(seed: u64) -> BotRng {
        BotRng(SplitMix64::new(seed))
    }

    /// In `0..n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((self.0.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Up to four directions.
pub(crate) struct Moves {
    pub(crate) dirs: [Dir; 4],
    pub(crate) len: usize,
}

impl From<DirSet> for Moves {
    fn from(set: DirSet) -> Moves {
        let mut moves = Moves { dirs: [Dir::N; 4], len: 0 };
        for d in set.iter() {
            moves.dirs[moves.len] = d;
            moves.len += 1;
        }
        moves
    }
}

impl Moves {
    pub(crate) fn as_slice(&self) -> &[Dir] {
        &self.dirs[..self.len]
    }

    /// One of them at random, or any direction when there is none.
    pub(crate) fn pick(&self, rng: &mut BotRng) -> Dir {
        match self.len {
            0 => Dir::ALL[rng.below(4)],
            n => self.dirs[rng.below(n)],
        }
    }
}

/// A default board played by two steady bots up to `ticks` (the first seed
/// whose game gets that far).
pub(crate) fn board_at(ticks: u32) -> FastGame {
    for seed in 0.. {
        let mut game = FastGame::seeded(&Config::default(), seed).expect("the default configuration builds");
        while game.tick() < ticks && !game.is_over() {
            let actions = [steady(&game, 0), steady(&game, 1)];
            game.step(&actions).expect("the game goes on");
        }
        if game.tick() == ticks && !game.is_over() {
            return game;
        }
    }
    unreachable!("some seed reaches the tick")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_find_the_same_safe_moves() {
        for ticks in [0, EARLY_TICK, MID_TICK] {
            let fast = board_at(ticks);
            let reference = ReferenceGame::from_position(&fast.position()).unwrap();
            for id in 0..2 {
                let want = safe(&fast, id);
                assert_eq!(fast.natural_safe(id).as_slice(), want.as_slice());
                assert_eq!(reference.natural_safe(id).as_slice(), want.as_slice());
            }
        }
    }
}
