//! Bot specs: what a bot argument on the command line means.
//!
//! ```text
//! SPEC := [NAME "="] FORM
//! NAME := one or more of A-Z a-z 0-9 _ - .
//! FORM := "builtin:" BUILTIN | "cmd:" COMMAND | "tron2010:" COMMAND
//!       | PATH ending in ".py" | PATH ending in ".so", ".dylib" or ".dll"
//! ```
//!
//! The first `=` splits a name off only when everything before it is a
//! valid NAME, so `cmd:./bot --depth=3` keeps its `=`.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bot::adapter::json_lines::CommandFactory;
use crate::bot::adapter::plugin;
use crate::bot::adapter::plugin::isolated::IsolatedFactory;
use crate::bot::adapter::python::PythonFactory;
use crate::bot::adapter::tron2010::Tron2010Factory;
use crate::bot::builtin::Builtin;
use crate::bot::process::log::LogPlace;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::BotFactory;

/// What kind of bot a spec names, and where to find it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotKind {
    /// `builtin:NAME`: compiled into the host.
    Builtin(Builtin),
    /// `path/to/main.py`: a CodeClash Python bot (`get_move(obs) -> str`).
    Python(PathBuf),
    /// `path/to/libbot.so` (`.dylib`, `.dll`): a native plugin.
    Plugin(PathBuf),
    /// `cmd:COMMAND`: a program speaking JSON lines, run by `/bin/sh -c`.
    Command(String),
    /// `tron2010:COMMAND`: a bot of the 2010 Google AI Challenge, run by `/bin/sh -c`.
    Tron2010(String),
}

impl BotKind {
    /// What this form is called in messages.
    pub fn form(&self) -> &'static str {
        match self {
            BotKind::Builtin(_) => "built-in bots (builtin:NAME)",
            BotKind::Python(_) => "CodeClash Python bots (PATH.py)",
            BotKind::Plugin(_) => "native plugins (PATH.so, .dylib, .dll)",
            BotKind::Command(_) => "JSON-lines programs (cmd:COMMAND)",
            BotKind::Tron2010(_) => "2010 Google AI Challenge bots (tron2010:COMMAND)",
        }
    }

    /// The most players a game with a bot of this kind may have, when the
    /// kind has a limit of its own (the 2010 protocol knows two players).
    pub fn max_players(&self) -> Option<usize> {
        match self {
            BotKind::Tron2010(_) => Some(2),
            _ => None,
        }
    }

    /// The name a bot of this kind gets when the spec gives none: the
    /// builtin's name, the file's stem, or the stem of the command's program.
    /// A file name may hold any character, a name only those of a NAME:
    /// every other character of a stem becomes `_`, so that a name never
    /// steers a terminal and always works as `NAME=` in a replay command.
    pub fn default_name(&self) -> String {
        fn stem(path: &Path) -> Option<String> {
            let plain = |c: char| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' };
            path.file_stem()
                .map(|s| s.to_string_lossy().chars().map(plain).collect())
                .filter(|s: &String| !s.is_empty())
        }
        match self {
            BotKind::Builtin(b) => b.name().to_string(),
            BotKind::Python(path) => stem(path).unwrap_or_else(|| "python".to_string()),
            BotKind::Plugin(path) => stem(path).unwrap_or_else(|| "plugin".to_string()),
            BotKind::Command(command) | BotKind::Tron2010(command) => {
                let program = command.split_ascii_whitespace().find(|w| *w != "exec").unwrap_or("");
                stem(Path::new(program)).unwrap_or_else(|| "cmd".to_string())
            }
        }
    }
}

/// One bot argument, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The display name given with `NAME=`, if any.
    pub name: Option<String>,
    /// What the bot is.
    pub kind: BotKind,
    /// The argument as written, for messages.
    pub arg: String,
}

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
pub const GRAMMAR: &str =
    "[NAME=]builtin:BOT, [NAME=]cmd:COMMAND, [NAME=]tron2010:COMMAND, [NAME=]PATH.py or [NAME=]PATH.so/.dylib/.dll";

/// Whether `name` may be a display name: letters, digits, `_`, `-`, `.`.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

impl BotSpec {
    /// Parses one bot argument.
    pub fn parse(arg: &str) -> Result<BotSpec, SpecError> {
        let (name, form) = match arg.split_once('=') {
            Some((name, form)) if is_valid_name(name) => (Some(name.to_string()), form),
            _ => (None, arg),
        };
        let kind = parse_form(arg, form)?;
        Ok(BotSpec { name, kind, arg: arg.to_string() })
    }

    /// The display name before names are made unique.
    pub fn base_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.kind.default_name())
    }

    /// The factory that makes this bot for each game, with no logs, or why
    /// this build cannot play it.
    pub fn factory(&self) -> Result<Arc<dyn BotFactory>, SpecError> {
        self.factory_logged(None)
    }

    /// The factory that makes this bot for each game, writing the logs of a
    /// bot process to `log` (a run's log folder and the bot's display name),
    /// or why this build cannot play it. Files are checked here, once, so a
    /// missing bot stops a run before its first game. Bot processes get the
    /// default limits; plugins run in-process.
    pub fn factory_logged(&self, log: Option<LogPlace>) -> Result<Arc<dyn BotFactory>, SpecError> {
        self.factory_hosted(log, &Hosting::default())
    }

    /// [`BotSpec::factory_logged`], with bot processes under the limits of
    /// `hosting` and plugins isolated in a process of their own when it
    /// says so.
    pub fn factory_hosted(&self, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, SpecError> {
        let unusable = |reason: String| SpecError::Unusable { arg: self.arg.clone(), reason };
        let sandbox = hosting.sandbox;
        match &self.kind {
            BotKind::Builtin(b) => Ok(Arc::new(*b)),
            BotKind::Command(command) => Ok(Arc::new(CommandFactory { command: command.clone(), log, sandbox })),
            BotKind::Tron2010(command) => Ok(Arc::new(Tron2010Factory { command: command.clone(), log, sandbox })),
            BotKind::Python(path) => Ok(Arc::new(PythonFactory::new(path, log, sandbox).map_err(unusable)?)),
            BotKind::Plugin(path) if hosting.isolate => {
                Ok(Arc::new(IsolatedFactory::new(path, log, sandbox).map_err(unusable)?))
            }
            BotKind::Plugin(path) => plugin::factory(path, log).map_err(unusable),
        }
    }
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

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.arg)
    }
}

fn parse_form(arg: &str, form: &str) -> Result<BotKind, SpecError> {
    if form.is_empty() {
        return Err(SpecError::Empty { arg: arg.to_string() });
    }
    if let Some(name) = form.strip_prefix("builtin:") {
        return match Builtin::parse(name) {
            Ok(Some(builtin)) => Ok(BotKind::Builtin(builtin)),
            Ok(None) => Err(SpecError::UnknownBuiltin { arg: arg.to_string(), name: name.to_string() }),
            Err(message) => Err(SpecError::BuiltinOption { arg: arg.to_string(), message }),
        };
    }
    for (prefix, make) in [("cmd:", BotKind::Command as fn(String) -> BotKind), ("tron2010:", BotKind::Tron2010)] {
        if let Some(command) = form.strip_prefix(prefix) {
            if command.trim().is_empty() {
                return Err(SpecError::EmptyCommand { arg: arg.to_string(), prefix });
            }
            return Ok(make(command.to_string()));
        }
    }
    let path = Path::new(form);
    let has_stem = path.file_stem().is_some_and(|s| !s.is_empty() && s != ".");
    match path.extension().and_then(|e| e.to_str()) {
        Some("py") if has_stem => Ok(BotKind::Python(path.to_path_buf())),
        Some("so" | "dylib" | "dll") if has_stem => Ok(BotKind::Plugin(path.to_path_buf())),
        _ => Err(SpecError::UnknownForm { arg: arg.to_string() }),
    }
}

/// The display names of bots in seat order: each spec's name, or its
/// default, made unique by `_2`, `_3`… . The first bot with a name keeps
/// it; a later one takes the first free suffix that is no other bot's name.
pub fn display_names(specs: &[BotSpec]) -> Vec<String> {
    let bases: Vec<String> = specs.iter().map(BotSpec::base_name).collect();
    let all_bases: HashSet<&str> = bases.iter().map(String::as_str).collect();
    let mut given: HashSet<String> = HashSet::new();
    let mut names = Vec::with_capacity(specs.len());
    for base in &bases {
        let name = if given.contains(base) {
            (2u64..)
                .map(|k| format!("{base}_{k}"))
                .find(|candidate| !given.contains(candidate) && !all_bases.contains(candidate.as_str()))
                .expect("some suffix is free")
        } else {
            base.clone()
        };
        given.insert(name.clone());
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(arg: &str) -> BotSpec {
        BotSpec::parse(arg).unwrap_or_else(|e| panic!("{arg}: {e}"))
    }

    fn names(args: &[&str]) -> Vec<String> {
        display_names(&args.iter().map(|a| parse(a)).collect::<Vec<_>>())
    }

    #[test]
    fn every_form_is_parsed() {
        assert_eq!(parse("builtin:random").kind, BotKind::Builtin(Builtin::Random));
        assert_eq!(parse("builtin:fuzz").kind, BotKind::Builtin(Builtin::Fuzz));
        assert_eq!(parse("builtin:straight").kind, BotKind::Builtin(Builtin::Straight));
        assert_eq!(parse("bots/main.py").kind, BotKind::Python("bots/main.py".into()));
        assert_eq!(parse("./libbot.so").kind, BotKind::Plugin("./libbot.so".into()));
        assert_eq!(parse("bot.dylib").kind, BotKind::Plugin("bot.dylib".into()));
        assert_eq!(parse("C:bot.dll").kind, BotKind::Plugin("C:bot.dll".into()));
        assert_eq!(parse("cmd:./bot --fast").kind, BotKind::Command("./bot --fast".into()));
        assert_eq!(parse("tron2010:python3 old.py").kind, BotKind::Tron2010("python3 old.py".into()));
        assert_eq!(parse("builtin:random").name, None);
    }

    #[test]
    fn the_search_bot_takes_options_after_its_name() {
        use crate::bot::builtin::search::SearchOptions;
        let search = |nodes, stats| BotKind::Builtin(Builtin::Search(SearchOptions { nodes, stats }));
        assert_eq!(parse("builtin:search").kind, search(None, false));
        assert_eq!(parse("builtin:search:nodes=20000").kind, search(Some(20000), false));
        assert_eq!(parse("builtin:search:stats:nodes=7").kind, search(Some(7), true));
        let s = parse("deep=builtin:search:nodes=5");
        assert_eq!((s.name.as_deref(), s.kind), (Some("deep"), search(Some(5), false)));
        assert_eq!(parse("builtin:search:nodes=9").base_name(), "search");
        let err = |arg: &str| BotSpec::parse(arg).unwrap_err();
        assert!(matches!(err("builtin:search:nodes=0"), SpecError::BuiltinOption { .. }));
        assert!(err("builtin:search:nodes=x").to_string().contains("nodes=x: expected a whole number"));
        assert!(err("builtin:search:fast").to_string().contains("unknown option \"fast\""));
        assert!(err("builtin:search:").to_string().contains("unknown option \"\""));
        assert!(matches!(err("builtin:searching"), SpecError::UnknownBuiltin { .. }));
        assert!(matches!(err("builtin:random:nodes=5"), SpecError::UnknownBuiltin { .. }));
    }

    #[test]
    fn a_name_is_split_off_at_the_first_equals_after_a_valid_name() {
        let s = parse("bot_a=builtin:random");
        assert_eq!((s.name.as_deref(), &s.kind), (Some("bot_a"), &BotKind::Builtin(Builtin::Random)));
        let s = parse("v1.2-x=cmd:./bot --depth=3");
        assert_eq!((s.name.as_deref(), &s.kind), (Some("v1.2-x"), &BotKind::Command("./bot --depth=3".into())));
        // Everything before the first `=` is not a name: no name, and the
        // `=` belongs to the command.
        let s = parse("cmd:./bot --depth=3");
        assert_eq!((s.name, s.kind), (None, BotKind::Command("./bot --depth=3".into())));
        // Only the first `=` splits: the rest must be a spec of its own.
        assert!(matches!(BotSpec::parse("a=b=cmd:x"), Err(SpecError::UnknownForm { .. })));
        assert_eq!(parse("a=cmd:b=c").kind, BotKind::Command("b=c".into()));
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let err = |arg: &str| BotSpec::parse(arg).unwrap_err().to_string();
        assert!(err("builtin:Random").contains("no built-in bot is called \"Random\""));
        assert!(err("builtin:nope").contains("random, fuzz, straight, wallhug, floodfill, search"));
        assert!(err("").contains("empty bot spec"));
        assert!(err("a=").contains("empty bot spec"));
        assert!(err("cmd:").contains("cmd: needs a command"));
        assert!(err("tron2010:  ").contains("tron2010: needs a command"));
        assert!(err("random").contains("not a bot spec"));
        assert!(err("bot.txt").contains("not a bot spec"));
        assert!(err(".py").contains("not a bot spec"));
        assert!(err("=builtin:random").contains("not a bot spec"));
        assert!(err("a b=builtin:random").contains("not a bot spec"));
    }

    #[test]
    fn factories_of_every_form() {
        for arg in ["builtin:fuzz", "cmd:./bot", "tron2010:./bot"] {
            assert!(parse(arg).factory().is_ok(), "{arg}");
        }
        let e = parse("no/such/main.py").factory().err().expect("a missing file");
        assert!(matches!(e, SpecError::Unusable { .. }));
        assert!(e.to_string().starts_with("bot \"no/such/main.py\": cannot read no/such/main.py"), "{e}");
    }

    #[test]
    fn only_the_2010_protocol_limits_the_players() {
        assert_eq!(parse("tron2010:./bot").kind.max_players(), Some(2));
        assert_eq!(parse("cmd:./bot").kind.max_players(), None);
        assert_eq!(parse("builtin:random").kind.max_players(), None);
    }

    #[test]
    fn default_names_are_the_builtin_the_stem_or_the_program() {
        assert_eq!(names(&["builtin:random", "bots/alpha/main.py"]), ["random", "main"]);
        assert_eq!(
            names(&["./libsearch.so", "cmd:exec ./bots/beta --x", "tron2010:python3 t.py"]),
            ["libsearch", "beta", "python3"]
        );
    }

    #[test]
    fn default_names_keep_to_the_name_grammar_whatever_the_file_is_called() {
        let hostile = [
            "bots/\u{1b}[2Jred.py",
            "./lib\u{202e}evil.so",
            "cmd:./b\u{7}ot\u{0}x --x",
            "tron2010:exec ./été",
            "cmd:./a=b",
            "./\u{9b}31m.so",
        ];
        let shown = names(&hostile);
        assert_eq!(shown, ["__2Jred", "lib_evil", "b_ot_x", "_t_", "a_b", "_31m"]);
        assert!(shown.iter().all(|n| is_valid_name(n)), "{shown:?}");
        // Two stems that become one name are told apart as usual.
        assert_eq!(names(&["cmd:./a b", "cmd:./a\tb", "cmd:./a_b"]), ["a", "a_2", "a_b"]);
        assert_eq!(names(&["cmd:./a\u{1b}b", "cmd:./a\u{7}b"]), ["a_b", "a_b_2"]);
    }

    #[test]
    fn names_are_made_unique_in_seat_order() {
        assert_eq!(names(&["builtin:random", "builtin:random", "builtin:random"]), ["random", "random_2", "random_3"]);
        assert_eq!(names(&["a=builtin:random", "a=builtin:fuzz"]), ["a", "a_2"]);
        // A suffix never takes a name another bot asked for.
        assert_eq!(
            names(&["builtin:random", "builtin:random", "random_2=builtin:fuzz"]),
            ["random", "random_3", "random_2"]
        );
        assert_eq!(names(&["random=builtin:fuzz", "builtin:random"]), ["random", "random_2"]);
    }

    proptest! {
        #[test]
        fn parsing_never_panics_and_keeps_the_argument(arg in ".{0,40}") {
            if let Ok(spec) = BotSpec::parse(&arg) {
                prop_assert_eq!(&spec.arg, &arg);
                if let Some(name) = &spec.name {
                    prop_assert!(is_valid_name(name));
                    let prefix = format!("{}=", name);
                    prop_assert!(arg.starts_with(&prefix));
                }
            }
        }

        #[test]
        fn display_names_are_unique(picks in proptest::collection::vec((0usize..6, 0usize..4), 1..9)) {
            let labels = ["a", "a_2", "random", "random_2", "fuzz", "x.y"];
            let forms = ["builtin:random", "builtin:fuzz", "builtin:straight", "m.py"];
            let specs: Vec<BotSpec> = picks
                .iter()
                .map(|&(l, f)| if l < 3 { parse(forms[f]) } else { parse(&format!("{}={}", labels[l], forms[f])) })
                .collect();
            let names = display_names(&specs);
            let unique: HashSet<&String> = names.iter().collect();
            prop_assert_eq!(unique.len(), names.len(), "{:?}", names);
            for (spec, name) in specs.iter().zip(&names) {
                prop_assert!(name.starts_with(&spec.base_name()));
            }
        }
    }
}
