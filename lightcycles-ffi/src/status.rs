//! Status codes: every fallible entry point returns one, so a C caller can
//! branch on the kind of failure and read `lc_last_error` for the details.

use core::ffi::c_char;

/// The outcome of a call. `LC_STATUS_OK` is zero; every other value is a
/// failure, described in words by `lc_last_error()` on the same thread.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LcStatus {
    /// The call succeeded.
    Ok = 0,
    /// A required pointer argument was null.
    NullPointer = 1,
    /// An argument is outside its allowed values (a move code, a fault
    /// policy, a player id, a cell off the board).
    OutOfRange = 2,
    /// A `struct_size` field is smaller than the first version of the
    /// struct, or absurdly large: the struct was not initialised.
    StructSize = 3,
    /// The configuration breaks a bound of the rule book (section 1).
    Config = 4,
    /// A map could not be generated, or map text could not be parsed.
    Map = 5,
    /// An observation or position breaks an invariant of the rules.
    Position = 6,
    /// Text that must be UTF-8 is not, or JSON that cannot be read.
    Parse = 7,
    /// `lc_game_step` was called after the game ended.
    GameOver = 8,
    /// `lc_game_result` was called before the game ended.
    NotOver = 9,
    /// A caller buffer is too small; the required length was reported.
    BufferTooSmall = 10,
    /// Two games of different board sizes or player counts were combined.
    ShapeMismatch = 11,
    /// A bug inside the library: a panic was caught at the boundary. The
    /// handles passed to the call must not be used again.
    Panic = 12,
}

impl LcStatus {
    /// A short, stable name of the status, as in the header.
    pub const fn name(self) -> &'static str {
        match self {
            LcStatus::Ok => "LC_STATUS_OK",
            LcStatus::NullPointer => "LC_STATUS_NULL_POINTER",
            LcStatus::OutOfRange => "LC_STATUS_OUT_OF_RANGE",
            LcStatus::StructSize => "LC_STATUS_STRUCT_SIZE",
            LcStatus::Config => "LC_STATUS_CONFIG",
            LcStatus::Map => "LC_STATUS_MAP",
            LcStatus::Position => "LC_STATUS_POSITION",
            LcStatus::Parse => "LC_STATUS_PARSE",
            LcStatus::GameOver => "LC_STATUS_GAME_OVER",
            LcStatus::NotOver => "LC_STATUS_NOT_OVER",
            LcStatus::BufferTooSmall => "LC_STATUS_BUFFER_TOO_SMALL",
            LcStatus::ShapeMismatch => "LC_STATUS_SHAPE_MISMATCH",
            LcStatus::Panic => "LC_STATUS_PANIC",
        }
    }
}

/// Every status, in code order.
pub(crate) const ALL_STATUSES: [LcStatus; 13] = [
    LcStatus::Ok,
    LcStatus::NullPointer,
    LcStatus::OutOfRange,
    LcStatus::StructSize,
    LcStatus::Config,
    LcStatus::Map,
    LcStatus::Position,
    LcStatus::Parse,
    LcStatus::GameOver,
    LcStatus::NotOver,
    LcStatus::BufferTooSmall,
    LcStatus::ShapeMismatch,
    LcStatus::Panic,
];

/// The name of a status code as a static, NUL-terminated string (for
/// example `"LC_STATUS_GAME_OVER"`), or `"LC_STATUS_UNKNOWN"` for a value
/// that is not a status. Never null; never free it.
#[no_mangle]
pub extern "C" fn lc_status_name(status: i32) -> *const c_char {
    let name: &'static [u8] = match ALL_STATUSES.iter().find(|s| **s as i32 == status) {
        Some(LcStatus::Ok) => b"LC_STATUS_OK\0",
        Some(LcStatus::NullPointer) => b"LC_STATUS_NULL_POINTER\0",
        Some(LcStatus::OutOfRange) => b"LC_STATUS_OUT_OF_RANGE\0",
        Some(LcStatus::StructSize) => b"LC_STATUS_STRUCT_SIZE\0",
        Some(LcStatus::Config) => b"LC_STATUS_CONFIG\0",
        Some(LcStatus::Map) => b"LC_STATUS_MAP\0",
        Some(LcStatus::Position) => b"LC_STATUS_POSITION\0",
        Some(LcStatus::Parse) => b"LC_STATUS_PARSE\0",
        Some(LcStatus::GameOver) => b"LC_STATUS_GAME_OVER\0",
        Some(LcStatus::NotOver) => b"LC_STATUS_NOT_OVER\0",
        Some(LcStatus::BufferTooSmall) => b"LC_STATUS_BUFFER_TOO_SMALL\0",
        Some(LcStatus::ShapeMismatch) => b"LC_STATUS_SHAPE_MISMATCH\0",
        Some(LcStatus::Panic) => b"LC_STATUS_PANIC\0",
        None => b"LC_STATUS_UNKNOWN\0",
    };
    name.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn codes_are_dense_and_names_match() {
        for (code, status) in ALL_STATUSES.iter().enumerate() {
            assert_eq!(*status as i32, code as i32);
            let name = unsafe { CStr::from_ptr(lc_status_name(code as i32)) };
            assert_eq!(name.to_str().unwrap(), status.name());
        }
        let unknown = unsafe { CStr::from_ptr(lc_status_name(-1)) };
        assert_eq!(unknown.to_str().unwrap(), "LC_STATUS_UNKNOWN");
        let unknown = unsafe { CStr::from_ptr(lc_status_name(ALL_STATUSES.len() as i32)) };
        assert_eq!(unknown.to_str().unwrap(), "LC_STATUS_UNKNOWN");
    }
}
