//! Property and fuzz tests of every C entry point, called from Rust as C
//! would call them: arbitrary bytes, fields, ids, cells, codes and sizes
//! give an error status or a right answer, never a panic (which would show
//! as `LC_STATUS_PANIC`) and never undefined behaviour.

use std::ptr;

use lightcycles::*;
use lightcycles_core::observation::Observation;
use lightcycles_core::{Action, Config, Dir, Engine, FaultKind, FaultPolicy, Pos, ReferenceGame, EMPTY};
use proptest::prelude::*;

/// Owns a game handle.
struct Handle(*mut LcGame);

impl Handle {
    fn seeded(config: &Config, seed: u64) -> Handle {
        let c = LcConfig::from(config);
        let mut g = ptr::null_mut();
        assert_eq!(unsafe { lc_game_new(&c, seed, &mut g) }, LcStatus::Ok, "{}", last_error_message());
        Handle(g)
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { lc_game_free(self.0) }
    }
}

fn small_config() -> impl Strategy<Value = Config> {
    (2u32..=4, 0u32..=25, prop::bool::ANY, 1u32..=60).prop_flat_map(|(players, rocks, eliminate, max_ticks)| {
        let min = if players >= 3 { 16 } else { 8 };
        (min..=24u32, min..=24u32).prop_map(move |(width, height)| Config {
            width,
            height,
            players,
            max_ticks,
            rock_density: rocks,
            fault_policy: if eliminate { FaultPolicy::Eliminate } else { FaultPolicy::Straight },
        })
    })
}

fn action_of(code: i32) -> Option<Action> {
    match code {
        0..=3 => Some(Action::Move(Dir::ALL[code as usize])),
        -1 => Some(Action::Keep),
        -2 => Some(Action::Fault(FaultKind::Invalid)),
        -3 => Some(Action::Fault(FaultKind::Timeout)),
        -4 => Some(Action::Fault(FaultKind::Crash)),
        _ => None,
    }
}

fn json_of(game: *const LcGame, you: u32) -> String {
    let mut len = 0usize;
    let _ = unsafe { lc_game_observation_json(game, you, ptr::null_mut(), 0, &mut len) };
    let mut buf = vec![0u8; len + 1];
    assert_eq!(
        unsafe { lc_game_observation_json(game, you, buf.as_mut_ptr().cast(), buf.len(), &mut len) },
        LcStatus::Ok
    );
    buf.truncate(len);
    String::from_utf8(buf).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// `lc_game_new` accepts exactly the configurations the rules accept.
    #[test]
    fn new_accepts_exactly_valid_configs(
        width in 0u32..300, height in 0u32..300, players in 0u32..10, max_ticks in 0u32..1_000_010,
        rocks in 0u32..30, policy in 0u32..3, seed in any::<u64>(), size_delta in -8i32..8,
    ) {
        let size = (std::mem::size_of::<LcConfig>() as i32 + size_delta) as u32;
        let c = LcConfig { struct_size: size, width, height, players, max_ticks, rock_density: rocks, fault_policy: policy };
        let core = Config {
            width, height, players, max_ticks, rock_density: rocks,
            fault_policy: if policy == 1 { FaultPolicy::Eliminate } else { FaultPolicy::Straight },
        };
        // Keep the boards small enough for a quick map.
        prop_assume!(width * height <= 64 * 64);
        let mut g = ptr::null_mut();
        let status = unsafe { lc_game_new(&c, seed, &mut g) };
        let expected = if size_delta < 0 {
            LcStatus::StructSize
        } else if policy > 1 {
            LcStatus::OutOfRange
        } else if core.validate().is_err() {
            LcStatus::Config
        } else {
            LcStatus::Ok
        };
        prop_assert_eq!(status, expected, "{}", last_error_message());
        prop_assert_eq!(g.is_null(), status != LcStatus::Ok);
        unsafe { lc_game_free(g) };
    }

    /// Any bytes as a 2010 map: a game, or an error naming where.
    #[test]
    fn any_map_text_is_a_game_or_an_error(text in prop::collection::vec(any::<u8>(), 0..200), max_ticks in 0u32..5, policy in 0u32..3) {
        let mut g = ptr::null_mut();
        let status = unsafe { lc_game_from_map(text.as_ptr().cast(), text.len(), max_ticks, policy, &mut g) };
        prop_assert_ne!(status, LcStatus::Panic);
        prop_assert_eq!(g.is_null(), status != LcStatus::Ok);
        unsafe { lc_game_free(g) };
    }

    /// Map-shaped text with random characters in it.
    #[test]
    fn map_like_text_is_a_game_or_an_error(cells in prop::collection::vec(prop::sample::select(vec![' ', '#', '1', '2', 'x', '\r']), 64), header in prop::sample::select(vec!["8 8", " 8  8 ", "8 9", "7 8", "8", "x 8"])) {
        let mut text = format!("{header}\n");
        for row in cells.chunks(8) {
            text.extend(row);
            text.push('\n');
        }
        let mut g = ptr::null_mut();
        let status = unsafe { lc_game_from_map(text.as_ptr().cast(), text.len(), 100, 0, &mut g) };
        prop_assert!(matches!(status, LcStatus::Ok | LcStatus::Map), "{:?}: {}", status, last_error_message());
        if status == LcStatus::Ok {
            prop_assert_eq!(lightcycles_core::map::parse_2010(&text).map(|m| m.starts.len()).ok(), Some(2));
        }
        unsafe { lc_game_free(g) };
    }

    /// Any bytes as an observation line: an observation, or an error.
    #[test]
    fn any_bytes_as_observation_json(text in prop::collection::vec(any::<u8>(), 0..100)) {
        let mut obs = ptr::null();
        let status = unsafe { lc_observation_from_json(text.as_ptr().cast(), text.len(), &mut obs) };
        prop_assert!(matches!(status, LcStatus::Parse | LcStatus::Position), "{:?}", status);
        prop_assert!(obs.is_null());
    }

    /// A real observation with bytes changed: an observation that rebuilds
    /// a game, or an error.
    #[test]
    fn mutated_observation_json(config in small_config(), seed in any::<u64>(), edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)) {
        let game = Handle::seeded(&config, seed);
        let mut bytes = json_of(game.0, 0).into_bytes();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let mut obs = ptr::null();
        let status = unsafe { lc_observation_from_json(bytes.as_ptr().cast(), bytes.len(), &mut obs) };
        prop_assert_ne!(status, LcStatus::Panic);
        if status == LcStatus::Ok {
            let mut rebuilt = ptr::null_mut();
            let s = unsafe { lc_game_from_observation(obs, 0, &mut rebuilt) };
            prop_assert_eq!(s, LcStatus::Ok, "{}", last_error_message());
            unsafe { lc_game_free(rebuilt) };
        }
        unsafe { lc_observation_free(obs) };
    }

    /// A C observation with arbitrary fields (its arrays as large as it
    /// claims): a game that shows it, or an error.
    #[test]
    fn arbitrary_c_observations(
        width in 0u32..40, height in 0u32..40, num_players in 0u32..12, you in 0u32..12, tick in 0u32..50,
        max_ticks in 0u32..60, stride_extra in 0u32..3, cells in prop::collection::vec(-3i8..4, 1600),
        heads in prop::collection::vec((0u32..42, 0u32..42, 0u32..5, 0u32..3, 0u32..9), 12),
    ) {
        let stride = std::mem::size_of::<LcPlayerView>() / 4 + stride_extra as usize;
        let mut words = vec![0u32; stride * 12];
        for (i, (x, y, dir, alive, id)) in heads.iter().enumerate() {
            let id = if *id >= 8 { i as u32 } else { *id };
            words[i * stride..i * stride + 5].copy_from_slice(&[id, *x, *y, *dir, *alive]);
        }
        let obs = LcObservation {
            struct_size: std::mem::size_of::<LcObservation>() as u32,
            player_size: (stride * 4) as u32,
            tick, max_ticks, width, height, you, num_players, time_limit_ms: 0, reserved: 0,
            players: words.as_ptr().cast(),
            grid: cells.as_ptr(),
        };
        let mut g = ptr::null_mut();
        let status = unsafe { lc_game_from_observation(&obs, 0, &mut g) };
        prop_assert!(matches!(status, LcStatus::Ok | LcStatus::Position | LcStatus::Config), "{:?}: {}", status, last_error_message());
        if status == LcStatus::Ok {
            // The game shows exactly the observed cells.
            for y in 0..height as i32 {
                for x in 0..width as i32 {
                    let mut v = 0i8;
                    prop_assert_eq!(unsafe { lc_game_cell(g, x, y, &mut v) }, LcStatus::Ok);
                    prop_assert_eq!(v, cells[(y * width as i32 + x) as usize]);
                }
            }
        }
        unsafe { lc_game_free(g) };
    }

    /// Stepping with arbitrary codes: the C game follows the reference
    /// engine for valid codes and refuses the rest without changing.
    #[test]
    fn step_codes_follow_the_reference(config in small_config(), seed in any::<u64>(), ticks in prop::collection::vec(prop::collection::vec(-6i32..6, 1..6), 1..60)) {
        let game = Handle::seeded(&config, seed);
        let mut reference = ReferenceGame::seeded(&config, seed).unwrap();
        let n = config.players as usize;
        for codes in ticks {
            let status = unsafe { lc_game_step(game.0, codes.as_ptr(), codes.len()) };
            let actions: Option<Vec<Action>> = codes.iter().map(|&c| action_of(c)).collect();
            let expected = if codes.len() != n || actions.is_none() {
                LcStatus::OutOfRange
            } else if reference.is_over() {
                LcStatus::GameOver
            } else {
                reference.step(&actions.unwrap()).unwrap();
                LcStatus::Ok
            };
            prop_assert_eq!(status, expected, "{}", last_error_message());
            prop_assert_eq!(json_of(game.0, 0), Observation::new(&reference, 0).to_json());
        }
    }

    /// Queries with arbitrary cells, ids and struct sizes.
    #[test]
    fn queries_check_their_arguments(config in small_config(), seed in any::<u64>(), x in -3i32..30, y in -3i32..30, id in 0u32..10, other in 0u32..10, size in 0u32..80, capacity in 0usize..3000) {
        let game = Handle::seeded(&config, seed);
        let reference = ReferenceGame::seeded(&config, seed).unwrap();
        let n = config.players;
        let mut v = 0i8;
        let on_board = x >= 0 && y >= 0 && (x as u32) < config.width && (y as u32) < config.height;
        let status = unsafe { lc_game_cell(game.0, x, y, &mut v) };
        prop_assert_eq!(status, if on_board { LcStatus::Ok } else { LcStatus::OutOfRange });
        if on_board {
            prop_assert_eq!(v, reference.cell(Pos::new(x as u8, y as u8)));
        }

        let mut p = LcPlayer { struct_size: size, x: 0, y: 0, dir: 0, alive: 0, trail: 0, eliminated_at: 0 };
        let status = unsafe { lc_game_player(game.0, id, &mut p) };
        let size_ok = size as usize >= std::mem::size_of::<LcPlayer>();
        prop_assert_eq!(status, if !size_ok { LcStatus::StructSize } else if id >= n { LcStatus::OutOfRange } else { LcStatus::Ok });

        let mut c = LcConfig { struct_size: size, ..lc_config_default() };
        let status = unsafe { lc_game_config(game.0, &mut c) };
        prop_assert_eq!(status, if size as usize >= std::mem::size_of::<LcConfig>() { LcStatus::Ok } else { LcStatus::StructSize });

        let mut room = 0u32;
        let status = unsafe { lc_game_reachable(game.0, id, &mut room) };
        prop_assert_eq!(status, if id < n { LcStatus::Ok } else { LcStatus::OutOfRange });
        let mut apart = false;
        let status = unsafe { lc_game_separated(game.0, id, other, &mut apart) };
        prop_assert_eq!(status, if id < n && other < n { LcStatus::Ok } else { LcStatus::OutOfRange });

        let mut counts = [0u32; 8];
        let mut owners = vec![0i8; capacity];
        let counts_len = (id as usize).min(counts.len());
        let status = unsafe { lc_game_voronoi(game.0, counts.as_mut_ptr(), counts_len, owners.as_mut_ptr(), owners.len()) };
        let cells = (config.width * config.height) as usize;
        let expected = if counts_len < n as usize || capacity < cells { LcStatus::OutOfRange } else { LcStatus::Ok };
        prop_assert_eq!(status, expected);

        let mut len = 0usize;
        let mut buf = vec![0u8; capacity];
        let status = unsafe { lc_game_observation_json(game.0, id, buf.as_mut_ptr().cast(), buf.len(), &mut len) };
        let json = Observation::new(&reference, (id.min(n - 1)) as usize).to_json();
        let expected = if id >= n { LcStatus::OutOfRange } else if capacity < json.len() + 1 { LcStatus::BufferTooSmall } else { LcStatus::Ok };
        prop_assert_eq!(status, expected);
        if status == LcStatus::Ok {
            prop_assert_eq!(&buf[..len], json.as_bytes());
            prop_assert_eq!(buf[len], 0);
        }
    }

    /// The Voronoi split agrees with its owners and with the room each has.
    #[test]
    fn voronoi_is_consistent(config in small_config(), seed in any::<u64>(), ticks in 0usize..30) {
        let game = Handle::seeded(&config, seed);
        let n = config.players as usize;
        for _ in 0..ticks {
            let codes = vec![-1i32; n];
            if unsafe { lc_game_step(game.0, codes.as_ptr(), n) } != LcStatus::Ok {
                break;
            }
        }
        let cells = (config.width * config.height) as usize;
        let mut counts = [0u32; 8];
        let mut owners = vec![0i8; cells];
        prop_assert_eq!(unsafe { lc_game_voronoi(game.0, counts.as_mut_ptr(), 8, owners.as_mut_ptr(), cells) }, LcStatus::Ok);
        for (id, &count) in counts.iter().enumerate().take(n) {
            let owned = owners.iter().filter(|&&o| o == id as i8).count() as u32;
            prop_assert_eq!(owned, count);
            let mut room = 0u32;
            prop_assert_eq!(unsafe { lc_game_reachable(game.0, id as u32, &mut room) }, LcStatus::Ok);
            prop_assert!(count <= room);
        }
        for (i, &o) in owners.iter().enumerate() {
            if o >= 0 {
                let mut v = 0i8;
                let (x, y) = ((i % config.width as usize) as i32, (i / config.width as usize) as i32);
                prop_assert_eq!(unsafe { lc_game_cell(game.0, x, y, &mut v) }, LcStatus::Ok);
                prop_assert_eq!(v, EMPTY, "an owned cell is empty");
            }
        }
    }

    /// Copies between games of any shapes.
    #[test]
    fn copy_into_needs_the_same_shape(a in small_config(), b in small_config(), seed in any::<u64>()) {
        let (ga, gb) = (Handle::seeded(&a, seed), Handle::seeded(&b, seed ^ 1));
        let status = unsafe { lc_game_copy_into(ga.0, gb.0) };
        let same = (a.width, a.height, a.players) == (b.width, b.height, b.players);
        prop_assert_eq!(status, if same { LcStatus::Ok } else { LcStatus::ShapeMismatch });
        if same {
            prop_assert_eq!(json_of(ga.0, 0), json_of(gb.0, 0));
        }
        let mut copy = ptr::null_mut();
        prop_assert_eq!(unsafe { lc_game_clone(gb.0, &mut copy) }, LcStatus::Ok);
        prop_assert_eq!(json_of(copy, 0), json_of(gb.0, 0));
        unsafe { lc_game_free(copy) };
    }
}

#[test]
fn a_finished_game_refuses_steps_and_gives_its_result() {
    let config = Config { width: 8, height: 8, rock_density: 0, max_ticks: 3, ..Config::default() };
    let game = Handle::seeded(&config, 5);
    let mut reference = ReferenceGame::seeded(&config, 5).unwrap();
    let keep = [-1i32, -1];
    let mut result = LcResult {
        struct_size: std::mem::size_of::<LcResult>() as u32,
        num_players: 0,
        winner: 0,
        draw: 0,
        ticks: 0,
        placements: [0; 8],
        eliminated_at: [0; 8],
        trails: [0; 8],
    };
    while !reference.is_over() {
        assert_eq!(unsafe { lc_game_result(game.0, &mut result) }, LcStatus::NotOver);
        assert_eq!(unsafe { lc_game_step(game.0, keep.as_ptr(), 2) }, LcStatus::Ok);
        reference.step(&[Action::Keep, Action::Keep]).unwrap();
    }
    assert_eq!(unsafe { lc_game_step(game.0, keep.as_ptr(), 2) }, LcStatus::GameOver);
    assert_eq!(unsafe { lc_game_result(game.0, &mut result) }, LcStatus::Ok);
    let o = reference.outcome().unwrap();
    assert_eq!(result.ticks, o.ticks);
    assert_eq!(result.winner, o.winner.map_or(-1, |w| w as i32));
    assert_eq!(&result.placements[..2], &o.placements[..]);
    assert_eq!(&result.trails[..2], &o.trails[..]);
}

/// Owns a search state handle.
struct Lean(*mut LcSearchState);

impl Drop for Lean {
    fn drop(&mut self) {
        unsafe { lc_search_state_free(self.0) }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The search state through the C ABI plays the game of `lc_game_step`
    /// on any codes (bad ones refused alike, leaving both unchanged) and
    /// answers every query as the game's calls do.
    #[test]
    fn search_states_play_and_answer_as_games(
        config in small_config(),
        seed in any::<u64>(),
        codes in proptest::collection::vec(-6i32..6, 0..240),
        x in -3i32..30,
        y in -3i32..30,
        id in 0u32..6,
    ) {
        let game = Handle::seeded(&config, seed);
        let mut raw = ptr::null_mut();
        prop_assert_eq!(unsafe { lc_search_state_new(game.0, &mut raw) }, LcStatus::Ok);
        let lean = Lean(raw);
        let mut raw = ptr::null_mut();
        prop_assert_eq!(unsafe { lc_search_state_new(game.0, &mut raw) }, LcStatus::Ok);
        let made = Lean(raw);
        let n = config.players as usize;
        for moves in codes.chunks(n) {
            // The copy-make call answers as the step, into another state.
            let m = unsafe { lc_search_state_step_from(lean.0, made.0, moves.as_ptr(), moves.len()) };
            let (g, l) = unsafe { (lc_game_step(game.0, moves.as_ptr(), moves.len()), lc_search_state_step(lean.0, moves.as_ptr(), moves.len())) };
            prop_assert_eq!(g, l);
            prop_assert_eq!(m, l);
            let (mut ta, mut tb) = (0u32, 1u32);
            unsafe {
                lc_search_state_tick(lean.0, &mut ta);
                lc_search_state_tick(made.0, &mut tb);
            }
            if m == LcStatus::Ok {
                prop_assert_eq!(ta, tb);
            }
            let (mut tg, mut tl) = (0u32, 1u32);
            unsafe {
                lc_game_tick(game.0, &mut tg);
                lc_search_state_tick(lean.0, &mut tl);
            }
            prop_assert_eq!(tg, tl);
            let mut v = 0i8;
            let mut empty = false;
            let (g, l) = unsafe { (lc_game_cell(game.0, x, y, &mut v), lc_search_state_is_empty(lean.0, x, y, &mut empty)) };
            prop_assert_eq!(g, l);
            if g == LcStatus::Ok {
                prop_assert_eq!(empty, v == EMPTY);
            }
            let size = std::mem::size_of::<LcPlayer>() as u32;
            let blank = LcPlayer { struct_size: size, x: 0, y: 0, dir: 0, alive: 0, trail: 0, eliminated_at: 0 };
            let (mut pg, mut pl) = (blank, blank);
            let (g, l) = unsafe { (lc_game_player(game.0, id, &mut pg), lc_search_state_player(lean.0, id, &mut pl)) };
            prop_assert_eq!((g, pg), (l, pl));
            let (mut rg, mut rl) = (0u32, 1u32);
            let (g, l) = unsafe { (lc_game_reachable(game.0, id, &mut rg), lc_search_state_reachable(lean.0, id, &mut rl)) };
            prop_assert_eq!(g, l);
            if g == LcStatus::Ok {
                prop_assert_eq!(rg, rl);
            }
            let cells = (config.width * config.height) as usize;
            let (mut cg, mut cl) = ([0u32; 8], [1u32; 8]);
            let (mut og, mut ol) = (vec![0i8; cells], vec![1i8; cells]);
            let counts_len = (id as usize).min(8);
            let g = unsafe { lc_game_voronoi(game.0, cg.as_mut_ptr(), counts_len, og.as_mut_ptr(), cells) };
            let l = unsafe { lc_search_state_voronoi(lean.0, cl.as_mut_ptr(), counts_len, ol.as_mut_ptr(), cells) };
            prop_assert_eq!(g, l);
            if g == LcStatus::Ok {
                prop_assert_eq!((&cg[..n], og), (&cl[..n], ol));
            }
            let (mut over_g, mut over_l) = (false, true);
            unsafe {
                lc_game_is_over(game.0, &mut over_g);
                lc_search_state_is_over(lean.0, &mut over_l);
            }
            prop_assert_eq!(over_g, over_l);
        }
    }
}
