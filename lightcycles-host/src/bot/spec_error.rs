//! The error of a bot argument that names no bot this build can play: below
//! the adapters, which refuse their own forms with it, and the spec parser.

use crate::bot::builtin::catalog::Builtin;

/// A bot argument that names no bot this build can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// An empty argument, or a name with nothing after `=`.
    #[error("bot {arg:?}: empty bot spec; expected {GRAMMAR}")]
    Empty {
        /// The argument.
        arg: String,
    },
    /// `builtin:` with a name that is not built in.
    #[error("bot {arg:?}: no built-in bot is called {name:?}; the built-in bots are {}", Builtin::names())]
    UnknownBuiltin {
        /// The argument.
        arg: String,
        /// The name after `builtin:`.
        name: String,
    },
    /// A built-in bot with an option it does not know.
    #[error("bot {arg:?}: {message}")]
    BuiltinOption {
        /// The argument.
        arg: String,
        /// What is wrong with the option.
        message: String,
    },
    /// `cmd:` or `tron2010:` with no command.
    #[error("bot {arg:?}: {prefix} needs a command after the colon")]
    EmptyCommand {
        /// The argument.
        arg: String,
        /// `cmd:` or `tron2010:`.
        prefix: &'static str,
    },
    /// Nothing the grammar knows.
    #[error("bot {arg:?}: not a bot spec; expected {GRAMMAR}")]
    UnknownForm {
        /// The argument.
        arg: String,
    },
    /// A bot file that cannot be played (missing, not loadable, no interpreter).
    #[error("bot {arg:?}: {reason}")]
    Unusable {
        /// The argument.
        arg: String,
        /// Why, naming the file or program.
        reason: String,
    },
}

/// The grammar, for error messages.
#[cfg(feature = "wasm")]
pub const GRAMMAR: &str =
    "[NAME=]builtin:BOT, [NAME=]cmd:COMMAND, [NAME=]tron2010:COMMAND, [NAME=]PATH.py, [NAME=]FOLDER (holding main.py) or [NAME=]PATH.so/.dylib/.dll or [NAME=][wasm:]PATH.wasm";
/// The grammar of a build without the wasm adapter.
#[cfg(not(feature = "wasm"))]
pub const GRAMMAR: &str =
    "[NAME=]builtin:BOT, [NAME=]cmd:COMMAND, [NAME=]tron2010:COMMAND, [NAME=]PATH.py, [NAME=]FOLDER (holding main.py) or [NAME=]PATH.so/.dylib/.dll";
