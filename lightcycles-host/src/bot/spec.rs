//! Bot specs: what a bot argument on the command line means.
//!
//! ```text
//! SPEC := [NAME "="] FORM
//! NAME := one or more of A-Z a-z 0-9 _ - .
//! FORM := "builtin:" BUILTIN | "cmd:" COMMAND | "tron2010:" COMMAND
//!       | PATH ending in ".py" | FOLDER holding "main.py"
//!       | PATH ending in ".so", ".dylib" or ".dll"
//!       | "wasm:" PATH | PATH ending in ".wasm"
//! ```
//!
//! A bot without `NAME=` is named as a person would call it: a builtin by
//! its name, a `main.py` (or its folder) by the folder, a C plugin by the
//! name its table declares (else its file, without `lib`), a command by
//! the file its program is (`cmd:python3 bots/x.py` is `x`, not `python3`).
//!
//! The first `=` splits a name off only when everything before it is a
//! valid NAME, so `cmd:./bot --depth=3` keeps its `=`.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::bot::adapter::base::{Adapter, Hosting};
use crate::bot::process::log::LogPlace;
use crate::bot::registry::ADAPTERS;
use crate::bot::BotFactory;

pub use crate::bot::spec_error::{SpecError, GRAMMAR};

/// One bot argument, parsed: which adapter plays it, and what that adapter
/// needs to find the bot.
#[derive(Clone)]
pub struct BotSpec {
    /// The display name given with `NAME=`, if any.
    pub name: Option<String>,
    /// The adapter of the spec's form.
    pub adapter: &'static dyn Adapter,
    /// What the adapter needs to find the bot: the builtin's name and
    /// options, the command, or the path.
    pub target: String,
    /// The argument as written, for messages.
    pub arg: String,
}

impl fmt::Debug for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotSpec")
            .field("name", &self.name)
            .field("form", &self.adapter.form())
            .field("target", &self.target)
            .finish()
    }
}

impl PartialEq for BotSpec {
    fn eq(&self, other: &BotSpec) -> bool {
        (self.adapter.form(), &self.name, &self.target, &self.arg)
            == (other.adapter.form(), &other.name, &other.target, &other.arg)
    }
}

impl Eq for BotSpec {}

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
        let (adapter, target) = parse_form(arg, form)?;
        Ok(BotSpec { name, adapter, target, arg: arg.to_string() })
    }

    /// The display name before names are made unique: the one given, or
    /// the adapter's default (the builtin's name, the file's stem, or the
    /// stem of the command's program).
    pub fn base_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.adapter.default_name(&self.target))
    }

    /// [`BotSpec::base_name`], with the name the bot declares itself (a C
    /// plugin's table) before the adapter's default.
    pub fn declared_or_base_name(&self, hosting: &Hosting) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => self.adapter.declared_name(&self.target, hosting).unwrap_or_else(|| self.base_name()),
        }
    }

    /// Refuses a bot whose form cannot ride in a game of `players`
    /// players (the 2010 protocol knows two), naming the bot and the limit.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        match self.adapter.max_players().filter(|&max| players > max) {
            Some(max) => Err(format!(
                "bot {:?}: {} play games of {max} players only, but {players} bots were given",
                self.arg,
                self.adapter.form()
            )),
            None => Ok(()),
        }
    }

    /// The factory that makes this bot for each game, hosted as `hosting`
    /// says and logging to `log` (a run's log folder and the bot's display
    /// name) when given, or why this build cannot play it.
    pub fn factory(&self, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, SpecError> {
        self.adapter
            .factory(&self.target, log, hosting)
            .map_err(|reason| SpecError::Unusable { arg: self.arg.clone(), reason })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.arg)
    }
}

fn parse_form(arg: &str, form: &str) -> Result<(&'static dyn Adapter, String), SpecError> {
    if form.is_empty() {
        return Err(SpecError::Empty { arg: arg.to_string() });
    }
    for &adapter in ADAPTERS {
        if let Some(claimed) = adapter.claim(arg, form) {
            return claimed.map(|target| (adapter, target));
        }
    }
    Err(SpecError::UnknownForm { arg: arg.to_string() })
}

/// A bot taking part in a run: its display name and how to make it.
#[derive(Clone)]
pub struct Entrant {
    /// The unique display name.
    pub name: String,
    /// Makes the bot for each game and seat.
    pub factory: Arc<dyn BotFactory>,
}

/// The entrants of a run from the bot arguments, hosted as `hosting` says,
/// each bot process logging to `log_dir/<game>-<seat>-<name>.log` when a
/// folder is given; or why they cannot play.
pub fn entrants(args: &[String], log_dir: Option<&Path>, hosting: &Hosting) -> Result<Vec<Entrant>, SpecError> {
    let specs = args.iter().map(|a| BotSpec::parse(a)).collect::<Result<Vec<_>, _>>()?;
    let names = display_names_hosted(&specs, hosting);
    specs
        .iter()
        .zip(names)
        .map(|(spec, name)| {
            let log = log_dir.map(|dir| LogPlace { dir: dir.to_path_buf(), name: name.clone() });
            Ok(Entrant { name, factory: spec.factory(log, hosting)? })
        })
        .collect()
}

/// The display names of bots in seat order: each spec's name, or its
/// default, made unique by [`unique_names`].
pub fn display_names(specs: &[BotSpec]) -> Vec<String> {
    unique_names(specs.iter().map(BotSpec::base_name).collect())
}

/// [`display_names`] with the names bots declare themselves (a C plugin's
/// table), read as `hosting` runs them.
pub fn display_names_hosted(specs: &[BotSpec], hosting: &Hosting) -> Vec<String> {
    unique_names(specs.iter().map(|s| s.declared_or_base_name(hosting)).collect())
}

/// Names made unique in seat order by `_2`, `_3`… . The first bot with a
/// name keeps it; a later one takes the first free suffix that is no other
/// bot's name.
pub fn unique_names(bases: Vec<String>) -> Vec<String> {
    let all_bases: HashSet<&str> = bases.iter().map(String::as_str).collect();
    let mut given: HashSet<String> = HashSet::new();
    let mut names = Vec::with_capacity(bases.len());
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
    use crate::bot::builtin::Builtin;
    use proptest::prelude::*;
    use std::path::PathBuf;

    /// What a spec names, as the tests compare it.
    #[derive(Debug, PartialEq, Eq)]
    enum BotKind {
        Builtin(Builtin),
        Python(PathBuf),
        Plugin(PathBuf),
        Command(String),
        Tron2010(String),
    }

    impl BotSpec {
        fn kind(&self) -> BotKind {
            let target = self.target.clone();
            match self.adapter.form() {
                f if f.contains("builtin:") => BotKind::Builtin(Builtin::of_target(&target)),
                f if f.contains("PATH.py") => BotKind::Python(target.into()),
                f if f.contains("PATH.so") => BotKind::Plugin(target.into()),
                f if f.contains("cmd:") => BotKind::Command(target),
                f if f.contains("tron2010:") => BotKind::Tron2010(target),
                f => panic!("an adapter the tests do not know: {f}"),
            }
        }
    }

    fn parse(arg: &str) -> BotSpec {
        BotSpec::parse(arg).unwrap_or_else(|e| panic!("{arg}: {e}"))
    }

    fn names(args: &[&str]) -> Vec<String> {
        display_names(&args.iter().map(|a| parse(a)).collect::<Vec<_>>())
    }

    #[test]
    fn every_form_is_parsed() {
        assert_eq!(parse("builtin:random").kind(), BotKind::Builtin(Builtin::Random));
        assert_eq!(parse("builtin:fuzz").kind(), BotKind::Builtin(Builtin::Fuzz));
        assert_eq!(parse("builtin:straight").kind(), BotKind::Builtin(Builtin::Straight));
        assert_eq!(parse("bots/main.py").kind(), BotKind::Python("bots/main.py".into()));
        assert_eq!(parse("./libbot.so").kind(), BotKind::Plugin("./libbot.so".into()));
        assert_eq!(parse("bot.dylib").kind(), BotKind::Plugin("bot.dylib".into()));
        assert_eq!(parse("C:bot.dll").kind(), BotKind::Plugin("C:bot.dll".into()));
        assert_eq!(parse("cmd:./bot --fast").kind(), BotKind::Command("./bot --fast".into()));
        assert_eq!(parse("tron2010:python3 old.py").kind(), BotKind::Tron2010("python3 old.py".into()));
        assert_eq!(parse("builtin:random").name, None);
    }

    #[test]
    fn the_search_bot_takes_options_after_its_name() {
        use crate::bot::builtin::search::SearchOptions;
        let search = |nodes, stats| {
            BotKind::Builtin(Builtin::Search(SearchOptions { nodes, stats, ..SearchOptions::default() }))
        };
        assert_eq!(parse("builtin:search").kind(), search(None, false));
        assert_eq!(parse("builtin:search:nodes=20000").kind(), search(Some(20000), false));
        assert_eq!(parse("builtin:search:stats:nodes=7").kind(), search(Some(7), true));
        let s = parse("deep=builtin:search:nodes=5");
        assert_eq!((s.name.as_deref(), s.kind()), (Some("deep"), search(Some(5), false)));
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
        assert_eq!((s.name.as_deref(), &s.kind()), (Some("bot_a"), &BotKind::Builtin(Builtin::Random)));
        let s = parse("v1.2-x=cmd:./bot --depth=3");
        assert_eq!((s.name.as_deref(), &s.kind()), (Some("v1.2-x"), &BotKind::Command("./bot --depth=3".into())));
        // Everything before the first `=` is not a name: no name, and the
        // `=` belongs to the command.
        let s = parse("cmd:./bot --depth=3");
        assert_eq!((s.name.clone(), s.kind()), (None, BotKind::Command("./bot --depth=3".into())));
        // Only the first `=` splits: the rest must be a spec of its own.
        assert!(matches!(BotSpec::parse("a=b=cmd:x"), Err(SpecError::UnknownForm { .. })));
        assert_eq!(parse("a=cmd:b=c").kind(), BotKind::Command("b=c".into()));
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
            assert!(parse(arg).factory(None, &Hosting::default()).is_ok(), "{arg}");
        }
        let e = parse("no/such/main.py").factory(None, &Hosting::default()).err().expect("a missing file");
        assert!(matches!(e, SpecError::Unusable { .. }));
        assert!(e.to_string().starts_with("bot \"no/such/main.py\": cannot read no/such/main.py"), "{e}");
    }

    #[test]
    fn only_the_2010_protocol_limits_the_players() {
        assert_eq!(parse("tron2010:./bot").adapter.max_players(), Some(2));
        assert_eq!(parse("cmd:./bot").adapter.max_players(), None);
        assert_eq!(parse("builtin:random").adapter.max_players(), None);
    }

    // These names changed on purpose (issue 18): a `main.py` was `main`, a
    // plugin kept its `lib`, and a command run by an interpreter was named
    // after the interpreter (`python3`), so that every CodeClash bot was
    // `main`, `main_2`… and every script `python3`.
    #[test]
    fn default_names_are_what_a_person_calls_the_bot() {
        assert_eq!(names(&["builtin:random", "bots/alpha/main.py", "bots/gamma.py"]), ["random", "alpha", "gamma"]);
        assert_eq!(
            names(&["./libsearch.so", "cmd:exec ./bots/beta --x", "tron2010:python3 t.py"]),
            ["search", "beta", "t"]
        );
        assert_eq!(
            names(&[
                "cmd:python3 bots/x.py",
                "cmd:python3 -u bots/p2/main.py --fast",
                "cmd:python3 -m mybot",
                "cmd:java -jar build/duel.jar",
                "cmd:FOO=1 node bots/js/index.js",
                "cmd:python3",
            ]),
            ["x", "p2", "mybot", "duel", "js", "python3"]
        );
        assert_eq!(names(&["bots/a/main.py", "other/a/main.py"]), ["a", "a_2"]);
        assert_eq!(names(&["nick=bots/a/main.py"]), ["nick"]);
    }

    #[test]
    fn a_folder_holding_main_py_is_a_codeclash_bot() {
        let dir = tempfile::tempdir().unwrap();
        let p1 = dir.path().join("p1");
        std::fs::create_dir(&p1).unwrap();
        std::fs::write(p1.join("main.py"), "def get_move(obs):\n    return 'N'\n").unwrap();
        let arg = p1.to_string_lossy().into_owned();
        let spec = parse(&arg);
        assert_eq!(spec.kind(), BotKind::Python(p1.join("main.py")));
        assert_eq!(spec.base_name(), "p1");
        // A folder without a main.py is no bot.
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert!(matches!(BotSpec::parse(&empty.to_string_lossy()), Err(SpecError::UnknownForm { .. })));
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
        assert_eq!(shown, ["__2Jred", "_evil", "b_ot_x", "_t_", "a_b", "_31m"]);
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
