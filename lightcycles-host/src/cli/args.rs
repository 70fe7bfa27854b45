//! The flags of every command, defined apart from the commands that use
//! them (clap derive): what each command takes, the flag groups that
//! `play` and `tournament` share, and the help texts.
#![allow(rustdoc::invalid_html_tags)]

use std::path::PathBuf;
#[cfg(test)]
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use lightcycles_core::{defaults, FaultPolicy};

use crate::bot::adapter::{Hosting, WasmBudget};
use crate::bot::builtin::Builtin;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec::BotSpec;
use crate::cli::{bad_input, Failure};
#[cfg(test)]
use crate::game::board::parse_bot_time;
use crate::game::board::Board;
#[cfg(test)]
use crate::game::match_loop::Limits;

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
    /// says otherwise when `isolate_by_default`; wasm fuel is given for an
    /// answer of `tick_ms` with `margin_ms` (the run's --time-ms and
    /// --time-margin-ms).
    pub fn hosting(&self, isolate_by_default: bool, tick_ms: u64, margin_ms: u64) -> Hosting {
        Hosting {
            sandbox: Sandbox { memory_mb: self.bot_memory_mb, processes: self.bot_processes },
            isolate: self.isolate || (isolate_by_default && !self.in_process),
            wasm: WasmBudget { fuel_per_tick: self.fuel_per_tick, tick_ms, margin_ms },
        }
    }
}

/// Arguments of `lightcycles bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Milliseconds spent on each measure, per engine (and on each adapter).
    #[arg(long = "measure-ms", value_name = "MS", default_value_t = crate::bench::DEFAULT_TIME.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub measure_ms: u64,
    /// examples/wasm-search-bot built for wasm32-unknown-unknown: also
    /// measure its nodes per second against builtin:search's, on the same
    /// positions with the same node budget.
    #[arg(long = "wasm-search-bot", value_name = "PATH.wasm")]
    pub wasm_search_bot: Option<std::path::PathBuf>,
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
    /// Send a bot the observations one seat of a replay received, in order,
    /// under the same limits, and report the first tick where its answer
    /// differs from the recorded one (exit 1) or that every answer matched;
    /// or print the observation of one tick (--observation), for a unit test.
    Feed(FeedArgs),
}

/// Arguments of `lightcycles replay feed`.
#[derive(Debug, Args)]
pub struct FeedArgs {
    /// The replay file.
    #[arg(value_name = "REPLAY")]
    pub file: PathBuf,
    /// The bot to send the observations to (any bot spec); not with --observation.
    #[arg(value_name = "BOT", required_unless_present = "observation")]
    pub bot: Option<String>,
    /// The seat whose observations are sent (its player id, from 0).
    #[arg(long, value_name = "S")]
    pub seat: usize,
    /// Stop after tick T.
    #[arg(long, value_name = "T", conflicts_with = "observation")]
    pub until: Option<u32>,
    /// Print the observation JSON the seat received before deciding tick T
    /// (the line a JSON-lines bot was sent), and nothing else.
    #[arg(long, value_name = "T", conflicts_with = "bot")]
    pub observation: Option<u32>,
    /// Time for the bot's first answer, in milliseconds (default: as the
    /// replay records, else 1000).
    #[arg(long = "time-first-ms", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time_first_ms: Option<u64>,
    /// Time for each later answer, in milliseconds (default: as the replay
    /// records, else 50).
    #[arg(long = "time-ms", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time_ms: Option<u64>,
    /// The game number the bot is made for (default: g of a file named
    /// sim_<g>.json, else 0).
    #[arg(long, value_name = "G")]
    pub game: Option<u64>,
    /// The seed the bot is made with, for a game on a map file (whose
    /// replay records no seed); default the replay's seed.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Go on past the first answer that differs: send every observation to
    /// the end (or --until) and report how many answers differ (to follow
    /// a bot's own log, e.g. builtin:search:trace, through a whole game).
    #[arg(long = "keep-going", conflicts_with = "observation")]
    pub keep_going: bool,
    /// Resource limits and plugin isolation.
    #[command(flatten)]
    pub hosting: HostingArgs,
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
    /// With `human` among the bots (you, at the keyboard: arrow keys or
    /// WASD, q quits): the time of a tick, in milliseconds.
    #[arg(long = "tick-ms", value_name = "MS", default_value_t = 150,
          value_parser = clap::value_parser!(u64).range(20..=5000))]
    pub tick_ms: u64,
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
    /// ALPHA and BETA; stop when a bound is crossed. Two bots, or with
    /// --ffa N exactly N: the first against the others (the field), on game
    /// sets, by the places it takes. The Elo is logistic, or normalized (as
    /// fastchess's) with ,model=normalized.
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
    /// pairing; a free-for-all's first bot against the field), as
    /// `tournament --sprt` does, and draw its LLR.
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
    /// pairing; a free-for-all's first bot against the field), as
    /// `tournament --sprt` does (,model=normalized too);
    /// shards play all their games.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA[,model=M]", allow_hyphen_values = true)]
    pub sprt: Option<String>,
}

/// Arguments of `lightcycles tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The bot to tune, a spec the values go into: a built-in bot gets each
    /// parameter as an option (builtin:search:nodes=2000 becomes
    /// builtin:search:nodes=2000:cell=17), any other bot the environment
    /// variable LIGHTCYCLES_PARAM_<NAME>; {NAME} anywhere in the spec is
    /// replaced by the value. Not with --show.
    #[arg(value_name = "BOT", required_unless_present = "show")]
    pub bot: Option<String>,
    /// A parameter: NAME=START,MIN,MAX,C_END,R_END (as fishtest): its
    /// start, its bounds, the perturbation and the learning rate at the last
    /// iteration. Whole numbers for START, MIN and MAX make the bot get whole
    /// numbers. Repeat the flag for more parameters.
    #[arg(
        long = "param",
        value_name = "NAME=START,MIN,MAX,C_END,R_END",
        required_unless_present = "show",
        allow_hyphen_values = true
    )]
    pub params: Vec<String>,
    /// The state file (JSON): written after every iteration; when it
    /// exists, the tune goes on from it (the same flags but --iterations and
    /// -j).
    #[arg(long = "state", value_name = "FILE.json")]
    pub state: PathBuf,
    /// Print the current values and their history from --state, and exit.
    #[arg(long, conflicts_with_all = ["bot", "params", "against"])]
    pub show: bool,
    /// Iterations in all (a resumed tune may be given more).
    #[arg(long = "iterations", value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: u64,
    /// Games per iteration (per pairing), an even number: game pairs, each
    /// seed in both seats (with --ffa N, a multiple of N: each seed in
    /// every rotation of the seats).
    #[arg(long = "games-per-iter", value_name = "GAMES", default_value_t = 8,
          value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub games_per_iter: u64,
    /// Each point plays this bot instead of the other point (with --ffa,
    /// its copies fill the seats beside the two points).
    #[arg(long = "against", value_name = "BOT")]
    pub against: Option<String>,
    /// Free-for-all games of N seats, 3 to 8: both points ride in every
    /// game, the other N - 2 seats held by copies of --against (or of the
    /// bot at the current values), the seats rotated; a point scores by
    /// placing ahead of the other.
    #[arg(long = "ffa", value_name = "N", value_parser = clap::value_parser!(u64).range(3..=8))]
    pub ffa: Option<u64>,
    /// Play on a pool of maps: 2010 map files, folders of them (every
    /// file, by name), builtin:NAME or builtin:all. Each round (a seed in
    /// both seats) is played on the pool's next map, in order, and each
    /// iteration goes on where the last one stopped, so the iterations
    /// cycle through the whole pool.
    #[arg(long = "maps", value_name = "DIR|FILE|builtin:NAME", num_args = 1.., conflicts_with_all = ["map", "width", "height", "rock_density"])]
    pub maps: Vec<String>,
    /// The seed of the perturbations, and of iteration 0's games: iteration
    /// k plays seeds from SEED + k·GAMES/2 (SEED + k·GAMES/N with --ffa N).
    #[arg(short = 's', long = "seed", value_name = "SEED", default_value_t = 0)]
    pub seed: u64,
    /// Games played at once, 1 to 1024, or auto (the default): one per free core.
    #[arg(short = 'j', long = "jobs", value_name = "JOBS|auto", value_parser = parse_jobs)]
    pub jobs: Option<u64>,
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
    #[arg(long, value_name = "W", default_value_t = defaults::WIDTH, conflicts_with = "map")]
    pub width: u32,
    /// Board height, 8 to 255 (16 or more for 3 bots or more).
    #[arg(long, value_name = "H", default_value_t = defaults::HEIGHT, conflicts_with = "map")]
    pub height: u32,
    /// The tick cap, 1 to 1000000: at the cap the survivors draw.
    #[arg(long = "max-ticks", value_name = "N", default_value_t = defaults::MAX_TICKS)]
    pub max_ticks: u32,
    /// Rock cover of seeded maps in percent, 0 to 25.
    #[arg(long = "rock-density", value_name = "P", default_value_t = defaults::ROCK_DENSITY, conflicts_with = "map")]
    pub rock_density: u32,
    /// What a fault (invalid line, timeout, crash) costs.
    #[arg(long = "fault-policy", value_name = "POLICY", value_enum, default_value_t = PolicyArg::Straight)]
    pub fault_policy: PolicyArg,
    /// Play every game on this map of the 2010 Google AI Challenge (2 bots;
    /// SEED+g then seeds the bots only).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Time for a bot's first answer, in milliseconds.
    #[arg(long = "time-first-ms", value_name = "MS", default_value_t = defaults::TIME_FIRST_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub time_first_ms: u64,
    /// Time for each later answer, in milliseconds.
    #[arg(long = "time-ms", value_name = "MS", default_value_t = defaults::TIME_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub time_ms: u64,
    /// A time bank per bot and game, in milliseconds: time a bot may spend
    /// past a tick's limit, taken from the bank; what is left is in its
    /// observations as "time_bank_ms" (0: no bank).
    #[arg(long = "time-bank-ms", value_name = "MS", default_value_t = 0)]
    pub time_bank_ms: u64,
    /// What each answer adds to a bot's time bank, in milliseconds.
    #[arg(long = "time-inc-ms", value_name = "MS", default_value_t = 0)]
    pub time_inc_ms: u64,
    /// Time limits of one bot, by its display name: FIRST_MS,MS (first
    /// answer, later answers) or MS (later answers only), then optionally
    /// bank=MS and inc=MS (its own time bank); repeat the flag for more
    /// bots. The others keep --time-first-ms, --time-ms and the bank flags.
    #[arg(long = "bot-time", value_name = "NAME=[FIRST_MS,]MS[,bank=MS][,inc=MS]")]
    pub bot_time: Vec<String>,
    /// Time past a limit still taken as in time, against scheduling noise
    /// (answers let in by it are counted and reported), in milliseconds.
    #[arg(long = "time-margin-ms", value_name = "MS", default_value_t = 0)]
    pub time_margin_ms: u64,
}

impl BoardArgs {
    /// These flags as the library takes them. With `pool` (a map pool
    /// gives the boards: clap has refused a size or rocks beside it), the
    /// board's size and rocks are left to it.
    pub fn board(&self, pool: bool) -> Board {
        let own = |value: u32| (!pool).then_some(value);
        Board {
            width: own(self.width),
            height: own(self.height),
            max_ticks: self.max_ticks,
            rock_density: own(self.rock_density),
            fault_policy: self.fault_policy.into(),
            map: self.map.clone(),
            time_first_ms: self.time_first_ms,
            time_ms: self.time_ms,
            time_bank_ms: self.time_bank_ms,
            time_inc_ms: self.time_inc_ms,
            bot_time: self.bot_time.clone(),
            time_margin_ms: self.time_margin_ms,
        }
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
    #[arg(long, value_name = "W", default_value_t = defaults::WIDTH)]
    pub width: u32,
    /// Board height, 8 to 255 (16 or more for 3 players or more).
    #[arg(long, value_name = "H", default_value_t = defaults::HEIGHT)]
    pub height: u32,
    /// Players, 2 to 8.
    #[arg(long, value_name = "N", default_value_t = defaults::PLAYERS)]
    pub players: u32,
    /// Rock cover in percent, 0 to 25.
    #[arg(long = "rock-density", value_name = "P", default_value_t = defaults::ROCK_DENSITY)]
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
         NAME=SPEC         the same bot shown as NAME (letters, digits, _ - .)\n  \
         human             (play only) you, at the keyboard of a terminal: arrow keys or WASD\n                    \
         steer, q quits; a tick every --tick-ms\n\
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
     the table ranks bots by the conservative Weng-Lin rating mu - 3*sigma; with exactly N bots, \
     --sprt tests the first against the others on game sets (a seed in every rotation), by the \
     places it takes (2 half points for each rider placed behind it, 1 for a tie). A league (--league) \
     gives each game set to the pairing whose ratings are least certain and resumes exactly; \
     resume it with more bots to add them.\n\n\
     Example: lightcycles tournament builtin:floodfill builtin:random --sprt 0,10,0.05,0.05 --results ff.jsonl"
        .to_string()
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
