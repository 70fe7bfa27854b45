//! The trajectory gate: the fast engine plays exactly the game of the
//! reference engine.
//!
//! Fuzz games (every board size within bounds, 2 to 8 players, both fault
//! policies, rock densities 0 to 25, seeded and freely drawn boards,
//! invalid lines, timeouts, crashes, reversals, tick caps from 1 up) are
//! played through both engines with the same answers; after every tick the
//! gate compares the tick, every player (head, direction, alive, trail,
//! tick of elimination), every cell of the board and whether the game is
//! over, and at the end the outcome; now and then it also rebuilds the fast
//! engine from the reference's position as plain data and compares that.
//! The first difference is reported with its tick.
//!
//! The lean search state (`SearchState`, boards up to 64 × 64) goes through
//! the same gate on every fuzz game that fits; it keeps no owners, so its
//! cells are compared as empty or not.
//!
//! `cargo test` plays 2,000 games. The long run of 100,000 is ignored by
//! default:
//!
//! ```sh
//! cargo test --release -p lightcycles-core --test trajectory_gate -- --ignored
//! ```

use std::fmt::Debug;

use lightcycles_core::config::{MAX_SIDE, MIN_SIDE, MIN_SIDE_MANY_PLAYERS};
use lightcycles_core::search_state::{SearchState, SearchStateError, MAX_SEARCH_SIDE};
use lightcycles_core::{
    Action, Answer, Config, Dir, Engine, FastGame, FaultKind, FaultPolicy, GameError, Map, Outcome, PlayerState, Pos,
    Position, ReferenceGame, SplitMix64, StepError, EMPTY,
};

/// Where a fuzz game's board comes from.
#[derive(Clone, Debug)]
enum Board {
    /// The seeded generator of docs/RULES.md section 4.
    Seeded(u64),
    /// Rocks and starts drawn at random, connected or not, starts anywhere
    /// (side by side too): boards the generator never makes.
    Drawn(Map),
}

/// One fuzz game: its configuration, its board, the seed of its answers
/// and how wild the bots are.
#[derive(Clone, Debug)]
struct Spec {
    config: Config,
    board: Board,
    answers: u64,
    temper: Temper,
}

/// How often, in per mille of answers, the fuzz bots misbehave: calm games
/// run long, wild ones test faults and crashes.
#[derive(Clone, Copy, Debug)]
struct Temper {
    /// A fault: an invalid line, a timeout or a crash.
    fault: u64,
    /// A move in any direction, safe or not, reversals included.
    reckless: u64,
    /// No answer at all.
    silent: u64,
    /// Otherwise a safe move: at random, or (steady) the one with the most
    /// free cells around its target, going straight on ties, so that games
    /// run long and trails grow.
    steady: bool,
}

const TEMPERS: [Temper; 4] = [
    Temper { fault: 1, reckless: 1, silent: 5, steady: true },
    Temper { fault: 5, reckless: 10, silent: 20, steady: true },
    Temper { fault: 30, reckless: 40, silent: 50, steady: false },
    Temper { fault: 150, reckless: 150, silent: 60, steady: false },
];

/// The first difference between the two engines.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Divergence {
    tick: u32,
    field: String,
    expected: String,
    actual: String,
}

fn differ(tick: u32, field: impl Into<String>, expected: impl Debug, actual: impl Debug) -> Divergence {
    Divergence { tick, field: field.into(), expected: format!("{expected:?}"), actual: format!("{actual:?}") }
}

fn between(rng: &mut SplitMix64, lo: u32, hi: u32) -> u32 {
    lo + rng.below((hi - lo + 1) as u64) as u32
}

/// The spec of fuzz game number `game`: a pure function of the number, so
/// a failure names a game that can be replayed alone.
fn spec(game: u64) -> Spec {
    let mut rng = SplitMix64::new(0x7261_6a65_6374_6f72 ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let players = match rng.below(10) {
        0..=4 => 2,
        5 => 4,
        _ => between(&mut rng, 3, 8),
    };
    let low = if players >= 3 { MIN_SIDE_MANY_PLAYERS } else { MIN_SIDE };
    // Mostly small and middling boards, sometimes up to the largest.
    let side = |rng: &mut SplitMix64| match rng.below(20) {
        0..=11 => between(rng, low, 32),
        12..=17 => between(rng, low, 80),
        _ => between(rng, low, MAX_SIDE),
    };
    let (width, height) = (side(&mut rng), side(&mut rng));
    let cells = width * height;
    let max_ticks = match rng.below(10) {
        0 => between(&mut rng, 1, 20),
        1..=7 => between(&mut rng, 21, 600),
        // The long caps on boards small enough to fill up.
        _ if cells <= 2048 => [2000, 1_000_000][rng.below(2) as usize],
        _ => between(&mut rng, 601, 1500),
    };
    let config = Config {
        width,
        height,
        players,
        max_ticks,
        rock_density: if rng.below(4) == 0 { [0, 25][rng.below(2) as usize] } else { between(&mut rng, 0, 25) },
        fault_policy: if rng.below(2) == 0 { FaultPolicy::Straight } else { FaultPolicy::Eliminate },
    };
    let board =
        if rng.below(5) == 0 { Board::Drawn(drawn_map(&config, &mut rng)) } else { Board::Seeded(rng.next_u64()) };
    let temper = TEMPERS[rng.below(TEMPERS.len() as u64) as usize];
    Spec { config, board, answers: rng.next_u64(), temper }
}

/// Random rocks at the configured density and random distinct starts, with
/// some starts packed close together so that head-ons and swaps happen.
fn drawn_map(config: &Config, rng: &mut SplitMix64) -> Map {
    let (w, h) = (config.width, config.height);
    let mut rocks = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if rng.below(100) < config.rock_density as u64 {
                rocks.push(Pos::new(x as u8, y as u8));
            }
        }
    }
    let (cx, cy) = (rng.below(w as u64) as i64, rng.below(h as u64) as i64);
    let packed = rng.below(2) == 0;
    let mut starts = Vec::new();
    while starts.len() < config.players as usize {
        let pos = if packed {
            let x = (cx + rng.below(5) as i64 - 2).clamp(0, w as i64 - 1);
            let y = (cy + rng.below(5) as i64 - 2).clamp(0, h as i64 - 1);
            Pos::new(x as u8, y as u8)
        } else {
            Pos::new(rng.below(w as u64) as u8, rng.below(h as u64) as u8)
        };
        if !starts.iter().any(|s: &lightcycles_core::Start| s.pos == pos) {
            starts.push(lightcycles_core::Start { pos, dir: Dir::ALL[rng.below(4) as usize] });
        }
    }
    rocks.retain(|r| !starts.iter().any(|s| s.pos == *r));
    Map::from_parts(w, h, &rocks, &starts).expect("a drawn map fits its configuration")
}

fn build<E: Engine>(spec: &Spec) -> Result<E, GameError> {
    match &spec.board {
        Board::Seeded(seed) => E::seeded(&spec.config, *seed),
        Board::Drawn(map) => E::from_map(&spec.config, map),
    }
}

/// The moves that do not crash into the board as it is (neck rule applied),
/// dead players' too (their answers are drawn like the others').
fn safe<E: Engine>(game: &E, id: usize) -> Vec<Dir> {
    let (w, h) = (game.config().width, game.config().height);
    game.player(id).safe_moves(w, h, |c| game.cell(c) == EMPTY).iter().collect()
}

/// Answer lines that are not moves, and lines that are moves only after
/// trimming.
const LINES: &[&[u8]] = &[
    b"n",
    b"NORTH",
    b"",
    b"   ",
    b"N E",
    b"NE",
    b"\xffN",
    b"0",
    b"1",
    b" S \r",
    b"\tW\x0b",
    b"E\n",
    b"X",
    b"\xc2\xa0N",
];

/// One player's answer on one tick, as a bot (or a broken bot) gives it.
fn answer<E: Engine>(game: &E, id: usize, temper: Temper, rng: &mut SplitMix64) -> Answer {
    let letter = |d: Dir| Answer::from_line(d.as_str().as_bytes());
    let roll = rng.below(1000);
    if roll < temper.fault {
        return match rng.below(10) {
            0..=4 => Answer::from_line(LINES[rng.below(LINES.len() as u64) as usize]),
            5 => {
                let mut long = vec![b'N'];
                long.resize(1 + rng.below(1100) as usize, b' ');
                long.push(b"NX"[rng.below(2) as usize]);
                Answer::from_line(&long)
            }
            6..=7 => Answer::fault(FaultKind::Timeout),
            _ => Answer::fault(FaultKind::Crash),
        };
    }
    let roll = roll - temper.fault;
    if roll < temper.reckless {
        return match rng.below(4) {
            0 => letter(game.player(id).dir.opposite()),
            _ => letter(Dir::ALL[rng.below(4) as usize]),
        };
    }
    if roll - temper.reckless < temper.silent {
        return Answer::none();
    }
    let moves = safe(game, id);
    if moves.is_empty() {
        return letter(Dir::ALL[rng.below(4) as usize]);
    }
    if !temper.steady {
        return letter(moves[rng.below(moves.len() as u64) as usize]);
    }
    let p = game.player(id);
    let (w, h) = (game.config().width, game.config().height);
    let score = |d: Dir| {
        let target = p.pos.step(d, w, h).expect("a safe move stays on the board");
        let free = Dir::ALL.iter().filter(|&&e| target.step(e, w, h).is_some_and(|c| game.cell(c) == EMPTY)).count();
        2 * free + (d == p.dir) as usize
    };
    let best = moves.iter().map(|&d| score(d)).max().unwrap_or(0);
    let top: Vec<Dir> = moves.into_iter().filter(|&d| score(d) == best).collect();
    letter(top[rng.below(top.len() as u64) as usize])
}

/// An engine under the gate: whether its cells say who holds them.
trait Gated: Engine {
    /// `false` for a state that knows only whether a cell is empty.
    const OWNERS: bool = true;
}

impl Gated for FastGame {}
impl Gated for ReferenceGame {}

/// The lean search state under the gate, through the engine trait: its
/// cells read as empty or rock (it keeps no owners).
#[derive(Clone, Debug)]
struct Lean(SearchState);

impl Gated for Lean {
    const OWNERS: bool = false;
}

impl Engine for Lean {
    fn from_position(position: &Position) -> Result<Self, GameError> {
        match SearchState::from_position(position) {
            Ok(state) => Ok(Lean(state)),
            Err(SearchStateError::Game(e)) => Err(e),
            Err(e) => panic!("the gate gives the search state only boards that fit: {e}"),
        }
    }
    fn config(&self) -> &Config {
        self.0.config()
    }
    fn tick(&self) -> u32 {
        self.0.tick()
    }
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn player(&self, id: usize) -> PlayerState {
        self.0.player(id)
    }
    fn cell(&self, pos: Pos) -> lightcycles_core::CellValue {
        if self.0.cell_is_empty(pos) {
            EMPTY
        } else {
            lightcycles_core::ROCK
        }
    }
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn step(&mut self, actions: &[Action]) -> Result<(), StepError> {
        self.0.step(actions)
    }
}

/// Compares everything the rules define about the current state.
fn compare_state<R: Engine, F: Gated>(reference: &R, fast: &F) -> Result<(), Divergence> {
    let t = reference.tick();
    if fast.tick() != t {
        return Err(differ(t, "tick", t, fast.tick()));
    }
    if fast.num_players() != reference.num_players() {
        return Err(differ(t, "num_players", reference.num_players(), fast.num_players()));
    }
    for i in 0..reference.num_players() {
        let (r, f) = (reference.player(i), fast.player(i));
        let fields: [(&str, String, String); 5] = [
            ("heads", format!("{}", r.pos), format!("{}", f.pos)),
            ("dirs", format!("{}", r.dir), format!("{}", f.dir)),
            ("alive", format!("{}", r.alive), format!("{}", f.alive)),
            ("trail", format!("{}", r.trail), format!("{}", f.trail)),
            ("eliminated_at", format!("{:?}", r.eliminated_at), format!("{:?}", f.eliminated_at)),
        ];
        for (field, expected, actual) in fields {
            if expected != actual {
                return Err(Divergence { tick: t, field: format!("player {i} {field}"), expected, actual });
            }
        }
    }
    let config = reference.config();
    for y in 0..config.height {
        for x in 0..config.width {
            let pos = Pos::new(x as u8, y as u8);
            let differs = if F::OWNERS {
                reference.cell(pos) != fast.cell(pos)
            } else {
                (reference.cell(pos) == EMPTY) != (fast.cell(pos) == EMPTY)
            };
            if differs {
                return Err(differ(t, format!("cell {pos}"), reference.cell(pos), fast.cell(pos)));
            }
        }
    }
    if reference.is_over() != fast.is_over() {
        return Err(differ(t, "is_over", reference.is_over(), fast.is_over()));
    }
    Ok(())
}

/// What a finished game looked like, for the statistics of a run.
struct Played {
    outcome: Option<Outcome>,
    answers: Vec<Vec<Answer>>,
}

/// Plays `spec` through both engines, tick by tick, with the answers the
/// fuzz bots give on the reference's board. Returns the first difference.
fn run_gate<R: Engine, F: Gated>(spec: &Spec, reference: &mut R, fast: &mut F) -> Result<Played, Divergence> {
    let mut rng = SplitMix64::new(spec.answers);
    let n = reference.num_players();
    compare_state(reference, fast)?;
    let mut answers = Vec::new();
    while !reference.is_over() {
        let t = reference.tick() + 1;
        if rng.below(50) == 0 {
            // A wrong number of actions is refused by both, and changes nothing.
            let wrong = vec![Action::Keep; n + 1];
            let (r, f) = (reference.step(&wrong), fast.step(&wrong));
            if r != f {
                return Err(differ(t, "step error", r, f));
            }
            compare_state(reference, fast)?;
        }
        if rng.below(64) == 0 {
            // An engine rebuilt from the position as plain data (as a bot
            // rebuilds the referee's state from an observation) is the same.
            let rebuilt =
                F::from_position(&reference.position()).map_err(|e| differ(t - 1, "from_position", "Ok", e))?;
            compare_state(reference, &rebuilt)?;
        }
        let tick: Vec<Answer> = (0..n).map(|i| answer(reference, i, spec.temper, &mut rng)).collect();
        let actions: Vec<Action> = tick.iter().map(Answer::action).collect();
        let (r, f) = (reference.step(&actions), fast.step(&actions));
        if r != f {
            return Err(differ(t, "step result", r, f));
        }
        answers.push(tick);
        compare_state(reference, fast)?;
    }
    let t = reference.tick();
    if !fast.is_over() {
        return Err(differ(t, "is_over", true, false));
    }
    if reference.outcome() != fast.outcome() {
        return Err(differ(t, "outcome", reference.outcome(), fast.outcome()));
    }
    let after = vec![Action::Keep; n];
    let (r, f) = (reference.step(&after), fast.step(&after));
    if r != Err(StepError::GameOver) || f != r {
        return Err(differ(t, "step after the end", r, f));
    }
    Ok(Played { outcome: reference.outcome(), answers })
}

/// Builds both engines for `spec` and runs the gate; boards that cannot be
/// built must fail alike in both.
fn gate_game<F: Gated>(game: u64) -> Result<Option<(Spec, Played)>, Divergence> {
    let spec = spec(game);
    match (build::<ReferenceGame>(&spec), build::<F>(&spec)) {
        (Ok(mut reference), Ok(mut fast)) => run_gate(&spec, &mut reference, &mut fast).map(|p| Some((spec, p))),
        (Err(r), Err(f)) if r == f => Ok(None),
        (r, f) => Err(differ(0, "build", r.err(), f.err())),
    }
}

/// Runs games `range` and asserts that none differs; also checks that the
/// fuzz covered what it claims.
fn gate_range(range: std::ops::Range<u64>) {
    let mut stats = Coverage::default();
    for game in range.clone() {
        match gate_game::<FastGame>(game) {
            Ok(Some((spec, played))) => stats.add(&spec, &played),
            Ok(None) => stats.unbuildable += 1,
            Err(d) => {
                let s = spec(game);
                let board = match s.board {
                    Board::Seeded(seed) => format!("seeded map {seed}"),
                    Board::Drawn(_) => "drawn map".to_string(),
                };
                panic!("fuzz game {game} ({:?}, {board}, {:?}) differs: {d:?}", s.config, s.temper)
            }
        }
    }
    stats.assert_broad(range.end - range.start);
}

#[derive(Default, Debug)]
struct Coverage {
    games: u64,
    unbuildable: u64,
    players: [u64; 9],
    policies: [u64; 2],
    drawn: u64,
    large: u64,
    draws: u64,
    capped: u64,
    ticks: u64,
    invalid: u64,
    timeouts: u64,
    crashes: u64,
}

impl Coverage {
    fn add(&mut self, spec: &Spec, played: &Played) {
        self.games += 1;
        self.players[spec.config.players as usize] += 1;
        self.policies[(spec.config.fault_policy == FaultPolicy::Eliminate) as usize] += 1;
        self.drawn += matches!(spec.board, Board::Drawn(_)) as u64;
        self.large += (spec.config.width.max(spec.config.height) > 128) as u64;
        let outcome = played.outcome.as_ref().expect("a finished game has an outcome");
        self.draws += outcome.draw as u64;
        self.capped += (outcome.ticks == spec.config.max_ticks) as u64;
        self.ticks += played.answers.len() as u64;
        for a in played.answers.iter().flatten() {
            match a.fault {
                Some(FaultKind::Invalid) => self.invalid += 1,
                Some(FaultKind::Timeout) => self.timeouts += 1,
                Some(FaultKind::Crash) => self.crashes += 1,
                None => {}
            }
        }
    }

    /// The run reached every corner it claims to (so the gate is not
    /// passing on trivial games).
    fn assert_broad(&self, total: u64) {
        assert!(self.games + self.unbuildable == total);
        assert!(self.games * 10 >= total * 9, "most boards build: {self:?}");
        for n in 2..=8 {
            assert!(self.players[n] > 0, "{n} players: {self:?}");
        }
        assert!(self.policies.iter().all(|&p| p > 0), "{self:?}");
        assert!(self.drawn > 0 && self.large > 0 && self.draws > 0 && self.capped > 0, "{self:?}");
        assert!(self.invalid > 0 && self.timeouts > 0 && self.crashes > 0, "{self:?}");
        assert!(self.ticks >= self.games * 10, "games of some length: {self:?}");
    }
}

#[test]
fn two_thousand_fuzz_games_play_alike() {
    gate_range(0..2_000);
}

/// The fuzz games of `range` whose board fits a search state, through the
/// gate on the search state; how many there were.
fn gate_lean(range: std::ops::Range<u64>) -> (u64, Coverage) {
    let mut stats = Coverage::default();
    let mut fitting = 0;
    for game in range {
        let s = spec(game);
        if s.config.width > MAX_SEARCH_SIDE || s.config.height > MAX_SEARCH_SIDE {
            continue;
        }
        fitting += 1;
        match gate_game::<Lean>(game) {
            Ok(Some((spec, played))) => stats.add(&spec, &played),
            Ok(None) => stats.unbuildable += 1,
            Err(d) => panic!("fuzz game {game} ({:?}) differs on the search state: {d:?}", s.config),
        }
    }
    (fitting, stats)
}

#[test]
fn the_search_state_plays_the_fuzz_games_that_fit_alike() {
    let (fitting, stats) = gate_lean(0..3_000);
    assert!(fitting >= 1_500, "{fitting} games fit");
    assert_eq!(stats.games + stats.unbuildable, fitting);
    for n in 2..=8 {
        assert!(stats.players[n] > 0, "{n} players: {stats:?}");
    }
    assert!(stats.policies.iter().all(|&p| p > 0), "{stats:?}");
    assert!(stats.drawn > 0 && stats.draws > 0 && stats.capped > 0, "{stats:?}");
    assert!(stats.invalid > 0 && stats.timeouts > 0 && stats.crashes > 0, "{stats:?}");
}

/// The long run of the search state: `cargo test --release -p lightcycles-core --test trajectory_gate -- --ignored`.
#[test]
#[ignore = "the fitting games of 100,000: run with --release -- --ignored"]
fn the_search_state_plays_a_hundred_thousand_fuzz_games_alike() {
    gate_lean(3_000..103_000);
}

/// The long run: `cargo test --release -p lightcycles-core --test trajectory_gate -- --ignored`.
#[test]
#[ignore = "100,000 games: run with --release -- --ignored"]
fn a_hundred_thousand_fuzz_games_play_alike() {
    gate_range(2_000..102_000);
}

/// Replays: the golden ones, and fuzz games recorded by the reference.
#[cfg(feature = "serde")]
mod replays {
    use super::*;
    use lightcycles_core::replay::{self, Origin, Recorder, Replay, ReplayError};

    fn golden() -> Vec<(String, Replay)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden-replays");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|n| (n.clone(), Replay::from_json(&std::fs::read_to_string(dir.join(&n)).unwrap()).unwrap()))
            .collect()
    }

    #[test]
    fn every_golden_replay_verifies_on_the_fast_engine() {
        let replays = golden();
        assert_eq!(replays.len(), 24);
        for (name, r) in &replays {
            let fast = replay::verify::<FastGame>(r).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(Some(fast), replay::verify::<ReferenceGame>(r).ok(), "{name}");
        }
        // And a changed frame is caught by the fast engine as by the reference.
        let (_, mut r) = replays.into_iter().find(|(n, _)| n == "sim_0.json").unwrap();
        r.frames[5].heads[1][0] += 1;
        let [x, y, _] = r.frames[5].heads[1];
        match replay::verify::<FastGame>(&r) {
            Err(ReplayError::Mismatch(m)) => {
                assert_eq!((m.tick, m.field.as_str(), m.player), (5, "heads", Some(1)));
                // In plain words, never Rust's debug text.
                assert_eq!(
                    m.to_string(),
                    format!("tick 5, player 1: head at ({}, {y}) by the rules, ({x}, {y}) in the file", x - 1)
                );
            }
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    #[test]
    fn fuzz_games_recorded_by_the_reference_verify_on_the_fast_engine() {
        for game in (0..300).step_by(7) {
            let Ok(Some((spec, played))) = gate_game::<FastGame>(game) else { continue };
            let Board::Seeded(seed) = spec.board else { continue };
            let map = lightcycles_core::map::generate(&spec.config, seed).unwrap();
            let mut reference = ReferenceGame::from_map(&spec.config, &map).unwrap();
            let names = (0..spec.config.players).map(|i| format!("bot{i}")).collect();
            let mut recorder = Recorder::new(&reference, &map, Origin::Seed(seed), names);
            for tick in &played.answers {
                let actions: Vec<Action> = tick.iter().map(Answer::action).collect();
                reference.step(&actions).unwrap();
                recorder.record(tick, &reference);
            }
            let replay = Replay::from_json(&recorder.finish().to_json()).unwrap();
            assert_eq!(replay::verify::<FastGame>(&replay).ok(), played.outcome, "game {game}");
        }
    }
}

// ---------------------------------------------------------------------------
// The gate catches a broken rule, at the first tick it shows.

/// The fast engine with a rule broken, and a correct copy beside it that
/// notes the first tick on which the two states part.
#[derive(Clone)]
struct Broken {
    engine: FastGame,
    correct: FastGame,
    rule: BrokenRule,
    parted_at: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BrokenRule {
    /// Step 1 of docs/RULES.md section 7 skipped: under `eliminate`, a fault is
    /// treated as no move.
    FaultsNeverEliminate,
    /// "Trails of eliminated players stay on the board" broken: they vanish
    /// (all but the last head), and others may ride through.
    DeadTrailsVanish,
}

impl Broken {
    fn new(engine: FastGame, rule: BrokenRule) -> Broken {
        Broken { correct: engine.clone(), engine, rule, parted_at: None }
    }
}

impl Gated for Broken {}

impl Engine for Broken {
    fn from_position(position: &Position) -> Result<Self, GameError> {
        Ok(Broken::new(FastGame::from_position(position)?, BrokenRule::FaultsNeverEliminate))
    }
    fn config(&self) -> &Config {
        self.engine.config()
    }
    fn tick(&self) -> u32 {
        self.engine.tick()
    }
    fn num_players(&self) -> usize {
        self.engine.num_players()
    }
    fn player(&self, id: usize) -> PlayerState {
        self.engine.player(id)
    }
    fn cell(&self, pos: Pos) -> lightcycles_core::CellValue {
        self.engine.cell(pos)
    }
    fn is_over(&self) -> bool {
        self.engine.is_over()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.engine.outcome()
    }
    fn step(&mut self, actions: &[Action]) -> Result<(), StepError> {
        let result = match self.rule {
            BrokenRule::FaultsNeverEliminate => {
                let kept: Vec<Action> = actions.iter().map(|a| if a.is_fault() { Action::Keep } else { *a }).collect();
                self.engine.step(&kept)
            }
            BrokenRule::DeadTrailsVanish => {
                let result = self.engine.step(actions);
                let mut position = self.engine.position();
                let width = position.config.width;
                for (id, p) in position.players.iter_mut().enumerate() {
                    if !p.alive {
                        for (i, cell) in position.grid.iter_mut().enumerate() {
                            if *cell == id as i8 && i != p.pos.index(width) {
                                *cell = EMPTY;
                            }
                        }
                        p.trail = 1;
                    }
                }
                self.engine = FastGame::from_position(&position).unwrap();
                result
            }
        };
        let correct = self.correct.step(actions);
        if self.parted_at.is_none() && (self.correct.position() != self.engine.position() || correct != result) {
            self.parted_at = Some(self.engine.tick());
        }
        result
    }
}

#[test]
fn the_gate_reports_the_first_tick_of_a_broken_rule() {
    for rule in [BrokenRule::FaultsNeverEliminate, BrokenRule::DeadTrailsVanish] {
        let (mut caught, mut clean) = (0, 0);
        for game in 0..400 {
            let spec = spec(game);
            if rule == BrokenRule::FaultsNeverEliminate && spec.config.fault_policy != FaultPolicy::Eliminate {
                continue;
            }
            let (Ok(mut reference), Ok(fast)) = (build::<ReferenceGame>(&spec), build::<FastGame>(&spec)) else {
                continue;
            };
            let mut broken = Broken::new(fast, rule);
            match run_gate(&spec, &mut reference, &mut broken) {
                Ok(_) => {
                    assert_eq!(broken.parted_at, None, "game {game}: {rule:?} changed the game but the gate passed");
                    clean += 1;
                }
                Err(d) => {
                    assert_eq!(Some(d.tick), broken.parted_at, "game {game}, {rule:?}: {d:?}");
                    caught += 1;
                }
            }
        }
        assert!(caught >= 20, "{rule:?}: only {caught} games showed the broken rule ({clean} did not)");
    }
}

#[test]
fn the_gate_names_the_field_that_differs() {
    // A fault under `eliminate` on tick 1: the correct engine eliminates,
    // the broken one rides on.
    let spec = Spec {
        config: Config { fault_policy: FaultPolicy::Eliminate, ..Config::default() },
        board: Board::Seeded(1),
        answers: 0,
        temper: TEMPERS[2],
    };
    let mut reference: ReferenceGame = build(&spec).unwrap();
    let mut broken = Broken::new(build(&spec).unwrap(), BrokenRule::FaultsNeverEliminate);
    let faults = [Action::Fault(FaultKind::Timeout), Action::Keep];
    reference.step(&faults).unwrap();
    broken.step(&faults).unwrap();
    let d = compare_state(&reference, &broken).unwrap_err();
    assert_eq!((d.tick, d.field.as_str()), (1, "player 0 heads"));
    assert_eq!(broken.parted_at, Some(1));
}
