//! # lightcycles-ffi
//!
//! The C ABI of LightCycles (`include/lightcycles.h`, generated from this
//! crate by cbindgen), and the plugin ABI native bots implement.
//!
//! Conventions of every entry point:
//! - Fallible calls return an [`LcStatus`]; on failure, `lc_last_error()`
//!   describes it on the same thread. No panic crosses the boundary.
//! - Null pointers, out-of-range ids, cells and move codes, and a wrong
//!   `struct_size` are error statuses, never undefined behaviour.
//! - Outputs go through pointers; on failure, an output handle is set to NULL.
//! - Structs that may grow start with `struct_size`, which the caller sets
//!   to `sizeof` the struct; the library reads and writes only the first
//!   version's fields and accepts any larger size.
//!
//! From Rust, a host uses [`ObservationBuffer`] to build the observation a
//! plugin receives, and [`plugin::check_table`] to check the table a plugin
//! returns.

#![warn(missing_docs)]

pub mod config;
pub mod error;
pub mod game;
pub mod observation;
pub mod plugin;
pub mod search_state;
pub mod space;
pub mod status;
pub mod version;

pub use config::{lc_config_default, LcConfig, LC_FAULT_POLICY_ELIMINATE, LC_FAULT_POLICY_STRAIGHT};
pub use error::{last_error_message, lc_last_error};
pub use game::*;
pub use observation::{
    lc_observation_free, lc_observation_from_json, LcObservation, LcPlayerView, ObservationBuffer, ObservationError,
};
pub use plugin::{
    LcBotChooseFn, LcBotCreateFn, LcBotDestroyFn, LcBotEntryFn, LcBotV1, PluginError, LC_BOT_ABI_VERSION,
    LC_BOT_ENTRY_SYMBOL,
};
pub use search_state::*;
pub use status::{lc_status_name, LcStatus};
pub use version::{lc_version, lc_version_number};

/// The version of this C ABI. It grows when an entry point or a struct
/// changes in a way an older caller would notice.
pub const LC_ABI_VERSION: u32 = 1;

/// The version of the C ABI of the library actually loaded: compare it with
/// `LC_ABI_VERSION` of the header you compiled against.
#[no_mangle]
pub extern "C" fn lc_abi_version() -> u32 {
    LC_ABI_VERSION
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    /// The sizes C sees (checked again by `tests/c/abi_test.c`, on the C
    /// side of the header): a change here is a change of the ABI.
    #[test]
    fn c_layouts_are_pinned() {
        assert_eq!(size_of::<LcConfig>(), 28);
        assert_eq!(size_of::<LcPlayer>(), 28);
        assert_eq!(size_of::<LcResult>(), 116);
        assert_eq!(size_of::<LcPlayerView>(), 20);
        assert_eq!(size_of::<LcObservation>(), 56);
        assert_eq!(offset_of!(LcObservation, players), 40);
        assert_eq!(offset_of!(LcObservation, grid), 48);
        assert_eq!(size_of::<LcBotV1>(), 40);
        assert_eq!(offset_of!(LcBotV1, create), 16);
    }
}
