//! The C ABI rows of `lightcycles bench`: the same work through
//! `liblightcycles` (the `lc_*` functions of `include/lightcycles.h`,
//! called as a C program calls them: handles, move codes, status codes)
//! and in Rust, side by side.
// Unsafe code: the `lc_*` functions are the C ABI, called here with
// handles this module makes and frees and buffers it owns; each call says
// what it relies on.
#![allow(unsafe_code)]

use std::hint::black_box;
use std::ptr;
use std::time::Duration;

use lightcycles_core::search_state::SearchState;
use lightcycles_core::space::{self, lean, Scratch};
use lightcycles_core::{Action, Engine, FastGame};
use lightcycles_ffi::{
    lc_game_copy_into, lc_game_free, lc_game_reachable, lc_game_step, lc_game_voronoi, lc_search_state_copy_into,
    lc_search_state_free, lc_search_state_new, lc_search_state_reachable, lc_search_state_step,
    lc_search_state_step_from, lc_search_state_voronoi, LcGame, LcSearchState, LcStatus,
};

use crate::bench::lean::LeanScript;
use crate::bench::script::Script;
use crate::bench::table::{show, Unit};
use crate::bench::timing::per_op;

/// One line of the C ABI table: the same work through the `lc_*`
/// functions and in Rust.
#[derive(Clone, Debug, PartialEq)]
pub struct AbiRow {
    /// What is measured.
    pub what: String,
    /// Nanoseconds per call through the C ABI.
    pub abi: f64,
    /// Nanoseconds of the same work called in Rust.
    pub rust: f64,
}

/// Owns the handles of the C ABI rows.
struct Handles {
    games: Vec<*mut LcGame>,
    states: Vec<*mut LcSearchState>,
}

impl Drop for Handles {
    fn drop(&mut self) {
        for &g in &self.games {
            // SAFETY: games made by `lc_game_clone`, freed once here.
            unsafe { lc_game_free(g) };
        }
        for &s in &self.states {
            // SAFETY: states made by `lc_search_state_new`, freed once here.
            unsafe { lc_search_state_free(s) };
        }
    }
}

fn game_handle(game: &FastGame) -> *mut LcGame {
    let boxed = Box::new(lightcycles_ffi::LcGame::from_engine(game.clone()));
    Box::into_raw(boxed)
}

fn state_handle(game: *const LcGame) -> *mut LcSearchState {
    let mut out = ptr::null_mut();
    // SAFETY: a live game; `out` is writable.
    let status = unsafe { lc_search_state_new(game, &mut out) };
    assert_eq!(status, LcStatus::Ok, "{}", lightcycles_ffi::last_error_message());
    out
}

/// The C ABI rows: copy + step of games and of search states, reachable
/// cells and the Voronoi split on the early board, each beside the same
/// work in Rust.
pub(crate) fn abi_rows(script: &Script<FastGame>, lean: &LeanScript, early: &FastGame, time: Duration) -> Vec<AbiRow> {
    let mut rows = Vec::new();
    let code = |a: Action| match a {
        Action::Move(d) => d.code() as i32,
        _ => -1,
    };
    let hot_codes: Vec<[i32; 2]> = script.hot.iter().map(|(_, a)| a.map(code)).collect();
    let mut handles = Handles { games: Vec::new(), states: Vec::new() };
    for (g, _) in &script.hot {
        handles.games.push(game_handle(g));
    }
    for &g in &handles.games.clone() {
        handles.states.push(state_handle(g));
    }
    let scratch_game = game_handle(&script.start);
    handles.games.push(scratch_game);
    let scratch_state = state_handle(scratch_game);
    handles.states.push(scratch_state);
    let hot = script.hot.len();

    let mut i = 0;
    let abi = per_op(time, || {
        i = (i + 1) % hot;
        // SAFETY: live games of one shape; two move codes.
        unsafe {
            lc_game_copy_into(handles.games[i], scratch_game);
            lc_game_step(scratch_game, black_box(hot_codes[i].as_ptr()), 2)
        }
    });
    let mut game = script.start.clone();
    let rust = per_op(time, || {
        i = (i + 1) % hot;
        let (state, actions) = &script.hot[i];
        game.clone_from(state);
        let _ = game.step(black_box(actions));
        game.tick()
    });
    rows.push(AbiRow { what: "`lc_game_copy_into` + `lc_game_step` (48 × 36, 2 players)".into(), abi, rust });

    let abi = per_op(time, || {
        i = (i + 1) % hot;
        // SAFETY: live states; two move codes.
        unsafe {
            lc_search_state_copy_into(handles.states[i], scratch_state);
            lc_search_state_step(scratch_state, black_box(hot_codes[i].as_ptr()), 2)
        }
    });
    let rust_lean = lean.ns_per_copy_step(time);
    rows.push(AbiRow { what: "`lc_search_state_copy_into` + `lc_search_state_step`".into(), abi, rust: rust_lean });
    let abi = per_op(time, || {
        i = (i + 1) % hot;
        // SAFETY: live states; two move codes.
        unsafe { lc_search_state_step_from(handles.states[i], scratch_state, black_box(hot_codes[i].as_ptr()), 2) }
    });
    rows.push(AbiRow { what: "`lc_search_state_step_from` (copy + step in one call)".into(), abi, rust: rust_lean });

    let early_game = game_handle(early);
    handles.games.push(early_game);
    let early_state = state_handle(early_game);
    handles.states.push(early_state);
    let early_lean = SearchState::from_game(early).expect("the default board fits");
    let mut room = 0u32;
    let mut scratch = Scratch::for_game(early);
    rows.push(AbiRow {
        what: "`lc_game_reachable`, early game".into(),
        // SAFETY: a live game; `room` is writable.
        abi: per_op(time, || unsafe { lc_game_reachable(black_box(early_game), 0, &mut room) }),
        rust: per_op(time, || space::reachable_with(black_box(early), early.head(0), &mut scratch)),
    });
    rows.push(AbiRow {
        what: "`lc_search_state_reachable`, early game".into(),
        // SAFETY: a live state; `room` is writable.
        abi: per_op(time, || unsafe { lc_search_state_reachable(black_box(early_state), 0, &mut room) }),
        rust: per_op(time, || lean::reachable(black_box(&early_lean), early_lean.head(0))),
    });
    let mut counts = [0u32; 8];
    rows.push(AbiRow {
        what: "`lc_game_voronoi` (counts only), early game".into(),
        // SAFETY: a live game; 8 writable counts, no owners.
        abi: per_op(time, || unsafe {
            lc_game_voronoi(black_box(early_game), counts.as_mut_ptr(), 8, ptr::null_mut(), 0)
        }),
        rust: per_op(time, || space::voronoi_with(black_box(early), &mut scratch)),
    });
    rows.push(AbiRow {
        what: "`lc_search_state_voronoi` (counts only), early game".into(),
        // SAFETY: a live state; 8 writable counts, no owners.
        abi: per_op(time, || unsafe {
            lc_search_state_voronoi(black_box(early_state), counts.as_mut_ptr(), 8, ptr::null_mut(), 0)
        }),
        rust: per_op(time, || lean::voronoi(black_box(&early_lean))),
    });
    drop(handles);
    rows
}

/// Prints the C ABI rows as a Markdown table.
pub fn print_abi_table<W: std::io::Write + ?Sized>(out: &mut W, rows: &[AbiRow]) -> std::io::Result<()> {
    writeln!(out, "| through liblightcycles | C ABI | Rust | C ABI vs Rust |")?;
    writeln!(out, "| --- | ---: | ---: | ---: |")?;
    for row in rows {
        writeln!(
            out,
            "| {} | {} | {} | {:.2}× |",
            row.what,
            show(row.abi, Unit::Nanos),
            show(row.rust, Unit::Nanos),
            row.abi / row.rust
        )?;
    }
    Ok(())
}
