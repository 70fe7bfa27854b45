//! `cmd:COMMAND`: any program that speaks JSON lines.
//!
//! The command is run by `/bin/sh -c COMMAND` in the current directory, one
//! process per game and seat. Each tick the program gets one line on its
//! stdin, the observation of docs/RULES.md section 5 as JSON, and answers with
//! one line on its stdout (`N`, `E`, `S` or `W`), exactly one answer per
//! observation, in order. Its stderr goes to its log.

use crate::bot::adapter::line::{LineFactory, LineProtocol};
use crate::bot::Turn;

/// The JSON-lines protocol.
#[derive(Clone, Copy, Debug)]
pub struct JsonLines;

/// Makes a JSON-lines bot for each game and seat.
pub type CommandFactory = LineFactory<JsonLines>;

impl LineProtocol for JsonLines {
    const PREFIX: &'static str = "cmd:";
    const FORM: &'static str = "JSON-lines programs (cmd:COMMAND)";

    /// The observation as one line of JSON.
    fn encode(turn: &Turn<'_>) -> Vec<u8> {
        let mut line = turn.observation().to_json().into_bytes();
        line.push(b'\n');
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::process::sandbox::Sandbox;
    use crate::bot::{BotContext, BotFactory, Reply};
    use lightcycles_core::observation::Observation;
    use lightcycles_core::{Config, Engine, ReferenceGame};
    use std::time::Duration;

    #[test]
    fn the_message_is_the_observation_on_one_line() {
        let game = ReferenceGame::seeded(&Config::default(), 3).unwrap();
        let position = game.position();
        let m = JsonLines::encode(&Turn::new(&position, 1));
        assert_eq!(m.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(*m.last().unwrap(), b'\n');
        let obs: Observation = serde_json::from_slice(&m).unwrap();
        assert_eq!(obs, Observation::new(&game, 1));
    }

    #[test]
    fn a_program_reads_observations_and_answers() {
        // Answers the direction it is facing, read from the JSON with sed.
        let factory = CommandFactory::new(
            r#"while read -r line; do echo "$line" | sed -e 's/.*"you":\([0-9]\).*/\1/' | sed -e 's/0/W/;s/1/E/'; done"#,
            None,
            Sandbox::default(),
        );
        let ctx = BotContext { game: 0, seat: 1, players: 2, seed: 0 };
        let mut bot = factory.create(&ctx).unwrap();
        let game = ReferenceGame::seeded(&Config::default(), 3).unwrap();
        let position = game.position();
        assert_eq!(bot.answer(&Turn::new(&position, 1), Duration::from_secs(5)), Reply::Line(b"E".to_vec()));
        assert_eq!(bot.answer(&Turn::new(&position, 0), Duration::from_secs(5)), Reply::Line(b"W".to_vec()));
    }
}
