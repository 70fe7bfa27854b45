//! `PATH.py`: a CodeClash bot, a `main.py` with `get_move(obs) -> str`, run
//! unchanged in a Python 3 process through an adapter script.
//!
//! The adapter ([`ADAPTER`], `python_adapter.py` beside this file) is part
//! of the binary and is handed to Python with `-c`, so the installed binary
//! works from any directory and never writes a file for it. The interpreter
//! is `python3` on the `PATH`, or the program named by `LIGHTCYCLES_PYTHON`.
//!
//! The host and the adapter speak on the descriptors that were the
//! process's stdin and stdout; the adapter moves them at once to
//! close-on-exec descriptors above 100, so the bot's `print`s and its
//! tracebacks go to its log (with stderr), never into the protocol, and no
//! program it starts inherits them. What it writes through `sys.stdout`
//! and `sys.stderr` is also captured in the process and sent with the next
//! answer (`said`, up to [`TICK_CAP`](crate::bot::said::TICK_CAP) bytes), so
//! it belongs to the tick it was written on, whatever the timing; what is
//! written to the descriptors themselves (a C extension, a program it
//! starts) goes to the log only. The bot shares the adapter's process,
//! so it can still find them in `/proc/self/fd`: what it writes there is
//! an answer only if it answers the request the host sent last, by number,
//! after it was sent (so it is no more than what `get_move` could return,
//! in the same time), and what it reads there it takes from its own
//! adapter (its own ticks time out). Requests and answers carry a
//! number, so an answer that comes late is known by its number and thrown
//! away.
//!
//! Faults: a string that is no move is `invalid`; no answer in time is a
//! `timeout`; an exception raised by `get_move` is a `crash` of that tick
//! (the bot's code failed and gave no line at all, which is what a crash
//! is; the process lives on and is asked again next tick, as CodeClash
//! does); a main.py that cannot be loaded, has no `get_move`, or exits is a
//! `crash` on every tick from then on.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::bot::process::bot_process::BotProcess;
use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::process::numbered::{NumberedBot, PROTOCOL_LINE_CAP};
use crate::bot::process::sandbox::Sandbox;
use crate::bot::{Bot, BotContext, BotError, BotFactory};
use std::sync::Arc;

use crate::bot::adapter::base::{Adapter, Hosting};
use crate::bot::adapter::naming::{path_ending_in, path_name};
use crate::bot::spec_error::SpecError;

/// The adapter script, run by `python3 -c ADAPTER main.py`.
pub const ADAPTER: &str = include_str!("python_adapter.py");

/// The environment variable that names the Python 3 interpreter.
pub const PYTHON_ENV: &str = "LIGHTCYCLES_PYTHON";

/// The Python interpreter to run: `LIGHTCYCLES_PYTHON`, else `python3`.
pub fn interpreter() -> OsString {
    std::env::var_os(PYTHON_ENV).filter(|p| !p.is_empty()).unwrap_or_else(|| "python3".into())
}

/// Makes a bot for each game and seat: the adapter process running the
/// file, spoken to as a [`NumberedBot`].
///
/// From the second game on, the process of the next game is started while
/// the current one plays (a spare): a game then begins with an interpreter
/// that has started and loaded `main.py` already, in a process of its own,
/// so no module state passes from one game to the next. Its log is named
/// when it is given its game; what it wrote before (an import's `print`)
/// goes there then.
#[derive(Debug)]
pub struct PythonFactory {
    path: PathBuf,
    python: OsString,
    log: Option<LogPlace>,
    sandbox: Sandbox,
    env: Vec<(String, String)>,
    spare: Mutex<Option<BotProcess>>,
    made: AtomicU64,
}

impl PythonFactory {
    /// A factory for the bot in `path`, run under the limits of `sandbox`,
    /// checked once: the file must exist and the interpreter must be Python 3.
    pub fn new(path: &Path, log: Option<LogPlace>, sandbox: Sandbox) -> Result<PythonFactory, String> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => {}
            Ok(_) => return Err(format!("{} is not a file", path.display())),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
        let python = resolved_interpreter()?;
        Ok(PythonFactory {
            path: path.to_path_buf(),
            python,
            log,
            sandbox,
            env: Vec::new(),
            spare: Mutex::new(None),
            made: AtomicU64::new(0),
        })
    }

    /// The adapter process for `main.py`, its stderr to `log`.
    fn spawn(&self, log: BotLog) -> Result<BotProcess, BotError> {
        let mut command = Command::new(&self.python);
        command.arg("-c").arg(ADAPTER).arg(&self.path);
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        let what = self.path.display().to_string();
        // The adapter captures the bot's output itself, with each answer.
        BotProcess::spawn_with(command, &self.sandbox, PROTOCOL_LINE_CAP, log, &what, false)
    }

    /// The spare started ahead, if it is there and still running.
    fn take_spare(&self) -> Option<BotProcess> {
        let mut spare = self.spare.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()?;
        (!spare.is_gone()).then_some(spare)
    }

    /// Starts the spare for the next game, unless one is waiting already.
    fn start_spare(&self) {
        let mut slot = self.spare.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.is_none() {
            let log = if self.log.is_some() { BotLog::unplaced() } else { BotLog::discard() };
            *slot = self.spawn(log).ok();
        }
    }
}

/// The interpreter of [`interpreter`], checked and resolved once per host
/// process (every factory of a run, the probes' included, shares it).
fn resolved_interpreter() -> Result<OsString, String> {
    static RESOLVED: std::sync::OnceLock<(OsString, Result<OsString, String>)> = std::sync::OnceLock::new();
    let named = interpreter();
    let (first, resolved) = RESOLVED.get_or_init(|| (named.clone(), check_python3(&named)));
    // A process that changes LIGHTCYCLES_PYTHON as it goes (a test) gets
    // the interpreter it names now.
    if *first == named {
        resolved.clone()
    } else {
        check_python3(&named)
    }
}

/// Checks that `python` runs and is Python 3, and gives the interpreter it
/// runs (`sys.executable`): a `python3` found through a version manager's
/// shim (pyenv's costs some 50 ms a start) is resolved once per run, not
/// once per game.
fn check_python3(python: &OsString) -> Result<OsString, String> {
    let shown = python.to_string_lossy();
    let out = Command::new(python)
        .args(["-c", "import sys; print(sys.version_info[0]); print(sys.executable)"])
        .output()
        .map_err(|e| format!("cannot run {shown} for Python bots ({e}); set {PYTHON_ENV} to a Python 3 interpreter"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    if !out.status.success() || lines.next() != Some("3") {
        return Err(format!("{shown} is not a working Python 3; set {PYTHON_ENV} to a Python 3 interpreter"));
    }
    // An interpreter that cannot say where it is (embedded) is run as named.
    Ok(match lines.next().map(str::trim) {
        Some(path) if !path.is_empty() && Path::new(path).is_file() => OsString::from(path),
        _ => python.clone(),
    })
}

impl BotFactory for PythonFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        let earlier = self.made.fetch_add(1, Ordering::Relaxed);
        let process = match self.take_spare() {
            Some(process) => {
                if let Some(place) = &self.log {
                    process.log().place(place.path(ctx.game, ctx.seat));
                }
                process
            }
            None => self.spawn(BotLog::open(self.log.as_ref(), ctx.game, ctx.seat))?,
        };
        // A factory asked once (a probe, a one-game run) starts no spare.
        if earlier > 0 {
            self.start_spare();
        }
        Ok(Box::new(NumberedBot::new(process, false, "get_move raised ").with_deltas()))
    }
}

/// `PATH.py`.
pub struct PythonAdapter;

impl Adapter for PythonAdapter {
    fn form(&self) -> &'static str {
        "CodeClash Python bots (PATH.py)"
    }

    /// A path ending in `.py`, or a folder holding a `main.py` (the
    /// CodeClash layout, `p1/main.py`), whose target is that `main.py`.
    fn claim(&self, _arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        if let Some(path) = path_ending_in(form, &["py"]) {
            return Some(Ok(path));
        }
        let main = Path::new(form).join("main.py");
        (Path::new(form).is_dir() && main.is_file()).then(|| Ok(main.to_string_lossy().into_owned()))
    }

    /// The file's stem, or for a `main.py` its folder's name.
    fn default_name(&self, target: &str) -> String {
        path_name(Path::new(target)).unwrap_or_else(|| "python".to_string())
    }

    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        Ok(Arc::new(PythonFactory::new(Path::new(target), log, hosting.sandbox)?))
    }

    fn factory_with_env(
        &self,
        target: &str,
        log: Option<LogPlace>,
        hosting: &Hosting,
        env: &[(String, String)],
    ) -> Result<Arc<dyn BotFactory>, String> {
        let factory =
            PythonFactory { env: env.to_vec(), ..PythonFactory::new(Path::new(target), log, hosting.sandbox)? };
        Ok(Arc::new(factory))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Reply, Turn};
    use lightcycles_core::{Config, Engine, ReferenceGame};
    use std::time::Duration;

    fn bot_file(dir: &Path, body: &str) -> PathBuf {
        let path = dir.join("main.py");
        std::fs::write(&path, body).unwrap();
        path
    }

    fn play(body: &str, limits: &[u64]) -> (Vec<Reply>, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = bot_file(dir.path(), body);
        let place = LogPlace { dir: dir.path().join("logs"), name: "main".into() };
        let factory = PythonFactory::new(&path, Some(place.clone()), Sandbox::default()).unwrap();
        let mut bot = factory.create(&BotContext { game: 0, seat: 0, players: 2, seed: 0 }).unwrap();
        let mut game = ReferenceGame::seeded(&Config::default(), 9).unwrap();
        let mut replies = Vec::new();
        for &ms in limits {
            let position = game.position();
            replies.push(bot.answer(&Turn::new(&position, 0), Duration::from_millis(ms)));
            game.step(&[lightcycles_core::Action::Keep, lightcycles_core::Action::Keep]).unwrap();
        }
        drop(bot);
        let log = std::fs::read_to_string(place.path(0, 0)).unwrap_or_default();
        (replies, log)
    }

    fn line(s: &str) -> Reply {
        Reply::Line(s.as_bytes().to_vec())
    }

    #[test]
    fn get_move_answers_and_prints_go_to_the_log() {
        let (replies, log) = play(
            "import sys\ndef get_move(obs):\n    print('thinking', obs['tick'])\n    return 'NESW'[obs['tick'] % 4]\n",
            &[5000, 5000, 5000],
        );
        assert_eq!(replies, vec![line("E"), line("S"), line("W")]);
        assert!(log.contains("thinking 1\nthinking 2\nthinking 3\n"), "{log}");
    }

    #[test]
    fn an_exception_is_a_crash_of_its_tick_only() {
        let (replies, log) = play(
            "def get_move(obs):\n    if obs['tick'] == 2:\n        raise ValueError('bad tick')\n    return 'N'\n",
            &[5000, 5000, 5000],
        );
        assert_eq!(replies, vec![line("N"), Reply::Crash, line("N")]);
        assert!(log.contains("ValueError: bad tick"), "the traceback is in the log: {log}");
        assert!(log.contains("[lightcycles] tick 2: get_move raised ValueError: bad tick"), "{log}");
    }

    #[test]
    fn odd_returns_are_invalid_lines() {
        let (replies, _) = play(
            "def get_move(obs):\n    return [None, 'n', 7, 'x' * 5000][obs['tick'] - 1]\n",
            &[5000, 5000, 5000, 5000],
        );
        assert_eq!(replies[0], line("NoneType: None"));
        assert_eq!(replies[1], line("n"));
        assert_eq!(replies[2], line("int: 7"));
        assert_eq!(replies[3], Reply::Line(vec![b'x'; 1025]), "cut to one byte more than the rules read");
    }

    #[test]
    fn a_late_answer_is_thrown_away_by_its_number() {
        let (replies, _) = play(
            "import time\ndef get_move(obs):\n    if obs['tick'] == 2:\n        time.sleep(0.5)\n    return 'NESW'[obs['tick'] % 4]\n",
            &[5000, 100, 5000, 5000],
        );
        assert_eq!(replies, vec![line("E"), Reply::Timeout, line("W"), line("N")]);
    }

    #[test]
    fn a_bot_that_does_not_load_crashes_every_tick() {
        let (replies, log) = play("import no_such_module_here\n", &[5000, 5000]);
        assert_eq!(replies, vec![Reply::Crash, Reply::Crash]);
        assert!(log.contains("ModuleNotFoundError"), "{log}");
        let (replies, log) = play("def other(obs):\n    return 'N'\n", &[5000]);
        assert_eq!(replies, vec![Reply::Crash]);
        assert!(log.contains("has no get_move(obs) function"), "{log}");
    }

    #[test]
    fn the_bot_cannot_read_or_write_the_protocol_through_stdio() {
        let (replies, log) = play(
            "import sys\ndef get_move(obs):\n    sys.stdout.write('S\\n')\n    sys.stdout.flush()\n    return 'E' if sys.stdin.read() == '' else 'W'\n",
            &[5000, 5000],
        );
        assert_eq!(replies, vec![line("E"), line("E")]);
        assert!(log.contains("S\nS\n"), "{log}");
    }

    /// Every tick, `get_move` is given exactly the observation the whole
    /// JSON gives (key order and all), though after the first tick only
    /// what changed is sent: also after the bot scribbled on its dict, and
    /// after a tick it was too slow for (requests waited and were applied
    /// together).
    #[test]
    fn get_move_sees_the_whole_observation_every_tick() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("seen.jsonl");
        let body = format!(
            "import json, time\n\
             def get_move(obs):\n\
             \x20   with open({seen:?}, 'a') as f:\n\
             \x20       f.write(json.dumps(obs, separators=(',', ':')) + '\\n')\n\
             \x20   obs['grid'][0][0] = 99\n\
             \x20   obs['grid'][3].clear()\n\
             \x20   obs['players'][0]['x'] = -5\n\
             \x20   if obs['tick'] == 4:\n\
             \x20       time.sleep(0.4)\n\
             \x20   return 'N'\n"
        );
        let path = bot_file(dir.path(), &body);
        let factory = PythonFactory::new(&path, None, Sandbox::default()).unwrap();
        let mut bot = factory.create(&BotContext { game: 0, seat: 1, players: 2, seed: 0 }).unwrap();
        let config = Config { width: 24, height: 20, ..Config::default() };
        let mut game = ReferenceGame::seeded(&config, 5).unwrap();
        let mut expected = Vec::new();
        for tick in 1..=12u32 {
            let position = game.position();
            // Tick 4 takes the bot 400 ms: ticks 4 and 5 time out, and the
            // requests of ticks 5 and 6 wait for it together.
            let limit = Duration::from_millis(if tick == 4 || tick == 5 { 100 } else { 5000 });
            let reply = bot.answer(&Turn::new(&position, 1), limit);
            expected.push((tick, Turn::new(&position, 1).observation().to_json(), reply));
            // Both ride on while they can, so the board changes every tick.
            let moves: Vec<lightcycles_core::Action> = (0..2)
                .map(|id| {
                    let safe = lightcycles_core::space::safe_moves(&game, id);
                    safe.iter().next().map_or(lightcycles_core::Action::Keep, lightcycles_core::Action::Move)
                })
                .collect();
            game.step(&moves).unwrap();
            if game.is_over() {
                break;
            }
        }
        drop(bot);
        let seen = std::fs::read_to_string(&seen).unwrap();
        let seen: Vec<&str> = seen.lines().collect();
        assert!(expected.len() >= 8, "the game lasts: {}", expected.len());
        assert_eq!((&expected[3].2, &expected[4].2), (&Reply::Timeout, &Reply::Timeout), "ticks 4 and 5 were late");
        let answered: Vec<&(u32, String, Reply)> = expected.iter().filter(|e| e.2 == line("N")).collect();
        // The bot saw tick 4 (late) and every tick it answered in time.
        for (tick, json, _) in answered {
            assert!(seen.contains(&json.as_str()), "tick {tick}: not seen as\n{json}\nseen:\n{}", seen.join("\n"));
        }
        assert!(seen.contains(&expected[3].1.as_str()), "tick 4 was seen");
    }

    /// Each game has a fresh process (module state starts anew), the next
    /// one started ahead with its import-time output in its own game's
    /// log, and the spare left when the factory goes is ended with it.
    #[test]
    fn every_game_gets_a_fresh_process_started_ahead() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let body = format!(
            "import os\nprint('loaded', os.getpid())\nwith open({pids:?}, 'a') as f:\n    f.write(str(os.getpid()) + '\\n')\n\
             calls = 0\ndef get_move(obs):\n    global calls\n    calls += 1\n    return 'NESW'[calls % 4]\n"
        );
        let path = bot_file(dir.path(), &body);
        let place = LogPlace { dir: dir.path().join("logs"), name: "main".into() };
        let factory = PythonFactory::new(&path, Some(place.clone()), Sandbox::default()).unwrap();
        let game = ReferenceGame::seeded(&Config::default(), 9).unwrap();
        let position = game.position();
        for g in 0..4u64 {
            let mut bot = factory.create(&BotContext { game: g, seat: 1, players: 2, seed: 0 }).unwrap();
            let first = bot.answer(&Turn::new(&position, 1), Duration::from_secs(5));
            assert_eq!(first, line("E"), "game {g}: get_move's first call in a fresh module");
            drop(bot);
            let log = std::fs::read_to_string(place.path(g, 1)).unwrap();
            assert!(log.starts_with("loaded "), "game {g}: {log}");
        }
        // The last spare may still be starting (a loaded machine): wait
        // for it to have loaded main.py.
        let count = || std::fs::read_to_string(&pids).unwrap().lines().count();
        let until = std::time::Instant::now() + Duration::from_secs(20);
        while count() < 5 && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(count(), 5, "four games and one spare");
        drop(factory);
        // The processes' own ids are those of their namespaces: look for
        // the file in the command lines of the host's processes instead.
        let running = || {
            std::fs::read_dir("/proc")
                .unwrap()
                .flatten()
                .filter(|e| {
                    let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
                    let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                    !stat.contains(") Z ") && String::from_utf8_lossy(&cmdline).contains(&*path.to_string_lossy())
                })
                .count()
        };
        let until = std::time::Instant::now() + Duration::from_secs(2);
        while running() > 0 && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(running(), 0, "a process of the bot is still running");
    }

    #[test]
    fn a_missing_file_is_refused_up_front() {
        let err = PythonFactory::new(Path::new("/nonexistent/main.py"), None, Sandbox::default()).unwrap_err();
        assert!(err.starts_with("cannot read /nonexistent/main.py"), "{err}");
    }
}
