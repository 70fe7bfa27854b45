//! The board at one tick: rocks, trails and heads.
//!
//! A replay records heads, not grids, so the board at tick `k` is rebuilt
//! from frames `0..=k`: each player's trail is the set of cells its head has
//! visited. A cell belongs to the first player whose head reached it (in
//! frame order, then player order), which is what the rules give for any
//! verified replay; the page draws by the same rule, so both views agree even
//! on a file that does not verify.

use lightcycles_core::geometry::Pos;
use lightcycles_core::Engine;

use super::viewable::{ViewError, Viewable};

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A rock.
    Rock,
    /// The trail (head included) of this player.
    Trail(u8),
}

/// A player's head and standing at one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rider {
    /// Head column.
    pub x: u32,
    /// Head row.
    pub y: u32,
    /// Whether the player still rides.
    pub alive: bool,
    /// Trail length in cells, head included.
    pub trail: u32,
}

/// The board at one tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: u32,
    height: u32,
    cells: Vec<Cell>,
    riders: Vec<Rider>,
}

impl Board {
    /// The board after `tick` ticks of a checked replay.
    pub fn from_replay(viewable: &Viewable<'_>, tick: u32) -> Result<Board, ViewError> {
        let tick = viewable.tick(tick)?;
        let replay = viewable.replay();
        let (width, height) = (replay.width, replay.height);
        let index = |x: u32, y: u32| (y * width + x) as usize;
        let mut cells = vec![Cell::Empty; (width * height) as usize];
        for [x, y] in &replay.rocks {
            cells[index(*x, *y)] = Cell::Rock;
        }
        let n = viewable.players();
        let mut claimed = vec![false; cells.len()];
        // One bit per player: whether its head has been on the cell.
        let mut visited = vec![0u8; cells.len()];
        let mut trails = vec![0u32; n];
        for frame in &replay.frames[..=tick as usize] {
            for (i, [x, y, _]) in frame.heads.iter().enumerate() {
                let c = index(*x, *y);
                if !claimed[c] {
                    claimed[c] = true;
                    cells[c] = Cell::Trail(i as u8);
                }
                if visited[c] & (1 << i) == 0 {
                    visited[c] |= 1 << i;
                    trails[i] += 1;
                }
            }
        }
        let riders = replay.frames[tick as usize]
            .heads
            .iter()
            .zip(trails)
            .map(|([x, y, alive], trail)| Rider { x: *x, y: *y, alive: *alive == 1, trail })
            .collect();
        Ok(Board { width, height, cells, riders })
    }

    /// The board of a game in progress.
    pub fn from_engine<E: Engine>(engine: &E) -> Board {
        let config = engine.config();
        let (width, height) = (config.width, config.height);
        let mut cells = Vec::with_capacity((width * height) as usize);
        for y in 0..height {
            for x in 0..width {
                cells.push(match engine.cell(Pos::new(x as u8, y as u8)) {
                    v if v >= 0 => Cell::Trail(v as u8),
                    lightcycles_core::ROCK => Cell::Rock,
                    _ => Cell::Empty,
                });
            }
        }
        let riders = (0..engine.num_players())
            .map(|i| {
                let p = engine.player(i);
                Rider { x: p.pos.x as u32, y: p.pos.y as u32, alive: p.alive, trail: p.trail }
            })
            .collect();
        Board { width, height, cells, riders }
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The cell at `(x, y)`; off the board is `None`.
    pub fn cell(&self, x: u32, y: u32) -> Option<Cell> {
        if x < self.width && y < self.height {
            Some(self.cells[(y * self.width + x) as usize])
        } else {
            None
        }
    }

    /// Every player, by id.
    pub fn riders(&self) -> &[Rider] {
        &self.riders
    }

    /// The player whose head is at `(x, y)`, if any. Under the rules two
    /// heads never share a cell; in a hand-made file that has them, the
    /// lowest id is shown.
    pub fn head_at(&self, x: u32, y: u32) -> Option<usize> {
        self.riders.iter().position(|r| r.x == x && r.y == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::replay::Replay;
    use lightcycles_core::{Answer, ReferenceGame};

    fn golden(name: &str) -> Replay {
        let path = format!("{}/../lightcycles-core/tests/golden-replays/{name}", env!("CARGO_MANIFEST_DIR"));
        super::super::viewable::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn golden_names() -> Vec<String> {
        let dir = format!("{}/../lightcycles-core/tests/golden-replays", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        names
    }

    /// The board rebuilt from heads is, at every tick of every golden replay,
    /// the grid the reference engine holds after playing the same commands.
    #[test]
    fn rebuilt_boards_equal_the_engine_at_every_tick() {
        let names = golden_names();
        assert_eq!(names.len(), 24);
        for name in names {
            let replay = golden(&name);
            let v = Viewable::check(&replay).unwrap();
            let map = replay.build_map().unwrap();
            let mut game = ReferenceGame::from_map(&replay.game_config(), &map).unwrap();
            for tick in 0..=v.last_tick() {
                if tick > 0 {
                    let k = tick as usize - 1;
                    let actions: Vec<_> = replay.commands[k]
                        .iter()
                        .zip(&replay.faults[k])
                        .map(|(line, fault)| Answer { line: line.clone(), fault: *fault }.action())
                        .collect();
                    game.step(&actions).unwrap();
                }
                let from_replay = Board::from_replay(&v, tick).unwrap();
                assert_eq!(from_replay, Board::from_engine(&game), "{name}, tick {tick}");
            }
            let last = Board::from_replay(&v, v.last_tick()).unwrap();
            let trails: Vec<u32> = last.riders().iter().map(|r| r.trail).collect();
            assert_eq!(trails, replay.result.trails, "{name}");
        }
    }

    #[test]
    fn a_cell_belongs_to_the_first_head_on_it() {
        let mut replay = golden("sim_0.json");
        // A hand-made file: player 1 jumps onto player 0's start on tick 1.
        let start0 = replay.frames[0].heads[0];
        replay.frames[1].heads[1] = [start0[0], start0[1], 1];
        let v = Viewable::check(&replay).unwrap();
        let board = Board::from_replay(&v, 1).unwrap();
        assert_eq!(board.cell(start0[0], start0[1]), Some(Cell::Trail(0)));
        assert_eq!(board.riders()[1].trail, 2, "the jump still counts as a cell visited by player 1");
        assert_eq!(board.head_at(start0[0], start0[1]), Some(1), "player 0 moved on; player 1 is there");
    }

    #[test]
    fn rocks_heads_and_the_edge() {
        let replay = golden("sim_0.json");
        let v = Viewable::check(&replay).unwrap();
        let board = Board::from_replay(&v, 0).unwrap();
        assert_eq!((board.width(), board.height()), (48, 36));
        assert_eq!(board.cell(39, 0), Some(Cell::Rock), "the first rock of sim_0");
        assert_eq!(board.cell(21, 25), Some(Cell::Trail(0)), "player 0 starts at (21, 25)");
        assert_eq!(board.cell(26, 10), Some(Cell::Trail(1)));
        assert_eq!(board.cell(0, 1), Some(Cell::Empty));
        assert_eq!(board.cell(48, 0), None);
        assert_eq!(board.riders()[0], Rider { x: 21, y: 25, alive: true, trail: 1 });
        assert_eq!(Board::from_replay(&v, 27), Err(ViewError::NoSuchTick { tick: 27, last: 26 }));
    }
}
