//! Reading the files a user names (replays, maps, results): anyone can write
//! them, so each is read with a size cap before it is parsed, and only when
//! it is a regular file. A directory, a FIFO or a device given as a file is
//! refused at once rather than read forever; a file over its cap is refused
//! from its size alone, without reading it; bytes that are not UTF-8 are
//! refused with the line and column where they start.
//!
//! The caps, far above what the host ever writes:
//!
//! | file | cap | the largest the host writes |
//! | --- | --- | --- |
//! | replay | 256 MiB | about 100 MB: 32,512 ticks (the longest game on 255 × 255) of 8 players each answering a 64-byte line of escaped control characters |
//! | map | 1 MiB | 65 KB (255 × 255 and a header) |
//! | results line | 16 MiB | a few MB: the header holds the map's text and every bot spec |

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

/// What a kind of file is called in messages, and how large it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What the file is, for messages: `replay`, `map`.
    pub what: &'static str,
    /// The most bytes read before the file is refused.
    pub max_bytes: u64,
}

/// Replay files (`replay verify`, `replay show`, `view`).
pub const REPLAY: Limit = Limit { what: "replay", max_bytes: 256 << 20 };
/// 2010 map files (`--map`).
pub const MAP: Limit = Limit { what: "map", max_bytes: 1 << 20 };
/// One line of a results file (`tournament --resume`); the file itself may
/// hold any number of lines.
pub const RESULTS_LINE: Limit = Limit { what: "results line", max_bytes: 16 << 20 };

/// Why a file could not be read as text.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Opening or reading failed (missing, no permission, …).
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file: a directory, a FIFO, a device, a socket.
    #[error("is {kind}, not a file to read")]
    NotAFile {
        /// What it is instead, with its article: `a directory`.
        kind: &'static str,
    },
    /// Larger than the cap of its kind.
    #[error("{}, more than the {} a {what} file may hold", .size.map_or("holds more".to_string(), |s| format!("is {}", bytes_text(s))), size_text(*.max))]
    TooLarge {
        /// What the file is.
        what: &'static str,
        /// Its size, when its metadata told it; `None` when reading it ran
        /// past the cap.
        size: Option<u64>,
        /// The cap.
        max: u64,
    },
    /// Bytes that are not UTF-8.
    #[error(
        "is not UTF-8 text: line {line}, column {column} (byte {offset}) starts a byte sequence that is not UTF-8"
    )]
    NotUtf8 {
        /// The line of the first bad byte, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
        /// Its offset in the file, from 0.
        offset: usize,
    },
}

/// A byte count as people read it: `300 bytes`, `1 MiB`, `2.5 GiB`.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// An exact byte count, and roughly in larger units: `1048577 bytes (1.0 MiB)`.
pub fn bytes_text(bytes: u64) -> String {
    if bytes < 1024 {
        size_text(bytes)
    } else {
        format!("{bytes} bytes ({})", size_text(bytes))
    }
}

/// What a file that is not a regular file is, for messages.
fn kind_of(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Opens `path` as a regular file for reading (and writing, with `write`),
/// refusing anything else without blocking on it: a FIFO is opened without
/// waiting for a writer and refused.
pub fn open_regular(path: &Path, write: bool) -> Result<(File, Metadata), InputError> {
    if let Some(kind) = kind_of(&std::fs::metadata(path)?) {
        return Err(InputError::NotAFile { kind });
    }
    let mut options = OpenOptions::new();
    options.read(true).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The path may have been swapped for a FIFO since: do not wait on it.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if let Some(kind) = kind_of(&meta) {
        return Err(InputError::NotAFile { kind });
    }
    Ok((file, meta))
}

/// Reads the file at `path` as UTF-8 text of at most `limit.max_bytes`.
pub fn read_text(path: &Path, limit: &Limit) -> Result<String, InputError> {
    let (file, meta) = open_regular(path, false)?;
    let too_large = |size| InputError::TooLarge { what: limit.what, size, max: limit.max_bytes };
    if meta.len() > limit.max_bytes {
        return Err(too_large(Some(meta.len())));
    }
    // The size may have grown since, or be wrong (files under /proc): read
    // one byte past the cap to know.
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.take(limit.max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit.max_bytes {
        return Err(too_large(None));
    }
    text(bytes)
}

/// `bytes` as a string, or where the first bytes that are not UTF-8 are.
pub fn text(bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let good = std::str::from_utf8(&e.as_bytes()[..offset]).expect("valid up to here");
        let line_start = good.rfind('\n').map_or(0, |i| i + 1);
        InputError::NotUtf8 {
            line: good.matches('\n').count() + 1,
            column: good[line_start..].chars().count() + 1,
            offset,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size_text(300), "300 bytes");
        assert_eq!(size_text(1 << 20), "1 MiB");
        assert_eq!(size_text(256 << 20), "256 MiB");
        assert_eq!(size_text(5 << 29), "2.5 GiB");
        assert_eq!(size_text(1536), "1.5 KiB");
        assert_eq!(bytes_text(2 << 30), "2147483648 bytes (2 GiB)");
        assert_eq!(bytes_text(12), "12 bytes");
    }

    #[test]
    fn bad_bytes_are_placed_by_line_and_column() {
        assert_eq!(text(b"ok\n".to_vec()).unwrap(), "ok\n");
        match text(b"{\n  \"\xc3\xa9t\xe9\"\n}".to_vec()) {
            Err(InputError::NotUtf8 { line: 2, column: 6, offset: 8 }) => {}
            other => panic!("{other:?}"),
        }
        match text(b"\xff".to_vec()) {
            Err(e @ InputError::NotUtf8 { line: 1, column: 1, offset: 0 }) => assert_eq!(
                e.to_string(),
                "is not UTF-8 text: line 1, column 1 (byte 0) starts a byte sequence that is not UTF-8"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn files_over_the_cap_are_refused_from_their_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        let file = File::create(&path).unwrap();
        file.set_len(MAP.max_bytes + 1).unwrap();
        let e = read_text(&path, &MAP).unwrap_err();
        assert_eq!(e.to_string(), "is 1048577 bytes (1.0 MiB), more than the 1 MiB a map file may hold");
        file.set_len(MAP.max_bytes).unwrap();
        assert_eq!(read_text(&path, &MAP).unwrap().len() as u64, MAP.max_bytes, "the cap itself is allowed");
    }

    #[test]
    fn directories_are_not_files() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_text(dir.path(), &REPLAY).unwrap_err();
        assert_eq!(e.to_string(), "is a directory, not a file to read");
        let e = read_text(&dir.path().join("none"), &REPLAY).unwrap_err();
        assert!(e.to_string().starts_with("cannot read: No such file"), "{e}");
    }
}
