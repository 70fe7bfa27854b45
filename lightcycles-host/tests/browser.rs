//! The replay page in a real browser: headless Chromium, driven by
//! `tests/browser/drive.mjs` (playwright-core, pinned in `package-lock.json`).
//! The pixels of the canvas are compared, cell by cell, with the board the
//! Rust side rebuilds from the same replay, after keyboard steps and scrubs.
//! The tournament report page is read back from the browser and its tables
//! compared with the JSON report; its replay links open the viewer at the
//! game. Screenshots are saved under `target/tmp/browser/`.
//!
//! Needs `node`, Chromium (`/usr/bin/chromium`, or `LIGHTCYCLES_CHROMIUM`)
//! and `npm ci` run in `tests/browser`. Without them the tests say so and
//! pass, except under `CI=true`, where they fail.

use std::path::PathBuf;
use std::process::Command;

use lightcycles_core::map;
use lightcycles_core::replay::{Origin, Recorder, Replay};
use lightcycles_core::{Answer, Config, Dir, Engine, FaultPolicy, ReferenceGame, EMPTY};
use lightcycles_host::view::board::{Board, Cell};
use lightcycles_host::view::{html, palette, parse, Viewable};
use serde_json::{json, Value};

struct Tools {
    node: PathBuf,
    chromium: PathBuf,
    driver: PathBuf,
}

fn driver_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

fn find_tools() -> Result<Tools, String> {
    let node = PathBuf::from("node");
    match Command::new(&node).arg("--version").output() {
        Ok(out) if out.status.success() => {}
        _ => return Err("`node` is not on PATH".into()),
    }
    let chromium =
        std::env::var_os("LIGHTCYCLES_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !chromium.exists() {
        return Err(format!("{} is missing (apt-get install -y chromium)", chromium.display()));
    }
    if !driver_dir().join("node_modules/playwright-core/package.json").exists() {
        return Err(format!("playwright-core is not installed (run `npm ci` in {})", driver_dir().display()));
    }
    Ok(Tools { node, chromium, driver: driver_dir().join("drive.mjs") })
}

/// The tools, or `None` after saying why the test is skipped. Under
/// `CI=true` a missing tool fails the test instead.
fn tools_or_skip(test: &str) -> Option<Tools> {
    match find_tools() {
        Ok(tools) => Some(tools),
        Err(why) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{test}: the browser test must run under CI=true, but {why}")
        }
        Err(why) => {
            eprintln!("SKIPPED {test}: {why}. `.ci/run` installs what it needs.");
            None
        }
    }
}

fn artifacts() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `page`, runs the driver on `steps` and returns its reports, after
/// checking that the page raised no error, opened no dialog and made no
/// network request.
fn drive(tools: &Tools, name: &str, page: &str, steps: Value) -> Vec<Value> {
    let page_path = artifacts().join(format!("{name}.html"));
    std::fs::write(&page_path, page).unwrap();
    drive_file(tools, name, &page_path, false, steps)
}

/// [`drive`] on a page already written at `page_path`; a `static_page` has
/// no script of its own to wait for.
fn drive_file(tools: &Tools, name: &str, page_path: &std::path::Path, static_page: bool, steps: Value) -> Vec<Value> {
    let dir = artifacts();
    let profile = dir.join(format!("profile-{name}"));
    let _ = std::fs::remove_dir_all(&profile);
    let plan = json!({
        "page": page_path,
        "chromium": tools.chromium,
        "userDataDir": profile,
        "viewport": {"width": 1400, "height": 900},
        "static": static_page,
        "steps": steps,
    });
    let plan_path = dir.join(format!("{name}.plan.json"));
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    let out = Command::new(&tools.node).arg(&tools.driver).arg(&plan_path).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "driver failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    let result: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("driver output: {e}: {stdout}"));
    assert_eq!(result["errors"], json!([]), "errors in the page");
    assert_eq!(result["dialogs"], json!([]), "the page opened a dialog");
    assert_eq!(result["requests"], json!([]), "the page asked the network for something");
    let _ = std::fs::remove_dir_all(&profile);
    result["reports"].as_array().unwrap().clone()
}

fn golden(name: &str) -> Replay {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lightcycles-core/tests/golden-replays").join(name);
    parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn rgb(cell: Cell) -> [u8; 3] {
    match cell {
        Cell::Empty => palette::EMPTY.rgb,
        Cell::Rock => palette::ROCK.rgb,
        Cell::Trail(p) => palette::player(p as usize).rgb,
    }
}

/// The colour `report` read at the centre of cell `(x, y)` of the board canvas.
fn colour_at(report: &Value, x: u32, y: u32) -> [u8; 3] {
    let k = (y * report["width"].as_u64().unwrap() as u32 + x) as usize * 6;
    let hex = &report["board"].as_str().unwrap()[k..k + 6];
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [byte(0), byte(2), byte(4)]
}

/// The opacity `report` read at the centre of cell `(x, y)` of the marks canvas.
fn mark_at(report: &Value, x: u32, y: u32) -> u8 {
    let k = (y * report["width"].as_u64().unwrap() as u32 + x) as usize * 2;
    u8::from_str_radix(&report["marks"].as_str().unwrap()[k..k + 2], 16).unwrap()
}

/// Every cell of the board canvas in `report` has the colour of the board
/// the Rust side rebuilds at `tick`.
fn assert_board(report: &Value, replay: &Replay, tick: u32) {
    assert_eq!(report["tick"], tick, "the page shows tick {tick}");
    let board = Board::from_replay(&Viewable::check(replay).unwrap(), tick).unwrap();
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(replay.width as u64), Some(replay.height as u64))
    );
    let mut wrong = Vec::new();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let (want, got) = (rgb(board.cell(x, y).unwrap()), colour_at(report, x, y));
            if want != got {
                wrong.push(format!("({x}, {y}): {got:?} instead of {want:?} ({:?})", board.cell(x, y)));
            }
        }
    }
    assert!(wrong.is_empty(), "tick {tick}: {} cells differ, e.g. {:?}", wrong.len(), &wrong[..wrong.len().min(5)]);
}

fn stat(report: &Value, name: &str) -> u64 {
    report["stats"][name].as_u64().unwrap()
}

fn head(replay: &Replay, tick: usize, player: usize) -> (u32, u32) {
    let h = replay.frames[tick].heads[player];
    (h[0], h[1])
}

fn key(key: &str, times: u32) -> Value {
    json!({"do": "key", "key": key, "times": times})
}

fn probe() -> Value {
    json!({"do": "probe"})
}

#[test]
fn the_canvas_draws_the_board_and_the_keyboard_steps() {
    let Some(tools) = tools_or_skip("the_canvas_draws_the_board_and_the_keyboard_steps") else { return };
    let replay = golden("sim_0.json");
    let page = html::render(&[("sim_0.json", Viewable::check(&replay).unwrap())]);
    let shot = artifacts().join("sim_0_tick_20.png");
    let steps = json!([
        probe(),
        key("Home", 1),
        probe(),
        key("ArrowRight", 12),
        probe(),
        key("ArrowLeft", 1),
        probe(),
        key("Shift+ArrowRight", 1),
        probe(),
        key("End", 1),
        probe(),
        {"do": "scrub", "tick": 5},
        probe(),
        key("ArrowRight", 1),
        probe(),
        key("Home", 1),
        key("ArrowRight", 2),
        probe(),
        key("ArrowUp", 1),
        probe(),
        key("+", 1),
        probe(),
        key("-", 2),
        probe(),
        key("ArrowDown", 10),
        key(" ", 1),
        probe(),
        key(" ", 1),
        probe(),
        {"do": "click", "selector": "#play"},
        probe(),
        key(" ", 1),
        probe(),
        key("End", 1),
        key("ArrowLeft", 6),
        {"do": "screenshot", "path": shot},
        probe(),
    ]);
    let r = drive(&tools, "sim_0", &page, steps);
    let [loaded, start, t12, t11, t21, end, t5, t6, t2, faster, plus, minus, playing, paused, clicked, spaced, t20] =
        &r[..]
    else {
        panic!("{} reports", r.len())
    };

    // The page plays as soon as it is open, with the result hidden.
    assert_eq!(loaded["playing"], true, "the page plays on load");
    assert_eq!(loaded["resultShown"], false);
    assert_eq!(loaded["result"], "hidden until the last tick");
    assert_eq!(start["playing"], false, "Home pauses");

    assert_board(start, &replay, 0);
    assert_eq!(start["tickText"], "0 / 26");
    assert_eq!(start["width"], 48);
    assert_eq!(start["height"], 36);
    assert_eq!(start["label"], "sim_0.json");
    assert_eq!(start["list"], json!([]), "one replay: no list to pick from");

    // Twelve presses of → : tick 12, both trails in their colours.
    assert_board(t12, &replay, 12);
    assert_eq!(t12["tickText"], "12 / 26");
    assert_eq!(t12["scrub"], 12);
    assert_eq!(t12["rows"], json!([["fuzz0", "riding", "13", "E"], ["fuzz1", "riding", "13", "S"]]));
    for p in 0..2 {
        let (x, y) = head(&replay, 12, p);
        assert_eq!(colour_at(t12, x, y), palette::player(p).rgb, "player {p}'s head cell");
        assert_eq!(mark_at(t12, x, y), 255, "player {p}'s head is marked");
        let (x0, y0) = head(&replay, 0, p);
        assert_eq!(mark_at(t12, x0, y0), 0, "the start is no longer marked");
    }

    // ← erases exactly the two cells first reached on tick 12.
    assert_board(t11, &replay, 11);
    assert_eq!(stat(t11, "erased") - stat(t12, "erased"), 2);
    assert_eq!(stat(t11, "redraws"), stat(t12, "redraws"), "a step back is not a redraw");
    for p in 0..2 {
        let (x, y) = head(&replay, 12, p);
        assert_eq!(colour_at(t11, x, y), palette::EMPTY.rgb);
    }

    assert_board(t21, &replay, 21);
    assert_eq!(t21["result"], "hidden until the last tick", "no spoiler before the end");
    assert_board(end, &replay, 26);
    assert_eq!(end["resultShown"], true, "the result shows at the last tick");
    assert_eq!(end["rows"][1], json!(["fuzz1", "crashed · tick 26", "26", "\"n\" invalid"]));
    assert_eq!(end["events"], json!(["fuzz1: invalid line \"n\"", "fuzz1 crashed at (30, 13)"]));
    assert_eq!(end["result"], "fuzz0 wins on tick 26");
    assert!(mark_at(end, 30, 13) > 0, "the crash is marked");

    // The scrub bar jumps back from 26 to 5: cheaper to redraw from nothing.
    assert_board(t5, &replay, 5);
    assert_eq!(stat(t5, "redraws"), stat(end, "redraws") + 1);

    // One step forward paints one new cell per riding player, nothing else.
    assert_board(t6, &replay, 6);
    assert_eq!(stat(t6, "painted") - stat(t5, "painted"), 2);
    assert_eq!((stat(t6, "redraws"), stat(t6, "erased")), (stat(t5, "redraws"), stat(t5, "erased")));

    // Tick 2 holds the first fault of the game, with its line.
    assert_board(t2, &replay, 2);
    assert_eq!(t2["events"], json!(["fuzz0: invalid line \"n\""]));
    assert_eq!(t2["rows"][0][3], "\"n\" invalid");

    assert_eq!(faster["speed"], 50, "↑ from 20 ticks a second");
    assert!(plus["speed"].as_u64() > faster["speed"].as_u64(), "+ is faster: {}", plus["speed"]);
    assert_eq!(minus["speed"], 20, "- twice from there");
    assert_eq!(playing["playing"], true, "space plays");
    assert_eq!(playing["speed"], 1);
    assert_eq!(paused["playing"], false, "space pauses");
    assert_eq!(clicked["playing"], true, "the play button plays");
    assert_eq!(spaced["playing"], false, "space pauses once, even with the play button focused");

    assert_board(t20, &replay, 20);
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000, "a screenshot at {}", shot.display());
    eprintln!("screenshot: {}", shot.display());
}

#[test]
fn several_replays_one_page_and_hostile_names_stay_text() {
    let Some(tools) = tools_or_skip("several_replays_one_page_and_hostile_names_stay_text") else { return };
    let two = golden("sim_0.json");
    let eight = golden("eight_players.json");
    let mut hostile = golden("sim_0.json");
    hostile.names = vec!["<img src=x onerror=alert(1)>".into(), "</script><script>alert(2)</script>\u{1b}[31m".into()];
    hostile.commands[1][0] = Some("<b>n</b>".into());
    let evil_label = "<i>evil</i>.json";
    let page = html::render(&[
        ("sim_0.json", Viewable::check(&two).unwrap()),
        ("eight_players.json", Viewable::check(&eight).unwrap()),
        (evil_label, Viewable::check(&hostile).unwrap()),
    ]);
    let shot = artifacts().join("eight_players.png");
    let steps = json!([
        probe(),
        key("PageDown", 1),
        key("ArrowRight", 3),
        {"do": "screenshot", "path": shot},
        probe(),
        key("PageDown", 1),
        key("ArrowRight", 2),
        probe(),
        {"do": "click", "selector": "#replays li:nth-child(2) button"},
        probe(),
        {"do": "click", "selector": "#reveal"},
        probe(),
    ]);
    let r = drive(&tools, "several", &page, steps);
    let [first, eight_at_3, evil, clicked, revealed] = &r[..] else { panic!("{} reports", r.len()) };

    assert_eq!(first["list"], json!(["sim_0.json", "eight_players.json", evil_label]));
    let hidden = first["descriptions"].as_array().unwrap();
    // The first replay plays as the page opens: on a slow machine it can
    // reach its last tick before this probe, and then its result is shown
    // (the page says so). The others have not been watched.
    let first_ended = first["replay"] == 0 && first["resultShown"] == true;
    for (i, d) in hidden.iter().enumerate() {
        let shows = d.as_str().unwrap().contains("wins");
        assert!(!shows || (i == 0 && first_ended), "no result in the list before its replay ends: {hidden:?}");
    }
    assert_eq!(revealed["resultShown"], true, "the show result button shows it");
    let shown = revealed["result"].as_str().unwrap();
    assert!(shown.contains(&format!("on tick {}", eight.result.ticks)), "{shown}");
    let described = revealed["descriptions"][1].as_str().unwrap();
    assert!(described.contains("wins") || described.contains("draw"), "{described}");
    assert_eq!(first["replay"], 0);

    assert_eq!(eight_at_3["replay"], 1, "PgDn picks the next replay");
    assert_board(eight_at_3, &eight, 3);
    assert_eq!(eight_at_3["rows"].as_array().unwrap().len(), 8);
    for p in 0..8 {
        let (x, y) = head(&eight, 0, p);
        assert_eq!(colour_at(eight_at_3, x, y), palette::player(p).rgb, "player {p}'s start");
    }

    assert_eq!(evil["replay"], 2);
    assert_eq!(evil["label"], evil_label, "a file name is text");
    assert_eq!(evil["rows"][0][0], hostile.names[0].as_str(), "a name is shown as text, unchanged");
    assert_eq!(evil["rows"][1][0], hostile.names[1].as_str());
    assert_eq!(evil["rows"][0][3], "\"<b>n</b>\" invalid");
    assert_board(evil, &hostile, 2);

    assert_eq!(clicked["replay"], 1, "a click in the list picks a replay");
    assert_eq!(clicked["tick"], 0, "a newly picked replay starts at its first tick");
}

/// A bot for long games: rides on in the direction with the longest free
/// run ahead (the current one on a tie), never reversing into its neck.
fn longest_run(game: &ReferenceGame, id: usize) -> Dir {
    let me = game.player(id);
    let (w, h) = (game.config().width, game.config().height);
    let run = |d: Dir| {
        let mut at = me.pos;
        let mut n = 0;
        while let Some(next) = at.step(d, w, h) {
            if game.cell(next) != EMPTY {
                break;
            }
            at = next;
            n += 1;
        }
        n
    };
    let mut best = me.dir;
    for d in Dir::ALL {
        if d != me.dir.opposite() && run(d) > run(best) {
            best = d;
        }
    }
    best
}

/// A recorded game of two [`longest_run`] bots.
fn long_game(width: u32, height: u32, rock_density: u32, max_ticks: u32, seed: u64) -> Replay {
    let config = Config { width, height, players: 2, max_ticks, rock_density, fault_policy: FaultPolicy::Straight };
    let map = map::generate(&config, seed).unwrap();
    let mut game = ReferenceGame::from_map(&config, &map).unwrap();
    let names = vec!["runner_a".to_string(), "runner_b".to_string()];
    let mut recorder = Recorder::new(&game, &map, Origin::Seed(seed), names);
    while !game.is_over() {
        let answers: Vec<Answer> =
            (0..2).map(|i| Answer::from_line(longest_run(&game, i).as_str().as_bytes())).collect();
        let actions: Vec<_> = answers.iter().map(Answer::action).collect();
        game.step(&actions).unwrap();
        recorder.record(&answers, &game);
    }
    recorder.finish()
}

#[test]
fn a_long_game_on_the_largest_board_draws_the_same_by_steps_and_from_nothing() {
    let Some(tools) = tools_or_skip("a_long_game_on_the_largest_board_draws_the_same_by_steps_and_from_nothing") else {
        return;
    };
    let replay = long_game(255, 255, 1, 2000, 11);
    let last = replay.result.ticks;
    assert_eq!(last, 2000, "both runners last the whole game");
    let page = html::render(&[("long.json", Viewable::check(&replay).unwrap())]);
    let shot = artifacts().join("long_255.png");
    let steps = json!([
        {"do": "measure"},
        probe(),
        {"do": "scrub", "tick": 700},
        probe(),
        key("ArrowLeft", 3),
        probe(),
        {"do": "scrub", "tick": 1400},
        probe(),
        {"do": "screenshot", "path": shot},
    ]);
    let r = drive(&tools, "long", &page, steps);
    let [measured, end, t700, t697, t1400] = &r[..] else { panic!("{} reports", r.len()) };
    assert_eq!(measured["redrawn"], 1, "the jump back to half way is a redraw from nothing");
    assert_board(end, &replay, last);
    assert_board(t700, &replay, 700);
    assert_board(t697, &replay, 697);
    assert_board(t1400, &replay, 1400);
    assert_eq!(stat(t1400, "redraws"), stat(t697, "redraws"), "700 ticks on from 697 are steps, not a redraw");
    eprintln!(
        "255 × 255, {last} ticks, page {} bytes: load {:.1} ms, every tick stepped forward {:.1} ms \
         ({:.3} ms a tick), jump back to tick {} redrawn in {:.1} ms; cell {} px",
        page.len(),
        measured["loadMs"].as_f64().unwrap_or(f64::NAN),
        measured["forwardTotalMs"].as_f64().unwrap(),
        measured["forwardPerTickMs"].as_f64().unwrap(),
        measured["jumpTo"],
        measured["jumpBackMs"].as_f64().unwrap(),
        end["cellSize"],
    );
}

/// Not a browser test: the page size for a default game (48 × 36, 4 %
/// rocks, up to 2000 ticks) that docs/viewer.md reports, kept in check.
#[test]
fn a_default_game_makes_a_small_page() {
    let replay = long_game(48, 36, 4, 2000, 5);
    let page = html::render(&[("default.json", Viewable::check(&replay).unwrap())]);
    let empty_game = {
        let mut r = replay.clone();
        r.frames.truncate(1);
        r.commands.clear();
        r.faults.clear();
        html::render(&[("default.json", Viewable::check(&r).unwrap())])
    };
    let per_tick = (page.len() - empty_game.len()) as f64 / replay.result.ticks as f64;
    eprintln!(
        "a default game of {} ticks: page {} bytes ({} bytes without its frames, {per_tick:.1} bytes a tick)",
        replay.result.ticks,
        page.len(),
        empty_game.len()
    );
    assert!(empty_game.len() < 40_000, "the player itself stays small: {} bytes", empty_game.len());
    assert!(per_tick < 40.0, "two players cost little per tick: {per_tick:.1} bytes");
}

fn lightcycles(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_lightcycles")).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_tournament_report_page_shows_the_json_report_and_opens_replays() {
    let Some(tools) = tools_or_skip("the_tournament_report_page_shows_the_json_report_and_opens_replays") else {
        return;
    };
    let dir = artifacts().join("report-games");
    let _ = std::fs::remove_dir_all(&dir);
    let results = artifacts().join("report.jsonl");
    let report = artifacts().join("report.json");
    let _ = std::fs::remove_file(&results);
    let (dir_s, results_s, report_s) = (dir.to_str().unwrap(), results.to_str().unwrap(), report.to_str().unwrap());
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "builtin:straight", "-g", "4", "-j", "2"];
    args.extend(["--results", results_s, "--report", report_s, "-o", dir_s]);
    args.extend(["--width", "24", "--height", "18", "--max-ticks", "80"]);
    lightcycles(&args);
    let mut replays: Vec<String> =
        (0..12).map(|k| dir.join(format!("sim_{k}.json")).to_str().unwrap().to_string()).collect();
    let viewer = dir.join("replays.html");
    replays.extend(["-o".to_string(), viewer.to_str().unwrap().to_string()]);
    let mut view = vec!["view"];
    view.extend(replays.iter().map(String::as_str));
    lightcycles(&view);
    let page = dir.join("report.html");
    lightcycles(&["tournament", "report", results_s, "-o", page.to_str().unwrap()]);
    let shot = artifacts().join("report.png");
    let reports = drive_file(
        &tools,
        "report",
        &page,
        true,
        json!([
            {"do": "cells", "selector": "#standings tbody tr"},
            {"do": "cells", "selector": "#crosstable tbody tr"},
            {"do": "screenshot", "path": shot},
            {"do": "follow", "selector": "tr[data-game=\"7\"] a"},
        ]),
    );
    let json_report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let bots = json_report["bots"].as_array().unwrap();
    let index = |name: &str| bots.iter().position(|b| b["name"] == name).unwrap_or_else(|| panic!("{name}"));
    let standings = reports[0].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    for row in standings {
        // rank, bot, games, wins, draws, losses, score, rating, mu - 3 sigma, mean place
        let b = &bots[index(row[1].as_str().unwrap())];
        for (k, key) in [(3, "wins"), (4, "draws"), (5, "losses")] {
            assert_eq!(row[k].as_str().unwrap(), b[key].to_string(), "{key} of {}", b["name"]);
        }
        assert_eq!(
            row[2].as_str().unwrap(),
            (b["wins"].as_u64().unwrap() + b["draws"].as_u64().unwrap() + b["losses"].as_u64().unwrap()).to_string()
        );
        assert_eq!(row[6].as_str().unwrap(), format!("{:.1}%", b["score"].as_f64().unwrap() * 100.0));
        assert_eq!(
            row[7].as_str().unwrap(),
            format!("{:.2} ± {:.2}", b["rating"]["mu"].as_f64().unwrap(), b["rating"]["sigma"].as_f64().unwrap())
        );
    }
    // The crosstable's cells are the pairings' W-D-L, in the standings' order.
    let order: Vec<usize> = standings.iter().map(|row| index(row[1].as_str().unwrap())).collect();
    let cross = reports[1].as_array().unwrap();
    for p in json_report["pairings"].as_array().unwrap() {
        let (a, b) = (index(p["bots"][0].as_str().unwrap()), index(p["bots"][1].as_str().unwrap()));
        let row = cross.iter().find(|r| r[0] == bots[a]["name"]).unwrap();
        let col = 1 + order.iter().position(|&j| j == b).unwrap();
        let shown = row[col].as_str().unwrap();
        let wdl = format!("{}-{}-{}", p["wins"], p["draws"], p["losses"]);
        assert!(shown.starts_with(&wdl), "{} against {}: {shown}, not {wdl}", bots[a]["name"], bots[b]["name"]);
    }
    // The link of game 7 opens the viewer at sim_7.json.
    let followed = &reports[2];
    assert_eq!(followed["hash"], "#sim_7.json");
    assert!(followed["label"].as_str().unwrap().ends_with("sim_7.json"), "{followed}");
    assert_eq!(followed["replay"], 7);
    assert!(shot.exists());
}

/// What the bots said: the lines shown follow the tick, a cut is marked,
/// hostile text stays text, and each metric has a chart whose marker
/// follows the tick.
#[test]
fn the_bots_lines_follow_the_tick_and_metrics_are_charted() {
    let Some(tools) = tools_or_skip("the_bots_lines_follow_the_tick_and_metrics_are_charted") else { return };
    use lightcycles_core::replay::Said;
    let mut replay = golden("sim_0.json");
    let said = |tick: u32, player: u32, lines: &[&str], truncated: bool| Said {
        tick,
        player,
        lines: lines.iter().map(|l| l.to_string()).collect(),
        truncated,
    };
    replay.said = Some(vec![
        said(1, 0, &["hello", "[metric] depth=3"], false),
        said(1, 1, &["<b>bold</b>\u{1b}[31m", "[metric] depth=1"], false),
        said(2, 0, &["[metric] depth=5"], false),
        said(3, 1, &["xxxx"], true),
        said(12, 0, &["[metric] depth=9"], false),
    ]);
    lightcycles_core::replay::verify::<ReferenceGame>(&replay).unwrap();
    let page = html::render(&[("said.json", Viewable::check(&replay).unwrap())]);
    let shot = artifacts().join("said_tick_2.png");
    let steps = json!([
        key("Home", 1),
        probe(),
        key("ArrowRight", 1),
        probe(),
        key("ArrowRight", 1),
        {"do": "screenshot", "path": shot},
        probe(),
        key("ArrowRight", 1),
        probe(),
        key("ArrowRight", 1),
        probe(),
        {"do": "scrub", "tick": 12},
        probe(),
    ]);
    let r = drive(&tools, "said", &page, steps);
    let [t0, t1, t2, t3, t4, t12] = &r[..] else { panic!("{} reports", r.len()) };
    assert_eq!(t0["tick"], 0);
    assert_eq!(t0["saidShown"], true);
    assert_eq!(t0["said"], json!([]));
    assert_eq!(t0["saidQuiet"], json!(["nothing before the first tick"]));
    assert_eq!(t1["tick"], 1);
    assert_eq!(
        t1["said"],
        json!([
            ["fuzz0", "hello\n[metric] depth=3", false],
            ["fuzz1", "<b>bold</b>\\u{1b}[31m\n[metric] depth=1", false]
        ]),
        "both bots' lines of tick 1, the escape shown and the markup as text"
    );
    assert_eq!(t2["said"], json!([["fuzz0", "[metric] depth=5", false]]));
    assert_eq!(t3["said"], json!([["fuzz1", "xxxx", true]]), "a cut is marked");
    assert_eq!(t4["said"], json!([]));
    assert_eq!(t4["saidQuiet"], json!(["nothing on this tick"]));
    assert_eq!(t12["said"], json!([["fuzz0", "[metric] depth=9", false]]));
    for (report, tick) in [(t0, 0), (t1, 1), (t2, 2), (t4, 4), (t12, 12)] {
        let charts = report["charts"].as_array().unwrap();
        assert_eq!(charts.len(), 1, "one metric, one chart");
        assert_eq!(charts[0]["metric"], "depth");
        assert_eq!(charts[0]["tick"], tick, "the chart follows the tick");
        assert!(charts[0]["inked"].as_u64().unwrap() > 50, "the chart is drawn: {}", charts[0]);
    }
    assert_eq!(t2["charts"][0]["title"], "tick 2: fuzz0 5");
    assert_eq!(t1["charts"][0]["title"], "tick 1: fuzz0 3, fuzz1 1");
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);

    // A replay of silent bots shows neither section.
    let silent = golden("sim_0.json");
    let page = html::render(&[("sim_0.json", Viewable::check(&silent).unwrap())]);
    let r = drive(&tools, "silent", &page, json!([probe()]));
    assert_eq!(r[0]["saidShown"], false);
    assert_eq!(r[0]["charts"], json!([]));
}
