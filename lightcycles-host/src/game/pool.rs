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
///
/// A worker starts its next game only once `done` has taken its last
/// result, so at most `jobs` games are ever in flight, however slow the
/// calling thread: with one job, a break stops on the very game that
/// caused it (an SPRT's decision is the last game a one-job run plays).
pub fn play_all<R: Send>(
    jobs: usize,
    total: u64,
    stopped: bool,
    play: impl Fn(u64) -> Option<R> + Sync,
    mut done: impl FnMut(u64, R) -> ControlFlow<()>,
) {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(stopped);
    let (tx, rx) = mpsc::channel::<(usize, u64, R)>();
    std::thread::scope(|scope| {
        let workers = jobs.max(1).min(usize::try_from(total.max(1)).unwrap_or(usize::MAX));
        let mut taken = Vec::with_capacity(workers);
        for worker in 0..workers {
            let tx = tx.clone();
            // The calling thread's word that it has taken this worker's result.
            let (took, wait) = mpsc::sync_channel::<()>(1);
            taken.push(took);
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
                if tx.send((worker, game, result)).is_err() || wait.recv().is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (worker, game, result) in rx {
            if done(game, result).is_break() {
                stop.store(true, Ordering::Relaxed);
            }
            // The worker waits on this; it has gone only if it has stopped.
            let _ = taken[worker].send(());
        }
    });
}

/// CPU affinity per game (fastchess `-use-affinity`): each worker of a
/// pool pins itself, the first time it plays, to one core of those the
/// host may use, worker `i` to the `i`-th (round and round when there are
/// more workers than cores); the bot processes and plugin threads it
/// starts inherit the pinning, so a game's bots share its core and games do
/// not steal each other's. Linux only (`sched_setaffinity`); elsewhere it
/// does nothing and [`Pinning::note`] says so.
#[derive(Debug)]
pub struct Pinning {
    cpus: Vec<usize>,
    next: AtomicU64,
    failed: AtomicBool,
    asked: bool,
}

thread_local! {
    static PINNED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Pinning {
    /// Pinning when `enabled`, to the cores this process may run on.
    pub fn new(enabled: bool) -> Pinning {
        let cpus = if enabled { allowed_cpus() } else { Vec::new() };
        Pinning { cpus, next: AtomicU64::new(0), failed: AtomicBool::new(false), asked: enabled }
    }

    /// Pins the calling worker to its core, once per thread.
    pub fn pin_this_worker(&self) {
        if self.cpus.is_empty() || PINNED.with(|p| p.replace(true)) {
            return;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed) as usize;
        if !pin_to(self.cpus[i % self.cpus.len()]) {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// What a user who asked for pinning should know: that it is not
    /// available here, or that it failed.
    pub fn note(&self) -> Option<String> {
        if !self.asked {
            None
        } else if self.cpus.is_empty() {
            Some("note: --affinity pins games to cores on Linux only; the games ran unpinned".into())
        } else if self.failed.load(Ordering::Relaxed) {
            Some("note: --affinity: a worker could not be pinned to its core (sched_setaffinity failed)".into())
        } else {
            None
        }
    }
}

/// The cores this process may run on, in order.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    use rustix::thread::{sched_getaffinity, CpuSet};
    match sched_getaffinity(None) {
        Ok(set) => (0..CpuSet::MAX_CPU).filter(|&c| set.is_set(c)).collect(),
        Err(_) => Vec::new(),
    }
}

/// The cores this process may run on: unknown off Linux.
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

#[cfg(target_os = "linux")]
fn pin_to(cpu: usize) -> bool {
    use rustix::thread::{sched_setaffinity, CpuSet};
    let mut set = CpuSet::new();
    set.set(cpu);
    // `None`: the calling thread.
    sched_setaffinity(None, &set).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn pin_to(_cpu: usize) -> bool {
    false
}

/// The cores free for games: those this process may run on (Linux), else
/// what the standard library reports, at least 1.
pub fn free_cores() -> usize {
    let pinned = allowed_cpus().len();
    if pinned > 0 {
        pinned
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
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
        assert_eq!(count, 3, "one job starts no game while its last result is being taken");
        let mut any = false;
        play_all(2, 10, true, Some, |_, _| {
            any = true;
            ControlFlow::Continue(())
        });
        assert!(!any);
    }

    #[test]
    fn workers_do_not_run_ahead_of_a_slow_caller() {
        // Quick games, a slow caller: the games in flight when `done` breaks
        // are at most one per job.
        for jobs in [1, 2, 3] {
            let mut count = 0;
            play_all(jobs, 1000, false, Some, |_, _| {
                std::thread::sleep(std::time::Duration::from_millis(3));
                count += 1;
                if count == 5 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert!((5..5 + jobs).contains(&count), "jobs {jobs}: {count} results");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pinned_worker_runs_on_one_allowed_core() {
        let allowed = allowed_cpus();
        assert!(!allowed.is_empty());
        assert_eq!(free_cores(), allowed.len());
        let pinning = Pinning::new(true);
        let mut seen = Vec::new();
        play_all(
            1,
            3,
            false,
            |_| {
                pinning.pin_this_worker();
                Some(allowed_cpus())
            },
            |_, cpus| {
                seen.push(cpus);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, vec![vec![allowed[0]]; 3], "worker 0 on the first allowed core, for every game");
        assert_eq!(pinning.note(), None);
        assert_eq!(allowed_cpus(), allowed, "the calling thread is not pinned");
    }
}
