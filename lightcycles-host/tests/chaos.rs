//! Chaos: bots that attack the host rather than play. A memory bomb, a fork
//! bomb, an endless loop, a bot that closes its stdout, one that ignores
//! SIGTERM, and C plugins (built here with gcc) that segfault, abort, spin
//! for ever or exhaust their memory, run under `--isolate`. A tournament of
//! them against `builtin:floodfill` must finish, record each fault with its
//! kind, give floodfill every game, and leave no process behind.
//!
//! Every chaos process carries a marker unique to this test process in its
//! command line (scripts get it as an argument; plugins live in a folder
//! named after it, which the plugin host's command line names), and the
//! process table is searched for it after each run.

mod common;

use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use lightcycles_core::replay::Replay;
use serde_json::Value;

use common::processes_with;

fn chaos_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chaos")
}

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A marker unique to this test process and `name`.
fn marker(name: &str) -> String {
    format!("lc-chaos-{}-{name}", std::process::id())
}

/// The chaos plugins, built once per test run into a folder named after
/// the marker `plugins`.
fn plugins() -> &'static (PathBuf, Vec<(&'static str, PathBuf)>) {
    static PLUGINS: OnceLock<(PathBuf, Vec<(&'static str, PathBuf)>)> = OnceLock::new();
    PLUGINS.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(marker("plugins"));
        std::fs::create_dir_all(&out).unwrap();
        let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../include");
        let build = |name: &'static str, flags: &[&str], source: PathBuf| {
            let output = out.join(format!("lib{name}.so"));
            let mut cmd = Command::new("gcc");
            cmd.args(["-std=c11", "-O1", "-fPIC", "-shared", "-Wall", "-Werror", "-I"]).arg(&include).args(flags);
            let done = cmd.arg(&source).arg("-o").arg(&output).output().expect("gcc runs");
            assert!(done.status.success(), "{cmd:?}: {}", text(&done.stderr));
            (name, output)
        };
        let source = chaos_dir().join("chaos_plugin.c");
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/c-plugin-bot/bot.c");
        let built = vec![
            build("segv", &["-DCHAOS_SEGV"], source.clone()),
            build("abort", &["-DCHAOS_ABORT"], source.clone()),
            build("spin", &["-DCHAOS_SPIN"], source.clone()),
            build("hog", &["-DCHAOS_HOG"], source),
            build("example", &[], examples),
        ];
        (out, built)
    })
}

fn plugin(name: &str) -> String {
    let (_, built) = plugins();
    built.iter().find(|(n, _)| *n == name).unwrap().1.to_str().unwrap().to_string()
}

/// `NAME=cmd:exec INTERPRETER tests/chaos/SCRIPT MARKER`: the script is the
/// bot process itself, no shell stands between.
fn script(name: &str, interpreter: &str, file: &str, marker: &str) -> String {
    format!("{name}=cmd:exec {interpreter} {} {marker}", chaos_dir().join(file).display())
}

/// Small boards and short limits keep the runs quick; the first answer gets
/// a second, as Python may start slowly on a loaded machine.
const QUICK: [&str; 8] = ["--width", "16", "--height", "16", "--time-first-ms", "1000", "--time-ms", "60"];

#[test]
fn a_tournament_of_chaos_bots_against_floodfill_finishes_and_floodfill_wins_every_game() {
    let m = marker("tournament");
    let plugin_marker = marker("plugins");
    let mut bots = vec!["builtin:floodfill".to_string()];
    // (name, the fault kinds its games may show)
    let mut expect: Vec<(&str, &[&str])> = Vec::new();
    for (name, interpreter, file, kinds) in [
        // On a loaded machine (the spinning bots of the other job take a
        // core) the bomb may not reach its limit before its short game ends:
        // its timeouts are allowed here, and its crash is checked alone by
        // `a_memory_bomb_dies_of_its_limit_on_the_first_tick`.
        ("memory_bomb", "python3", "memory_bomb.py", &["crash", "timeout"][..]),
        ("fork_bomb", "sh", "fork_bomb.sh", &["timeout"][..]),
        ("spin", "sh", "spin.sh", &["timeout"][..]),
        ("stdout_closed", "sh", "stdout_closed.sh", &["crash"][..]),
        ("ignores_term", "sh", "ignores_term.sh", &["invalid"][..]),
    ] {
        bots.push(script(name, interpreter, file, &m));
        expect.push((name, kinds));
    }
    for (name, kinds) in [
        ("segv", &["crash"][..]),
        ("abort", &["crash"][..]),
        ("spin_plugin", &["timeout"][..]),
        ("hog", &["crash"][..]),
    ] {
        let file = if name == "spin_plugin" { "spin" } else { name };
        bots.push(format!("{name}={}", plugin(file)));
        expect.push((name, kinds));
    }
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let out_dir = dir.path().join("games");
    let mut args: Vec<String> = vec!["tournament".into()];
    args.extend(bots.iter().cloned());
    // The chaos bots fail their probe before game 0 on purpose: they are
    // let in to show that they cost only themselves.
    args.extend(
        ["--gauntlet", "-g", "2", "-j", "2", "--bot-memory-mb", "128", "--log-every", "0", "--allow-broken"]
            .map(String::from),
    );
    args.extend(QUICK.map(String::from));
    args.extend(["--results".into(), results.to_str().unwrap().into(), "-o".into(), out_dir.to_str().unwrap().into()]);
    let out = lightcycles().args(&args).output().unwrap();
    assert!(out.status.success(), "the tournament failed: {}", text(&out.stderr));
    assert!(processes_with(&m).is_empty(), "chaos processes outlived the run: {:?}", processes_with(&m));
    assert!(
        processes_with(&plugin_marker).is_empty(),
        "plugin hosts outlived the run: {:?}",
        processes_with(&plugin_marker)
    );

    let text = std::fs::read_to_string(&results).unwrap();
    let games: Vec<Value> = text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.len(), 2 * expect.len(), "every game was played and recorded");
    for game in &games {
        let seats: Vec<usize> =
            game["seats"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap() as usize).collect();
        let flood_seat = seats.iter().position(|&b| b == 0).expect("floodfill rides every game");
        let chaos_seat = 1 - flood_seat;
        let (name, kinds) = expect[seats[chaos_seat] - 1];
        let faults = &game["faults"];
        for kind in ["invalid", "timeout", "crash"] {
            assert_eq!(faults[flood_seat][kind], 0, "{name}: floodfill faulted: {game}");
        }
        let recorded: Vec<&str> = ["invalid", "timeout", "crash"]
            .into_iter()
            .filter(|k| faults[chaos_seat][*k].as_u64().unwrap() > 0)
            .collect();
        assert!(!recorded.is_empty(), "{name} was not faulted: {game}");
        assert!(recorded.iter().all(|k| kinds.contains(k)), "{name}: faults {recorded:?}, expected {kinds:?}: {game}");
        if kinds.len() == 1 {
            assert_eq!(recorded, kinds, "{name}: {game}");
        }
        assert_eq!(game["winner"].as_u64(), Some(flood_seat as u64), "{name} lost by fault to floodfill: {game}");
        assert!(game["command"].is_string(), "a game with a fault names the command that plays it again");
    }
}

#[test]
fn an_isolated_plugin_plays_the_same_games_as_in_process() {
    let example = plugin("example");
    let dir = tempfile::tempdir().unwrap();
    let run = |mode: &str, sub: &str| {
        let out_dir = dir.path().join(sub);
        let out = lightcycles()
            .args(["play", &example, "builtin:floodfill", "-r", "3", mode, "--time-ms", "2000"])
            .args(["--width", "20", "--height", "20", "-o", out_dir.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{mode}: {}", text(&out.stderr));
        (0..3).map(|g| std::fs::read_to_string(out_dir.join(format!("sim_{g}.json"))).unwrap()).collect::<Vec<_>>()
    };
    let isolated = run("--isolate", "isolated");
    let in_process = run("--in-process", "in-process");
    assert_eq!(isolated, in_process);
    for replay in &isolated {
        let r = Replay::from_json(replay).unwrap();
        assert!(r.faults.iter().all(|row| row.iter().all(Option::is_none)));
    }
}

#[test]
fn a_plugin_that_is_no_plugin_is_refused_under_isolate_too() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("libempty.so");
    std::fs::write(&empty, b"").unwrap();
    let out =
        lightcycles().args(["tournament", empty.to_str().unwrap(), "builtin:random", "-g", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("libempty.so"), "{}", text(&out.stderr));
}

/// One game of `bot` against floodfill with `extra` flags; the replay.
fn one_game(bot: &str, extra: &[&str]) -> (Output, Replay) {
    let dir = tempfile::tempdir().unwrap();
    let mut command = lightcycles();
    command.args(["play", bot, "builtin:floodfill", "-r", "1", "--max-ticks", "3"]).args(QUICK).args(extra);
    command.args(["-o", dir.path().to_str().unwrap()]);
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replay = Replay::from_json(&std::fs::read_to_string(dir.path().join("sim_0.json")).unwrap()).unwrap();
    (out, replay)
}

#[test]
fn a_bot_process_holds_no_descriptor_but_stdin_stdout_and_stderr() {
    let m = marker("fds");
    let bot = script("fds", "python3", "list_fds.py", &m);
    // Hand the host a descriptor that a careless host would pass on.
    let file = tempfile::tempfile().unwrap();
    rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty()).unwrap();
    let fd = file.as_raw_fd();
    let (_, replay) = one_game(&bot, &[]);
    assert!(replay.commands[0][0].is_some(), "the bot answered");
    for row in &replay.commands {
        if let Some(line) = &row[0] {
            assert_eq!(line, "fds 0 1 2", "the bot's descriptors (the host was handed {fd})");
        }
    }
    drop(file);
    assert!(processes_with(&m).is_empty());
}

#[test]
fn the_memory_limit_is_the_flag_and_zero_lifts_it() {
    let m = marker("ulimit");
    let bot = format!("cmd:sh -c 'while read -r l; do echo \"$(ulimit -v)\"; done' {m}");
    let (_, r) = one_game(&bot, &["--bot-memory-mb", "300"]);
    assert_eq!(r.commands[0][0].as_deref(), Some((300 * 1024).to_string().as_str()));
    let (_, r) = one_game(&bot, &[]);
    assert_eq!(r.commands[0][0].as_deref(), Some((1024 * 1024).to_string().as_str()), "the default is 1024 MiB");
    let (_, r) = one_game(&bot, &["--bot-memory-mb", "0"]);
    assert_eq!(r.commands[0][0].as_deref(), Some("unlimited"));
}

#[test]
fn a_memory_bomb_dies_of_its_limit_on_the_first_tick() {
    let m = marker("memory");
    let bot = script("bomb", "python3", "memory_bomb.py", &m);
    let dir = tempfile::tempdir().unwrap();
    let out = lightcycles()
        .args(["play", &bot, "builtin:floodfill", "-r", "1", "--max-ticks", "2", "--bot-memory-mb", "128"])
        .args(["--time-first-ms", "20000", "-o", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replay = Replay::from_json(&std::fs::read_to_string(dir.path().join("sim_0.json")).unwrap()).unwrap();
    assert_eq!(replay.faults[0][0], Some(lightcycles_core::FaultKind::Crash));
    let log = std::fs::read_to_string(dir.path().join("logs/0-0-bomb.log")).unwrap();
    assert!(log.contains("MemoryError"), "{log}");
    assert!(processes_with(&m).is_empty());
}
