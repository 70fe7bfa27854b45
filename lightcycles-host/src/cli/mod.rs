//! The `lightcycles` command line (docs/cli.md; the command and flag names
//! are fixed): `play`, `tournament`, `tune`, `replay verify`, `replay show`,
//! `view`, `map` and `bench`.
//!
//! The flags are defined in [`args`], apart from the commands that use
//! them; each command is a module of its own that turns its arguments into
//! calls of the library and its results into text.
//!
//! Exit codes: 0 success, 1 a check failed (a replay differs), 2 bad usage
//! or bad input, with a message that names what and where (an output that
//! cannot be written included), 3 a run ended before it was complete by
//! code in the host calling `exit` ([`exit_guard`]).
//!
//! The doc comments of the argument structs are clap's help text, printed as
//! they are: `sim_<g>.json` there is text, not HTML.
#![allow(rustdoc::invalid_html_tags)]

pub mod args;
mod bench;
pub mod exit_guard;
mod failure;
mod map;
mod play;
mod plugin_host;
mod probe;
mod replay;
mod screen;
mod tournament;
mod tune;
mod view;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use self::args::*;
pub(crate) use self::failure::{bad_input, stdout_failure};
pub use self::failure::{shown_message, Failure};
pub(crate) use self::probe::preflight;
pub(crate) use self::screen::{stdout_is_a_screen, write_out};

/// Plays LightCycles bots against each other, checks and shows replays, and shows maps.
#[derive(Debug, Parser)]
#[command(name = "lightcycles", version)]
#[command(
    after_help = "Exit codes: 0 success, 1 a check failed (a replay differs), 2 bad usage or bad input (or an output \
                  that cannot be written), 3 the run was ended before it was complete (an in-process plugin called exit)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
// Parsed once per run: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play seeded games between bots; print one line per game, then FINAL_RESULTS.
    #[command(after_help = bots_help())]
    Play(PlayArgs),
    /// Work with replay files (sim_<g>.json).
    #[command(subcommand)]
    Replay(ReplayCommand),
    /// Play many games between bots, every seed in every seat (two seats,
    /// or a free-for-all), on seeded maps or a map pool, or run a league;
    /// report score, Elo, LOS, game pairs, SPRT and ratings.
    #[command(after_help = tournament_help(), args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Tournament(TournamentArgs),
    /// Tune a bot's parameters by SPSA: each iteration plays two perturbed
    /// versions of the bot against each other (or a fixed opponent, or in
    /// free-for-alls), as a tournament, and moves the values toward the better one; the state
    /// is written after every iteration and resumed from (docs/tuning.md).
    Tune(TuneArgs),
    /// Print a generated map: a picture of the board, or JSON.
    Map(MapArgs),
    /// Write one self-contained HTML page that plays replay files in a browser.
    View(ViewArgs),
    /// Measure the fast and the reference engine side by side, then the
    /// per-tick cost of each bot adapter, and print the performance tables
    /// of docs/performance.md (takes about half a minute).
    Bench(BenchArgs),
    /// Internal: host one bot of a native plugin for `--isolate`.
    #[command(name = "__plugin-host", hide = true)]
    PluginHost(PluginHostArgs),
    /// Internal: kill the bots of a host once it is gone.
    #[command(name = "__guard", hide = true)]
    Guard(GuardArgs),
}

/// Runs the command line of this process.
pub fn main() -> ExitCode {
    // Bots run in process groups of their own, so Ctrl-C (or a SIGTERM or
    // SIGHUP) reaches the host alone: take every bot down with it.
    let _ = ctrlc::set_handler(|| {
        crate::bot::process::stop_all();
        crate::view::keys::restore_terminal();
        if let Some(note) = crate::io::interrupt::note() {
            eprintln!("\ninterrupted: {note}");
        }
        exit_guard::complete();
        std::process::exit(130);
    });
    // Code in the host that calls exit (an in-process plugin) must not end
    // the run with status 0.
    exit_guard::arm();
    // This program hosts isolated plugins itself: they are isolated by default.
    crate::bot::adapter::plugin::isolated::this_program_hosts_plugins();
    // The orphans of bot processes come to the host, which reaps them when
    // their game ends: no bot process outlives its game.
    let _ = crate::bot::process::adopt_orphans();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            exit_guard::complete();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    if matches!(
        cli.command,
        Command::Play(_)
            | Command::Tournament(TournamentArgs { merge: None, .. })
            | Command::Tune(TuneArgs { show: false, .. })
    ) {
        // A process that outlives the host, even one killed with SIGKILL,
        // is killed by the guard.
        crate::bot::process::contain::start_guard();
        // No process of the host's user but root may trace the host or open
        // its descriptors (/proc/PID/fd): a second wall, behind the bots'
        // namespaces, around the host's stdout and stderr.
        let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
        if let Err(why) = crate::bot::process::isolate::status() {
            eprintln!(
                "warning: bot processes run without namespaces of their own ({why}): a bot can signal, trace \
                 and open the descriptors of the other bots; see docs/untrusted-bots.md"
            );
        }
    }
    let stdout = std::io::stdout();
    let result = execute(cli, &mut stdout.lock());
    exit_guard::complete();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure { code, message }) => {
            if !message.is_empty() {
                eprintln!("error: {}", shown_message(&message));
            }
            ExitCode::from(code)
        }
    }
}

/// Runs one parsed command, writing its output to `out`.
pub fn execute(cli: Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match cli.command {
        Command::Play(args) => play::run(&args, out),
        Command::Replay(ReplayCommand::Verify(args)) => replay::verify(&args.files, out),
        Command::Replay(ReplayCommand::Show(args)) => replay::show(&args, out),
        Command::Replay(ReplayCommand::Feed(args)) => replay::feed(&args, out),
        Command::Tournament(args) => tournament::run(&args, out),
        Command::Tune(args) => tune::run(&args, out),
        Command::Map(args) => map::run(&args, out),
        Command::View(args) => view::run(&args, out),
        Command::PluginHost(args) => plugin_host::run(&args),
        Command::Guard(args) => {
            crate::bot::process::contain::guard(args.host);
            Ok(())
        }
        Command::Bench(args) => bench::run(&args, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
