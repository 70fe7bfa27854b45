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

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use lightcycles_core::replay::ReplayConfig;
use serde::{Deserialize, Serialize};

use super::schedule::{PairingMode, ScheduledGame};
use crate::match_loop::FaultCounts;

/// The `format` of the header line.
pub const FORMAT: &str = "lightcycles-tournament/1";

/// A bot as the header names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderBot {
    /// Its display name.
    pub name: String,
    /// Its spec as given on the command line.
    pub spec: String,
}

/// The first line: everything that decides which games are played and how.
/// A resumed run must have the same header; the number of games (`-g`),
/// `--sprt`, `-j` and `-o` may differ, since they change neither a game's
/// index nor its result.
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
    pub config: ReplayConfig,
    /// The text of the 2010 map file every game is played on, if any.
    pub map: Option<String>,
    /// Time for a bot's first answer.
    pub time_first_ms: u64,
    /// Time for each later answer.
    pub time_ms: u64,
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
    /// All faults.
    pub fn total(&self) -> u32 {
        self.invalid + self.timeout + self.crash
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
    pub seats: [usize; 2],
    /// The bots' names by seat.
    pub bots: [String; 2],
    /// The seat that won, or `null` for a draw.
    pub winner: Option<usize>,
    /// Ticks played.
    pub ticks: u32,
    /// Faults by seat.
    pub faults: [Faults; 2],
    /// The replay file, when replays are written (`-o`).
    pub replay: Option<String>,
    /// For a game with a fault: the command that plays it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// What the statistics keep of a game: small and fixed in size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's index.
    pub game: u64,
    /// The bots by seat.
    pub seats: [usize; 2],
    /// The seat that won, if one did.
    pub winner: Option<usize>,
    /// Faults by seat.
    pub faults: [Faults; 2],
}

impl GameLine {
    /// What the statistics keep of this line.
    pub fn result(&self) -> GameResult {
        GameResult { game: self.game, seats: self.seats, winner: self.winner, faults: self.faults }
    }
}

/// A results file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
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
    /// anything is refused, so finished games are never overwritten.
    pub fn create(path: &Path, header: &Header) -> Result<ResultsFile, ResultsError> {
        let io = |source| ResultsError::Io { path: path.to_path_buf(), source };
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            return Err(ResultsError::Exists { path: path.to_path_buf() });
        }
        let file = OpenOptions::new().create(true).write(true).truncate(true).open(path).map_err(io)?;
        let mut results = ResultsFile { path: path.to_path_buf(), file };
        results.write_line(&serde_json::to_string(header).expect("a header serializes"))?;
        Ok(results)
    }

    /// Opens a results file to continue it: checks its header against
    /// `header`, hands every finished game to `on_game` in file order, cuts
    /// off a half-written last line, and leaves the file ready to append.
    /// A file with no complete header line (killed while starting) is
    /// started afresh.
    pub fn resume(
        path: &Path,
        header: &Header,
        mut on_game: impl FnMut(GameLine) -> Result<(), String>,
    ) -> Result<ResultsFile, ResultsError> {
        let io = |source| ResultsError::Io { path: path.to_path_buf(), source };
        let file = match OpenOptions::new().read(true).write(true).open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ResultsError::Missing { path: path.to_path_buf() })
            }
            Err(e) => return Err(io(e)),
        };
        let damaged = |line: u64, problem: String| ResultsError::Damaged { path: path.to_path_buf(), line, problem };
        let mut reader = BufReader::new(&file);
        let mut buf = Vec::new();
        let mut complete_len = 0u64;
        let mut line_no = 0u64;
        loop {
            buf.clear();
            let n = reader.read_until(b'\n', &mut buf).map_err(io)?;
            if n == 0 || buf.last() != Some(&b'\n') {
                break; // the end, or a half-written last line
            }
            line_no += 1;
            let text = std::str::from_utf8(&buf).map_err(|_| damaged(line_no, "not UTF-8 text".into()))?.trim_end();
            if line_no == 1 {
                let found: serde_json::Value =
                    serde_json::from_str(text).map_err(|e| damaged(1, format!("not a tournament header: {e}")))?;
                check_header(path, header, &found)?;
            } else {
                let game: GameLine =
                    serde_json::from_str(text).map_err(|e| damaged(line_no, format!("not a game record: {e}")))?;
                on_game(game).map_err(|problem| damaged(line_no, problem))?;
            }
            complete_len += n as u64;
        }
        drop(reader);
        let mut results = ResultsFile { path: path.to_path_buf(), file };
        results.file.set_len(complete_len).map_err(io)?;
        results.file.seek(SeekFrom::End(0)).map_err(io)?;
        if line_no == 0 {
            results.write_line(&serde_json::to_string(header).expect("a header serializes"))?;
        }
        Ok(results)
    }

    /// Appends one finished game and flushes it to the file.
    pub fn append(&mut self, game: &GameLine) -> Result<(), ResultsError> {
        self.write_line(&serde_json::to_string(game).expect("a game line serializes"))
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

/// Compares the header found in a file with this tournament's, field by
/// field, and names every difference.
fn check_header(path: &Path, expected: &Header, found: &serde_json::Value) -> Result<(), ResultsError> {
    let expected = serde_json::to_value(expected).expect("a header serializes");
    let (Some(want), Some(have)) = (expected.as_object(), found.as_object()) else {
        return Err(ResultsError::Damaged {
            path: path.to_path_buf(),
            line: 1,
            problem: "not a tournament header".into(),
        });
    };
    if have.get("format") != want.get("format") {
        return Err(ResultsError::Damaged {
            path: path.to_path_buf(),
            line: 1,
            problem: format!("format {} is not {FORMAT:?}", have.get("format").unwrap_or(&serde_json::Value::Null)),
        });
    }
    let null = serde_json::Value::Null;
    let differences: Vec<String> = want
        .iter()
        .filter(|(key, value)| have.get(key.as_str()).unwrap_or(&null) != *value)
        .map(|(key, value)| {
            let shown = |v: &serde_json::Value| {
                let s = v.to_string();
                if s.chars().count() > 120 {
                    format!("{}…", s.chars().take(120).collect::<String>())
                } else {
                    s
                }
            };
            format!("{key} is {} in the file, {} here", shown(have.get(key.as_str()).unwrap_or(&null)), shown(value))
        })
        .collect();
    if differences.is_empty() {
        Ok(())
    } else {
        Err(ResultsError::Mismatch { path: path.to_path_buf(), differences: differences.join("; ") })
    }
}

/// The line of a game as it finished.
pub fn game_line(
    scheduled: &ScheduledGame,
    names: [String; 2],
    winner: Option<usize>,
    ticks: u32,
    faults: [Faults; 2],
    replay: Option<&Path>,
    command: Option<String>,
) -> GameLine {
    GameLine {
        game: scheduled.game,
        round: scheduled.round,
        pairing: scheduled.pairing,
        seed: scheduled.seed,
        seats: scheduled.seats,
        bots: names,
        winner,
        ticks,
        faults,
        replay: replay.map(|p| p.display().to_string()),
        command,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Config, FaultPolicy};

    fn header(seed: u64) -> Header {
        Header {
            format: FORMAT.into(),
            bots: vec![
                HeaderBot { name: "a".into(), spec: "a=builtin:random".into() },
                HeaderBot { name: "straight".into(), spec: "builtin:straight".into() },
            ],
            pairing: PairingMode::RoundRobin,
            seed,
            config: ReplayConfig::from(&Config::default()),
            map: None,
            time_first_ms: 1000,
            time_ms: 50,
        }
    }

    fn line(game: u64) -> GameLine {
        GameLine {
            game,
            round: game / 2,
            pairing: 0,
            seed: game / 2,
            seats: if game % 2 == 0 { [0, 1] } else { [1, 0] },
            bots: ["a".into(), "straight".into()],
            winner: Some((game % 2) as usize),
            ticks: 10 + game as u32,
            faults: [Faults::default(), Faults { invalid: 1, timeout: 2, crash: 0 }],
            replay: None,
            command: None,
        }
    }

    fn read_back(path: &Path, h: &Header) -> Result<Vec<GameLine>, ResultsError> {
        let mut games = Vec::new();
        ResultsFile::resume(path, h, |g| {
            games.push(g);
            Ok(())
        })?;
        Ok(games)
    }

    #[test]
    fn games_written_are_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let mut file = ResultsFile::create(&path, &header(3)).unwrap();
        for g in [0, 2, 1] {
            file.append(&line(g)).unwrap();
        }
        drop(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert!(text.starts_with("{\"format\":\"lightcycles-tournament/1\",\"bots\":[{\"name\":\"a\""), "{text}");
        assert!(text.ends_with('\n'));
        assert_eq!(read_back(&path, &header(3)).unwrap(), vec![line(0), line(2), line(1)]);
        // A resumed file appends after what it holds.
        let mut file = ResultsFile::resume(&path, &header(3), |_| Ok(())).unwrap();
        file.append(&line(3)).unwrap();
        assert_eq!(read_back(&path, &header(3)).unwrap().len(), 4);
    }

    #[test]
    fn a_half_written_last_line_is_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let mut file = ResultsFile::create(&path, &header(3)).unwrap();
        file.append(&line(0)).unwrap();
        drop(file);
        let whole = std::fs::read_to_string(&path).unwrap();
        let half = serde_json::to_string(&line(1)).unwrap();
        std::fs::write(&path, format!("{whole}{}", &half[..half.len() / 2])).unwrap();
        let mut file = ResultsFile::resume(&path, &header(3), |_| Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), whole, "cut back to the last whole line");
        file.append(&line(1)).unwrap();
        assert_eq!(read_back(&path, &header(3)).unwrap(), vec![line(0), line(1)]);
    }

    #[test]
    fn a_file_with_only_half_a_header_starts_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, "{\"format\":\"lightcy").unwrap();
        drop(ResultsFile::resume(&path, &header(3), |_| Ok(())).unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, serde_json::to_string(&header(3)).unwrap() + "\n");
    }

    #[test]
    fn another_tournaments_file_is_refused_naming_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        drop(ResultsFile::create(&path, &header(3)).unwrap());
        let mut other = header(4);
        other.config.fault_policy = FaultPolicy::Eliminate;
        let err = read_back(&path, &other).unwrap_err().to_string();
        assert!(err.contains("the file is another tournament's"), "{err}");
        assert!(err.contains("seed is 3 in the file, 4 here"), "{err}");
        assert!(err.contains("config is {"), "{err}");
        assert!(!err.contains("bots is"), "{err}");
        let err = ResultsFile::create(&path, &header(3)).unwrap_err().to_string();
        assert!(err.contains("already holds results; add --resume"), "{err}");
        let err = read_back(&dir.path().join("none.jsonl"), &header(3)).unwrap_err().to_string();
        assert!(err.contains("no such file to resume"), "{err}");
    }

    #[test]
    fn damaged_lines_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let head = serde_json::to_string(&header(3)).unwrap();
        let good = serde_json::to_string(&line(0)).unwrap();
        std::fs::write(&path, format!("{head}\n{good}\nnot json\n{good}\n")).unwrap();
        let err = read_back(&path, &header(3)).unwrap_err().to_string();
        assert!(err.contains("line 3: not a game record"), "{err}");
        std::fs::write(&path, "{\"format\":\"something-else/1\"}\n").unwrap();
        let err = read_back(&path, &header(3)).unwrap_err().to_string();
        assert!(err.contains("line 1: format \"something-else/1\""), "{err}");
        std::fs::write(&path, format!("{head}\n{good}\n")).unwrap();
        let err = ResultsFile::resume(&path, &header(3), |_| Err("game 0 twice".into())).unwrap_err().to_string();
        assert!(err.contains("line 2: game 0 twice"), "{err}");
    }
}
