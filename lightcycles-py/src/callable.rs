//! A Python callable `get_move(obs) -> str` as a bot of the host: called
//! once per tick with the observation dict a CodeClash bot gets, under the
//! host's time limit (a late answer is cut short by [`crate::deadline`]).

use std::time::{Duration, Instant};

use lightcycles_core::observation::PlayerView;
use lightcycles_host::bot::{Bot, BotContext, BotError, BotFactory, Reply, Turn};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::convert;
use crate::deadline;

/// A Python callable as a bot: made per game and seat, called once per
/// tick with the observation dict.
pub(crate) struct CallableFactory {
    func: Py<PyAny>,
}

impl CallableFactory {
    /// The bot that calls `func`.
    pub(crate) fn new(func: Py<PyAny>) -> CallableFactory {
        CallableFactory { func }
    }
}

impl BotFactory for CallableFactory {
    fn create(&self, _ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        let func = Python::attach(|py| self.func.clone_ref(py));
        Ok(Box::new(CallableBot { func, reported: false, board: None }))
    }
}

struct CallableBot {
    func: Py<PyAny>,
    /// Whether this bot's first exception has been printed (one traceback
    /// per game, not one per tick).
    reported: bool,
    /// The board as last sent, and its rows as Python lists that only this
    /// adapter holds: each tick updates the few cells that changed and
    /// hands the bot copies of the rows (a tick changes the cells under
    /// the heads, so the grid is not built again).
    board: Option<(Vec<i8>, Vec<Py<PyList>>)>,
}

impl CallableBot {
    /// The observation dict of `turn`: the same dict `json.loads` makes of
    /// the host's JSON line.
    fn observation<'py>(&mut self, py: Python<'py>, turn: &Turn<'_>) -> PyResult<Bound<'py, PyDict>> {
        let position = turn.position();
        let w = position.config.width as usize;
        let grid = &position.grid;
        match &mut self.board {
            Some((cells, rows)) if cells.len() == grid.len() => {
                for (i, (&now, seen)) in grid.iter().zip(cells.iter_mut()).enumerate() {
                    if now != *seen {
                        *seen = now;
                        rows[i / w].bind(py).set_item(i % w, now)?;
                    }
                }
            }
            _ => {
                let rows =
                    grid.chunks(w).map(|row| PyList::new(py, row).map(Bound::unbind)).collect::<PyResult<_>>()?;
                self.board = Some((grid.clone(), rows));
            }
        }
        let (_, rows) = self.board.as_ref().expect("the board was just made");
        let d = PyDict::new(py);
        d.set_item("tick", turn.tick())?;
        d.set_item("max_ticks", position.config.max_ticks)?;
        d.set_item("width", position.config.width)?;
        d.set_item("height", position.config.height)?;
        d.set_item("you", turn.you())?;
        let players = position
            .players
            .iter()
            .enumerate()
            .map(|(id, s)| {
                let view = PlayerView { id, x: s.pos.x as u32, y: s.pos.y as u32, dir: s.dir, alive: s.alive };
                convert::player_dict(py, &view)
            })
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("players", PyList::new(py, players)?)?;
        let copies = rows.iter().map(|row| row.bind(py).get_slice(0, w)).collect::<Vec<_>>();
        d.set_item("grid", PyList::new(py, copies)?)?;
        if let Some(bank) = turn.time_bank() {
            d.set_item("time_bank_ms", bank.as_millis() as u64)?;
        }
        Ok(d)
    }
}

impl Bot for CallableBot {
    /// The bot's answer: a raised exception is a crash, a late answer a
    /// timeout (a Python call cannot be cut short: it is timed, as the host
    /// times its own built-in bots), a value that is not a string an
    /// invalid line.
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        Python::attach(|py| {
            let obs = match self.observation(py, turn) {
                Ok(obs) => obs,
                Err(_) => return Reply::Crash,
            };
            let start = Instant::now();
            let armed = deadline::arm(py, start + limit);
            let answer = self.func.call1(py, (obs,));
            armed.disarm(py);
            let late = start.elapsed() > limit;
            match answer {
                Err(e) if e.is_instance_of::<deadline::CallableTimeout>(py) => Reply::Timeout,
                // Any other exception, SystemExit and KeyboardInterrupt too
                // (the callable runs off the main thread: a Ctrl-C never
                // lands in it), is a crash. Shown, never acted on:
                // `PyErr_Print` would exit the process on SystemExit.
                Err(e) => {
                    if !self.reported {
                        self.reported = true;
                        e.display(py);
                    }
                    Reply::Crash
                }
                Ok(_) if late => Reply::Timeout,
                Ok(value) => match value.bind(py).cast::<PyString>() {
                    Ok(s) => Reply::Line(s.to_string_lossy().into_owned().into_bytes()),
                    Err(_) => Reply::Line(format!("{}", value.bind(py)).into_bytes()),
                },
            }
        })
    }
}

/// The name a callable is shown by: its `__name__`, kept to the NAME
/// grammar (letters, digits, `_`, `-`, `.`).
pub(crate) fn callable_name(func: &Bound<'_, PyAny>) -> String {
    let name: String = func.getattr("__name__").and_then(|n| n.extract()).unwrap_or_else(|_| "python".to_string());
    let plain: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }).collect();
    if plain.is_empty() {
        "python".to_string()
    } else {
        plain
    }
}
