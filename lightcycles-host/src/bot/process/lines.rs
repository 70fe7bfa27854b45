//! Reading a bot's output as lines without trusting it: a line is kept up to
//! a cap and the rest of it is skipped, so a bot that writes a line of a
//! gigabyte costs the host a few kilobytes; a line ends with `\n` only.
//!
//! Text after the last `\n` when the stream ends is not a line: an answer
//! counts once its line is complete.

use std::io::{ErrorKind, Read};
use std::sync::mpsc::SyncSender;
use std::time::Instant;

use lightcycles_core::command::MAX_LINE_BYTES;

/// The cap of an answer line: one byte more than the longest line the rules
/// read, so that a longer line is still seen to be too long (docs/RULES.md
/// section 6) and recorded cut.
pub const ANSWER_LINE_CAP: usize = MAX_LINE_BYTES + 1;

/// Splits a byte stream into lines, keeping at most `cap` bytes of each.
#[derive(Clone, Debug)]
pub struct LineSplitter {
    cap: usize,
    line: Vec<u8>,
}

impl LineSplitter {
    /// A splitter that keeps at most `cap` bytes of a line.
    pub fn new(cap: usize) -> LineSplitter {
        LineSplitter { cap, line: Vec::new() }
    }

    /// Feeds the next bytes of the stream; `emit` gets every line completed
    /// by them, without its `\n`, cut to the cap.
    pub fn feed(&mut self, mut bytes: &[u8], mut emit: impl FnMut(Vec<u8>)) {
        while !bytes.is_empty() {
            let end = bytes.iter().position(|&b| b == b'\n');
            let part = &bytes[..end.unwrap_or(bytes.len())];
            let room = self.cap - self.line.len();
            self.line.extend_from_slice(&part[..part.len().min(room)]);
            match end {
                Some(end) => {
                    emit(std::mem::take(&mut self.line));
                    bytes = &bytes[end + 1..];
                }
                None => break,
            }
        }
    }

    /// Bytes of the line in progress (at most the cap).
    pub fn pending(&self) -> usize {
        self.line.len()
    }
}

/// What a reader thread reports about a bot's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A complete line, cut to the cap, and when the host read it.
    Line {
        /// The line without its `\n`.
        bytes: Vec<u8>,
        /// When it was read: an answer is on time when this is within its
        /// deadline, however late the host looks at it.
        at: Instant,
    },
    /// The stream ended (the bot closed its output or exited) or failed.
    Closed,
}

/// Reads `source` to its end, sending each line (cut to `cap`) with the
/// time it was read, then [`Output::Closed`]. Returns early when nobody
/// listens any more. Meant for a thread of its own.
pub fn pump_lines(mut source: impl Read, cap: usize, sink: SyncSender<Output>) {
    let mut splitter = LineSplitter::new(cap);
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let at = Instant::now();
        let mut listening = true;
        splitter.feed(&buf[..n], |bytes| {
            if listening && sink.send(Output::Line { bytes, at }).is_err() {
                listening = false;
            }
        });
        if !listening {
            return;
        }
    }
    let _ = sink.send(Output::Closed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::mpsc::sync_channel;

    fn split(cap: usize, chunks: &[&[u8]]) -> (Vec<Vec<u8>>, usize) {
        let mut s = LineSplitter::new(cap);
        let mut lines = Vec::new();
        for c in chunks {
            s.feed(c, |l| lines.push(l));
        }
        (lines, s.pending())
    }

    #[test]
    fn lines_end_with_a_newline_and_lose_it() {
        let (lines, pending) = split(100, &[b"N\nE\r\n", b"S", b"\n\nW"]);
        assert_eq!(lines, vec![b"N".to_vec(), b"E\r".to_vec(), b"S".to_vec(), b"".to_vec()]);
        assert_eq!(pending, 1, "W has no newline yet: not a line");
    }

    #[test]
    fn a_long_line_is_cut_to_the_cap_and_the_next_line_is_whole() {
        let mut big = vec![b'x'; 1 << 20];
        big.push(b'\n');
        big.extend_from_slice(b"N\n");
        let (lines, pending) = split(ANSWER_LINE_CAP, &[&big[..1000], &big[1000..]]);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), ANSWER_LINE_CAP);
        assert_eq!(lines[1], b"N");
        assert_eq!(pending, 0);
    }

    #[test]
    fn the_pump_stamps_lines_and_reports_the_end() {
        let (tx, rx) = sync_channel(8);
        let before = Instant::now();
        pump_lines(&b"N\npartial"[..], 10, tx);
        match rx.recv().unwrap() {
            Output::Line { bytes, at } => {
                assert_eq!(bytes, b"N");
                assert!(at >= before);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(rx.recv().unwrap(), Output::Closed, "text without a newline is no line");
        assert!(rx.recv().is_err());
    }

    #[test]
    fn the_pump_stops_when_nobody_listens() {
        let (tx, rx) = sync_channel(0);
        drop(rx);
        // An endless stream of lines: the pump must return, not spin.
        pump_lines(std::io::repeat(b'\n'), 10, tx);
    }

    proptest! {
        /// However the stream is cut into chunks, the lines are those of
        /// the whole stream, each cut to the cap.
        #[test]
        fn chunking_never_changes_the_lines(
            stream in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'a'), any::<u8>()], 0..400),
            cuts in proptest::collection::vec(0usize..400, 0..6),
            cap in 1usize..20,
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(stream.len())).collect();
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut start = 0;
            for c in cuts.into_iter().chain([stream.len()]) {
                chunks.push(&stream[start..c]);
                start = c;
            }
            let (lines, pending) = split(cap, &chunks);
            let mut pieces: Vec<&[u8]> = stream.split(|&b| b == b'\n').collect();
            let last = pieces.pop().unwrap();
            let expected: Vec<Vec<u8>> = pieces.iter().map(|p| p[..p.len().min(cap)].to_vec()).collect();
            prop_assert_eq!(lines, expected);
            prop_assert_eq!(pending, last.len().min(cap));
        }
    }
}
