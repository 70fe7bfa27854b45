//! `lightcycles map`: a generated map as a picture or JSON.

use std::io::Write;

use lightcycles_core::Config;

use crate::cli::{bad_input, stdout_failure, write_out, Failure, MapArgs};
use crate::game::board::{config_message, PlayersFrom};
use crate::view::map as map_view;

/// Runs `map`.
pub(crate) fn run(args: &MapArgs, out: &mut dyn Write) -> Result<(), Failure> {
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
