//! What every bot is to the match loop: the [`Bot`] and [`BotFactory`]
//! traits, the [`Turn`] a bot is asked, and the [`Reply`] it gives.
//!
//! A bot is made per game and seat ([`BotFactory::create`]) with the game's
//! seed, asked for one answer per observation with a time limit, and dropped
//! when its player is eliminated or the game ends (an adapter that runs a
//! process kills it with its whole process group in `Drop`). What it gives
//! back is a [`Reply`]: a raw line, no move, a timeout or a crash. The match
//! loop, not the bot, turns replies into recorded answers, so every line
//! goes through the core's one parser.
//!
//! A tick asks every bot in two steps so that bots think at the same time:
//! [`Bot::ask`] hands the observation over and starts the bot's own clock,
//! and [`Bot::collect`] waits for that bot's answer until its own deadline.
//! A tick then costs the slowest bot's limit, not the sum of the limits.
//! Built-in bots answer at once in `ask` through [`Bot::answer`].

use std::fmt;
use std::time::Duration;

use lightcycles_core::observation::Observation;
use lightcycles_core::{CellValue, Dir, FastGame, PlayerState, Pos, Position, EMPTY};

/// What a bot gave back for one observation.
#[derive(Clone, PartialEq, Eq)]
pub enum Reply {
    /// A line of text as the bot sent it, without its line terminator; it is
    /// judged by the core's parser (docs/RULES.md section 6), never here.
    Line(Vec<u8>),
    /// The bot declined to move, without a fault (a plugin that returns −1).
    NoMove,
    /// No answer within the time limit.
    Timeout,
    /// The bot crashed, exited or could not be started.
    Crash,
}

impl fmt::Debug for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Line(bytes) => write!(f, "Line({:?})", String::from_utf8_lossy(bytes)),
            Reply::NoMove => f.write_str("NoMove"),
            Reply::Timeout => f.write_str("Timeout"),
            Reply::Crash => f.write_str("Crash"),
        }
    }
}

impl Reply {
    /// The reply that names a direction, as a bot that speaks the protocol would.
    pub fn of_dir(dir: Dir) -> Reply {
        Reply::Line(dir.as_str().as_bytes().to_vec())
    }
}

/// One decision asked of one bot: the state before the tick and who it is.
///
/// Every bot of a tick sees the same [`Position`]; only `you` differs.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    position: &'a Position,
    you: usize,
    /// The fast engine in that position, when the caller has one: a bot
    /// that searches copies it rather than building one from the position.
    game: Option<&'a FastGame>,
    /// The time bank the bot has left, when it has one.
    bank: Option<Duration>,
}

impl<'a> Turn<'a> {
    /// The decision of player `you` on the tick after `position`.
    pub fn new(position: &'a Position, you: usize) -> Turn<'a> {
        Turn { position, you, game: None, bank: None }
    }

    /// The same decision, with the fast engine that stands in `position`
    /// (it must: the match loop and the Python batch pass their own).
    pub fn with_game(position: &'a Position, you: usize, game: &'a FastGame) -> Turn<'a> {
        debug_assert_eq!(lightcycles_core::Engine::tick(game), position.tick);
        Turn { position, you, game: Some(game), bank: None }
    }

    /// The same decision, the bot told that it has `bank` left of its time
    /// bank (its observation's `time_bank_ms`; `None`: it has no bank).
    pub fn with_bank(self, bank: Option<Duration>) -> Turn<'a> {
        Turn { bank, ..self }
    }

    /// The time bank the bot has left, when it has one: time it may spend
    /// past this tick's limit (docs/bots.md, "Time banks").
    pub fn time_bank(&self) -> Option<Duration> {
        self.bank
    }

    /// The fast engine in this position: the caller's, or one built from
    /// the position (`None` when the position is none the engine takes).
    pub fn fast_game(&self) -> Option<std::borrow::Cow<'a, FastGame>> {
        match self.game {
            Some(game) => Some(std::borrow::Cow::Borrowed(game)),
            None => lightcycles_core::Engine::from_position(self.position).ok().map(std::borrow::Cow::Owned),
        }
    }

    /// The whole state before the tick.
    pub fn position(&self) -> &'a Position {
        self.position
    }

    /// The id of the player deciding.
    pub fn you(&self) -> usize {
        self.you
    }

    /// The tick being decided: 1 on the first decision.
    pub fn tick(&self) -> u32 {
        self.position.tick + 1
    }

    /// Board width.
    pub fn width(&self) -> u32 {
        self.position.config.width
    }

    /// Board height.
    pub fn height(&self) -> u32 {
        self.position.config.height
    }

    /// The deciding player.
    pub fn me(&self) -> PlayerState {
        self.position.players[self.you]
    }

    /// The value of a cell on the board.
    pub fn cell(&self, pos: Pos) -> CellValue {
        self.position.grid[pos.index(self.width())]
    }

    /// The direction the deciding player would really take if it asked for
    /// `dir`: a reversal into its neck keeps the current direction (docs/RULES.md
    /// section 7, step 2).
    pub fn effective(&self, dir: Dir) -> Dir {
        self.me().resolve(dir)
    }

    /// Whether riding `dir` would crash at once into a wall, a rock, a trail
    /// or a head (head-ons with other players' moves are not foreseen).
    pub fn crashes_at_once(&self, dir: Dir) -> bool {
        match self.me().pos.step(self.effective(dir), self.width(), self.height()) {
            None => true,
            Some(cell) => self.cell(cell) != EMPTY,
        }
    }

    /// The observation of docs/RULES.md section 5 for the deciding player.
    pub fn observation(&self) -> Observation {
        let mut observation = Observation::of_position(self.position, self.you);
        observation.time_bank_ms = self.bank.map(|b| b.as_millis() as u64);
        observation
    }
}

/// Who a bot is in one game; given to [`BotFactory::create`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotContext {
    /// The game number in its run.
    pub game: u64,
    /// The bot's seat: its player id in this game.
    pub seat: usize,
    /// The number of players in the game.
    pub players: usize,
    /// The game's seed (for a game on a map file, the seed the run gave it:
    /// it seeds the bots only).
    pub seed: u64,
}

/// What [`Bot::ask`] did with an observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// The bot answered at once (a built-in bot, or an adapter that already
    /// knows the answer: a bot that has crashed).
    Answered(Reply),
    /// The observation is on its way; [`Bot::collect`] gives the answer.
    Pending,
}

/// [`Bot::answer`] for an adapter that waits for its bot: ask, then collect
/// the answer if it is not there at once.
pub fn ask_and_collect<B: Bot + ?Sized>(bot: &mut B, turn: &Turn<'_>, limit: Duration) -> Reply {
    match bot.ask(turn, limit) {
        Asked::Answered(reply) => reply,
        Asked::Pending => bot.collect(),
    }
}

/// A bot playing one seat of one game.
pub trait Bot: Send {
    /// The answer to the observation of `turn`, within `limit` (the first
    /// tick's limit on tick 1), in one call. A built-in bot answers at once;
    /// an adapter for untrusted code enforces the limit itself and returns
    /// [`Reply::Timeout`] when it runs out.
    fn answer(&mut self, turn: &Turn<'_>, limit: Duration) -> Reply;

    /// Hands the observation of `turn` to the bot and starts its clock:
    /// its answer is due within `limit` from now. An adapter that waits for
    /// its bot returns [`Asked::Pending`] and waits in [`Bot::collect`]; the
    /// default answers at once through [`Bot::answer`].
    fn ask(&mut self, turn: &Turn<'_>, limit: Duration) -> Asked {
        Asked::Answered(self.answer(turn, limit))
    }

    /// The answer to the last [`Bot::ask`] that returned [`Asked::Pending`],
    /// waiting at most until that ask's deadline. Called once per pending
    /// ask. The default, for bots that never return `Pending`, is a crash:
    /// there is nothing to collect.
    fn collect(&mut self) -> Reply {
        Reply::Crash
    }

    /// The slowest answer this bot has given so far, from the observation
    /// to its line, late answers included, for the adapters that time
    /// their bots' lines (bot processes); `None` for the others and before
    /// any answer. It explains timeouts; it never decides anything.
    fn slowest_answer(&self) -> Option<Duration> {
        None
    }

    /// How long the answer just collected (or given in [`Bot::ask`]) took,
    /// from the observation to its line (a late one included), for the
    /// adapters that time their bots' lines; `None` for the others, and when
    /// no line came (an adapter resets it in each `ask`). It counts
    /// answers near the limit, and what it takes past the tick's limit comes
    /// out of the bot's time bank (docs/bots.md, "Time banks").
    fn last_answer(&self) -> Option<Duration> {
        None
    }

    /// What the bot wrote besides its answers since this was last called
    /// (its stderr, or what its adapter captured), capped; taken by the
    /// match loop at each answer ([`crate::bot::said`]). `None` when it
    /// wrote nothing, and for the bots whose output is not captured
    /// (built-in bots and plugins run inside the host).
    fn take_said(&mut self) -> Option<crate::bot::said::SaidTick> {
        None
    }
}

/// Makes a fresh bot for each game and seat.
pub trait BotFactory: Send + Sync {
    /// A bot for `ctx`. An error (a program that cannot start, a plugin that
    /// refuses) costs the bot its moves as a crash; it never stops the run.
    fn create(&self, ctx: &BotContext) -> Result<Box<dyn Bot>, BotError>;
}

/// A bot that could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BotError(pub String);

/// The bot that stands in a seat whose bot could not be made: it crashes on
/// every tick, so the failure is recorded as docs/RULES.md section 6 asks.
#[derive(Debug)]
pub struct Failed {
    /// Why the bot could not be made.
    pub error: BotError,
}

impl Bot for Failed {
    fn answer(&mut self, _turn: &Turn<'_>, _limit: Duration) -> Reply {
        Reply::Crash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Action, Config, Engine, ReferenceGame};

    #[test]
    fn a_turn_shows_the_observation_the_core_builds() {
        for (seed, players, side) in [(1, 2, 48), (7, 4, 24), (3, 3, 20)] {
            let config = Config { width: side, height: side, players, ..Config::default() };
            let mut game = ReferenceGame::seeded(&config, seed).unwrap();
            for _ in 0..3 {
                let position = game.position();
                for you in 0..players as usize {
                    assert_eq!(Turn::new(&position, you).observation(), Observation::new(&game, you));
                }
                game.step(&vec![Action::Keep; players as usize]).unwrap();
            }
        }
    }

    #[test]
    fn reversal_into_the_neck_is_seen_as_going_straight() {
        let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
        let mut game = ReferenceGame::seeded(&config, 123).unwrap();
        // Player 0 starts at (2, 2) facing N, without a neck.
        let position = game.position();
        let turn = Turn::new(&position, 0);
        assert_eq!(turn.me().dir, Dir::N);
        assert_eq!(turn.effective(Dir::S), Dir::S, "no neck on the first move");
        game.step(&[Action::Move(Dir::E), Action::Keep]).unwrap();
        let position = game.position();
        let turn = Turn::new(&position, 0);
        assert_eq!(turn.effective(Dir::W), Dir::E, "reversal into the neck keeps the direction");
        assert!(!turn.crashes_at_once(Dir::W));
        assert!(!turn.crashes_at_once(Dir::N));
    }
}
