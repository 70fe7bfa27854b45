//! The package's exceptions, in one place (`lightcycles.errors` in Python,
//! each also at the package's top level), and the mapping of the core's
//! step errors onto them.

use lightcycles_core::StepError;
use pyo3::create_exception;
use pyo3::exceptions::{PyBaseException, PyRuntimeError, PyValueError};
use pyo3::PyErr;

use crate::config::value_error;

create_exception!(lightcycles, GameOver, PyRuntimeError, "Raised by Game.step on a game that is over.");

create_exception!(
    lightcycles,
    ReplayMismatch,
    PyValueError,
    "A replay that differs from the rules: its tick, player, field, expected and actual say where."
);

create_exception!(
    lightcycles,
    CallableTimeout,
    PyBaseException,
    "Raised inside a callable bot that is still running at its deadline (a BaseException, so that `except Exception` in the bot does not catch it)."
);

/// A step of a game or a search state that failed: GameOver when the game
/// is over, else ValueError with the core's words.
pub(crate) fn step_error(e: StepError) -> PyErr {
    match e {
        StepError::GameOver => GameOver::new_err("the game is over"),
        other => value_error(other),
    }
}
