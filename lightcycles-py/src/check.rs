//! `lightcycles.check_bots`: the probe a run makes of every bot before its
//! first game, on its own.

use lightcycles_core::defaults;
use lightcycles_host::bot::adapter::plugin::isolated;
use lightcycles_host::game::preflight;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::bots::{bot_list, entries};
use crate::config::PyConfig;
use crate::play::{entrants, hosting, limits, run_config};

/// Starts every bot given as a spec string once and asks it the first
/// observation of a game (seed, config: two players by default; bot k
/// rides seat k mod players) within time_first_ms, as the CLI does before
/// game 0; raises ValueError naming each bot that cannot play,
/// with the first lines of its stderr. Callables are not probed.
#[pyfunction]
#[pyo3(signature = (bots, seed=0, time_first_ms=defaults::TIME_FIRST_MS, config=None, isolate=None))]
pub fn check_bots(
    py: Python<'_>,
    bots: Bound<'_, PyAny>,
    seed: u64,
    time_first_ms: u64,
    config: Option<PyRef<'_, PyConfig>>,
    isolate: Option<bool>,
) -> PyResult<()> {
    let config = match config {
        Some(c) => c.inner,
        None => run_config(None, 2)?,
    };
    let hosting = hosting(isolate.unwrap_or_else(isolated::host_known));
    let list = bot_list(&bots)?;
    let entries = entries(&bots)?;
    let (entrants, _) = entrants(&entries, config.players as usize, None, &hosting)?;
    let (mut specs, mut names) = (Vec::new(), Vec::new());
    for (bot, entrant) in list.iter().zip(&entrants) {
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
