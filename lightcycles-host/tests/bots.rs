//! Bots of every form through the `lightcycles` binary: each kind against
//! each other kind, misbehaving bots that must cost only themselves, and no
//! bot process left behind.
//!
//! The misbehaving bots are small scripts in `tests/bots/` (and a Rust
//! plugin in `tests/bots/panicky-plugin`). Each plays seat 0 against
//! `builtin:random` for at most 8 ticks; the test reads the replay and
//! checks, tick by tick, which fault the bot got. Every bot process is
//! started with a marker in its command line, and after the run the test
//! looks for the marker in the process table.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use lightcycles_core::replay::{verify, Replay};
use lightcycles_core::{FaultKind, ReferenceGame};
use tempfile::TempDir;

use common::processes_with;

/// A 2010 map: 16 × 12, a border, two pillars.
const MAP: &str = "16 12
################
#              #
#  1           #
#      ##      #
#      ##      #
#              #
#              #
#      ##      #
#      ##      #
#           2  #
#              #
################
";

fn bots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// A Rust plugin built beside this test (a dev-dependency of the host).
fn plugin(crate_name: &str) -> String {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let path = deps.join(format!("lib{crate_name}.so"));
    assert!(path.exists(), "{} is built with the tests", path.display());
    path.to_str().unwrap().to_string()
}

/// The native bots the tests build with gcc and g++: C plugins (the
/// example and two misbehaving ones) and the C++ search bot of
/// `examples/cpp-search-bot`, as a plugin and as a JSON-lines program.
struct Native {
    c_plugin: PathBuf,
    bad_codes: PathBuf,
    other_abi: PathBuf,
    cpp_plugin: PathBuf,
    cpp_program: PathBuf,
}

/// Builds the native bots once per test run.
fn native() -> &'static Native {
    static NATIVE: OnceLock<Native> = OnceLock::new();
    NATIVE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("native-bots");
        std::fs::create_dir_all(&out).unwrap();
        // The engine's static library, built beside this test as a dependency of the host.
        let engine = std::env::current_exe().unwrap().parent().unwrap().join("liblightcycles.a");
        assert!(engine.exists(), "{} is built with the tests", engine.display());
        let build = |compiler: &str, flags: &[&str], source: PathBuf, output: PathBuf| -> PathBuf {
            let mut cmd = Command::new(compiler);
            cmd.args(["-Wall", "-Wextra", "-Werror", "-O2", "-I"]).arg(root.join("include")).args(flags).arg(&source);
            if compiler == "g++" {
                cmd.arg(&engine).args(["-lpthread", "-ldl", "-lm"]);
            }
            let done = cmd.arg("-o").arg(&output).output().unwrap_or_else(|e| panic!("{compiler}: {e}"));
            assert!(done.status.success(), "{cmd:?}: {}", text(&done.stderr));
            output
        };
        let c_plugin = |source: PathBuf, name: &str| {
            build("gcc", &["-std=c11", "-fPIC", "-shared"], source, out.join(format!("lib{name}.so")))
        };
        Native {
            c_plugin: c_plugin(examples_dir().join("c-plugin-bot/bot.c"), "c_plugin_bot"),
            bad_codes: c_plugin(bots_dir().join("bad_codes.c"), "bad_codes"),
            other_abi: c_plugin(bots_dir().join("other_abi.c"), "other_abi"),
            cpp_plugin: build(
                "g++",
                &["-std=c++17", "-fPIC", "-shared", "-DLC_BOT_PLUGIN", "-Wl,--exclude-libs,ALL"],
                examples_dir().join("cpp-search-bot/bot.cpp"),
                out.join("libcpp_search_bot.so"),
            ),
            cpp_program: build(
                "g++",
                &["-std=c++17"],
                examples_dir().join("cpp-search-bot/bot.cpp"),
                out.join("cpp-search-bot"),
            ),
        }
    })
}

fn shown(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

/// A marker unique to this test process and `name`.
fn marker(name: &str) -> String {
    format!("lc-marker-{}-{name}", std::process::id())
}

/// `cmd:python3 tests/bots/SCRIPT MARKER`.
fn script(name: &str, marker: &str) -> String {
    format!("cmd:python3 {} {marker}", bots_dir().join(name).display())
}

fn assert_no_process_left(marker: &str) {
    let left = processes_with(marker);
    assert!(left.is_empty(), "bot processes outlived the run: {left:?}");
}

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `lightcycles play BOTS ARGS -o DIR` and checks that it succeeds.
fn play(bots: &[String], args: &[&str]) -> (Output, TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let out =
        lightcycles().arg("play").args(bots).args(args).arg("-o").arg(dir.path()).output().expect("the binary runs");
    assert!(out.status.success(), "play {bots:?} {args:?} failed: {}", text(&out.stderr));
    (out, dir)
}

/// Loads and verifies the replay of game `g`.
fn replay(dir: &Path, g: u64) -> Replay {
    let path = dir.join(format!("sim_{g}.json"));
    let replay = Replay::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    verify::<ReferenceGame>(&replay).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    replay
}

/// The fault of `seat` on tick `tick` (from 1), and its recorded line.
fn at(r: &Replay, tick: usize, seat: usize) -> (Option<FaultKind>, Option<&str>) {
    (r.faults[tick - 1][seat], r.commands[tick - 1][seat].as_deref())
}

/// Whether `seat` rode on `tick`.
fn rode(r: &Replay, tick: usize, seat: usize) -> bool {
    tick <= r.commands.len() && r.result.eliminated_at[seat].map_or(true, |t| t as usize >= tick)
}

/// The settings of the misbehaving-bot games: a short game on an open
/// board, limits long enough that a loaded machine never makes a
/// well-behaved answer late, short enough to keep the test quick.
const SHORT_GAME: &[&str] = &[
    "-r",
    "1",
    "-s",
    "5",
    "--width",
    "24",
    "--height",
    "24",
    "--rock-density",
    "0",
    "--max-ticks",
    "8",
    "--time-first-ms",
    "5000",
];

/// Plays a misbehaving bot in seat 0 against `builtin:random` and checks
/// what every run must give: the run finishes, the replay verifies, the
/// opponent is never faulted, no process with the marker is left. Answers
/// after the first are due within `time_ms`. Returns the replay and the
/// output folder.
fn misbehave(bot: String, marker: &str, time_ms: &str, extra: &[&str]) -> (Replay, TempDir) {
    let mut args = SHORT_GAME.to_vec();
    args.extend_from_slice(&["--time-ms", time_ms]);
    args.extend_from_slice(extra);
    let (_, dir) = play(&[bot, "builtin:random".to_string()], &args);
    let r = replay(dir.path(), 0);
    for (k, row) in r.faults.iter().enumerate() {
        assert_eq!(row[1], None, "the opponent was faulted on tick {}", k + 1);
    }
    assert_no_process_left(marker);
    (r, dir)
}

/// Checks seat 0's fault on each tick it rode: `expect(tick)`.
fn expect_faults(r: &Replay, expect: impl Fn(usize) -> Option<FaultKind>, must_ride: usize) {
    assert!(rode(r, must_ride, 0), "the bot was out before tick {must_ride}: {:?}", r.result);
    for tick in 1..=r.commands.len() {
        if rode(r, tick, 0) {
            assert_eq!(at(r, tick, 0).0, expect(tick), "tick {tick}: {:?}", at(r, tick, 0));
        }
    }
}

fn log_text(dir: &TempDir, name: &str) -> String {
    let path = dir.path().join("logs").join(format!("0-0-{name}.log"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_bot_that_sleeps_past_the_limit_times_out_and_its_late_lines_never_count() {
    let m = marker("sleeper");
    let (r, dir) = misbehave(script("sleeper.py", &m), &m, "500", &[]);
    expect_faults(&r, |t| (t >= 3).then_some(FaultKind::Timeout), 4);
    assert!(r.commands.iter().all(|row| row[0].as_deref() != Some("late")));
    assert!(log_text(&dir, "sleeper").contains("[lightcycles] tick 3: no answer within 500 ms"));
}

#[test]
fn an_answer_late_once_is_a_timeout_and_the_next_tick_gets_its_own_answer() {
    let m = marker("late");
    // Tick 2 is answered at 3 s, a second after its deadline and while tick
    // 3 (asked at 2 s, due at 4 s) waits.
    let (r, _) = misbehave(script("late_once.py", &m), &m, "2000", &[]);
    expect_faults(&r, |t| (t == 2).then_some(FaultKind::Timeout), 4);
    assert!(r.commands.iter().all(|row| row[0].as_deref() != Some("late")), "the late line was read");
    assert!(matches!(at(&r, 3, 0), (None, Some("N" | "E" | "S" | "W"))));
}

#[test]
fn a_bot_that_writes_no_newline_times_out() {
    let m = marker("nonewline");
    let (r, _) = misbehave(script("no_newline.py", &m), &m, "300", &[]);
    expect_faults(&r, |t| (t >= 2).then_some(FaultKind::Timeout), 3);
}

#[test]
fn lines_of_a_megabyte_are_invalid_and_recorded_cut() {
    let m = marker("megaline");
    let (r, _) = misbehave(script("megaline.py", &m), &m, "1000", &[]);
    expect_faults(&r, |t| matches!(t, 2 | 3).then_some(FaultKind::Invalid), 4);
    let two = format!("{}…", "x".repeat(60));
    assert_eq!(at(&r, 2, 0).1, Some(two.as_str()));
    let three = at(&r, 3, 0).1.unwrap();
    assert!(three.len() < 70 && three.ends_with('…'), "{three:?}");
    assert!(matches!(at(&r, 4, 0), (None, Some(_))), "the line after the long ones is whole");
}

#[test]
fn a_bot_that_exits_on_tick_3_crashes_from_then_on() {
    let m = marker("exit3");
    let (r, _) = misbehave(script("exit_on_tick3.py", &m), &m, "1000", &[]);
    expect_faults(&r, |t| (t >= 3).then_some(FaultKind::Crash), 4);
}

#[test]
fn under_eliminate_a_bot_that_exits_is_out_at_once() {
    let m = marker("exit3-eliminate");
    let (r, _) = misbehave(script("exit_on_tick3.py", &m), &m, "1000", &["--fault-policy", "eliminate"]);
    assert_eq!(at(&r, 3, 0).0, Some(FaultKind::Crash));
    assert_eq!(r.result.eliminated_at[0], Some(3));
    assert_eq!(r.winner, Some(1));
}

#[test]
fn a_bot_that_crashes_on_start_crashes_every_tick() {
    let m = marker("crashstart");
    let (r, dir) = misbehave(script("crash_on_start.py", &m), &m, "1000", &[]);
    expect_faults(&r, |_| Some(FaultKind::Crash), 1);
    assert!(log_text(&dir, "crash_on_start").contains("RuntimeError: this bot crashes on start"));
}

#[test]
fn a_bot_that_floods_stderr_fills_its_log_once_and_plays_on() {
    let m = marker("flood");
    let (r, dir) = misbehave(script("stderr_flood.py", &m), &m, "1000", &[]);
    expect_faults(&r, |_| None, 8);
    let log = log_text(&dir, "stderr_flood");
    assert!(log.ends_with("[lightcycles] log cut at 1048576 bytes; the rest is discarded\n"));
    assert!(log.len() < (1 << 20) + 100, "{} bytes", log.len());
}

#[test]
fn a_child_that_outlives_its_bot_is_killed_with_the_game() {
    let m = marker("orphan");
    let (r, _) = misbehave(script("orphan.py", &m), &m, "1000", &[]);
    // The child holds the bot's stdout open: the exit is seen all the same.
    expect_faults(&r, |t| (t >= 3).then_some(FaultKind::Crash), 4);
}

#[test]
fn an_exception_in_get_move_is_a_crash_of_that_tick_with_its_traceback_logged() {
    let m = marker("raises");
    let home = tempfile::tempdir().unwrap();
    let bot_dir = home.path().join(&m);
    std::fs::create_dir(&bot_dir).unwrap();
    std::fs::copy(bots_dir().join("raises/main.py"), bot_dir.join("main.py")).unwrap();
    let (r, dir) = misbehave(bot_dir.join("main.py").display().to_string(), &m, "1000", &[]);
    expect_faults(&r, |t| matches!(t, 2 | 3).then_some(FaultKind::Crash), 4);
    // A main.py is named after its folder.
    let log = log_text(&dir, &m);
    assert!(log.contains("Traceback") && log.contains("ValueError: raised on tick 2"), "{log}");
    assert!(log.contains("[lightcycles] tick 3: get_move raised ValueError: raised on tick 3"), "{log}");
}

#[test]
fn a_plugin_that_panics_crashes_on_those_ticks_only() {
    let (r, dir) = misbehave(plugin("panicky_plugin"), "no process: in-process", "1000", &["--in-process"]);
    expect_faults(&r, |t| matches!(t, 3 | 4).then_some(FaultKind::Crash), 5);
    let log = log_text(&dir, "panicky_plugin");
    assert!(log.contains("[lightcycles] tick 3: panicked: panicky plugin: tick 3"), "{log}");
}

/// One bot of each kind, named by its kind.
fn one_of_each_kind(m: &str) -> Vec<(&'static str, String)> {
    let examples = examples_dir();
    vec![
        ("builtin", "builtin:random".to_string()),
        ("cmd", format!("cmd:python3 {} {m}", examples.join("jsonlines-bot/bot.py").display())),
        ("tron2010", format!("tron2010:python3 {} {m}", examples.join("tron2010-bot/bot.py").display())),
        ("python", examples.join("python-bot/main.py").display().to_string()),
        ("rust-plugin", plugin("rust_plugin_bot")),
        ("c-plugin", shown(&native().c_plugin)),
    ]
}

#[test]
fn every_kind_of_bot_plays_every_other_kind_on_seeded_and_map_boards() {
    let m = marker("kinds");
    let home = tempfile::tempdir().unwrap();
    let map = home.path().join("arena.txt");
    std::fs::write(&map, MAP).unwrap();
    let map = map.to_str().unwrap();
    let kinds = one_of_each_kind(&m);
    let generous = ["--time-first-ms", "10000", "--time-ms", "5000", "-r", "1"];
    let mut games = 0;
    for (i, (a_kind, a)) in kinds.iter().enumerate() {
        for (b_kind, b) in &kinds[i + 1..] {
            let names = vec![format!("{a_kind}={a}"), format!("{b_kind}={b}")];
            for board in [&["--width", "20", "--height", "20", "-s", "3"][..], &["--map", map][..]] {
                let args: Vec<&str> = generous.iter().chain(board).copied().collect();
                let (out, dir) = play(&names, &args);
                let r = replay(dir.path(), 0);
                assert_eq!(r.names, [*a_kind, *b_kind]);
                assert_eq!(r.map.is_some(), board[0] == "--map");
                for (k, row) in r.faults.iter().enumerate() {
                    assert_eq!(row, &[None, None], "{a_kind} vs {b_kind}, tick {}: a fault", k + 1);
                }
                assert!(text(&out.stdout).contains("FINAL_RESULTS"));
                games += 1;
            }
        }
    }
    assert_eq!(games, 30);
    assert_no_process_left(&m);
}

#[test]
fn the_same_seed_gives_byte_identical_replays_and_jobs_change_nothing() {
    let bots = vec![plugin("rust_plugin_bot"), "builtin:fuzz".to_string(), plugin("panicky_plugin")];
    let args = [
        "-r",
        "3",
        "--swap",
        "-s",
        "11",
        "--width",
        "20",
        "--height",
        "20",
        "--time-first-ms",
        "10000",
        "--time-ms",
        "5000",
    ];
    let read = |dir: &TempDir| -> Vec<Vec<u8>> {
        (0..6).map(|g| std::fs::read(dir.path().join(format!("sim_{g}.json"))).unwrap()).collect()
    };
    let (one, d1) = play(&bots, &[&args[..], &["-j", "1"]].concat());
    let (two, d2) = play(&bots, &[&args[..], &["-j", "2"]].concat());
    let (again, d3) = play(&bots, &[&args[..], &["-j", "2"]].concat());
    assert_eq!(read(&d1), read(&d2));
    assert_eq!(read(&d1), read(&d3));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, again.stdout);
    for g in 0..6 {
        replay(d1.path(), g);
    }
}

#[test]
fn process_bots_that_answer_in_time_replay_the_same_run_after_run() {
    let m = marker("repeat");
    let bots = vec![examples_dir().join("python-bot/main.py").display().to_string(), script("echo_json.py", &m)];
    let args =
        ["-r", "2", "-s", "4", "--width", "16", "--height", "16", "--time-first-ms", "10000", "--time-ms", "5000"];
    let (_, d1) = play(&bots, &args);
    let (_, d2) = play(&bots, &args);
    for g in 0..2 {
        let name = format!("sim_{g}.json");
        assert_eq!(std::fs::read(d1.path().join(&name)).unwrap(), std::fs::read(d2.path().join(&name)).unwrap());
    }
    assert_no_process_left(&m);
}

fn fails(args: &[&str], envs: &[(&str, &str)]) -> String {
    let out = lightcycles().arg("play").args(args).envs(envs.iter().copied()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    text(&out.stderr)
}

#[test]
fn bots_that_cannot_play_stop_the_run_with_a_clear_error() {
    let err = fails(&["tron2010:./old", "builtin:random", "builtin:random", "--width", "16", "--height", "16"], &[]);
    assert!(
        err.contains("bot \"tron2010:./old\": 2010 Google AI Challenge bots (tron2010:COMMAND) play games of 2 players only, but 3 bots were given"),
        "{err}"
    );
    let err = fails(&["no/such/main.py", "builtin:random"], &[]);
    assert!(err.contains("bot \"no/such/main.py\": cannot read no/such/main.py"), "{err}");
    let main = examples_dir().join("python-bot/main.py");
    let err = fails(&[main.to_str().unwrap(), "builtin:random"], &[("LIGHTCYCLES_PYTHON", "/nonexistent/python")]);
    assert!(err.contains("cannot run /nonexistent/python for Python bots"), "{err}");
    assert!(err.contains("set LIGHTCYCLES_PYTHON"), "{err}");
    let home = tempfile::tempdir().unwrap();
    let not_a_plugin = home.path().join("libnothing.so");
    std::fs::write(&not_a_plugin, b"not an ELF file").unwrap();
    let err = fails(&[not_a_plugin.to_str().unwrap(), "builtin:random"], &[]);
    assert!(err.contains("cannot load") && err.contains("libnothing.so"), "{err}");
}

#[test]
fn a_plugin_is_named_by_its_table_and_found_without_a_leading_dot_slash() {
    // `libc_plugin_bot.so` with no slash: dlopen would search the library
    // path for it; the host opens the file in the current folder.
    let plugin = &native().c_plugin;
    let folder = plugin.parent().unwrap();
    let file = plugin.file_name().unwrap().to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = lightcycles()
        .current_dir(folder)
        .args(["play", file, "builtin:random"])
        .args(SHORT_GAME)
        .arg("-o")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(replay(dir.path(), 0).names, ["c-plugin-bot", "random"], "the name in the plugin's table");
}

/// A CodeClash bot folder `p1` whose main.py does not parse.
fn syntax_error_bot(home: &Path) -> String {
    let bot = home.join("p1");
    std::fs::create_dir(&bot).unwrap();
    std::fs::write(bot.join("main.py"), "def get_move(obs)\n    return 'N'\n").unwrap();
    bot.to_str().unwrap().to_string()
}

#[test]
fn a_bot_that_cannot_start_is_reported_before_game_0_and_play_goes_on_unless_strict() {
    let home = tempfile::tempdir().unwrap();
    let bot = syntax_error_bot(home.path());
    let out = lightcycles().args(["play", &bot, "builtin:random"]).args(SHORT_GAME).output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "CodeClash's meaning: the run completes; {err}");
    assert!(err.contains("bot p1 (") && err.contains("cannot play"), "{err}");
    assert!(err.contains("SyntaxError"), "the traceback is shown without -o: {err}");
    assert!(err.contains("warning: p1 cannot play"), "said before the games: {err}");
    assert!(err.contains("warning: p1 could not play"), "said again after FINAL_RESULTS: {err}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("p1 crashed on every tick"), "{stdout}");
    assert!(stdout.contains("FINAL_RESULTS"), "{stdout}");

    let strict = lightcycles().args(["play", &bot, "builtin:random", "--strict"]).args(SHORT_GAME).output().unwrap();
    assert_eq!(strict.status.code(), Some(2), "{}", text(&strict.stderr));
    assert!(!text(&strict.stdout).contains("FINAL_RESULTS"));

    let missing =
        lightcycles().args(["tournament", "cmd:./no-such-program-here", "builtin:random", "-g", "2"]).output().unwrap();
    let err = text(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "a tournament does not start: {err}");
    assert!(err.contains("no-such-program-here") && err.contains("not found"), "{err}");
    assert!(err.contains("the tournament does not start"), "{err}");
}

#[test]
fn a_bot_that_times_out_again_and_again_is_told_its_slowest_answer_and_what_to_change() {
    let slow = "slow=cmd:while read l; do sleep 0.2; echo N; done".to_string();
    let mut args = SHORT_GAME.to_vec();
    args.extend(["--time-ms", "50"]);
    let (out, _dir) = play(&[slow, "builtin:straight".to_string()], &args);
    let err = text(&out.stderr);
    let note = err.lines().find(|l| l.starts_with("note: slow timed out ")).unwrap_or_else(|| panic!("{err}"));
    assert!(note.contains("in 1 game (limit 50 ms, its slowest answer took "), "{note}");
    assert!(note.contains("give it more time (--time-ms "), "{note}");
}

#[test]
fn a_rust_plugin_is_named_by_its_plugin_bot_name_in_process_and_isolated() {
    for mode in ["--in-process", "--isolate"] {
        let (_, dir) =
            play(&[plugin("rust_plugin_bot"), "builtin:random".to_string()], &[SHORT_GAME, &[mode]].concat());
        assert_eq!(replay(dir.path(), 0).names, ["room-bot", "random"], "{mode}: PluginBot::NAME");
    }
    // A plugin that gives no NAME is named by its file, without `lib`.
    let (_, dir) = play(&[plugin("panicky_plugin"), "builtin:random".to_string()], SHORT_GAME);
    assert_eq!(replay(dir.path(), 0).names[0], "panicky_plugin");
}

#[test]
fn a_library_that_is_no_plugin_is_refused_by_name() {
    // A real shared library without either plugin interface: the C ABI
    // library of this workspace would do, but a system one is always there.
    let libm = ["/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6", "/lib64/libm.so.6"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(libm) = libm else { return };
    let home = tempfile::tempdir().unwrap();
    let link = home.path().join("libm.so");
    std::os::unix::fs::symlink(libm, &link).unwrap();
    let err = fails(&[link.to_str().unwrap(), "builtin:random"], &[]);
    assert!(err.contains("is not a plugin this build can load"), "{err}");
}

#[test]
fn engine_py_stands_in_for_codeclash_and_hands_over_to_play() {
    let dir = tempfile::tempdir().unwrap();
    let main = examples_dir().join("python-bot/main.py");
    let out = Command::new("python3")
        .arg(examples_dir().join("codeclash/engine.py"))
        .args([
            main.to_str().unwrap(),
            "builtin:random",
            "-r",
            "2",
            "--time-first-ms",
            "10000",
            "--time-ms",
            "5000",
            "-o",
        ])
        .arg(dir.path())
        .env("LIGHTCYCLES_BIN", env!("CARGO_BIN_EXE_lightcycles"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (direct, direct_dir) = play(
        &[main.display().to_string(), "builtin:random".into()],
        &["-r", "2", "--time-first-ms", "10000", "--time-ms", "5000"],
    );
    assert_eq!(text(&out.stdout), text(&direct.stdout), "the same games and the same FINAL_RESULTS");
    assert!(text(&out.stdout).contains("FINAL_RESULTS\nBot_1: "));
    for g in 0..2 {
        let name = format!("sim_{g}.json");
        assert_eq!(
            std::fs::read(dir.path().join(&name)).unwrap(),
            std::fs::read(direct_dir.path().join(&name)).unwrap()
        );
        replay(dir.path(), g);
    }
}

#[test]
fn a_host_stopped_by_a_signal_takes_its_bots_with_it() {
    let m = marker("signal");
    let dir = tempfile::tempdir().unwrap();
    let mut host = lightcycles()
        .args(["play", &script("sleeper.py", &m), &script("orphan.py", &m), "-r", "50", "--time-ms", "2000"])
        .arg("-o")
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Both bots and the orphan's child are up once three processes show.
    let up = (0..200).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        processes_with(&m).len() >= 3
    });
    assert!(up, "the bots never started: {:?}", processes_with(&m));
    let status = Command::new("kill").args(["-TERM", &host.id().to_string()]).status().unwrap();
    assert!(status.success());
    let code = host.wait().unwrap().code();
    assert_eq!(code, Some(130));
    let gone = (0..40).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        processes_with(&m).is_empty()
    });
    assert!(gone, "bots outlived their host: {:?}", processes_with(&m));
}

#[test]
fn every_bot_of_a_tick_is_asked_before_any_answer_is_awaited() {
    // Each bot waits for the other to be sent the same tick before it
    // answers: asked one after the other, the first would wait 4 s and time
    // out at 3 s.
    let m = marker("rendezvous");
    let meeting = tempfile::tempdir().unwrap();
    let bot = format!("cmd:python3 {} {} {m}", bots_dir().join("rendezvous.py").display(), meeting.path().display());
    let (_, dir) = play(
        &[bot.clone(), bot],
        &[
            "-r",
            "1",
            "--width",
            "16",
            "--height",
            "16",
            "--max-ticks",
            "5",
            "--time-first-ms",
            "10000",
            "--time-ms",
            "3000",
        ],
    );
    let r = replay(dir.path(), 0);
    assert_eq!(r.commands.len(), 5);
    for (k, row) in r.faults.iter().enumerate() {
        assert_eq!(row, &[None, None], "tick {}: {:?}", k + 1, r.commands[k]);
    }
    assert_no_process_left(&m);
}

#[test]
fn a_c_plugin_that_declines_or_returns_codes_out_of_range_costs_only_those_ticks() {
    let (r, dir) = misbehave(shown(&native().bad_codes), "no process: in-process", "1000", &["--in-process"]);
    expect_faults(&r, |t| matches!(t, 3..=5).then_some(FaultKind::Invalid), 6);
    assert_eq!(at(&r, 2, 0), (None, None), "-1 is no move, without fault");
    assert_eq!(at(&r, 3, 0).1, Some("code 7"));
    assert_eq!(at(&r, 4, 0).1, Some("code -5"));
    assert_eq!(at(&r, 5, 0).1, Some("code 2147483647"));
    assert!(matches!(at(&r, 6, 0), (None, Some("N" | "E" | "S" | "W"))));
    // Named by the name its table declares.
    let log = log_text(&dir, "bad-codes");
    assert!(log.contains("[lightcycles] tick 3: choose returned 7, not a move (0-3) or -1"), "{log}");
}

#[test]
fn a_c_plugin_of_another_abi_version_is_refused_naming_both() {
    let err = fails(&[&shown(&native().other_abi), "builtin:random"], &[]);
    assert!(
        err.contains("libother_abi.so: refused: the plugin speaks bot ABI version 2, this host version 1"),
        "{err}"
    );
}

#[test]
fn the_cpp_search_bot_plays_as_a_plugin_and_as_a_json_lines_program() {
    let n = native();
    let m = marker("cpp");
    // The program keeps to a budget of its own; the plugin takes half the
    // limit the host tells it. Under load a search may still be late: a
    // timeout is allowed here, nothing else.
    // Run through a link whose path holds the marker (the program takes no
    // extra arguments).
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join(&m)).unwrap();
    let link = home.path().join(&m).join("cpp-search-bot");
    std::os::unix::fs::symlink(&n.cpp_program, &link).unwrap();
    let program = format!("cmd:{} --time-ms 10", link.display());
    let map = home.path().join("arena.txt");
    std::fs::write(&map, MAP).unwrap();
    for board in [&["--width", "20", "--height", "20", "-s", "9"][..], &["--map", map.to_str().unwrap()][..]] {
        // The plugin thinks for half of 60 ms a move: 80 ticks at most keep
        // the test short.
        let mut args = vec!["-r", "1", "--max-ticks", "80", "--time-first-ms", "5000", "--time-ms", "60"];
        args.extend_from_slice(board);
        let (_, dir) = play(&[format!("plugin={}", shown(&n.cpp_plugin)), format!("program={program}")], &args);
        let r = replay(dir.path(), 0);
        for (k, row) in r.faults.iter().enumerate() {
            for fault in row.iter().flatten() {
                assert_eq!(*fault, FaultKind::Timeout, "tick {}", k + 1);
            }
        }
    }
    assert_no_process_left(&m);
}

#[test]
fn a_python_bot_that_forges_answers_on_the_protocol_gains_nothing() {
    let m = marker("forges");
    let home = tempfile::tempdir().unwrap();
    let bot_dir = home.path().join(&m);
    std::fs::create_dir(&bot_dir).unwrap();
    std::fs::copy(bots_dir().join("forges/main.py"), bot_dir.join("main.py")).unwrap();
    let (r, _) = misbehave(bot_dir.join("main.py").display().to_string(), &m, "1000", &[]);
    // A forged answer would be the line "forged": every tick has the move
    // get_move returned.
    assert!(rode(&r, 3, 0), "the bot was out before tick 3: {:?}", r.result);
    for tick in 1..=r.commands.len() {
        if rode(&r, tick, 0) {
            let (fault, line) = at(&r, tick, 0);
            assert_eq!(fault, None, "tick {tick}: {line:?}");
            assert!(matches!(line, Some("N" | "E" | "S" | "W")), "tick {tick}: {line:?}");
        }
    }
}

/// `replay feed`: a recorded game sent back into each of its bots, of every
/// form, gives every recorded answer again (exit 0); another bot differs at
/// a tick it names (exit 1); and `--observation T` is the very line a
/// JSON-lines bot was sent before tick T.
#[test]
fn a_recorded_game_fed_back_into_each_bot_form_gives_its_answers_again() {
    let python = examples_dir().join("python-bot/main.py").to_str().unwrap().to_string();
    let log_dir = tempfile::tempdir().unwrap();
    let sent = log_dir.path().join("sent.jsonl");
    let json_lines = examples_dir().join("jsonlines-bot/bot.py");
    // A JSON-lines bot that also keeps every line it is sent.
    let teed = format!("cmd:tee -a {} | python3 -u {}", sent.display(), json_lines.display());
    let c_plugin = native().c_plugin.to_str().unwrap().to_string();
    let games = [
        vec![plugin("rust_plugin_bot"), python.clone()],
        vec![teed.clone(), c_plugin.clone()],
        vec![format!("tron2010:python3 {}", examples_dir().join("tron2010-bot/bot.py").display()), python.clone()],
    ];
    for bots in &games {
        let (_, dir) = play(bots, &["-r", "1", "-s", "4", "--width", "20", "--height", "16", "--time-ms", "500"]);
        let file = dir.path().join("sim_0.json");
        let recorded = replay(dir.path(), 0);
        for (seat, bot) in bots.iter().enumerate() {
            // The teed bot is fed without its log, which is kept as it was sent in play.
            let bot = if *bot == teed { format!("cmd:python3 -u {}", json_lines.display()) } else { bot.clone() };
            let out = lightcycles()
                .args(["replay", "feed"])
                .arg(&file)
                .args(["--seat", &seat.to_string(), &bot, "--time-ms", "500"])
                .output()
                .unwrap();
            let decided = recorded.result.eliminated_at[seat].unwrap_or(recorded.result.ticks);
            assert!(out.status.success(), "{bot} in seat {seat}: {}{}", text(&out.stdout), text(&out.stderr));
            assert!(
                text(&out.stdout).contains(&format!("gave the {decided} recorded answers again")),
                "{}",
                text(&out.stdout)
            );
        }
    }
    // Another bot: the first tick where it differs, exit 1.
    let (_, dir) = play(&games[0], &["-r", "1", "-s", "4", "--width", "20", "--height", "16"]);
    let out = lightcycles()
        .args(["replay", "feed"])
        .arg(dir.path().join("sim_0.json"))
        .args(["--seat", "1", "builtin:straight"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("straight now answers"), "{}", text(&out.stdout));
    // --keep-going: every observation is sent, each answer of a traced
    // search bot is a line on stderr, and the count of differences is told.
    let recorded = replay(dir.path(), 0);
    let decided = recorded.result.eliminated_at[1].unwrap_or(recorded.result.ticks) as usize;
    let out = lightcycles()
        .args(["replay", "feed"])
        .arg(dir.path().join("sim_0.json"))
        .args(["--seat", "1", "builtin:search:nodes=200:trace", "--keep-going"])
        .output()
        .unwrap();
    let differ = " answers differ\n";
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let traced: Vec<&str> = stderr.lines().filter(|l| l.starts_with("search trace: ")).collect();
    assert_eq!(traced.len(), decided, "a line per answer: {stderr}");
    for (k, line) in traced.iter().enumerate() {
        assert!(line.contains(&format!("seat 1: tick {} ", k + 1)) && line.contains("(me)"), "{line}");
    }
    if out.status.code() == Some(1) {
        assert!(text(&out.stdout).ends_with(&format!(" of {decided}{differ}")), "{}", text(&out.stdout));
    }
    // The observation of tick 3 of the teed game, seat 0, is the line its bot was sent then.
    let lines: Vec<String> = std::fs::read_to_string(&sent).unwrap().lines().map(str::to_string).collect();
    let (_, dir) = play(&games[1], &["-r", "1", "-s", "4", "--width", "20", "--height", "16", "--time-ms", "500"]);
    let again: Vec<String> =
        std::fs::read_to_string(&sent).unwrap().lines().skip(lines.len()).map(str::to_string).collect();
    let out = lightcycles()
        .args(["replay", "feed"])
        .arg(dir.path().join("sim_0.json"))
        .args(["--seat", "0", "--observation", "3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // (The bot was also sent tick 1's observation once before the game, by the probe.)
    let tick_3: Vec<&String> = again.iter().filter(|l| l.starts_with("{\"tick\":3,")).collect();
    assert_eq!(tick_3, [text(&out.stdout).trim_end()]);
}
