//! Files the host writes in one piece (replays, reports, view pages) are
//! written to a temporary file beside them and renamed over the name, so a
//! reader, or a run killed at any moment, sees the old file or the new one,
//! never half of one. A kill between the two steps leaves only the hidden
//! temporary file (`.NAME.XXXXXX.tmp`), which nothing reads.
//!
//! (Append-only files are the other kind: the results file is written one
//! whole line per `write`, see `tournament::results`.)

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` whole: through a temporary file in the same
/// directory (created with the permissions a plain create gives, 0666 less
/// the umask) and a rename.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut file = builder.tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_replaced_whole_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        write(&path, b"first\n").unwrap();
        write(&path, b"second, longer\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer\n");
        assert_eq!(names_in(dir.path()), ["report.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_those_of_a_plain_create() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (plain, whole) = (dir.path().join("plain"), dir.path().join("whole"));
        std::fs::write(&plain, b"x").unwrap();
        write(&whole, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&whole), mode(&plain));
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/dir/page.html");
        assert_eq!(write(&missing, b"x").unwrap_err().kind(), std::io::ErrorKind::NotFound);
        // A directory in the way: the rename fails, the temporary file goes.
        let taken = dir.path().join("taken");
        std::fs::create_dir(&taken).unwrap();
        std::fs::write(taken.join("inside"), b"keep").unwrap();
        assert!(write(&taken, b"x").is_err());
        assert_eq!(std::fs::read(taken.join("inside")).unwrap(), b"keep");
        assert_eq!(names_in(dir.path()), ["taken"]);
    }
}
