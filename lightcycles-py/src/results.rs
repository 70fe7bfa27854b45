//! What `play` gives back: `PlayResult`, and a `GameResult` per game.

use std::path::PathBuf;

use lightcycles_host::game::run::GameSummary;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One finished game of `play`.
#[pyclass(module = "lightcycles", frozen, get_all)]
pub struct GameResult {
    /// The game number, from 0.
    game: u64,
    /// Its seed.
    seed: u64,
    /// The bots' names by seat.
    names: Vec<String>,
    /// The index (in the bots given) of the bot in each seat.
    seats: Vec<usize>,
    /// The winner's name, or None for a draw.
    winner: Option<String>,
    /// Ticks played.
    ticks: u32,
    /// Faults by seat: dicts of invalid, timeout and crash counts.
    faults: Vec<Py<PyDict>>,
    /// The replay file written, when out_dir was given.
    replay: Option<PathBuf>,
}

#[pymethods]
impl GameResult {
    fn __repr__(&self) -> String {
        let winner = self.winner.as_ref().map_or("None".to_string(), |w| format!("{w:?}"));
        format!(
            "GameResult(game={}, seed={}, names={:?}, winner={winner}, ticks={})",
            self.game, self.seed, self.names, self.ticks
        )
    }
}

impl GameResult {
    pub(crate) fn of(py: Python<'_>, g: &GameSummary) -> PyResult<GameResult> {
        let faults = g
            .faults
            .iter()
            .map(|f| {
                let d = PyDict::new(py);
                d.set_item("invalid", f.invalid)?;
                d.set_item("timeout", f.timeout)?;
                d.set_item("crash", f.crash)?;
                Ok(d.unbind())
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(GameResult {
            game: g.plan.game,
            seed: g.plan.seed,
            names: g.names.clone(),
            seats: g.plan.seats.clone(),
            winner: g.outcome.winner.map(|seat| g.names[seat].clone()),
            ticks: g.outcome.ticks,
            faults,
            replay: g.replay_path.clone(),
        })
    }
}

/// What `play` played: wins per bot, draws, every game, and the
/// FINAL_RESULTS block the CLI prints.
#[pyclass(module = "lightcycles", frozen, get_all)]
pub struct PlayResult {
    /// The bots' names, in the order given.
    pub(crate) names: Vec<String>,
    /// Games won, by bot (in the order given).
    pub(crate) wins: Vec<u64>,
    /// Games no one won.
    pub(crate) draws: u64,
    /// Every game, in game order.
    pub(crate) games: Vec<Py<GameResult>>,
    /// The FINAL_RESULTS block, as `lightcycles play` prints it.
    pub(crate) final_results: String,
}

#[pymethods]
impl PlayResult {
    fn __repr__(&self) -> String {
        format!("PlayResult(names={:?}, wins={:?}, draws={})", self.names, self.wins, self.draws)
    }
}
