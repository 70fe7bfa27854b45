//! `--isolate`: a native plugin run in a child process of the host's own
//! binary (`lightcycles __plugin-host PATH …`), so that a plugin that
//! segfaults, aborts, exits, loops for ever or exhausts its memory ends
//! that process only: a fault of its bot, like any bot process.
//!
//! The child is a bot process as any other ([`crate::bot::process`]): its own
//! process group, the limits of [`crate::bot::process::sandbox`], stderr to the bot's
//! log, killed with its group when the game ends. It loads the plugin,
//! makes the bot's [`Brain`] for its game and seat (the same seed as
//! in-process, so the same plugin plays the same games either way), and
//! speaks the numbered protocol of [`NumberedBot`] on the descriptors that
//! were its stdin and stdout; the plugin gets `/dev/null` as stdin and
//! stderr as stdout, so what it prints goes to its log.
//!
//! ```text
//! host -> child   "<seq> <limit_ms> <observation JSON>\n"
//! child -> host   {"seq":N,"move":"N"} | {"seq":N,"none":true} | {"seq":N,"error":"…"}
//! ```
//!
//! The host keeps the clock: an answer after the deadline is a `timeout`
//! and its number tells it apart from the next tick's answer. When several
//! requests wait, the child answers only the newest (the host gave up on
//! the others). Before a run starts the plugin is loaded once in a child
//! (`--check`) so that a library that is no plugin is refused by name, as
//! in-process, without its code ever running in the host.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::bot::adapter::plugin::in_process::Brain;
use crate::bot::adapter::plugin::load::brain_source;
use crate::bot::process::bot_process::BotProcess;
use crate::bot::process::delta::DeltaReader;
use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::process::numbered::{NumberedBot, PROTOCOL_LINE_CAP};
use crate::bot::process::sandbox::Sandbox;
use crate::bot::{Bot, BotContext, BotError, BotFactory, Reply};

/// The hidden subcommand that runs a plugin for the host.
pub const SUBCOMMAND: &str = "__plugin-host";

/// The environment variable that names the program to run as plugin host
/// (default: this program). For library users whose program is not the
/// `lightcycles` binary, such as tests.
pub const PLUGIN_HOST_ENV: &str = "LIGHTCYCLES_PLUGIN_HOST";

/// How long loading a plugin to check it may take.
const CHECK_TIME: Duration = Duration::from_secs(10);

/// The program that hosts isolated plugins: `LIGHTCYCLES_PLUGIN_HOST`, else
/// this program.
pub fn plugin_host_program() -> Result<PathBuf, String> {
    match std::env::var_os(PLUGIN_HOST_ENV).filter(|p| !p.is_empty()) {
        Some(program) => Ok(PathBuf::from(program)),
        None => std::env::current_exe().map_err(|e| format!("cannot find this program to host the plugin: {e}")),
    }
}

/// Set when this program is the `lightcycles` binary, which hosts isolated
/// plugins itself (its command line says so as it starts).
static THIS_PROGRAM_HOSTS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that this program hosts isolated plugins itself (the
/// [`SUBCOMMAND`] is one of its commands).
pub fn this_program_hosts_plugins() {
    THIS_PROGRAM_HOSTS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether isolated plugins have a host: this program is one, or
/// `LIGHTCYCLES_PLUGIN_HOST` names one. Plugins are isolated by default
/// when they do.
pub fn host_known() -> bool {
    THIS_PROGRAM_HOSTS.load(std::sync::atomic::Ordering::Relaxed)
        || std::env::var_os(PLUGIN_HOST_ENV).is_some_and(|p| !p.is_empty())
}

/// Makes, for each game and seat, a plugin host process playing one bot of
/// the plugin at `path`.
#[derive(Clone, Debug)]
pub struct IsolatedFactory {
    program: PathBuf,
    path: PathBuf,
    log: Option<LogPlace>,
    sandbox: Sandbox,
}

impl IsolatedFactory {
    /// A factory for the plugin at `path`, checked once by loading it in a
    /// child process under the limits of `sandbox`.
    pub fn new(path: &Path, log: Option<LogPlace>, sandbox: Sandbox) -> Result<IsolatedFactory, String> {
        IsolatedFactory::with_program(&plugin_host_program()?, path, log, sandbox)
    }

    /// [`IsolatedFactory::new`], with `program` (a `lightcycles` binary) as
    /// the plugin host.
    pub fn with_program(
        program: &Path,
        path: &Path,
        log: Option<LogPlace>,
        sandbox: Sandbox,
    ) -> Result<IsolatedFactory, String> {
        let program = program.to_path_buf();
        let given = path;
        let path = std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))?;
        // The child is handed the absolute path; the message names the
        // plugin as the user gave it.
        check(&program, &path, &sandbox)
            .map_err(|e| e.replace(&path.display().to_string(), &given.display().to_string()))?;
        Ok(IsolatedFactory { program, path, log, sandbox })
    }
}

/// The name the plugin at `path` declares, read by loading it in a child
/// under the limits of `sandbox`, as `--isolate` keeps its code out of the
/// host; `None` when it declares none or does not load (the factory then
/// says why).
pub fn declared_name(path: &Path, sandbox: &Sandbox) -> Option<String> {
    let program = plugin_host_program().ok()?;
    let path = std::path::absolute(path).ok()?;
    let said = check(&program, &path, sandbox).ok().flatten()?;
    // The child is the plugin's process: what it says is kept to a NAME.
    let plain: String = said
        .chars()
        .take(64)
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' })
        .collect();
    Some(plain).filter(|n| !n.is_empty())
}

/// Loads the plugin in a child and reports why it cannot be played, if so;
/// else the name it declares, if any.
fn check(program: &Path, path: &Path, sandbox: &Sandbox) -> Result<Option<String>, String> {
    let mut command = Command::new(program);
    command.arg(SUBCOMMAND).arg("--check").arg(path).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    sandbox.apply(&mut command);
    crate::bot::process::isolate::apply(&mut command);
    let mut child =
        command.spawn().map_err(|e| format!("cannot start {} to load the plugin: {e}", program.display()))?;
    let stdout = child.stdout.take();
    let name_reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stdout) = stdout {
            let _ = std::io::Read::read_to_string(&mut std::io::Read::take(stdout, 4096), &mut text);
        }
        text
    });
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stderr) = stderr {
            let _ = std::io::Read::read_to_string(&mut std::io::Read::take(stderr, 64 * 1024), &mut text);
        }
        text
    });
    let until = Instant::now() + CHECK_TIME;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let text = reader.join().unwrap_or_default();
    let name = name_reader.join().unwrap_or_default();
    match status {
        Some(s) if s.success() => Ok(Some(name.trim().to_string()).filter(|n| !n.is_empty())),
        Some(s) => {
            let said = text.trim().strip_prefix("error: ").unwrap_or(text.trim()).to_string();
            if said.is_empty() {
                Err(format!("{}: the plugin host ended while loading the plugin ({s})", path.display()))
            } else {
                Err(said)
            }
        }
        None => Err(format!("{}: loading the plugin took more than {} s", path.display(), CHECK_TIME.as_secs())),
    }
}

impl BotFactory for IsolatedFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        let log = BotLog::open(self.log.as_ref(), ctx.game, ctx.seat);
        let mut command = Command::new(&self.program);
        command.arg(SUBCOMMAND).arg(&self.path).args([
            "--game".to_string(),
            ctx.game.to_string(),
            "--seat".to_string(),
            ctx.seat.to_string(),
            "--players".to_string(),
            ctx.players.to_string(),
            "--seed".to_string(),
            ctx.seed.to_string(),
        ]);
        let what = format!("{} (isolated)", self.path.display());
        let process = BotProcess::spawn(command, &self.sandbox, PROTOCOL_LINE_CAP, log, &what)?;
        Ok(Box::new(NumberedBot::new(process, true, "").with_deltas()))
    }
}

/// The newest request waiting, and whether the host closed the pipe.
#[derive(Default)]
struct Inbox {
    /// Requests read, oldest first: all are applied (each may say what
    /// changed since the one before), the newest answered.
    lines: Vec<Vec<u8>>,
    closed: bool,
}

/// The child's side: loads the plugin at `path` and plays the bot of `ctx`
/// until the host closes its input. With `check`, only loads it. Errors go
/// to stderr (the bot's log); the exit code is 2 when the plugin cannot be
/// loaded.
pub fn serve(path: &Path, ctx: BotContext, check: bool) -> ExitCode {
    let (proto_in, proto_out) = match take_protocol_descriptors() {
        Ok(fds) => fds,
        Err(e) => {
            eprintln!("error: the plugin host cannot set up its pipes: {e}");
            return ExitCode::from(2);
        }
    };
    let source = match brain_source(path, None) {
        Ok(source) => source,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if check {
        // The name the plugin declares, for the host to name the bot by,
        // on the protocol descriptor (the plugin's own prints go to stderr).
        let mut out = proto_out;
        let _ = writeln!(out, "{}", source.declared_name().unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    // The plugin's notes go to stderr, which is the bot's log.
    let log = BotLog::at(PathBuf::from("/dev/stderr"));
    let mut brain = source.brain(&ctx);
    let inbox = Arc::new((Mutex::new(Inbox::default()), Condvar::new()));
    let reader_inbox = Arc::clone(&inbox);
    std::thread::spawn(move || {
        let mut input = BufReader::new(proto_in);
        let mut line = Vec::new();
        loop {
            line.clear();
            let complete = matches!(input.read_until(b'\n', &mut line), Ok(n) if n > 0 && line.ends_with(b"\n"));
            let (lock, ready) = &*reader_inbox;
            let mut inbox = lock.lock().unwrap_or_else(|p| p.into_inner());
            if !complete {
                inbox.closed = true;
                ready.notify_one();
                return;
            }
            inbox.lines.push(std::mem::take(&mut line));
            ready.notify_one();
        }
    });
    let mut output = proto_out;
    let mut observations = DeltaReader::default();
    loop {
        let requests = {
            let (lock, ready) = &*inbox;
            let mut inbox = lock.lock().unwrap_or_else(|p| p.into_inner());
            loop {
                if !inbox.lines.is_empty() {
                    break std::mem::take(&mut inbox.lines);
                }
                if inbox.closed {
                    return ExitCode::SUCCESS;
                }
                inbox = ready.wait(inbox).unwrap_or_else(|p| p.into_inner());
            }
        };
        let mut newest = None;
        for request in &requests {
            match parse_request(request) {
                Some((seq, limit, body)) => match observations.read(body) {
                    Ok(_) => newest = Some((seq, limit)),
                    Err(e) => eprintln!("[lightcycles] plugin host: request {seq}: {e}"),
                },
                None => eprintln!("[lightcycles] plugin host: a request it cannot read"),
            }
        }
        let (Some((seq, limit)), Some(obs)) = (newest, observations.current()) else { continue };
        let answer = match brain.choose(obs, limit, &log) {
            Reply::Line(bytes) => serde_json::json!({"seq": seq, "move": String::from_utf8_lossy(&bytes)}),
            Reply::NoMove => serde_json::json!({"seq": seq, "none": true}),
            Reply::Timeout | Reply::Crash => serde_json::json!({"seq": seq, "error": "the plugin gave no answer"}),
        };
        let mut line = answer.to_string().into_bytes();
        line.push(b'\n');
        if output.write_all(&line).and_then(|()| output.flush()).is_err() {
            return ExitCode::SUCCESS;
        }
    }
}

/// `<seq> <limit_ms> <body>`: the body is the observation, or what changed
/// ([`DeltaReader`]).
fn parse_request(line: &[u8]) -> Option<(u64, Duration, &str)> {
    let text = std::str::from_utf8(line).ok()?;
    let (seq, rest) = text.split_once(' ')?;
    let (limit, body) = rest.split_once(' ')?;
    Some((seq.parse().ok()?, Duration::from_millis(limit.parse().ok()?), body.trim_end()))
}

/// Moves the protocol off stdin and stdout, out of the plugin's reach:
/// stdin becomes `/dev/null` and stdout a copy of stderr.
fn take_protocol_descriptors() -> std::io::Result<(File, File)> {
    let proto_in = rustix::io::fcntl_dupfd_cloexec(std::io::stdin(), 3)?;
    let proto_out = rustix::io::fcntl_dupfd_cloexec(std::io::stdout(), 3)?;
    let null = File::open("/dev/null")?;
    rustix::stdio::dup2_stdin(&null)?;
    rustix::stdio::dup2_stdout(std::io::stderr())?;
    Ok((File::from(proto_in), File::from(proto_out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_carry_a_number_a_limit_and_the_observation() {
        use lightcycles_core::observation::Observation;
        use lightcycles_core::{Config, Engine, ReferenceGame};
        let game = ReferenceGame::seeded(&Config::default(), 4).unwrap();
        let obs = Observation::new(&game, 1);
        let line = format!("7 50 {}\n", obs.to_json());
        let (seq, limit, body) = parse_request(line.as_bytes()).unwrap();
        assert_eq!((seq, limit), (7, Duration::from_millis(50)));
        assert_eq!(DeltaReader::default().read(body).unwrap(), &obs);
        assert!(parse_request(b"7 {}\n").is_none());
        assert!(parse_request(b"x 5 {}\n").is_none());
    }
}
