//! Leagues that keep running (`tournament --league`), as psyleague runs
//! them: no schedule fixed in advance; each game set (one seed and map,
//! every bot of a group once in each seat) goes to the group whose
//! ratings are least certain, new bots can join a running league, and a
//! league can be stopped and resumed at any time.
//!
//! The choice is deterministic, so a league killed and resumed plays the
//! games one run straight through would have:
//!
//! - set `m` is played with seed `(SEED + m) mod 2^64`, map `m` of the
//!   pool, games `N·m … N·m + N - 1`, seat `s` of rotation `j` holding
//!   bot `group[(s + j) mod N]`;
//! - its group is chosen once the sets `0 … m - LAG` are counted (all of
//!   them, in game order: never a set still in flight), so `LAG` sets can
//!   be played at once (`--league-lag`, recorded in the header);
//! - the group is the one of highest `Σ σ²` of its bots' ratings divided by
//!   `1 +` the sets chosen for it so far (ties: the first in colex order,
//!   the order in which groups of new bots come after the old ones).
//!
//! Groups are numbered in colex order (sorted by their last bot, then the
//! one before…), which adding bots only extends: a group keeps its number.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Condvar, Mutex};

use lightcycles_core::rng::game_seed;

use super::results::GameResult;
use super::schedule::{combinations, MapOrder, ScheduledGame, MAX_GROUPS};
use super::standings::Standings;

/// The colex number of a sorted group: `Σ C(g_i, i + 1)`.
pub fn colex_rank(group: &[usize]) -> usize {
    group.iter().enumerate().map(|(i, &g)| binomial(g, i + 1)).sum()
}

fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k as u128 {
        r = r * (n as u128 - i) / (i + 1);
    }
    usize::try_from(r).unwrap_or(usize::MAX)
}

/// The sets chosen so far, shared with the workers that play them.
#[derive(Debug)]
pub struct Shared {
    seats: usize,
    base_seed: u64,
    maps: Option<MapOrder>,
    table: Mutex<Table>,
    ready: Condvar,
}

#[derive(Debug, Default)]
struct Table {
    /// By set: its group's colex number and its bots.
    sets: Vec<Option<(usize, Vec<usize>)>>,
    closed: bool,
}

impl Shared {
    /// Nothing chosen yet.
    pub fn new(seats: usize, base_seed: u64, maps: Option<MapOrder>) -> Shared {
        Shared { seats, base_seed, maps, table: Mutex::new(Table::default()), ready: Condvar::new() }
    }

    /// Game `game`, once its set is chosen: waits for the choice; `None`
    /// once the league is closed.
    pub fn game(&self, game: u64) -> Option<ScheduledGame> {
        let set = game / self.seats as u64;
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(Some((index, group))) = table.sets.get(set as usize) {
                return Some(self.scheduled(game, *index, group));
            }
            if table.closed {
                return None;
            }
            table = self.ready.wait(table).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Game `game` if its set is chosen, without waiting.
    pub fn game_now(&self, game: u64) -> Option<ScheduledGame> {
        let set = game / self.seats as u64;
        let table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        match table.sets.get(set as usize) {
            Some(Some((index, group))) => Some(self.scheduled(game, *index, group)),
            _ => None,
        }
    }

    /// Game `game` of set `game / N`, whose group is `group` (number `index`).
    pub fn scheduled(&self, game: u64, index: usize, group: &[usize]) -> ScheduledGame {
        let n = self.seats;
        let set = game / n as u64;
        let j = (game % n as u64) as usize;
        ScheduledGame {
            game,
            round: set,
            pairing: index,
            seed: game_seed(self.base_seed, set),
            seats: (0..n).map(|s| group[(s + j) % n]).collect(),
            map: self.maps.as_ref().map(|m| m.map_of(set)),
        }
    }

    fn choose(&self, set: u64, index: usize, group: Vec<usize>) {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let set = set as usize;
        if table.sets.len() <= set {
            table.sets.resize(set + 1, None);
        }
        table.sets[set] = Some((index, group));
        self.ready.notify_all();
    }

    /// No more games: every waiting worker gives up.
    pub fn close(&self) {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        self.ready.notify_all();
    }
}

/// A league set's group as a results file shows it, or why it cannot be.
pub fn group_of_line(seats: &[usize], game: u64) -> Result<Vec<usize>, String> {
    let n = seats.len();
    let j = (game % n as u64) as usize;
    // Seat s holds group[(s + j) mod n]: group[i] sits in seat (i - j) mod n.
    let group: Vec<usize> = (0..n).map(|i| seats[(i + n - j) % n]).collect();
    if group.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("seats {seats:?} are not a rotation by {j} of a league group (bots in rising order)"));
    }
    Ok(group)
}

/// Chooses the sets of a league, in order, from the standings counted in
/// game order.
#[derive(Debug)]
pub struct Planner {
    seats: usize,
    lag: u64,
    bots: usize,
    /// Sets chosen for each group so far, by colex number.
    chosen: HashMap<usize, u64>,
    /// Sets whose group the results file already says.
    known: BTreeMap<u64, Vec<usize>>,
    /// Sets chosen (or known) so far: sets `0 … planned - 1`.
    planned: u64,
    waiting: BTreeMap<u64, GameResult>,
    next: u64,
}

impl Planner {
    /// A league of `bots` bots in games of `seats`, `lag` sets at once;
    /// `known` are the groups of the sets the results file holds.
    pub fn new(bots: usize, seats: usize, lag: u64, known: BTreeMap<u64, Vec<usize>>) -> Result<Planner, String> {
        if bots < seats {
            return Err(format!("a league in games of {seats} takes {seats} bots or more, but {bots} were given"));
        }
        if combinations(bots, seats).is_none() {
            return Err(format!("{bots} bots in games of {seats} make more than {MAX_GROUPS} groups"));
        }
        Ok(Planner {
            seats,
            lag: lag.max(1),
            bots,
            chosen: HashMap::new(),
            known,
            planned: 0,
            waiting: BTreeMap::new(),
            next: 0,
        })
    }

    /// Chooses the first sets (before any game is counted).
    pub fn start(&mut self, standings: &Standings, shared: &Shared) {
        self.plan_until(self.lag, standings, shared);
    }

    /// Takes a finished game; counts it once the games before it are, and
    /// chooses the next set at each set counted whole.
    pub fn add(&mut self, result: GameResult, standings: &mut Standings, shared: &Shared) {
        self.waiting.insert(result.game, result);
        while let Some(r) = self.waiting.remove(&self.next) {
            standings.add(r);
            self.next += 1;
            if self.next % self.seats as u64 == 0 {
                let counted_sets = self.next / self.seats as u64;
                self.plan_until(counted_sets + self.lag, standings, shared);
            }
        }
    }

    /// Every game still waiting behind a gap (the league stopped first).
    pub fn finish(&mut self, standings: &mut Standings) {
        for (_, r) in std::mem::take(&mut self.waiting) {
            standings.add(r);
        }
    }

    fn plan_until(&mut self, sets: u64, standings: &Standings, shared: &Shared) {
        while self.planned < sets {
            let set = self.planned;
            let group = match self.known.remove(&set) {
                Some(group) => group,
                None => self.best(standings),
            };
            let index = colex_rank(&group);
            *self.chosen.entry(index).or_insert(0) += 1;
            shared.choose(set, index, group);
            self.planned += 1;
        }
    }

    /// The group whose ratings are least certain, for the next set.
    fn best(&self, standings: &Standings) -> Vec<usize> {
        let groups = combinations(self.bots, self.seats).expect("checked when the planner was made");
        let mut best: Option<(f64, usize, Vec<usize>)> = None;
        for group in groups {
            let variance: f64 = group.iter().map(|&b| standings.bots()[b].rating.sigma.powi(2)).sum();
            let index = colex_rank(&group);
            let score = variance / (1 + self.chosen.get(&index).copied().unwrap_or(0)) as f64;
            let better = match &best {
                None => true,
                Some((s, i, _)) => score > *s || (score == *s && index < *i),
            };
            if better {
                best = Some((score, index, group));
            }
        }
        best.expect("a league has a group").2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_numbers_keep_their_place_when_bots_join() {
        let mut three: Vec<Vec<usize>> = combinations(3, 2).unwrap();
        three.sort_by_key(|g| colex_rank(g));
        assert_eq!(three, [[0, 1], [0, 2], [1, 2]].map(|g| g.to_vec()));
        let mut four: Vec<Vec<usize>> = combinations(4, 2).unwrap();
        four.sort_by_key(|g| colex_rank(g));
        assert_eq!(&four[..3], &three[..], "the groups of the old bots come first, as they were");
        let ranks: Vec<usize> = four.iter().map(|g| colex_rank(g)).collect();
        assert_eq!(ranks, (0..6).collect::<Vec<_>>());
        assert_eq!(colex_rank(&[0, 1, 2]), 0);
        assert_eq!(colex_rank(&[1, 2, 3]), 3);
    }

    #[test]
    fn a_league_line_gives_back_its_group() {
        assert_eq!(group_of_line(&[0, 3], 4).unwrap(), [0, 3]);
        assert_eq!(group_of_line(&[3, 0], 5).unwrap(), [0, 3]);
        assert_eq!(group_of_line(&[2, 5, 1], 7).unwrap(), [1, 2, 5]);
        assert!(group_of_line(&[3, 0], 4).is_err());
    }

    #[test]
    fn the_least_certain_group_is_chosen_and_a_new_bot_is_sought_out() {
        let shared = Shared::new(2, 0, None);
        let mut standings = Standings::league(3, 2);
        let mut planner = Planner::new(3, 2, 1, BTreeMap::new()).unwrap();
        planner.start(&standings, &shared);
        // All unrated: the first group in colex order.
        assert_eq!(shared.game_now(0).unwrap().seats, [0, 1]);
        assert_eq!(shared.game_now(1).unwrap().seats, [1, 0]);
        assert!(shared.game_now(2).is_none(), "set 1 waits for set 0");
        let result = |g: &ScheduledGame, winner: usize| GameResult {
            game: g.game,
            pairing: g.pairing,
            seats: g.seats.clone(),
            winner: Some(winner),
            placements: (0..2).map(|s| if s == winner { 1 } else { 2 }).collect(),
            faults: vec![Default::default(); 2],
            metrics: None,
        };
        let g0 = shared.game_now(0).unwrap();
        let g1 = shared.game_now(1).unwrap();
        planner.add(result(&g1, 0), &mut standings, &shared);
        assert!(shared.game_now(2).is_none(), "game 1 waits for game 0");
        planner.add(result(&g0, 0), &mut standings, &shared);
        // Bots 0 and 1 are surer now; bot 2 is not: (0, 2) ties (1, 2) on
        // variance only if 0 and 1 are equally sure, which one game each
        // of a won-and-lost pair makes them; the first in colex order wins.
        let next = shared.game_now(2).unwrap();
        assert!(next.seats.contains(&2), "the unrated bot plays next: {:?}", next.seats);
        assert_eq!(next.seed, game_seed(0, 1));
    }
}
