//! A replay file is untrusted: every list in it is read with the bound the
//! rules give it, so a file of empty lists cannot ask for memory out of
//! proportion to its text. The golden replays stay well within the bounds.
#![cfg(feature = "serde")]

use lightcycles_core::replay::{Replay, MAX_TICKS_IN_REPLAY};
use serde_json::Value;

const SIM: &str = include_str!("golden-replays/sim_0.json");
const EIGHT: &str = include_str!("golden-replays/eight_players.json");

fn with(text: &str, pointer: &str, value: Value) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    *v.pointer_mut(pointer).unwrap() = value;
    v.to_string()
}

fn refused(text: &str) -> String {
    Replay::from_json(text).unwrap_err().to_string()
}

#[test]
fn the_golden_replays_are_within_the_bounds() {
    for text in [SIM, EIGHT] {
        let r = Replay::from_json(text).unwrap();
        assert!(r.frames.len() <= MAX_TICKS_IN_REPLAY + 1);
    }
    let eight = Replay::from_json(EIGHT).unwrap();
    assert_eq!((eight.names.len(), eight.frames[0].heads.len()), (8, 8), "eight players fit exactly");
}

#[test]
fn lists_longer_than_the_rules_allow_are_refused_naming_the_list() {
    let nine = |v: Value| Value::Array(vec![v; 9]);
    let cases = [
        ("/names", nine("a".into()), "names: more than 8 entries"),
        ("/start", nine(serde_json::json!([1, 1, "N"])), "start: more than 8 entries"),
        ("/frames/0/heads", nine(serde_json::json!([1, 1, 1])), "heads: more than 8 entries"),
        ("/frames/3/dirs", nine("N".into()), "dirs: more than 8 entries"),
        ("/commands/2", nine(Value::Null), "commands: more than 8 entries"),
        ("/faults/0", nine(Value::Null), "faults: more than 8 entries"),
        ("/result/placements", nine(1.into()), "placements: more than 8 entries"),
        ("/result/eliminated_at", nine(Value::Null), "eliminated_at: more than 8 entries"),
        ("/result/trails", nine(1.into()), "trails: more than 8 entries"),
        ("/rocks", Value::Array(vec![serde_json::json!([0, 0]); 255 * 255 + 1]), "rocks: more than 65025 entries"),
    ];
    for (pointer, value, message) in cases {
        let e = refused(&with(SIM, pointer, value));
        assert!(e.starts_with(&format!("malformed replay: {message} at line 1 column")), "{pointer}: {e}");
    }
}

#[test]
fn a_million_empty_rows_are_refused_at_the_first_row_past_the_bound() {
    for (field, row) in [("commands", "[]"), ("faults", "[]"), ("frames", "[0,[],[]]")] {
        let rows = format!("{row},").repeat(1_000_000);
        let text = format!("{{\"format\": \"lightcycles-replay/1\", \"{field}\": [{rows}{row}]}}");
        let e = refused(&text);
        let bound = if field == "frames" { MAX_TICKS_IN_REPLAY + 1 } else { MAX_TICKS_IN_REPLAY };
        let column = "{\"format\": \"lightcycles-replay/1\", \"".len()
            + field.len()
            + "\": [".len()
            + (row.len() + 1) * bound
            + row.len()
            + 1;
        assert_eq!(e, format!("malformed replay: {field}: more than {bound} entries at line 1 column {column}"));
    }
}

#[test]
fn deep_nesting_stops_at_the_first_wrong_type_or_the_recursion_limit() {
    let deep = format!("{{\"names\": {}", "[".repeat(100_000));
    assert!(refused(&deep).contains("invalid type: sequence, expected a string at line 1 column 11"));
    // A field the replay does not know is skipped without recursion (and
    // without a stack overflow), however deep.
    let unknown = format!("{{\"extra\": {}", "[".repeat(100_000));
    assert!(refused(&unknown).contains("EOF while parsing a list at line 1 column 100010"), "{}", refused(&unknown));
    let closed = format!("{{\"extra\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(refused(&closed).contains("missing field `format`"), "{}", refused(&closed));
}
