//! How a command fails: its exit code and a message that names what and
//! where, printed with every control character escaped.

/// A command that did not succeed: its exit code and what to tell the user.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    /// 1 a check failed, 2 bad usage or bad input.
    pub code: u8,
    /// The message, naming what and where.
    pub message: String,
}

/// A failure of bad usage or bad input (exit code 2).
pub(crate) fn bad_input(message: impl Into<String>) -> Failure {
    Failure { code: 2, message: message.into() }
}

/// An error message as it may be printed: a message quotes files, names
/// and lines from anyone, so every control character in it is shown as an
/// escape (its own line breaks are kept).
pub fn shown_message(message: &str) -> String {
    crate::io::untrusted::terminal_lines(message)
}

/// A failure to write to standard output.
pub(crate) fn stdout_failure(e: std::io::Error) -> Failure {
    bad_input(format!("cannot write to standard output: {e}"))
}
