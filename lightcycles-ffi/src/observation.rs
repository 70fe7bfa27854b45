//! The observation of docs/RULES.md section 5 as a plain C struct: what a bot
//! plugin receives each tick, and what `lc_game_from_observation` rebuilds a
//! game from. The [`ObservationBuffer`] builds one safely from Rust.

use core::ffi::c_char;
use core::fmt;
use core::mem::size_of;

use lightcycles_core::observation::{Observation, PlayerView};
use lightcycles_core::{CellValue, Dir, Engine, FaultPolicy, Pos, PositionError};

use crate::error::{check_struct_size, FfiError, FfiResult, MAX_STRUCT_SIZE};
use crate::status::LcStatus;

/// One player as a bot sees it. Element `i` of `LcObservation.players` is
/// player `i`; step from one element to the next by
/// `LcObservation.player_size` bytes, not by `sizeof(LcPlayerView)`, so that
/// a later version can add fields at the end.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LcPlayerView {
    /// The player's id (its index).
    pub id: u32,
    /// Head column (the last head of a dead player).
    pub x: u32,
    /// Head row.
    pub y: u32,
    /// Current direction, 0 N, 1 E, 2 S, 3 W.
    pub dir: u32,
    /// 1 while the player rides, 0 once it is eliminated.
    pub alive: u32,
}

/// The whole, exact state sent to a bot before a tick (docs/RULES.md section 5).
///
/// Read fields only when `struct_size` covers them, and step through
/// `players` by `player_size`: both let an older plugin read a newer
/// observation and the other way round. Everything the pointers point to is
/// owned by whoever made the observation (the host, or
/// `lc_observation_from_json`); a plugin must copy what it keeps past the
/// call that received it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LcObservation {
    /// `sizeof(LcObservation)` as the producer knows it.
    pub struct_size: u32,
    /// `sizeof(LcPlayerView)` as the producer knows it: the stride of `players`.
    pub player_size: u32,
    /// The tick being decided: 1 on the first decision.
    pub tick: u32,
    /// The tick cap.
    pub max_ticks: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The id of the player this observation is for.
    pub you: u32,
    /// Number of players (elements of `players`), dead ones included.
    pub num_players: u32,
    /// The time the bot has to answer this tick in milliseconds, 0 when
    /// unknown (a bot should then pick a budget of its own).
    pub time_limit_ms: u32,
    /// Zero; keeps the pointers 8-byte aligned on every platform.
    pub reserved: u32,
    /// `num_players` elements, `player_size` bytes apart.
    pub players: *const LcPlayerView,
    /// `width * height` cell values, row-major (`grid[y * width + x]`):
    /// -1 empty, -2 rock, `p >= 0` a trail (head included) of player `p`.
    pub grid: *const CellValue,
}

/// Size of the first version of [`LcObservation`].
pub const OBSERVATION_V1_SIZE: usize = size_of::<LcObservation>();
/// Size of the first version of [`LcPlayerView`].
pub const PLAYER_VIEW_V1_SIZE: usize = size_of::<LcPlayerView>();

/// Why an [`Observation`] cannot be handed to C.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObservationError {
    /// The state it shows breaks a rule (grid shape, cell values, heads…).
    Position(PositionError),
    /// `you` is not a player of the observation.
    You {
        /// The `you` field.
        you: usize,
        /// Number of players.
        players: usize,
    },
}

impl fmt::Display for ObservationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObservationError::Position(e) => write!(f, "{e}"),
            ObservationError::You { you, players } => write!(f, "you = {you} is not a player id below {players}"),
        }
    }
}

impl std::error::Error for ObservationError {}

/// An [`LcObservation`] with the arrays it points to, owned by Rust. The
/// pointers in [`ObservationBuffer::raw`] stay valid as long as the buffer
/// lives, even when the buffer itself is moved.
///
/// A host builds one per game and refreshes it each tick with
/// [`ObservationBuffer::update_from_engine`] (no allocation after the first
/// tick), then passes [`ObservationBuffer::as_ptr`] to a plugin.
#[repr(C)]
#[derive(Debug)]
pub struct ObservationBuffer {
    // First field: `lc_observation_free` turns a pointer to it back into the buffer.
    raw: LcObservation,
    players: Vec<LcPlayerView>,
    grid: Vec<CellValue>,
}

// SAFETY: the raw pointers only point into the buffer's own vectors.
unsafe impl Send for ObservationBuffer {}
// SAFETY: shared access only reads.
unsafe impl Sync for ObservationBuffer {}

impl Default for ObservationBuffer {
    fn default() -> Self {
        let mut buffer = ObservationBuffer {
            raw: LcObservation {
                struct_size: OBSERVATION_V1_SIZE as u32,
                player_size: PLAYER_VIEW_V1_SIZE as u32,
                tick: 0,
                max_ticks: 0,
                width: 0,
                height: 0,
                you: 0,
                num_players: 0,
                time_limit_ms: 0,
                reserved: 0,
                players: core::ptr::null(),
                grid: core::ptr::null(),
            },
            players: Vec::new(),
            grid: Vec::new(),
        };
        buffer.point_at_arrays();
        buffer
    }
}

impl Clone for ObservationBuffer {
    fn clone(&self) -> Self {
        let mut copy = ObservationBuffer { raw: self.raw, players: self.players.clone(), grid: self.grid.clone() };
        copy.point_at_arrays();
        copy
    }
}

fn view(id: usize, x: u32, y: u32, dir: Dir, alive: bool) -> LcPlayerView {
    LcPlayerView { id: id as u32, x, y, dir: dir.code() as u32, alive: alive as u32 }
}

impl ObservationBuffer {
    /// The observation of `engine` for player `you`.
    pub fn from_engine<E: Engine>(engine: &E, you: usize) -> Result<ObservationBuffer, ObservationError> {
        let mut buffer = ObservationBuffer::default();
        buffer.update_from_engine(engine, you)?;
        Ok(buffer)
    }

    /// Refreshes the buffer with `engine`'s state for player `you`, reusing
    /// its arrays (no allocation for a game of the same size). On error the
    /// buffer is left as it was.
    pub fn update_from_engine<E: Engine>(&mut self, engine: &E, you: usize) -> Result<(), ObservationError> {
        let n = engine.num_players();
        if you >= n {
            return Err(ObservationError::You { you, players: n });
        }
        let config = engine.config();
        self.players.clear();
        self.players.extend((0..n).map(|id| {
            let p = engine.player(id);
            view(id, p.pos.x as u32, p.pos.y as u32, p.dir, p.alive)
        }));
        self.grid.clear();
        for y in 0..config.height {
            for x in 0..config.width {
                self.grid.push(engine.cell(Pos::new(x as u8, y as u8)));
            }
        }
        self.raw.tick = engine.tick() + 1;
        self.raw.max_ticks = config.max_ticks;
        self.raw.width = config.width;
        self.raw.height = config.height;
        self.raw.you = you as u32;
        self.raw.num_players = n as u32;
        self.point_at_arrays();
        Ok(())
    }

    /// The C form of `obs`, checked first: a plugin may trust every count
    /// and index in it.
    pub fn from_observation(obs: &Observation) -> Result<ObservationBuffer, ObservationError> {
        obs.to_position(FaultPolicy::Straight).map_err(ObservationError::Position)?;
        if obs.you >= obs.players.len() {
            return Err(ObservationError::You { you: obs.you, players: obs.players.len() });
        }
        let mut buffer = ObservationBuffer {
            players: obs.players.iter().map(|p| view(p.id, p.x, p.y, p.dir, p.alive)).collect(),
            grid: obs.grid.iter().flatten().copied().collect(),
            ..ObservationBuffer::default()
        };
        buffer.raw.tick = obs.tick;
        buffer.raw.max_ticks = obs.max_ticks;
        buffer.raw.width = obs.width;
        buffer.raw.height = obs.height;
        buffer.raw.you = obs.you as u32;
        buffer.raw.num_players = obs.players.len() as u32;
        buffer.point_at_arrays();
        Ok(buffer)
    }

    /// Refreshes the buffer with `obs`, reusing its arrays (no allocation
    /// for a game of the same size), for a host that sends an observation
    /// every tick. It checks what a plugin may trust, every size, count,
    /// index and cell value, in one pass over the board, but not the
    /// rules' relations between them ([`from_observation`] does): the
    /// host's own observations are made from positions. On error the
    /// buffer is left as it was.
    ///
    /// [`from_observation`]: ObservationBuffer::from_observation
    pub fn update_from_observation(&mut self, obs: &Observation) -> Result<(), ObservationError> {
        let n = obs.players.len();
        if obs.you >= n {
            return Err(ObservationError::You { you: obs.you, players: n });
        }
        let (w, h) = (obs.width as usize, obs.height as usize);
        let shape_ok = obs.grid.len() == h && obs.grid.iter().all(|row| row.len() == w);
        let values_ok = obs.grid.iter().flatten().all(|&v| v >= lightcycles_core::ROCK && i64::from(v) < n as i64);
        let heads_ok = obs.players.iter().enumerate().all(|(id, p)| p.id == id && p.x < obs.width && p.y < obs.height);
        if !(shape_ok && values_ok && heads_ok && n <= lightcycles_core::config::MAX_PLAYERS) {
            // The full check names what is wrong.
            return Err(match obs.to_position(FaultPolicy::Straight) {
                Err(e) => ObservationError::Position(e),
                Ok(_) => ObservationError::Position(PositionError::GridSize {
                    len: obs.grid.iter().map(Vec::len).sum(),
                    cells: w * h,
                }),
            });
        }
        self.players.clear();
        self.players.extend(obs.players.iter().map(|p| view(p.id, p.x, p.y, p.dir, p.alive)));
        self.grid.clear();
        for row in &obs.grid {
            self.grid.extend_from_slice(row);
        }
        self.raw.tick = obs.tick;
        self.raw.max_ticks = obs.max_ticks;
        self.raw.width = obs.width;
        self.raw.height = obs.height;
        self.raw.you = obs.you as u32;
        self.raw.num_players = n as u32;
        self.point_at_arrays();
        Ok(())
    }

    /// Sets the player the observation is for: the same observation for
    /// another seat, without copying the board again.
    pub fn set_you(&mut self, you: usize) -> Result<(), ObservationError> {
        if you >= self.players.len() {
            return Err(ObservationError::You { you, players: self.players.len() });
        }
        self.raw.you = you as u32;
        Ok(())
    }

    /// Sets the time the bot has for this tick (0 = unknown).
    pub fn set_time_limit_ms(&mut self, ms: u32) {
        self.raw.time_limit_ms = ms;
    }

    /// The C struct; its pointers point into this buffer.
    pub fn raw(&self) -> &LcObservation {
        &self.raw
    }

    /// A pointer to pass to C, valid while the buffer is neither dropped nor changed.
    pub fn as_ptr(&self) -> *const LcObservation {
        &self.raw
    }

    /// The observation in the core's form (the JSON of docs/RULES.md section 5).
    pub fn to_observation(&self) -> Observation {
        let w = self.raw.width as usize;
        Observation {
            tick: self.raw.tick,
            max_ticks: self.raw.max_ticks,
            width: self.raw.width,
            height: self.raw.height,
            you: self.raw.you as usize,
            players: self
                .players
                .iter()
                .map(|p| PlayerView {
                    id: p.id as usize,
                    x: p.x,
                    y: p.y,
                    dir: Dir::from_code(p.dir).unwrap_or(Dir::N),
                    alive: p.alive != 0,
                })
                .collect(),
            grid: self.grid.chunks(w.max(1)).map(<[CellValue]>::to_vec).collect(),
            time_bank_ms: None,
        }
    }

    fn point_at_arrays(&mut self) {
        self.raw.players = self.players.as_ptr();
        self.raw.grid = self.grid.as_ptr();
    }
}

/// Reads a C observation made by anyone (a host, a test, another version),
/// checking every size, count and value before trusting a pointer.
///
/// # Safety
/// A non-null `obs` must point to a readable `LcObservation` prefix of
/// `struct_size` bytes whose non-null `players` and `grid` point to the
/// `num_players · player_size` bytes and `width · height` cells they claim.
pub(crate) unsafe fn read_observation(obs: *const LcObservation, arg: &str) -> FfiResult<Observation> {
    if obs.is_null() {
        return Err(FfiError::null(arg));
    }
    // SAFETY: non-null; the caller promises at least the first field is readable.
    let struct_size = unsafe { core::ptr::addr_of!((*obs).struct_size).read_unaligned() };
    check_struct_size(arg, struct_size, OBSERVATION_V1_SIZE)?;
    // SAFETY: struct_size covers the whole first version.
    let raw = unsafe { obs.read_unaligned() };
    let stride = raw.player_size as usize;
    if stride < PLAYER_VIEW_V1_SIZE || raw.player_size > MAX_STRUCT_SIZE {
        return Err(FfiError::new(
            LcStatus::StructSize,
            format_args!("{arg}->player_size = {}, expected at least {PLAYER_VIEW_V1_SIZE}", raw.player_size),
        ));
    }
    let range = |field: &str, value: u32, min: u32, max: u32| {
        if value < min || value > max {
            Err(FfiError::new(
                LcStatus::Position,
                format_args!("{arg}->{field} = {value} is out of range: allowed {min} to {max}"),
            ))
        } else {
            Ok(())
        }
    };
    range("width", raw.width, 8, 255)?;
    range("height", raw.height, 8, 255)?;
    range("num_players", raw.num_players, 2, 8)?;
    range("you", raw.you, 0, raw.num_players - 1)?;
    if raw.players.is_null() {
        return Err(FfiError::null(&format!("{arg}->players")));
    }
    if raw.grid.is_null() {
        return Err(FfiError::null(&format!("{arg}->grid")));
    }
    let mut players = Vec::with_capacity(raw.num_players as usize);
    for i in 0..raw.num_players as usize {
        // SAFETY: the caller promises num_players elements player_size bytes apart.
        let p = unsafe { raw.players.cast::<u8>().add(i * stride).cast::<LcPlayerView>().read_unaligned() };
        let dir = Dir::from_code(p.dir).ok_or_else(|| {
            FfiError::new(LcStatus::Position, format_args!("{arg}->players[{i}].dir = {} is not 0 to 3", p.dir))
        })?;
        if p.alive > 1 || p.id as usize != i {
            return Err(FfiError::new(
                LcStatus::Position,
                format_args!(
                    "{arg}->players[{i}]: id = {}, alive = {}, expected id {i} and alive 0 or 1",
                    p.id, p.alive
                ),
            ));
        }
        players.push(PlayerView { id: i, x: p.x, y: p.y, dir, alive: p.alive == 1 });
    }
    let (w, h) = (raw.width as usize, raw.height as usize);
    // SAFETY: the caller promises width * height cells at grid.
    let cells = unsafe { core::slice::from_raw_parts(raw.grid, w * h) };
    Ok(Observation {
        tick: raw.tick,
        max_ticks: raw.max_ticks,
        width: raw.width,
        height: raw.height,
        you: raw.you as usize,
        players,
        grid: cells.chunks(w).map(<[CellValue]>::to_vec).collect(),
        time_bank_ms: None,
    })
}

/// Reads the JSON observation of docs/RULES.md section 5 (one line, as the host
/// sends it to a program) into an `LcObservation` owned by the library.
///
/// `json` points to `len` bytes of UTF-8 (no terminating NUL needed). On
/// success `*out` receives the observation; free it with
/// `lc_observation_free`. On failure `*out` is set to NULL and the status
/// says why: `LC_STATUS_PARSE` (not UTF-8, not the JSON of section 5) or
/// `LC_STATUS_POSITION` (a state the rules cannot reach: grid shape, cell
/// values, heads, `you`).
///
/// # Safety
/// `json` must point to `len` readable bytes; `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn lc_observation_from_json(
    json: *const c_char,
    len: usize,
    out: *mut *const LcObservation,
) -> LcStatus {
    crate::error::guard("lc_observation_from_json", || {
        // SAFETY: the caller promises `out` is writable when non-null.
        let out = unsafe { crate::error::borrow_mut(out, "out") }?;
        *out = core::ptr::null();
        // SAFETY: the caller promises `len` readable bytes at `json`.
        let bytes = unsafe { crate::error::slice(json.cast::<u8>(), len, "json") }?;
        if json.is_null() {
            return Err(FfiError::null("json"));
        }
        let text = core::str::from_utf8(bytes)
            .map_err(|e| FfiError::new(LcStatus::Parse, format_args!("json is not UTF-8: {e}")))?;
        let obs: Observation = serde_json::from_str(text)
            .map_err(|e| FfiError::new(LcStatus::Parse, format_args!("json is not an observation: {e}")))?;
        let buffer = ObservationBuffer::from_observation(&obs)
            .map_err(|e| FfiError::new(LcStatus::Position, format_args!("json: {e}")))?;
        *out = Box::into_raw(Box::new(buffer)).cast_const().cast::<LcObservation>();
        Ok(())
    })
}

/// Frees an observation returned by `lc_observation_from_json`. NULL is
/// ignored. Never pass an observation made any other way (a host's, or one
/// on the stack): only the library's own can be freed here.
///
/// # Safety
/// `obs` must be NULL or a pointer from `lc_observation_from_json` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn lc_observation_free(obs: *const LcObservation) {
    if !obs.is_null() {
        // SAFETY: the pointer came from Box::into_raw of an ObservationBuffer,
        // whose first field (repr(C)) is the LcObservation.
        drop(unsafe { Box::from_raw(obs.cast_mut().cast::<ObservationBuffer>()) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Config, ReferenceGame};

    fn sample() -> ReferenceGame {
        let config = Config { width: 10, height: 9, players: 2, ..Config::default() };
        ReferenceGame::seeded(&config, 5).unwrap()
    }

    #[test]
    fn buffer_round_trips_an_engine() {
        let g = sample();
        let mut buffer = ObservationBuffer::from_engine(&g, 0).unwrap();
        buffer.set_you(1).unwrap();
        let obs = Observation::new(&g, 1);
        assert_eq!(buffer.to_observation(), obs);
        let moved = buffer; // pointers survive a move
        let back = unsafe { read_observation(moved.as_ptr(), "obs") }.unwrap();
        assert_eq!(back, obs);
        let copy = moved.clone();
        drop(moved);
        assert_eq!(unsafe { read_observation(copy.as_ptr(), "obs") }.unwrap(), obs);
        let from_obs = ObservationBuffer::from_observation(&obs).unwrap();
        assert_eq!(from_obs.to_observation(), obs);
    }

    #[test]
    fn a_refilled_buffer_is_the_observation_and_refuses_what_a_plugin_cannot_trust() {
        let mut g = sample();
        let mut buffer = ObservationBuffer::default();
        for _ in 0..3 {
            let obs = Observation::new(&g, 1);
            buffer.update_from_observation(&obs).unwrap();
            assert_eq!(buffer.to_observation(), obs);
            assert_eq!(unsafe { read_observation(buffer.as_ptr(), "obs") }.unwrap(), obs);
            g.step(&[lightcycles_core::Action::Keep, lightcycles_core::Action::Keep]).unwrap();
        }
        let grid_at = buffer.grid.as_ptr();
        let good = Observation::new(&g, 0);
        buffer.update_from_observation(&good).unwrap();
        assert_eq!(buffer.grid.as_ptr(), grid_at, "the board's memory is reused");
        let mut bad = Vec::new();
        let mut o = good.clone();
        o.grid[2].pop();
        bad.push(o);
        let mut o = good.clone();
        o.grid[0][0] = 2; // a third player's trail in a two-player game
        bad.push(o);
        let mut o = good.clone();
        o.grid[0][0] = -3;
        bad.push(o);
        let mut o = good.clone();
        o.you = 2;
        bad.push(o);
        let mut o = good.clone();
        o.players[1].x = 10;
        bad.push(o);
        let mut o = good.clone();
        o.height += 1;
        bad.push(o);
        for o in bad {
            assert!(buffer.update_from_observation(&o).is_err(), "{o:?}");
            assert_eq!(buffer.to_observation(), good, "left as it was");
        }
    }

    #[test]
    fn ragged_or_impossible_observations_are_refused() {
        let g = sample();
        let mut obs = Observation::new(&g, 0);
        obs.grid[3].pop();
        assert!(matches!(ObservationBuffer::from_observation(&obs), Err(ObservationError::Position(_))));
        let mut obs = Observation::new(&g, 0);
        obs.you = 2;
        assert_eq!(
            ObservationBuffer::from_observation(&obs).unwrap_err().to_string(),
            "you = 2 is not a player id below 2"
        );
    }

    #[test]
    fn raw_fields_are_checked() {
        let g = sample();
        let mut buffer = ObservationBuffer::from_engine(&g, 0).unwrap();
        assert_eq!(buffer.set_you(2), Err(ObservationError::You { you: 2, players: 2 }));
        assert_eq!(buffer.update_from_engine(&g, 5), Err(ObservationError::You { you: 5, players: 2 }));
        assert_eq!(buffer.raw().you, 0, "a failed update leaves the buffer");
        let check = |edit: &dyn Fn(&mut LcObservation), status: LcStatus| {
            let mut raw = *buffer.raw();
            edit(&mut raw);
            let e = unsafe { read_observation(&raw, "obs") }.unwrap_err();
            assert_eq!(e.status, status, "{}", e.message);
        };
        check(&|r| r.struct_size = 8, LcStatus::StructSize);
        check(&|r| r.player_size = 4, LcStatus::StructSize);
        check(&|r| r.width = 300, LcStatus::Position);
        check(&|r| r.num_players = 9, LcStatus::Position);
        check(&|r| r.you = 2, LcStatus::Position);
        check(&|r| r.players = core::ptr::null(), LcStatus::NullPointer);
        check(&|r| r.grid = core::ptr::null(), LcStatus::NullPointer);
        let e = unsafe { read_observation(core::ptr::null(), "obs") }.unwrap_err();
        assert_eq!(e.status, LcStatus::NullPointer);
    }
}
