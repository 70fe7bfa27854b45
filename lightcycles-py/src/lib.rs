//! `lightcycles` for Python: the rules engine, maps and replays of
//! `lightcycles-core` and the match runner of `lightcycles-host`, as one
//! CPython extension module (`lightcycles._lightcycles`), built by maturin.
//!
//! - [`config`]: `Config`, checked by the core.
//! - [`game`]: `Game`, the fast engine, and `generate_map`.
//! - [`replay`]: `Replay`: load, verify, frames.
//! - [`search_state`]: `SearchState`, the lean state for a search's inner loop.
//! - [`play`]: `play`, the host's match loop, with Python callables as bots.
//! - [`tournament`]: `tournament` (or one shard of it), `merge_results` and
//!   `check_bots`.
//! - [`vector`]: `VectorEnv`, many games stepped in one call.
//! - [`obs`]: the planes and action masks every environment observes.
//!
//! Python objects cross the boundary as the JSON the host writes, read
//! with the `json` module, so a dict here is the dict a CodeClash bot
//! gets.

mod config;
mod convert;
mod deadline;
mod game;
mod obs;
mod play;
mod replay;
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
    m.add_class::<config::PyConfig>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<replay::PyReplay>()?;
    m.add_class::<search_state::PySearchState>()?;
    m.add_class::<play::PlayResult>()?;
    m.add_class::<play::GameResult>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(game::generate_map, m)?)?;
    m.add_function(wrap_pyfunction!(play::play, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::tournament, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::merge_results, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::check_bots, m)?)?;
    m.add("ReplayMismatch", m.py().get_type::<replay::ReplayMismatch>())?;
    m.add("GameOver", m.py().get_type::<game::GameOver>())?;
    m.add("CallableTimeout", m.py().get_type::<deadline::CallableTimeout>())?;
    Ok(())
}
