//! The header's version macros against the runtime version functions
//! (`tests/c/version_test.c`), with the library linked statically and
//! dynamically, and the SONAME of the shared library: `liblightcycles.so.0.MINOR`
//! before 1.0, so that a program built against one minor version never loads
//! another.

mod support;

use std::process::Command;

#[test]
fn the_macros_match_the_static_library() {
    let dir = support::scratch("version-static");
    let exe = dir.join("version_test");
    support::build_c_test(&[support::c_dir().join("version_test.c")], &exe);
    let out = support::run_ok(&mut support::sanitized(&exe));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with(&format!("version {} ", env!("CARGO_PKG_VERSION"))), "{stdout}");
}

#[test]
fn the_macros_match_the_shared_library_loaded_by_its_soname() {
    let dir = support::scratch("version-shared");
    let lib_dir = support::install_shared_library(&dir.join("lib"));
    let exe = dir.join("version_test");
    let mut cmd = support::compiler("gcc");
    cmd.arg("-std=c11")
        .arg(support::c_dir().join("version_test.c"))
        .arg(format!("-L{}", lib_dir.display()))
        .arg("-llightcycles")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-o")
        .arg(&exe);
    support::run_ok(&mut cmd);
    // The program asks for the SONAME, not for liblightcycles.so: remove
    // the link, and it still runs.
    std::fs::remove_file(lib_dir.join("liblightcycles.so")).unwrap();
    let out = support::run_ok(&mut Command::new(&exe));
    assert!(String::from_utf8_lossy(&out.stdout).contains("header and library agree"));
}

#[test]
fn the_soname_carries_the_minor_version_before_1_0() {
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    let expected = if major == "0" {
        format!("liblightcycles.so.0.{}", env!("CARGO_PKG_VERSION_MINOR"))
    } else {
        format!("liblightcycles.so.{major}")
    };
    assert_eq!(lightcycles::version::SONAME, expected);
    let out = support::run_ok(Command::new("readelf").arg("-d").arg(support::shared_library()));
    let dynamic = String::from_utf8_lossy(&out.stdout);
    assert!(dynamic.contains(&format!("Library soname: [{expected}]")), "no SONAME {expected}:\n{dynamic}");
}
