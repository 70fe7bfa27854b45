//! `lightcycles.GameBatch`: many games stepped in one call, observations
//! written into arrays made once, ended games reset on the step after
//! (Gymnasium's next-step autoreset).
//!
//! The board array is kept up to date cell by cell: a tick changes only the
//! cells under the players' heads (trails stay, rocks stay), so a step
//! writes a few cells per game, not the board. Python never gets those
//! arrays writeable: it gets copies, or read-only views of them, so what a
//! user writes cannot reach the boards.

use lightcycles_core::rng::game_seed;
use lightcycles_core::{defaults, map, Action, Config, Dir, Engine, FastGame, Map, Pos, Position, EMPTY, ROCK};
use numpy::ndarray::{Array1, Array2, Array3, Array5, Axis};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArray5, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use std::sync::Arc;
use std::time::Duration;

use lightcycles_host::bot::{Bot, BotContext, BotFactory, Turn};
use lightcycles_host::game::match_loop::answer_of;

use crate::config::{value_error, PyConfig};
use crate::obs::{self, Cell, Dtype, View};
use crate::play::hosting;

/// Many games of one configuration, stepped together (Gymnasium's vector
/// API, every player of every game acting at once).
///
/// Observations are "grid" (num_envs, height, width) int8 with the values
/// of obs["grid"], "heads" (num_envs, players, 2) int16 (x, y), "alive"
/// (num_envs, players) bool. With copy=True (the default) every step
/// returns fresh arrays; with copy=False it returns the same read-only
/// views each step, updated in place (copy what you keep). Rewards and
/// flags are fresh arrays each step either way.
///
/// A game that ends shows its final board on the step it ends (rewards,
/// terminations and truncations say how); the next step resets it with
/// the next seed, ignoring its actions, with reward 0 and no flags:
/// Gymnasium's next-step autoreset.
#[pyclass(name = "GameBatch", module = "lightcycles", unsendable)]
pub struct PyGameBatch {
    /// What the env was made with, as `__reduce__` gives it back: the
    /// constructor's arguments after num_envs and config.
    made_with: Py<PyAny>,
    config: Config,
    games: Vec<FastGame>,
    /// Which cells of each game's arrays are not empty.
    cells: Cells,
    /// The seed of each game in play.
    seeds: Vec<u64>,
    /// map_pool=N: the first N games of the seed (each map and start state,
    /// made when first played), which game k replays as game k mod N.
    /// Empty: every game is made from its own seed.
    pool: Vec<Option<(FastGame, Vec<u16>)>>,
    /// The games that ended on the last step: reset on the next.
    done: Vec<bool>,
    base_seed: u64,
    /// Games started so far: game k gets seed `base_seed + k`.
    started: u64,
    /// No step since the env was made: a reset without a seed then plays
    /// the games of the env's seed again, not the ones after them.
    untouched: bool,
    /// Fresh arrays per step, or the same read-only views.
    copy: bool,
    /// Every action of a step, checked before any game moves.
    actions: Vec<Action>,
    grid: Py<PyArray3<i8>>,
    heads: Py<PyArray3<i16>>,
    dirs: Py<PyArray2<i8>>,
    alive: Py<PyArray2<bool>>,
    /// obs_type="planes": every seat's planes, and how they are laid out.
    planes: Option<(Planes, View)>,
    /// Where the planes mark each player's head and the cell behind it
    /// (2 per player per game): what the next tick clears.
    marks: Vec<Option<Pos>>,
    /// action_mask=True: every seat's safe moves.
    mask: Option<Py<PyArray3<i8>>>,
    rewards: Py<PyArray2<f32>>,
    terminations: Py<PyArray1<bool>>,
    truncations: Py<PyArray1<bool>>,
    /// opponent=…: what makes the bot of every seat but `learner`, and
    /// those bots (seat by seat, game by game; None at the learner's seat).
    opponent: Option<Arc<dyn BotFactory>>,
    bots: Vec<Option<Box<dyn Bot>>>,
    /// With an opponent, each game's position as the bots see it, kept up
    /// to date as the boards are (the cells under the heads).
    positions: Vec<Position>,
    learner: usize,
    /// The time a bot has for an answer (what a search bot spends).
    limit: Duration,
    /// The observation's keys, and read-only views of their arrays: what
    /// copy=False hands out.
    views: Vec<(&'static str, Py<PyAny>)>,
}

/// The planes of every seat of every game (num_envs, players, PLANES,
/// rows, columns), of one cell type.
enum Planes {
    I8(Py<PyArray5<i8>>),
    F32(Py<PyArray5<f32>>),
}

/// Writes the planes of every seat of every game into `out`. Egocentric
/// planes are written `whole` (a view moves with its rider), and so are
/// all after an unpickling; the others
/// only where a tick changes them: the cells under the heads in the trail
/// planes, and the marks of the heads and the cells behind them, which
/// `marks` remembers (head, behind, for each player of each game). A game
/// in `fresh` (just started) first has the cells of its last game cleared
/// (its trails and rocks) and its map's rocks written: a few hundred
/// cells, not the whole planes.
fn write_all_planes<T: Cell>(
    games: &[FastGame],
    cells: &Cells,
    view: View,
    whole: bool,
    fresh: &[usize],
    marks: &mut [Option<Pos>],
    out: &Bound<'_, PyArray5<T>>,
) -> PyResult<()> {
    let mut out = out.try_readwrite().map_err(borrowed)?;
    if whole {
        let mut out = out.as_array_mut();
        for (env, game) in games.iter().enumerate() {
            let n = game.num_players();
            for id in 0..n {
                obs::write_planes(game, id, view, &mut out.index_axis_mut(Axis(0), env).index_axis_mut(Axis(0), id));
                let p = game.player(id);
                let behind = p.pos.step(p.dir.opposite(), game.config().width, game.config().height);
                marks[env * 2 * n + 2 * id] = p.alive.then_some(p.pos);
                marks[env * 2 * n + 2 * id + 1] = if p.alive { behind } else { None };
            }
        }
        return Ok(());
    }
    let out = out.as_slice_mut().map_err(contiguous)?;
    let Some(first) = games.first() else { return Ok(()) };
    let (w, h) = (first.config().width, first.config().height);
    let hw = w as usize * h as usize;
    let n = first.num_players();
    // Where plane k of seat `seat` of one game starts in that game's slice.
    let plane = |seat: usize, k: usize| (seat * obs::PLANES + k) * hw;
    for &env in fresh {
        let seats = &mut out[env * n * obs::PLANES * hw..(env + 1) * n * obs::PLANES * hw];
        for seat in 0..n {
            for &c in &cells.trails[env] {
                seats[plane(seat, 0) + c as usize] = T::ZERO;
                seats[plane(seat, 1) + c as usize] = T::ZERO;
            }
            // Rocks are spread over the whole plane: clearing it in one
            // sweep is cheaper than clearing the old ones a cell at a time.
            seats[plane(seat, 2)..plane(seat, 3)].fill(T::ZERO);
            for &c in &cells.rocks[env] {
                seats[plane(seat, 2) + c as usize] = T::ONE;
            }
        }
    }
    for (env, game) in games.iter().enumerate() {
        let seats = &mut out[env * n * obs::PLANES * hw..(env + 1) * n * obs::PLANES * hw];
        let marks = &mut marks[env * 2 * n..(env + 1) * 2 * n];
        for (k, mark) in marks.iter().enumerate() {
            if let Some(p) = mark {
                for seat in 0..n {
                    seats[plane(seat, 3 + k % 2) + p.index(w)] = T::ZERO;
                }
            }
        }
        for id in 0..n {
            let p = game.player(id);
            let v = game.cell(p.pos);
            let c = p.pos.index(w);
            for seat in 0..n {
                let own = v == seat as i8;
                seats[plane(seat, 0) + c] = if own { T::ONE } else { T::ZERO };
                seats[plane(seat, 1) + c] = if v >= 0 && !own { T::ONE } else { T::ZERO };
            }
        }
        for id in 0..n {
            let p = game.player(id);
            let behind = p.pos.step(p.dir.opposite(), w, h);
            marks[2 * id] = p.alive.then_some(p.pos);
            marks[2 * id + 1] = if p.alive { behind } else { None };
            if p.alive {
                for seat in 0..n {
                    seats[plane(seat, 3) + p.pos.index(w)] = T::ONE;
                    if let Some(b) = behind {
                        seats[plane(seat, 4) + b.index(w)] = T::ONE;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The cells of each game that are not empty, as the arrays are kept up to
/// date cell by cell: what a game that starts in an env clears of the last
/// one, instead of writing its boards whole.
#[derive(Clone, Debug, Default)]
struct Cells {
    /// The rocks of each game's map.
    rocks: Vec<Vec<u16>>,
    /// The rocks of the game an env played before the one just started,
    /// until the arrays are written.
    old_rocks: Vec<Vec<u16>>,
    /// Every cell written under a head since the env's game started
    /// (trails, crash cells): the cells that may not be empty beyond the
    /// rocks.
    trails: Vec<Vec<u16>>,
}

impl Cells {
    fn new(num_envs: usize) -> Cells {
        Cells {
            rocks: vec![Vec::new(); num_envs],
            old_rocks: vec![Vec::new(); num_envs],
            trails: vec![Vec::new(); num_envs],
        }
    }
}

/// The rock cells of a map, by index.
fn rock_cells(map: &Map) -> Vec<u16> {
    map.rocks.iter().enumerate().filter(|(_, &rock)| rock).map(|(i, _)| i as u16).collect()
}

impl PyGameBatch {
    fn start(&mut self, env: usize) -> PyResult<()> {
        let k = self.started;
        self.started += 1;
        // The old game's rocks are cleared when the arrays are written.
        let Cells { rocks, old_rocks, .. } = &mut self.cells;
        old_rocks[env].append(&mut rocks[env]);
        if self.pool.is_empty() {
            let seed = game_seed(self.base_seed, k);
            let map = map::generate(&self.config, seed).map_err(value_error)?;
            self.games[env] = FastGame::from_map(&self.config, &map).map_err(value_error)?;
            rocks[env].extend(rock_cells(&map));
            self.seeds[env] = seed;
        } else {
            // Game k is the pool's game k mod its size: made once, from
            // that game's seed, then copied without allocating.
            let slot = (k % self.pool.len() as u64) as usize;
            let seed = game_seed(self.base_seed, slot as u64);
            if self.pool[slot].is_none() {
                let map = map::generate(&self.config, seed).map_err(value_error)?;
                let game = FastGame::from_map(&self.config, &map).map_err(value_error)?;
                self.pool[slot] = Some((game, rock_cells(&map)));
            }
            let (game, cells) = self.pool[slot].as_ref().expect("made above");
            self.games[env].copy_from(game);
            rocks[env].extend_from_slice(cells);
            self.seeds[env] = seed;
        }
        let seed = self.seeds[env];
        self.done[env] = false;
        if let Some(factory) = &self.opponent {
            // The bots' position of a game just started: its map's rocks
            // and the heads, written into the position kept for the env
            // (no allocation, no cell read from the engine but the heads').
            let n = self.config.players as usize;
            let game = &self.games[env];
            let position = &mut self.positions[env];
            position.config = self.config;
            position.tick = game.tick();
            for &c in self.cells.trails[env].iter().chain(&self.cells.old_rocks[env]) {
                position.grid[c as usize] = EMPTY;
            }
            for &c in &self.cells.rocks[env] {
                position.grid[c as usize] = ROCK;
            }
            position.players.clear();
            for id in 0..n {
                let p = game.player(id);
                position.grid[p.pos.index(self.config.width)] = game.cell(p.pos);
                position.players.push(p);
            }
            debug_assert_eq!(*position, game.position());
            for seat in (0..n).filter(|&seat| seat != self.learner) {
                let ctx = BotContext { game: k, seat, players: n, seed };
                self.bots[env * n + seat] = Some(factory.create(&ctx).map_err(value_error)?);
            }
        }
        Ok(())
    }

    /// Writes the boards of the games in `fresh` (just started: a board is
    /// its map; the cells of the last game there are cleared), and the
    /// players of every game with the cells under their heads: the arrays
    /// are borrowed once for the lot.
    fn write(&mut self, py: Python<'_>, fresh: &[usize]) -> PyResult<()> {
        let (w, n) = (self.config.width, self.config.players as usize);
        let hw = w as usize * self.config.height as usize;
        let marks = &mut self.marks;
        match &self.planes {
            Some((Planes::I8(planes), view)) => {
                write_all_planes(&self.games, &self.cells, *view, view.egocentric, fresh, marks, planes.bind(py))?
            }
            Some((Planes::F32(planes), view)) => {
                write_all_planes(&self.games, &self.cells, *view, view.egocentric, fresh, marks, planes.bind(py))?
            }
            None => {}
        }
        // The grid observation's arrays, kept only when they are the
        // observation: with planes they would be memory written for nothing.
        let kept = self.planes.is_none();
        let (grid, heads) = (self.grid.bind(py).clone(), self.heads.bind(py).clone());
        let (alive, dirs) = (self.alive.bind(py).clone(), self.dirs.bind(py).clone());
        let mut grid = kept.then(|| grid.try_readwrite()).transpose().map_err(borrowed)?;
        let mut heads = kept.then(|| heads.try_readwrite()).transpose().map_err(borrowed)?;
        let mut alive = kept.then(|| alive.try_readwrite()).transpose().map_err(borrowed)?;
        let mut dirs = kept.then(|| dirs.try_readwrite()).transpose().map_err(borrowed)?;
        let Cells { rocks, old_rocks, trails } = &mut self.cells;
        if let Some(grid) = &mut grid {
            let grid = grid.as_slice_mut().map_err(contiguous)?;
            for &env in fresh {
                // The last game's cells emptied, this one's rocks; the
                // start cells are the heads, below.
                let board = &mut grid[env * hw..(env + 1) * hw];
                for &c in trails[env].iter().chain(&old_rocks[env]) {
                    board[c as usize] = EMPTY;
                }
                for &c in &rocks[env] {
                    board[c as usize] = ROCK;
                }
            }
        }
        for &env in fresh {
            trails[env].clear();
            old_rocks[env].clear();
        }
        for (env, game) in self.games.iter().enumerate() {
            for id in 0..n {
                trails[env].push(game.player(id).pos.index(w) as u16);
            }
        }
        if let (Some(grid), Some(heads), Some(alive), Some(dirs)) = (&mut grid, &mut heads, &mut alive, &mut dirs) {
            let grid = grid.as_slice_mut().map_err(contiguous)?;
            let heads = heads.as_slice_mut().map_err(contiguous)?;
            let alive = alive.as_slice_mut().map_err(contiguous)?;
            let dirs = dirs.as_slice_mut().map_err(contiguous)?;
            for (env, game) in self.games.iter().enumerate() {
                for id in 0..n {
                    let p = game.player(id);
                    grid[env * hw + p.pos.index(w)] = game.cell(p.pos);
                    heads[(env * n + id) * 2] = p.pos.x as i16;
                    heads[(env * n + id) * 2 + 1] = p.pos.y as i16;
                    alive[env * n + id] = p.alive;
                    dirs[env * n + id] = p.dir.code() as i8;
                }
            }
        }
        if let Some(mask) = &self.mask {
            let mut mask = mask.bind(py).try_readwrite().map_err(borrowed)?;
            let mask = mask.as_slice_mut().map_err(contiguous)?;
            for (env, game) in self.games.iter().enumerate() {
                for id in 0..n {
                    mask[(env * n + id) * 4..(env * n + id + 1) * 4].copy_from_slice(&obs::mask(game, id));
                }
            }
        }
        Ok(())
    }

    /// Writes every array again from the games as they stand (not from
    /// their maps): after the games were put back from a pickle.
    fn rewrite(&mut self, py: Python<'_>) -> PyResult<()> {
        {
            let mut grid = self.grid.bind(py).try_readwrite().map_err(borrowed)?;
            let mut grid = grid.as_array_mut();
            for (env, game) in self.games.iter().enumerate() {
                let trails = &mut self.cells.trails[env];
                trails.clear();
                self.cells.old_rocks[env].clear();
                for ((y, x), cell) in grid.index_axis_mut(Axis(0), env).indexed_iter_mut() {
                    let pos = Pos::new(x as u8, y as u8);
                    *cell = game.cell(pos);
                    if *cell >= 0 {
                        trails.push(pos.index(self.config.width) as u16);
                    }
                }
            }
        }
        let marks = &mut self.marks;
        match &self.planes {
            Some((Planes::I8(planes), view)) => {
                write_all_planes(&self.games, &self.cells, *view, true, &[], marks, planes.bind(py))?
            }
            Some((Planes::F32(planes), view)) => {
                write_all_planes(&self.games, &self.cells, *view, true, &[], marks, planes.bind(py))?
            }
            None => {}
        }
        // The heads, directions, who rides and the masks.
        self.write(py, &[])
    }

    /// The observation dict as Python gets it: fresh copies of the
    /// arrays, or their read-only views.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (key, view) in &self.views {
            let view = view.bind(py);
            if self.copy {
                d.set_item(*key, view.call_method0("copy")?)?;
            } else {
                d.set_item(*key, view)?;
            }
        }
        Ok(d)
    }

    /// Gymnasium's info of the games that just started: "seed" for every
    /// env, and "_seed" saying which of them it is for.
    fn seed_infos<'py>(&self, py: Python<'py>, fresh: &[usize]) -> PyResult<Bound<'py, PyDict>> {
        let infos = PyDict::new(py);
        if !fresh.is_empty() {
            let mut seeds = Array1::<u64>::zeros(self.games.len());
            let mut mask = Array1::<bool>::from_elem(self.games.len(), false);
            for &env in fresh {
                seeds[env] = self.seeds[env];
                mask[env] = true;
            }
            infos.set_item("seed", seeds.into_pyarray(py))?;
            infos.set_item("_seed", mask.into_pyarray(py))?;
        }
        Ok(infos)
    }
}

/// An output array that cannot be written: held by another borrow.
fn borrowed(e: numpy::BorrowError) -> PyErr {
    PyValueError::new_err(format!("an observation array cannot be written: {e}"))
}

/// An output array that is not one block of memory (never, as the env
/// makes them).
fn contiguous(e: numpy::NotContiguousError) -> PyErr {
    PyValueError::new_err(format!("an observation array is not contiguous: {e}"))
}

/// A read-only view of `array`: numpy refuses writes through it, and the
/// array itself stays writeable for the engine.
fn read_only<'py>(array: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
    let view = array.call_method0("view")?;
    let kwargs = PyDict::new(array.py());
    kwargs.set_item("write", false)?;
    view.call_method("setflags", (), Some(&kwargs))?;
    Ok(view.unbind())
}

/// The pool of games a VectorEnv keeps unless told otherwise: 4096, some
/// 7 MiB at 48 × 36, each made once on first play (5–7 µs) and copied after.
const DEFAULT_POOL: usize = 4096;

/// The most games a pool holds.
const MAX_POOL: usize = 1 << 20;

/// The most envs one VectorEnv holds (each is a game, a map and its rows
/// of the arrays).
const MAX_ENVS: usize = 1 << 20;

#[pymethods]
impl PyGameBatch {
    #[new]
    #[pyo3(signature = (num_envs, config=None, seed=0, copy=true, obs_type="grid", egocentric=false, view=None, dtype=None, action_mask=false, opponent=None, seat=0, time_ms=defaults::TIME_MS, map_pool=DEFAULT_POOL))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        config: Option<PyRef<'_, PyConfig>>,
        seed: u64,
        copy: bool,
        obs_type: &str,
        egocentric: bool,
        view: Option<usize>,
        dtype: Option<&Bound<'_, PyAny>>,
        action_mask: bool,
        opponent: Option<&Bound<'_, PyAny>>,
        seat: usize,
        time_ms: u64,
        map_pool: usize,
    ) -> PyResult<Self> {
        if map_pool > MAX_POOL {
            return Err(PyValueError::new_err(format!("map_pool is at most {MAX_POOL}, not {map_pool}")));
        }
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs is at least 1"));
        }
        if num_envs > MAX_ENVS {
            return Err(PyValueError::new_err(format!("num_envs is at most {MAX_ENVS}, not {num_envs}")));
        }
        let config = PyConfig::or_default(config);
        let (w, h, n) = (config.width as usize, config.height as usize, config.players as usize);
        if seat >= n {
            return Err(PyValueError::new_err(format!("seat {seat} is not a player of {n}")));
        }
        // Any bot `lightcycles.play` takes: a spec the host accepts (the
        // built-ins run here, in Rust) or a Python callable.
        let made_with = (
            seed,
            copy,
            obs_type,
            egocentric,
            view,
            dtype.map(|d| d.clone().unbind()),
            action_mask,
            opponent.map(|o| o.clone().unbind()),
            seat,
            time_ms,
            map_pool,
        )
            .into_pyobject(py)?
            .into_any()
            .unbind();
        let opponent = match opponent {
            Some(bot) => {
                let (mut entrants, _) = crate::play::entrants(&[crate::bots::entry(bot)?], n, None, &hosting(false))?;
                Some(entrants.remove(0).factory)
            }
            None => None,
        };
        let planes_view = match obs_type {
            "grid" if egocentric || view.is_some() || dtype.is_some() => {
                return Err(PyValueError::new_err("egocentric, view and dtype are options of obs_type=\"planes\""));
            }
            "grid" => None,
            "planes" => Some((
                View::new(egocentric, view, config.width, config.height)?,
                dtype.map(Dtype::from_py).transpose()?.unwrap_or(Dtype::I8),
            )),
            _ => return Err(PyValueError::new_err(format!("obs_type {obs_type:?} is not \"grid\" or \"planes\""))),
        };
        let plane_bytes = planes_view.map_or(0, |(v, d)| {
            let (rows, cols) = v.shape(config.width, config.height);
            n * obs::PLANES * rows * cols * if d == Dtype::F32 { 4 } else { 1 }
        });
        let first = FastGame::seeded(&config, seed).map_err(value_error)?;
        // What the envs take, asked of the allocator before anything is
        // made: a size it cannot give is a MemoryError, never an abort.
        let bytes = num_envs.saturating_mul(2 * std::mem::size_of::<FastGame>() + w * h * 4 + n * 32 + 2 * plane_bytes);
        let mut probe: Vec<u8> = Vec::new();
        probe.try_reserve_exact(bytes).map_err(|_| {
            PyMemoryError::new_err(format!(
                "{num_envs} envs of {w} x {h} need about {} MiB, more than can be had",
                bytes >> 20
            ))
        })?;
        drop(probe);
        // Every cell empty: each env's first start writes its rocks.
        let grid = Array3::<i8>::from_elem((num_envs, h, w), EMPTY).into_pyarray(py);
        let heads = Array3::<i16>::zeros((num_envs, n, 2)).into_pyarray(py);
        let alive = Array2::<bool>::from_elem((num_envs, n), false).into_pyarray(py);
        let dirs = Array2::<i8>::zeros((num_envs, n)).into_pyarray(py);
        let rewards = Array2::<f32>::zeros((num_envs, n)).into_pyarray(py);
        let terminations = PyArray1::<bool>::zeros(py, num_envs, false);
        let truncations = PyArray1::<bool>::zeros(py, num_envs, false);
        let mut views = Vec::new();
        let planes = match planes_view {
            None => {
                views.push(("grid", read_only(grid.as_any())?));
                views.push(("heads", read_only(heads.as_any())?));
                views.push(("dirs", read_only(dirs.as_any())?));
                views.push(("alive", read_only(alive.as_any())?));
                None
            }
            Some((view, dtype)) => {
                let (rows, cols) = view.shape(config.width, config.height);
                let shape = (num_envs, n, obs::PLANES, rows, cols);
                let planes = match dtype {
                    Dtype::I8 => Planes::I8(Array5::<i8>::zeros(shape).into_pyarray(py).unbind()),
                    Dtype::F32 => Planes::F32(Array5::<f32>::zeros(shape).into_pyarray(py).unbind()),
                };
                let array = match &planes {
                    Planes::I8(a) => a.bind(py).clone().into_any(),
                    Planes::F32(a) => a.bind(py).clone().into_any(),
                };
                views.push(("planes", read_only(&array)?));
                Some((planes, view))
            }
        };
        let mask = if action_mask {
            let mask = Array3::<i8>::zeros((num_envs, n, 4)).into_pyarray(py);
            views.push(("action_mask", read_only(mask.as_any())?));
            Some(mask.unbind())
        } else {
            None
        };
        // Like the grid, every cell empty until each env's first start.
        let empty = Position { grid: vec![EMPTY; w * h], ..first.position() };
        let positions = if opponent.is_some() { vec![empty; num_envs] } else { Vec::new() };
        let mut env = PyGameBatch {
            made_with,
            config,
            games: vec![first; num_envs],
            cells: Cells::new(num_envs),
            pool: (0..map_pool).map(|_| None).collect(),
            seeds: vec![0; num_envs],
            done: vec![false; num_envs],
            base_seed: seed,
            started: 0,
            untouched: true,
            copy,
            actions: vec![Action::Keep; num_envs * n],
            grid: grid.unbind(),
            heads: heads.unbind(),
            dirs: dirs.unbind(),
            alive: alive.unbind(),
            planes,
            marks: vec![None; num_envs * 2 * n],
            opponent,
            bots: (0..num_envs * n).map(|_| None).collect(),
            positions,
            learner: seat,
            limit: Duration::from_millis(time_ms),
            mask,
            rewards: rewards.unbind(),
            terminations: terminations.unbind(),
            truncations: truncations.unbind(),
            views,
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

    /// Pickles as what made it and the games in play (board, players,
    /// tick, seed, whether each just ended): `VectorEnv._from_state` makes
    /// it again. An opponent's bots start again from their seeds (a bot's
    /// inner state, its random draws so far, is not kept), and a callable
    /// opponent must pickle itself.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        let this = slf.borrow();
        let games: Vec<(u32, Bound<'py, pyo3::types::PyBytes>, Vec<crate::convert::PickledPlayer>)> = this
            .games
            .iter()
            .map(|game| {
                let position = game.position();
                let grid: Vec<u8> = position.grid.iter().map(|&v| v as u8).collect();
                let players = position.players.iter().map(crate::convert::pickled_player).collect();
                (position.tick, pyo3::types::PyBytes::new(py, &grid), players)
            })
            .collect();
        let state = (
            this.games.len(),
            PyConfig { inner: this.config },
            this.made_with.bind(py).clone(),
            (this.seeds.clone(), this.done.clone(), this.base_seed, this.started, this.untouched, games),
        );
        Ok((slf.get_type().getattr("_from_state")?, (state.into_pyobject(py)?.into_any(),)))
    }

    /// The env a pickled state holds (what `__reduce__` gives).
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _from_state(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PyGameBatch> {
        type Made<'a> = (
            u64,
            bool,
            String,
            bool,
            Option<usize>,
            Option<Bound<'a, PyAny>>,
            bool,
            Option<Bound<'a, PyAny>>,
            usize,
            u64,
            usize,
        );
        type Games = Vec<(u32, Vec<u8>, Vec<crate::convert::PickledPlayer>)>;
        let (num_envs, config, made, games): (usize, PyConfig, Made<'_>, (Vec<u64>, Vec<bool>, u64, u64, bool, Games)) =
            state.extract()?;
        let (seed, copy, obs_type, egocentric, view, dtype, action_mask, opponent, seat, time_ms, map_pool) = made;
        let config_obj = Bound::new(py, config)?;
        let mut env = PyGameBatch::new(
            py,
            num_envs,
            Some(config_obj.borrow()),
            seed,
            copy,
            &obs_type,
            egocentric,
            view,
            dtype.as_ref(),
            action_mask,
            opponent.as_ref(),
            seat,
            time_ms,
            map_pool,
        )?;
        let (seeds, done, base_seed, started, untouched, games) = games;
        if seeds.len() != num_envs || done.len() != num_envs || games.len() != num_envs {
            return Err(PyValueError::new_err("a VectorEnv state holds one seed, flag and game per env"));
        }
        env.base_seed = base_seed;
        for (i, (tick, grid, players)) in games.into_iter().enumerate() {
            let players = crate::convert::unpickled_players(players)?;
            let grid = grid.into_iter().map(|v| v as i8).collect();
            let position = Position { config: env.config, tick, grid, players };
            env.games[i] = FastGame::from_position(&position).map_err(value_error)?;
            env.cells.rocks[i] = rock_cells(&map::generate(&env.config, seeds[i]).map_err(value_error)?);
            if let Some(factory) = &env.opponent {
                let n = env.config.players as usize;
                for seat in (0..n).filter(|&seat| seat != env.learner) {
                    let ctx = BotContext { game: i as u64, seat, players: n, seed: seeds[i] };
                    env.bots[i * n + seat] = Some(factory.create(&ctx).map_err(value_error)?);
                }
                env.positions[i] = position;
            }
        }
        env.seeds = seeds;
        env.done = done;
        env.started = started;
        env.untouched = untouched;
        env.rewrite(py)?;
        Ok(env)
    }

    /// The board of game `env` as it stands (height, width) int8, a copy:
    /// the values of obs["grid"], whatever the observations are.
    fn board<'py>(&self, py: Python<'py>, env: usize) -> PyResult<Bound<'py, PyArray2<i8>>> {
        if env >= self.games.len() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "env {env} does not exist: there are {}",
                self.games.len()
            )));
        }
        // From the game, not the grid array: with planes that is not kept.
        let game = &self.games[env];
        let (w, h) = (self.config.width as usize, self.config.height as usize);
        let cells: Vec<i8> = (0..w * h).map(|i| game.cell(Pos::new((i % w) as u8, (i / w) as u8))).collect();
        Ok(Array2::from_shape_vec((h, w), cells).expect("one cell per place").into_pyarray(py))
    }

    /// Game `env` as an RGB image, as `Game.rgb_array` draws one.
    #[pyo3(signature = (env, cell=8))]
    fn rgb_array<'py>(&self, py: Python<'py>, env: usize, cell: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let game = self.games.get(env).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("env {env} does not exist: there are {}", self.games.len()))
        })?;
        if !(1..=64).contains(&cell) {
            return Err(PyValueError::new_err(format!("cell is 1 to 64 pixels, not {cell}")));
        }
        Ok(obs::draw(game, cell).into_pyarray(py))
    }

    /// Whether each step returns fresh arrays (True) or the same read-only
    /// views, updated in place (False).
    #[getter]
    fn copy(&self) -> bool {
        self.copy
    }

    /// Starts every game again. With a seed, game i of this reset gets
    /// seed SEED+i and the games after them SEED+num_envs, …; without one,
    /// the games go on with the seeds not played yet (the env's own seeds
    /// before its first step). Returns
    /// (observations, infos), infos["seed"] the seed of each game.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        if let Some(seed) = seed {
            if seed != self.base_seed {
                // The pool's games are those of the old seed.
                self.pool.iter_mut().for_each(|slot| *slot = None);
            }
            self.base_seed = seed;
        }
        if seed.is_some() || self.untouched {
            self.started = 0;
        }
        self.untouched = false;
        for i in 0..self.games.len() {
            self.start(i)?;
        }
        let all: Vec<usize> = (0..self.games.len()).collect();
        self.write(py, &all)?;
        Ok((self.observations(py)?, self.seed_infos(py, &all)?))
    }

    /// One tick of every game: `actions` is an int array (num_envs,
    /// players), 0–3 for N, E, S, W and -1 for no move, all checked before
    /// any game moves. Returns (observations, rewards, terminations,
    /// truncations, infos): rewards (num_envs, players) are +1 for the
    /// winner, -1 for the others, 0 on a draw and while a game goes on. A
    /// game that ended on the last step is reset instead (its actions
    /// ignored; infos["seed"] and infos["_seed"] name the new games).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyDict>)>
    {
        let n = self.config.players as usize;
        let actions = actions.as_array();
        if actions.shape() != [self.games.len(), n] {
            return Err(PyValueError::new_err(format!(
                "actions have shape {:?}; expected ({}, {n})",
                actions.shape(),
                self.games.len()
            )));
        }
        // Every action is read before a game moves: a bad one leaves every
        // game as it was.
        for ((env, id), &code) in actions.indexed_iter() {
            self.actions[env * n + id] = match u32::try_from(code).ok().and_then(Dir::from_code) {
                Some(d) => Action::Move(d),
                None if code == -1 => Action::Keep,
                None => {
                    return Err(PyValueError::new_err(format!(
                        "action {code} of env {env}, player {id}: expected 0 to 3, or -1 for no move"
                    )))
                }
            };
        }
        self.untouched = false;
        if self.opponent.is_some() {
            // The bots' answers replace the actions of their seats.
            for (env, game) in self.games.iter().enumerate() {
                if self.done[env] {
                    continue;
                }
                let position = &self.positions[env];
                for (seat, bot) in self.bots[env * n..(env + 1) * n].iter_mut().enumerate() {
                    if let Some(bot) = bot {
                        self.actions[env * n + seat] = if game.player(seat).alive {
                            answer_of(&bot.answer(&Turn::with_game(position, seat, game), self.limit)).action()
                        } else {
                            Action::Keep
                        };
                    }
                }
            }
        }
        let fresh: Vec<usize> = (0..self.games.len()).filter(|&env| self.done[env]).collect();
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
            for (env, game) in self.games.iter_mut().enumerate() {
                if self.done[env] {
                    continue;
                }
                game.step(&self.actions[env * n..(env + 1) * n]).map_err(value_error)?;
                if let Some(position) = self.positions.get_mut(env) {
                    position.tick = game.tick();
                    for id in 0..n {
                        let p = game.player(id);
                        position.grid[p.pos.index(self.config.width)] = game.cell(p.pos);
                        position.players[id] = p;
                    }
                }
                if let Some(outcome) = game.outcome() {
                    if let Some(w) = outcome.winner {
                        for id in 0..n {
                            rewards[[env, id]] = if id == w { 1.0 } else { -1.0 };
                        }
                    }
                    let at_cap = outcome.draw && outcome.eliminated_at.iter().any(Option::is_none);
                    terminations[env] = !at_cap;
                    truncations[env] = at_cap;
                    self.done[env] = true;
                }
            }
        }
        for &env in &fresh {
            self.start(env)?;
        }
        self.write(py, &fresh)?;
        // Rewards and flags are fresh each step whatever `copy` says, as
        // Gymnasium's own vector envs have them: wrappers write into them.
        Ok((
            self.observations(py)?,
            self.rewards.bind(py).call_method0("copy")?,
            self.terminations.bind(py).call_method0("copy")?,
            self.truncations.bind(py).call_method0("copy")?,
            self.seed_infos(py, &fresh)?,
        ))
    }
}
