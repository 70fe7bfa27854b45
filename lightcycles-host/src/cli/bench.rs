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
    let wasm_search = args.wasm_search_bot.as_deref().map(|path| {
        progress("the search bot natively and in wasm");
        wasm_search_table(path, time)
    });
    eprintln!("bench: done in {}", clock(started.elapsed()));
    let mut text = format!(
        "\nBot adapters: the time of one tick through each, against a bot that answers at once, through the \
         positions of a game (48 × 36):\n\n{}\nPython bots (CodeClash main.py):\n\n{}",
        adapters::table(&figures),
        python_games::table(&python)
    );
    if let Some(table) = wasm_search {
        text.push_str(&format!("\nThe search bot in wasm (--wasm-search-bot):\n\n{table}"));
    }
    write_out(out, &text).map_err(stdout_failure)
}

/// The search bot natively and in wasm: a run is some 0.3 s of both sides
/// on this machine, so one run per 100 ms of the measure, 3 to 15.
#[cfg(feature = "wasm")]
fn wasm_search_table(path: &std::path::Path, time: Duration) -> String {
    let runs = (time.as_millis() / 100).clamp(3, 15) as usize;
    crate::bench::wasm_search::table(&crate::bench::wasm_search::measure(path, runs))
}

#[cfg(not(feature = "wasm"))]
fn wasm_search_table(_path: &std::path::Path, _time: Duration) -> String {
    "| search bot, native and in wasm | figure |\n| --- | ---: |\n| not measured | this lightcycles is built \
     without the wasm feature |\n"
        .to_string()
}
