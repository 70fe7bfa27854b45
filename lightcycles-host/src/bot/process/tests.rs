//! Tests of bot processes: answers by number, late lines, ends, logs and
//! limits.

use std::time::{Duration, Instant};

use super::*;
use crate::bot::process::lines::ANSWER_LINE_CAP;
use crate::bot::process::log::BotLog;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::{Asked, Reply};

fn bot(script: &str) -> LineBot {
    LineBot::spawn(shell(script), &Sandbox::default(), BotLog::discard(), "test bot").unwrap()
}

fn ask(bot: &mut LineBot, tick: u32, ms: u64) -> Reply {
    match bot.ask(format!("obs {tick}\n").into_bytes(), tick, Duration::from_millis(ms)) {
        Asked::Answered(r) => r,
        Asked::Pending => bot.collect(),
    }
}

fn line(s: &str) -> Reply {
    Reply::Line(s.as_bytes().to_vec())
}

#[test]
fn an_echo_bot_answers_each_message() {
    let mut b = bot("while read -r a b; do echo \"N $b\"; done");
    for tick in 1..=5 {
        assert_eq!(ask(&mut b, tick, 5000), line(&format!("N {tick}")));
    }
}

#[test]
fn a_late_answer_is_a_timeout_and_never_the_next_answer() {
    // Tick 2 is answered after 400 ms; every other tick at once.
    let mut b = bot("while read -r a t; do if [ \"$t\" = 2 ]; then sleep 0.4; fi; echo \"$t\"; done");
    assert_eq!(ask(&mut b, 1, 5000), line("1"));
    assert_eq!(ask(&mut b, 2, 50), Reply::Timeout);
    // The late "2" comes while tick 3 is asked: it is thrown away.
    assert_eq!(ask(&mut b, 3, 5000), line("3"));
    assert_eq!(ask(&mut b, 4, 5000), line("4"));
}

#[test]
fn lines_written_before_a_message_answer_nothing() {
    // Three unasked lines at start, then one answer per message.
    let mut b = bot("echo x; echo y; echo z; while read -r a t; do echo \"$t\"; done");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(ask(&mut b, 1, 5000), line("1"));
    assert_eq!(ask(&mut b, 2, 5000), line("2"));
}

#[test]
fn an_exit_is_a_crash_from_then_on() {
    let mut b = bot("read -r a; echo N; read -r a; exit 3");
    assert_eq!(ask(&mut b, 1, 5000), line("N"));
    assert_eq!(ask(&mut b, 2, 5000), Reply::Crash);
    assert_eq!(ask(&mut b, 3, 5000), Reply::Crash);
}

#[test]
fn a_bot_whose_child_keeps_the_pipe_is_a_crash_once_it_exits() {
    // The background sleep holds stdout open after the shell exits.
    let mut b = bot("sleep 30 & read -r a; echo N; read -r a; exit 0");
    assert_eq!(ask(&mut b, 1, 5000), line("N"));
    assert_eq!(ask(&mut b, 2, 300), Reply::Crash);
}

#[test]
fn a_bot_that_closes_its_stdin_is_a_crash_from_then_on_and_it_is_logged() {
    // Reads one line, answers, closes its stdin, and stays alive.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.log");
    let mut b = LineBot::spawn(
        shell("read -r a; echo N; exec 0<&-; sleep 30"),
        &Sandbox::default(),
        BotLog::at(path.clone()),
        "test bot",
    )
    .unwrap();
    assert_eq!(ask(&mut b, 1, 5000), line("N"));
    std::thread::sleep(Duration::from_millis(200));
    let replies: Vec<Reply> = (2..=4).map(|tick| ask(&mut b, tick, 300)).collect();
    assert_eq!(replies, vec![Reply::Crash; 3]);
    let log = std::fs::read_to_string(&path).unwrap();
    assert!(log.contains("cannot write to the bot's stdin"), "{log}");
}

#[test]
fn a_program_that_cannot_start_crashes_every_tick() {
    let mut b = bot("exec /nonexistent/program");
    assert_eq!(ask(&mut b, 1, 5000), Reply::Crash);
    assert_eq!(ask(&mut b, 2, 5000), Reply::Crash);
}

/// Whether process `pid` still runs (neither gone nor a zombie).
fn runs(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')))
}

#[test]
fn every_process_of_the_group_is_gone_when_the_bot_is_dropped() {
    // The shell runs a child (it does not exec a compound command) that
    // ignores SIGTERM; the child's command line holds a mark (process ids
    // inside the bot's namespace mean nothing to the host).
    let mark = format!("lc-group-gone-{}", std::process::id());
    let mut process = BotProcess::spawn(
        shell(&format!("sh -c 'trap \"\" TERM; sleep 30' {mark} & echo started; wait")),
        &Sandbox::default(),
        ANSWER_LINE_CAP,
        BotLog::discard(),
        "test bot",
    )
    .unwrap();
    let Next::Line(said, _) = process.next_line(Instant::now() + Duration::from_secs(5)) else { panic!("no line") };
    assert_eq!(said, b"started");
    let until = Instant::now() + Duration::from_secs(5);
    while marked(&mark).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!marked(&mark).is_empty(), "the child did not start");
    drop(process);
    assert!(marked(&mark).is_empty(), "the child {:?} outlived its bot", marked(&mark));
}

/// The running processes (not zombies) whose command line holds `mark`.
fn marked(mark: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|pid| {
            runs(pid)
                && std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(mark))
        })
        .collect()
}

#[test]
fn a_bot_that_never_reads_is_not_waited_for() {
    // 300 kB a message: the pipe fills, and the host must not block.
    let mut b = bot("sleep 30");
    let big = vec![b'x'; 300_000];
    let mut replies = Vec::new();
    for tick in 1..=4 {
        let mut message = big.clone();
        message.push(b'\n');
        replies.push(match b.ask(message, tick, Duration::from_millis(20)) {
            Asked::Answered(r) => r,
            Asked::Pending => b.collect(),
        });
    }
    assert!(replies.iter().all(|r| *r == Reply::Timeout), "{replies:?}");
}
