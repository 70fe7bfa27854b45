//! `tournament report` and `--html`: the page of every kind of tournament
//! (two seats with an SPRT, gauntlet, free-for-all, league, merged shards,
//! a file still being written) holds the numbers of the JSON report, in its
//! data and in its tables; hostile names stay text; bad input is refused.
//! The page in a real browser is in `tests/browser.rs`.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lightcycles")).args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

const BOARD: [&str; 6] = ["--width", "20", "--height", "16", "--max-ticks", "60"];

/// The JSON embedded in the page.
fn embedded(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"lc-report\">";
    let start = page.find(open).expect("the page embeds its data") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

/// The text of the cell of class `class` in the row `<tr data-bot="i">` of
/// table `table`.
fn cell(page: &str, table: &str, row: &str, class: &str) -> String {
    let t = page.find(&format!("<table id=\"{table}\"")).unwrap_or_else(|| panic!("no table {table}"));
    let t_end = t + page[t..].find("</table>").unwrap();
    let r = t + page[t..t_end].find(row).unwrap_or_else(|| panic!("no row {row} in {table}"));
    let r_end = r + page[r..].find("</tr>").unwrap();
    let open = format!("<td class=\"{class}\">");
    let c =
        r + page[r..r_end].find(&open).unwrap_or_else(|| panic!("no cell {class} in {row} of {table}")) + open.len();
    page[c..c + page[c..].find("</td>").unwrap()].to_string()
}

fn percent(x: &Value) -> String {
    x.as_f64().map_or("-".into(), |x| format!("{:.1}%", x * 100.0))
}

/// The page's report agrees with `report`, field by field, and its tables
/// show the same numbers.
fn check_page(page: &str, report: &Value) {
    let data = embedded(page);
    let shown = &data["report"];
    for key in ["games_played", "bots", "pairings", "sprt", "seats", "league", "pairing", "seed"] {
        assert_eq!(shown[key], report[key], "{key} differs from the JSON report");
    }
    assert!(page.contains(&format!("<span id=\"games-played\">{}</span>", report["games_played"])));
    for (i, bot) in report["bots"].as_array().unwrap().iter().enumerate() {
        let row = format!("<tr data-bot=\"{i}\">");
        assert_eq!(cell(page, "standings", &row, "score"), percent(&bot["score"]), "bot {i}");
        for key in ["wins", "draws", "losses"] {
            assert_eq!(cell(page, "standings", &row, key), bot[key].to_string(), "bot {i} {key}");
        }
        assert_eq!(cell(page, "faults", &row, "timeout"), bot["faults"]["timeout"].to_string());
        assert_eq!(cell(page, "faults", &row, "invalid"), bot["faults"]["invalid"].to_string());
    }
    // Two seats: the crosstable is the pairings' W/D/L, from either side.
    if report["seats"] == 2 {
        let cross = &data["extras"]["cross"];
        for p in report["pairings"].as_array().unwrap() {
            let names: Vec<&str> =
                report["bots"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
            let a = names.iter().position(|n| *n == p["bots"][0]).unwrap();
            let b = names.iter().position(|n| *n == p["bots"][1]).unwrap();
            for key in ["wins", "draws", "losses"] {
                assert_eq!(cross[a][b][key], p[key], "{a} against {b}: {key}");
            }
            assert_eq!(cross[b][a]["wins"], p["losses"]);
        }
    }
    // The page's own counts of seats and head-to-heads are the report's.
    assert_eq!(data["extras"]["cross"], report["crosstable"], "the crosstable");
    for (i, bot) in report["bots"].as_array().unwrap().iter().enumerate() {
        assert_eq!(data["extras"]["by_seat"][i], bot["by_seat"], "bot {i} by seat");
    }
    // The history ends where the standings do.
    let history = data["extras"]["history"].as_array().unwrap();
    assert_eq!(history.last().unwrap()["games"], report["games_played"]);
    for (i, bot) in report["bots"].as_array().unwrap().iter().enumerate() {
        assert_eq!(history.last().unwrap()["ratings"][i][0], bot["rating"]["mu"]);
    }
    for remote in ["http://", "https://", "src=", "<link", "@import", "url("] {
        assert!(!page.contains(remote), "the page must load nothing: found {remote}");
    }
    assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
}

fn json(file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

#[test]
fn two_seats_with_an_sprt_and_replays_beside_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let (results, report, games) = (path(dir.path(), "r.jsonl"), path(dir.path(), "r.json"), path(dir.path(), "games"));
    let sprt = "0,10,0.05,0.05,model=normalized";
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "-g", "12", "-j", "2"];
    args.extend(["--results", &results, "--report", &report, "-o", &games, "--sprt", sprt]);
    args.extend(BOARD);
    ok(&args);
    let page_path = path(Path::new(&games), "page.html");
    let out = ok(&["tournament", "report", &results, "-o", &page_path, "--sprt", sprt]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), page_path);
    let page = std::fs::read_to_string(&page_path).unwrap();
    let report = json(&report);
    assert_eq!(report["sprt"]["model"], "pentanomial, normalized Elo, GSPRT approximation");
    check_page(&page, &report);
    assert!(page.contains(&format!("<span id=\"llr\">{:.2}</span>", report["sprt"]["llr"].as_f64().unwrap())));
    // The header records the model that is not the default, and a report
    // whose --sprt names none judges on it.
    let header: Value =
        serde_json::from_str(std::fs::read_to_string(&results).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["sprt_model"], "normalized");
    let inherited = path(dir.path(), "inherited.html");
    ok(&["tournament", "report", &results, "-o", &inherited, "--sprt", "0,10,0.05,0.05"]);
    check_page(&std::fs::read_to_string(&inherited).unwrap(), &report);
    let logistic = path(dir.path(), "logistic.html");
    ok(&["tournament", "report", &results, "-o", &logistic, "--sprt", "0,10,0.05,0.05,model=logistic"]);
    let logistic = embedded(&std::fs::read_to_string(&logistic).unwrap());
    assert_eq!(logistic["report"]["sprt"]["model"], "pentanomial, logistic Elo, GSPRT approximation");
    assert_ne!(logistic["report"]["sprt"]["llr"], report["sprt"]["llr"]);
    assert!(page.contains("id=\"llr-history\""), "the LLR is drawn");
    // Every game links to its replay in the viewer page beside it.
    for k in 0..12 {
        assert!(page.contains(&format!("<a href=\"replays.html#sim_{k}.json\">view</a>")), "game {k} links");
    }
    // A page elsewhere has no replays beside it: no links.
    let away = path(dir.path(), "away.html");
    ok(&["tournament", "report", &results, "-o", &away]);
    let away = std::fs::read_to_string(&away).unwrap();
    assert!(!away.contains("replays.html#"));
    assert!(!away.contains("id=\"sprt\""), "no --sprt, no SPRT section");
}

#[test]
fn a_free_for_all_with_an_sprt_shows_the_first_bot_against_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let (results, report) = (path(dir.path(), "f.jsonl"), path(dir.path(), "f.json"));
    let sprt = "0,20,0.05,0.1";
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "random2=builtin:random", "--ffa", "3"];
    args.extend(["-g", "30", "-j", "2", "--results", &results, "--report", &report, "--sprt", sprt]);
    args.extend(BOARD);
    ok(&args);
    let page_path = path(dir.path(), "f.html");
    ok(&["tournament", "report", &results, "-o", &page_path, "--sprt", sprt]);
    let page = std::fs::read_to_string(&page_path).unwrap();
    let report = json(&report);
    check_page(&page, &report);
    let field = &report["sprt"]["field"];
    assert_eq!((field["bot"].as_str(), field["sets"].as_u64()), (Some("floodfill"), Some(10)), "{report}");
    assert!(page.contains("<p id=\"field\">floodfill against the field: 10 game sets of 3, score "), "{page}");
    assert!(page.contains("LLR after each of the game sets of 3"), "the LLR is drawn by sets");
    assert!(page.contains(&format!("<span id=\"llr\">{:.2}</span>", report["sprt"]["llr"].as_f64().unwrap())));
}

#[test]
fn gauntlet_free_for_all_and_league_pages_hold_their_reports() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:floodfill", "builtin:random", "builtin:straight"];
    let kinds: [(&str, &[&str]); 3] = [
        ("gauntlet", &["--gauntlet", "-g", "4"]),
        ("ffa", &["--ffa", "3", "-g", "6"]),
        ("league", &["--league", "-g", "8"]),
    ];
    for (kind, extra) in kinds {
        let (results, report) = (path(dir.path(), &format!("{kind}.jsonl")), path(dir.path(), &format!("{kind}.json")));
        let mut args = vec!["tournament"];
        args.extend(bots);
        args.extend(extra);
        args.extend(["-j", "2", "--results", &results, "--report", &report]);
        args.extend(BOARD);
        ok(&args);
        let page_path = path(dir.path(), &format!("{kind}.html"));
        ok(&["tournament", "report", &results, "-o", &page_path]);
        let page = std::fs::read_to_string(&page_path).unwrap();
        check_page(&page, &json(&report));
        assert!(page.contains("id=\"rating-history\""), "{kind}: the ratings are drawn");
        assert!(page.contains("<table id=\"by-seat\">"), "{kind}");
        if kind == "league" {
            assert!(page.contains("the league's rating history"));
        }
        if kind == "ffa" {
            assert!(page.contains("<th>seat 2</th>"), "three seats");
        }
    }
}

#[test]
fn shards_together_and_a_file_still_being_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for i in 0..2 {
        let results = path(dir.path(), &format!("s{i}.jsonl"));
        let shard = format!("{i}/2");
        let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "builtin:straight", "-g", "4"];
        args.extend(["--shard", &shard, "--results", &results, "--maps", "builtin:ring", "builtin:rooms"]);
        ok(&args);
        shards.push(results);
    }
    let (all, report) = (path(dir.path(), "all.jsonl"), path(dir.path(), "all.json"));
    ok(&["tournament", "merge", &shards[0], &shards[1], "-o", &all, "--report", &report]);
    let page_path = path(dir.path(), "shards.html");
    ok(&["tournament", "report", &shards[0], &shards[1], "-o", &page_path]);
    let page = std::fs::read_to_string(&page_path).unwrap();
    let report = json(&report);
    check_page(&page, &report);
    assert!(page.contains("<table id=\"by-map\">") && page.contains("builtin:ring"), "the pool's maps");
    assert!(page.contains("<table id=\"by-size\">"));
    // One shard alone: its own games, counted in order as its run counts them.
    let one = path(dir.path(), "one.html");
    ok(&["tournament", "report", &shards[0], "-o", &one]);
    let one = embedded(&std::fs::read_to_string(&one).unwrap());
    assert_eq!(one["report"]["shard"], "0/2");
    let lines = std::fs::read_to_string(&shards[0]).unwrap().lines().count() as u64 - 1;
    assert_eq!(one["report"]["games_played"], lines);
    assert_eq!(one["extras"]["history"].as_array().unwrap().len() as u64, lines, "a point a game");
    // The merged file gives the same page numbers.
    let merged_page = path(dir.path(), "merged.html");
    ok(&["tournament", "report", &all, "-o", &merged_page]);
    check_page(&std::fs::read_to_string(&merged_page).unwrap(), &report);

    // A file cut in the middle of a line: the complete games are counted.
    let text = std::fs::read_to_string(&all).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = path(dir.path(), "writing.jsonl");
    let complete = lines[..lines.len() - 1].join("\n") + "\n";
    std::fs::write(&cut, format!("{complete}{}", &lines[lines.len() - 1][..20])).unwrap();
    let page_path = path(dir.path(), "writing.html");
    ok(&["tournament", "report", &cut, "-o", &page_path]);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(page.contains("is still being written"), "the torn line is said");
    assert_eq!(embedded(&page)["report"]["games_played"], lines.len() - 2, "all but the header and the torn line");
}

#[test]
fn hostile_names_stay_text() {
    let dir = tempfile::tempdir().unwrap();
    let results = path(dir.path(), "r.jsonl");
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "builtin:straight", "-g", "2"];
    args.extend(["--results", &results]);
    args.extend(BOARD);
    ok(&args);
    // The names rewritten everywhere they occur, as a hostile file would hold them.
    let evil = ["</script><img src=x onerror=alert(1)>", "a\"b'c&d<!--\u{202e}"];
    let text = std::fs::read_to_string(&results).unwrap();
    let mut out = String::new();
    for (k, line) in text.lines().enumerate() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        if k == 0 {
            v["bots"][0]["name"] = evil[0].into();
            v["bots"][1]["name"] = evil[1].into();
        } else {
            for name in v["bots"].as_array_mut().unwrap() {
                if name == "floodfill" {
                    *name = evil[0].into();
                } else if name == "random" {
                    *name = evil[1].into();
                }
            }
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(&results, out).unwrap();
    let page_path = path(dir.path(), "page.html");
    ok(&["tournament", "report", &results, "-o", &page_path]);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(!page.contains("<img"), "no markup from a name");
    assert!(!page.contains("a\"b"), "no quote from a name");
    let markup = &page[..page.find("<script type=\"application/json\"").unwrap()];
    assert!(!markup.contains('\u{202e}'), "no bidirectional control shown from a name");
    assert!(markup.contains("\\u{202e}"), "but the control written visibly");
    assert_eq!(page.matches("</script>").count(), 1, "only the data element closes");
    assert!(page.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
    let data = embedded(&page);
    assert_eq!(data["report"]["bots"][0]["name"], evil[0], "the data holds the names unchanged");
    assert_eq!(data["report"]["bots"][1]["name"], evil[1]);
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let junk = path(dir.path(), "junk.jsonl");
    std::fs::write(&junk, "not json\n").unwrap();
    let page = path(dir.path(), "p.html");
    let out = run(&["tournament", "report", &junk, "-o", &page]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("junk.jsonl") && err.contains("line 1"), "{err}");
    assert!(!Path::new(&page).exists(), "nothing written");
    // Two tournaments' files do not make one page.
    let (a, b) = (path(dir.path(), "a.jsonl"), path(dir.path(), "b.jsonl"));
    for (file, seed) in [(&a, "1"), (&b, "2")] {
        let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "-g", "2", "-s", seed];
        args.extend(["--results", file.as_str()]);
        args.extend(BOARD);
        ok(&args);
    }
    let out = run(&["tournament", "report", &a, &b, "-o", &page]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("b.jsonl is not of the same tournament") && err.contains("seed"), "{err}");
    let out = run(&["tournament", "report", &a, "-o", &page, "--sprt", "0,5,0.05,0.05,model=bayes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("model \"bayes\" is not logistic or normalized"));
}

#[test]
fn html_on_a_running_tournament_is_the_final_page() {
    let dir = tempfile::tempdir().unwrap();
    let (results, report, page) = (path(dir.path(), "r.jsonl"), path(dir.path(), "r.json"), path(dir.path(), "p.html"));
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:straight", "-g", "6", "--results", &results];
    args.extend(["--report", &report, "--html", &page]);
    args.extend(BOARD);
    let plain = ok(&args);
    check_page(&std::fs::read_to_string(&page).unwrap(), &json(&report));
    let header = std::fs::read_to_string(&results).unwrap();
    assert!(!header.lines().next().unwrap().contains("sprt_model"), "no --sprt, nothing recorded");
    // --html needs a results file to read.
    let out = run(&["tournament", "builtin:floodfill", "builtin:straight", "-g", "2", "--html", &page]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    // The table on stdout does not change with --html.
    let r2 = path(dir.path(), "r2.jsonl");
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:straight", "-g", "6", "--results", &r2];
    args.extend(["--report", &report]);
    args.extend(BOARD);
    let without = ok(&args);
    assert_eq!(plain.stdout, without.stdout);
}

#[test]
fn the_default_model_leaves_the_header_as_it_was_and_a_resume_may_change_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, logistic) = (path(dir.path(), "plain.jsonl"), path(dir.path(), "logistic.jsonl"));
    for (file, sprt) in [(&plain, None), (&logistic, Some("0,10,0.05,0.05"))] {
        let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "-g", "4", "--results", file.as_str()];
        args.extend(sprt.map(|s| ["--sprt", s]).into_iter().flatten());
        args.extend(BOARD);
        ok(&args);
    }
    let first_line = |f: &str| std::fs::read_to_string(f).unwrap().lines().next().unwrap().to_string();
    assert_eq!(first_line(&plain), first_line(&logistic), "a logistic --sprt writes the header of a run without one");
    // The model is not part of what a resume must match.
    let mut args = vec!["tournament", "builtin:floodfill", "builtin:random", "-g", "8", "--results", &logistic];
    args.extend(["--resume", "--sprt", "0,10,0.05,0.05,model=normalized"]);
    args.extend(BOARD);
    let out = ok(&args);
    assert!(String::from_utf8_lossy(&out.stdout).contains("normalized Elo"));
}

#[test]
fn html_is_rewritten_while_the_games_are_played() {
    let dir = tempfile::tempdir().unwrap();
    let (results, page) = (path(dir.path(), "r.jsonl"), path(dir.path(), "live.html"));
    // A bot that takes 300 ms over each answer (in time at 1 s): 8 games of
    // 4 ticks take about 10 s, one game at a time.
    let slow = "slow=cmd:while read l; do sleep 0.3; echo N; done";
    let mut child = Command::new(env!("CARGO_BIN_EXE_lightcycles"))
        .args(["tournament", slow, "builtin:straight", "-g", "8", "-j", "1", "--results", &results, "--html", &page])
        .args(["--width", "20", "--height", "16", "--max-ticks", "4", "--time-ms", "1000", "--log-seconds", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let mut seen_while_running = None;
    while child.try_wait().unwrap().is_none() {
        if seen_while_running.is_none() {
            if let Ok(text) = std::fs::read_to_string(&page) {
                seen_while_running = Some(embedded(&text)["report"]["games_played"].as_u64().unwrap());
            }
        }
        assert!(start.elapsed().as_secs() < 120, "the tournament did not end");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let during = seen_while_running.expect("a page was written before the tournament ended");
    assert!(during < 8, "the page while running showed {during} games");
    let last = embedded(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(last["report"]["games_played"], 8, "the last page has every game");
}
