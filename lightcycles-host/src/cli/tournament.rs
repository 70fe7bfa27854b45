//! `lightcycles tournament`: many two-player games, every seed in both
//! seats, with statistics, a results file and resume; one shard of them
//! (`--shard`), and the shards merged (`tournament merge`).

use std::io::{IsTerminal, Write};

use lightcycles_core::FastGame;

use crate::bot::process::log::LOGS_DIR;
use crate::bot::spec;
use crate::cli::{
    bad_input, has_plugin, preflight, stdout_failure, write_out, Failure, HostingArgs, MergeArgs, TournamentArgs,
    TournamentCommand,
};
use crate::game::run::GameOptions;
use crate::io::{output, whole_file};
use crate::stats::Sprt;
use crate::tournament::progress::ProgressMode;
use crate::tournament::schedule::{PairingMode, Schedule};
use crate::tournament::{self, Tournament};

/// Runs `tournament`.
pub(crate) fn run(args: &TournamentArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(TournamentCommand::Merge(merge)) = &args.merge {
        return self::merge(merge, out);
    }
    let log_dir = args.output.as_ref().map(|dir| dir.join(LOGS_DIR));
    // Every place this run writes to is checked before the first game (the
    // results file is made before it, by the tournament).
    if let Some(dir) = &args.output {
        output::prepare_dir(dir, "-o").map_err(bad_input)?;
    }
    if let Some(dir) = &log_dir {
        output::check_dir_later(dir, "the bot logs' folder").map_err(bad_input)?;
    }
    // (A results file that exists is checked, by name, when it is opened.)
    if let Some(path) = args.results.as_ref().filter(|p| std::fs::symlink_metadata(p).is_err()) {
        output::check_file(path, "--results").map_err(bad_input)?;
    }
    if let Some(path) = &args.report {
        output::check_file(path, "--report").map_err(bad_input)?;
    }
    let hosting = args.hosting.hosting(true);
    let entrants = spec::entrants(&args.bots, log_dir.as_deref(), &hosting).map_err(|e| bad_input(e.to_string()))?;
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    if sprt.is_some() && entrants.len() != 2 {
        return Err(bad_input(format!("--sprt compares two bots, but {} were given", entrants.len())));
    }
    let (config, map_file) = args.board.config(2)?;
    let mode = if args.gauntlet { PairingMode::Gauntlet } else { PairingMode::RoundRobin };
    let games = args.games.unwrap_or(if sprt.is_some() { 20_000 } else { 100 });
    let schedule = Schedule::new(entrants.len(), mode, games, args.seed).map_err(|e| bad_input(e.to_string()))?;
    let limits = args.board.limits();
    let seed = schedule.game(0).seed;
    let broken = preflight(&args.bots, &entrants, &hosting, &config, seed, map_file.as_ref(), &limits);
    if !broken.is_empty() && !args.allow_broken {
        return Err(bad_input(format!(
            "{} cannot play: the tournament does not start (fix the bot, or --allow-broken to let it lose its games)",
            broken.join(", ")
        )));
    }
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize);
    let progress = if std::io::stderr().is_terminal() {
        ProgressMode::Bar
    } else {
        ProgressMode::Log { games: args.log_every, seconds: args.log_seconds }
    };
    let t = Tournament {
        entrants,
        specs: args.bots.clone(),
        mode,
        schedule,
        shard: args.shard,
        options: GameOptions { config, map_file, limits, out_dir: args.output.clone() },
        jobs,
        sprt,
        results: args.results.clone(),
        resume: args.resume,
        replay_flags: [args.board.to_flags(), HostingArgs::to_flags(&hosting, has_plugin(&args.bots))].concat(),
        progress,
        resume_command: args.results.as_ref().map(|_| {
            let words: Vec<String> = std::env::args_os().map(|w| w.to_string_lossy().into_owned()).collect();
            tournament::resume_command(&words)
        }),
    };
    let report = tournament::run::<FastGame>(&t).map_err(|e| bad_input(e.to_string()))?;
    if let Some(path) = &args.report {
        whole_file::write(path, (report.to_json() + "\n").as_bytes())
            .map_err(|e| bad_input(format!("--report {}: cannot write: {e}", path.display())))?;
    }
    write_out(out, &report.to_table()).map_err(stdout_failure)?;
    output::first_failure().map_or(Ok(()), |e| Err(bad_input(e)))
}

/// Runs `tournament merge`: every check first, then the merged file, the
/// report file and the table.
fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    output::check_file(&args.output, "-o").map_err(bad_input)?;
    if let Some(path) = &args.report {
        output::check_file(path, "--report").map_err(bad_input)?;
    }
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    let merged = tournament::merge::merge(&args.shards).map_err(|e| bad_input(e.to_string()))?;
    if sprt.is_some() && merged.header.bots.len() != 2 {
        return Err(bad_input(format!(
            "--sprt compares two bots, but the tournament has {}",
            merged.header.bots.len()
        )));
    }
    for note in &merged.notes {
        eprintln!("note: {note}");
    }
    merged.write(&args.output).map_err(|e| bad_input(e.to_string()))?;
    let report = merged.report(sprt);
    if let Some(path) = &args.report {
        whole_file::write(path, (report.to_json() + "\n").as_bytes())
            .map_err(|e| bad_input(format!("--report {}: cannot write: {e}", path.display())))?;
    }
    write_out(out, &report.to_table()).map_err(stdout_failure)
}
