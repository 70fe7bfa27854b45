//! Build script of lightcycles-ffi: gives the shared library a SONAME that
//! carries the part of the version that may break the ABI, as C libraries
//! do, so that a program linked against 0.1 never loads a 0.2.
//!
//! Before 1.0 every minor version may break the ABI: `liblightcycles.so.0.MINOR`;
//! from 1.0 on, the major version: `liblightcycles.so.MAJOR`. Only ELF
//! targets get one (on macOS and Windows cargo's defaults stay).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    let soname =
        if major == "0" { format!("liblightcycles.so.0.{minor}") } else { format!("liblightcycles.so.{major}") };
    // The tests and the install step read it from here: one place says it.
    println!("cargo:rustc-env=LIGHTCYCLES_SONAME={soname}");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let elf = matches!(os.as_str(), "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "illumos");
    if elf {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
}
