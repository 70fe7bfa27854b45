//! A person as a bot (`lightcycles play human BOT`): the arrow keys or
//! WASD of the terminal steer, the last key pressed in a tick counts, no
//! key rides straight, and a tick comes every `--tick-ms`. The first tick
//! waits for the first key, so the board can be seen before the game goes.
//! `q` ends the run after the game in play (the cycle rides on without
//! waiting for keys).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lightcycles_core::Dir;

use super::keys::{Keys, Wait};
use crate::bot::{Bot, BotContext, BotError, BotFactory, Reply, Turn};

/// What the person pressed, shared by the key reader and the human bot.
#[derive(Debug, Default)]
pub struct Pressed {
    /// The last direction pressed and not yet played.
    dir: Mutex<Option<Dir>>,
    /// Whether a direction was ever pressed (the first tick waits for one).
    started: AtomicBool,
    /// `q`: the run ends after this game.
    quit: AtomicBool,
    /// The input is gone: no key will ever come.
    closed: AtomicBool,
}

impl Pressed {
    /// Whether the person pressed `q` (or the input is gone).
    pub fn quit(&self) -> bool {
        self.quit.load(Ordering::SeqCst) || self.closed.load(Ordering::SeqCst)
    }

    fn take(&self) -> Option<Dir> {
        self.dir.lock().map(|mut d| d.take()).unwrap_or(None)
    }

    fn press(&self, dir: Dir) {
        if let Ok(mut d) = self.dir.lock() {
            *d = Some(dir);
        }
        self.started.store(true, Ordering::SeqCst);
    }
}

/// Turns bytes into keys: arrows (`ESC [ A`…`D`), WASD and `q`.
#[derive(Debug, Default)]
pub struct Decoder {
    /// How far into an escape sequence: 0 none, 1 after ESC, 2 after `ESC [`.
    escape: u8,
}

/// A key a person presses in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HumanKey {
    /// Steer.
    Dir(Dir),
    /// Leave.
    Quit,
}

impl Decoder {
    /// The key `byte` completes, if any.
    pub fn feed(&mut self, byte: u8) -> Option<HumanKey> {
        let escape = std::mem::take(&mut self.escape);
        match (escape, byte) {
            (_, 0x1b) => {
                self.escape = 1;
                None
            }
            (1, b'[') | (1, b'O') => {
                self.escape = 2;
                None
            }
            (2, b'A') => Some(HumanKey::Dir(Dir::N)),
            (2, b'B') => Some(HumanKey::Dir(Dir::S)),
            (2, b'C') => Some(HumanKey::Dir(Dir::E)),
            (2, b'D') => Some(HumanKey::Dir(Dir::W)),
            (2, _) => None,
            (_, b'w' | b'W') => Some(HumanKey::Dir(Dir::N)),
            (_, b'a' | b'A') => Some(HumanKey::Dir(Dir::W)),
            (_, b's' | b'S') => Some(HumanKey::Dir(Dir::S)),
            (_, b'd' | b'D') => Some(HumanKey::Dir(Dir::E)),
            (_, b'q' | b'Q') => Some(HumanKey::Quit),
            _ => None,
        }
    }
}

/// Reads `keys` on a thread of its own into what is [`Pressed`], until the
/// input closes.
pub fn read_keys(mut keys: Keys) -> Arc<Pressed> {
    let pressed = Arc::new(Pressed::default());
    let shared = pressed.clone();
    std::thread::spawn(move || {
        let mut decoder = Decoder::default();
        loop {
            match keys.byte(Duration::from_millis(200)) {
                Ok(byte) => match decoder.feed(byte) {
                    Some(HumanKey::Dir(dir)) => shared.press(dir),
                    Some(HumanKey::Quit) => shared.quit.store(true, Ordering::SeqCst),
                    None => {}
                },
                Err(Wait::Closed) => {
                    shared.closed.store(true, Ordering::SeqCst);
                    break;
                }
                Err(_) => {}
            }
        }
        // `keys` is dropped here, and the terminal put back as it was.
    });
    pressed
}

/// Makes the human bot of each game.
pub struct HumanFactory {
    /// What the person pressed.
    pub pressed: Arc<Pressed>,
    /// The time of a tick.
    pub tick: Duration,
}

impl BotFactory for HumanFactory {
    fn create(&self, _ctx: &BotContext) -> Result<Box<dyn Bot>, BotError> {
        // A new game waits for a key again.
        self.pressed.started.store(false, Ordering::SeqCst);
        let _ = self.pressed.take();
        Ok(Box::new(Human { pressed: self.pressed.clone(), tick: self.tick, next: None }))
    }
}

/// The person in a seat.
struct Human {
    pressed: Arc<Pressed>,
    tick: Duration,
    /// When the next tick is played.
    next: Option<Instant>,
}

impl Bot for Human {
    /// The last direction pressed by the end of the tick; no key, no move.
    /// Not bound by the host's limit: the person's tick is `--tick-ms`.
    fn answer(&mut self, _turn: &Turn<'_>, _limit: Duration) -> Reply {
        while !self.pressed.started.load(Ordering::SeqCst) && !self.pressed.quit() {
            std::thread::sleep(Duration::from_millis(10));
        }
        let due = *self.next.get_or_insert_with(|| Instant::now() + self.tick);
        while Instant::now() < due && !self.pressed.quit() {
            std::thread::sleep(Duration::from_millis(2).min(due.saturating_duration_since(Instant::now())));
        }
        self.next = Some(due.max(Instant::now() - self.tick) + self.tick);
        match self.pressed.take() {
            Some(dir) => Reply::of_dir(dir),
            None => Reply::NoMove,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_and_wasd_steer_and_q_quits() {
        let mut d = Decoder::default();
        let keys: Vec<HumanKey> = b"\x1b[A\x1b[Bxd\x1bOCa\x1b[Dwsq".iter().filter_map(|&b| d.feed(b)).collect();
        let steer = HumanKey::Dir;
        assert_eq!(
            keys,
            [
                steer(Dir::N),
                steer(Dir::S),
                steer(Dir::E),
                steer(Dir::E),
                steer(Dir::W),
                steer(Dir::W),
                steer(Dir::N),
                steer(Dir::S),
                HumanKey::Quit
            ]
        );
    }

    #[test]
    fn the_last_key_of_a_tick_counts_and_none_rides_straight() {
        let pressed = Arc::new(Pressed::default());
        let factory = HumanFactory { pressed: pressed.clone(), tick: Duration::from_millis(5) };
        let mut bot = factory.create(&BotContext { game: 0, seat: 0, players: 2, seed: 0 }).unwrap();
        let config = lightcycles_core::Config::default();
        let game = <lightcycles_core::FastGame as lightcycles_core::Engine>::seeded(&config, 1).unwrap();
        let position = lightcycles_core::Engine::position(&game);
        let turn = Turn::new(&position, 0);
        pressed.press(Dir::W);
        pressed.press(Dir::E);
        assert_eq!(bot.answer(&turn, Duration::ZERO), Reply::of_dir(Dir::E));
        assert_eq!(bot.answer(&turn, Duration::ZERO), Reply::NoMove);
        pressed.quit.store(true, Ordering::SeqCst);
        let started = Instant::now();
        assert_eq!(bot.answer(&turn, Duration::ZERO), Reply::NoMove);
        assert!(started.elapsed() < Duration::from_secs(1), "after q no tick waits");
    }
}
