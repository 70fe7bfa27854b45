//! docs/architecture.md against the tree: every file it names exists (a
//! module moved or removed fails here until the page says so), every crate
//! of the repository has its section, and every module of the Python
//! extension is named, so the page can say where a new one goes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the host is a folder of the repository").to_path_buf()
}

fn page() -> String {
    std::fs::read_to_string(repo().join("docs/architecture.md")).expect("docs/architecture.md")
}

/// The extensions of the files the page names.
const KINDS: [&str; 8] = [".rs", ".py", ".pyi", ".sh", ".h", ".hpp", ".toml", ".md"];

/// The stems that stand for a name the reader chooses (`cli/NAME.rs`).
const PLACEHOLDERS: [&str; 4] = ["NAME", "PATH", "FILE", "DIR"];

/// Every word of `text` that names a file: letters, digits, `_ - . /`,
/// ending in one of [`KINDS`], but placeholders.
fn file_words(text: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || "_-./".contains(c))) {
        let word = word.trim_matches(|c| c == '.' || c == '/');
        let stem = word.rsplit('/').next().unwrap_or(word).split('.').next().unwrap_or(word);
        if KINDS.iter().any(|k| word.ends_with(k))
            && word.len() > 3
            && !word.starts_with("http")
            && !PLACEHOLDERS.contains(&stem)
        {
            words.insert(word.to_string());
        }
    }
    words
}

/// Every file of the repository (but build output and installed packages),
/// as paths relative to it.
fn tree() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !matches!(name.as_str(), "target" | "node_modules" | ".git" | "__pycache__") {
                    walk(&path, root, out);
                }
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(&repo(), &repo(), &mut out);
    out
}

#[test]
fn every_file_the_page_names_exists() {
    let files = tree();
    let missing: Vec<String> = file_words(&page())
        .into_iter()
        .filter(|word| !files.iter().any(|f| f == word || f.ends_with(&format!("/{word}"))))
        .collect();
    assert!(missing.is_empty(), "docs/architecture.md names files that are not in the tree: {missing:?}");
}

#[test]
fn the_check_sees_a_file_that_is_gone() {
    let words = file_words("`tournament/plan.rs` and `cli/gone_for_good.rs`, (`obs.rs`); `cli/NAME.rs`.");
    assert_eq!(words, ["cli/gone_for_good.rs", "obs.rs", "tournament/plan.rs"].map(String::from).into());
    let files = tree();
    assert!(!files.iter().any(|f| f.ends_with("/cli/gone_for_good.rs")));
}

#[test]
fn every_crate_has_its_section() {
    let page = page();
    let headings: Vec<&str> = page.lines().filter(|l| l.starts_with("## ")).collect();
    let crates: Vec<String> = std::fs::read_dir(repo())
        .expect("the repository")
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("lightcycles-"))
        .collect();
    assert!(crates.len() >= 5, "{crates:?}");
    for name in crates {
        assert!(headings.iter().any(|h| h.contains(&name)), "no section of docs/architecture.md is {name}'s");
    }
}

#[test]
fn every_module_of_the_python_extension_is_named() {
    let page = page();
    let named = file_words(&page);
    let src = repo().join("lightcycles-py/src");
    for entry in std::fs::read_dir(&src).expect("lightcycles-py/src").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".rs") {
            assert!(
                named.iter().any(|w| w == &name || w.ends_with(&format!("/{name}"))),
                "docs/architecture.md does not name lightcycles-py/src/{name}"
            );
        }
    }
    for entry in std::fs::read_dir(repo().join("lightcycles-py/python/lightcycles")).expect("the package").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".py") && name != "__init__.py" {
            assert!(named.contains(&name), "docs/architecture.md does not name the package's {name}");
        }
    }
}
