//! What the bots said, per tick (the replay's `said`): a bot of every form
//! that has output writes known lines before each answer, and the replay
//! holds exactly those lines on exactly those ticks, the same on a second
//! run and at `-j 2`; a bot's lines are capped; `replay show` prints them;
//! `[metric]` lines reach the results file and the report; bots that say
//! nothing leave the replay as it was.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn run(args: &[&str]) -> std::process::Output {
    let mut command = lightcycles();
    command.args(args);
    let out = common::output_within(command, 300);
    assert!(
        out.status.success(),
        "{args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

/// Slow machines must not turn an answer into a timeout: the replays of
/// two runs are compared byte for byte.
const GENEROUS: [&str; 4] = ["--time-first-ms", "20000", "--time-ms", "10000"];

/// The cmd: bot (JSON lines): `hello` when it starts, then before each
/// answer `tick T` and `[metric] t=T` on stderr.
const CMD_BOT: &str = r#"
import json, sys
sys.stderr.write("hello\n"); sys.stderr.flush()
for line in sys.stdin:
    obs = json.loads(line)
    t = obs["tick"]
    sys.stderr.write("tick %d\n[metric] t=%d depth=7\n" % (t, t)); sys.stderr.flush()
    me = obs["players"][obs["you"]]
    moves = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    def run(d):
        dx, dy = moves[d]; x, y, n = me["x"] + dx, me["y"] + dy, 0
        while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
            n, x, y = n + 1, x + dx, y + dy
        return n
    sys.stdout.write(max(moves, key=run) + "\n"); sys.stdout.flush()
"#;

/// The tron2010: bot: it counts the boards it is sent.
const TRON_BOT: &str = r#"
import sys
sys.stderr.write("hello\n"); sys.stderr.flush()
t = 0
while True:
    header = sys.stdin.readline()
    if not header:
        break
    w, h = map(int, header.split())
    rows = [sys.stdin.readline().rstrip("\n").ljust(w)[:w] for _ in range(h)]
    t += 1
    sys.stderr.write("tick %d\n[metric] t=%d depth=7\n" % (t, t)); sys.stderr.flush()
    y = next(i for i, r in enumerate(rows) if "1" in r); x = rows[y].index("1")
    best, n = 1, -1
    for a, dx, dy in [(1, 0, -1), (2, 1, 0), (3, 0, 1), (4, -1, 0)]:
        k, cx, cy = 0, x + dx, y + dy
        while 0 <= cy < h and 0 <= cx < w and rows[cy][cx] == " ":
            k, cx, cy = k + 1, cx + dx, cy + dy
        if k > n:
            best, n = a, k
    sys.stdout.write("%d\n" % best); sys.stdout.flush()
"#;

/// The CodeClash bot: `print` and sys.stderr, both captured in-process.
const CODECLASH_BOT: &str = r#"
import sys
print("hello")
def get_move(obs):
    t = obs["tick"]
    print("tick %d" % t)
    print("[metric] t=%d depth=7" % t, file=sys.stderr)
    me = obs["players"][obs["you"]]
    moves = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    def run(d):
        dx, dy = moves[d]; x, y, n = me["x"] + dx, me["y"] + dy, 0
        while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
            n, x, y = n + 1, x + dx, y + dy
        return n
    return max(moves, key=run)
"#;

/// The C plugin, run isolated: its process's stderr.
const C_PLUGIN: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "lightcycles.h"
static const int DX[4] = {0, 1, 0, -1};
static const int DY[4] = {-1, 0, 1, 0};
static int empty(const LcObservation *obs, int x, int y) {
    return x >= 0 && y >= 0 && (uint32_t)x < obs->width && (uint32_t)y < obs->height &&
           obs->grid[(size_t)y * obs->width + (size_t)x] == -1;
}
static void *create(const LcObservation *first, uint64_t seed) {
    (void)first; (void)seed;
    fprintf(stderr, "hello\n"); fflush(stderr);
    return malloc(1);
}
static int32_t choose(void *bot, const LcObservation *obs) {
    (void)bot;
    fprintf(stderr, "tick %u\n[metric] t=%u depth=7\n", (unsigned)obs->tick, (unsigned)obs->tick);
    fflush(stderr);
    const LcPlayerView *me = (const LcPlayerView *)((const char *)obs->players + (size_t)obs->you * obs->player_size);
    int32_t best = (int32_t)me->dir; int best_run = -1;
    for (int d = 0; d < 4; d++) {
        int run = 0, x = (int)me->x + DX[d], y = (int)me->y + DY[d];
        while (empty(obs, x, y)) { run++; x += DX[d]; y += DY[d]; }
        if (run > best_run) { best = d; best_run = run; }
    }
    return best;
}
static void destroy(void *bot) { free(bot); }
static const LcBotV1 TABLE = {
    .struct_size = sizeof(LcBotV1), .abi_version = LC_BOT_ABI_VERSION, .name = "said",
    .create = create, .choose = choose, .destroy = destroy,
};
const LcBotV1 *lightcycles_bot_v1(void) { return &TABLE; }
"#;

/// The wasm bot: `lightcycles.log("hello")` in lc_new, `log("move")` in
/// each lc_move; it keeps its direction.
#[cfg(feature = "wasm")]
const WASM_BOT: &str = r#"(module
  (import "lightcycles" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)
  (data (i32.const 16) "hello")
  (data (i32.const 32) "move")
  (func (export "lc_abi_version") (result i32) i32.const 1)
  (func (export "lc_new") (param i64) (result i32) i32.const 16 i32.const 5 call $log i32.const 0)
  (func (export "lc_buffer") (param i32) (result i32) i32.const 1024)
  (func (export "lc_move") (param $ptr i32) (param $len i32) (result i32)
    i32.const 32 i32.const 4 call $log
    local.get $ptr
    local.get $ptr i32.load offset=16
    i32.const 20 i32.mul i32.add
    i32.load offset=48))"#;

/// What a bot of each form writes on tick `t`.
fn expected(form: &str, t: u64) -> Vec<String> {
    let mut lines = Vec::new();
    if t == 1 {
        lines.push("hello".to_string());
    }
    if form == "wasm" {
        lines.push("move".into());
    } else if form == "codeclash" {
        // print and sys.stderr share one stream, in the order written.
        lines.extend([format!("tick {t}"), format!("[metric] t={t} depth=7")]);
    } else {
        lines.extend([format!("tick {t}"), format!("[metric] t={t} depth=7")]);
    }
    lines
}

/// The bot of `form`, written into `dir`, as a spec and extra flags.
fn bot(form: &str, dir: &Path) -> (String, Vec<&'static str>) {
    match form {
        "cmd" => {
            std::fs::write(dir.join("cmd_bot.py"), CMD_BOT).unwrap();
            (format!("cmd:python3 {}", dir.join("cmd_bot.py").display()), vec![])
        }
        "tron2010" => {
            std::fs::write(dir.join("tron_bot.py"), TRON_BOT).unwrap();
            (format!("tron2010:python3 {}", dir.join("tron_bot.py").display()), vec![])
        }
        "codeclash" => {
            std::fs::create_dir_all(dir.join("cc")).unwrap();
            std::fs::write(dir.join("cc/main.py"), CODECLASH_BOT).unwrap();
            (dir.join("cc/main.py").display().to_string(), vec![])
        }
        "isolated" => {
            let source = dir.join("said.c");
            std::fs::write(&source, C_PLUGIN).unwrap();
            let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../include");
            let lib = dir.join("libsaid.so");
            let out = Command::new("gcc")
                .args(["-std=c11", "-fPIC", "-shared", "-Wall", "-Werror", "-O2", "-I"])
                .arg(&include)
                .arg(&source)
                .arg("-o")
                .arg(&lib)
                .output()
                .unwrap();
            assert!(out.status.success(), "gcc: {}", String::from_utf8_lossy(&out.stderr));
            (lib.display().to_string(), vec!["--isolate"])
        }
        #[cfg(feature = "wasm")]
        "wasm" => {
            let path = dir.join("said.wasm");
            std::fs::write(&path, wat::parse_str(WASM_BOT).unwrap()).unwrap();
            (format!("wasm:{}", path.display()), vec![])
        }
        other => panic!("no form {other}"),
    }
}

fn forms() -> Vec<&'static str> {
    let mut forms = vec!["cmd", "tron2010", "codeclash", "isolated"];
    if cfg!(feature = "wasm") {
        forms.push("wasm");
    }
    forms
}

/// Every replay written in `dir`, by file name, with its bytes.
fn replays(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    found.sort();
    found
}

fn play(spec: &str, extra: &[&str], jobs: &str, out: &Path) {
    let mut args = vec!["play", spec, "builtin:wallhug", "-r", "4", "-s", "5", "--width", "14", "--height", "12"];
    args.extend_from_slice(&GENEROUS);
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-j", jobs, "-o", out.to_str().unwrap()]);
    run(&args);
}

#[test]
fn every_form_says_its_lines_on_their_ticks_the_same_every_run() {
    for form in forms() {
        let dir = tempfile::tempdir().unwrap();
        let (spec, extra) = bot(form, dir.path());
        let (one, two) = (dir.path().join("one"), dir.path().join("two"));
        play(&spec, &extra, "1", &one);
        play(&spec, &extra, "2", &two);
        let (a, b) = (replays(&one), replays(&two));
        assert_eq!(a.len(), 4, "{form}: four games");
        for ((name, bytes), (name2, bytes2)) in a.iter().zip(&b) {
            assert_eq!(name, name2);
            assert!(bytes == bytes2, "{form}: {name} differs between -j 1 and -j 2");
            let replay: Value = serde_json::from_slice(bytes).unwrap();
            // Who the bot is in this game: the seat not named wallhug.
            let names = replay["names"].as_array().unwrap();
            let seat = names.iter().position(|n| n != "wallhug").unwrap() as u64;
            let ticks = replay["result"]["ticks"].as_u64().unwrap();
            let out = replay["result"]["eliminated_at"][seat as usize].as_u64().unwrap_or(ticks);
            let said = replay["said"].as_array().unwrap_or_else(|| panic!("{form}: {name} has no said"));
            let mut seen = Vec::new();
            for entry in said {
                assert_eq!(entry["player"], seat, "{form}: only the bot says anything: {entry}");
                let t = entry["tick"].as_u64().unwrap();
                let lines: Vec<String> =
                    entry["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect();
                assert_eq!(lines, expected(form, t), "{form}: {name}, tick {t}");
                assert!(entry.get("truncated").is_none());
                seen.push(t);
            }
            assert_eq!(seen, (1..=out).collect::<Vec<_>>(), "{form}: {name}: every tick it was asked, once");
            // The replay still verifies, and older readers' fields are as they were.
            let file = one.join(name);
            let verified = run(&["replay", "verify", file.to_str().unwrap()]);
            assert!(String::from_utf8_lossy(&verified.stdout).contains(": ok ("), "{form}");
        }
        // The logs keep working as before: the lines are there too.
        let log = std::fs::read_dir(one.join("logs"))
            .unwrap()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect::<String>();
        assert!(log.contains("hello"), "{form}: the log has what the bot wrote: {log}");
    }
}

#[test]
fn silent_bots_leave_the_replay_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let mut args = vec!["play", "builtin:floodfill", "builtin:wallhug", "-r", "2", "-s", "3", "-o"];
    args.push(out.to_str().unwrap());
    run(&args);
    for (name, bytes) in replays(&out) {
        let text = String::from_utf8(bytes).unwrap();
        assert!(!text.contains("\"said\""), "{name}");
    }
    // A program that writes nothing to stderr adds nothing either.
    let quiet = dir.path().join("quiet.py");
    std::fs::write(&quiet, CMD_BOT.replace("sys.stderr.write", "len")).unwrap();
    let out = dir.path().join("quiet");
    let spec = format!("cmd:python3 {}", quiet.display());
    play(&spec, &[], "1", &out);
    for (name, bytes) in replays(&out) {
        assert!(!String::from_utf8(bytes).unwrap().contains("\"said\""), "{name}");
    }
}

#[test]
fn a_tick_keeps_4_kib_and_marks_the_cut_and_control_bytes_stay_data() {
    let dir = tempfile::tempdir().unwrap();
    let flood = dir.path().join("flood.py");
    let body = CMD_BOT.replace(
        r#"sys.stderr.write("tick %d\n[metric] t=%d depth=7\n" % (t, t)); sys.stderr.flush()"#,
        r#"sys.stderr.buffer.write(b"\x1b[2J\xff" + b"x" * 5000 + b"\n"); sys.stderr.flush()"#,
    );
    assert_ne!(body, CMD_BOT);
    std::fs::write(&flood, body).unwrap();
    let out = dir.path().join("games");
    let spec = format!("cmd:python3 {}", flood.display());
    let mut args = vec!["play", &spec, "builtin:wallhug", "-r", "1", "-s", "5", "--width", "14", "--height", "12"];
    args.extend_from_slice(&GENEROUS);
    args.extend_from_slice(&["-o", out.to_str().unwrap()]);
    run(&args);
    let file = out.join("sim_0.json");
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let said = replay["said"].as_array().unwrap();
    assert!(said.len() >= 2);
    for entry in said {
        assert_eq!(entry["truncated"], true, "{entry}");
        let kept: usize = entry["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().len() + 1).sum();
        // 4096 bytes kept; the invalid byte became U+FFFD (3 bytes for 1).
        assert!(kept <= 4096 + 2 + 3, "{kept}");
    }
    let t2 = said.iter().find(|e| e["tick"] == 2).unwrap();
    let line = t2["lines"][0].as_str().unwrap();
    assert!(line.starts_with("\u{1b}[2J\u{fffd}xxx"), "kept as data: {line:?}");
    // replay show escapes it.
    let shown = run(&["replay", "show", file.to_str().unwrap(), "--tick", "2"]);
    let text = String::from_utf8(shown.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "no escape reaches the terminal");
    assert!(text.contains("said on tick 2:\n"), "{text}");
    assert!(text.contains(": \\u{1b}[2J\u{fffd}xxx"), "{text}");
    assert!(text.contains("[cut: more was written than is kept]"), "{text}");
}

#[test]
fn replay_show_prints_the_lines_of_its_tick() {
    let dir = tempfile::tempdir().unwrap();
    let (spec, extra) = bot("cmd", dir.path());
    let out = dir.path().join("games");
    play(&spec, &extra, "1", &out);
    let file = out.join("sim_0.json");
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let seat = replay["names"].as_array().unwrap().iter().position(|n| n != "wallhug").unwrap();
    let name = replay["names"][seat].as_str().unwrap();
    let shown = run(&["replay", "show", file.to_str().unwrap(), "--tick", "3"]);
    let text = String::from_utf8(shown.stdout).unwrap();
    let block = text.split_once("said on tick 3:\n").map(|(_, b)| b).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(block, format!("  {seat}  {name}: tick 3\n  {seat}  {name}: [metric] t=3 depth=7\n"));
    let start = run(&["replay", "show", file.to_str().unwrap(), "--tick", "0"]);
    assert!(!String::from_utf8(start.stdout).unwrap().contains("said on"), "nothing is said before tick 1");
}

/// The bot's metrics in a tournament: `t` is the tick, `depth` always 7,
/// so the report's figures can be worked out from the replays by hand.
#[test]
fn metrics_reach_the_results_file_and_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let (spec, _) = bot("cmd", dir.path());
    let results = dir.path().join("t.jsonl");
    let report = dir.path().join("t.json");
    let mut args =
        vec!["tournament", &spec, "builtin:wallhug", "-g", "4", "-s", "5", "--width", "14", "--height", "12"];
    args.extend_from_slice(&GENEROUS);
    let (r, p) = (results.to_str().unwrap().to_string(), report.to_str().unwrap().to_string());
    args.extend_from_slice(&["--results", &r, "--report", &p]);
    let shown = run(&args);
    let text = std::fs::read_to_string(&results).unwrap();
    let mut ticks_asked = Vec::new();
    for line in text.lines().skip(1) {
        let game: Value = serde_json::from_str(line).unwrap();
        let seat = game["seats"].as_array().unwrap().iter().position(|s| s == 0).unwrap();
        let m = &game["metrics"][seat];
        let n = m["t"]["n"].as_u64().unwrap();
        // The bot is asked every tick until it is out: t = 1, 2, … n.
        assert_eq!(m["t"]["sum"].as_f64().unwrap(), (n * (n + 1) / 2) as f64, "{line}");
        assert_eq!(m["t"]["max"].as_f64().unwrap(), n as f64);
        assert_eq!(m["depth"], serde_json::json!({"n": n, "sum": 7.0 * n as f64, "max": 7.0}));
        assert!(game["metrics"][1 - seat].as_object().unwrap().is_empty(), "wallhug says nothing");
        ticks_asked.push(n);
    }
    assert_eq!(ticks_asked.len(), 4);
    let total: u64 = ticks_asked.iter().sum();
    let sum_t: u64 = ticks_asked.iter().map(|n| n * (n + 1) / 2).sum();
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let bot = &report["bots"][0];
    assert_eq!(bot["metrics"]["depth"], serde_json::json!({"ticks": total, "mean": 7.0, "max": 7.0}));
    assert_eq!(bot["metrics"]["t"]["ticks"], total);
    assert!((bot["metrics"]["t"]["mean"].as_f64().unwrap() - sum_t as f64 / total as f64).abs() < 1e-12);
    assert_eq!(bot["metrics"]["t"]["max"].as_f64().unwrap(), *ticks_asked.iter().max().unwrap() as f64);
    assert!(report["bots"][1].get("metrics").is_none(), "absent for a bot without metrics");
    let table = String::from_utf8(shown.stdout).unwrap();
    assert!(table.contains("metric"), "{table}");
    assert!(
        table.lines().any(|l| l.contains("depth") && l.contains(&total.to_string()) && l.contains(" 7 ")),
        "{table}"
    );
    // The page of `tournament report` has the table.
    let page = dir.path().join("t.html");
    run(&["tournament", "report", results.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<table id=\"metrics\">") && html.contains("<td class=\"metric\">depth</td>"),
        "metrics table"
    );
    // And the file resumes: nothing is played again, the report is the same.
    args.push("--resume");
    let again = run(&args);
    assert_eq!(std::fs::read_to_string(&results).unwrap(), text, "resumed unchanged");
    assert_eq!(String::from_utf8(again.stdout).unwrap(), table);
}
