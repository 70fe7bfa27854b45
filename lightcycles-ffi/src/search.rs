//! Flood fills for search: the cells a player can still reach, and the
//! Voronoi split of the board (who reaches each empty cell first).
//!
//! Written over the [`Engine`] trait with thread-local scratch buffers, so
//! a call allocates nothing once a thread has searched a board of that size.

use std::cell::RefCell;

use lightcycles_core::{Dir, Engine, Pos, EMPTY};

/// `owners` value of a cell that no single player reaches first: a tie,
/// a cell nobody reaches, or a cell that is not empty.
pub const NO_OWNER: i8 = -1;

const UNREACHED: u32 = u32::MAX;

#[derive(Default)]
struct Scratch {
    queue: Vec<u32>,
    dist: Vec<u32>,
    best: Vec<u32>,
    owner: Vec<i8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Breadth-first distances from `from` through empty cells into `dist`
/// (`UNREACHED` elsewhere). The start cell gets distance 0 whatever it holds.
fn distances<E: Engine>(engine: &E, from: Pos, dist: &mut [u32], queue: &mut Vec<u32>) {
    let config = engine.config();
    let (w, h) = (config.width, config.height);
    dist.fill(UNREACHED);
    queue.clear();
    dist[from.index(w)] = 0;
    queue.push(from.index(w) as u32);
    let mut head = 0;
    while head < queue.len() {
        let index = queue[head] as usize;
        head += 1;
        let here = Pos::new((index % w as usize) as u8, (index / w as usize) as u8);
        let d = dist[index] + 1;
        for dir in Dir::ALL {
            if let Some(next) = here.step(dir, w, h) {
                let i = next.index(w);
                if dist[i] == UNREACHED && engine.cell(next) == EMPTY {
                    dist[i] = d;
                    queue.push(i as u32);
                }
            }
        }
    }
}

/// The number of empty cells `player` can reach from its head through empty
/// cells (its head excluded); 0 for a player that is no longer riding.
pub fn reachable<E: Engine>(engine: &E, player: usize) -> u32 {
    let p = engine.player(player);
    if !p.alive {
        return 0;
    }
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        s.dist.resize(engine.config().cells(), UNREACHED);
        distances(engine, p.pos, &mut s.dist, &mut s.queue);
        s.queue.len() as u32 - 1
    })
}

/// Whether players `a` and `b` can no longer meet: no empty cell is
/// reachable by both (so each fills its own room). True when either is no
/// longer riding, false for `a == b` while it rides.
pub fn separated<E: Engine>(engine: &E, a: usize, b: usize) -> bool {
    let (pa, pb) = (engine.player(a), engine.player(b));
    if !pa.alive || !pb.alive {
        return true;
    }
    if a == b {
        return false;
    }
    let config = engine.config();
    let (w, h) = (config.width, config.height);
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        s.dist.resize(config.cells(), UNREACHED);
        distances(engine, pa.pos, &mut s.dist, &mut s.queue);
        // b's room is the empty cells connected to its head's neighbours:
        // the rooms meet when a reaches one of those neighbours.
        !Dir::ALL.into_iter().filter_map(|d| pb.pos.step(d, w, h)).any(|n| {
            let i = n.index(w);
            s.dist[i] != UNREACHED && s.dist[i] > 0
        })
    })
}

/// The Voronoi split: `counts[i]` becomes the number of empty cells that
/// living player `i` reaches strictly before every other living player
/// (shortest paths through empty cells from the heads); dead players get 0.
/// When `owners` is not empty it receives, row-major, the id of each cell's
/// owner or [`NO_OWNER`]. `counts` must hold a slot per player and a
/// non-empty `owners` a slot per cell.
pub fn voronoi<E: Engine>(engine: &E, counts: &mut [u32], owners: &mut [i8]) {
    let n = engine.num_players();
    let cells = engine.config().cells();
    counts[..n].fill(0);
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        s.dist.resize(cells, UNREACHED);
        s.best.clear();
        s.best.resize(cells, UNREACHED);
        s.owner.clear();
        s.owner.resize(cells, NO_OWNER);
        for id in 0..n {
            let p = engine.player(id);
            if !p.alive {
                continue;
            }
            distances(engine, p.pos, &mut s.dist, &mut s.queue);
            // Only the cells this fill reached can change hands.
            for &i in &s.queue[1..] {
                let (i, d) = (i as usize, s.dist[i as usize]);
                if d < s.best[i] {
                    s.best[i] = d;
                    s.owner[i] = id as i8;
                } else if d == s.best[i] {
                    s.owner[i] = NO_OWNER;
                }
            }
        }
        for &o in &s.owner {
            if o != NO_OWNER {
                counts[o as usize] += 1;
            }
        }
        if !owners.is_empty() {
            owners[..cells].copy_from_slice(&s.owner);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::map::parse_2010;
    use lightcycles_core::{Action, Config, Game};

    fn game(map: &str) -> Game {
        let map = parse_2010(map).unwrap();
        let config =
            Config { width: map.width, height: map.height, players: 2, rock_density: 0, ..Config::default() };
        Game::from_map(&config, &map).unwrap()
    }

    const OPEN: &str = "8 8\n        \n 1      \n        \n        \n        \n        \n      2 \n        \n";

    #[test]
    fn open_board_fills_all_but_the_heads() {
        let g = game(OPEN);
        assert_eq!(reachable(&g, 0), 62);
        assert_eq!(reachable(&g, 1), 62);
        let mut counts = [0u32; 2];
        let mut owners = vec![0i8; 64];
        voronoi(&g, &mut counts, &mut owners);
        // Symmetric positions split evenly; the anti-diagonal band is tied.
        assert_eq!(counts[0], counts[1]);
        // (1,1) and (6,6): cells with x + y < 7 are closer to player 0.
        for y in 0..8usize {
            for x in 0..8usize {
                let d0 = x.abs_diff(1) + y.abs_diff(1);
                let d1 = x.abs_diff(6) + y.abs_diff(6);
                let expected = if (x, y) == (1, 1) || (x, y) == (6, 6) {
                    NO_OWNER
                } else if d0 < d1 {
                    0
                } else if d1 < d0 {
                    1
                } else {
                    NO_OWNER
                };
                assert_eq!(owners[y * 8 + x], expected, "cell ({x}, {y})");
            }
        }
        let owned: usize = owners.iter().filter(|&&o| o != NO_OWNER).count();
        assert_eq!(owned as u32, counts[0] + counts[1]);
    }

    #[test]
    fn walls_split_the_board() {
        // A wall of rocks cuts column 4: each player owns its own side.
        let map = "8 8\n    #   \n 1  #   \n    #   \n    #   \n    #   \n    #   \n    # 2 \n    #   \n";
        let g = game(map);
        assert_eq!(reachable(&g, 0), 31);
        assert_eq!(reachable(&g, 1), 23);
        let mut counts = [9u32; 2];
        voronoi(&g, &mut counts, &mut []);
        assert_eq!(counts, [31, 23]);
    }

    #[test]
    fn separation_is_about_shared_empty_cells() {
        let open = game(OPEN);
        assert!(!separated(&open, 0, 1));
        assert!(!separated(&open, 1, 0));
        assert!(!separated(&open, 0, 0));
        let walled = "8 8\n    #   \n 1  #   \n    #   \n    #   \n    #   \n    #   \n    # 2 \n    #   \n";
        let g = game(walled);
        assert!(separated(&g, 0, 1) && separated(&g, 1, 0));
        // Heads side by side across the wall's only gap share that gap.
        let gap = "8 8\n   #    \n   #    \n   #    \n  1 2   \n   #    \n   #    \n   #    \n   #    \n";
        let g = game(gap);
        assert!(!separated(&g, 0, 1) && !separated(&g, 1, 0));
        // Heads touching with no empty cell between them: nothing to share.
        let touching = "8 8\n########\n#12#   #\n########\n#      #\n#      #\n#      #\n#      #\n########\n";
        let g = game(touching);
        assert!(separated(&g, 0, 1));
    }

    #[test]
    fn the_dead_reach_nothing_and_own_nothing() {
        let mut g = game(OPEN);
        // Player 1 rides E off... it starts facing the longest run; force it
        // into the wall by going E twice from (6, 6).
        while g.player(1).alive {
            g.step(&[Action::Move(Dir::S), Action::Move(Dir::E)]).unwrap();
        }
        assert_eq!(reachable(&g, 1), 0);
        let mut counts = [0u32; 2];
        voronoi(&g, &mut counts, &mut []);
        assert_eq!(counts[1], 0);
        assert!(separated(&g, 0, 1));
        if g.player(0).alive {
            assert_eq!(counts[0], reachable(&g, 0));
        }
    }
}
