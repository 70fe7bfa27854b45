//! `lightcycles tune`: the flags turned into the tune's settings and the
//! tournament options of its games; each iteration's line on stderr, the
//! final values on stdout; `--show` prints a state file.

use std::io::Write;

use crate::cli::{bad_input, stdout_failure, write_out, Failure, TuneArgs};
use crate::io::output;
use crate::tournament::plan::TournamentOptions;
use crate::tune::games::{self, TournamentGames};
use crate::tune::spsa::Gains;
use crate::tune::{self, params, State, TuneConfig};

/// Runs `tune`.
pub(crate) fn run(args: &TuneArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let saved = State::load(&args.state).map_err(bad_input)?;
    if args.show {
        let state = saved.ok_or_else(|| bad_input(format!("--state {}: no such file", args.state.display())))?;
        return write_out(out, &state.show()).map_err(stdout_failure);
    }
    let bot = args.bot.clone().ok_or_else(|| bad_input("no BOT to tune"))?;
    let params = params::parse_all(&args.params).map_err(bad_input)?;
    let board = args.board.board(!args.maps.is_empty());
    let config = TuneConfig {
        bot,
        against: args.against.clone(),
        params,
        iterations: args.iterations,
        games_per_iter: args.games_per_iter,
        seed: args.seed,
        gains: Gains::default(),
        board: board.to_flags(),
        maps: args.maps.clone(),
        ffa: args.ffa,
    };
    // Each seed is played in every rotation of the seats.
    if config.games_per_iter % config.seats() != 0 {
        let games = config.games_per_iter;
        return Err(bad_input(match config.ffa {
            Some(seats) => format!(
                "--games-per-iter {games} is not a multiple of --ffa {seats}: each seed is played in every rotation \
                 of the {seats} seats, so give a multiple of {seats}"
            ),
            None => {
                format!("--games-per-iter {games} is odd: each seed is played in both seats, so give an even number")
            }
        }));
    }
    let mut state = match saved {
        Some(saved) => {
            if let Some(why) = config.refuse_resume(&saved.config) {
                return Err(bad_input(format!("--state {}: {why}", args.state.display())));
            }
            eprintln!(
                "resuming {}: {} of {} iterations are done",
                args.state.display(),
                saved.iteration,
                config.iterations
            );
            State { config: config.clone(), ..saved }
        }
        None => {
            output::check_file(&args.state, "--state").map_err(bad_input)?;
            State::new(config.clone())
        }
    };
    let base = TournamentOptions {
        jobs: args.jobs.map(|j| j as usize),
        board,
        sandbox: args.hosting.hosting(false, 0, 0).sandbox,
        fuel_per_tick: args.hosting.fuel_per_tick,
        isolate: match (args.hosting.isolate, args.hosting.in_process) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        ..TournamentOptions::default()
    };
    let mut games = TournamentGames::new(config, base);
    // The values of every point must make a bot: a bad spec is said before
    // the first game.
    games.options(state.iteration, &state.theta, &state.theta, &state.theta).map_err(bad_input)?;
    // Written at once, so that a new tune's file exists from the start.
    state.save(&args.state).map_err(bad_input)?;
    tune::run(&mut state, &mut games, Some(&args.state), |s, it| eprintln!("{}", s.iteration_line(it)))
        .map_err(bad_input)?;
    let c = &state.config;
    let text = format!("{}\n{}\n", state.values_text(&state.theta), games::shown_bot(&c.bot, &c.params, &state.theta));
    write_out(out, &text).map_err(stdout_failure)?;
    output::first_failure().map_or(Ok(()), |e| Err(bad_input(e)))
}
