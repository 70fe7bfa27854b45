//! The C++17 wrapper `include/lightcycles.hpp`: `tests/cpp/wrapper_test.cpp`
//! uses every part of it (owners, errors as exceptions, the space helpers, a
//! plugin bot derived from `lightcycles::Bot`), built with g++ against the
//! static library under AddressSanitizer and UndefinedBehaviorSanitizer; the
//! header compiles alone with strict warnings; and the plugin example of
//! `docs/c-api.md` builds into a plugin a host loads.

mod support;

#[test]
fn the_wrapper_under_the_sanitizers() {
    let dir = support::scratch("cpp-wrapper");
    let exe = dir.join("wrapper_test");
    let mut cmd = support::compiler("g++");
    cmd.args(["-std=c++17", "-pedantic", "-O1"])
        .args(support::SANITIZE)
        .arg(support::workspace_root().join("lightcycles-ffi/tests/cpp/wrapper_test.cpp"))
        .arg(support::static_library())
        .args(support::NATIVE_LIBS)
        .arg("-o")
        .arg(&exe);
    support::run_ok(&mut cmd);
    let out = support::run_ok(&mut support::sanitized(&exe));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("checks passed"), "{stdout}");
    assert!(!stderr.contains("runtime error"), "UBSan reported:\n{stderr}");
    let checks: u32 = stdout.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(checks >= 80, "only {checks} checks ran:\n{stdout}");
}

#[test]
fn the_header_compiles_alone_with_strict_warnings() {
    let dir = support::scratch("cpp-wrapper-strict");
    let source = dir.join("use.cpp");
    std::fs::write(
        &source,
        "#include <lightcycles.hpp>\nint main() { return lightcycles::library_matches_header() ? 0 : 1; }\n",
    )
    .unwrap();
    let mut cmd = support::compiler("g++");
    cmd.args(["-std=c++17", "-pedantic", "-Wshadow", "-Wconversion", "-Wsign-conversion", "-Wnon-virtual-dtor"])
        .args(["-Wold-style-cast", "-Wzero-as-null-pointer-constant", "-fsyntax-only"])
        .arg(&source);
    support::run_ok(&mut cmd);
}

/// The plugin example of `docs/c-api.md` ("C++: lightcycles.hpp").
#[test]
fn the_docs_plugin_example_builds_and_exports_its_table() {
    let page = std::fs::read_to_string(support::workspace_root().join("docs/c-api.md")).unwrap();
    let section = page.split("## C++: lightcycles.hpp").nth(1).expect("docs/c-api.md has the C++ section");
    let code = section.split("```cpp\n").nth(1).and_then(|rest| rest.split("```").next()).expect("a cpp block");
    let dir = support::scratch("cpp-wrapper-docs");
    let source = dir.join("my_bot.cpp");
    std::fs::write(&source, code).unwrap();
    let plugin = dir.join("libmy_bot.so");
    let mut cmd = support::compiler("g++");
    cmd.args(["-std=c++17", "-pedantic", "-O1", "-fPIC", "-shared"])
        .arg(&source)
        .arg(support::static_library())
        .arg("-Wl,--exclude-libs,ALL")
        .args(support::NATIVE_LIBS)
        .arg("-o")
        .arg(&plugin);
    support::run_ok(&mut cmd);
    let library = unsafe { libloading::Library::new(&plugin) }.expect("the plugin loads");
    let entry: lightcycles::LcBotEntryFn =
        *unsafe { library.get::<lightcycles::LcBotEntryFn>(b"lightcycles_bot_v1\0") }.expect("it exports the entry");
    let table = unsafe { lightcycles::plugin::check_table(entry()) }.expect("the table is well formed");
    assert_eq!(unsafe { std::ffi::CStr::from_ptr(table.name) }.to_str().unwrap(), "my-bot");
}

#[test]
fn the_header_refuses_cpp14() {
    let dir = support::scratch("cpp-wrapper-14");
    let source = dir.join("use.cpp");
    std::fs::write(&source, "#include <lightcycles.hpp>\nint main() { return 0; }\n").unwrap();
    let out = support::compiler("g++").args(["-std=c++14", "-fsyntax-only"]).arg(&source).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("lightcycles.hpp needs C++17"));
}
