//! Before game 0: every bot is started once and asked one observation,
//! the first tick of game 0's map, within the first tick's limit. A bot
//! that cannot start (a missing program, an import or syntax error, a
//! plugin whose bot cannot be made) is found here, by name, with the first
//! lines of what it wrote on stderr, instead of losing every game with a
//! crash on every tick and nothing said.
//!
//! The probe is a bot of its own, made by a factory of its own that logs
//! to a temporary folder, so what it writes is read back even when the run
//! keeps no logs, and the run's logs and games are untouched.

use std::path::Path;
use std::time::{Duration, Instant};

use lightcycles_core::{map, Config, Engine, FastGame, Position};

use crate::bot::adapter::Hosting;
use crate::bot::process::log::LogPlace;
use crate::bot::spec::BotSpec;
use crate::bot::{BotContext, Reply, Turn};
use crate::game::match_loop::Limits;
use crate::io::untrusted::terminal_text;
use lightcycles_core::MapFile;

/// How many lines of a broken bot's stderr are shown.
pub const SHOWN_LINES: usize = 12;

/// A bot that did not answer its probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// Its display name.
    pub name: String,
    /// Its argument, as written.
    pub arg: String,
    /// What went wrong: "crashed before answering", "no answer within 1000 ms"…
    pub cause: String,
    /// The first lines it wrote on stderr (its traceback), and the host's notes.
    pub stderr: Vec<String>,
}

impl Broken {
    /// The report of this bot, several lines, each ending with a newline.
    pub fn report(&self) -> String {
        let mut out = format!(
            "bot {} ({}) cannot play: {}\n",
            terminal_text(&self.name),
            terminal_text(&self.arg),
            terminal_text(&self.cause)
        );
        if self.stderr.is_empty() {
            out.push_str("  (it wrote nothing on stderr)\n");
        }
        for line in &self.stderr {
            out.push_str("  | ");
            out.push_str(&terminal_text(line));
            out.push('\n');
        }
        out
    }
}

/// The first position of a game on `config` with `seed`, or on `map_file`:
/// what the probe shows every bot. `None` when no map can be made (the run
/// then reports that itself).
pub fn first_position(config: &Config, seed: u64, map_file: Option<&MapFile>) -> Option<Position> {
    let game = match map_file {
        Some(file) => FastGame::from_map(config, &file.map).ok()?,
        None => FastGame::from_map(config, &map::generate(config, seed).ok()?).ok()?,
    };
    Some(game.position())
}

/// Starts every bot of `args` (named `names`, hosted as `hosting`) once,
/// all at the same time, and asks each the observation of `position`
/// within `limits.first`; returns the bots that did not answer, in seat
/// order. Any line counts as an answer: what a line means is the game's
/// business, not the probe's.
pub fn probe(
    args: &[String],
    names: &[String],
    hosting: &Hosting,
    position: &Position,
    limits: &Limits,
) -> Vec<Broken> {
    std::thread::scope(|scope| {
        let probes: Vec<_> = args
            .iter()
            .zip(names)
            .enumerate()
            .map(|(i, (arg, name))| scope.spawn(move || probe_one(arg, name, i, hosting, position, limits.first)))
            .collect();
        probes.into_iter().filter_map(|p| p.join().unwrap_or(None)).collect()
    })
}

fn probe_one(
    arg: &str,
    name: &str,
    index: usize,
    hosting: &Hosting,
    position: &Position,
    limit: Duration,
) -> Option<Broken> {
    let broken = |cause: String, stderr: Vec<String>| {
        Some(Broken { name: name.to_string(), arg: arg.to_string(), cause, stderr })
    };
    let spec = BotSpec::parse(arg).ok()?;
    let dir = tempfile::tempdir().ok()?;
    let place = LogPlace { dir: dir.path().to_path_buf(), name: name.to_string() };
    let log_path = place.path(0, 0);
    let factory = match spec.factory(Some(place), hosting) {
        Ok(factory) => factory,
        Err(e) => return broken(e.to_string(), Vec::new()),
    };
    let players = position.players.len();
    let seat = index % players.max(1);
    let ctx = BotContext { game: 0, seat: 0, players, seed: 0 };
    let reply = match factory.create(&ctx) {
        Ok(mut bot) => {
            let reply = bot.answer(&Turn::new(position, seat), limit);
            drop(bot);
            reply
        }
        Err(e) => return broken(format!("cannot be started: {e}"), read_log(&log_path, true)),
    };
    match reply {
        Reply::Line(_) | Reply::NoMove => None,
        Reply::Crash => {
            broken("it crashed or exited before answering its first observation".into(), read_log(&log_path, true))
        }
        Reply::Timeout => broken(
            format!(
                "no answer to its first observation within {} ms (the first tick's limit, --time-first-ms)",
                limit.as_millis()
            ),
            read_log(&log_path, false),
        ),
    }
}

/// The first [`SHOWN_LINES`] lines of the probe's log. The bot's stderr is
/// copied by a thread of its own that may still be at work when the bot
/// is gone: when `wait`, give it a moment to write.
fn read_log(path: &Path, wait: bool) -> Vec<String> {
    let until = Instant::now() + Duration::from_millis(if wait { 500 } else { 50 });
    let mut text = String::new();
    loop {
        let now = std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        let settled = !now.is_empty() && now == text;
        text = now;
        if settled || Instant::now() >= until {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    shown_lines(&text)
}

/// The lines of a bot's stderr worth showing: no blank lines, no frames of
/// the host's own Python adapter or of Python's import machinery (a
/// traceback of a bot that does not load starts with them), and when there
/// are more than [`SHOWN_LINES`], the first few and the last ones, where a
/// traceback says what went wrong.
fn shown_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.contains("File \"<string>\"") && !l.contains("File \"<frozen "))
        .collect();
    if lines.len() <= SHOWN_LINES {
        return lines.into_iter().map(str::to_string).collect();
    }
    let head = 3;
    let tail = SHOWN_LINES - head - 1;
    let mut shown: Vec<String> = lines[..head].iter().map(|l| l.to_string()).collect();
    shown.push(format!("… ({} lines left out)", lines.len() - head - tail));
    shown.extend(lines[lines.len() - tail..].iter().map(|l| l.to_string()));
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::spec::display_names;

    fn run(args: &[&str]) -> Vec<Broken> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let specs: Vec<BotSpec> = args.iter().map(|a| BotSpec::parse(a).unwrap()).collect();
        let names = display_names(&specs);
        let config = Config { players: 2, ..Config::default() };
        let position = first_position(&config, 3, None).unwrap();
        let limits = Limits::per_tick(Duration::from_millis(3000), Duration::from_millis(50));
        probe(&args, &names, &Hosting::default(), &position, &limits)
    }

    #[test]
    fn long_stderr_keeps_its_start_and_its_end() {
        let text: String = (0..40).map(|i| format!("line {i}\n\n")).collect();
        let shown = shown_lines(&text);
        assert_eq!(shown.len(), SHOWN_LINES);
        assert_eq!(shown[0], "line 0");
        assert_eq!(shown[3], "… (29 lines left out)");
        assert_eq!(shown[SHOWN_LINES - 1], "line 39");
        let adapter = "Traceback (most recent call last):\n  File \"<string>\", line 9, in <module>\n  File \"<frozen x>\", line 1\nSyntaxError: x\n";
        assert_eq!(shown_lines(adapter), ["Traceback (most recent call last):", "SyntaxError: x"]);
    }

    #[test]
    fn bots_that_answer_pass() {
        assert_eq!(run(&["builtin:random", "cmd:while read l; do echo N; done"]), vec![]);
    }

    #[test]
    fn a_missing_program_is_named_with_what_the_shell_said() {
        let broken = run(&["builtin:random", "cmd:./no-such-program-here --x"]);
        assert_eq!(broken.len(), 1, "{broken:?}");
        let b = &broken[0];
        assert_eq!(b.name, "no-such-program-here");
        assert!(b.cause.contains("crashed or exited before answering"), "{b:?}");
        assert!(b.stderr.iter().any(|l| l.contains("no-such-program-here") && l.contains("not found")), "{b:?}");
        assert!(b.report().starts_with("bot no-such-program-here (cmd:./no-such-program-here --x) cannot play:"));
    }

    #[test]
    fn a_python_bot_with_a_syntax_error_shows_its_traceback() {
        let dir = tempfile::tempdir().unwrap();
        let bot = dir.path().join("p1");
        std::fs::create_dir(&bot).unwrap();
        std::fs::write(bot.join("main.py"), "def get_move(obs)\n    return 'N'\n").unwrap();
        let broken = run(&[bot.to_str().unwrap(), "builtin:random"]);
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert_eq!(broken[0].name, "p1");
        assert!(broken[0].stderr.iter().any(|l| l.contains("SyntaxError")), "{:?}", broken[0]);
    }

    #[test]
    fn a_bot_too_slow_for_the_first_tick_is_a_timeout() {
        let args = vec!["cmd:sleep 5".to_string()];
        let config = Config { players: 2, ..Config::default() };
        let position = first_position(&config, 3, None).unwrap();
        let limits = Limits::per_tick(Duration::from_millis(200), Duration::from_millis(50));
        let broken = probe(&args, &["sleep".into()], &Hosting::default(), &position, &limits);
        assert_eq!(broken.len(), 1);
        assert!(broken[0].cause.contains("within 200 ms"), "{:?}", broken[0]);
    }
}
