//! Recorded games stepped through the C ABI from C give the same frames and
//! result as their replay files: 200 games recorded here with the core's
//! recorder and a seeded random and fuzzing mover (every board size class,
//! 2 to 8 players, both fault policies, faults of every kind, tick caps),
//! and the golden replays of the independent implementation.

mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use lightcycles_core::replay::{self, Origin, Recorder, Replay};
use lightcycles_core::{
    Action, Answer, Config, Dir, Engine, FaultKind, FaultPolicy, Pos, ReferenceGame, SplitMix64, EMPTY,
};

/// The move code of an answer, as `lc_game_step` takes it.
fn code(answer: &Answer) -> i32 {
    match answer.action() {
        Action::Move(d) => d.code() as i32,
        Action::Keep => -1,
        Action::Fault(FaultKind::Invalid) => -2,
        Action::Fault(FaultKind::Timeout) => -3,
        Action::Fault(FaultKind::Crash) => -4,
    }
}

/// What a seeded random mover with a taste for bad answers says.
fn answer(game: &ReferenceGame, id: usize, rng: &mut SplitMix64, fuzz: u64) -> Answer {
    let p = game.player(id);
    if !p.alive {
        return Answer::none();
    }
    let roll = rng.below(100);
    if roll < fuzz {
        return match rng.below(6) {
            0 => Answer::from_line(b"north"),
            1 => Answer::from_line(b""),
            2 => Answer::from_line(format!("N{}X", " ".repeat(70)).as_bytes()),
            3 => Answer::fault(FaultKind::Timeout),
            4 => Answer::fault(FaultKind::Crash),
            _ => Answer::none(),
        };
    }
    let c = game.config();
    let safe: Vec<Dir> = Dir::ALL
        .into_iter()
        .filter(|&d| p.pos.step(d, c.width, c.height).is_some_and(|t: Pos| game.cell(t) == EMPTY))
        .collect();
    let dir = if safe.is_empty() || roll < fuzz + 5 {
        Dir::ALL[rng.below(4) as usize]
    } else {
        safe[rng.below(safe.len() as u64) as usize]
    };
    // Some answers come with whitespace around them, as bots send them.
    let line = if rng.below(10) == 0 { format!(" {dir}\r\n") } else { dir.to_string() };
    Answer::from_line(line.as_bytes())
}

/// Plays and records game `g` of the sample.
fn record(g: u64) -> (Replay, Vec<Vec<i32>>) {
    let mut rng = SplitMix64::new(0xC0FFEE ^ g);
    let players = [2, 2, 2, 3, 4, 4, 5, 8][g as usize % 8];
    let side = |rng: &mut SplitMix64| if players >= 3 { 16 + rng.below(30) } else { 8 + rng.below(40) } as u32;
    let config = Config {
        width: side(&mut rng),
        height: side(&mut rng),
        players,
        max_ticks: if g % 7 == 0 { 1 + rng.below(30) as u32 } else { 2000 },
        rock_density: rng.below(26) as u32,
        fault_policy: if g % 3 == 0 { FaultPolicy::Eliminate } else { FaultPolicy::Straight },
    };
    let fuzz = [0, 3, 10][(g / 3) as usize % 3];
    let seed = rng.next_u64();
    let map = lightcycles_core::map::generate(&config, seed).expect("the sample's configurations are valid");
    let mut game = ReferenceGame::from_map(&config, &map).unwrap();
    let names = (0..players).map(|i| format!("bot{i}")).collect();
    let mut recorder = Recorder::new(&game, &map, Origin::Seed(seed), names);
    let mut codes = Vec::new();
    while !game.is_over() {
        let answers: Vec<Answer> = (0..players as usize).map(|i| answer(&game, i, &mut rng, fuzz)).collect();
        codes.push(answers.iter().map(code).collect());
        let actions: Vec<Action> = answers.iter().map(Answer::action).collect();
        game.step(&actions).unwrap();
        recorder.record(&answers, &game);
    }
    (recorder.finish(), codes)
}

/// The move codes of a replay file's commands and faults.
fn codes_of(replay: &Replay) -> Vec<Vec<i32>> {
    replay
        .commands
        .iter()
        .zip(&replay.faults)
        .map(|(cs, fs)| cs.iter().zip(fs).map(|(c, f)| code(&Answer { line: c.clone(), fault: *f })).collect())
        .collect()
}

/// The stepper's input for a replay.
fn input(replay: &Replay, codes: &[Vec<i32>], dir: &Path, name: &str) -> PathBuf {
    let c = &replay.config;
    let policy = (c.fault_policy == FaultPolicy::Eliminate) as u32;
    let mut text = match (&replay.map, replay.seed) {
        (Some(map), _) => {
            let map_path = dir.join(format!("{name}.map"));
            std::fs::write(&map_path, map).unwrap();
            format!("map {} {} {policy}\n", map_path.display(), c.max_ticks)
        }
        (None, Some(seed)) => {
            format!("seed {seed} {} {} {} {} {} {policy}\n", c.width, c.height, c.players, c.max_ticks, c.rock_density)
        }
        (None, None) => panic!("{name}: a replay with neither seed nor map"),
    };
    for tick in codes {
        let line: Vec<String> = tick.iter().map(i32::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    let path = dir.join(format!("{name}.txt"));
    std::fs::write(&path, text).unwrap();
    path
}

/// What the stepper must print for a replay: its frames and result.
fn expected(replay: &Replay) -> String {
    let mut out = String::new();
    for frame in &replay.frames {
        write!(out, "{}", frame.t).unwrap();
        for (head, dir) in frame.heads.iter().zip(&frame.dirs) {
            write!(out, " {} {} {} {}", head[0], head[1], head[2], dir.code()).unwrap();
        }
        out.push('\n');
    }
    let r = &replay.result;
    let winner = replay.winner.map_or(-1, |w| w as i64);
    writeln!(out, "result {winner} {} {}", r.draw as u32, r.ticks).unwrap();
    for i in 0..r.placements.len() {
        let eliminated = r.eliminated_at[i].map_or(-1, i64::from);
        writeln!(out, "{} {eliminated} {}", r.placements[i], r.trails[i]).unwrap();
    }
    out
}

fn step_through_c(test: &str, replays: &[(String, Replay, Vec<Vec<i32>>)]) {
    let dir = support::scratch(test);
    let exe = dir.join("replay_stepper");
    support::build_c_test(&[support::c_dir().join("replay_stepper.c")], &exe);
    let inputs: Vec<PathBuf> = replays.iter().map(|(name, r, codes)| input(r, codes, &dir, name)).collect();
    let out = support::run_ok(support::sanitized(&exe).args(&inputs));
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains(&format!("{} games stepped, 0 failed", replays.len())), "{summary}");
    for ((name, replay, _), input) in replays.iter().zip(&inputs) {
        let mut out_path = input.clone().into_os_string();
        out_path.push(".out");
        let actual = std::fs::read_to_string(&out_path).unwrap();
        let expected = expected(replay);
        if actual != expected {
            let line = actual.lines().zip(expected.lines()).position(|(a, e)| a != e).unwrap_or(0);
            panic!(
                "{name}: the C ABI differs from the replay at output line {} (frame {line}):\n  \
                 replay: {:?}\n  C ABI:  {:?}",
                line + 1,
                expected.lines().nth(line),
                actual.lines().nth(line)
            );
        }
    }
}

#[test]
fn two_hundred_recorded_games_step_identically_through_the_c_abi() {
    let games: Vec<(String, Replay, Vec<Vec<i32>>)> = (0..200)
        .map(|g| {
            let (replay, codes) = record(g);
            // The recorded file is a valid replay, and its commands are the codes stepped.
            replay::verify::<ReferenceGame>(&replay).unwrap_or_else(|e| panic!("game {g}: {e}"));
            assert_eq!(codes_of(&replay), codes, "game {g}");
            // Through JSON and back, as a file on disk would go.
            let replay = Replay::from_json(&replay.to_json()).unwrap();
            (format!("sim_{g}"), replay, codes)
        })
        .collect();
    // The sample covers what it claims.
    let all = || games.iter().map(|(_, r, _)| r);
    assert!(all()
        .any(|r| r.config.fault_policy == FaultPolicy::Eliminate && r.faults.iter().flatten().any(Option::is_some)));
    assert!(all().any(|r| r.result.ticks == r.max_ticks), "a game reaches its cap");
    assert!(all().any(|r| r.result.draw) && all().any(|r| !r.result.draw));
    assert!(all().any(|r| r.num_players == 8));
    for kind in [FaultKind::Invalid, FaultKind::Timeout, FaultKind::Crash] {
        assert!(all().any(|r| r.faults.iter().flatten().any(|f| *f == Some(kind))), "{kind} faults");
    }
    step_through_c("replays-recorded", &games);
}

#[test]
fn golden_replays_step_identically_through_the_c_abi() {
    let dir = support::workspace_root().join("lightcycles-core/tests/golden-replays");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 24, "the golden replays are in {}", dir.display());
    let replays: Vec<(String, Replay, Vec<Vec<i32>>)> = names
        .iter()
        .map(|path| {
            let replay = Replay::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
            let codes = codes_of(&replay);
            (path.file_stem().unwrap().to_string_lossy().into_owned(), replay, codes)
        })
        .collect();
    assert!(replays.iter().any(|(_, r, _)| r.map.is_some()), "a golden game starts from a map file");
    step_through_c("replays-golden", &replays);
}

/// Replays written by the CLI (`lightcycles play … -o DIR`) step the same:
/// `LIGHTCYCLES_REPLAY_DIR=DIR cargo test -p lightcycles-ffi --test replays -- --ignored`.
#[test]
#[ignore = "needs LIGHTCYCLES_REPLAY_DIR with replay files"]
fn replays_from_a_directory_step_identically_through_the_c_abi() {
    let dir = PathBuf::from(std::env::var("LIGHTCYCLES_REPLAY_DIR").expect("set LIGHTCYCLES_REPLAY_DIR"));
    let mut replays = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let replay = Replay::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let codes = codes_of(&replay);
            replays.push((path.file_stem().unwrap().to_string_lossy().into_owned(), replay, codes));
        }
    }
    assert!(!replays.is_empty(), "no replay files in {}", dir.display());
    step_through_c("replays-dir", &replays);
}
