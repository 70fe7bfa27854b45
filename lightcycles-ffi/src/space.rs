//! Flood fills for search, on the core's space helpers over the fast
//! engine: the cells a player can still reach, the Voronoi split of the
//! board (who reaches each empty cell first), and whether two players can
//! still meet.
//!
//! Each thread keeps one [`Scratch`], so a call allocates nothing once the
//! thread has searched a board of that size.

use std::cell::RefCell;

use lightcycles_core::space::{self as core_space, Scratch};
use lightcycles_core::{Engine, FastGame};

/// `owners` value of a cell that no single player reaches first: a tie,
/// a cell nobody reaches, or a cell that is not empty.
pub const NO_OWNER: i8 = -1;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// The number of empty cells `player` can reach from its head through empty
/// cells (its head excluded); 0 for a player that is no longer riding.
pub fn reachable(game: &FastGame, player: usize) -> u32 {
    if !game.is_alive(player) {
        return 0;
    }
    SCRATCH.with(|s| core_space::reachable_with(game, game.head(player), &mut s.borrow_mut()))
}

/// Whether players `a` and `b` can no longer meet
/// ([`core_space::separated_pair`]), on this thread's scratch.
pub fn separated(game: &FastGame, a: usize, b: usize) -> bool {
    SCRATCH.with(|s| core_space::separated_pair_with(game, a, b, &mut s.borrow_mut()))
}

/// The Voronoi split: `counts[i]` becomes the number of empty cells that
/// living player `i` reaches strictly before every other living player
/// (shortest paths through empty cells from the heads); dead players get 0.
/// When `owners` is not empty it receives, row-major, the id of each cell's
/// owner or [`NO_OWNER`]. `counts` must hold a slot per player and a
/// non-empty `owners` a slot per cell.
pub fn voronoi(game: &FastGame, counts: &mut [u32], owners: &mut [i8]) {
    let n = game.num_players();
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        let split = core_space::voronoi_with(game, s);
        counts[..n].copy_from_slice(&split.counts[..n]);
        if !owners.is_empty() {
            for (out, owner) in owners.iter_mut().zip(s.owners()) {
                *out = owner.map_or(NO_OWNER, |id| id as i8);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::map::parse_2010;
    use lightcycles_core::{Action, Config, ReferenceGame, EMPTY};

    fn game(map: &str) -> ReferenceGame {
        let map = parse_2010(map).unwrap();
        let config = Config { width: map.width, height: map.height, players: 2, rock_density: 0, ..Config::default() };
        ReferenceGame::from_map(&config, &map).unwrap()
    }

    /// The fast engine's copy of a reference game.
    fn fast(g: &ReferenceGame) -> FastGame {
        FastGame::from_position(&g.position()).unwrap()
    }

    const OPEN: &str = "8 8\n        \n 1      \n        \n        \n        \n        \n      2 \n        \n";

    #[test]
    fn open_board_fills_all_but_the_heads() {
        let g = game(OPEN);
        assert_eq!(reachable(&fast(&g), 0), 62);
        assert_eq!(reachable(&fast(&g), 1), 62);
        let mut counts = [0u32; 2];
        let mut owners = vec![0i8; 64];
        voronoi(&fast(&g), &mut counts, &mut owners);
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
        assert_eq!(reachable(&fast(&g), 0), 31);
        assert_eq!(reachable(&fast(&g), 1), 23);
        let mut counts = [9u32; 2];
        voronoi(&fast(&g), &mut counts, &mut []);
        assert_eq!(counts, [31, 23]);
    }

    #[test]
    fn separation_is_about_shared_empty_cells() {
        let open = game(OPEN);
        assert!(!separated(&fast(&open), 0, 1));
        assert!(!separated(&fast(&open), 1, 0));
        assert!(!separated(&fast(&open), 0, 0));
        let walled = "8 8\n    #   \n 1  #   \n    #   \n    #   \n    #   \n    #   \n    # 2 \n    #   \n";
        let g = game(walled);
        assert!(separated(&fast(&g), 0, 1) && separated(&fast(&g), 1, 0));
        // Heads side by side across the wall's only gap share that gap.
        let gap = "8 8\n   #    \n   #    \n   #    \n  1 2   \n   #    \n   #    \n   #    \n   #    \n";
        let g = game(gap);
        assert!(!separated(&fast(&g), 0, 1) && !separated(&fast(&g), 1, 0));
        // Heads touching with no empty cell between them: nothing to share.
        let touching = "8 8\n########\n#12#   #\n########\n#      #\n#      #\n#      #\n#      #\n########\n";
        let g = game(touching);
        assert!(separated(&fast(&g), 0, 1));
    }

    #[test]
    fn the_dead_reach_nothing_and_own_nothing() {
        let mut g = game(OPEN);
        // Player 1 rides E off... it starts facing the longest run; force it
        // into the wall by going E twice from (6, 6).
        while g.player(1).alive {
            g.step(&[Action::Move(lightcycles_core::Dir::S), Action::Move(lightcycles_core::Dir::E)]).unwrap();
        }
        assert_eq!(reachable(&fast(&g), 1), 0);
        let mut counts = [0u32; 2];
        voronoi(&fast(&g), &mut counts, &mut []);
        assert_eq!(counts[1], 0);
        assert!(separated(&fast(&g), 0, 1));
        if g.player(0).alive {
            assert_eq!(counts[0], reachable(&fast(&g), 0));
        }
    }

    /// The definition, written plainly: per-player distances, owner the
    /// unique nearest.
    fn naive_voronoi(g: &ReferenceGame) -> (Vec<u32>, Vec<i8>) {
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

    fn naive_reachable(g: &ReferenceGame, id: usize) -> u32 {
        let (counts, _) = naive_voronoi(&{
            // Alone on the board, a player owns exactly what it reaches.
            let mut position = g.position();
            for (other, p) in position.players.iter_mut().enumerate() {
                if other != id && p.alive {
                    p.alive = false;
                    p.eliminated_at = Some(position.tick);
                }
            }
            ReferenceGame::from_position(&position).unwrap()
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
            let mut g = ReferenceGame::seeded(&config, seed).unwrap();
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
            voronoi(&fast(&g), &mut fast_counts, &mut fast_owners);
            prop_assert_eq!(fast_counts, counts);
            prop_assert_eq!(fast_owners, owners);
            for id in 0..players as usize {
                let expected = if g.player(id).alive { naive_reachable(&g, id) } else { 0 };
                prop_assert_eq!(reachable(&fast(&g), id), expected);
            }
        }
    }
}
