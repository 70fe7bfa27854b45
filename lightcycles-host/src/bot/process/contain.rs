//! Containment of a bot's whole process tree, with its game and with the
//! host.
//!
//! - **cgroup v2** (where a `cgroup2` file system is mounted and the host's
//!   own cgroup takes a child): each bot process starts in a cgroup of its
//!   own, `lightcycles-<host pid>-<n>` under the host's cgroup, which it
//!   joins in the child before `exec`. Every process it starts is in it,
//!   whatever it does (`setsid`, a double fork): the end of the bot writes
//!   `cgroup.kill`, waits until the cgroup is empty and removes it. Where
//!   the `memory` and `pids` controllers can be enabled for the host's
//!   cgroup, the bot's tree gets `memory.max` (the `--bot-memory-mb` limit,
//!   for the whole tree) and `pids.max` (`--bot-processes`, plus one).
//!   A host killed with SIGKILL cannot empty its cgroups: its guard does
//!   (below), and should the guard be killed too, the next run finds the
//!   cgroups of hosts that are gone and kills what is left in them.
//! - **Without cgroups** (not mounted, not writable, or
//!   `LIGHTCYCLES_NO_CGROUP=1`): the process group of the bot
//!   ([`crate::bot::process`]), the host as subreaper of its bots' orphans,
//!   and a mark in the environment: each bot process gets
//!   `LIGHTCYCLES_BOT=<host pid>-<n>`, and at the end of the bot every
//!   process that carries that mark is killed, so a bot that leaves its
//!   group (`setsid`, a double fork) is found all the same, unless it also
//!   clears its environment.
//! - **Always**: every bot process is started with `PR_SET_PDEATHSIG`
//!   SIGKILL, so it dies when the host dies, even by SIGKILL; a command
//!   that is a plain program is run by `exec`, with no shell between
//!   ([`crate::bot::process::command::shell`]), so that the bot itself is that
//!   process. What a bot started itself does not have this signal (it is
//!   cleared on `fork`): for those, the `lightcycles` binary starts a guard
//!   ([`start_guard`]), a process that outlives the host and, once the
//!   host is gone (even by SIGKILL), kills everything in the host's bot
//!   cgroups and everything that carries one of its bots' marks. A library
//!   user who does not call [`start_guard`] has the parent-death signal
//!   and the sweep of stale cgroups at the next run only.
#![allow(unsafe_code)]

use std::collections::BTreeSet;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use rustix::process::{kill_process, waitid, Pid, Signal, WaitId, WaitIdOptions};

use crate::bot::process::sandbox::Sandbox;

/// How long the host waits, at most, for the last process of a killed
/// group to be gone.
pub const GROUP_GONE: Duration = Duration::from_secs(1);

/// The environment variable that turns cgroups off (for tests, and for
/// hosts where they misbehave).
pub const NO_CGROUP_ENV: &str = "LIGHTCYCLES_NO_CGROUP";

/// The environment variable that marks a bot's processes.
pub const MARK_ENV: &str = "LIGHTCYCLES_BOT";

/// The prefix of the cgroups of bots.
const PREFIX: &str = "lightcycles-";

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The cgroups of the bots running now, for [`kill_all`].
static LIVE: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

fn forget(dir: &Path) {
    LIVE.lock().unwrap_or_else(|p| p.into_inner()).remove(dir);
}

/// Kills every process in the cgroups of the running bots: for a host that
/// is stopping on a signal (what a bot started itself has no parent-death
/// signal).
pub fn kill_all() {
    for dir in LIVE.lock().unwrap_or_else(|p| p.into_inner()).iter() {
        let _ = std::fs::write(dir.join("cgroup.kill"), "1");
    }
}

/// The folder the cgroups of bots are made in (the host's own cgroup), or
/// `None` where there are no cgroups the host may use.
pub fn cgroup_base() -> Option<&'static Path> {
    static BASE: OnceLock<Option<PathBuf>> = OnceLock::new();
    BASE.get_or_init(find_base).as_deref()
}

fn find_base() -> Option<PathBuf> {
    if std::env::var_os(NO_CGROUP_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // "36 25 0:31 / /sys/fs/cgroup/unified rw,… shared:9 - cgroup2 cgroup2 rw"
    let mount = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        (right.split_whitespace().next()? == "cgroup2").then(|| left.split_whitespace().nth(4).map(PathBuf::from))?
    })?;
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let own = own.lines().find_map(|l| l.strip_prefix("0::"))?.trim();
    let base = mount.join(own.trim_start_matches('/'));
    let probe = base.join(format!("{PREFIX}{}-probe", std::process::id()));
    std::fs::create_dir(&probe).ok()?;
    let usable = probe.join("cgroup.kill").exists() && probe.join("cgroup.procs").exists();
    let _ = std::fs::remove_dir(&probe);
    if !usable {
        return None;
    }
    // Limits for the whole tree of a bot, where the host's cgroup may hand
    // these controllers down (it may not while it holds processes itself,
    // unless it is the root).
    for controller in ["+memory", "+pids"] {
        let _ = std::fs::write(base.join("cgroup.subtree_control"), controller);
    }
    sweep_stale(&base);
    Some(base)
}

/// Kills what is left in the cgroups of hosts that are gone (killed with
/// SIGKILL) and removes them.
fn sweep_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(PREFIX) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else { continue };
        if pid as u32 == std::process::id() || host_runs(pid) {
            continue;
        }
        empty_and_remove(&entry.path());
    }
}

/// Whether process `pid` runs (is neither gone nor a zombie). A host of
/// any name counts (tests run bots from their own binaries).
fn host_runs(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')))
}

/// Starts the guard of this host: a child process (`lightcycles __guard`,
/// in a process group of its own, so a Ctrl-C does not reach it) that
/// waits until the pipe the host holds is closed, which happens when the
/// host exits or is killed, even by SIGKILL, and then kills every process
/// left in this host's bot cgroups, or carrying its bots' marks. Does
/// nothing when this program cannot be started.
pub fn start_guard() {
    static GUARD: OnceLock<Option<std::process::ChildStdin>> = OnceLock::new();
    GUARD.get_or_init(|| {
        let program = std::env::current_exe().ok()?;
        let mut command = Command::new(program);
        command
            .arg("__guard")
            .arg("--host")
            .arg(std::process::id().to_string())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .env_remove(MARK_ENV)
            .process_group(0);
        // The guard is no bot: no parent-death signal, no cgroup. Its pipe
        // is close-on-exec, so no bot holds it open.
        let mut child = command.spawn().ok()?;
        child.stdin.take()
    });
}

/// The `__guard` command: waits for EOF on stdin (its host is gone), then
/// kills what is left of the host's bots.
pub fn guard(host: u32) {
    let mut byte = [0u8; 64];
    let mut stdin = std::io::stdin();
    while !matches!(std::io::Read::read(&mut stdin, &mut byte), Ok(0) | Err(_)) {}
    let prefix = format!("{PREFIX}{host}-");
    if let Some(base) = cgroup_base() {
        if let Ok(entries) = std::fs::read_dir(base) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().starts_with(&prefix) {
                    empty_and_remove(&entry.path());
                }
            }
        }
    }
    // Marks, for the processes of a host without cgroups (and any that
    // was started before its cgroup was joined).
    let wanted = format!("{MARK_ENV}={host}-");
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let marked = processes_where(|var| var.starts_with(wanted.as_bytes()));
        if marked.is_empty() || Instant::now() >= until {
            break;
        }
        for pid in marked {
            if let Some(p) = Pid::from_raw(pid) {
                let _ = kill_process(p, Signal::KILL);
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The cgroup of one bot process tree, or its mark when there are no
/// cgroups. Ending it ([`Containment::end`], or dropping it) kills every
/// process in it.
#[derive(Debug)]
pub struct Containment {
    /// The bot's cgroup, when it has one.
    cgroup: Option<PathBuf>,
    /// `LIGHTCYCLES_BOT=<mark>` in the environment of the bot's processes.
    mark: String,
    ended: bool,
}

impl Containment {
    /// A new containment; `sandbox` gives the limits of the whole tree
    /// where the controllers allow.
    pub fn new(sandbox: &Sandbox) -> Containment {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mark = format!("{}-{n}", std::process::id());
        let cgroup = cgroup_base().and_then(|base| {
            let dir = base.join(format!("{PREFIX}{mark}"));
            std::fs::create_dir(&dir).ok()?;
            if sandbox.memory_mb > 0 && dir.join("memory.max").exists() {
                let _ = std::fs::write(dir.join("memory.max"), (sandbox.memory_mb << 20).to_string());
            }
            if sandbox.processes > 0 && dir.join("pids.max").exists() {
                let _ = std::fs::write(dir.join("pids.max"), (sandbox.processes + 1).to_string());
            }
            LIVE.lock().unwrap_or_else(|p| p.into_inner()).insert(dir.clone());
            Some(dir)
        });
        Containment { cgroup, mark, ended: false }
    }

    /// Whether the bot's processes are in a cgroup of their own.
    pub fn has_cgroup(&self) -> bool {
        self.cgroup.is_some()
    }

    /// Sets up `command` to run contained: the mark in its environment,
    /// and, in the child before `exec`, the parent-death signal and the
    /// move into the cgroup. The child fails to start if the host is
    /// already gone.
    pub fn apply(&self, command: &mut Command) {
        command.env(MARK_ENV, &self.mark);
        let parent = std::process::id() as libc::pid_t;
        let procs =
            self.cgroup.as_ref().and_then(|dir| CString::new(dir.join("cgroup.procs").as_os_str().as_bytes()).ok());
        let hook = move || {
            // SAFETY: prctl, getppid, open, write and close are
            // async-signal-safe system calls on values made before the fork.
            unsafe {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                if let Some(procs) = &procs {
                    let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                    if fd >= 0 {
                        libc::write(fd, b"0".as_ptr().cast(), 1);
                        libc::close(fd);
                    }
                }
            }
            Ok(())
        };
        // SAFETY: the hook makes only async-signal-safe system calls and
        // allocates nothing.
        unsafe { command.pre_exec(hook) };
    }

    /// Kills every process of the bot's tree and waits (up to `within`)
    /// until none is left, reaping those that are the host's children.
    /// Once only: a second call does nothing.
    pub fn end(&mut self, within: Duration) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        match self.cgroup.take() {
            Some(dir) => {
                forget(&dir);
                let mut killed: BTreeSet<i32> = pids_in(&dir).into_iter().collect();
                let _ = std::fs::write(dir.join("cgroup.kill"), "1");
                let until = Instant::now() + within;
                loop {
                    let pids = pids_in(&dir);
                    killed.extend(pids.iter().copied());
                    reap_all(&mut killed);
                    if (pids.is_empty() && std::fs::remove_dir(&dir).is_ok()) || Instant::now() >= until {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                reap_within(&mut killed, until);
            }
            None => {
                let until = Instant::now() + within;
                let mut killed = BTreeSet::new();
                loop {
                    let marked = marked_processes(&self.mark);
                    if marked.is_empty() || Instant::now() >= until {
                        break;
                    }
                    for &pid in &marked {
                        if let Some(p) = Pid::from_raw(pid) {
                            let _ = kill_process(p, Signal::KILL);
                        }
                        killed.insert(pid);
                    }
                    reap_all(&mut killed);
                    std::thread::sleep(Duration::from_millis(1));
                }
                reap_within(&mut killed, until);
            }
        }
    }
}

impl Drop for Containment {
    fn drop(&mut self) {
        self.end(GROUP_GONE);
    }
}

/// The processes in the cgroup `dir`.
fn pids_in(dir: &Path) -> Vec<i32> {
    std::fs::read_to_string(dir.join("cgroup.procs"))
        .map(|text| text.lines().filter_map(|l| l.trim().parse().ok()).collect())
        .unwrap_or_default()
}

/// Reaps those of `pids` that are children of the host and have exited,
/// and forgets them and those that are not the host's children.
fn reap_all(pids: &mut BTreeSet<i32>) {
    pids.retain(|&pid| {
        let Some(p) = Pid::from_raw(pid) else { return false };
        // Some: reaped; Err: not a child of the host (or gone): done either way.
        matches!(waitid(WaitId::Pid(p), WaitIdOptions::EXITED | WaitIdOptions::NOHANG), Ok(None))
    });
}

/// [`reap_all`] until every one of `pids` is done or `until` has passed.
fn reap_within(pids: &mut BTreeSet<i32>, until: Instant) {
    loop {
        reap_all(pids);
        if pids.is_empty() || Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Kills every process of a gone host's cgroup and removes it.
fn empty_and_remove(dir: &Path) {
    let _ = std::fs::write(dir.join("cgroup.kill"), "1");
    let until = Instant::now() + Duration::from_secs(1);
    while std::fs::remove_dir(dir).is_err() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The living processes whose environment holds `LIGHTCYCLES_BOT=<mark>`
/// (zombies have no environment left to read, and are not counted).
fn marked_processes(mark: &str) -> Vec<i32> {
    let wanted = format!("{MARK_ENV}={mark}");
    processes_where(|var| var == wanted.as_bytes())
}

/// The processes with a variable in their environment for which `test`
/// holds (the guard's own process excluded).
fn processes_where(test: impl Fn(&[u8]) -> bool) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
        if pid == me {
            continue;
        }
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else { continue };
        if environ.split(|&b| b == 0).any(&test) {
            found.push(pid);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::process::command::is_plain;

    #[test]
    fn a_mark_finds_the_processes_that_carry_it() {
        let c = Containment { cgroup: None, mark: format!("test-{}", std::process::id()), ended: false };
        let mut command = Command::new("sleep");
        command.arg("30");
        c.apply(&mut command);
        // Reaped by the end of its containment, not by `wait`.
        #[allow(clippy::zombie_processes)]
        let child = command.spawn().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while marked_processes(&c.mark).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(marked_processes(&c.mark), vec![child.id() as i32]);
        drop(c);
        // Killed and reaped by the end of its containment.
        assert!(!Path::new(&format!("/proc/{}", child.id())).exists());
    }

    #[test]
    fn plain_commands_are_exec_ed_and_others_are_left_to_the_shell() {
        assert!(is_plain("python3 bot.py --level 3"));
        assert!(is_plain("./bots/a.out x=1"));
        for c in ["exit 1", "a; b", "A=1 prog", "prog > f", "while true; do :; done", "cd x", "$(x)", "", "exec x"] {
            assert!(!is_plain(c), "{c:?}");
        }
    }
}
