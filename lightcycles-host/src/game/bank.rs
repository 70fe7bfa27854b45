//! Time banks: time a bot may spend past a tick's limit, once per game, as
//! kaggle's `remainingOverageTime` and the increments of fastchess's
//! `tc=time+inc` give it (docs/bots.md, "Time banks").
//!
//! An answer may come as late as the tick's limit plus what is left in the
//! bank (plus the margin). What it takes past the limit comes out of the
//! bank; a timeout empties it; every answer then adds the increment. The
//! bot is told what it has left in each observation (`time_bank_ms`).

use std::time::Duration;

use crate::game::match_loop::Limits;

/// The largest bank and increment a run takes, in milliseconds (a day):
/// far beyond any game, and far from the clock's overflow.
pub const MAX_BANK_MS: u64 = 24 * 60 * 60 * 1000;

/// One seat's time bank in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bank {
    left: Duration,
    inc: Duration,
    start: Duration,
    used: Duration,
}

/// How a seat used its bank in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BankUse {
    /// The bank the game started with.
    pub start: Duration,
    /// Time taken out of it, over the game.
    pub used: Duration,
    /// What was left at the end (increments included).
    pub left: Duration,
}

impl BankUse {
    /// Adds another game's use to this one (a bot's use over a run).
    pub fn merge(&mut self, other: &BankUse) {
        self.start += other.start;
        self.used += other.used;
        self.left += other.left;
    }
}

impl Bank {
    /// The bank of a seat under `limits`, `None` when they give none.
    pub fn of(limits: &Limits) -> Option<Bank> {
        limits.banked().then_some(Bank { left: limits.bank, inc: limits.inc, start: limits.bank, used: Duration::ZERO })
    }

    /// What is left: what the bot is told, and may spend on this answer.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Counts one answer against `limit`, the tick's own limit: `took`, the
    /// time the host measured (`None` when it did not time this bot), or a
    /// timeout, which spends the whole bank. Then adds the increment.
    pub fn charge(&mut self, took: Option<Duration>, limit: Duration, timed_out: bool) {
        let spent = if timed_out { self.left } else { took.map_or(Duration::ZERO, |t| t.saturating_sub(limit)) };
        let spent = spent.min(self.left);
        self.left -= spent;
        self.used += spent;
        self.left = self.left.saturating_add(self.inc);
    }

    /// How the bank was used so far.
    pub fn usage(&self) -> BankUse {
        BankUse { start: self.start, used: self.used, left: self.left }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn limits(bank: u64, inc: u64) -> Limits {
        Limits { bank: ms(bank), inc: ms(inc), ..Limits::per_tick(ms(1000), ms(50)) }
    }

    #[test]
    fn no_bank_and_no_increment_is_no_bank() {
        assert_eq!(Bank::of(&limits(0, 0)), None);
        assert!(Bank::of(&limits(0, 5)).is_some(), "an increment alone builds a bank");
    }

    #[test]
    fn time_past_the_limit_comes_out_of_the_bank_and_answers_add_the_increment() {
        let mut bank = Bank::of(&limits(200, 10)).unwrap();
        bank.charge(Some(ms(30)), ms(50), false);
        assert_eq!(bank.left(), ms(210), "in time: nothing spent, the increment added");
        bank.charge(Some(ms(130)), ms(50), false);
        assert_eq!(bank.left(), ms(140), "80 ms past the limit");
        bank.charge(None, ms(50), false);
        assert_eq!(bank.left(), ms(150), "an answer the host did not time spends nothing");
        bank.charge(Some(ms(400)), ms(50), false);
        assert_eq!(bank.left(), ms(10), "never below empty: a margin may let a later answer in");
        bank.charge(Some(ms(20)), ms(50), true);
        assert_eq!(bank.left(), ms(10), "a timeout empties the bank; the increment still comes");
        assert_eq!(bank.usage(), BankUse { start: ms(200), used: ms(80 + 150 + 10), left: ms(10) });
    }
}
