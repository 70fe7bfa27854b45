//! `lightcycles.SearchState`: the core's lean search state (`SearchState`,
//! boards up to 64 × 64, a fixed-size value with no owner planes) for the
//! inner loop of a search: copy, step, flood fills.

use lightcycles_core::observation::PlayerView;
use lightcycles_core::search_state::SearchState;
use lightcycles_core::space::lean;
use lightcycles_core::{Action, CellValue, Engine, FastGame, Pos, Position, EMPTY, ROCK};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::config::{value_error, PyConfig};
use crate::convert;
use crate::game::PyGame;

/// A lean copy of a game for search: the same rules as Game on boards up
/// to 64 × 64, copied without allocation, stepped faster; it knows whether
/// a cell is empty, not whose trail fills it (keep the Game for that).
///
/// SearchState(game) copies the game's board, players and tick; a board
/// wider or higher than 64 raises ValueError.
#[pyclass(name = "SearchState", module = "lightcycles")]
#[derive(Clone)]
pub struct PySearchState {
    state: SearchState,
}

impl PySearchState {
    fn player_id(&self, player: usize) -> PyResult<usize> {
        let n = self.state.num_players();
        if player < n {
            Ok(player)
        } else {
            Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "player {player} does not exist: the game has {n} players"
            )))
        }
    }
}

#[pymethods]
impl PySearchState {
    #[new]
    fn new(game: PyRef<'_, PyGame>) -> PyResult<PySearchState> {
        SearchState::from_game(&game.game).map(|state| PySearchState { state }).map_err(value_error)
    }

    /// Plays one tick, as Game.step: one move per player ("N", "E", "S",
    /// "W", or None for no move; any other string is an invalid line), and
    /// optionally one fault per player. Raises GameOver when the game is
    /// over.
    #[pyo3(signature = (moves, faults=None))]
    fn step(&mut self, moves: &Bound<'_, PyAny>, faults: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let n = self.state.num_players();
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
        for (i, action) in actions.iter_mut().enumerate().take(n) {
            let fault = match faults {
                Some(f) => convert::fault(&f.get_item(i)?)?,
                None => None,
            };
            *action = convert::action(&moves.get_item(i)?, fault)?;
        }
        self.state.step(&actions[..n]).map_err(crate::errors::step_error)
    }

    /// A copy of this state.
    fn clone(&self) -> PySearchState {
        self.clone_state()
    }

    fn __copy__(&self) -> PySearchState {
        self.clone_state()
    }

    /// Pickles as its board (which cells are solid), players and tick:
    /// `SearchState._from_state` makes the same state again.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        let this = slf.borrow();
        let state = &this.state;
        let c = *state.config();
        let solid: Vec<u8> = (0..c.height)
            .flat_map(|y| (0..c.width).map(move |x| Pos::new(x as u8, y as u8)))
            .map(|pos| u8::from(!state.cell_is_empty(pos)))
            .collect();
        let players: Vec<crate::convert::PickledPlayer> =
            (0..state.num_players()).map(|id| crate::convert::pickled_player(&state.player(id))).collect();
        let out = (PyConfig { inner: c }, state.tick(), pyo3::types::PyBytes::new(py, &solid), players);
        Ok((slf.get_type().getattr("_from_state")?, (out.into_pyobject(py)?.into_any(),)))
    }

    /// The state a pickle holds. A search state knows which cells are
    /// solid, not whose trail fills them: the game it is made from gives
    /// each player its head and as many other solid cells as its trail
    /// holds (the rest are rocks), which the state does not tell apart.
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _from_state(state: (PyConfig, u32, Vec<u8>, Vec<crate::convert::PickledPlayer>)) -> PyResult<PySearchState> {
        let (config, tick, solid, players) = state;
        let c = config.inner;
        if solid.len() != c.cells() {
            return Err(PyValueError::new_err(format!("{} cells for a board of {}", solid.len(), c.cells())));
        }
        let players = crate::convert::unpickled_players(players)?;
        let mut grid: Vec<CellValue> = solid.iter().map(|&v| if v != 0 { ROCK } else { EMPTY }).collect();
        let w = c.width;
        let mut left: Vec<u32> = players.iter().map(|p| p.trail.saturating_sub(1)).collect();
        for (id, p) in players.iter().enumerate() {
            if let Some(cell) = grid.get_mut(p.pos.index(w)) {
                *cell = id as CellValue;
            }
        }
        let mut id = 0;
        for cell in grid.iter_mut().filter(|cell| **cell == ROCK) {
            while id < left.len() && left[id] == 0 {
                id += 1;
            }
            if id == left.len() {
                break;
            }
            *cell = id as CellValue;
            left[id] -= 1;
        }
        let position = Position { config: c, tick, grid, players };
        let game = FastGame::from_position(&position).map_err(value_error)?;
        SearchState::from_game(&game).map(|state| PySearchState { state }).map_err(value_error)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PySearchState {
        self.clone_state()
    }

    /// Makes this state a copy of `other` (any board up to 64 × 64).
    fn copy_from(&mut self, other: PyRef<'_, PySearchState>) {
        self.state = other.state;
    }

    fn __eq__(&self, other: PyRef<'_, PySearchState>) -> bool {
        self.state == other.state
    }

    /// Ticks played so far.
    #[getter]
    fn tick(&self) -> u32 {
        self.state.tick()
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The id of the winner, or None (a draw, or the game goes on).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.state.outcome().and_then(|o| o.winner)
    }

    /// The number of players.
    #[getter]
    fn num_players(&self) -> usize {
        self.state.num_players()
    }

    /// The players as Game.players shows them: id, x, y, dir, alive.
    #[getter]
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let players = (0..self.state.num_players())
            .map(|id| {
                let p = self.state.player(id);
                let view = PlayerView { id, x: p.pos.x as u32, y: p.pos.y as u32, dir: p.dir, alive: p.alive };
                convert::player_dict(py, &view)
            })
            .collect::<PyResult<Vec<Bound<'py, PyDict>>>>()?;
        PyList::new(py, players)
    }

    /// Whether cell (x, y) is empty; off the board is a wall (False).
    fn is_empty(&self, x: i64, y: i64) -> bool {
        match (u8::try_from(x), u8::try_from(y)) {
            (Ok(x), Ok(y)) => self.state.cell_is_empty(lightcycles_core::Pos::new(x, y)),
            _ => false,
        }
    }

    /// The number of free cells player `player`'s head can reach (as
    /// Game.reachable).
    fn reachable(&self, player: usize) -> PyResult<u32> {
        let id = self.player_id(player)?;
        Ok(lean::reachable(&self.state, self.state.head(id)))
    }

    /// The Voronoi split, as Game.voronoi: for each player, the free cells
    /// it reaches strictly first.
    fn voronoi(&self) -> Vec<u32> {
        lean::voronoi(&self.state).counts[..self.state.num_players()].to_vec()
    }

    /// The moves of player `player` that do not crash at once (as
    /// Game.safe_moves).
    fn safe_moves<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyList>> {
        let id = self.player_id(player)?;
        let moves: Vec<&str> = lean::safe_moves(&self.state, id).iter().map(|d| d.as_str()).collect();
        PyList::new(py, moves)
    }

    fn __repr__(&self) -> String {
        let c = self.state.config();
        format!("<lightcycles.SearchState {}×{}, {} players, tick {}>", c.width, c.height, c.players, self.state.tick())
    }
}

impl PySearchState {
    fn clone_state(&self) -> PySearchState {
        PySearchState { state: self.state }
    }
}
