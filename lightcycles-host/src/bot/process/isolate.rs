//! Namespaces of a bot process: what keeps a bot from reaching the host and
//! the other bots.
//!
//! Every bot runs under the host's user (so it can read the interpreter
//! and the files it is given, wherever they are), so without more it could
//! signal the other bots (`kill -STOP`), trace them, and open what they and
//! the host hold through `/proc/PID/fd` (the host's stdout among them). So
//! each bot process is started in namespaces of its own:
//!
//! - a **PID namespace**: the bot cannot name any process outside it, so it
//!   can signal, trace or open (`pidfd_open`) none of them; a `kill(-1)`
//!   reaches its own processes only; and when the bot exits, every process
//!   it left behind is killed by the kernel with the namespace;
//! - a **mount namespace** with a `/proc` of that PID namespace over the
//!   host's (so `/proc/PID/fd`, `mem`, `environ` of the host and of other
//!   bots are not there), an empty `/dev/pts` and `/dev/null` as
//!   `/dev/tty` (so it cannot write to the terminal the host runs in), and
//!   an empty `/sys/fs/cgroup` (so it cannot freeze or kill another bot's
//!   cgroup);
//! - an **IPC namespace** (System V and POSIX message queues of its own);
//! - a **user namespace**, when the host is not root: what lets an
//!   unprivileged host make the others. The bot keeps the host's uid and
//!   gid inside it.
//!
//! The bot's process holds no capability (bounding set emptied, `NOROOT`
//! secure bits, `no_new_privs`), so it cannot undo the mounts, even when
//! the host is root.
//!
//! The process the host starts is a waiter that forks the namespace's
//! init (PID 1), which forks the bot and reaps what it leaves; the waiter
//! exits as the init does, the init as the bot does. A signal the host
//! sends to the bot's process group reaches the bot itself: SIGTERM is
//! ignored by the waiter and, being PID 1, by the init, and SIGKILL ends
//! all three (the init's end ends the namespace).
//!
//! Where the kernel refuses (user namespaces turned off, a container
//! without the right to mount `/proc`), or `LIGHTCYCLES_NO_NAMESPACES=1`,
//! bots run without namespaces, and [`status`] says why (the CLI warns).
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::OnceLock;

/// The environment variable that turns the namespaces off.
pub const NO_NAMESPACES_ENV: &str = "LIGHTCYCLES_NO_NAMESPACES";

/// Whether bot processes get namespaces of their own: `Ok` when they do,
/// else why not (checked once, by starting one isolated process).
pub fn status() -> Result<(), &'static str> {
    static STATUS: OnceLock<Result<(), String>> = OnceLock::new();
    STATUS.get_or_init(probe).as_ref().map(|_| ()).map_err(String::as_str)
}

/// Sets up `command` to start in namespaces of its own, where [`status`]
/// allows. Call it after every other `pre_exec` hook of `command`: the
/// hooks before it run in the waiter, the program runs as the bot.
pub fn apply(command: &mut Command) {
    if status().is_ok() {
        let prepared = Prepared::new();
        // SAFETY: the hook makes only async-signal-safe system calls on
        // values made before the fork, and allocates nothing.
        unsafe { command.pre_exec(move || prepared.enter()) };
    }
}

fn probe() -> Result<(), String> {
    if std::env::var_os(NO_NAMESPACES_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
        return Err(format!("{NO_NAMESPACES_ENV} is set"));
    }
    // The bot exits 7, which reaches the host through the init and the
    // waiter; what the kernel refuses makes the start fail.
    let mut command = Command::new("/bin/sh");
    command.args(["-c", "exit 7"]).stdin(std::process::Stdio::null());
    let prepared = Prepared::new();
    // SAFETY: as in `apply`.
    unsafe { command.pre_exec(move || prepared.enter()) };
    match command.status() {
        Ok(status) if status.code() == Some(7) => Ok(()),
        Ok(status) => Err(format!("a test process in namespaces of its own ended with {status}")),
        Err(e) => Err(format!("the kernel refused namespaces for bots ({e})")),
    }
}

/// What the hook needs, made before the fork.
struct Prepared {
    /// `Some((uid_map, gid_map))`: a user namespace is needed (not root).
    user: Option<(Vec<u8>, Vec<u8>)>,
    /// The highest capability number of this kernel.
    last_cap: libc::c_ulong,
    paths: Paths,
}

struct Paths {
    setgroups: CString,
    uid_map: CString,
    gid_map: CString,
    root: CString,
    proc_: CString,
    proc_type: CString,
    tmpfs: CString,
    small: CString,
    pts: CString,
    cgroup: CString,
    tty: CString,
    null: CString,
}

fn c(text: &str) -> CString {
    CString::new(text).expect("no NUL in a fixed path")
}

impl Prepared {
    fn new() -> Prepared {
        let (uid, gid) = (rustix::process::getuid().as_raw(), rustix::process::getgid().as_raw());
        let user =
            (uid != 0).then(|| (format!("{uid} {uid} 1\n").into_bytes(), format!("{gid} {gid} 1\n").into_bytes()));
        // Read once per host: the kernel's, the same for every bot.
        static LAST_CAP: OnceLock<libc::c_ulong> = OnceLock::new();
        let last_cap = *LAST_CAP.get_or_init(|| {
            std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
                .ok()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(63)
        });
        Prepared {
            user,
            last_cap,
            paths: Paths {
                setgroups: c("/proc/self/setgroups"),
                uid_map: c("/proc/self/uid_map"),
                gid_map: c("/proc/self/gid_map"),
                root: c("/"),
                proc_: c("/proc"),
                proc_type: c("proc"),
                tmpfs: c("tmpfs"),
                small: c("size=4k,mode=755"),
                pts: c("/dev/pts"),
                cgroup: c("/sys/fs/cgroup"),
                tty: c("/dev/tty"),
                null: c("/dev/null"),
            },
        }
    }

    /// Runs in the child between `fork` and `exec`: makes the namespaces,
    /// forks the init and the bot; returns (to `exec`) in the bot only.
    fn enter(&self) -> io::Result<()> {
        let p = &self.paths;
        // SAFETY: async-signal-safe system calls only, on values made
        // before the fork; the waiter and the init never return.
        unsafe {
            if let Some((uid_map, gid_map)) = &self.user {
                // A host that made itself not dumpable has /proc/self files
                // owned by root, which an unprivileged user cannot write its
                // maps into: this child is dumpable again (it can be named
                // by no bot, and the bot's `exec` sets it anew).
                libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
                check(libc::unshare(libc::CLONE_NEWUSER))?;
                write_file(&p.setgroups, b"deny")?;
                write_file(&p.uid_map, uid_map)?;
                write_file(&p.gid_map, gid_map)?;
            }
            check(libc::unshare(libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC))?;
            let init = check(libc::fork())?;
            if init > 0 {
                waiter(init);
            }
            // The init: PID 1 of the new namespace.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
            check(libc::mount(
                std::ptr::null(),
                p.root.as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            let hidden = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
            if libc::mount(p.proc_type.as_ptr(), p.proc_.as_ptr(), p.proc_type.as_ptr(), hidden, std::ptr::null()) != 0
            {
                // Where a new proc may not be mounted, none at all.
                cover(p, &p.proc_)?;
            }
            cover(p, &p.pts)?;
            cover(p, &p.cgroup)?;
            let bound = libc::mount(p.null.as_ptr(), p.tty.as_ptr(), std::ptr::null(), libc::MS_BIND, std::ptr::null());
            if bound != 0 && errno() != libc::ENOENT {
                return Err(io::Error::last_os_error());
            }
            let bot = check(libc::fork())?;
            if bot > 0 {
                init_loop(bot);
            }
            // The bot: PID 2.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
            if libc::getppid() != 1 {
                libc::_exit(1);
            }
            self.drop_capabilities()
        }
    }

    /// Empties every capability set and keeps them empty across `exec`.
    unsafe fn drop_capabilities(&self) -> io::Result<()> {
        for cap in 0..=self.last_cap {
            if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno() != libc::EINVAL {
                return Err(io::Error::last_os_error());
            }
        }
        // SECBIT_NOROOT, SECBIT_NO_SETUID_FIXUP and SECBIT_KEEP_CAPS off,
        // each locked: root gains no capability at exec.
        const BITS: libc::c_ulong = 0x01 | 0x02 | 0x04 | 0x08 | 0x20;
        check(libc::prctl(libc::PR_SET_SECUREBITS, BITS, 0, 0, 0))?;
        check(libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong, 0, 0, 0))?;
        #[repr(C)]
        struct Header {
            version: u32,
            pid: i32,
        }
        #[repr(C)]
        struct Data {
            effective: u32,
            permitted: u32,
            inheritable: u32,
        }
        let mut header = Header { version: 0x2008_0522, pid: 0 };
        let data =
            [Data { effective: 0, permitted: 0, inheritable: 0 }, Data { effective: 0, permitted: 0, inheritable: 0 }];
        check(libc::syscall(libc::SYS_capset, &mut header as *mut Header, data.as_ptr()) as libc::c_int)?;
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        Ok(())
    }
}

/// Mounts an empty, read-only file system over `path`, if it exists.
unsafe fn cover(p: &Paths, path: &CStr) -> io::Result<()> {
    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY;
    if libc::mount(p.tmpfs.as_ptr(), path.as_ptr(), p.tmpfs.as_ptr(), flags, p.small.as_ptr().cast()) != 0
        && errno() != libc::ENOENT
    {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The process the host started: holds nothing of the bot's (so the bot's
/// pipes close when the bot ends), ignores SIGTERM (which the host sends
/// the bot's group), and exits as the init does.
unsafe fn waiter(init: libc::pid_t) -> ! {
    close_all();
    ignore(libc::SIGTERM);
    ignore(libc::SIGHUP);
    ignore(libc::SIGINT);
    let status = wait_for(init);
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(signal, &action, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
    }
    libc::_exit(exit_code(status))
}

/// PID 1 of the bot's namespace: reaps every process, and exits as the
/// bot does (the kernel then kills whatever is left in the namespace).
unsafe fn init_loop(bot: libc::pid_t) -> ! {
    close_all();
    let status = wait_for(bot);
    libc::_exit(exit_code(status))
}

/// Waits for `child`, reaping every other child that ends meanwhile.
unsafe fn wait_for(child: libc::pid_t) -> libc::c_int {
    loop {
        let mut status = 0;
        let pid = libc::waitpid(-1, &mut status, 0);
        if pid == child {
            return status;
        }
        if pid < 0 && errno() != libc::EINTR {
            return 127 << 8;
        }
    }
}

/// An exit code for a wait status: the code, or 128 + the signal.
fn exit_code(status: libc::c_int) -> libc::c_int {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    }
}

unsafe fn ignore(signal: libc::c_int) {
    let mut action: libc::sigaction = std::mem::zeroed();
    action.sa_sigaction = libc::SIG_IGN;
    libc::sigaction(signal, &action, std::ptr::null_mut());
}

/// Closes every descriptor.
unsafe fn close_all() {
    if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
        for fd in 0..4096 {
            libc::close(fd);
        }
    }
}

unsafe fn write_file(path: &CStr, bytes: &[u8]) -> io::Result<()> {
    let fd = check(libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC))?;
    let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    let error = io::Error::last_os_error();
    libc::close(fd);
    if written != bytes.len() as isize {
        return Err(error);
    }
    Ok(())
}

fn errno() -> libc::c_int {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

fn check<T: Copy + PartialOrd + Default>(result: T) -> io::Result<T> {
    if result < T::default() {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn isolated(script: &str) -> std::process::Output {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", script]);
        apply(&mut command);
        command.output().unwrap()
    }

    #[test]
    fn an_isolated_process_sees_only_its_own_namespace() {
        if let Err(why) = status() {
            assert!(std::env::var_os("CI").is_none(), "no namespaces for bots under CI: {why}");
            eprintln!("skipped: {why}");
            return;
        }
        let host = std::process::id();
        let out = isolated(&format!(
            "echo pid=$$; ls /proc | grep -c '^[0-9]'; test -e /proc/{host} && echo host-seen; \
             kill -0 {host} 2>/dev/null && echo host-signalled; ls /dev/pts | wc -l; \
             echo x > /dev/tty && echo tty-null; grep CapEff /proc/self/status; exit 3"
        ));
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(3), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "pid=2", "{text}");
        // The shell, `ls`'s pipeline and the init: a handful, not the host's.
        assert!(lines[1].parse::<u32>().unwrap() <= 5, "{text}");
        assert!(!text.contains("host-seen") && !text.contains("host-signalled"), "{text}");
        assert_eq!(lines[2], "0", "{text}");
        assert!(text.contains("tty-null"), "{text}");
        assert!(text.contains("CapEff:\t0000000000000000"), "{text}");
    }

    #[test]
    fn what_a_bot_leaves_behind_dies_with_it() {
        if status().is_err() {
            return;
        }
        let mark = format!("lc-isolate-left-{}", std::process::id());
        let out = isolated(&format!("(setsid sh -c 'sleep 30' {mark} >/dev/null 2>&1 &) ; exit 0"));
        assert_eq!(out.status.code(), Some(0));
        let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
        loop {
            let left = std::fs::read_dir("/proc")
                .unwrap()
                .flatten()
                .filter(|e| {
                    std::fs::read(e.path().join("cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(&mark))
                })
                .count();
            if left == 0 {
                break;
            }
            assert!(std::time::Instant::now() < until, "a process the bot left outlived it");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}
