//! The kinds of tournament fastchess and psyleague users expect: time per
//! bot with a margin, map pools played in both seats, free-for-all games
//! with seats rotated, and leagues that stop and resume exactly.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lightcycles")).args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// The header and the game lines of a results file, games by index.
fn results(file: &str) -> (Value, Vec<Value>) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines = text.lines();
    let header = serde_json::from_str(lines.next().unwrap()).unwrap();
    let mut games: Vec<Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    games.sort_by_key(|g| g["game"].as_u64().unwrap());
    (header, games)
}

fn seats(game: &Value) -> Vec<u64> {
    game["seats"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect()
}

/// A bot that takes at least 300 ms over every answer.
const SLOW: &str = "slow=cmd:while read l; do sleep 0.3; echo N; done";

#[test]
fn a_bot_with_time_of_its_own_keeps_it_and_both_files_record_it() {
    let dir = tempfile::tempdir().unwrap();
    let board = ["--width", "24", "--height", "20", "--max-ticks", "4"];
    // With the run's 50 ms, every answer after the first is late.
    let (r1, o1) = (path(dir.path(), "plain.jsonl"), path(dir.path(), "plain"));
    let mut args = vec![SLOW, "builtin:straight", "-g", "2", "-j", "2", "--results", &r1, "-o", &o1];
    args.extend(board);
    ok(&[&["tournament"][..], &args].concat());
    let (header, games) = results(&r1);
    assert_eq!(header["bots"][0].get("time_ms"), None, "no time of its own");
    for g in &games {
        let seat = seats(g).iter().position(|&b| b == 0).unwrap();
        assert!(g["faults"][seat]["timeout"].as_u64().unwrap() >= 2, "late at 50 ms: {g}");
    }
    let replay: Value =
        serde_json::from_str(&std::fs::read_to_string(path(Path::new(&o1), "sim_0.json")).unwrap()).unwrap();
    assert_eq!(replay.get("time_limits"), None, "one limit for all: nothing recorded");

    // With --bot-time it has 2 s a tick, and the other bot keeps 50 ms.
    let (r2, o2) = (path(dir.path(), "own.jsonl"), path(dir.path(), "own"));
    let mut args = vec![SLOW, "builtin:straight", "-g", "2", "-j", "2", "--results", &r2, "-o", &o2];
    args.extend(board);
    args.extend(["--bot-time", "slow=3000,2000"]);
    ok(&[&["tournament"][..], &args].concat());
    let (header, games) = results(&r2);
    assert_eq!(
        (header["bots"][0]["time_first_ms"].as_u64(), header["bots"][0]["time_ms"].as_u64()),
        (Some(3000), Some(2000))
    );
    assert_eq!(header["bots"][1].get("time_ms"), None);
    assert_eq!((header["time_first_ms"].as_u64(), header["time_ms"].as_u64()), (Some(1000), Some(50)));
    for g in &games {
        let seat = seats(g).iter().position(|&b| b == 0).unwrap();
        assert_eq!(g["faults"][seat]["timeout"], 0, "in time with its own limit: {g}");
    }
    for (k, slow_seat) in [(0, 0), (1, 1)] {
        let replay: Value =
            serde_json::from_str(&std::fs::read_to_string(path(Path::new(&o2), &format!("sim_{k}.json"))).unwrap())
                .unwrap();
        let limits = &replay["time_limits"];
        let mut first = vec![1000, 1000];
        let mut ms = vec![50, 50];
        first[slow_seat] = 3000;
        ms[slow_seat] = 2000;
        assert_eq!(limits["first_ms"], serde_json::json!(first), "game {k}");
        assert_eq!(limits["ms"], serde_json::json!(ms), "game {k}");
        assert_eq!(limits["margin_ms"], 0);
    }
    // A resume must name the same times.
    let mut args = vec![SLOW, "builtin:straight", "-g", "2", "--results", &r2, "--resume"];
    args.extend(board);
    let out = run(&[&["tournament"][..], &args].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("time_ms"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn answers_within_the_margin_are_in_time_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let r = path(dir.path(), "m.jsonl");
    // 250 ms a tick and a 1500 ms margin: the 300 ms answers are past the
    // limit and inside the margin.
    let out = ok(&[
        "tournament",
        SLOW,
        "builtin:straight",
        "-g",
        "2",
        "-j",
        "2",
        "--width",
        "24",
        "--height",
        "20",
        "--max-ticks",
        "4",
        "--bot-time",
        "slow=3000,250",
        "--time-margin-ms",
        "1500",
        "--results",
        &r,
    ]);
    let (header, games) = results(&r);
    assert_eq!(header["time_margin_ms"], 1500);
    for g in &games {
        assert_eq!(g["faults"][0]["timeout"], 0, "{g}");
        assert_eq!(g["faults"][1]["timeout"], 0, "{g}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let note = stderr.lines().find(|l| l.starts_with("answers near the limit")).unwrap_or_else(|| panic!("{stderr}"));
    // Every answer after the first (which has 3 s) is past 250 ms: near the
    // limit and let in by the margin, as many of one as of the other.
    let part = note.split("slow ").nth(1).unwrap_or_else(|| panic!("{note}"));
    let numbers: Vec<u64> = part
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .take(3)
        .map(|w| w.parse().unwrap())
        .collect();
    let (near, timed, in_margin) = (numbers[0], numbers[1], numbers[2]);
    assert!(near >= 2 && near == in_margin && timed >= near + 2, "{note}");
    assert!(note.contains(&format!("{in_margin} came after the limit and within the 1500 ms margin")), "{note}");
}

#[test]
fn bad_bot_times_say_what_is_wrong() {
    for (flag, expected) in [
        ("nobody=10", "no bot is named \"nobody\""),
        ("straight=0", "milliseconds from 1"),
        ("straight", "expected NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS]"),
        ("straight=40,bank=x", "expected NAME=[FIRST_MS,]MS"),
    ] {
        let out = run(&["tournament", "builtin:straight", "builtin:random", "-g", "2", "--bot-time", flag]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(expected),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_map_pool_is_played_in_order_from_its_start_each_map_in_both_seats() {
    let dir = tempfile::tempdir().unwrap();
    let (r, o) = (path(dir.path(), "maps.jsonl"), path(dir.path(), "games"));
    ok(&[
        "tournament",
        "builtin:floodfill",
        "builtin:wallhug",
        "--maps",
        "builtin:ring",
        "builtin:doors",
        "builtin:open",
        "--map-start",
        "1",
        "-g",
        "8",
        "-j",
        "2",
        "--results",
        &r,
        "-o",
        &o,
    ]);
    let (header, games) = results(&r);
    let pool: Vec<&str> =
        header["maps"]["maps"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(pool, ["builtin:ring", "builtin:doors", "builtin:open"]);
    assert_eq!((header["maps"]["order"].as_str(), header["maps"]["start"].as_u64()), (Some("sequential"), Some(1)));
    // Rounds 0 to 3 take maps 1, 2, 0, 1; both games of a round, seats swapped.
    let expected = ["builtin:doors", "builtin:open", "builtin:ring", "builtin:doors"];
    for g in &games {
        let k = g["game"].as_u64().unwrap();
        let name = expected[(k / 2) as usize];
        assert_eq!(g["map"], name, "game {k}");
        assert_eq!(seats(g), if k % 2 == 0 { [0, 1] } else { [1, 0] }, "game {k}");
        let replay: Value =
            serde_json::from_str(&std::fs::read_to_string(path(Path::new(&o), &format!("sim_{k}.json"))).unwrap())
                .unwrap();
        let text = std::fs::read_to_string(format!(
            "{}/maps/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            name.strip_prefix("builtin:").unwrap()
        ))
        .unwrap();
        assert_eq!(replay["map"], text, "game {k} is played on its map");
        assert_eq!(replay["seed"], Value::Null);
    }
    assert_eq!(games.len(), 8);
    // Every replay verifies against the rules.
    let files: Vec<String> = (0..8).map(|k| path(Path::new(&o), &format!("sim_{k}.json"))).collect();
    let mut args = vec!["replay", "verify"];
    args.extend(files.iter().map(String::as_str));
    ok(&args);
}

#[test]
fn a_random_map_order_is_fixed_by_the_seed_and_a_size_pool_varies_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let order = |seed: &str, name: &str| {
        let r = path(dir.path(), name);
        ok(&[
            "tournament",
            "builtin:floodfill",
            "builtin:wallhug",
            "--maps",
            "builtin:all",
            "--map-order",
            "random",
            "-s",
            seed,
            "-g",
            "12",
            "--results",
            &r,
        ]);
        results(&r).1.iter().map(|g| g["map"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let a = order("5", "a.jsonl");
    assert_eq!(a, order("5", "b.jsonl"), "the same seed, the same order");
    let mut rounds: Vec<String> = a.iter().step_by(2).cloned().collect();
    rounds.sort();
    assert_eq!(rounds.len(), 6);
    rounds.dedup();
    assert_eq!(rounds.len(), 6, "six rounds take the six maps once each: {a:?}");

    let r = path(dir.path(), "sizes.jsonl");
    let o = path(dir.path(), "sized");
    ok(&[
        "tournament",
        "builtin:floodfill",
        "builtin:random",
        "--sizes",
        "20x16,32x24",
        "--densities",
        "0,10",
        "-g",
        "8",
        "--results",
        &r,
        "-o",
        &o,
    ]);
    let (_, games) = results(&r);
    let names: Vec<&str> = games.iter().map(|g| g["map"].as_str().unwrap()).collect();
    assert_eq!(names, ["20x16@0", "20x16@0", "20x16@10", "20x16@10", "32x24@0", "32x24@0", "32x24@10", "32x24@10"]);
    let replay: Value =
        serde_json::from_str(&std::fs::read_to_string(path(Path::new(&o), "sim_5.json")).unwrap()).unwrap();
    assert_eq!((replay["width"].as_u64(), replay["height"].as_u64()), (Some(32), Some(24)));
    assert_eq!(replay["config"]["rock_density"], 0);
}

#[test]
fn a_free_for_all_rides_every_bot_in_every_seat_equally() {
    let dir = tempfile::tempdir().unwrap();
    let r = path(dir.path(), "ffa.jsonl");
    let report = path(dir.path(), "report.json");
    let out = ok(&[
        "tournament",
        "builtin:floodfill",
        "builtin:wallhug",
        "builtin:random",
        "builtin:straight",
        "--ffa",
        "3",
        "-g",
        "6",
        "-j",
        "2",
        "--width",
        "20",
        "--height",
        "16",
        "--results",
        &r,
        "--report",
        &report,
    ]);
    let (header, games) = results(&r);
    assert_eq!(header["seats"], 3);
    assert_eq!(games.len(), 24, "4 groups of 3, 6 games each");
    let mut count = [[0u32; 3]; 4];
    for g in &games {
        for (seat, bot) in seats(g).into_iter().enumerate() {
            count[bot as usize][seat] += 1;
        }
        assert_eq!(g["placements"].as_array().unwrap().len(), 3);
    }
    assert_eq!(count, [[6; 3]; 4], "each bot rides each seat 6 times");
    // The table is sorted by conservative rating, mu - 3 sigma.
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("free-for-all of 3 seats"), "{table}");
    let mut rows: Vec<(f64, String)> = json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let c = b["conservative"].as_f64().unwrap();
            let (mu, sigma) = (b["rating"]["mu"].as_f64().unwrap(), b["rating"]["sigma"].as_f64().unwrap());
            assert!((c - (mu - 3.0 * sigma)).abs() < 1e-9);
            (c, b["name"].as_str().unwrap().to_string())
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let listed: Vec<&str> = table.lines().skip(3).take(4).map(|l| l.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(listed, rows.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>(), "{table}");
}

#[test]
fn a_league_stopped_and_resumed_mid_way_plays_what_one_run_plays() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:floodfill", "builtin:wallhug", "builtin:random"];
    let league = |file: &str, games: &str, jobs: &str, resume: bool| {
        let mut args = vec!["tournament"];
        args.extend(bots);
        args.extend(["--league", "--league-lag", "2", "-g", games, "-j", jobs, "--results", file]);
        args.extend(["--width", "20", "--height", "16"]);
        if resume {
            args.push("--resume");
        }
        ok(&args)
    };
    let straight = path(dir.path(), "straight.jsonl");
    league(&straight, "20", "2", false);
    // Another league stopped after 9 games: one game of set 4 is lost in
    // flight and the last line is torn, as a kill leaves it.
    let stopped = path(dir.path(), "stopped.jsonl");
    league(&stopped, "10", "1", false);
    let text = std::fs::read_to_string(&stopped).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap();
    let mut cut = lines.join("\n");
    cut.push('\n');
    cut.push_str(&last[..last.len() / 2]);
    std::fs::write(&stopped, cut).unwrap();
    let out = league(&stopped, "20", "2", true);
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming: 9 of 20 games are done"));
    let (h1, g1) = results(&straight);
    let (h2, g2) = results(&stopped);
    assert_eq!(h1, h2);
    assert_eq!(g1, g2, "the same games, seats, seeds and results");
    // Every pairing got games, the unsure ones first: the first three sets
    // go to three different pairings.
    let pairings: Vec<u64> = g1.iter().step_by(2).map(|g| g["pairing"].as_u64().unwrap()).collect();
    assert_eq!(pairings.len(), 10);
    let mut first: Vec<u64> = pairings[..3].to_vec();
    first.sort();
    assert_eq!(first, [0, 1, 2], "{pairings:?}");
}

#[test]
fn a_league_takes_new_bots_on_resume_and_plays_them_next() {
    let dir = tempfile::tempdir().unwrap();
    let r = path(dir.path(), "grow.jsonl");
    let base = ["tournament", "builtin:floodfill", "builtin:wallhug", "builtin:random"];
    let tail = ["--league", "--results", &r, "--width", "20", "--height", "16", "--league-lag", "1"];
    ok(&[&base[..], &["-g", "12"], &tail[..]].concat());
    ok(&[&base[..], &["builtin:straight", "-g", "14", "--resume"], &tail[..]].concat());
    let (header, games) = results(&r);
    assert_eq!(header["bots"].as_array().unwrap().len(), 3, "the header keeps the bots the league began with");
    assert!(seats(&games[12]).contains(&3), "the new bot, unrated, plays the next set: {}", games[12]);
    // Only the pairings played are reported (straight met one bot of three).
    let report = path(dir.path(), "grow.json");
    let again =
        ok(&[&base[..], &["builtin:straight", "-g", "14", "--resume", "--report", &report], &tail[..]].concat());
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let pairings = json["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 4, "three among the first bots and one of straight: {pairings:?}");
    assert!(pairings.iter().all(|p| p["bots"][0] != p["bots"][1]));
    assert_eq!(json["league"], true);
    assert!(String::from_utf8_lossy(&again.stdout).contains("(league)"));
    // Without the bots it has played, a league does not resume.
    let out = run(&[&base[..2], &["-g", "14", "--resume"], &tail[..]].concat());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn shards_of_a_free_for_all_on_a_map_pool_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let common = [
        "builtin:floodfill",
        "builtin:wallhug",
        "builtin:random",
        "--ffa",
        "3",
        "-g",
        "6",
        "--sizes",
        "20x16,24x20",
        "--map-order",
        "random",
    ];
    let whole = path(dir.path(), "whole.jsonl");
    ok(&[&["tournament"][..], &common, &["--results", &whole]].concat());
    let mut shards = Vec::new();
    for i in 0..2 {
        let file = path(dir.path(), &format!("shard{i}.jsonl"));
        let shard = format!("{i}/2");
        ok(&[&["tournament"][..], &common, &["--results", &file, "--shard", &shard]].concat());
        shards.push(file);
    }
    let merged = path(dir.path(), "merged.jsonl");
    ok(&["tournament", "merge", &shards[0], &shards[1], "-o", &merged]);
    let (h1, g1) = results(&whole);
    let (h2, g2) = results(&merged);
    assert_eq!(h1, h2);
    assert_eq!(g1, g2, "the shards play the whole run's games");
}

#[test]
fn a_league_cannot_be_sharded() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(dir.path(), "l.jsonl");
    let out =
        run(&["tournament", "builtin:floodfill", "builtin:random", "--league", "--results", &file, "--shard", "0/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn play_takes_time_per_bot_too() {
    let dir = tempfile::tempdir().unwrap();
    let o = path(dir.path(), "games");
    let out = ok(&[
        "play",
        SLOW,
        "builtin:straight",
        "-r",
        "1",
        "--max-ticks",
        "3",
        "--width",
        "24",
        "--height",
        "20",
        "--bot-time",
        "slow=3000,2000",
        "-o",
        &o,
    ]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("timeout"), "{}", String::from_utf8_lossy(&out.stdout));
    let replay: Value =
        serde_json::from_str(&std::fs::read_to_string(path(Path::new(&o), "sim_0.json")).unwrap()).unwrap();
    assert_eq!(replay["time_limits"]["ms"], serde_json::json!([2000, 50]));
    assert_eq!(replay["faults"].as_array().unwrap().iter().filter(|row| !row[0].is_null()).count(), 0);
}
