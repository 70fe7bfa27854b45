//! How long one answer may think: a time (the tick's limit less a margin,
//! or less when told), or a fixed number of nodes.
//!
//! With a time the search must answer before the host's deadline on any
//! machine, loaded or not, so by default it keeps half the limit as a
//! margin ([`DEFAULT_MARGIN_SHARE`]; `builtin:search:margin=MS` sets it,
//! `ms=MS` thinks less). Within its time it starts a deeper iteration
//! while any time is left, or with `deepen=PCT` only when that share of
//! the iteration, predicted from how the last one grew, would fit
//! ([`Budget::may_deepen`]), and abandons the running one when the time
//! is up. The clock is read at every node: a
//! reading costs tens of nanoseconds, a node microseconds (an evaluation of
//! a 255 × 255 board, milliseconds), so a stop is never later than one
//! node.
//!
//! With a node budget the clock is never read: the same position gives the
//! same answer on every machine and every run, which is what tests and
//! reproducible tournaments need.

use std::time::{Duration, Instant};

/// The share of the limit kept as a margin unless `margin=MS` says
/// otherwise: for a machine shared with other work, where a process that
/// waits for a core a few milliseconds must still answer in time.
pub const DEFAULT_MARGIN_SHARE: f64 = 0.50;

/// How much longer than the last iteration the next one is taken to be
/// before two iterations have been seen, and the bounds of that guess
/// after: alpha-beta's iterations grow by its effective branching factor.
const DEFAULT_GROWTH: f64 = 3.0;
const MIN_GROWTH: f64 = 1.5;
const MAX_GROWTH: f64 = 8.0;

/// The share of an iteration, in percent, that must be predicted to fit in
/// the time left for it to start (`builtin:search:deepen=PCT`). By default
/// none: a deeper iteration starts whenever any time is left, so the search
/// thinks for its whole time. An iteration cut short still counts once its
/// first root move (the last best) is searched, as a later move found
/// better is then taken ([`super::alphabeta`]'s `deepen`), and what it
/// searched stays in the transposition table the next tick starts from.
/// Against a1k0n's 2010 bot at 45 ms each, 27 of 50 games with 0 against
/// 20 of 50 with 60 on the same seeds (docs/search-bot.md).
pub const WORTH_STARTING: u32 = 0;

/// The time one answer may think under a tick's `limit`: the limit less
/// `margin` (half the limit when None), and at most `ms` when given.
pub fn thinking_time(limit: Duration, ms: Option<Duration>, margin: Option<Duration>) -> Duration {
    let margin = margin.unwrap_or_else(|| limit.mul_f64(DEFAULT_MARGIN_SHARE));
    let time = limit.saturating_sub(margin);
    ms.map_or(time, |ms| ms.min(time))
}

/// What to tell a user whose `ms` (or `first_ms`) asks for more than
/// [`thinking_time`] gives under `limit`, or None: `ms=90` under a 100 ms
/// limit thinks 50 ms, as the default margin is half the limit, unless
/// `margin=MS` is given; said once, so that a measure of "more time" is
/// not quietly one of the same time.
pub fn capped_note(limit: Duration, ms: Option<Duration>, margin: Option<Duration>) -> Option<String> {
    let asked = ms?;
    let margin = margin.unwrap_or_else(|| limit.mul_f64(DEFAULT_MARGIN_SHARE));
    let time = thinking_time(limit, None, Some(margin));
    (asked > time).then(|| {
        format!(
            "builtin:search: asked to think {} ms, more than the {} ms limit less its {} ms margin leaves: \
             thinking {} ms (margin=MS sets the margin)",
            asked.as_millis(),
            limit.as_millis(),
            margin.as_millis(),
            time.as_millis()
        )
    })
}

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
    /// The time this answer may think ([`thinking_time`]).
    Time(Duration),
    /// A fixed number of nodes: deterministic, the clock is not read.
    Nodes(u64),
}

/// The budget of one answer, counted down as the search runs.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    hard: Option<Duration>,
    max_nodes: u64,
    nodes: u64,
    stopped: bool,
    /// When the last iteration ended (from `start`), and how long it took.
    mark: Duration,
    last_span: Option<Duration>,
    /// [`WORTH_STARTING`], or what `deepen=PCT` says, as a share.
    worth_starting: f64,
}

impl Budget {
    /// The budget of an answer that started at `start` under `limit`.
    pub fn new(start: Instant, limit: Limit) -> Budget {
        match limit {
            Limit::Time(t) => Budget {
                start,
                hard: Some(t),
                max_nodes: u64::MAX,
                nodes: 0,
                stopped: false,
                mark: Duration::ZERO,
                last_span: None,
                worth_starting: f64::from(WORTH_STARTING) / 100.0,
            },
            Limit::Nodes(n) => Budget {
                start,
                hard: None,
                max_nodes: n.max(1),
                nodes: 0,
                stopped: false,
                mark: Duration::ZERO,
                last_span: None,
                worth_starting: f64::from(WORTH_STARTING) / 100.0,
            },
        }
    }

    /// Starts a deeper iteration when `percent` of it (0 to 100) is
    /// predicted to fit in the time left: 0 starts one whenever any time
    /// is left, so the search thinks for its whole time.
    pub fn deepen_at(mut self, percent: u32) -> Budget {
        self.worth_starting = f64::from(percent.min(100)) / 100.0;
        self
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

    /// Whether another, deeper iteration is worth starting; called once
    /// as each iteration ends. With a time: when the next iteration,
    /// taken to grow from the last as the last grew from the one before
    /// (between [`MIN_GROWTH`] and [`MAX_GROWTH`] times; [`DEFAULT_GROWTH`]
    /// before two were seen), would get the `deepen` share of its way
    /// before the time is up ([`WORTH_STARTING`], none, by default: any
    /// time left will do). With a node budget:
    /// while less than half of it is spent (an iteration costs more than
    /// all before it together), so a search never stops halfway by accident
    /// of the count either.
    pub fn may_deepen(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        let Some(hard) = self.hard else {
            return self.nodes < self.max_nodes / 2;
        };
        let now = self.start.elapsed();
        let span = now.saturating_sub(self.mark);
        let growth = match self.last_span {
            Some(last) if !last.is_zero() => (span.as_secs_f64() / last.as_secs_f64()).clamp(MIN_GROWTH, MAX_GROWTH),
            _ => DEFAULT_GROWTH,
        };
        self.mark = now;
        self.last_span = Some(span);
        now + span.mul_f64(growth * self.worth_starting) <= hard
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
        let mark = self.start.elapsed();
        Budget {
            start: self.start,
            hard,
            max_nodes,
            nodes: 0,
            stopped: self.stopped,
            mark,
            last_span: None,
            worth_starting: self.worth_starting,
        }
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
    fn a_time_budget_past_its_time_stops() {
        let start = Instant::now() - Duration::from_millis(120);
        let mut b = Budget::new(start, Limit::Time(Duration::from_millis(100)));
        assert!(!b.may_deepen(), "120 ms of 100 leaves no time");
        assert!(b.spend(), "the first node reads the clock");
        let mut fresh = Budget::new(Instant::now(), Limit::Time(Duration::from_secs(3600)));
        assert!(fresh.may_deepen());
    }

    #[test]
    fn at_deepen_60_a_deeper_iteration_starts_only_when_60_percent_would_end_in_time() {
        // 40 ms in, after one iteration: the next is taken to take three
        // times as long, 120 ms; 60 % of it, 72 ms, ends past the 100 ms.
        let start = Instant::now() - Duration::from_millis(40);
        let mut b = Budget::new(start, Limit::Time(Duration::from_millis(100))).deepen_at(60);
        assert!(!b.may_deepen());
        // 20 ms in: 60 % of 60 ms more is 36, ending at 56, in time.
        let start = Instant::now() - Duration::from_millis(20);
        let mut b = Budget::new(start, Limit::Time(Duration::from_millis(100))).deepen_at(60);
        assert!(b.may_deepen());
        // The growth is measured: an iteration of 100 ms, then one of 150
        // ms, 250 ms in: the next is taken to take 225 ms, 60 % of it ending
        // at 385, in the 400 ms (taken three times as long, it would not).
        let mut b = Budget::new(Instant::now() - Duration::from_millis(250), Limit::Time(Duration::from_millis(400)))
            .deepen_at(60);
        b.mark = Duration::from_millis(100);
        b.last_span = Some(Duration::from_millis(100));
        assert!(b.may_deepen());
        assert!(b.last_span.is_some_and(|s| s >= Duration::from_millis(150)));
    }

    #[test]
    fn by_default_an_iteration_starts_while_any_time_is_left() {
        // 40 ms in of 100, as above: 60 % of the next iteration does not
        // fit, but by default (0 %) a deeper one starts anyway.
        let start = Instant::now() - Duration::from_millis(40);
        assert!(!Budget::new(start, Limit::Time(Duration::from_millis(100))).deepen_at(60).may_deepen());
        assert!(Budget::new(start, Limit::Time(Duration::from_millis(100))).may_deepen());
        assert_eq!(WORTH_STARTING, 0);
        // At 100 % the whole of it must fit: 100 ms in of 1000, 300 ms
        // more ends at 400, in time; 300 ms in, 900 more ends at 1200, too
        // late.
        let second = Limit::Time(Duration::from_millis(1000));
        let start = Instant::now() - Duration::from_millis(100);
        assert!(Budget::new(start, second).deepen_at(100).may_deepen());
        let start = Instant::now() - Duration::from_millis(300);
        assert!(!Budget::new(start, second).deepen_at(100).may_deepen());
        // With no time left nothing starts, whatever the share.
        let start = Instant::now() - Duration::from_millis(120);
        assert!(!Budget::new(start, Limit::Time(Duration::from_millis(100))).may_deepen());
    }

    #[test]
    fn the_thinking_time_is_the_limit_less_the_margin_and_at_most_ms() {
        let ms = Duration::from_millis;
        assert_eq!(thinking_time(ms(100), None, None), ms(50), "half by default");
        assert_eq!(thinking_time(ms(100), None, Some(ms(10))), ms(90));
        assert_eq!(thinking_time(ms(100), Some(ms(45)), None), ms(45));
        assert_eq!(thinking_time(ms(100), Some(ms(80)), None), ms(50), "never into the margin");
        assert_eq!(thinking_time(ms(100), Some(ms(80)), Some(ms(5))), ms(80));
        assert_eq!(thinking_time(ms(10), None, Some(ms(20))), Duration::ZERO, "a margin past the limit");
    }

    #[test]
    fn a_time_asked_beyond_the_margin_is_told() {
        let ms = Duration::from_millis;
        assert_eq!(capped_note(ms(100), None, None), None, "no ms, nothing asked");
        assert_eq!(capped_note(ms(100), Some(ms(45)), None), None, "within the half");
        assert_eq!(capped_note(ms(100), Some(ms(50)), None), None, "exactly what is left");
        assert_eq!(capped_note(ms(100), Some(ms(90)), Some(ms(5))), None, "the margin given leaves room");
        assert_eq!(capped_note(ms(1000), Some(ms(500)), None), None, "first_ms=500 on a 1,000 ms tick");
        let note = capped_note(ms(100), Some(ms(90)), None).expect("90 of 100 runs into the default margin");
        assert_eq!(
            note,
            "builtin:search: asked to think 90 ms, more than the 100 ms limit less its 50 ms margin leaves: \
             thinking 50 ms (margin=MS sets the margin)"
        );
        let note = capped_note(ms(100), Some(ms(45)), Some(ms(70))).expect("a margin given that leaves 30");
        assert!(note.contains("less its 70 ms margin") && note.contains("thinking 30 ms"), "{note}");
        let note = capped_note(ms(10), Some(ms(5)), Some(ms(20))).expect("a margin past the limit");
        assert!(note.contains("less its 20 ms margin") && note.contains("thinking 0 ms"), "{note}");
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
