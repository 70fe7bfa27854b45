//! `replay show` prints a known board: the plain output for a golden replay
//! at a known tick is compared with a file checked by hand. Set
//! `LIGHTCYCLES_BLESS=1` to rewrite the expected files after a deliberate
//! change of the output, and read the diff before committing it.

use std::path::PathBuf;

use lightcycles_host::view::{parse, terminal};

fn golden_replay(name: &str) -> lightcycles_core::replay::Replay {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lightcycles-core/tests/golden-replays").join(name);
    parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn check(replay: &str, tick: Option<u32>, expected: &str) {
    let shown = terminal::render_replay(&golden_replay(replay), tick, false).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(expected);
    if std::env::var_os("LIGHTCYCLES_BLESS").is_some() {
        std::fs::write(&path, &shown).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(shown, want, "{replay} at tick {tick:?} differs from {}", path.display());
}

#[test]
fn sim_0_at_tick_12() {
    check("sim_0.json", Some(12), "sim_0_tick_12.txt");
}

#[test]
fn sim_0_at_its_end_by_default() {
    check("sim_0.json", None, "sim_0_end.txt");
}

#[test]
fn a_custom_map_ending_in_a_head_on_draw() {
    check("map_headon_draw.json", None, "map_headon_draw_end.txt");
}
