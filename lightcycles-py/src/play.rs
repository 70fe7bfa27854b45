//! `lightcycles.play`: the host's match loop, in process, the GIL released
//! while Rust plays. A bot is a spec string (anything the CLI takes) or a
//! Python callable `get_move(obs) -> str` ([`crate::callable`]), called
//! with the host's time limit.

use std::path::PathBuf;
use std::time::Duration;

use lightcycles_core::{defaults, Config, FastGame};
use lightcycles_host::bot::adapter::Hosting;
use lightcycles_host::bot::process::log::LOGS_DIR;
use lightcycles_host::bot::spec::Entrant;
use lightcycles_host::game::bank::MAX_BANK_MS;
use lightcycles_host::game::match_loop::Limits;
use lightcycles_host::game::report::{self, Tally};
use lightcycles_host::game::run::{self, GameOptions, Rounds};
use lightcycles_host::tournament::plan::{self, in_keywords, Entry};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::config::{value_error, PyConfig};
use crate::interrupt::{check_signals, interruptible};
use crate::results::{GameResult, PlayResult};

/// The entrants of a run of `players` seats, and their specs as a results
/// header records them, as the host makes them for the CLI.
pub(crate) fn entrants(
    entries: &[Entry],
    players: usize,
    log_dir: Option<&std::path::Path>,
    hosting: &Hosting,
) -> PyResult<(Vec<Entrant>, Vec<String>)> {
    let made = plan::entrants(entries, log_dir, hosting).map_err(|e| PyValueError::new_err(in_keywords(&e, false)))?;
    plan::check_players(entries, players).map_err(PyValueError::new_err)?;
    Ok(made)
}

/// How native plugins are hosted: in process, or isolated in a child of
/// the `lightcycles` binary, which a Python process is not: it must be
/// named by `LIGHTCYCLES_PLUGIN_HOST`.
pub(crate) fn hosting(isolate: bool) -> Hosting {
    Hosting { isolate, ..Hosting::default() }
}

/// The configuration of a run of `players` bots: the one given (its
/// player count must match) or the default.
pub(crate) fn run_config(config: Option<PyRef<'_, PyConfig>>, players: usize) -> PyResult<Config> {
    let config = match config {
        Some(c) if c.inner.players as usize != players => {
            return Err(PyValueError::new_err(format!(
                "config has {} players, but {players} bots were given",
                c.inner.players
            )))
        }
        Some(c) => c.inner,
        None => Config { players: players as u32, ..Config::default() },
    };
    config.validate().map_err(value_error)?;
    Ok(config)
}

pub(crate) fn limits(time_first_ms: u64, time_ms: u64) -> PyResult<Limits> {
    if time_first_ms == 0 || time_ms == 0 {
        return Err(PyValueError::new_err("time limits are at least 1 ms"));
    }
    Ok(Limits::per_tick(Duration::from_millis(time_first_ms), Duration::from_millis(time_ms)))
}

/// The replay folder, made when it is missing.
fn made_dir(dir: Option<PathBuf>) -> PyResult<Option<PathBuf>> {
    if let Some(dir) = &dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            PyValueError::new_err(format!("out_dir {}: cannot create the directory: {e}", dir.display()))
        })?;
    }
    Ok(dir)
}

/// Plays ROUNDS seeded games between the bots, as `lightcycles play` does:
/// game g with seed SEED+g (with swap, each round twice, seats reversed),
/// jobs games at once, replays to out_dir. A bot is a spec string
/// ("builtin:search", "path/main.py", "cmd:…", a plugin) or a callable
/// get_move(obs) -> str, called with the host's time limits (a late,
/// raising or invalid answer is a fault, as for every bot).
#[pyfunction]
#[pyo3(signature = (bots, rounds=10, seed=0, swap=false, jobs=1, out_dir=None, time_ms=defaults::TIME_MS, time_first_ms=defaults::TIME_FIRST_MS, config=None, isolate=false, time_bank_ms=0, time_inc_ms=0))]
#[allow(clippy::too_many_arguments)]
pub fn play(
    py: Python<'_>,
    bots: Bound<'_, PyAny>,
    rounds: u64,
    seed: u64,
    swap: bool,
    jobs: usize,
    out_dir: Option<PathBuf>,
    time_ms: u64,
    time_first_ms: u64,
    config: Option<PyRef<'_, PyConfig>>,
    isolate: bool,
    time_bank_ms: u64,
    time_inc_ms: u64,
) -> PyResult<PlayResult> {
    if rounds == 0 || jobs == 0 {
        return Err(PyValueError::new_err("rounds and jobs are at least 1"));
    }
    let bots = crate::bots::entries(&bots)?;
    let config = run_config(config, bots.len())?;
    let out_dir = made_dir(out_dir)?;
    let log_dir = out_dir.as_ref().map(|d| d.join(LOGS_DIR));
    let (entrants, _specs) = entrants(&bots, bots.len(), log_dir.as_deref(), &hosting(isolate))?;
    if time_bank_ms > MAX_BANK_MS || time_inc_ms > MAX_BANK_MS {
        return Err(PyValueError::new_err(format!(
            "time_bank_ms and time_inc_ms are at most {MAX_BANK_MS} ms (a day)"
        )));
    }
    let limits = Limits {
        bank: Duration::from_millis(time_bank_ms),
        inc: Duration::from_millis(time_inc_ms),
        ..limits(time_first_ms, time_ms)?
    };
    let options = GameOptions::new(config, None, limits, out_dir);
    let rounds = Rounds { rounds, base_seed: seed, swap };
    let mut summaries = Vec::new();
    interruptible(py, || {
        run::run::<FastGame>(&entrants, &options, &rounds, jobs, |game| {
            check_signals()?;
            summaries.push(game.clone());
            Ok(())
        })
    })?;
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(entrants.len());
    let mut games = Vec::with_capacity(summaries.len());
    for g in &summaries {
        tally.add(g);
        games.push(Py::new(py, GameResult::of(py, g)?)?);
    }
    let final_results = report::final_results(&tally, &names);
    Ok(PlayResult { names, wins: tally.wins, draws: tally.draws, games, final_results })
}
