//! Flood fills for search: the cells a player can still reach, and the
//! Voronoi split of the board (who reaches each empty cell first).
//!
//! Written over any engine that shows its grid as a row-major slice, with
//! thread-local scratch buffers, so a call allocates nothing once a thread
//! has searched a board of that size.

use std::cell::RefCell;

use lightcycles_core::{CellValue, Engine, Pos, EMPTY, ROCK};

/// An engine whose cells can be read as one row-major slice: the flood
/// fills run on the slice, without a call per cell.
pub trait Grid: Engine {
    /// Every cell value, row-major (`y * width + x`).
    fn cells(&self) -> &[CellValue];
}

impl Grid for lightcycles_core::Game {
    fn cells(&self) -> &[CellValue] {
        self.grid()
    }
}

/// `owners` value of a cell that no single player reaches first: a tie,
/// a cell nobody reaches, or a cell that is not empty.
pub const NO_OWNER: i8 = -1;

/// Distance of a cell not reached. Distances stay below `255 · 255`.
const UNREACHED: u16 = u16::MAX;

#[derive(Default)]
struct Scratch {
    /// The board inside a frame of rock one cell wide, so that a fill
    /// needs no bounds checks (and no division to find a column).
    padded: Vec<CellValue>,
    queue: Vec<u32>,
    dist: Vec<u16>,
    owner: Vec<i8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A board copied into a rock frame: its padded width and the index map.
#[derive(Clone, Copy)]
struct Frame {
    width: usize,
    height: usize,
}

impl Frame {
    fn of<E: Grid>(engine: &E) -> Frame {
        let c = engine.config();
        Frame { width: c.width as usize, height: c.height as usize }
    }

    /// Width of a padded row.
    fn stride(self) -> usize {
        self.width + 2
    }

    /// Cells of the padded board.
    fn cells(self) -> usize {
        self.stride() * (self.height + 2)
    }

    /// The padded index of a cell of the board.
    fn at(self, pos: Pos) -> usize {
        (pos.y as usize + 1) * self.stride() + pos.x as usize + 1
    }

    /// Copies `grid` into `padded`, framed in rock.
    fn fill(self, grid: &[CellValue], padded: &mut Vec<CellValue>) {
        padded.clear();
        padded.resize(self.cells(), ROCK);
        for (y, row) in grid.chunks_exact(self.width).enumerate() {
            let start = (y + 1) * self.stride() + 1;
            padded[start..start + self.width].copy_from_slice(row);
        }
    }
}

/// Breadth-first distances from padded cell `start` through empty cells
/// into `dist` (`UNREACHED` elsewhere); `queue` ends holding the reached
/// cells in order, `start` first. The start gets distance 0 whatever it holds.
fn distances(padded: &[CellValue], stride: usize, start: usize, dist: &mut [u16], queue: &mut Vec<u32>) {
    dist.fill(UNREACHED);
    queue.clear();
    dist[start] = 0;
    queue.push(start as u32);
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        let d = dist[i] + 1;
        // The frame keeps every neighbour of a reached cell inside the board.
        for j in [i - stride, i + 1, i + stride, i - 1] {
            if dist[j] == UNREACHED && padded[j] == EMPTY {
                dist[j] = d;
                queue.push(j as u32);
            }
        }
    }
}

/// The number of empty cells `player` can reach from its head through empty
/// cells (its head excluded); 0 for a player that is no longer riding.
pub fn reachable<E: Grid>(engine: &E, player: usize) -> u32 {
    let p = engine.player(player);
    if !p.alive {
        return 0;
    }
    let frame = Frame::of(engine);
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        frame.fill(engine.cells(), &mut s.padded);
        s.dist.resize(frame.cells(), UNREACHED);
        distances(&s.padded, frame.stride(), frame.at(p.pos), &mut s.dist, &mut s.queue);
        s.queue.len() as u32 - 1
    })
}

/// Whether players `a` and `b` can no longer meet: no empty cell is
/// reachable by both (so each fills its own room). True when either is no
/// longer riding, false for `a == b` while it rides.
pub fn separated<E: Grid>(engine: &E, a: usize, b: usize) -> bool {
    let (pa, pb) = (engine.player(a), engine.player(b));
    if !pa.alive || !pb.alive {
        return true;
    }
    if a == b {
        return false;
    }
    let frame = Frame::of(engine);
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        frame.fill(engine.cells(), &mut s.padded);
        s.dist.resize(frame.cells(), UNREACHED);
        distances(&s.padded, frame.stride(), frame.at(pa.pos), &mut s.dist, &mut s.queue);
        // b's room is the empty cells connected to its head's neighbours:
        // the rooms meet when a reaches one of those neighbours.
        let head = frame.at(pb.pos);
        let reached = |j: usize| s.dist[j] != UNREACHED && s.dist[j] > 0;
        !(reached(head - frame.stride()) || reached(head + 1) || reached(head + frame.stride()) || reached(head - 1))
    })
}

/// `owner` of a cell that several players reach first.
const CONTESTED: i8 = -2;

/// The Voronoi split: `counts[i]` becomes the number of empty cells that
/// living player `i` reaches strictly before every other living player
/// (shortest paths through empty cells from the heads); dead players get 0.
/// When `owners` is not empty it receives, row-major, the id of each cell's
/// owner or [`NO_OWNER`]. `counts` must hold a slot per player and a
/// non-empty `owners` a slot per cell.
///
/// One breadth-first fill from every head at once: a cell first reached on
/// step `d` belongs to the owner of the cell it was reached from, unless
/// another owner (or a contested cell) reaches it on the same step. That is
/// exactly "the players at the least distance", since a player is among them
/// at a cell if and only if it is among them at a neighbour one step closer.
pub fn voronoi<E: Grid>(engine: &E, counts: &mut [u32], owners: &mut [i8]) {
    let n = engine.num_players();
    let frame = Frame::of(engine);
    counts[..n].fill(0);
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        frame.fill(engine.cells(), &mut s.padded);
        let Scratch { padded, queue, dist, owner, .. } = s;
        dist.clear();
        dist.resize(frame.cells(), UNREACHED);
        owner.clear();
        owner.resize(frame.cells(), NO_OWNER);
        queue.clear();
        for id in 0..n {
            let p = engine.player(id);
            if p.alive {
                let at = frame.at(p.pos);
                dist[at] = 0;
                owner[at] = id as i8;
                queue.push(at as u32);
            }
        }
        let heads = queue.len();
        let stride = frame.stride();
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head] as usize;
            head += 1;
            let (d, o) = (dist[i] + 1, owner[i]);
            for j in [i - stride, i + 1, i + stride, i - 1] {
                let dj = dist[j];
                if dj == UNREACHED {
                    if padded[j] == EMPTY {
                        dist[j] = d;
                        owner[j] = o;
                        queue.push(j as u32);
                    }
                } else if dj == d && owner[j] != o {
                    // Only empty cells get a distance past 0 (the heads).
                    owner[j] = CONTESTED;
                }
            }
        }
        for &i in &queue[heads..] {
            let o = owner[i as usize];
            if o >= 0 {
                counts[o as usize] += 1;
            }
        }
        if !owners.is_empty() {
            for y in 0..frame.height {
                let from = (y + 1) * stride + 1;
                let row = &mut owners[y * frame.width..(y + 1) * frame.width];
                for (out, (&o, &cell)) in row.iter_mut().zip(owner[from..].iter().zip(&padded[from..])) {
                    *out = if o >= 0 && cell == EMPTY { o } else { NO_OWNER };
                }
            }
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
        let config = Config { width: map.width, height: map.height, players: 2, rock_density: 0, ..Config::default() };
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
            g.step(&[Action::Move(lightcycles_core::Dir::S), Action::Move(lightcycles_core::Dir::E)]).unwrap();
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

    /// The definition, written plainly: per-player distances, owner the
    /// unique nearest.
    fn naive_voronoi(g: &Game) -> (Vec<u32>, Vec<i8>) {
        let c = g.config();
        let (w, h) = (c.width, c.height);
        let n = g.num_players();
        let mut dists = vec![vec![u32::MAX; c.cells()]; n];
        for (id, dist) in dists.iter_mut().enumerate() {
            let p = g.player(id);
            if !p.alive {
                continue;
            }
            dist[p.pos.index(w)] = 0;
            let mut queue = std::collections::VecDeque::from([p.pos]);
            while let Some(at) = queue.pop_front() {
                for d in lightcycles_core::Dir::ALL {
                    if let Some(next) = at.step(d, w, h) {
                        if g.cell(next) == EMPTY && dist[next.index(w)] == u32::MAX {
                            dist[next.index(w)] = dist[at.index(w)] + 1;
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
        let mut counts = vec![0u32; n];
        let mut owners = vec![NO_OWNER; c.cells()];
        for i in 0..c.cells() {
            if g.grid()[i] != EMPTY {
                continue;
            }
            let best = (0..n).map(|p| dists[p][i]).min().unwrap();
            let nearest: Vec<usize> = (0..n).filter(|&p| dists[p][i] == best).collect();
            if best != u32::MAX && nearest.len() == 1 {
                owners[i] = nearest[0] as i8;
                counts[nearest[0]] += 1;
            }
        }
        (counts, owners)
    }

    fn naive_reachable(g: &Game, id: usize) -> u32 {
        let (counts, _) = naive_voronoi(&{
            // Alone on the board, a player owns exactly what it reaches.
            let mut position = g.position();
            for (other, p) in position.players.iter_mut().enumerate() {
                if other != id && p.alive {
                    p.alive = false;
                    p.eliminated_at = Some(position.tick);
                }
            }
            Game::from_position(&position).unwrap()
        });
        counts[id]
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn fills_agree_with_their_definitions(
            seed in any::<u64>(), players in 2u32..=8, width in 16u32..30, height in 16u32..30,
            rocks in 0u32..=25, ticks in prop::collection::vec(prop::collection::vec(0u8..4, 8), 0..40),
        ) {
            let config = Config { width, height, players, rock_density: rocks, ..Config::default() };
            let mut g = Game::seeded(&config, seed).unwrap();
            for codes in ticks {
                if g.is_over() {
                    break;
                }
                let actions: Vec<Action> = codes[..players as usize]
                    .iter()
                    .map(|&c| Action::Move(lightcycles_core::Dir::ALL[c as usize]))
                    .collect();
                g.step(&actions).unwrap();
            }
            let (counts, owners) = naive_voronoi(&g);
            let mut fast_counts = vec![0u32; players as usize];
            let mut fast_owners = vec![0i8; config.cells()];
            voronoi(&g, &mut fast_counts, &mut fast_owners);
            prop_assert_eq!(fast_counts, counts);
            prop_assert_eq!(fast_owners, owners);
            for id in 0..players as usize {
                let expected = if g.player(id).alive { naive_reachable(&g, id) } else { 0 };
                prop_assert_eq!(reachable(&g, id), expected);
            }
        }
    }
}
