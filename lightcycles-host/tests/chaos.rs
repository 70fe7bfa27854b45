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
            build("hog", &["-DCHAOS_HOG"], source.clone()),
            build("exit", &["-DCHAOS_EXIT"], source.clone()),
            build("hang_destroy", &["-DCHAOS_HANG_DESTROY"], source),
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

/// Runs `lightcycles args`, killed (and the test failed) after `secs`.
fn run_within(args: &[&str], secs: u64) -> Output {
    let mut command = lightcycles();
    command.args(args);
    common::output_within(command, secs)
}

const SHORT: [&str; 6] = ["--width", "12", "--height", "12", "--time-ms", "100"];

#[test]
fn an_in_process_plugin_whose_destroy_never_returns_does_not_hang_play() {
    let mut args = vec!["play", "--in-process", "-r", "2"];
    let plugin = plugin("hang_destroy");
    args.extend([plugin.as_str(), "builtin:random"]);
    args.extend(SHORT);
    let out = run_within(&args, 60);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("FINAL_RESULTS"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("game ")).count(), 2, "{stdout}");
}

#[test]
fn an_in_process_plugin_that_calls_exit_never_makes_a_run_exit_0() {
    let plugin = plugin("exit");
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("r.jsonl");
    let mut play = vec!["play", "--in-process", "-r", "2", plugin.as_str(), "builtin:random"];
    play.extend(SHORT);
    let r = results.to_str().unwrap();
    let mut tournament =
        vec!["tournament", "--in-process", "-g", "2", "--results", r, plugin.as_str(), "builtin:random"];
    tournament.extend(SHORT);
    for args in [play, tournament] {
        let out = run_within(&args, 60);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("ended before it was complete"), "{}", text(&out.stderr));
    }
}

#[test]
fn play_isolates_plugins_by_default_so_exit_spin_and_hang_cost_the_bot_only() {
    // Copies in a folder of this test's own: other tests play the same
    // plugins at the same time.
    let m = marker("isolated-by-default");
    let own = Path::new(env!("CARGO_TARGET_TMPDIR")).join(&m);
    std::fs::create_dir_all(&own).unwrap();
    for name in ["exit", "spin", "hang_destroy", "segv"] {
        let plugin = own.join(format!("lib{name}.so"));
        std::fs::copy(self::plugin(name), &plugin).unwrap();
        let plugin = plugin.to_str().unwrap().to_string();
        let mut args = vec!["play", "-r", "2", plugin.as_str(), "builtin:random"];
        args.extend(SHORT);
        let out = run_within(&args, 60);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("FINAL_RESULTS"), "{name}: {stdout}");
        assert_eq!(stdout.lines().filter(|l| l.starts_with("game ")).count(), 2, "{name}: {stdout}");
        assert!(processes_with(&m).is_empty(), "{name}: plugin hosts outlived play: {:?}", processes_with(&m));
    }
}

/// Waits up to `secs` for no process with `marker` to be left; the ones
/// left, if any.
fn left_after(marker: &str, secs: u64) -> Vec<String> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        let left = processes_with(marker);
        if left.is_empty() || std::time::Instant::now() >= until {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// With cgroups (where the host may use them) and without.
const MODES: [(&str, &str); 2] = [("cgroups", ""), ("no cgroups", "1")];

#[test]
fn a_bot_that_daemonizes_is_ended_with_its_game() {
    for (mode, no_cgroup) in MODES {
        let m = marker(&format!("daemon-{}", no_cgroup.len()));
        let bot = format!("d=cmd:sh {} {m}", chaos_dir().join("daemonize.sh").display());
        let mut args = vec!["play", "-r", "2", bot.as_str(), "builtin:random"];
        args.extend(SHORT);
        let out = lightcycles().args(&args).env("LIGHTCYCLES_NO_CGROUP", no_cgroup).output().unwrap();
        assert!(out.status.success(), "{mode}: {}", text(&out.stderr));
        // Each game's daemon is gone when the game ends: none is left.
        let left = left_after(&m, 2);
        assert!(left.is_empty(), "{mode}: daemons outlived their games: {left:?}");
    }
}

#[test]
fn no_bot_process_outlives_a_host_killed_with_sigkill() {
    for (mode, no_cgroup) in MODES {
        let m = marker(&format!("sigkill-{}", no_cgroup.len()));
        let own = Path::new(env!("CARGO_TARGET_TMPDIR")).join(&m);
        std::fs::create_dir_all(&own).unwrap();
        let spin = own.join("libspin.so");
        std::fs::copy(plugin("spin"), &spin).unwrap();
        let eof = format!("eof=cmd:sh {} {m}", chaos_dir().join("ignores_eof.sh").display());
        let daemon = format!("d=cmd:sh {} {m}", chaos_dir().join("daemonize.sh").display());
        let spin = format!("spin={}", spin.display());
        let mut host = lightcycles()
            .args(["tournament", &eof, &daemon, &spin, "builtin:random", "-g", "200", "-j", "2", "--log-every", "0"])
            // The spinning plugin fails its probe: let it play (and spin).
            .arg("--allow-broken")
            .args(["--width", "30", "--height", "30", "--time-ms", "500", "--time-first-ms", "500"])
            .env("LIGHTCYCLES_NO_CGROUP", no_cgroup)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait until bots (and what they started) run, then SIGKILL the host
        // at once: a bot may come and go (the probe before game 0 ends
        // its bots), so the count is judged on the snapshot that ended the
        // wait.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut running = processes_with(&m);
        while running.len() < 3 && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(20));
            running = processes_with(&m);
        }
        host.kill().unwrap();
        assert!(running.len() >= 3, "{mode}: the bots did not start: {running:?}");
        host.wait().unwrap();
        let left = left_after(&m, 5);
        assert!(left.is_empty(), "{mode}: bot processes outlived the host: {left:?}");
    }
}

/// The soak test of docs/untrusted-bots.md: a long gauntlet of chaos bots
/// and hostile plugins against honest bots, `-j 2`, the host killed with
/// SIGKILL at seeded moments and resumed, again and again. It checks that
/// no run hangs, no process is left after any kill, and no result is lost
/// (the resumed results hold every game once). `LC_SOAK_GAMES` games per
/// pairing (default 20), `LC_SOAK_KILLS` kills (default 6); with
/// `LC_SOAK_RESULTS=FILE` the results file is kept there.
///
/// `cargo test --release -p lightcycles-host --test chaos soak -- --ignored --nocapture`
#[test]
#[ignore = "a soak test of several minutes: see docs/untrusted-bots.md"]
fn soak_chaos_and_hostile_plugins_with_kills_and_resumes() {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (games, kills) = (env("LC_SOAK_GAMES", 20), env("LC_SOAK_KILLS", 6));
    let m = marker("soak");
    let own = Path::new(env!("CARGO_TARGET_TMPDIR")).join(&m);
    std::fs::create_dir_all(&own).unwrap();
    let mut bots = vec!["builtin:floodfill".to_string(), "builtin:wallhug".into(), "builtin:random".into()];
    let honest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/jsonlines-bot/bot.py");
    bots.push(format!("honest=cmd:python3 {} {m}", honest.display()));
    // A CodeClash bot, honest, and two that attack the others (they freeze
    // every process they can name, and write into every stdout they can
    // open), each in a folder named by the marker.
    let trust = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/trust");
    for (name, source) in [
        ("pyhonest", Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/python-bot/main.py")),
        ("stopper", trust.join("stopper.py")),
        ("forger", trust.join("forger.py")),
    ] {
        let file = own.join(format!("{name}.py"));
        std::fs::copy(source, &file).unwrap();
        bots.push(format!("{name}={}", file.display()));
    }
    for (name, interpreter, file) in [
        ("spin", "sh", "spin.sh"),
        ("fork_bomb", "sh", "fork_bomb.sh"),
        ("ignores_term", "sh", "ignores_term.sh"),
        ("stdout_closed", "sh", "stdout_closed.sh"),
    ] {
        bots.push(script(name, interpreter, file, &m));
    }
    bots.push(format!("daemon=cmd:sh {} {m}", chaos_dir().join("daemonize.sh").display()));
    bots.push(format!("eof=cmd:sh {} {m}", chaos_dir().join("ignores_eof.sh").display()));
    for name in ["spin", "exit", "hang_destroy", "segv", "abort"] {
        let copy = own.join(format!("lib{name}.so"));
        std::fs::copy(plugin(name), &copy).unwrap();
        bots.push(format!("p_{name}={}", copy.display()));
    }
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let report = dir.path().join("report.json");
    let mut args: Vec<String> = vec!["tournament".into()];
    args.extend(bots.iter().cloned());
    args.extend(["--gauntlet", "-j", "2", "--log-every", "0", "-s", "11", "--bot-memory-mb", "256"].map(String::from));
    // Chaos bots fail the probe before game 0 on purpose.
    args.push("--allow-broken".into());
    args.extend(["-g".to_string(), games.to_string()]);
    args.extend(QUICK.map(String::from));
    args.extend(["--results".into(), results.to_str().unwrap().into(), "--report".into()]);
    args.push(report.to_str().unwrap().into());
    let total = games as usize * (bots.len() - 1);
    let started = std::time::Instant::now();
    let mut rng = 0x5eed_u64;
    let mut killed = 0;
    let mut runs = 0;
    loop {
        runs += 1;
        let mut run = args.clone();
        if runs > 1 {
            run.push("--resume".into());
        }
        let mut host = lightcycles()
            .args(&run)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let kill_at = if killed < kills {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            Some(std::time::Duration::from_millis(2000 + (rng >> 33) % 8000))
        } else {
            None
        };
        let run_start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = host.try_wait().unwrap() {
                break Some(status);
            }
            if kill_at.is_some_and(|at| run_start.elapsed() >= at) {
                host.kill().unwrap();
                host.wait().unwrap();
                killed += 1;
                break None;
            }
            assert!(run_start.elapsed() < std::time::Duration::from_secs(1800), "run {runs} hangs");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let left = left_after(&m, 5);
        assert!(left.is_empty(), "run {runs}: processes left: {left:?}");
        match status {
            Some(status) => {
                assert!(status.success(), "run {runs} failed: {status}");
                break;
            }
            None => continue,
        }
    }
    let text = std::fs::read_to_string(&results).unwrap();
    // `LC_SOAK_RESULTS=FILE` keeps the results file, to compare two soaks.
    if let Some(keep) = std::env::var_os("LC_SOAK_RESULTS") {
        std::fs::copy(&results, keep).unwrap();
    }
    let mut seen: Vec<u64> =
        text.lines().skip(1).map(|l| serde_json::from_str::<Value>(l).unwrap()["game"].as_u64().unwrap()).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..total as u64).collect::<Vec<_>>(), "every game once");
    assert!(report.exists());
    // The honest bots lose no move to the others: not a timeout, not a
    // crash, not an invalid line, in any game.
    let honest = ["floodfill", "wallhug", "random", "honest", "pyhonest"];
    let mut honest_seats = 0;
    for line in text.lines().skip(1) {
        let game: Value = serde_json::from_str(line).unwrap();
        for seat in 0..2 {
            let name = game["bots"][seat].as_str().unwrap();
            if honest.contains(&name) {
                honest_seats += 1;
                let faults = &game["faults"][seat];
                let total: u64 = ["invalid", "timeout", "crash"].iter().map(|k| faults[k].as_u64().unwrap()).sum();
                assert_eq!(total, 0, "game {}: honest {name} had faults {faults}", game["game"]);
            }
        }
    }
    println!(
        "soak: {total} games, {} bots, {runs} runs, {killed} SIGKILLs, {:.0} s: 0 hangs, 0 processes left, \
         0 results lost, {honest_seats} honest seats with no fault",
        bots.len(),
        started.elapsed().as_secs_f64()
    );
}
