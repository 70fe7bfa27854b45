//! Which games a tournament plays, in a stable order: every game has an
//! index, and the index alone says its seed, its pairing and its seats, so
//! a results file can name a game by its index and a resumed run knows
//! what is left.
//!
//! With `P` pairings and `-g G` games per pairing (`G` even), game `k`
//! (from 0 to `P·G - 1`) is:
//!
//! - round `r = ⌊k / 2P⌋`, played with seed `(SEED + r) mod 2^64`;
//! - pairing `q = ⌊k / 2⌋ mod P`, the bots `(a, b)` of [`Schedule::pairings`];
//! - `a` in seat 0 and `b` in seat 1 when `k` is even, the seats swapped
//!   when `k` is odd.
//!
//! So games `2j` and `2j + 1` are a game pair: the same seed and bots,
//! each bot once in each seat. Every pairing plays the same seeds, round by
//! round, and a larger `-g` only appends rounds: the first games keep their
//! indices. For two bots this is exactly `lightcycles play A B --swap`.

use lightcycles_core::rng::game_seed;

use crate::game::run::GamePlan;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairingMode {
    /// Every bot against every other: pairs `(i, j)`, `i < j`, in order.
    RoundRobin,
    /// The first bot against each of the others, in order.
    Gauntlet,
}

/// The games of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    games_per_pairing: u64,
    base_seed: u64,
}

/// A schedule that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// Fewer than two bots.
    #[error("{0} bot given: a tournament takes 2 bots or more")]
    TooFewBots(usize),
    /// An odd or zero number of games per pairing.
    #[error("-g {0}: the games per pairing must be a positive even number, since every seed is played in both seats")]
    GamesNotEven(u64),
    /// More games than indices.
    #[error("-g {games} with {pairings} pairings is more games than a tournament can number")]
    TooManyGames {
        /// Games per pairing.
        games: u64,
        /// Pairings.
        pairings: usize,
    },
}

impl Schedule {
    /// The schedule of `bots` bots: `G = games_per_pairing` games for each
    /// pairing of `mode`, seeds from `base_seed`.
    pub fn new(
        bots: usize,
        mode: PairingMode,
        games_per_pairing: u64,
        base_seed: u64,
    ) -> Result<Schedule, ScheduleError> {
        if bots < 2 {
            return Err(ScheduleError::TooFewBots(bots));
        }
        if games_per_pairing == 0 || games_per_pairing % 2 == 1 {
            return Err(ScheduleError::GamesNotEven(games_per_pairing));
        }
        let pairings: Vec<(usize, usize)> = match mode {
            PairingMode::RoundRobin => (0..bots).flat_map(|i| (i + 1..bots).map(move |j| (i, j))).collect(),
            PairingMode::Gauntlet => (1..bots).map(|j| (0, j)).collect(),
        };
        if games_per_pairing.checked_mul(pairings.len() as u64).is_none() {
            return Err(ScheduleError::TooManyGames { games: games_per_pairing, pairings: pairings.len() });
        }
        Ok(Schedule { pairings, games_per_pairing, base_seed })
    }

    /// The pairings `(a, b)` by index; `a` is the bot whose side the
    /// pairing's statistics take.
    pub fn pairings(&self) -> &[(usize, usize)] {
        &self.pairings
    }

    /// Games per pairing, `G`.
    pub fn games_per_pairing(&self) -> u64 {
        self.games_per_pairing
    }

    /// All games: `P · G`.
    pub fn total_games(&self) -> u64 {
        self.games_per_pairing * self.pairings.len() as u64
    }

    /// The seed of round 0.
    pub fn base_seed(&self) -> u64 {
        self.base_seed
    }

    /// The game with index `game`.
    pub fn game(&self, game: u64) -> ScheduledGame {
        let p = self.pairings.len() as u64;
        let round = game / (2 * p);
        let pairing = ((game / 2) % p) as usize;
        let (a, b) = self.pairings[pairing];
        let seats = if game % 2 == 0 { [a, b] } else { [b, a] };
        ScheduledGame { game, round, pairing, seed: game_seed(self.base_seed, round), seats }
    }
}

/// One game of a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Its index.
    pub game: u64,
    /// Its round: the seed's number.
    pub round: u64,
    /// Its pairing's index.
    pub pairing: usize,
    /// Its seed.
    pub seed: u64,
    /// The bots by seat.
    pub seats: [usize; 2],
}

impl ScheduledGame {
    /// The index of its game pair: games `2j` and `2j + 1` are pair `j`.
    pub fn pair(&self) -> u64 {
        self.game / 2
    }

    /// The plan the match runner plays.
    pub fn plan(&self) -> GamePlan {
        GamePlan { game: self.game, seed: self.seed, seats: self.seats.to_vec() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bots_play_each_seed_in_both_seats_as_play_swap_does() {
        let s = Schedule::new(2, PairingMode::RoundRobin, 6, 40).unwrap();
        assert_eq!(s.pairings(), [(0, 1)]);
        assert_eq!(s.total_games(), 6);
        let games: Vec<(u64, [usize; 2])> = (0..6).map(|k| (s.game(k).seed, s.game(k).seats)).collect();
        assert_eq!(games, [(40, [0, 1]), (40, [1, 0]), (41, [0, 1]), (41, [1, 0]), (42, [0, 1]), (42, [1, 0])]);
        let play = crate::game::run::Rounds { rounds: 3, base_seed: 40, swap: true };
        for k in 0..6 {
            assert_eq!(s.game(k).plan(), play.plan(k, 2), "game {k}");
        }
    }

    #[test]
    fn a_round_robin_plays_every_pairing_on_every_seed() {
        let s = Schedule::new(3, PairingMode::RoundRobin, 4, u64::MAX).unwrap();
        assert_eq!(s.pairings(), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(s.total_games(), 12);
        let g = |k| {
            let x = s.game(k);
            (x.round, x.pairing, x.seed, x.seats, x.pair())
        };
        assert_eq!(g(0), (0, 0, u64::MAX, [0, 1], 0));
        assert_eq!(g(1), (0, 0, u64::MAX, [1, 0], 0));
        assert_eq!(g(2), (0, 1, u64::MAX, [0, 2], 1));
        assert_eq!(g(5), (0, 2, u64::MAX, [2, 1], 2));
        assert_eq!(g(6), (1, 0, 0, [0, 1], 3), "seeds wrap");
        assert_eq!(g(11), (1, 2, 0, [2, 1], 5));
    }

    #[test]
    fn a_gauntlet_pits_the_first_bot_against_each_other() {
        let s = Schedule::new(4, PairingMode::Gauntlet, 2, 0).unwrap();
        assert_eq!(s.pairings(), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(
            (0..6).map(|k| s.game(k).seats).collect::<Vec<_>>(),
            [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]]
        );
    }

    #[test]
    fn more_games_only_append_rounds() {
        let short = Schedule::new(3, PairingMode::RoundRobin, 4, 9).unwrap();
        let long = Schedule::new(3, PairingMode::RoundRobin, 10, 9).unwrap();
        for k in 0..short.total_games() {
            assert_eq!(short.game(k), long.game(k));
        }
    }

    #[test]
    fn bad_schedules_are_refused() {
        assert_eq!(Schedule::new(1, PairingMode::RoundRobin, 2, 0), Err(ScheduleError::TooFewBots(1)));
        assert_eq!(Schedule::new(2, PairingMode::RoundRobin, 3, 0), Err(ScheduleError::GamesNotEven(3)));
        assert_eq!(Schedule::new(2, PairingMode::Gauntlet, 0, 0), Err(ScheduleError::GamesNotEven(0)));
        assert!(matches!(
            Schedule::new(8, PairingMode::RoundRobin, u64::MAX - 1, 0),
            Err(ScheduleError::TooManyGames { .. })
        ));
        assert!(ScheduleError::GamesNotEven(3).to_string().contains("positive even number"));
    }
}
