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

/// A built library of this crate (`liblightcycles.a` or `.so`). Cargo builds
/// every crate type of the library before the tests that use it: `cargo
/// test` leaves them in `deps/` (as `liblightcycles.a`, or with a hash in the
/// name), `cargo build` copies them up a level. The newest one is the one
/// this test run built.
pub fn built_library(file: &str) -> PathBuf {
    let (stem, ext) = file.rsplit_once('.').expect("a library file name has an extension");
    let dir = profile_dir();
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    for folder in [dir.clone(), dir.join("deps")] {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let matches = name == file || (name.starts_with(&format!("{stem}-")) && name.ends_with(&format!(".{ext}")));
            let modified = entry.metadata().and_then(|m| m.modified()).ok();
            if let (true, Some(modified)) = (matches, modified) {
                let newer = match &newest {
                    Some((t, _)) => modified > *t,
                    None => true,
                };
                if newer {
                    newest = Some((modified, entry.path()));
                }
            }
        }
    }
    newest.map(|(_, path)| path).unwrap_or_else(|| {
        panic!("{file} not found in {} or its deps/: build the library (cargo build -p lightcycles-ffi)", dir.display())
    })
}

/// The static library.
pub fn static_library() -> PathBuf {
    built_library("liblightcycles.a")
}

/// The shared library.
pub fn shared_library() -> PathBuf {
    built_library("liblightcycles.so")
}

/// The shared library laid out in `dir` as an install lays it out: the file
/// under its SONAME (what a linked program asks the loader for) and the
/// `liblightcycles.so` link the linker reads. Returns `dir`.
pub fn install_shared_library(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let soname = lightcycles::version::SONAME;
    std::fs::copy(shared_library(), dir.join(soname)).unwrap();
    let link = dir.join("liblightcycles.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(soname, &link).unwrap();
    dir.to_path_buf()
}

/// Libraries the static library needs from the system (rustc's
/// `native-static-libs` for Linux targets).
pub const NATIVE_LIBS: [&str; 7] = ["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"];

/// Sanitizer flags of the C test programs.
pub const SANITIZE: [&str; 3] =
    ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"];

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
