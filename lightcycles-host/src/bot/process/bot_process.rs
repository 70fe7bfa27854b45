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
//! reaped, and the host waits (up to
//! [`GROUP_GONE`](crate::bot::process::contain::GROUP_GONE)) until no process of
//! the group is left, reaping those it adopted
//! ([`adopt_orphans`](crate::bot::process::groups::adopt_orphans)). The
//! leader is reaped only then, so that its process id (which is the group
//! id) cannot be taken by another process while the group is
//! signalled. A process that leaves the group (`setsid`, `setpgid`) escapes
//! the group kill, not the containment below.
//!
//! What leaves the group is caught by the bot's containment
//! ([`contain`](crate::bot::process::contain)): its cgroup where there are cgroups, else the mark in its
//! environment; and every bot process dies with the host
//! (`PR_SET_PDEATHSIG`).

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustix::process::{
    kill_process, kill_process_group, test_kill_process_group, waitid, waitpgid, Pid, Signal, WaitId, WaitIdOptions,
    WaitOptions,
};

use crate::bot::process::contain::{Containment, GROUP_GONE};
use crate::bot::process::groups::running;
use crate::bot::process::lines::{pump_lines, Output};
use crate::bot::process::log::BotLog;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::process::{isolate, spawner};
use crate::bot::said::{Said, SaidPipe, SaidTick, DRAIN_WAIT};
use crate::bot::{BotError, Reply};

/// How long a bot has to end after SIGTERM before its group gets SIGKILL.
pub const GRACE: Duration = Duration::from_millis(100);

/// How long [`BotProcess::next_line`] looks for a line, yielding, before it
/// sleeps until the deadline.
pub const LINE_SPIN: Duration = Duration::from_micros(150);

/// Lines read ahead of the host, per bot: a bot that floods its output
/// waits on its own pipe instead of growing the host's memory.
const LINES_AHEAD: usize = 64;

/// Observations queued for a bot that has not read the previous ones.
const MESSAGES_AHEAD: usize = 2;

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
    /// What the bot writes to stderr, and the read end of that pipe (a
    /// copy, to ask how much it holds), when its stderr is captured.
    said: Option<(Said, std::os::fd::OwnedFd)>,
}

impl BotProcess {
    /// Starts `command` in a new process group with piped stdin and stdout
    /// and stderr copied to `log` (or discarded), under the limits of
    /// `sandbox`. Lines of its stdout are kept up to `line_cap` bytes.
    /// `what` names the bot in errors. What it writes to stderr is
    /// captured too, for the replay ([`BotProcess::take_said`]).
    pub fn spawn(
        command: Command,
        sandbox: &Sandbox,
        line_cap: usize,
        log: BotLog,
        what: &str,
    ) -> Result<BotProcess, BotError> {
        BotProcess::spawn_with(command, sandbox, line_cap, log, what, true)
    }

    /// [`BotProcess::spawn`], with its stderr captured for the replay or
    /// not (`capture`): an adapter that captures its bot's output itself
    /// (Python) leaves its process's stderr to the log.
    pub fn spawn_with(
        mut command: Command,
        sandbox: &Sandbox,
        line_cap: usize,
        log: BotLog,
        what: &str,
        capture: bool,
    ) -> Result<BotProcess, BotError> {
        sandbox.apply(&mut command);
        let contain = Containment::new(sandbox);
        contain.apply(&mut command);
        isolate::apply(&mut command);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.keeps() || capture { Stdio::piped() } else { Stdio::null() })
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
        let said = match (&stderr, capture) {
            (Some(pipe), true) => {
                use std::os::fd::AsFd;
                match pipe.as_fd().try_clone_to_owned() {
                    Ok(fd) => Some((Said::new(), fd)),
                    Err(e) => {
                        let message = format!("{what}: cannot watch the bot's stderr: {e}");
                        log.note(&message);
                        None
                    }
                }
            }
            _ => None,
        };
        start_threads(child, contain, stdin, stdout, stderr, line_cap, log, said, what)
    }

    /// What the bot wrote to stderr since the last take, once its stderr
    /// has been read up to now ([`Said::take_drained`]); `None` when it
    /// wrote nothing or its stderr is not captured.
    pub fn take_said(&self) -> Option<SaidTick> {
        use std::os::fd::AsFd;
        let (said, fd) = self.said.as_ref()?;
        said.take_drained(fd.as_fd(), DRAIN_WAIT)
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
    said: Option<(Said, std::os::fd::OwnedFd)>,
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
        let capture = said.as_ref().map(|(said, _)| said.clone());
        let copy = move || match capture {
            Some(said) => log.copy_from(SaidPipe::new(stderr, said)),
            None => log.copy_from(stderr),
        };
        match std::thread::Builder::new().name("bot-stderr".into()).spawn(copy) {
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
        said,
    })
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.end();
    }
}
