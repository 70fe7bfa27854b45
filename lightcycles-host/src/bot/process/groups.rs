//! The process groups of the bots running now, so that a host stopped by
//! a signal (Ctrl-C reaches the host only: each bot has a group of its
//! own) can take every bot with it ([`stop_all`]).

use std::collections::BTreeSet;
use std::sync::Mutex;

use rustix::process::{getpid, kill_process_group, set_child_subreaper, Pid, Signal};

use crate::bot::process::contain;

/// The process groups of the running bots, and whether the host is stopping.
pub(super) struct Running {
    pub(super) groups: BTreeSet<i32>,
    pub(super) stopping: bool,
}

static RUNNING: Mutex<Running> = Mutex::new(Running { groups: BTreeSet::new(), stopping: false });

pub(super) fn running() -> std::sync::MutexGuard<'static, Running> {
    RUNNING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Kills every running bot's process group with SIGKILL and refuses to
/// start any more: for a host that is stopping on a signal. Returns how
/// many groups were killed.
pub fn stop_all() -> usize {
    let mut r = running();
    r.stopping = true;
    for &group in &r.groups {
        if let Some(pid) = Pid::from_raw(group) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    contain::kill_all();
    r.groups.len()
}

/// Makes this process the reaper of its bots' orphans (Linux): a bot's
/// child whose parent died comes to the host rather than to init, so the
/// host can wait until every process of a killed group is gone, not just
/// signalled. For the `lightcycles` binary; a library user may leave it.
pub fn adopt_orphans() -> std::io::Result<()> {
    set_child_subreaper(Some(getpid())).map_err(std::io::Error::from)
}
