//! What a CodeClash Python bot costs beyond its own thinking: the start of
//! its process at the beginning of a game, and whole games of
//! `examples/python-bot` against itself through the host (a process per bot
//! and game, the adapter, the match loop), as `lightcycles play` plays them.
//!
//! The same games in a Python loop that calls `get_move` in process (the
//! way CodeClash's `engine.py` does) are measured by the Python package's
//! benchmark (`python -m lightcycles.bench`), which has both in one run.

use std::time::{Duration, Instant};

use lightcycles_core::{Config, Engine, FastGame, ReferenceGame};

use crate::bot::adapter::python::PythonFactory;
use crate::bot::adapter::Hosting;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec;
use crate::bot::{BotContext, BotFactory, Reply, Turn};
use crate::game::match_loop::Limits;
use crate::game::run::{self, GameOptions, Rounds};

/// The example bot, built into the binary so the bench runs anywhere: a
/// copy of `examples/python-bot/main.py` inside the crate, so that the
/// published crate (and the Python sdist) builds without the repository's
/// examples; a test keeps the two equal.
const EXAMPLE_BOT: &str = include_str!("example_bot.py");

/// What was measured.
#[derive(Clone, Debug, PartialEq)]
pub struct PythonFigures {
    /// From asking the factory for the bot of game 0 to its first answer:
    /// a process started then.
    pub cold_start: Duration,
    /// The same for later games, the median: their process was started
    /// while the game before played.
    pub warm_start: Duration,
    /// Games of the example bot against itself through the host.
    pub games: u64,
    /// Their ticks.
    pub ticks: u64,
    /// Their wall time, one game at a time.
    pub host_time: Duration,
}

/// Measures the start of a Python bot per game (`starts` games, each
/// `game_time` long) and `games` whole games of the example bot against
/// itself, one at a time.
pub fn measure(starts: u32, game_time: Duration, games: u64) -> Result<PythonFigures, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
    let main = dir.path().join("main.py");
    std::fs::write(&main, EXAMPLE_BOT).map_err(|e| e.to_string())?;
    // The start is timed on a bot that answers at once, so that its own
    // first move (the example's flood fill) is not counted.
    let instant = dir.path().join("instant.py");
    std::fs::write(&instant, "def get_move(obs):\n    return 'N'\n").map_err(|e| e.to_string())?;
    let (cold_start, warm_start) = starts_per_game(&instant, starts.max(3), game_time)?;

    let path = main.to_string_lossy().into_owned();
    let entrants = spec::entrants(&[path.clone(), path], None, &Hosting::default()).map_err(|e| e.to_string())?;
    let limits = Limits::per_tick(Duration::from_secs(10), Duration::from_secs(10));
    let options = GameOptions::new(Config::default(), None, limits, None);
    let mut ticks = 0u64;
    let start = Instant::now();
    run::run::<FastGame>(&entrants, &options, &Rounds { rounds: games, base_seed: 0, swap: false }, 1, |game| {
        ticks += u64::from(game.outcome.ticks);
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(PythonFigures { cold_start, warm_start, games, ticks, host_time: start.elapsed() })
}

/// The time from `create` to the first answer in game 0, and the median of
/// the later games, each game lasting `game_time`.
fn starts_per_game(main: &std::path::Path, games: u32, game_time: Duration) -> Result<(Duration, Duration), String> {
    let factory = PythonFactory::new(main, None, Sandbox::default())?;
    let position = ReferenceGame::seeded(&Config::default(), 0).map_err(|e| e.to_string())?.position();
    let mut times = Vec::new();
    for game in 0..u64::from(games) {
        let start = Instant::now();
        let mut bot = factory.create(&BotContext { game, seat: 0, players: 2, seed: game }).map_err(|e| e.0)?;
        match bot.answer(&Turn::new(&position, 0), Duration::from_secs(10)) {
            Reply::Line(_) => times.push(start.elapsed()),
            other => return Err(format!("the example bot gave {other:?}")),
        }
        std::thread::sleep(game_time);
        drop(bot);
    }
    let cold = times[0];
    let mut warm = times[2..].to_vec();
    warm.sort();
    Ok((cold, warm[warm.len() / 2]))
}

/// The figures as Markdown rows.
pub fn table(figures: &Result<PythonFigures, String>) -> String {
    let mut out = String::from("| measure | figure |\n| --- | ---: |\n");
    match figures {
        Ok(f) => {
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            out.push_str(&format!(
                "| a Python bot's start, game 0 (its process started then) | {:.1} ms |\n",
                ms(f.cold_start)
            ));
            out.push_str(&format!(
                "| a Python bot's start, later games (started while the game before played) | {:.2} ms |\n",
                ms(f.warm_start)
            ));
            out.push_str(&format!(
                "| examples/python-bot against itself through the host, {} games ({} ticks) | {:.2} s, {:.0} µs a tick |\n",
                f.games,
                f.ticks,
                f.host_time.as_secs_f64(),
                f.host_time.as_secs_f64() * 1e6 / f.ticks.max(1) as f64
            ));
        }
        Err(e) => out.push_str(&format!("| not measured | {e} |\n")),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_copy_is_the_example_bot() {
        let example = include_str!("../../../examples/python-bot/main.py");
        assert!(
            EXAMPLE_BOT == example,
            "lightcycles-host/src/bench/example_bot.py differs from examples/python-bot/main.py: copy the example over it"
        );
    }

    #[test]
    fn the_python_rows_are_measured() {
        let f = measure(3, Duration::from_millis(50), 1);
        let f = f.unwrap_or_else(|e| panic!("{e}"));
        assert!(f.ticks > 10 && f.games == 1, "{f:?}");
        let text = table(&Ok(f));
        assert_eq!(text.lines().count(), 5, "{text}");
    }
}
