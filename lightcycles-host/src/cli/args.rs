//! The flags of every command, defined apart from the commands that use
//! them (clap derive): what each command takes, the flag groups that
//! `play` and `tournament` share, and the help texts.
#![allow(rustdoc::invalid_html_tags)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use lightcycles_core::{Config, ConfigError, FaultPolicy};

use crate::bot::adapter::wasm::WasmBudget;
use crate::bot::adapter::Hosting;
use crate::bot::builtin::Builtin;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec::BotSpec;
use crate::cli::{bad_input, Failure};
use crate::game::match_loop::{Limits, MapFile};

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

/// Arguments of the internal `__guard` command.
#[derive(Debug, Args)]
pub struct GuardArgs {
    /// The process id of the host it guards.
    #[arg(long)]
    pub host: u32,
}

/// How bots are hosted: resource limits of bot processes and plugin
/// isolation. Flags shared by `play` and `tournament`.
#[derive(Clone, Debug, Args)]
pub struct HostingArgs {
    /// Address-space limit of each bot process, in MiB (0: none).
    #[arg(long = "bot-memory-mb", value_name = "MB", default_value_t = crate::bot::process::sandbox::DEFAULT_MEMORY_MB)]
    pub bot_memory_mb: u64,
    /// Processes a bot may start beside the ones its user already runs
    /// (RLIMIT_NPROC; not applied under root; 0: none).
    #[arg(long = "bot-processes", value_name = "N", default_value_t = crate::bot::process::sandbox::DEFAULT_PROCESSES)]
    pub bot_processes: u64,
    /// Run each native plugin in a child process of its own, so that a crash,
    /// an exit, an endless loop or a memory bomb is a fault of that bot only
    /// (the default).
    #[arg(long, conflicts_with = "in_process")]
    pub isolate: bool,
    /// Load native plugins into the host itself: faster, but a plugin that
    /// crashes or exits takes the host with it, and one that never returns
    /// keeps its thread until the host exits. For plugins you trust.
    #[arg(long = "in-process")]
    pub in_process: bool,
    /// Budget wasm bots in fuel (about one unit per wasm instruction), not
    /// time: N for an answer of --time-ms, other limits (the first tick's,
    /// --bot-time) in proportion. The same seeds then give the same games
    /// on any machine; the clock stays only as a backstop at 10 times a
    /// limit plus 1 s (docs/wasm-bots.md).
    #[arg(long = "fuel-per-tick", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub fuel_per_tick: Option<u64>,
}

impl HostingArgs {
    /// The hosting these flags ask for; plugins are isolated unless a flag
    /// says otherwise when `isolate_by_default`.
    pub fn hosting(&self, isolate_by_default: bool, board: &BoardArgs) -> Hosting {
        Hosting {
            sandbox: Sandbox { memory_mb: self.bot_memory_mb, processes: self.bot_processes },
            isolate: self.isolate || (isolate_by_default && !self.in_process),
            wasm: WasmBudget {
                fuel_per_tick: self.fuel_per_tick,
                tick_ms: board.time_ms,
                margin_ms: board.time_margin_ms,
            },
        }
    }

    /// These flags as `lightcycles play` takes them, for a run hosted as
    /// `hosting`, leaving out those at their defaults (and the hosting of
    /// plugins when no bot is a plugin).
    pub fn to_flags(hosting: &Hosting, plugins: bool) -> Vec<String> {
        let mut flags = Vec::new();
        if hosting.sandbox.memory_mb != crate::bot::process::sandbox::DEFAULT_MEMORY_MB {
            flags.extend(["--bot-memory-mb".to_string(), hosting.sandbox.memory_mb.to_string()]);
        }
        if hosting.sandbox.processes != crate::bot::process::sandbox::DEFAULT_PROCESSES {
            flags.extend(["--bot-processes".to_string(), hosting.sandbox.processes.to_string()]);
        }
        if !hosting.isolate && plugins {
            flags.push("--in-process".to_string());
        }
        if let Some(fuel) = hosting.wasm.fuel_per_tick {
            flags.extend(["--fuel-per-tick".to_string(), fuel.to_string()]);
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

/// What a fault costs (docs/RULES.md section 6).
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
    /// Stop with exit code 2 when a bot cannot play (fails its probe before
    /// game 0), instead of letting it lose every game as CodeClash does.
    #[arg(long)]
    pub strict: bool,
    /// Resource limits and plugin isolation.
    #[command(flatten)]
    pub hosting: HostingArgs,
}

/// Arguments of `lightcycles tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// Merge the results files of a tournament's shards.
    #[command(subcommand)]
    pub merge: Option<TournamentCommand>,
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
    /// Games played at once, 1 to 1024, or auto: one per free core (the
    /// default); each game is timed by its own clock, so too many jobs
    /// show up as timeouts (a warning says when there are more than cores).
    #[arg(short = 'j', long = "jobs", value_name = "JOBS|auto", value_parser = parse_jobs)]
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
    /// H1 elo = ELO1 (Elo of the first bot, on game pairs), with error rates
    /// ALPHA and BETA; stop when a bound is crossed. Two bots only. The Elo
    /// is logistic, or normalized (as fastchess's) with ,model=normalized.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA[,model=M]", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// The first bot plays each of the others; they do not play each other.
    #[arg(long)]
    pub gauntlet: bool,
    /// Play shard I of N (I from 0): only the games whose index is I mod N,
    /// with the seeds and seats of the whole tournament; the results file's
    /// header records the shard. `tournament merge` joins the shards' files.
    #[arg(long, value_name = "I/N", conflicts_with = "sprt",
          value_parser = clap::value_parser!(crate::tournament::shard::Shard))]
    pub shard: Option<crate::tournament::shard::Shard>,
    /// Also write the final report as JSON to FILE.
    #[arg(long = "report", value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Also write the report page (as `tournament report` does) to
    /// PAGE.html, rewritten every few seconds as games finish and at the end.
    #[arg(long = "html", value_name = "PAGE.html", requires = "results")]
    pub html: Option<PathBuf>,
    /// Free-for-all games of N seats, 3 to 8: every group of N bots (with
    /// --gauntlet, those holding the first bot) plays each seed N times,
    /// the seats rotated, so each bot rides each seat once; -g is then
    /// games per group, a multiple of N. Rated by Weng-Lin.
    #[arg(long = "ffa", value_name = "N", value_parser = clap::value_parser!(u64).range(3..=8))]
    pub ffa: Option<u64>,
    /// Play on a pool of maps, like an opening book: 2010 map files,
    /// folders of them (every file, by name), builtin:NAME (see --maps
    /// builtin:all for all of them). Round r (both seats, or every
    /// rotation) is played on one map; with more rounds than maps, the pool
    /// comes round again.
    #[arg(long = "maps", value_name = "DIR|FILE|builtin:NAME", num_args = 1.., conflicts_with_all = ["map", "width", "height", "rock_density", "sizes"])]
    pub maps: Vec<String>,
    /// A pool of generated boards: these sizes (WxH,WxH…), each with every
    /// density of --densities.
    #[arg(long = "sizes", value_name = "WxH,…", conflicts_with_all = ["map", "width", "height"])]
    pub sizes: Option<String>,
    /// Rock densities of the --sizes pool, in percent (P,P…; default the
    /// --rock-density).
    #[arg(long = "densities", value_name = "P,…", requires = "sizes", conflicts_with = "rock_density")]
    pub densities: Option<String>,
    /// The order rounds take the pool's maps in: as given, or shuffled
    /// once with the seed.
    #[arg(long = "map-order", value_name = "ORDER", value_enum, default_value_t = crate::tournament::maps::Order::Sequential)]
    pub map_order: crate::tournament::maps::Order,
    /// The place in that order of round 0's map.
    #[arg(long = "map-start", value_name = "K", default_value_t = 0)]
    pub map_start: usize,
    /// A league: each game set goes to the pairing (or --ffa group) whose
    /// ratings are least certain; -g is the games of the whole league.
    /// Resume it with more bots to add them (the file's bots first, in
    /// their order). Needs --results.
    #[arg(long, requires = "results", conflicts_with_all = ["sprt", "gauntlet", "shard"])]
    pub league: bool,
    /// In a league, the game sets chosen ahead of the results: set m is
    /// chosen once sets 0 to m-LAG are counted (more lets more games run at
    /// once; it is part of the league, fixed at its start).
    #[arg(long = "league-lag", value_name = "LAG", default_value_t = 4, requires = "league",
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub league_lag: u64,
    /// Pin each game (its worker and the bots it starts) to a core of its
    /// own, as fastchess -use-affinity does. Linux only.
    #[arg(long)]
    pub affinity: bool,
    /// Play even when a bot fails its probe before game 0 (it then loses
    /// its games by crashing); without it such a tournament does not start.
    #[arg(long = "allow-broken")]
    pub allow_broken: bool,
    /// Without a terminal on stderr, also log the standings every N games
    /// (0: not by games).
    #[arg(long = "log-every", value_name = "N", default_value_t = 0)]
    pub log_every: u64,
    /// Without a terminal on stderr, log the standings every S seconds and
    /// at the end (0, with --log-every 0: never).
    #[arg(long = "log-seconds", value_name = "S", default_value_t = 10)]
    pub log_seconds: u64,
    /// Board, rules and time limits.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Resource limits and plugin isolation.
    #[command(flatten)]
    pub hosting: HostingArgs,
}

/// The `tournament` commands beside playing one.
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Check that results files are the shards of one tournament (`--shard
    /// I/N`), complete and consistent, and write the one results file and
    /// report of the whole tournament, as one machine would have. Anything
    /// inconsistent is an error (exit 2) and nothing is written.
    Merge(MergeArgs),
    /// Write one self-contained HTML page from results files (one run, its
    /// shards, a file still being written): standings with intervals,
    /// crosstable, ratings over the games, the SPRT, breakdowns by seat,
    /// map and board size, faults, and every game with a link to its replay.
    Report(ReportArgs),
}

/// Arguments of `lightcycles tournament report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The results files: one tournament's (its shards may be given together).
    #[arg(value_name = "RESULTS.jsonl", required = true)]
    pub files: Vec<PathBuf>,
    /// The page to write.
    #[arg(short = 'o', long = "output", value_name = "PAGE.html", required = true)]
    pub output: PathBuf,
    /// Judge a sequential probability ratio test on the games (first
    /// pairing), as `tournament --sprt` does, and draw its LLR.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA[,model=M]", allow_hyphen_values = true)]
    pub sprt: Option<String>,
}

/// Arguments of `lightcycles tournament merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' results files (a retried shard may be given twice).
    #[arg(value_name = "SHARD.jsonl", required = true)]
    pub shards: Vec<PathBuf>,
    /// The merged results file to write (it must not hold anything yet).
    #[arg(short = 'o', long = "output", value_name = "ALL.jsonl", required = true)]
    pub output: PathBuf,
    /// Also write the report as JSON to FILE.
    #[arg(long = "report", value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Judge a sequential probability ratio test on the merged games (first
    /// pairing), as `tournament --sprt` does (,model=normalized too);
    /// shards play all their games.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA[,model=M]", allow_hyphen_values = true)]
    pub sprt: Option<String>,
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
    /// Time limits of one bot, by its display name: FIRST_MS,MS (first
    /// answer, later answers) or MS (later answers only); repeat the flag
    /// for more bots. The others keep --time-first-ms and --time-ms.
    #[arg(long = "bot-time", value_name = "NAME=[FIRST_MS,]MS")]
    pub bot_time: Vec<String>,
    /// Time past a limit still taken as in time, against scheduling noise
    /// (answers let in by it are counted and reported), in milliseconds.
    #[arg(long = "time-margin-ms", value_name = "MS", default_value_t = 0)]
    pub time_margin_ms: u64,
}

impl BoardArgs {
    /// The time limits per answer.
    pub fn limits(&self) -> Limits {
        Limits { first: Duration::from_millis(self.time_first_ms), rest: Duration::from_millis(self.time_ms) }
    }

    /// The time margin.
    pub fn margin(&self) -> Duration {
        Duration::from_millis(self.time_margin_ms)
    }

    /// The limits of `--bot-time`, by entrant (named `names`): empty when
    /// the flag is not given, else one per entrant, `None` for those it
    /// does not name.
    pub fn bot_limits(&self, names: &[String]) -> Result<Vec<Option<Limits>>, Failure> {
        if self.bot_time.is_empty() {
            return Ok(Vec::new());
        }
        let mut limits = vec![None; names.len()];
        for arg in &self.bot_time {
            let (name, own) = parse_bot_time(arg, self.limits()).map_err(bad_input)?;
            let Some(i) = names.iter().position(|n| *n == name) else {
                return Err(bad_input(format!(
                    "--bot-time {arg}: no bot is named {name:?}; the bots are {}",
                    names.join(", ")
                )));
            };
            if limits[i].is_some() {
                return Err(bad_input(format!("--bot-time {arg}: {name} is given a time twice")));
            }
            limits[i] = Some(own);
        }
        Ok(limits)
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
        push("--time-margin-ms", self.time_margin_ms.to_string(), "0");
        for arg in &self.bot_time {
            flags.push("--bot-time".to_string());
            flags.push(arg.clone());
        }
        flags
    }

    /// The configuration of a game of `players` bots, and the map file when
    /// one is given.
    pub(crate) fn config(&self, players: u32) -> Result<(Config, Option<MapFile>), Failure> {
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
    /// The HTML file to write (default: next to the replay, FILE with
    /// `.html`; for several replays, `replays.html` beside the first).
    #[arg(short = 'o', long = "output", value_name = "OUT.html")]
    pub output: Option<PathBuf>,
    /// Open the page in the default browser (xdg-open, or open on macOS).
    #[arg(long)]
    pub open: bool,
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
     (logistic Elo, or normalized Elo with ,model=normalized). Three or more bots are also ranked by a Weng-Lin rating.\n\n\
     Free-for-all (--ffa N): every group of N bots plays each seed N times, the seats rotated; \
     the table ranks bots by the conservative Weng-Lin rating mu - 3*sigma. A league (--league) \
     gives each game set to the pairing whose ratings are least certain and resumes exactly; \
     resume it with more bots to add them.\n\n\
     Example: lightcycles tournament builtin:floodfill builtin:random --sprt 0,10,0.05,0.05 --results ff.jsonl"
        .to_string()
}

/// Where the number of players came from, for error messages.
#[derive(Clone, Copy)]
pub(crate) enum PlayersFrom {
    /// The bots given.
    Bots,
    /// The `--players` flag.
    Flag,
}

/// A configuration error in the words of the command line: the flag, the
/// value and the allowed range.
pub(crate) fn config_message(e: &ConfigError, players: PlayersFrom) -> String {
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

fn load_map(path: &Path) -> Result<MapFile, Failure> {
    crate::tournament::maps::load_one(&path.to_string_lossy(), "--map").map_err(bad_input)
}

/// Reads `NAME=FIRST_MS,MS` or `NAME=MS` (later answers only; the first
/// keeps `default`'s).
pub fn parse_bot_time(arg: &str, default: Limits) -> Result<(String, Limits), String> {
    let bad = || format!("--bot-time {arg}: expected NAME=FIRST_MS,MS or NAME=MS, milliseconds from 1");
    let (name, times) = arg.split_once('=').ok_or_else(bad)?;
    let ms = |s: &str| s.trim().parse::<u64>().ok().filter(|&m| m >= 1).map(Duration::from_millis).ok_or_else(bad);
    let limits = match times.split_once(',') {
        Some((first, rest)) => Limits { first: ms(first)?, rest: ms(rest)? },
        None => Limits { first: default.first, rest: ms(times)? },
    };
    if name.is_empty() {
        return Err(bad());
    }
    Ok((name.to_string(), limits))
}

/// `-j`: a number of games at once, or `auto` (one per free core).
pub fn parse_jobs(text: &str) -> Result<u64, String> {
    if text == "auto" {
        return Ok(crate::game::pool::free_cores() as u64);
    }
    match text.parse::<u64>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("{text:?} is not 1 to 1024 or auto")),
    }
}

/// Whether any of the bot arguments is a native plugin (a bot that
/// `--isolate` changes).
pub(crate) fn has_plugin(args: &[String]) -> bool {
    args.iter().any(|a| BotSpec::parse(a).is_ok_and(|s| s.adapter.isolatable()))
}

/// Refuses a bot whose kind cannot ride in a game of `players` players.
pub(crate) fn check_players(args: &[String], players: usize) -> Result<(), Failure> {
    for arg in args {
        if let Ok(spec) = BotSpec::parse(arg) {
            spec.check_players(players).map_err(bad_input)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

#[cfg(test)]
mod parser_properties;
