//! WASI preview 1 for wasm bots built for `wasm32-wasip1` or linked with
//! wasi-libc: wasmtime-wasi's implementation, sandboxed.
//!
//! A bot gets no preopened directory (so no file can be opened), no
//! environment, no arguments, no sockets and a closed stdin. What it writes
//! to stdout and stderr goes to its log, through the same path as the
//! `lightcycles.log` import ([`Output`]), within the same 1 MiB a game.
//! `random_get` gives a stream seeded from the bot's seed. Two functions
//! are the host's own, for determinism:
//!
//! - `clock_time_get`: under `--fuel-per-tick` every clock is virtual
//!   ([`Clock`]): it reads the game's time as the budgets make it, the
//!   answer's spent fuel turned into time at `--time-ms` per
//!   `--fuel-per-tick`; without fuel, the host's clocks.
//! - `poll_oneoff` (sleeping, waiting on stdin) answers `ENOTSUP`: a bot
//!   that could sleep would hold the host's thread beyond its fuel.
//!
//! `proc_exit` ends the call with an error that the adapter records as a
//! crash.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use wasmtime::{Caller, Linker};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError, StreamResult};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

use super::Guest;
use crate::bot::process::log::BotLog;
use crate::bot::said::Said;

/// The module name of WASI preview 1's imports.
pub const MODULE: &str = "wasi_snapshot_preview1";

/// The functions of WASI preview 1 (wasmtime-wasi defines each; a test
/// checks that), so that a module importing anything else is refused
/// before the run, naming the import.
pub const FUNCTIONS: &[&str] = &[
    "args_get",
    "args_sizes_get",
    "environ_get",
    "environ_sizes_get",
    "clock_res_get",
    "clock_time_get",
    "fd_advise",
    "fd_allocate",
    "fd_close",
    "fd_datasync",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_fdstat_set_rights",
    "fd_filestat_get",
    "fd_filestat_set_size",
    "fd_filestat_set_times",
    "fd_pread",
    "fd_prestat_get",
    "fd_prestat_dir_name",
    "fd_pwrite",
    "fd_read",
    "fd_readdir",
    "fd_renumber",
    "fd_seek",
    "fd_sync",
    "fd_tell",
    "fd_write",
    "path_create_directory",
    "path_filestat_get",
    "path_filestat_set_times",
    "path_link",
    "path_open",
    "path_readlink",
    "path_remove_directory",
    "path_rename",
    "path_symlink",
    "path_unlink_file",
    "poll_oneoff",
    "proc_exit",
    "proc_raise",
    "sched_yield",
    "random_get",
    "sock_accept",
    "sock_recv",
    "sock_send",
    "sock_shutdown",
];

/// WASI's errno values that the host's own functions give.
const SUCCESS: i32 = 0;
const BADF: i32 = 8;
const FAULT: i32 = 21;
const INVAL: i32 = 28;
const NOTSUP: i32 = 58;

/// The most bytes one `random_get` may ask for; more traps (a crash).
const MAX_RANDOM_BYTES: u64 = 1 << 20;

/// What a bot writes to its log in one game, from `lightcycles.log` and
/// from WASI's stdout and stderr alike: at most `room` bytes more, and the
/// WASI output not yet written as lines. Shared by the bot's stores for a
/// whole game, so a fresh instance after a fault does not get a fresh cap.
#[derive(Clone, Debug)]
pub struct Output {
    inner: Arc<Mutex<Pending>>,
    /// Every line also goes into the replay's record ([`crate::bot::said`]).
    said: Said,
}

#[derive(Debug)]
struct Pending {
    room: usize,
    bytes: Vec<u8>,
}

impl Output {
    /// An output of at most `cap` bytes.
    pub fn new(cap: usize) -> Output {
        Output { inner: Arc::new(Mutex::new(Pending { room: cap, bytes: Vec::new() })), said: Said::new() }
    }

    /// What the guest wrote, line by line, for the replay.
    pub fn said(&self) -> &Said {
        &self.said
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes up to `len` bytes of the room left; how many may be written.
    pub fn take_room(&self, len: usize) -> usize {
        let mut pending = self.lock();
        let take = len.min(pending.room);
        pending.room -= take;
        take
    }

    /// Writes `bytes` as one line of `log` (escaped, with a newline) and
    /// of the replay's record: the one way a guest's words reach either.
    pub fn line(&self, log: &BotLog, bytes: &[u8]) {
        let mut line = crate::io::untrusted::log_bytes(bytes);
        line.push(b'\n');
        log.write(&line);
        let mut raw = bytes.to_vec();
        raw.push(b'\n');
        self.said.write(&raw);
    }

    /// Writes what WASI's stdout and stderr gathered since the last call
    /// to `log`, a line per line (an unfinished last line too, so that
    /// what a call wrote is logged with that call).
    pub fn flush(&self, log: &BotLog) {
        let bytes = std::mem::take(&mut self.lock().bytes);
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            self.line(log, line.strip_suffix(b"\n").unwrap_or(line));
        }
    }
}

/// Largest write accepted at once by the stdout and stderr streams.
const WRITE_PERMIT: usize = 64 << 10;

impl IsTerminal for Output {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for Output {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        // Only the component model's streams use this, never WASI preview 1.
        Box::new(tokio::io::empty())
    }
}

impl OutputStream for Output {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        let take = self.take_room(bytes.len());
        self.lock().bytes.extend_from_slice(&bytes[..take]);
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        // Once the game's log is full the stream is closed: further writes
        // fail at once (EIO), costing the host nothing.
        match self.lock().room {
            0 => Err(StreamError::Closed),
            _ => Ok(WRITE_PERMIT),
        }
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for Output {
    async fn ready(&mut self) {}
}

/// The clock of one answer, as `clock_time_get` reads it.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// The host's clocks (no fuel: the bot is timed by them anyway).
    Host {
        /// When the bot was made: the monotonic clock's zero.
        since: Instant,
    },
    /// Under fuel: `start` (the game's virtual time when the answer began,
    /// in ns) plus the fuel spent since `fuel_at_start`, at `ns` per
    /// `per` units. Realtime and monotonic read the same: nanoseconds since
    /// 1970-01-01, the game starting at 0.
    Virtual { start: u64, fuel_at_start: u64, ns: u64, per: u64 },
}

impl Clock {
    /// The time of clock `id` (0 realtime, 1 monotonic), with `fuel_left`
    /// the store's fuel now; `None` for a clock not offered.
    fn now(&self, id: i32, fuel_left: u64) -> Option<u64> {
        match (*self, id) {
            (Clock::Host { .. }, 0) => Some(SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, nanos)),
            (Clock::Host { since }, 1) => Some(nanos(since.elapsed())),
            (Clock::Virtual { start, fuel_at_start, ns, per }, 0 | 1) => {
                let spent = u128::from(fuel_at_start.saturating_sub(fuel_left));
                let elapsed = spent * u128::from(ns) / u128::from(per.max(1));
                Some(start.saturating_add(u64::try_from(elapsed).unwrap_or(u64::MAX)))
            }
            _ => None,
        }
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The clocks wasmtime-wasi itself is given: it reads them only for
/// `clock_res_get` (1 ns), as `clock_time_get` and `poll_oneoff` are the
/// host's.
struct Stopped;

impl HostWallClock for Stopped {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }
    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

impl HostMonotonicClock for Stopped {
    fn resolution(&self) -> u64 {
        1
    }
    fn now(&self) -> u64 {
        0
    }
}

/// SplitMix64 from the bot's seed: `random_get`'s bytes.
struct Seeded(u64);

impl rand_core::TryRng for Seeded {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.try_next_u64().map(|v| (v >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Ok(z ^ (z >> 31))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

/// The sandboxed WASI of one instance: nothing but stdout and stderr into
/// `output`, and randomness from `seed`.
pub fn context(output: &Output, seed: u64) -> WasiP1Ctx {
    let mut builder = WasiCtxBuilder::new();
    builder
        .stdout(output.clone())
        .stderr(output.clone())
        .wall_clock(Stopped)
        .monotonic_clock(Stopped)
        .secure_random(Seeded(seed))
        .insecure_random(Seeded(seed ^ 0x5EED))
        .insecure_random_seed(u128::from(seed))
        .max_random_size(MAX_RANDOM_BYTES)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false)
        .allow_blocking_current_thread(false);
    builder.build_p1()
}

/// Adds WASI preview 1 to `linker`, with the host's own `clock_time_get`
/// and `poll_oneoff` in place of wasmtime-wasi's.
pub fn add_to_linker(linker: &mut Linker<Guest>) -> wasmtime::Result<()> {
    wasmtime_wasi::p1::add_to_linker_sync(linker, |guest: &mut Guest| guest.wasi())?;
    linker.allow_shadowing(true);
    linker.func_wrap(
        MODULE,
        "clock_time_get",
        |mut caller: Caller<'_, Guest>, id: i32, _precision: i64, out: i32| -> i32 {
            let fuel = caller.get_fuel().unwrap_or(0);
            let Some(now) = caller.data().clock.now(id, fuel) else {
                return if (0..4).contains(&id) { BADF } else { INVAL };
            };
            let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else { return FAULT };
            let at = out as u32 as usize;
            match memory.data_mut(&mut caller).get_mut(at..at.saturating_add(8)) {
                Some(dst) if dst.len() == 8 => {
                    dst.copy_from_slice(&now.to_le_bytes());
                    SUCCESS
                }
                _ => FAULT,
            }
        },
    )?;
    linker
        .func_wrap(MODULE, "poll_oneoff", |_: Caller<'_, Guest>, _: i32, _: i32, _: i32, _: i32| -> i32 { NOTSUP })?;
    linker.allow_shadowing(false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_function_is_wasmtime_wasis_and_no_other() {
        let engine = wasmtime::Engine::default();
        let mut linker = Linker::<Guest>::new(&engine);
        add_to_linker(&mut linker).unwrap();
        let mut store = wasmtime::Store::new(&engine, Guest::for_test());
        let mut defined: Vec<String> =
            linker.iter(&mut store).filter(|(m, _, _)| *m == MODULE).map(|(_, n, _)| n.to_string()).collect();
        defined.sort();
        let mut listed: Vec<String> = FUNCTIONS.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(defined, listed);
    }

    #[test]
    fn the_virtual_clock_turns_fuel_into_time() {
        // 50 ms per 5,000,000 units: 10 ns a unit.
        let clock = Clock::Virtual { start: 1_000, fuel_at_start: 5_000_000, ns: 50_000_000, per: 5_000_000 };
        assert_eq!(clock.now(1, 5_000_000), Some(1_000));
        assert_eq!(clock.now(0, 4_000_000), Some(1_000 + 10_000_000));
        assert_eq!(clock.now(2, 0), None, "no CPU-time clock");
    }

    #[test]
    fn output_is_capped_and_flushed_as_lines() {
        let output = Output::new(10);
        let mut stream = output.clone();
        stream.write(Bytes::from_static(b"ab\ncd")).unwrap();
        // 10 bytes in all: the j is past the cap.
        stream.write(Bytes::from_static(b"efghij")).unwrap();
        assert!(matches!(stream.check_write(), Err(StreamError::Closed)));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let log = BotLog::at(path.clone());
        output.flush(&log);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "ab\ncdefghi\n");
        assert_eq!(output.take_room(5), 0);
    }
}
