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

/// The example crate `package` built for wasm32-unknown-unknown (in a
/// target folder of its own, so that the build does not wait on the one
/// running the tests), as its `.wasm`; `None`, with a note, where the
/// target is not installed, except under `CI=true`, where that fails.
fn built(package: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let target_dir = root.join("target").join("wasm-guests");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["build", "--release", "-p", package, "--target", "wasm32-unknown-unknown", "--target-dir"])
        .arg(&target_dir)
        .current_dir(&root)
        .output()
        .expect("cargo runs");
    if !out.status.success() {
        let why = text(&out.stderr);
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "CI=true: {package} must build for wasm (rustup target add wasm32-unknown-unknown): {why}");
        eprintln!("skipped: {package} does not build for wasm32-unknown-unknown here: {why}");
        return None;
    }
    Some(target_dir.join(format!("wasm32-unknown-unknown/release/{}.wasm", package.replace('-', "_"))))
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
                "wasi",
                &module(1, "i32.const 0").replace(
                    "(module",
                    r#"(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#,
                ),
            ),
            "imports wasi_snapshot_preview1.fd_write, which a wasm bot is not given",
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
fn the_c_example_built_with_clang_plays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("c_bot.wasm");
    let built = Command::new("clang")
        .args(["--target=wasm32", "-O2", "-Wall", "-nostdlib", "-Wl,--no-entry", "-Wl,--export-dynamic", "-o"])
        .arg(&wasm)
        .arg(root.join("examples/wasm-c-bot/bot.c"))
        .output();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    match built {
        Ok(out) if out.status.success() => {}
        other => {
            let why = match other {
                Ok(out) => text(&out.stderr),
                Err(e) => format!("cannot run clang: {e}"),
            };
            assert!(!ci, "CI=true: examples/wasm-c-bot must build with clang and lld: {why}");
            eprintln!("skipped: examples/wasm-c-bot does not build here: {why}");
            return;
        }
    }
    let spec = format!("wasm:{}", wasm.display());
    let out = ok(&["play", &spec, "builtin:random", "-r", "4", "--fuel-per-tick", "100000"]);
    let shown = text(&out.stdout);
    assert!(shown.contains("FINAL_RESULTS") && shown.contains("c_bot"), "{shown}");
    assert!(!text(&out.stderr).contains("timed out"), "{}", text(&out.stderr));
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
