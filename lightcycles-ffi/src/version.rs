//! The library's version at run time, so that a C program can check that the
//! library it loaded is the one whose header it was compiled with (the
//! header's `LC_VERSION*` macros, written from the same crate version by
//! `tests/header.rs`).

use core::ffi::c_char;

/// Parses the decimal digits Cargo gives for one part of the version.
const fn parse(digits: &str) -> u32 {
    let bytes = digits.as_bytes();
    let mut value = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

/// The major version of the crate.
pub const VERSION_MAJOR: u32 = parse(env!("CARGO_PKG_VERSION_MAJOR"));
/// The minor version of the crate.
pub const VERSION_MINOR: u32 = parse(env!("CARGO_PKG_VERSION_MINOR"));
/// The patch version of the crate.
pub const VERSION_PATCH: u32 = parse(env!("CARGO_PKG_VERSION_PATCH"));
/// The version as one number that orders as versions do:
/// `major * 1_000_000 + minor * 1_000 + patch`.
pub const VERSION_NUMBER: u32 = VERSION_MAJOR * 1_000_000 + VERSION_MINOR * 1_000 + VERSION_PATCH;
/// The SONAME of the shared library (`liblightcycles.so.0.MINOR` before 1.0).
pub const SONAME: &str = env!("LIGHTCYCLES_SONAME");

/// The version of the library actually loaded, as `"MAJOR.MINOR.PATCH"`
/// (the header's `LC_VERSION`). A static string: never free it.
#[no_mangle]
pub extern "C" fn lc_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The version of the library actually loaded as one number,
/// `major * 1000000 + minor * 1000 + patch` (the header's
/// `LC_VERSION_NUMBER`): compare it with the macro to check, at run time,
/// that the library matches the header.
#[no_mangle]
pub extern "C" fn lc_version_number() -> u32 {
    VERSION_NUMBER
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_version_is_the_crate_version() {
        let text = unsafe { core::ffi::CStr::from_ptr(lc_version()) }.to_str().unwrap();
        assert_eq!(text, env!("CARGO_PKG_VERSION"));
        let expected = format!("{VERSION_MAJOR}.{VERSION_MINOR}.{VERSION_PATCH}");
        assert!(text.starts_with(&expected), "{text} vs {expected}");
        assert_eq!(lc_version_number(), VERSION_MAJOR * 1_000_000 + VERSION_MINOR * 1_000 + VERSION_PATCH);
        assert!(SONAME.starts_with("liblightcycles.so."));
    }
}
