//! The places a run writes to (`-o`, `--results`, `--report`, replays,
//! logs), checked before the first game, and the first failure to write a
//! bot's log, kept for the end of the run: a run that could not write
//! what it was asked to write never ends as a success.

use std::path::Path;
use std::sync::Mutex;

/// Creates `dir` (and its parents) and checks that a file can be made in
/// it. `flag` names the place in the message (`-o out`).
pub fn prepare_dir(dir: &Path, flag: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{flag} {}: cannot create the directory: {e}", dir.display()))?;
    probe(dir).map_err(|e| format!("{flag} {}: cannot write in the directory: {e}", dir.display()))
}

/// Checks that the folder `dir`, made later when it is first needed, can
/// be: where it exists it is a folder that takes a new file (its parent
/// is checked by the caller).
pub fn check_dir_later(dir: &Path, flag: &str) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Err(_) => Ok(()),
        Ok(meta) if !meta.is_dir() => Err(format!("{flag} {}: is in the way: not a directory", dir.display())),
        Ok(_) => probe(dir).map_err(|e| format!("{flag} {}: cannot write in the directory: {e}", dir.display())),
    }
}

/// Checks that the file `path` can be written later: it is not a
/// directory, and its folder exists and takes a new file.
pub fn check_file(path: &Path, flag: &str) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{flag} {}: is a directory, not a file", path.display()));
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(format!("{flag} {}: the directory {} does not exist", path.display(), dir.display()));
    }
    probe(dir).map_err(|e| format!("{flag} {}: cannot write in {}: {e}", path.display(), dir.display()))
}

/// Makes and removes a hidden file in `dir`.
fn probe(dir: &Path) -> std::io::Result<()> {
    let file = tempfile::Builder::new().prefix(".lightcycles-probe.").tempfile_in(dir)?;
    file.close()
}

static FIRST_FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Keeps `message` if it is the first failure to write of this process.
pub fn record_failure(message: String) {
    let mut first = FIRST_FAILURE.lock().unwrap_or_else(|p| p.into_inner());
    first.get_or_insert(message);
}

/// The first failure to write kept by [`record_failure`], if any.
pub fn first_failure() -> Option<String> {
    FIRST_FAILURE.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_a_missing_folder_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nowhere/report.json");
        let e = check_file(&path, "--report").unwrap_err();
        assert!(e.starts_with("--report ") && e.contains("does not exist"), "{e}");
        assert!(check_file(&dir.path().join("report.json"), "--report").is_ok());
        let e = check_file(dir.path(), "--report").unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
    }

    #[test]
    fn a_folder_under_a_file_cannot_be_prepared() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = prepare_dir(&file.join("out"), "-o").unwrap_err();
        assert!(e.starts_with("-o ") && e.contains("cannot create"), "{e}");
        assert!(prepare_dir(&dir.path().join("a/b"), "-o").is_ok());
        assert_eq!(std::fs::read_dir(dir.path().join("a/b")).unwrap().count(), 0, "the probe is removed");
    }
}
