//! What an adapter is: the [`Adapter`] trait every form of bot spec
//! implements, and the [`Hosting`] its bots run under.

use std::sync::Arc;

use crate::bot::process::log::LogPlace;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec_error::SpecError;
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
