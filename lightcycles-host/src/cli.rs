//! The `lightcycles` command line (DESIGN.md: command and flag names are
//! fixed): `play`, `tournament`, `replay verify`, `replay show`, `view` and
//! `map`.
//!
//! Exit codes: 0 success, 1 a check failed (a replay differs), 2 bad usage
//! or bad input, with a message that names what and where.
//!
//! The doc comments of the argument structs are clap's help text, printed as
//! they are: `sim_<g>.json` there is text, not HTML.
#![allow(rustdoc::invalid_html_tags)]

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use lightcycles_core::replay::Replay;
// Games are played on the fast engine, proven equal to the reference by the
// core's trajectory gate; `replay verify` replays on the reference engine.
use lightcycles_core::{Answer, Config, ConfigError, FastGame, FaultPolicy};

use crate::bot::builtin::Builtin;
use crate::bot::log::{LogPlace, LOGS_DIR};
use crate::bot::sandbox::Sandbox;
use crate::match_loop::{Limits, MapFile};
use crate::report::{self, Tally};
use crate::run::{self, Entrant, RunError, RunOptions};
use crate::spec::{self, BotSpec, Hosting};
use crate::stats::Sprt;
use crate::tournament::progress::ProgressMode;
use crate::tournament::schedule::{PairingMode, Schedule};
use crate::tournament::{self, Tournament};
use crate::verify::{self, Verdict};
use crate::view::scene::{MapOrigin, Scene};
use crate::view::{self, Viewable};
use crate::{input, whole_file};
use crate::{map_view, spec::SpecError};

/// Plays LightCycles bots against each other, checks and shows replays, and shows maps.
#[derive(Debug, Parser)]
#[command(name = "lightcycles", version)]
#[command(after_help = "Exit codes: 0 success, 1 a check failed (a replay differs), 2 bad usage or bad input.")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play seeded games between bots; print one line per game, then FINAL_RESULTS.
    #[command(after_help = bots_help())]
    Play(PlayArgs),
    /// Work with replay files (sim_<g>.json).
    #[command(subcommand)]
    Replay(ReplayCommand),
    /// Play many two-player games between bots, every seed in both seats,
    /// and report score, Elo, LOS, game pairs, SPRT and ratings.
    #[command(after_help = tournament_help())]
    Tournament(TournamentArgs),
    /// Print a generated map: a picture of the board, or JSON.
    Map(MapArgs),
    /// Write one self-contained HTML page that plays replay files in a browser.
    View(ViewArgs),
    /// Measure the fast and the reference engine side by side, then the
    /// per-tick cost of each bot adapter, and print the performance tables
    /// of the README (takes about half a minute).
    Bench(BenchArgs),
    /// Internal: host one bot of a native plugin for `--isolate`.
    #[command(name = "__plugin-host", hide = true)]
    PluginHost(PluginHostArgs),
}

/// Arguments of the internal `__plugin-host` command.
#[derive(Debug, Args)]
pub struct PluginHostArgs {
    /// The plugin library.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// Only load the plugin and check its interface.
    #[arg(long)]
    pub check: bool,
    /// The game number.
    #[arg(long, default_value_t = 0)]
    pub game: u64,
    /// The bot's seat.
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// Players in the game.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// The game's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// How bots are hosted: resource limits of bot processes and plugin
/// isolation. Flags shared by `play` and `tournament`.
#[derive(Clone, Debug, Args)]
pub struct HostingArgs {
    /// Address-space limit of each bot process, in MiB (0: none).
    #[arg(long = "bot-memory-mb", value_name = "MB", default_value_t = crate::bot::sandbox::DEFAULT_MEMORY_MB)]
    pub bot_memory_mb: u64,
    /// Processes a bot may start beside the ones its user already runs
    /// (RLIMIT_NPROC; not applied under root; 0: none).
    #[arg(long = "bot-processes", value_name = "N", default_value_t = crate::bot::sandbox::DEFAULT_PROCESSES)]
    pub bot_processes: u64,
    /// Run each native plugin in a child process of its own, so that a crash,
    /// an endless loop or a memory bomb is a fault of that bot only
    /// (default in `tournament`).
    #[arg(long, conflicts_with = "in_process")]
    pub isolate: bool,
    /// Load native plugins into the host itself: faster, but a plugin that
    /// crashes takes the host with it (default in `play`).
    #[arg(long = "in-process")]
    pub in_process: bool,
}

impl HostingArgs {
    /// The hosting these flags ask for; plugins are isolated unless a flag
    /// says otherwise when `isolate_by_default`.
    pub fn hosting(&self, isolate_by_default: bool) -> Hosting {
        Hosting {
            sandbox: Sandbox { memory_mb: self.bot_memory_mb, processes: self.bot_processes },
            isolate: self.isolate || (isolate_by_default && !self.in_process),
        }
    }

    /// These flags as `lightcycles play` takes them, for a run hosted as
    /// `hosting`, leaving out those at their defaults (and `--isolate` when
    /// no bot is a plugin).
    pub fn to_flags(hosting: &Hosting, plugins: bool) -> Vec<String> {
        let mut flags = Vec::new();
        if hosting.sandbox.memory_mb != crate::bot::sandbox::DEFAULT_MEMORY_MB {
            flags.extend(["--bot-memory-mb".to_string(), hosting.sandbox.memory_mb.to_string()]);
        }
        if hosting.sandbox.processes != crate::bot::sandbox::DEFAULT_PROCESSES {
            flags.extend(["--bot-processes".to_string(), hosting.sandbox.processes.to_string()]);
        }
        if hosting.isolate && plugins {
            flags.push("--isolate".to_string());
        }
        flags
    }
}

/// Arguments of `lightcycles bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Milliseconds spent on each measure, per engine (and on each adapter).
    #[arg(long = "measure-ms", value_name = "MS", default_value_t = crate::bench::DEFAULT_TIME.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub measure_ms: u64,
}

/// The `replay` commands.
#[derive(Debug, Subcommand)]
pub enum ReplayCommand {
    /// Replay files on the rules engine and compare every frame and the
    /// result; stop at the first difference (exit 1) or unreadable file (exit 2).
    Verify(VerifyArgs),
    /// Print the board of a replay at one tick, with its players, answers and
    /// faults (in colour on a terminal).
    Show(ShowArgs),
}

/// What a fault costs (RULES.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// A fault is no move: the cycle keeps its direction (as in CodeClash).
    Straight,
    /// A faulted player crashes where it stands (as on CodinGame).
    Eliminate,
}

impl From<PolicyArg> for FaultPolicy {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Straight => FaultPolicy::Straight,
            PolicyArg::Eliminate => FaultPolicy::Eliminate,
        }
    }
}

/// Arguments of `lightcycles play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The bots in seat order, 2 to 8; all of them ride in every game.
    #[arg(value_name = "BOT", num_args = 2.., required = true)]
    pub bots: Vec<String>,
    /// Rounds to play, one seed each: game g gets seed SEED+g (with --swap,
    /// each round is two games).
    #[arg(short = 'r', long = "rounds", value_name = "ROUNDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: u64,
    /// The seed of game 0.
    #[arg(short = 's', long = "seed", value_name = "SEED", default_value_t = 0)]
    pub seed: u64,
    /// Write the replay of game g to DIR/sim_<g>.json (DIR is created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Games played at once; results and replays are numbered by game whatever
    /// order they finish in.
    #[arg(short = 'j', long = "jobs", value_name = "JOBS", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: u64,
    /// Board, rules and time limits.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Also play each round with the seats reversed: game 2r with the bots as
    /// given, game 2r+1 reversed, both with seed SEED+r.
    #[arg(long)]
    pub swap: bool,
    /// Draw each game in the terminal as it runs (one game at a time: -j 1).
    #[arg(long)]
    pub watch: bool,
    /// Resource limits and plugin isolation.
    #[command(flatten)]
    pub hosting: HostingArgs,
}

/// Arguments of `lightcycles tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The bots, 2 or more: two play a match; more play a round robin
    /// (every pair), or a gauntlet with --gauntlet.
    #[arg(value_name = "BOT", num_args = 2.., required = true)]
    pub bots: Vec<String>,
    /// Games per pairing, an even number: every seed is played twice, once
    /// in each seat arrangement (a game pair). Default 100, or 20000 with
    /// --sprt, which usually stops far sooner.
    #[arg(short = 'g', long = "games", value_name = "GAMES")]
    pub games: Option<u64>,
    /// The seed of round 0: round r is played with seed SEED+r.
    #[arg(short = 's', long = "seed", value_name = "SEED", default_value_t = 0)]
    pub seed: u64,
    /// Games played at once (default: the number of cores); each game is
    /// timed by its own clock, so too many jobs show up as timeouts.
    #[arg(short = 'j', long = "jobs", value_name = "JOBS",
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Write the replay of game k to DIR/sim_<k>.json (DIR is created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Append one JSON line per finished game to FILE (after a header line),
    /// flushed as each game finishes. The file must be new unless --resume.
    #[arg(long = "results", value_name = "FILE.jsonl")]
    pub results: Option<PathBuf>,
    /// Continue the tournament of the --results file: its games are counted,
    /// not played again; its header must match these arguments.
    #[arg(long, requires = "results")]
    pub resume: bool,
    /// Run a sequential probability ratio test of H0 elo = ELO0 against
    /// H1 elo = ELO1 (logistic Elo of the first bot, on game pairs), with
    /// error rates ALPHA and BETA; stop when a bound is crossed. Two bots only.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// The first bot plays each of the others; they do not play each other.
    #[arg(long)]
    pub gauntlet: bool,
    /// Also write the final report as JSON to FILE.
    #[arg(long = "report", value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Without a terminal on stderr, log the standings every N games (0: never).
    #[arg(long = "log-every", value_name = "N", default_value_t = 100)]
    pub log_every: u64,
    /// Board, rules and time limits.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Resource limits and plugin isolation.
    #[command(flatten)]
    pub hosting: HostingArgs,
}

/// The board, rules and time limits of every game: flags shared by `play`
/// and `tournament`.
#[derive(Clone, Debug, Args)]
pub struct BoardArgs {
    /// Board width, 8 to 255 (16 or more for 3 bots or more).
    #[arg(long, value_name = "W", default_value_t = 48, conflicts_with = "map")]
    pub width: u32,
    /// Board height, 8 to 255 (16 or more for 3 bots or more).
    #[arg(long, value_name = "H", default_value_t = 36, conflicts_with = "map")]
    pub height: u32,
    /// The tick cap, 1 to 1000000: at the cap the survivors draw.
    #[arg(long = "max-ticks", value_name = "N", default_value_t = 2000)]
    pub max_ticks: u32,
    /// Rock cover of seeded maps in percent, 0 to 25.
    #[arg(long = "rock-density", value_name = "P", default_value_t = 4, conflicts_with = "map")]
    pub rock_density: u32,
    /// What a fault (invalid line, timeout, crash) costs.
    #[arg(long = "fault-policy", value_name = "POLICY", value_enum, default_value_t = PolicyArg::Straight)]
    pub fault_policy: PolicyArg,
    /// Play every game on this map of the 2010 Google AI Challenge (2 bots;
    /// SEED+g then seeds the bots only).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Time for a bot's first answer, in milliseconds.
    #[arg(long = "time-first-ms", value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub time_first_ms: u64,
    /// Time for each later answer, in milliseconds.
    #[arg(long = "time-ms", value_name = "MS", default_value_t = 50,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub time_ms: u64,
}

impl BoardArgs {
    /// The time limits per answer.
    pub fn limits(&self) -> Limits {
        Limits { first: Duration::from_millis(self.time_first_ms), rest: Duration::from_millis(self.time_ms) }
    }

    /// These flags as `lightcycles play` takes them, leaving out those at
    /// their defaults: what a command that plays one game again needs.
    pub fn to_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        let mut push = |flag: &str, value: String, default: &str| {
            if value != default {
                flags.push(flag.to_string());
                flags.push(value);
            }
        };
        if self.map.is_none() {
            push("--width", self.width.to_string(), "48");
            push("--height", self.height.to_string(), "36");
            push("--rock-density", self.rock_density.to_string(), "4");
        }
        push("--max-ticks", self.max_ticks.to_string(), "2000");
        let policy = match self.fault_policy {
            PolicyArg::Straight => "straight",
            PolicyArg::Eliminate => "eliminate",
        };
        push("--fault-policy", policy.to_string(), "straight");
        if let Some(map) = &self.map {
            push("--map", map.display().to_string(), "");
        }
        push("--time-first-ms", self.time_first_ms.to_string(), "1000");
        push("--time-ms", self.time_ms.to_string(), "50");
        flags
    }

    /// The configuration of a game of `players` bots, and the map file when
    /// one is given.
    fn config(&self, players: u32) -> Result<(Config, Option<MapFile>), Failure> {
        let policy = FaultPolicy::from(self.fault_policy);
        let map_file = self.map.as_deref().map(load_map).transpose()?;
        let config = match &map_file {
            Some(file) => {
                if players != 2 {
                    return Err(bad_input(format!(
                        "--map {}: a 2010 map has starts for 2 bots, but {players} bots were given",
                        self.map.as_deref().unwrap_or(Path::new("")).display()
                    )));
                }
                file.config(self.max_ticks, policy)
            }
            None => Config {
                width: self.width,
                height: self.height,
                players,
                max_ticks: self.max_ticks,
                rock_density: self.rock_density,
                fault_policy: policy,
            },
        };
        config.validate().map_err(|e| bad_input(config_message(&e, PlayersFrom::Bots)))?;
        Ok((config, map_file))
    }
}

/// Arguments of `lightcycles replay show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The replay file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The tick to show: the board after K ticks (0 is the start; default the last).
    #[arg(long, value_name = "K")]
    pub tick: Option<u32>,
}

/// Arguments of `lightcycles view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Replay files; the page lists them in this order.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(short = 'o', long = "output", value_name = "OUT.html", required = true)]
    pub output: PathBuf,
}

/// Arguments of `lightcycles replay verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Replay files, checked in order.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

/// Arguments of `lightcycles map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// The map's seed.
    #[arg(short = 's', long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Board width, 8 to 255 (16 or more for 3 players or more).
    #[arg(long, value_name = "W", default_value_t = 48)]
    pub width: u32,
    /// Board height, 8 to 255 (16 or more for 3 players or more).
    #[arg(long, value_name = "H", default_value_t = 36)]
    pub height: u32,
    /// Players, 2 to 8.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub players: u32,
    /// Rock cover in percent, 0 to 25.
    #[arg(long = "rock-density", value_name = "P", default_value_t = 4)]
    pub rock_density: u32,
    /// Print JSON (width, height, rocks, start, as in a replay) instead of a picture.
    #[arg(long)]
    pub json: bool,
}

/// The bot spec grammar and the built-in bots, for `play --help`.
pub fn bots_help() -> String {
    let mut s = String::from(
        "Bot specs:\n  \
         builtin:NAME      a bot compiled into lightcycles (below)\n  \
         PATH.py           a CodeClash bot: main.py with get_move(obs) -> str, run by python3\n                    \
         (or $LIGHTCYCLES_PYTHON)\n  \
         cmd:COMMAND       any program: one JSON observation per line on stdin, one answer\n                    \
         line (N, E, S or W) per observation on stdout; run by /bin/sh -c COMMAND\n  \
         tron2010:COMMAND  a bot of the 2010 Google AI Challenge: the board as '#', ' ', '1'\n                    \
         (itself) and '2'; answers 1-4 for N E S W; two bots only\n  \
         PATH.so           a native plugin (C ABI lightcycles_bot_v1, or Rust through abi_stable)\n  \
         NAME=SPEC         the same bot shown as NAME (letters, digits, _ - .)\n\
         Without NAME=, a bot is named after its builtin, its file's stem or its program;\n\
         equal names get _2, _3...\n\n\
         Bot processes run in a process group of their own, killed at the end of their game\n\
         or when they are eliminated. With -o DIR, what they write to stderr (and a Python\n\
         bot's prints) goes to DIR/logs/<game>-<seat>-<name>.log, up to 1 MiB; without -o\n\
         it is discarded.\n\n\
         Built-in bots:\n",
    );
    for b in Builtin::ALL {
        s.push_str(&format!("  {:<18}{}\n", format!("builtin:{}", b.name()), b.description()));
    }
    s.push_str("\nExample: lightcycles play builtin:random builtin:fuzz -r 200 -s 7 -o games");
    s
}

/// The tournament's schedule and statistics, for `tournament --help`.
pub fn tournament_help() -> String {
    "Games: with P pairings and -g G, game k (from 0) is round k/(2P) with seed SEED+round, \
     pairing (k/2) mod P, the pairing's first bot in seat 0 when k is even and in seat 1 when k is \
     odd. Games 2j and 2j+1 are a game pair.\n\n\
     Statistics (first bot's side): score (W+D/2)/N; Elo -400*log10(1/score-1) with a 95% interval; \
     LOS; pentanomial counts of game pairs (LL, LD, DD/WL, WD, WW) and their Elo; --sprt on the pairs \
     (logistic Elo). Three or more bots are also ranked by a Weng-Lin rating.\n\n\
     Example: lightcycles tournament builtin:floodfill builtin:random --sprt 0,10,0.05,0.05 --results ff.jsonl"
        .to_string()
}

/// A command that did not succeed: its exit code and what to tell the user.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    /// 1 a check failed, 2 bad usage or bad input.
    pub code: u8,
    /// The message, naming what and where.
    pub message: String,
}

fn bad_input(message: impl Into<String>) -> Failure {
    Failure { code: 2, message: message.into() }
}

/// Runs the command line of this process.
pub fn main() -> ExitCode {
    // Bots run in process groups of their own, so Ctrl-C (or a SIGTERM or
    // SIGHUP) reaches the host alone: take every bot down with it.
    let _ = ctrlc::set_handler(|| {
        crate::bot::process::stop_all();
        std::process::exit(130);
    });
    // The orphans of bot processes come to the host, which reaps them when
    // their game ends: no bot process outlives its game.
    let _ = crate::bot::process::adopt_orphans();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let stdout = std::io::stdout();
    match execute(cli, &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure { code, message }) => {
            if !message.is_empty() {
                eprintln!("error: {}", shown_message(&message));
            }
            ExitCode::from(code)
        }
    }
}

/// An error message as it may be printed: a message quotes files, names
/// and lines from anyone, so every control character in it is shown as an
/// escape (its own line breaks are kept).
pub fn shown_message(message: &str) -> String {
    message.split('\n').map(crate::view::untrusted::terminal_text).collect::<Vec<_>>().join("\n")
}

/// Runs one parsed command, writing its output to `out`.
pub fn execute(cli: Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match cli.command {
        Command::Play(args) => play(&args, out),
        Command::Replay(ReplayCommand::Verify(args)) => verify_files(&args.files, out),
        Command::Replay(ReplayCommand::Show(args)) => show_replay(&args, out),
        Command::Tournament(args) => tournament(&args, out),
        Command::Map(args) => map(&args, out),
        Command::View(args) => view_page(&args, out),
        Command::PluginHost(args) => {
            let ctx =
                crate::bot::BotContext { game: args.game, seat: args.seat, players: args.players, seed: args.seed };
            match crate::bot::isolated::serve(&args.path, ctx, args.check) {
                code if code == ExitCode::SUCCESS => Ok(()),
                _ => Err(Failure { code: 2, message: String::new() }),
            }
        }
        Command::Bench(args) => {
            let time = std::time::Duration::from_millis(args.measure_ms);
            crate::bench::run(out, time).map_err(stdout_failure)?;
            let host = std::env::current_exe().ok();
            let figures =
                crate::adapter_bench::measure_hosted(crate::adapter_bench::Budget::Time(time), host.as_deref());
            let text = format!(
                "\nBot adapters: the time of one tick through each, against a bot that answers at once \
                 (48 × 36):\n\n{}",
                crate::adapter_bench::table(&figures)
            );
            write_out(out, &text).map_err(stdout_failure)
        }
    }
}

/// Where the number of players came from, for error messages.
#[derive(Clone, Copy)]
enum PlayersFrom {
    Bots,
    Flag,
}

/// A configuration error in the words of the command line: the flag, the
/// value and the allowed range.
fn config_message(e: &ConfigError, players: PlayersFrom) -> String {
    fn flag(field: &str) -> String {
        format!("--{}", field.replace('_', "-"))
    }
    match (e, players) {
        (ConfigError::OutOfRange { field: "players", value, min, max }, PlayersFrom::Bots) => {
            format!("{value} bots given: a game takes {min} to {max} bots")
        }
        (ConfigError::OutOfRange { field, value, min, max }, _) => {
            format!("{} {value} is out of range: allowed {min} to {max}", flag(field))
        }
        (ConfigError::TooSmallForPlayers { field, value, players }, _) => {
            format!("{} {value} is too small for {players} players: allowed 16 to 255 when 3 or more ride", flag(field))
        }
        (ConfigError::UnknownFaultPolicy, _) => "--fault-policy must be straight or eliminate".to_string(),
    }
}

fn write_out(out: &mut dyn Write, text: &str) -> Result<(), std::io::Error> {
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn stdout_failure(e: std::io::Error) -> Failure {
    bad_input(format!("cannot write to standard output: {e}"))
}

fn load_map(path: &Path) -> Result<MapFile, Failure> {
    let text = input::read_text(path, &input::MAP).map_err(|e| bad_input(format!("--map {}: {e}", path.display())))?;
    MapFile::parse(text).map_err(|e| bad_input(format!("--map {}: {e}", path.display())))
}

/// The entrants of a run from the bot arguments, or why they cannot play.
/// Bot processes log nowhere.
pub fn entrants(args: &[String]) -> Result<Vec<Entrant>, SpecError> {
    entrants_logged(args, None)
}

/// The entrants of a run from the bot arguments, each bot process logging
/// to `log_dir/<game>-<seat>-<name>.log` when a folder is given.
pub fn entrants_logged(args: &[String], log_dir: Option<&Path>) -> Result<Vec<Entrant>, SpecError> {
    entrants_hosted(args, log_dir, &Hosting::default())
}

/// [`entrants_logged`], with bots hosted as `hosting` says.
pub fn entrants_hosted(args: &[String], log_dir: Option<&Path>, hosting: &Hosting) -> Result<Vec<Entrant>, SpecError> {
    let specs = args.iter().map(|a| BotSpec::parse(a)).collect::<Result<Vec<_>, _>>()?;
    let names = spec::display_names(&specs);
    specs
        .iter()
        .zip(names)
        .map(|(spec, name)| {
            let log = log_dir.map(|dir| LogPlace { dir: dir.to_path_buf(), name: name.clone() });
            Ok(Entrant { name, factory: spec.factory_hosted(log, hosting)? })
        })
        .collect()
}

/// Whether any of the bot arguments is a native plugin.
fn has_plugin(args: &[String]) -> bool {
    args.iter().any(|a| BotSpec::parse(a).is_ok_and(|s| matches!(s.kind, spec::BotKind::Plugin(_))))
}

/// Refuses a bot whose kind cannot ride in a game of `players` players.
fn check_players(args: &[String], players: usize) -> Result<(), Failure> {
    for arg in args {
        if let Ok(spec) = BotSpec::parse(arg) {
            if let Some(max) = spec.kind.max_players().filter(|&max| players > max) {
                return Err(bad_input(format!(
                    "bot {arg:?}: {} play games of {max} players only, but {players} bots were given",
                    spec.kind.form()
                )));
            }
        }
    }
    Ok(())
}

fn play(args: &PlayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let log_dir = args.output.as_ref().map(|dir| dir.join(LOGS_DIR));
    let hosting = args.hosting.hosting(false);
    let entrants = entrants_hosted(&args.bots, log_dir.as_deref(), &hosting).map_err(|e| bad_input(e.to_string()))?;
    let players = entrants.len() as u32;
    check_players(&args.bots, entrants.len())?;
    let (config, map_file) = args.board.config(players)?;
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir)
            .map_err(|e| bad_input(format!("-o {}: cannot create the directory: {e}", dir.display())))?;
    }
    let options = RunOptions {
        config,
        map_file,
        rounds: args.rounds,
        base_seed: args.seed,
        swap: args.swap,
        jobs: args.jobs as usize,
        limits: args.board.limits(),
        out_dir: args.output.clone(),
    };
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(entrants.len());
    let result = if args.watch {
        if args.jobs > 1 {
            return Err(bad_input(format!("--watch draws one game at a time: use it with -j 1, not -j {}", args.jobs)));
        }
        watch_games(&entrants, &options, out, &mut tally)
    } else {
        run::run::<FastGame>(&entrants, &options, |game| {
            tally.add(game);
            let line = report::game_line(game, config.max_ticks) + "\n";
            write_out(out, &line).map_err(|e| RunError::Report(format!("cannot write to standard output: {e}")))
        })
    };
    result.map_err(|e| bad_input(e.to_string()))?;
    write_out(out, &report::final_results(&tally, &names)).map_err(stdout_failure)
}

fn tournament(args: &TournamentArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let log_dir = args.output.as_ref().map(|dir| dir.join(LOGS_DIR));
    let hosting = args.hosting.hosting(true);
    let entrants = entrants_hosted(&args.bots, log_dir.as_deref(), &hosting).map_err(|e| bad_input(e.to_string()))?;
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    if sprt.is_some() && entrants.len() != 2 {
        return Err(bad_input(format!("--sprt compares two bots, but {} were given", entrants.len())));
    }
    let (config, map_file) = args.board.config(2)?;
    let mode = if args.gauntlet { PairingMode::Gauntlet } else { PairingMode::RoundRobin };
    let games = args.games.unwrap_or(if sprt.is_some() { 20_000 } else { 100 });
    let schedule = Schedule::new(entrants.len(), mode, games, args.seed).map_err(|e| bad_input(e.to_string()))?;
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir)
            .map_err(|e| bad_input(format!("-o {}: cannot create the directory: {e}", dir.display())))?;
    }
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize);
    let progress = if std::io::stderr().is_terminal() { ProgressMode::Bar } else { ProgressMode::Log(args.log_every) };
    let t = Tournament {
        entrants,
        specs: args.bots.clone(),
        mode,
        schedule,
        options: RunOptions {
            config,
            map_file,
            rounds: 0,
            base_seed: args.seed,
            swap: false,
            jobs,
            limits: args.board.limits(),
            out_dir: args.output.clone(),
        },
        sprt,
        results: args.results.clone(),
        resume: args.resume,
        replay_flags: [args.board.to_flags(), HostingArgs::to_flags(&hosting, has_plugin(&args.bots))].concat(),
        progress,
    };
    let report = tournament::run::<FastGame>(&t).map_err(|e| bad_input(e.to_string()))?;
    if let Some(path) = &args.report {
        whole_file::write(path, (report.to_json() + "\n").as_bytes())
            .map_err(|e| bad_input(format!("--report {}: cannot write: {e}", path.display())))?;
    }
    write_out(out, &report.to_table()).map_err(stdout_failure)
}

fn verify_files(files: &[PathBuf], out: &mut dyn Write) -> Result<(), Failure> {
    for path in files {
        let shown = path.display();
        match verify::check_file::<lightcycles_core::ReferenceGame>(path) {
            Ok(Verdict::Verified(o)) => {
                let result = match o.winner {
                    Some(w) => format!("player {w} won"),
                    None => "draw".to_string(),
                };
                write_out(out, &format!("{shown}: ok ({} ticks, {result})\n", o.ticks)).map_err(stdout_failure)?;
            }
            Ok(Verdict::Differs(m)) => {
                let player = m.player.map_or(String::new(), |p| format!(", player {p}"));
                write_out(
                    out,
                    &format!(
                        "{shown}: differs at tick {}{player}, field {}: expected {}, actual {}\n",
                        m.tick, m.field, m.expected, m.actual
                    ),
                )
                .map_err(stdout_failure)?;
                return Err(Failure { code: 1, message: format!("{shown}: replay differs from the rules") });
            }
            Err(e) => return Err(bad_input(format!("{shown}: {e}"))),
        }
    }
    Ok(())
}

/// Whether this process's standard output is a terminal a person looks at
/// (and `NO_COLOR` does not ask for plain text): then boards are drawn in
/// colour, and `--watch` redraws in place.
fn stdout_is_a_screen() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
}

/// `play --watch`: the games one after another, each drawn tick by tick,
/// its result line printed below its last frame.
fn watch_games(
    entrants: &[Entrant],
    options: &RunOptions,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> Result<(), RunError> {
    let screen = stdout_is_a_screen();
    let pace = if screen { view::watch::TERMINAL_PACE } else { Duration::ZERO };
    // Both the per-tick watch and the per-game report write to stdout.
    let watcher = RefCell::new(view::watch::Watcher::new(out, screen, pace));
    let broken: RefCell<Option<std::io::Error>> = RefCell::new(None);
    let mut watch = |plan: &run::GamePlan, names: &[String], engine: &FastGame, answers: &[Answer]| {
        if broken.borrow().is_some() {
            return;
        }
        let origin = if options.map_file.is_some() { MapOrigin::Custom } else { MapOrigin::Seed(plan.seed) };
        let title = format!("game {} · seed {} · {}", plan.game, plan.seed, names.join(" vs "));
        let scene = Scene::from_engine(engine, names, answers, origin);
        if let Err(e) = watcher.borrow_mut().draw(&title, &scene) {
            *broken.borrow_mut() = Some(e);
        }
    };
    run::run_watched::<FastGame>(entrants, options, &mut watch, |game| {
        let stdout_error = |e: &std::io::Error| RunError::Report(format!("cannot write to standard output: {e}"));
        if let Some(e) = broken.borrow().as_ref() {
            return Err(stdout_error(e));
        }
        tally.add(game);
        let mut watcher = watcher.borrow_mut();
        let line = report::game_line(game, options.config.max_ticks) + "\n";
        write_out(watcher.out(), &line).map_err(|e| stdout_error(&e))?;
        watcher.restart();
        Ok(())
    })
}

/// Reads a replay file for viewing, or says what is wrong and where.
fn load_replay(path: &Path) -> Result<Replay, Failure> {
    let text = input::read_text(path, &input::REPLAY).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    view::parse(&text).map_err(|e| bad_input(format!("{}: {e}", path.display())))
}

fn show_replay(args: &ShowArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let replay = load_replay(&args.file)?;
    let text = view::terminal::render_replay(&replay, args.tick, stdout_is_a_screen())
        .map_err(|e| bad_input(format!("{}: --tick: {e}", args.file.display())))?;
    write_out(out, &text).map_err(stdout_failure)
}

fn view_page(args: &ViewArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let replays = args.files.iter().map(|p| load_replay(p)).collect::<Result<Vec<_>, _>>()?;
    let labels: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let mut entries: Vec<(&str, Viewable<'_>)> = Vec::with_capacity(replays.len());
    for (label, replay) in labels.iter().zip(&replays) {
        let viewable = Viewable::check(replay).map_err(|e| bad_input(format!("{label}: {e}")))?;
        entries.push((label, viewable));
    }
    let page = view::html::render(&entries);
    let shown = args.output.display();
    whole_file::write(&args.output, page.as_bytes())
        .map_err(|e| bad_input(format!("-o {shown}: cannot write: {e}")))?;
    let count = if replays.len() == 1 { "1 replay".to_string() } else { format!("{} replays", replays.len()) };
    write_out(out, &format!("{shown}: {count}, {} bytes\n", page.len())).map_err(stdout_failure)
}

fn map(args: &MapArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let config = Config {
        width: args.width,
        height: args.height,
        players: args.players,
        rock_density: args.rock_density,
        ..Config::default()
    };
    config.validate().map_err(|e| bad_input(config_message(&e, PlayersFrom::Flag)))?;
    let map = lightcycles_core::map::generate(&config, args.seed).map_err(|e| {
        bad_input(format!(
            "--seed {} on {} × {} with {} players: {e}",
            args.seed, args.width, args.height, args.players
        ))
    })?;
    let text = if args.json {
        map_view::json(&map) + "\n"
    } else {
        format!(
            "seed {}: {} × {}, {} players, rock density {}%\n{}",
            args.seed,
            args.width,
            args.height,
            args.players,
            args.rock_density,
            map_view::picture(&map)
        )
    };
    write_out(out, &text).map_err(stdout_failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn config_errors_name_the_flag_the_value_and_the_range() {
        let base = Config::default();
        let msg = |c: Config, from| config_message(&c.validate().unwrap_err(), from);
        assert_eq!(msg(Config { width: 7, ..base }, PlayersFrom::Bots), "--width 7 is out of range: allowed 8 to 255");
        assert_eq!(
            msg(Config { max_ticks: 0, ..base }, PlayersFrom::Bots),
            "--max-ticks 0 is out of range: allowed 1 to 1000000"
        );
        assert_eq!(
            msg(Config { rock_density: 26, ..base }, PlayersFrom::Bots),
            "--rock-density 26 is out of range: allowed 0 to 25"
        );
        assert_eq!(msg(Config { players: 9, ..base }, PlayersFrom::Bots), "9 bots given: a game takes 2 to 8 bots");
        assert_eq!(
            msg(Config { players: 9, ..base }, PlayersFrom::Flag),
            "--players 9 is out of range: allowed 2 to 8"
        );
        assert_eq!(
            msg(Config { players: 3, height: 12, ..base }, PlayersFrom::Bots),
            "--height 12 is too small for 3 players: allowed 16 to 255 when 3 or more ride"
        );
    }

    #[test]
    fn help_lists_every_builtin() {
        let help = bots_help();
        for b in Builtin::ALL {
            assert!(help.contains(&format!("builtin:{}", b.name())), "{help}");
            assert!(help.contains(b.description()));
        }
    }
}
