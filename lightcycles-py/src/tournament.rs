//! `lightcycles.tournament`, one shard of it, `merge_results` of the shards,
//! and `check_bots`, the probe a run makes before its first game: the
//! host's tournaments in process, the GIL released while Rust plays.

use std::path::PathBuf;

use lightcycles_core::{FastGame, FaultPolicy};
use lightcycles_host::bot::adapter::plugin::isolated::PLUGIN_HOST_ENV;
use lightcycles_host::bot::process::log::LOGS_DIR;
use lightcycles_host::cli::{BoardArgs, PolicyArg};
use lightcycles_host::game::preflight;
use lightcycles_host::game::run::GameOptions;
use lightcycles_host::io::whole_file;
use lightcycles_host::stats::Sprt;
use lightcycles_host::tournament::merge;
use lightcycles_host::tournament::progress::ProgressMode;
use lightcycles_host::tournament::report::Report;
use lightcycles_host::tournament::schedule::{PairingMode, Schedule};
use lightcycles_host::tournament::shard::Shard;
use lightcycles_host::tournament::{self as host_tournament, Tournament};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::config::{value_error, PyConfig};
use crate::convert;
use crate::play::{entrants, hosting, limits, made_dir, run_config};

/// A shard given as "I/N" or as a pair (I, N).
fn shard_of(value: &Bound<'_, PyAny>) -> PyResult<Shard> {
    if let Ok(text) = value.cast::<PyString>() {
        return text
            .extract::<String>()?
            .parse::<Shard>()
            .map_err(|e| PyValueError::new_err(e.to_string().replacen("--shard", "shard", 1)));
    }
    if let Ok(pair) = value.cast::<PyTuple>() {
        if let Ok((index, count)) = pair.extract::<(u64, u64)>() {
            return Shard::new(index, count).ok_or_else(|| {
                PyValueError::new_err(format!("shard ({index}, {count}): I counts from 0 and must be less than N"))
            });
        }
    }
    Err(PyValueError::new_err(format!("shard is \"I/N\" or a pair (I, N), not {}", value.repr()?)))
}

/// A report as the dict of --report, with the table under "table".
fn report_dict<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyAny>> {
    let dict = convert::from_json(py, &report.to_json())?;
    dict.set_item("table", report.to_table())?;
    Ok(dict)
}

/// Plays a tournament as `lightcycles tournament` does: every seed in both
/// seats, two bots a game, a round robin (or a gauntlet of the first bot),
/// with statistics, an optional SPRT ("ELO0,ELO1,ALPHA,BETA"), a results
/// file that can be resumed. With shard ("I/N" or (I, N)) it plays only the
/// games whose index is I mod N, for merge_results to join; with
/// log_seconds, the standings go to stderr that often. Returns the report
/// (the dict of --report, with the table the CLI prints under "table").
#[pyfunction]
#[pyo3(signature = (bots, games=None, seed=0, jobs=None, results=None, resume=false, sprt=None, gauntlet=false, out_dir=None, time_ms=50, time_first_ms=1000, config=None, isolate=None, shard=None, log_seconds=0))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    bots: Vec<Bound<'py, PyAny>>,
    games: Option<u64>,
    seed: u64,
    jobs: Option<usize>,
    results: Option<PathBuf>,
    resume: bool,
    sprt: Option<&str>,
    gauntlet: bool,
    out_dir: Option<PathBuf>,
    time_ms: u64,
    time_first_ms: u64,
    config: Option<PyRef<'_, PyConfig>>,
    isolate: Option<bool>,
    shard: Option<Bound<'py, PyAny>>,
    log_seconds: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let config = run_config(config, 2)?;
    let shard = shard.map(|s| shard_of(&s)).transpose()?;
    if shard.is_some() && sprt.is_some() {
        return Err(PyValueError::new_err(
            "sprt is judged on the whole tournament: play the shards without it and give it to merge_results",
        ));
    }
    let sprt = sprt.map(str::parse::<Sprt>).transpose().map_err(value_error)?;
    if sprt.is_some() && bots.len() != 2 {
        return Err(PyValueError::new_err(format!("sprt compares two bots, but {} were given", bots.len())));
    }
    if resume && results.is_none() {
        return Err(PyValueError::new_err("resume continues a results file: give results=PATH"));
    }
    {
        use lightcycles_host::io::output::{check_collisions, Place};
        let mut places: Vec<Place<'_>> = out_dir.as_deref().map(|d| Place::Games("out_dir", d)).into_iter().collect();
        places.extend(results.as_deref().map(|p| Place::Writes("results", p)));
        check_collisions(&places).map_err(PyValueError::new_err)?;
    }
    let out_dir = made_dir(out_dir)?;
    let log_dir = out_dir.as_ref().map(|d| d.join(LOGS_DIR));
    let hosting = hosting(isolate.unwrap_or_else(|| std::env::var_os(PLUGIN_HOST_ENV).is_some()));
    let (entrants, specs) = entrants(&bots, 2, log_dir.as_deref(), &hosting)?;
    let mode = if gauntlet { PairingMode::Gauntlet } else { PairingMode::RoundRobin };
    let games = games.unwrap_or(if sprt.is_some() { 20_000 } else { 100 });
    let schedule = Schedule::new(entrants.len(), mode, games, seed).map_err(value_error)?;
    let limits = limits(time_first_ms, time_ms)?;
    let board = BoardArgs {
        width: config.width,
        height: config.height,
        max_ticks: config.max_ticks,
        rock_density: config.rock_density,
        fault_policy: match config.fault_policy {
            FaultPolicy::Straight => PolicyArg::Straight,
            FaultPolicy::Eliminate => PolicyArg::Eliminate,
        },
        map: None,
        time_first_ms,
        time_ms,
        bot_time: Vec::new(),
        time_margin_ms: 0,
    };
    let t = Tournament {
        entrants,
        specs,
        mode,
        schedule,
        shard,
        options: GameOptions::new(config, None, limits, out_dir),
        jobs: jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1),
        sprt,
        results,
        resume,
        replay_flags: board.to_flags(),
        progress: ProgressMode::Log { games: 0, seconds: log_seconds },
        // A Python caller resumes with resume=True; a Ctrl-C raises.
        resume_command: None,
        maps: None,
        league: None,
        pin_cpus: false,
    };
    let report = crate::play::interruptible(py, || host_tournament::run::<FastGame>(&t))?;
    report_dict(py, &report)
}

/// Joins the results files of a tournament's shards (tournament(...,
/// shard=...) or `lightcycles tournament --shard`) into the one results
/// file the unsharded run writes, at output, and returns its report, as
/// `lightcycles tournament merge` does. Shards of another tournament, a
/// game missing or found twice with different results: ValueError, and
/// nothing written. notes (a shard given twice) are in the report's "notes";
/// with report=PATH the report is also written there as JSON, as --report
/// writes it.
#[pyfunction]
#[pyo3(signature = (shards, output, sprt=None, report=None))]
pub fn merge_results<'py>(
    py: Python<'py>,
    shards: Vec<PathBuf>,
    output: PathBuf,
    sprt: Option<&str>,
    report: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let sprt = sprt.map(str::parse::<Sprt>).transpose().map_err(value_error)?;
    let (report, notes) = py
        .detach(|| -> Result<_, String> {
            let merged = merge::merge(&shards).map_err(|e| e.to_string())?;
            if sprt.is_some() && merged.header.bots.len() != 2 {
                return Err(format!("sprt compares two bots, but the tournament has {}", merged.header.bots.len()));
            }
            merged.write(&output).map_err(|e| e.to_string())?;
            let report_of = merged.report(sprt);
            if let Some(path) = &report {
                whole_file::write(path, (report_of.to_json() + "\n").as_bytes())
                    .map_err(|e| format!("report {}: cannot write: {e}", path.display()))?;
            }
            Ok((report_of, merged.notes))
        })
        .map_err(PyValueError::new_err)?;
    let dict = report_dict(py, &report)?;
    dict.set_item("notes", notes)?;
    Ok(dict)
}

/// Starts every bot given as a spec string once and asks it the first
/// observation of a game (seed, config: two players by default; bot k
/// rides seat k mod players) within time_first_ms, as the CLI does before
/// game 0; raises ValueError naming each bot that cannot play,
/// with the first lines of its stderr. Callables are not probed.
#[pyfunction]
#[pyo3(signature = (bots, seed=0, time_first_ms=1000, config=None, isolate=None))]
pub fn check_bots(
    py: Python<'_>,
    bots: Vec<Bound<'_, PyAny>>,
    seed: u64,
    time_first_ms: u64,
    config: Option<PyRef<'_, PyConfig>>,
    isolate: Option<bool>,
) -> PyResult<()> {
    let config = match config {
        Some(c) => c.inner,
        None => run_config(None, 2)?,
    };
    let hosting = hosting(isolate.unwrap_or_else(|| std::env::var_os(PLUGIN_HOST_ENV).is_some()));
    let (entrants, _) = entrants(&bots, config.players as usize, None, &hosting)?;
    let (mut specs, mut names) = (Vec::new(), Vec::new());
    for (bot, entrant) in bots.iter().zip(&entrants) {
        if let Ok(text) = bot.cast::<PyString>() {
            specs.push(text.extract::<String>()?);
            names.push(entrant.name.clone());
        }
    }
    let limits = limits(time_first_ms, time_first_ms)?;
    let Some(position) = preflight::first_position(&config, seed, None) else { return Ok(()) };
    let broken = py.detach(|| preflight::probe(&specs, &names, &hosting, &position, &limits));
    if broken.is_empty() {
        return Ok(());
    }
    let report: String = broken.iter().map(|b| b.report()).collect();
    Err(PyValueError::new_err(report.trim_end().to_string()))
}
