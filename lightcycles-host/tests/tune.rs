//! `lightcycles tune` as a user runs it: the state file after every
//! iteration, resume (after a kill too), the same state whatever `-j`, and
//! a parameter that reaches a CodeClash bot through its environment.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

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

fn read_json(file: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

/// A tune of node-limited builtin:search (deterministic) on a small board.
fn search_tune(state: &Path, iterations: &str, jobs: &str) -> Vec<String> {
    [
        "tune",
        "builtin:search:nodes=150",
        "--param",
        "cell=16,4,64,6,0.05",
        "--param",
        "separated_bonus=480,0,2000,100,0.002",
        "--games-per-iter",
        "4",
        "--against",
        "builtin:floodfill",
        "--width",
        "14",
        "--height",
        "10",
        "-s",
        "3",
        "--iterations",
        iterations,
        "-j",
        jobs,
        "--state",
        state.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_tune_writes_its_state_and_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("tune.json");
    let first = ok(&args(&search_tune(&state, "2", "2")));
    let s = read_json(&state);
    assert_eq!(s["format"], "lightcycles-tune/1");
    assert_eq!(s["iteration"], 2);
    assert_eq!(s["history"].as_array().unwrap().len(), 2);
    assert_eq!(s["config"]["bot"], "builtin:search:nodes=150");
    assert_eq!(s["config"]["against"], "builtin:floodfill");
    let it0 = &s["history"][0];
    assert_eq!(it0["games"], 4, "each point played 4 games against the opponent");
    for key in ["delta", "plus", "minus", "theta"] {
        assert_eq!(it0[key].as_array().unwrap().len(), 2, "{key}");
    }
    // Each iteration's line on stderr; the values, then the bot as a spec, on stdout.
    let err = text(&first.stderr);
    assert!(err.contains("iteration 1/2: plus ") && err.contains("iteration 2/2: plus "), "{err}");
    let out = text(&first.stdout);
    let cell = s["theta"][0].as_f64().unwrap().round() as i64;
    let bonus = s["theta"][1].as_f64().unwrap().round() as i64;
    assert_eq!(
        out,
        format!("cell={cell} separated_bonus={bonus}\nbuiltin:search:nodes=150:cell={cell}:separated_bonus={bonus}\n")
    );

    // The same command with more iterations goes on from iteration 2.
    let more = ok(&args(&search_tune(&state, "3", "2")));
    assert!(text(&more.stderr).contains("resuming") && text(&more.stderr).contains("2 of 3 iterations are done"));
    assert!(text(&more.stderr).contains("iteration 3/3") && !text(&more.stderr).contains("iteration 1/3"));
    let resumed = read_json(&state);
    assert_eq!(resumed["iteration"], 3);
    assert_eq!(resumed["history"].as_array().unwrap().len(), 3);
    assert_eq!(resumed["history"][0], s["history"][0]);
    assert_eq!(resumed["history"][1], s["history"][1]);
    assert_eq!(resumed["history"][2]["plus"].as_array().unwrap().len(), 2);
    // Done: a rerun plays nothing and prints the same values.
    let again = ok(&args(&search_tune(&state, "3", "2")));
    assert_eq!(read_json(&state), resumed);
    assert!(!text(&again.stderr).contains("iteration "), "{}", text(&again.stderr));

    // --show prints the values and their history.
    let show = text(&ok(&["tune", "--state", state.to_str().unwrap(), "--show"]).stdout);
    assert!(show.starts_with("tune of builtin:search:nodes=150 (3 of 3 iterations done)"), "{show}");
    assert!(show.contains("against builtin:floodfill") && show.contains("separated_bonus"), "{show}");
    assert_eq!(show.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count(), 3);
    assert!(show.contains("as a bot: builtin:search:nodes=150:cell="), "{show}");

    // Other flags are refused, naming the difference.
    let mut other = search_tune(&state, "3", "2");
    assert_eq!(other[14], "-s");
    other[15] = "4".into();
    let refused = run(&args(&other));
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(
        err.contains("--seed of this command differ") && err.contains("made with 3, this command gives 4"),
        "{err}"
    );
    assert_eq!(read_json(&state), resumed, "a refused resume leaves the file alone");
}

#[test]
fn the_state_is_the_same_at_one_job_and_at_two() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one.json"), dir.path().join("two.json"));
    ok(&args(&search_tune(&one, "2", "1")));
    ok(&args(&search_tune(&two, "2", "2")));
    assert_eq!(std::fs::read_to_string(&one).unwrap(), std::fs::read_to_string(&two).unwrap());
}

#[test]
fn a_tune_killed_mid_run_loses_at_most_the_iteration_it_was_playing() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("tune.json");
    let mut child = lightcycles()
        .args(args(&search_tune(&state, "200", "2")))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let done = loop {
        let done = std::fs::read_to_string(&state)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["iteration"].as_u64())
            .unwrap_or(0);
        if done >= 1 {
            break done;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no iteration in a minute");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    // The file is whole (written by rename) and holds at least what was seen.
    let killed = read_json(&state);
    let kept = killed["iteration"].as_u64().unwrap();
    assert!(kept >= done && killed["history"].as_array().unwrap().len() as u64 == kept);
    // The resume plays the next iteration only, after what was kept.
    let target = (kept + 1).to_string();
    ok(&args(&search_tune(&state, &target, "2")));
    let resumed = read_json(&state);
    assert_eq!(resumed["iteration"].as_u64().unwrap(), kept + 1);
    for k in 0..kept as usize {
        assert_eq!(resumed["history"][k], killed["history"][k]);
    }
}

/// Checks a tune of tests/bots/tuned/main.py (state `s`): in every
/// iteration whose points lie on both sides of X = 0.5, the point at 0.5 or
/// above scored every game. Returns how many iterations did.
fn decided_by_x(s: &Value) -> usize {
    let mut decided = 0;
    for it in s["history"].as_array().unwrap() {
        let (plus, minus) = (it["plus"][0].as_f64().unwrap(), it["minus"][0].as_f64().unwrap());
        let (sp, sm) = (it["score_plus"].as_f64().unwrap(), it["score_minus"].as_f64().unwrap());
        if plus >= 0.5 && minus < 0.5 {
            assert_eq!((sp, sm), (1.0, 0.0), "{it}");
            decided += 1;
        } else if minus >= 0.5 && plus < 0.5 {
            assert_eq!((sp, sm), (0.0, 1.0), "{it}");
            decided += 1;
        }
    }
    decided
}

#[test]
fn a_codeclash_bot_gets_its_parameter_in_its_environment() {
    // The bot plays well when LIGHTCYCLES_PARAM_X >= 0.5 and rides into a
    // wall below: from 0.5, the point above wins every game against the
    // point below, so X can only rise.
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("py.json");
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/tuned/main.py");
    let out = ok(&[
        "tune",
        bot,
        "--param",
        "X=0.5,0.0,1.0,0.2,0.01",
        "--games-per-iter",
        "2",
        "--iterations",
        "2",
        "--width",
        "12",
        "--height",
        "10",
        "-j",
        "2",
        "--state",
        state.to_str().unwrap(),
    ]);
    let s = read_json(&state);
    // The point at 0.5 or above wins both games.
    decided_by_x(&s);
    let x = s["theta"][0].as_f64().unwrap();
    assert!(x > 0.5, "X rose from 0.5: {x}");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with(&format!("X={x}\nLIGHTCYCLES_PARAM_X={x} ")), "{stdout}");
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("s.json");
    let s = state.to_str().unwrap();
    for (args, says) in [
        (
            vec!["tune", "builtin:search", "--param", "cell=16,4", "--state", s],
            "--param \"cell=16,4\": 2 numbers, not 5",
        ),
        (
            vec!["tune", "builtin:random", "--param", "x=1,0,2,1,1", "--state", s],
            "bot \"builtin:random:x=1\": no built-in bot is called \"random:x=1\"",
        ),
        (
            vec!["tune", "builtin:search", "--param", "cell=16,4,64,4,1", "--games-per-iter", "3", "--state", s],
            "is odd",
        ),
        (
            vec![
                "tune",
                "builtin:search",
                "--param",
                "cell=16,4,64,4,1",
                "--ffa",
                "3",
                "--games-per-iter",
                "8",
                "--state",
                s,
            ],
            "--games-per-iter 8 is not a multiple of --ffa 3",
        ),
        (vec!["tune", "builtin:search", "--param", "cell=16,4,64,4,1", "--ffa", "9", "--state", s], "--ffa"),
        (vec!["tune", "--state", s, "--show"], "no such file"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!state.exists(), "nothing was written");
    std::fs::write(&state, "not json").unwrap();
    let err = text(&run(&["tune", "--state", s, "--show"]).stderr);
    assert!(err.contains("not a tune state file"), "{err}");
}

#[test]
fn a_tune_on_a_map_pool_records_it_and_resumes_only_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("pool.json");
    let s = state.to_str().unwrap();
    let pool_tune = |iterations: &'static str, maps: &[&'static str]| {
        let mut v = vec![
            "tune",
            "builtin:search:nodes=100",
            "--param",
            "cell=16,4,64,6,0.05",
            "--games-per-iter",
            "2",
            "--against",
            "builtin:floodfill",
            "--iterations",
            iterations,
            "-j",
            "2",
            "--state",
            s,
            "--maps",
        ];
        v.extend_from_slice(maps);
        v
    };
    ok(&pool_tune("2", &["builtin:open", "builtin:ring"]));
    let saved = read_json(&state);
    assert_eq!(saved["iteration"], 2);
    assert_eq!(saved["config"]["maps"], serde_json::json!(["builtin:open", "builtin:ring"]));
    assert_eq!(saved["config"]["board"].as_array().unwrap().iter().filter(|f| *f == "--width").count(), 0);
    let show = text(&ok(&["tune", "--state", s, "--show"]).stdout);
    assert!(show.contains("on the map pool builtin:open builtin:ring"), "{show}");

    // Another pool is another tune.
    let refused = run(&pool_tune("3", &["builtin:open"]));
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(err.contains("--maps of this command differ") && err.contains("builtin:open builtin:ring"), "{err}");
    ok(&pool_tune("3", &["builtin:open", "builtin:ring"]));
    assert_eq!(read_json(&state)["iteration"], 3);

    // The pool gives the boards: no size beside it.
    let mut sized = pool_tune("3", &["builtin:open"]);
    sized.extend(["--width", "20"]);
    let out = run(&sized);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--width"), "{}", text(&out.stderr));
}

/// The promise as users run it: a CodeClash bot (a Python process per game),
/// a map pool, and `-j` from one to more jobs than cores; every state file
/// the same, byte for byte.
#[test]
fn a_python_bot_on_a_map_pool_tunes_to_the_same_state_at_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/tuned/main.py");
    let tune = |jobs: &str| {
        let state = dir.path().join(format!("j{jobs}.json"));
        ok(&[
            "tune",
            bot,
            "--param",
            "X=0.5,0.0,1.0,0.2,0.01",
            "--games-per-iter",
            "4",
            "--iterations",
            "3",
            "--against",
            "builtin:random",
            "-s",
            "5",
            "-j",
            jobs,
            "--state",
            state.to_str().unwrap(),
            "--maps",
            "builtin:open",
            "builtin:ring",
            "builtin:rooms",
        ]);
        std::fs::read_to_string(&state).unwrap()
    };
    let one = tune("1");
    let s: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(s["iteration"], 3);
    // The games tell the seeds and maps apart (the seeded random rider
    // scores differently on each), so a game played with another seed or
    // map at another -j would show.
    let scores: Vec<f64> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|it| [it["score_plus"].as_f64().unwrap(), it["score_minus"].as_f64().unwrap()])
        .collect();
    assert!(scores.iter().any(|&x| x != scores[0]), "{scores:?}");
    for jobs in ["auto", "4"] {
        assert_eq!(tune(jobs), one, "-j {jobs} against -j 1");
    }
}

/// A free-for-all tune of node-limited builtin:search against two copies
/// of floodfill.
fn ffa_tune(state: &Path, iterations: &str, jobs: &str) -> Vec<String> {
    let mut v = search_tune(state, iterations, jobs);
    let at = v.iter().position(|a| a == "--games-per-iter").unwrap();
    v[at + 1] = "8".into();
    let at = v.iter().position(|a| a == "--width").unwrap();
    v[at + 1] = "16".into();
    v[at + 3] = "16".into();
    v.extend(["--ffa", "4"].map(String::from));
    v
}

#[test]
fn a_free_for_all_tune_scores_the_points_by_their_games_against_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("ffa.json");
    ok(&args(&ffa_tune(&state, "2", "2")));
    let s = read_json(&state);
    assert_eq!(s["config"]["ffa"], 4);
    assert_eq!(s["iteration"], 2);
    // Iteration 1 again, as a tournament of its own: the plus and the minus
    // point, two copies of the opponent, every seed in the four rotations.
    let it = &s["history"][1];
    assert_eq!(it["games"], 8, "both points rode in all 8 games");
    let (plus, minus) = (it["score_plus"].as_f64().unwrap(), it["score_minus"].as_f64().unwrap());
    assert!((plus + minus - 1.0).abs() < 1e-12, "{plus} + {minus}");
    let value = |point: &str, i: usize| it[point][i].as_f64().unwrap().round() as i64;
    let bot = |point: &str| {
        format!("{point}=builtin:search:nodes=150:cell={}:separated_bonus={}", value(point, 0), value(point, 1))
    };
    let report = dir.path().join("report.json");
    // Iteration 1 plays seeds from 3 + 1·8/4.
    ok(&[
        "tournament",
        &bot("plus"),
        &bot("minus"),
        "field1=builtin:floodfill",
        "field2=builtin:floodfill",
        "--ffa",
        "4",
        "-g",
        "8",
        "--seed",
        "5",
        "--width",
        "16",
        "--height",
        "16",
        "-j",
        "2",
        "--report",
        report.to_str().unwrap(),
    ]);
    let r = read_json(&report);
    let h2h = &r["crosstable"][0][1];
    let n = |k: &str| h2h[k].as_f64().unwrap();
    assert_eq!(n("wins") + n("draws") + n("losses"), 8.0, "{h2h}");
    assert_eq!(
        plus,
        (n("wins") + n("draws") / 2.0) / 8.0,
        "the plus point's score is its games ahead of the minus point"
    );
    // The same state at one job; --show says what the games were; a resume
    // without --ffa is refused.
    let one = dir.path().join("one.json");
    ok(&args(&ffa_tune(&one, "2", "1")));
    assert_eq!(read_json(&one)["history"], s["history"]);
    let shown = text(&ok(&["tune", "--show", "--state", state.to_str().unwrap()]).stdout);
    assert!(
        shown.contains("8 free-for-alls of 4 seats per iteration, beside 2 copies of builtin:floodfill"),
        "{shown}"
    );
    let mut two_player = ffa_tune(&state, "3", "2");
    two_player.truncate(two_player.len() - 2);
    let out = run(&args(&two_player));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("it was made with --ffa 4, this command gives two-player games"), "{err}");
}

#[test]
fn a_codeclash_bot_tunes_in_a_free_for_all_beside_itself() {
    // As above, with a third seat held by the bot at the current values
    // (its own environment): the point at 0.5 or above places ahead of the
    // point below in every game.
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("py-ffa.json");
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/tuned/main.py");
    let tune = |state: &Path, jobs: &str| {
        ok(&[
            "tune",
            bot,
            "--param",
            "X=0.5,0.0,1.0,0.2,0.01",
            "--ffa",
            "3",
            "--games-per-iter",
            "3",
            "--iterations",
            "2",
            "--width",
            "16",
            "--height",
            "16",
            "-j",
            jobs,
            "--state",
            state.to_str().unwrap(),
        ])
    };
    tune(&state, "2");
    let s = read_json(&state);
    for it in s["history"].as_array().unwrap() {
        assert_eq!(it["games"], 3, "{it}");
    }
    assert!(decided_by_x(&s) > 0, "the points straddled 0.5 at least once: {}", s["history"]);
    assert!(s["theta"][0].as_f64().unwrap() > 0.5, "X rose from 0.5: {}", s["theta"]);
    // The same state at one job.
    let one = dir.path().join("one.json");
    tune(&one, "1");
    assert_eq!(read_json(&one)["history"], s["history"]);
}
