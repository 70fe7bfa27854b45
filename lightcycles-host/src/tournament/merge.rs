//! `tournament merge`: the results files of a tournament's shards made one
//! results file, the one the unsharded run writes, and its report.
//!
//! The shards must be of one tournament: the same header but for the
//! shard's index (bots, pairing, seed, board, limits, shard count, games).
//! Every game of the schedule must be in the shard it belongs to, once; a
//! game found twice (a shard retried, or given twice) must be the same line
//! both times. Anything else is refused, in words, before anything is
//! written; the inputs are only read.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::report::Report;
use super::results::{self, GameLine, Header, ResultsError, ShardHeader};
use super::schedule::Schedule;
use super::shard::Shard;
use super::standings::Standings;
use crate::io::whole_file;
use crate::stats::Sprt;

/// The shards made one: the unsharded header and every game in index order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The header of the whole tournament (no shard).
    pub header: Header,
    /// Its schedule, from the header.
    pub schedule: Schedule,
    /// Every game, in index order.
    pub games: Vec<GameLine>,
    /// Things worth saying that are not errors (a shard given twice).
    pub notes: Vec<String>,
}

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No file given.
    #[error("no results file given: merge takes the results files of a tournament's shards")]
    Nothing,
    /// A file that cannot be read, or a line in it that is not right.
    #[error("{}", about_file(.0))]
    Results(#[from] ResultsError),
    /// A file of an unsharded run.
    #[error("{}: not a shard's results (its header has no shard): a tournament played without --shard needs no merge", .0.display())]
    NotAShard(PathBuf),
    /// A shard of another tournament than the first file's.
    #[error("{} is not of the same tournament as {}: {differences}", path.display(), first.display())]
    OtherTournament {
        /// The file.
        path: PathBuf,
        /// The first file, which the others are compared with.
        first: PathBuf,
        /// What differs, field by field.
        differences: String,
    },
    /// A header that says a schedule that cannot be.
    #[error("{}: line 1: {problem}", path.display())]
    BadSchedule {
        /// The file.
        path: PathBuf,
        /// Why.
        problem: String,
    },
    /// A game line that does not belong where it is.
    #[error("{}: line {line}: {problem}", path.display())]
    Misplaced {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What is wrong.
        problem: String,
    },
    /// One game with two different results.
    #[error("game {game} is in {} (line {}) and in {} (line {}) with different {what}: a game is played the same way every time, so these are not shards of one tournament", first.0.display(), first.1, second.0.display(), second.1)]
    Conflict {
        /// The game's index.
        game: u64,
        /// The first place it was found: file and line.
        first: (PathBuf, u64),
        /// The second.
        second: (PathBuf, u64),
        /// The fields that differ.
        what: String,
    },
    /// Games not played yet.
    #[error("{missing} of the tournament's {total} games are missing, so nothing was written: {detail}")]
    Missing {
        /// Games missing.
        missing: u64,
        /// Games of the tournament.
        total: u64,
        /// Which, shard by shard.
        detail: String,
    },
    /// The merged file could not be written.
    #[error("-o {}: {problem}", path.display())]
    Output {
        /// The file.
        path: PathBuf,
        /// Why.
        problem: String,
    },
}

/// A results file's error said of the file alone (not of `--results`, a
/// flag merge does not have).
fn about_file(e: &ResultsError) -> String {
    let message = e.to_string();
    message.strip_prefix("--results ").map_or(message.clone(), str::to_string)
}

/// One shard file as read.
struct ShardFile {
    path: PathBuf,
    shard: ShardHeader,
    contents: results::Contents,
}

/// Reads and checks the shards' results files `paths` and merges them.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, MergeError> {
    let Some(first_path) = paths.first() else { return Err(MergeError::Nothing) };
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let contents = results::read(path)?;
        let Some(shard) = contents.header.shard else { return Err(MergeError::NotAShard(path.clone())) };
        files.push(ShardFile { path: path.clone(), shard, contents });
    }
    // Every header is the first's but for the shard's index.
    let first = &files[0];
    let mut header = first.contents.header.clone();
    header.shard = None;
    for f in &files[1..] {
        let mut same = f.contents.header.clone();
        same.shard = Some(ShardHeader { index: first.shard.index, ..f.shard });
        let differences = results::header_differences(&same, &first.contents.header);
        if !differences.is_empty() {
            let differences = differences
                .into_iter()
                .map(|(key, have, want)| format!("{key} is {have} there, {want} in the first"))
                .collect::<Vec<_>>()
                .join("; ");
            return Err(MergeError::OtherTournament { path: f.path.clone(), first: first_path.clone(), differences });
        }
    }
    let (count, games_per_pairing) = (first.shard.count, first.shard.games_per_pairing);
    let mut schedule =
        Schedule::with_seats(header.bots.len(), header.seats, header.pairing, games_per_pairing, header.seed)
            .map_err(|e| MergeError::BadSchedule { path: first_path.clone(), problem: e.to_string() })?;
    if let Some(maps) = &header.maps {
        schedule = schedule.with_maps(super::maps::order_of_header(maps, header.seed));
    }
    let total = schedule.total_games();

    let mut notes = Vec::new();
    let mut seen_shards: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut games: BTreeMap<u64, (GameLine, &Path, u64)> = BTreeMap::new();
    for f in &files {
        let shard = Shard::new(f.shard.index, count).ok_or_else(|| MergeError::BadSchedule {
            path: f.path.clone(),
            problem: format!("shard {}/{count}: the index must be less than the count", f.shard.index),
        })?;
        if let Some(earlier) = seen_shards.insert(shard.index(), &f.path) {
            notes.push(format!(
                "shard {shard} is given twice ({} and {}): games found in both must be the same, and are",
                earlier.display(),
                f.path.display()
            ));
        }
        for (line_no, game) in &f.contents.games {
            let misplaced = |problem: String| MergeError::Misplaced { path: f.path.clone(), line: *line_no, problem };
            if game.game >= total {
                return Err(misplaced(format!(
                    "game {} lies beyond the tournament's {total} games ({games_per_pairing} a pairing)",
                    game.game
                )));
            }
            if !shard.contains(game.game) {
                return Err(misplaced(format!("game {} is not one of shard {shard}'s games", game.game)));
            }
            game.check_scheduled(&schedule).map_err(misplaced)?;
            match games.entry(game.game) {
                Entry::Vacant(e) => {
                    e.insert((game.clone(), &f.path, *line_no));
                }
                Entry::Occupied(e) => {
                    let (known, known_path, known_line) = e.get();
                    if known != game {
                        return Err(MergeError::Conflict {
                            game: game.game,
                            first: (known_path.to_path_buf(), *known_line),
                            second: (f.path.clone(), *line_no),
                            what: differing_fields(known, game),
                        });
                    }
                }
            }
        }
    }
    if (games.len() as u64) < total {
        return Err(missing(&files, &games, count, total));
    }
    let games = games.into_values().map(|(game, _, _)| game).collect();
    Ok(Merged { header, schedule, games, notes })
}

/// The games missing, said shard by shard (a few indices each).
fn missing(files: &[ShardFile], games: &BTreeMap<u64, (GameLine, &Path, u64)>, count: u64, total: u64) -> MergeError {
    let mut detail = Vec::new();
    for index in 0..count {
        let shard = Shard::new(index, count).expect("index < count");
        let expected = shard.games_of(total);
        let lacking: Vec<u64> =
            (0..expected).map(|n| shard.game(n)).filter(|g| !games.contains_key(g)).take(4).collect();
        if lacking.is_empty() {
            continue;
        }
        let have = (0..expected).filter(|&n| games.contains_key(&shard.game(n))).count();
        let file = files.iter().find(|f| f.shard.index == index);
        let mut text = match file {
            None => format!("shard {shard} has no file"),
            Some(f) => format!("shard {shard} ({}) has {have} of its {expected} games", f.path.display()),
        };
        if file.is_some() {
            let list = lacking.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
            let more = if expected - have as u64 > lacking.len() as u64 { ", …" } else { "" };
            text.push_str(&format!(" (missing {list}{more})"));
            if file.is_some_and(|f| f.contents.torn) {
                text.push_str(", its last line cut off: it was stopped while running");
            }
            text.push_str("; finish it with --resume");
        }
        detail.push(text);
    }
    let missing = total - games.len() as u64;
    MergeError::Missing { missing, total, detail: detail.join("; ") }
}

/// The fields in which two lines of one game differ.
fn differing_fields(a: &GameLine, b: &GameLine) -> String {
    let (a, b) = (serde_json::to_value(a).expect("a line serializes"), serde_json::to_value(b).expect("serializes"));
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else { return "results".into() };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let show = |v: Option<&serde_json::Value>| v.map_or("absent".to_string(), |v| v.to_string());
            format!(
                "{k} ({} and {})",
                crate::io::untrusted::clip(&show(a.get(k)), 60),
                crate::io::untrusted::clip(&show(b.get(k)), 60)
            )
        })
        .collect();
    differ.join(", ")
}

impl Merged {
    /// The merged results file: the header line, then every game in index
    /// order, each line as the tournament writes it.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string(&self.header).expect("a header serializes");
        text.push('\n');
        for game in &self.games {
            text.push_str(&serde_json::to_string(game).expect("a game line serializes"));
            text.push('\n');
        }
        text
    }

    /// Writes the merged results file to `path`, whole (a file that holds
    /// anything already is refused, as `--results` refuses it).
    pub fn write(&self, path: &Path) -> Result<(), MergeError> {
        let output = |problem: String| MergeError::Output { path: path.to_path_buf(), problem };
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file() || m.len() > 0) {
            return Err(output("the file already exists; name another file".into()));
        }
        whole_file::write(path, self.to_text().as_bytes()).map_err(|e| output(format!("cannot write: {e}")))
    }

    /// The tournament's report, counted from the merged games in index
    /// order, as the unsharded run counts them; `sprt` is judged on the
    /// first pairing.
    pub fn report(&self, sprt: Option<Sprt>) -> Report {
        let names: Vec<String> = self.header.bots.iter().map(|b| b.name.clone()).collect();
        let specs: Vec<String> = self.header.bots.iter().map(|b| b.spec.clone()).collect();
        let mut standings = Standings::new(&self.schedule, names.len(), sprt);
        for game in &self.games {
            standings.add(game.result());
        }
        standings.finish();
        Report::new(&self.schedule, self.header.pairing, &standings, &names, &specs)
    }
}
