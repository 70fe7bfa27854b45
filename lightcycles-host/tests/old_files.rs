//! Files written by the host before replays gained `said` and `time_banks`
//! and results lines `metrics` (`tests/golden/old-run/`, written by that
//! version: a tournament of the example CodeClash bot against
//! `builtin:wallhug`, and one game of `play --time-margin-ms 5 -o`): they
//! still verify, feed and resume, and a run today writes the same lines.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::output_within;
use tempfile::TempDir;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn old(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/old-run").join(name)
}

/// `lightcycles ARGS`, run from the repository root (the results header
/// names the bot by its path from there).
fn run(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lightcycles"));
    command.current_dir(root()).args(args);
    output_within(command, 120)
}

const TOURNAMENT: [&str; 7] =
    ["tournament", "examples/python-bot/main.py", "builtin:wallhug", "--width", "20", "--height", "16"];

fn tournament(extra: &[&str]) -> Output {
    run(&[&TOURNAMENT[..], extra].concat())
}

fn sorted_games(text: &str) -> Vec<String> {
    let mut games: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
    games.sort();
    games
}

#[test]
fn an_old_results_file_resumes_unchanged_and_today_plays_the_same_lines() {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("results.jsonl");
    let before = std::fs::read_to_string(old("results.jsonl")).unwrap();
    std::fs::write(&file, &before).unwrap();
    let results = file.to_str().unwrap();

    let same = tournament(&["-g", "4", "--results", results, "--resume"]);
    assert!(same.status.success(), "{}", String::from_utf8_lossy(&same.stderr));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "nothing to play: the file is untouched");

    let more = tournament(&["-g", "6", "--results", results, "--resume"]);
    assert!(more.status.success(), "{}", String::from_utf8_lossy(&more.stderr));
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.starts_with(&before), "the old lines stay as they were");
    assert_eq!(after.lines().count(), before.lines().count() + 2, "two more games");
    assert!(!after.contains("metrics") && !after.contains("bank"), "no new keys for these bots: {after}");

    let fresh = dir.path().join("fresh.jsonl");
    let today = tournament(&["-g", "4", "--results", fresh.to_str().unwrap()]);
    assert!(today.status.success(), "{}", String::from_utf8_lossy(&today.stderr));
    let fresh = std::fs::read_to_string(&fresh).unwrap();
    assert_eq!(fresh.lines().next(), before.lines().next(), "the same header");
    assert_eq!(sorted_games(&fresh), sorted_games(&before), "the same games, line for line");
}

#[test]
fn an_old_replay_verifies_shows_and_feeds_its_bot_unchanged() {
    let replay = old("sim_0.json");
    let replay = replay.to_str().unwrap();
    let verified = run(&["replay", "verify", replay]);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stderr));
    let shown = run(&["replay", "show", replay]);
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    let fed = run(&["replay", "feed", replay, "--seat", "0", "examples/python-bot/main.py"]);
    assert!(fed.status.success(), "{}{}", String::from_utf8_lossy(&fed.stdout), String::from_utf8_lossy(&fed.stderr));

    // Played again today, the game's replay is the old file byte for byte.
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("games");
    let args = ["play", "examples/python-bot/main.py", "builtin:wallhug", "-r", "1", "--width", "20", "--height", "16"];
    let played = run(&[&args[..], &["--time-margin-ms", "5", "-o", out.to_str().unwrap()]].concat());
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    assert_eq!(std::fs::read(out.join("sim_0.json")).unwrap(), std::fs::read(old("sim_0.json")).unwrap());
}
