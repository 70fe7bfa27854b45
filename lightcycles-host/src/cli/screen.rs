//! Standard output: writing a command's text, and whether a person looks
//! at it.

use std::io::{IsTerminal, Write};

/// Writes `text` to `out` and flushes it.
pub(crate) fn write_out(out: &mut dyn Write, text: &str) -> Result<(), std::io::Error> {
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Whether this process's standard output is a terminal a person looks at
/// (and `NO_COLOR` does not ask for plain text): then boards are drawn in
/// colour, and `--watch` redraws in place.
pub(crate) fn stdout_is_a_screen() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
}
