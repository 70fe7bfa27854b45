//! [`NumberedBot`]: a bot behind an adapter process that numbers requests
//! and answers (the Python adapter, the plugin host of `--isolate`).

use std::time::{Duration, Instant};

use crate::bot::process::bot_process::{BotProcess, Next};
use crate::bot::process::delta;
use crate::bot::said::{Said, SaidTick};
use crate::bot::{ask_and_collect, Asked, Bot, Reply, Turn};

/// The longest protocol line read from an adapter that numbers its answers
/// (the Python adapter, the plugin host): an answer of 1025 bytes and the
/// [`TICK_CAP`](crate::bot::said::TICK_CAP) bytes of output the Python
/// adapter sends with it, both escaped as JSON (six bytes a byte at most),
/// fit.
pub const PROTOCOL_LINE_CAP: usize = 64 * 1024;

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
    /// What the bot wrote while it answered, captured by its adapter (the
    /// Python adapter's `print`s and stderr).
    #[serde(default)]
    said: Option<String>,
    /// Whether the adapter cut it.
    #[serde(default)]
    said_cut: bool,
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
    /// What the adapter sent with its answers (`said`), for an adapter
    /// that captures its bot's output itself.
    said: Said,
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
        NumberedBot {
            process,
            seq: 0,
            waiting: None,
            send_limit,
            error_note,
            slowest: None,
            last: None,
            deltas: None,
            said: Said::new(),
        }
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
        self.last = None;
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

    fn take_said(&mut self) -> Option<SaidTick> {
        let adapter = self.said.take();
        match (self.process.take_said(), adapter) {
            (Some(mut pipe), Some(adapter)) => {
                pipe.lines.extend(adapter.lines);
                pipe.truncated |= adapter.truncated;
                Some(pipe)
            }
            (pipe, adapter) => pipe.or(adapter),
        }
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
                    if let Some(said) = &reply.said {
                        // Written while it answered (a late answer's too):
                        // it goes to the tick it is taken on.
                        self.said.write_cut(said.as_bytes(), reply.said_cut);
                    } else if reply.said_cut {
                        self.said.write_cut(b"", true);
                    }
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
