//! `lightcycles tournament`: many games, every seed in every seat, with
//! statistics, a results file and resume; one shard of them (`--shard`),
//! the shards merged (`tournament merge`), and the report page of results
//! files (`tournament report`, `--html`). The flags are turned into the
//! library's [`TournamentOptions`], which checks and plays them.

use std::io::Write;

use crate::cli::{
    bad_input, stdout_failure, write_out, Failure, MergeArgs, ReportArgs, TournamentArgs, TournamentCommand,
};
use crate::io::output;
use crate::stats::Sprt;
use crate::tournament::live_page::write_page;
use crate::tournament::plan::{self, Entry, MergeOptions, PlanError, ProgressChoice, TournamentOptions};

/// Runs `tournament`.
pub(crate) fn run(args: &TournamentArgs, out: &mut dyn Write) -> Result<(), Failure> {
    match &args.merge {
        Some(TournamentCommand::Merge(merge)) => return self::merge(merge, out),
        Some(TournamentCommand::Report(report)) => return self::report_page(report, out),
        None => {}
    }
    let planned = options(args).plan().map_err(|e| match e {
        PlanError::Broken { reports, message } => {
            for report in reports {
                eprint!("error: {report}");
            }
            bad_input(message)
        }
        PlanError::Invalid(message) => bad_input(message),
    })?;
    for report in &planned.broken {
        eprint!("error: {report}");
    }
    for warning in &planned.warnings {
        eprintln!("{warning}");
    }
    let report = plan::run(&planned).map_err(bad_input)?;
    write_out(out, &report.to_table()).map_err(stdout_failure)?;
    output::first_failure().map_or(Ok(()), |e| Err(bad_input(e)))
}

/// The flags as the library's options.
fn options(args: &TournamentArgs) -> TournamentOptions {
    let pool = !args.maps.is_empty() || args.sizes.is_some();
    let isolate = match (args.hosting.isolate, args.hosting.in_process) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    TournamentOptions {
        bots: args.bots.iter().cloned().map(Entry::Spec).collect(),
        games: args.games,
        seed: args.seed,
        jobs: args.jobs.map(|j| j as usize),
        output: args.output.clone(),
        results: args.results.clone(),
        resume: args.resume,
        sprt: args.sprt.clone(),
        gauntlet: args.gauntlet,
        shard: args.shard,
        report: args.report.clone(),
        html: args.html.clone(),
        ffa: args.ffa,
        maps: args.maps.clone(),
        sizes: args.sizes.clone(),
        densities: args.densities.clone(),
        map_order: args.map_order,
        map_start: args.map_start,
        league: args.league,
        league_lag: args.league.then_some(args.league_lag),
        affinity: args.affinity,
        allow_broken: args.allow_broken,
        progress: ProgressChoice { bar: true, log_every: args.log_every, log_seconds: args.log_seconds },
        board: args.board.board(pool),
        sandbox: args.hosting.hosting(false, 0, 0).sandbox,
        fuel_per_tick: args.hosting.fuel_per_tick,
        isolate,
        command_line: Some(std::env::args_os().map(|w| w.to_string_lossy().into_owned()).collect()),
    }
}

/// Runs `tournament merge`: every check first, then the merged file, the
/// report file and the table.
fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let options = MergeOptions {
        shards: args.shards.clone(),
        output: args.output.clone(),
        report: args.report.clone(),
        sprt: args.sprt.clone(),
    };
    let merged = plan::merge(&options).map_err(bad_input)?;
    for note in &merged.notes {
        eprintln!("note: {note}");
    }
    write_out(out, &merged.report.to_table()).map_err(stdout_failure)
}

/// Runs `tournament report`: the page of results files.
fn report_page(args: &ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut places: Vec<output::Place<'_>> =
        args.files.iter().map(|p| output::Place::Reads("a results file", p)).collect();
    places.push(output::Place::Writes("-o", &args.output));
    output::check_collisions(&places).map_err(bad_input)?;
    output::check_file(&args.output, "-o").map_err(bad_input)?;
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    // An --sprt that names no model judges on the model the run recorded.
    let inherit = args.sprt.as_deref().is_some_and(|s| !s.contains("model="));
    write_page(&args.files, &args.output, sprt, inherit).map_err(bad_input)?;
    write_out(out, &format!("{}\n", crate::io::untrusted::terminal_text(&args.output.display().to_string())))
        .map_err(stdout_failure)
}
