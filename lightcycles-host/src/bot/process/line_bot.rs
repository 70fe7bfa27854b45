//! [`LineBot`]: a bot process that answers each message with one line, in
//! order, matched to its message by counting (the line protocols).

use std::collections::VecDeque;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::bot::process::bot_process::{BotProcess, Next};
use crate::bot::process::lines::ANSWER_LINE_CAP;
use crate::bot::process::log::BotLog;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::{Asked, BotError, Reply};

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

    /// What the bot wrote to stderr since the last take
    /// ([`BotProcess::take_said`]).
    pub fn take_said(&self) -> Option<crate::bot::said::SaidTick> {
        self.process.take_said()
    }

    fn note_timeout(&self, w: &Waiting) {
        self.process.log().note(&format!("tick {}: no answer within {} ms", w.tick, w.limit.as_millis()));
    }

    fn crash(&self, w: &Waiting) -> Reply {
        self.process.log().note(&format!("tick {}: the bot has exited or closed its output", w.tick));
        Reply::Crash
    }
}
