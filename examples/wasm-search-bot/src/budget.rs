//! The search's budget in a wasm guest: the same interface as the host's
//! `search::budget`, counted in the answer's fuel (read through
//! `lightcycles.fuel_left`) or in nodes, never on a clock (a wasm bot has
//! none), so an answer depends on the position and the budget alone.

use lightcycles_wasm_bot::fuel_left;

/// Fuel kept back at the hard stop, at least: enough to unwind and answer.
pub const RESERVE: u64 = 20_000;

/// The share of the answer's fuel kept back at the hard stop (one in
/// this many), as the fuel is checked only between nodes and one node
/// (an evaluation of the whole board) costs tens of thousands of units
/// on a large board.
pub const RESERVE_SHARE: u64 = 4;

/// Of the fuel above [`RESERVE`], the share after which no new iteration
/// starts: the next one, costing a few times all before it, would not end.
pub const SOFT_SHARE: u64 = 2; // one half

/// What one answer may spend.
#[derive(Clone, Debug)]
pub struct Budget {
    nodes: u64,
    max_nodes: u64,
    /// With fuel counted: stop once the fuel left falls to this.
    floor: Option<u64>,
    /// With fuel counted: start no new iteration once the fuel left is below this.
    deepen_above: u64,
    stopped: bool,
}

impl Budget {
    /// The budget of an answer: the fuel left now when fuel is counted,
    /// else `nodes` nodes.
    pub fn for_answer(nodes: u64) -> Budget {
        match fuel_left() {
            Some(left) => {
                let reserve = RESERVE.max(left / RESERVE_SHARE);
                let usable = left.saturating_sub(reserve);
                Budget {
                    nodes: 0,
                    max_nodes: u64::MAX,
                    floor: Some(reserve.min(left)),
                    deepen_above: left - usable / SOFT_SHARE,
                    stopped: usable == 0,
                }
            }
            None => Budget::nodes(nodes),
        }
    }

    /// A budget of `n` nodes.
    pub fn nodes(n: u64) -> Budget {
        Budget { nodes: 0, max_nodes: n.max(1), floor: None, deepen_above: 0, stopped: false }
    }

    fn out_of_fuel(&self) -> bool {
        self.floor.is_some_and(|floor| fuel_left().map_or(true, |left| left <= floor))
    }

    /// Counts one node; whether the search must stop now.
    #[inline]
    pub fn spend(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        self.stopped = self.nodes >= self.max_nodes || self.out_of_fuel();
        self.stopped
    }

    /// Whether the search was stopped.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether another iteration may start.
    pub fn may_deepen(&self) -> bool {
        if self.stopped {
            return false;
        }
        match self.floor {
            Some(_) => fuel_left().is_some_and(|left| left > self.deepen_above),
            None => self.nodes < self.max_nodes / 2,
        }
    }

    /// Nodes counted so far.
    pub fn spent(&self) -> u64 {
        self.nodes
    }

    /// A budget for a part of the search: `share` of what is left.
    pub fn part(&self, share: f64) -> Budget {
        match self.floor {
            Some(floor) => {
                let left = fuel_left().unwrap_or(0);
                let part = (left.saturating_sub(floor) as f64 * share) as u64;
                let part_floor = left.saturating_sub(part).max(floor);
                Budget {
                    nodes: 0,
                    max_nodes: u64::MAX,
                    floor: Some(part_floor),
                    deepen_above: part_floor,
                    stopped: self.stopped,
                }
            }
            None => {
                let left = self.max_nodes.saturating_sub(self.nodes);
                let max_nodes = ((left as f64 * share) as u64).max(1);
                Budget { nodes: 0, max_nodes, floor: None, deepen_above: 0, stopped: self.stopped }
            }
        }
    }

    /// Adds what a part spent.
    pub fn absorb(&mut self, part: &Budget) {
        self.nodes += part.nodes;
        self.stopped |= self.nodes >= self.max_nodes || self.out_of_fuel();
    }
}
