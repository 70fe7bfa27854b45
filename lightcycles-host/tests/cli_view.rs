//! `lightcycles view`, `replay show` and `play --watch` as a user runs them:
//! their output, the files they write, and exit code 2 with the file and the
//! place named for anything that is not a replay.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lightcycles")).args(args).env_remove("NO_COLOR").output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn golden(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../lightcycles-core/tests/golden-replays")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

fn expected_show(name: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)).unwrap()
}

/// Runs `args`, expects exit 2 and a message on stderr holding every piece of `expected`.
fn expect_bad_input(args: &[&str], expected: &[&str]) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    for piece in expected {
        assert!(err.contains(piece), "{args:?}: {piece:?} is not in {err:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn replay_show_prints_the_golden_board_as_plain_text_into_a_pipe() {
    let out = run(&["replay", "show", &golden("sim_0.json"), "--tick", "12"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected_show("sim_0_tick_12.txt"));
    let out = run(&["replay", "show", &golden("sim_0.json")]);
    assert_eq!(stdout(&out), expected_show("sim_0_end.txt"), "the last tick by default");
    let out = run(&["replay", "show", &golden("sim_0.json"), "--tick", "0"]);
    assert!(stdout(&out).starts_with("tick 0 / 26 · 48 × 36 · seed 500"));
}

#[test]
fn replay_show_refuses_what_it_cannot_show() {
    let dir = tempfile::tempdir().unwrap();
    let sim = golden("sim_0.json");
    expect_bad_input(
        &["replay", "show", &sim, "--tick", "27"],
        &["sim_0.json", "tick 27 is past the last tick", "(26)"],
    );
    expect_bad_input(&["replay", "show", &sim, "--tick", "x"], &["--tick"]);
    expect_bad_input(&["replay", "show", &sim, "--tick=-1"], &["--tick"]);
    let missing = dir.path().join("missing.json");
    expect_bad_input(&["replay", "show", missing.to_str().unwrap()], &["missing.json: cannot read"]);
    let text = std::fs::read_to_string(&sim).unwrap();
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    expect_bad_input(&["replay", "show", truncated.to_str().unwrap()], &["truncated.json", "line 1 column"]);
}

/// A copy of golden replay `name` in `dir`, changed by `change`.
fn spoiled(dir: &Path, name: &str, change: impl Fn(&mut Value)) -> String {
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(golden(name)).unwrap()).unwrap();
    change(&mut replay);
    let path = dir.join(name);
    std::fs::write(&path, replay.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn malformed_replays_exit_2_naming_the_file_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let page = page.to_str().unwrap();
    let off_board = spoiled(dir.path(), "sim_1.json", |r| r["frames"][3]["heads"][0][0] = 200.into());
    let no_names = spoiled(dir.path(), "sim_2.json", |r| r["names"] = serde_json::json!(["only one"]));
    let huge = spoiled(dir.path(), "sim_3.json", |r| r["width"] = 100_000.into());
    for (file, field) in
        [(&off_board, "frames[3].heads[0]: (200, "), (&no_names, "names: 1 names for 2 players"), (&huge, "width")]
    {
        expect_bad_input(&["view", file, "-o", page], &[file, field]);
        expect_bad_input(&["replay", "show", file], &[file, field]);
    }
    assert!(!Path::new(page).exists(), "no page is written when a replay is bad");
    let binary = dir.path().join("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x7b]).unwrap();
    expect_bad_input(
        &["view", binary.to_str().unwrap(), "-o", page],
        &["binary.json: is not UTF-8 text: line 1, column 1 (byte 0)"],
    );
    let array = dir.path().join("array.json");
    std::fs::write(&array, "[1, 2, 3]").unwrap();
    expect_bad_input(&["view", array.to_str().unwrap(), "-o", page], &["array.json: not a replay file"]);
}

#[test]
fn view_writes_one_page_for_several_replays() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("games.html");
    let files = [golden("sim_0.json"), golden("eight_players.json"), golden("map_headon_draw.json")];
    let mut args = vec!["view"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["-o", page.to_str().unwrap()]);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(stdout(&out), format!("{}: 3 replays, {} bytes\n", page.display(), html.len()));
    let open = "<script type=\"application/json\" id=\"lc-data\">";
    let start = html.find(open).unwrap() + open.len();
    let data: Value = serde_json::from_str(&html[start..start + html[start..].find("</script>").unwrap()]).unwrap();
    let labels: Vec<&str> = data["replays"].as_array().unwrap().iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels, files.iter().map(String::as_str).collect::<Vec<_>>(), "listed in the order given");
    let nowhere = dir.path().join("no/such/dir/page.html");
    expect_bad_input(&["view", &files[0], "-o", nowhere.to_str().unwrap()], &["-o", "page.html: cannot write"]);
}

#[test]
fn without_o_the_page_is_written_next_to_the_replay_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("sim_0.json");
    std::fs::copy(golden("sim_0.json"), &replay).unwrap();
    let out = run(&["view", replay.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = dir.path().join("sim_0.html");
    assert!(stdout(&out).starts_with(&format!("{}: 1 replay, ", page.display())), "{}", stdout(&out));
    assert!(std::fs::read_to_string(&page).unwrap().contains("lc-data"));
    // Several replays: replays.html beside the first.
    let other = dir.path().join("sim_1.json");
    std::fs::copy(golden("eight_players.json"), &other).unwrap();
    let out = run(&["view", replay.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("replays.html").exists());
    // --open with no opener on the PATH still writes the page and says so.
    let out = Command::new(env!("CARGO_BIN_EXE_lightcycles"))
        .args(["view", replay.to_str().unwrap(), "--open"])
        .env("PATH", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot open a browser") && stderr(&out).contains("sim_0.html"), "{}", stderr(&out));
}

#[test]
fn watch_draws_every_tick_of_every_game_then_the_results() {
    let args = ["play", "builtin:random", "builtin:fuzz", "-r", "2", "-s", "3", "--width", "16", "--height", "10"];
    let plain = run(&args);
    assert!(plain.status.success(), "{}", stderr(&plain));
    let mut watched_args = args.to_vec();
    watched_args.push("--watch");
    let watched = run(&watched_args);
    assert!(watched.status.success(), "{}", stderr(&watched));
    let (plain, watched) = (stdout(&plain), stdout(&watched));
    assert!(!watched.contains('\x1b'), "plain text into a pipe");
    let block = &plain[plain.find("FINAL_RESULTS").unwrap()..];
    assert!(watched.ends_with(block), "the same results, last");
    let game_lines: Vec<&str> = plain.lines().filter(|l| l.starts_with("game ")).collect();
    for (g, line) in game_lines.iter().enumerate() {
        let ticks: u32 = line.split(" on tick ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap();
        let title = format!("game {g} · seed {} · random vs fuzz\n", 3 + g);
        assert_eq!(watched.matches(&title).count() as u32, ticks + 1, "game {g}: the start and {ticks} ticks");
        let last_frame = format!("{title}tick {ticks} / {ticks} · 16 × 10");
        let after = watched.find(&last_frame).unwrap_or_else(|| panic!("{last_frame}"));
        assert!(watched[after..].contains(&format!("\n{line}\n")), "game {g}'s line follows its last frame");
    }
    expect_bad_input(&["play", "builtin:random", "builtin:fuzz", "--watch", "-j", "2"], &["--watch", "-j 1"]);
}

#[test]
fn help_describes_view_show_and_watch() {
    let top = stdout(&run(&["--help"]));
    assert!(top.contains("view") && top.contains("shows replays"), "{top}");
    let view = stdout(&run(&["view", "--help"]));
    assert!(view.contains("Usage: lightcycles view [OPTIONS] <FILE>..."), "{view}");
    assert!(view.contains("--open"), "{view}");
    let show = stdout(&run(&["replay", "show", "--help"]));
    assert!(show.contains("Usage: lightcycles replay show [OPTIONS] <FILE>") && show.contains("--tick <K>"), "{show}");
    let play = stdout(&run(&["play", "--help"]));
    assert!(play.contains("--watch"), "{play}");
}

#[test]
fn hostile_names_never_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let file = spoiled(dir.path(), "sim_0.json", |r| {
        r["names"] = serde_json::json!(["\u{1b}]0;owned\u{7}\u{1b}[2J", "\u{9b}31mred"]);
        r["commands"][1][0] = "\u{1b}[1A".into();
    });
    let out = run(&["replay", "show", &file, "--tick", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
    assert!(text.contains("\\u{1b}]0;owned\\u{7}\\u{1b}[2J"));
    assert!(text.contains("\\u{9b}31mred"));
    assert!(text.contains("\"\\u{1b}[1A\" invalid"));
}

/// `play human`: a person at a terminal (a pseudo-terminal here, driven by
/// tests/human/drive.py) plays seat 0 with the arrow keys and WASD; the
/// first tick waits for the first key, the last key of a tick counts, no
/// key rides straight, `q` ends the run after the game, and the game is
/// recorded like any other.
#[test]
fn a_person_plays_from_the_terminal_and_the_game_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/human/drive.py");
    let out = Command::new("python3")
        .arg(&driver)
        .args(["to start", "0.25", "\\x1b[B", "d", "q", "--", env!("CARGO_BIN_EXE_lightcycles")])
        .args(["play", "human", "builtin:straight", "-r", "2", "--tick-ms", "60", "--width", "40", "--height", "30"])
        .args(["-s", "3", "-o"])
        .arg(&games)
        .output()
        .expect("python3 runs the driver");
    let shown = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "exit code; the terminal showed:\n{shown}");
    assert!(shown.contains("press an arrow key or WASD to start"), "{shown}");
    assert!(shown.contains("quit: 1 of 2 games were played"), "q ends the run after the game: {shown}");
    assert!(!games.join("sim_1.json").exists());
    let replay =
        lightcycles_core::replay::Replay::from_json(&std::fs::read_to_string(games.join("sim_0.json")).unwrap())
            .unwrap();
    lightcycles_core::replay::verify::<lightcycles_core::ReferenceGame>(&replay).unwrap();
    assert_eq!(replay.names[0], "human");
    let mine: Vec<Option<&str>> = replay.commands.iter().map(|c| c[0].as_deref()).collect();
    assert_eq!(mine[0], Some("S"), "the down arrow before tick 1 is tick 1's move: {mine:?}");
    let east = mine.iter().position(|m| *m == Some("E")).expect("d steers east");
    assert!(mine[1..east].iter().all(Option::is_none), "no key rides straight: {mine:?}");
    assert!(replay.faults.iter().all(|f| f[0].is_none()), "a person's slow tick is no timeout");
}
