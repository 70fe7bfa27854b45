//! One tick of `lightcycles.env`'s PettingZoo `ParallelEnv` in one call:
//! the actions read, the game stepped, and the five dicts PettingZoo wants
//! built here, so that a step costs the interpreter one call rather than a
//! loop of its own (a ParallelEnv step was mostly that loop).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList};

use crate::game::PyGame;

/// The dicts of one step, then the agents still in the game.
type Step<'py> = (
    Bound<'py, PyDict>,
    Bound<'py, PyDict>,
    Bound<'py, PyDict>,
    Bound<'py, PyDict>,
    Bound<'py, PyDict>,
    Bound<'py, PyList>,
);

/// Plays one tick of `game` with `actions` ({agent: action}, each agent's
/// seat in `seats`) and returns (observations, rewards, terminations,
/// truncations, infos) for `agents` (those in the game before the tick),
/// and the agents still in it after. An agent that crashes gets -1 and is
/// terminated; at the end the winner gets +1 and the others -1 (0 each on a
/// draw), and a game stopped at the tick cap truncates those still riding.
/// Observations are `game.planes(seat, *plane_options)`, or
/// `observe(seat)` without plane options.
#[pyfunction]
#[pyo3(name = "_parallel_step", signature = (game, seats, agents, actions, observe, plane_options=None))]
pub(crate) fn parallel_step<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    seats: &Bound<'py, PyDict>,
    agents: &Bound<'py, PyList>,
    actions: &Bound<'py, PyDict>,
    observe: &Bound<'py, PyAny>,
    plane_options: Option<(bool, Option<usize>, Bound<'py, PyAny>)>,
) -> PyResult<Step<'py>> {
    let n = game.borrow().num_players();
    let seat_of = |agent: &Bound<'py, PyAny>| -> PyResult<usize> {
        match seats.get_item(agent)? {
            Some(seat) => seat.extract(),
            None => Err(PyValueError::new_err(format!(
                "{} is not an agent of this env: {}",
                agent.repr()?,
                seats.keys().str()?
            ))),
        }
    };
    let moves = PyList::new(py, (0..n).map(|_| py.None()))?;
    let int = py.get_type::<PyInt>();
    for (agent, action) in actions.iter() {
        moves.set_item(seat_of(&agent)?, int.call1((action,))?)?;
    }
    game.borrow_mut().step(moves.as_any(), None)?;
    let g = game.borrow();
    let alive = g.alive();
    let (over, winner) = (g.is_over(), g.winner());
    let at_cap = over && winner.is_none() && alive.iter().any(|&a| a);
    let (observations, rewards, terminations, truncations, infos) =
        (PyDict::new(py), PyDict::new(py), PyDict::new(py), PyDict::new(py), PyDict::new(py));
    let left = PyList::empty(py);
    for agent in agents.iter() {
        let i = seat_of(&agent)?;
        let reward = match (over, winner) {
            (true, None) => 0.0,
            (true, Some(w)) => {
                if w == i {
                    1.0
                } else {
                    -1.0
                }
            }
            (false, _) => {
                if alive[i] {
                    0.0
                } else {
                    -1.0
                }
            }
        };
        rewards.set_item(&agent, reward)?;
        terminations.set_item(&agent, (over && !at_cap) || !alive[i])?;
        truncations.set_item(&agent, at_cap && alive[i])?;
        let seen = match &plane_options {
            Some((egocentric, view, dtype)) => g.planes(py, i, *egocentric, *view, Some(dtype))?,
            None => observe.call1((i,))?,
        };
        observations.set_item(&agent, seen)?;
        infos.set_item(&agent, PyDict::new(py))?;
        if !over && alive[i] {
            left.append(&agent)?;
        }
    }
    Ok((observations, rewards, terminations, truncations, infos, left))
}
