//! A run that ends before it is complete never exits with status 0.
//!
//! An in-process plugin (`--in-process`) runs inside the host: if it calls
//! `exit(0)`, the host would end at once with status 0, nothing more on
//! stdout and an empty results file, as if all had gone well. So
//! [`arm`] registers an `atexit` hook: an exit that comes before
//! [`complete`] was called (the command returned, or the host stops on a
//! signal, which has its own status) prints one line to stderr and ends the
//! process with [`INCOMPLETE`] by `_exit`, skipping the other hooks.
//!
//! What this cannot catch: a plugin that calls `_exit` or `exit_group`
//! directly, or kills the host, ends it with the status it chooses
//! (`_exit(0)` is status 0). Plugins run isolated by default, where any of
//! these ends only the plugin's own process.
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a run that was ended (by code in the host calling
/// `exit`) before it was complete.
pub const INCOMPLETE: i32 = 3;

static COMPLETE: AtomicBool = AtomicBool::new(false);

extern "C" fn on_exit() {
    if !COMPLETE.load(Ordering::SeqCst) {
        const MESSAGE: &[u8] = b"error: the run ended before it was complete (code in the host, such as an \
in-process plugin, called exit): exit status 3\n";
        // SAFETY: write and _exit are async-signal-safe system calls on a
        // static buffer.
        unsafe {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(INCOMPLETE);
        }
    }
}

/// Registers the hook; from now on an exit before [`complete`] is status 3.
pub fn arm() {
    // SAFETY: atexit takes a plain `extern "C" fn()` that lives for the
    // whole program.
    unsafe {
        libc::atexit(on_exit);
    }
}

/// Says the run is complete (or is stopping with a status of its own): an
/// exit from now on keeps its status.
pub fn complete() {
    COMPLETE.store(true, Ordering::SeqCst);
}
