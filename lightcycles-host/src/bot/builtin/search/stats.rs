//! `builtin:search:stats`: how long the bot took to answer, per game.
//!
//! Built-in bots answer inside the host's process and are not timed by it,
//! so the bot keeps its own record: for each answer the time from the call
//! to the reply (the wall clock, what a deadline sees) and, where Linux
//! tells it (`/proc/thread-self/schedstat`), how much of that the thread ran
//! on a core and how much it waited for one. On a machine shared with other
//! work an answer can be late only by waiting; the split shows which it was.

use std::time::{Duration, Instant};

use super::{Mode, Thought};

/// The thread's time on a core and waiting for one, in nanoseconds, as the
/// kernel counts them; `None` where that is not available.
fn schedstat() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut fields = text.split_ascii_whitespace().map(|f| f.parse::<u64>().ok());
    Some((fields.next()??, fields.next()??))
}

/// The clock of one answer, started when the bot is asked.
#[derive(Clone, Copy, Debug)]
pub struct AnswerClock {
    start: Instant,
    sched: Option<(u64, u64)>,
}

/// How long one answer took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// From the call to the reply.
    pub wall: Duration,
    /// Of that, on a core (when known).
    pub cpu: Option<Duration>,
    /// Of that, waiting for a core (when known).
    pub waited: Option<Duration>,
}

impl AnswerClock {
    /// Starts the clock; with `detail`, also reads the thread's counters.
    pub fn start(detail: bool) -> AnswerClock {
        let sched = if detail { schedstat() } else { None };
        AnswerClock { start: Instant::now(), sched }
    }

    /// When the answer started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// Stops the clock.
    pub fn stop(&self) -> Timing {
        let wall = self.start.elapsed();
        let split = self.sched.zip(schedstat()).map(|((c0, w0), (c1, w1))| {
            (Duration::from_nanos(c1.saturating_sub(c0)), Duration::from_nanos(w1.saturating_sub(w0)))
        });
        Timing { wall, cpu: split.map(|s| s.0), waited: split.map(|s| s.1) }
    }
}

/// The answers of one game, summed up.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameClock {
    answers: u32,
    total: Duration,
    late: u32,
    /// The answer of tick 1, with its limit.
    first: Option<(Timing, Duration)>,
    /// The slowest answer of a later tick (wall clock), its tick and limit.
    slowest: Option<(Timing, u32, Duration)>,
    /// The most time on a core of a later answer, and its tick.
    busiest: Option<(Duration, u32)>,
    deepest: u32,
    nodes: u64,
    /// Answers, time and the sum of the depths reached by mode, in the
    /// order of [`Mode`].
    by_mode: [(u32, Duration, u64); 4],
}

impl GameClock {
    /// Counts one answer of `tick` under `limit`.
    pub fn record(&mut self, tick: u32, limit: Duration, timing: Timing, thought: &Thought) {
        self.answers += 1;
        self.total += timing.wall;
        self.late += (timing.wall > limit) as u32;
        self.deepest = self.deepest.max(thought.depth);
        self.nodes += thought.nodes;
        let m = &mut self.by_mode[thought.mode as usize];
        m.0 += 1;
        m.1 += timing.wall;
        m.2 += u64::from(thought.depth);
        if tick <= 1 {
            self.first = Some((timing, limit));
            return;
        }
        if self.slowest.map_or(true, |(t, _, _)| timing.wall > t.wall) {
            self.slowest = Some((timing, tick, limit));
        }
        if let Some(cpu) = timing.cpu {
            if self.busiest.map_or(true, |(c, _)| cpu > c) {
                self.busiest = Some((cpu, tick));
            }
        }
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let mean = if self.answers > 0 { ms(self.total) / self.answers as f64 } else { 0.0 };
        let modes: Vec<String> = [Mode::Forced, Mode::Duel, Mode::Endgame, Mode::Multi]
            .iter()
            .zip(self.by_mode)
            .filter(|(_, (n, _, _))| *n > 0)
            .map(|(mode, (n, t, depths))| {
                let mean = ms(t) / n as f64;
                match depths {
                    0 => format!("{} {n} ({mean:.1} ms)", mode.name()),
                    _ => format!("{} {n} ({mean:.1} ms, depth {:.1})", mode.name(), depths as f64 / n as f64),
                }
            })
            .collect();
        let first = self.first.map_or("-".into(), |(t, l)| format!("{} of {:.0}", show(&t), ms(l)));
        let slowest = self.slowest.map_or("-".into(), |(t, k, l)| format!("{} of {:.0} on tick {k}", show(&t), ms(l)));
        let busiest = self.busiest.map_or("-".into(), |(c, k)| format!("{:.2} ms on tick {k}", ms(c)));
        format!(
            "{} answers [{}], {} late; tick 1 {first}; slowest later {slowest}; most on a core {busiest}; mean {mean:.2} ms; deepest {}; nodes {}",
            self.answers,
            modes.join(", "),
            self.late,
            self.deepest,
            self.nodes
        )
    }
}

/// A timing as `12.34 ms (core 10.00, waiting 2.34)`.
pub fn show(t: &Timing) -> String {
    match (t.cpu, t.waited) {
        (Some(c), Some(w)) => format!("{:.2} ms (core {:.2}, waiting {:.2})", ms(t.wall), ms(c), ms(w)),
        _ => format!("{:.2} ms", ms(t.wall)),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::Dir;

    fn thought(mode: Mode) -> Thought {
        Thought { dir: Dir::N, mode, depth: 3, value: 0, nodes: 10 }
    }

    #[test]
    fn a_game_summary_counts_late_answers_and_keeps_the_slowest() {
        let limit = Duration::from_millis(50);
        let t = |ms: u64, core: u64| Timing {
            wall: Duration::from_millis(ms),
            cpu: Some(Duration::from_millis(core)),
            waited: Some(Duration::from_millis(ms - core)),
        };
        let mut clock = GameClock::default();
        clock.record(1, Duration::from_secs(1), t(400, 390), &thought(Mode::Duel));
        clock.record(2, limit, t(20, 20), &thought(Mode::Duel));
        clock.record(3, limit, t(60, 24), &thought(Mode::Duel));
        clock.record(4, limit, t(30, 26), &thought(Mode::Endgame));
        clock.record(5, limit, t(0, 0), &Thought { depth: 0, ..thought(Mode::Forced) });
        let line = clock.summary();
        assert!(
            line.starts_with(
                "5 answers [forced 1 (0.0 ms), duel 3 (160.0 ms, depth 3.0), endgame 1 (30.0 ms, depth 3.0)], 1 late;"
            ),
            "{line}"
        );
        assert!(line.contains("tick 1 400.00 ms (core 390.00, waiting 10.00) of 1000;"), "{line}");
        assert!(line.contains("slowest later 60.00 ms (core 24.00, waiting 36.00) of 50 on tick 3;"), "{line}");
        assert!(line.contains("most on a core 26.00 ms on tick 4;"), "{line}");
        assert!(line.ends_with("deepest 3; nodes 50"), "{line}");
    }

    #[test]
    fn an_answer_clock_splits_its_time_only_when_asked() {
        let plain = AnswerClock::start(false).stop();
        assert_eq!((plain.cpu, plain.waited), (None, None));
        let detailed = AnswerClock::start(true).stop();
        assert_eq!(detailed.cpu.is_some(), detailed.waited.is_some(), "both or neither");
        assert_eq!(show(&plain).matches("ms").count(), 1);
    }
}
