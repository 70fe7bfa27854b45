//! `lightcycles.play`: the host's match loop, in process, the GIL released
//! while Rust plays. A bot is
//! a spec string (anything the CLI takes) or a Python callable
//! `get_move(obs) -> str`, called with the host's time limit.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lightcycles_core::observation::PlayerView;
use lightcycles_core::{defaults, Config, FastGame};
use lightcycles_host::bot::adapter::plugin::isolated::PLUGIN_HOST_ENV;
use lightcycles_host::bot::adapter::Hosting;
use lightcycles_host::bot::process::log::{LogPlace, LOGS_DIR};
use lightcycles_host::bot::spec::{self, BotSpec, Entrant};
use lightcycles_host::bot::{Bot, BotContext, BotError, BotFactory, Reply, Turn};
use lightcycles_host::game::match_loop::Limits;
use lightcycles_host::game::report::{self, Tally};
use lightcycles_host::game::run::{self, GameOptions, GameSummary, Rounds, RunError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::config::{value_error, PyConfig};
use crate::convert;
use crate::deadline;

/// A Python callable as a bot: made per game and seat, called once per
/// tick with the observation dict.
struct CallableFactory {
    func: Py<PyAny>,
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
fn callable_name(func: &Bound<'_, PyAny>) -> String {
    let name: String = func.getattr("__name__").and_then(|n| n.extract()).unwrap_or_else(|_| "python".to_string());
    let plain: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }).collect();
    if plain.is_empty() {
        "python".to_string()
    } else {
        plain
    }
}

/// The entrants of a run: spec strings through the host's registry,
/// callables as in-process bots, for games of `players`; names made unique
/// as the CLI makes them. Also the specs as the results header records them.
pub(crate) fn entrants(
    bots: &[Bound<'_, PyAny>],
    players: usize,
    log_dir: Option<&std::path::Path>,
    hosting: &Hosting,
) -> PyResult<(Vec<Entrant>, Vec<String>)> {
    enum Made {
        Spec(BotSpec),
        Callable(Py<PyAny>),
    }
    let mut made = Vec::with_capacity(bots.len());
    let mut bases = Vec::with_capacity(bots.len());
    for bot in bots {
        if let Ok(text) = bot.cast::<PyString>() {
            let spec = BotSpec::parse(&text.extract::<String>()?).map_err(value_error)?;
            bases.push(spec.declared_or_base_name(hosting));
            made.push(Made::Spec(spec));
        } else if bot.is_callable() {
            bases.push(callable_name(bot));
            made.push(Made::Callable(bot.clone().unbind()));
        } else {
            return Err(PyValueError::new_err(format!(
                "a bot is a spec string or a callable get_move(obs) -> str, not {}",
                bot.get_type().name()?
            )));
        }
    }
    let specs_given: Vec<BotSpec> =
        made.iter().filter_map(|m| if let Made::Spec(s) = m { Some(s.clone()) } else { None }).collect();
    check_isolation(hosting, &specs_given)?;
    let names = spec::unique_names(bases);
    let mut entrants = Vec::with_capacity(made.len());
    let mut specs = Vec::with_capacity(made.len());
    for (made, name) in made.into_iter().zip(names) {
        let (factory, spec): (Arc<dyn BotFactory>, String) = match made {
            Made::Spec(spec) => {
                spec.check_players(players).map_err(PyValueError::new_err)?;
                let log = log_dir.map(|dir| LogPlace { dir: dir.to_path_buf(), name: name.clone() });
                (spec.factory(log, hosting).map_err(value_error)?, spec.arg.clone())
            }
            Made::Callable(func) => (Arc::new(CallableFactory { func }), format!("python:{name}")),
        };
        entrants.push(Entrant { name, factory });
        specs.push(spec);
    }
    Ok((entrants, specs))
}

/// How native plugins are hosted: in process, or isolated in a child of
/// the `lightcycles` binary, which a Python process is not: it must be
/// named by `LIGHTCYCLES_PLUGIN_HOST`.
pub(crate) fn hosting(isolate: bool) -> Hosting {
    Hosting { isolate, ..Hosting::default() }
}

/// Refuses isolated plugins when nothing can host them.
fn check_isolation(hosting: &Hosting, specs: &[BotSpec]) -> PyResult<()> {
    if hosting.isolate && specs.iter().any(|s| s.adapter.isolatable()) && std::env::var_os(PLUGIN_HOST_ENV).is_none() {
        return Err(PyValueError::new_err(format!(
            "isolated plugins run in a child of the lightcycles binary: set {PLUGIN_HOST_ENV}=path/to/lightcycles, \
             or pass isolate=False to load them into this process"
        )));
    }
    Ok(())
}

/// The configuration of a run of `players` bots: the one given (its
/// player count must match) or the default.
pub(crate) fn run_config(config: Option<PyRef<'_, PyConfig>>, players: usize) -> PyResult<Config> {
    let config = match config {
        Some(c) if c.inner.players as usize != players => {
            return Err(PyValueError::new_err(format!(
                "config has {} players, but {players} bots were given",
                c.inner.players
            )))
        }
        Some(c) => c.inner,
        None => Config { players: players as u32, ..Config::default() },
    };
    config.validate().map_err(value_error)?;
    Ok(config)
}

pub(crate) fn limits(time_first_ms: u64, time_ms: u64) -> PyResult<Limits> {
    if time_first_ms == 0 || time_ms == 0 {
        return Err(PyValueError::new_err("time limits are at least 1 ms"));
    }
    Ok(Limits { first: Duration::from_millis(time_first_ms), rest: Duration::from_millis(time_ms) })
}

/// The replay folder, made when it is missing.
pub(crate) fn made_dir(dir: Option<PathBuf>) -> PyResult<Option<PathBuf>> {
    if let Some(dir) = &dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            PyValueError::new_err(format!("out_dir {}: cannot create the directory: {e}", dir.display()))
        })?;
    }
    Ok(dir)
}

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
    fn of(py: Python<'_>, g: &GameSummary) -> PyResult<GameResult> {
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
    names: Vec<String>,
    /// Games won, by bot (in the order given).
    wins: Vec<u64>,
    /// Games no one won.
    draws: u64,
    /// Every game, in game order.
    games: Vec<Py<GameResult>>,
    /// The FINAL_RESULTS block, as `lightcycles play` prints it.
    final_results: String,
}

#[pymethods]
impl PlayResult {
    fn __repr__(&self) -> String {
        format!("PlayResult(names={:?}, wins={:?}, draws={})", self.names, self.wins, self.draws)
    }
}

/// Runs `f` (a run of games) on a thread of its own with the GIL released,
/// while this thread, the caller's, looks for signals every few
/// milliseconds: a Ctrl-C stops the run at the next finished game
/// ([`check_signals`]) and raises KeyboardInterrupt. Callable bots so never
/// run on the main thread, where Python delivers signals.
pub(crate) fn interruptible<T: Send, E: Send + std::fmt::Display>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, E> + Send,
) -> PyResult<T> {
    STOP.store(false, Ordering::SeqCst);
    let mut signalled = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let worker = scope.spawn(f);
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(10));
                if signalled.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        STOP.store(true, Ordering::SeqCst);
                        signalled = Some(e);
                    }
                }
            }
            worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    });
    if let Some(e) = signalled {
        return Err(e);
    }
    match result {
        Ok(t) => Ok(t),
        Err(_) if STOP.load(Ordering::SeqCst) => Err(PyKeyboardInterrupt::new_err("stopped by Ctrl-C")),
        Err(e) => Err(value_error(e)),
    }
}

const INTERRUPTED: &str = "interrupted";

/// Set when the caller's thread saw a signal during a run.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the run is to stop (a Ctrl-C): checked between games.
pub(crate) fn check_signals() -> Result<(), RunError> {
    if STOP.load(Ordering::SeqCst) {
        Err(RunError::Report(INTERRUPTED.to_string()))
    } else {
        Ok(())
    }
}

/// Plays ROUNDS seeded games between the bots, as `lightcycles play` does:
/// game g with seed SEED+g (with swap, each round twice, seats reversed),
/// jobs games at once, replays to out_dir. A bot is a spec string
/// ("builtin:search", "path/main.py", "cmd:…", a plugin) or a callable
/// get_move(obs) -> str, called with the host's time limits (a late,
/// raising or invalid answer is a fault, as for every bot).
#[pyfunction]
#[pyo3(signature = (bots, rounds=10, seed=0, swap=false, jobs=1, out_dir=None, time_ms=defaults::TIME_MS, time_first_ms=defaults::TIME_FIRST_MS, config=None, isolate=false))]
#[allow(clippy::too_many_arguments)]
pub fn play(
    py: Python<'_>,
    bots: Vec<Bound<'_, PyAny>>,
    rounds: u64,
    seed: u64,
    swap: bool,
    jobs: usize,
    out_dir: Option<PathBuf>,
    time_ms: u64,
    time_first_ms: u64,
    config: Option<PyRef<'_, PyConfig>>,
    isolate: bool,
) -> PyResult<PlayResult> {
    if rounds == 0 || jobs == 0 {
        return Err(PyValueError::new_err("rounds and jobs are at least 1"));
    }
    let config = run_config(config, bots.len())?;
    let out_dir = made_dir(out_dir)?;
    let log_dir = out_dir.as_ref().map(|d| d.join(LOGS_DIR));
    let (entrants, _specs) = entrants(&bots, bots.len(), log_dir.as_deref(), &hosting(isolate))?;
    let options = GameOptions::new(config, None, limits(time_first_ms, time_ms)?, out_dir);
    let rounds = Rounds { rounds, base_seed: seed, swap };
    let mut summaries = Vec::new();
    interruptible(py, || {
        run::run::<FastGame>(&entrants, &options, &rounds, jobs, |game| {
            check_signals()?;
            summaries.push(game.clone());
            Ok(())
        })
    })?;
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(entrants.len());
    let mut games = Vec::with_capacity(summaries.len());
    for g in &summaries {
        tally.add(g);
        games.push(Py::new(py, GameResult::of(py, g)?)?);
    }
    let final_results = report::final_results(&tally, &names);
    Ok(PlayResult { names, wins: tally.wins, draws: tally.draws, games, final_results })
}
