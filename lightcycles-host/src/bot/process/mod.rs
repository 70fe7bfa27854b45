//! A bot process: started in a process group of its own, fed through a
//! writer thread, read through a reader thread, and killed with its whole
//! group when it is dropped.
//!
//! The host never blocks on a bot: observations go to a writer thread
//! (when a bot does not read its input and the pipe is full, new
//! observations are not sent and the tick is a timeout); answers come from
//! a reader thread that stamps each line with the time it was read, so a
//! deadline is judged by when the answer came, not by when the host looked;
//! stderr is copied into the bot's capped log by a third thread.
//!
//! The end of a process ([`Drop`]): its input is closed, the group gets
//! SIGTERM, then after a short grace ([`GRACE`]) SIGKILL, the leader is
//! reaped, and the host waits (up to [`GROUP_GONE`]) until no process of
//! the group is left, reaping those it adopted ([`adopt_orphans`]). The leader is reaped only then, so that its process id (which is
//! the group id) cannot be taken by another process while the group is
//! signalled. A process that leaves the group (`setsid`, `setpgid`) escapes
//! the group kill, not the containment below.
//!
//! What leaves the group is caught by the bot's containment
//! ([`contain`]): its cgroup where there are cgroups, else the mark in its
//! environment; and every bot process dies with the host
//! (`PR_SET_PDEATHSIG`).
//!
//! The groups of the bots running now are kept in a registry, so that a
//! host stopped by a signal (Ctrl-C reaches the host only: each bot has a
//! group of its own) can take every bot with it ([`stop_all`]).

pub mod contain;
pub mod delta;
pub mod isolate;
pub mod lines;
pub mod log;
pub mod sandbox;
pub mod spawner;

use std::collections::{BTreeSet, VecDeque};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::process::{
    getpid, kill_process, kill_process_group, set_child_subreaper, test_kill_process_group, waitid, waitpgid, Pid,
    Signal, WaitId, WaitIdOptions, WaitOptions,
};

use crate::bot::process::contain::Containment;
use crate::bot::process::lines::{pump_lines, Output, ANSWER_LINE_CAP};
use crate::bot::process::log::BotLog;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::{ask_and_collect, Asked, Bot, BotError, Reply, Turn};
use std::os::unix::process::CommandExt;

/// How long a bot has to end after SIGTERM before its group gets SIGKILL.
pub const GRACE: Duration = Duration::from_millis(100);

/// How long [`BotProcess::next_line`] looks for a line, yielding, before it
/// sleeps until the deadline.
pub const LINE_SPIN: Duration = Duration::from_micros(150);

/// How long the host waits, at most, for the last process of a killed
/// group to be gone.
pub const GROUP_GONE: Duration = Duration::from_secs(1);

/// Lines read ahead of the host, per bot: a bot that floods its output
/// waits on its own pipe instead of growing the host's memory.
const LINES_AHEAD: usize = 64;

/// Observations queued for a bot that has not read the previous ones.
const MESSAGES_AHEAD: usize = 2;

/// The process groups of the running bots, and whether the host is stopping.
struct Running {
    groups: BTreeSet<i32>,
    stopping: bool,
}

static RUNNING: Mutex<Running> = Mutex::new(Running { groups: BTreeSet::new(), stopping: false });

fn running() -> std::sync::MutexGuard<'static, Running> {
    RUNNING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Kills every running bot's process group with SIGKILL and refuses to
/// start any more: for a host that is stopping on a signal. Returns how
/// many groups were killed.
pub fn stop_all() -> usize {
    let mut r = running();
    r.stopping = true;
    for &group in &r.groups {
        if let Some(pid) = Pid::from_raw(group) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    contain::kill_all();
    r.groups.len()
}

/// Makes this process the reaper of its bots' orphans (Linux): a bot's
/// child whose parent died comes to the host rather than to init, so the
/// host can wait until every process of a killed group is gone, not just
/// signalled. For the `lightcycles` binary; a library user may leave it.
pub fn adopt_orphans() -> std::io::Result<()> {
    set_child_subreaper(Some(getpid())).map_err(std::io::Error::from)
}

/// What came of waiting for a bot's next line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A line, and when it was read.
    Line(Vec<u8>, Instant),
    /// Nothing before the deadline.
    Deadline,
    /// The bot closed its output or exited: no line will come any more.
    Closed,
}

/// A running bot process.
#[derive(Debug)]
pub struct BotProcess {
    child: Child,
    contain: Containment,
    input: Option<SyncSender<Vec<u8>>>,
    /// Set by the writer thread when a write to the bot's stdin failed.
    input_closed: Arc<AtomicBool>,
    output: Receiver<Output>,
    closed: bool,
    log: BotLog,
    /// The thread copying the bot's stderr into its log: waited for (a
    /// bounded time) when the bot ends, so that its log is whole by then.
    log_copier: Option<std::thread::JoinHandle<()>>,
}

impl BotProcess {
    /// Starts `command` in a new process group with piped stdin and stdout
    /// and stderr copied to `log` (or discarded), under the limits of
    /// `sandbox`. Lines of its stdout are kept up to `line_cap` bytes.
    /// `what` names the bot in errors.
    pub fn spawn(
        mut command: Command,
        sandbox: &Sandbox,
        line_cap: usize,
        log: BotLog,
        what: &str,
    ) -> Result<BotProcess, BotError> {
        sandbox.apply(&mut command);
        let contain = Containment::new(sandbox);
        contain.apply(&mut command);
        isolate::apply(&mut command);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.keeps() { Stdio::piped() } else { Stdio::null() })
            .process_group(0);
        let program = command.get_program().to_owned();
        let mut child = spawner::spawn(command).map_err(|e| {
            let message = format!("{what}: cannot start {program:?}: {e}");
            log.note(&message);
            BotError(message)
        })?;
        {
            let mut r = running();
            if r.stopping {
                drop(r);
                let _ = child.kill();
                let _ = child.wait();
                return Err(BotError(format!("{what}: not started: the host is stopping")));
            }
            r.groups.insert(child.id() as i32);
        }
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        start_threads(child, contain, stdin, stdout, stderr, line_cap, log, what)
    }

    /// The bot's log, for the adapter's notes.
    pub fn log(&self) -> &BotLog {
        &self.log
    }

    /// Queues `message` for the bot's stdin. False when it was not queued:
    /// the bot has not read what it was sent before, or its input is closed.
    pub fn send(&mut self, message: Vec<u8>) -> bool {
        match &self.input {
            Some(input) => match input.try_send(message) {
                Ok(()) => true,
                Err(TrySendError::Full(_)) => false,
                Err(TrySendError::Disconnected(_)) => {
                    self.input = None;
                    false
                }
            },
            None => false,
        }
    }

    /// What a message for tick `tick` that could not be queued costs, noted
    /// in the log: a crash when the bot is gone (its input closed), else a
    /// timeout (it has not read what it was sent before).
    pub fn not_sent(&mut self, tick: u32) -> Reply {
        if self.is_gone() {
            self.log.note(&format!("tick {tick}: not sent: the bot's input is closed or it has exited"));
            Reply::Crash
        } else {
            self.log.note(&format!("tick {tick}: not sent: the bot has not read its earlier input"));
            Reply::Timeout
        }
    }

    /// The next line of the bot's stdout, waiting until `deadline` at most.
    /// A line already read is returned even after the deadline: its time
    /// says whether it was on time.
    pub fn next_line(&mut self, deadline: Instant) -> Next {
        if self.closed {
            return Next::Closed;
        }
        // A quick bot's line comes within a few dozen µs: look for it a
        // moment, yielding the core, before sleeping (waking a sleeping
        // thread costs as much again, more on an idle machine).
        let spin_until = (Instant::now() + LINE_SPIN).min(deadline);
        let event = loop {
            match self.output.try_recv() {
                Ok(event) => break Ok(event),
                Err(std::sync::mpsc::TryRecvError::Empty) if Instant::now() < spin_until => std::thread::yield_now(),
                Err(_) => break self.output.recv_timeout(deadline.saturating_duration_since(Instant::now())),
            }
        };
        match event {
            Ok(Output::Line { bytes, at }) => Next::Line(bytes, at),
            Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Next::Closed
            }
            Err(RecvTimeoutError::Timeout) => Next::Deadline,
        }
    }

    /// Whether the bot can no longer answer: its output is closed, its
    /// input is closed (a write to it failed), or the process it was
    /// started as has exited (a child it left behind may still hold the
    /// pipe open). The exit is seen without reaping the process, so its id
    /// stays reserved until the group is killed.
    pub fn is_gone(&mut self) -> bool {
        if !self.closed && (self.input_closed.load(Ordering::SeqCst) || self.leader_exited()) {
            self.closed = true;
        }
        self.closed
    }

    fn leader_exited(&self) -> bool {
        let pid = Pid::from_child(&self.child);
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        match waitid(WaitId::Pid(pid), options) {
            Ok(Some(_)) => true,
            Ok(None) => false,
            // Already reaped, or not our child: gone either way.
            Err(_) => true,
        }
    }

    /// Kills the process group and reaps the leader.
    fn end(&mut self) {
        self.input = None;
        let pid = Pid::from_child(&self.child);
        let _ = kill_process_group(pid, Signal::TERM);
        let until = Instant::now() + GRACE;
        while !self.leader_exited() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Whatever is left of the group, and the leader even if it moved to
        // a group of its own.
        let _ = kill_process_group(pid, Signal::KILL);
        let _ = kill_process(pid, Signal::KILL);
        let _ = self.child.wait();
        // A killed process is gone only once it has died and been reaped:
        // reap the members that are the host's (orphans it adopted), and
        // wait a bounded time for the others.
        let until = Instant::now() + GROUP_GONE;
        loop {
            while let Ok(Some(_)) = waitpgid(pid, WaitOptions::NOHANG) {}
            if test_kill_process_group(pid).is_err() || Instant::now() >= until {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // And whatever left the group: the bot's cgroup, or the processes
        // that carry its mark ([`contain`]).
        self.contain.end(GROUP_GONE);
        running().groups.remove(&(self.child.id() as i32));
        // The copier ends at the end of the bot's stderr, now that every
        // process that held it is gone; one that something still holds
        // open is left to finish on its own.
        if let Some(copier) = self.log_copier.take() {
            let until = Instant::now() + GROUP_GONE;
            while !copier.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
            if copier.is_finished() {
                let _ = copier.join();
            }
        }
    }
}

/// The second half of [`BotProcess::spawn`]: the three threads. On an
/// error the child is killed and reaped here.
#[allow(clippy::too_many_arguments)]
fn start_threads(
    mut child: Child,
    contain: Containment,
    stdin: Option<ChildStdin>,
    stdout: Option<std::process::ChildStdout>,
    stderr: Option<std::process::ChildStderr>,
    line_cap: usize,
    log: BotLog,
    what: &str,
) -> Result<BotProcess, BotError> {
    let fail = |child: &mut Child, e: std::io::Error| {
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
        let _ = child.kill();
        let _ = child.wait();
        running().groups.remove(&(child.id() as i32));
        BotError(format!("{what}: cannot start a thread for the bot: {e}"))
    };
    let (Some(mut stdin), Some(stdout)) = (stdin, stdout) else {
        return Err(fail(&mut child, std::io::Error::other("no pipes")));
    };
    let (input_tx, input_rx) = sync_channel::<Vec<u8>>(MESSAGES_AHEAD);
    let input_closed = Arc::new(AtomicBool::new(false));
    let (writer_log, writer_closed) = (log.clone(), input_closed.clone());
    let writer = std::thread::Builder::new().name("bot-stdin".into()).spawn(move || {
        for message in input_rx {
            if let Err(e) = stdin.write_all(&message).and_then(|()| stdin.flush()) {
                // The bot closed its stdin (or died): it can read no more
                // observations, so it can answer none.
                writer_log.note(&format!("cannot write to the bot's stdin ({e}): a crash from now on"));
                writer_closed.store(true, Ordering::SeqCst);
                break;
            }
        }
    });
    if let Err(e) = writer {
        return Err(fail(&mut child, e));
    }
    let (output_tx, output_rx) = sync_channel::<Output>(LINES_AHEAD);
    let reader =
        std::thread::Builder::new().name("bot-stdout".into()).spawn(move || pump_lines(stdout, line_cap, output_tx));
    if let Err(e) = reader {
        return Err(fail(&mut child, e));
    }
    let mut log_copier = None;
    if let Some(stderr) = stderr {
        let log = log.clone();
        match std::thread::Builder::new().name("bot-stderr".into()).spawn(move || log.copy_from(stderr)) {
            Ok(handle) => log_copier = Some(handle),
            Err(e) => return Err(fail(&mut child, e)),
        }
    }
    Ok(BotProcess {
        child,
        contain,
        input: Some(input_tx),
        input_closed,
        output: output_rx,
        closed: false,
        log,
        log_copier,
    })
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.end();
    }
}

/// A bot that answers each message with one line, in order (the JSON-lines
/// and 2010 protocols): the line that answers message `k` is the `k`-th
/// line the bot writes after message `k` was sent.
///
/// Lines are matched to messages by counting, never by when they come: an
/// answer that comes late is the answer to its own message and is thrown
/// away, so it is never read as the next tick's answer. A line written
/// before the message it would answer was sent answers nothing and is
/// thrown away too.
#[derive(Debug)]
pub struct LineBot {
    process: BotProcess,
    /// Send times of the messages that have no line yet, oldest first.
    unanswered: VecDeque<Instant>,
    /// Messages sent so far.
    sent: u64,
    /// The message being waited for: its number, deadline, limit and tick.
    waiting: Option<Waiting>,
    /// The slowest answer seen, late ones included.
    slowest: Option<Duration>,
    /// How long the answer to the last message took, if a line came.
    last: Option<Duration>,
}

#[derive(Clone, Copy, Debug)]
struct Waiting {
    number: u64,
    deadline: Instant,
    limit: Duration,
    tick: u32,
}

impl LineBot {
    /// Starts `command` (`what` names the bot in messages) under the limits
    /// of `sandbox`, with answers read up to [`ANSWER_LINE_CAP`] bytes a line.
    pub fn spawn(command: Command, sandbox: &Sandbox, log: BotLog, what: &str) -> Result<LineBot, BotError> {
        let process = BotProcess::spawn(command, sandbox, ANSWER_LINE_CAP, log, what)?;
        Ok(LineBot { process, unanswered: VecDeque::new(), sent: 0, waiting: None, slowest: None, last: None })
    }

    /// Sends `message` (a whole message, ending with `\n`) for tick `tick`;
    /// its answer is due within `limit`.
    pub fn ask(&mut self, message: Vec<u8>, tick: u32, limit: Duration) -> Asked {
        self.waiting = None;
        self.last = None;
        if self.process.is_gone() {
            return Asked::Answered(Reply::Crash);
        }
        let now = Instant::now();
        if !self.process.send(message) {
            return Asked::Answered(self.process.not_sent(tick));
        }
        self.unanswered.push_back(now);
        self.sent += 1;
        self.waiting = Some(Waiting { number: self.sent, deadline: now + limit, limit, tick });
        Asked::Pending
    }

    /// The line answering the last message, or why there is none.
    pub fn collect(&mut self) -> Reply {
        let Some(w) = self.waiting.take() else { return Reply::Crash };
        loop {
            match self.process.next_line(w.deadline) {
                Next::Line(bytes, at) => {
                    let Some(&sent_at) = self.unanswered.front() else { continue };
                    if at < sent_at {
                        continue; // written before the message it would answer
                    }
                    self.unanswered.pop_front();
                    self.slowest = self.slowest.max(Some(at - sent_at));
                    let number = self.sent - self.unanswered.len() as u64;
                    if number < w.number {
                        continue; // a late answer to an earlier tick
                    }
                    self.last = Some(at - sent_at);
                    if at <= w.deadline {
                        return Reply::Line(bytes);
                    }
                    self.note_timeout(&w);
                    return Reply::Timeout;
                }
                Next::Deadline => {
                    if self.process.is_gone() {
                        return self.crash(&w);
                    }
                    self.note_timeout(&w);
                    return Reply::Timeout;
                }
                Next::Closed => return self.crash(&w),
            }
        }
    }

    /// The slowest answer this bot gave, from the message to its line,
    /// late answers included; `None` before any answer.
    pub fn slowest(&self) -> Option<Duration> {
        self.slowest
    }

    /// How long the answer to the last message took, when a line came.
    pub fn last(&self) -> Option<Duration> {
        self.last
    }

    fn note_timeout(&self, w: &Waiting) {
        self.process.log().note(&format!("tick {}: no answer within {} ms", w.tick, w.limit.as_millis()));
    }

    fn crash(&self, w: &Waiting) -> Reply {
        self.process.log().note(&format!("tick {}: the bot has exited or closed its output", w.tick));
        Reply::Crash
    }
}

/// The longest protocol line read from an adapter that numbers its answers
/// (the Python adapter, the plugin host): an answer of 1025 bytes, escaped
/// as JSON, fits.
pub const PROTOCOL_LINE_CAP: usize = 16 * 1024;

/// What an adapter that numbers its answers says about one request.
#[derive(Debug, serde::Deserialize)]
struct NumberedReply {
    seq: u64,
    #[serde(default, rename = "move")]
    answer: Option<String>,
    /// No move, without fault (a plugin that declines).
    #[serde(default)]
    none: bool,
    #[serde(default)]
    error: Option<String>,
}

/// A bot behind an adapter process that numbers requests and answers (the
/// CodeClash Python adapter, the plugin host of `--isolate`): a request is
/// `<seq> [<limit_ms>] <observation JSON>`, an answer one JSON line
/// `{"seq": N, "move": "…"}`, `{"seq": N, "none": true}` or
/// `{"seq": N, "error": "…"}` (a crash of that tick). An answer to another
/// number is a late one and is thrown away, and so is a line read before
/// the request was sent: a bot that shares its adapter's process (Python)
/// and writes answers for the numbers to come on the protocol gains
/// nothing by it.
#[derive(Debug)]
pub struct NumberedBot {
    process: BotProcess,
    seq: u64,
    waiting: Option<Numbered>,
    /// Whether each request carries its time limit in milliseconds.
    send_limit: bool,
    /// What precedes an error in the log note (`get_move raised `).
    error_note: &'static str,
    /// The slowest answer to the request waited for, late ones included.
    slowest: Option<Duration>,
    /// How long the answer to the last request took, if one came.
    last: Option<Duration>,
    /// Observations after the first as what changed, for an adapter that
    /// rebuilds them ([`delta`]).
    deltas: Option<delta::DeltaSender>,
}

#[derive(Clone, Copy, Debug)]
struct Numbered {
    seq: u64,
    sent: Instant,
    deadline: Instant,
    limit: Duration,
    tick: u32,
}

impl NumberedBot {
    /// A bot speaking through `process`; requests carry their time limit
    /// when `send_limit` is set; errors are noted after `error_note`.
    pub fn new(process: BotProcess, send_limit: bool, error_note: &'static str) -> NumberedBot {
        NumberedBot { process, seq: 0, waiting: None, send_limit, error_note, slowest: None, last: None, deltas: None }
    }

    /// Sends observations after the first as what changed ([`delta`]): for
    /// an adapter that rebuilds the whole observation from them.
    pub fn with_deltas(mut self) -> NumberedBot {
        self.deltas = Some(delta::DeltaSender::default());
        self
    }

    fn crash(&self, tick: u32) -> Reply {
        self.process.log().note(&format!("tick {tick}: the bot has exited"));
        Reply::Crash
    }
}

impl Bot for NumberedBot {
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        ask_and_collect(self, turn, limit)
    }

    fn ask(&mut self, turn: &Turn<'_>, limit: Duration) -> Asked {
        self.waiting = None;
        if self.process.is_gone() {
            return Asked::Answered(Reply::Crash);
        }
        self.seq += 1;
        let mut message = if self.send_limit {
            format!("{} {} ", self.seq, limit.as_millis()).into_bytes()
        } else {
            format!("{} ", self.seq).into_bytes()
        };
        match &mut self.deltas {
            Some(deltas) => message.extend_from_slice(deltas.body(turn).as_bytes()),
            None => message.extend_from_slice(turn.observation().to_json().as_bytes()),
        }
        message.push(b'\n');
        let now = Instant::now();
        if !self.process.send(message) {
            if let Some(deltas) = &mut self.deltas {
                deltas.forget();
            }
            return Asked::Answered(self.process.not_sent(turn.tick()));
        }
        self.waiting = Some(Numbered { seq: self.seq, sent: now, deadline: now + limit, limit, tick: turn.tick() });
        Asked::Pending
    }

    fn slowest_answer(&self) -> Option<Duration> {
        self.slowest
    }

    fn last_answer(&self) -> Option<Duration> {
        self.last
    }

    fn collect(&mut self) -> Reply {
        self.last = None;
        let Some(w) = self.waiting.take() else { return Reply::Crash };
        loop {
            match self.process.next_line(w.deadline) {
                Next::Line(bytes, at) => {
                    if at < w.sent {
                        continue; // written before the request: a forgery, never an answer
                    }
                    let Ok(reply) = serde_json::from_slice::<NumberedReply>(&bytes) else { continue };
                    if reply.seq != w.seq {
                        continue; // a late answer to an earlier tick
                    }
                    let sent_at = w.deadline.checked_sub(w.limit).unwrap_or(w.deadline);
                    self.slowest = self.slowest.max(Some(at.saturating_duration_since(sent_at)));
                    self.last = Some(at.saturating_duration_since(sent_at));
                    if at > w.deadline {
                        break;
                    }
                    return match (reply.answer, reply.none, reply.error) {
                        (Some(answer), _, _) => Reply::Line(answer.into_bytes()),
                        (None, true, _) => Reply::NoMove,
                        (None, false, error) => {
                            let error = error.unwrap_or_else(|| "no answer".into());
                            self.process.log().note(&format!("tick {}: {}{error}", w.tick, self.error_note));
                            Reply::Crash
                        }
                    };
                }
                Next::Deadline if self.process.is_gone() => return self.crash(w.tick),
                Next::Deadline => break,
                Next::Closed => return self.crash(w.tick),
            }
        }
        self.process.log().note(&format!("tick {}: no answer within {} ms", w.tick, w.limit.as_millis()));
        Reply::Timeout
    }
}

/// `/bin/sh -c COMMAND`, in the current directory; `/bin/sh -c 'exec
/// COMMAND'` when the command is a plain program with plain arguments
/// ([`is_plain`]), so that no shell stands between the host and the bot:
/// the bot is the process the host started (it gets the parent-death
/// signal, and EOF and signals reach it).
pub fn shell(command: &str) -> Command {
    let mut c = Command::new("/bin/sh");
    if is_plain(command) {
        c.arg("-c").arg(format!("exec {command}"));
    } else {
        c.arg("-c").arg(command);
    }
    c
}

/// Whether `command` is words of letters, digits and `_-./:,+@%=` only,
/// the first of them a program (not an assignment, a keyword or a
/// builtin): then `exec COMMAND` means the same as `COMMAND`.
pub fn is_plain(command: &str) -> bool {
    const NOT_PROGRAMS: &[&str] = &[
        "exec", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in",
        "exit", "cd", "read", "export", "set", "unset", "eval", ".", "source", "trap", "wait", "shift", "return",
        "break", "continue", "ulimit", "umask", "alias", "readonly", "local", "times", ":", "command", "builtin",
        "type", "hash", "getopts", "jobs", "fg", "bg", "kill",
    ];
    let words: Vec<&str> = command.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let Some(first) = words.first() else { return false };
    words.iter().all(|w| w.chars().all(|c| c.is_ascii_alphanumeric() || "_-./:,+@%=".contains(c)))
        && !first.contains('=')
        && !NOT_PROGRAMS.contains(first)
}

#[cfg(test)]
mod tests;
