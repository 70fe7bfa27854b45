//! The C test program `tests/c/abi_test.c` calls every entry point of the
//! header, on success and on every error path, built against the static
//! library with AddressSanitizer and UndefinedBehaviorSanitizer.

mod support;

#[test]
fn every_entry_point_from_c_under_the_sanitizers() {
    let dir = support::scratch("abi_test");
    let exe = dir.join("abi_test");
    support::build_c_test(&[support::c_dir().join("abi_test.c")], &exe);
    let out = support::run_ok(&mut support::sanitized(&exe));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("checks passed"), "{stdout}");
    assert!(!stderr.contains("runtime error"), "UBSan reported:\n{stderr}");
    let checks: u32 = stdout.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(checks > 200, "only {checks} checks ran:\n{stdout}");
}
