//! `include/lightcycles.h` is what cbindgen makes of this crate today, every
//! item in it is documented, and it compiles as C11 and as C++17 with
//! `-Wall -Wextra -Werror`.
//!
//! Refresh the header with `LIGHTCYCLES_BLESS=1 cargo test -p lightcycles-ffi --test header`.

mod support;

use std::path::Path;

/// The `LC_VERSION*` macros, written from the crate version: cbindgen cannot
/// evaluate `env!`, and a version bump must make the checked-in header stale.
fn version_macros() -> String {
    let define = |doc: &str, name: &str, value: String| format!("\n/**\n{doc} */\n#define {name} {value}\n");
    [
        define(" * The major version of the library this header belongs to.\n", "LC_VERSION_MAJOR", env!("CARGO_PKG_VERSION_MAJOR").into()),
        define(
            " * The minor version of the library this header belongs to (before 1.0 a\n * new minor version may break the ABI, and the SONAME carries it).\n",
            "LC_VERSION_MINOR",
            env!("CARGO_PKG_VERSION_MINOR").into(),
        ),
        define(" * The patch version of the library this header belongs to.\n", "LC_VERSION_PATCH", env!("CARGO_PKG_VERSION_PATCH").into()),
        define(
            " * The version of the library this header belongs to, as a string; the\n * library loaded says its own with `lc_version()`.\n",
            "LC_VERSION",
            format!("\"{}\"", env!("CARGO_PKG_VERSION")),
        ),
        define(
            " * The version as one number, `major * 1000000 + minor * 1000 + patch`, for\n * `#if`; the library loaded says its own with `lc_version_number()`.\n",
            "LC_VERSION_NUMBER",
            lightcycles::version::VERSION_NUMBER.to_string(),
        ),
    ]
    .concat()
    .trim_end()
    .to_string()
}

fn generate() -> String {
    let crate_dir = env!("CARGO_MANIFEST_DIR");
    let mut config =
        cbindgen::Config::from_file(Path::new(crate_dir).join("cbindgen.toml")).expect("cbindgen.toml reads");
    config.after_includes = Some(version_macros());
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn the_checked_in_header_is_fresh() {
    let fresh = generate();
    let path = support::include_dir().join("lightcycles.h");
    if std::env::var_os("LIGHTCYCLES_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the header");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != fresh {
        let line = checked_in
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map_or(checked_in.lines().count().min(fresh.lines().count()) + 1, |i| i + 1);
        panic!(
            "{} is stale (first difference on line {line}). Refresh it with:\n    \
             LIGHTCYCLES_BLESS=1 cargo test -p lightcycles-ffi --test header\nand commit the result.",
            path.display()
        );
    }
}

/// Whether the lines before `i` end a comment.
fn documented(lines: &[&str], i: usize) -> bool {
    lines[..i].iter().rev().find(|l| !l.trim().is_empty()).is_some_and(|l| l.trim_end().ends_with("*/"))
}

#[test]
fn every_item_in_the_header_is_documented() {
    let header = std::fs::read_to_string(support::include_dir().join("lightcycles.h")).unwrap();
    let lines: Vec<&str> = header.lines().collect();
    let mut undocumented = Vec::new();
    let mut items = 0;
    let mut in_comment = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("/*") {
            in_comment = !t.ends_with("*/");
            continue;
        }
        if in_comment {
            in_comment = !t.ends_with("*/");
            continue;
        }
        let declares = (t.starts_with("#define LC_") && !t.starts_with("#define LIGHTCYCLES_H"))
            || t.starts_with("typedef")
            || (t.contains("lc_") && t.contains('(') && !t.starts_with('#') && !line.starts_with(' '))
            // Struct fields are indented by two; parameter lines by more.
            || (line.starts_with("  ") && !line.starts_with("   ") && t.ends_with(';'))
            || (line.starts_with("  LC_") && t.ends_with(','));
        // Closing lines of structs and enums (`} LcConfig;`) belong to their typedef.
        if declares && !t.starts_with('}') {
            items += 1;
            if !documented(&lines, i) {
                undocumented.push(format!("line {}: {t}", i + 1));
            }
        }
    }
    assert!(items > 80, "the scan found only {items} items: it is not reading the header right");
    assert!(undocumented.is_empty(), "undocumented items in the header:\n{}", undocumented.join("\n"));
}

fn compile(compiler: &str, std: &str, ext: &str) {
    let dir = support::scratch(&format!("header-{compiler}"));
    let source = dir.join(format!("use.{ext}"));
    // Every declaration is used, so a warning anywhere in the header shows.
    std::fs::write(
        &source,
        "#include <lightcycles.h>\n\
         int main(void) {\n\
             LcConfig config = lc_config_default();\n\
             LcGame *game = NULL;\n\
             if (lc_game_new(&config, 1, &game) != LC_STATUS_OK) return 1;\n\
             lc_game_free(game);\n\
             if (lc_version_number() != LC_VERSION_NUMBER || !lc_version()) return 1;\n\
             return lc_abi_version() == LC_ABI_VERSION ? 0 : 1;\n\
         }\n",
    )
    .unwrap();
    let mut cmd = support::compiler(compiler);
    cmd.arg(format!("-std={std}")).arg("-pedantic").arg("-fsyntax-only").arg(&source);
    support::run_ok(&mut cmd);
}

#[test]
fn the_header_compiles_as_c11() {
    compile("gcc", "c11", "c");
}

#[test]
fn the_header_compiles_as_cpp17() {
    compile("g++", "c++17", "cpp");
}
