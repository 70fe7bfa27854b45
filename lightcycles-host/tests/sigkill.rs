//! A tournament killed with SIGKILL at random moments, again and again:
//! no results line, replay or report is ever left half written, and
//! `--resume` always completes the run with the results, replays and report
//! of a run straight through.
//!
//! Half the kill times are drawn from a seeded generator, uniform over the
//! time an uninterrupted run takes, so the kills fall while the host starts,
//! reads its results file back, plays games, writes lines and replays, and
//! writes its report. The other half come as soon as the run has written a
//! new game line, so that kills fall between games however fast the bots
//! are. Built-in bots on small boards keep it quick.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lightcycles_core::replay::Replay;
use serde_json::Value;

/// How many kills that hit a running host the test needs.
const KILLS: usize = 24;

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

/// SplitMix64, for the kill times.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The files of one run: results, report, replays.
struct Run {
    results: PathBuf,
    report: PathBuf,
    games: PathBuf,
}

impl Run {
    fn new(dir: &Path) -> Run {
        Run { results: dir.join("results.jsonl"), report: dir.join("report.json"), games: dir.join("games") }
    }

    fn command(&self, resume: bool) -> Command {
        let mut c = lightcycles();
        c.args(["tournament", "builtin:floodfill", "builtin:wallhug", "builtin:random", "-g", "4", "-s", "5"]);
        c.args(["-j", "2", "--width", "16", "--height", "16", "--log-every", "0"]);
        c.arg("--results").arg(&self.results).arg("--report").arg(&self.report).arg("-o").arg(&self.games);
        if resume {
            c.arg("--resume");
        }
        c.stdin(Stdio::null());
        c
    }

    fn clear(&self) {
        let _ = std::fs::remove_file(&self.results);
        let _ = std::fs::remove_file(&self.report);
        let _ = std::fs::remove_dir_all(&self.games);
    }

    /// The game lines by game, each with its replay named by file name only.
    fn lines(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.results).unwrap();
        let mut games: Vec<Value> = text
            .lines()
            .skip(1)
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                let name = Path::new(v["replay"].as_str().unwrap()).file_name().unwrap().to_str().unwrap().to_string();
                v["replay"] = Value::String(name);
                v
            })
            .collect();
        games.sort_by_key(|v| v["game"].as_u64());
        games
    }

    /// The replay files, by name.
    fn replays(&self) -> Vec<(String, String)> {
        let Ok(entries) = std::fs::read_dir(&self.games) else { return Vec::new() };
        let mut found: Vec<(String, String)> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("sim_"))
            .map(|n| {
                let text = std::fs::read_to_string(self.games.join(&n)).unwrap();
                (n, text)
            })
            .collect();
        found.sort();
        found
    }

    /// Checks that nothing is half written: every results line is whole
    /// JSON ending with a newline, every replay reads and is the reference
    /// run's, the report (if any) is whole.
    fn check_whole(&self, reference: &Run, when: &str) {
        if let Ok(bytes) = std::fs::read(&self.results) {
            assert!(bytes.is_empty() || bytes.ends_with(b"\n"), "{when}: a results line was cut: {bytes:?}");
            for line in String::from_utf8(bytes).unwrap().lines() {
                serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{when}: {line:?}: {e}"));
            }
        }
        let expected: Vec<(String, String)> = reference.replays();
        for (name, text) in self.replays() {
            Replay::from_json(&text).unwrap_or_else(|e| panic!("{when}: {name}: {e}"));
            let same = expected.iter().find(|(n, _)| *n == name).map(|(_, t)| t);
            assert_eq!(Some(&text), same, "{when}: {name} differs from the run straight through");
        }
        if let Ok(text) = std::fs::read_to_string(&self.report) {
            serde_json::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{when}: the report is cut: {e}"));
        }
    }
}

/// The lines of a file, 0 when it is absent.
fn line_count(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn a_tournament_killed_at_random_moments_always_resumes_to_the_same_end() {
    let dir = tempfile::tempdir().unwrap();
    let reference = Run::new(&dir.path().join("straight"));
    std::fs::create_dir_all(dir.path().join("straight")).unwrap();
    let started = Instant::now();
    let straight = reference.command(false).output().unwrap();
    let mut span = started.elapsed();
    assert!(straight.status.success(), "{}", String::from_utf8_lossy(&straight.stderr));
    // The first run of a freshly built binary can be far slower than the
    // next (a cold page cache): the kills are drawn over a warm run's span,
    // the shorter of two, so that enough of them fall between games.
    let warm = Run::new(&dir.path().join("warm"));
    std::fs::create_dir_all(dir.path().join("warm")).unwrap();
    let started = Instant::now();
    assert!(warm.command(false).output().unwrap().status.success());
    span = span.min(started.elapsed());
    let expected_report: Value = serde_json::from_str(&std::fs::read_to_string(&reference.report).unwrap()).unwrap();
    assert_eq!(reference.lines().len(), 12);

    std::fs::create_dir_all(dir.path().join("killed")).unwrap();
    let run = Run::new(&dir.path().join("killed"));
    let mut rng = Rng(2024);
    let (mut kills, mut completions, mut attempts, mut midway) = (0usize, 0usize, 0usize, 0usize);
    let span_us = span.as_micros().max(1) as u64;
    while kills < KILLS {
        attempts += 1;
        assert!(attempts < 20 * KILLS, "{kills} kills in {attempts} attempts: the runs end too soon");
        let resume = run.results.exists();
        let mut child = run.command(resume).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let when = if attempts % 2 == 0 {
            // Every other kill waits for a game line the run writes itself,
            // so that kills fall between games however fast the games are.
            let before = line_count(&run.results).max(1);
            while child.try_wait().unwrap().is_none() && line_count(&run.results) <= before {
                std::thread::sleep(Duration::from_micros(100));
            }
            format!("kill {} after game line {} (resume: {resume})", kills + 1, before + 1)
        } else {
            let delay = Duration::from_micros(rng.next() % span_us);
            std::thread::sleep(delay);
            format!("kill {} after {delay:?} (resume: {resume})", kills + 1)
        };
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            let _ = child.wait_with_output();
            kills += 1;
            run.check_whole(&reference, &when);
            if (2..=12).contains(&line_count(&run.results)) {
                midway += 1;
            }
            continue;
        }
        // The run ended before its kill: it must have ended as the run
        // straight through did. Then start again from nothing.
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{when}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.stdout, straight.stdout, "{when}: the report table");
        run.check_whole(&reference, &when);
        assert_eq!(run.lines(), reference.lines());
        completions += 1;
        run.clear();
    }
    // The last killed run, resumed to its end.
    let resume = run.results.exists();
    let out = run.command(resume).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, straight.stdout);
    run.check_whole(&reference, "the last resume");
    assert_eq!(run.lines(), reference.lines());
    assert_eq!(run.replays(), reference.replays());
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&run.report).unwrap()).unwrap();
    assert_eq!(report, expected_report);
    assert!(midway >= 3, "only {midway} kills fell between the first and the last game");
    eprintln!("{kills} kills ({midway} between games), {completions} runs that ended first, in {attempts} attempts");
}
