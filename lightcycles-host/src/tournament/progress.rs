//! What a running tournament shows on stderr: a live progress bar when
//! stderr is a terminal, a plain log line every N games otherwise, and the
//! lines of games that ended with a fault.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::standings::Standings;
use crate::io::untrusted::terminal_text;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A live bar (stderr is a terminal).
    Bar,
    /// A log line every this many games (0: none).
    Log(u64),
}

/// Progress of one run of a tournament.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    every: u64,
    started: Instant,
    total: u64,
    /// Games finished before this run started (resumed).
    before: u64,
}

impl Progress {
    /// Progress over `total` games, `before` of them already finished.
    pub fn new(mode: ProgressMode, total: u64, before: u64) -> Progress {
        let (bar, every) = match mode {
            ProgressMode::Bar => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg}")
                        .expect("a valid template")
                        .progress_chars("=> "),
                );
                bar.set_position(before);
                bar.enable_steady_tick(Duration::from_millis(250));
                (Some(bar), 0)
            }
            ProgressMode::Log(every) => (None, every),
        };
        Progress { bar, every, started: Instant::now(), total, before }
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
        let rate = played as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        let message = format!("{rate:.1} games/s; {}", summary(standings, names));
        match &self.bar {
            Some(bar) => {
                bar.set_position(done);
                bar.set_message(message);
            }
            None if self.every > 0 && played > 0 && (played % self.every == 0 || done == self.total) => {
                eprintln!("games {done}/{}: {message}", self.total);
            }
            None => {}
        }
    }

    /// Takes the bar off the screen.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// One line of standings: for two bots the score, Elo and SPRT; for more,
/// each bot's score.
pub fn summary(standings: &Standings, names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| terminal_text(n)).collect();
    if names.len() == 2 {
        let p = &standings.pairings()[0];
        let mut text = format!("{} vs {}: ", names[p.bots.0], names[p.bots.1]);
        match (p.games.score(), p.games.elo()) {
            (Some(score), Some(elo)) => text.push_str(&format!("score {:.1}%, Elo {elo}", 100.0 * score)),
            _ => text.push_str("no games yet"),
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
