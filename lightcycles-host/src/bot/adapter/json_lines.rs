//! `cmd:COMMAND`: any program that speaks JSON lines.
//!
//! The command is run by `/bin/sh -c COMMAND` in the current directory, one
//! process per game and seat. Each tick the program gets one line on its
//! stdin, the observation of docs/RULES.md section 5 as JSON, and answers with
//! one line on its stdout (`N`, `E`, `S` or `W`), exactly one answer per
//! observation, in order. Its stderr goes to its log.

use std::time::Duration;

use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::process::sandbox::Sandbox;
use crate::bot::process::{shell, LineBot};
use crate::bot::{ask_and_collect, Asked, Bot, BotContext, BotError, BotFactory, Reply, Turn};
use std::sync::Arc;

use crate::bot::adapter::{command_after, command_name, Adapter, Hosting};
use crate::bot::spec::SpecError;

/// Makes a [`JsonLinesBot`] for each game and seat.
#[derive(Clone, Debug)]
pub struct CommandFactory {
    /// The shell command.
    pub command: String,
    /// Where logs go, if anywhere.
    pub log: Option<LogPlace>,
    /// The limits of its process.
    pub sandbox: Sandbox,
}

impl BotFactory for CommandFactory {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        let log = BotLog::open(self.log.as_ref(), ctx.game, ctx.seat);
        let bot = LineBot::spawn(shell(&self.command), &self.sandbox, log, &format!("cmd:{}", self.command))?;
        Ok(Box::new(JsonLinesBot { bot }))
    }
}

/// A running JSON-lines program.
#[derive(Debug)]
pub struct JsonLinesBot {
    bot: LineBot,
}

/// The message of one tick: the observation as one line of JSON.
pub fn message(turn: &Turn<'_>) -> Vec<u8> {
    let mut line = turn.observation().to_json().into_bytes();
    line.push(b'\n');
    line
}

impl Bot for JsonLinesBot {
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        ask_and_collect(self, turn, limit)
    }

    fn ask(&mut self, turn: &Turn<'_>, limit: Duration) -> Asked {
        self.bot.ask(message(turn), turn.tick(), limit)
    }

    fn collect(&mut self) -> Reply {
        self.bot.collect()
    }

    fn slowest_answer(&self) -> Option<Duration> {
        self.bot.slowest()
    }

    fn last_answer(&self) -> Option<Duration> {
        self.bot.last()
    }
}

/// `cmd:COMMAND`.
pub struct JsonLinesAdapter;

impl Adapter for JsonLinesAdapter {
    fn form(&self) -> &'static str {
        "JSON-lines programs (cmd:COMMAND)"
    }

    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        command_after(arg, form, "cmd:")
    }

    fn default_name(&self, target: &str) -> String {
        command_name(target)
    }

    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        Ok(Arc::new(CommandFactory { command: target.to_string(), log, sandbox: hosting.sandbox }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::observation::Observation;
    use lightcycles_core::{Config, Engine, ReferenceGame};

    #[test]
    fn the_message_is_the_observation_on_one_line() {
        let game = ReferenceGame::seeded(&Config::default(), 3).unwrap();
        let position = game.position();
        let m = message(&Turn::new(&position, 1));
        assert_eq!(m.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(*m.last().unwrap(), b'\n');
        let obs: Observation = serde_json::from_slice(&m).unwrap();
        assert_eq!(obs, Observation::new(&game, 1));
    }

    #[test]
    fn a_program_reads_observations_and_answers() {
        // Answers the direction it is facing, read from the JSON with sed.
        let factory = CommandFactory {
            command: r#"while read -r line; do echo "$line" | sed -e 's/.*"you":\([0-9]\).*/\1/' | sed -e 's/0/W/;s/1/E/'; done"#
                .to_string(),
            log: None,
            sandbox: Sandbox::default(),
        };
        let ctx = BotContext { game: 0, seat: 1, players: 2, seed: 0 };
        let mut bot = factory.create(&ctx).unwrap();
        let game = ReferenceGame::seeded(&Config::default(), 3).unwrap();
        let position = game.position();
        assert_eq!(bot.answer(&Turn::new(&position, 1), Duration::from_secs(5)), Reply::Line(b"E".to_vec()));
        assert_eq!(bot.answer(&Turn::new(&position, 0), Duration::from_secs(5)), Reply::Line(b"W".to_vec()));
    }
}
