//! The 2010 map loader (docs/RULES.md section 9) on any text: a map that loads
//! is a board both engines can start from, and writing it out again loads
//! the same map; anything else is an error that points inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lightcycles_core::config::{MAX_SIDE, MIN_SIDE};
use lightcycles_core::map::parse_2010;
use lightcycles_core::{Config, Engine, FastGame, FaultPolicy, ReferenceGame, Map, Pos};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match parse_2010(&text) {
        Ok(map) => check_map(&map),
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(e.line >= 1 && e.line <= lines + 1, "line {} of {lines}", e.line);
            assert!(e.column >= 1, "column {}", e.column);
            assert!(!e.expected.is_empty());
        }
    }
});

fn check_map(map: &Map) {
    assert!((MIN_SIDE..=MAX_SIDE).contains(&map.width) && (MIN_SIDE..=MAX_SIDE).contains(&map.height));
    assert_eq!(map.starts.len(), 2);
    map.validate().expect("a loaded map fits together");
    // Written out in the same format, it loads as the same map.
    let mut text = format!("{} {}\n", map.width, map.height);
    for y in 0..map.height {
        for x in 0..map.width {
            let pos = Pos::new(x as u8, y as u8);
            text.push(match map.starts.iter().position(|s| s.pos == pos) {
                Some(0) => '1',
                Some(_) => '2',
                None if map.is_rock(pos) => '#',
                None => ' ',
            });
        }
        text.push('\n');
    }
    assert_eq!(parse_2010(&text).as_ref(), Ok(map));
    // Both engines start from it, identically.
    let config = Config {
        width: map.width,
        height: map.height,
        players: 2,
        max_ticks: 10,
        rock_density: 0,
        fault_policy: FaultPolicy::Straight,
    };
    let reference = ReferenceGame::from_map(&config, map).expect("the reference engine starts");
    let fast = FastGame::from_map(&config, map).expect("the fast engine starts");
    assert_eq!(reference.position(), fast.position());
}
