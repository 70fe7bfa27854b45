//! The `lightcycles` binary as a user runs it: `play`, `replay verify` and
//! `map`, their output, their files and their exit codes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use assert_cmd::prelude::*;
use lightcycles_core::replay::Replay;
use predicates::prelude::*;
use serde_json::Value;

/// The 2010 map of the golden replay `map_headon_draw.json`.
const MAP_2010: &str =
    "10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n";

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn run(args: &[&str]) -> Output {
    lightcycles().args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn play_into(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", dir.to_str().unwrap()]);
    let out = run(&all);
    assert!(out.status.success(), "play {args:?} failed: {}", stderr(&out));
    out
}

/// Every file in `dir`, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().into_string().unwrap(), std::fs::read(e.path()).unwrap())
        })
        .collect()
}

fn sim_paths(dir: &Path, games: u64) -> Vec<PathBuf> {
    (0..games).map(|g| dir.join(format!("sim_{g}.json"))).collect()
}

fn load(path: &Path) -> Replay {
    Replay::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The FINAL_RESULTS block at the end of stdout: (names, wins) in bot
/// order, and draws.
fn final_results(out: &str) -> (Vec<(String, u64)>, u64) {
    let lines: Vec<&str> = out.lines().collect();
    let start = lines.iter().rposition(|l| *l == "FINAL_RESULTS").expect("a FINAL_RESULTS block");
    let block = &lines[start + 1..];
    let (draws, bots) = block.split_last().expect("a Draws line");
    let draws = draws.strip_prefix("Draws: ").expect("Draws last").parse().unwrap();
    let bots = bots
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let rest = line.strip_prefix(&format!("Bot_{}: ", i + 1)).unwrap_or_else(|| panic!("{line}"));
            let (wins, name) = rest.split_once(" games won (").unwrap_or_else(|| panic!("{line}"));
            (name.strip_suffix(')').unwrap().to_string(), wins.parse().unwrap())
        })
        .collect();
    assert!(out.ends_with(&format!("Draws: {draws}\n")), "the block ends stdout");
    (bots, draws)
}

/// Wins per display name and draws, counted from replay files.
fn count_from_replays(paths: &[PathBuf]) -> (BTreeMap<String, u64>, u64) {
    let mut wins = BTreeMap::new();
    let mut draws = 0;
    for path in paths {
        let r = load(path);
        match r.winner {
            Some(w) => *wins.entry(r.names[w].clone()).or_insert(0) += 1,
            None => draws += 1,
        }
    }
    (wins, draws)
}

#[test]
fn two_hundred_games_of_random_and_fuzz_all_verify() {
    let dir = tempfile::tempdir().unwrap();
    let out = play_into(dir.path(), &["builtin:random", "builtin:fuzz", "-r", "200", "-s", "7"]);
    let text = stdout(&out);
    let names: Vec<String> = (0..200).map(|g| format!("sim_{g}.json")).collect();
    assert_eq!(files(dir.path()).into_keys().collect::<std::collections::BTreeSet<_>>(), names.into_iter().collect());

    let game_lines: Vec<&str> = text.lines().take_while(|l| *l != "FINAL_RESULTS").collect();
    assert_eq!(game_lines.len(), 200);
    for (g, line) in game_lines.iter().enumerate() {
        assert!(line.starts_with(&format!("game {g} seed {} random vs fuzz: ", 7 + g)), "{line}");
    }
    let (bots, draws) = final_results(&text);
    assert_eq!(bots.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["random", "fuzz"]);
    assert_eq!(bots.iter().map(|(_, w)| w).sum::<u64>() + draws, 200, "wins + draws = games");
    let (wins, replay_draws) = count_from_replays(&sim_paths(dir.path(), 200));
    assert_eq!(draws, replay_draws);
    for (name, w) in &bots {
        assert_eq!(wins.get(name).copied().unwrap_or(0), *w, "{name}");
    }
    // The fuzz bot's invalid lines and missing answers are in the replays.
    let faults: Vec<String> = sim_paths(dir.path(), 200)
        .iter()
        .flat_map(|p| load(p).faults.into_iter().flatten().flatten().map(|f| f.to_string()))
        .collect();
    assert!(faults.iter().any(|f| f == "invalid") && faults.iter().any(|f| f == "timeout"));

    let mut verify = vec!["replay".to_string(), "verify".to_string()];
    verify.extend(sim_paths(dir.path(), 200).iter().map(|p| p.to_str().unwrap().to_string()));
    let out = lightcycles().args(&verify).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().filter(|l| l.contains(": ok (")).count(), 200);
}

/// Plays a few games into a fresh directory and returns it.
fn some_replays(games: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    play_into(dir.path(), &["builtin:random", "builtin:random", "-r", games, "-s", "3"]);
    dir
}

fn write_replay(path: &Path, replay: &Value) {
    std::fs::write(path, serde_json::to_string(replay).unwrap()).unwrap();
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs `replay verify` on `path` after `change`, expecting exit 1 and a
/// line naming the file and the first difference.
fn expect_difference(change: impl Fn(&mut Value), expected: &str) {
    let dir = some_replays("1");
    let path = dir.path().join("sim_0.json");
    let mut replay = read_json(&path);
    change(&mut replay);
    let bad = dir.path().join("bad.json");
    write_replay(&bad, &replay);
    lightcycles()
        .args(["replay", "verify", bad.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("{}: differs at {expected}", bad.display())))
        .stdout(predicate::str::contains("Some(").not());
}

#[test]
fn a_replay_changed_in_one_frame_is_rejected_at_that_frame() {
    expect_difference(
        |r| {
            let x = r["frames"][3]["heads"][1][0].as_u64().unwrap();
            r["frames"][3]["heads"][1][0] = (x + 1).into();
        },
        "tick 3, player 1: head at (",
    );
}

#[test]
fn a_replay_changed_in_one_command_is_rejected_at_the_next_frame() {
    let dir = some_replays("1");
    let replay = read_json(&dir.path().join("sim_0.json"));
    let frames = replay["frames"].as_array().unwrap();
    // A tick k + 1 on which player 0 rode N or S and was still alive after.
    let k = (0..replay["commands"].as_array().unwrap().len())
        .find(|&k| {
            let c = replay["commands"][k][0].as_str();
            (c == Some("N") || c == Some("S")) && frames[k + 1]["heads"][0][2] == 1
        })
        .expect("a vertical move");
    expect_difference(
        |r| {
            // Any other order than the one that kept it alive moves it elsewhere.
            r["commands"][k][0] = "E".into();
        },
        &format!("tick {}, player 0: head at (", k + 1),
    );
}

#[test]
fn a_replay_changed_in_one_rock_is_rejected_before_the_first_tick() {
    expect_difference(
        |r| {
            let x = r["rocks"][0][0].as_u64().unwrap();
            r["rocks"][0][0] = ((x + 1) % 48).into();
        },
        "tick 0: rock 0 at (",
    );
}

#[test]
fn verify_stops_at_the_first_bad_file() {
    let dir = some_replays("3");
    let bad = dir.path().join("sim_1.json");
    let mut replay = read_json(&bad);
    replay["result"]["ticks"] = 99_999.into();
    write_replay(&bad, &replay);
    let paths = sim_paths(dir.path(), 3);
    let out =
        run(&["replay", "verify", paths[0].to_str().unwrap(), paths[1].to_str().unwrap(), paths[2].to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains(&format!("{}: ok (", paths[0].display())));
    assert!(text.contains(&format!("{}: differs at tick", paths[1].display())), "{text}");
    assert!(text.contains("ticks played") && text.contains("99999 in the file"));
    assert!(!text.contains(&paths[2].display().to_string()), "nothing after the first difference");
}

/// Runs `replay verify` on a file with `contents`, expecting exit 2 and a
/// message with the file name and each of `expected`.
fn expect_unreadable(contents: Option<&[u8]>, expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.json");
    if let Some(bytes) = contents {
        std::fs::write(&path, bytes).unwrap();
    }
    let out = run(&["replay", "verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(&path.display().to_string()), "{err}");
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unreadable_or_malformed_replays_exit_2_naming_the_file_and_the_place() {
    let dir = some_replays("1");
    let good = std::fs::read(dir.path().join("sim_0.json")).unwrap();
    expect_unreadable(None, &["cannot read", "No such file"]);
    expect_unreadable(Some(&good[..good.len() / 2]), &["malformed replay", "EOF while parsing", "at line 1 column"]);
    expect_unreadable(
        Some(b"{\n  \"format\": \"lightcycles-replay/1\",\n  oops\n}"),
        &["key must be a string at line 3 column 3"],
    );
    expect_unreadable(Some(b""), &["EOF while parsing a value at line 1 column 0"]);
    expect_unreadable(Some(b"\xff\xfe"), &["is not UTF-8 text: line 1, column 1 (byte 0)"]);
    let mut wrong_type = read_json(&dir.path().join("sim_0.json"));
    wrong_type["seed"] = "three".into();
    expect_unreadable(
        Some(serde_json::to_string(&wrong_type).unwrap().as_bytes()),
        &["invalid type: string \"three\", expected u64"],
    );
    let mut bad_size = read_json(&dir.path().join("sim_0.json"));
    bad_size["config"]["width"] = 300.into();
    bad_size["width"] = 300.into();
    expect_unreadable(
        Some(serde_json::to_string(&bad_size).unwrap().as_bytes()),
        &["width = 300 is out of range: allowed 8 to 255"],
    );
    let map_dir = tempfile::tempdir().unwrap();
    std::fs::write(map_dir.path().join("m.txt"), MAP_2010).unwrap();
    play_into(
        map_dir.path(),
        &["builtin:random", "builtin:random", "-r", "1", "--map", map_dir.path().join("m.txt").to_str().unwrap()],
    );
    let mut bad_map = read_json(&map_dir.path().join("sim_0.json"));
    bad_map["map"] = MAP_2010.replace("2#", "x#").into();
    expect_unreadable(Some(serde_json::to_string(&bad_map).unwrap().as_bytes()), &["map: line 6, column 9"]);
}

/// Runs `lightcycles ARGS`, expecting exit 2, no panic, and each of `expected` in stderr.
fn expect_usage_error(args: &[&str], expected: &[&str]) {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for e in expected {
        assert!(err.contains(e), "{args:?}: expected {e:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(!stdout(&out).contains("FINAL_RESULTS"), "{args:?}: no games are played");
}

#[test]
fn bad_flags_and_bots_exit_2_naming_what_and_where() {
    let two = ["play", "builtin:random", "builtin:fuzz"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { two.iter().chain(extra).copied().collect() };
    expect_usage_error(&with(&["--width", "7"]), &["--width 7 is out of range: allowed 8 to 255"]);
    expect_usage_error(&with(&["--height", "256"]), &["--height 256 is out of range: allowed 8 to 255"]);
    expect_usage_error(&with(&["--max-ticks", "0"]), &["--max-ticks 0 is out of range: allowed 1 to 1000000"]);
    expect_usage_error(&with(&["--rock-density", "26"]), &["--rock-density 26 is out of range: allowed 0 to 25"]);
    expect_usage_error(&with(&["--width", "wide"]), &["'wide'", "--width"]);
    expect_usage_error(&with(&["--width", "-3"]), &["'-3'"]);
    expect_usage_error(&with(&["-r", "0"]), &["--rounds"]);
    expect_usage_error(&with(&["-j", "0"]), &["--jobs"]);
    expect_usage_error(&with(&["-s", "18446744073709551616"]), &["--seed"]);
    expect_usage_error(&with(&["--fault-policy", "kill"]), &["'kill'", "straight, eliminate"]);
    expect_usage_error(&with(&["--time-ms", "0"]), &["--time-ms"]);
    expect_usage_error(&with(&["--frobnicate"]), &["--frobnicate"]);
    expect_usage_error(&["play", "builtin:random"], &["<BOT> <BOT>"]);
    expect_usage_error(
        &["play", "builtin:random", "builtin:random", "builtin:random", "--width", "12"],
        &["--width 12 is too small for 3 players"],
    );
    let nine: Vec<&str> = std::iter::once("play").chain(std::iter::repeat("builtin:random").take(9)).collect();
    expect_usage_error(&nine, &["9 bots given: a game takes 2 to 8 bots"]);
    expect_usage_error(
        &["play", "builtin:random", "builtin:smart"],
        &["bot \"builtin:smart\": no built-in bot is called \"smart\"; the built-in bots are random, fuzz, straight, wallhug, floodfill, search"],
    );
    expect_usage_error(&["play", "builtin:random", "bot.exe"], &["bot \"bot.exe\": not a bot spec"]);
    // Bot files are checked before the first game.
    expect_usage_error(
        &["play", "builtin:random", "bots/main.py"],
        &["bot \"bots/main.py\": cannot read bots/main.py"],
    );
    expect_usage_error(
        &["play", "builtin:random", "x=./libbot.so"],
        &["bot \"x=./libbot.so\": cannot load ./libbot.so"],
    );
    expect_usage_error(&["nonsense"], &["nonsense"]);
    expect_usage_error(&["replay", "verify"], &["<FILE>"]);
    expect_usage_error(&["map", "--players", "9"], &["--players 9 is out of range: allowed 2 to 8"]);
    expect_usage_error(&["map", "--players", "3", "--width", "15"], &["--width 15 is too small for 3 players"]);
}

#[test]
fn missing_or_malformed_map_files_exit_2_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    expect_usage_error(
        &["play", "builtin:random", "builtin:fuzz", "--map", missing],
        &[&format!("--map {missing}: cannot read")],
    );
    for (name, text, expected) in [
        ("bad_cell.txt", MAP_2010.replace("#1 ", "#1x"), "line 6, column 3: expected '#', ' ', '1' or '2', found 'x'"),
        ("short.txt", MAP_2010.replace("#        #\n##", "#       #\n##"), "line 9, column 10"),
        ("header.txt", MAP_2010.replacen("10 9", "10", 1), "line 1"),
        ("no_two.txt", MAP_2010.replace('2', " "), "a '2'"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        expect_usage_error(
            &["play", "builtin:random", "builtin:fuzz", "--map", path],
            &[&format!("--map {path}: "), expected],
        );
    }
    let good = dir.path().join("good.txt");
    std::fs::write(&good, MAP_2010).unwrap();
    let good = good.to_str().unwrap();
    expect_usage_error(
        &["play", "builtin:random", "builtin:fuzz", "builtin:straight", "--map", good],
        &["a 2010 map has starts for 2 bots, but 3 bots were given"],
    );
    expect_usage_error(
        &["play", "builtin:random", "builtin:fuzz", "--map", good, "--width", "20"],
        &["'--map <FILE>' cannot be used with '--width <W>'"],
    );
}

#[test]
fn games_on_a_map_file_record_it_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("arena.txt");
    std::fs::write(&map, MAP_2010).unwrap();
    let out_dir = dir.path().join("games");
    let out = play_into(
        &out_dir,
        &["builtin:random", "builtin:fuzz", "-r", "6", "--swap", "--map", map.to_str().unwrap(), "--max-ticks", "100"],
    );
    let (bots, draws) = final_results(&stdout(&out));
    assert_eq!(bots.iter().map(|(_, w)| w).sum::<u64>() + draws, 12);
    for path in sim_paths(&out_dir, 12) {
        let r = load(&path);
        assert_eq!(r.seed, None);
        assert_eq!(r.map.as_deref(), Some(MAP_2010));
        assert_eq!((r.width, r.height, r.config.players, r.config.rock_density, r.max_ticks), (10, 9, 2, 0, 100));
        lightcycles().args(["replay", "verify", path.to_str().unwrap()]).assert().success();
    }
}

#[test]
fn the_same_seed_gives_byte_identical_replays_and_output() {
    let args = [
        "builtin:fuzz",
        "builtin:random",
        "builtin:straight",
        "-r",
        "12",
        "-s",
        "99",
        "--width",
        "24",
        "--height",
        "20",
    ];
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let out_a = play_into(a.path(), &args);
    let out_b = play_into(b.path(), &args);
    assert_eq!(stdout(&out_a), stdout(&out_b));
    assert_eq!(files(a.path()), files(b.path()));
    assert_eq!(files(a.path()).len(), 12);
    assert_eq!(load(&a.path().join("sim_0.json")).num_players, 3, "three bots ride one game");
    let c = tempfile::tempdir().unwrap();
    let mut other = args.to_vec();
    other[6] = "100";
    play_into(c.path(), &other);
    assert_ne!(files(a.path()), files(c.path()), "another seed, other games");
    assert_eq!(files(a.path())["sim_1.json"], files(c.path())["sim_0.json"], "game g gets seed SEED + g");
}

#[test]
fn one_job_and_two_jobs_give_identical_replays_and_output() {
    let args = ["builtin:random", "builtin:fuzz", "-r", "40", "-s", "5", "--swap"];
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = play_into(a.path(), &[&args[..], &["-j", "1"]].concat());
    let two = play_into(b.path(), &[&args[..], &["-j", "2"]].concat());
    assert_eq!(stdout(&one), stdout(&two));
    assert_eq!(files(a.path()), files(b.path()));
    assert_eq!(files(a.path()).len(), 80);
}

#[test]
fn swap_plays_each_seed_in_both_seat_orders_and_counts_wins_per_bot() {
    let dir = tempfile::tempdir().unwrap();
    let out = play_into(dir.path(), &["a=builtin:random", "b=builtin:straight", "-r", "5", "-s", "40", "--swap"]);
    let text = stdout(&out);
    for r in 0..5u64 {
        let first = load(&dir.path().join(format!("sim_{}.json", 2 * r)));
        let second = load(&dir.path().join(format!("sim_{}.json", 2 * r + 1)));
        assert_eq!(first.seed, Some(40 + r));
        assert_eq!(second.seed, Some(40 + r));
        assert_eq!(first.names, ["a", "b"]);
        assert_eq!(second.names, ["b", "a"]);
        assert_eq!((first.rocks, first.start), (second.rocks, second.start), "the same map");
        assert!(text.contains(&format!("game {} seed {} a vs b: ", 2 * r, 40 + r)), "{text}");
        assert!(text.contains(&format!("game {} seed {} b vs a: ", 2 * r + 1, 40 + r)), "{text}");
    }
    let (bots, draws) = final_results(&text);
    assert_eq!(bots.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["a", "b"], "bots in the order given");
    let (wins, replay_draws) = count_from_replays(&sim_paths(dir.path(), 10));
    assert_eq!(draws, replay_draws);
    for (name, w) in bots {
        assert_eq!(wins.get(&name).copied().unwrap_or(0), w, "{name}: wins follow the bot, not the seat");
    }
}

#[test]
fn eliminate_policy_games_record_it_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    play_into(dir.path(), &["builtin:fuzz", "builtin:fuzz", "-r", "10", "--fault-policy", "eliminate"]);
    for path in sim_paths(dir.path(), 10) {
        let r = load(&path);
        assert_eq!(r.config.fault_policy.as_str(), "eliminate");
        assert_eq!(r.names, ["fuzz", "fuzz_2"]);
        lightcycles().args(["replay", "verify", path.to_str().unwrap()]).assert().success();
    }
}

#[test]
fn without_output_dir_nothing_is_written_and_results_still_print() {
    let dir = tempfile::tempdir().unwrap();
    let out = lightcycles()
        .current_dir(dir.path())
        .args(["play", "builtin:straight", "builtin:straight", "-r", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(files(dir.path()).is_empty());
    let text = stdout(&out);
    assert_eq!(final_results(&text).0, vec![("straight".to_string(), 0), ("straight_2".to_string(), 0)]);
    assert!(text.ends_with("FINAL_RESULTS\nBot_1: 0 games won (straight)\nBot_2: 0 games won (straight_2)\nDraws: 3\n"));
}

#[test]
fn map_prints_the_golden_maps() {
    let out = run(&["map", "--seed", "1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("seed 1: 48 × 36, 2 players, rock density 4%\n+"), "{text}");
    assert!(text.contains("player 0: (4, 9) facing S\nplayer 1: (43, 26) facing N\nrocks: 70\n"), "{text}");
    let rows: Vec<&str> = text.lines().skip(2).take(36).collect();
    assert_eq!(rows[0].chars().nth(1 + 2), Some('#'), "rock (2, 0)");
    assert_eq!(rows[9].chars().nth(1 + 4), Some('0'), "player 0 at (4, 9)");

    let out =
        run(&["map", "-s", "7", "--width", "24", "--height", "20", "--players", "4", "--rock-density", "6", "--json"]);
    assert!(out.status.success());
    let j: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(j["width"], 24);
    assert_eq!(j["height"], 20);
    assert_eq!(j["start"], serde_json::json!([[5, 5, "S"], [18, 14, "N"], [18, 5, "S"], [5, 14, "N"]]));
    assert_eq!(j["rocks"].as_array().unwrap().len(), 28);
    assert_eq!(
        j["rocks"].as_array().unwrap()[..4],
        serde_json::json!([[7, 0], [16, 0], [9, 1], [14, 1]]).as_array().unwrap()[..]
    );

    let out =
        run(&["map", "-s", "3", "--width", "20", "--height", "16", "--players", "3", "--rock-density", "10", "--json"]);
    let j: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(j["start"], serde_json::json!([[15, 11, "E"], [17, 8, "W"], [10, 12, "S"]]));
    assert_eq!(j["rocks"].as_array().unwrap().len(), 32);
}

#[test]
fn help_describes_every_command_and_builtin() {
    lightcycles().arg("--help").assert().success().stdout(
        predicate::str::contains("play").and(predicate::str::contains("replay")).and(predicate::str::contains("map")),
    );
    let out = run(&["play", "--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    for needle in [
        "builtin:random",
        "builtin:fuzz",
        "builtin:straight",
        "NAME=SPEC",
        "--swap",
        "--map <FILE>",
        "--time-first-ms",
        "--fault-policy",
        "--rock-density",
        "--max-ticks",
        "-j, --jobs",
        "-o, --output <DIR>",
        "-s, --seed",
        "-r, --rounds",
    ] {
        assert!(help.contains(needle), "{needle} in {help}");
    }
    for cmd in [&["replay", "verify", "--help"][..], &["map", "--help"]] {
        lightcycles().args(cmd).assert().success().stdout(predicate::str::contains("Usage: lightcycles"));
    }
}
