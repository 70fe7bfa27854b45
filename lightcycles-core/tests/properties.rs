//! Property tests: the engine keeps its invariants and is deterministic
//! whatever the bots say, and the parsers never panic on any input.

use lightcycles_core::map::parse_2010;
use lightcycles_core::{parse_move, Action, Answer, Config, Engine, FaultKind, FaultPolicy, ReferenceGame};
use proptest::prelude::*;

fn config() -> impl Strategy<Value = Config> {
    (2u32..=8, 0u32..=25, 1u32..=60, any::<bool>(), 0u32..40, 0u32..40).prop_map(
        |(players, rock_density, max_ticks, eliminate, dw, dh)| {
            let min = if players >= 3 { 16 } else { 8 };
            Config {
                width: min + dw,
                height: min + dh,
                players,
                max_ticks,
                rock_density,
                fault_policy: if eliminate { FaultPolicy::Eliminate } else { FaultPolicy::Straight },
            }
        },
    )
}

/// An answer line: mostly moves, often garbage of every kind.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::sample::select(vec!["N", "E", "S", "W", " N\r", "E\n"]).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..80),
        1 => ".*".prop_map(String::into_bytes),
    ]
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        8 => line().prop_map(|l| Answer::from_line(&l)),
        1 => Just(Answer::fault(FaultKind::Timeout)),
        1 => Just(Answer::fault(FaultKind::Crash)),
        1 => Just(Answer::none()),
    ]
}

fn play(config: &Config, seed: u64, script: &[Vec<Answer>]) -> Option<Vec<lightcycles_core::Position>> {
    let mut game = ReferenceGame::seeded(config, seed).ok()?;
    let n = game.num_players();
    let mut positions = vec![game.position()];
    for tick in script {
        if game.is_over() {
            break;
        }
        let actions: Vec<Action> = (0..n).map(|i| tick[i % tick.len()].action()).collect();
        game.step(&actions).unwrap();
        positions.push(game.position());
    }
    Some(positions)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_commands_keep_the_state_valid_and_the_game_deterministic(
        config in config(),
        seed in any::<u64>(),
        script in prop::collection::vec(prop::collection::vec(answer(), 1..9), 0..60),
    ) {
        let Some(positions) = play(&config, seed, &script) else { return Ok(()) };
        for (before, after) in positions.iter().zip(&positions[1..]) {
            // Heads on their own trail cells, trail lengths equal to cell counts.
            prop_assert!(after.validate().is_ok(), "{:?}", after.validate());
            prop_assert_eq!(after.tick, before.tick + 1);
            for (p, q) in before.players.iter().zip(&after.players) {
                prop_assert!(q.trail >= p.trail, "trails only grow");
                prop_assert!(q.trail <= p.trail + 1);
                prop_assert!(p.alive || !q.alive, "the dead stay dead");
            }
            for (a, b) in before.grid.iter().zip(&after.grid) {
                prop_assert!(*a == -1 || a == b, "a filled cell never changes");
            }
            let living: Vec<_> = after.players.iter().filter(|p| p.alive).map(|p| p.pos).collect();
            for (k, p) in living.iter().enumerate() {
                prop_assert!(!living[..k].contains(p), "two living heads on one cell");
            }
        }
        prop_assert_eq!(Some(positions), play(&config, seed, &script), "same inputs, same game");
    }

    #[test]
    fn the_parser_takes_any_bytes(raw in prop::collection::vec(any::<u8>(), 0..2000)) {
        let answer = Answer::from_line(&raw);
        let parsed = parse_move(&raw);
        prop_assert_eq!(answer.action(), parsed.map_or(Action::Fault(FaultKind::Invalid), Action::Move));
        let recorded = answer.line.unwrap();
        prop_assert!(recorded.len() <= 64, "recorded lines are at most 64 bytes: {}", recorded.len());
        // A recorded line replays to the same move or the same fault.
        prop_assert_eq!(parse_move(recorded.as_bytes()), parsed);
    }

    #[test]
    fn padded_moves_replay_as_they_played(before in 0usize..1100, after in 0usize..1100, letter in prop::sample::select(vec![b'N', b'E', b'S', b'W'])) {
        let mut raw = vec![b' '; before];
        raw.push(letter);
        raw.extend(std::iter::repeat_n(b'\t', after));
        let answer = Answer::from_line(&raw);
        let recorded = answer.line.clone().unwrap();
        prop_assert_eq!(parse_move(&raw).is_some(), raw.len() <= 1024);
        prop_assert_eq!(Answer::from_line(recorded.as_bytes()).action(), answer.action());
    }

    #[test]
    fn config_validation_never_panics(
        width in any::<u32>(), height in any::<u32>(), players in any::<u32>(),
        max_ticks in any::<u32>(), rock_density in any::<u32>(),
    ) {
        let c = Config { width, height, players, max_ticks, rock_density, fault_policy: FaultPolicy::Straight };
        let in_bounds = (8..=255).contains(&width) && (8..=255).contains(&height) && (2..=8).contains(&players)
            && (1..=1_000_000).contains(&max_ticks) && rock_density <= 25
            && (players < 3 || (width >= 16 && height >= 16));
        prop_assert_eq!(c.validate().is_ok(), in_bounds);
    }

    #[test]
    fn the_map_loader_takes_any_text(text in ".{0,400}") {
        let _ = parse_2010(&text);
    }

    #[test]
    fn the_map_loader_takes_near_maps(
        width in 8u32..20, height in 8u32..20, cells in prop::collection::vec(prop::sample::select(vec!['#', ' ', ' ', ' ', '1', '2', 'x', '\r']), 400),
    ) {
        let mut text = format!("{width} {height}\n");
        for y in 0..height as usize {
            let row: String = cells[y * 20..y * 20 + width as usize].iter().collect();
            text.push_str(&row);
            text.push('\n');
        }
        if let Ok(map) = parse_2010(&text) {
            prop_assert_eq!(map.starts.len(), 2);
            prop_assert!(map.validate().is_ok());
        }
    }

    #[test]
    fn seeded_maps_round_trip_through_the_2010_format(seed in any::<u64>(), density in 0u32..=25) {
        let config = Config { width: 20, height: 12, rock_density: density, ..Config::default() };
        let map = lightcycles_core::map::generate(&config, seed).unwrap();
        let mut text = format!("{} {}\n", map.width, map.height);
        for y in 0..map.height {
            for x in 0..map.width {
                let pos = lightcycles_core::Pos::new(x as u8, y as u8);
                let c = match map.starts.iter().position(|s| s.pos == pos) {
                    Some(0) => '1',
                    Some(_) => '2',
                    None if map.is_rock(pos) => '#',
                    None => ' ',
                };
                text.push(c);
            }
            text.push('\n');
        }
        let loaded = parse_2010(&text).unwrap();
        prop_assert_eq!(loaded.rocks, map.rocks);
        prop_assert_eq!(loaded.starts.iter().map(|s| s.pos).collect::<Vec<_>>(), map.starts.iter().map(|s| s.pos).collect::<Vec<_>>());
    }
}

#[cfg(feature = "serde")]
proptest! {
    /// A golden replay cut short or with bytes changed is rejected or
    /// replayed, never a panic.
    #[test]
    fn the_replay_loader_takes_damaged_files(cut in 0usize..4000, flips in prop::collection::vec((0usize..4000, any::<u8>()), 0..4)) {
        use lightcycles_core::replay::{self, Replay};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden-replays/sim_0.json");
        let mut bytes = std::fs::read(path).unwrap();
        for (at, b) in flips {
            let n = bytes.len();
            bytes[at % n] = b;
        }
        bytes.truncate(cut.max(1) * bytes.len() / 4000);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(r) = Replay::from_json(&text) {
            let _ = replay::verify::<ReferenceGame>(&r);
        }
    }
}
