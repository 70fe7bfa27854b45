//! Every file the `lightcycles` CLI reads, of any size and content: a
//! replay (`replay verify`, `replay show`, `view`), a map (`--map`) and a
//! results file (`tournament --resume`), truncated, huge, deeply nested,
//! with wrong types, negative or enormous numbers, bytes that are not
//! UTF-8, a 2 GB file (sparse: nothing is written), a FIFO or a directory
//! in its place. Each is refused with exit code 2 and a message that names
//! the file and what is wrong, never a panic, never a wait, in bounded
//! memory (checked under an address-space limit), and with no control
//! character from the file reaching the terminal. Names a bot can show
//! keep to the spec grammar on every path.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const SIM: &str = include_str!("../../lightcycles-core/tests/golden-replays/sim_0.json");
const MAP_2010: &str =
    "10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n";

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

/// Runs `lightcycles args`, killing it if it is still running after 60 s
/// (a FIFO read would wait forever).
fn run(args: &[&str]) -> Output {
    let mut command = lightcycles();
    command.args(args);
    common::output_within(command, 60)
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs `args`, expecting exit 2 and each of `expected` in stderr, with no
/// panic and no control character but line breaks.
fn refused(args: &[&str], expected: &[&str]) -> String {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for e in expected {
        assert!(err.contains(e), "{args:?}: expected {e:?} in {err:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "a control character reached stderr: {err:?}");
    err
}

fn with(text: &str, pointer: &str, value: Value) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    *v.pointer_mut(pointer).unwrap() = value;
    v.to_string()
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// A file of `len` bytes that takes no space: zeros, or after `start`.
fn sparse(dir: &Path, name: &str, start: &[u8], len: u64) -> String {
    let path = dir.join(name);
    std::fs::write(&path, start).unwrap();
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(len).unwrap();
    path.to_str().unwrap().to_string()
}

fn fifo(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
    assert!(made.success());
    path.to_str().unwrap().to_string()
}

/// Hostile replay files, each with what the message must say.
fn hostile_replays(dir: &Path) -> Vec<(String, String)> {
    let deep = format!("{{\"format\": \"lightcycles-replay/1\", \"names\": {}", "[".repeat(200_000));
    let deep_unknown =
        format!("{{\"format\": \"lightcycles-replay/1\", \"x\": {}{}}}", "[".repeat(200_000), "]".repeat(200_000));
    let rows =
        format!("{{\"format\": \"lightcycles-replay/1\", \"frames\": [{}[0,[],[]]]}}", "[0,[],[]],".repeat(70_000));
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated.json", SIM.as_bytes()[..SIM.len() / 3].to_vec(), "EOF while parsing"),
        ("empty.json", Vec::new(), "EOF while parsing a value at line 1 column 0"),
        ("deep.json", deep.into_bytes(), "invalid type: sequence, expected a string"),
        ("deep_unknown.json", deep_unknown.into_bytes(), "missing field `width`"),
        ("rows.json", rows.into_bytes(), "frames: more than 65026 entries"),
        ("type.json", with(SIM, "/width", "48".into()).into_bytes(), "invalid type: string \"48\", expected u32"),
        (
            "negative.json",
            with(SIM, "/max_ticks", (-1).into()).into_bytes(),
            "invalid value: integer `-1`, expected u32",
        ),
        (
            "enormous.json",
            SIM.replacen("\"seed\": 500", "\"seed\": 1e400", 1).into_bytes(),
            "number out of range at line 1",
        ),
        (
            "u64.json",
            with(SIM, "/max_ticks", u64::MAX.into()).into_bytes(),
            "invalid value: integer `18446744073709551615`, expected u32",
        ),
        ("binary.json", b"{\"format\": \"\xff\xfe\"}".to_vec(), "is not UTF-8 text: line 1, column 13 (byte 12)"),
        (
            "escape.json",
            with(SIM, "/config/fault_policy", "\u{1b}[2J\u{1b}]0;owned\u{7}".into()).into_bytes(),
            "invalid value: string \"\\u{1b}[2J\\u{1b}]0;owned\\u{7}\"",
        ),
    ];
    let mut files: Vec<(String, String)> =
        cases.into_iter().map(|(name, bytes, expected)| (write(dir, name, bytes), expected.to_string())).collect();
    files.push((
        sparse(dir, "huge.json", b"{", 2 << 30),
        "is 2147483648 bytes (2 GiB), more than the 256 MiB a replay file may hold".into(),
    ));
    files.push((fifo(dir, "fifo.json"), "is a FIFO (named pipe), not a file to read".into()));
    let sub = dir.join("folder.json");
    std::fs::create_dir(&sub).unwrap();
    files.push((sub.to_str().unwrap().to_string(), "is a directory, not a file to read".into()));
    files.push((dir.join("missing.json").to_str().unwrap().to_string(), "cannot read: No such file".into()));
    files
}

#[test]
fn hostile_replays_are_refused_by_verify_show_and_view() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let page = page.to_str().unwrap();
    for (file, expected) in hostile_replays(dir.path()) {
        let named = format!("{file}: ");
        refused(&["replay", "verify", &file], &[&named, &expected]);
        refused(&["replay", "show", &file], &[&named, &expected]);
        refused(&["view", &file, "-o", page], &[&named, &expected]);
        assert!(!Path::new(page).exists(), "no page from a bad replay");
    }
}

#[test]
fn hostile_map_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sub = d.join("folder.txt");
    std::fs::create_dir(&sub).unwrap();
    let cases: Vec<(String, &str)> = vec![
        (write(d, "truncated.txt", &MAP_2010[..40]), "line 5, column 3: expected 10 characters in the row, found 2"),
        (write(d, "empty.txt", ""), "line 1"),
        (write(d, "binary.txt", b"10 9\n####\xff#####\n"), "is not UTF-8 text: line 2, column 5 (byte 9)"),
        (write(d, "negative.txt", MAP_2010.replacen("10 9", "-10 9", 1)), "line 1"),
        (write(d, "enormous.txt", MAP_2010.replacen("10 9", "99999999999999999999 9", 1)), "line 1"),
        (write(d, "escape.txt", MAP_2010.replacen("#1 ", "#1\u{1b}", 1)), "found '\\u{1b}'"),
        (
            sparse(d, "huge.txt", MAP_2010.as_bytes(), 2 << 30),
            "is 2147483648 bytes (2 GiB), more than the 1 MiB a map file may hold",
        ),
        (sparse(d, "just_over.txt", MAP_2010.as_bytes(), (1 << 20) + 1), "more than the 1 MiB a map file may hold"),
        (fifo(d, "fifo.txt"), "is a FIFO (named pipe), not a file to read"),
        (sub.to_str().unwrap().to_string(), "is a directory, not a file to read"),
    ];
    for (file, expected) in cases {
        let named = format!("--map {file}: ");
        refused(&["play", "builtin:random", "builtin:random", "-r", "1", "--map", &file], &[&named, expected]);
        refused(&["tournament", "builtin:random", "builtin:random", "-g", "2", "--map", &file], &[&named, expected]);
    }
    // Empty lines after the rows are allowed; anything else is not, and the
    // message shows at most a little of it.
    let tail = write(d, "tail.txt", format!("{MAP_2010}\n\n{}", "x".repeat(500_000)));
    let err = refused(
        &["play", "builtin:random", "builtin:random", "--map", &tail],
        &["line 13, column 1: expected nothing after the 9 map rows, found \"xxxxxxxxxxxxxxxxxxxxxxxx\"…"],
    );
    assert!(err.len() < 2_000, "a message of {} bytes", err.len());
}

/// A finished results file of a small tournament, and the arguments that
/// resume it.
fn finished_tournament(dir: &Path) -> (String, Vec<String>) {
    let file = dir.join("r.jsonl").to_str().unwrap().to_string();
    let args: Vec<String> = [
        "tournament",
        "a=builtin:random",
        "builtin:straight",
        "-g",
        "2",
        "--width",
        "16",
        "--height",
        "16",
        "--results",
        &file,
    ]
    .map(String::from)
    .to_vec();
    let out = lightcycles().args(&args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (file, args.into_iter().chain(["--resume".to_string()]).collect())
}

#[test]
fn hostile_results_files_are_refused_and_left_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let (file, args) = finished_tournament(dir.path());
    let good = std::fs::read_to_string(&file).unwrap();
    let header = good.lines().next().unwrap().to_string();
    // Games finish in any order: take game 0's line wherever it is.
    let game = good.lines().skip(1).find(|l| l.starts_with("{\"game\":0,")).unwrap().to_string();
    let game_with = |pointer: &str, value: Value| with(&game, pointer, value);
    let cases: Vec<(String, &str)> = vec![
        (format!("{header}\n{}\n", &game[..game.len() / 2]), "line 2: not a game record: EOF while parsing"),
        (format!("{}\n", &header[..header.len() / 2]), "line 1: not a tournament header: EOF while parsing"),
        (
            format!("{header}\n{}\n", "[".repeat(200_000)),
            "line 2: not a game record: invalid type: sequence, expected u64",
        ),
        (format!("{header}\n{}\n", game_with("/winner", 7.into())), "line 2: winner = 7 is not a seat"),
        (
            format!("{header}\n{}\n", game_with("/ticks", (-3).into())),
            "line 2: not a game record: invalid value: integer `-3`",
        ),
        (
            format!("{header}\n{}\n", game_with("/game", 1e300.into())),
            "line 2: not a game record: invalid type: floating point",
        ),
        (
            format!("{header}\n{}\n", game_with("/faults/0/crash", u32::MAX.into())),
            "line 2: faults[0] add up to 4294967295 in",
        ),
        (
            format!("{header}\n{}\n", game_with("/bots/0", "\u{1b}[31mevil".into())),
            "line 2: bots[0] is \"\\u{1b}[31mevil\", but bot",
        ),
        (format!("{header}\n{}\n", game_with("/seats/1", 9.into())), "line 2: seats[1] = 9 is not a bot"),
        (format!("{header}\n{game}\n{game}\n"), "line 3: game 0 is in the file twice"),
        // serde names an unknown variant as it is: the message shows it escaped.
        (
            format!("{}\n", with(&header, "/pairing", "\u{1b}]0;owned\u{7}".into())),
            "line 1: not a tournament header: unknown variant `\\u{1b}]0;owned\\u{7}`",
        ),
        (format!("{header}\n\u{1b}\n"), "line 2: not a game record: expected value"),
        (
            "not json at all, and no newline".to_string(),
            "line 1: not a tournament header (and not the start of this one's)",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&file, &text).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &[&format!("--results {file}: "), expected]);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "a refused file is left as it was");
    }
    std::fs::write(&file, b"\xff\xfe\n").unwrap();
    let resume: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&resume, &["line 1: not UTF-8 text"]);

    // A huge file (2 GB of zeros after the header, sparse): refused after
    // reading 16 MiB, and not cut.
    let huge = sparse(dir.path(), "r.jsonl", format!("{header}\n").as_bytes(), 2 << 30);
    refused(&resume, &[&format!("--results {huge}: line 2: longer than 16 MiB")]);
    assert_eq!(std::fs::metadata(&huge).unwrap().len(), 2 << 30);

    // Not a file at all, with and without --resume.
    let fresh: Vec<&str> = resume[..resume.len() - 1].to_vec();
    for (path, expected) in [
        (fifo(dir.path(), "f.jsonl"), "is a FIFO (named pipe), not a file to read"),
        (dir.path().join("d.jsonl").to_str().unwrap().to_string(), "is a directory, not a file to read"),
    ] {
        if !Path::new(&path).exists() {
            std::fs::create_dir(&path).unwrap();
        }
        let swap = |a: &[&str]| -> Vec<String> {
            a.iter().map(|w| if *w == file.as_str() { path.clone() } else { w.to_string() }).collect()
        };
        for a in [swap(&resume), swap(&fresh)] {
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            refused(&a, &[&format!("--results {path}: {expected}")]);
        }
    }
}

/// `sh -c 'ulimit -v KB; exec lightcycles ARGS'`: the host under an
/// address-space limit, so that reading a hostile file in memory out of
/// proportion to it fails the test.
fn run_limited(kb: u64, args: &[&str]) -> Output {
    let mut command = Command::new("/bin/sh");
    command.arg("-c").arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_lightcycles"));
    command.args(args).output().expect("sh runs")
}

#[test]
fn hostile_files_are_read_in_bounded_memory() {
    const LIMIT_KB: u64 = 512 * 1024;
    let dir = tempfile::tempdir().unwrap();
    // 64 MiB of empty command rows: 24 bytes each in memory, 1.5 GB in all,
    // if the list were read without its bound.
    let rows = format!("{{\"format\": \"lightcycles-replay/1\", \"commands\": [{}[]]}}", "[],".repeat(22_000_000));
    let replay = write(dir.path(), "rows.json", rows);
    for args in [vec!["replay", "verify", &replay], vec!["replay", "show", &replay]] {
        let out = run_limited(LIMIT_KB, &args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("commands: more than 65025 entries"), "{}", stderr(&out));
    }
    // A results file of 2 GB without a newline after its header.
    let (file, args) = finished_tournament(dir.path());
    let header = std::fs::read_to_string(&file).unwrap().lines().next().unwrap().to_string() + "\n";
    sparse(dir.path(), "r.jsonl", header.as_bytes(), 2 << 30);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_limited(LIMIT_KB, &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("line 2: longer than 16 MiB"), "{}", stderr(&out));
    // And the limit does bite: a program that needs more fails under it.
    let control = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KB} && exec python3 -c 'bytearray(700_000_000)' 2>/dev/null"))
        .status()
        .unwrap();
    assert!(!control.success(), "700 MB should not fit in {LIMIT_KB} KB");
}

/// What a NAME may be (docs/bots.md): letters, digits, `_`, `-`, `.`.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

#[test]
fn names_that_reach_the_output_keep_to_the_grammar() {
    // A NAME= that breaks the grammar is no name: the argument is read as a
    // spec, which it is not, and the message shows it escaped.
    for arg in ["\u{1b}[31mred=builtin:random", "a b=builtin:random", "é=builtin:random", "a\u{202e}b=builtin:random"]
    {
        refused(&["play", arg, "builtin:random", "-r", "1"], &["not a bot spec"]);
    }
    // Every name the run shows is a plain one: given, built in, or made unique.
    let out = run(&[
        "play",
        "x.y-Z_9=builtin:random",
        "builtin:random",
        "builtin:random",
        "-r",
        "2",
        "--width",
        "16",
        "--height",
        "16",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let finals: Vec<&str> = text.lines().skip_while(|l| *l != "FINAL_RESULTS").skip(1).collect();
    let names: Vec<&str> = finals
        .iter()
        .filter_map(|l| l.strip_suffix(')').and_then(|l| l.split_once(" games won (")).map(|(_, n)| n))
        .collect();
    assert_eq!(names, ["x.y-Z_9", "random", "random_2"]);
    assert!(names.iter().all(|n| is_plain_name(n)));
    // A name taken from a program's file name keeps to the grammar too,
    // whatever the file is called (this one does not exist: the bot crashes).
    let out =
        run(&["play", "cmd:./\u{1b}[31mred\u{7} --x", "builtin:random", "-r", "1", "--width", "16", "--height", "16"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Bot_1: 0 games won (__31mred_)\n"), "{text}");
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
    // Names read back from a replay are shown escaped (replay show) and
    // never printed by verify.
    let dir = tempfile::tempdir().unwrap();
    let evil = write(dir.path(), "evil.json", with(SIM, "/names/0", "\u{1b}[2J\u{7}".into()));
    let out = run(&["replay", "verify", &evil]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!String::from_utf8(out.stdout).unwrap().contains('\u{1b}'));
    let out = run(&["replay", "show", &evil]);
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("\\u{1b}[2J\\u{7}") && !shown.contains('\u{1b}'), "{shown:?}");
}

#[test]
fn written_files_are_whole_and_leave_nothing_beside_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let report = d.join("report.json");
    let page = d.join("page.html");
    let games = d.join("games");
    let out = lightcycles()
        .args(["tournament", "builtin:random", "builtin:straight", "-g", "2", "--width", "16", "--height", "16"])
        .args(["--report", report.to_str().unwrap(), "-o", games.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let replays: Vec<PathBuf> = (0..2).map(|k| games.join(format!("sim_{k}.json"))).collect();
    let mut args = vec!["view".to_string()];
    args.extend(replays.iter().map(|p| p.to_str().unwrap().to_string()));
    args.extend(["-o".to_string(), page.to_str().unwrap().to_string()]);
    assert!(lightcycles().args(&args).output().unwrap().status.success());
    assert!(serde_json::from_str::<Value>(&std::fs::read_to_string(&report).unwrap()).is_ok());
    assert!(std::fs::read_to_string(&page).unwrap().trim_end().ends_with("</html>"));
    let mut names: Vec<String> =
        std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["games", "page.html", "report.json"], "no temporary file is left");
    let mut in_games: Vec<String> =
        std::fs::read_dir(&games).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    in_games.sort();
    assert_eq!(in_games, ["sim_0.json", "sim_1.json"]);
    // Writing over a directory fails, saying so, and leaves it.
    std::fs::create_dir(d.join("taken.html")).unwrap();
    std::fs::write(d.join("taken.html/keep"), "x").unwrap();
    let mut args = vec!["view".to_string(), replays[0].to_str().unwrap().to_string(), "-o".to_string()];
    args.push(d.join("taken.html").to_str().unwrap().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, &["taken.html: cannot write"]);
    assert_eq!(std::fs::read_to_string(d.join("taken.html/keep")).unwrap(), "x");
}

#[test]
fn every_output_place_is_checked_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // The bot leaves a mark when it starts: no game may start.
    let mark = format!("{d}/started");
    let bot = format!("cmd:touch {mark}; exec cat >/dev/null");
    let file = write(dir.path(), "a-file", "x");
    let missing = format!("{d}/no/such/folder/report.json");
    let t = |extra: &[&str]| {
        let mut args = vec!["tournament", &bot, "builtin:random", "-g", "2", "-j", "1"];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (t(&["--report", &missing]), "--report"),
        (t(&["--report", d]), "is a directory"),
        (t(&["--results", &format!("{d}/nowhere/r.jsonl")]), "--results"),
        (t(&["-o", &format!("{file}/out")]), "-o"),
        (
            ["play", &bot, "builtin:random", "-r", "2", "-o", &format!("{file}/out")]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            "-o",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &[expected]);
        assert!(!Path::new(&mark).exists(), "{args:?}: a game started before the output was checked");
    }
    // A logs folder that cannot be made is refused too.
    let out = format!("{d}/out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(format!("{out}/logs"), "in the way").unwrap();
    refused(&["play", &bot, "builtin:random", "-r", "1", "-o", &out], &["logs"]);
    assert!(!Path::new(&mark).exists());
}
