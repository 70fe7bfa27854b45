//! The lean search state through the C ABI: `LcSearchState`, the core's
//! `SearchState` (a fixed-size value of 640 bytes, boards up to 64 × 64, no
//! owner planes) behind a handle, copied into a caller's preallocated
//! states without allocating, stepped, and searched with the lean flood
//! fills.
//!
//! Why a handle and not the bytes themselves: a state passed by value
//! would be 640 bytes the library must trust (directions and flags inside
//! are enumerations; a corrupt copy would be undefined behaviour, and
//! checking every field on every call would cost more than the step). A
//! handle is made only by this library, so every state it reads is one it
//! wrote; `lc_search_state_copy_into` is the copy a search makes, a plain
//! 640-byte copy into memory the caller already owns.

use lightcycles_core::search_state::{SearchState, SearchStateError};
use lightcycles_core::space::lean;
use lightcycles_core::Pos;

use crate::error::{borrow, borrow_mut, guard, slice, slice_mut, FfiError, FfiResult};
use crate::game::{actions, step_error, LcGame, LC_MAX_PLAYERS};
use crate::status::LcStatus;

/// The longest side of a board an `LcSearchState` holds.
pub const LC_SEARCH_MAX_SIDE: u32 = 64;

const _: () = assert!(LC_SEARCH_MAX_SIDE == lightcycles_core::search_state::MAX_SEARCH_SIDE);

/// A lean game state for search: an opaque handle owned by the caller,
/// from `lc_search_state_new`, freed with `lc_search_state_free`. It plays
/// the rules of `LcGame` on boards up to 64 × 64 and knows whether each
/// cell is empty, not whose trail fills it (keep the `LcGame` for that).
/// Used by one thread at a time; different handles are independent.
pub struct LcSearchState {
    state: SearchState,
}

impl LcSearchState {
    /// The state inside.
    pub fn state(&self) -> &SearchState {
        &self.state
    }
}

/// Creates the search state of `game` (its board, players, tick and
/// configuration). On success `*out` receives a new state to free with
/// `lc_search_state_free`; on failure `*out` is NULL.
///
/// Errors: `LC_STATUS_NULL_POINTER`, `LC_STATUS_OUT_OF_RANGE` (a board
/// wider or higher than `LC_SEARCH_MAX_SIDE`).
///
/// # Safety
/// `game` must be NULL or a live game; `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_new(game: *const LcGame, out: *mut *mut LcSearchState) -> LcStatus {
    guard("lc_search_state_new", || {
        // SAFETY: the caller's promises.
        let out = unsafe { borrow_mut(out, "out") }?;
        *out = core::ptr::null_mut();
        let game = unsafe { borrow(game, "game") }?;
        let state = SearchState::from_game(game.engine()).map_err(|e| match e {
            SearchStateError::TooLarge { .. } => FfiError::out_of_range(format_args!("game: {e}")),
            SearchStateError::Game(e) => FfiError::new(LcStatus::Position, e),
        })?;
        *out = Box::into_raw(Box::new(LcSearchState { state }));
        Ok(())
    })
}

/// Frees a search state. NULL is ignored.
///
/// # Safety
/// `state` must be NULL or a live state from this library, freed only once.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_free(state: *mut LcSearchState) {
    if !state.is_null() {
        // SAFETY: the pointer came from Box::into_raw in `lc_search_state_new`.
        drop(unsafe { Box::from_raw(state) });
    }
}

/// Overwrites `dst` with `src`: a 640-byte copy, no allocation, whatever
/// the boards of the two (a state holds any board up to 64 × 64). `src ==
/// dst` does nothing.
///
/// # Safety
/// `src` and `dst` must be NULL or live states.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_copy_into(src: *const LcSearchState, dst: *mut LcSearchState) -> LcStatus {
    guard("lc_search_state_copy_into", || {
        if core::ptr::eq(src, dst) {
            return if src.is_null() { Err(FfiError::null("src")) } else { Ok(()) };
        }
        // SAFETY: distinct live states, by the caller's promise and the check above.
        let src = unsafe { borrow(src, "src") }?;
        let dst = unsafe { borrow_mut(dst, "dst") }?;
        dst.state = src.state;
        Ok(())
    })
}

/// Plays one tick, as `lc_game_step` (the same move codes, the same
/// errors); on any error the state is left unchanged.
///
/// # Safety
/// `state` must be NULL or a live state; `moves` must point to `count` codes.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_step(state: *mut LcSearchState, moves: *const i32, count: usize) -> LcStatus {
    guard("lc_search_state_step", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow_mut(state, "state") }?;
        let moves = unsafe { slice(moves, count, "moves") }?;
        let mut next = state.state;
        step(&mut next, moves)?;
        state.state = next;
        Ok(())
    })
}

/// The copy-make of a search in one call: `dst` becomes `src` played one
/// tick further with `moves` (as `lc_search_state_copy_into` then
/// `lc_search_state_step`, without a second crossing of the boundary). On
/// any error `dst` is left unchanged. `src == dst` steps the state in place.
///
/// # Safety
/// `src` and `dst` must be NULL or live states; `moves` must point to
/// `count` codes.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_step_from(
    src: *const LcSearchState,
    dst: *mut LcSearchState,
    moves: *const i32,
    count: usize,
) -> LcStatus {
    guard("lc_search_state_step_from", || {
        if dst.is_null() {
            return Err(FfiError::null("dst"));
        }
        // SAFETY: the caller's promises; `src` is read whole before `dst`
        // is written, so the two may be the same state.
        let mut next = unsafe { borrow(src, "src") }?.state;
        let moves = unsafe { slice(moves, count, "moves") }?;
        step(&mut next, moves)?;
        unsafe { borrow_mut(dst, "dst") }?.state = next;
        Ok(())
    })
}

/// One tick of `state` with the move codes `moves`.
#[inline(always)]
fn step(state: &mut SearchState, moves: &[i32]) -> FfiResult<()> {
    let n = state.num_players();
    let actions = actions(moves, n)?;
    let result = if n == 2 { state.step2([actions[0], actions[1]]) } else { state.step(&actions[..n]) };
    result.map_err(|e| step_error(e, state.tick()))
}

/// Writes the number of ticks played to `*out`.
///
/// # Safety
/// `state` must be NULL or a live state; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_tick(state: *const LcSearchState, out: *mut u32) -> LcStatus {
    guard("lc_search_state_tick", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow(state, "state") }?;
        *unsafe { borrow_mut(out, "out") }? = state.state.tick();
        Ok(())
    })
}

/// Writes to `*out` whether the game has ended.
///
/// # Safety
/// `state` must be NULL or a live state; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_is_over(state: *const LcSearchState, out: *mut bool) -> LcStatus {
    guard("lc_search_state_is_over", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow(state, "state") }?;
        *unsafe { borrow_mut(out, "out") }? = state.state.is_over();
        Ok(())
    })
}

fn player_id(state: &SearchState, player: u32) -> FfiResult<usize> {
    let n = state.num_players();
    if (player as usize) < n {
        Ok(player as usize)
    } else {
        Err(FfiError::out_of_range(format_args!("player = {player} is not a player id below {n}")))
    }
}

/// Writes player `player`'s state to `*out` (whose `struct_size` the caller
/// sets), as `lc_game_player`.
///
/// # Safety
/// `state` must be NULL or a live state; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_player(
    state: *const LcSearchState,
    player: u32,
    out: *mut crate::game::LcPlayer,
) -> LcStatus {
    guard("lc_search_state_player", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow(state, "state") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        crate::error::check_struct_size("out", out.struct_size, crate::game::PLAYER_V1_SIZE)?;
        let id = player_id(&state.state, player)?;
        crate::game::write_player(out, &state.state.player(id))
    })
}

/// Writes to `*out` whether cell `(x, y)` is empty (1) or not (0). A cell
/// off the board is `LC_STATUS_OUT_OF_RANGE`.
///
/// # Safety
/// `state` must be NULL or a live state; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_is_empty(
    state: *const LcSearchState,
    x: i32,
    y: i32,
    out: *mut bool,
) -> LcStatus {
    guard("lc_search_state_is_empty", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow(state, "state") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        let c = state.state.config();
        if x < 0 || y < 0 || x as u32 >= c.width || y as u32 >= c.height {
            return Err(FfiError::out_of_range(format_args!(
                "cell ({x}, {y}) is off the {} × {} board",
                c.width, c.height
            )));
        }
        *out = state.state.cell_is_empty(Pos::new(x as u8, y as u8));
        Ok(())
    })
}

/// Writes to `*out` the number of empty cells player `player` can reach
/// from its head (as `lc_game_reachable`; 0 for a player no longer
/// riding), with the lean flood fill. Allocates nothing.
///
/// # Safety
/// `state` must be NULL or a live state; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_reachable(
    state: *const LcSearchState,
    player: u32,
    out: *mut u32,
) -> LcStatus {
    guard("lc_search_state_reachable", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow(state, "state") }?;
        let out = unsafe { borrow_mut(out, "out") }?;
        let id = player_id(&state.state, player)?;
        *out = if state.state.is_alive(id) { lean::reachable(&state.state, state.state.head(id)) } else { 0 };
        Ok(())
    })
}

/// The Voronoi split, as `lc_game_voronoi` (the same `counts` and
/// `owners`), with the lean search. Allocates nothing.
///
/// # Safety
/// `state` must be NULL or a live state; `counts` must hold `counts_len`
/// writable slots; `owners` must be NULL or hold `owners_len` writable slots.
#[no_mangle]
pub unsafe extern "C" fn lc_search_state_voronoi(
    state: *const LcSearchState,
    counts: *mut u32,
    counts_len: usize,
    owners: *mut i8,
    owners_len: usize,
) -> LcStatus {
    guard("lc_search_state_voronoi", || {
        // SAFETY: the caller's promises.
        let state = unsafe { borrow(state, "state") }?;
        let counts = unsafe { slice_mut(counts, counts_len, "counts") }?;
        let s = &state.state;
        let n = s.num_players();
        if counts_len < n {
            return Err(FfiError::out_of_range(format_args!("counts_len = {counts_len}, expected at least {n}")));
        }
        let cells = (s.config().width * s.config().height) as usize;
        let owners = if owners.is_null() {
            None
        } else {
            if owners_len < cells {
                return Err(FfiError::out_of_range(format_args!(
                    "owners_len = {owners_len}, expected at least {cells}"
                )));
            }
            Some(unsafe { slice_mut(owners, owners_len, "owners") }?)
        };
        if owners.is_none() {
            counts[..n].copy_from_slice(&lean::voronoi(s).counts[..n]);
            return Ok(());
        }
        let mut planes = [[0u64; 64]; LC_MAX_PLAYERS];
        let split = lean::voronoi_cells(s, &mut planes);
        counts[..n].copy_from_slice(&split.counts[..n]);
        if let Some(owners) = owners {
            let w = s.config().width as usize;
            for (i, o) in owners[..cells].iter_mut().enumerate() {
                let (x, y) = (i % w, i / w);
                *o = (0..n).find(|&id| planes[id][y] >> x & 1 != 0).map_or(crate::space::NO_OWNER, |id| id as i8);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space;
    use lightcycles_core::{Config, Engine, FastGame};

    #[test]
    fn the_lean_calls_answer_as_the_game_calls() {
        let game = LcGame::from_engine(FastGame::seeded(&Config::default(), 4).unwrap());
        let mut out = core::ptr::null_mut();
        assert_eq!(unsafe { lc_search_state_new(&game, &mut out) }, LcStatus::Ok);
        let mut room = 0;
        assert_eq!(unsafe { lc_search_state_reachable(out, 1, &mut room) }, LcStatus::Ok);
        assert_eq!(room, space::reachable(game.engine(), 1));
        let (mut counts, mut owners) = ([0u32; 2], vec![0i8; 48 * 36]);
        let status = unsafe { lc_search_state_voronoi(out, counts.as_mut_ptr(), 2, owners.as_mut_ptr(), owners.len()) };
        assert_eq!(status, LcStatus::Ok);
        let (mut want_counts, mut want_owners) = ([0u32; 2], vec![0i8; 48 * 36]);
        space::voronoi(game.engine(), &mut want_counts, &mut want_owners);
        assert_eq!((counts, owners), (want_counts, want_owners));
        unsafe { lc_search_state_free(out) };
    }
}
