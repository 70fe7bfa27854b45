//! `lightcycles.Replay`: a replay file, read with the host's caps, verified
//! on the reference engine frame by frame.

use std::path::PathBuf;

use lightcycles_core::map::{self, parse_2010};
use lightcycles_core::replay::{self, Origin, Recorder, Replay, ReplayError};
use lightcycles_core::{Answer, Engine, FastGame, ReferenceGame};
use lightcycles_host::io::input;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::config::value_error;
use crate::convert;
use crate::game::{PyGame, Start};

use crate::errors::ReplayMismatch;

/// A recorded game (the `sim_<g>.json` files of `lightcycles play -o`).
#[pyclass(name = "Replay", module = "lightcycles", frozen)]
pub struct PyReplay {
    replay: Replay,
}

#[pymethods]
impl PyReplay {
    /// Reads a replay file (at most the size the CLI reads).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<PyReplay> {
        let text = input::read_text(&path, &input::REPLAY)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        Self::from_json(&text).map_err(|e| PyValueError::new_err(format!("{}: {}", path.display(), e)))
    }

    /// A replay from its JSON text.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyReplay> {
        Replay::from_json(text).map(|replay| PyReplay { replay }).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Plays the recorded commands on the reference engine and compares
    /// every frame and the result. Returns the result (as Game.result);
    /// raises ReplayMismatch at the first difference, ValueError when the
    /// file is malformed.
    fn verify<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        match replay::verify::<ReferenceGame>(&self.replay) {
            Ok(o) => convert::outcome_dict(py, o),
            Err(ReplayError::Mismatch(m)) => {
                let err = ReplayMismatch::new_err(m.to_string());
                let value = err.value(py);
                value.setattr("tick", m.tick)?;
                value.setattr("player", m.player)?;
                value.setattr("field", &m.field)?;
                value.setattr("expected", &m.expected)?;
                value.setattr("actual", &m.actual)?;
                Err(err)
            }
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }

    /// The frames: the board's heads, directions and the living players
    /// after each tick, from tick 0.
    #[getter]
    fn frames<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.get_item("frames")
    }

    /// The recorded lines (None for no line), one row per tick.
    #[getter]
    fn commands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.get_item("commands")
    }

    /// The recorded faults (None, "invalid", "timeout", "crash"), one row
    /// per tick.
    #[getter]
    fn faults<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_dict(py)?.get_item("faults")
    }

    /// The names of the bots by seat.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.replay.names.clone()
    }

    /// The whole replay as the dict of its JSON file.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::from_json(py, &self.replay.to_json())
    }

    /// The replay file's text.
    fn to_json(&self) -> String {
        self.replay.to_json()
    }

    /// Writes the replay to `path` (whole, through a rename), as the CLI
    /// writes `sim_<g>.json`.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let mut json = self.replay.to_json();
        json.push('\n');
        lightcycles_host::io::whole_file::write(&path, json.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("{}: cannot write: {e}", path.display())))
    }

    /// The replay of a game made with `record=True`, as the CLI would have
    /// written it: its start (seed or map file), every answer, every frame
    /// and the result. `names` are the bots by seat (default player_0, …).
    #[staticmethod]
    #[pyo3(signature = (game, names=None))]
    fn record(game: PyRef<'_, PyGame>, names: Option<Vec<String>>) -> PyResult<PyReplay> {
        let history = game.history.as_ref().ok_or_else(|| {
            PyValueError::new_err(
                "this game keeps no record: make it with Game(..., record=True) or Game.from_map(..., record=True)",
            )
        })?;
        let config = *game.game.config();
        let n = config.players as usize;
        let names = names.unwrap_or_else(|| (0..n).map(|i| format!("player_{i}")).collect());
        if names.len() != n {
            return Err(PyValueError::new_err(format!("{} names for {n} players", names.len())));
        }
        let (map, origin) = match &history.origin {
            Start::Seed(seed) => (map::generate(&config, *seed).map_err(value_error)?, Origin::Seed(*seed)),
            Start::MapFile(text) => (parse_2010(text).map_err(value_error)?, Origin::MapFile(text)),
        };
        let mut engine = FastGame::from_map(&config, &map).map_err(value_error)?;
        let mut recorder = Recorder::new(&engine, &map, origin, names);
        for answers in &history.answers {
            let actions: Vec<_> = answers.iter().map(Answer::action).collect();
            engine.step(&actions).map_err(value_error)?;
            recorder.record(answers, &engine);
        }
        Ok(PyReplay { replay: recorder.finish() })
    }
}
