//! What to say when the run is interrupted (Ctrl-C, SIGTERM, SIGHUP): a
//! running command keeps a note here, what was played so far and how to go
//! on, and the signal handler of the CLI prints it before the process
//! exits with 130.

use std::sync::Mutex;

static NOTE: Mutex<String> = Mutex::new(String::new());

/// Keeps `note` (one or more lines) to be printed if the run is interrupted.
pub fn set(note: String) {
    if let Ok(mut kept) = NOTE.lock() {
        *kept = note;
    }
}

/// The note kept, if any; never blocks (a handler must not wait for a lock
/// that the interrupted thread may hold).
pub fn note() -> Option<String> {
    NOTE.try_lock().ok().map(|n| n.clone()).filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_last_note_is_the_one_kept() {
        super::set("one".into());
        super::set("two".into());
        assert_eq!(super::note().as_deref(), Some("two"));
        super::set(String::new());
        assert_eq!(super::note(), None);
    }
}
