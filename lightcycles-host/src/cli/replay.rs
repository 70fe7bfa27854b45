//! `lightcycles replay verify`, `replay show` and `replay feed`.

use std::io::Write;
use std::path::{Path, PathBuf};

use lightcycles_core::replay::Replay;

use crate::bot::spec;
use crate::cli::{bad_input, stdout_failure, stdout_is_a_screen, write_out, Failure, FeedArgs, ShowArgs};
use crate::game::feed::{self, FeedOptions};
use crate::game::match_loop::Limits;
use crate::game::verify::{self, Verdict};
use crate::io::input;
use crate::view;

/// Runs `replay verify`.
pub(crate) fn verify(files: &[PathBuf], out: &mut dyn Write) -> Result<(), Failure> {
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
                let said = crate::io::untrusted::terminal_text(&m.to_string());
                write_out(out, &format!("{shown}: differs at {said}\n")).map_err(stdout_failure)?;
                return Err(Failure { code: 1, message: format!("{shown}: replay differs from the rules") });
            }
            Err(e) => return Err(bad_input(format!("{shown}: {e}"))),
        }
    }
    Ok(())
}

/// Reads a replay file for viewing, or says what is wrong and where.
pub(crate) fn load_replay(path: &Path) -> Result<Replay, Failure> {
    let text = input::read_text(path, &input::REPLAY).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    view::parse(&text).map_err(|e| bad_input(format!("{}: {e}", path.display())))
}

/// Runs `replay show`.
pub(crate) fn show(args: &ShowArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let replay = load_replay(&args.file)?;
    let text = view::terminal::render_replay(&replay, args.tick, stdout_is_a_screen())
        .map_err(|e| bad_input(format!("{}: --tick: {e}", args.file.display())))?;
    write_out(out, &text).map_err(stdout_failure)
}

/// Runs `replay feed`.
pub(crate) fn feed(args: &FeedArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let shown = args.file.display();
    let replay = load_replay(&args.file)?;
    if let Some(tick) = args.observation {
        let observation =
            feed::observation_at(&replay, args.seat, tick).map_err(|e| bad_input(format!("{shown}: {e}")))?;
        return write_out(out, &(observation.to_json() + "\n")).map_err(stdout_failure);
    }
    let Some(bot) = &args.bot else { return Err(bad_input("replay feed: name the BOT to send the observations to")) };
    // A limit not given is the one the replay records (else the default).
    let (recorded, margin) = feed::recorded_limits(&replay, args.seat).unwrap_or_default();
    let ms = std::time::Duration::from_millis;
    let limits = (args.time_first_ms.is_some() || args.time_ms.is_some()).then(|| Limits {
        first: args.time_first_ms.map_or(recorded.first, ms),
        rest: args.time_ms.map_or(recorded.rest, ms),
        ..recorded
    });
    let tick_ms = limits.unwrap_or(recorded).rest.as_millis() as u64;
    let hosting = args.hosting.hosting(true, tick_ms, margin.as_millis() as u64);
    let entrant =
        spec::entrants(std::slice::from_ref(bot), None, &hosting).map_err(|e| bad_input(e.to_string()))?.remove(0);
    let game = args.game.or_else(|| game_of_file(&args.file)).unwrap_or(0);
    let options =
        FeedOptions { seat: args.seat, until: args.until, limits, game, seed: args.seed, keep_going: args.keep_going };
    let fed = feed::feed(&replay, &entrant, &options).map_err(|e| bad_input(format!("{shown}: {e}")))?;
    let name = crate::io::untrusted::terminal_text(&entrant.name);
    let seat = args.seat;
    match &fed.first_difference {
        None => {
            let n = fed.answers.len();
            let ticks = if n == 0 { "no tick".to_string() } else { format!("ticks 1 to {n}") };
            write_out(out, &format!("{shown}: seat {seat}: {name} gave the {n} recorded answers again ({ticks})\n"))
                .map_err(stdout_failure)
        }
        Some(d) => {
            let mut line = format!(
                "{shown}: seat {seat}: tick {}: recorded {}, {name} now answers {}\n",
                d.tick,
                said(&d.recorded),
                said(&d.now)
            );
            if args.keep_going {
                let differ = fed.answers.iter().filter(|a| !a.matches()).count();
                line += &format!("{shown}: seat {seat}: {differ} of {} answers differ\n", fed.answers.len());
            }
            write_out(out, &line).map_err(stdout_failure)?;
            Err(Failure {
                code: 1,
                message: format!("{shown}: seat {seat}: the answer of tick {} differs from the recording", d.tick),
            })
        }
    }
}

/// The game number of a replay named `sim_<g>.json`.
fn game_of_file(path: &Path) -> Option<u64> {
    path.file_name()?.to_str()?.strip_prefix("sim_")?.strip_suffix(".json")?.parse().ok()
}

/// An answer as a person reads it: the line, or what it was instead.
fn said(answer: &lightcycles_core::Answer) -> String {
    let line = answer.line.as_deref().map(|l| format!("{:?}", crate::io::untrusted::terminal_text(l)));
    match (line, answer.fault) {
        (Some(line), None) => line,
        (Some(line), Some(fault)) => format!("{line} ({fault})"),
        (None, Some(fault)) => fault.to_string(),
        (None, None) => "no move".to_string(),
    }
}
