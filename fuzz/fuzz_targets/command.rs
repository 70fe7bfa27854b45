//! The one parser of answer lines and how answers are recorded (docs/RULES.md
//! section 6): any bytes a bot may send are a move or an invalid line, and
//! the recorded line plays the same on replay, through the replay's JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lightcycles_core::command::{parse_move, Action, Answer, FaultKind, MAX_LINE_BYTES, MAX_RECORDED_BYTES};

fuzz_target!(|raw: &[u8]| {
    let parsed = parse_move(raw);
    let answer = Answer::from_line(raw);
    let line = answer.line.as_deref().expect("a bot that sent a line has it recorded");

    // What the game does with the answer is what the parser says.
    match parsed {
        Some(dir) => {
            assert!(raw.len() <= MAX_LINE_BYTES);
            assert_eq!(answer.fault, None);
            assert_eq!(line, dir.as_str(), "a move is recorded as its letter");
            assert_eq!(answer.action(), Action::Move(dir));
        }
        None => {
            assert_eq!(answer.fault, Some(FaultKind::Invalid));
            assert_eq!(answer.action(), Action::Fault(FaultKind::Invalid));
        }
    }
    // A recorded line is short, and so is its record again: recording is
    // idempotent, so a replay re-recorded by another tool says the same.
    assert!(line.len() <= MAX_RECORDED_BYTES, "{} bytes recorded", line.len());
    assert_eq!(Answer::from_line(line.as_bytes()), answer);

    // Replay stability: the line and fault, written to a replay's JSON and
    // read back, give the same action as the game did.
    let json = serde_json::to_string(&(&answer.line, &answer.fault)).unwrap();
    let (line, fault): (Option<String>, Option<FaultKind>) = serde_json::from_str(&json).unwrap();
    let back = Answer { line, fault };
    assert_eq!(back, answer);
    assert_eq!(back.action(), answer.action());
});
