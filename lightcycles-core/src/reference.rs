//! The readable reference engine: docs/RULES.md section 7, line by line.
//!
//! It favours clarity over speed and is the yardstick the fast engine is
//! proven against. Keep it this way.

use alloc::vec;
use alloc::vec::Vec;

use crate::command::Action;
use crate::config::{Config, FaultPolicy};
use crate::engine::{Engine, GameError, StepError};
use crate::geometry::{CellValue, Pos, EMPTY};
use crate::outcome::Outcome;
use crate::player::PlayerState;
use crate::position::Position;

/// A game as the rule book describes it: a grid of cell values and the players.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReferenceGame {
    config: Config,
    /// Cell values, row-major.
    grid: Vec<CellValue>,
    players: Vec<PlayerState>,
    tick: u32,
    outcome: Option<Outcome>,
}

impl ReferenceGame {
    /// The whole grid, row-major (`y * width + x`).
    pub fn grid(&self) -> &[CellValue] {
        &self.grid
    }

    /// All players, by id.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    fn at(&self, pos: Pos) -> usize {
        pos.index(self.config.width)
    }
}

impl Engine for ReferenceGame {
    fn from_position(position: &Position) -> Result<Self, GameError> {
        position.validate()?;
        let Position { config, tick, grid, players } = position.clone();
        let outcome = if tick > 0 { Outcome::decide(tick, config.max_ticks, &players) } else { None };
        Ok(ReferenceGame { config, grid, players, tick, outcome })
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn tick(&self) -> u32 {
        self.tick
    }

    fn num_players(&self) -> usize {
        self.players.len()
    }

    fn player(&self, id: usize) -> PlayerState {
        self.players[id]
    }

    fn cell(&self, pos: Pos) -> CellValue {
        self.grid[self.at(pos)]
    }

    fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn step(&mut self, actions: &[Action]) -> Result<(), StepError> {
        if self.outcome.is_some() {
            return Err(StepError::GameOver);
        }
        let n = self.players.len();
        if actions.len() != n {
            return Err(StepError::WrongLength { expected: n, got: actions.len() });
        }
        let t = self.tick + 1;
        let (w, h) = (self.config.width, self.config.height);

        // A: the players alive at the start of the tick.
        let mut in_a: Vec<bool> = self.players.iter().map(|p| p.alive).collect();

        // 1. Under `eliminate`, a faulted player crashes where it stands.
        if self.config.fault_policy == FaultPolicy::Eliminate {
            for i in 0..n {
                if in_a[i] && actions[i].is_fault() {
                    self.players[i].alive = false;
                    self.players[i].eliminated_at = Some(t);
                    in_a[i] = false;
                }
            }
        }

        // 2. The new direction: the command, unless there is none or it
        //    reverses into a neck. 3. The target: one cell in that direction.
        let mut new_dir = vec![None; n];
        let mut target: Vec<Option<Pos>> = vec![None; n];
        for i in (0..n).filter(|&i| in_a[i]) {
            let p = &self.players[i];
            let d = match actions[i].dir() {
                Some(d) => p.resolve(d),
                None => p.dir,
            };
            new_dir[i] = Some(d);
            target[i] = p.pos.step(d, w, h); // None: off the board
        }

        // 4. Crashes, all judged on the board as it was at the start of the tick.
        let mut crashed = vec![false; n];
        for i in (0..n).filter(|&i| in_a[i]) {
            crashed[i] = match target[i] {
                None => true,
                Some(cell) => {
                    let occupied = self.grid[self.at(cell)] != EMPTY;
                    let head_on = (0..n).any(|j| j != i && in_a[j] && target[j] == Some(cell));
                    occupied || head_on
                }
            };
        }

        // 5. Everyone in A turns; the crashed are eliminated, the rest move.
        for i in (0..n).filter(|&i| in_a[i]) {
            let d = new_dir[i].expect("every player in A has a direction");
            self.players[i].dir = d;
            if crashed[i] {
                self.players[i].alive = false;
                self.players[i].eliminated_at = Some(t);
            } else {
                let cell = target[i].expect("a player that did not crash has a target");
                let index = self.at(cell);
                self.grid[index] = i as CellValue;
                self.players[i].pos = cell;
                self.players[i].trail += 1;
            }
        }

        // 6. The tick number grows by one; then section 8.
        self.tick = t;
        self.outcome = Outcome::decide(t, self.config.max_ticks, &self.players);
        Ok(())
    }
}
