//! `wasm:PATH.wasm` (or a bare `PATH.wasm`): bots compiled to WebAssembly,
//! run inside the host under wasmtime.
//!
//! A wasm bot has no file system, no network, no processes and no signals:
//! it can import only what this file gives it (`lightcycles.fuel_left` and
//! `lightcycles.log`) and a sandboxed WASI preview 1 ([`wasi`]: stdout and
//! stderr into its log, a seeded random source, a virtual clock under fuel;
//! no file, no environment, no socket). Its linear memory is capped by
//! `--bot-memory-mb`.
//! With `--fuel-per-tick N` its budget is counted in wasmtime fuel (about one
//! unit per wasm instruction), not in milliseconds, so the same seeds give the
//! same games on any machine under any load; the wall clock stays as a
//! backstop (epoch interruption) so that nothing hangs. Without the flag the
//! bot is timed by the clock like every other bot.
//!
//! The guest ABI, version [`ABI_VERSION`] (docs/wasm-bots.md has the whole of
//! it): the module exports `memory`, `lc_abi_version() -> i32`,
//! `lc_new(seed: i64) -> i32`, `lc_buffer(len: i32) -> i32` and
//! `lc_move(ptr: i32, len: i32) -> i32`; the observation is a compact
//! little-endian record ([`encode`]) written into the guest's buffer. A
//! WASI reactor's `_initialize` runs before `lc_new`.
//!
//! Each game and seat gets an instance of its own; the module is compiled
//! once per file, content and engine ([`compiled`]) and shared by every
//! game. There are two engines: one counts fuel (`--fuel-per-tick`), the
//! other does not, so that a bot timed by the clock does not pay for the
//! counting. A trap
//! is a `crash`, used-up fuel or the backstop a `timeout`; after either the
//! instance is thrown away and the next tick starts a fresh one from
//! `lc_new` with the same seed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

mod wasi;

use sha2::{Digest, Sha256};
use wasmtime::{
    Caller, Config, Engine, ExternType, Instance, InstancePre, Linker, Memory, Module, Store, StoreLimits,
    StoreLimitsBuilder, Trap, TypedFunc, ValType,
};

pub use crate::bot::adapter::base::WasmBudget;
use crate::bot::adapter::plugin::c::reply_of_code;
use crate::bot::adapter::{file_stem_name, path_ending_in, Adapter, Hosting};
use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::said::SaidTick;
use crate::bot::seed::bot_seed;
use crate::bot::spec_error::SpecError;
use crate::bot::{Bot, BotContext, BotError, BotFactory, Reply, Turn};

/// The guest ABI version this host speaks: what `lc_abi_version` must return.
pub const ABI_VERSION: i32 = 1;

/// The bytes before the players in an observation record.
pub const HEADER_BYTES: usize = 40;
/// The bytes of one player in an observation record.
pub const PLAYER_BYTES: usize = 20;

/// The largest `.wasm` file read: far above any bot (the search bot is
/// some hundreds of KiB), and a bound on what a hostile file costs.
const MAX_MODULE_BYTES: u64 = 64 << 20;

/// Fuel for `lc_abi_version` when a file is checked before the run.
const CHECK_FUEL: u64 = 10_000_000;

/// The epoch ticker's period: the grain of the wall-clock backstop.
const EPOCH: Duration = Duration::from_millis(1);

/// The imports a module may have: (module, name, what it is).
const IMPORTS: &[(&str, &str, &str)] =
    &[("lightcycles", "fuel_left", "() -> i64"), ("lightcycles", "log", "(i32, i32) -> ()")];

/// The two engines: `fuel` counts fuel, `clock` does not.
struct Engines {
    fuel: Engine,
    clock: Engine,
}

/// The engine of bots budgeted in fuel (`fuel`) or timed by the clock, with
/// the epoch ticker started; an error when this machine cannot run wasm (a
/// platform wasmtime lacks).
fn engine(fuel: bool) -> Result<&'static Engine, String> {
    static ENGINES: OnceLock<Result<Engines, String>> = OnceLock::new();
    let engines = ENGINES
        .get_or_init(|| {
            let make = |fuel: bool| {
                let mut config = Config::new();
                config
                    // Fuel is counted only where it is the budget: counting
                    // costs a load, an add and a store per block of code.
                    .consume_fuel(fuel)
                    .epoch_interruption(true)
                    // The same answers on every machine: NaNs canonical,
                    // relaxed SIMD the deterministic way.
                    .cranelift_nan_canonicalization(true)
                    .relaxed_simd_deterministic(true)
                    // The whole 4 GiB a wasm32 address can reach is
                    // reserved (address space only, no memory) with a guard
                    // behind it, so that loads and stores need no bounds
                    // checks: the guard pages trap instead.
                    .memory_reservation(4 << 30)
                    .memory_guard_size(32 << 20)
                    .signals_based_traps(true)
                    .cranelift_opt_level(wasmtime::OptLevel::Speed);
                Engine::new(&config).map_err(|e| format!("wasmtime cannot start: {e}"))
            };
            let engines = Engines { fuel: make(true)?, clock: make(false)? };
            start_ticker(vec![engines.fuel.clone(), engines.clock.clone()]);
            Ok(engines)
        })
        .as_ref()
        .map_err(Clone::clone)?;
    Ok(if fuel { &engines.fuel } else { &engines.clock })
}

/// Calls started so far, calls running now, and whether the ticker is parked.
static CALLS: AtomicU64 = AtomicU64::new(0);
static RUNNING: AtomicU64 = AtomicU64::new(0);
static PARKED: AtomicBool = AtomicBool::new(false);
static TICKER: OnceLock<std::thread::Thread> = OnceLock::new();

/// Starts the thread that moves the engines' epochs on every [`EPOCH`]
/// while wasm bots are called, and parks when none has run for 100 epochs.
fn start_ticker(engines: Vec<Engine>) {
    let spawned = std::thread::Builder::new().name("lightcycles-wasm-epoch".into()).spawn(move || {
        let mut idle = 0u32;
        let mut seen = CALLS.load(Ordering::SeqCst);
        loop {
            std::thread::sleep(EPOCH);
            for engine in &engines {
                engine.increment_epoch();
            }
            let now = CALLS.load(Ordering::SeqCst);
            let quiet = now == seen && RUNNING.load(Ordering::SeqCst) == 0;
            idle = if quiet { idle + 1 } else { 0 };
            seen = now;
            if idle >= 100 {
                PARKED.store(true, Ordering::SeqCst);
                // A call that started since `seen` was read saw PARKED and
                // unparks, or is counted here: no call waits on a parked
                // ticker.
                if CALLS.load(Ordering::SeqCst) == seen {
                    std::thread::park();
                }
                PARKED.store(false, Ordering::SeqCst);
                idle = 0;
            }
        }
    });
    if let Ok(handle) = spawned {
        let _ = TICKER.set(handle.thread().clone());
    }
}

/// A call into a guest under way: the ticker runs until it is dropped.
struct Running;

impl Running {
    /// Tells the ticker a call starts (waking it when it is parked).
    fn start() -> Running {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        CALLS.fetch_add(1, Ordering::SeqCst);
        if PARKED.load(Ordering::SeqCst) {
            if let Some(t) = TICKER.get() {
                t.unpark();
            }
        }
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A compiled bot module, checked against the ABI, and its imports resolved.
#[derive(Clone)]
struct Compiled {
    pre: InstancePre<Guest>,
    /// Whether it imports WASI (its stores then get a WASI context).
    wasi: bool,
    /// Whether it exports `_initialize` (a WASI reactor), called first.
    initialize: bool,
}

/// A module's file (made absolute), the SHA-256 of its bytes, and whether
/// it is compiled for the engine that counts fuel.
type ModuleKey = (PathBuf, [u8; 32], bool);

/// Modules compiled so far, by file, content and engine: every game (and
/// every run of one process, as the tests are) reuses them.
static MODULES: Mutex<Option<HashMap<ModuleKey, Compiled>>> = Mutex::new(None);

/// The module of `path`, compiled once per path, content and engine (fuel
/// counted or not), its imports and exports checked against the ABI; or
/// what is wrong, naming the file.
fn compiled(path: &Path, fuel: bool) -> Result<Compiled, String> {
    compiled_bytes(path, read_module(path)?, fuel)
}

/// [`compiled`] for the bytes of a module, named `path` in messages and in
/// the cache.
fn compiled_bytes(path: &Path, bytes: Vec<u8>, fuel: bool) -> Result<Compiled, String> {
    let shown = path.display();
    let key = (std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()), Sha256::digest(&bytes).into(), fuel);
    if let Some(found) = MODULES.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(HashMap::new).get(&key) {
        return Ok(found.clone());
    }
    let engine = engine(fuel)?;
    if !bytes.starts_with(b"\0asm") {
        return Err(format!("{shown} is not a WebAssembly module (no \\0asm at its start)"));
    }
    let module = Module::from_binary(engine, &bytes)
        .map_err(|e| format!("{shown} is not a valid WebAssembly module: {}", first_line(&e.to_string())))?;
    check_interface(&module).map_err(|why| format!("{shown}: {why} (docs/wasm-bots.md)"))?;
    let pre = linker(engine)
        .and_then(|l| l.instantiate_pre(&module))
        .map_err(|e| format!("{shown}: cannot link: {}", first_line(&e.to_string())))?;
    let wasi = module.imports().any(|i| i.module() == wasi::MODULE);
    let initialize = module.get_export("_initialize").is_some();
    let compiled = Compiled { pre, wasi, initialize };
    check_version(&compiled).map_err(|why| format!("{shown}: {why}"))?;
    MODULES.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(HashMap::new).insert(key, compiled.clone());
    Ok(compiled)
}

/// The bytes of a module file: a regular file of at most [`MAX_MODULE_BYTES`].
fn read_module(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let shown = path.display();
    let (file, meta) = crate::io::input::open_regular(path, false).map_err(|e| format!("{shown} {e}"))?;
    if meta.len() > MAX_MODULE_BYTES {
        return Err(format!("{shown} is {} bytes, more than the 64 MiB a wasm bot may be", meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_MODULE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_MODULE_BYTES {
        return Err(format!("{shown} holds more than the 64 MiB a wasm bot may be"));
    }
    Ok(bytes)
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_string()
}

/// The exports the ABI needs: name, parameters, results.
const EXPORTS: &[(&str, &[ValType], &[ValType])] = &[
    ("lc_abi_version", &[], &[ValType::I32]),
    ("lc_new", &[ValType::I64], &[ValType::I32]),
    ("lc_buffer", &[ValType::I32], &[ValType::I32]),
    ("lc_move", &[ValType::I32, ValType::I32], &[ValType::I32]),
];

fn type_text(params: &[ValType], results: &[ValType]) -> String {
    let list = |v: &[ValType]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
    format!("({}) -> ({})", list(params), list(results))
}

/// Refuses a module whose imports or exports are not those of the ABI.
fn check_interface(module: &Module) -> Result<(), String> {
    for import in module.imports() {
        let known = IMPORTS.iter().any(|(m, n, _)| *m == import.module() && *n == import.name())
            || (import.module() == wasi::MODULE && wasi::FUNCTIONS.contains(&import.name()));
        if !known {
            let allowed = IMPORTS.iter().map(|(m, n, t)| format!("{m}.{n} {t}")).collect::<Vec<_>>().join(", ");
            return Err(format!(
                "imports {}.{}, which a wasm bot is not given: it may import only {allowed} and the functions \
                 of WASI preview 1 ({}.*)",
                import.module(),
                import.name(),
                wasi::MODULE
            ));
        }
    }
    if module.get_export("_start").is_some() {
        return Err("exports _start: it is a WASI command (a program with main), and a bot is a reactor \
                    (C: -mexec-model=reactor; Rust: a cdylib)"
            .into());
    }
    match module.get_export("_initialize") {
        None => {}
        Some(ExternType::Func(f)) if f.params().len() == 0 && f.results().len() == 0 => {}
        Some(_) => return Err("exports _initialize, but not as a function () -> ()".into()),
    }
    match module.get_export("memory") {
        Some(ExternType::Memory(m)) if !m.is_64() => {}
        Some(ExternType::Memory(_)) => return Err("exports a 64-bit memory; the ABI wants a 32-bit one".into()),
        _ => return Err("exports no memory called \"memory\"".into()),
    }
    for (name, params, results) in EXPORTS {
        let want = type_text(params, results);
        match module.get_export(name) {
            Some(ExternType::Func(f)) => {
                let got = type_text(&f.params().collect::<Vec<_>>(), &f.results().collect::<Vec<_>>());
                if got != want {
                    return Err(format!("exports {name} as {got}, but the ABI has {name}{want}"));
                }
            }
            Some(_) => return Err(format!("exports {name}, but not as a function {want}")),
            None => return Err(format!("exports no function {name}{want}")),
        }
    }
    Ok(())
}

/// Calls `lc_abi_version` in a throwaway instance, under a small budget.
fn check_version(compiled: &Compiled) -> Result<(), String> {
    let engine = compiled.pre.module().engine();
    let output = wasi::Output::new(0);
    let mut store = new_store(engine, compiled, BotLog::discard(), &output, 0, 64 << 20);
    let fuel = store.set_fuel(CHECK_FUEL).is_ok().then_some(CHECK_FUEL);
    store.set_epoch_deadline(ticks(Duration::from_secs(5)));
    let _running = Running::start();
    let instance =
        compiled.pre.instantiate(&mut store).map_err(|e| format!("cannot be started: {}", fault_text(&e, fuel)))?;
    let version = instance
        .get_typed_func::<(), i32>(&mut store, "lc_abi_version")
        .and_then(|f| f.call(&mut store, ()))
        .map_err(|e| format!("lc_abi_version failed: {}", fault_text(&e, fuel)))?;
    if version != ABI_VERSION {
        return Err(format!("speaks wasm bot ABI version {version}, this host version {ABI_VERSION}"));
    }
    Ok(())
}

/// What a store holds for its bot.
struct Guest {
    limits: StoreLimits,
    log: BotLog,
    /// Whether fuel is counted this call (else `fuel_left` gives -1).
    counted: bool,
    /// What the guest writes to its log (`lightcycles.log`, WASI's stdout
    /// and stderr), within [`GUEST_LOG_BYTES`] a game.
    output: wasi::Output,
    /// The WASI context, for a module that imports WASI.
    wasi: Option<wasmtime_wasi::p1::WasiP1Ctx>,
    /// The clock WASI's `clock_time_get` reads this answer.
    clock: wasi::Clock,
}

impl Guest {
    /// The WASI context (a sink one for a store made without, which only
    /// a module without WASI imports has, and which never asks).
    fn wasi(&mut self) -> &mut wasmtime_wasi::p1::WasiP1Ctx {
        self.wasi.get_or_insert_with(|| wasi::context(&wasi::Output::new(0), 0))
    }

    #[cfg(test)]
    fn for_test() -> Guest {
        Guest {
            limits: StoreLimitsBuilder::new().build(),
            log: BotLog::discard(),
            counted: false,
            output: wasi::Output::new(0),
            wasi: None,
            clock: wasi::Clock::Host { since: Instant::now() },
        }
    }
}

/// The most a guest writes to its log in one game: through `lightcycles.log`
/// and WASI's stdout and stderr together.
const GUEST_LOG_BYTES: usize = 1 << 20;

/// A store for one instance of `compiled`: memory capped at `memory_bytes`,
/// a WASI context when the module imports WASI.
fn new_store(
    engine: &Engine,
    compiled: &Compiled,
    log: BotLog,
    output: &wasi::Output,
    seed: u64,
    memory_bytes: usize,
) -> Store<Guest> {
    // Tables live in the host's memory, outside the cap on linear memory:
    // bound them too (a Rust or C bot has one of a few hundred entries).
    let limits = StoreLimitsBuilder::new()
        .memory_size(memory_bytes)
        .instances(1)
        .memories(1)
        .tables(4)
        .table_elements(1 << 20)
        .build();
    let wasi = compiled.wasi.then(|| wasi::context(output, seed));
    let guest = Guest {
        limits,
        log,
        counted: false,
        output: output.clone(),
        wasi,
        clock: wasi::Clock::Host { since: Instant::now() },
    };
    let mut store = Store::new(engine, guest);
    store.limiter(|g| &mut g.limits);
    store.epoch_deadline_trap();
    store
}

/// The host functions a bot may import.
fn linker(engine: &Engine) -> wasmtime::Result<Linker<Guest>> {
    let mut linker = Linker::new(engine);
    linker.func_wrap("lightcycles", "fuel_left", |caller: Caller<'_, Guest>| -> i64 {
        if !caller.data().counted {
            return -1;
        }
        caller.get_fuel().map_or(-1, |f| i64::try_from(f).unwrap_or(i64::MAX))
    })?;
    linker.func_wrap("lightcycles", "log", |mut caller: Caller<'_, Guest>, ptr: i32, len: i32| {
        let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else { return };
        let (start, len) = (ptr as u32 as usize, len as u32 as usize);
        let data = memory.data(&caller);
        if start.checked_add(len).map_or(true, |end| end > data.len()) {
            return;
        }
        let guest = caller.data();
        // What WASI's stdout and stderr gathered first: the log keeps the
        // order the guest wrote in.
        guest.output.flush(&guest.log);
        let take = guest.output.take_room(len);
        if take > 0 {
            guest.output.line(&guest.log, &data[start..start + take]);
        }
    })?;
    wasi::add_to_linker(&mut linker)?;
    Ok(linker)
}

/// Epoch ticks for `time`, rounded up, one more for the tick under way.
fn ticks(time: Duration) -> u64 {
    let epoch = EPOCH.as_nanos();
    u64::try_from(time.as_nanos().div_ceil(epoch)).unwrap_or(u64::MAX / 2).saturating_add(1)
}

/// How a failed call is recorded.
#[derive(Debug, PartialEq, Eq)]
enum Fault {
    /// Out of fuel or stopped by the backstop.
    Timeout,
    /// A trap or a broken promise of the ABI.
    Crash,
}

fn fault_of(error: &wasmtime::Error) -> Fault {
    match error.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) | Some(Trap::Interrupt) => Fault::Timeout,
        _ => Fault::Crash,
    }
}

/// A failed call in words, for the log.
fn fault_text(error: &wasmtime::Error, fuel: Option<u64>) -> String {
    match (error.downcast_ref::<Trap>(), fuel) {
        (Some(Trap::OutOfFuel), Some(fuel)) => format!("used up its fuel ({fuel})"),
        (Some(Trap::Interrupt), Some(_)) => {
            "still running at the wall-clock backstop (10 times the limit and 1 s), stopped".to_string()
        }
        (Some(Trap::Interrupt), None) => "still running at its time limit, stopped".to_string(),
        (Some(trap), _) => format!("trapped: {trap}"),
        (None, _) => match error.downcast_ref::<wasmtime_wasi::I32Exit>() {
            Some(exit) => format!("called proc_exit({})", exit.0),
            None => first_line(&format!("{error}")),
        },
    }
}

/// Makes a [`WasmBot`] for each game and seat from one compiled module.
pub struct WasmFactory {
    compiled: Compiled,
    path: PathBuf,
    log: Option<LogPlace>,
    memory_bytes: usize,
    budget: WasmBudget,
}

impl WasmFactory {
    /// The factory of the module at `path`, compiled (or found compiled) and
    /// checked; memory capped at `memory_mb` MiB (0: the 4 GiB of wasm32).
    pub fn new(path: &Path, log: Option<LogPlace>, memory_mb: u64, budget: WasmBudget) -> Result<WasmFactory, String> {
        WasmFactory::of(path, compiled(path, budget.fuel_per_tick.is_some())?, log, memory_mb, budget)
    }

    /// [`WasmFactory::new`] for a module in memory, called `name` in
    /// messages (the bench's trivial bot).
    pub fn from_bytes(name: &str, bytes: &[u8], memory_mb: u64, budget: WasmBudget) -> Result<WasmFactory, String> {
        let path = Path::new(name);
        let compiled = compiled_bytes(path, bytes.to_vec(), budget.fuel_per_tick.is_some())?;
        WasmFactory::of(path, compiled, None, memory_mb, budget)
    }

    fn of(
        path: &Path,
        compiled: Compiled,
        log: Option<LogPlace>,
        memory_mb: u64,
        budget: WasmBudget,
    ) -> Result<WasmFactory, String> {
        let memory_bytes = match memory_mb {
            0 => 4 << 30,
            mb => usize::try_from(mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        };
        Ok(WasmFactory { compiled, path: path.to_path_buf(), log, memory_bytes, budget })
    }
}

impl BotFactory for WasmFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        Ok(Box::new(WasmBot {
            compiled: self.compiled.clone(),
            log_place: self.log.clone(),
            ctx: *ctx,
            memory_bytes: self.memory_bytes,
            budget: self.budget,
            seed: bot_seed(ctx.seed, ctx.seat),
            live: None,
            log: None,
            output: wasi::Output::new(GUEST_LOG_BYTES),
            clock_ns: 0,
            born: Instant::now(),
            spent: None,
            record: Vec::new(),
            what: self.path.display().to_string(),
        }))
    }
}

/// A running instance: its store, memory, move function and buffer.
struct Live {
    store: Store<Guest>,
    memory: Memory,
    choose: TypedFunc<(i32, i32), i32>,
    /// Where the observation goes in guest memory, and for how many bytes.
    buffer: (usize, usize),
}

/// One seat of one game played by a wasm module.
pub struct WasmBot {
    compiled: Compiled,
    log_place: Option<LogPlace>,
    ctx: BotContext,
    memory_bytes: usize,
    budget: WasmBudget,
    seed: u64,
    live: Option<Live>,
    /// The bot's log, opened on its first tick (and handed back by a dead
    /// instance's store).
    log: Option<BotLog>,
    /// What the guest writes to its log, for the whole game.
    output: wasi::Output,
    /// Under fuel, the game's virtual time when this answer begins (ns):
    /// the limits of the answers before it, added up.
    clock_ns: u64,
    /// When the bot was made: the zero of WASI's monotonic clock without fuel.
    born: Instant,
    /// Under fuel, the time the last answer's fuel stands for
    /// ([`Bot::last_answer`]: what a time bank is charged).
    spent: Option<Duration>,
    /// The observation record, rebuilt each tick in the same allocation.
    record: Vec<u8>,
    what: String,
}

impl std::fmt::Debug for WasmBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmBot").field("module", &self.what).field("ctx", &self.ctx).finish()
    }
}

/// Why a tick failed: its fault, and a note for the log.
type Failed = (Fault, String);

impl WasmBot {
    /// Instantiates the module (its start function runs), calls `lc_new`
    /// and `lc_buffer`: all on the store's fuel and deadline, set by the
    /// caller, which `lc_move` then shares.
    fn start(&mut self, mut store: Store<Guest>, fuel: Option<u64>, len: usize) -> Result<Live, (Failed, BotLog)> {
        let fail = |store: Store<Guest>, f: Failed| (f, store.into_data().log);
        let instance: Instance = match self.compiled.pre.instantiate(&mut store) {
            Ok(i) => i,
            Err(e) => {
                let f = (fault_of(&e), format!("cannot start: {}", fault_text(&e, fuel)));
                return Err(fail(store, f));
            }
        };
        if self.compiled.initialize {
            let init =
                instance.get_typed_func::<(), ()>(&mut store, "_initialize").and_then(|f| f.call(&mut store, ()));
            if let Err(e) = init {
                return Err(fail(store, (fault_of(&e), format!("_initialize: {}", fault_text(&e, fuel)))));
            }
        }
        let funcs = (|| -> wasmtime::Result<_> {
            let memory = instance.get_memory(&mut store, "memory").ok_or_else(|| wasmtime::format_err!("no memory"))?;
            let new = instance.get_typed_func::<i64, i32>(&mut store, "lc_new")?;
            let buffer = instance.get_typed_func::<i32, i32>(&mut store, "lc_buffer")?;
            let choose = instance.get_typed_func::<(i32, i32), i32>(&mut store, "lc_move")?;
            Ok((memory, new, buffer, choose))
        })();
        let (memory, new, buffer, choose) = match funcs {
            Ok(f) => f,
            Err(e) => return Err(fail(store, (Fault::Crash, format!("{e}")))),
        };
        match new.call(&mut store, self.seed as i64) {
            Ok(0) => {}
            Ok(code) => return Err(fail(store, (Fault::Crash, format!("lc_new returned {code}, not 0")))),
            Err(e) => return Err(fail(store, (fault_of(&e), format!("lc_new: {}", fault_text(&e, fuel))))),
        }
        let ptr = match buffer.call(&mut store, len as i32) {
            Ok(ptr) => ptr as u32 as usize,
            Err(e) => return Err(fail(store, (fault_of(&e), format!("lc_buffer: {}", fault_text(&e, fuel))))),
        };
        if ptr == 0 || ptr.checked_add(len).map_or(true, |end| end > memory.data_size(&store)) {
            let f = (
                Fault::Crash,
                format!(
                    "lc_buffer({len}) gave address {ptr}, not {len} bytes inside its memory of {} bytes",
                    memory.data_size(&store)
                ),
            );
            return Err(fail(store, f));
        }
        Ok(Live { store, memory, choose, buffer: (ptr, len) })
    }

    /// The answer to `turn`, or the fault and its note.
    fn play(&mut self, turn: &Turn<'_>, limit: Duration) -> Result<Reply, Failed> {
        let fuel = self.budget.fuel(limit);
        encode(turn, limit.saturating_sub(Duration::from_millis(self.budget.margin_ms)), fuel, &mut self.record);
        let len = self.record.len();
        let deadline = ticks(self.budget.backstop(limit));
        let _running = Running::start();
        let clock = match (fuel, self.budget.fuel_per_tick) {
            (Some(fuel), Some(per_tick)) => wasi::Clock::Virtual {
                start: self.clock_ns,
                fuel_at_start: fuel,
                ns: if self.budget.tick_ms == 0 { 50 } else { self.budget.tick_ms }.saturating_mul(1_000_000),
                per: per_tick,
            },
            _ => wasi::Clock::Host { since: self.born },
        };
        self.clock_ns = self.clock_ns.saturating_add(u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX));
        let mut live = match self.live.take() {
            Some(mut live) => {
                set_budget(&mut live.store, fuel, deadline, clock);
                live
            }
            None => {
                let log = self.log.take().unwrap_or_else(BotLog::discard);
                let engine = self.compiled.pre.module().engine();
                let mut store = new_store(engine, &self.compiled, log, &self.output, self.seed, self.memory_bytes);
                set_budget(&mut store, fuel, deadline, clock);
                match self.start(store, fuel, len) {
                    Ok(live) => live,
                    Err((failed, log)) => {
                        self.log = Some(log);
                        return Err(failed);
                    }
                }
            }
        };
        if live.buffer.1 != len {
            // The board and the players never change within a game.
            self.log = Some(live.store.into_data().log);
            return Err((Fault::Crash, format!("the observation grew from {} to {len} bytes", live.buffer.1)));
        }
        let (ptr, _) = live.buffer;
        let written = live
            .memory
            .data_mut(&mut live.store)
            .get_mut(ptr..ptr + len)
            .map(|dst| dst.copy_from_slice(&self.record))
            .is_some();
        if !written {
            self.log = Some(live.store.into_data().log);
            return Err((Fault::Crash, format!("its buffer at {ptr} no longer holds {len} bytes")));
        }
        match live.choose.call(&mut live.store, (ptr as i32, len as i32)) {
            Ok(code) => {
                self.live = Some(live);
                Ok(reply_of_code(code))
            }
            Err(e) => {
                let note = format!("lc_move: {}", fault_text(&e, fuel));
                self.log = Some(live.store.into_data().log);
                Err((fault_of(&e), note))
            }
        }
    }
}

fn set_budget(store: &mut Store<Guest>, fuel: Option<u64>, deadline: u64, clock: wasi::Clock) {
    let guest = store.data_mut();
    guest.counted = fuel.is_some();
    guest.clock = clock;
    // Without a budget the bot runs on the engine that counts no fuel
    // (setting it fails there, harmlessly), and the clock stops it.
    let _ = store.set_fuel(fuel.unwrap_or(u64::MAX));
    store.set_epoch_deadline(deadline);
}

impl Bot for WasmBot {
    fn take_said(&mut self) -> Option<SaidTick> {
        self.output.said().take()
    }

    fn last_answer(&self) -> Option<Duration> {
        self.spent
    }

    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        if self.log.is_none() && self.live.is_none() {
            self.log = Some(BotLog::open(self.log_place.as_ref(), self.ctx.game, self.ctx.seat));
        }
        let started = Instant::now();
        let result = self.play(turn, limit);
        let took = started.elapsed();
        // Under fuel an answer's time is its fuel, as the budget counts it
        // (so a time bank is spent alike on every machine); a trap spends
        // none, and used-up fuel is a timeout, which empties the bank.
        self.spent = match (&result, self.budget.fuel(limit), &self.live) {
            (Ok(_), Some(fuel), Some(live)) => {
                Some(self.budget.time_of_fuel(fuel - live.store.get_fuel().unwrap_or(0)))
            }
            (Err((Fault::Crash, _)), Some(_), _) => Some(Duration::ZERO),
            _ => None,
        };
        // What the guest wrote to stdout and stderr in this answer, before
        // the host's note on it.
        if let Some(log) = self.live.as_ref().map(|l| &l.store.data().log).or(self.log.as_ref()) {
            self.output.flush(log);
        }
        let timed_by_clock = self.budget.fuel_per_tick.is_none();
        let note = |bot: &WasmBot, text: &str| {
            let log = bot.live.as_ref().map(|l| &l.store.data().log).or(bot.log.as_ref());
            if let Some(log) = log {
                log.note(&format!("tick {}: {text}", turn.tick()));
            }
        };
        match result {
            Ok(_) if timed_by_clock && took > limit => {
                note(self, &format!("no answer within {} ms", limit.as_millis()));
                Reply::Timeout
            }
            Ok(reply) => reply,
            Err((fault, text)) => {
                note(self, &format!("{text}; the next tick starts a fresh instance"));
                match fault {
                    Fault::Timeout => Reply::Timeout,
                    Fault::Crash => Reply::Crash,
                }
            }
        }
    }
}

/// The observation record of ABI version 1, little-endian, into `out`:
///
/// | offset | type | field |
/// | --- | --- | --- |
/// | 0 | u32 | tick being decided (1 on the first decision) |
/// | 4 | u32 | max_ticks |
/// | 8 | u32 | width |
/// | 12 | u32 | height |
/// | 16 | u32 | you |
/// | 20 | u32 | players (n) |
/// | 24 | u32 | this answer's time limit in ms |
/// | 28 | u32 | flags: bit 0 set when fuel is counted |
/// | 32 | u64 | this answer's fuel (0 when timed by the clock) |
/// | 40 | n × 20 bytes | per player: x, y, dir (0 N, 1 E, 2 S, 3 W), alive (0 or 1), trail (cells, head included), each u32 |
/// | 40 + 20n | width × height i8 | the grid, row-major: -1 empty, -2 rock, p a trail of player p |
pub fn encode(turn: &Turn<'_>, limit: Duration, fuel: Option<u64>, out: &mut Vec<u8>) {
    let position = turn.position();
    let config = &position.config;
    out.clear();
    let mut put = |v: u32| out.extend_from_slice(&v.to_le_bytes());
    put(turn.tick());
    put(config.max_ticks);
    put(config.width);
    put(config.height);
    put(turn.you() as u32);
    put(position.players.len() as u32);
    put(u32::try_from(limit.as_millis()).unwrap_or(u32::MAX));
    put(u32::from(fuel.is_some()));
    out.extend_from_slice(&fuel.unwrap_or(0).to_le_bytes());
    for p in &position.players {
        for v in [u32::from(p.pos.x), u32::from(p.pos.y), u32::from(p.dir.code()), u32::from(p.alive), p.trail] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend(position.grid.iter().map(|&c| c as u8));
}

/// `wasm:PATH` and `PATH.wasm`.
pub struct WasmAdapter;

impl Adapter for WasmAdapter {
    fn form(&self) -> &'static str {
        "WebAssembly bots (wasm:PATH.wasm)"
    }

    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        if let Some(path) = form.strip_prefix("wasm:") {
            if path.trim().is_empty() {
                let reason = "wasm: needs the path of a .wasm file after the colon".to_string();
                return Some(Err(SpecError::Unusable { arg: arg.to_string(), reason }));
            }
            return Some(Ok(path.to_string()));
        }
        path_ending_in(form, &["wasm"]).map(Ok)
    }

    fn default_name(&self, target: &str) -> String {
        file_stem_name(Path::new(target)).unwrap_or_else(|| "wasm".to_string())
    }

    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        let factory = WasmFactory::new(Path::new(target), log, hosting.sandbox.memory_mb, hosting.wasm)?;
        Ok(Arc::new(factory))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Config, Engine as _, ReferenceGame};

    #[test]
    fn fuel_follows_the_limit_less_the_margin() {
        let budget = WasmBudget { fuel_per_tick: Some(1000), tick_ms: 50, margin_ms: 5 };
        assert_eq!(budget.fuel(Duration::from_millis(55)), Some(1000));
        assert_eq!(budget.fuel(Duration::from_millis(1005)), Some(20_000));
        assert_eq!(WasmBudget::default().fuel(Duration::from_millis(50)), None);
        assert_eq!(budget.backstop(Duration::from_millis(50)), Duration::from_millis(1500));
        assert_eq!(WasmBudget::default().backstop(Duration::from_millis(50)), Duration::from_millis(50));
        assert_eq!(budget.time_of_fuel(1000), Duration::from_millis(50), "fuel back into time");
        assert_eq!(budget.time_of_fuel(1500), Duration::from_millis(75));
        assert_eq!(WasmBudget::default().time_of_fuel(1000), Duration::ZERO);
    }

    #[test]
    fn the_record_is_the_documented_layout() {
        let game = ReferenceGame::seeded(&Config::default(), 3).unwrap();
        let position = game.position();
        let mut out = Vec::new();
        encode(&Turn::new(&position, 1), Duration::from_millis(50), Some(7), &mut out);
        let u32_at = |i: usize| u32::from_le_bytes(out[i..i + 4].try_into().unwrap());
        assert_eq!(out.len(), HEADER_BYTES + 2 * PLAYER_BYTES + 48 * 36);
        assert_eq!(
            [u32_at(0), u32_at(8), u32_at(12), u32_at(16), u32_at(20), u32_at(24), u32_at(28)],
            [1, 48, 36, 1, 2, 50, 1]
        );
        assert_eq!(u64::from_le_bytes(out[32..40].try_into().unwrap()), 7);
        let p1 = position.players[1];
        let at = HEADER_BYTES + PLAYER_BYTES;
        assert_eq!((u32_at(at), u32_at(at + 4), u32_at(at + 16)), (u32::from(p1.pos.x), u32::from(p1.pos.y), 1));
        let grid = &out[HEADER_BYTES + 2 * PLAYER_BYTES..];
        assert!(grid.iter().zip(&position.grid).all(|(&b, &c)| b as i8 == c));
    }
}
