//! What a running tournament shows on stderr: a live progress bar when
//! stderr is a terminal (games, elapsed time, ETA, games/s, standings), a
//! plain log line every N seconds (and every N games, if asked) otherwise
//! and at the end, and the lines of games that ended with a fault.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::standings::Standings;
use crate::io::untrusted::terminal_text;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A live bar (stderr is a terminal).
    Bar,
    /// Log lines: every `games` games (0: not by games), every `seconds`
    /// seconds (0: not by time), and one at the end unless both are 0.
    Log {
        /// Games between lines.
        games: u64,
        /// Seconds between lines.
        seconds: u64,
    },
}

/// Progress of one run of a tournament.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    every: u64,
    seconds: u64,
    started: Instant,
    /// When the last log line was printed.
    last_line: std::cell::Cell<Instant>,
    total: u64,
    /// Games finished before this run started (resumed).
    before: u64,
}

impl Progress {
    /// Progress over `total` games, `before` of them already finished.
    pub fn new(mode: ProgressMode, total: u64, before: u64) -> Progress {
        let (bar, every, seconds) = match mode {
            ProgressMode::Bar => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {pos}/{len} games, {elapsed} elapsed, ETA {eta}, {msg}")
                        .expect("a valid template")
                        .progress_chars("=> "),
                );
                bar.set_position(before);
                // The ETA counts from the games of this run, not the resumed ones.
                bar.reset_eta();
                bar.enable_steady_tick(Duration::from_millis(250));
                (Some(bar), 0, 0)
            }
            ProgressMode::Log { games, seconds } => (None, games, seconds),
        };
        let now = Instant::now();
        Progress { bar, every, seconds, started: now, last_line: std::cell::Cell::new(now), total, before }
    }

    /// The log line after `done` games: the count, the time and the rest.
    pub fn log_line(&self, done: u64, message: &str) -> String {
        let elapsed = self.started.elapsed();
        let played = done.saturating_sub(self.before);
        let left = self.total.saturating_sub(done);
        let eta = if played == 0 || left == 0 {
            String::new()
        } else {
            format!(", ETA {}", clock(elapsed.mul_f64(left as f64 / played as f64)))
        };
        format!("games {done}/{}, {} elapsed{eta}: {message}", self.total, clock(elapsed))
    }

    /// Prints a line on stderr, above the bar if there is one.
    pub fn println(&self, line: &str) {
        // A line may quote a bot's spec (the replay command of a faulty
        // game): nothing in it may steer the terminal.
        let line = crate::io::untrusted::terminal_lines(line);
        match &self.bar {
            Some(bar) => bar.println(&line),
            None => eprintln!("{line}"),
        }
    }

    /// Shows the standings after `done` games (resumed ones included).
    pub fn update(&self, done: u64, standings: &Standings, names: &[String]) {
        let played = done.saturating_sub(self.before);
        let message = self.message(done, standings, names);
        match &self.bar {
            Some(bar) => {
                bar.set_position(done);
                bar.set_message(message);
            }
            None if played > 0 && done < self.total => {
                let by_games = self.every > 0 && played % self.every == 0;
                let by_time = self.seconds > 0 && self.last_line.get().elapsed() >= Duration::from_secs(self.seconds);
                if by_games || by_time {
                    eprintln!("{}", self.log_line(done, &message));
                    self.last_line.set(Instant::now());
                }
            }
            None => {}
        }
    }

    fn message(&self, done: u64, standings: &Standings, names: &[String]) -> String {
        let played = done.saturating_sub(self.before);
        let rate = played as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        let mut message = format!("{rate:.1} games/s; {}", summary(standings, names));
        if standings.counted() < done {
            message.push_str(&format!(" ({} of {done} counted: results count in game order)", standings.counted()));
        }
        message
    }

    /// Takes the bar off the screen; without a bar, prints the last line
    /// (unless logging is off).
    pub fn finish(&self, done: u64, standings: &Standings, names: &[String]) {
        match &self.bar {
            Some(bar) => bar.finish_and_clear(),
            None if self.every > 0 || self.seconds > 0 => {
                eprintln!("{}", self.log_line(done, &self.message(done, standings, names)));
            }
            None => {}
        }
    }
}

/// A duration as `1h02m03s`, `2m03s` or `3s`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, min, sec) => format!("{min}m{sec:02}s"),
        (h, min, sec) => format!("{h}h{min:02}m{sec:02}s"),
    }
}

/// One line of standings: for two bots the score, Elo and SPRT; for a
/// free-for-all under an SPRT the first bot's against the field; otherwise
/// each bot's score.
pub fn summary(standings: &Standings, names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| terminal_text(n)).collect();
    let head_to_head = names.len() == 2 && !standings.pairings().is_empty();
    if head_to_head || standings.field().is_some() {
        let (scored, score, elo) = match standings.field() {
            Some(field) => (format!("{} vs the field", names[0]), field.score(), field.elo()),
            None => {
                let p = &standings.pairings()[0];
                (format!("{} vs {}", names[p.bots.0], names[p.bots.1]), p.games.score(), p.games.elo())
            }
        };
        let mut text = format!("{scored}: ");
        match (score, elo) {
            (Some(score), Some(elo)) => text.push_str(&format!("score {:.1}%, Elo {elo}", 100.0 * score)),
            _ if standings.field().is_some() => text.push_str("no game set counted yet"),
            _ => text.push_str("no game counted yet"),
        }
        if let (Some(state), Some(llr)) = (standings.sprt(), standings.llr()) {
            text.push_str(&format!(
                ", LLR {:.2} ({:.2}, {:.2})",
                llr,
                state.sprt.lower_bound(),
                state.sprt.upper_bound()
            ));
            if let Some(d) = state.decision {
                text.push_str(&format!(", {:?} accepted", d.accepted));
            }
        }
        text
    } else {
        let scores: Vec<String> = standings
            .bots()
            .iter()
            .zip(&names)
            .map(|(b, name)| match b.games.score() {
                Some(s) => format!("{name} {:.1}%", 100.0 * s),
                None => format!("{name} -"),
            })
            .collect();
        format!("scores {}", scores.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_hours_minutes_seconds() {
        assert_eq!(clock(Duration::from_millis(3900)), "3s");
        assert_eq!(clock(Duration::from_secs(123)), "2m03s");
        assert_eq!(clock(Duration::from_secs(3723)), "1h02m03s");
    }

    #[test]
    fn a_log_line_has_the_count_the_time_and_the_eta() {
        let p = Progress::new(ProgressMode::Log { games: 0, seconds: 10 }, 100, 0);
        let line = p.log_line(0, "x");
        assert!(line.starts_with("games 0/100, 0s elapsed: x"), "{line}");
        let line = p.log_line(50, "x");
        assert!(line.starts_with("games 50/100, 0s elapsed, ETA 0s: x"), "{line}");
    }
}
