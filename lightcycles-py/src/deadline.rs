//! Deadlines of Python callable bots: a callable still running at its
//! deadline gets an asynchronous exception ([`CallableTimeout`]) in its
//! own thread, so that a `while True: pass` costs the bot a timeout and
//! the run goes on.
//!
//! One watch thread keeps every armed deadline. At a deadline it takes the
//! GIL and, if the call is still armed, raises the exception in the
//! callable's thread (`PyThreadState_SetAsyncExc`). Python delivers it at
//! the callable's next bytecode: a callable blocked inside C code (a long
//! `time.sleep`, a lock) gets it when that returns. The caller disarms its
//! deadline as soon as the call returns, with the GIL still held, and
//! clears an exception set too late to be delivered, so that it never
//! reaches the next call.

use std::collections::BTreeMap;
use std::os::raw::c_ulong;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Instant;

use pyo3::prelude::*;

pub(crate) use crate::errors::CallableTimeout;

struct Watch {
    /// Armed calls: number → (thread, deadline).
    armed: Mutex<BTreeMap<u64, (c_ulong, Instant)>>,
    changed: Condvar,
    next: std::sync::atomic::AtomicU64,
}

fn watch() -> &'static Watch {
    static WATCH: OnceLock<&'static Watch> = OnceLock::new();
    WATCH.get_or_init(|| {
        let watch: &'static Watch = Box::leak(Box::new(Watch {
            armed: Mutex::new(BTreeMap::new()),
            changed: Condvar::new(),
            next: std::sync::atomic::AtomicU64::new(0),
        }));
        std::thread::Builder::new()
            .name("lightcycles-deadlines".into())
            .spawn(move || watch.run())
            .expect("cannot start the thread that keeps callable bots' deadlines");
        watch
    })
}

impl Watch {
    fn run(&self) {
        let mut armed = self.armed.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let now = Instant::now();
            let due = armed.iter().filter(|(_, (_, d))| *d <= now).map(|(&n, _)| n).next();
            if let Some(number) = due {
                drop(armed);
                // The GIL first, then the registry: a call that returned has
                // been disarmed by then (its thread disarms before it lets go
                // of the GIL).
                Python::attach(|_py| {
                    let mut armed = self.armed.lock().unwrap_or_else(|p| p.into_inner());
                    if let Some((thread, _)) = armed.remove(&number) {
                        let exc = _py.get_type::<CallableTimeout>();
                        // SAFETY: the GIL is held; the type object lives as
                        // long as the module.
                        unsafe { pyo3::ffi::PyThreadState_SetAsyncExc(thread as _, exc.as_ptr()) };
                    }
                });
                armed = self.armed.lock().unwrap_or_else(|p| p.into_inner());
                continue;
            }
            let wait = armed.values().map(|(_, d)| d.saturating_duration_since(now)).min();
            armed = match wait {
                Some(wait) => self.changed.wait_timeout(armed, wait).unwrap_or_else(|p| p.into_inner()).0,
                None => self.changed.wait(armed).unwrap_or_else(|p| p.into_inner()),
            };
        }
    }
}

/// An armed deadline of one call, made in the callable's thread with the
/// GIL held; [`Armed::disarm`] it when the call returns, still holding it.
pub struct Armed {
    number: u64,
    thread: c_ulong,
}

/// Arms a deadline at `deadline` for a call about to run in this thread.
pub fn arm(_py: Python<'_>, deadline: Instant) -> Armed {
    let watch = watch();
    // `threading.get_ident()` is the id `PyThreadState_SetAsyncExc` takes.
    let thread = py_thread_id(_py);
    let number = watch.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    watch.armed.lock().unwrap_or_else(|p| p.into_inner()).insert(number, (thread, deadline));
    watch.changed.notify_all();
    Armed { number, thread }
}

fn py_thread_id(py: Python<'_>) -> c_ulong {
    py.import("threading")
        .and_then(|t| t.getattr("get_ident"))
        .and_then(|f| f.call0())
        .and_then(|id| id.extract::<c_ulong>())
        .unwrap_or(0)
}

impl Armed {
    /// Ends the deadline; an exception set for it but not yet delivered is
    /// cleared.
    pub fn disarm(self, _py: Python<'_>) {
        let fired = watch().armed.lock().unwrap_or_else(|p| p.into_inner()).remove(&self.number).is_none();
        if fired {
            // SAFETY: the GIL is held; NULL clears this thread's pending
            // asynchronous exception.
            unsafe { pyo3::ffi::PyThreadState_SetAsyncExc(self.thread as _, std::ptr::null_mut()) };
        }
    }
}
