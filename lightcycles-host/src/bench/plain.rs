//! The yardstick of the space helpers in `lightcycles bench`: plain
//! breadth-first searches on the reference engine's grid.

use std::collections::VecDeque;

use lightcycles_core::engine::Engine;
use lightcycles_core::{Pos, ReferenceGame, EMPTY};

/// Breadth-first searches on the reference engine's grid, cell by cell,
/// with buffers kept between calls: the yardstick of the search helpers.
pub(crate) struct PlainSearch {
    dist: Vec<Vec<u32>>,
    queue: VecDeque<usize>,
}

impl PlainSearch {
    pub(crate) fn new(game: &ReferenceGame) -> PlainSearch {
        let cells = game.grid().len();
        PlainSearch { dist: vec![vec![u32::MAX; cells]; game.num_players()], queue: VecDeque::with_capacity(cells) }
    }

    /// Distances from `from` through empty cells into `self.dist[slot]`.
    fn distances(&mut self, game: &ReferenceGame, from: Pos, slot: usize) -> u32 {
        let (w, h) = (game.config().width as usize, game.config().height as usize);
        let grid = game.grid();
        let dist = &mut self.dist[slot];
        dist.fill(u32::MAX);
        self.queue.clear();
        self.queue.push_back(from.index(w as u32));
        let mut reached = 0;
        while let Some(i) = self.queue.pop_front() {
            let d = if i == from.index(w as u32) { 0 } else { dist[i] };
            let (x, y) = (i % w, i / w);
            let mut visit = |j: usize| {
                if grid[j] == EMPTY && dist[j] == u32::MAX {
                    dist[j] = d + 1;
                    reached += 1;
                    self.queue.push_back(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        reached
    }

    pub(crate) fn reachable(&mut self, game: &ReferenceGame, from: Pos) -> u32 {
        self.distances(game, from, 0)
    }

    pub(crate) fn voronoi(&mut self, game: &ReferenceGame) -> [u32; 9] {
        let living: Vec<usize> = (0..game.num_players()).filter(|&i| game.player(i).alive).collect();
        for &id in &living {
            self.distances(game, game.player(id).pos, id);
        }
        let mut counts = [0u32; 9];
        for c in 0..game.grid().len() {
            let best = living.iter().map(|&id| self.dist[id][c]).min().unwrap_or(u32::MAX);
            if best == u32::MAX {
                continue;
            }
            let mut owners = living.iter().filter(|&&id| self.dist[id][c] == best);
            match (owners.next(), owners.next()) {
                (Some(&id), None) => counts[id] += 1,
                _ => counts[8] += 1,
            }
        }
        counts
    }
}
