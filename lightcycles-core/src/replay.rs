//! Transcripts: recording a game, the replay file of docs/RULES.md section 10,
//! and replaying one to find the first difference.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};

use crate::bounded;
use crate::command::{Action, Answer, FaultKind};
use crate::config::{Config, MAX_PLAYERS, MAX_SIDE};
use crate::engine::{Engine, GameError};
use crate::geometry::Dir;
use crate::map::{self, Map};
use crate::outcome::Outcome;

/// The `format` of the replay files this crate reads and writes.
pub const FORMAT: &str = "lightcycles-replay/1";

/// Most ticks a replay may hold. While two players or more ride, each of
/// them fills a new cell every tick, so no game lasts beyond half the cells
/// of the largest board; this bound, all its cells, leaves room to spare.
/// Longer lists of `commands`, `faults` or `frames` are refused as they are
/// read, and so is any list longer than the rules allow (`names`, `rocks`,
/// `start`, a row of players), so that reading a replay takes memory in
/// proportion to its text, whatever the text.
pub const MAX_TICKS_IN_REPLAY: usize = (MAX_SIDE * MAX_SIDE) as usize;

/// Most cells of a board, as a length.
const CELLS: usize = (MAX_SIDE * MAX_SIDE) as usize;

/// The bounded readers of each list of a replay.
mod lists {
    use super::*;
    use serde::Deserializer;

    macro_rules! bounded {
        ($name:ident, $ty:ty, $max:expr, $what:literal) => {
            pub(super) fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<$ty>, D::Error> {
                bounded::list(d, $max, $what)
            }
        };
        ($name:ident, $ty:ty, $rows:expr, $columns:expr, $what:literal) => {
            pub(super) fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<$ty>>, D::Error> {
                bounded::rows(d, $rows, $columns, $what)
            }
        };
    }

    bounded!(heads, [u32; 3], MAX_PLAYERS, "heads");
    bounded!(dirs, Dir, MAX_PLAYERS, "dirs");
    bounded!(placements, u32, MAX_PLAYERS, "placements");
    bounded!(eliminated_at, Option<u32>, MAX_PLAYERS, "eliminated_at");
    bounded!(trails, u32, MAX_PLAYERS, "trails");
    bounded!(names, String, MAX_PLAYERS, "names");
    bounded!(rocks, [u32; 2], CELLS, "rocks");
    bounded!(start, (u32, u32, Dir), MAX_PLAYERS, "start");
    bounded!(commands, Option<String>, MAX_TICKS_IN_REPLAY, MAX_PLAYERS, "commands");
    bounded!(faults, Option<FaultKind>, MAX_TICKS_IN_REPLAY, MAX_PLAYERS, "faults");
    bounded!(frames, Frame, MAX_TICKS_IN_REPLAY + 1, "frames");
    bounded!(bank_rows, Option<u64>, MAX_TICKS_IN_REPLAY, MAX_PLAYERS, "time_banks");

    /// `time_banks`: absent, `null`, or rows bounded as `commands` are.
    pub(super) fn time_banks<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BankRows>, D::Error> {
        #[derive(Deserialize)]
        struct Rows(#[serde(deserialize_with = "bank_rows")] BankRows);
        Ok(Option::<Rows>::deserialize(d)?.map(|rows| rows.0))
    }

    bounded!(lines, String, MAX_SAID_LINES, "lines");

    pub(super) fn said<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Said>>, D::Error> {
        bounded::list(d, MAX_TICKS_IN_REPLAY * MAX_PLAYERS, "said").map(Some)
    }
}

/// Most lines of one [`Said`] entry a replay may hold: what one bot wrote
/// on one tick (the host keeps a few KiB of it, so far fewer lines).
pub const MAX_SAID_LINES: usize = 8192;

/// What one bot wrote on one tick, besides its answer (its stderr, or what
/// its adapter captured), as the host that played the game recorded it.
/// The rules do not read it; `verify` checks only that it names ticks that
/// were played and players of the game, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    /// The tick whose answer it came with (1 for the first).
    pub tick: u32,
    /// The player who wrote it.
    pub player: u32,
    /// The lines, without their line breaks.
    #[serde(deserialize_with = "lists::lines")]
    pub lines: Vec<String>,
    /// Whether the host cut what the bot wrote (a cap per tick or per game).
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The state after some ticks: heads `[x, y, alive]` and directions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// Ticks played.
    pub t: u32,
    /// `[x, y, alive]` per player, `alive` as 1 or 0.
    #[serde(deserialize_with = "lists::heads")]
    pub heads: Vec<[u32; 3]>,
    /// Direction per player.
    #[serde(deserialize_with = "lists::dirs")]
    pub dirs: Vec<Dir>,
}

impl Frame {
    /// The frame of an engine's current state.
    pub fn of<E: Engine>(engine: &E) -> Frame {
        let players = (0..engine.num_players()).map(|i| engine.player(i));
        let (heads, dirs) = players.map(|p| ([p.pos.x as u32, p.pos.y as u32, p.alive as u32], p.dir)).unzip();
        Frame { t: engine.tick(), heads, dirs }
    }
}

/// The `result` object of a replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayResult {
    /// Whether no single player won.
    pub draw: bool,
    /// The tick on which the game ended.
    pub ticks: u32,
    /// Placement per player.
    #[serde(deserialize_with = "lists::placements")]
    pub placements: Vec<u32>,
    /// Tick of elimination per player.
    #[serde(deserialize_with = "lists::eliminated_at")]
    pub eliminated_at: Vec<Option<u32>>,
    /// Trail length per player.
    #[serde(deserialize_with = "lists::trails")]
    pub trails: Vec<u32>,
}

impl From<&Outcome> for ReplayResult {
    fn from(o: &Outcome) -> Self {
        ReplayResult {
            draw: o.draw,
            ticks: o.ticks,
            placements: o.placements.clone(),
            eliminated_at: o.eliminated_at.clone(),
            trails: o.trails.clone(),
        }
    }
}

/// One game, complete enough to replay it exactly (docs/RULES.md section 10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// Always [`FORMAT`].
    pub format: String,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Number of players.
    pub num_players: u32,
    /// The tick cap.
    pub max_ticks: u32,
    /// The bots' display names, by seat.
    #[serde(deserialize_with = "lists::names")]
    pub names: Vec<String>,
    /// The seed, `None` for a custom map.
    pub seed: Option<u64>,
    /// The configuration.
    pub config: Config,
    /// The text of the custom map file, `None` for a seeded map.
    pub map: Option<String>,
    /// Rock cells `[x, y]`, sorted by `y` then `x`.
    #[serde(deserialize_with = "lists::rocks")]
    pub rocks: Vec<[u32; 2]>,
    /// Start cells and directions.
    #[serde(deserialize_with = "lists::start")]
    pub start: Vec<(u32, u32, Dir)>,
    /// `commands[k][i]`: the line player `i` answered on tick `k + 1`.
    #[serde(deserialize_with = "lists::commands")]
    pub commands: Vec<Vec<Option<String>>>,
    /// `faults[k][i]`: the fault of player `i` on tick `k + 1`.
    #[serde(deserialize_with = "lists::faults")]
    pub faults: Vec<Vec<Option<FaultKind>>>,
    /// `frames[k]`: the state after `k` ticks.
    #[serde(deserialize_with = "lists::frames")]
    pub frames: Vec<Frame>,
    /// The winner, `None` for a draw (or an unfinished game).
    pub winner: Option<usize>,
    /// How the game ended.
    pub result: ReplayResult,
    /// The time limits the host gave each seat, when it gave bots limits
    /// of their own or a margin (the rules do not read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limits: Option<TimeLimits>,
    /// `time_banks[k][i]`: the time bank player `i` was told it had left
    /// (its observation's `time_bank_ms`) before deciding tick `k + 1`, or
    /// `None` when it was not asked or had no bank; present only when some
    /// seat had a bank (the rules do not read it; `replay feed` sends it back).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lists::time_banks")]
    pub time_banks: Option<BankRows>,
    /// What the bots wrote, tick by tick, ordered by tick then player;
    /// absent when no bot wrote anything (the rules do not read it).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lists::said")]
    pub said: Option<Vec<Said>>,
}

/// `rows[k][i]`: the time bank in milliseconds player `i` was told it had
/// left before deciding tick `k + 1` (a replay's `time_banks`).
pub type BankRows = Vec<Vec<Option<u64>>>;

/// The time limits of a game's seats, in milliseconds, as the host that
/// played it recorded them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLimits {
    /// The first answer's limit, by seat.
    pub first_ms: Vec<u64>,
    /// Each later answer's limit, by seat.
    pub ms: Vec<u64>,
    /// Time past the limit still taken as in time.
    pub margin_ms: u64,
    /// Each seat's time bank at the start of the game, when some seat had
    /// one (docs/bots.md, "Time banks").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<Vec<u64>>,
    /// What each answer adds to the seat's bank, when some seat had a bank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inc_ms: Option<Vec<u64>>,
}

/// Where a game's map came from.
#[derive(Clone, Copy, Debug)]
pub enum Origin<'a> {
    /// Generated from this seed.
    Seed(u64),
    /// Loaded from this 2010 map file text.
    MapFile(&'a str),
}

/// Records a game tick by tick into a [`Replay`].
#[derive(Clone, Debug)]
pub struct Recorder {
    replay: Replay,
}

impl Recorder {
    /// Starts a transcript of `engine` (at tick 0), built on `map`.
    pub fn new<E: Engine>(engine: &E, map: &Map, origin: Origin<'_>, names: Vec<String>) -> Recorder {
        let config = engine.config();
        let (seed, map_text) = match origin {
            Origin::Seed(s) => (Some(s), None),
            Origin::MapFile(text) => (None, Some(text.to_string())),
        };
        let replay = Replay {
            format: FORMAT.to_string(),
            width: config.width,
            height: config.height,
            num_players: config.players,
            max_ticks: config.max_ticks,
            names,
            seed,
            config: *config,
            map: map_text,
            rocks: map.rock_cells().iter().map(|p| [p.x as u32, p.y as u32]).collect(),
            start: map.starts.iter().map(|s| (s.pos.x as u32, s.pos.y as u32, s.dir)).collect(),
            commands: Vec::new(),
            faults: Vec::new(),
            frames: alloc::vec![Frame::of(engine)],
            winner: None,
            result: ReplayResult {
                draw: false,
                ticks: 0,
                placements: Vec::new(),
                eliminated_at: Vec::new(),
                trails: Vec::new(),
            },
            time_limits: None,
            time_banks: None,
            said: None,
        };
        Recorder { replay }
    }

    /// Records one tick: the answers given to it and the state after it.
    pub fn record<E: Engine>(&mut self, answers: &[Answer], after: &E) {
        self.replay.commands.push(answers.iter().map(|a| a.line.clone()).collect());
        self.replay.faults.push(answers.iter().map(|a| a.fault).collect());
        self.replay.frames.push(Frame::of(after));
        if let Some(outcome) = after.outcome() {
            self.replay.winner = outcome.winner;
            self.replay.result = (&outcome).into();
        }
    }

    /// The replay so far.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The finished replay.
    pub fn finish(self) -> Replay {
        self.replay
    }
}

/// The first point where a replay and the engine disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The tick (frame number) of the difference.
    pub tick: u32,
    /// The player concerned, if the difference is about one.
    pub player: Option<usize>,
    /// The field that differs (`heads`, `dirs`, `rocks`, `winner`, …).
    pub field: String,
    /// What the replay file says, in plain words (`(13, 26)`, `N`, `none`).
    pub expected: String,
    /// What the engine computed, in plain words.
    pub actual: String,
}

impl Mismatch {
    /// What the field is, in words: `head at`, `direction`, `winner`…
    pub fn subject(&self) -> String {
        match self.field.as_str() {
            "heads" => "head at".into(),
            "dirs" => "direction".into(),
            "start" => "start at".into(),
            "t" => "frame number".into(),
            "faults" => "fault".into(),
            "winner" => "winner".into(),
            "frames" => "frames".into(),
            "commands" => "commands".into(),
            "result.draw" => "draw".into(),
            "result.ticks" => "ticks played".into(),
            "result.placements" => "placement".into(),
            "result.eliminated_at" => "eliminated on tick".into(),
            "result.trails" => "trail length".into(),
            other => match other.strip_prefix("rocks[").and_then(|k| k.strip_suffix(']')) {
                Some(k) => format!("rock {k} at"),
                None => other.to_string(),
            },
        }
    }
}

/// `tick 13, player 1: head at (14, 27) by the rules, (13, 26) in the file`.
impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tick {}", self.tick)?;
        if let Some(p) = self.player {
            write!(f, ", player {p}")?;
        }
        write!(f, ": {} {} by the rules, {} in the file", self.subject(), self.actual, self.expected)
    }
}

/// A value of a replay as a difference shows it: plain words, never Rust's
/// debug text.
trait Plain {
    fn plain(&self) -> String;
}

impl Plain for u32 {
    fn plain(&self) -> String {
        self.to_string()
    }
}

impl Plain for usize {
    fn plain(&self) -> String {
        self.to_string()
    }
}

impl Plain for bool {
    fn plain(&self) -> String {
        if *self { "yes" } else { "no" }.to_string()
    }
}

impl Plain for &str {
    fn plain(&self) -> String {
        self.to_string()
    }
}

impl Plain for String {
    fn plain(&self) -> String {
        self.clone()
    }
}

impl Plain for Dir {
    fn plain(&self) -> String {
        self.as_str().to_string()
    }
}

impl Plain for FaultKind {
    fn plain(&self) -> String {
        self.to_string()
    }
}

/// A head: `(x, y)`, and `, crashed` when the player is out.
impl Plain for [u32; 3] {
    fn plain(&self) -> String {
        let out = if self[2] == 0 { ", crashed" } else { "" };
        format!("({}, {}){out}", self[0], self[1])
    }
}

impl Plain for [u32; 2] {
    fn plain(&self) -> String {
        format!("({}, {})", self[0], self[1])
    }
}

/// A start: `(x, y) facing N`.
impl Plain for (u32, u32, Dir) {
    fn plain(&self) -> String {
        format!("({}, {}) facing {}", self.0, self.1, self.2.as_str())
    }
}

impl<T: Plain> Plain for &T {
    fn plain(&self) -> String {
        (*self).plain()
    }
}

/// Nothing is `none`.
impl<T: Plain> Plain for Option<T> {
    fn plain(&self) -> String {
        self.as_ref().map_or_else(|| "none".to_string(), Plain::plain)
    }
}

/// Why a replay did not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The file is not a replay this crate can play (bad structure or values).
    #[error("malformed replay: {0}")]
    Malformed(String),
    /// The replay plays, but differs from what the rules give.
    #[error("replay differs at {0}")]
    Mismatch(Mismatch),
}

fn malformed(msg: impl Into<String>) -> ReplayError {
    ReplayError::Malformed(msg.into())
}

fn mismatch(tick: u32, player: Option<usize>, field: &str, expected: impl Plain, actual: impl Plain) -> ReplayError {
    ReplayError::Mismatch(Mismatch {
        tick,
        player,
        field: field.to_string(),
        expected: expected.plain(),
        actual: actual.plain(),
    })
}

impl Replay {
    /// Reads a replay from JSON text.
    pub fn from_json(text: &str) -> Result<Replay, ReplayError> {
        serde_json::from_str(text).map_err(|e| malformed(format!("{e}")))
    }

    /// The replay as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a replay always serialises")
    }

    /// The configuration the game was played under.
    pub fn game_config(&self) -> Config {
        self.config
    }

    /// Builds the map the replay starts from (from `seed`, or from `map`),
    /// checking the header against the configuration.
    pub fn build_map(&self) -> Result<Map, ReplayError> {
        if self.format != FORMAT {
            return Err(malformed(format!("format is {:?}, expected {FORMAT:?}", self.format)));
        }
        let config = self.game_config();
        config.validate().map_err(|e| malformed(format!("config: {e}")))?;
        let header = [
            ("width", self.width, config.width),
            ("height", self.height, config.height),
            ("num_players", self.num_players, config.players),
            ("max_ticks", self.max_ticks, config.max_ticks),
        ];
        for (field, top, inner) in header {
            if top != inner {
                return Err(malformed(format!("{field} is {top} but config.{field} is {inner}")));
            }
        }
        if self.names.len() != config.players as usize {
            return Err(malformed(format!("{} names for {} players", self.names.len(), config.players)));
        }
        match (&self.map, self.seed) {
            (Some(text), _) => {
                let map = map::parse_2010(text).map_err(|e| malformed(format!("map: {e}")))?;
                if (map.width, map.height, map.starts.len() as u32) != (config.width, config.height, config.players) {
                    return Err(malformed("the map's size or player count differs from config"));
                }
                Ok(map)
            }
            (None, Some(seed)) => map::generate(&config, seed).map_err(|e| malformed(format!("map generation: {e}"))),
            (None, None) => Err(malformed("neither seed nor map is given")),
        }
    }

    /// The answers of tick `k + 1`, checked for shape.
    fn answers(&self, k: usize, n: usize) -> Result<Vec<Answer>, ReplayError> {
        let commands = &self.commands[k];
        let faults = self.faults.get(k).ok_or_else(|| malformed(format!("faults has no row for tick {}", k + 1)))?;
        if commands.len() != n || faults.len() != n {
            return Err(malformed(format!(
                "tick {}: {} commands and {} faults for {n} players",
                k + 1,
                commands.len(),
                faults.len()
            )));
        }
        Ok(commands.iter().zip(faults).map(|(c, f)| Answer { line: c.clone(), fault: *f }).collect())
    }
}

/// Replays `replay` with engine `E`: builds its map, feeds its commands tick
/// by tick, and compares rocks, starts, every frame and the result. Returns
/// the outcome, or the first difference.
pub fn verify<E: Engine>(replay: &Replay) -> Result<Outcome, ReplayError> {
    let map = replay.build_map()?;
    let rocks: Vec<[u32; 2]> = map.rock_cells().iter().map(|p| [p.x as u32, p.y as u32]).collect();
    if rocks != replay.rocks {
        let k = (0..rocks.len().max(replay.rocks.len())).find(|&k| rocks.get(k) != replay.rocks.get(k)).unwrap_or(0);
        return Err(mismatch(0, None, &format!("rocks[{k}]"), replay.rocks.get(k), rocks.get(k)));
    }
    for (i, start) in map.starts.iter().enumerate() {
        let actual = (start.pos.x as u32, start.pos.y as u32, start.dir);
        if replay.start.get(i) != Some(&actual) {
            return Err(mismatch(0, Some(i), "start", replay.start.get(i), actual));
        }
    }
    if replay.start.len() != map.starts.len() {
        return Err(mismatch(0, None, "start", replay.start.len(), map.starts.len()));
    }
    let config = replay.game_config();
    let mut engine = E::from_map(&config, &map).map_err(|e: GameError| malformed(format!("{e}")))?;
    let n = engine.num_players();
    compare_frame(replay, &engine)?;
    if replay.faults.len() != replay.commands.len() {
        return Err(malformed(format!(
            "{} rows of commands but {} rows of faults",
            replay.commands.len(),
            replay.faults.len()
        )));
    }
    for k in 0..replay.commands.len() {
        let tick = k as u32 + 1;
        if engine.is_over() {
            return Err(mismatch(
                tick,
                None,
                "commands",
                "a row for this tick",
                format!("the game ended on tick {}", engine.tick()),
            ));
        }
        let answers = replay.answers(k, n)?;
        for (i, a) in answers.iter().enumerate() {
            let derived = match a.action() {
                Action::Fault(kind) => Some(kind),
                _ => None,
            };
            if a.line.is_some() && a.fault != derived {
                return Err(mismatch(tick, Some(i), "faults", a.fault, derived));
            }
        }
        let actions: Vec<Action> = answers.iter().map(Answer::action).collect();
        engine.step(&actions).map_err(|e| malformed(format!("tick {tick}: {e}")))?;
        compare_frame(replay, &engine)?;
    }
    let Some(outcome) = engine.outcome() else {
        return Err(mismatch(engine.tick() + 1, None, "commands", "the game to have ended", "the game goes on"));
    };
    if replay.frames.len() != replay.commands.len() + 1 {
        return Err(mismatch(engine.tick(), None, "frames", replay.frames.len(), replay.commands.len() + 1));
    }
    let t = outcome.ticks;
    if replay.winner != outcome.winner {
        return Err(mismatch(t, None, "winner", replay.winner, outcome.winner));
    }
    let r = &replay.result;
    if r.draw != outcome.draw {
        return Err(mismatch(t, None, "result.draw", r.draw, outcome.draw));
    }
    if r.ticks != outcome.ticks {
        return Err(mismatch(t, None, "result.ticks", r.ticks, outcome.ticks));
    }
    for i in 0..n {
        if r.placements.get(i) != Some(&outcome.placements[i]) {
            return Err(mismatch(t, Some(i), "result.placements", r.placements.get(i), outcome.placements[i]));
        }
        if r.eliminated_at.get(i) != Some(&outcome.eliminated_at[i]) {
            return Err(mismatch(t, Some(i), "result.eliminated_at", r.eliminated_at.get(i), outcome.eliminated_at[i]));
        }
        if r.trails.get(i) != Some(&outcome.trails[i]) {
            return Err(mismatch(t, Some(i), "result.trails", r.trails.get(i), outcome.trails[i]));
        }
    }
    if r.placements.len() != n || r.eliminated_at.len() != n || r.trails.len() != n {
        return Err(malformed(format!("result lists are not of length {n}")));
    }
    check_said(replay, n)?;
    Ok(outcome)
}

/// The bots' lines name ticks that were played and players of the game,
/// ordered by tick then player, each pair once.
fn check_said(replay: &Replay, n: usize) -> Result<(), ReplayError> {
    let Some(said) = &replay.said else { return Ok(()) };
    let ticks = replay.commands.len() as u32;
    let mut last: Option<(u32, u32)> = None;
    for entry in said {
        if entry.tick == 0 || entry.tick > ticks || entry.player as usize >= n {
            return Err(malformed(format!(
                "said: tick {} player {} is not a tick played ({ticks}) by a player of the game ({n})",
                entry.tick, entry.player
            )));
        }
        if last.is_some_and(|l| l >= (entry.tick, entry.player)) {
            return Err(malformed(format!(
                "said: tick {} player {} is out of order (by tick, then player, each once)",
                entry.tick, entry.player
            )));
        }
        last = Some((entry.tick, entry.player));
    }
    Ok(())
}

fn compare_frame<E: Engine>(replay: &Replay, engine: &E) -> Result<(), ReplayError> {
    let t = engine.tick();
    let actual = Frame::of(engine);
    let Some(expected) = replay.frames.get(t as usize) else {
        return Err(mismatch(t, None, "frames", "no frame", "a frame"));
    };
    if expected.t != actual.t {
        return Err(mismatch(t, None, "t", expected.t, actual.t));
    }
    for i in 0..actual.heads.len() {
        if expected.heads.get(i) != Some(&actual.heads[i]) {
            return Err(mismatch(t, Some(i), "heads", expected.heads.get(i), actual.heads[i]));
        }
        if expected.dirs.get(i) != Some(&actual.dirs[i]) {
            return Err(mismatch(t, Some(i), "dirs", expected.dirs.get(i), actual.dirs[i]));
        }
    }
    if expected.heads.len() != actual.heads.len() || expected.dirs.len() != actual.dirs.len() {
        return Err(mismatch(t, None, "heads", expected.heads.len(), actual.heads.len()));
    }
    Ok(())
}
