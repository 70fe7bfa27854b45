//! The one thread that starts every bot process.
//!
//! A bot process is started with `PR_SET_PDEATHSIG` ([`super::contain`]),
//! so that it dies with the host. Linux fires that signal when the
//! *thread* that forked the process exits, not the process: a bot started
//! on a pool worker (the spare of a Python bot, started while a game plays)
//! was killed when that worker ran out of games, in the middle of the game
//! another worker was playing with it. So every bot process is forked by
//! this thread, which is started once and lives as long as the host; the
//! signal then fires when the host process ends, and only then.

use std::io;
use std::process::{Child, Command};
use std::sync::mpsc::{channel, sync_channel, Sender};
use std::sync::{Mutex, OnceLock};

/// A start to run on the spawner thread.
type Job = Box<dyn FnOnce() + Send>;

/// The queue of the spawner thread, started on first use.
fn spawner() -> io::Result<&'static Mutex<Sender<Job>>> {
    static SPAWNER: OnceLock<Result<Mutex<Sender<Job>>, String>> = OnceLock::new();
    let made = SPAWNER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("lightcycles-spawner".into())
            .spawn(move || {
                // The sender is a static: this loop ends only with the process.
                for job in rx {
                    job();
                }
            })
            .map(|_| Mutex::new(tx))
            .map_err(|e| format!("cannot start the thread that starts bot processes: {e}"))
    });
    made.as_ref().map_err(|e| io::Error::other(e.clone()))
}

/// Runs `command.spawn()` on the spawner thread and returns its result.
pub fn spawn(mut command: Command) -> io::Result<Child> {
    let (done_tx, done_rx) = sync_channel(1);
    let job: Job = Box::new(move || {
        let _ = done_tx.send(command.spawn());
    });
    spawner()?
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .send(job)
        .map_err(|_| io::Error::other("the thread that starts bot processes is gone"))?;
    done_rx.recv().map_err(|_| io::Error::other("the thread that starts bot processes is gone"))?
}

#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A process started for a thread that then exits lives on: the
    /// parent-death signal it carries is tied to the spawner thread.
    #[test]
    fn a_process_outlives_the_thread_that_asked_for_it() {
        let mut command = Command::new("sleep");
        command.arg("5");
        // SAFETY: prctl is async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
                Ok(())
            });
        }
        let mut child = std::thread::spawn(move || spawn(command).unwrap()).join().unwrap();
        // The asking thread is gone; give a parent-death signal time to land.
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            assert!(child.try_wait().unwrap().is_none(), "the process died with the thread that asked for it");
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
