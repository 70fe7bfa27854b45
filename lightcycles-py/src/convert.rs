//! What crosses the boundary: JSON text to Python objects and back (the
//! `json` module, so a dict here is the dict a CodeClash bot gets), and a
//! Python move or fault to the core's `Answer`.

use lightcycles_core::observation::{Observation, PlayerView};
use lightcycles_core::{Answer, Dir, FaultKind};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

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

/// How a game ended, as `Game.result` and `Replay.verify` give it.
pub(crate) fn outcome_dict<'py>(py: Python<'py>, o: lightcycles_core::Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winner", o.winner)?;
    d.set_item("draw", o.draw)?;
    d.set_item("ticks", o.ticks)?;
    d.set_item("placements", o.placements)?;
    d.set_item("eliminated_at", o.eliminated_at)?;
    d.set_item("trails", o.trails)?;
    Ok(d)
}

/// A player as the observation shows it: id, x, y, dir, alive.
pub(crate) fn player_dict<'py>(py: Python<'py>, p: &PlayerView) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", p.id)?;
    d.set_item("x", p.x)?;
    d.set_item("y", p.y)?;
    d.set_item("dir", p.dir.as_str())?;
    d.set_item("alive", p.alive)?;
    Ok(d)
}

/// The observation as the dict `json.loads` makes of the host's JSON (keys
/// in the same order), built directly: what a CodeClash bot receives.
pub(crate) fn observation_dict<'py>(py: Python<'py>, obs: &Observation) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("tick", obs.tick)?;
    d.set_item("max_ticks", obs.max_ticks)?;
    d.set_item("width", obs.width)?;
    d.set_item("height", obs.height)?;
    d.set_item("you", obs.you)?;
    let players = obs.players.iter().map(|p| player_dict(py, p)).collect::<PyResult<Vec<_>>>()?;
    d.set_item("players", PyList::new(py, players)?)?;
    let rows = obs.grid.iter().map(|row| PyList::new(py, row)).collect::<PyResult<Vec<_>>>()?;
    d.set_item("grid", PyList::new(py, rows)?)?;
    Ok(d)
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

static LETTERS: PyOnceLock<[Py<PyString>; 4]> = PyOnceLock::new();

/// The action of one player's move: a direction's letter, the common case,
/// is found by identity (CPython keeps one object per one-letter string);
/// everything else goes through [`answer`] and the core's parser.
pub(crate) fn action(mv: &Bound<'_, PyAny>, fault: Option<FaultKind>) -> PyResult<lightcycles_core::Action> {
    if fault.is_none() {
        let py = mv.py();
        let letters = LETTERS.get_or_init(py, || Dir::ALL.map(|d| PyString::intern(py, d.as_str()).unbind()));
        for (d, letter) in Dir::ALL.into_iter().zip(letters) {
            if mv.is(letter.bind(py)) {
                return Ok(lightcycles_core::Action::Move(d));
            }
        }
    }
    Ok(answer(mv, fault)?.action())
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

/// A player as a pickle holds it: x, y, direction code, alive, trail
/// length, tick of elimination.
pub(crate) type PickledPlayer = (u8, u8, u8, bool, u32, Option<u32>);

/// `p` as a pickle holds it.
pub(crate) fn pickled_player(p: &lightcycles_core::PlayerState) -> PickledPlayer {
    (p.pos.x, p.pos.y, p.dir.code(), p.alive, p.trail, p.eliminated_at)
}

/// The players a pickle held; a direction code that is no direction is a
/// ValueError.
pub(crate) fn unpickled_players(players: Vec<PickledPlayer>) -> PyResult<Vec<lightcycles_core::PlayerState>> {
    players
        .into_iter()
        .map(|(x, y, dir, alive, trail, eliminated_at)| {
            let dir = Dir::from_code(u32::from(dir)).ok_or_else(|| PyValueError::new_err("a direction is 0 to 3"))?;
            Ok(lightcycles_core::PlayerState {
                pos: lightcycles_core::Pos::new(x, y),
                dir,
                alive,
                trail,
                eliminated_at,
            })
        })
        .collect()
}
