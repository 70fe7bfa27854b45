//! The guest side of the host's `wasm:PATH.wasm` adapter: a bot is a
//! [`WasmBot`] impl and one [`export_bot!`], and this crate speaks version
//! [`ABI_VERSION`] of the guest ABI (docs/wasm-bots.md) for it.
//!
//! `no_std` and without dependencies, so a bot pays only for what it uses;
//! a bot may still use `std` (it exists on `wasm32-unknown-unknown`, without
//! files, clock or threads). The observation is read in place from the
//! record the host writes ([`View`]), with no parsing and no allocation.
#![no_std]

use core::cell::UnsafeCell;

/// The guest ABI version this crate speaks.
pub const ABI_VERSION: i32 = 1;

/// The bytes before the players in an observation record.
pub const HEADER_BYTES: usize = 40;
/// The bytes of one player in an observation record.
pub const PLAYER_BYTES: usize = 20;
/// The largest record: 8 players on a 255 × 255 board.
pub const MAX_RECORD_BYTES: usize = HEADER_BYTES + 8 * PLAYER_BYTES + 255 * 255;

/// A cell value: empty.
pub const EMPTY: i8 = -1;
/// A cell value: rock.
pub const ROCK: i8 = -2;

/// A direction, with the code the ABI gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up, y − 1.
    N = 0,
    /// Right, x + 1.
    E = 1,
    /// Down, y + 1.
    S = 2,
    /// Left, x − 1.
    W = 3,
}

impl Dir {
    /// Every direction, by code.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction of a code 0 to 3.
    pub fn from_code(code: u32) -> Option<Dir> {
        Dir::ALL.get(code as usize).copied()
    }

    /// The way back.
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 4]
    }

    /// The step (dx, dy) of one move.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }
}

/// One player as the record shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Head column (the last head of a dead player).
    pub x: u32,
    /// Head row.
    pub y: u32,
    /// Current direction.
    pub dir: Dir,
    /// Whether the player still rides.
    pub alive: bool,
    /// Trail length in cells, head included (a trail of 2 or more has a
    /// neck: asking to reverse keeps the direction).
    pub trail: u32,
}

/// An observation record, read in place.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    bytes: &'a [u8],
}

/// Why bytes are not a record of this ABI version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadRecord;

impl<'a> View<'a> {
    /// The record in `bytes`, checked for its length and its directions.
    pub fn new(bytes: &'a [u8]) -> Result<View<'a>, BadRecord> {
        if bytes.len() < HEADER_BYTES {
            return Err(BadRecord);
        }
        let view = View { bytes };
        let (w, h, n) = (view.u32_at(8) as usize, view.u32_at(12) as usize, view.u32_at(20) as usize);
        if n == 0 || n > 8 || view.u32_at(16) as usize >= n {
            return Err(BadRecord);
        }
        if bytes.len() != HEADER_BYTES + n * PLAYER_BYTES + w * h {
            return Err(BadRecord);
        }
        if (0..n).any(|i| view.u32_at(HEADER_BYTES + i * PLAYER_BYTES + 8) > 3) {
            return Err(BadRecord);
        }
        Ok(view)
    }

    fn u32_at(&self, at: usize) -> u32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.bytes[at..at + 4]);
        u32::from_le_bytes(b)
    }

    /// The tick being decided: 1 on the first decision.
    pub fn tick(&self) -> u32 {
        self.u32_at(0)
    }
    /// The tick cap.
    pub fn max_ticks(&self) -> u32 {
        self.u32_at(4)
    }
    /// Board width.
    pub fn width(&self) -> u32 {
        self.u32_at(8)
    }
    /// Board height.
    pub fn height(&self) -> u32 {
        self.u32_at(12)
    }
    /// The id of the player deciding.
    pub fn you(&self) -> usize {
        self.u32_at(16) as usize
    }
    /// Number of players, dead ones included.
    pub fn players(&self) -> usize {
        self.u32_at(20) as usize
    }
    /// This answer's time limit in milliseconds.
    pub fn time_limit_ms(&self) -> u32 {
        self.u32_at(24)
    }
    /// This answer's fuel, when the host counts fuel (`--fuel-per-tick`);
    /// `None` when the clock times it.
    pub fn fuel(&self) -> Option<u64> {
        if self.u32_at(28) & 1 == 0 {
            return None;
        }
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.bytes[32..40]);
        Some(u64::from_le_bytes(b))
    }
    /// Player `id` (below [`View::players`]).
    pub fn player(&self, id: usize) -> Player {
        let at = HEADER_BYTES + id * PLAYER_BYTES;
        Player {
            x: self.u32_at(at),
            y: self.u32_at(at + 4),
            dir: Dir::from_code(self.u32_at(at + 8)).unwrap_or(Dir::N),
            alive: self.u32_at(at + 12) != 0,
            trail: self.u32_at(at + 16),
        }
    }
    /// The deciding player.
    pub fn me(&self) -> Player {
        self.player(self.you())
    }
    /// The grid, row-major (`y * width + x`): [`EMPTY`], [`ROCK`] or the id
    /// of the player whose trail (head included) covers the cell.
    pub fn grid(&self) -> &'a [i8] {
        let start = HEADER_BYTES + self.players() * PLAYER_BYTES;
        let cells = &self.bytes[start..];
        // SAFETY: i8 and u8 have one layout.
        unsafe { core::slice::from_raw_parts(cells.as_ptr().cast::<i8>(), cells.len()) }
    }
    /// The cell at (x, y); `None` off the board.
    pub fn cell(&self, x: i32, y: i32) -> Option<i8> {
        let (w, h) = (self.width() as i32, self.height() as i32);
        if x < 0 || y < 0 || x >= w || y >= h {
            return None;
        }
        Some(self.grid()[(y * w + x) as usize])
    }
    /// The direction `asked` really gives the deciding player: a reversal
    /// into its neck keeps its direction (the rule book, section 7).
    pub fn effective(&self, asked: Dir) -> Dir {
        let me = self.me();
        if me.trail >= 2 && asked == me.dir.opposite() {
            me.dir
        } else {
            asked
        }
    }
    /// Whether riding `dir` now crashes at once (a wall, a rock, a trail, a
    /// head; head-ons with moves of this tick are not foreseen).
    pub fn crashes_at_once(&self, dir: Dir) -> bool {
        let me = self.me();
        let (dx, dy) = self.effective(dir).delta();
        self.cell(me.x as i32 + dx, me.y as i32 + dy) != Some(EMPTY)
    }
}

/// A bot: made once per game and seat with a seed of its own, asked for
/// one move per tick.
pub trait WasmBot: Sized {
    /// The bot of one game and seat. `seed` is the bot's own, the same for
    /// the same game seed and seat.
    fn new(seed: u64) -> Self;
    /// The move for the tick `view` shows; `None` keeps the direction
    /// without a fault.
    fn choose(&mut self, view: &View<'_>) -> Option<Dir>;
}

/// The fuel left in this answer's budget, when the host counts fuel
/// (`--fuel-per-tick`): a bot that thinks by steps checks it to stop in
/// time. `None` when the clock times it, or off wasm.
pub fn fuel_left() -> Option<u64> {
    #[cfg(target_family = "wasm")]
    {
        #[link(wasm_import_module = "lightcycles")]
        extern "C" {
            fn fuel_left() -> i64;
        }
        // SAFETY: a host function of the ABI, without arguments.
        let left = unsafe { fuel_left() };
        u64::try_from(left).ok()
    }
    #[cfg(not(target_family = "wasm"))]
    {
        None
    }
}

/// Writes a line to the bot's log (`-o DIR`: `DIR/logs/…`), up to 1 MiB a
/// game; nothing off wasm.
pub fn log(text: &str) {
    #[cfg(target_family = "wasm")]
    {
        #[link(wasm_import_module = "lightcycles")]
        extern "C" {
            fn log(ptr: *const u8, len: usize);
        }
        // SAFETY: the host reads `len` bytes at `ptr` of this memory.
        unsafe { log(text.as_ptr(), text.len()) }
    }
    #[cfg(not(target_family = "wasm"))]
    {
        let _ = text;
    }
}

/// The one bot of an instance and the buffer the host writes into, for
/// [`export_bot!`]: an instance runs one bot on one thread.
#[doc(hidden)]
pub struct Slot<T> {
    bot: UnsafeCell<Option<T>>,
    buffer: UnsafeCell<[u8; MAX_RECORD_BYTES]>,
}

// SAFETY: a wasm instance has one thread; the host calls one export at a time.
unsafe impl<T> Sync for Slot<T> {}

impl<T: WasmBot> Slot<T> {
    #[doc(hidden)]
    pub const fn new() -> Slot<T> {
        Slot { bot: UnsafeCell::new(None), buffer: UnsafeCell::new([0; MAX_RECORD_BYTES]) }
    }

    #[doc(hidden)]
    pub fn start(&self, seed: u64) -> i32 {
        // SAFETY: one call at a time (see the Sync impl).
        unsafe { *self.bot.get() = Some(T::new(seed)) };
        0
    }

    #[doc(hidden)]
    pub fn buffer(&self, len: i32) -> *mut u8 {
        if len < 0 || len as usize > MAX_RECORD_BYTES {
            return core::ptr::null_mut();
        }
        self.buffer.get().cast::<u8>()
    }

    #[doc(hidden)]
    pub fn choose(&self, ptr: *const u8, len: i32) -> i32 {
        if ptr != self.buffer.get().cast::<u8>().cast_const() || len < 0 || len as usize > MAX_RECORD_BYTES {
            return -2;
        }
        // The host wrote `len` bytes into our buffer (`ptr` was checked to
        // be it): read them from the buffer itself.
        // SAFETY: one call at a time (see the Sync impl).
        let buffer: &[u8; MAX_RECORD_BYTES] = unsafe { &*self.buffer.get() };
        let bytes = &buffer[..len as usize];
        let Ok(view) = View::new(bytes) else { return -3 };
        // SAFETY: one call at a time.
        match unsafe { &mut *self.bot.get() } {
            Some(bot) => bot.choose(&view).map_or(-1, |d| d as i32),
            None => -4,
        }
    }
}

/// Exports `$bot` (a [`WasmBot`]) with the functions of the guest ABI:
/// `lc_abi_version`, `lc_new`, `lc_buffer` and `lc_move`. Once per `cdylib`.
#[macro_export]
macro_rules! export_bot {
    ($bot:ty) => {
        static LC_SLOT: $crate::Slot<$bot> = $crate::Slot::new();

        #[no_mangle]
        pub extern "C" fn lc_abi_version() -> i32 {
            $crate::ABI_VERSION
        }

        #[no_mangle]
        pub extern "C" fn lc_new(seed: i64) -> i32 {
            LC_SLOT.start(seed as u64)
        }

        #[no_mangle]
        pub extern "C" fn lc_buffer(len: i32) -> *mut u8 {
            LC_SLOT.buffer(len)
        }

        #[no_mangle]
        pub extern "C" fn lc_move(ptr: *const u8, len: i32) -> i32 {
            LC_SLOT.choose(ptr, len)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of two players on a 3 × 2 board.
    fn record() -> [u8; HEADER_BYTES + 2 * PLAYER_BYTES + 6] {
        let mut r = [0u8; HEADER_BYTES + 2 * PLAYER_BYTES + 6];
        let mut put = |at: usize, v: u32| r[at..at + 4].copy_from_slice(&v.to_le_bytes());
        for (at, v) in [(0, 5), (4, 100), (8, 3), (12, 2), (16, 1), (20, 2), (24, 50), (28, 1)] {
            put(at, v);
        }
        // Player 0 at (0, 0) facing S; player 1 at (2, 1) facing W, trail 3.
        for (at, v) in [(40, 0), (44, 0), (48, 2), (52, 1), (56, 1), (60, 2), (64, 1), (68, 3), (72, 1), (76, 3)] {
            put(at, v);
        }
        r[32..40].copy_from_slice(&777u64.to_le_bytes());
        let grid = [0i8, ROCK, EMPTY, EMPTY, 1, 1];
        for (i, c) in grid.iter().enumerate() {
            r[80 + i] = *c as u8;
        }
        r
    }

    #[test]
    fn a_record_is_read_in_place() {
        let r = record();
        let v = View::new(&r).unwrap();
        assert_eq!((v.tick(), v.max_ticks(), v.width(), v.height(), v.you(), v.players()), (5, 100, 3, 2, 1, 2));
        assert_eq!((v.time_limit_ms(), v.fuel()), (50, Some(777)));
        assert_eq!(v.me(), Player { x: 2, y: 1, dir: Dir::W, alive: true, trail: 3 });
        assert_eq!(v.cell(1, 0), Some(ROCK));
        assert_eq!(v.cell(3, 0), None);
        assert_eq!(v.effective(Dir::E), Dir::W, "no reversal into the neck");
        assert!(!v.crashes_at_once(Dir::N));
        assert!(v.crashes_at_once(Dir::S), "off the board");
        assert!(v.crashes_at_once(Dir::W), "its own trail");
    }

    #[test]
    fn a_record_of_the_wrong_shape_is_refused() {
        let r = record();
        assert_eq!(View::new(&r[..r.len() - 1]).unwrap_err(), BadRecord);
        assert_eq!(View::new(&r[..10]).unwrap_err(), BadRecord);
        let mut bad = r;
        bad[48] = 9;
        assert_eq!(View::new(&bad).unwrap_err(), BadRecord);
    }
}
