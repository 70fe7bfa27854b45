//! Keys for `play --watch` on a terminal: `q` quits, space pauses and
//! resumes, `+` and `-` change the speed, `n` (or →) steps one tick while
//! paused.
//!
//! The terminal is put in non-canonical mode without echo (each key is
//! read as it is pressed; Ctrl-C still interrupts) for as long as a
//! [`Keys`] lives, and put back as it was when it is dropped, or by
//! [`restore_terminal`] from the interrupt handler. A thread reads stdin
//! and hands the keys over a channel, so the watcher waits for a key with
//! a timeout and never blocks the game for longer than its pace.

use std::io::Read;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use rustix::termios::{self, LocalModes, OptionalActions, SpecialCodeIndex, Termios};

/// What a key asks of the watcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `q`: stop the run.
    Quit,
    /// Space: pause, or go on.
    Pause,
    /// `+` (or `=`): twice as fast.
    Faster,
    /// `-` (or `_`): half as fast.
    Slower,
    /// `n`, `.` or →: one tick, while paused.
    Step,
}

impl Key {
    /// The key a byte of input stands for. → arrives as `ESC [ C`: its `C`
    /// is a step, the rest of the sequence nothing.
    pub fn of_byte(byte: u8) -> Option<Key> {
        match byte {
            b'q' | b'Q' => Some(Key::Quit),
            b' ' => Some(Key::Pause),
            b'+' | b'=' => Some(Key::Faster),
            b'-' | b'_' => Some(Key::Slower),
            b'n' | b'N' | b'.' | b'C' => Some(Key::Step),
            _ => None,
        }
    }
}

/// What waiting for a key gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// A key.
    Key(Key),
    /// No key in the time given.
    Timeout,
    /// No key will ever come (stdin closed).
    Closed,
}

/// The terminal's settings before the watcher changed them.
static SAVED: Mutex<Option<Termios>> = Mutex::new(None);

/// Puts the terminal back as it was before [`Keys::from_terminal`], if it
/// was changed. Never blocks: an interrupt handler calls it.
pub fn restore_terminal() {
    if let Ok(mut saved) = SAVED.try_lock() {
        if let Some(settings) = saved.take() {
            let _ = termios::tcsetattr(std::io::stdin(), OptionalActions::Now, &settings);
        }
    }
}

/// Keys as they are pressed.
pub struct Keys {
    bytes: Receiver<u8>,
    terminal: bool,
}

impl Keys {
    /// The keys of the terminal on stdin, or `None` when stdin is no
    /// terminal (or its settings cannot be changed).
    pub fn from_terminal() -> Option<Keys> {
        let stdin = std::io::stdin();
        let before = termios::tcgetattr(&stdin).ok()?;
        let mut raw = before.clone();
        raw.local_modes -= LocalModes::ICANON | LocalModes::ECHO;
        raw.special_codes[SpecialCodeIndex::VMIN] = 1;
        raw.special_codes[SpecialCodeIndex::VTIME] = 0;
        termios::tcsetattr(&stdin, OptionalActions::Now, &raw).ok()?;
        if let Ok(mut saved) = SAVED.lock() {
            *saved = Some(before);
        }
        let (send, bytes) = mpsc::channel();
        std::thread::spawn(move || {
            let mut byte = [0u8; 1];
            while let Ok(1) = std::io::stdin().lock().read(&mut byte) {
                if send.send(byte[0]).is_err() {
                    break;
                }
            }
        });
        Some(Keys { bytes, terminal: true })
    }

    /// Keys from a channel of bytes, for tests.
    pub fn from_channel(bytes: Receiver<u8>) -> Keys {
        Keys { bytes, terminal: false }
    }

    /// The next byte of input within `timeout`, as it came, for a reader of
    /// its own ([`super::human`]); `Err` says why none came.
    pub fn byte(&mut self, timeout: Duration) -> Result<u8, Wait> {
        match self.bytes.recv_timeout(timeout) {
            Ok(byte) => Ok(byte),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Wait::Closed),
        }
    }

    /// The next key within `timeout` (for ever when `None`); bytes that are
    /// no key are skipped.
    pub fn wait(&mut self, timeout: Option<Duration>) -> Wait {
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        loop {
            let got = match deadline {
                None => self.bytes.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(at) => self.bytes.recv_timeout(at.saturating_duration_since(std::time::Instant::now())),
            };
            match got {
                Ok(byte) => {
                    if let Some(key) = Key::of_byte(byte) {
                        return Wait::Key(key);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Wait::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Wait::Closed,
            }
        }
    }
}

impl Drop for Keys {
    fn drop(&mut self) {
        if self.terminal {
            restore_terminal();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_become_keys_and_arrows_step() {
        let (send, recv) = mpsc::channel();
        let mut keys = Keys::from_channel(recv);
        for b in b"x \x1b[C+-q" {
            send.send(*b).unwrap();
        }
        let got: Vec<Wait> = (0..5).map(|_| keys.wait(Some(Duration::from_millis(100)))).collect();
        use Key::*;
        assert_eq!(got, [Pause, Step, Faster, Slower, Quit].map(Wait::Key));
        assert_eq!(keys.wait(Some(Duration::from_millis(10))), Wait::Timeout);
        drop(send);
        assert_eq!(keys.wait(None), Wait::Closed);
    }
}
