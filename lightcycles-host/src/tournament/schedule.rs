//! Which games a tournament plays, in a stable order: every game has an
//! index, and the index alone says its seed, its group of bots, its seats
//! and its map, so a results file can name a game by its index and a
//! resumed run knows what is left. [`Schedule::game`] is the one place
//! that says it.
//!
//! With `N` seats a game (2 unless `--ffa N`), `P` groups of `N` bots
//! (pairings when `N = 2`) and `-g G` games per group (`G` a multiple of
//! `N`), game `k` (from 0 to `P·G - 1`) is:
//!
//! - round `r = ⌊k / NP⌋`, played with seed `(SEED + r) mod 2^64` (and map
//!   `r` of the map pool, when there is one);
//! - group `q = ⌊k / N⌋ mod P`, the bots `(b0, …, bN-1)` of
//!   [`Schedule::pairings`];
//! - rotation `j = k mod N`: seat `s` holds bot `b((s + j) mod N)`.
//!
//! So games `Nm … Nm + N - 1` are a game set (a game pair when `N = 2`):
//! the same seed, map and bots, each bot once in each seat. Every group
//! plays the same seeds, round by round, and a larger `-g` only appends
//! rounds: the first games keep their indices. For two bots this is
//! exactly `lightcycles play A B --swap`.

use lightcycles_core::rng::{game_seed, SplitMix64};

use crate::game::run::GamePlan;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairingMode {
    /// Every bot against every other: groups in lexicographic order.
    RoundRobin,
    /// The first bot against the others: only the groups that hold it.
    Gauntlet,
}

/// The most groups a schedule enumerates (free-for-all over many bots).
pub const MAX_GROUPS: usize = 100_000;

/// The order in which rounds take the maps of a pool: map `order[(start +
/// r) mod M]` for round `r`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapOrder {
    order: Vec<usize>,
    start: usize,
}

impl MapOrder {
    /// `maps` maps in the order given, from map `start` (taken mod `maps`).
    pub fn sequential(maps: usize, start: usize) -> MapOrder {
        MapOrder { order: (0..maps).collect(), start: start % maps.max(1) }
    }

    /// `maps` maps shuffled (Fisher-Yates on SplitMix64 seeded with
    /// `seed`), from position `start` of the shuffled order.
    pub fn random(maps: usize, start: usize, seed: u64) -> MapOrder {
        let mut order: Vec<usize> = (0..maps).collect();
        let mut rng = SplitMix64::new(seed);
        for i in (1..maps).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        MapOrder { order, start: start % maps.max(1) }
    }

    /// The map of round `round`.
    pub fn map_of(&self, round: u64) -> usize {
        let m = self.order.len() as u64;
        self.order[((self.start as u64 + round % m) % m) as usize]
    }

    /// How many maps.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// The games of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    groups: Vec<Vec<usize>>,
    seats: usize,
    games_per_pairing: u64,
    base_seed: u64,
    maps: Option<MapOrder>,
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
    /// Games per group not a multiple of the seats.
    #[error("-g {games}: with --ffa {seats} the games per group must be a positive multiple of {seats}, since every seed is played once with each rotation of the seats")]
    GamesNotMultiple {
        /// Games per group.
        games: u64,
        /// Seats per game.
        seats: usize,
    },
    /// Seats out of range, or more seats than bots.
    #[error("--ffa {seats} with {bots} bots: a free-for-all game has 3 to 8 seats, and no more seats than bots")]
    BadSeats {
        /// Seats asked for.
        seats: usize,
        /// Bots given.
        bots: usize,
    },
    /// More groups than a schedule lists.
    #[error(
        "{bots} bots in games of {seats} make more than {MAX_GROUPS} groups; use fewer bots, --gauntlet, or --league"
    )]
    TooManyGroups {
        /// Bots.
        bots: usize,
        /// Seats.
        seats: usize,
    },
    /// More games than indices.
    #[error("-g {games} with {pairings} pairings is more games than a tournament can number")]
    TooManyGames {
        /// Games per pairing.
        games: u64,
        /// Pairings.
        pairings: usize,
    },
}

/// Every set of `k` of the bots `0..n`, each sorted, in lexicographic
/// order; `None` when there are more than [`MAX_GROUPS`].
pub fn combinations(n: usize, k: usize) -> Option<Vec<Vec<usize>>> {
    let mut out = Vec::new();
    if k == 0 || k > n {
        return Some(out);
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        if out.len() == MAX_GROUPS {
            return None;
        }
        out.push(c.clone());
        // The rightmost element that can still move up.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else { return Some(out) };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

impl Schedule {
    /// The two-player schedule of `bots` bots: `G = games_per_pairing`
    /// games for each pairing of `mode`, seeds from `base_seed`.
    pub fn new(
        bots: usize,
        mode: PairingMode,
        games_per_pairing: u64,
        base_seed: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::with_seats(bots, 2, mode, games_per_pairing, base_seed)
    }

    /// The schedule of games of `seats` seats (2 to 8) among `bots` bots:
    /// every group of `seats` bots (those holding bot 0 for a gauntlet),
    /// `games_per_pairing` games each.
    pub fn with_seats(
        bots: usize,
        seats: usize,
        mode: PairingMode,
        games_per_pairing: u64,
        base_seed: u64,
    ) -> Result<Schedule, ScheduleError> {
        if bots < 2 {
            return Err(ScheduleError::TooFewBots(bots));
        }
        if seats != 2 && (!(3..=lightcycles_core::config::MAX_PLAYERS).contains(&seats) || seats > bots) {
            return Err(ScheduleError::BadSeats { seats, bots });
        }
        if games_per_pairing == 0 || games_per_pairing % seats as u64 != 0 {
            return Err(if seats == 2 {
                ScheduleError::GamesNotEven(games_per_pairing)
            } else {
                ScheduleError::GamesNotMultiple { games: games_per_pairing, seats }
            });
        }
        let all = combinations(bots, seats).ok_or(ScheduleError::TooManyGroups { bots, seats })?;
        let groups: Vec<Vec<usize>> = match mode {
            PairingMode::RoundRobin => all,
            PairingMode::Gauntlet => all.into_iter().filter(|g| g[0] == 0).collect(),
        };
        if games_per_pairing.checked_mul(groups.len() as u64).is_none() {
            return Err(ScheduleError::TooManyGames { games: games_per_pairing, pairings: groups.len() });
        }
        Ok(Schedule { groups, seats, games_per_pairing, base_seed, maps: None })
    }

    /// The same games, round `r` on map `maps.map_of(r)` of a pool.
    pub fn with_maps(mut self, maps: MapOrder) -> Schedule {
        self.maps = Some(maps);
        self
    }

    /// The pairings `(a, b)` by index (two seats); `a` is the bot whose
    /// side the pairing's statistics take. Empty for a free-for-all.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        if self.seats == 2 {
            self.groups.iter().map(|g| (g[0], g[1])).collect()
        } else {
            Vec::new()
        }
    }

    /// The groups of bots by index, each sorted.
    pub fn groups(&self) -> &[Vec<usize>] {
        &self.groups
    }

    /// Seats in every game.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Games per pairing, `G`.
    pub fn games_per_pairing(&self) -> u64 {
        self.games_per_pairing
    }

    /// All games: `P · G`.
    pub fn total_games(&self) -> u64 {
        self.games_per_pairing * self.groups.len() as u64
    }

    /// The seed of round 0.
    pub fn base_seed(&self) -> u64 {
        self.base_seed
    }

    /// The game with index `game`: the one place that says it.
    pub fn game(&self, game: u64) -> ScheduledGame {
        let n = self.seats as u64;
        let p = self.groups.len() as u64;
        let round = game / (n * p);
        let pairing = ((game / n) % p) as usize;
        let j = (game % n) as usize;
        let group = &self.groups[pairing];
        let seats = (0..self.seats).map(|s| group[(s + j) % self.seats]).collect();
        ScheduledGame {
            game,
            round,
            pairing,
            seed: game_seed(self.base_seed, round),
            seats,
            map: self.maps.as_ref().map(|m| m.map_of(round)),
        }
    }
}

/// One game of a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Its index.
    pub game: u64,
    /// Its round: the seed's number.
    pub round: u64,
    /// Its pairing's (group's) index.
    pub pairing: usize,
    /// Its seed.
    pub seed: u64,
    /// The bots by seat.
    pub seats: Vec<usize>,
    /// Its map's index in the map pool, when there is one.
    pub map: Option<usize>,
}

impl ScheduledGame {
    /// The index of its game set (game pair for two seats): games `Nm` to
    /// `Nm + N - 1` are set `m`.
    pub fn pair(&self) -> u64 {
        self.game / self.seats.len() as u64
    }

    /// The plan the match runner plays.
    pub fn plan(&self) -> GamePlan {
        GamePlan { game: self.game, seed: self.seed, seats: self.seats.clone() }
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
        let games: Vec<(u64, Vec<usize>)> = (0..6).map(|k| (s.game(k).seed, s.game(k).seats)).collect();
        let v = |a: usize, b: usize| vec![a, b];
        assert_eq!(games, [(40, v(0, 1)), (40, v(1, 0)), (41, v(0, 1)), (41, v(1, 0)), (42, v(0, 1)), (42, v(1, 0))]);
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
            (x.round, x.pairing, x.seed, x.seats.clone(), x.pair())
        };
        assert_eq!(g(0), (0, 0, u64::MAX, vec![0, 1], 0));
        assert_eq!(g(1), (0, 0, u64::MAX, vec![1, 0], 0));
        assert_eq!(g(2), (0, 1, u64::MAX, vec![0, 2], 1));
        assert_eq!(g(5), (0, 2, u64::MAX, vec![2, 1], 2));
        assert_eq!(g(6), (1, 0, 0, vec![0, 1], 3), "seeds wrap");
        assert_eq!(g(11), (1, 2, 0, vec![2, 1], 5));
    }

    #[test]
    fn a_gauntlet_pits_the_first_bot_against_each_other() {
        let s = Schedule::new(4, PairingMode::Gauntlet, 2, 0).unwrap();
        assert_eq!(s.pairings(), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(
            (0..6).map(|k| s.game(k).seats).collect::<Vec<_>>(),
            [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]].map(|x| x.to_vec())
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

    #[test]
    fn a_free_for_all_rotates_every_bot_through_every_seat() {
        // 4 bots in games of 3: groups in lexicographic order, 3 games a set.
        let s = Schedule::with_seats(4, 3, PairingMode::RoundRobin, 6, 0).unwrap();
        assert_eq!(s.groups(), [vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]);
        assert_eq!(s.total_games(), 24);
        assert_eq!(s.game(0).seats, [0, 1, 2]);
        assert_eq!(s.game(1).seats, [1, 2, 0]);
        assert_eq!(s.game(2).seats, [2, 0, 1]);
        assert_eq!(s.game(3).seats, [0, 1, 3]);
        assert_eq!((s.game(12).round, s.game(12).pairing, s.game(12).seed), (1, 0, 1));
        // Every bot rides every seat equally often: (bots choose 2) games
        // per seat over the whole schedule here (3 groups hold each bot, 2
        // rounds, once per seat per set).
        let mut count = [[0u32; 3]; 4];
        for k in 0..s.total_games() {
            for (seat, &bot) in s.game(k).seats.iter().enumerate() {
                count[bot][seat] += 1;
            }
        }
        assert_eq!(count, [[6; 3]; 4]);
        // In a set every seed is the same and every bot once in each seat.
        for set in 0..8u64 {
            let games: Vec<ScheduledGame> = (3 * set..3 * set + 3).map(|k| s.game(k)).collect();
            assert!(games.iter().all(|g| g.seed == games[0].seed && g.pair() == set));
            for seat in 0..3 {
                let mut riders: Vec<usize> = games.iter().map(|g| g.seats[seat]).collect();
                riders.sort();
                assert_eq!(riders, s.groups()[games[0].pairing]);
            }
        }
    }

    #[test]
    fn a_free_for_all_gauntlet_keeps_the_groups_of_the_first_bot() {
        let s = Schedule::with_seats(4, 3, PairingMode::Gauntlet, 3, 0).unwrap();
        assert_eq!(s.groups(), [vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3]]);
        assert!(s.pairings().is_empty());
    }

    #[test]
    fn bad_free_for_alls_are_refused() {
        assert_eq!(
            Schedule::with_seats(3, 3, PairingMode::RoundRobin, 4, 0),
            Err(ScheduleError::GamesNotMultiple { games: 4, seats: 3 })
        );
        assert_eq!(
            Schedule::with_seats(3, 4, PairingMode::RoundRobin, 4, 0),
            Err(ScheduleError::BadSeats { seats: 4, bots: 3 })
        );
        assert_eq!(
            Schedule::with_seats(9, 9, PairingMode::RoundRobin, 9, 0),
            Err(ScheduleError::BadSeats { seats: 9, bots: 9 })
        );
        assert!(matches!(
            Schedule::with_seats(60, 8, PairingMode::RoundRobin, 8, 0),
            Err(ScheduleError::TooManyGroups { .. })
        ));
    }

    #[test]
    fn combinations_are_listed_in_order() {
        assert_eq!(combinations(4, 2).unwrap(), [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].map(|x| x.to_vec()));
        assert_eq!(combinations(5, 5).unwrap(), [vec![0, 1, 2, 3, 4]]);
        assert_eq!(combinations(8, 3).unwrap().len(), 56);
    }

    #[test]
    fn a_map_pool_gives_each_round_its_map_in_order_from_the_start() {
        let s = Schedule::new(2, PairingMode::RoundRobin, 8, 0).unwrap().with_maps(MapOrder::sequential(3, 2));
        let maps: Vec<Option<usize>> = (0..8).map(|k| s.game(k).map).collect();
        // Rounds 0..3 take maps 2, 0, 1, 2; both games of a pair share one.
        assert_eq!(maps, [2, 2, 0, 0, 1, 1, 2, 2].map(Some));
        let shuffled = MapOrder::random(10, 0, 7);
        let mut seen: Vec<usize> = (0..10).map(|r| shuffled.map_of(r)).collect();
        assert_ne!(seen, (0..10).collect::<Vec<_>>(), "shuffled");
        seen.sort();
        assert_eq!(seen, (0..10).collect::<Vec<_>>(), "every map once per pass");
        assert_eq!(MapOrder::random(10, 0, 7), shuffled, "the same seed, the same order");
        assert_eq!(MapOrder::random(10, 3, 7).map_of(0), shuffled.map_of(3));
    }
}
