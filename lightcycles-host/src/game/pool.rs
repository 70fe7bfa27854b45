//! The one worker pool: numbered games played on a few threads, each
//! result handed to the calling thread as it finishes.
//!
//! Workers take the next game number not yet taken, so the games start in
//! order and finish in any order; the caller puts them back in order if it
//! needs to (a run does, a tournament counts them as they come).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Plays games `0..total` on `jobs` threads (at least one, at most one per
/// game): `play(game)` on a worker, `None` for a game to skip, and
/// `done(game, result)` on the calling thread for each result. Once `done`
/// breaks, no game is started; games in flight finish and are handed to
/// `done` all the same. `stopped` starts the pool already stopped.
pub fn play_all<R: Send>(
    jobs: usize,
    total: u64,
    stopped: bool,
    play: impl Fn(u64) -> Option<R> + Sync,
    mut done: impl FnMut(u64, R) -> ControlFlow<()>,
) {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(stopped);
    let (tx, rx) = mpsc::channel::<(u64, R)>();
    std::thread::scope(|scope| {
        let workers = jobs.max(1).min(usize::try_from(total.max(1)).unwrap_or(usize::MAX));
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, play) = (&next, &stop, &play);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let game = next.fetch_add(1, Ordering::Relaxed);
                if game >= total {
                    break;
                }
                let Some(result) = play(game) else { continue };
                if tx.send((game, result)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (game, result) in rx {
            if done(game, result).is_break() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_played_once_and_skips_are_left_out() {
        for jobs in [1, 2, 5] {
            let mut seen = Vec::new();
            play_all(
                jobs,
                20,
                false,
                |g| (g % 3 != 0).then_some(g * 10),
                |g, r| {
                    assert_eq!(r, g * 10);
                    seen.push(g);
                    ControlFlow::Continue(())
                },
            );
            seen.sort();
            assert_eq!(seen, (0..20).filter(|g| g % 3 != 0).collect::<Vec<_>>(), "jobs {jobs}");
        }
    }

    #[test]
    fn a_break_stops_new_games_and_a_stopped_pool_plays_none() {
        let mut count = 0;
        let slow = |g| {
            std::thread::sleep(std::time::Duration::from_millis(2));
            Some(g)
        };
        play_all(1, 1000, false, slow, |_, _| {
            count += 1;
            if count == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert!((3..=4).contains(&count), "{count}");
        let mut any = false;
        play_all(2, 10, true, Some, |_, _| {
            any = true;
            ControlFlow::Continue(())
        });
        assert!(!any);
    }
}
