//! `lightcycles tournament` as a user runs it: paired seeds, results file,
//! resume after a kill, SPRT, replay commands of faulty games, reports.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use lightcycles_host::stats::{FieldSets, Pentanomial, Sprt};
use serde_json::Value;

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn run(args: &[&str]) -> Output {
    lightcycles().args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", text(&out.stderr));
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// The header line and the game lines of a results file, games sorted by index.
fn results(file: &str) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines = text.lines();
    let header = lines.next().expect("a header").to_string();
    let mut games: Vec<(u64, String)> = lines
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["game"].as_u64().unwrap(), l.to_string())
        })
        .collect();
    games.sort();
    (header, games.into_iter().map(|(_, l)| l).collect())
}

fn read_json(file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

fn line_count(file: &str) -> usize {
    std::fs::read_to_string(file).map(|t| t.matches('\n').count()).unwrap_or(0)
}

/// Small boards keep the debug build quick.
const BOARD: [&str; 4] = ["--width", "24", "--height", "20"];

#[test]
fn a_tournament_killed_with_sigkill_and_resumed_ends_as_one_run_straight_through() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, whole_report) = (path(dir.path(), "whole.jsonl"), path(dir.path(), "whole.json"));
    let (cut, cut_report) = (path(dir.path(), "cut.jsonl"), path(dir.path(), "cut.json"));
    // A search at a node budget: games slow enough (tens of milliseconds)
    // for the kill to fall mid-run, and the same every time.
    let mut args =
        vec!["tournament", "builtin:search:nodes=300", "builtin:floodfill", "-g", "40", "-s", "11", "-j", "2"];
    args.extend(BOARD);
    let with = |results: &str, report: &str, extra: &[&str]| {
        let mut all = args.clone();
        all.extend(["--results", results, "--report", report]);
        all.extend(extra);
        all.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let straight = ok(&with(&whole, &whole_report, &[]).iter().map(String::as_str).collect::<Vec<_>>());

    // The same tournament, killed once a dozen games are in its file.
    let mut child =
        lightcycles().args(with(&cut, &cut_report, &[])).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    while line_count(&cut) < 1 + 12 && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let finished = line_count(&cut) - 1;
    assert!((12..40).contains(&finished), "killed halfway: {finished} of 40 games were in the file");
    assert!(!Path::new(&cut_report).exists(), "a killed run writes no report");
    // As if it had been killed while writing a line.
    let mut file = std::fs::OpenOptions::new().append(true).open(&cut).unwrap();
    file.write_all(b"{\"game\":39,\"round\":19,\"pairi").unwrap();
    drop(file);

    let resumed = ok(&with(&cut, &cut_report, &["--resume"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        text(&resumed.stderr).contains(&format!("resuming: {finished} of 40 games are done")),
        "{}",
        text(&resumed.stderr)
    );
    assert_eq!(results(&cut), results(&whole), "the same header and the same 40 games");
    assert_eq!(results(&cut).1.len(), 40);
    assert_eq!(read_json(&cut_report), read_json(&whole_report));
    assert_eq!(text(&resumed.stdout), text(&straight.stdout));

    // Resuming a finished tournament plays nothing and reports the same.
    let again = ok(&with(&cut, &cut_report, &["--resume"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(line_count(&cut), 41);
    assert_eq!(text(&again.stdout), text(&straight.stdout));
}

#[test]
fn sprt_between_floodfill_and_random_stops_early_in_favour_of_floodfill() {
    let dir = tempfile::tempdir().unwrap();
    let report = path(dir.path(), "r.json");
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "--sprt", "0,10,0.05,0.05"];
    args.extend(BOARD);
    args.extend(["--report", &report]);
    let out = ok(&args);
    let r = read_json(&report);
    let decision = &r["sprt"]["decision"];
    assert_eq!(decision["accepted"], "h1", "{r}");
    let pairs = decision["pairs"].as_u64().unwrap();
    assert!(pairs < 1000, "stopped early: {pairs} pairs");
    assert_eq!(r["games_scheduled"], 20_000, "the default cap with --sprt");
    let played = r["games_played"].as_u64().unwrap();
    assert!(played >= 2 * pairs && played < 2 * pairs + 2 * 16, "{played} games for {pairs} pairs");
    assert!(decision["llr"].as_f64().unwrap() >= r["sprt"]["upper_bound"].as_f64().unwrap());
    assert!(text(&out.stdout).contains(&format!("H1 accepted after {pairs} game pairs")), "{}", text(&out.stdout));
    assert!(r["pairings"][0]["score"].as_f64().unwrap() > 0.9);
}

#[test]
fn a_free_for_all_sprt_tests_the_first_bot_against_the_field_at_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let go = |jobs: &str| {
        let file = path(dir.path(), &format!("j{jobs}.jsonl"));
        let report = path(dir.path(), &format!("j{jobs}.json"));
        let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "random2=builtin:random"];
        args.extend(["--ffa", "3", "--sprt", "0,20,0.05,0.1", "-j", jobs, "--results", &file, "--report", &report]);
        args.extend(BOARD);
        let out = ok(&args);
        (results(&file).1, read_json(&report), text(&out.stdout))
    };
    let (games, r, stdout) = go("1");
    let sprt = &r["sprt"];
    assert_eq!(sprt["decision"]["accepted"], "h1", "{r}");
    assert_eq!(sprt["model"], "game sets against the field, logistic Elo, GSPRT approximation");
    let sets = sprt["decision"]["pairs"].as_u64().unwrap();
    assert!(sets < 200, "stopped early: {sets} sets");
    // The decision falls on the last game of a set, and one job starts no
    // game before the last one is counted, however slow the counting.
    assert_eq!(r["games_played"], 3 * sets, "one job stops on the last game of the deciding set");
    assert_eq!(games.len() as u64, 3 * sets);
    assert!(stdout.contains(&format!("H1 accepted after {sets} game sets of 3")), "{stdout}");
    assert!(stdout.contains(&format!("floodfill against the field: {sets} game sets of 3")), "{stdout}");
    assert!(sprt["field"]["score"].as_f64().unwrap() > 0.75, "{r}");
    // The LLR again from the results file: the first bot's half points
    // against each other rider (2 ahead, 1 tied), summed over each set.
    let test: Sprt = "0,20,0.05,0.1".parse().unwrap();
    let mut field = FieldSets::default();
    for set in games.chunks(3) {
        let points: usize = set
            .iter()
            .map(|line| {
                let g: Value = serde_json::from_str(line).unwrap();
                let seats: Vec<u64> = g["seats"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect();
                let places: Vec<u64> =
                    g["placements"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
                let me = seats.iter().position(|&b| b == 0).unwrap();
                (0..3).filter(|&s| s != me).map(|s| (1 + places[s].cmp(&places[me]) as i64) as usize).sum::<usize>()
            })
            .sum();
        field.add(3, points);
    }
    assert_eq!(field.sets(), sets);
    assert_eq!(test.llr_of_sets(&field), sprt["decision"]["llr"].as_f64().unwrap());
    // Two jobs decide at the same set with the same LLR, on the same games.
    let (two_games, two, _) = go("2");
    assert_eq!(two["sprt"]["decision"], sprt["decision"]);
    assert_eq!(two_games[..games.len()], games[..]);
}

#[test]
fn two_copies_of_a_bot_do_not_accept_h1_in_a_thousand_games() {
    // 1000 games straight through, then the SPRT's LLR after every pair:
    // it never reaches the upper bound.
    let dir = tempfile::tempdir().unwrap();
    let file = path(dir.path(), "copies.jsonl");
    let mut args = vec!["tournament", "builtin:random", "builtin:random", "-g", "1000", "--results", &file];
    args.extend(BOARD);
    ok(&args);
    let (_, games) = results(&file);
    assert_eq!(games.len(), 1000);
    let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
    let mut pairs = Pentanomial::default();
    let mut first = 0;
    for (k, line) in games.iter().enumerate() {
        let g: Value = serde_json::from_str(line).unwrap();
        // Points of bot 0 (`random`) in half points.
        let seat_of_0 = if g["seats"][0] == 0 { 0 } else { 1 };
        let half = match g["winner"].as_u64() {
            None => 1,
            Some(w) if w == seat_of_0 => 2,
            Some(_) => 0,
        };
        if k % 2 == 0 {
            first = half;
        } else {
            pairs.counts[first + half] += 1;
            let llr = sprt.llr(&pairs);
            assert!(llr < sprt.upper_bound(), "H1 accepted after {} pairs: {:?}", pairs.pairs(), pairs.counts);
        }
    }
    assert_eq!(pairs.pairs(), 500);
    // And the tournament's own SPRT, capped at 1000 games, does not accept H1.
    let report = path(dir.path(), "sprt.json");
    let mut args = vec!["tournament", "builtin:random", "builtin:random", "-g", "1000", "--sprt", "0,10,0.05,0.05"];
    args.extend(BOARD);
    args.extend(["--report", &report]);
    ok(&args);
    assert_ne!(read_json(&report)["sprt"]["decision"]["accepted"], "h1");
}

#[test]
fn every_game_with_a_fault_prints_the_command_that_plays_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let games = path(dir.path(), "games");
    let file = path(dir.path(), "r.jsonl");
    let mut args = vec!["tournament", "f=builtin:fuzz", "builtin:random", "-g", "6", "-s", "3", "-o", &games];
    args.extend(["--results", &file, "--max-ticks", "500", "--time-ms", "40"]);
    args.extend(BOARD);
    let out = ok(&args);
    let stderr = text(&out.stderr);
    let commands: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("  replay: ")).collect();
    let (_, lines) = results(&file);
    let faulty: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|g| g["faults"].as_array().unwrap().iter().any(|f| f["invalid"].as_u64().unwrap() > 0))
        .collect();
    assert!(!faulty.is_empty(), "fuzz makes faults");
    assert_eq!(commands.len(), faulty.len(), "{stderr}");
    for g in &faulty {
        let command = g["command"].as_str().expect("a faulty game's line holds its command");
        assert!(commands.contains(&command));
        let seed = g["seed"].as_u64().unwrap();
        let bots = if g["seats"][0] == 0 {
            "f=builtin:fuzz random=builtin:random"
        } else {
            "random=builtin:random f=builtin:fuzz"
        };
        assert_eq!(
            command,
            format!("lightcycles play {bots} -r 1 -s {seed} --width 24 --height 20 --max-ticks 500 --time-ms 40")
        );
        // Run it: it plays the same game, byte for byte.
        let again = dir.path().join(format!("again_{}", g["game"]));
        let words: Vec<&str> = command.split(' ').skip(1).collect();
        let mut replay_args = words.clone();
        replay_args.extend(["-o", again.to_str().unwrap()]);
        ok(&replay_args);
        let original = std::fs::read(g["replay"].as_str().unwrap()).unwrap();
        assert_eq!(std::fs::read(again.join("sim_0.json")).unwrap(), original, "game {}", g["game"]);
    }
}

#[test]
fn one_job_and_two_jobs_give_the_same_games_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let go = |jobs: &str| {
        let file = path(dir.path(), &format!("j{jobs}.jsonl"));
        let report = path(dir.path(), &format!("j{jobs}.json"));
        let mut args =
            vec!["tournament", "builtin:random", "builtin:wallhug", "builtin:straight", "-g", "8", "-j", jobs];
        args.extend(["--results", &file, "--report", &report]);
        args.extend(BOARD);
        let out = ok(&args);
        (results(&file), read_json(&report), text(&out.stdout))
    };
    let one = go("1");
    assert_eq!(one.0 .1.len(), 24, "3 pairings of 8 games");
    assert_eq!(one, go("2"));
    assert!(one.2.contains("rating (mu ± sigma)"));
}

#[test]
fn pairings_seeds_and_seats_follow_the_documented_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(dir.path(), "g.jsonl");
    let mut args = vec!["tournament", "builtin:random", "builtin:wallhug", "builtin:straight", "--gauntlet"];
    args.extend(["-g", "4", "-s", "100", "-j", "1", "--results", &file]);
    args.extend(BOARD);
    ok(&args);
    let (header, games) = results(&file);
    let header: Value = serde_json::from_str(&header).unwrap();
    assert_eq!(header["format"], "lightcycles-tournament/1");
    assert_eq!(header["pairing"], "gauntlet");
    assert_eq!(header["config"]["width"], 24);
    let got: Vec<(u64, u64, Value)> = games
        .iter()
        .map(|l| {
            let g: Value = serde_json::from_str(l).unwrap();
            (g["round"].as_u64().unwrap(), g["seed"].as_u64().unwrap(), g["seats"].clone())
        })
        .collect();
    let seats = |a: u64, b: u64| serde_json::json!([a, b]);
    assert_eq!(
        got,
        [
            (0, 100, seats(0, 1)),
            (0, 100, seats(1, 0)),
            (0, 100, seats(0, 2)),
            (0, 100, seats(2, 0)),
            (1, 101, seats(0, 1)),
            (1, 101, seats(1, 0)),
            (1, 101, seats(0, 2)),
            (1, 101, seats(2, 0)),
        ]
    );
}

fn usage_error(args: &[&str], expected: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains(expected), "{args:?}: {}", text(&out.stderr));
}

#[test]
fn bad_tournament_arguments_exit_2_saying_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(dir.path(), "r.jsonl");
    let two = ["tournament", "builtin:random", "builtin:straight"];
    fn with<'a>(two: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        two.iter().chain(extra).copied().collect()
    }
    usage_error(&with(&two, &["-g", "7"]), "-g 7: the games per pairing must be a positive even number");
    usage_error(&with(&two, &["--sprt", "0,5,0.05"]), "--sprt \"0,5,0.05\": 3 numbers given, 4 needed");
    usage_error(&with(&two, &["--sprt", "-5,5,0.05,2"]), "BETA 2 is not between 0 and 1");
    usage_error(
        &["tournament", "builtin:random", "builtin:straight", "builtin:wallhug", "--sprt", "0,5,0.05,0.05"],
        "--sprt compares two bots, but 3 were given",
    );
    usage_error(
        &["tournament", "builtin:random", "builtin:straight", "--ffa", "3", "--sprt", "0,5,0.05,0.05"],
        "--sprt with --ffa 3 tests the first bot against the other 2 (the field, in every seat in turn), so it \
         takes 3 bots, but 2 were given",
    );
    usage_error(&with(&two, &["--resume"]), "--results");
    usage_error(&with(&two, &["--resume", "--results", &file]), "no such file to resume");
    usage_error(&with(&two, &["--width", "7"]), "--width 7 is out of range");
    usage_error(&["tournament", "builtin:random"], "BOT");
    ok(&with(&two, &["-g", "2", "--results", &file, "--width", "16", "--height", "16"]));
    usage_error(&with(&two, &["-g", "2", "--results", &file]), "already holds results; add --resume");
    usage_error(
        &with(&two, &["-g", "2", "--results", &file, "--resume", "-s", "9"]),
        "config is {\"width\":16,\"height\":16,\"players\":2,",
    );
    usage_error(&with(&two, &["-g", "2", "--results", &file, "--resume", "-s", "9"]), "seed is 0 in the file, 9 here");
    // A larger -g continues the same tournament.
    let out = ok(&with(&two, &["-g", "4", "--results", &file, "--resume", "--width", "16", "--height", "16"]));
    assert!(text(&out.stderr).contains("resuming: 2 of 4 games are done"), "{}", text(&out.stderr));
    assert_eq!(line_count(&file), 5);
    // Wasm bots budgeted otherwise would play other games: the fuel is part of the tournament.
    let fueled = path(dir.path(), "fuel.jsonl");
    ok(&with(&two, &["-g", "2", "--results", &fueled, "--width", "16", "--height", "16", "--fuel-per-tick", "5000"]));
    usage_error(
        &with(&two, &["-g", "4", "--results", &fueled, "--resume", "--width", "16", "--height", "16"]),
        "fuel_per_tick is 5000 in the file, null here",
    );
    ok(&with(
        &two,
        &["-g", "4", "--results", &fueled, "--resume", "--width", "16", "--height", "16", "--fuel-per-tick", "5000"],
    ));
}

#[test]
fn a_hostile_spec_in_a_replay_command_cannot_steer_the_terminal() {
    // A bot that crashes at once, with escape, OSC and BEL bytes in its spec.
    let spec = "x=cmd:exit 1 # \x1b]0;pwned\x07 \x1b[2J \u{9b}31m";
    let mut args = vec!["tournament", spec, "builtin:random", "-g", "2", "--max-ticks", "20", "--allow-broken"];
    args.extend(BOARD);
    let out = ok(&args);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("  replay: "), "{stderr}");
    assert!(!stderr.chars().any(|c| c.is_control() && c != '\n'), "a control character reached stderr: {stderr:?}");
    assert!(stderr.contains("\\u{1b}]0;pwned\\u{7}"), "{stderr}");
}

#[test]
fn an_interrupted_tournament_says_what_was_played_and_the_command_that_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(dir.path(), "r.jsonl");
    let slow = "slow=cmd:while read l; do sleep 0.02; echo N; done";
    let args = ["tournament", "builtin:floodfill", slow, "-g", "40", "-j", "1", "--width", "16", "--height", "16"];
    let child = lightcycles()
        .args(args)
        .args(["--results", &file])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&file).map_or(0, |t| t.lines().count()) < 2 {
        assert!(std::time::Instant::now() < until, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: ") && err.contains(" of 40 games were played and are in "), "{err}");
    let resume = err.lines().skip_while(|l| !l.ends_with("resume with:")).nth(1).expect("a command line").trim();
    assert!(resume.ends_with(&format!("--results {file} --resume")), "{resume}");
    assert!(resume.contains("'slow=cmd:while read l; do sleep 0.02; echo N; done'"), "quoted for a shell: {resume}");
}

#[test]
fn without_a_terminal_a_tournament_logs_by_time_and_at_the_end() {
    let out = ok(&["tournament", "builtin:random", "builtin:straight", "-g", "4", "-j", "2", "--log-every", "1"]);
    let err = text(&out.stderr);
    assert!(!err.contains("no games yet"), "{err}");
    let last = err.lines().rfind(|l| l.starts_with("games ")).expect("a last line");
    assert!(last.starts_with("games 4/4, ") && last.contains(" elapsed: "), "{err}");
    assert!(last.contains("games/s"), "{last}");
}
