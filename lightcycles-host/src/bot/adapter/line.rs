//! The line protocols: a program run by the shell that gets one message a
//! tick on its stdin and answers with one line on its stdout. A protocol is
//! its encode and decode ([`LineProtocol`]); its factory, its bot and its
//! adapter are the ones written here, over [`LineBot`].

use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use crate::bot::adapter::base::{Adapter, Hosting};
use crate::bot::adapter::naming::{command_after, command_name};
use crate::bot::process::command::shell;
use crate::bot::process::line_bot::LineBot;
use crate::bot::process::log::{BotLog, LogPlace};
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec_error::SpecError;
use crate::bot::{ask_and_collect, Asked, Bot, BotContext, BotError, BotFactory, Reply, Turn};

/// What one line protocol says and hears.
pub trait LineProtocol: Send + Sync + 'static {
    /// The prefix of its specs, colon included: `cmd:`.
    const PREFIX: &'static str;
    /// What its bots are called in messages ([`Adapter::form`]).
    const FORM: &'static str;
    /// The most players its games may have, and the reason given when a
    /// game has more; `None` for no limit.
    const MAX_PLAYERS: Option<(usize, &'static str)> = None;

    /// The message of one tick, line terminators included.
    fn encode(turn: &Turn<'_>) -> Vec<u8>;

    /// The line handed to the core's parser for a line the bot sent; the
    /// default hands it over as it came.
    fn decode(raw: Vec<u8>) -> Vec<u8> {
        raw
    }
}

/// Makes a [`LineProtocolBot`] of protocol `P` for each game and seat.
#[derive(Debug)]
pub struct LineFactory<P> {
    /// The shell command.
    pub command: String,
    /// Where logs go, if anywhere.
    pub log: Option<LogPlace>,
    /// The limits of its process.
    pub sandbox: Sandbox,
    /// Variables added to its environment.
    pub env: Vec<(String, String)>,
    protocol: PhantomData<fn() -> P>,
}

impl<P> Clone for LineFactory<P> {
    fn clone(&self) -> Self {
        LineFactory { env: self.env.clone(), ..LineFactory::new(self.command.clone(), self.log.clone(), self.sandbox) }
    }
}

impl<P> LineFactory<P> {
    /// The factory of the bot that `command` runs.
    pub fn new(command: impl Into<String>, log: Option<LogPlace>, sandbox: Sandbox) -> LineFactory<P> {
        LineFactory { command: command.into(), log, sandbox, env: Vec::new(), protocol: PhantomData }
    }
}

impl<P: LineProtocol> BotFactory for LineFactory<P> {
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        let label = format!("{}{}", P::PREFIX, self.command);
        if let Some((_, why)) = P::MAX_PLAYERS.filter(|&(max, _)| ctx.players > max) {
            return Err(BotError(format!("{label}: {why}, not {}", ctx.players)));
        }
        let log = BotLog::open(self.log.as_ref(), ctx.game, ctx.seat);
        let mut command = shell(&self.command);
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        let bot = LineBot::spawn(command, &self.sandbox, log, &label)?;
        Ok(Box::new(LineProtocolBot::<P> { bot, protocol: PhantomData }))
    }
}

/// A running bot of protocol `P`.
#[derive(Debug)]
pub struct LineProtocolBot<P> {
    bot: LineBot,
    protocol: PhantomData<fn() -> P>,
}

impl<P: LineProtocol> Bot for LineProtocolBot<P> {
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply {
        ask_and_collect(self, turn, limit)
    }

    fn ask(&mut self, turn: &Turn<'_>, limit: Duration) -> Asked {
        self.bot.ask(P::encode(turn), turn.tick(), limit)
    }

    fn collect(&mut self) -> Reply {
        match self.bot.collect() {
            Reply::Line(raw) => Reply::Line(P::decode(raw)),
            other => other,
        }
    }

    fn slowest_answer(&self) -> Option<Duration> {
        self.bot.slowest()
    }

    fn last_answer(&self) -> Option<Duration> {
        self.bot.last()
    }

    fn take_said(&mut self) -> Option<crate::bot::said::SaidTick> {
        self.bot.take_said()
    }
}

/// The adapter of protocol `P`: `PREFIX` and a shell command.
#[derive(Clone, Copy, Debug)]
pub struct LineAdapter<P>(pub P);

impl<P: LineProtocol> Adapter for LineAdapter<P> {
    fn form(&self) -> &'static str {
        P::FORM
    }

    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>> {
        command_after(arg, form, P::PREFIX)
    }

    fn default_name(&self, target: &str) -> String {
        command_name(target)
    }

    fn max_players(&self) -> Option<usize> {
        P::MAX_PLAYERS.map(|(max, _)| max)
    }

    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String> {
        Ok(Arc::new(LineFactory::<P>::new(target, log, hosting.sandbox)))
    }

    fn factory_with_env(
        &self,
        target: &str,
        log: Option<LogPlace>,
        hosting: &Hosting,
        env: &[(String, String)],
    ) -> Result<Arc<dyn BotFactory>, String> {
        Ok(Arc::new(LineFactory::<P> { env: env.to_vec(), ..LineFactory::new(target, log, hosting.sandbox) }))
    }
}
