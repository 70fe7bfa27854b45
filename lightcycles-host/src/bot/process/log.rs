//! Per-bot log files: what a bot process writes to stderr (and, for a
//! CodeClash bot, its `print`s and tracebacks), and the host's notes on
//! its faults, in `DIR/logs/<game>-<seat>-<name>.log` next to the replays.
//!
//! A log is capped ([`LOG_CAP_BYTES`]): a bot that writes without end
//! fills its own log once and is read and discarded after that, so it
//! never blocks on a full pipe and never fills the disk. Without a log
//! directory (no `-o`), stderr is discarded.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The most bytes written to one bot's log in one game.
pub const LOG_CAP_BYTES: u64 = 1 << 20;

/// The folder of the logs inside a run's output folder (defined with the
/// other places a run writes to).
pub use crate::io::output::LOGS_DIR;

/// Where a run writes its bots' logs, and the name of the bot they belong to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogPlace {
    /// The folder (created when the first log is made).
    pub dir: PathBuf,
    /// The bot's display name.
    pub name: String,
}

impl LogPlace {
    /// The log of game `game`, seat `seat`.
    pub fn path(&self, game: u64, seat: usize) -> PathBuf {
        log_path(&self.dir, game, seat, &self.name)
    }
}

/// The most bytes of a bot's name in its log's file name: file names are
/// limited (255 bytes on most file systems) and the game and seat come too.
pub const LOG_NAME_MAX: usize = 64;

/// `dir/<game>-<seat>-<name>.log`, with every character of the name that is
/// not a letter, digit, `_`, `-` or `.` replaced by `_`; a name longer than
/// [`LOG_NAME_MAX`] is cut, and ends with `~` and 8 hex digits of a hash of
/// the whole name, so that two long names stay two files. (The results and
/// replays keep the whole name.)
pub fn log_path(dir: &Path, game: u64, seat: usize, name: &str) -> PathBuf {
    let mut safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' }).collect();
    if safe.len() > LOG_NAME_MAX {
        use sha2::Digest;
        let hash = sha2::Sha256::digest(name.as_bytes());
        // Every character is ASCII by now: any byte index is a boundary.
        safe.truncate(LOG_NAME_MAX - 9);
        safe.push('~');
        safe.extend(hash[..4].iter().map(|b| format!("{b:02x}")));
    }
    dir.join(format!("{game}-{seat}-{safe}.log"))
}

#[derive(Debug)]
struct Capped {
    /// The file; `None` until a bot started ahead of its game is given its
    /// game ([`BotLog::place`]): what it writes before is held here.
    path: Option<PathBuf>,
    held: Vec<u8>,
    /// Opened on the first write, so a bot with nothing to say leaves no file.
    file: Option<File>,
    written: u64,
    /// Nothing more is written: the cap was reached or the file failed.
    cut: bool,
}

impl Capped {
    fn file(&mut self) -> Option<&mut File> {
        if self.file.is_none() && !self.cut {
            let path = self.path.as_ref()?;
            let opened = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| File::create(path));
            match opened {
                Ok(file) => self.file = Some(file),
                Err(e) => {
                    let message = format!("cannot write the bot log {}: {e}", path.display());
                    eprintln!("warning: {message}");
                    crate::io::output::record_failure(message);
                    self.cut = true;
                }
            }
        }
        self.file.as_mut()
    }

    /// Writes `bytes` to the file, or holds them while there is none yet.
    fn put(&mut self, bytes: &[u8]) -> bool {
        if self.path.is_none() {
            self.held.extend_from_slice(bytes);
            return true;
        }
        match self.file() {
            Some(file) => file.write_all(bytes).is_ok(),
            None => true,
        }
    }
}

/// One bot's log in one game, shared by the thread that copies its stderr
/// and the host's notes; or nowhere. The file is made on the first write.
#[derive(Clone, Debug, Default)]
pub struct BotLog {
    file: Option<Arc<Mutex<Capped>>>,
}

impl BotLog {
    /// A log that keeps nothing.
    pub fn discard() -> BotLog {
        BotLog::default()
    }

    /// A log at `path`, made (with its folder) when something is written.
    /// A file that cannot be made is reported on stderr once and the log
    /// discarded: a missing log never costs a bot its game, but the run
    /// ends with exit 2 once its games are played
    /// ([`crate::io::output::record_failure`]).
    pub fn at(path: PathBuf) -> BotLog {
        BotLog {
            file: Some(Arc::new(Mutex::new(Capped {
                path: Some(path),
                held: Vec::new(),
                file: None,
                written: 0,
                cut: false,
            }))),
        }
    }

    /// The log of `place` for one game and seat, or nowhere when there is no
    /// place.
    pub fn open(place: Option<&LogPlace>, game: u64, seat: usize) -> BotLog {
        place.map_or_else(BotLog::discard, |place| BotLog::at(place.path(game, seat)))
    }

    /// Whether anything written here is kept.
    pub fn keeps(&self) -> bool {
        self.file.is_some()
    }

    /// Appends bytes, up to the cap; past it, one line says the log was cut.
    pub fn write(&self, bytes: &[u8]) {
        let Some(file) = &self.file else { return };
        let mut log = file.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if log.cut || bytes.is_empty() {
            return;
        }
        let room = LOG_CAP_BYTES.saturating_sub(log.written);
        let take = bytes.len().min(room as usize);
        let mut ok = log.put(&bytes[..take]);
        if take < bytes.len() {
            let note = format!("\n[lightcycles] log cut at {LOG_CAP_BYTES} bytes; the rest is discarded\n");
            ok &= log.put(note.as_bytes());
            log.cut = true;
        }
        log.written += take as u64;
        if !ok {
            log.cut = true;
            let shown = log.path.as_ref().map_or_else(String::new, |p| p.display().to_string());
            crate::io::output::record_failure(format!("cannot write the bot log {shown}"));
        }
    }

    /// A log whose file is not known yet: for a bot process started before
    /// the game it will play ([`BotLog::place`] names it then). What the
    /// bot writes before is held, within the same cap.
    pub fn unplaced() -> BotLog {
        BotLog {
            file: Some(Arc::new(Mutex::new(Capped {
                path: None,
                held: Vec::new(),
                file: None,
                written: 0,
                cut: false,
            }))),
        }
    }

    /// Gives an [`unplaced`](BotLog::unplaced) log its file, `path`, and
    /// writes there what was held. A log already placed, or one that keeps
    /// nothing, is left as it is.
    pub fn place(&self, path: PathBuf) {
        let Some(file) = &self.file else { return };
        let mut log = file.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if log.path.is_some() {
            return;
        }
        log.path = Some(path);
        let held = std::mem::take(&mut log.held);
        if !held.is_empty() && !log.put(&held) {
            log.cut = true;
        }
    }

    /// Appends one line from the host: `[lightcycles] TEXT`, with every
    /// control character of `TEXT` (which may quote a bot) escaped.
    pub fn note(&self, text: &str) {
        if self.keeps() {
            let text = crate::io::untrusted::terminal_text(text);
            self.write(format!("[lightcycles] {text}\n").as_bytes());
        }
    }

    /// Copies `source` into the log until it ends, reading on past the cap
    /// so that the writer never blocks, with every control character but
    /// line breaks and tabs escaped ([`crate::io::untrusted::log_bytes`]).
    /// Whole lines are escaped at once (a line longer than 16 KiB in
    /// pieces), so a character is not cut in two. Meant for a thread of its
    /// own.
    pub fn copy_from(&self, mut source: impl Read) {
        const PIECE: usize = 16 * 1024;
        let mut buf = vec![0u8; PIECE];
        let mut pending: Vec<u8> = Vec::new();
        loop {
            match source.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    pending.extend_from_slice(&buf[..n]);
                    let cut = match pending.iter().rposition(|&b| b == b'\n') {
                        Some(i) => i + 1,
                        None if pending.len() >= PIECE => pending.len(),
                        None => continue,
                    };
                    if self.keeps() {
                        self.write(&crate::io::untrusted::log_bytes(&pending[..cut]));
                    }
                    pending.drain(..cut);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        if self.keeps() && !pending.is_empty() {
            self.write(&crate::io::untrusted::log_bytes(&pending));
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_name_makes_a_bounded_file_name_of_its_own() {
        let dir = std::path::Path::new("logs");
        let (a, b) = ("x".repeat(252), format!("{}y", "x".repeat(251)));
        let (pa, pb) = (super::log_path(dir, 12, 1, &a), super::log_path(dir, 12, 1, &b));
        let name = pa.file_name().unwrap().to_str().unwrap();
        assert_eq!(name.len(), "12-1-".len() + super::LOG_NAME_MAX + ".log".len(), "{name}");
        assert!(name.starts_with("12-1-xxxx") && name.contains('~'), "{name}");
        assert_ne!(pa, pb, "two long names, two files");
        assert_eq!(super::log_path(dir, 0, 0, "a b"), dir.join("0-0-a_b.log"));
    }

    use super::*;

    #[test]
    fn log_names_carry_game_seat_and_a_safe_name() {
        let dir = Path::new("out/logs");
        assert_eq!(log_path(dir, 3, 1, "bot_a-1.2"), dir.join("3-1-bot_a-1.2.log"));
        assert_eq!(log_path(dir, 0, 0, "my bot/../x"), dir.join("0-0-my_bot_.._x.log"));
    }

    #[test]
    fn a_log_keeps_notes_and_output_up_to_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/0-0-x.log");
        let log = BotLog::at(path.clone());
        assert!(log.keeps());
        assert!(!path.exists(), "no file before the first write");
        log.note("tick 1: timeout");
        log.copy_from(std::io::repeat(b'y').take(3 * LOG_CAP_BYTES));
        log.note("never written: the log is cut");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("[lightcycles] tick 1: timeout\nyyy"));
        assert!(text.ends_with("\n[lightcycles] log cut at 1048576 bytes; the rest is discarded\n"), "{}", &text[..40]);
        let body = text.len() as u64 - "\n[lightcycles] log cut at 1048576 bytes; the rest is discarded\n".len() as u64;
        assert_eq!(body, LOG_CAP_BYTES);
    }

    #[test]
    fn a_bots_control_bytes_and_the_notes_quoting_it_are_escaped_in_its_log() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0-0-x.log");
        let log = BotLog::at(path.clone());
        log.copy_from(&b"ok\tline\n\x1b]0;title\x07\x1b[2J"[..]);
        log.note("get_move raised \x1b[31mred");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "ok\tline\n\\u{1b}]0;title\\u{7}\\u{1b}[2J[lightcycles] get_move raised \\u{1b}[31mred\n");
    }

    #[test]
    fn an_unplaced_log_holds_what_comes_before_its_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/4-1-x.log");
        let log = BotLog::unplaced();
        assert!(log.keeps());
        log.copy_from(&b"imported\n"[..]);
        assert!(!dir.path().join("logs").exists(), "no file before it is placed");
        log.place(path.clone());
        log.note("tick 1: timeout");
        log.place(dir.path().join("other.log"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "imported\n[lightcycles] tick 1: timeout\n");
        assert!(!dir.path().join("other.log").exists(), "placed once");
        // Never placed: nothing is written anywhere, and the cap holds.
        let unused = BotLog::unplaced();
        unused.copy_from(std::io::repeat(b'z').take(3 * LOG_CAP_BYTES));
        let held = unused.file.as_ref().unwrap().lock().unwrap().held.len() as u64;
        assert!(held <= LOG_CAP_BYTES + 100, "{held}");
    }

    #[test]
    fn a_discarded_log_keeps_nothing_and_reads_everything() {
        let log = BotLog::discard();
        assert!(!log.keeps());
        log.copy_from(std::io::repeat(b'z').take(1 << 20));
        log.note("nowhere");
    }
}
