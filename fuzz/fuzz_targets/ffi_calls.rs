//! The C ABI as a C caller drives it: the input is a program of `lc_*` calls
//! on a few game and observation handles, with any arguments a caller may
//! legally pass, nulls, wrong counts, wrong `struct_size`s, buffers too
//! small, ids and cells out of range and absurd observation headers
//! included (every pointer points to as much memory as it claims, as the
//! header asks of a caller). Each call must return a status, never panic
//! (`LC_STATUS_PANIC`) nor touch memory it was not given (AddressSanitizer),
//! set a last error naming itself when it fails, and leave NULL in the
//! output handle of a failed create. A reference-engine game shadows each
//! handle and must agree with it after every call; every handle is freed at
//! the end (LeakSanitizer).
#![no_main]

use std::ffi::{c_char, CStr};

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use lightcycles::*;
use lightcycles_core::map::parse_2010;
use lightcycles_core::observation::Observation;
use lightcycles_core::{Action, Config, Dir, Engine, FaultKind, FaultPolicy, ReferenceGame};

const SLOTS: usize = 4;

/// The handles of one program, and the reference game each game handle
/// should equal.
struct World {
    games: [*mut LcGame; SLOTS],
    shadows: [Option<ReferenceGame>; SLOTS],
    observations: [*const LcObservation; SLOTS],
}

impl Drop for World {
    fn drop(&mut self) {
        for g in self.games {
            unsafe { lc_game_free(g) };
        }
        for o in self.observations {
            unsafe { lc_observation_free(o) };
        }
    }
}

fn last_error() -> String {
    let ptr = lc_last_error();
    assert!(!ptr.is_null());
    unsafe { CStr::from_ptr(ptr) }.to_str().expect("the last error is UTF-8").to_string()
}

/// Every call's contract: a status, never a caught panic; a failure names
/// the entry point in the last error.
fn checked(name: &str, status: LcStatus) -> LcStatus {
    assert_ne!(status, LcStatus::Panic, "{name} panicked: {}", last_error());
    if status != LcStatus::Ok {
        let message = last_error();
        assert!(message.starts_with(&format!("{name}: ")), "{name} failed with {status:?}: {message:?}");
    }
    status
}

/// A number near the bounds of the C ABI most of the time.
fn number(u: &mut Unstructured) -> Result<u32> {
    Ok(match u.int_in_range(0..=3)? {
        0 => u.int_in_range(0..=12)?,
        1 => u.int_in_range(0..=300)?,
        2 => *u.choose(&[0, 1, 2, 7, 8, 16, 20, 28, 56, 255, 256, 65_536, 65_537, 1_000_000, 1_000_001, u32::MAX])?,
        _ => u.arbitrary()?,
    })
}

/// A game slot, or `None` for a NULL handle.
fn slot(u: &mut Unstructured) -> Result<Option<usize>> {
    let k = u.int_in_range(0..=SLOTS)?;
    Ok((k < SLOTS).then_some(k))
}

/// Whether an output pointer is NULL this time.
fn null(u: &mut Unstructured) -> Result<bool> {
    u.ratio(1, 10)
}

fn config(u: &mut Unstructured) -> Result<LcConfig> {
    let mut c = lc_config_default();
    if u.ratio(1, 8)? {
        c.struct_size = number(u)?;
    }
    for _ in 0..u.int_in_range(0..=3)? {
        let v = number(u)?;
        match u.int_in_range(0..=5)? {
            0 => c.width = v,
            1 => c.height = v,
            2 => c.players = v,
            3 => c.max_ticks = v,
            4 => c.rock_density = v,
            _ => c.fault_policy = v,
        }
    }
    if u.arbitrary()? {
        (c.width, c.height) = (u.int_in_range(8..=40)?, u.int_in_range(8..=40)?);
    }
    Ok(c)
}

/// The core configuration a valid `LcConfig` stands for.
fn core_config(c: &LcConfig) -> Option<Config> {
    let fault_policy = match c.fault_policy {
        LC_FAULT_POLICY_STRAIGHT => FaultPolicy::Straight,
        LC_FAULT_POLICY_ELIMINATE => FaultPolicy::Eliminate,
        _ => return None,
    };
    let config = Config {
        width: c.width,
        height: c.height,
        players: c.players,
        max_ticks: c.max_ticks,
        rock_density: c.rock_density,
        fault_policy,
    };
    config.validate().ok().map(|()| config)
}

const MAPS: &[&str] = &[
    "10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n",
    "8 8\n12      \n        \n        \n        \n        \n        \n        \n        \n",
    "9 8\r\n#########\r\n#1  #   #\r\n#   #   #\r\n#       #\r\n#       #\r\n#   #   #\r\n#   #  2#\r\n#########\r\n",
];

fn map_text(u: &mut Unstructured) -> Result<Vec<u8>> {
    let mut text = u.choose(MAPS)?.as_bytes().to_vec();
    if u.ratio(1, 3)? {
        for _ in 0..u.int_in_range(1..=4)? {
            let at = u.choose_index(text.len())?;
            text[at] = *u.choose(b"#12 \n\r9x\xff")?;
        }
    }
    if u.ratio(1, 8)? {
        text = u.arbitrary()?;
    }
    Ok(text)
}

/// Move codes for one step: mostly one per player, sometimes too few or too
/// many, and sometimes codes that are no move.
fn moves(u: &mut Unstructured, players: usize) -> Result<Vec<i32>> {
    let count = if u.ratio(1, 10)? { u.int_in_range(0..=10)? } else { players };
    (0..count)
        .map(|_| Ok(if u.ratio(1, 12)? { *u.choose(&[4, -5, i32::MIN, i32::MAX])? } else { u.int_in_range(-4..=3)? }))
        .collect()
}

fn action(code: i32) -> Action {
    match code {
        0..=3 => Action::Move(Dir::ALL[code as usize]),
        -1 => Action::Keep,
        -2 => Action::Fault(FaultKind::Invalid),
        -3 => Action::Fault(FaultKind::Timeout),
        -4 => Action::Fault(FaultKind::Crash),
        _ => unreachable!("only called on valid codes"),
    }
}

/// An observation as a C caller may build it: its arrays always hold what
/// its counts claim whenever the counts are within the ABI's bounds, so
/// that a library that checks before it reads never reads past them.
struct RawObservation {
    raw: LcObservation,
    players: Vec<u8>,
    grid: Vec<i8>,
    null_players: bool,
    null_grid: bool,
}

impl RawObservation {
    fn of(u: &mut Unstructured, world: &World) -> Result<RawObservation> {
        let live: Vec<usize> = (0..SLOTS).filter(|&k| !world.games[k].is_null()).collect();
        let mut obs = match live.is_empty() {
            true => RawObservation::blank(),
            false => {
                let k = *u.choose(&live)?;
                let engine = unsafe { &*world.games[k] }.engine();
                let you = u.choose_index(engine.num_players())?;
                let buffer = ObservationBuffer::from_engine(engine, you).expect("a player of the game");
                let players = buffer.raw().num_players as usize;
                let views = unsafe { std::slice::from_raw_parts(buffer.raw().players, players) };
                let grid = buffer.raw().width as usize * buffer.raw().height as usize;
                RawObservation {
                    raw: *buffer.raw(),
                    players: views
                        .iter()
                        .flat_map(|p| [p.id, p.x, p.y, p.dir, p.alive])
                        .flat_map(u32::to_ne_bytes)
                        .collect(),
                    grid: unsafe { std::slice::from_raw_parts(buffer.raw().grid, grid) }.to_vec(),
                    null_players: false,
                    null_grid: false,
                }
            }
        };
        for _ in 0..u.int_in_range(0..=3)? {
            let v = number(u)?;
            match u.int_in_range(0..=8)? {
                0 => obs.raw.struct_size = v,
                1 => obs.raw.player_size = v,
                2 => obs.raw.tick = v,
                3 => obs.raw.max_ticks = v,
                4 => obs.raw.width = v,
                5 => obs.raw.height = v,
                6 => obs.raw.you = v,
                7 => obs.raw.num_players = v,
                _ => {
                    if !obs.grid.is_empty() {
                        let at = u.choose_index(obs.grid.len())?;
                        obs.grid[at] = u.int_in_range(-3..=8)?;
                    }
                }
            }
        }
        obs.fit_arrays(u)?;
        obs.null_players = u.ratio(1, 20)?;
        obs.null_grid = u.ratio(1, 20)?;
        Ok(obs)
    }

    fn blank() -> RawObservation {
        RawObservation {
            raw: LcObservation {
                struct_size: std::mem::size_of::<LcObservation>() as u32,
                player_size: std::mem::size_of::<LcPlayerView>() as u32,
                tick: 1,
                max_ticks: 100,
                width: 8,
                height: 8,
                you: 0,
                num_players: 2,
                time_limit_ms: 0,
                reserved: 0,
                players: std::ptr::null(),
                grid: std::ptr::null(),
            },
            players: Vec::new(),
            grid: Vec::new(),
            null_players: false,
            null_grid: false,
        }
    }

    /// Grows or cuts the arrays to what the header claims, when it claims
    /// something within bounds; else leaves them as they are.
    fn fit_arrays(&mut self, u: &mut Unstructured) -> Result<()> {
        let (w, h) = (self.raw.width, self.raw.height);
        if (8..=255).contains(&w) && (8..=255).contains(&h) {
            let cells = (w * h) as usize;
            while self.grid.len() < cells {
                self.grid.push(if u.ratio(1, 30)? { u.int_in_range(-2..=7)? } else { -1 });
            }
            self.grid.truncate(cells);
        }
        let (n, stride) = (self.raw.num_players as usize, self.raw.player_size as usize);
        if (2..=8).contains(&n) && (20..=65_536).contains(&stride) {
            let old_stride = 20;
            let mut bytes = vec![0u8; n * stride];
            for i in 0..n {
                let from = self.players.get(i * old_stride..(i + 1) * old_stride);
                match from {
                    Some(view) => bytes[i * stride..i * stride + 20].copy_from_slice(view),
                    None => {
                        let fields =
                            [i as u32, u.int_in_range(0..=w)?, u.int_in_range(0..=h)?, u.int_in_range(0..=4)?, 1];
                        let view: Vec<u8> = fields.iter().flat_map(|f| f.to_ne_bytes()).collect();
                        bytes[i * stride..i * stride + 20].copy_from_slice(&view);
                    }
                }
            }
            self.players = bytes;
        }
        Ok(())
    }

    /// The struct with its pointers set, valid while `self` is not changed.
    fn as_raw(&mut self) -> LcObservation {
        let mut raw = self.raw;
        raw.players = if self.null_players { std::ptr::null() } else { self.players.as_ptr().cast() };
        raw.grid = if self.null_grid { std::ptr::null() } else { self.grid.as_ptr() };
        raw
    }
}

/// Asserts that the handle in `k` shows the same game as its shadow.
fn same_game(world: &World, k: usize) {
    if let (Some(handle), Some(shadow)) = (unsafe { world.games[k].as_ref() }, &world.shadows[k]) {
        assert_eq!(handle.engine().position(), shadow.position(), "the handle and the reference game differ");
    }
}

fn run(u: &mut Unstructured, world: &mut World) -> Result<()> {
    while !u.is_empty() {
        match u.int_in_range(0..=20)? {
            0 => {
                // lc_game_new, with a config, a NULL config or a NULL out.
                let Some(k) = slot(u)? else { continue };
                let c = config(u)?;
                let seed: u64 = u.arbitrary()?;
                let pass_config = !u.ratio(1, 10)?;
                let mut out = 0x1 as *mut LcGame;
                let out_ptr = if null(u)? { std::ptr::null_mut() } else { &mut out as *mut _ };
                let config_ptr = if pass_config { &c as *const LcConfig } else { std::ptr::null() };
                let status = checked("lc_game_new", unsafe { lc_game_new(config_ptr, seed, out_ptr) });
                let expected = if pass_config {
                    core_config(&c).filter(|_| c.struct_size >= 28 && c.struct_size <= 65_536)
                } else {
                    Some(Config::default())
                };
                if out_ptr.is_null() {
                    assert_eq!(status, LcStatus::NullPointer);
                    continue;
                }
                if status == LcStatus::Ok {
                    let config = expected.expect("lc_game_new accepted a bad config");
                    replace(world, k, out, ReferenceGame::seeded(&config, seed).ok());
                    assert!(world.shadows[k].is_some(), "the reference engine refused what the handle took");
                    same_game(world, k);
                } else {
                    assert!(out.is_null(), "a failed create leaves NULL");
                    if let Some(config) = expected {
                        assert!(
                            ReferenceGame::seeded(&config, seed).is_err(),
                            "lc_game_new refused a good config: {}",
                            last_error()
                        );
                    }
                }
            }
            1 => {
                // lc_game_from_map.
                let Some(k) = slot(u)? else { continue };
                let text = map_text(u)?;
                let max_ticks = if u.arbitrary()? { 100 } else { number(u)? };
                let policy = if u.ratio(1, 8)? { number(u)? } else { u.int_in_range(0..=1)? };
                let null_text = u.ratio(1, 12)?;
                let len = if null_text && u.arbitrary()? { 0 } else { text.len() };
                let text_ptr = if null_text { std::ptr::null() } else { text.as_ptr().cast::<c_char>() };
                let mut out = 0x1 as *mut LcGame;
                let status = checked("lc_game_from_map", unsafe {
                    lc_game_from_map(text_ptr, len, max_ticks, policy, &mut out)
                });
                if status == LcStatus::Ok {
                    let map = parse_2010(std::str::from_utf8(&text).unwrap()).expect("lc_game_from_map took a bad map");
                    let fault_policy = if policy == 1 { FaultPolicy::Eliminate } else { FaultPolicy::Straight };
                    let config = Config {
                        width: map.width,
                        height: map.height,
                        players: 2,
                        max_ticks,
                        rock_density: 0,
                        fault_policy,
                    };
                    replace(world, k, out, Some(ReferenceGame::from_map(&config, &map).expect("the reference engine starts")));
                    same_game(world, k);
                } else {
                    assert!(out.is_null(), "a failed create leaves NULL");
                }
            }
            2 => {
                // lc_game_from_observation: a caller's struct, a library one, or NULL.
                let Some(k) = slot(u)? else { continue };
                let policy = if u.ratio(1, 8)? { number(u)? } else { u.int_in_range(0..=1)? };
                let mut raw_obs = RawObservation::of(u, world)?;
                let raw = raw_obs.as_raw();
                let library = (0..SLOTS).filter(|&o| !world.observations[o].is_null()).collect::<Vec<_>>();
                let obs_ptr = match u.int_in_range(0..=9)? {
                    0 => std::ptr::null(),
                    1 | 2 if !library.is_empty() => world.observations[*u.choose(&library)?],
                    _ => &raw as *const LcObservation,
                };
                let mut out = 0x1 as *mut LcGame;
                let status =
                    checked("lc_game_from_observation", unsafe { lc_game_from_observation(obs_ptr, policy, &mut out) });
                if status == LcStatus::Ok {
                    let position = unsafe { &*out }.engine().position();
                    assert!(position.validate().is_ok());
                    replace(world, k, out, Some(ReferenceGame::from_position(&position).expect("a valid position")));
                } else {
                    assert!(out.is_null(), "a failed create leaves NULL");
                }
            }
            3 => {
                let (Some(k), src) = (slot(u)?, slot(u)?) else { continue };
                let src_ptr = src.map_or(std::ptr::null_mut(), |s| world.games[s]);
                let mut out = 0x1 as *mut LcGame;
                let status = checked("lc_game_clone", unsafe { lc_game_clone(src_ptr, &mut out) });
                if status == LcStatus::Ok {
                    let shadow = world.shadows[src.unwrap()].clone();
                    replace(world, k, out, shadow);
                    same_game(world, k);
                } else {
                    assert!(out.is_null(), "a failed create leaves NULL");
                }
            }
            4 => {
                let (src, dst) = (slot(u)?, slot(u)?);
                let ptr = |s: Option<usize>| s.map_or(std::ptr::null_mut(), |s| world.games[s]);
                let status = checked("lc_game_copy_into", unsafe { lc_game_copy_into(ptr(src), ptr(dst)) });
                if let (LcStatus::Ok, Some(s), Some(d)) = (status, src, dst) {
                    world.shadows[d] = world.shadows[s].clone();
                    same_game(world, d);
                }
            }
            5 => {
                let Some(k) = slot(u)? else {
                    unsafe { lc_game_free(std::ptr::null_mut()) };
                    continue;
                };
                unsafe { lc_game_free(world.games[k]) };
                world.games[k] = std::ptr::null_mut();
                world.shadows[k] = None;
            }
            6 | 7 | 8 => {
                // lc_game_step, the call a search makes most.
                let k = slot(u)?;
                let players = k.and_then(|k| world.shadows[k].as_ref()).map_or(2, Engine::num_players);
                let codes = moves(u, players)?;
                let null_moves = u.ratio(1, 20)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let moves_ptr = if null_moves { std::ptr::null() } else { codes.as_ptr() };
                let status = checked("lc_game_step", unsafe { lc_game_step(game, moves_ptr, codes.len()) });
                let Some(k) = k else { continue };
                let Some(shadow) = world.shadows[k].as_mut() else { continue };
                let valid = codes.len() == players && codes.iter().all(|c| (-4..=3).contains(c));
                match status {
                    LcStatus::Ok => {
                        assert!(valid && !null_moves);
                        let actions: Vec<Action> = codes.iter().map(|&c| action(c)).collect();
                        shadow.step(&actions).expect("the reference engine steps too");
                    }
                    LcStatus::GameOver => assert!(shadow.is_over()),
                    LcStatus::OutOfRange => assert!(!valid),
                    LcStatus::NullPointer => assert!(null_moves && !codes.is_empty()),
                    other => panic!("lc_game_step: unexpected {other:?}"),
                }
                same_game(world, k);
            }
            9 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let mut out = lc_config_default();
                out.struct_size = if u.ratio(1, 6)? { number(u)? } else { out.struct_size };
                let out_ptr = if null(u)? { std::ptr::null_mut() } else { &mut out as *mut LcConfig };
                let status = checked("lc_game_config", unsafe { lc_game_config(game, out_ptr) });
                if let (LcStatus::Ok, Some(shadow)) = (status, k.and_then(|k| world.shadows[k].as_ref())) {
                    assert_eq!(core_config(&out), Some(*shadow.config()));
                }
            }
            10 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let (mut tick, mut over) = (u32::MAX, false);
                let null_out = null(u)?;
                let tick_ptr = if null_out { std::ptr::null_mut() } else { &mut tick as *mut u32 };
                let over_ptr = if null_out { std::ptr::null_mut() } else { &mut over as *mut bool };
                let s1 = checked("lc_game_tick", unsafe { lc_game_tick(game, tick_ptr) });
                let s2 = checked("lc_game_is_over", unsafe { lc_game_is_over(game, over_ptr) });
                assert_eq!(s1, s2);
                if let (LcStatus::Ok, Some(shadow)) = (s1, k.and_then(|k| world.shadows[k].as_ref())) {
                    assert_eq!((tick, over), (shadow.tick(), shadow.is_over()));
                }
            }
            11 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let (x, y): (i32, i32) = if u.arbitrary()? {
                    (u.int_in_range(-2..=260)?, u.int_in_range(-2..=260)?)
                } else {
                    (u.arbitrary()?, u.arbitrary()?)
                };
                let mut out: i8 = 100;
                let out_ptr = if null(u)? { std::ptr::null_mut() } else { &mut out as *mut i8 };
                let status = checked("lc_game_cell", unsafe { lc_game_cell(game, x, y, out_ptr) });
                if let (LcStatus::Ok, Some(shadow)) = (status, k.and_then(|k| world.shadows[k].as_ref())) {
                    assert_eq!(out, shadow.cell(lightcycles_core::Pos::new(x as u8, y as u8)));
                }
            }
            12 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let player = if u.arbitrary()? { u.int_in_range(0..=9)? } else { number(u)? };
                let mut out = LcPlayer {
                    struct_size: if u.ratio(1, 6)? { number(u)? } else { 28 },
                    x: 0,
                    y: 0,
                    dir: 0,
                    alive: 0,
                    trail: 0,
                    eliminated_at: 0,
                };
                let out_ptr = if null(u)? { std::ptr::null_mut() } else { &mut out as *mut LcPlayer };
                let status = checked("lc_game_player", unsafe { lc_game_player(game, player, out_ptr) });
                if let (LcStatus::Ok, Some(shadow)) = (status, k.and_then(|k| world.shadows[k].as_ref())) {
                    let p = shadow.player(player as usize);
                    assert_eq!(
                        (out.x, out.y, out.dir, out.alive),
                        (p.pos.x as u32, p.pos.y as u32, p.dir.code() as u32, p.alive as u32)
                    );
                    assert_eq!((out.trail, out.eliminated_at), (p.trail, p.eliminated_at.map_or(-1, |t| t as i32)));
                }
            }
            13 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let mut out: LcResult = unsafe { std::mem::zeroed() };
                out.struct_size = if u.ratio(1, 6)? { number(u)? } else { std::mem::size_of::<LcResult>() as u32 };
                let out_ptr = if null(u)? { std::ptr::null_mut() } else { &mut out as *mut LcResult };
                let status = checked("lc_game_result", unsafe { lc_game_result(game, out_ptr) });
                if let Some(shadow) = k.and_then(|k| world.shadows[k].as_ref()) {
                    match (status, shadow.outcome()) {
                        (LcStatus::Ok, Some(o)) => {
                            assert_eq!(out.winner, o.winner.map_or(-1, |w| w as i32));
                            assert_eq!((out.ticks, out.draw), (o.ticks, o.draw as u32));
                            assert_eq!(&out.placements[..o.placements.len()], &o.placements[..]);
                        }
                        (LcStatus::NotOver, None) | (LcStatus::StructSize | LcStatus::NullPointer, _) => {}
                        (status, outcome) => panic!("lc_game_result: {status:?} for {outcome:?}"),
                    }
                }
            }
            14 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let you = if u.arbitrary()? { u.int_in_range(0..=9)? } else { number(u)? };
                let capacity = if u.arbitrary()? { u.int_in_range(0..=200)? } else { u.int_in_range(0..=140_000)? };
                let mut buf = vec![0x55u8; capacity];
                let buf_ptr = if u.ratio(1, 8)? { std::ptr::null_mut() } else { buf.as_mut_ptr().cast::<c_char>() };
                let mut len = usize::MAX;
                let len_ptr = if null(u)? { std::ptr::null_mut() } else { &mut len as *mut usize };
                let status = checked("lc_game_observation_json", unsafe {
                    lc_game_observation_json(game, you, buf_ptr, capacity, len_ptr)
                });
                if let Some(shadow) = k.and_then(|k| world.shadows[k].as_ref()) {
                    if matches!(status, LcStatus::Ok | LcStatus::BufferTooSmall) {
                        let json = Observation::new(shadow, you as usize).to_json();
                        assert_eq!(len, json.len());
                        if status == LcStatus::Ok {
                            assert_eq!(&buf[..len], json.as_bytes());
                            assert_eq!(buf[len], 0);
                        } else {
                            assert!(capacity <= len && buf.iter().all(|&b| b == 0x55), "nothing written");
                        }
                    }
                }
            }
            15 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let (a, b) = (u.int_in_range(0..=9)?, if u.arbitrary()? { u.int_in_range(0..=9)? } else { number(u)? });
                let (mut room, mut apart) = (u32::MAX, false);
                let null_out = null(u)?;
                let room_ptr = if null_out { std::ptr::null_mut() } else { &mut room as *mut u32 };
                let apart_ptr = if null_out { std::ptr::null_mut() } else { &mut apart as *mut bool };
                let status = checked("lc_game_reachable", unsafe { lc_game_reachable(game, a, room_ptr) });
                checked("lc_game_separated", unsafe { lc_game_separated(game, a, b, apart_ptr) });
                if let (LcStatus::Ok, Some(shadow)) = (status, k.and_then(|k| world.shadows[k].as_ref())) {
                    assert!((room as usize) < shadow.config().cells());
                }
            }
            16 => {
                let k = slot(u)?;
                let game = k.map_or(std::ptr::null_mut(), |k| world.games[k]);
                let cells = k.and_then(|k| world.shadows[k].as_ref()).map_or(64, |g| g.config().cells());
                let counts_len = u.int_in_range(0..=10)?;
                let mut counts = vec![u32::MAX; counts_len];
                let counts_ptr = if u.ratio(1, 12)? { std::ptr::null_mut() } else { counts.as_mut_ptr() };
                let owners_len = match u.int_in_range(0..=4)? {
                    0 => 0,
                    1 => cells.saturating_sub(1),
                    2 => cells + u.int_in_range(0..=3)?,
                    _ => cells,
                };
                let mut owners = vec![100i8; owners_len];
                let owners_ptr = if u.ratio(1, 3)? { std::ptr::null_mut() } else { owners.as_mut_ptr() };
                let status = checked("lc_game_voronoi", unsafe {
                    lc_game_voronoi(game, counts_ptr, counts_len, owners_ptr, owners_len)
                });
                if let (LcStatus::Ok, Some(shadow)) = (status, k.and_then(|k| world.shadows[k].as_ref())) {
                    let n = shadow.num_players();
                    let total: u64 = counts[..n].iter().map(|&c| c as u64).sum();
                    assert!(total <= cells as u64);
                    if !owners_ptr.is_null() {
                        assert!(owners[..cells].iter().all(|&o| o >= -1 && (o as i64) < n as i64));
                        for (i, &c) in counts[..n].iter().enumerate() {
                            assert_eq!(owners[..cells].iter().filter(|&&o| o == i as i8).count(), c as usize);
                        }
                    }
                }
            }
            17 => {
                // lc_observation_from_json: a game's own JSON, damaged, or any bytes.
                let o = u.choose_index(SLOTS)?;
                let live: Vec<usize> = (0..SLOTS).filter(|&k| world.shadows[k].is_some()).collect();
                let mut json = match live.is_empty() || u.ratio(1, 6)? {
                    true => u.arbitrary::<Vec<u8>>()?,
                    false => {
                        let shadow = world.shadows[*u.choose(&live)?].as_ref().unwrap();
                        Observation::new(shadow, u.choose_index(shadow.num_players())?).to_json().into_bytes()
                    }
                };
                for _ in 0..u.int_in_range(0..=3)? {
                    if !json.is_empty() {
                        let at = u.choose_index(json.len())?;
                        json[at] = u.arbitrary()?;
                    }
                }
                let null_json = u.ratio(1, 20)?;
                let json_ptr = if null_json { std::ptr::null() } else { json.as_ptr().cast::<c_char>() };
                let mut out: *const LcObservation = 0x1 as *const LcObservation;
                let out_ptr = if null(u)? { std::ptr::null_mut() } else { &mut out as *mut *const LcObservation };
                let status = checked("lc_observation_from_json", unsafe {
                    lc_observation_from_json(json_ptr, json.len(), out_ptr)
                });
                if out_ptr.is_null() {
                    continue;
                }
                if status == LcStatus::Ok {
                    unsafe { lc_observation_free(world.observations[o]) };
                    world.observations[o] = out;
                } else {
                    assert!(out.is_null(), "a failed create leaves NULL");
                }
            }
            18 => {
                let o = u.choose_index(SLOTS)?;
                unsafe { lc_observation_free(world.observations[o]) };
                world.observations[o] = std::ptr::null();
            }
            19 => {
                let k = u.choose_index(SLOTS)?;
                same_game(world, k);
            }
            _ => {
                let code: i32 = if u.arbitrary()? { u.int_in_range(-2..=14)? } else { u.arbitrary()? };
                let name = unsafe { CStr::from_ptr(lc_status_name(code)) }.to_str().unwrap();
                assert!(name.starts_with("LC_STATUS_"), "{name}");
                assert_eq!(lc_abi_version(), LC_ABI_VERSION);
                let _ = last_error();
            }
        }
    }
    Ok(())
}

/// Puts a new handle (and its shadow) into slot `k`, freeing what was there.
fn replace(world: &mut World, k: usize, game: *mut LcGame, shadow: Option<ReferenceGame>) {
    unsafe { lc_game_free(world.games[k]) };
    world.games[k] = game;
    world.shadows[k] = shadow;
}

fuzz_target!(|data: &[u8]| {
    let mut world = World {
        games: [std::ptr::null_mut(); SLOTS],
        shadows: [None, None, None, None],
        observations: [std::ptr::null(); SLOTS],
    };
    let mut u = Unstructured::new(data);
    let _ = run(&mut u, &mut world);
});
