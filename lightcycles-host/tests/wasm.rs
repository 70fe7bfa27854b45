//! wasm:PATH.wasm bots through the CLI: the example bot (examples/wasm-bot,
//! built here for wasm32-unknown-unknown) plays matches and tournaments
//! that come out byte for byte the same twice under fuel; used-up fuel is
//! a timeout, a trap a crash, an endless loop is stopped by fuel or by the
//! clock; modules that break the ABI are refused before game 0, naming
//! what is wrong.
#![cfg(feature = "wasm")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

fn lightcycles(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lightcycles"));
    command.args(args);
    command
}

fn run(args: &[&str]) -> Output {
    common::output_within(lightcycles(args), 120)
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The example crate `package` built for wasm32-unknown-unknown, as its
/// `.wasm` (see [`built_for`]).
fn built(package: &str) -> Option<PathBuf> {
    built_for(package, "wasm32-unknown-unknown")
}

/// The example crate `package` built for `target` (in a target folder of
/// its own, so that the build does not wait on the one running the tests),
/// as its `.wasm`; `None`, with a note, where the target is not installed,
/// except under `CI=true`, where that fails.
fn built_for(package: &str, target: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let target_dir = root.join("target").join("wasm-guests");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["build", "--profile", "wasm-guest", "-p", package, "--target", target, "--target-dir"])
        .arg(&target_dir)
        .current_dir(&root)
        .output()
        .expect("cargo runs");
    if !out.status.success() {
        let why = text(&out.stderr);
        assert!(!ci(), "CI=true: {package} must build for {target} (rustup target add {target}): {why}");
        eprintln!("skipped: {package} does not build for {target} here: {why}");
        return None;
    }
    Some(target_dir.join(format!("{target}/wasm-guest/{}.wasm", package.replace('-', "_"))))
}

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// `source` built with Debian's clang into `out` with `flags`; `None`, with
/// a note, where clang (with lld, and wasi-libc for `--target=wasm32-wasi`)
/// is missing, except under `CI=true`, where that fails.
fn clang(source: &Path, out: &Path, flags: &[&str]) -> Option<PathBuf> {
    let built = Command::new("clang").args(flags).args(["-O2", "-Wall", "-Werror", "-o"]).arg(out).arg(source).output();
    match built {
        Ok(o) if o.status.success() => Some(out.to_path_buf()),
        other => {
            let why = match other {
                Ok(o) => text(&o.stderr),
                Err(e) => format!("cannot run clang: {e}"),
            };
            assert!(!ci(), "CI=true: {} must build with clang {flags:?}: {why}", source.display());
            eprintln!("skipped: {} does not build here with clang {flags:?}: {why}", source.display());
            None
        }
    }
}

/// The clang flags of a WASI reactor built with wasi-libc.
const WASI_LIBC: &[&str] = &["--target=wasm32-wasi", "-mexec-model=reactor"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// examples/wasm-bot, built once per test run.
fn example_bot() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT.get_or_init(|| built("wasm-bot")).clone()
}

/// A module of the guest ABI with `lc_move` doing `body`, and
/// `lc_abi_version` returning `version`, written as text.
fn module(version: i32, body: &str) -> String {
    format!(
        r#"(module
  (memory (export "memory") 2)
  (func (export "lc_abi_version") (result i32) i32.const {version})
  (func (export "lc_new") (param i64) (result i32) i32.const 0)
  (func (export "lc_buffer") (param i32) (result i32) i32.const 1024)
  (func (export "lc_move") (param $ptr i32) (param $len i32) (result i32) {body}))"#
    )
}

/// The direction the deciding player rides, read from the record: a bot
/// that keeps going and says so.
const KEEP_GOING: &str = "local.get $ptr
    local.get $ptr i32.load offset=16
    i32.const 20 i32.mul i32.add
    i32.load offset=48";

/// Writes the module text `wat` as `dir/name.wasm`.
fn write_module(dir: &Path, name: &str, wat: &str) -> String {
    let path = dir.join(format!("{name}.wasm"));
    std::fs::write(&path, wat::parse_str(wat).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// The game lines of a results file, by game index.
fn games(file: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut games: Vec<Value> = text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
    games.sort_by_key(|g| g["game"].as_u64().unwrap());
    games
}

/// The faults of kind `kind` of bot `bot` in `game`.
fn faults(game: &Value, bot: u64, kind: &str) -> u64 {
    let seat = game["seats"].as_array().unwrap().iter().position(|s| s.as_u64() == Some(bot)).unwrap();
    game["faults"][seat][kind].as_u64().unwrap()
}

/// Every file under `dir` with its bytes, by relative path.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    found.sort();
    found
}

#[test]
fn the_example_bot_plays_a_match_and_the_same_seeds_give_the_same_bytes() {
    let Some(bot) = example_bot() else { return };
    let bot = bot.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let play = |out: &str| {
        let o = dir.path().join(out);
        let o = o.to_str().unwrap();
        let spec = format!("wasm:{bot}");
        ok(&["play", &spec, "builtin:floodfill", "-r", "3", "--fuel-per-tick", "5000000", "-o", o]).stdout
    };
    let (first, second) = (play("a"), play("b"));
    let shown = text(&first);
    assert!(shown.contains("FINAL_RESULTS") && shown.contains("wasm_bot"), "{shown}");
    assert_eq!(first, second, "the same lines");
    let (a, b) = (files(&dir.path().join("a")), files(&dir.path().join("b")));
    assert_eq!(a.len(), 3, "three replays");
    assert_eq!(a, b, "byte-identical replays");
    for (name, bytes) in &a {
        let replay: Value = serde_json::from_slice(bytes).unwrap();
        let answers = replay.to_string();
        assert!(!answers.contains("\"timeout\"") && !answers.contains("\"crash\""), "{name}: a fault");
    }
    let verify = dir.path().join("a").join("sim_0.json");
    ok(&["replay", "verify", verify.to_str().unwrap()]);
}

#[test]
fn under_fuel_a_time_bank_is_spent_by_fuel_alike_on_every_run() {
    let Some(bot) = example_bot() else { return };
    let bot = format!("wasm:{}", bot.display());
    let dir = tempfile::tempdir().unwrap();
    // So little fuel a tick that the bot's answers need its bank: what
    // each spends is its fuel, so every run tells it the same banks.
    let play = |out: &str| {
        let o = dir.path().join(out);
        let args = ["play", &bot, "builtin:wallhug", "-r", "1", "--width", "24", "--height", "20", "--max-ticks", "30"];
        let fuel = ["--fuel-per-tick", "20000", "--time-bank-ms", "100000", "-o", o.to_str().unwrap()];
        ok(&[&args[..], &fuel[..]].concat());
        std::fs::read(o.join("sim_0.json")).unwrap()
    };
    let (a, b) = (play("a"), play("b"));
    assert_eq!(a, b, "byte-identical replays, banks included");
    let replay: Value = serde_json::from_slice(&a).unwrap();
    let told: Vec<u64> = replay["time_banks"].as_array().unwrap().iter().map_while(|r| r[0].as_u64()).collect();
    assert!(told.len() > 3 && told[0] == 100_000, "{told:?}");
    assert!(told.windows(2).all(|w| w[1] <= w[0]) && told.last() < told.first(), "spent: {told:?}");
    assert!(!replay.to_string().contains("\"timeout\""), "the bank covers it");
}

#[test]
fn a_tournament_of_wasm_bots_twice_gives_byte_identical_results_and_replays() {
    let Some(bot) = example_bot() else { return };
    let dir = tempfile::tempdir().unwrap();
    let keep = write_module(dir.path(), "keep", &module(1, KEEP_GOING));
    let room = format!("room={}", bot.display());
    let room2 = format!("room2={}", bot.display());
    let run_once = |name: &str, jobs: &str| {
        let results = dir.path().join(format!("{name}.jsonl"));
        let out = dir.path().join(name);
        ok(&[
            "tournament",
            &room,
            &room2,
            &keep,
            "-g",
            "2",
            "-j",
            jobs,
            "--fuel-per-tick",
            "5000000",
            "--width",
            "24",
            "--height",
            "20",
            "--results",
            results.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        let text = std::fs::read_to_string(&results).unwrap();
        (text.replace(&out.display().to_string(), "DIR"), files(&out))
    };
    let (r1, f1) = run_once("one", "1");
    let (r2, f2) = run_once("two", "1");
    assert_eq!(r1, r2, "the same results file, but for the folder named in it");
    assert_eq!(f1.len(), 6);
    assert_eq!(f1, f2, "byte-identical replays");
    // Two games at a time: the lines come in the order games end, and
    // each line and replay is the same.
    let (r3, f3) = run_once("three", "2");
    let sorted = |r: &str| {
        let mut lines: Vec<&str> = r.lines().collect();
        lines.sort();
        lines.join("\n")
    };
    assert_eq!(sorted(&r1), sorted(&r3));
    assert_eq!(f1, f3, "byte-identical replays with -j 2");
}

#[test]
fn used_up_fuel_is_a_timeout_and_a_trap_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let spin = write_module(dir.path(), "spin", &module(1, "(loop $l (br $l)) i32.const 0"));
    let trap = write_module(dir.path(), "trap", &module(1, "unreachable"));
    let results = dir.path().join("r.jsonl");
    ok(&[
        "tournament",
        &spin,
        &trap,
        "--allow-broken",
        "-g",
        "2",
        "--max-ticks",
        "5",
        "--fuel-per-tick",
        "100000",
        "--results",
        results.to_str().unwrap(),
        "-o",
        dir.path().join("games").to_str().unwrap(),
    ]);
    for game in games(&results) {
        let ticks = game["ticks"].as_u64().unwrap();
        assert_eq!((faults(&game, 0, "timeout"), faults(&game, 0, "crash")), (ticks, 0), "spin: {game}");
        assert_eq!((faults(&game, 1, "timeout"), faults(&game, 1, "crash")), (0, ticks), "trap: {game}");
    }
    let logs = dir.path().join("games").join("logs");
    let log = |name: &str| std::fs::read_to_string(logs.join(name)).unwrap();
    assert!(log("0-0-spin.log").contains("tick 1: lc_move: used up its fuel (2000000)"), "{}", log("0-0-spin.log"));
    assert!(log("0-1-trap.log").contains("tick 1: lc_move: trapped"), "{}", log("0-1-trap.log"));
}

#[test]
fn an_endless_loop_is_stopped_by_the_clock_without_fuel_and_by_the_backstop_with_too_much() {
    let dir = tempfile::tempdir().unwrap();
    let spin = write_module(dir.path(), "spin", &module(1, "(loop $l (br $l)) i32.const 0"));
    let results = dir.path().join("clock.jsonl");
    let start = std::time::Instant::now();
    let board = ["--allow-broken", "--max-ticks", "4", "--time-first-ms", "100", "--time-ms", "20", "-g", "2"];
    ok(&[&["tournament", &spin, "builtin:straight", "--results", results.to_str().unwrap()][..], &board].concat());
    for game in games(&results) {
        assert!(faults(&game, 0, "timeout") >= 1, "{game}");
    }
    // Fuel enough for hours: the wall clock stops each tick at 10 times its
    // limit plus 1 s.
    let results = dir.path().join("backstop.jsonl");
    let spec = format!("spin={spin}");
    ok(&[
        &["tournament", &spec, "builtin:straight", "--results", results.to_str().unwrap()][..],
        &["--fuel-per-tick", "1000000000000000"],
        &board,
    ]
    .concat());
    for game in games(&results) {
        assert!(faults(&game, 0, "timeout") >= 1, "{game}");
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(60), "stopped in time: {:?}", start.elapsed());
}

#[test]
fn modules_that_break_the_abi_are_refused_before_game_0() {
    let dir = tempfile::tempdir().unwrap();
    let bad_bytes = dir.path().join("junk.wasm");
    std::fs::write(&bad_bytes, b"\0asm\x01\0\0\0garbage").unwrap();
    let not_wasm = dir.path().join("text.wasm");
    std::fs::write(&not_wasm, b"hello").unwrap();
    let cases = [
        (bad_bytes.to_str().unwrap().to_string(), "is not a valid WebAssembly module"),
        (not_wasm.to_str().unwrap().to_string(), "is not a WebAssembly module (no \\0asm at its start)"),
        (dir.path().join("none.wasm").to_str().unwrap().to_string(), "cannot read"),
        (
            write_module(dir.path(), "v2", &module(2, "i32.const 0")),
            "speaks wasm bot ABI version 2, this host version 1",
        ),
        (
            write_module(dir.path(), "nomove", &module(1, "i32.const 0").replace("\"lc_move\"", "\"other\"")),
            "exports no function lc_move(i32, i32) -> (i32)",
        ),
        (
            write_module(
                dir.path(),
                "wrongtype",
                &module(1, "i32.const 0").replace("(param i64) (result i32) i32.const 0", "(result i32) i32.const 0"),
            ),
            "exports lc_new as () -> (i32), but the ABI has lc_new(i64) -> (i32)",
        ),
        (
            write_module(
                dir.path(),
                "env",
                &module(1, "i32.const 0").replace("(module", r#"(module (import "env" "getpid" (func (result i32)))"#),
            ),
            "imports env.getpid, which a wasm bot is not given",
        ),
        (
            write_module(
                dir.path(),
                "wasi_unstable",
                &module(1, "i32.const 0").replace(
                    "(module",
                    r#"(module (import "wasi_unstable" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#,
                ),
            ),
            "imports wasi_unstable.fd_write, which a wasm bot is not given",
        ),
        (
            write_module(
                dir.path(),
                "sock_open",
                &module(1, "i32.const 0").replace(
                    "(module",
                    r#"(module (import "wasi_snapshot_preview1" "sock_open" (func (param i32 i32 i32) (result i32)))"#,
                ),
            ),
            "imports wasi_snapshot_preview1.sock_open, which a wasm bot is not given",
        ),
        (
            write_module(
                dir.path(),
                "command",
                &module(1, "i32.const 0").replace("(module", r#"(module (func (export "_start"))"#),
            ),
            "exports _start: it is a WASI command",
        ),
        (
            write_module(dir.path(), "nomemory", &module(1, "i32.const 0").replace("(export \"memory\")", "")),
            "exports no memory called \"memory\"",
        ),
        ("wasm:".to_string(), "wasm: needs the path of a .wasm file after the colon"),
    ];
    for (spec, message) in cases {
        let out = run(&["play", &spec, "builtin:random"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{spec}: {err}");
        assert!(err.contains(message), "{spec}: expected {message:?} in {err}");
        assert!(!text(&out.stdout).contains("game 0"), "{spec}: no game played");
    }
}

#[test]
fn memory_past_the_cap_fails_inside_the_bot() {
    let dir = tempfile::tempdir().unwrap();
    // Grows its memory by 64 MiB each tick; a grow that fails returns -1,
    // and the bot traps then.
    let grow = module(1, "i32.const 1024 memory.grow i32.const -1 i32.eq (if (then unreachable)) i32.const 0");
    let grower = write_module(dir.path(), "grower", &grow);
    let results = dir.path().join("r.jsonl");
    let args = ["--max-ticks", "6", "-g", "2", "--bot-memory-mb", "200", "--results", results.to_str().unwrap()];
    ok(&[&["tournament", &grower, "builtin:straight"][..], &args].concat());
    for game in &games(&results) {
        // 200 MiB hold three grows of 64 MiB; the fourth fails and the bot
        // traps; the next tick starts a fresh instance, which grows twice more.
        assert_eq!(faults(game, 0, "crash"), 1, "{game}");
    }
}

#[test]
fn the_search_bot_built_for_wasm_plays_the_games_of_builtin_search_with_its_node_budget() {
    // Without fuel, examples/wasm-search-bot searches 1,000 nodes an
    // answer: the host's search code, so the moves of builtin:search:nodes=1000.
    let Some(search) = built("wasm-search-bot") else { return };
    let dir = tempfile::tempdir().unwrap();
    let board = ["-r", "2", "--width", "16", "--height", "12", "--time-ms", "60000", "--time-first-ms", "60000"];
    let play = |spec: &str, out: &str| {
        let o = dir.path().join(out);
        let named = format!("search={spec}");
        let args = [&["play", named.as_str(), "builtin:floodfill", "-o", o.to_str().unwrap()][..], &board].concat();
        let stdout = ok(&args).stdout;
        (stdout, files(&o))
    };
    let native = play("builtin:search:nodes=1000", "native");
    let wasm = play(&format!("wasm:{}", search.display()), "wasm");
    assert_eq!(text(&native.0), text(&wasm.0));
    assert_eq!(native.1, wasm.1, "byte-identical replays");
}

#[test]
fn the_c_example_built_with_clang_plays_without_a_c_library() {
    let dir = tempfile::tempdir().unwrap();
    let source = repo_root().join("examples/wasm-c-bot/bot.c");
    let flags = ["--target=wasm32", "-nostdlib", "-Wl,--no-entry"];
    let Some(wasm) = clang(&source, &dir.path().join("c_bot.wasm"), &flags) else { return };
    let spec = format!("wasm:{}", wasm.display());
    let out = ok(&["play", &spec, "builtin:random", "-r", "4", "--fuel-per-tick", "100000"]);
    let shown = text(&out.stdout);
    assert!(shown.contains("FINAL_RESULTS") && shown.contains("c_bot"), "{shown}");
    assert!(!text(&out.stderr).contains("timed out"), "{}", text(&out.stderr));
}

/// The text of every log under `dir/logs` whose name holds `name`.
fn logs_of(dir: &Path, name: &str) -> String {
    let logs = dir.join("logs");
    let mut found: Vec<(String, Vec<u8>)> = files(&logs).into_iter().filter(|(n, _)| n.contains(name)).collect();
    found.sort();
    found.iter().map(|(n, b)| format!("== {n}\n{}", text(b))).collect()
}

#[test]
fn the_c_example_built_with_wasi_libc_plays_and_its_stderr_reaches_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let source = repo_root().join("examples/wasm-c-bot/bot.c");
    let Some(wasm) = clang(&source, &dir.path().join("c_bot.wasm"), WASI_LIBC) else { return };
    let spec = format!("wasm:{}", wasm.display());
    let games = dir.path().join("games");
    let out = ok(&[
        "play",
        &spec,
        "builtin:floodfill",
        "-r",
        "4",
        "--fuel-per-tick",
        "1000000",
        "-o",
        games.to_str().unwrap(),
    ]);
    assert!(text(&out.stdout).contains("c_bot"), "{}", text(&out.stdout));
    // It turns when the cell ahead is taken, in every game, and says so on
    // stderr: a line of its log, with nothing of the host's about a fault.
    let logs = logs_of(&games, "c_bot");
    assert!(logs.matches("== ").count() >= 4, "a log a game: {logs}");
    assert!(logs.contains(": blocked ahead") || logs.contains(": boxed in"), "{logs}");
    assert!(logs.lines().any(|l| l.starts_with("tick ") && l.contains(", riding ")), "{logs}");
    assert!(!logs.contains("[lightcycles]"), "no fault: {logs}");
}

#[test]
fn the_rust_example_built_for_wasm32_wasip1_plays_and_its_stderr_reaches_its_log() {
    let Some(bot) = built_for("wasm-bot", "wasm32-wasip1") else { return };
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    let spec = format!("wasm:{}", bot.display());
    let out = ok(&[
        "play",
        &spec,
        "builtin:floodfill",
        "-r",
        "2",
        "--fuel-per-tick",
        "5000000",
        "-o",
        games.to_str().unwrap(),
    ]);
    assert!(text(&out.stdout).contains("wasm_bot"), "{}", text(&out.stdout));
    let logs = logs_of(&games, "wasm_bot");
    assert_eq!(logs.matches("wasm-bot: seed ").count(), 2, "eprintln! in each game's log: {logs}");
}

#[test]
fn wasi_bots_are_sandboxed_and_a_tournament_of_them_under_fuel_is_the_same_twice() {
    // The probe reads both clocks and the random source every tick, logs
    // them and lets them choose its move: the games, the results and the
    // logs are the same twice only if all three are deterministic.
    let dir = tempfile::tempdir().unwrap();
    let source = repo_root().join("lightcycles-host/tests/bots/wasi_probe.c");
    let Some(probe) = clang(&source, &dir.path().join("probe.wasm"), WASI_LIBC) else { return };
    let (a, b) = (format!("a={}", probe.display()), format!("b={}", probe.display()));
    let run_once = |name: &str| {
        let results = dir.path().join(format!("{name}.jsonl"));
        let out = dir.path().join(name);
        ok(&[
            "tournament",
            &a,
            &b,
            "builtin:floodfill",
            "-g",
            "2",
            "-j",
            "1",
            "--fuel-per-tick",
            "2000000",
            "--width",
            "20",
            "--height",
            "16",
            "--results",
            results.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        let text = std::fs::read_to_string(&results).unwrap();
        (text.replace(&out.display().to_string(), "DIR"), files(&out), files(&out.join("logs")))
    };
    let (r1, f1, l1) = run_once("one");
    let (r2, f2, l2) = run_once("two");
    assert_eq!(r1, r2, "the same results");
    assert_eq!(f1.len(), 6);
    assert_eq!(f1, f2, "byte-identical replays");
    assert_eq!(l1, l2, "byte-identical logs: the same clock readings and random bytes");
    let logs = logs_of(&dir.path().join("one"), "");
    for refused in ["open /etc/passwd: ", "opendir /: ", "nanosleep: "] {
        let line = logs.lines().find(|l| l.starts_with(refused)).unwrap_or_else(|| panic!("{refused} in {logs}"));
        assert!(!line.ends_with("opened") && !line.ends_with("slept"), "{line}");
    }
    assert!(logs.contains("HOME: (none)"), "{logs}");
    assert!(!logs.contains("[lightcycles]"), "no fault: {logs}");
    // The virtual clock: 0 when the game starts, then the limits of the
    // answers before and the fuel spent, as time; realtime reads the same
    // clock (a little later: it is read after the monotonic one).
    let readings: Vec<(u64, u64)> = logs
        .lines()
        .filter(|l| l.starts_with("tick "))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            (words[3].parse().unwrap(), words[5].parse().unwrap())
        })
        .collect();
    assert!(readings.len() > 10, "{logs}");
    assert!(readings.iter().all(|&(mono, real)| mono > 0 && real >= mono && real - mono < 100_000), "{readings:?}");
    // The second answer starts after the first tick's limit (1 s): the
    // limits of the answers before, added up.
    assert!(readings[0].0 < 1_000_000_000 && readings[1].0 > 1_000_000_000, "{readings:?}");
}

#[test]
fn proc_exit_is_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let exits = module(1, "i32.const 3 call $exit i32.const 0")
        .replace("(module", r#"(module (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))"#);
    let exits = write_module(dir.path(), "exits", &exits);
    let results = dir.path().join("r.jsonl");
    let out_dir = dir.path().join("games");
    ok(&[
        "tournament",
        &exits,
        "builtin:straight",
        "--allow-broken",
        "-g",
        "2",
        "--max-ticks",
        "4",
        "--fuel-per-tick",
        "100000",
        "--results",
        results.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    for game in games(&results) {
        let ticks = game["ticks"].as_u64().unwrap();
        assert_eq!((faults(&game, 0, "crash"), faults(&game, 0, "timeout")), (ticks, 0), "{game}");
    }
    let logs = logs_of(&out_dir, "exits");
    assert!(logs.contains("tick 1: lc_move: called proc_exit(3)"), "{logs}");
}

#[test]
fn the_start_lc_new_and_the_first_move_share_the_first_ticks_fuel() {
    // $burn costs 7 units an iteration: 10,000 iterations are about 70,000.
    let burner = |move_burns: bool| {
        format!(
            r#"(module
  (memory (export "memory") 2)
  (func $burn (param $n i32) (local $i i32)
    (loop $l local.get $i i32.const 1 i32.add local.tee $i local.get $n i32.lt_u br_if $l))
  (func (export "lc_abi_version") (result i32) i32.const 1)
  (func (export "lc_new") (param i64) (result i32) i32.const 10000 call $burn i32.const 0)
  (func (export "lc_buffer") (param i32) (result i32) i32.const 1024)
  (func (export "lc_move") (param i32 i32) (result i32) {} i32.const -1))"#,
            if move_burns { "i32.const 10000 call $burn" } else { "" }
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let both = write_module(dir.path(), "both", &burner(true));
    let start_only = write_module(dir.path(), "start_only", &burner(false));
    let results = dir.path().join("r.jsonl");
    // The first tick has 100,000 units, as every tick: enough for either
    // burn, not for both.
    let board = ["--allow-broken", "-g", "2", "--max-ticks", "3", "--time-first-ms", "50", "--fuel-per-tick", "100000"];
    ok(&[&["tournament", &both, &start_only, "--results", results.to_str().unwrap()][..], &board].concat());
    for game in games(&results) {
        let ticks = game["ticks"].as_u64().unwrap();
        assert_eq!(faults(&game, 0, "timeout"), ticks, "lc_new and lc_move on one budget: {game}");
        assert_eq!(faults(&game, 1, "timeout"), 0, "{game}");
    }
}
