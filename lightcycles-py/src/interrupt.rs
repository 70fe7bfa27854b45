//! Runs of games that a Ctrl-C stops: the run on a thread of its own, the
//! caller's thread watching for signals.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use lightcycles_host::game::run::{RunError, Stop};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use crate::config::value_error;

/// Runs `f` (a run of games) on a thread of its own with the GIL released,
/// while this thread, the caller's, looks for signals every few
/// milliseconds: a Ctrl-C stops the run at the next finished game
/// ([`check_signals`]) and raises KeyboardInterrupt. Callable bots so never
/// run on the main thread, where Python delivers signals.
pub(crate) fn interruptible<T: Send, E: Send + std::fmt::Display>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, E> + Send,
) -> PyResult<T> {
    STOP.store(false, Ordering::SeqCst);
    let mut signalled = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let worker = scope.spawn(f);
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(10));
                if signalled.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        STOP.store(true, Ordering::SeqCst);
                        signalled = Some(e);
                    }
                }
            }
            worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    });
    if let Some(e) = signalled {
        return Err(e);
    }
    match result {
        Ok(t) => Ok(t),
        Err(_) if STOP.load(Ordering::SeqCst) => Err(PyKeyboardInterrupt::new_err("stopped by Ctrl-C")),
        Err(e) => Err(value_error(e)),
    }
}

/// Set when the caller's thread saw a signal during a run.
static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the run is to stop (a Ctrl-C): checked between games.
pub(crate) fn check_signals() -> Result<(), RunError> {
    if STOP.load(Ordering::SeqCst) {
        Err(RunError::Stopped(Stop::Interrupted))
    } else {
        Ok(())
    }
}
