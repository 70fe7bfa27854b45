//! A bot that runs inside the host (a native plugin) on a thread of its
//! own, so that the host keeps its clock: the match loop hands the
//! observation to the thread and waits for the answer until the deadline,
//! and a plugin that thinks too long costs its own tick as a timeout.
//!
//! When its game ends the bot's thread is told to stop and waited for at
//! most [`END_WAIT`]: a plugin whose `choose` or `destroy` does not return
//! by then is left to run on its detached thread, never joined, so the host
//! and the next games go on (and the bot's log says so).
//!
//! What cannot be protected in-process: a thread cannot be killed, so a
//! plugin that never returns keeps its thread, its core and its memory
//! until the host exits; each such game adds one, and honest bots of later
//! games share the machine with them. A plugin that aborts, faults (a
//! segfault) or calls `_exit` takes the host with it; one that calls
//! `exit` ends the host too, but never with status 0
//! ([`crate::cli::main`] registers an `atexit` hook that turns an exit
//! before the run is complete into status 3). One that writes to stdout
//! writes into the host's output. This is why plugins run isolated by
//! default ([`crate::bot::adapter::plugin::isolated`]); `--in-process` is
//! for plugins you trust.

use std::path::Path;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use lightcycles_core::observation::Observation;

use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::{ask_and_collect, Asked, Bot, BotContext, BotError, Reply, Turn};

/// How long a bot's thread is waited for when its game ends, at most.
pub const END_WAIT: Duration = Duration::from_millis(500);

/// How long each side of the hand-off looks for the other's message
/// before it sleeps: the bot's thread for the next request after it
/// answered, the host for the answer after it asked. A quick plugin then
/// answers without either thread being put to sleep and woken (some 5 to
/// 10 µs each way); one that thinks longer costs at most this much of a
/// core per tick.
pub const SPIN: Duration = Duration::from_micros(50);

/// The next message of `rx`: looked for until [`SPIN`] has passed (or
/// `deadline`, if sooner), then waited for until `deadline`.
fn spin_then_wait<T>(rx: &Receiver<T>, deadline: Instant) -> Result<T, RecvTimeoutError> {
    let start = Instant::now();
    let spin_until = (start + SPIN).min(deadline);
    loop {
        match rx.try_recv() {
            Ok(message) => return Ok(message),
            Err(std::sync::mpsc::TryRecvError::Disconnected) => return Err(RecvTimeoutError::Disconnected),
            Err(std::sync::mpsc::TryRecvError::Empty) if Instant::now() < spin_until => std::thread::yield_now(),
            Err(std::sync::mpsc::TryRecvError::Empty) => break,
        }
    }
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
}

/// The code of one in-process bot, run on its thread.
pub trait Brain: Send + 'static {
    /// The answer to one observation, due within `limit`. Called on the
    /// bot's thread only, one observation at a time.
    fn choose(&mut self, obs: &Observation, limit: Duration, log: &BotLog) -> Reply;
}

impl Brain for Box<dyn Brain> {
    fn choose(&mut self, obs: &Observation, limit: Duration, log: &BotLog) -> Reply {
        (**self).choose(obs, limit, log)
    }
}

struct Request {
    seq: u64,
    obs: Observation,
    limit: Duration,
}

struct Response {
    seq: u64,
    reply: Reply,
    at: Instant,
}

#[derive(Clone, Copy, Debug)]
struct Waiting {
    seq: u64,
    deadline: Instant,
    limit: Duration,
    tick: u32,
}

/// An in-process bot on its own thread.
pub struct ThreadBot {
    requests: Option<Sender<Request>>,
    responses: Receiver<Response>,
    worker: Option<JoinHandle<()>>,
    seq: u64,
    /// The request the thread is working on, if it has not answered yet.
    in_flight: Option<u64>,
    waiting: Option<Waiting>,
    log: BotLog,
    /// The slowest answer to a request waited for, late ones included.
    slowest: Option<Duration>,
    /// How long the answer to the last request took, if one came.
    last: Option<Duration>,
}

impl std::fmt::Debug for ThreadBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreadBot").field("seq", &self.seq).field("in_flight", &self.in_flight).finish()
    }
}

impl ThreadBot {
    /// Starts the thread of `brain`, named `name` (for debuggers).
    pub fn start(brain: impl Brain, name: &str, log: BotLog) -> Result<ThreadBot, BotError> {
        let (requests, inbox) = channel::<Request>();
        let (outbox, responses) = channel::<Response>();
        let thread_log = log.clone();
        let worker = std::thread::Builder::new()
            .name(format!("bot {name}"))
            .spawn(move || {
                let mut brain = brain;
                loop {
                    // The next request comes soon after an answer, in a
                    // game of quick bots: look for it a moment before
                    // sleeping (a day stands for "no deadline").
                    let next = spin_then_wait(&inbox, Instant::now() + Duration::from_secs(86_400));
                    let Request { seq, obs, limit } = match next {
                        Ok(request) => request,
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => break,
                    };
                    let reply = brain.choose(&obs, limit, &thread_log);
                    if outbox.send(Response { seq, reply, at: Instant::now() }).is_err() {
                        break;
                    }
                }
                // The brain is dropped here, on its own thread: a plugin
                // frees its bot where it made it.
            })
            .map_err(|e| BotError(format!("{name}: cannot start a thread for the bot: {e}")))?;
        Ok(ThreadBot {
            requests: Some(requests),
            responses,
            worker: Some(worker),
            seq: 0,
            in_flight: None,
            waiting: None,
            log,
            slowest: None,
            last: None,
        })
    }

    /// Takes the answers that came in without waiting, noting that the
    /// thread is free again.
    fn drain(&mut self) {
        while let Ok(r) = self.responses.try_recv() {
            if Some(r.seq) == self.in_flight {
                self.in_flight = None;
            }
        }
    }
}

impl Bot for ThreadBot {
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        ask_and_collect(self, turn, limit)
    }

    fn ask(&mut self, turn: &Turn<'_>, limit: Duration) -> Asked {
        self.waiting = None;
        self.last = None;
        self.drain();
        if let Some(seq) = self.in_flight {
            self.log.note(&format!("tick {}: still thinking about request {seq}: not asked", turn.tick()));
            return Asked::Answered(Reply::Timeout);
        }
        let Some(requests) = &self.requests else { return Asked::Answered(Reply::Crash) };
        self.seq += 1;
        let now = Instant::now();
        if requests.send(Request { seq: self.seq, obs: turn.observation(), limit }).is_err() {
            self.requests = None;
            return Asked::Answered(Reply::Crash);
        }
        self.in_flight = Some(self.seq);
        self.waiting = Some(Waiting { seq: self.seq, deadline: now + limit, limit, tick: turn.tick() });
        Asked::Pending
    }

    fn collect(&mut self) -> Reply {
        self.last = None;
        let Some(w) = self.waiting.take() else { return Reply::Crash };
        loop {
            let response = spin_then_wait(&self.responses, w.deadline);
            match response {
                Ok(r) if r.seq != w.seq => {}
                Ok(r) => {
                    self.in_flight = None;
                    let sent_at = w.deadline.checked_sub(w.limit).unwrap_or(w.deadline);
                    self.slowest = self.slowest.max(Some(r.at.saturating_duration_since(sent_at)));
                    self.last = Some(r.at.saturating_duration_since(sent_at));
                    if r.at <= w.deadline {
                        return r.reply;
                    }
                    break;
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    self.requests = None;
                    self.log.note(&format!("tick {}: the bot's thread has ended", w.tick));
                    return Reply::Crash;
                }
            }
        }
        self.log.note(&format!("tick {}: no answer within {} ms", w.tick, w.limit.as_millis()));
        Reply::Timeout
    }

    fn slowest_answer(&self) -> Option<Duration> {
        self.slowest
    }

    fn last_answer(&self) -> Option<Duration> {
        self.last
    }
}

impl Drop for ThreadBot {
    fn drop(&mut self) {
        self.requests = None;
        self.drain();
        let Some(worker) = self.worker.take() else { return };
        // A thread that is free ends at once (the plugin frees its bot):
        // wait for it, a bounded time, so that a `choose` or a `destroy`
        // that never returns can never hang the host. Such a thread cannot
        // be stopped; it is detached and left to run.
        let until = Instant::now() + END_WAIT;
        while !worker.is_finished() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        if worker.is_finished() {
            let _ = worker.join();
        } else {
            self.log.note(&format!(
                "the bot's thread did not end within {} ms of its game (its choose or destroy has not \
                 returned): it is left running, detached, until the host exits",
                END_WAIT.as_millis()
            ));
            drop(worker);
        }
    }
}

/// A bot of `source` for `ctx` on a thread of the host, named after the
/// plugin's file and logging to `log`: the one `BotFactory::create` of the
/// C, Rust and in-process plugin factories.
pub fn thread_bot(
    source: &(impl BrainSource + ?Sized),
    path: &Path,
    log: Option<&LogPlace>,
    ctx: &BotContext,
) -> Result<Box<dyn Bot>, BotError> {
    let log = BotLog::open(log, ctx.game, ctx.seat);
    let name = path.file_stem().map_or_else(|| "plugin".into(), |s| s.to_string_lossy().into_owned());
    Ok(Box::new(ThreadBot::start(source.brain(ctx), &name, log)?))
}

/// Makes the code of one bot of a loaded plugin (its [`Brain`]) for a game
/// and seat, to run on a thread of the host or in the plugin host process.
pub trait BrainSource: Send + Sync {
    /// The brain of the bot of `ctx`, made with the bot's own seed.
    fn brain(&self, ctx: &BotContext) -> Box<dyn Brain>;

    /// The display name the plugin declares, if its interface has one.
    fn declared_name(&self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Config, Engine, ReferenceGame};

    /// Sleeps `sleeps[tick - 1]` ms, then answers the tick's number.
    struct Sleepy {
        sleeps: Vec<u64>,
    }

    impl Brain for Sleepy {
        fn choose(&mut self, obs: &Observation, _limit: Duration, _log: &BotLog) -> Reply {
            std::thread::sleep(Duration::from_millis(self.sleeps[obs.tick as usize - 1]));
            Reply::Line(obs.tick.to_string().into_bytes())
        }
    }

    /// Answers at once, and never returns from being dropped.
    struct NeverEnds;

    impl Brain for NeverEnds {
        fn choose(&mut self, _obs: &Observation, _limit: Duration, _log: &BotLog) -> Reply {
            Reply::Line(b"N".to_vec())
        }
    }

    impl Drop for NeverEnds {
        fn drop(&mut self) {
            loop {
                std::thread::park();
            }
        }
    }

    #[test]
    fn a_bot_that_never_ends_is_detached_not_joined() {
        let mut bot = ThreadBot::start(NeverEnds, "never-ends", BotLog::discard()).unwrap();
        let game = ReferenceGame::seeded(&Config::default(), 1).unwrap();
        let position = game.position();
        assert_eq!(bot.answer(&Turn::new(&position, 0), Duration::from_secs(5)), Reply::Line(b"N".to_vec()));
        let start = Instant::now();
        drop(bot);
        assert!(start.elapsed() < END_WAIT + Duration::from_secs(2), "the drop waited {:?}", start.elapsed());
    }

    #[test]
    fn a_slow_answer_is_a_timeout_and_a_busy_bot_is_not_asked() {
        // Tick 2 takes 600 ms against a limit of 100 ms; tick 3 is asked
        // while the thread is still on tick 2.
        let sleeps = vec![0, 600, 0, 0, 0];
        let limits = [5000, 100, 100, 5000, 5000];
        let mut bot = ThreadBot::start(Sleepy { sleeps }, "sleepy", BotLog::discard()).unwrap();
        let mut game = ReferenceGame::seeded(&Config::default(), 1).unwrap();
        let mut replies = Vec::new();
        for ms in limits {
            let position = game.position();
            replies.push(bot.answer(&Turn::new(&position, 0), Duration::from_millis(ms)));
            if replies.len() == 3 {
                // Let the thread finish tick 2, late, before tick 4 is asked.
                std::thread::sleep(Duration::from_millis(700));
            }
            game.step(&[lightcycles_core::Action::Keep; 2]).unwrap();
        }
        let line = |s: &str| Reply::Line(s.as_bytes().to_vec());
        assert_eq!(replies, vec![line("1"), Reply::Timeout, Reply::Timeout, line("4"), line("5")]);
    }
}
