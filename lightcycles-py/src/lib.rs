//! `lightcycles` for Python: the rules engine, maps and replays of
//! `lightcycles-core` and the match runner of `lightcycles-host`, as one
//! CPython extension module (`lightcycles._lightcycles`), built by maturin.
//! One module a class or function (docs/architecture.md says where a new
//! one goes):
//!
//! - [`config`]: `Config`, checked by the core.
//! - [`game`]: `Game`, the fast engine, and `generate_map`.
//! - [`replay`]: `Replay`: load, verify, frames.
//! - [`search_state`]: `SearchState`, the lean state for a search's inner loop.
//! - [`play`]: `play`, the host's match loop; [`results`] its `PlayResult`
//!   and `GameResult`.
//! - [`tournament`]: `tournament` (or one shard of it) and `merge_results`,
//!   through the host's tournament plan.
//! - [`check`]: `check_bots`, the probe before game 0.
//! - [`vector`]: `GameBatch`, many games stepped in one call (what
//!   `lightcycles.env.VectorEnv` steps).
//! - [`obs`]: the planes and action masks every environment observes.
//! - [`errors`]: `GameOver`, `ReplayMismatch`, `CallableTimeout`.
//! - [`bots`], [`callable`]: bots as Python gives them, and a callable as a
//!   bot; [`deadline`] cuts a late callable short; [`interrupt`] lets a
//!   Ctrl-C stop a run; [`convert`] turns the host's values into Python's.
//!
//! Python objects cross the boundary as the JSON the host writes, read
//! with the `json` module, so a dict here is the dict a CodeClash bot
//! gets.

mod bots;
mod callable;
mod check;
mod config;
mod convert;
mod deadline;
mod errors;
mod game;
mod interrupt;
mod obs;
mod parallel;
mod play;
mod replay;
mod results;
mod search_state;
mod tournament;
mod vector;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _lightcycles(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The crate's version, which maturin also writes into the package
    // metadata: one version, written once.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PLANES", obs::PLANE_NAMES.to_vec())?;
    m.add("DEFAULTS", config::defaults_dict(m.py())?)?;
    m.add_class::<config::PyConfig>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<replay::PyReplay>()?;
    m.add_class::<search_state::PySearchState>()?;
    m.add_class::<results::PlayResult>()?;
    m.add_class::<results::GameResult>()?;
    m.add_class::<vector::PyGameBatch>()?;
    m.add_function(wrap_pyfunction!(game::generate_map, m)?)?;
    m.add_function(wrap_pyfunction!(parallel::parallel_step, m)?)?;
    m.add_function(wrap_pyfunction!(play::play, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::tournament, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::merge_results, m)?)?;
    m.add_function(wrap_pyfunction!(check::check_bots, m)?)?;
    m.add("ReplayMismatch", m.py().get_type::<errors::ReplayMismatch>())?;
    m.add("GameOver", m.py().get_type::<errors::GameOver>())?;
    m.add("CallableTimeout", m.py().get_type::<errors::CallableTimeout>())?;
    Ok(())
}
