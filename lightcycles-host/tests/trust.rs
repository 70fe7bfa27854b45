//! Results that can be trusted: the same games at any `-j` with every bot
//! form, and no bot that reaches another bot or the host. Each hostile case
//! has its own fixture (`tests/trust/`): a bot that SIGSTOPs every process
//! it can name, one that writes into every stdout it can open, two runs on
//! one results file, a pool of 300 large maps, outputs that collide, a bot
//! in a folder with a 250-character name.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

use common::output_within;

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/trust").join(name).to_str().unwrap().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The example C plugin, built once.
fn c_plugin() -> &'static str {
    static BUILT: OnceLock<String> = OnceLock::new();
    BUILT.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("trust-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        let lib = out.join("libexample.so");
        let done = Command::new("gcc")
            .args(["-std=c11", "-O1", "-fPIC", "-shared", "-I"])
            .arg(repo().join("include"))
            .arg(repo().join("examples/c-plugin-bot/bot.c"))
            .arg("-o")
            .arg(&lib)
            .output()
            .expect("gcc runs");
        assert!(done.status.success(), "{}", text(&done.stderr));
        lib.to_str().unwrap().to_string()
    })
}

/// The game lines of a results file, by game index, each as it was written.
fn games_of(results: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(results).unwrap();
    let mut games: Vec<Value> = text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
    games.sort_by_key(|g| g["game"].as_u64().unwrap());
    games
}

fn faults_of(game: &Value, seat: usize) -> u64 {
    let f = &game["faults"][seat];
    ["invalid", "timeout", "crash"].iter().map(|k| f[k].as_u64().unwrap()).sum()
}

const BOARD: [&str; 4] = ["--width", "16", "--height", "12"];

#[test]
fn honest_bots_of_every_form_play_the_same_games_at_any_j_with_no_fault() {
    let json = format!("json=cmd:python3 {}", repo().join("examples/jsonlines-bot/bot.py").display());
    let python = repo().join("examples/python-bot/main.py").to_str().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let mut first: Option<Vec<Value>> = None;
    for (run, jobs) in ["1", "2", "4", "2"].iter().enumerate() {
        let results = dir.path().join(format!("r{run}.jsonl"));
        let mut command = lightcycles();
        command.args(["tournament", &python, &json, c_plugin(), "-g", "4", "-j", jobs, "--log-every", "0"]);
        // A second a tick: the promise is the same games at any -j, and a
        // CI machine that stalls both cores past 50 ms (seen once, both
        // bots of one game timed out together) must not break it.
        command.args(BOARD).args(["--time-ms", "1000"]).arg("--results").arg(&results);
        let out = output_within(command, 300);
        assert!(out.status.success(), "-j {jobs}: {}", text(&out.stderr));
        let games = games_of(&results);
        assert_eq!(games.len(), 12, "-j {jobs}");
        for game in &games {
            for seat in 0..2 {
                assert_eq!(faults_of(game, seat), 0, "-j {jobs}: an honest bot had a fault: {game}");
            }
        }
        match &first {
            None => first = Some(games),
            Some(first) => assert_eq!(first, &games, "-j {jobs} played other games than -j 1"),
        }
    }
}

#[test]
fn a_bot_that_sigstops_every_process_it_can_name_freezes_nobody() {
    let honest = format!("honest=cmd:python3 {}", repo().join("examples/jsonlines-bot/bot.py").display());
    let python = repo().join("examples/python-bot/main.py").to_str().unwrap().to_string();
    for other in [honest.as_str(), python.as_str()] {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("r.jsonl");
        let mut command = lightcycles();
        command.args(["tournament", &format!("stopper={}", fixture("stopper.py")), other, "-g", "4", "-j", "2"]);
        command.args(BOARD).args(["--log-every", "0", "--results"]).arg(&results);
        let out = output_within(command, 300);
        assert!(out.status.success(), "{}", text(&out.stderr));
        for game in games_of(&results) {
            let seat = game["bots"].as_array().unwrap().iter().position(|b| b != "stopper").unwrap();
            assert_eq!(faults_of(&game, seat), 0, "the honest bot was frozen: {game}");
        }
    }
}

#[test]
fn nothing_a_bot_writes_reaches_the_host_s_stdout_or_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = lightcycles();
    command.args(["play", &format!("forger={}", fixture("forger.py")), "builtin:random", "-r", "3", "-j", "2"]);
    command.args(BOARD).arg("-o").arg(dir.path());
    let out = output_within(command, 120);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The daemon's last writes come after the run: give it time to try.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(!stdout.contains("FORGED") && !stderr.contains("FORGED"), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    assert_eq!(stdout.matches("FINAL_RESULTS").count(), 1, "{stdout}");
}

#[test]
fn a_second_run_on_a_results_file_being_written_is_refused_naming_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("r.jsonl");
    let args = |extra: &[&str]| {
        let mut command = lightcycles();
        command.args([
            "tournament",
            "builtin:floodfill",
            "builtin:wallhug",
            "-g",
            "400",
            "-j",
            "1",
            "--log-every",
            "0",
        ]);
        command.args(["--width", "40", "--height", "30", "--results"]).arg(&results).args(extra);
        command
    };
    let mut first = args(&[]).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < 3 {
        assert!(std::time::Instant::now() < until, "the first run wrote nothing");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    for extra in [&["--resume"][..], &[]] {
        let out = output_within(args(extra), 60);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        if extra.is_empty() {
            // A new run on a file that holds games is refused either way.
            assert!(stderr.contains("is writing this file") || stderr.contains("already holds results"), "{stderr}");
        } else {
            assert!(stderr.contains(&format!("another process (pid {}", first.id())), "{stderr}");
            assert!(stderr.contains("is writing this file"), "{stderr}");
        }
    }
    assert!(first.wait().unwrap().success());
    // The file is whole, and resumes (nothing left to play).
    let games = games_of(&results);
    assert_eq!(games.len(), 400);
    let out = output_within(args(&["--resume"]), 60);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_of(&results), games);
}

/// A 255 × 255 map in the 2010 format, open but for its border and a rock
/// placed by `n`, with the two starts in opposite corners.
fn large_map(n: usize) -> String {
    let (w, h) = (255usize, 255usize);
    let mut rows: Vec<Vec<u8>> = (0..h)
        .map(|y| (0..w).map(|x| if x == 0 || y == 0 || x == w - 1 || y == h - 1 { b'#' } else { b' ' }).collect())
        .collect();
    rows[2][2] = b'1';
    rows[h - 3][w - 3] = b'2';
    let rock = 10 + n % 200;
    rows[rock][rock + 20] = b'#';
    let mut text = format!("{w} {h}\n");
    for row in rows {
        text.push_str(std::str::from_utf8(&row).unwrap());
        text.push('\n');
    }
    text
}

#[test]
fn a_pool_of_300_large_maps_keeps_its_results_file_resumable() {
    let dir = tempfile::tempdir().unwrap();
    let maps = dir.path().join("maps");
    std::fs::create_dir(&maps).unwrap();
    for n in 0..300 {
        std::fs::write(maps.join(format!("m{n:03}.txt")), large_map(n)).unwrap();
    }
    let results = dir.path().join("r.jsonl");
    let run = |extra: &[&str]| {
        let mut command = lightcycles();
        command.args(["tournament", "builtin:straight", "builtin:wallhug", "-g", "2", "--log-every", "0", "--maps"]);
        command.arg(&maps).args(["--max-ticks", "20", "--results"]).arg(&results).args(extra);
        output_within(command, 300)
    };
    let out = run(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let header = std::fs::read_to_string(&results).unwrap().lines().next().unwrap().to_string();
    assert!(header.len() < 64 * 1024, "the header is {} bytes", header.len());
    let parsed: Value = serde_json::from_str(&header).unwrap();
    assert_eq!(parsed["maps"]["maps"].as_array().unwrap().len(), 300);
    assert_eq!(parsed["maps"]["maps"][0]["sha256"].as_str().unwrap().len(), 64);
    let out = run(&["--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A pool whose maps changed is another tournament's.
    std::fs::write(maps.join("m000.txt"), large_map(7)).unwrap();
    let out = run(&["--resume"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("another tournament's"), "{}", text(&out.stderr));
}

#[test]
fn outputs_that_collide_are_refused_before_game_0_naming_both_flags() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let base = ["tournament", "builtin:random", "builtin:straight", "-g", "2", "--log-every", "0"];
    let cases: Vec<(Vec<String>, [&str; 2])> = vec![
        (vec!["--results".into(), d("r.jsonl"), "--report".into(), d("r.jsonl")], ["--results", "--report"]),
        (vec!["--results".into(), d("o/sim_1.json"), "-o".into(), d("o")], ["--results", "-o"]),
        (vec!["--report".into(), d("o/sim_0.json"), "-o".into(), d("o")], ["--report", "-o"]),
        (vec!["--report".into(), d("o/logs/x.log"), "-o".into(), d("o")], ["--report", "-o"]),
    ];
    for (extra, flags) in cases {
        let out = output_within(
            {
                let mut c = lightcycles();
                c.args(base).args(&extra);
                c
            },
            60,
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(flags.iter().all(|f| stderr.contains(&format!("{f} "))), "{extra:?}: {stderr}");
        assert!(!stderr.contains("game 0"), "{stderr}");
    }
    assert!(!dir.path().join("r.jsonl").exists(), "nothing is written before the check");
    // view: the page over its own replay.
    let out = output_within(
        {
            let mut c = lightcycles();
            c.args(["play", "builtin:random", "builtin:straight", "-r", "1", "-o"]).arg(d("g"));
            c
        },
        60,
    );
    assert!(out.status.success());
    let replay = d("g/sim_0.json");
    let before = std::fs::read(&replay).unwrap();
    let out = output_within(
        {
            let mut c = lightcycles();
            c.args(["view", &replay, "-o", &replay]);
            c
        },
        60,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("would overwrite the input"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&replay).unwrap(), before);
}

#[test]
fn a_bot_in_a_folder_with_a_250_character_name_plays_and_logs() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("b".repeat(250));
    std::fs::create_dir(&folder).unwrap();
    let bot = "print('started')\n\ndef get_move(obs):\n    return obs['players'][obs['you']]['dir']\n";
    std::fs::write(folder.join("main.py"), bot).unwrap();
    let out_dir = dir.path().join("out");
    let out = output_within(
        {
            let mut c = lightcycles();
            c.args(["play", folder.to_str().unwrap(), "builtin:random", "-r", "2", "-o"]).arg(&out_dir).args(BOARD);
            c
        },
        120,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let logs: Vec<String> = std::fs::read_dir(out_dir.join("logs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!logs.is_empty());
    assert!(logs.iter().all(|l| l.len() < 100), "{logs:?}");
    // The replay keeps the whole name.
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(out_dir.join("sim_0.json")).unwrap()).unwrap();
    assert_eq!(replay["names"][0].as_str().unwrap(), "b".repeat(250));
}

/// The same promises for a host that is not root: run as `nobody` through
/// `setpriv`, from copies of the binary and the bots in a folder anyone
/// may read, with Debian's `/usr/bin/python3` (the root's own interpreter
/// may be out of nobody's reach). Bots then get a user namespace too.
#[test]
fn an_unprivileged_host_keeps_its_bots_apart_too() {
    let root = rustix::process::getuid().is_root();
    let tools = Path::new("/usr/bin/setpriv").exists() && Path::new("/usr/bin/python3").exists();
    if !root || !tools {
        assert!(std::env::var_os("CI").is_none() || !root, "CI runs as root with setpriv and python3: needed here");
        eprintln!("skipped: needs root, /usr/bin/setpriv and /usr/bin/python3");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let binary = dir.path().join("lightcycles");
    std::fs::copy(env!("CARGO_BIN_EXE_lightcycles"), &binary).unwrap();
    let stopper = dir.path().join("stopper.py");
    std::fs::copy(fixture("stopper.py"), &stopper).unwrap();
    let forger = dir.path().join("forger.py");
    std::fs::copy(fixture("forger.py"), &forger).unwrap();
    let honest = dir.path().join("honest.py");
    std::fs::copy(repo().join("examples/python-bot/main.py"), &honest).unwrap();
    for file in [&stopper, &forger, &honest] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let results = dir.path().join("r.jsonl");
    let mut command = Command::new("/usr/bin/setpriv");
    command.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(&binary);
    command.args(["tournament", "--gauntlet"]).arg(&honest).arg(&stopper).arg(&forger);
    command.args(["-g", "4", "-j", "2", "--log-every", "0"]).args(BOARD).arg("--results").arg(&results);
    command.current_dir(dir.path()).env("LIGHTCYCLES_PYTHON", "/usr/bin/python3");
    let out = output_within(command, 300);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("without namespaces"), "{stderr}");
    assert!(!stdout.contains("FORGED") && !stderr.contains("FORGED"), "{stdout}\n{stderr}");
    let games = games_of(&results);
    assert_eq!(games.len(), 8);
    for game in games {
        let seat = game["bots"].as_array().unwrap().iter().position(|b| b == "honest").unwrap();
        assert_eq!(faults_of(&game, seat), 0, "the honest bot lost a move: {game}");
    }
}
