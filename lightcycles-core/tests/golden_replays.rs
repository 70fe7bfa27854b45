//! Every golden replay of `tests/golden-replays` (recorded by an
//! independent implementation of docs/RULES.md, copied here) verifies frame for
//! frame, and a replay changed anywhere is rejected at the first difference.
#![cfg(feature = "serde")]

use std::path::PathBuf;

use lightcycles_core::replay::{self, Replay, ReplayError};
use lightcycles_core::ReferenceGame;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden-replays")
}

fn load(name: &str) -> Replay {
    let text = std::fs::read_to_string(golden_dir().join(name)).unwrap();
    Replay::from_json(&text).unwrap()
}

fn all() -> Vec<(String, Replay)> {
    let mut names: Vec<String> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names.into_iter().map(|n| (n.clone(), load(&n))).collect()
}

#[test]
fn every_golden_replay_verifies_on_the_reference_engine() {
    let replays = all();
    assert_eq!(replays.len(), 24, "the 24 golden replays are all here");
    for (name, r) in &replays {
        let outcome = replay::verify::<ReferenceGame>(r).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(outcome.winner, r.winner, "{name}");
    }
}

#[test]
fn golden_replays_cover_what_their_readme_promises() {
    let headon = load("map_headon_draw.json");
    assert!(headon.seed.is_none() && headon.map.is_some());
    assert!(headon.result.draw);
    let cap = load("cap_draw.json");
    assert_eq!(cap.result.ticks, cap.max_ticks);
    assert_eq!(load("eight_players.json").num_players, 8);
    let long = load("reversal_and_long_line.json");
    let line = long.commands.iter().flatten().flatten().find(|l| l.len() > 1).unwrap();
    assert!(line.ends_with('…'));
    assert_eq!(line.len(), 60 + '…'.len_utf8());
}

fn expect_mismatch(r: &Replay, field: &str, tick: u32) {
    match replay::verify::<ReferenceGame>(r) {
        Err(ReplayError::Mismatch(m)) => {
            assert_eq!(m.field, field, "{m}");
            assert_eq!(m.tick, tick, "{m}");
        }
        other => panic!("expected a mismatch of {field} at tick {tick}, got {other:?}"),
    }
}

#[test]
fn a_changed_frame_command_or_rock_is_the_first_difference() {
    let base = load("sim_0.json");

    let mut r = base.clone();
    r.frames[5].heads[1][0] += 1;
    expect_mismatch(&r, "heads", 5);

    let mut r = base.clone();
    r.frames[7].dirs[0] = r.frames[7].dirs[0].opposite();
    expect_mismatch(&r, "dirs", 7);

    // A different valid command changes the next frame.
    let mut r = base.clone();
    let k = (0..r.commands.len())
        .find(|&k| r.commands[k][0].as_deref() == Some("N") || r.commands[k][0].as_deref() == Some("S"))
        .unwrap();
    let old = r.commands[k][0].clone().unwrap();
    r.commands[k][0] = Some(if old == "N" { "E" } else { "W" }.into());
    expect_mismatch(&r, "heads", k as u32 + 1);

    // An invalid line where a valid one stood no longer matches its fault.
    let mut r = base.clone();
    r.commands[k][0] = Some("north".into());
    expect_mismatch(&r, "faults", k as u32 + 1);

    let mut r = base.clone();
    r.rocks[3][0] += 1;
    expect_mismatch(&r, "rocks[3]", 0);

    let mut r = base.clone();
    r.rocks.pop();
    expect_mismatch(&r, &format!("rocks[{}]", base.rocks.len() - 1), 0);

    let mut r = base.clone();
    r.winner = Some(1 - base.winner.unwrap());
    expect_mismatch(&r, "winner", base.result.ticks);

    let mut r = base.clone();
    r.result.trails[0] += 1;
    expect_mismatch(&r, "result.trails", base.result.ticks);

    let mut r = base;
    r.commands.pop();
    r.faults.pop();
    expect_mismatch(&r, "commands", r.commands.len() as u32 + 1);
}

#[test]
fn malformed_replays_are_told_apart_from_differences() {
    let base = load("sim_3.json");
    let mut r = base.clone();
    r.format = "lightcycles-replay/2".into();
    assert!(matches!(replay::verify::<ReferenceGame>(&r), Err(ReplayError::Malformed(_))));
    let mut r = base.clone();
    r.commands[2].pop();
    assert!(matches!(replay::verify::<ReferenceGame>(&r), Err(ReplayError::Malformed(_))));
    let mut r = base.clone();
    r.config.width = 300;
    assert!(matches!(replay::verify::<ReferenceGame>(&r), Err(ReplayError::Malformed(_))));
    let mut r = base;
    r.seed = None;
    assert!(matches!(replay::verify::<ReferenceGame>(&r), Err(ReplayError::Malformed(_))));
    for text in ["", "{", "[]", "{\"format\": 3}", "null"] {
        assert!(matches!(Replay::from_json(text), Err(ReplayError::Malformed(_))), "{text}");
    }
}

#[test]
fn a_replay_round_trips_through_json() {
    for (name, r) in all() {
        let again = Replay::from_json(&r.to_json()).unwrap();
        assert_eq!(again, r, "{name}");
    }
}
