//! `lightcycles.Game`: the fast engine (`FastGame`), its space helpers, and
//! `generate_map`.

use lightcycles_core::defaults;
use lightcycles_core::observation::{Observation, PlayerView};
use lightcycles_core::space::{self, Scratch};
use lightcycles_core::{
    map, Action, Answer, Config, Engine, FastGame, FaultKind, FaultPolicy, GameError, MapFile, Pos, Position,
};
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::config::{value_error, PyConfig};
use crate::convert;
use crate::obs;

/// A game on the fast engine: bitboards, cheap to copy, proven equal to
/// the rule book's reference engine frame for frame.
///
/// Game(config=None, seed=0) is the seeded game of the rule book (the map
/// of `lightcycles map --seed SEED`).
#[pyclass(name = "Game", module = "lightcycles")]
pub struct PyGame {
    pub(crate) game: FastGame,
    scratch: Scratch,
    /// What `Replay.record` needs, in a game made with `record=True`.
    pub(crate) history: Option<History>,
}

/// Where a recorded game started and every answer since: enough to record
/// the replay the CLI would have written.
#[derive(Clone)]
pub(crate) struct History {
    pub(crate) origin: Start,
    pub(crate) answers: Vec<Vec<Answer>>,
}

/// The start of a recorded game.
#[derive(Clone)]
pub(crate) enum Start {
    /// The seeded map of this seed.
    Seed(u64),
    /// This 2010 map file.
    MapFile(String),
}

impl PyGame {
    pub(crate) fn of(game: FastGame) -> PyGame {
        let scratch = Scratch::for_game(&game);
        PyGame { game, scratch, history: None }
    }

    fn recorded(game: FastGame, record: bool, origin: Start) -> PyGame {
        let mut made = PyGame::of(game);
        made.history = record.then_some(History { origin, answers: Vec::new() });
        made
    }

    fn player_id(&self, player: usize) -> PyResult<usize> {
        if player < self.game.num_players() {
            Ok(player)
        } else {
            Err(PyIndexError::new_err(format!(
                "player {player} does not exist: this game has players 0 to {}",
                self.game.num_players() - 1
            )))
        }
    }
}

fn game_error(e: GameError) -> PyErr {
    value_error(e)
}

fn policy(name: &str) -> PyResult<FaultPolicy> {
    name.parse::<FaultPolicy>().map_err(value_error)
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (config=None, seed=0, record=false))]
    fn new(config: Option<PyRef<'_, PyConfig>>, seed: u64, record: bool) -> PyResult<PyGame> {
        let config = PyConfig::or_default(config);
        let game = FastGame::seeded(&config, seed).map_err(game_error)?;
        Ok(PyGame::recorded(game, record, Start::Seed(seed)))
    }

    /// A game on a map of the 2010 Google AI Challenge (its text), for two
    /// players.
    #[staticmethod]
    #[pyo3(signature = (text, max_ticks=defaults::MAX_TICKS, fault_policy=defaults::FAULT_POLICY.as_str(), record=false))]
    fn from_map(text: &str, max_ticks: u32, fault_policy: &str, record: bool) -> PyResult<PyGame> {
        let file = MapFile::parse(text.to_string()).map_err(value_error)?;
        let config = file.config(max_ticks, policy(fault_policy)?);
        config.validate().map_err(value_error)?;
        let game = FastGame::from_map(&config, &file.map).map_err(game_error)?;
        Ok(PyGame::recorded(game, record, Start::MapFile(file.text)))
    }

    /// The game a CodeClash observation dict shows, to search from.
    #[staticmethod]
    #[pyo3(signature = (obs, fault_policy=defaults::FAULT_POLICY.as_str()))]
    fn from_observation(obs: &Bound<'_, PyAny>, fault_policy: &str) -> PyResult<PyGame> {
        let text = convert::to_json(obs)?;
        let obs: Observation =
            serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("not an observation: {e}")))?;
        let position = obs.to_position(policy(fault_policy)?).map_err(value_error)?;
        Ok(PyGame::of(FastGame::from_position(&position).map_err(game_error)?))
    }

    /// Plays one tick: one move per player ("N", "E", "S", "W", an int 0–3,
    /// or None for no move; any other string is an invalid line), and
    /// optionally one fault per player (None, "invalid", "timeout",
    /// "crash", as in a replay's faults). Raises GameOver when the game is
    /// over.
    #[pyo3(signature = (moves, faults=None))]
    pub(crate) fn step(&mut self, moves: &Bound<'_, PyAny>, faults: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let n = self.game.num_players();
        let count = moves.len()?;
        if count != n {
            return Err(PyValueError::new_err(format!("{count} moves for {n} players: give one move per player")));
        }
        if let Some(f) = faults {
            let got = f.len()?;
            if got != n {
                return Err(PyValueError::new_err(format!("{got} faults for {n} players: give one per player")));
            }
        }
        let mut actions = [Action::Keep; lightcycles_core::config::MAX_PLAYERS];
        let mut answers = Vec::new();
        let list = moves.cast::<PyList>().ok();
        for (i, action) in actions.iter_mut().enumerate().take(n) {
            let fault = match faults {
                Some(f) => convert::fault(&f.get_item(i)?)?,
                None => None,
            };
            let mv = match list {
                Some(list) => list.get_item(i)?,
                None => moves.get_item(i)?,
            };
            *action = if self.history.is_some() {
                let answer = convert::answer(&mv, fault)?;
                let action = answer.action();
                answers.push(answer);
                action
            } else {
                convert::action(&mv, fault)?
            };
        }
        self.game.step(&actions[..n]).map_err(crate::errors::step_error)?;
        if let Some(history) = &mut self.history {
            history.answers.push(answers);
        }
        Ok(())
    }

    /// Ticks played so far.
    #[getter]
    fn tick(&self) -> u32 {
        self.game.tick()
    }

    /// Whether the game has ended.
    #[getter]
    pub(crate) fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The id of the winner, or None (a draw, or the game goes on).
    #[getter]
    pub(crate) fn winner(&self) -> Option<usize> {
        self.game.outcome().and_then(|o| o.winner)
    }

    /// How the game ended: winner, draw, ticks, placements, eliminated_at
    /// and trails per player; None while it goes on.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.game.outcome().map(|o| convert::outcome_dict(py, o)).transpose()
    }

    /// The number of players.
    #[getter]
    pub(crate) fn num_players(&self) -> usize {
        self.game.num_players()
    }

    /// The configuration.
    #[getter]
    fn config(&self) -> PyConfig {
        PyConfig { inner: *self.game.config() }
    }

    /// The players as the observation shows them: id, x, y, dir, alive.
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let players = (0..self.game.num_players())
            .map(|id| {
                let p = self.game.player(id);
                let view = PlayerView { id, x: p.pos.x as u32, y: p.pos.y as u32, dir: p.dir, alive: p.alive };
                convert::player_dict(py, &view)
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, players)
    }

    /// Whether each player still rides, by id: `players` without the
    /// rest, for loops that ask every tick.
    #[getter]
    pub(crate) fn alive(&self) -> Vec<bool> {
        (0..self.game.num_players()).map(|id| self.game.is_alive(id)).collect()
    }

    /// Exactly the dict a CodeClash `get_move(obs)` receives for player
    /// `you` before the next tick (the host's JSON).
    fn observation<'py>(&self, py: Python<'py>, you: usize) -> PyResult<Bound<'py, PyDict>> {
        let you = self.player_id(you)?;
        convert::observation_dict(py, &Observation::new(&self.game, you))
    }

    /// The board as a numpy int8 array (height, width): -1 empty, -2 rock,
    /// a player's id on its trail and head; the values of obs["grid"].
    fn grid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let c = self.game.config();
        let cells: Vec<i8> = (0..c.height)
            .flat_map(|y| (0..c.width).map(move |x| (x, y)))
            .map(|(x, y)| self.game.cell(Pos::new(x as u8, y as u8)))
            .collect();
        PyArray1::from_vec(py, cells).reshape([c.height as usize, c.width as usize])
    }

    /// The planes of player `you` (5, rows, columns), int8 or float32:
    /// own trail, other trails, walls, heads, the cells behind the heads
    /// (lightcycles.env.PLANES). egocentric=True centres them on the
    /// player's head and turns them so that its heading is up, in a square
    /// of side 2 * view + 1 (view None: the whole board from any cell).
    #[pyo3(signature = (you, egocentric=false, view=None, dtype=None))]
    pub(crate) fn planes<'py>(
        &self,
        py: Python<'py>,
        you: usize,
        egocentric: bool,
        view: Option<usize>,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let id = self.player_id(you)?;
        let c = self.game.config();
        let view = obs::View::new(egocentric, view, c.width, c.height)?;
        let (rows, cols) = view.shape(c.width, c.height);
        let dtype = dtype.map(obs::Dtype::from_py).transpose()?.unwrap_or(obs::Dtype::I8);
        Ok(match dtype {
            obs::Dtype::I8 => {
                let mut out = Array3::<i8>::zeros((obs::PLANES, rows, cols));
                obs::write_planes(&self.game, id, view, &mut out.view_mut());
                out.into_pyarray(py).into_any()
            }
            obs::Dtype::F32 => {
                let mut out = Array3::<f32>::zeros((obs::PLANES, rows, cols));
                obs::write_planes(&self.game, id, view, &mut out.view_mut());
                out.into_pyarray(py).into_any()
            }
        })
    }

    /// The board as an RGB image (height * cell, width * cell, 3) uint8,
    /// for `render_mode="rgb_array"`: each trail in its player's colour,
    /// living heads brighter, rocks grey.
    #[pyo3(signature = (cell=8))]
    fn rgb_array<'py>(&self, py: Python<'py>, cell: usize) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        if !(1..=64).contains(&cell) {
            return Err(PyValueError::new_err(format!("cell is 1 to 64 pixels, not {cell}")));
        }
        Ok(obs::draw(&self.game, cell).into_pyarray(py))
    }

    /// The action mask of player `you`: four int8 (N, E, S, W), 1 for the
    /// moves that do not crash at once; all four when none is safe or the
    /// player is out (a masked policy always has a move).
    fn action_mask<'py>(&self, py: Python<'py>, you: usize) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let id = self.player_id(you)?;
        Ok(PyArray1::from_slice(py, &obs::mask(&self.game, id)))
    }

    /// The value of one cell: -1 empty, -2 rock (and off the board), a
    /// player's id on its trail and head.
    fn cell(&self, x: i64, y: i64) -> i8 {
        match (u8::try_from(x), u8::try_from(y)) {
            (Ok(x), Ok(y)) => self.game.cell(Pos::new(x, y)),
            _ => lightcycles_core::ROCK,
        }
    }

    /// A copy of this game (with its record, when it keeps one).
    fn clone(&self) -> PyGame {
        let mut copy = PyGame::of(self.game.clone());
        copy.history = self.history.clone();
        copy
    }

    /// Pickles as its position (board, players, tick) and its record:
    /// `Game._from_state` makes the same game again, record and all.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        let this = slf.borrow();
        let position = this.game.position();
        let players: Vec<crate::convert::PickledPlayer> =
            position.players.iter().map(crate::convert::pickled_player).collect();
        let grid: Vec<u8> = position.grid.iter().map(|&v| v as u8).collect();
        let history = match &this.history {
            None => py.None().into_bound(py),
            Some(h) => {
                let origin = match &h.origin {
                    Start::Seed(seed) => ("seed", seed.into_pyobject(py)?.into_any()),
                    Start::MapFile(text) => ("map", text.into_pyobject(py)?.into_any()),
                };
                let answers: Vec<Vec<(Option<String>, Option<&'static str>)>> = h
                    .answers
                    .iter()
                    .map(|tick| tick.iter().map(|a| (a.line.clone(), a.fault.map(|f| f.as_str()))).collect())
                    .collect();
                (origin, answers).into_pyobject(py)?.into_any()
            }
        };
        let config = PyConfig { inner: position.config };
        let state = (config, position.tick, pyo3::types::PyBytes::new(py, &grid), players, history);
        let make = slf.get_type().getattr("_from_state")?;
        Ok((make, (state.into_pyobject(py)?.into_any(),)))
    }

    /// The game a pickled state holds (what `__reduce__` gives).
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _from_state(
        state: (
            PyConfig,
            u32,
            Vec<u8>,
            Vec<crate::convert::PickledPlayer>,
            Option<((String, Bound<'_, PyAny>), Vec<Vec<(Option<String>, Option<String>)>>)>,
        ),
    ) -> PyResult<PyGame> {
        let (config, tick, grid, players, history) = state;
        let players = crate::convert::unpickled_players(players)?;
        let grid = grid.into_iter().map(|v| v as i8).collect();
        let position = Position { config: config.inner, tick, grid, players };
        let mut game = PyGame::of(FastGame::from_position(&position).map_err(game_error)?);
        if let Some(((kind, value), answers)) = history {
            let origin = match kind.as_str() {
                "seed" => Start::Seed(value.extract()?),
                "map" => Start::MapFile(value.extract()?),
                _ => return Err(PyValueError::new_err(format!("a game starts from a seed or a map, not {kind:?}"))),
            };
            let answers = answers
                .into_iter()
                .map(|tick| {
                    tick.into_iter()
                        .map(|(line, fault)| {
                            let fault = fault
                                .map(|f| {
                                    f.parse::<FaultKind>().map_err(|_| PyValueError::new_err(format!("no fault {f:?}")))
                                })
                                .transpose()?;
                            Ok(Answer { line, fault })
                        })
                        .collect::<PyResult<Vec<_>>>()
                })
                .collect::<PyResult<Vec<_>>>()?;
            game.history = Some(History { origin, answers });
        }
        Ok(game)
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// Makes this game a copy of `other` without allocating when both have
    /// the same board size.
    fn copy_from(&mut self, other: PyRef<'_, PyGame>) {
        self.game.copy_from(&other.game);
        self.history.clone_from(&other.history);
    }

    /// The number of free cells player `player`'s head can reach.
    fn reachable(&mut self, player: usize) -> PyResult<u32> {
        let id = self.player_id(player)?;
        Ok(space::reachable_with(&self.game, self.game.head(id), &mut self.scratch))
    }

    /// The Voronoi split: for each player, the free cells it reaches
    /// strictly first (ties to nobody).
    fn voronoi(&mut self) -> Vec<u32> {
        let split = space::voronoi_with(&self.game, &mut self.scratch);
        split.counts[..self.game.num_players()].to_vec()
    }

    /// Whether no free path joins two living heads.
    fn separated(&mut self) -> bool {
        space::separated_with(&self.game, &mut self.scratch)
    }

    /// The moves of player `player` that do not crash at once (off the
    /// board, into something solid, or the reversal into the neck).
    fn safe_moves<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyList>> {
        let id = self.player_id(player)?;
        let moves: Vec<&str> = space::safe_moves(&self.game, id).iter().map(|d| d.as_str()).collect();
        PyList::new(py, moves)
    }

    fn __repr__(&self) -> String {
        let c = self.game.config();
        format!("<lightcycles.Game {}×{}, {} players, tick {}>", c.width, c.height, c.players, self.game.tick())
    }
}

/// The seeded map of the rule book: width, height, rocks and starts, the
/// dict of `lightcycles map --json`.
#[pyfunction]
#[pyo3(signature = (seed, config=None))]
pub fn generate_map<'py>(
    py: Python<'py>,
    seed: u64,
    config: Option<PyRef<'_, PyConfig>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config: Config = PyConfig::or_default(config);
    let map = map::generate(&config, seed).map_err(value_error)?;
    convert::from_json(py, &map::to_json(&map))
}
