//! The game handle and its entry points: create, copy, step, query.

use core::ffi::c_char;
use core::mem::size_of;

use lightcycles_core::map::parse_2010;
use lightcycles_core::observation::Observation;
use lightcycles_core::{Action, Config, Dir, Engine, FastGame, FaultKind, Pos, StepError};

use crate::config::{parse_fault_policy, LcConfig, CONFIG_V1_SIZE};
use crate::error::{borrow, borrow_mut, check_struct_size, guard, slice, slice_mut, FfiError, FfiResult};
use crate::observation::{read_observation, LcObservation};
use crate::space;
use crate::status::LcStatus;

/// Most players in a game (docs/RULES.md section 1): the size of the arrays of
/// `LcResult`.
pub const LC_MAX_PLAYERS: usize = 8;

// The header needs the number itself (cbindgen does not follow a path into
// the core): tie it to the core's.
const _: () = assert!(LC_MAX_PLAYERS == lightcycles_core::config::MAX_PLAYERS);

/// Move code: ride north.
pub const LC_MOVE_N: i32 = 0;
/// Move code: ride east.
pub const LC_MOVE_E: i32 = 1;
/// Move code: ride south.
pub const LC_MOVE_S: i32 = 2;
/// Move code: ride west.
pub const LC_MOVE_W: i32 = 3;
/// Move code: no move, without fault (keep the direction).
pub const LC_MOVE_NONE: i32 = -1;
/// Move code: a fault of kind `invalid` (an answer that is not a move).
pub const LC_FAULT_INVALID: i32 = -2;
/// Move code: a fault of kind `timeout`.
pub const LC_FAULT_TIMEOUT: i32 = -3;
/// Move code: a fault of kind `crash` (the bot crashed or exited).
pub const LC_FAULT_CRASH: i32 = -4;

/// A game: an opaque handle owned by the caller, from `lc_game_new`,
/// `lc_game_from_map`, `lc_game_from_observation` or `lc_game_clone`, and
/// freed with `lc_game_free`.
///
/// A handle is not synchronised: use it from one thread at a time (reads
/// included). Different handles are independent and may be used from
/// different threads at once.
pub struct LcGame {
    /// The fast engine (bitboards, a step and a copy that allocate
    /// nothing), proven equal to the reference engine by the core's
    /// trajectory gate and, here, by the replays stepped from C.
    engine: FastGame,
}

impl LcGame {
    /// The engine inside.
    pub fn engine(&self) -> &FastGame {
        &self.engine
    }

    /// A game around `engine` (for Rust callers such as the host's bench;
    /// C callers make games with `lc_game_new` and its kin).
    pub fn from_engine(engine: FastGame) -> LcGame {
        LcGame { engine }
    }
}

/// One player's state.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcPlayer {
    /// `sizeof(LcPlayer)`, set by the caller before `lc_game_player`.
    pub struct_size: u32,
    /// Head column (the last head of an eliminated player).
    pub x: u32,
    /// Head row.
    pub y: u32,
    /// Current direction, 0 N, 1 E, 2 S, 3 W.
    pub dir: u32,
    /// 1 while the player rides, 0 once eliminated.
    pub alive: u32,
    /// Trail length in cells, head included.
    pub trail: u32,
    /// The tick on which the player was eliminated, -1 while it rides.
    pub eliminated_at: i32,
}

/// How a finished game ended (docs/RULES.md section 8). Arrays hold
/// `num_players` meaningful entries, by player id.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LcResult {
    /// `sizeof(LcResult)`, set by the caller before `lc_game_result`.
    pub struct_size: u32,
    /// Number of players.
    pub num_players: u32,
    /// The winner's id, -1 for a draw.
    pub winner: i32,
    /// 1 when no single player won, else 0.
    pub draw: u32,
    /// The tick on which the game ended.
    pub ticks: u32,
    /// Placement by player: 1 plus the number of players that did strictly better.
    pub placements: [u32; LC_MAX_PLAYERS],
    /// Tick of elimination by player, -1 for a survivor.
    pub eliminated_at: [i32; LC_MAX_PLAYERS],
    /// Trail length by player, head included.
    pub trails: [u32; LC_MAX_PLAYERS],
}

pub(crate) const PLAYER_V1_SIZE: usize = size_of::<LcPlayer>();
const RESULT_V1_SIZE: usize = size_of::<LcResult>();

/// The action of a move code, or an error naming `moves[i]`.
#[inline]
pub(crate) fn action(i: usize, code: i32) -> FfiResult<Action> {
    Ok(match code {
        0..=3 => Action::Move(Dir::ALL[code as usize]),
        LC_MOVE_NONE => Action::Keep,
        LC_FAULT_INVALID => Action::Fault(FaultKind::Invalid),
        LC_FAULT_TIMEOUT => Action::Fault(FaultKind::Timeout),
        LC_FAULT_CRASH => Action::Fault(FaultKind::Crash),
        _ => {
            return Err(FfiError::out_of_range(format_args!(
                "moves[{i}] = {code} is not a move code (0 to 3 a move, -1 none, -2 invalid, -3 timeout, -4 crash)"
            )))
        }
    })
}

/// The actions of the move codes `moves`, one per player of `players`
/// (the rest `Keep`), or an error naming the count or the code: the one
/// reading of moves of `lc_game_step` and `lc_search_state_step`.
#[inline(always)]
pub(crate) fn actions(moves: &[i32], players: usize) -> FfiResult<[Action; LC_MAX_PLAYERS]> {
    if moves.len() != players {
        return Err(FfiError::out_of_range(format_args!(
            "count = {}, expected {players} (one move per player)",
            moves.len()
        )));
    }
    let mut actions = [Action::Keep; LC_MAX_PLAYERS];
    for (i, &code) in moves.iter().enumerate() {
        actions[i] = action(i, code)?;
    }
    Ok(actions)
}

/// The error of a step refused on tick `tick`.
pub(crate) fn step_error(error: StepError, tick: u32) -> FfiError {
    match error {
        StepError::GameOver => FfiError::new(
            LcStatus::GameOver,
            format_args!("the game ended on tick {tick}; no more ticks can be played"),
        ),
        other => FfiError::out_of_range(other),
    }
}

/// Hands a new game to the caller through `out`.
fn give(out: &mut *mut LcGame, engine: FastGame) {
    *out = Box::into_raw(Box::new(LcGame { engine }));
}

fn core_game_error(e: lightcycles_core::GameError) -> FfiError {
    use lightcycles_core::GameError as G;
    let status = match &e {
        G::Config(_) => LcStatus::Config,
        G::Map(_) | G::MapMismatch { .. } => LcStatus::Map,
        G::Position(_) => LcStatus::Position,
    };
    FfiError::new(status, e)
}

/// Clears `*out` (when `out` is not null) and borrows it.
///
/// # Safety
/// A non-null `out` must be writable.
unsafe fn take_out<'a>(out: *mut *mut LcGame) -> FfiResult<&'a mut *mut LcGame> {
    // SAFETY: the caller's promise.
    let out = unsafe { borrow_mut(out, "out") }?;
    *out = core::ptr::null_mut();
    Ok(out)
}

fn player_id(engine: &FastGame, player: u32) -> FfiResult<usize> {
    let n = engine.num_players();
    if (player as usize) < n {
        Ok(player as usize)
    } else {
        Err(FfiError::out_of_range(format_args!("player = {player} is not a player id below {n}")))
    }
}

/// Creates the seeded game of `config` (docs/RULES.md section 4): the map is
/// generated from `seed`. `config` may be NULL for the default
/// configuration. On success `*out` receives a new game to free with
/// `lc_game_free`; on failure `*out` is NULL.
///
/// Errors: `LC_STATUS_NULL_POINTER` (`out`), `LC_STATUS_STRUCT_SIZE`,
/// `LC_STATUS_OUT_OF_RANGE` (fault policy), `LC_STATUS_CONFIG` (a bound of
/// section 1), `LC_STATUS_MAP` (too many players for the board).
///
/// # Safety
/// `config` must be NULL or readable; `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_new(config: *const LcConfig, seed: u64, out: *mut *mut LcGame) -> LcStatus {
    guard("lc_game_new", || {
        // SAFETY: the caller's promises.
        let out = unsafe { take_out(out) }?;
        let config = match unsafe { config.as_ref() } {
            None => Config::default(),
            Some(c) => c.to_config("config")?,
        };
        give(out, FastGame::seeded(&config, seed).map_err(core_game_error)?);
        Ok(())
    })
}

/// Creates a game on a map in the 2010 Google AI Challenge format (docs/RULES.md
/// section 9): `text` points to `len` bytes of UTF-8 (no terminating NUL
/// needed). The board, its rocks and the two players come from the map;
/// `max_ticks` and `fault_policy` complete the configuration. On success
/// `*out` receives a new game to free with `lc_game_free`.
///
/// Errors: `LC_STATUS_NULL_POINTER`, `LC_STATUS_PARSE` (not UTF-8),
/// `LC_STATUS_MAP` (the message names the line and column),
/// `LC_STATUS_CONFIG` (`max_ticks`), `LC_STATUS_OUT_OF_RANGE` (fault policy).
///
/// # Safety
/// `text` must point to `len` readable bytes; `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_from_map(
    text: *const c_char,
    len: usize,
    max_ticks: u32,
    fault_policy: u32,
    out: *mut *mut LcGame,
) -> LcStatus {
    guard("lc_game_from_map", || {
        // SAFETY: the caller's promises.
        let out = unsafe { take_out(out) }?;
        if text.is_null() {
            return Err(FfiError::null("text"));
        }
        // SAFETY: `len` readable bytes at a non-null `text`.
        let bytes = unsafe { slice(text.cast::<u8>(), len, "text") }?;
        let text = core::str::from_utf8(bytes)
            .map_err(|e| FfiError::new(LcStatus::Parse, format_args!("text is not UTF-8: {e}")))?;
        let policy = parse_fault_policy("fault_policy", fault_policy)?;
        let map = parse_2010(text).map_err(|e| FfiError::new(LcStatus::Map, format_args!("map: {e}")))?;
        let config = Config {
            width: map.width,
            height: map.height,
            players: map.starts.len() as u32,
            max_ticks,
            rock_density: 0,
            fault_policy: policy,
        };
        config.validate().map_err(|e| FfiError::new(LcStatus::Config, e))?;
        give(out, FastGame::from_map(&config, &map).map_err(core_game_error)?);
        Ok(())
    })
}

/// Creates the game an observation shows, so that a bot can search from the
/// referee's state: the board, the players and the tick (`obs->tick - 1`
/// ticks played), under `fault_policy`. An observation does not say when
/// dead players died: they count as eliminated on the last tick played
/// (this only matters for placements). On success `*out` receives a new
/// game to free with `lc_game_free`; `obs` is only read during the call.
///
/// Errors: `LC_STATUS_NULL_POINTER` (`obs`, its arrays, `out`),
/// `LC_STATUS_STRUCT_SIZE` (`struct_size`, `player_size`),
/// `LC_STATUS_POSITION` (a state the rules cannot reach),
/// `LC_STATUS_CONFIG` (`max_ticks`), `LC_STATUS_OUT_OF_RANGE` (fault policy).
///
/// # Safety
/// `obs` must be NULL or point to an observation whose arrays hold what its
/// counts say; `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_from_observation(
    obs: *const LcObservation,
    fault_policy: u32,
    out: *mut *mut LcGame,
) -> LcStatus {
    guard("lc_game_from_observation", || {
        // SAFETY: the caller's promises.
        let out = unsafe { take_out(out) }?;
        let obs: Observation = unsafe { read_observation(obs, "obs") }?;
        let policy = parse_fault_policy("fault_policy", fault_policy)?;
        let position = obs.to_position(policy).map_err(|e| {
            let status = match e {
                lightcycles_core::PositionError::Config(_) => LcStatus::Config,
                _ => LcStatus::Position,
            };
            FfiError::new(status, format_args!("obs: {e}"))
        })?;
        give(out, FastGame::from_position(&position).map_err(core_game_error)?);
        Ok(())
    })
}

/// Creates an independent copy of `game`. On success `*out` receives a new
/// game to free with `lc_game_free`. Allocates: in a search loop, keep
/// games around and use `lc_game_copy_into` instead.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_clone(game: *const LcGame, out: *mut *mut LcGame) -> LcStatus {
    guard("lc_game_clone", || {
        // SAFETY: the caller's promises.
        let out = unsafe { take_out(out) }?;
        let game = unsafe { borrow(game, "game") }?;
        give(out, game.engine.clone());
        Ok(())
    })
}

/// Overwrites `dst` with the state of `src`, reusing `dst`'s memory: the
/// copy-make step of a search. Both games must have the same board size and
/// number of players (`LC_STATUS_SHAPE_MISMATCH` otherwise). `src == dst`
/// is allowed and does nothing.
///
/// # Safety
/// `src` and `dst` must be NULL or live games.
#[no_mangle]
pub unsafe extern "C" fn lc_game_copy_into(src: *const LcGame, dst: *mut LcGame) -> LcStatus {
    guard("lc_game_copy_into", || {
        if core::ptr::eq(src, dst) {
            return if src.is_null() { Err(FfiError::null("src")) } else { Ok(()) };
        }
        // SAFETY: distinct live games, by the caller's promise and the check above.
        let src = unsafe { borrow(src, "src") }?;
        let dst = unsafe { borrow_mut(dst, "dst") }?;
        let (a, b) = (src.engine.config(), dst.engine.config());
        if (a.width, a.height, a.players) != (b.width, b.height, b.players) {
            return Err(FfiError::new(
                LcStatus::ShapeMismatch,
                format_args!(
                    "src is {} × {} with {} players, dst {} × {} with {}",
                    a.width, a.height, a.players, b.width, b.height, b.players
                ),
            ));
        }
        dst.engine.clone_from(&src.engine);
        Ok(())
    })
}

/// Frees a game. NULL is ignored. The handle must not be used afterwards.
///
/// # Safety
/// `game` must be NULL or a live game from this library, freed only once.
#[no_mangle]
pub unsafe extern "C" fn lc_game_free(game: *mut LcGame) {
    if !game.is_null() {
        // SAFETY: the pointer came from Box::into_raw in `give`.
        drop(unsafe { Box::from_raw(game) });
    }
}

/// Plays one tick (docs/RULES.md section 7). `moves` holds `count` codes, one per
/// player by id (`count` must be the number of players; codes of dead
/// players are ignored): `LC_MOVE_N`…`LC_MOVE_W` (0 to 3), `LC_MOVE_NONE`
/// (-1, keep the direction), or a fault: `LC_FAULT_INVALID`,
/// `LC_FAULT_TIMEOUT`, `LC_FAULT_CRASH` (no move under `straight`, a crash
/// under `eliminate`). On any error the game is left unchanged.
///
/// Errors: `LC_STATUS_NULL_POINTER`, `LC_STATUS_OUT_OF_RANGE` (`count`, a
/// code), `LC_STATUS_GAME_OVER` (the game has ended).
///
/// # Safety
/// `game` must be NULL or a live game; `moves` must point to `count` codes.
#[no_mangle]
pub unsafe extern "C" fn lc_game_step(game: *mut LcGame, moves: *const i32, count: usize) -> LcStatus {
    guard("lc_game_step", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow_mut(game, "game") }?;
        let moves = unsafe { slice(moves, count, "moves") }?;
        let n = game.engine.num_players();
        let actions = actions(moves, n)?;
        game.engine.step(&actions[..n]).map_err(|e| step_error(e, game.engine.tick()))
    })
}

/// Writes the configuration of `game` to `*out` (whose `struct_size` the
/// caller sets). A game from a map has `rock_density` 0; one from an
/// observation also has `rock_density` 0.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_config(game: *const LcGame, out: *mut LcConfig) -> LcStatus {
    guard("lc_game_config", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        check_struct_size("out", out.struct_size, CONFIG_V1_SIZE)?;
        let struct_size = out.struct_size;
        *out = LcConfig { struct_size, ..LcConfig::from(game.engine.config()) };
        Ok(())
    })
}

/// Writes the number of ticks played so far (0 at the start) to `*out`.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_tick(game: *const LcGame, out: *mut u32) -> LcStatus {
    guard("lc_game_tick", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        *unsafe { borrow_mut(out, "out") }? = game.engine.tick();
        Ok(())
    })
}

/// Writes the value of cell `(x, y)` to `*out`: -1 empty, -2 rock, `p >= 0`
/// a trail of player `p`. A cell off the board is `LC_STATUS_OUT_OF_RANGE`
/// (to the rules it is a wall).
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_cell(game: *const LcGame, x: i32, y: i32, out: *mut i8) -> LcStatus {
    guard("lc_game_cell", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        let c = game.engine.config();
        if x < 0 || y < 0 || x as u32 >= c.width || y as u32 >= c.height {
            return Err(FfiError::out_of_range(format_args!(
                "cell ({x}, {y}) is off the {} × {} board",
                c.width, c.height
            )));
        }
        *out = game.engine.cell(Pos::new(x as u8, y as u8));
        Ok(())
    })
}

/// Writes player `player`'s state to `*out` (whose `struct_size` the caller sets).
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_player(game: *const LcGame, player: u32, out: *mut LcPlayer) -> LcStatus {
    guard("lc_game_player", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        check_struct_size("out", out.struct_size, PLAYER_V1_SIZE)?;
        write_player(out, &game.engine.player(player_id(&game.engine, player)?))
    })
}

/// Writes `p` to `out` (whose `struct_size` the caller has checked first:
/// a wrong size is reported before a wrong id).
pub(crate) fn write_player(out: &mut LcPlayer, p: &lightcycles_core::PlayerState) -> FfiResult<()> {
    check_struct_size("out", out.struct_size, PLAYER_V1_SIZE)?;
    *out = LcPlayer {
        struct_size: out.struct_size,
        x: p.pos.x as u32,
        y: p.pos.y as u32,
        dir: p.dir.code() as u32,
        alive: p.alive as u32,
        trail: p.trail,
        eliminated_at: p.eliminated_at.map_or(-1, |t| t as i32),
    };
    Ok(())
}

/// Writes whether the game has ended to `*out`.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_is_over(game: *const LcGame, out: *mut bool) -> LcStatus {
    guard("lc_game_is_over", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        *unsafe { borrow_mut(out, "out") }? = game.engine.is_over();
        Ok(())
    })
}

/// Writes how the game ended to `*out` (whose `struct_size` the caller
/// sets). `LC_STATUS_NOT_OVER` while the game goes on.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_result(game: *const LcGame, out: *mut LcResult) -> LcStatus {
    guard("lc_game_result", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        check_struct_size("out", out.struct_size, RESULT_V1_SIZE)?;
        let Some(o) = game.engine.outcome() else {
            return Err(FfiError::new(
                LcStatus::NotOver,
                format_args!("the game goes on after tick {}", game.engine.tick()),
            ));
        };
        let mut r = LcResult {
            struct_size: out.struct_size,
            num_players: o.placements.len() as u32,
            winner: o.winner.map_or(-1, |w| w as i32),
            draw: o.draw as u32,
            ticks: o.ticks,
            placements: [0; LC_MAX_PLAYERS],
            eliminated_at: [-1; LC_MAX_PLAYERS],
            trails: [0; LC_MAX_PLAYERS],
        };
        for i in 0..o.placements.len() {
            r.placements[i] = o.placements[i];
            r.eliminated_at[i] = o.eliminated_at[i].map_or(-1, |t| t as i32);
            r.trails[i] = o.trails[i];
        }
        *out = r;
        Ok(())
    })
}

/// Writes the observation of docs/RULES.md section 5 for player `you`, as one
/// line of JSON (no newline) followed by a NUL, into the caller's buffer
/// `buf` of `capacity` bytes. `*len` always receives the length of the
/// JSON without the NUL; when `capacity < *len + 1` nothing is written and
/// the status is `LC_STATUS_BUFFER_TOO_SMALL`, so a caller may ask for the
/// length first with `buf = NULL, capacity = 0`. The caller owns `buf`.
///
/// # Safety
/// `game` must be NULL or a live game; `buf` must be NULL or hold
/// `capacity` writable bytes; `len` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_observation_json(
    game: *const LcGame,
    you: u32,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
) -> LcStatus {
    guard("lc_game_observation_json", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let len = unsafe { borrow_mut(len, "len") }?;
        let buf = unsafe { slice_mut(buf.cast::<u8>(), capacity, "buf") }?;
        let you =
            player_id(&game.engine, you).map_err(|e| FfiError::out_of_range(format_args!("you: {}", e.message)))?;
        let json = Observation::new(&game.engine, you).to_json();
        *len = json.len();
        if capacity < json.len() + 1 {
            return Err(FfiError::new(
                LcStatus::BufferTooSmall,
                format_args!("capacity = {capacity}, the JSON needs {} bytes with its NUL", json.len() + 1),
            ));
        }
        buf[..json.len()].copy_from_slice(json.as_bytes());
        buf[json.len()] = 0;
        Ok(())
    })
}

/// Writes to `*out` the number of empty cells player `player` can reach
/// from its head through empty cells (its head excluded): the room it has
/// left. 0 for a player that is no longer riding. Allocates nothing once
/// the calling thread has searched a board of this size.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_reachable(game: *const LcGame, player: u32, out: *mut u32) -> LcStatus {
    guard("lc_game_reachable", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        *out = space::reachable(&game.engine, player_id(&game.engine, player)?);
        Ok(())
    })
}

/// Writes to `*out` whether players `a` and `b` can no longer meet: no
/// empty cell is reachable by both, so each only fills its own room (true
/// when either is no longer riding). The signal to switch from fighting to
/// filling.
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_game_separated(game: *const LcGame, a: u32, b: u32, out: *mut bool) -> LcStatus {
    guard("lc_game_separated", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        let a = player_id(&game.engine, a).map_err(|e| FfiError::out_of_range(format_args!("a: {}", e.message)))?;
        let b = player_id(&game.engine, b).map_err(|e| FfiError::out_of_range(format_args!("b: {}", e.message)))?;
        *out = space::separated(&game.engine, a, b);
        Ok(())
    })
}

/// The Voronoi split of the board: `counts[i]` receives the number of empty
/// cells that living player `i` reaches strictly before every other living
/// player (shortest paths through empty cells from the heads); dead players
/// get 0. `counts` holds `counts_len >= number of players` slots. When
/// `owners` is not NULL it receives, row-major (`y * width + x`), the
/// owner's id of each cell or -1 (a tie, unreachable, or not empty), and
/// `owners_len` must be at least `width * height`. Allocates nothing once
/// the calling thread has searched a board of this size.
///
/// # Safety
/// `game` must be NULL or a live game; `counts` must hold `counts_len`
/// writable slots; `owners` must be NULL or hold `owners_len` writable slots.
#[no_mangle]
pub unsafe extern "C" fn lc_game_voronoi(
    game: *const LcGame,
    counts: *mut u32,
    counts_len: usize,
    owners: *mut i8,
    owners_len: usize,
) -> LcStatus {
    guard("lc_game_voronoi", || {
        // SAFETY: the caller's promises.
        let game = unsafe { borrow(game, "game") }?;
        if counts.is_null() {
            return Err(FfiError::null("counts"));
        }
        let counts = unsafe { slice_mut(counts, counts_len, "counts") }?;
        let wants_owners = !owners.is_null();
        let owners = if wants_owners { unsafe { slice_mut(owners, owners_len, "owners") }? } else { &mut [][..] };
        let n = game.engine.num_players();
        if counts.len() < n {
            return Err(FfiError::out_of_range(format_args!("counts_len = {counts_len}, expected at least {n}")));
        }
        let cells = game.engine.config().cells();
        if wants_owners && owners.len() < cells {
            return Err(FfiError::out_of_range(format_args!("owners_len = {owners_len}, expected at least {cells}")));
        }
        space::voronoi(&game.engine, counts, owners);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes_map_to_actions() {
        assert_eq!(action(0, LC_MOVE_N), Ok(Action::Move(Dir::N)));
        assert_eq!(action(0, LC_MOVE_W), Ok(Action::Move(Dir::W)));
        assert_eq!(action(0, LC_MOVE_NONE), Ok(Action::Keep));
        assert_eq!(action(0, LC_FAULT_INVALID), Ok(Action::Fault(FaultKind::Invalid)));
        assert_eq!(action(0, LC_FAULT_TIMEOUT), Ok(Action::Fault(FaultKind::Timeout)));
        assert_eq!(action(0, LC_FAULT_CRASH), Ok(Action::Fault(FaultKind::Crash)));
        for bad in [4, -5, i32::MIN, i32::MAX] {
            let e = action(1, bad).unwrap_err();
            assert_eq!(e.status, LcStatus::OutOfRange);
            assert!(e.message.starts_with(&format!("moves[1] = {bad} ")), "{}", e.message);
        }
    }
}
