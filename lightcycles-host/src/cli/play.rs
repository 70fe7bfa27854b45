//! `lightcycles play`: seeded games between bots, one line per game, then
//! the FINAL_RESULTS block; with `--watch`, each game drawn as it runs.

use std::cell::RefCell;
use std::io::Write;
use std::time::Duration;

use lightcycles_core::{Answer, FastGame};

use crate::bot::process::log::LOGS_DIR;
use crate::bot::spec::{self, Entrant};
use crate::cli::{
    bad_input, check_players, preflight, stdout_failure, stdout_is_a_screen, write_out, Failure, PlayArgs,
};
use crate::game::report::{self, Tally, Timeouts};
use crate::game::run::{self, GameOptions, Rounds, RunError};
use crate::io::output;
use crate::view;
use crate::view::scene::{MapOrigin, Scene};

/// Runs `play`.
pub(crate) fn run(args: &PlayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let log_dir = args.output.as_ref().map(|dir| dir.join(LOGS_DIR));
    // Every place this run writes to is checked before the first game,
    // against what it reads.
    if let Some(dir) = &args.output {
        let inputs = output::input_files(&args.bots, args.board.map.as_deref(), &[]);
        let mut places: Vec<output::Place<'_>> = inputs.iter().map(|(flag, p)| output::Place::Reads(flag, p)).collect();
        places.push(output::Place::Games("-o", dir));
        output::check_collisions(&places).map_err(bad_input)?;
        output::prepare_dir(dir, "-o").map_err(bad_input)?;
    }
    if let Some(dir) = &log_dir {
        output::check_dir_later(dir, "the bot logs' folder").map_err(bad_input)?;
    }
    let hosting = args.hosting.hosting(true, &args.board);
    let entrants = spec::entrants(&args.bots, log_dir.as_deref(), &hosting).map_err(|e| bad_input(e.to_string()))?;
    let players = entrants.len() as u32;
    check_players(&args.bots, entrants.len())?;
    let (config, map_file) = args.board.config(players)?;
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let options = GameOptions {
        bot_limits: args.board.bot_limits(&names)?,
        margin: args.board.margin(),
        ..GameOptions::new(config, map_file, args.board.limits(), args.output.clone())
    };
    let rounds = Rounds { rounds: args.rounds, base_seed: args.seed, swap: args.swap };
    let seed = rounds.plan(0, entrants.len()).seed;
    let broken =
        preflight(&args.bots, &entrants, &hosting, &config, seed, options.map_file.as_ref(), &options.widest_limits());
    if !broken.is_empty() {
        if args.strict {
            return Err(bad_input(format!("--strict: {} cannot play; no game was played", broken.join(", "))));
        }
        eprintln!(
            "warning: {} cannot play and will lose every game by crashing (as in CodeClash); \
             the games are played all the same (--strict stops here instead)",
            broken.join(", ")
        );
    }
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(entrants.len());
    let mut timeouts = Timeouts::new(entrants.len());
    let result = if args.watch {
        if args.jobs > 1 {
            return Err(bad_input(format!("--watch draws one game at a time: use it with -j 1, not -j {}", args.jobs)));
        }
        match watch_games(&entrants, &options, &rounds, out, &mut tally, &mut timeouts) {
            Err(RunError::Report(why)) if why == view::watch::QUIT => {
                eprintln!("quit: {} of {} games were played (no FINAL_RESULTS)", tally.games(), rounds.games());
                return Ok(());
            }
            other => other,
        }
    } else {
        run::run::<FastGame>(&entrants, &options, &rounds, args.jobs as usize, |game| {
            tally.add(game);
            timeouts.add(game);
            crate::io::interrupt::set(format!(
                "{} of {} games were played (their lines are above; no FINAL_RESULTS)",
                tally.games(),
                rounds.games()
            ));
            let line = report::game_line(game, config.max_ticks) + "\n";
            write_out(out, &line).map_err(|e| RunError::Report(format!("cannot write to standard output: {e}")))
        })
    };
    result.map_err(|e| bad_input(e.to_string()))?;
    write_out(out, &report::final_results(&tally, &names)).map_err(stdout_failure)?;
    for note in timeouts.advice(&names, options.limits.rest, args.jobs as usize) {
        eprintln!("{note}");
    }
    if !broken.is_empty() {
        eprintln!(
            "warning: {} could not play: every game above was lost by crashing, not played (see the errors before game 0)",
            broken.join(", ")
        );
    }
    output::first_failure().map_or(Ok(()), |e| Err(bad_input(e)))
}

/// `play --watch`: the games one after another, each drawn tick by tick,
/// its result line printed below its last frame.
fn watch_games(
    entrants: &[Entrant],
    options: &GameOptions,
    rounds: &Rounds,
    out: &mut dyn Write,
    tally: &mut Tally,
    timeouts: &mut Timeouts,
) -> Result<(), RunError> {
    let screen = stdout_is_a_screen();
    let pace = if screen { view::watch::TERMINAL_PACE } else { Duration::ZERO };
    // Both the per-tick watch and the per-game report write to stdout.
    let mut watcher = view::watch::Watcher::new(out, screen, pace);
    if screen {
        if let Some(keys) = view::keys::Keys::from_terminal() {
            watcher = watcher.with_keys(keys);
        }
    }
    let watcher = RefCell::new(watcher);
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
    run::run_watched::<FastGame>(entrants, options, rounds, &mut watch, |game| {
        let stdout_error = |e: &std::io::Error| {
            if e.to_string() == view::watch::QUIT {
                RunError::Report(view::watch::QUIT.to_string())
            } else {
                RunError::Report(format!("cannot write to standard output: {e}"))
            }
        };
        if let Some(e) = broken.borrow().as_ref() {
            return Err(stdout_error(e));
        }
        tally.add(game);
        timeouts.add(game);
        let mut watcher = watcher.borrow_mut();
        let line = report::game_line(game, options.config.max_ticks) + "\n";
        write_out(watcher.out(), &line).map_err(|e| stdout_error(&e))?;
        watcher.restart();
        Ok(())
    })
}
