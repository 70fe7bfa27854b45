//! The plan of a tournament: every option a face takes (the CLI's flags,
//! the Python package's keywords), typed; [`TournamentOptions::plan`]
//! makes every check and fills in every default, in one place, and gives
//! the [`Tournament`] to play and where its outputs go; [`run`] plays it
//! and writes the report file and page.
//!
//! Errors name options by their flags (`--league-lag`); [`in_keywords`]
//! says them as the Python keywords (`league_lag`), for that face.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use lightcycles_core::FastGame;

use super::live_page::LivePage;
use super::maps::{self, MapPool, Order};
use super::progress::ProgressMode;
use super::report::Report;
use super::schedule::{PairingMode, Schedule};
use super::shard::Shard;
use super::{shell, Tournament, TournamentError};
use crate::bot::adapter::plugin::isolated;
use crate::bot::adapter::{Hosting, WasmBudget};
use crate::bot::process::log::{LogPlace, LOGS_DIR};
use crate::bot::process::sandbox::{self, Sandbox};
use crate::bot::spec::{self, BotSpec, Entrant};
use crate::bot::BotFactory;
use crate::game::board::Board;
use crate::game::run::GameOptions;
use crate::game::{pool, preflight};
use crate::io::{output, whole_file};
use crate::stats::Sprt;

/// A bot of a tournament: a spec, as the CLI takes it, or one a face made
/// itself (a Python callable).
#[derive(Clone)]
pub enum Entry {
    /// A bot spec (`builtin:search`, `NAME=path/main.py`, …).
    Spec(String),
    /// A bot made by the caller.
    Made {
        /// The name it is shown by, before names are made unique.
        base_name: String,
        /// What kind of bot it is: its spec in the results header is
        /// `KIND:NAME`.
        kind: &'static str,
        /// Makes it for each game and seat.
        factory: Arc<dyn BotFactory>,
    },
}

/// Every option of a tournament, as given: nothing checked, no default
/// filled in ([`TournamentOptions::default`] is a tournament of no bots
/// with every flag left out).
#[derive(Clone)]
pub struct TournamentOptions {
    /// The bots, 2 or more.
    pub bots: Vec<Entry>,
    /// Games per pairing (or group); default 100 a pairing (50 a seat), or
    /// 20 000 with an SPRT (19 998 with three seats: whole game sets).
    pub games: Option<u64>,
    /// The seed of round 0.
    pub seed: u64,
    /// Games at once; default one per free core.
    pub jobs: Option<usize>,
    /// The folder of replays (`-o`).
    pub output: Option<PathBuf>,
    /// The results file.
    pub results: Option<PathBuf>,
    /// Continue the results file.
    pub resume: bool,
    /// An SPRT, `ELO0,ELO1,ALPHA,BETA[,model=M]`.
    pub sprt: Option<String>,
    /// The first bot plays each of the others.
    pub gauntlet: bool,
    /// Play one shard.
    pub shard: Option<Shard>,
    /// The report as JSON, to this file.
    pub report: Option<PathBuf>,
    /// The report page, rewritten as games finish.
    pub html: Option<PathBuf>,
    /// Free-for-all games of this many seats.
    pub ffa: Option<u64>,
    /// A pool of map files, folders and `builtin:NAME`s.
    pub maps: Vec<String>,
    /// A pool of generated boards: `WxH,WxH…`.
    pub sizes: Option<String>,
    /// The rock densities of the `sizes` pool: `P,P…`.
    pub densities: Option<String>,
    /// The order of the pool's maps.
    pub map_order: Order,
    /// Round 0's place in that order.
    pub map_start: usize,
    /// A league.
    pub league: bool,
    /// A league's sets chosen ahead of the results; default
    /// [`LEAGUE_LAG`].
    pub league_lag: Option<u64>,
    /// Pin each game to a core.
    pub affinity: bool,
    /// Play even when a bot fails its probe.
    pub allow_broken: bool,
    /// How progress is shown.
    pub progress: ProgressChoice,
    /// Board, rules and time limits.
    pub board: Board,
    /// Limits of every bot process.
    pub sandbox: Sandbox,
    /// Isolate native plugins; default: when something can host them
    /// ([`isolated::host_known`]).
    pub isolate: Option<bool>,
    /// Budget wasm bots in fuel: this much for an answer of the board's
    /// `time_ms` (none: the clock times them).
    pub fuel_per_tick: Option<u64>,
    /// The command line of this run, for the command that resumes it when
    /// it is interrupted (none: no such command is said).
    pub command_line: Option<Vec<String>>,
}

/// The game sets a league chooses ahead of its results, by default.
pub const LEAGUE_LAG: u64 = 4;

/// How a tournament shows its progress on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressChoice {
    /// A live bar when stderr is a terminal.
    pub bar: bool,
    /// Otherwise a log line every this many games (0: not by games).
    pub log_every: u64,
    /// And every this many seconds (0, with `log_every` 0: never).
    pub log_seconds: u64,
}

impl Default for ProgressChoice {
    /// As the CLI: a bar on a terminal, else a line every 10 seconds.
    fn default() -> Self {
        ProgressChoice { bar: true, log_every: 0, log_seconds: 10 }
    }
}

impl Default for TournamentOptions {
    fn default() -> Self {
        TournamentOptions {
            bots: Vec::new(),
            games: None,
            seed: 0,
            jobs: None,
            output: None,
            results: None,
            resume: false,
            sprt: None,
            gauntlet: false,
            shard: None,
            report: None,
            html: None,
            ffa: None,
            maps: Vec::new(),
            sizes: None,
            densities: None,
            map_order: Order::Sequential,
            map_start: 0,
            league: false,
            league_lag: None,
            affinity: false,
            allow_broken: false,
            progress: ProgressChoice::default(),
            board: Board::default(),
            sandbox: Sandbox { memory_mb: sandbox::DEFAULT_MEMORY_MB, processes: sandbox::DEFAULT_PROCESSES },
            isolate: None,
            fuel_per_tick: None,
            command_line: None,
        }
    }
}

/// A tournament ready to play, and where its outputs go.
pub struct TournamentPlan {
    /// What is played.
    pub tournament: Tournament,
    /// The report as JSON, to this file.
    pub report: Option<PathBuf>,
    /// The report page.
    pub html: Option<PathBuf>,
    /// The bots that failed their probe (with `allow_broken`): each one's
    /// report, as [`preflight::Broken::report`] gives it.
    pub broken: Vec<String>,
    /// What the caller should be told before the games start.
    pub warnings: Vec<String>,
}

/// Why a tournament cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// An option, or a file it names, cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// Bots failed their probe before game 0 (without `allow_broken`).
    #[error("{}{message}", reports.concat())]
    Broken {
        /// Each bot's report.
        reports: Vec<String>,
        /// What stops the tournament.
        message: String,
    },
}

fn invalid(message: impl Into<String>) -> PlanError {
    PlanError::Invalid(message.into())
}

impl TournamentOptions {
    /// The spec strings among the bots.
    fn specs(&self) -> Vec<String> {
        self.bots.iter().filter_map(|e| if let Entry::Spec(s) = e { Some(s.clone()) } else { None }).collect()
    }

    /// Every check, then the tournament with every default filled in.
    pub fn plan(self) -> Result<TournamentPlan, PlanError> {
        self.check_combinations()?;
        let specs = self.specs();
        let log_dir = self.output.as_ref().map(|dir| dir.join(LOGS_DIR));
        // Every place this run writes to is checked before the first game
        // (the results file is made before it, by the tournament), against
        // the others and against what it reads.
        let inputs = output::input_files(&specs, self.board.map.as_deref(), &self.maps);
        let mut places: Vec<output::Place<'_>> = inputs.iter().map(|(flag, p)| output::Place::Reads(flag, p)).collect();
        places.extend(self.output.as_deref().map(|d| output::Place::Games("-o", d)));
        places.extend(self.results.as_deref().map(|p| output::Place::Writes("--results", p)));
        places.extend(self.report.as_deref().map(|p| output::Place::Writes("--report", p)));
        places.extend(self.html.as_deref().map(|p| output::Place::Writes("--html", p)));
        output::check_collisions(&places).map_err(invalid)?;
        if let Some(path) = &self.html {
            output::check_file(path, "--html").map_err(invalid)?;
        }
        if let Some(dir) = &self.output {
            output::prepare_dir(dir, "-o").map_err(invalid)?;
        }
        if let Some(dir) = &log_dir {
            output::check_dir_later(dir, "the bot logs' folder").map_err(invalid)?;
        }
        // (A results file that exists is checked, by name, when it is opened.)
        if let Some(path) = self.results.as_ref().filter(|p| std::fs::symlink_metadata(p).is_err()) {
            output::check_file(path, "--results").map_err(invalid)?;
        }
        if let Some(path) = &self.report {
            output::check_file(path, "--report").map_err(invalid)?;
        }
        let hosting = Hosting {
            sandbox: self.sandbox,
            isolate: self.isolate.unwrap_or_else(isolated::host_known),
            wasm: WasmBudget {
                fuel_per_tick: self.fuel_per_tick,
                tick_ms: self.board.time_ms,
                margin_ms: self.board.time_margin_ms,
            },
        };
        let (entrants, header_specs) = entrants(&self.bots, log_dir.as_deref(), &hosting).map_err(invalid)?;
        let sprt = self.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| invalid(e.to_string()))?;
        let seats = self.ffa.map_or(2, |n| n as usize);
        if sprt.is_some() {
            super::standings::sprt_fits(entrants.len(), seats, self.league).map_err(invalid)?;
        }
        check_players(&self.bots, seats).map_err(invalid)?;
        let (config, map_file) = self.board.config(seats as u32).map_err(invalid)?;
        let policy = config.fault_policy;
        let pool = self.map_pool(config, seats)?;
        // The probe before game 0 is shown game 0's board.
        let (probe_config, probe_map) = match &pool {
            Some(pool) => {
                let first = &pool.maps[pool.map_order(self.seed).map_of(0)];
                (first.config, first.map_file.clone())
            }
            None => (config, map_file.clone()),
        };
        debug_assert_eq!(probe_config.fault_policy, policy);
        if self.league && entrants.len() < seats {
            return Err(invalid(format!(
                "--league --ffa {seats} takes {seats} bots or more, but {} were given",
                entrants.len()
            )));
        }
        let mode = if self.gauntlet { PairingMode::Gauntlet } else { PairingMode::RoundRobin };
        // With an SPRT, 20 000 games: a cap the test usually stops far short
        // of (a whole number of game sets for a free-for-all).
        let games = self.games.unwrap_or(if sprt.is_some() {
            20_000 / seats as u64 * seats as u64
        } else {
            100 * seats as u64 / 2
        });
        let mut schedule = if self.league {
            // A league's games are chosen as it goes: the schedule only says
            // seats, games and seeds (one group, so that the games are those
            // of the whole league; its groups are never read).
            Schedule::with_seats(seats, seats, mode, games, self.seed)
        } else {
            Schedule::with_seats(entrants.len(), seats, mode, games, self.seed)
        }
        .map_err(|e| invalid(e.to_string()))?;
        if let Some(pool) = &pool {
            schedule = schedule.with_maps(pool.map_order(self.seed));
        }
        let limits = self.board.limits().map_err(invalid)?;
        let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
        let bot_limits = self.board.bot_limits(&names).map_err(invalid)?;
        let options = GameOptions {
            bot_limits,
            margin: self.board.margin(),
            ..GameOptions::new(config, map_file, limits, self.output.clone())
        };
        let probe_limits = GameOptions { map_file: None, ..options.clone() }.widest_limits();
        let seed = schedule.game(0).seed;
        let broken: Vec<preflight::Broken> = match preflight::first_position(&probe_config, seed, probe_map.as_ref()) {
            Some(position) => {
                let spec_names: Vec<String> = self
                    .bots
                    .iter()
                    .zip(&names)
                    .filter(|(e, _)| matches!(e, Entry::Spec(_)))
                    .map(|(_, n)| n.clone())
                    .collect();
                preflight::probe(&specs, &spec_names, &hosting, &position, &probe_limits)
            }
            None => Vec::new(),
        };
        let reports: Vec<String> = broken.iter().map(preflight::Broken::report).collect();
        if !broken.is_empty() && !self.allow_broken {
            let named: Vec<String> = broken.iter().map(|b| crate::io::untrusted::terminal_text(&b.name)).collect();
            return Err(PlanError::Broken {
                reports,
                message: format!(
                    "{} cannot play: the tournament does not start (fix the bot, or --allow-broken to let it lose \
                     its games)",
                    named.join(", ")
                ),
            });
        }
        let mut warnings = Vec::new();
        let cores = pool::free_cores();
        let jobs = self.jobs.unwrap_or(cores).max(1);
        if jobs > cores {
            warnings.push(format!(
                "warning: -j {jobs} plays more games at once than there are free cores ({cores}): bots share cores, \
                 and answers that would be in time on a core of their own may time out (-j auto plays one game per \
                 core)"
            ));
        }
        let progress = if self.progress.bar && std::io::stderr().is_terminal() {
            ProgressMode::Bar
        } else {
            ProgressMode::Log { games: self.progress.log_every, seconds: self.progress.log_seconds }
        };
        let plugins = specs.iter().any(|a| BotSpec::parse(a).is_ok_and(|s| s.adapter.isolatable()));
        let board_flags = if pool.is_some() {
            Board { map: None, width: None, height: None, rock_density: None, ..self.board.clone() }.to_flags()
        } else {
            self.board.to_flags()
        };
        let tournament = Tournament {
            entrants,
            specs: header_specs,
            mode,
            schedule,
            shard: self.shard,
            options,
            jobs,
            sprt,
            results: self.results.clone(),
            resume: self.resume,
            replay_flags: [board_flags, shell::hosting_flags(&hosting, plugins)].concat(),
            progress,
            resume_command: self
                .results
                .as_ref()
                .and(self.command_line.as_ref())
                .map(|words| shell::resume_command(words)),
            maps: pool,
            league: self.league.then_some(self.league_lag.unwrap_or(LEAGUE_LAG)),
            pin_cpus: self.affinity,
            fuel_per_tick: self.fuel_per_tick,
        };
        Ok(TournamentPlan { tournament, report: self.report, html: self.html, broken: reports, warnings })
    }

    /// The options that go only with others, or not with others: the CLI
    /// refuses them as it parses its flags, the other faces here.
    fn check_combinations(&self) -> Result<(), PlanError> {
        let needs_results = [("--resume", self.resume), ("--html", self.html.is_some()), ("--league", self.league)];
        for (flag, given) in needs_results {
            if given && self.results.is_none() {
                return Err(invalid(format!("{flag} needs --results FILE")));
            }
        }
        if self.shard.is_some() && self.sprt.is_some() {
            return Err(invalid(
                "--sprt is judged on the whole tournament: play the shards without it and judge it as they are \
                 merged (tournament merge --sprt)",
            ));
        }
        if self.league {
            let refused =
                [("--sprt", self.sprt.is_some()), ("--gauntlet", self.gauntlet), ("--shard", self.shard.is_some())];
            if let Some((flag, _)) = refused.iter().find(|(_, given)| *given) {
                return Err(invalid(format!("--league does not go with {flag}")));
            }
        }
        if self.league_lag.is_some() && !self.league {
            return Err(invalid("--league-lag is the lag of a league: it needs --league"));
        }
        if let Some(lag) = self.league_lag.filter(|l| !(1..=1024).contains(l)) {
            return Err(invalid(format!("--league-lag {lag} is out of range: allowed 1 to 1024")));
        }
        if let Some(n) = self.ffa.filter(|n| !(3..=8).contains(n)) {
            return Err(invalid(format!("--ffa {n} is out of range: allowed 3 to 8")));
        }
        if self.fuel_per_tick == Some(0) {
            return Err(invalid("--fuel-per-tick 0 is out of range: allowed 1 and more"));
        }
        if self.jobs == Some(0) || self.jobs.is_some_and(|j| j > 1024) {
            return Err(invalid(format!("-j {} is out of range: allowed 1 to 1024", self.jobs.unwrap_or(0))));
        }
        let pool = !self.maps.is_empty() || self.sizes.is_some();
        let board_given = [
            ("--map", self.board.map.is_some()),
            ("--width", self.board.width.is_some()),
            ("--height", self.board.height.is_some()),
        ];
        if let Some((flag, _)) = board_given.iter().find(|(_, given)| pool && *given) {
            let pool_flag = if self.maps.is_empty() { "--sizes" } else { "--maps" };
            return Err(invalid(format!("{pool_flag} gives the boards: it does not go with {flag}")));
        }
        if !self.maps.is_empty() && self.sizes.is_some() {
            return Err(invalid("--maps does not go with --sizes: a pool is one or the other"));
        }
        if !self.maps.is_empty() && self.board.rock_density.is_some() {
            return Err(invalid("--maps gives the boards: it does not go with --rock-density"));
        }
        if self.densities.is_some() && self.sizes.is_none() {
            return Err(invalid("--densities are those of the --sizes pool: it needs --sizes"));
        }
        if self.densities.is_some() && self.board.rock_density.is_some() {
            return Err(invalid("--densities does not go with --rock-density"));
        }
        Ok(())
    }

    /// The map pool of `--maps` or `--sizes`, if any.
    fn map_pool(&self, config: lightcycles_core::Config, seats: usize) -> Result<Option<MapPool>, PlanError> {
        if !self.maps.is_empty() {
            let pool = MapPool::of_files(
                &self.maps,
                self.map_order,
                self.map_start,
                self.board.max_ticks,
                self.board.fault_policy,
            )
            .map_err(invalid)?;
            pool.check_players(seats).map_err(invalid)?;
            return Ok(Some(pool));
        }
        let Some(sizes) = &self.sizes else { return Ok(None) };
        let sizes = maps::parse_sizes(sizes).map_err(invalid)?;
        let densities = match &self.densities {
            Some(text) => text
                .split(',')
                .map(|d| {
                    d.trim().parse::<u32>().map_err(|_| invalid(format!("--densities: {d:?} is not a percentage")))
                })
                .collect::<Result<Vec<u32>, PlanError>>()?,
            None => vec![self.board.rock_density()],
        };
        MapPool::generated(&sizes, &densities, config, self.map_order, self.map_start).map(Some).map_err(invalid)
    }
}

/// The entrants of `bots`, named uniquely in seat order, each bot process
/// logging to `log_dir` when given, and their specs as a results header
/// records them (a made bot's as `KIND:NAME`).
pub fn entrants(
    bots: &[Entry],
    log_dir: Option<&std::path::Path>,
    hosting: &Hosting,
) -> Result<(Vec<Entrant>, Vec<String>), String> {
    let parsed: Vec<Option<BotSpec>> = bots
        .iter()
        .map(|e| match e {
            Entry::Spec(s) => BotSpec::parse(s.as_str()).map(Some).map_err(|e| e.to_string()),
            Entry::Made { .. } => Ok(None),
        })
        .collect::<Result<_, _>>()?;
    if hosting.isolate && parsed.iter().flatten().any(|s| s.adapter.isolatable()) && !isolated::host_known() {
        return Err(format!(
            "isolated plugins run in a child of the lightcycles binary: set {}=path/to/lightcycles, or load \
             them into this process (--in-process)",
            isolated::PLUGIN_HOST_ENV
        ));
    }
    let bases = bots
        .iter()
        .zip(&parsed)
        .map(|(entry, spec)| match (entry, spec) {
            (_, Some(spec)) => spec.declared_or_base_name(hosting),
            (Entry::Made { base_name, .. }, None) => base_name.clone(),
            (Entry::Spec(_), None) => unreachable!("every spec was parsed"),
        })
        .collect();
    let names = spec::unique_names(bases);
    let mut entrants = Vec::with_capacity(names.len());
    let mut specs = Vec::with_capacity(names.len());
    for ((entry, spec), name) in bots.iter().zip(parsed).zip(names) {
        let (factory, header) = match (entry, spec) {
            (Entry::Spec(arg), Some(spec)) => {
                let log = log_dir.map(|dir| LogPlace { dir: dir.to_path_buf(), name: name.clone() });
                (spec.factory(log, hosting).map_err(|e| e.to_string())?, arg.clone())
            }
            (Entry::Made { kind, factory, .. }, _) => (factory.clone(), format!("{kind}:{name}")),
            (Entry::Spec(_), None) => unreachable!("every spec was parsed"),
        };
        entrants.push(Entrant { name, factory });
        specs.push(header);
    }
    Ok((entrants, specs))
}

/// Refuses a bot whose kind cannot ride in a game of `players` players.
pub fn check_players(bots: &[Entry], players: usize) -> Result<(), String> {
    for entry in bots {
        if let Entry::Spec(arg) = entry {
            if let Ok(spec) = BotSpec::parse(arg) {
                spec.check_players(players)?;
            }
        }
    }
    Ok(())
}

/// Plays a planned tournament on the fast engine: the page of `--html`
/// rewritten as games finish and once at the end, then the report, also
/// written to `--report`'s file.
pub fn run(plan: &TournamentPlan) -> Result<Report, String> {
    let t = &plan.tournament;
    let page = plan
        .html
        .as_ref()
        .zip(t.results.as_ref())
        .map(|(page, results)| LivePage::start(page.clone(), results.clone(), t.sprt));
    let report = super::run::<FastGame>(t).map_err(|e: TournamentError| e.to_string());
    if let Some(page) = page {
        // The last page is written whatever the run's end, from every game it recorded.
        page.finish()?;
    }
    let report = report?;
    if let Some(path) = &plan.report {
        write_report(path, &report)?;
    }
    Ok(report)
}

/// Writes `report` as JSON to `path`, whole.
pub fn write_report(path: &std::path::Path, report: &Report) -> Result<(), String> {
    whole_file::write(path, (report.to_json() + "\n").as_bytes())
        .map_err(|e| format!("--report {}: cannot write: {e}", path.display()))
}

/// The options of a merge of shards (`tournament merge`).
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// The shards' results files.
    pub shards: Vec<PathBuf>,
    /// The merged results file.
    pub output: PathBuf,
    /// The report as JSON, to this file.
    pub report: Option<PathBuf>,
    /// An SPRT judged on the merged games.
    pub sprt: Option<String>,
}

/// A merge done: its report, and what the caller should be told (a shard
/// given twice).
pub struct Merged {
    /// The report of the whole tournament.
    pub report: Report,
    /// Notes on the shards.
    pub notes: Vec<String>,
}

/// Every check of a merge, then the merged file, then the report file:
/// nothing is written when a check fails.
pub fn merge(options: &MergeOptions) -> Result<Merged, String> {
    let mut places: Vec<output::Place<'_>> = options.shards.iter().map(|p| output::Place::Reads("shard", p)).collect();
    places.push(output::Place::Writes("-o", &options.output));
    places.extend(options.report.as_deref().map(|p| output::Place::Writes("--report", p)));
    output::check_collisions(&places)?;
    output::check_file(&options.output, "-o")?;
    if let Some(path) = &options.report {
        output::check_file(path, "--report")?;
    }
    let sprt = options.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| e.to_string())?;
    let merged = super::merge::merge(&options.shards).map_err(|e| e.to_string())?;
    if sprt.is_some() {
        super::standings::sprt_fits(merged.header.bots.len(), merged.header.seats, merged.header.league.is_some())?;
    }
    merged.write(&options.output).map_err(|e| e.to_string())?;
    let report = merged.report(sprt);
    if let Some(path) = &options.report {
        write_report(path, &report)?;
    }
    Ok(Merged { report, notes: merged.notes })
}

/// The Python keyword of each flag a tournament's errors name, where the
/// two differ but for dashes.
const KEYWORDS: [(&str, &str); 5] = [
    ("-o", "out_dir"),
    ("-j", "jobs"),
    ("-g", "games"),
    ("--in-process", "isolate=False"),
    ("tournament merge --sprt", "merge_results(sprt=...)"),
];

/// `message` with every flag said as the Python keyword of the same name
/// (`--league-lag` as `league_lag`, `-o` as `out_dir`); `merge` when the
/// message is of a merge, whose `-o` is `output`.
pub fn in_keywords(message: &str, merge: bool) -> String {
    let mut text = message.to_string();
    for (flag, keyword) in KEYWORDS {
        let keyword = if merge && flag == "-o" { "output" } else { keyword };
        text = replace_word(&text, flag, keyword);
    }
    // Every other `--long-flag`: a word of letters, digits and dashes.
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("--") {
        let before_ok = at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '-');
        out.push_str(&rest[..at]);
        let word_len =
            rest[at + 2..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(rest.len() - at - 2);
        let word = &rest[at + 2..at + 2 + word_len];
        if before_ok && word.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&word.replace('-', "_"));
        } else {
            out.push_str(&rest[at..at + 2 + word_len]);
        }
        rest = &rest[at + 2 + word_len..];
    }
    out.push_str(rest);
    out
}

/// `text` with each `word` that stands alone (not inside a longer word)
/// replaced.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let end = at + word.len();
        let alone = (at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '-'))
            && !rest[end..].starts_with(|c: char| c.is_alphanumeric() || c == '-');
        out.push_str(&rest[..at]);
        out.push_str(if alone { by } else { word });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_said_as_keywords() {
        assert_eq!(in_keywords("--league-lag 0 is out of range", false), "league_lag 0 is out of range");
        assert_eq!(in_keywords("-o games: not a folder; -j 3", false), "out_dir games: not a folder; jobs 3");
        assert_eq!(in_keywords("-o all.jsonl exists", true), "output all.jsonl exists");
        assert_eq!(in_keywords("bot-o --x and a-b--c", false), "bot-o x and a-b--c");
        assert_eq!(in_keywords("--time-first-ms and --time-ms", false), "time_first_ms and time_ms");
    }

    fn options(bots: &[&str]) -> TournamentOptions {
        TournamentOptions {
            bots: bots.iter().map(|b| Entry::Spec(b.to_string())).collect(),
            progress: ProgressChoice { bar: false, log_every: 0, log_seconds: 0 },
            ..TournamentOptions::default()
        }
    }

    fn error(o: TournamentOptions) -> String {
        match o.plan() {
            Ok(_) => panic!("planned"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn combinations_the_cli_refuses_as_it_parses_are_refused_here_too() {
        let two = ["builtin:random", "builtin:straight"];
        assert_eq!(error(TournamentOptions { resume: true, ..options(&two) }), "--resume needs --results FILE");
        assert_eq!(error(TournamentOptions { league: true, ..options(&two) }), "--league needs --results FILE");
        assert_eq!(
            error(TournamentOptions { league_lag: Some(3), ..options(&two) }),
            "--league-lag is the lag of a league: it needs --league"
        );
        let pool = TournamentOptions { maps: vec!["builtin:open".into()], ..options(&two) };
        let board = Board { width: Some(30), ..Board::default() };
        assert_eq!(error(TournamentOptions { board, ..pool }), "--maps gives the boards: it does not go with --width");
        assert_eq!(
            error(TournamentOptions { densities: Some("3".into()), ..options(&two) }),
            "--densities are those of the --sizes pool: it needs --sizes"
        );
        assert_eq!(
            error(TournamentOptions { ffa: Some(9), ..options(&two) }),
            "--ffa 9 is out of range: allowed 3 to 8"
        );
    }

    #[test]
    fn the_defaults_are_those_of_the_cli() {
        let plan = options(&["builtin:random", "builtin:straight"]).plan().unwrap();
        let t = &plan.tournament;
        assert_eq!(t.schedule.total_games(), 100);
        assert_eq!(t.jobs, pool::free_cores());
        assert_eq!(t.options.config, lightcycles_core::Config::default());
        assert!(t.replay_flags.is_empty() && t.resume_command.is_none() && t.league.is_none());
        let ffa = TournamentOptions { ffa: Some(3), ..options(&["builtin:random"; 3]) }.plan().unwrap();
        assert_eq!(ffa.tournament.schedule.total_games(), 150);
    }
}
