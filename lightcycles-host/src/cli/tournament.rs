//! `lightcycles tournament`: many two-player games, every seed in both
//! seats, with statistics, a results file and resume; one shard of them
//! (`--shard`), the shards merged (`tournament merge`), and the report
//! page of results files (`tournament report`, `--html`).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use lightcycles_core::FastGame;

use crate::bot::process::log::LOGS_DIR;
use crate::bot::spec;
use crate::cli::{
    bad_input, check_players, has_plugin, preflight, stdout_failure, write_out, BoardArgs, Failure, HostingArgs,
    MergeArgs, ReportArgs, TournamentArgs, TournamentCommand,
};
use crate::game::pool;
use crate::game::run::GameOptions;
use crate::io::{output, whole_file};
use crate::stats::Sprt;
use crate::tournament::maps::{self, MapPool};
use crate::tournament::page;
use crate::tournament::progress::ProgressMode;
use crate::tournament::schedule::{PairingMode, Schedule};
use crate::tournament::{self, Tournament};

/// Runs `tournament`.
pub(crate) fn run(args: &TournamentArgs, out: &mut dyn Write) -> Result<(), Failure> {
    match &args.merge {
        Some(TournamentCommand::Merge(merge)) => return self::merge(merge, out),
        Some(TournamentCommand::Report(report)) => return self::report_page(report, out),
        None => {}
    }
    let log_dir = args.output.as_ref().map(|dir| dir.join(LOGS_DIR));
    // Every place this run writes to is checked before the first game (the
    // results file is made before it, by the tournament), against the
    // others and against what it reads.
    let inputs = output::input_files(&args.bots, args.board.map.as_deref(), &args.maps);
    let mut places: Vec<output::Place<'_>> = inputs.iter().map(|(flag, p)| output::Place::Reads(flag, p)).collect();
    places.extend(args.output.as_deref().map(|d| output::Place::Games("-o", d)));
    places.extend(args.results.as_deref().map(|p| output::Place::Writes("--results", p)));
    places.extend(args.report.as_deref().map(|p| output::Place::Writes("--report", p)));
    places.extend(args.html.as_deref().map(|p| output::Place::Writes("--html", p)));
    output::check_collisions(&places).map_err(bad_input)?;
    if let Some(path) = &args.html {
        output::check_file(path, "--html").map_err(bad_input)?;
    }
    if let Some(dir) = &args.output {
        output::prepare_dir(dir, "-o").map_err(bad_input)?;
    }
    if let Some(dir) = &log_dir {
        output::check_dir_later(dir, "the bot logs' folder").map_err(bad_input)?;
    }
    // (A results file that exists is checked, by name, when it is opened.)
    if let Some(path) = args.results.as_ref().filter(|p| std::fs::symlink_metadata(p).is_err()) {
        output::check_file(path, "--results").map_err(bad_input)?;
    }
    if let Some(path) = &args.report {
        output::check_file(path, "--report").map_err(bad_input)?;
    }
    let hosting = args.hosting.hosting(true, &args.board);
    let entrants = spec::entrants(&args.bots, log_dir.as_deref(), &hosting).map_err(|e| bad_input(e.to_string()))?;
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    if sprt.is_some() && entrants.len() != 2 {
        return Err(bad_input(format!("--sprt compares two bots, but {} were given", entrants.len())));
    }
    let seats = args.ffa.map_or(2, |n| n as usize);
    if sprt.is_some() && seats != 2 {
        return Err(bad_input("--sprt compares two bots in two-player games; it does not go with --ffa"));
    }
    check_players(&args.bots, seats)?;
    let (config, map_file) = args.board.config(seats as u32)?;
    let policy = config.fault_policy;
    let maps = if !args.maps.is_empty() {
        let pool = MapPool::of_files(&args.maps, args.map_order, args.map_start, args.board.max_ticks, policy)
            .map_err(bad_input)?;
        pool.check_players(seats).map_err(bad_input)?;
        Some(pool)
    } else if let Some(sizes) = &args.sizes {
        let sizes = maps::parse_sizes(sizes).map_err(bad_input)?;
        let densities = match &args.densities {
            Some(text) => text
                .split(',')
                .map(|d| {
                    d.trim().parse::<u32>().map_err(|_| bad_input(format!("--densities: {d:?} is not a percentage")))
                })
                .collect::<Result<Vec<u32>, Failure>>()?,
            None => vec![args.board.rock_density],
        };
        Some(MapPool::generated(&sizes, &densities, config, args.map_order, args.map_start).map_err(bad_input)?)
    } else {
        None
    };
    // The probe before game 0 is shown game 0's board.
    let (probe_config, probe_map) = match &maps {
        Some(pool) => {
            let first = &pool.maps[pool.map_order(args.seed).map_of(0)];
            (first.config, first.map_file.clone())
        }
        None => (config, map_file.clone()),
    };
    if args.league && entrants.len() < seats {
        return Err(bad_input(format!(
            "--league --ffa {seats} takes {seats} bots or more, but {} were given",
            entrants.len()
        )));
    }
    let mode = if args.gauntlet { PairingMode::Gauntlet } else { PairingMode::RoundRobin };
    let games = args.games.unwrap_or(if sprt.is_some() { 20_000 } else { 100 * seats as u64 / 2 });
    let mut schedule = if args.league {
        // A league's games are chosen as it goes: the schedule only says
        // seats, games and seeds (its groups are never read)
        // (one group, so that -g is the games of the whole league).
        Schedule::with_seats(seats, seats, mode, games, args.seed)
    } else {
        Schedule::with_seats(entrants.len(), seats, mode, games, args.seed)
    }
    .map_err(|e| bad_input(e.to_string()))?;
    if let Some(pool) = &maps {
        schedule = schedule.with_maps(pool.map_order(args.seed));
    }
    let limits = args.board.limits();
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let bot_limits = args.board.bot_limits(&names)?;
    let seed = schedule.game(0).seed;
    let probe_limits = GameOptions {
        bot_limits: bot_limits.clone(),
        margin: args.board.margin(),
        ..GameOptions::new(config, None, limits, None)
    }
    .widest_limits();
    let broken = preflight(&args.bots, &entrants, &hosting, &probe_config, seed, probe_map.as_ref(), &probe_limits);
    if !broken.is_empty() && !args.allow_broken {
        return Err(bad_input(format!(
            "{} cannot play: the tournament does not start (fix the bot, or --allow-broken to let it lose its games)",
            broken.join(", ")
        )));
    }
    let cores = pool::free_cores();
    let jobs = args.jobs.map_or(cores, |j| j as usize);
    if jobs > cores {
        eprintln!(
            "warning: -j {jobs} plays more games at once than there are free cores ({cores}): bots share cores, \
             and answers that would be in time on a core of their own may time out (-j auto plays one game per core)"
        );
    }
    let progress = if std::io::stderr().is_terminal() {
        ProgressMode::Bar
    } else {
        ProgressMode::Log { games: args.log_every, seconds: args.log_seconds }
    };
    let t = Tournament {
        entrants,
        specs: args.bots.clone(),
        mode,
        schedule,
        shard: args.shard,
        options: GameOptions {
            bot_limits,
            margin: args.board.margin(),
            ..GameOptions::new(config, map_file, limits, args.output.clone())
        },
        jobs,
        sprt,
        results: args.results.clone(),
        resume: args.resume,
        replay_flags: [
            board_flags(&args.board, maps.is_some()),
            HostingArgs::to_flags(&hosting, has_plugin(&args.bots)),
        ]
        .concat(),
        progress,
        resume_command: args.results.as_ref().map(|_| {
            let words: Vec<String> = std::env::args_os().map(|w| w.to_string_lossy().into_owned()).collect();
            tournament::resume_command(&words)
        }),
        maps,
        league: args.league.then_some(args.league_lag),
        pin_cpus: args.affinity,
    };
    let page = args
        .html
        .as_ref()
        .zip(args.results.as_ref())
        .map(|(page, results)| LivePage::start(page.clone(), results.clone(), sprt));
    let report = tournament::run::<FastGame>(&t).map_err(|e| bad_input(e.to_string()));
    if let Some(page) = page {
        // The last page is written whatever the run's end, from every game it recorded.
        page.finish().map_err(bad_input)?;
    }
    let report = report?;
    if let Some(path) = &args.report {
        whole_file::write(path, (report.to_json() + "\n").as_bytes())
            .map_err(|e| bad_input(format!("--report {}: cannot write: {e}", path.display())))?;
    }
    write_out(out, &report.to_table()).map_err(stdout_failure)?;
    output::first_failure().map_or(Ok(()), |e| Err(bad_input(e)))
}

/// The board flags of `lightcycles play` for a game of this tournament;
/// with a map pool, the board is the game's map's (added per game).
fn board_flags(board: &BoardArgs, pool: bool) -> Vec<String> {
    if !pool {
        return board.to_flags();
    }
    let plain = BoardArgs { map: None, width: 48, height: 36, rock_density: 4, ..board.clone() };
    plain.to_flags()
}

/// Runs `tournament merge`: every check first, then the merged file, the
/// report file and the table.
fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut places: Vec<output::Place<'_>> = args.shards.iter().map(|p| output::Place::Reads("shard", p)).collect();
    places.push(output::Place::Writes("-o", &args.output));
    places.extend(args.report.as_deref().map(|p| output::Place::Writes("--report", p)));
    output::check_collisions(&places).map_err(bad_input)?;
    output::check_file(&args.output, "-o").map_err(bad_input)?;
    if let Some(path) = &args.report {
        output::check_file(path, "--report").map_err(bad_input)?;
    }
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    let merged = tournament::merge::merge(&args.shards).map_err(|e| bad_input(e.to_string()))?;
    if sprt.is_some() && merged.header.bots.len() != 2 {
        return Err(bad_input(format!(
            "--sprt compares two bots, but the tournament has {}",
            merged.header.bots.len()
        )));
    }
    for note in &merged.notes {
        eprintln!("note: {note}");
    }
    merged.write(&args.output).map_err(|e| bad_input(e.to_string()))?;
    let report = merged.report(sprt);
    if let Some(path) = &args.report {
        whole_file::write(path, (report.to_json() + "\n").as_bytes())
            .map_err(|e| bad_input(format!("--report {}: cannot write: {e}", path.display())))?;
    }
    write_out(out, &report.to_table()).map_err(stdout_failure)
}

/// Runs `tournament report`: the page of results files.
fn report_page(args: &ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut places: Vec<output::Place<'_>> =
        args.files.iter().map(|p| output::Place::Reads("a results file", p)).collect();
    places.push(output::Place::Writes("-o", &args.output));
    output::check_collisions(&places).map_err(bad_input)?;
    output::check_file(&args.output, "-o").map_err(bad_input)?;
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(|e| bad_input(e.to_string()))?;
    // An --sprt that names no model judges on the model the run recorded.
    let inherit = args.sprt.as_deref().is_some_and(|s| !s.contains("model="));
    write_page(&args.files, &args.output, sprt, inherit).map_err(bad_input)?;
    write_out(out, &format!("{}\n", crate::io::untrusted::terminal_text(&args.output.display().to_string())))
        .map_err(stdout_failure)
}

/// Reads `files` and writes their page to `page`, whole; with
/// `inherit_model`, the SPRT takes the model the results header records.
fn write_page(files: &[PathBuf], page: &Path, mut sprt: Option<Sprt>, inherit_model: bool) -> Result<(), String> {
    let source = page::load(files)?;
    if let Some(s) = sprt.as_mut().filter(|_| inherit_model) {
        s.model = source.header.sprt_model.unwrap_or_default();
    }
    let data = page::build(&source, sprt)?;
    let links = page::replay_links(&source.games, page);
    let title: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let html = page::render(&data, &source, &links, &title.join(", "));
    whole_file::write(page, html.as_bytes()).map_err(|e| format!("{}: cannot write: {e}", page.display()))
}

/// `--html`: the page of a running tournament, rewritten from its results
/// file every few seconds by a thread of its own (the games never wait for
/// it), and once more at the end.
struct LivePage {
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
    page: PathBuf,
    results: PathBuf,
    sprt: Option<Sprt>,
}

/// How often `--html` rewrites the page.
const LIVE_PAGE_EVERY: std::time::Duration = std::time::Duration::from_secs(3);

impl LivePage {
    fn start(page: PathBuf, results: PathBuf, sprt: Option<Sprt>) -> LivePage {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let (p, r) = (page.clone(), results.clone());
        let thread = std::thread::spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(LIVE_PAGE_EVERY) {
                // A file not made yet, or a page that cannot be written now,
                // is tried again; the last page's errors are reported.
                let _ = write_page(std::slice::from_ref(&r), &p, sprt, false);
            }
        });
        LivePage { stop, thread, page, results, sprt }
    }

    fn finish(self) -> Result<(), String> {
        let _ = self.stop.send(());
        let _ = self.thread.join();
        if !self.results.exists() {
            return Ok(());
        }
        write_page(std::slice::from_ref(&self.results), &self.page, self.sprt, false)
            .map_err(|e| format!("--html: {e}"))
    }
}
