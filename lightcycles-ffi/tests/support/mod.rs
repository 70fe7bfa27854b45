//! Helpers shared by the tests that build C and C++ programs against the
//! library: where the built libraries are, and how to run gcc/g++.
#![allow(dead_code)] // each test uses a part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root (holding `include/` and `examples/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the ffi crate sits in the workspace").to_path_buf()
}

/// The header directory.
pub fn include_dir() -> PathBuf {
    workspace_root().join("include")
}

/// The C sources of the tests.
pub fn c_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c")
}

/// The directory of the profile being tested (`<target>/debug`), found from
/// the test executable itself (`<target>/debug/deps/<test>`), so that it
/// honours `CARGO_TARGET_DIR`, `--target` and `--profile` alike.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let deps = exe.parent().expect("the test executable is in deps/");
    deps.parent().expect("deps/ is in the profile directory").to_path_buf()
}

/// A built library of this crate (`liblightcycles.a` or `.so`): cargo builds
/// every crate type of the library before it builds the tests that use it.
pub fn built_library(file: &str) -> PathBuf {
    let dir = profile_dir();
    let candidates = [dir.join(file), dir.join("deps").join(file)];
    for path in &candidates {
        if path.is_file() {
            return path.clone();
        }
    }
    panic!("{file} not found in {} or its deps/: build the library first (cargo build -p lightcycles-ffi)", dir.display());
}

/// The static library.
pub fn static_library() -> PathBuf {
    built_library("liblightcycles.a")
}

/// The shared library.
pub fn shared_library() -> PathBuf {
    built_library("liblightcycles.so")
}

/// Libraries the static library needs from the system (rustc's
/// `native-static-libs` for Linux targets).
pub const NATIVE_LIBS: [&str; 7] = ["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"];

/// Sanitizer flags of the C test programs.
pub const SANITIZE: [&str; 3] = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"];

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs a command and panics with its output when it fails.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    if !out.status.success() {
        panic!(
            "{cmd:?} failed with {}\n--- stdout\n{}\n--- stderr\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

/// gcc (or g++) with warnings as errors and the header on the include path.
pub fn compiler(program: &str) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(["-Wall", "-Wextra", "-Werror", "-g", "-I"]).arg(include_dir());
    cmd
}

/// Compiles C sources into an executable linked with the static library,
/// under the sanitizers.
pub fn build_c_test(sources: &[PathBuf], exe: &Path) {
    let mut cmd = compiler("gcc");
    cmd.arg("-std=c11").args(SANITIZE).args(sources).arg(static_library()).args(NATIVE_LIBS).arg("-o").arg(exe);
    run_ok(&mut cmd);
}

/// The environment the sanitizers run with: any finding fails the program.
pub fn sanitized(exe: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:halt_on_error=1")
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
    cmd
}
