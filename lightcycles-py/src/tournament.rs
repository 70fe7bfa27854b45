//! `lightcycles.tournament`, one shard of it, and `merge_results` of the
//! shards: the keywords are turned into the host's
//! [`TournamentOptions`], which checks, defaults and plays them as it does
//! the CLI's flags (the same options, the same errors, in keywords), the
//! GIL released while Rust plays.

use std::path::PathBuf;

use lightcycles_core::FaultPolicy;
use lightcycles_host::bot::process::sandbox::{self, Sandbox};
use lightcycles_host::game::board::Board;
use lightcycles_host::tournament::maps::Order;
use lightcycles_host::tournament::plan::{
    self, in_keywords, MergeOptions, PlanError, ProgressChoice, TournamentOptions,
};
use lightcycles_host::tournament::report::Report;
use lightcycles_host::tournament::shard::Shard;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::bots::entries;
use crate::config::PyConfig;
use crate::convert;

/// A shard given as "I/N" or as a pair (I, N).
fn shard_of(value: &Bound<'_, PyAny>) -> PyResult<Shard> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.extract::<String>()?.parse::<Shard>().map_err(|e| keyword_error(&e.to_string()));
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

/// A ValueError of a message of the host's, its flags said as keywords.
fn keyword_error(message: &str) -> PyErr {
    PyValueError::new_err(in_keywords(message, false))
}

/// A report as the dict of --report, with the table under "table".
fn report_dict<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyAny>> {
    let dict = convert::from_json(py, &report.to_json())?;
    dict.set_item("table", report.to_table())?;
    Ok(dict)
}

/// `bot_time`: a list of "NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS]" as the CLI takes them, or a
/// dict of names to MS or (FIRST_MS, MS).
fn bot_times(value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(value) = value else { return Ok(Vec::new()) };
    if let Ok(dict) = value.cast::<PyDict>() {
        return dict
            .iter()
            .map(|(name, time)| {
                let name: String = name.extract()?;
                if let Ok(ms) = time.extract::<u64>() {
                    Ok(format!("{name}={ms}"))
                } else if let Ok((first, ms)) = time.extract::<(u64, u64)>() {
                    Ok(format!("{name}={first},{ms}"))
                } else {
                    Err(PyValueError::new_err(format!(
                        "bot_time[{name:?}] is MS or (FIRST_MS, MS), not {}",
                        time.repr()?
                    )))
                }
            })
            .collect();
    }
    if value.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(
            "bot_time is a list of \"NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS]\" or a dict {name: MS or (FIRST_MS, MS)}, not one string",
        ));
    }
    value.extract::<Vec<String>>().map_err(|_| {
        PyValueError::new_err(
            "bot_time is a list of \"NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS]\" or a dict {name: MS or (FIRST_MS, MS)}",
        )
    })
}

/// A list of strings, refusing one string (which Python would read as a
/// list of its characters).
fn strings(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(value) = value else { return Ok(Vec::new()) };
    if value.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!(
            "{name} is a list of strings, not one string: write [{}]",
            value.repr()?
        )));
    }
    value.extract::<Vec<String>>().map_err(|_| PyValueError::new_err(format!("{name} is a list of strings")))
}

/// The board of `config` or of the board keywords (not both).
#[allow(clippy::too_many_arguments)]
fn board_of(
    config: Option<PyRef<'_, PyConfig>>,
    seats: usize,
    width: Option<u32>,
    height: Option<u32>,
    max_ticks: Option<u32>,
    rock_density: Option<u32>,
    fault_policy: Option<&str>,
    map: Option<PathBuf>,
) -> PyResult<Board> {
    let policy = fault_policy
        .map(|p| match p {
            "straight" => Ok(FaultPolicy::Straight),
            "eliminate" => Ok(FaultPolicy::Eliminate),
            other => {
                Err(PyValueError::new_err(format!("fault_policy is \"straight\" or \"eliminate\", not {other:?}")))
            }
        })
        .transpose()?;
    let Some(config) = config else {
        let default = Board::default();
        return Ok(Board {
            width,
            height,
            max_ticks: max_ticks.unwrap_or(default.max_ticks),
            rock_density,
            fault_policy: policy.unwrap_or(default.fault_policy),
            map,
            ..default
        });
    };
    if width.is_some() || height.is_some() || max_ticks.is_some() || rock_density.is_some() || policy.is_some() {
        return Err(PyValueError::new_err(
            "config gives the board: it does not go with width, height, max_ticks, rock_density or fault_policy",
        ));
    }
    if config.inner.players as usize != seats {
        return Err(PyValueError::new_err(format!(
            "config has {} players, but a game of this tournament has {seats} seats",
            config.inner.players
        )));
    }
    Ok(Board { map, ..Board::of_config(&config.inner) })
}

/// Plays a tournament as `lightcycles tournament` does, with every option
/// it has, by the same names (`--league-lag` is `league_lag`; `-o` is
/// `out_dir`; the board is `config` or its own keywords): every seed in
/// every seat, two bots a game or a free-for-all of `ffa`, a round robin, a
/// gauntlet of the first bot or a league, on seeded boards or a map pool,
/// with statistics, an SPRT, a results file that can be resumed, one shard
/// ("I/N" or (I, N)) for merge_results to join. Progress goes to stderr
/// only when log_every or log_seconds asks. Returns the report (the dict of
/// --report, with the table the CLI prints under "table").
#[pyfunction]
#[pyo3(signature = (
    bots, games=None, seed=0, jobs=None, results=None, resume=false, sprt=None, gauntlet=false, out_dir=None,
    time_ms=None, time_first_ms=None, config=None, isolate=None, shard=None, log_seconds=0, *, report=None,
    html=None, ffa=None, maps=None, sizes=None, densities=None, map_order="sequential", map_start=0,
    league=false, league_lag=None, affinity=false, allow_broken=false, log_every=0, width=None, height=None,
    max_ticks=None, rock_density=None, fault_policy=None, map=None, bot_time=None, time_margin_ms=0,
    time_bank_ms=0, time_inc_ms=0, bot_memory_mb=None, bot_processes=None, fuel_per_tick=None
))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    bots: Bound<'py, PyAny>,
    games: Option<u64>,
    seed: u64,
    jobs: Option<usize>,
    results: Option<PathBuf>,
    resume: bool,
    sprt: Option<String>,
    gauntlet: bool,
    out_dir: Option<PathBuf>,
    time_ms: Option<u64>,
    time_first_ms: Option<u64>,
    config: Option<PyRef<'_, PyConfig>>,
    isolate: Option<bool>,
    shard: Option<Bound<'py, PyAny>>,
    log_seconds: u64,
    report: Option<PathBuf>,
    html: Option<PathBuf>,
    ffa: Option<u64>,
    maps: Option<Bound<'py, PyAny>>,
    sizes: Option<String>,
    densities: Option<String>,
    map_order: &str,
    map_start: usize,
    league: bool,
    league_lag: Option<u64>,
    affinity: bool,
    allow_broken: bool,
    log_every: u64,
    width: Option<u32>,
    height: Option<u32>,
    max_ticks: Option<u32>,
    rock_density: Option<u32>,
    fault_policy: Option<&str>,
    map: Option<PathBuf>,
    bot_time: Option<Bound<'py, PyAny>>,
    time_margin_ms: u64,
    time_bank_ms: u64,
    time_inc_ms: u64,
    bot_memory_mb: Option<u64>,
    bot_processes: Option<u64>,
    fuel_per_tick: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let bots = entries(&bots)?;
    let seats = ffa.map_or(2, |n| n as usize);
    let mut board = board_of(config, seats, width, height, max_ticks, rock_density, fault_policy, map)?;
    board.time_ms = time_ms.unwrap_or(board.time_ms);
    board.time_first_ms = time_first_ms.unwrap_or(board.time_first_ms);
    board.bot_time = bot_times(bot_time.as_ref())?;
    board.time_margin_ms = time_margin_ms;
    board.time_bank_ms = time_bank_ms;
    board.time_inc_ms = time_inc_ms;
    let map_order = map_order.parse::<Order>().map_err(|e| keyword_error(&e))?;
    let options = TournamentOptions {
        bots,
        games,
        seed,
        jobs,
        output: out_dir,
        results,
        resume,
        sprt,
        gauntlet,
        shard: shard.map(|s| shard_of(&s)).transpose()?,
        report,
        html,
        ffa,
        maps: strings("maps", maps.as_ref())?,
        sizes,
        densities,
        map_order,
        map_start,
        league,
        league_lag,
        affinity,
        allow_broken,
        progress: ProgressChoice { bar: false, log_every, log_seconds },
        board,
        sandbox: Sandbox {
            memory_mb: bot_memory_mb.unwrap_or(sandbox::DEFAULT_MEMORY_MB),
            processes: bot_processes.unwrap_or(sandbox::DEFAULT_PROCESSES),
        },
        isolate,
        fuel_per_tick,
        // A Python caller resumes with resume=True; a Ctrl-C raises.
        command_line: None,
    };
    let planned = py.detach(|| options.plan()).map_err(|e| match e {
        PlanError::Broken { .. } | PlanError::Invalid(_) => keyword_error(&e.to_string()),
    })?;
    for warning in &planned.warnings {
        eprintln!("{}", in_keywords(warning, false));
    }
    for broken in &planned.broken {
        eprint!("error: {broken}");
    }
    let report = crate::interrupt::interruptible(py, || plan::run(&planned)).map_err(|e| {
        if e.is_instance_of::<PyValueError>(py) {
            keyword_error(&e.value(py).to_string())
        } else {
            e
        }
    })?;
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
    sprt: Option<String>,
    report: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = MergeOptions { shards, output, report, sprt };
    let merged = py.detach(|| plan::merge(&options)).map_err(|e| PyValueError::new_err(in_keywords(&e, true)))?;
    let dict = report_dict(py, &merged.report)?;
    dict.set_item("notes", merged.notes)?;
    Ok(dict)
}
