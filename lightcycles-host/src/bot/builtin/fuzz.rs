//! `builtin:fuzz`: random moves mixed with every kind of invalid answer
//! ([`FuzzKind`]).

use std::time::Duration;

use lightcycles_core::{Dir, SplitMix64};

use crate::bot::builtin::moves::{pick, random_safe_move};
use crate::bot::{Bot, Reply, Turn};

/// Every kind of answer the fuzz bot gives besides a plain move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FuzzKind {
    /// A move surrounded by ASCII whitespace: valid after trimming.
    PaddedMove,
    /// A direction in lower case: `n`.
    LowerCase,
    /// A word: `NORTH`, `East`, `left`.
    Word,
    /// An empty line, or one of whitespace only.
    Empty,
    /// Two moves on one line: `N E`, `NS`.
    TwoMoves,
    /// A line of 65 to 1024 bytes (recorded cut, with `…`).
    Over64,
    /// A line over 1024 bytes.
    Over1024,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// No answer: the host records a timeout.
    NoAnswer,
    /// Declines to move, without fault.
    Declines,
}

impl FuzzKind {
    /// Every kind, in draw order.
    pub const ALL: [FuzzKind; 10] = [
        FuzzKind::PaddedMove,
        FuzzKind::LowerCase,
        FuzzKind::Word,
        FuzzKind::Empty,
        FuzzKind::TwoMoves,
        FuzzKind::Over64,
        FuzzKind::Over1024,
        FuzzKind::NotUtf8,
        FuzzKind::NoAnswer,
        FuzzKind::Declines,
    ];

    /// A reply of this kind, drawn from `rng`; `dir` is a sensible move.
    pub fn reply(self, dir: Dir, rng: &mut SplitMix64) -> Reply {
        let letter = dir.letter();
        let line = |s: String| Reply::Line(s.into_bytes());
        match self {
            FuzzKind::PaddedMove => {
                let pads = [" ", "\t", "\r", "  ", "\x0b", "\x0c"];
                line(format!("{}{letter}{}", pads[pick(rng, pads.len())], pads[pick(rng, pads.len())]))
            }
            FuzzKind::LowerCase => line(letter.to_ascii_lowercase().to_string()),
            FuzzKind::Word => {
                let words = ["NORTH", "East", "south", "WEST", "left", "up", "0", "1"];
                line(words[pick(rng, words.len())].to_string())
            }
            FuzzKind::Empty => line([" ", "", "\t ", "\r"][pick(rng, 4)].to_string()),
            FuzzKind::TwoMoves => {
                let other = Dir::ALL[pick(rng, 4)].letter();
                line(if pick(rng, 2) == 0 { format!("{letter} {other}") } else { format!("{letter}{other}") })
            }
            FuzzKind::Over64 => {
                let len = 65 + pick(rng, 1024 - 65 + 1);
                let mut s: String = std::iter::repeat(letter).take(len).collect();
                if pick(rng, 2) == 0 {
                    // A two-byte character across the recording cut at 60 bytes.
                    s.replace_range(59..61, "é");
                }
                line(s)
            }
            FuzzKind::Over1024 => {
                // A move, padding past the limit, and a second letter so that
                // the trimmed line is no move either (a move padded with
                // whitespace alone would be recorded as that move).
                let mut s = String::with_capacity(1100);
                s.push(letter);
                s.extend(std::iter::repeat(' ').take(1024 + pick(rng, 64)));
                s.push(letter);
                line(s)
            }
            FuzzKind::NotUtf8 => {
                let mut bytes = vec![letter as u8];
                let junk: [&[u8]; 4] = [b"\xff", b"\xc3", b"\xe2\x82", b"\x80\x80"];
                let j = junk[pick(rng, junk.len())];
                if pick(rng, 2) == 0 {
                    bytes.extend_from_slice(j);
                } else {
                    bytes.splice(0..0, j.iter().copied());
                }
                Reply::Line(bytes)
            }
            FuzzKind::NoAnswer => Reply::Timeout,
            FuzzKind::Declines => Reply::NoMove,
        }
    }
}

/// `builtin:fuzz`: on two ticks in three a random safe move, otherwise an
/// answer of a [`FuzzKind`] drawn uniformly.
#[derive(Debug)]
pub(super) struct FuzzBot {
    pub(super) rng: SplitMix64,
}

impl Bot for FuzzBot {
    fn answer(&mut self, turn: &Turn<'_>, _limit: Duration) -> Reply {
        let dir = random_safe_move(turn, &mut self.rng);
        if pick(&mut self.rng, 3) != 0 {
            return Reply::of_dir(dir);
        }
        let kind = FuzzKind::ALL[pick(&mut self.rng, FuzzKind::ALL.len())];
        kind.reply(dir, &mut self.rng)
    }
}
