//! `lightcycles play`: seeded games between bots, one line per game, then
//! the FINAL_RESULTS block; with `--watch`, each game drawn as it runs.

use std::cell::RefCell;
use std::io::Write;
use std::time::Duration;

use lightcycles_core::{Answer, FastGame};

use crate::bot::process::log::LOGS_DIR;
use std::sync::Arc;

use crate::bot::spec::Entrant;
use crate::cli::{
    bad_input, check_players, preflight, stdout_failure, stdout_is_a_screen, write_out, Failure, PlayArgs,
};
use crate::game::report::{self, BankUses, Tally, Timeouts};
use crate::game::run::{self, GameOptions, Rounds, RunError, Stop};
use crate::io::output;
use crate::tournament::plan::{self, Entry};
use crate::view;
use crate::view::human::{self, HumanFactory};
use crate::view::scene::{MapOrigin, Scene};

/// The word that puts a person in a seat: `lightcycles play human BOT`.
const HUMAN: &str = "human";

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
    let hosting = args.hosting.hosting(true, args.board.time_ms, args.board.time_margin_ms);
    let humans = args.bots.iter().filter(|b| *b == HUMAN).count();
    let pressed = match humans {
        0 => None,
        1 if args.jobs == 1 => Some(human::read_keys(view::keys::Keys::from_terminal().ok_or_else(|| {
            bad_input("play human reads your keys from a terminal: run it in one (stdin is not a terminal)")
        })?)),
        1 => {
            return Err(bad_input(format!("play human is one game at a time: use it with -j 1, not -j {}", args.jobs)))
        }
        n => return Err(bad_input(format!("play human has one seat for a person, but human is given {n} times"))),
    };
    let entries: Vec<Entry> = args
        .bots
        .iter()
        .map(|bot| match &pressed {
            Some(pressed) if bot == HUMAN => Entry::Made {
                base_name: HUMAN.to_string(),
                kind: HUMAN,
                factory: Arc::new(HumanFactory { pressed: pressed.clone(), tick: Duration::from_millis(args.tick_ms) }),
            },
            _ => Entry::Spec(bot.clone()),
        })
        .collect();
    let (entrants, _) = plan::entrants(&entries, log_dir.as_deref(), &hosting).map_err(bad_input)?;
    let players = entrants.len() as u32;
    check_players(&args.bots, entrants.len())?;
    let board = args.board.board(false);
    let (config, map_file) = board.config(players).map_err(bad_input)?;
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let options = GameOptions {
        bot_limits: board.bot_limits(&names).map_err(bad_input)?,
        margin: board.margin(),
        ..GameOptions::new(config, map_file, board.limits().map_err(bad_input)?, args.output.clone())
    };
    let rounds = Rounds { rounds: args.rounds, base_seed: args.seed, swap: args.swap };
    let seed = rounds.plan(0, entrants.len()).seed;
    // The probe asks the bots of specs (a person is not probed).
    let (probed, probed_entrants): (Vec<String>, Vec<Entrant>) = args
        .bots
        .iter()
        .zip(&entrants)
        .filter(|(bot, _)| pressed.is_none() || *bot != HUMAN)
        .map(|(bot, e)| (bot.clone(), e.clone()))
        .unzip();
    let broken = preflight(
        &probed,
        &probed_entrants,
        &hosting,
        &config,
        seed,
        options.map_file.as_ref(),
        &options.widest_limits(),
    );
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
    let mut banks = BankUses::new(entrants.len());
    let result = if args.watch || pressed.is_some() {
        if args.jobs > 1 {
            return Err(bad_input(format!("--watch draws one game at a time: use it with -j 1, not -j {}", args.jobs)));
        }
        match watch_games(&entrants, &options, &rounds, out, &mut tally, &mut timeouts, pressed.as_deref()) {
            Err(RunError::Stopped(Stop::Quit)) => {
                eprintln!("quit: {} of {} games were played (no FINAL_RESULTS)", tally.games(), rounds.games());
                return Ok(());
            }
            other => other,
        }
    } else {
        run::run::<FastGame>(&entrants, &options, &rounds, args.jobs as usize, |game| {
            tally.add(game);
            timeouts.add(game);
            banks.add(game);
            crate::io::interrupt::set(format!(
                "{} of {} games were played (their lines are above; no FINAL_RESULTS)",
                tally.games(),
                rounds.games()
            ));
            let line = report::game_line(game, config.max_ticks) + "\n";
            write_out(out, &line).map_err(|e| RunError::Stopped(Stop::Output(e)))
        })
    };
    result.map_err(|e| bad_input(e.to_string()))?;
    write_out(out, &report::final_results(&tally, &names)).map_err(stdout_failure)?;
    for note in timeouts.advice(&names, options.limits.rest, args.jobs as usize) {
        eprintln!("{note}");
    }
    if let Some(note) = banks.note(&names) {
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
/// With `human`, a person plays: the person's ticks set the pace, and the
/// keys are theirs.
fn watch_games(
    entrants: &[Entrant],
    options: &GameOptions,
    rounds: &Rounds,
    out: &mut dyn Write,
    tally: &mut Tally,
    timeouts: &mut Timeouts,
    human: Option<&human::Pressed>,
) -> Result<(), RunError> {
    let screen = stdout_is_a_screen();
    let pace = if screen && human.is_none() { view::watch::TERMINAL_PACE } else { Duration::ZERO };
    // Both the per-tick watch and the per-game report write to stdout.
    let mut watcher = view::watch::Watcher::new(out, screen, pace);
    if screen && human.is_none() {
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
        let mut title = format!("game {} · seed {} · {}", plan.game, plan.seed, names.join(" vs "));
        if human.is_some() {
            title.push_str(if lightcycles_core::Engine::tick(engine) == 0 {
                " · press an arrow key or WASD to start; q quits after this game"
            } else {
                " · arrows or WASD steer; q quits after this game"
            });
        }
        let scene = Scene::from_engine(engine, names, answers, origin);
        if let Err(e) = watcher.borrow_mut().draw(&title, &scene) {
            *broken.borrow_mut() = Some(e);
        }
    };
    run::run_watched::<FastGame>(entrants, options, rounds, &mut watch, |game| {
        let stdout_error = |e: std::io::Error| {
            if view::watch::is_quit(&e) {
                RunError::Stopped(Stop::Quit)
            } else {
                RunError::Stopped(Stop::Output(e))
            }
        };
        if let Some(e) = broken.borrow_mut().take() {
            return Err(stdout_error(e));
        }
        tally.add(game);
        timeouts.add(game);
        let mut watcher = watcher.borrow_mut();
        let line = report::game_line(game, options.config.max_ticks) + "\n";
        write_out(watcher.out(), &line).map_err(stdout_error)?;
        watcher.restart();
        if human.is_some_and(human::Pressed::quit) {
            return Err(RunError::Stopped(Stop::Quit));
        }
        Ok(())
    })
}
