//! Bot adapters: one module per way of reaching a bot's code, and the
//! registry that the bot spec grammar is read from.
//!
//! - [`builtin`](crate::bot::builtin): bots compiled into the host (`builtin:NAME`).
//! - [`json_lines`]: any program speaking JSON lines (`cmd:COMMAND`).
//! - [`tron2010`]: bots of the 2010 Google AI Challenge (`tron2010:COMMAND`).
//! - [`python`]: CodeClash `main.py` bots (`get_move(obs) -> str`).
//! - [`plugin`]: native plugins (`PATH.so`), in the host or isolated.
//!
//! A new adapter is a module with a type that implements [`Adapter`], and
//! one line in [`ADAPTERS`].

pub mod json_lines;
pub mod plugin;
pub mod python;
pub mod tron2010;

use std::sync::Arc;

use crate::bot::process::log::LogPlace;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec::SpecError;
use crate::bot::BotFactory;

/// One form of bot spec and how to play it.
pub trait Adapter: Sync {
    /// What bots of this form are called in messages, with the form's
    /// syntax: "JSON-lines programs (cmd:COMMAND)".
    fn form(&self) -> &'static str;

    /// Whether `form` (a spec without its `NAME=`) is of this adapter:
    /// `None` when it is not; the target (what the adapter needs to find
    /// the bot: a command, a path, a builtin's name) when it is; an error
    /// naming `arg` when it is this adapter's form but cannot be a bot.
    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>>;

    /// The name a bot of this form gets when its spec gives none.
    fn default_name(&self, target: &str) -> String;

    /// The most players a game with a bot of this form may have, when the
    /// form has a limit of its own.
    fn max_players(&self) -> Option<usize> {
        None
    }

    /// Whether [`Hosting::isolate`] changes how bots of this form run.
    fn isolatable(&self) -> bool {
        false
    }

    /// The factory that makes the bot of `target` for each game, or why
    /// this build cannot play it. Files are checked here, once, so a
    /// missing bot stops a run before its first game.
    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String>;
}

/// Every adapter, in the order a spec is tried against them: prefixes
/// first, then file endings.
pub static ADAPTERS: &[&dyn Adapter] = &[
    &crate::bot::builtin::BuiltinAdapter,
    &json_lines::JsonLinesAdapter,
    &tron2010::Tron2010Adapter,
    &python::PythonAdapter,
    &plugin::PluginAdapter,
];

/// How the bots of a run are hosted: the limits of every bot process, and
/// whether native plugins run in a process of their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hosting {
    /// The limits of every bot process.
    pub sandbox: Sandbox,
    /// Run each native plugin in a child process of the host's binary
    /// (`--isolate`) rather than in the host.
    pub isolate: bool,
}

/// The target after `prefix`, for the adapters that run a shell command:
/// `None` when `form` does not start with `prefix`, an error when the
/// command is empty.
pub fn command_after(arg: &str, form: &str, prefix: &'static str) -> Option<Result<String, SpecError>> {
    let command = form.strip_prefix(prefix)?;
    if command.trim().is_empty() {
        return Some(Err(SpecError::EmptyCommand { arg: arg.to_string(), prefix }));
    }
    Some(Ok(command.to_string()))
}

/// The default name of a bot run by a shell command: the stem of its
/// program (an `exec` before it is skipped).
pub fn command_name(command: &str) -> String {
    let program = command.split_ascii_whitespace().find(|w| *w != "exec").unwrap_or("");
    file_stem_name(std::path::Path::new(program)).unwrap_or_else(|| "cmd".to_string())
}

/// A file's stem as a display name. A file name may hold any character, a
/// name only those of a NAME: every other character becomes `_`, so that
/// a name never steers a terminal and always works as `NAME=` in a replay
/// command.
pub fn file_stem_name(path: &std::path::Path) -> Option<String> {
    let plain = |c: char| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' };
    path.file_stem().map(|s| s.to_string_lossy().chars().map(plain).collect()).filter(|s: &String| !s.is_empty())
}

/// The path in `form` when it ends in one of `endings` and has a stem.
pub fn path_ending_in(form: &str, endings: &[&str]) -> Option<String> {
    let path = std::path::Path::new(form);
    let has_stem = path.file_stem().is_some_and(|s| !s.is_empty() && s != ".");
    let ending = path.extension().and_then(|e| e.to_str())?;
    (has_stem && endings.contains(&ending)).then(|| form.to_string())
}
