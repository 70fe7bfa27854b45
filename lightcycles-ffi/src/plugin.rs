//! The bot plugin ABI: what a native bot exports so that a host can load it
//! and ask it for moves.
//!
//! A plugin is a shared library exporting the fixed entry symbol
//! `lightcycles_bot_v1`, a function that returns a pointer to an
//! [`LcBotV1`] table. The table and the observations are prefixed with
//! their sizes, so a host and a plugin built against different versions of
//! this header still understand each other.

use core::ffi::{c_char, c_void};
use core::mem::size_of;

use crate::observation::LcObservation;

/// The version of the plugin ABI this header describes: the `abi_version`
/// of an `LcBotV1` table.
pub const LC_BOT_ABI_VERSION: u32 = 1;

/// The name of the symbol every plugin exports, NUL-terminated.
pub const LC_BOT_ENTRY_SYMBOL: &str = "lightcycles_bot_v1";

/// Creates a bot for one game, given the first observation (tick 1) and a
/// seed for the bot's own random generator. Returns an opaque bot pointer
/// owned by the plugin, or NULL when the bot cannot play (the host then
/// counts every tick of it as a crash fault).
pub type LcBotCreateFn = Option<unsafe extern "C" fn(first: *const LcObservation, seed: u64) -> *mut c_void>;

/// Chooses the move of `bot` for `obs`: 0 N, 1 E, 2 S, 3 W, or -1 for no
/// move. Any other value is an invalid answer (a fault).
pub type LcBotChooseFn = Option<unsafe extern "C" fn(bot: *mut c_void, obs: *const LcObservation) -> i32>;

/// Frees `bot`. Called exactly once per bot that `create` returned.
pub type LcBotDestroyFn = Option<unsafe extern "C" fn(bot: *mut c_void)>;

/// The table a plugin's `lightcycles_bot_v1()` returns.
///
/// Ownership and lifetimes:
/// - The table (and `name`) belong to the plugin and must stay valid and
///   unchanged while the library is loaded; the host never frees them.
/// - `create` returns a bot owned by the plugin; the host passes it to
///   `choose` and finally once to `destroy`, and never uses it again.
/// - Every `LcObservation` (and the arrays it points to) belongs to the
///   host and is valid only during the call that receives it: copy what
///   you keep. A plugin may build its own engine state from it with
///   `lc_game_from_observation`.
///
/// Threading: one bot instance is used by one thread at a time (the host
/// never calls `choose` on the same bot from two threads at once), but
/// different bots of the same plugin may run on different threads at the
/// same time: shared mutable state in a plugin needs its own locking.
///
/// No C++ exception, Rust panic or `longjmp` may leave these functions.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LcBotV1 {
    /// `sizeof(LcBotV1)` as the plugin knows it; a host reads only the
    /// fields this size covers.
    pub struct_size: u32,
    /// `LC_BOT_ABI_VERSION` the plugin was built for.
    pub abi_version: u32,
    /// The bot's display name, NUL-terminated, or NULL for the file stem.
    pub name: *const c_char,
    /// Creates a bot (see `LcBotCreateFn`).
    pub create: LcBotCreateFn,
    /// Chooses a move (see `LcBotChooseFn`).
    pub choose: LcBotChooseFn,
    /// Frees a bot (see `LcBotDestroyFn`).
    pub destroy: LcBotDestroyFn,
}

// SAFETY: a table is immutable static data shared by design.
unsafe impl Sync for LcBotV1 {}
// SAFETY: as above.
unsafe impl Send for LcBotV1 {}

/// Size of the first version of [`LcBotV1`].
pub const BOT_V1_SIZE: usize = size_of::<LcBotV1>();

/// The signature of the entry symbol `lightcycles_bot_v1`.
pub type LcBotEntryFn = unsafe extern "C" fn() -> *const LcBotV1;

/// Why a plugin's table cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PluginError {
    /// `lightcycles_bot_v1()` returned NULL.
    NullTable,
    /// The table is smaller than the first version.
    StructSize(u32),
    /// The plugin speaks another plugin ABI version.
    Version(u32),
    /// A function pointer is missing.
    Missing(&'static str),
}

impl core::fmt::Display for PluginError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PluginError::NullTable => write!(f, "lightcycles_bot_v1() returned NULL"),
            PluginError::StructSize(s) => {
                write!(f, "the LcBotV1 table has struct_size = {s}, expected at least {BOT_V1_SIZE}")
            }
            PluginError::Version(v) => {
                write!(f, "the plugin speaks bot ABI version {v}, this host version {LC_BOT_ABI_VERSION}")
            }
            PluginError::Missing(name) => write!(f, "the LcBotV1 table has no `{name}` function"),
        }
    }
}

impl std::error::Error for PluginError {}

/// Checks the table a plugin returned before a host calls into it.
///
/// # Safety
/// A non-null `table` must point to at least `struct_size` readable bytes
/// that stay valid while the returned reference is used.
pub unsafe fn check_table<'a>(table: *const LcBotV1) -> Result<&'a LcBotV1, PluginError> {
    if table.is_null() {
        return Err(PluginError::NullTable);
    }
    // SAFETY: non-null; the first field is in every version.
    let size = unsafe { core::ptr::addr_of!((*table).struct_size).read_unaligned() };
    if (size as usize) < BOT_V1_SIZE || size > crate::error::MAX_STRUCT_SIZE {
        return Err(PluginError::StructSize(size));
    }
    // SAFETY: struct_size covers the first version.
    let t = unsafe { &*table };
    if t.abi_version != LC_BOT_ABI_VERSION {
        return Err(PluginError::Version(t.abi_version));
    }
    if t.create.is_none() {
        return Err(PluginError::Missing("create"));
    }
    if t.choose.is_none() {
        return Err(PluginError::Missing("choose"));
    }
    if t.destroy.is_none() {
        return Err(PluginError::Missing("destroy"));
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn create(_: *const LcObservation, _: u64) -> *mut c_void {
        core::ptr::null_mut()
    }
    unsafe extern "C" fn choose(_: *mut c_void, _: *const LcObservation) -> i32 {
        -1
    }
    unsafe extern "C" fn destroy(_: *mut c_void) {}

    fn table() -> LcBotV1 {
        LcBotV1 {
            struct_size: BOT_V1_SIZE as u32,
            abi_version: LC_BOT_ABI_VERSION,
            name: core::ptr::null(),
            create: Some(create),
            choose: Some(choose),
            destroy: Some(destroy),
        }
    }

    #[test]
    fn tables_are_checked() {
        let ok = table();
        assert!(unsafe { check_table(&ok) }.is_ok());
        assert_eq!(unsafe { check_table(core::ptr::null()) }.unwrap_err(), PluginError::NullTable);
        let small = LcBotV1 { struct_size: 8, ..table() };
        assert_eq!(unsafe { check_table(&small) }.unwrap_err(), PluginError::StructSize(8));
        let newer = LcBotV1 { abi_version: 2, ..table() };
        assert_eq!(unsafe { check_table(&newer) }.unwrap_err(), PluginError::Version(2));
        let missing = LcBotV1 { choose: None, ..table() };
        assert_eq!(
            unsafe { check_table(&missing) }.unwrap_err().to_string(),
            "the LcBotV1 table has no `choose` function"
        );
    }
}
