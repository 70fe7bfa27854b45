//! Checking replay files: read, parse and replay one, and say what is wrong
//! and where.

use std::path::Path;

use lightcycles_core::replay::{self, Mismatch, Replay, ReplayError};
use lightcycles_core::{Engine, Outcome};

use crate::io::input::{self, InputError};

/// What replaying a well-formed file found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every frame and the result agree with the rules.
    Verified(Outcome),
    /// The first difference between the file and the rules.
    Differs(Mismatch),
}

/// A file that is not a replay that can be played.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read: missing, unreadable, not a regular file,
    /// over the replay cap, not UTF-8.
    #[error(transparent)]
    Read(#[from] InputError),
    /// The text is not a replay this build can play: bad JSON (with line and
    /// column), wrong types, or values that do not fit together.
    #[error("{0}")]
    Malformed(String),
}

/// Replays the text of a replay file on engine `E`.
pub fn check_text<E: Engine>(text: &str) -> Result<Verdict, FileError> {
    let replay = Replay::from_json(text).map_err(malformed)?;
    match replay::verify::<E>(&replay) {
        Ok(outcome) => Ok(Verdict::Verified(outcome)),
        Err(ReplayError::Mismatch(m)) => Ok(Verdict::Differs(m)),
        Err(e) => Err(malformed(e)),
    }
}

/// Reads (within [`input::REPLAY`]) and replays a replay file on engine `E`.
pub fn check_file<E: Engine>(path: &Path) -> Result<Verdict, FileError> {
    let text = input::read_text(path, &input::REPLAY)?;
    check_text::<E>(&text)
}

fn malformed(e: ReplayError) -> FileError {
    match e {
        ReplayError::Malformed(msg) => FileError::Malformed(format!("malformed replay: {msg}")),
        other => FileError::Malformed(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::ReferenceGame;
    use proptest::prelude::*;

    const HEADON: &str = include_str!("../../../lightcycles-core/tests/golden-replays/map_headon_draw.json");
    const SIM: &str = include_str!("../../../lightcycles-core/tests/golden-replays/sim_3.json");

    #[test]
    fn golden_replays_verify() {
        for text in [HEADON, SIM] {
            assert!(matches!(check_text::<ReferenceGame>(text), Ok(Verdict::Verified(_))));
        }
    }

    #[test]
    fn bad_json_names_line_and_column() {
        let truncated = &SIM[..SIM.len() / 2];
        let e = check_text::<ReferenceGame>(truncated).unwrap_err().to_string();
        assert!(e.starts_with("malformed replay: EOF while parsing") && e.contains("line 1 column"), "{e}");
        let wrong_type = SIM.replacen("\"seed\": 503", "\"seed\": \"503\"", 1);
        let e = check_text::<ReferenceGame>(&wrong_type).unwrap_err().to_string();
        assert!(e.contains("invalid type: string \"503\", expected u64 at line 1 column"), "{e}");
        let bad_map = HEADON.replacen("#1 ", "#3 ", 1);
        let e = check_text::<ReferenceGame>(&bad_map).unwrap_err().to_string();
        assert!(e.contains("map: line 6, column 2"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn any_damage_is_reported_never_a_panic(cut in 0usize..4000, at in 0usize..4000, byte in any::<u8>()) {
            let mut bytes = HEADON.as_bytes().to_vec();
            let at = at % bytes.len();
            bytes[at] = byte;
            bytes.truncate(bytes.len() - cut % bytes.len());
            let text = String::from_utf8_lossy(&bytes);
            let _ = check_text::<ReferenceGame>(&text);
        }
    }
}
