//! The results file: one JSON line per finished game, appended and flushed
//! as each game finishes, so a tournament killed at any moment loses at
//! most the games in flight; `--resume` reads it back.
//!
//! Line 1 is the header: what the tournament is (bots, pairing, seed,
//! board, time limits). Every later line is one game, in the order the
//! games finished, named by its index in the schedule:
//!
//! ```text
//! {"format":"lightcycles-tournament/1","bots":[{"name":"floodfill","spec":"builtin:floodfill"},…],"pairing":"round-robin","seed":0,"config":{…},"map":null,"time_first_ms":1000,"time_ms":50}
//! {"game":0,"round":0,"pairing":0,"seed":0,"seats":[0,1],"bots":["floodfill","random"],"winner":0,"ticks":57,"faults":[{"invalid":0,"timeout":0,"crash":0},{…}],"replay":null}
//! ```
//!
//! Each line is written with one `write` call and ends with a newline; a
//! last line without its newline (the host was killed while writing it) is
//! cut off on resume and the game played again.
//!
//! A results file is read back as untrusted input: it must be a regular
//! file, each line is read up to [`input::RESULTS_LINE`] (so memory stays
//! bounded whatever the file holds; the number of lines is not limited),
//! and every game line must agree with the header: names of its seats, a
//! winner that is a seat, ticks within the tick cap, no more faults than
//! ticks. A file is only ever cut back when it is this tournament's.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::schedule::{PairingMode, Schedule, ScheduledGame};
use crate::game::match_loop::FaultCounts;
use crate::io::input::{self, InputError};

/// The `format` of the header line.
pub const FORMAT: &str = "lightcycles-tournament/1";

/// A bot as the header names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderBot {
    /// Its display name.
    pub name: String,
    /// Its spec as given on the command line.
    pub spec: String,
    /// Its own time for the first answer, when it has one (`--bot-time`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_first_ms: Option<u64>,
    /// Its own time for each later answer, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Its time bank, when it has time of its own and a bank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_bank_ms: Option<u64>,
    /// What each of its answers adds to its bank, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_inc_ms: Option<u64>,
}

/// A map of the header's pool, as the games get it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderMap {
    /// Its name: `builtin:NAME`, a file's path, or `WxH@D` for a generated
    /// board.
    pub name: String,
    /// The text of its 2010 map file; `None` for a generated board, and for
    /// a map of a pool too large to hold inline ([`POOL_INLINE`]), which has
    /// its `sha256` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The SHA-256 of the map file's text, in hex, where `text` is left out
    /// for the size of the pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// For a generated board: its width, height and rock density.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<[u32; 3]>,
}

/// The most map text a header holds inline: a pool whose files hold more
/// is recorded by file name and content hash, so that the header line stays
/// far below what a results line may hold ([`input::RESULTS_LINE`]) and the
/// file stays resumable whatever the pool.
pub const POOL_INLINE: usize = 64 * 1024;

/// The map pool of the header: the maps and the order rounds take them in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderMaps {
    /// The maps, in the order given.
    pub maps: Vec<HeaderMap>,
    /// `sequential` or `random`.
    pub order: String,
    /// The position in that order of round 0's map.
    pub start: usize,
}

/// A league: the games are chosen as the ratings go (see `tournament::league`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderLeague {
    /// How many game sets may be in flight: set `m` is chosen from the
    /// ratings after sets `0 … m - lag`.
    pub lag: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

fn two() -> usize {
    2
}

fn is_two(x: &usize) -> bool {
    *x == 2
}

/// The first line: everything that decides which games are played and how.
/// A resumed run must have the same header; the number of games (`-g`),
/// `--sprt` (and its model, recorded when not the default), `-j` and `-o`
/// may differ, since they change neither a game's index nor its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The bots, in the order given.
    pub bots: Vec<HeaderBot>,
    /// Who plays whom.
    pub pairing: PairingMode,
    /// The seed of round 0.
    pub seed: u64,
    /// The game configuration.
    pub config: lightcycles_core::Config,
    /// The text of the 2010 map file every game is played on, if any.
    pub map: Option<String>,
    /// Time for a bot's first answer.
    pub time_first_ms: u64,
    /// Time for each later answer.
    pub time_ms: u64,
    /// Time past the limit still taken as in time (`--time-margin-ms`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub time_margin_ms: u64,
    /// Each bot's time bank per game (`--time-bank-ms`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub time_bank_ms: u64,
    /// What each answer adds to the bank (`--time-inc-ms`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub time_inc_ms: u64,
    /// Seats in every game: 2, or 3 to 8 for a free-for-all (`--ffa`).
    #[serde(default = "two", skip_serializing_if = "is_two")]
    pub seats: usize,
    /// The map pool (`--maps`, `--sizes`), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maps: Option<HeaderMaps>,
    /// A league (`--league`), when this is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub league: Option<HeaderLeague>,
    /// The shard of a tournament split over machines (`--shard I/N`): the
    /// games this file holds are those whose index is `I mod N`. Left out
    /// of an unsharded run's header, which is what `tournament merge` writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardHeader>,
    /// The fuel of a wasm bot's answer of `time_ms` (`--fuel-per-tick`),
    /// when wasm bots are budgeted in fuel: a resumed run must budget them
    /// the same, or its games would not be those of the run it goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel_per_tick: Option<u64>,
    /// The Elo model of the run's `--sprt`, when it is not the default
    /// (logistic): so that headers without it stay as they were. Recorded,
    /// never compared: a resumed run may test something else, as `--sprt`
    /// itself may change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_model: Option<crate::stats::SprtModel>,
}

/// What a shard's header says of it: which shard, and how many games per
/// pairing the whole tournament plays, so that a merge can tell a shard
/// that is complete from one that stopped short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// `I`: the shard's games are those whose index is `I mod N`.
    pub index: u64,
    /// `N`: the shards of the tournament.
    pub count: u64,
    /// Games per pairing of the whole tournament (`-g`).
    pub games_per_pairing: u64,
}

/// Faults of one seat in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    /// Invalid lines.
    pub invalid: u32,
    /// Answers not in time.
    pub timeout: u32,
    /// Ticks the bot had crashed.
    pub crash: u32,
}

impl From<FaultCounts> for Faults {
    fn from(f: FaultCounts) -> Faults {
        Faults { invalid: f.invalid, timeout: f.timeout, crash: f.crash }
    }
}

impl Faults {
    /// All faults (saturating: a count read from a file may be anything).
    pub fn total(&self) -> u32 {
        self.invalid.saturating_add(self.timeout).saturating_add(self.crash)
    }
}

/// One finished game: a line of the results file after the header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's index in the schedule.
    pub game: u64,
    /// Its round (the seed's number).
    pub round: u64,
    /// Its pairing's index.
    pub pairing: usize,
    /// Its seed.
    pub seed: u64,
    /// The bots by seat, as indices into the header's bots.
    pub seats: Vec<usize>,
    /// The bots' names by seat.
    pub bots: Vec<String>,
    /// The seat that won, or `null` for a draw.
    pub winner: Option<usize>,
    /// Placement by seat (1 is first; tied players share a place), in a
    /// free-for-all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<Vec<u32>>,
    /// Ticks played.
    pub ticks: u32,
    /// Faults by seat.
    pub faults: Vec<Faults>,
    /// The name of its map in the pool, when there is a pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    /// The replay file, when replays are written (`-o`).
    pub replay: Option<String>,
    /// For a game with a fault: the command that plays it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The metrics each seat's bot reported ([`crate::metric`]), by seat;
    /// absent when none did (so games of bots that report none are written
    /// as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Vec<crate::metric::Summaries>>,
}

/// What the statistics keep of a game: small (a few bytes a seat, and the
/// metrics its bots reported).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's index.
    pub game: u64,
    /// Its pairing's (group's) index.
    pub pairing: usize,
    /// The bots by seat.
    pub seats: Vec<usize>,
    /// The seat that won, if one did.
    pub winner: Option<usize>,
    /// Placement by seat (1 is first).
    pub placements: Vec<u32>,
    /// Faults by seat.
    pub faults: Vec<Faults>,
    /// Metrics by seat, when its bots reported any.
    pub metrics: Option<Vec<crate::metric::Summaries>>,
}

impl GameLine {
    /// What the statistics keep of this line.
    pub fn result(&self) -> GameResult {
        let placements = self.placements.clone().unwrap_or_else(|| {
            // Two seats: the winner first, the other second; a draw ties.
            (0..self.seats.len()).map(|s| if self.winner.is_none() || self.winner == Some(s) { 1 } else { 2 }).collect()
        });
        GameResult {
            game: self.game,
            pairing: self.pairing,
            seats: self.seats.clone(),
            winner: self.winner,
            placements,
            faults: self.faults.clone(),
            metrics: self.metrics.clone(),
        }
    }

    /// Checks that the line is the game `schedule` gives its index: the
    /// same round, pairing, seed and seats.
    pub fn check_scheduled(&self, schedule: &Schedule) -> Result<(), String> {
        let s = schedule.game(self.game);
        if (self.round, self.pairing, self.seed, &self.seats) == (s.round, s.pairing, s.seed, &s.seats) {
            return Ok(());
        }
        Err(format!(
            "game {} has round {}, pairing {}, seed {} and seats {:?}; the schedule says round {}, pairing {}, \
             seed {} and seats {:?}",
            self.game, self.round, self.pairing, self.seed, self.seats, s.round, s.pairing, s.seed, s.seats
        ))
    }

    /// Checks a line read from a file against the file's header: its seats
    /// are bots of the header under their names, its winner is a seat, its
    /// ticks are within the tick cap, and no seat has more faults than ticks
    /// (a bot answers, or fails to, once a tick).
    pub fn check(&self, header: &Header) -> Result<(), String> {
        let seats = header.seats;
        if self.seats.len() != seats || self.bots.len() != seats || self.faults.len() != seats {
            return Err(format!(
                "seats, bots and faults must each list {seats} seats; they list {}, {} and {}",
                self.seats.len(),
                self.bots.len(),
                self.faults.len()
            ));
        }
        if let Some(p) = &self.placements {
            if p.len() != seats || p.iter().any(|&x| x == 0 || x as usize > seats) {
                return Err(format!("placements must be {seats} places from 1 to {seats}"));
            }
        }
        for (seat, &bot) in self.seats.iter().enumerate() {
            let Some(entry) = header.bots.get(bot) else {
                return Err(format!("seats[{seat}] = {bot} is not a bot of the header ({} bots)", header.bots.len()));
            };
            if self.bots[seat] != entry.name {
                return Err(format!(
                    "bots[{seat}] is {:?}, but bot {bot} of the header is {:?}",
                    crate::io::untrusted::clip(&self.bots[seat], 60),
                    entry.name
                ));
            }
        }
        if let Some(winner) = self.winner.filter(|&w| w >= seats) {
            return Err(format!("winner = {winner} is not a seat (0 to {}, or null for a draw)", seats - 1));
        }
        if self.ticks == 0 || self.ticks > header.config.max_ticks {
            return Err(format!("ticks = {} is outside 1 to {} (the tick cap)", self.ticks, header.config.max_ticks));
        }
        for (seat, f) in self.faults.iter().enumerate() {
            let total = f.invalid as u64 + f.timeout as u64 + f.crash as u64;
            if total > self.ticks as u64 {
                return Err(format!("faults[{seat}] add up to {total} in {} ticks, more than one a tick", self.ticks));
            }
        }
        if let Some(metrics) = &self.metrics {
            if metrics.len() != seats {
                return Err(format!("metrics must list {seats} seats; it lists {}", metrics.len()));
            }
            for (seat, m) in metrics.iter().enumerate() {
                if m.len() > crate::metric::NAMES_MAX {
                    return Err(format!(
                        "metrics[{seat}] has {} names, more than {}",
                        m.len(),
                        crate::metric::NAMES_MAX
                    ));
                }
                for (name, s) in m {
                    if !crate::metric::is_name(name) || s.n == 0 || s.n > self.ticks as u64 || !s.is_finite() {
                        return Err(format!(
                            "metrics[{seat}] {:?} is not a metric name with 1 to {} ticks and finite figures",
                            crate::io::untrusted::clip(name, 40),
                            self.ticks
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A results file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Not a file that can be read: a directory, a FIFO, a device.
    #[error("--results {}: {source}", path.display())]
    Input {
        /// The file.
        path: PathBuf,
        /// Why.
        source: InputError,
    },
    /// Reading or writing failed.
    #[error("--results {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A new tournament would overwrite finished games.
    #[error("--results {}: the file already holds results; add --resume to continue that tournament, or name another file", path.display())]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// `--resume` of a file that is not there.
    #[error("--results {}: no such file to resume; leave out --resume to start a new tournament", path.display())]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// The header is not this tournament's.
    #[error("--results {}: the file is another tournament's: {differences}; resume with the arguments it was started with, or name another file", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs, field by field.
        differences: String,
    },
    /// Another process has the file open for writing.
    #[error("--results {}: {holder} is writing this file; wait until it ends, or name another file", path.display())]
    Busy {
        /// The file.
        path: PathBuf,
        /// The other process, as far as it can be told.
        holder: String,
    },
    /// The header would be longer than a results line may be.
    #[error("--results {}: the tournament's header would be {size}, more than a results line may hold ({max}); use fewer or smaller maps", path.display())]
    HeaderTooLong {
        /// The file.
        path: PathBuf,
        /// The header's size.
        size: String,
        /// The most a line may hold.
        max: String,
    },
    /// A line that is not what it should be.
    #[error("--results {}: line {line}: {problem}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What is wrong.
        problem: String,
    },
}

/// An open results file, positioned for appending.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Starts a new results file with `header`. An existing file that holds
    /// anything is refused, so finished games are never overwritten; so is
    /// anything but a regular file (a FIFO would block the host).
    pub fn create(path: &Path, header: &Header) -> Result<ResultsFile, ResultsError> {
        let io = |source| ResultsError::Io { path: path.to_path_buf(), source };
        let header_line = header_line(path, header)?;
        if let Ok(meta) = std::fs::metadata(path) {
            if !meta.is_file() {
                let source =
                    input::open_regular(path, false).err().unwrap_or(InputError::NotAFile { kind: "not a file" });
                return Err(ResultsError::Input { path: path.to_path_buf(), source });
            }
        }
        // Not truncated on open: only once this run holds the lock, and only
        // when the file is empty, so another run's games are never lost.
        #[allow(clippy::suspicious_open_options)]
        let file = OpenOptions::new().create(true).read(true).write(true).open(path).map_err(io)?;
        lock(path, &file)?;
        if file.metadata().map_err(io)?.len() > 0 {
            return Err(ResultsError::Exists { path: path.to_path_buf() });
        }
        let mut results = ResultsFile { path: path.to_path_buf(), file };
        results.append_only()?;
        results.write_line(header_line.trim_end())?;
        Ok(results)
    }

    /// Opens a results file to continue it: checks its header against
    /// `header`, checks every game line and hands it to `on_game` in file
    /// order, cuts off a half-written last line, and leaves the file ready to
    /// append. An empty file, or one holding only the start of this
    /// tournament's header (killed while starting), is started afresh.
    pub fn resume(
        path: &Path,
        header: &Header,
        mut on_game: impl FnMut(GameLine) -> Result<(), String>,
    ) -> Result<ResultsFile, ResultsError> {
        let io = |source| ResultsError::Io { path: path.to_path_buf(), source };
        let file = match input::open_regular(path, true) {
            Ok((file, _)) => file,
            Err(InputError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ResultsError::Missing { path: path.to_path_buf() })
            }
            Err(source) => return Err(ResultsError::Input { path: path.to_path_buf(), source }),
        };
        let header_line = header_line(path, header)?;
        lock(path, &file)?;
        let scanned = scan(
            path,
            &file,
            // A header cut off must be the start of this one's (the host was
            // killed while starting the tournament).
            |torn| header_line.as_bytes().starts_with(torn),
            |line_no, text| {
                let damaged =
                    |problem: String| ResultsError::Damaged { path: path.to_path_buf(), line: line_no, problem };
                if line_no == 1 {
                    return check_header(header, text).map_err(|e| e.at(path));
                }
                let game: GameLine =
                    serde_json::from_str(text).map_err(|e| damaged(format!("not a game record: {e}")))?;
                game.check(header).map_err(damaged)?;
                on_game(game).map_err(damaged)
            },
        )?;
        let (complete_len, line_no) = (scanned.complete_len, scanned.lines);
        let mut results = ResultsFile { path: path.to_path_buf(), file };
        results.file.set_len(complete_len).map_err(io)?;
        results.file.seek(SeekFrom::End(0)).map_err(io)?;
        results.append_only()?;
        if line_no == 0 {
            results.write_line(header_line.trim_end())?;
        }
        Ok(results)
    }

    /// Appends one finished game and flushes it to the file.
    pub fn append(&mut self, game: &GameLine) -> Result<(), ResultsError> {
        self.write_line(&serde_json::to_string(game).expect("a game line serializes"))
    }

    /// Every later write goes to the end of the file (`O_APPEND`), whatever
    /// else has the file open.
    fn append_only(&mut self) -> Result<(), ResultsError> {
        use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
        fcntl_getfl(&self.file)
            .and_then(|flags| fcntl_setfl(&self.file, flags | OFlags::APPEND))
            .map_err(|e| ResultsError::Io { path: self.path.clone(), source: e.into() })
    }

    fn write_line(&mut self, json: &str) -> Result<(), ResultsError> {
        let mut line = String::with_capacity(json.len() + 1);
        line.push_str(json);
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| ResultsError::Io { path: self.path.clone(), source })
    }
}

/// The header's line, newline included, checked to be readable back.
fn header_line(path: &Path, header: &Header) -> Result<String, ResultsError> {
    let line = serde_json::to_string(header).expect("a header serializes") + "\n";
    let max = input::RESULTS_LINE.max_bytes;
    if line.len() as u64 > max {
        return Err(ResultsError::HeaderTooLong {
            path: path.to_path_buf(),
            size: input::size_text(line.len() as u64),
            max: input::size_text(max),
        });
    }
    Ok(line)
}

/// Takes the results file's lock (`flock`, exclusive), held as long as the
/// file is open: a second run on the same file is refused at once, naming
/// the process that holds it where `/proc/locks` tells.
fn lock(path: &Path, file: &File) -> Result<(), ResultsError> {
    use std::os::unix::fs::MetadataExt;
    match rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => return Ok(()),
        Err(e) if e == rustix::io::Errno::WOULDBLOCK => {}
        Err(e) => return Err(ResultsError::Io { path: path.to_path_buf(), source: e.into() }),
    }
    let holder = file
        .metadata()
        .ok()
        .and_then(|meta| lock_holder(meta.dev(), meta.ino()))
        .map(|(pid, name)| format!("another process (pid {pid}, {name})"))
        .unwrap_or_else(|| "another process".to_string());
    Err(ResultsError::Busy { path: path.to_path_buf(), holder })
}

/// The process holding a `flock` on the file `dev`/`ino`, and its name.
fn lock_holder(dev: u64, ino: u64) -> Option<(u32, String)> {
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    let wanted = format!("{major:02x}:{minor:02x}:{ino}");
    let pid = locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(1) == Some(&"FLOCK") && fields.get(5) == Some(&wanted.as_str()))
            .then(|| fields.get(4)?.parse::<u32>().ok())?
    })?;
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
    Some((pid, crate::io::untrusted::terminal_text(name.trim())))
}

/// What [`scan`] found: the length of the complete lines, how many there
/// are, and whether a last line without its newline followed them.
struct Scanned {
    complete_len: u64,
    lines: u64,
    torn: bool,
}

/// Reads a results file line by line, each up to [`input::RESULTS_LINE`],
/// handing every complete line (from 1, newline cut) to `on_line`. A last
/// line without its newline is left out (the host was killed while writing
/// it); when it is the first line, `torn_header_ok` must accept it.
fn scan(
    path: &Path,
    file: &File,
    torn_header_ok: impl Fn(&[u8]) -> bool,
    mut on_line: impl FnMut(u64, &str) -> Result<(), ResultsError>,
) -> Result<Scanned, ResultsError> {
    let io = |source| ResultsError::Io { path: path.to_path_buf(), source };
    let damaged = |line: u64, problem: String| ResultsError::Damaged { path: path.to_path_buf(), line, problem };
    let cap = input::RESULTS_LINE.max_bytes;
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    let mut scanned = Scanned { complete_len: 0, lines: 0, torn: false };
    loop {
        buf.clear();
        let n = (&mut reader).take(cap + 1).read_until(b'\n', &mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') {
            if n as u64 > cap {
                return Err(damaged(
                    scanned.lines + 1,
                    format!("longer than {}, the most a results line may hold", input::size_text(cap)),
                ));
            }
            if scanned.lines == 0 && !torn_header_ok(&buf) {
                return Err(damaged(1, "not a tournament header (and not the start of this one's)".into()));
            }
            scanned.torn = true;
            break;
        }
        scanned.lines += 1;
        let text = std::str::from_utf8(&buf).map_err(|_| damaged(scanned.lines, "not UTF-8 text".into()))?.trim_end();
        on_line(scanned.lines, text)?;
        scanned.complete_len += n as u64;
    }
    Ok(scanned)
}

/// A results file read back whole and left untouched (for `tournament
/// merge`): its header and its game lines, each checked against the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents {
    /// The header line.
    pub header: Header,
    /// The game lines with their line numbers (from 1), in file order.
    pub games: Vec<(u64, GameLine)>,
    /// Whether a last line without its newline was left out: the run was
    /// killed while writing it.
    pub torn: bool,
}

/// Reads the results file `path` without changing it. It must hold at least
/// a complete header of this format; every game line must agree with it.
pub fn read(path: &Path) -> Result<Contents, ResultsError> {
    let file = match input::open_regular(path, false) {
        Ok((file, _)) => file,
        Err(source) => return Err(ResultsError::Input { path: path.to_path_buf(), source }),
    };
    let damaged = |line: u64, problem: String| ResultsError::Damaged { path: path.to_path_buf(), line, problem };
    let mut header: Option<Header> = None;
    let mut games = Vec::new();
    let scanned = scan(
        path,
        &file,
        |_| false,
        |line_no, text| {
            let Some(header) = &header else {
                header = Some(parse_header(text).map_err(|e| e.at(path))?);
                return Ok(());
            };
            let game: GameLine =
                serde_json::from_str(text).map_err(|e| damaged(line_no, format!("not a game record: {e}")))?;
            game.check(header).map_err(|problem| damaged(line_no, problem))?;
            games.push((line_no, game));
            Ok(())
        },
    )?;
    let header = header.ok_or_else(|| damaged(1, "empty: no tournament header".into()))?;
    Ok(Contents { header, games, torn: scanned.torn })
}

/// Why a header line is not this tournament's.
enum HeaderProblem {
    /// Not a header at all.
    Damaged(String),
    /// Another tournament's: what differs, field by field.
    Differs(String),
}

impl HeaderProblem {
    fn at(self, path: &Path) -> ResultsError {
        let path = path.to_path_buf();
        match self {
            HeaderProblem::Damaged(problem) => ResultsError::Damaged { path, line: 1, problem },
            HeaderProblem::Differs(differences) => ResultsError::Mismatch { path, differences },
        }
    }
}

/// Compares the header line found in a file with this tournament's, field
/// by field, and names every difference.
fn check_header(expected: &Header, line: &str) -> Result<(), HeaderProblem> {
    let found = parse_header(line)?;
    let differences: Vec<String> = header_differences(&found, expected)
        .into_iter()
        .map(|(key, have, want)| format!("{key} is {have} in the file, {want} here"))
        .collect();
    if differences.is_empty() {
        Ok(())
    } else {
        Err(HeaderProblem::Differs(differences.join("; ")))
    }
}

/// Reads a header line into typed fields (never into a generic JSON tree,
/// whose memory could be many times the line's); a line of another format
/// says so.
fn parse_header(line: &str) -> Result<Header, HeaderProblem> {
    /// The format alone, the rest skipped: a file of another format says so.
    #[derive(Deserialize)]
    struct Format {
        format: Option<String>,
    }
    let format = serde_json::from_str::<Format>(line)
        .map_err(|e| HeaderProblem::Damaged(format!("not a tournament header: {e}")))?
        .format;
    if format.as_deref() != Some(FORMAT) {
        let shown = format.map_or("missing".to_string(), |f| format!("{:?}", clip(&f)));
        return Err(HeaderProblem::Damaged(format!("format {shown} is not {FORMAT:?}")));
    }
    serde_json::from_str(line).map_err(|e| HeaderProblem::Damaged(format!("not a tournament header: {e}")))
}

/// The fields in which header `found` differs from `expected`: each with
/// its JSON in `found` and in `expected`, clipped for a message.
pub fn header_differences(found: &Header, expected: &Header) -> Vec<(&'static str, String, String)> {
    let mut differences = Vec::new();
    let mut compare =
        |key: &'static str, have: serde_json::Result<String>, want: serde_json::Result<String>, same: bool| {
            if !same {
                let (have, want) = (have.expect("a header field serializes"), want.expect("a header field serializes"));
                differences.push((key, clip(&have), clip(&want)));
            }
        };
    macro_rules! field {
        ($name:ident) => {
            compare(
                stringify!($name),
                serde_json::to_string(&found.$name),
                serde_json::to_string(&expected.$name),
                found.$name == expected.$name,
            )
        };
    }
    if expected.league.is_some() && found.league.is_some() {
        // A league takes new bots: the file's bots must come first, as they were.
        let n = found.bots.len();
        let same = n <= expected.bots.len() && found.bots[..] == expected.bots[..n];
        compare(
            "bots",
            serde_json::to_string(&found.bots),
            serde_json::to_string(&expected.bots[..n.min(expected.bots.len())]),
            same,
        );
    } else {
        field!(bots);
    }
    field!(pairing);
    field!(seed);
    field!(config);
    field!(map);
    field!(time_first_ms);
    field!(time_ms);
    field!(time_margin_ms);
    field!(time_bank_ms);
    field!(time_inc_ms);
    field!(seats);
    field!(maps);
    field!(league);
    field!(shard);
    field!(fuel_per_tick);
    differences
}

/// Text cut to 120 characters, with `…` when cut.
fn clip(s: &str) -> String {
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The line of a game as it finished.
pub fn game_line(
    scheduled: &ScheduledGame,
    names: Vec<String>,
    outcome: &lightcycles_core::Outcome,
    faults: Vec<Faults>,
    map: Option<String>,
    replay: Option<&Path>,
    command: Option<String>,
) -> GameLine {
    GameLine {
        game: scheduled.game,
        round: scheduled.round,
        pairing: scheduled.pairing,
        seed: scheduled.seed,
        seats: scheduled.seats.clone(),
        bots: names,
        winner: outcome.winner,
        placements: (scheduled.seats.len() > 2).then(|| outcome.placements.clone()),
        ticks: outcome.ticks,
        faults,
        map,
        replay: replay.map(|p| p.display().to_string()),
        command,
        metrics: None,
    }
}

#[cfg(test)]
mod tests;
