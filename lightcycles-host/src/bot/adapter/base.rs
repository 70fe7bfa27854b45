//! What an adapter is: the [`Adapter`] trait every form of bot spec
//! implements, and the [`Hosting`] its bots run under (the limits of bot
//! processes, plugin isolation, the budget of wasm bots).

use std::sync::Arc;
use std::time::Duration;

use crate::bot::process::log::LogPlace;
use crate::bot::process::sandbox::Sandbox;
use crate::bot::spec_error::SpecError;
use crate::bot::BotFactory;

/// One form of bot spec and how to play it.
pub trait Adapter: Sync {
    /// What bots of this form are called in messages, with the form's
    /// syntax: "JSON-lines programs (cmd:COMMAND)".
    fn form(&self) -> &'static str;

    /// Whether `form` (a spec without its `NAME=`) is of this adapter:
    /// `None` when it is not; the target (what the adapter needs to find
    /// the bot: a command, a path, a builtin's name) when it is; an error
    /// naming `arg` when it is this adapter's form but cannot be a bot.
    fn claim(&self, arg: &str, form: &str) -> Option<Result<String, SpecError>>;

    /// The name a bot of this form gets when its spec gives none.
    fn default_name(&self, target: &str) -> String;

    /// The name the bot declares itself, when its form has a way to say
    /// one (a C plugin's table): it comes before [`Adapter::default_name`].
    fn declared_name(&self, _target: &str, _hosting: &Hosting) -> Option<String> {
        None
    }

    /// The most players a game with a bot of this form may have, when the
    /// form has a limit of its own.
    fn max_players(&self) -> Option<usize> {
        None
    }

    /// Whether [`Hosting::isolate`] changes how bots of this form run.
    fn isolatable(&self) -> bool {
        false
    }

    /// The factory that makes the bot of `target` for each game, or why
    /// this build cannot play it. Files are checked here, once, so a
    /// missing bot stops a run before its first game.
    fn factory(&self, target: &str, log: Option<LogPlace>, hosting: &Hosting) -> Result<Arc<dyn BotFactory>, String>;

    /// [`Adapter::factory`], with `env` added to the environment of every
    /// process the bot runs in (how `lightcycles tune` hands a program its
    /// parameters). A form whose bots are no process of their own refuses
    /// variables.
    fn factory_with_env(
        &self,
        target: &str,
        log: Option<LogPlace>,
        hosting: &Hosting,
        env: &[(String, String)],
    ) -> Result<Arc<dyn BotFactory>, String> {
        if env.is_empty() {
            self.factory(target, log, hosting)
        } else {
            Err(format!("{} do not run as a process: they take no environment variables", self.form()))
        }
    }
}

/// How the bots of a run are hosted: the limits of every bot process, and
/// whether native plugins run in a process of their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hosting {
    /// The limits of every bot process.
    pub sandbox: Sandbox,
    /// Run each native plugin in a child process of the host's binary
    /// (`--isolate`) rather than in the host.
    pub isolate: bool,
    /// How wasm bots are budgeted: fuel per tick, or the clock.
    pub wasm: WasmBudget,
}

/// With fuel counted, the wall clock stops a call only after this many times
/// its time limit (plus [`BACKSTOP_EXTRA`]): a budget that fits the limit on
/// an idle machine still fits on a loaded one.
const BACKSTOP_FACTOR: u32 = 10;
/// See [`BACKSTOP_FACTOR`].
const BACKSTOP_EXTRA: Duration = Duration::from_secs(1);

/// How wasm bots of a run are budgeted: fuel per tick, or the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WasmBudget {
    /// `--fuel-per-tick`: the fuel of an answer whose limit is `tick_ms`;
    /// `None`: timed by the clock.
    pub fuel_per_tick: Option<u64>,
    /// The run's `--time-ms`, the limit `fuel_per_tick` is given for; every
    /// other limit (the first tick's, a bot's own `--bot-time`) gets fuel in
    /// proportion. 0 is taken as 50.
    pub tick_ms: u64,
    /// The run's `--time-margin-ms`, taken off a limit before it is turned
    /// into fuel (fuel has no scheduling noise to absorb).
    pub margin_ms: u64,
}

impl WasmBudget {
    /// The fuel of an answer due within `limit` (margin included, as the
    /// match loop gives it), or `None` when the clock times it.
    pub fn fuel(&self, limit: Duration) -> Option<u64> {
        let per_tick = self.fuel_per_tick?;
        let tick_us = u128::from(if self.tick_ms == 0 { 50 } else { self.tick_ms }) * 1000;
        let limit_us = limit.saturating_sub(Duration::from_millis(self.margin_ms)).as_micros();
        let fuel = u128::from(per_tick) * limit_us / tick_us;
        Some(u64::try_from(fuel).unwrap_or(u64::MAX).max(1))
    }

    /// The time `fuel` stands for, at `--time-ms` per `--fuel-per-tick`
    /// units ([`WasmBudget::fuel`] the other way); zero when the clock
    /// times the bot.
    pub fn time_of_fuel(&self, fuel: u64) -> Duration {
        let Some(per_tick) = self.fuel_per_tick.filter(|&n| n > 0) else { return Duration::ZERO };
        let tick_us = u128::from(if self.tick_ms == 0 { 50 } else { self.tick_ms }) * 1000;
        Duration::from_micros(u64::try_from(u128::from(fuel) * tick_us / u128::from(per_tick)).unwrap_or(u64::MAX))
    }

    /// How long a call may run on the wall clock before it is stopped.
    pub fn backstop(&self, limit: Duration) -> Duration {
        match self.fuel_per_tick {
            Some(_) => limit.saturating_mul(BACKSTOP_FACTOR).saturating_add(BACKSTOP_EXTRA),
            None => limit,
        }
    }
}
