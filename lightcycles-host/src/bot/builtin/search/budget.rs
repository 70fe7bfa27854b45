//! How long one answer may think: a share of the tick's time limit, or a
//! fixed number of nodes.
//!
//! With a time limit the search must answer before the host's deadline on
//! any machine, loaded or not, so it keeps a margin: it stops starting new
//! iterations once [`SOFT_SHARE`] of the limit is gone (the next one would
//! most likely not finish) and abandons the running one at [`HARD_SHARE`].
//! The clock is read at every node: a reading costs tens of nanoseconds, a
//! node microseconds (an evaluation of a 255 × 255 board, milliseconds), so
//! a stop is never later than one node.
//!
//! With a node budget the clock is never read: the same position gives the
//! same answer on every machine and every run, which is what tests and
//! reproducible tournaments need.

use std::time::{Duration, Instant};

/// The share of the limit after which no new iteration starts.
pub const SOFT_SHARE: f64 = 0.25;
/// The share of the limit at which a running search is abandoned. The other
/// half is the margin for a machine shared with other work: a process that
/// waits for a core a few milliseconds must still answer in time.
pub const HARD_SHARE: f64 = 0.50;

/// The share of its time bank the search may think with on one answer,
/// beyond the tick's own limit: 1/`BANK_SHARE` of what is left, so that a
/// bank lasts the game and goes to the early, hard decisions first.
pub const BANK_SHARE: u32 = 16;

/// The time to think with, from `deadline`, the tick's limit with the whole
/// bank left (`bank`) on top, as the host gives it: the limit and a share of
/// the bank.
pub fn with_bank(deadline: Duration, bank: Option<Duration>) -> Duration {
    match bank {
        Some(bank) => deadline.saturating_sub(bank) + bank / BANK_SHARE,
        None => deadline,
    }
}

/// What bounds one answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The time the host gives for this tick.
    Time(Duration),
    /// A fixed number of nodes: deterministic, the clock is not read.
    Nodes(u64),
}

/// The budget of one answer, counted down as the search runs.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    max_nodes: u64,
    nodes: u64,
    stopped: bool,
}

impl Budget {
    /// The budget of an answer that started at `start` under `limit`.
    pub fn new(start: Instant, limit: Limit) -> Budget {
        match limit {
            Limit::Time(t) => Budget {
                start,
                soft: Some(t.mul_f64(SOFT_SHARE)),
                hard: Some(t.mul_f64(HARD_SHARE)),
                max_nodes: u64::MAX,
                nodes: 0,
                stopped: false,
            },
            Limit::Nodes(n) => Budget { start, soft: None, hard: None, max_nodes: n.max(1), nodes: 0, stopped: false },
        }
    }

    /// A budget of `n` nodes that starts now.
    pub fn nodes(n: u64) -> Budget {
        Budget::new(Instant::now(), Limit::Nodes(n))
    }

    /// Counts one node; `true` once the search must stop (and from then on).
    #[inline]
    pub fn spend(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        } else if let Some(hard) = self.hard {
            self.stopped = self.start.elapsed() >= hard;
        }
        self.stopped
    }

    /// Whether the search has been told to stop.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether another, deeper iteration is worth starting. With a node
    /// budget: while less than half of it is spent (an iteration costs more
    /// than all before it together), so a search never stops halfway by
    /// accident of the count either.
    pub fn may_deepen(&self) -> bool {
        if self.stopped {
            return false;
        }
        match self.soft {
            Some(soft) => self.start.elapsed() < soft,
            None => self.nodes < self.max_nodes / 2,
        }
    }

    /// Nodes spent so far.
    pub fn spent(&self) -> u64 {
        self.nodes
    }

    /// A budget for a first part of the work: `share` (in `0..=1`) of the
    /// nodes left, or of the time left before the hard stop. Spend it, then
    /// give its nodes back with [`Budget::absorb`].
    pub fn part(&self, share: f64) -> Budget {
        let left = self.max_nodes.saturating_sub(self.nodes);
        let max_nodes = if self.hard.is_some() { u64::MAX } else { ((left as f64 * share) as u64).max(1) };
        let hard = self.hard.map(|h| {
            let now = self.start.elapsed();
            now + h.saturating_sub(now).mul_f64(share)
        });
        Budget { start: self.start, soft: hard, hard, max_nodes, nodes: 0, stopped: self.stopped }
    }

    /// Counts the nodes a part spent against this budget.
    pub fn absorb(&mut self, part: &Budget) {
        self.nodes += part.nodes;
        let late = self.hard.is_some_and(|h| self.start.elapsed() >= h);
        self.stopped |= self.nodes >= self.max_nodes || late;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_budget_stops_at_its_count_and_never_reads_the_clock() {
        let mut b = Budget::nodes(100);
        let spent = (0..1000).take_while(|_| !b.spend()).count();
        assert_eq!(spent, 99, "the hundredth node stops it");
        assert!(b.stopped() && b.spend(), "stopped stays stopped");
        assert_eq!(b.spent(), 100);
        // A start long past does not matter without a clock.
        let long_ago = Instant::now().checked_sub(Duration::from_secs(60)).unwrap_or_else(Instant::now);
        let mut old = Budget::new(long_ago, Limit::Nodes(10));
        assert!(!old.spend());
        assert!(old.may_deepen());
    }

    #[test]
    fn a_node_budget_deepens_while_less_than_half_is_spent() {
        let mut b = Budget::nodes(10);
        for _ in 0..4 {
            b.spend();
        }
        assert!(b.may_deepen());
        b.spend();
        assert!(!b.may_deepen());
    }

    #[test]
    fn a_time_budget_past_its_share_stops() {
        let start = Instant::now() - Duration::from_millis(80);
        let mut b = Budget::new(start, Limit::Time(Duration::from_millis(100)));
        assert!(!b.may_deepen(), "80 ms of 100 is past the soft share");
        assert!(b.spend(), "the first node reads the clock");
        let fresh = Budget::new(Instant::now(), Limit::Time(Duration::from_secs(3600)));
        assert!(fresh.may_deepen());
    }

    #[test]
    fn a_part_has_its_share_of_the_nodes_left() {
        let mut b = Budget::nodes(1000);
        for _ in 0..200 {
            b.spend();
        }
        let mut part = b.part(0.25);
        let used = (0..10_000).take_while(|_| !part.spend()).count() + 1;
        assert_eq!(used, 200, "a quarter of the 800 left");
        b.absorb(&part);
        assert_eq!(b.spent(), 400);
        assert!(!b.stopped());
        let mut rest = b.part(1.0);
        while !rest.spend() {}
        b.absorb(&rest);
        assert!(b.stopped() && b.spent() == 1000);
    }
}
