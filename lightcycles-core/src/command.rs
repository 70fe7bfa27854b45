//! Commands: the one parser of answer lines, and how lines and faults are
//! recorded (docs/RULES.md section 6).

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use crate::geometry::Dir;

/// Longest answer line read, in bytes; a longer one is invalid.
pub const MAX_LINE_BYTES: usize = 1024;
/// Longest invalid line recorded whole, in bytes.
pub const MAX_RECORDED_BYTES: usize = 64;
/// How many bytes of a longer invalid line are kept (then `…`).
pub const RECORDED_PREFIX_BYTES: usize = 60;

/// Why a player's answer did not count as a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// A line that is not exactly `N`, `E`, `S` or `W`.
    Invalid,
    /// No answer within the time limit.
    Timeout,
    /// The bot crashed or exited.
    Crash,
}

impl FaultKind {
    /// The name used in replays.
    pub const fn as_str(self) -> &'static str {
        match self {
            FaultKind::Invalid => "invalid",
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FaultKind {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "invalid" => Ok(FaultKind::Invalid),
            "timeout" => Ok(FaultKind::Timeout),
            "crash" => Ok(FaultKind::Crash),
            _ => Err(()),
        }
    }
}

/// What a player does on one tick, as the engines see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// Ride in this direction (unless it reverses into the neck).
    Move(Dir),
    /// Keep the current direction, without fault (no answer was asked for,
    /// or a bot declined to move).
    #[default]
    Keep,
    /// A fault: no move under `straight`, a crash under `eliminate`.
    Fault(FaultKind),
}

impl Action {
    /// The commanded direction, if any.
    pub const fn dir(self) -> Option<Dir> {
        match self {
            Action::Move(d) => Some(d),
            _ => None,
        }
    }

    /// Whether this is a fault.
    pub const fn is_fault(self) -> bool {
        matches!(self, Action::Fault(_))
    }
}

/// Whether a byte is ASCII whitespace in the sense of C's `isspace`:
/// space, `\t`, `\n`, `\v`, `\f`, `\r`.
pub const fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// Removes leading and trailing ASCII whitespace.
pub fn trim_ascii_space(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| !is_ascii_space(b)).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|&b| !is_ascii_space(b)).map_or(start, |i| i + 1);
    &bytes[start..end]
}

/// The one parser of answer lines: after trimming, exactly `N`, `E`, `S` or
/// `W` is a move; anything else (or a line over 1024 bytes) is invalid.
pub fn parse_move(line: &[u8]) -> Option<Dir> {
    if line.len() > MAX_LINE_BYTES {
        return None;
    }
    match trim_ascii_space(line) {
        b"N" => Some(Dir::N),
        b"E" => Some(Dir::E),
        b"S" => Some(Dir::S),
        b"W" => Some(Dir::W),
        _ => None,
    }
}

/// One player's answer on one tick as a replay records it: the trimmed line
/// (or none) and the fault (or none).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Answer {
    /// The recorded line, `None` when there was no line.
    pub line: Option<String>,
    /// The fault, if the answer was one.
    pub fault: Option<FaultKind>,
}

impl Answer {
    /// The answer of a bot that sent `raw` (without its line terminator).
    /// Goes through [`parse_move`]; an invalid line is recorded as section 6
    /// says, so that it stays invalid on replay.
    pub fn from_line(raw: &[u8]) -> Answer {
        let valid = parse_move(raw).is_some();
        let trimmed = trim_ascii_space(raw);
        let text: Cow<'_, str> = String::from_utf8_lossy(trimmed);
        // A line cut for its length keeps a mark that it was cut, so that it
        // stays invalid on replay even when what was kept would parse (a move
        // padded past 1024 bytes).
        let too_long = raw.len() > MAX_LINE_BYTES;
        let line = if !valid && (text.len() > MAX_RECORDED_BYTES || too_long) {
            let mut cut = RECORDED_PREFIX_BYTES.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let mut short = String::with_capacity(cut + 3);
            short.push_str(&text[..cut]);
            short.push('…');
            short
        } else {
            text.into_owned()
        };
        Answer { line: Some(line), fault: (!valid).then_some(FaultKind::Invalid) }
    }

    /// No line and a fault of `kind` (a timeout or a crash).
    pub const fn fault(kind: FaultKind) -> Answer {
        Answer { line: None, fault: Some(kind) }
    }

    /// No line and no fault: the player was not asked, or declined to move.
    pub const fn none() -> Answer {
        Answer { line: None, fault: None }
    }

    /// What the engines do with this answer. A recorded line goes through
    /// the parser again, so a replay is judged by the same code as a game.
    pub fn action(&self) -> Action {
        match (&self.line, self.fault) {
            (Some(line), _) => match parse_move(line.as_bytes()) {
                Some(d) => Action::Move(d),
                None => Action::Fault(FaultKind::Invalid),
            },
            (None, Some(kind)) => Action::Fault(kind),
            (None, None) => Action::Keep,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn exactly_one_letter_after_trimming_is_a_move() {
        assert_eq!(parse_move(b"N"), Some(Dir::N));
        assert_eq!(parse_move(b" E\r\n"), Some(Dir::E));
        assert_eq!(parse_move(b"\t S \x0b\x0c"), Some(Dir::S));
        assert_eq!(parse_move(b"W"), Some(Dir::W));
        for bad in [&b"n"[..], b"NORTH", b"", b"   ", b"N E", b"NE", b"N\0", b"\xffN", b"0", b"1", b"\xc2\xa0N"] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
        let mut long = vec![b' '; 1100];
        long[0] = b'N';
        assert_eq!(parse_move(&long), None, "a line over 1024 bytes is invalid");
        assert_eq!(parse_move(&long[..1024]), Some(Dir::N));
    }

    #[test]
    fn answers_are_recorded_trimmed_and_stay_invalid() {
        assert_eq!(Answer::from_line(b"  S \n"), Answer { line: Some("S".into()), fault: None });
        assert_eq!(
            Answer::from_line(b" north "),
            Answer { line: Some("north".into()), fault: Some(FaultKind::Invalid) }
        );
        assert_eq!(Answer::from_line(b"\xffN").line.as_deref(), Some("\u{fffd}N"));
        let exactly_64 = "x".repeat(64);
        assert_eq!(Answer::from_line(exactly_64.as_bytes()).line.as_deref(), Some(exactly_64.as_str()));
        let long = format!("N{}X", " ".repeat(70));
        let a = Answer::from_line(long.as_bytes());
        let expected = format!("N{}…", " ".repeat(59));
        assert_eq!(a.line.as_deref(), Some(expected.as_str()));
        assert_eq!(a.action(), Action::Fault(FaultKind::Invalid));
        // A cut never splits a character: 59 bytes of 'a' then 'é' (2 bytes).
        let multi = format!("{}é{}", "a".repeat(59), "b".repeat(10));
        assert_eq!(Answer::from_line(multi.as_bytes()).line.unwrap(), format!("{}…", "a".repeat(59)));
        // A move padded past 1024 bytes is invalid, and recorded so that it stays so.
        let padded = format!("N{}", " ".repeat(1100));
        let a = Answer::from_line(padded.as_bytes());
        assert_eq!(a, Answer { line: Some("N…".into()), fault: Some(FaultKind::Invalid) });
        assert_eq!(a.action(), Action::Fault(FaultKind::Invalid));
    }

    use alloc::format;

    #[test]
    fn actions_of_answers() {
        assert_eq!(Answer::from_line(b"E").action(), Action::Move(Dir::E));
        assert_eq!(Answer::fault(FaultKind::Timeout).action(), Action::Fault(FaultKind::Timeout));
        assert_eq!(Answer::fault(FaultKind::Crash).action(), Action::Fault(FaultKind::Crash));
        assert_eq!(Answer::none().action(), Action::Keep);
    }
}
