//! What crosses the boundary: JSON text to Python objects and back (the
//! `json` module, so a dict here is the dict a CodeClash bot gets), and a
//! Python move or fault to the core's `Answer`.

use lightcycles_core::{Answer, Dir, FaultKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyString};

static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn json_function<'py>(py: Python<'py>, cell: &PyOnceLock<Py<PyAny>>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let f = cell.get_or_try_init(py, || py.import("json")?.getattr(name).map(Bound::unbind))?;
    Ok(f.bind(py).clone())
}

/// The Python value of JSON text the core or the host wrote.
pub(crate) fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    json_function(py, &LOADS, "loads")?.call1((text,))
}

/// A Python value as JSON text, for the core's readers.
pub(crate) fn to_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    json_function(value.py(), &DUMPS, "dumps")?.call1((value,))?.extract()
}

/// One player's move as `Game.step` takes it: `"N"`, `"E"`, `"S"`, `"W"`
/// (any other string is an invalid line, as the rule book says), an int
/// 0–3, or `None`; with the fault a replay recorded for it, if any.
pub(crate) fn answer(mv: &Bound<'_, PyAny>, fault: Option<FaultKind>) -> PyResult<Answer> {
    let line = if mv.is_none() {
        None
    } else if let Ok(s) = mv.cast::<PyString>() {
        Answer::from_line(s.extract::<String>()?.as_bytes()).line
    } else if mv.is_instance_of::<PyInt>() {
        let code: i64 = mv.extract()?;
        let dir = u32::try_from(code)
            .ok()
            .and_then(Dir::from_code)
            .ok_or_else(|| PyValueError::new_err(format!("move {code} is not a direction: 0 to 3 (N, E, S, W)")))?;
        Some(dir.as_str().to_string())
    } else {
        return Err(PyTypeError::new_err(format!(
            "a move is \"N\", \"E\", \"S\", \"W\", an int 0 to 3 or None, not {}",
            mv.get_type().name()?
        )));
    };
    Ok(Answer { line, fault })
}

/// A fault as a replay's `faults` names it: `None`, `"invalid"`,
/// `"timeout"` or `"crash"`.
pub(crate) fn fault(value: &Bound<'_, PyAny>) -> PyResult<Option<FaultKind>> {
    if value.is_none() {
        return Ok(None);
    }
    let name: String = value.extract()?;
    match name.as_str() {
        "invalid" => Ok(Some(FaultKind::Invalid)),
        "timeout" => Ok(Some(FaultKind::Timeout)),
        "crash" => Ok(Some(FaultKind::Crash)),
        other => Err(PyValueError::new_err(format!(
            "fault {other:?} is not one of None, \"invalid\", \"timeout\", \"crash\""
        ))),
    }
}
