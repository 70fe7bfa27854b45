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

/// The minimal example of the C and C++ page, `docs/c-api.md`.
fn readme_example() -> String {
    let page = std::fs::read_to_string(support::workspace_root().join("docs/c-api.md")).unwrap();
    let example = page.split("## A minimal example").nth(1).expect("docs/c-api.md has a minimal example");
    let code = example.split("```c\n").nth(1).and_then(|rest| rest.split("```").next());
    code.expect("the example is a C code block").to_string()
}

fn run_example(dir: &std::path::Path, exe: &std::path::Path) {
    let out = support::run_ok(support::sanitized(exe).current_dir(dir));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("winner "), "{stdout}");
}

#[test]
fn the_readme_example_links_statically() {
    let dir = support::scratch("readme-static");
    let source = dir.join("my_bot.c");
    std::fs::write(&source, readme_example()).unwrap();
    let exe = dir.join("my_bot");
    support::build_c_test(&[source], &exe);
    run_example(&dir, &exe);
}

#[test]
fn the_readme_example_links_dynamically() {
    let dir = support::scratch("readme-dynamic");
    let source = dir.join("my_bot.c");
    std::fs::write(&source, readme_example()).unwrap();
    let lib_dir = support::install_shared_library(&dir.join("lib"));
    let exe = dir.join("my_bot");
    let mut cmd = support::compiler("gcc");
    cmd.args(["-std=c11", "-O2"])
        .arg(&source)
        .arg(format!("-L{}", lib_dir.display()))
        .arg("-llightcycles")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-o")
        .arg(&exe);
    support::run_ok(&mut cmd);
    let out = support::run_ok(std::process::Command::new(&exe).current_dir(&dir));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("winner "));
}
