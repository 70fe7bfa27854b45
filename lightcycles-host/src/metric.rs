//! Metrics: numbers a bot reports in its output, one place that reads them.
//!
//! A line a bot writes (its stderr, docs/bots.md "What a bot says") is a
//! metric line when it starts with `[metric]` followed by a space or tab;
//! the rest of it is words separated by spaces or tabs, and each word of
//! the form `NAME=VALUE` is a metric:
//!
//! ```text
//! [metric] depth=7 score=-0.25 nodes=1.2e4
//! ```
//!
//! - `NAME` is 1 to [`NAME_MAX`] characters of `A`–`Z`, `a`–`z`, `0`–`9`,
//!   `_`, `.` and `-`;
//! - `VALUE` is a decimal number as Rust and JSON write them (`7`, `-0.25`,
//!   `1.2e4`, `.5`), finite: `inf`, `NaN` and numbers too large for a
//!   64-bit float are not values.
//!
//! A word that is not of that form is skipped; the others on the line still
//! count. A metric's value on a tick is the last one the bot wrote on that
//! tick; a bot's metrics are at most [`NAMES_MAX`] names a game (the first
//! ones it wrote). The viewer plots the values tick by tick, and the
//! tournament report gives each bot's mean and maximum of each metric over
//! the ticks that reported it ([`Summary`]).

use std::collections::BTreeMap;

use lightcycles_core::replay::Said;
use serde::{Deserialize, Serialize};

/// What starts a metric line.
pub const PREFIX: &str = "[metric]";

/// The longest metric name.
pub const NAME_MAX: usize = 32;

/// The most metric names kept for one bot in one game.
pub const NAMES_MAX: usize = 16;

/// Whether `name` is a metric's name.
pub fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_MAX
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// The value of `text`, when it is a finite decimal number.
pub fn value(text: &str) -> Option<f64> {
    // Rust's parser also reads `inf`, `infinity` and `nan`: only digits,
    // signs, a point and exponents are numbers here.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E')) {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The metrics of one line, in the order written (a name may repeat); none
/// when the line is not a metric line.
pub fn parse_line(line: &str) -> Vec<(&str, f64)> {
    let Some(rest) = line.strip_prefix(PREFIX) else { return Vec::new() };
    if !rest.starts_with([' ', '\t']) {
        return Vec::new();
    }
    rest.split([' ', '\t'])
        .filter_map(|word| {
            let (name, text) = word.split_once('=')?;
            Some((name, value(text)?)).filter(|(name, _)| is_name(name))
        })
        .collect()
}

/// One bot's metrics in one game, tick by tick: for each name (at most
/// [`NAMES_MAX`], in the order first written) the ticks that reported it
/// and the last value of each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// `(name, [(tick, value)…])`, ticks rising.
    pub metrics: Vec<(String, Vec<(u32, f64)>)>,
}

impl Series {
    fn add(&mut self, tick: u32, name: &str, value: f64) {
        let index = match self.metrics.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None if self.metrics.len() < NAMES_MAX => {
                self.metrics.push((name.to_string(), Vec::new()));
                self.metrics.len() - 1
            }
            None => return,
        };
        let points = &mut self.metrics[index].1;
        match points.last_mut() {
            Some((t, v)) if *t == tick => *v = value,
            _ => points.push((tick, value)),
        }
    }
}

/// The metrics of each of `players` players in a replay's `said`.
pub fn series(said: &[Said], players: usize) -> Vec<Series> {
    let mut out = vec![Series::default(); players];
    for entry in said {
        let Some(series) = out.get_mut(entry.player as usize) else { continue };
        for line in &entry.lines {
            for (name, value) in parse_line(line) {
                series.add(entry.tick, name, value);
            }
        }
    }
    out
}

/// A metric over ticks: how many reported it, their sum and their
/// maximum. Sums of games add up; the mean is `sum / n`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Ticks that reported the metric.
    pub n: u64,
    /// The sum of their values.
    pub sum: f64,
    /// The largest value.
    pub max: f64,
}

// Values are finite (read by [`value`]), so equality is an equivalence.
impl Eq for Summary {}

impl Summary {
    /// The summary of some values (at least one).
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Summary> {
        values.into_iter().fold(None, |s: Option<Summary>, v| {
            Some(match s {
                None => Summary { n: 1, sum: v, max: v },
                Some(s) => Summary { n: s.n + 1, sum: s.sum + v, max: s.max.max(v) },
            })
        })
    }

    /// Adds another summary of the same metric.
    pub fn merge(&mut self, other: &Summary) {
        self.n = self.n.saturating_add(other.n);
        self.sum += other.sum;
        self.max = self.max.max(other.max);
    }

    /// The mean value.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / self.n as f64
        }
    }

    /// Whether every figure is one a results file may hold (a file is
    /// untrusted: a sum may have overflowed to infinity there).
    pub fn is_finite(&self) -> bool {
        self.sum.is_finite() && self.max.is_finite()
    }
}

/// Summaries by metric name, for one bot.
pub type Summaries = BTreeMap<String, Summary>;

/// Each player's summaries of one game's `said`; `None` when no player
/// reported a metric.
pub fn summaries(said: &[Said], players: usize) -> Option<Vec<Summaries>> {
    let all: Vec<Summaries> = series(said, players)
        .into_iter()
        .map(|s| {
            s.metrics
                .into_iter()
                .filter_map(|(name, points)| Some((name, Summary::of(points.into_iter().map(|(_, v)| v))?)))
                .collect()
        })
        .collect();
    all.iter().any(|s| !s.is_empty()).then_some(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_metric_line_gives_its_numbers() {
        assert_eq!(parse_line("[metric] depth=7 score=-0.25"), vec![("depth", 7.0), ("score", -0.25)]);
        assert_eq!(parse_line("[metric]\tn.odes_x-1=1.5e3  t=.5"), vec![("n.odes_x-1", 1500.0), ("t", 0.5)]);
        assert_eq!(
            parse_line("[metric] a=1 b=inf c=NaN d=1e999 e= =3 f=x g=2 h:3 i=4=5"),
            vec![("a", 1.0), ("g", 2.0)]
        );
        assert!(parse_line("[metric]depth=7").is_empty(), "a space after the prefix");
        assert!(parse_line(" [metric] depth=7").is_empty(), "the prefix starts the line");
        assert!(parse_line("depth=7").is_empty());
        assert!(parse_line("[METRIC] depth=7").is_empty());
        assert!(parse_line(&format!("[metric] {}=1", "n".repeat(NAME_MAX + 1))).is_empty());
        assert_eq!(parse_line(&format!("[metric] {}=1", "n".repeat(NAME_MAX))).len(), 1);
    }

    fn said(tick: u32, player: u32, lines: &[&str]) -> Said {
        Said { tick, player, lines: lines.iter().map(|l| l.to_string()).collect(), truncated: false }
    }

    #[test]
    fn a_tick_keeps_its_last_value_and_a_game_its_first_names() {
        let entries = [
            said(1, 0, &["[metric] depth=3", "thinking", "[metric] depth=5 score=1"]),
            said(2, 0, &["[metric] depth=4"]),
            said(2, 1, &["[metric] x=-2"]),
            said(3, 1, &["[metric] x=6"]),
            said(3, 9, &["[metric] x=6"]),
        ];
        let s = series(&entries, 2);
        assert_eq!(s[0].metrics, vec![("depth".into(), vec![(1, 5.0), (2, 4.0)]), ("score".into(), vec![(1, 1.0)])]);
        assert_eq!(s[1].metrics, vec![("x".into(), vec![(2, -2.0), (3, 6.0)])]);
        let sums = summaries(&entries, 2).unwrap();
        assert_eq!(sums[0]["depth"], Summary { n: 2, sum: 9.0, max: 5.0 });
        assert_eq!(sums[0]["depth"].mean(), 4.5);
        assert_eq!(sums[1]["x"], Summary { n: 2, sum: 4.0, max: 6.0 });
        assert_eq!(summaries(&[said(1, 0, &["no metrics"])], 2), None);
        let many: Vec<String> = (0..NAMES_MAX + 4).map(|i| format!("[metric] m{i}=1")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(series(&[said(1, 0, &many)], 1)[0].metrics.len(), NAMES_MAX);
    }

    fn name() -> impl Strategy<Value = String> {
        "[A-Za-z0-9_.-]{1,32}"
    }

    proptest! {
        /// What a bot writes with Rust's formatting is read back exactly.
        #[test]
        fn written_metrics_are_read_back(pairs in prop::collection::vec((name(), any::<f64>().prop_filter("finite", |v| v.is_finite())), 1..8), tab in any::<bool>()) {
            let sep = if tab { "\t" } else { " " };
            let line = format!("{PREFIX}{sep}{}", pairs.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(sep));
            let read = parse_line(&line);
            prop_assert_eq!(read.len(), pairs.len());
            for ((n, v), (rn, rv)) in pairs.iter().zip(&read) {
                prop_assert_eq!(n.as_str(), *rn);
                prop_assert_eq!(v.to_bits(), rv.to_bits());
            }
        }

        /// Any text: no panic, and every metric read has a name and a
        /// finite value, found as written in the line.
        #[test]
        fn any_line_gives_only_good_metrics(line in "(\\[metric\\][ \t])?[ -~\t\u{80}-\u{10ffff}]{0,80}") {
            for (name, value) in parse_line(&line) {
                prop_assert!(is_name(name));
                prop_assert!(value.is_finite());
                let written = format!("{}=", name);
                prop_assert!(line.contains(&written));
            }
        }

        /// Summaries add up whatever the split of the values.
        #[test]
        fn summaries_merge(values in prop::collection::vec(-1e6f64..1e6, 1..40), cut in 0usize..40) {
            let cut = cut.min(values.len() - 1).max(1).min(values.len());
            let whole = Summary::of(values.iter().copied()).unwrap();
            let (a, b) = values.split_at(cut);
            let mut merged = Summary::of(a.iter().copied()).unwrap();
            if let Some(b) = Summary::of(b.iter().copied()) {
                merged.merge(&b);
            }
            prop_assert_eq!(merged.n, whole.n);
            prop_assert_eq!(merged.max, whole.max);
            prop_assert!((merged.sum - whole.sum).abs() <= 1e-6 * (1.0 + whole.sum.abs()));
        }
    }
}
