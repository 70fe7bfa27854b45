//! Bots as a Python caller gives them: a list of spec strings (anything
//! the CLI takes) and callables `get_move(obs) -> str`.

use std::sync::Arc;

use lightcycles_host::tournament::plan::Entry;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::callable::{callable_name, CallableFactory};

/// The bots of a run as a list, refusing one string: Python would take a
/// string as the list of its characters.
pub(crate) fn bot_list<'py>(bots: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if bots.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "bots is a list of bots, not one string: write [{}, ...] with a bot for every seat",
            bots.repr()?
        )));
    }
    let items: Vec<Bound<'py, PyAny>> = bots
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "bots is a list of bots (spec strings or callables), not {}",
                bots.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?
        .collect::<PyResult<_>>()?;
    Ok(items)
}

/// The entries of a list of bots: spec strings, and callables as
/// in-process bots.
pub(crate) fn entries(bots: &Bound<'_, PyAny>) -> PyResult<Vec<Entry>> {
    bot_list(bots)?.iter().map(entry).collect()
}

/// One bot: a spec string, or a callable as an in-process bot.
pub(crate) fn entry(bot: &Bound<'_, PyAny>) -> PyResult<Entry> {
    if let Ok(text) = bot.cast::<PyString>() {
        Ok(Entry::Spec(text.extract::<String>()?))
    } else if bot.is_callable() {
        Ok(Entry::Made {
            base_name: callable_name(bot),
            kind: "python",
            factory: Arc::new(CallableFactory::new(bot.clone().unbind())),
        })
    } else {
        Err(PyValueError::new_err(format!(
            "a bot is a spec string or a callable get_move(obs) -> str, not {}",
            bot.get_type().name()?
        )))
    }
}
