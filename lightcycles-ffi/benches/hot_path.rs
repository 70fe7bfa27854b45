//! What a search pays per call through the C ABI, on an open 48 × 36 board
//! early in a game: `cargo bench -p lightcycles-ffi`. Figures, not
//! assertions; docs/performance.md quotes them.

use std::hint::black_box;
use std::time::{Duration, Instant};

use lightcycles::*;

/// Runs `f` for about `budget` and returns the mean time per call.
fn time(budget: Duration, mut f: impl FnMut()) -> Duration {
    let mut calls = 0u32;
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..100 {
            f();
        }
        calls += 100;
    }
    start.elapsed() / calls
}

fn main() {
    let config = LcConfig { rock_density: 0, ..lc_config_default() };
    let mut game = std::ptr::null_mut();
    let mut scratch = std::ptr::null_mut();
    unsafe {
        assert_eq!(lc_game_new(&config, 7, &mut game), LcStatus::Ok);
        // A few ticks in, as a search sees the board.
        for _ in 0..5 {
            assert_eq!(lc_game_step(game, [-1, -1].as_ptr(), 2), LcStatus::Ok);
        }
        assert_eq!(lc_game_clone(game, &mut scratch), LcStatus::Ok);
    }
    let budget = Duration::from_millis(500);
    let moves = [LC_MOVE_NONE, LC_MOVE_NONE];
    let copy_step = time(budget, || unsafe {
        lc_game_copy_into(game, scratch);
        lc_game_step(scratch, moves.as_ptr(), 2);
    });
    let mut counts = [0u32; 8];
    let voronoi = time(budget, || unsafe {
        lc_game_voronoi(game, counts.as_mut_ptr(), 8, std::ptr::null_mut(), 0);
    });
    let mut room = 0u32;
    let reachable = time(budget, || unsafe {
        lc_game_reachable(game, 0, &mut room);
    });
    let mut apart = false;
    let separated = time(budget, || unsafe {
        lc_game_separated(game, 0, 1, &mut apart);
    });
    let mut cell = 0i8;
    let cell_query = time(budget, || unsafe {
        lc_game_cell(game, 10, 10, &mut cell);
    });
    black_box((counts, room, apart, cell));
    println!("C ABI on an open 48 × 36 board (mean per call):");
    println!("  lc_game_copy_into + lc_game_step  {copy_step:>10.2?}");
    println!("  lc_game_voronoi                   {voronoi:>10.2?}");
    println!("  lc_game_reachable                 {reachable:>10.2?}");
    println!("  lc_game_separated                 {separated:>10.2?}");
    println!("  lc_game_cell                      {cell_query:>10.2?}");
    unsafe {
        lc_game_free(scratch);
        lc_game_free(game);
    }
}
