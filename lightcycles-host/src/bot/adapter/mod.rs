//! Bot adapters: one module per way of reaching a bot's code, and the
//! registry that the bot spec grammar is read from.
//!
//! - [`builtin`](crate::bot::builtin): bots compiled into the host (`builtin:NAME`).
//! - [`json_lines`]: any program speaking JSON lines (`cmd:COMMAND`).
//! - [`tron2010`]: bots of the 2010 Google AI Challenge (`tron2010:COMMAND`).
//! - [`python`]: CodeClash `main.py` bots (`get_move(obs) -> str`).
//! - [`plugin`]: native plugins (`PATH.so`), in the host or isolated.
//! - [`wasm`]: WebAssembly modules (`wasm:PATH.wasm`), run under wasmtime.
//!
//! A new adapter is a module with a type that implements [`Adapter`], and
//! one line in [`ADAPTERS`].

pub mod json_lines;
pub mod plugin;
pub mod python;
pub mod tron2010;
pub mod wasm;

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

    /// The name the bot declares itself, when its form has a way to say
    /// one (a C plugin's table): it comes before [`Adapter::default_name`].
    fn declared_name(&self, _target: &str, _hosting: &Hosting) -> Option<String> {
        None
    }

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
    &wasm::WasmAdapter,
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
    /// How wasm bots are budgeted: fuel per tick, or the clock.
    pub wasm: wasm::WasmBudget,
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

/// Programs that run a bot file rather than being the bot: a command that
/// starts with one of them is named after the file it runs.
const INTERPRETERS: &[&str] = &[
    "python", "python3", "pypy", "pypy3", "node", "deno", "bun", "ruby", "perl", "php", "lua", "sh", "bash", "java",
    "julia", "Rscript", "dotnet", "env", "uv", "time", "nice",
];

/// Whether `program` (a path or a name) is an interpreter of
/// [`INTERPRETERS`], `python3.12` and the like included.
fn is_interpreter(program: &str) -> bool {
    let base = std::path::Path::new(program).file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let trimmed = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    INTERPRETERS.contains(&base.as_str()) || INTERPRETERS.contains(&trimmed)
}

/// The default name of a bot run by a shell command: what a person would
/// call it. The program's file name, skipping `exec`, `VAR=value`
/// assignments and interpreters (`python3 bots/x.py` is `x`, `python3 -m
/// mybot` is `mybot`, `java -jar x.jar` is `x`, `uv run bot.py` is `bot`);
/// a `main.py` is named after its folder, as in [`path_name`].
pub fn command_name(command: &str) -> String {
    let mut words = command.split_ascii_whitespace().peekable();
    let mut program = None;
    let mut after_interpreter = false;
    while let Some(word) = words.next() {
        let assignment = word
            .split_once('=')
            .is_some_and(|(var, _)| !var.is_empty() && var.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        if word == "exec" || assignment {
            continue;
        }
        if word == "-m" || word == "-jar" {
            program = words.next();
            break;
        }
        if word.starts_with('-') || (after_interpreter && word == "run") {
            continue;
        }
        if is_interpreter(word) {
            after_interpreter = true;
            program.get_or_insert(word);
            continue;
        }
        program = Some(word);
        break;
    }
    let Some(program) = program else { return "cmd".to_string() };
    let path = std::path::Path::new(program);
    let named = if program.ends_with(".py") || program.ends_with(".js") {
        path_name(path)
    } else {
        file_stem_name(path).or_else(|| plain_name(program))
    };
    named.unwrap_or_else(|| "cmd".to_string())
}

/// The stems a bot file has when its folder is the bot's real name: a
/// CodeClash `main.py`, a `bot.py`, an `index.js`.
const FOLDER_NAMED: &[&str] = &["main", "bot", "index", "__main__"];

/// The name of a bot file or folder: a folder by its own name; a file by
/// its stem, unless the stem is a generic one ([`FOLDER_NAMED`], such as
/// CodeClash's `main.py`) and the file is in a folder, which then names it
/// (`p1/main.py` is `p1`; `main.py` in the current folder is named after
/// the current folder).
pub fn path_name(path: &std::path::Path) -> Option<String> {
    if path.is_dir() {
        return folder_name(path);
    }
    let stem = file_stem_name(path)?;
    if !FOLDER_NAMED.contains(&stem.as_str()) {
        return Some(stem);
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    folder_name(parent).or(Some(stem))
}

/// A folder's own name (`.` and `..` resolved), as a display name.
fn folder_name(dir: &std::path::Path) -> Option<String> {
    let last = dir.file_name().filter(|n| *n != "." && *n != "..");
    let named = match last {
        Some(_) => dir.to_path_buf(),
        None => std::fs::canonicalize(dir).ok()?,
    };
    named.file_name().and_then(|n| plain_name(&n.to_string_lossy()))
}

/// `text` as a display name: every character that may not be in a NAME
/// becomes `_`; `None` when nothing is left.
fn plain_name(text: &str) -> Option<String> {
    let plain = |c: char| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' };
    Some(text.chars().map(plain).collect::<String>()).filter(|s| !s.is_empty())
}

/// A file's stem as a display name. A file name may hold any character, a
/// name only those of a NAME: every other character becomes `_`, so that
/// a name never steers a terminal and always works as `NAME=` in a replay
/// command.
pub fn file_stem_name(path: &std::path::Path) -> Option<String> {
    path.file_stem().and_then(|s| plain_name(&s.to_string_lossy()))
}

/// The path in `form` when it ends in one of `endings` and has a stem.
pub fn path_ending_in(form: &str, endings: &[&str]) -> Option<String> {
    let path = std::path::Path::new(form);
    let has_stem = path.file_stem().is_some_and(|s| !s.is_empty() && s != ".");
    let ending = path.extension().and_then(|e| e.to_str())?;
    (has_stem && endings.contains(&ending)).then(|| form.to_string())
}
