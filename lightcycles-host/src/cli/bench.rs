//! `lightcycles bench`: the engines side by side, then what each bot
//! adapter costs per tick.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::bench::adapters::{self, Budget};
use crate::bench::python_games;
use crate::cli::{stdout_failure, write_out, BenchArgs, Failure};
use crate::tournament::progress::clock;

pub(crate) fn run(args: &BenchArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let time = Duration::from_millis(args.measure_ms);
    // What is being measured goes to stderr as it goes: the tables on
    // stdout stay clean Markdown.
    let started = Instant::now();
    let mut progress = |what: &str| eprintln!("bench: {} {what}…", clock(started.elapsed()));
    crate::bench::run_saying(out, time, &mut progress).map_err(stdout_failure)?;
    progress("the bot adapters");
    let host = std::env::current_exe().ok();
    let figures = adapters::measure(Budget::Time(time), host.as_deref());
    progress("Python bots: the start of a game, whole games of examples/python-bot");
    // Each start measured as if the game before lasted 200 ms; whole games
    // for about the measure's time (some 0.1 s each).
    let games = (time.as_millis() / 100).clamp(2, 50) as u64;
    let python = python_games::measure(6, Duration::from_millis(200), games);
    eprintln!("bench: done in {}", clock(started.elapsed()));
    let text = format!(
        "\nBot adapters: the time of one tick through each, against a bot that answers at once, through the \
         positions of a game (48 × 36):\n\n{}\nPython bots (CodeClash main.py):\n\n{}",
        adapters::table(&figures),
        python_games::table(&python)
    );
    write_out(out, &text).map_err(stdout_failure)
}
