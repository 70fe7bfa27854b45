//! What a bot writes besides its answers (its stderr; for a CodeClash bot
//! its `print`s and tracebacks; for a wasm bot its `lightcycles.log`
//! calls), attributed to the tick it was written for, capped, and kept in
//! the replay's `said` (docs/bots.md, "What a bot says").
//!
//! Every form of bot that has output writes it into one [`Said`]: the
//! thread that reads a bot process's stderr, the numbered adapter with the
//! text an in-process capture sent with its answer, the wasm `log` import.
//! The match loop takes it at each answer ([`crate::bot::Bot::take_said`]):
//! what was written up to then belongs to that tick, what comes after to
//! the next tick the bot is asked about. Output that comes after a bot's
//! last answer is kept in its log only.
//!
//! A pipe is read by a thread, so at the answer some of what the bot wrote
//! before it may still be in the pipe, or read and not yet handed over.
//! [`Said::take_drained`] waits (at most [`DRAIN_WAIT`]) until neither is
//! so: the reader marks a read in flight under the lock before it reads,
//! and the taker holds the lock while it asks the pipe how much it holds
//! (`FIONREAD`). Pipes keep their order, so a bot that writes its lines
//! before its answer finds them on that tick, at any `-j`, on every run.
//!
//! Bots are untrusted: at most [`TICK_CAP`] bytes a tick and [`GAME_CAP`]
//! a game are kept per bot, a cut is marked (`truncated`), invalid UTF-8 is
//! replaced, and the wait is bounded and skipped once the tick's cap is
//! reached, so a flooding bot costs the host little and other bots nothing.

use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most bytes of one bot's output kept for one tick.
pub const TICK_CAP: usize = 4 * 1024;

/// The most bytes of one bot's output kept for one game.
pub const GAME_CAP: usize = 256 * 1024;

/// The longest the host waits, at an answer, for the bot's stderr to be
/// read to its end.
pub const DRAIN_WAIT: Duration = Duration::from_millis(100);

/// What one bot wrote for one tick, as the replay keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SaidTick {
    /// The lines, without line breaks (one `\r` before a break dropped),
    /// invalid UTF-8 replaced; a last line without its break is a line.
    pub lines: Vec<String>,
    /// Whether some of it was cut (a cap).
    pub truncated: bool,
}

impl SaidTick {
    /// The lines of `bytes`, or `None` when there is nothing to keep.
    pub fn of_bytes(bytes: &[u8], truncated: bool) -> Option<SaidTick> {
        if bytes.is_empty() && !truncated {
            return None;
        }
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let lines = if bytes.is_empty() {
            Vec::new()
        } else {
            body.split(|&b| b == b'\n')
                .map(|line| String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned())
                .collect()
        };
        Some(SaidTick { lines, truncated })
    }
}

#[derive(Debug, Default)]
struct Budget {
    /// What was written since the last take, up to the caps.
    tick: Vec<u8>,
    /// Whether some of it was cut.
    cut: bool,
    /// Bytes kept in this game.
    kept: usize,
    /// Whether the game's cap has been reported by a take.
    game_cut_told: bool,
    /// A reader has taken the lock to read from the pipe and not yet
    /// handed over what it read.
    reading: bool,
}

impl Budget {
    fn push(&mut self, bytes: &[u8], cut: bool) {
        let room = TICK_CAP.saturating_sub(self.tick.len()).min(GAME_CAP.saturating_sub(self.kept));
        let take = bytes.len().min(room);
        self.tick.extend_from_slice(&bytes[..take]);
        self.kept += take;
        self.cut |= cut || take < bytes.len();
    }

    fn full(&self) -> bool {
        self.tick.len() >= TICK_CAP || self.kept >= GAME_CAP
    }

    fn take(&mut self) -> Option<SaidTick> {
        let bytes = std::mem::take(&mut self.tick);
        let cut = std::mem::take(&mut self.cut);
        if bytes.is_empty() && (!cut || self.game_cut_told) {
            return None;
        }
        if cut && self.kept >= GAME_CAP {
            self.game_cut_told = true;
        }
        SaidTick::of_bytes(&bytes, cut)
    }
}

/// One bot's output in one game, shared by whoever writes it and the bot
/// the match loop takes it from.
#[derive(Clone, Debug, Default)]
pub struct Said {
    inner: Arc<(Mutex<Budget>, Condvar)>,
}

impl Said {
    /// An empty record.
    pub fn new() -> Said {
        Said::default()
    }

    fn budget(&self) -> MutexGuard<'_, Budget> {
        self.inner.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds what the bot wrote, within the caps.
    pub fn write(&self, bytes: &[u8]) {
        self.write_cut(bytes, false);
    }

    /// Adds what the bot wrote, marked cut when `cut` (its adapter cut it).
    pub fn write_cut(&self, bytes: &[u8], cut: bool) {
        self.budget().push(bytes, cut);
    }

    /// Everything written since the last take.
    pub fn take(&self) -> Option<SaidTick> {
        self.budget().take()
    }

    /// Everything written since the last take, once nothing is left in
    /// `pipe` nor in the hands of its reader ([`SaidPipe`]), or after
    /// `wait` at most, or at once when the tick's cap is reached.
    pub fn take_drained(&self, pipe: BorrowedFd<'_>, wait: Duration) -> Option<SaidTick> {
        let until = Instant::now() + wait;
        let mut budget = self.budget();
        loop {
            if budget.full() {
                break;
            }
            // The reader takes the lock before it reads: while this holds
            // it, nothing leaves the pipe unseen.
            if !budget.reading && rustix::io::ioctl_fionread(pipe).map_or(true, |n| n == 0) {
                break;
            }
            let now = Instant::now();
            if now >= until {
                break;
            }
            let step = (until - now).min(Duration::from_millis(1));
            budget = self.inner.1.wait_timeout(budget, step).unwrap_or_else(|p| p.into_inner()).0;
        }
        budget.take()
    }
}

/// A pipe read through [`Said`]: each read waits for data, marks itself in
/// flight, reads, and hands what it read over before it clears the mark.
/// Whoever reads from it (the log's copier) sees the same bytes.
#[derive(Debug)]
pub struct SaidPipe<R> {
    source: R,
    said: Said,
}

impl<R: Read + AsFd> SaidPipe<R> {
    /// Reads `source`, copying what it reads into `said`.
    pub fn new(source: R, said: Said) -> SaidPipe<R> {
        SaidPipe { source, said }
    }
}

impl<R: Read + AsFd> Read for SaidPipe<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use rustix::event::{poll, PollFd, PollFlags};
        loop {
            let mut fds = [PollFd::new(&self.source, PollFlags::IN)];
            match poll(&mut fds, None) {
                Ok(_) => break,
                Err(e) if e == rustix::io::Errno::INTR => continue,
                Err(e) => return Err(e.into()),
            }
        }
        self.said.budget().reading = true;
        let read = self.source.read(buf);
        {
            let mut budget = self.said.budget();
            if let Ok(n) = read {
                budget.push(&buf[..n], false);
            }
            budget.reading = false;
        }
        self.said.inner.1.notify_all();
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_and_made_text() {
        let t = SaidTick::of_bytes(b"one\r\ntwo\n\xff three", false).unwrap();
        assert_eq!(t.lines, vec!["one", "two", "\u{fffd} three"]);
        assert_eq!(SaidTick::of_bytes(b"\n", false).unwrap().lines, vec![""]);
        assert_eq!(SaidTick::of_bytes(b"", false), None);
        assert_eq!(SaidTick::of_bytes(b"", true), Some(SaidTick { lines: vec![], truncated: true }));
    }

    #[test]
    fn a_tick_keeps_its_cap_and_the_game_its_own() {
        let said = Said::new();
        said.write(b"a\n");
        said.write(b"b\n");
        assert_eq!(said.take(), Some(SaidTick { lines: vec!["a".into(), "b".into()], truncated: false }));
        assert_eq!(said.take(), None, "taken once");
        said.write(&vec![b'x'; TICK_CAP + 10]);
        let t = said.take().unwrap();
        assert!(t.truncated);
        assert_eq!(t.lines, vec!["x".repeat(TICK_CAP)]);
        // Fill the game's cap, tick by tick.
        let mut kept = 4 + TICK_CAP;
        let mut last = SaidTick::default();
        while kept < GAME_CAP {
            said.write(&vec![b'y'; TICK_CAP]);
            last = said.take().unwrap();
            kept += last.lines[0].len();
        }
        assert_eq!(kept, GAME_CAP);
        assert!(last.truncated, "the tick that reached the game's cap is marked cut");
        said.write(b"more\n");
        assert_eq!(said.take(), None, "then nothing: the cut was told");
        // A game's cap reached exactly is told on the next tick with output.
        let exact = Said::new();
        for _ in 0..GAME_CAP / TICK_CAP {
            exact.write(&vec![b'z'; TICK_CAP]);
            assert!(!exact.take().unwrap().truncated);
        }
        exact.write(b"more\n");
        assert_eq!(exact.take(), Some(SaidTick { lines: vec![], truncated: true }), "the game's cut is told once");
        exact.write(b"and more\n");
        assert_eq!(exact.take(), None, "then nothing");
    }

    #[test]
    fn a_pipe_is_taken_whole_at_the_answer() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let said = Said::new();
        let fd = reader.as_fd().try_clone_to_owned().unwrap();
        let copier = {
            let said = said.clone();
            std::thread::spawn(move || std::io::copy(&mut SaidPipe::new(reader, said), &mut std::io::sink()))
        };
        use std::io::Write;
        for tick in 0..200 {
            writer.write_all(format!("line {tick}\nsecond {tick}\n").as_bytes()).unwrap();
            let t = said.take_drained(fd.as_fd(), Duration::from_secs(5)).unwrap();
            assert_eq!(t.lines, vec![format!("line {tick}"), format!("second {tick}")]);
        }
        drop(writer);
        copier.join().unwrap().unwrap();
        assert_eq!(said.take_drained(fd.as_fd(), Duration::from_secs(5)), None);
    }
}
