//! Time banks through the `lightcycles` binary, with real bot processes: a
//! bot sees what is left of its bank in every observation, a slow answer
//! spends it, an empty bank is a timeout, the replay records what each
//! bot was told (and `replay feed` tells it again), the results header
//! records the bank (a resume with another bank is refused), and the end
//! summary shows each bot's bank use.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use lightcycles_core::replay::{verify, Replay};
use lightcycles_core::{FaultKind, ReferenceGame};
use tempfile::TempDir;

use common::output_within;

fn lightcycles() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lightcycles"))
}

fn run(args: &[&str]) -> Output {
    let mut command = lightcycles();
    command.args(args);
    output_within(command, 120)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn replay(path: &Path) -> Replay {
    Replay::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A CodeClash bot that answers, as an (invalid) line, the bank it is told
/// it has: the replay's commands then show every observation's
/// `time_bank_ms` as the bot received it.
const ECHO_PY: &str = "def get_move(obs):\n    return 'bank' + str(obs.get('time_bank_ms'))\n";

/// A JSON-lines bot that sleeps `SLEEP` seconds from its second answer on,
/// then rides straight.
const SLOW_JSON_LINES: &str = "import json, sys, time
SLEEP = float(sys.argv[1])
for line in sys.stdin:
    obs = json.loads(line)
    if obs['tick'] > 1:
        time.sleep(SLEEP)
    print(obs['players'][obs['you']]['dir'], flush=True)
";

#[test]
fn a_codeclash_bot_is_told_its_bank_every_tick_and_replay_feed_tells_it_again() {
    let dir = TempDir::new().unwrap();
    let main = dir.path().join("main.py");
    std::fs::write(&main, ECHO_PY).unwrap();
    let out = dir.path().join("games");
    let spec = format!("echo={}", main.display());
    let args = [
        spec.as_str(),
        "builtin:wallhug",
        "-r",
        "1",
        "--width",
        "20",
        "--height",
        "16",
        "--time-first-ms",
        "5000",
        "--time-ms",
        "1000",
        "--time-bank-ms",
        "700",
        "--time-inc-ms",
        "4",
        "-o",
        out.to_str().unwrap(),
    ];
    let played = run(&[&["play"][..], &args].concat());
    assert!(played.status.success(), "{}", text(&played.stderr));
    let stderr = text(&played.stderr);
    assert!(stderr.contains("time banks: echo used 0 of 700 ms a game"), "{stderr}");
    let sim = out.join("sim_0.json");
    let game = replay(&sim);
    verify::<ReferenceGame>(&game).unwrap();
    let rows = game.time_banks.clone().expect("a game with banks records them");
    assert_eq!(rows.len(), game.commands.len());
    // Each answer is far within 1000 ms: the bank only grows by 4 a tick.
    // (A CodeClash bot whose main.py the host loads answers in microseconds.)
    for (k, (row, commands)) in rows.iter().zip(&game.commands).enumerate() {
        let told = row[0].expect("seat 0 rode every tick it answered");
        assert_eq!(told, 700 + 4 * k as u64, "tick {}", k + 1);
        assert_eq!(commands[0].as_deref(), Some(format!("bank{told}").as_str()), "the bot saw it, tick {}", k + 1);
        assert_eq!(row[1], Some(700 + 4 * k as u64).filter(|_| commands[1].is_some()), "the built-in's bank");
    }
    let limits = game.time_limits.clone().unwrap();
    assert_eq!((limits.bank_ms, limits.inc_ms), (Some(vec![700, 700]), Some(vec![4, 4])));

    // The same bot fed the game again gives the same answers: it is told
    // the same banks. --observation prints the key as the bot got it.
    let fed = run(&["replay", "feed", sim.to_str().unwrap(), "--seat", "0", main.to_str().unwrap()]);
    assert!(fed.status.success(), "{}{}", text(&fed.stdout), text(&fed.stderr));
    let obs = run(&["replay", "feed", sim.to_str().unwrap(), "--seat", "0", "--observation", "3"]);
    let obs: serde_json::Value = serde_json::from_slice(&obs.stdout).unwrap();
    assert_eq!(obs["time_bank_ms"], 708);
}

#[test]
fn slow_answers_spend_the_bank_and_an_empty_bank_is_a_timeout() {
    let dir = TempDir::new().unwrap();
    let bot = dir.path().join("slow.py");
    std::fs::write(&bot, SLOW_JSON_LINES).unwrap();
    let spec = format!("slow=cmd:python3 -u {} 0.15", bot.display());
    let out = dir.path().join("games");
    // 150 ms answers against a 20 ms limit: each spends about 130 ms of a
    // 600 ms bank, so the bot answers in time on ticks 2 and 3 at least,
    // then runs dry within a few ticks and times out.
    let played = run(&[
        "play",
        &spec,
        "builtin:wallhug",
        "-r",
        "1",
        "--width",
        "40",
        "--height",
        "16",
        "--rock-density",
        "0",
        "--time-first-ms",
        "5000",
        "--time-ms",
        "20",
        "--bot-time",
        "slow=5000,20,bank=600",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    let game = replay(&out.join("sim_0.json"));
    let rows = game.time_banks.clone().unwrap();
    let told: Vec<u64> = rows.iter().map_while(|r| r[0]).collect();
    assert_eq!(told[..2], [600, 600], "the first answer is in its own limit");
    assert!(told[2] < 600 && told[2] > 300, "tick 2 spent part of it: {told:?}");
    assert_eq!(game.faults[1][0], None, "tick 2 in time, from the bank");
    assert_eq!(game.faults[2][0], None, "tick 3 in time, from the bank");
    let first_timeout = game.faults.iter().position(|f| f[0] == Some(FaultKind::Timeout));
    let first_timeout = first_timeout.expect("the bank runs dry");
    assert!(first_timeout <= 8, "a 600 ms bank lasts a few 130 ms overruns: {told:?}");
    assert!(told.windows(2).all(|w| w[1] <= w[0]), "no increment: it only shrinks {told:?}");
    assert_eq!(told.get(first_timeout + 1).copied(), Some(0).filter(|_| told.len() > first_timeout + 1));
    assert_eq!(rows.iter().map(|r| r[1]).find(Option::is_some), None, "wallhug keeps the run's (no) bank");
    let stderr = text(&played.stderr);
    assert!(stderr.contains("time banks: slow used 600 of 600 ms a game (most 600 ms)"), "{stderr}");
}

#[test]
fn the_results_header_records_the_bank_and_a_resume_with_another_is_refused() {
    let dir = TempDir::new().unwrap();
    let results = dir.path().join("r.jsonl");
    let base = ["tournament", "builtin:random", "builtin:wallhug", "-g", "2", "--width", "16", "--height", "12"];
    let with = |extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--results", results.to_str().unwrap()]);
        run(&args)
    };
    let first = with(&["--time-bank-ms", "300", "--time-inc-ms", "5", "--bot-time", "random=40,bank=90"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let header: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&results).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!((header["time_bank_ms"].as_u64(), header["time_inc_ms"].as_u64()), (Some(300), Some(5)));
    assert_eq!(
        (header["bots"][0]["time_bank_ms"].as_u64(), header["bots"][0]["time_inc_ms"].as_u64()),
        (Some(90), Some(5))
    );
    assert!(header["bots"][1].get("time_bank_ms").is_none(), "no time of its own");
    let again = with(&["--time-bank-ms", "300", "--time-inc-ms", "5", "--bot-time", "random=40,bank=90", "--resume"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let other = with(&["--time-bank-ms", "301", "--time-inc-ms", "5", "--bot-time", "random=40,bank=90", "--resume"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(text(&other.stderr).contains("time_bank_ms"), "{}", text(&other.stderr));

    // A bank past a day is refused, by flag.
    let huge = with(&["--time-bank-ms", "18446744073709551615"]);
    assert_eq!(huge.status.code(), Some(2));
    let said = text(&huge.stderr);
    assert!(said.contains("--time-bank-ms and --time-inc-ms are at most 86400000 ms"), "{said}");

    // Without a bank the header is as it always was.
    let plain = dir.path().join("plain.jsonl");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--results", plain.to_str().unwrap()]);
    assert!(run(&args).status.success());
    let header = std::fs::read_to_string(&plain).unwrap();
    assert!(!header.lines().next().unwrap().contains("bank"), "{header}");
}
