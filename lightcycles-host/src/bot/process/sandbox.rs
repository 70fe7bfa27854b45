//! Resource limits of a bot process, set in the child between `fork` and
//! `exec`, so that they hold from the bot's first instruction and for every
//! process it starts.
//!
//! - **Address space** (`RLIMIT_AS`, [`Sandbox::memory_mb`], default
//!   [`DEFAULT_MEMORY_MB`]): an allocation past it fails inside the bot
//!   (`MemoryError`, `malloc` returning NULL, `std::bad_alloc`), which in
//!   practice ends the bot: a `crash` for it, and the host never runs out of
//!   memory because of it. Each process of the bot has its own limit.
//! - **Processes** (`RLIMIT_NPROC`, [`Sandbox::processes`], default
//!   [`DEFAULT_PROCESSES`]): the kernel counts this limit per user, not per
//!   bot, and does not apply it to root at all. So the host sets it to the
//!   number of tasks (processes and threads) its user runs when the bot
//!   starts plus the cap: the bot may start that many more. Under root the
//!   limit is not set (it would be ignored); the bot's process group is what
//!   takes every process it started down with it.
//! - **Descriptors**: every descriptor but stdin, stdout and stderr is
//!   marked close-on-exec in the child (`close_range` with
//!   `CLOSE_RANGE_CLOEXEC`, or one `fcntl` per descriptor on kernels before
//!   5.11), so a bot inherits nothing the host holds or was given.
//!
//! Only async-signal-safe system calls run in the child: the values are
//! computed in the host before it forks.
#![allow(unsafe_code)]

use std::os::unix::process::CommandExt;
use std::process::Command;

/// The default address-space limit of a bot process, in MiB.
pub const DEFAULT_MEMORY_MB: u64 = 1024;

/// The default number of processes a bot may start beside itself.
pub const DEFAULT_PROCESSES: u64 = 64;

/// The limits of every bot process of a run. `0` is no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// The address-space limit of each bot process, in MiB.
    pub memory_mb: u64,
    /// How many processes (and threads) a bot may start (not set under root).
    pub processes: u64,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox { memory_mb: DEFAULT_MEMORY_MB, processes: DEFAULT_PROCESSES }
    }
}

impl Sandbox {
    /// No limits but the descriptors: for tests that must not be limited.
    pub const NONE: Sandbox = Sandbox { memory_mb: 0, processes: 0 };

    /// Sets these limits, and close-on-exec on every descriptor above 2, in
    /// the child of `command` before it runs the bot.
    pub fn apply(&self, command: &mut Command) {
        let memory = (self.memory_mb > 0).then(|| self.memory_mb.saturating_mul(1 << 20));
        let processes = if self.processes > 0 && !rustix::process::getuid().is_root() {
            Some(user_tasks().saturating_add(self.processes))
        } else {
            None
        };
        let hook = move || {
            if let Some(bytes) = memory {
                set_limit(libc::RLIMIT_AS, bytes)?;
            }
            if let Some(count) = processes {
                set_limit(libc::RLIMIT_NPROC, count)?;
            }
            close_on_exec_from(3);
            Ok(())
        };
        // SAFETY: the hook makes only async-signal-safe system calls
        // (setrlimit, close_range, fcntl, getrlimit) on values computed
        // before the fork, and allocates nothing.
        unsafe { command.pre_exec(hook) };
    }
}

/// Sets both the soft and the hard limit of `resource`.
fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let limit = libc::rlimit { rlim_cur: value as libc::rlim_t, rlim_max: value as libc::rlim_t };
    // SAFETY: a plain system call on a valid struct.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Marks every descriptor from `first` up close-on-exec.
fn close_on_exec_from(first: u32) {
    // SAFETY: close_range only changes descriptor flags.
    let done = unsafe { libc::syscall(libc::SYS_close_range, first, u32::MAX, libc::CLOSE_RANGE_CLOEXEC) } == 0;
    if done {
        return;
    }
    // Older kernels: each descriptor below the soft limit of open files.
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: a plain system call on a valid struct.
    let top = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur.min(1 << 16) as i32
    } else {
        1024
    };
    for fd in first as i32..top {
        // SAFETY: fcntl on a descriptor that may not be open fails with EBADF.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
}

/// The tasks (processes and their threads) of this process's real user,
/// from `/proc`: what the kernel counts against `RLIMIT_NPROC`.
fn user_tasks() -> u64 {
    let uid = rustix::process::getuid().as_raw();
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    let mut tasks = 0u64;
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else { continue };
        let field = |name: &str| {
            status.lines().find_map(|l| l.strip_prefix(name)).and_then(|rest| rest.split_whitespace().next())
        };
        if field("Uid:").and_then(|u| u.parse::<u32>().ok()) == Some(uid) {
            tasks += field("Threads:").and_then(|t| t.parse::<u64>().ok()).unwrap_or(1);
        }
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    fn run(sandbox: Sandbox, script: &str) -> String {
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(script);
        sandbox.apply(&mut command);
        let out = command.output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    #[test]
    fn the_address_space_limit_is_set_in_the_child() {
        let out = run(Sandbox { memory_mb: 300, processes: 0 }, "ulimit -v");
        assert_eq!(out.trim(), (300 * 1024).to_string());
        let out = run(Sandbox::NONE, "ulimit -v");
        assert_eq!(out.trim(), "unlimited");
    }

    #[test]
    fn descriptors_the_host_holds_are_not_inherited() {
        let file = tempfile::tempfile().unwrap();
        let fd = file.as_raw_fd();
        // Make it inheritable, as a descriptor handed to the host would be.
        rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty()).unwrap();
        let out = run(Sandbox::NONE, &format!("[ -e /proc/self/fd/{fd} ] && echo open || echo closed"));
        assert_eq!(out.trim(), "closed");
        let mut plain = Command::new("/bin/sh");
        let out = plain.arg("-c").arg(format!("[ -e /proc/self/fd/{fd} ] && echo open || echo closed")).output();
        assert_eq!(
            String::from_utf8_lossy(&out.unwrap().stdout).trim(),
            "open",
            "the test's descriptor is inheritable"
        );
    }

    #[test]
    fn the_user_runs_some_tasks() {
        assert!(user_tasks() >= 1);
    }
}
