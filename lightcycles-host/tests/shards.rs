//! A tournament split into shards (`--shard I/N`) and merged back
//! (`tournament merge`): the same games as one machine plays, byte for byte,
//! and every inconsistency refused with the inputs untouched.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lightcycles")).args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", text(&out.stderr));
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// Three bots, one of them answering garbage now and then (its games carry
/// the command that plays them again), on a small board.
const BOTS: [&str; 3] = ["builtin:floodfill", "builtin:random", "f=builtin:fuzz"];
const BOARD: [&str; 6] = ["--width", "20", "--height", "16", "--max-ticks", "300"];

/// `tournament` of [`BOTS`] with `extra` flags, results to `results`.
fn tournament(results: &str, extra: &[&str]) -> Output {
    let mut args = vec!["tournament"];
    args.extend(BOTS);
    args.extend(BOARD);
    args.extend(["-g", "4", "-s", "7", "--results", results]);
    args.extend(extra);
    ok(&args)
}

fn merge(dir: &Path, shards: &[&str], output: &str) -> Output {
    let mut args = vec!["tournament".to_string(), "merge".to_string()];
    args.extend(shards.iter().map(|s| path(dir, s)));
    args.extend(["-o".to_string(), path(dir, output)]);
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn shards_merged_are_the_unsharded_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One job writes the games in index order, as the merge does.
    let whole = tournament(&path(d, "all.jsonl"), &["-j", "1", "--report", &path(d, "all.json")]);
    for i in 0..3 {
        tournament(&path(d, &format!("s{i}.jsonl")), &["--shard", &format!("{i}/3"), "-j", "2"]);
    }
    let header: Value =
        serde_json::from_str(std::fs::read_to_string(path(d, "s1.jsonl")).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["shard"], serde_json::json!({"index": 1, "count": 3, "games_per_pairing": 4}));
    // Any order of the shards, and a retried shard given twice.
    let mut args = vec!["tournament".to_string(), "merge".to_string()];
    args.extend(["s2.jsonl", "s0.jsonl", "s1.jsonl", "s0.jsonl"].map(|s| path(d, s)));
    args.extend(["-o", &path(d, "merged.jsonl"), "--report", &path(d, "merged.json")].map(String::from));
    let merged = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(text(&merged.stderr).contains("shard 0/3 is given twice"), "{}", text(&merged.stderr));

    let all = std::fs::read_to_string(path(d, "all.jsonl")).unwrap();
    assert_eq!(all.lines().count(), 1 + 12, "3 pairings of 4 games");
    assert!(all.contains("\"command\":"), "the fuzz bot's faults name a command:\n{all}");
    assert_eq!(std::fs::read_to_string(path(d, "merged.jsonl")).unwrap(), all);
    assert_eq!(std::fs::read(path(d, "merged.json")).unwrap(), std::fs::read(path(d, "all.json")).unwrap());
    assert_eq!(text(&merged.stdout), text(&whole.stdout));
}

#[test]
fn a_shard_plays_every_nth_game_and_reports_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tournament(&path(d, "s.jsonl"), &["--shard", "1/5"]);
    let games: Vec<u64> = std::fs::read_to_string(path(d, "s.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["game"].as_u64().unwrap())
        .collect();
    let mut sorted = games.clone();
    sorted.sort();
    assert_eq!(sorted, [1, 6, 11]);
    // More shards than games: the last ones play nothing, and say so.
    let out = tournament(&path(d, "empty.jsonl"), &["--shard", "13/14", "--report", &path(d, "r.json")]);
    assert!(text(&out.stdout).contains("shard 13/14, 0 of 0 games played"), "{}", text(&out.stdout));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(path(d, "r.json")).unwrap()).unwrap();
    assert_eq!((report["shard"].as_str(), report["games_scheduled"].as_u64()), (Some("13/14"), Some(0)));
}

#[test]
fn a_shard_resumes_on_its_own_and_only_as_itself() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let full = path(d, "full.jsonl");
    tournament(&full, &["--shard", "0/2", "-j", "1"]);
    let full_text = std::fs::read_to_string(&full).unwrap();
    // As if killed after two games, halfway through writing the third.
    let cut: String = full_text.lines().take(3).map(|l| format!("{l}\n")).collect::<String>() + "{\"game\":4,\"ro";
    let part = path(d, "part.jsonl");
    std::fs::write(&part, cut).unwrap();
    let out = tournament(&part, &["--shard", "0/2", "-j", "1", "--resume"]);
    assert!(text(&out.stderr).contains("resuming: 2 of 6 games are done"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&part).unwrap(), full_text);

    // Another shard's arguments, or none, do not continue the file.
    for shard in [&["--shard", "1/2"][..], &[]] {
        let mut args = vec!["tournament"];
        args.extend(BOTS);
        args.extend(BOARD);
        args.extend(["-g", "4", "-s", "7", "--results", &part, "--resume"]);
        args.extend(shard);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains("another tournament's") && err.contains("shard is"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&part).unwrap(), full_text, "refused, untouched");
}

/// The shards of the test tournament, with their text.
fn shards(d: &Path) -> Vec<String> {
    (0..2)
        .map(|i| {
            let name = format!("s{i}.jsonl");
            tournament(&path(d, &name), &["--shard", &format!("{i}/2")]);
            std::fs::read_to_string(path(d, &name)).unwrap()
        })
        .collect()
}

/// Runs a merge that must be refused: exit 2 with `says` in the message,
/// the inputs as they were and no output file.
fn refused(d: &Path, inputs: &[&str], says: &str) {
    let before: Vec<Vec<u8>> = inputs.iter().map(|f| std::fs::read(path(d, f)).unwrap()).collect();
    let out = merge(d, inputs, "out.jsonl");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{inputs:?}: {err}");
    assert!(err.contains(says), "{inputs:?}: expected {says:?} in: {err}");
    assert!(!d.join("out.jsonl").exists(), "nothing is written");
    for (f, b) in inputs.iter().zip(before) {
        assert_eq!(std::fs::read(path(d, f)).unwrap(), b, "{f} is untouched");
    }
}

#[test]
fn inconsistent_shards_are_refused_and_nothing_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = shards(d);
    refused(d, &["s0.jsonl"], "6 of the tournament's 12 games are missing");
    refused(d, &["s0.jsonl"], "shard 1/2 has no file");

    // A shard stopped early.
    let short: String = s[1].lines().take(3).map(|l| format!("{l}\n")).collect::<String>() + "{\"gam";
    std::fs::write(path(d, "short.jsonl"), short).unwrap();
    refused(d, &["s0.jsonl", "short.jsonl"], "has 2 of its 6 games");
    refused(d, &["s0.jsonl", "short.jsonl"], "its last line cut off");

    // One game with another result.
    let line = s[1].lines().nth(1).unwrap();
    let mut v: Value = serde_json::from_str(line).unwrap();
    v["ticks"] = (v["ticks"].as_u64().unwrap() + 1).into();
    std::fs::write(path(d, "other.jsonl"), s[1].replace(line, &v.to_string())).unwrap();
    refused(d, &["s0.jsonl", "s1.jsonl", "other.jsonl"], "with different ticks");

    // A game in the wrong shard's file.
    let game0 = s[0].lines().find(|l| l.starts_with("{\"game\":0,")).unwrap();
    std::fs::write(path(d, "stray.jsonl"), format!("{}{game0}\n", s[1])).unwrap();
    refused(d, &["s0.jsonl", "stray.jsonl"], "game 0 is not one of shard 1/2's games");

    // Another tournament: other time limits, or another shard count.
    tournament(&path(d, "time.jsonl"), &["--shard", "1/2", "--time-ms", "60"]);
    refused(d, &["s0.jsonl", "time.jsonl"], "time_ms is 60 there, 50 in the first");
    tournament(&path(d, "three.jsonl"), &["--shard", "1/3"]);
    refused(d, &["s0.jsonl", "three.jsonl"], "shard is");

    // An unsharded run's file, a file that is not results, one not there.
    tournament(&path(d, "plain.jsonl"), &[]);
    refused(d, &["plain.jsonl"], "needs no merge");
    std::fs::write(path(d, "junk.jsonl"), "{\"format\":\"something-else\"}\n").unwrap();
    refused(d, &["s0.jsonl", "junk.jsonl"], "is not \"lightcycles-tournament/1\"");
    let out = merge(d, &["s0.jsonl", "nope.jsonl"], "out.jsonl");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nope.jsonl"), "{}", text(&out.stderr));

    // The output must be new.
    std::fs::write(path(d, "out.jsonl"), "keep me\n").unwrap();
    let out = merge(d, &["s0.jsonl", "s1.jsonl"], "out.jsonl");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already exists"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(path(d, "out.jsonl")).unwrap(), "keep me\n");
}

#[test]
fn bad_shard_flags_exit_2_saying_what_is_wrong() {
    for (flags, says) in [
        (&["--shard", "2/2"][..], "less than N"),
        (&["--shard", "x"], "not I/N"),
        (&["--shard", "0/2", "--sprt", "0,5,0.05,0.05"], "cannot be used with"),
    ] {
        let mut args = vec!["tournament", "builtin:random", "builtin:floodfill"];
        args.extend(flags);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(text(&out.stderr).contains(says), "{flags:?}: {}", text(&out.stderr));
    }
    let out = run(&["tournament", "merge"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The Slurm example (examples/slurm/) run as Slurm would run it: each
/// array task with its `SLURM_ARRAY_TASK_*`, then the merge job.
#[test]
fn the_slurm_example_plays_its_shards_and_merges_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/slurm");
    let sh = |script: &str, task: Option<u32>| {
        let mut c = Command::new("bash");
        c.arg(examples.join(script))
            .current_dir(d)
            .env("LIGHTCYCLES", env!("CARGO_BIN_EXE_lightcycles"))
            .env("GAMES", "4")
            .env("SEED", "7")
            .env("BOTS", BOTS.join(" "))
            .env("FLAGS", BOARD.join(" "));
        if let Some(i) = task {
            c.env("SLURM_ARRAY_TASK_ID", i.to_string()).env("SLURM_ARRAY_TASK_COUNT", "3");
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{script} {task:?}: {}", text(&out.stderr));
        out
    };
    for i in 0..3 {
        sh("tournament.sbatch", Some(i));
    }
    // A requeued task finds its file and goes on from it.
    let again = sh("tournament.sbatch", Some(1));
    assert!(text(&again.stderr).contains("resuming: 4 of 4 games are done"), "{}", text(&again.stderr));
    let merged = sh("merge.sbatch", None);
    tournament(&path(d, "all.jsonl"), &["-j", "1"]);
    assert_eq!(
        std::fs::read_to_string(d.join("results.jsonl")).unwrap(),
        std::fs::read_to_string(d.join("all.jsonl")).unwrap()
    );
    assert!(text(&merged.stdout).contains("12 of 12 games played"), "{}", text(&merged.stdout));
    assert!(d.join("report.json").is_file());
}
