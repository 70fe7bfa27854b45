//! `lightcycles.VectorEnv`: many games stepped in one call, observations
//! written into arrays made once, ended games reset in place.
//!
//! The board array is kept up to date cell by cell: a tick changes only the
//! cells under the players' heads (trails stay, rocks stay), so a step
//! writes a few cells per game, not the board.

use lightcycles_core::rng::game_seed;
use lightcycles_core::{map, Action, Config, Dir, Engine, FastGame, Map, EMPTY, ROCK};
use numpy::ndarray::{Array2, Array3, Axis};
use numpy::{IntoPyArray, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::config::{value_error, PyConfig};

/// Many games of one configuration, stepped together (Gymnasium's vector
/// API, every player of every game acting at once).
///
/// Observations are arrays made once and written in place: "grid"
/// (num_envs, height, width) int8 with the values of obs["grid"], "heads"
/// (num_envs, players, 2) int16 (x, y), "alive" (num_envs, players) bool.
/// A game that ends is reset with the next seed in the same step, so the
/// arrays returned always show games in play; rewards, terminations and
/// truncations say how the ended one finished.
#[pyclass(name = "VectorEnv", module = "lightcycles", unsendable)]
pub struct PyVectorEnv {
    config: Config,
    games: Vec<FastGame>,
    /// The map of each game in play.
    maps: Vec<Map>,
    /// The seed of each game in play.
    seeds: Vec<u64>,
    base_seed: u64,
    /// Games started so far: game k gets seed `base_seed + k`.
    started: u64,
    grid: Py<PyArray3<i8>>,
    heads: Py<PyArray3<i16>>,
    alive: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminations: Py<numpy::PyArray1<bool>>,
    truncations: Py<numpy::PyArray1<bool>>,
}

impl PyVectorEnv {
    fn start(&mut self, env: usize) -> PyResult<()> {
        let seed = game_seed(self.base_seed, self.started);
        self.started += 1;
        let map = map::generate(&self.config, seed).map_err(value_error)?;
        self.games[env] = FastGame::from_map(&self.config, &map).map_err(value_error)?;
        self.maps[env] = map;
        self.seeds[env] = seed;
        Ok(())
    }

    /// Writes the boards of the games in `fresh` (just started: a board is
    /// its map) whole, and the players of every game with the cells under
    /// their heads: the arrays are borrowed once for the lot.
    fn write(&self, py: Python<'_>, fresh: &[usize]) -> PyResult<()> {
        let mut grid = self.grid.bind(py).try_readwrite().map_err(borrowed)?;
        let mut grid = grid.as_array_mut();
        let mut heads = self.heads.bind(py).try_readwrite().map_err(borrowed)?;
        let mut heads = heads.as_array_mut();
        let mut alive = self.alive.bind(py).try_readwrite().map_err(borrowed)?;
        let mut alive = alive.as_array_mut();
        for &env in fresh {
            // Rocks and empty cells; the start cells are the heads, below.
            let mut board = grid.index_axis_mut(Axis(0), env);
            for (cell, &rock) in board.iter_mut().zip(&self.maps[env].rocks) {
                *cell = if rock { ROCK } else { EMPTY };
            }
        }
        for (env, game) in self.games.iter().enumerate() {
            for id in 0..game.num_players() {
                let p = game.player(id);
                grid[[env, p.pos.y as usize, p.pos.x as usize]] = game.cell(p.pos);
                heads[[env, id, 0]] = p.pos.x as i16;
                heads[[env, id, 1]] = p.pos.y as i16;
                alive[[env, id]] = p.alive;
            }
        }
        Ok(())
    }

    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("grid", self.grid.bind(py))?;
        d.set_item("heads", self.heads.bind(py))?;
        d.set_item("alive", self.alive.bind(py))?;
        Ok(d)
    }
}

/// An output array that cannot be written: read-only (numpy's flag), or
/// held by another borrow.
fn borrowed(e: numpy::BorrowError) -> PyErr {
    PyValueError::new_err(format!("an observation array cannot be written: {e}"))
}

/// The most envs one VectorEnv holds (each is a game, a map and its rows
/// of the arrays).
const MAX_ENVS: usize = 1 << 20;

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, config=None, seed=0))]
    fn new(py: Python<'_>, num_envs: usize, config: Option<PyRef<'_, PyConfig>>, seed: u64) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs is at least 1"));
        }
        if num_envs > MAX_ENVS {
            return Err(PyValueError::new_err(format!("num_envs is at most {MAX_ENVS}, not {num_envs}")));
        }
        let config = PyConfig::or_default(config);
        let (w, h, n) = (config.width as usize, config.height as usize, config.players as usize);
        let first = FastGame::seeded(&config, seed).map_err(value_error)?;
        // What the envs take, asked of the allocator before anything is
        // made: a size it cannot give is a MemoryError, never an abort.
        let bytes = num_envs.saturating_mul(2 * std::mem::size_of::<FastGame>() + w * h * 4 + n * 16);
        let mut probe: Vec<u8> = Vec::new();
        probe.try_reserve_exact(bytes).map_err(|_| {
            PyMemoryError::new_err(format!(
                "{num_envs} envs of {w} x {h} need about {} MiB, more than can be had",
                bytes >> 20
            ))
        })?;
        drop(probe);
        let mut env = PyVectorEnv {
            config,
            games: vec![first; num_envs],
            maps: vec![map::generate(&config, seed).map_err(value_error)?; num_envs],
            seeds: vec![0; num_envs],
            base_seed: seed,
            started: 0,
            grid: Array3::<i8>::zeros((num_envs, h, w)).into_pyarray(py).unbind(),
            heads: Array3::<i16>::zeros((num_envs, n, 2)).into_pyarray(py).unbind(),
            alive: Array2::<bool>::from_elem((num_envs, n), false).into_pyarray(py).unbind(),
            rewards: Array2::<f32>::zeros((num_envs, n)).into_pyarray(py).unbind(),
            terminations: numpy::PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
            truncations: numpy::PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
        };
        for i in 0..num_envs {
            env.start(i)?;
        }
        env.write(py, &(0..num_envs).collect::<Vec<_>>())?;
        Ok(env)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// The seed of each game in play.
    #[getter]
    fn seeds(&self) -> Vec<u64> {
        self.seeds.clone()
    }

    /// Starts every game again: game i of this reset gets seed SEED+i (the
    /// seed given when the env was made, when none is given here).
    /// Returns (observations, infos).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        if let Some(seed) = seed {
            self.base_seed = seed;
        }
        self.started = 0;
        for i in 0..self.games.len() {
            self.start(i)?;
        }
        self.write(py, &(0..self.games.len()).collect::<Vec<_>>())?;
        let infos = PyDict::new(py);
        infos.set_item("seeds", self.seeds.clone())?;
        Ok((self.observations(py)?, infos))
    }

    /// One tick of every game: `actions` is an int array (num_envs,
    /// players), 0–3 for N, E, S, W and -1 for no move. Returns
    /// (observations, rewards, terminations, truncations, infos): rewards
    /// (num_envs, players) are +1 for the winner, -1 for the others, 0 on a
    /// draw and while a game goes on; a game that ended is reset at once.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyDict>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, numpy::PyArray1<bool>>,
        Bound<'py, numpy::PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let n = self.config.players as usize;
        let actions = actions.as_array();
        if actions.shape() != [self.games.len(), n] {
            return Err(PyValueError::new_err(format!(
                "actions have shape {:?}; expected ({}, {n})",
                actions.shape(),
                self.games.len()
            )));
        }
        let mut ended = Vec::new();
        {
            let mut rewards = self.rewards.bind(py).try_readwrite().map_err(borrowed)?;
            let mut rewards = rewards.as_array_mut();
            let mut terminations = self.terminations.bind(py).try_readwrite().map_err(borrowed)?;
            let mut terminations = terminations.as_array_mut();
            let mut truncations = self.truncations.bind(py).try_readwrite().map_err(borrowed)?;
            let mut truncations = truncations.as_array_mut();
            rewards.fill(0.0);
            terminations.fill(false);
            truncations.fill(false);
            let mut step = [Action::Keep; lightcycles_core::config::MAX_PLAYERS];
            for (env, game) in self.games.iter_mut().enumerate() {
                for (id, slot) in step.iter_mut().enumerate().take(n) {
                    let code = actions[[env, id]];
                    *slot = match u32::try_from(code).ok().and_then(Dir::from_code) {
                        Some(d) => Action::Move(d),
                        None if code == -1 => Action::Keep,
                        None => {
                            return Err(PyValueError::new_err(format!(
                                "action {code} of env {env}, player {id}: expected 0 to 3, or -1 for no move"
                            )))
                        }
                    };
                }
                game.step(&step[..n]).map_err(value_error)?;
                if let Some(outcome) = game.outcome() {
                    if let Some(w) = outcome.winner {
                        for id in 0..n {
                            rewards[[env, id]] = if id == w { 1.0 } else { -1.0 };
                        }
                    }
                    let at_cap = outcome.draw && outcome.eliminated_at.iter().any(Option::is_none);
                    terminations[env] = !at_cap;
                    truncations[env] = at_cap;
                    ended.push(env);
                }
            }
        }
        for &env in &ended {
            self.start(env)?;
        }
        self.write(py, &ended)?;
        let infos = PyDict::new(py);
        infos.set_item("ended", ended)?;
        Ok((
            self.observations(py)?,
            self.rewards.bind(py).clone(),
            self.terminations.bind(py).clone(),
            self.truncations.bind(py).clone(),
            infos,
        ))
    }
}
