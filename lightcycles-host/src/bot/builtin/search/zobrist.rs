//! Position keys for the transposition table: Zobrist hashing.
//!
//! A key is the exclusive or of one random word per solid cell and one per
//! living player and the cell of its head. Nothing else of a position
//! changes what can happen next (a reversal into the neck is never a move of
//! its own, and whose trail a cell holds does not matter), so two move orders
//! that reach the same cells and heads share a key. After a tick the key is
//! updated in a few operations: the heads that left, the heads that arrived
//! and their new cells.

use lightcycles_core::bitboard;
use lightcycles_core::{Engine, FastGame, SplitMix64};

use super::cells::CellGraph;

/// The random words of one board size and player count.
#[derive(Clone, Debug)]
pub struct Zobrist {
    cell: Vec<u64>,
    /// `head[p * cells + c]`: player `p`'s head on cell `c`.
    head: Vec<u64>,
    cells: usize,
}

impl Zobrist {
    /// Words for a board of `graph`'s size and `players` players, drawn from
    /// a fixed seed: keys are the same in every run.
    pub fn new(graph: &CellGraph, players: usize) -> Zobrist {
        let cells = graph.len();
        let mut rng = SplitMix64::new(0x7A0B_7157_C0DE_5EED);
        let cell = (0..cells).map(|_| rng.next_u64()).collect();
        let head = (0..cells * players).map(|_| rng.next_u64()).collect();
        Zobrist { cell, head, cells }
    }

    /// The key of `game`, computed from scratch.
    pub fn key(&self, graph: &CellGraph, game: &FastGame) -> u64 {
        let layout = game.layout();
        let mut key = 0;
        for pos in bitboard::cells(layout, game.solid()) {
            key ^= self.cell[graph.cell(pos) as usize];
        }
        for p in (0..game.num_players()).filter(|&p| game.is_alive(p)) {
            key ^= self.head[p * self.cells + graph.cell(game.head(p)) as usize];
        }
        key
    }

    /// The key of `after`, one tick after `before` whose key is `key`.
    #[inline]
    pub fn after_tick(&self, graph: &CellGraph, key: u64, before: &FastGame, after: &FastGame) -> u64 {
        let mut key = key;
        for p in 0..before.num_players() {
            if !before.is_alive(p) {
                continue;
            }
            key ^= self.head[p * self.cells + graph.cell(before.head(p)) as usize];
            if after.is_alive(p) {
                let c = graph.cell(after.head(p)) as usize;
                key ^= self.head[p * self.cells + c] ^ self.cell[c];
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Action, Config, Dir};

    #[test]
    fn keys_kept_tick_by_tick_equal_keys_from_scratch() {
        for (seed, players, side) in [(3, 2, 48), (5, 3, 20), (8, 4, 24)] {
            let config = Config { width: side, height: side - 2, players, ..Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            let graph = CellGraph::new(game.layout());
            let z = Zobrist::new(&graph, players as usize);
            let mut key = z.key(&graph, &game);
            let mut rng = SplitMix64::new(seed);
            while !game.is_over() {
                let actions: Vec<Action> =
                    (0..players).map(|_| Action::Move(Dir::ALL[rng.below(4) as usize])).collect();
                let before = game.clone();
                game.step(&actions).unwrap();
                key = z.after_tick(&graph, key, &before, &game);
                assert_eq!(key, z.key(&graph, &game), "tick {}", game.tick());
            }
        }
    }

    #[test]
    fn a_position_rebuilt_from_plain_data_keeps_its_key() {
        // The next tick's root is rebuilt from the host's position: its key
        // must be the key the last search gave that node.
        let config = Config { width: 20, height: 16, players: 3, ..Config::default() };
        let mut game = FastGame::seeded(&config, 9).unwrap();
        let graph = CellGraph::new(game.layout());
        let z = Zobrist::new(&graph, 3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..6 {
            if game.is_over() {
                break;
            }
            let before = game.clone();
            game.step(&[Action::Keep, Action::Move(Dir::N), Action::Keep]).unwrap();
            let key = z.after_tick(&graph, z.key(&graph, &before), &before, &game);
            let rebuilt = FastGame::from_position(&game.position()).unwrap();
            assert_eq!(z.key(&graph, &rebuilt), key);
            assert!(seen.insert(key), "every tick a new key");
        }
    }
}
