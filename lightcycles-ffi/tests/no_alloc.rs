//! The calls a search makes in its inner loop allocate nothing once warm:
//! `lc_game_copy_into` between games of one size, `lc_game_step`, the
//! queries, and the flood fills once the thread has searched a board of that
//! size (as their docs promise).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;

use lightcycles::*;

/// Counts the allocations made by the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn copies_steps_and_fills_allocate_nothing_once_warm() {
    let config = LcConfig { width: 30, height: 20, ..lc_config_default() };
    let (mut a, mut b) = (ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(lc_game_new(&config, 3, &mut a), LcStatus::Ok);
        assert_eq!(lc_game_new(&config, 4, &mut b), LcStatus::Ok);
        for _ in 0..3 {
            assert_eq!(lc_game_step(a, [-1, -1].as_ptr(), 2), LcStatus::Ok);
        }
    }
    let mut counts = [0u32; 8];
    let mut owners = vec![0i8; 600];
    let (mut room, mut apart) = (0u32, false);
    let mut round = || unsafe {
        assert_eq!(lc_game_copy_into(a, b), LcStatus::Ok);
        assert_eq!(lc_game_step(b, [LC_MOVE_N, LC_MOVE_NONE].as_ptr(), 2), LcStatus::Ok);
        let mut p = LcPlayer {
            struct_size: std::mem::size_of::<LcPlayer>() as u32,
            x: 0,
            y: 0,
            dir: 0,
            alive: 0,
            trail: 0,
            eliminated_at: 0,
        };
        assert_eq!(lc_game_player(b, 0, &mut p), LcStatus::Ok);
        let mut over = true;
        assert_eq!(lc_game_is_over(b, &mut over), LcStatus::Ok);
        assert_eq!(lc_game_voronoi(b, counts.as_mut_ptr(), 8, owners.as_mut_ptr(), owners.len()), LcStatus::Ok);
        assert_eq!(lc_game_reachable(b, 1, &mut room), LcStatus::Ok);
        assert_eq!(lc_game_separated(b, 0, 1, &mut apart), LcStatus::Ok);
    };
    round(); // warm: the thread's scratch buffers grow to the board
    let before = allocations();
    for _ in 0..100 {
        round();
    }
    let made = allocations() - before;
    assert_eq!(made, 0, "{made} allocations in 100 warm rounds of copy, step, queries and fills");
    // The counter counts: a clone allocates.
    let mut c = ptr::null_mut();
    let before = allocations();
    assert_eq!(unsafe { lc_game_clone(a, &mut c) }, LcStatus::Ok);
    assert!(allocations() > before);
    unsafe {
        lc_game_free(c);
        lc_game_free(a);
        lc_game_free(b);
    }
}

#[test]
fn search_states_copy_step_and_fill_without_allocating() {
    let config = LcConfig { width: 48, height: 36, ..lc_config_default() };
    let (mut game, mut a, mut b) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(lc_game_new(&config, 3, &mut game), LcStatus::Ok);
        assert_eq!(lc_search_state_new(game, &mut a), LcStatus::Ok);
        assert_eq!(lc_search_state_new(game, &mut b), LcStatus::Ok);
    }
    let mut counts = [0u32; 8];
    let mut owners = vec![0i8; 48 * 36];
    let mut room = 0u32;
    let before = allocations();
    for _ in 0..100 {
        unsafe {
            assert_eq!(lc_search_state_copy_into(a, b), LcStatus::Ok);
            assert_eq!(lc_search_state_step(b, [LC_MOVE_N, LC_MOVE_NONE].as_ptr(), 2), LcStatus::Ok);
            assert_eq!(lc_search_state_reachable(b, 0, &mut room), LcStatus::Ok);
            let status = lc_search_state_voronoi(b, counts.as_mut_ptr(), 8, owners.as_mut_ptr(), owners.len());
            assert_eq!(status, LcStatus::Ok);
        }
    }
    let made = allocations() - before;
    assert_eq!(made, 0, "{made} allocations in 100 rounds of copy, step and fills of a search state");
    unsafe {
        lc_search_state_free(a);
        lc_search_state_free(b);
        lc_game_free(game);
    }
}
