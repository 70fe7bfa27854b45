//! The standings of a tournament: games are counted in the order of their
//! index, whatever order they finish or are read back in, so the report of
//! a run depends on the set of finished games alone: the same for `-j 1`
//! and `-j 8`, and for a run killed and resumed as for one run straight
//! through. Only the games waiting for an earlier one are kept, as a few
//! bytes each; nothing else grows with the number of games.

use std::collections::BTreeMap;

use skillratings::weng_lin::{weng_lin, weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

use super::results::{Faults, GameResult};
use super::schedule::Schedule;
use super::shard::Shard;
use crate::stats::{FieldSets, GameScore, Hypothesis, Pentanomial, Sprt, Trinomial};

/// One pairing's games, from its first bot's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairingStats {
    /// Its bots `(a, b)`.
    pub bots: (usize, usize),
    /// Games from `a`'s side.
    pub games: Trinomial,
    /// Complete game pairs from `a`'s side.
    pub pairs: Pentanomial,
    /// The first game of a pair whose second is not counted yet.
    open_pair: Option<(u64, GameScore)>,
}

/// One bot's games over all its pairings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    /// Its games from its side.
    pub games: Trinomial,
    /// Its faults, summed.
    pub faults: Faults,
    /// Its Weng-Lin rating, updated game by game in index order.
    pub rating: Rating,
    /// The sum of its placements (1 is first), for the mean place.
    pub place_sum: u64,
    /// Its games by the seat it rode, from its side.
    pub by_seat: Vec<Trinomial>,
    /// The metrics it reported, over all its games (summed in game order).
    pub metrics: crate::metric::Summaries,
}

/// A Weng-Lin (OpenSkill) rating: skill `mu` with uncertainty `sigma`, on
/// the model's scale (a new bot is 25 ± 8.33).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    /// The skill estimate.
    pub mu: f64,
    /// Its standard deviation.
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = WengLinRating::new();
        Rating { mu: r.rating, sigma: r.uncertainty }
    }
}

impl Rating {
    /// The conservative rating `mu - 3·sigma`: what the bot is almost
    /// surely better than (as psyleague and TrueSkill leaderboards rank).
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    fn model(&self) -> WengLinRating {
        WengLinRating { rating: self.mu, uncertainty: self.sigma }
    }

    fn of(r: &WengLinRating) -> Rating {
        Rating { mu: r.rating, sigma: r.uncertainty }
    }
}

/// Where an SPRT stopped.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SprtDecision {
    /// The hypothesis accepted.
    pub accepted: Hypothesis,
    /// The LLR that crossed the bound.
    pub llr: f64,
    /// Game sets counted when it crossed: game pairs with two seats, sets
    /// of `N` games (a seed in every rotation) with `--ffa N`.
    pub pairs: u64,
}

/// The SPRT of a tournament: of two bots, checked after each game pair; of
/// `N` bots in `N`-seat games, the first against the others (the field),
/// checked after each game set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// Its parameters.
    pub sprt: Sprt,
    /// Its first crossing of a bound, in pair order.
    pub decision: Option<SprtDecision>,
}

/// Whether an SPRT can judge a tournament of `bots` bots in games of
/// `seats` seats: two bots in two-seat games, or `N` bots in `N`-seat games
/// (one group: the first bot against the others, the field). A league is
/// never judged: its pairings are chosen as it goes.
pub fn sprt_fits(bots: usize, seats: usize, league: bool) -> Result<(), String> {
    if league {
        Err("--sprt does not judge a league, whose games are chosen as it goes".to_string())
    } else if seats == 2 && bots != 2 {
        Err(format!("--sprt compares two bots, but {bots} were given"))
    } else if seats > 2 && bots != seats {
        Err(format!(
            "--sprt with --ffa {seats} tests the first bot against the other {} (the field, in every seat in \
             turn), so it takes {seats} bots, but {bots} were given",
            seats - 1
        ))
    } else {
        Ok(())
    }
}

/// Counts games in index order and keeps every statistic of the report.
#[derive(Clone, Debug)]
pub struct Standings {
    seats: usize,
    pairings: Vec<PairingStats>,
    bots: Vec<BotStats>,
    sprt: Option<SprtState>,
    /// The first bot's game sets against the field, for an SPRT of a
    /// free-for-all.
    field: FieldSets,
    /// The game set being counted for `field`: its index, games counted
    /// and the half points taken so far.
    open_set: Option<(u64, usize, usize)>,
    /// `cross[i][j]`: bot `i`'s games against bot `j`, by who placed ahead.
    cross: Vec<Vec<Trinomial>>,
    /// The next index to count.
    next: u64,
    /// The distance from one game counted to the next: 1, or `N` for the
    /// games of shard `I/N` (which counts `I`, `I + N`, …).
    stride: u64,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<u64, GameResult>,
    counted: u64,
}

impl Standings {
    /// No games yet. `sprt` is checked on pairing 0.
    pub fn new(schedule: &Schedule, bots: usize, sprt: Option<Sprt>) -> Standings {
        Standings {
            pairings: schedule
                .pairings()
                .iter()
                .map(|&pair| PairingStats { bots: pair, ..PairingStats::default() })
                .collect(),
            bots: vec![BotStats::default(); bots],
            sprt: sprt.map(|sprt| SprtState { sprt, decision: None }),
            field: FieldSets::default(),
            open_set: None,
            cross: vec![vec![Trinomial::default(); bots]; bots],
            seats: schedule.seats(),
            next: 0,
            stride: 1,
            waiting: BTreeMap::new(),
            counted: 0,
        }
    }

    /// No games yet, of a league of `bots` bots in games of `seats`: its
    /// pairings are those its games turn out to have.
    pub fn league(bots: usize, seats: usize) -> Standings {
        Standings {
            pairings: Vec::new(),
            bots: vec![BotStats::default(); bots],
            sprt: None,
            field: FieldSets::default(),
            open_set: None,
            cross: vec![vec![Trinomial::default(); bots]; bots],
            seats,
            next: 0,
            stride: 1,
            waiting: BTreeMap::new(),
            counted: 0,
        }
    }

    /// Adds bots (a league that grows); they start unrated.
    pub fn add_bots(&mut self, bots: usize) {
        if bots > self.bots.len() {
            self.bots.resize(bots, BotStats::default());
            for row in &mut self.cross {
                row.resize(bots, Trinomial::default());
            }
            self.cross.resize(bots, vec![Trinomial::default(); bots]);
        }
    }

    /// The index of the next game to count: every game before it is counted.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// The standings of one shard's games: games of other shards are not
    /// waited for.
    pub fn of_shard(mut self, shard: Shard) -> Standings {
        self.next = shard.index();
        self.stride = shard.count();
        self
    }

    /// Takes a finished game; it is counted once every game before it has
    /// been, or is known never to come ([`Standings::finish`]).
    pub fn add(&mut self, game: GameResult) {
        self.waiting.insert(game.game, game);
        while let Some(game) = self.waiting.remove(&self.next) {
            self.count(&game);
            self.next += self.stride;
        }
    }

    /// Counts the games still waiting behind a gap (games that were never
    /// played: the tournament stopped first), in index order.
    pub fn finish(&mut self) {
        for (_, game) in std::mem::take(&mut self.waiting) {
            self.count(&game);
            self.next = game.game + self.stride;
        }
    }

    /// Whether a game is taken but not counted yet.
    pub fn is_waiting(&self, game: u64) -> bool {
        self.waiting.contains_key(&game)
    }

    /// Games counted.
    pub fn counted(&self) -> u64 {
        self.counted
    }

    fn count(&mut self, game: &GameResult) {
        self.counted += 1;
        for (seat, bot) in game.seats.iter().enumerate() {
            let f = &mut self.bots[*bot].faults;
            let g = game.faults.get(seat).copied().unwrap_or_default();
            f.invalid = f.invalid.saturating_add(g.invalid);
            f.timeout = f.timeout.saturating_add(g.timeout);
            f.crash = f.crash.saturating_add(g.crash);
            self.bots[*bot].place_sum += game.placements.get(seat).copied().unwrap_or(1) as u64;
            if let Some(reported) = game.metrics.as_ref().and_then(|m| m.get(seat)) {
                let mine = &mut self.bots[*bot].metrics;
                for (name, summary) in reported {
                    mine.entry(name.clone()).and_modify(|s| s.merge(summary)).or_insert(*summary);
                }
            }
            let place = |s: usize| game.placements.get(s).copied().unwrap_or(1);
            // As the games are scored: a win is winning, a draw sharing first place.
            let score = match game.winner {
                Some(w) if w == seat => GameScore::Win,
                None if place(seat) == 1 => GameScore::Draw,
                _ => GameScore::Loss,
            };
            let by_seat = &mut self.bots[*bot].by_seat;
            if by_seat.len() <= seat {
                by_seat.resize(seat + 1, Trinomial::default());
            }
            by_seat[seat].add(score);
            for (other_seat, other) in game.seats.iter().enumerate() {
                if other_seat != seat && *bot < self.cross.len() && *other < self.cross.len() {
                    self.cross[*bot][*other].add(match place(seat).cmp(&place(other_seat)) {
                        std::cmp::Ordering::Less => GameScore::Win,
                        std::cmp::Ordering::Equal => GameScore::Draw,
                        std::cmp::Ordering::Greater => GameScore::Loss,
                    });
                }
            }
        }
        if self.seats > 2 {
            self.count_free_for_all(game);
            return;
        }
        // A pairing's first bot is the lower index of its two, for a round
        // robin, a gauntlet and a league alike.
        let (a, b) = (game.seats[0].min(game.seats[1]), game.seats[0].max(game.seats[1]));
        let index = game.pairing;
        if self.pairings.len() <= index {
            self.pairings.resize(index + 1, PairingStats::default());
        }
        self.pairings[index].bots = (a, b);
        let pair = game.game / 2;
        let seat_of_a = if game.seats[0] == a { 0 } else { 1 };
        let score_a = match game.winner {
            None => GameScore::Draw,
            Some(seat) if seat == seat_of_a => GameScore::Win,
            Some(_) => GameScore::Loss,
        };
        let pairing = &mut self.pairings[index];
        pairing.games.add(score_a);
        match pairing.open_pair.take() {
            Some((open, first)) if open == pair => {
                pairing.pairs.add(first, score_a);
                self.check_sprt(index);
            }
            // A pair whose other game was never played counts as games only.
            _ => pairing.open_pair = Some((pair, score_a)),
        }
        self.bots[a].games.add(score_a);
        self.bots[b].games.add(score_a.flipped());
        let outcome = match score_a {
            GameScore::Win => Outcomes::WIN,
            GameScore::Draw => Outcomes::DRAW,
            GameScore::Loss => Outcomes::LOSS,
        };
        let (ra, rb) =
            weng_lin(&self.bots[a].rating.model(), &self.bots[b].rating.model(), &outcome, &WengLinConfig::new());
        self.bots[a].rating = Rating::of(&ra);
        self.bots[b].rating = Rating::of(&rb);
    }

    /// A game of three seats or more: each bot a team of one, ranked by its
    /// placement (tied players share a rank), through Weng-Lin's
    /// Bradley-Terry model over every pair of players.
    fn count_free_for_all(&mut self, game: &GameResult) {
        for (seat, &bot) in game.seats.iter().enumerate() {
            let place = game.placements.get(seat).copied().unwrap_or(1);
            let score = match game.winner {
                Some(w) if w == seat => GameScore::Win,
                None if place == 1 => GameScore::Draw,
                _ => GameScore::Loss,
            };
            self.bots[bot].games.add(score);
        }
        let teams: Vec<[WengLinRating; 1]> = game.seats.iter().map(|&b| [self.bots[b].rating.model()]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .enumerate()
            .map(|(seat, team)| {
                let place = game.placements.get(seat).copied().unwrap_or(1) as usize;
                (&team[..], MultiTeamOutcome::new(place))
            })
            .collect();
        let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
        for (seat, &bot) in game.seats.iter().enumerate() {
            self.bots[bot].rating = Rating::of(&new[seat][0]);
        }
        if self.sprt.is_some() {
            self.count_field_set(game);
        }
    }

    /// A game of the SPRT of a free-for-all: the first bot's half points
    /// against each other rider (2 placed ahead, 1 tied), added to its game
    /// set's. A set counts once all its games have; a set with a game
    /// never played counts as games only, as a pair does.
    fn count_field_set(&mut self, game: &GameResult) {
        let Some(me) = game.seats.iter().position(|&bot| bot == 0) else { return };
        let place = |s: usize| game.placements.get(s).copied().unwrap_or(1);
        let points: usize = (0..game.seats.len())
            .filter(|&s| s != me)
            .map(|s| match place(me).cmp(&place(s)) {
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 0,
            })
            .sum();
        let set = game.game / self.seats as u64;
        let (games, total) = match self.open_set.take() {
            Some((open, games, total)) if open == set => (games + 1, total + points),
            _ => (1, points),
        };
        if games == self.seats {
            self.field.add(self.seats, total);
            self.check_sprt(0);
        } else {
            self.open_set = Some((set, games, total));
        }
    }

    fn check_sprt(&mut self, pairing: usize) {
        let (Some(llr), sets) = (self.llr(), self.sprt_sets()) else { return };
        let Some(state) = &mut self.sprt else { return };
        if pairing != 0 || state.decision.is_some() {
            return;
        }
        if let Some(accepted) = state.sprt.verdict(llr) {
            state.decision = Some(SprtDecision { accepted, llr, pairs: sets });
        }
    }

    /// The pairings' statistics, in schedule order.
    pub fn pairings(&self) -> &[PairingStats] {
        &self.pairings
    }

    /// Each bot's statistics, in the order the bots were given.
    pub fn bots(&self) -> &[BotStats] {
        &self.bots
    }

    /// `crosstable()[i][j]`: bot `i`'s games against bot `j`, by who
    /// placed ahead (for two seats, the pairing's games).
    pub fn crosstable(&self) -> &[Vec<Trinomial>] {
        &self.cross
    }

    /// The SPRT, when one runs.
    pub fn sprt(&self) -> Option<&SprtState> {
        self.sprt.as_ref()
    }

    /// The LLR of the SPRT on the game pairs (or sets) counted so far.
    pub fn llr(&self) -> Option<f64> {
        let state = self.sprt.as_ref()?;
        Some(match self.field() {
            Some(sets) => state.sprt.llr_of_sets(sets),
            None => state.sprt.llr(&self.pairings.first()?.pairs),
        })
    }

    /// The game sets the SPRT has counted: pairs with two seats, sets of
    /// `N` games with `N` seats.
    pub fn sprt_sets(&self) -> u64 {
        match self.field() {
            Some(sets) => sets.sets(),
            None => self.pairings.first().map_or(0, |p| p.pairs.pairs()),
        }
    }

    /// The first bot's game sets against the field, when an SPRT of a
    /// free-for-all runs.
    pub fn field(&self) -> Option<&FieldSets> {
        (self.sprt.is_some() && self.seats > 2).then_some(&self.field)
    }

    /// Whether the SPRT has crossed a bound: no more games need starting.
    pub fn decided(&self) -> bool {
        self.sprt.is_some_and(|s| s.decision.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::PairingMode;

    /// A result of game `k` of `schedule` won by bot `winner` (None: a draw).
    fn result(schedule: &Schedule, k: u64, winner: Option<usize>) -> GameResult {
        let g = schedule.game(k);
        let seats = g.seats;
        let winner = winner.map(|bot| seats.iter().position(|&b| b == bot).unwrap());
        GameResult {
            game: k,
            pairing: g.pairing,
            placements: (0..2).map(|s| if winner.is_none() || winner == Some(s) { 1 } else { 2 }).collect(),
            seats,
            winner,
            faults: vec![Faults { timeout: 1, ..Faults::default() }, Faults::default()],
            metrics: None,
        }
    }

    #[test]
    fn games_are_counted_from_the_first_bots_side_and_pairs_make_a_pentanomial() {
        let s = Schedule::new(2, PairingMode::RoundRobin, 8, 0).unwrap();
        let mut st = Standings::new(&s, 2, None);
        // Pairs: WW, WL, LD, DD (from bot 0's side).
        let winners = [Some(0), Some(0), Some(0), Some(1), Some(1), None, None, None];
        for (k, w) in winners.iter().enumerate() {
            st.add(result(&s, k as u64, *w));
        }
        let p = &st.pairings()[0];
        assert_eq!(p.games, Trinomial { wins: 3, draws: 3, losses: 2 });
        assert_eq!(p.pairs.counts, [0, 1, 2, 0, 1]);
        assert_eq!(st.bots()[1].games, Trinomial { wins: 2, draws: 3, losses: 3 });
        // Timeouts are charged to whoever sat in seat 0.
        assert_eq!(st.bots()[0].faults.timeout + st.bots()[1].faults.timeout, 8);
        assert_eq!(st.bots()[0].faults.timeout, 4);
        // Every game moves both ratings and makes them surer.
        let fresh = Rating::default();
        for bot in st.bots() {
            assert_ne!(bot.rating.mu, fresh.mu);
            assert!(bot.rating.sigma < fresh.sigma);
        }
    }

    #[test]
    fn the_order_games_arrive_in_does_not_matter() {
        let s = Schedule::new(3, PairingMode::RoundRobin, 6, 5).unwrap();
        // Seat 0 wins, seat 1 wins or a draw, in a mixed pattern.
        let results: Vec<GameResult> = (0..s.total_games())
            .map(|k| {
                let seats = s.game(k).seats;
                let winner = [Some(seats[0]), Some(seats[1]), None][(k * 7 % 3) as usize];
                result(&s, k, winner)
            })
            .collect();
        let mut in_order = Standings::new(&s, 3, None);
        results.iter().for_each(|r| in_order.add(r.clone()));
        let mut shuffled = Standings::new(&s, 3, None);
        for k in [3, 1, 0, 2, 17, 5, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 15] {
            shuffled.add(results[k].clone());
        }
        assert_eq!(in_order.counted(), 18);
        assert_eq!(shuffled.counted(), 18);
        assert_eq!(in_order.pairings(), shuffled.pairings());
        assert_eq!(in_order.bots(), shuffled.bots(), "ratings too are fed in index order");
    }

    #[test]
    fn games_behind_a_gap_wait_and_are_counted_at_the_finish() {
        let s = Schedule::new(2, PairingMode::RoundRobin, 8, 0).unwrap();
        let mut st = Standings::new(&s, 2, None);
        st.add(result(&s, 0, Some(0)));
        st.add(result(&s, 2, Some(0)));
        st.add(result(&s, 3, Some(0)));
        assert_eq!(st.counted(), 1);
        assert!(st.is_waiting(2));
        st.finish();
        assert_eq!(st.counted(), 3);
        assert_eq!(st.pairings()[0].games.wins, 3);
        // Game 1 never came: pair 0 is not a pair, pair 1 is.
        assert_eq!(st.pairings()[0].pairs.counts, [0, 0, 0, 0, 1]);
    }

    #[test]
    fn the_sprt_decides_at_the_first_crossing_in_pair_order() {
        let s = Schedule::new(2, PairingMode::RoundRobin, 400, 0).unwrap();
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let mut st = Standings::new(&s, 2, Some(sprt));
        let mut k = 0;
        while !st.decided() {
            st.add(result(&s, k, Some(0)));
            k += 1;
        }
        let d = st.sprt().unwrap().decision.unwrap();
        assert_eq!(d.accepted, Hypothesis::H1);
        assert_eq!(k, 2 * d.pairs, "decided on the second game of a pair");
        assert!(d.llr >= sprt.upper_bound());
        // Recomputing from the counts at the decision gives the same LLR.
        let mut at = Pentanomial::default();
        at.counts[4] = d.pairs;
        assert_eq!(sprt.llr(&at), d.llr);
        // Later games are still counted, the decision stays.
        st.add(result(&s, k, Some(1)));
        st.add(result(&s, k + 1, Some(1)));
        assert_eq!(st.sprt().unwrap().decision, Some(d));
        assert_eq!(st.pairings()[0].pairs.pairs(), d.pairs + 1);
    }

    /// Game `k` of a free-for-all `schedule`, the bots placed in the order
    /// `order` gives (first the winner; all first on a draw).
    fn ffa_result(schedule: &Schedule, k: u64, order: &[usize], draw: bool) -> GameResult {
        let g = schedule.game(k);
        let place_of = |bot: usize| if draw { 1 } else { order.iter().position(|&b| b == bot).unwrap() as u32 + 1 };
        let placements: Vec<u32> = g.seats.iter().map(|&bot| place_of(bot)).collect();
        GameResult {
            game: k,
            pairing: g.pairing,
            winner: (!draw).then(|| g.seats.iter().position(|&b| b == order[0]).unwrap()),
            placements,
            faults: vec![Faults::default(); g.seats.len()],
            seats: g.seats,
            metrics: None,
        }
    }

    #[test]
    fn a_free_for_all_sprt_counts_the_first_bots_sets_against_the_field() {
        let s = Schedule::with_seats(4, 4, PairingMode::RoundRobin, 400, 0).unwrap();
        let sprt: Sprt = "0,20,0.05,0.1".parse().unwrap();
        let mut st = Standings::new(&s, 4, Some(sprt));
        // Set 0: bot 0 first, then second, then last, then a draw of all:
        // 6 + 4 + 0 + 3 half points of 24.
        st.add(ffa_result(&s, 0, &[0, 1, 2, 3], false));
        st.add(ffa_result(&s, 1, &[1, 0, 2, 3], false));
        assert_eq!(st.sprt_sets(), 0, "a set counts once all its games have");
        st.add(ffa_result(&s, 2, &[1, 2, 3, 0], false));
        st.add(ffa_result(&s, 3, &[], true));
        let field = st.field().unwrap();
        assert_eq!((field.seats, field.sets(), field.counts[13]), (4, 1, 1));
        assert_eq!(st.llr(), Some(sprt.llr_of_sets(field)));
        // Bot 0 wins every game from now on: H1 at the first set whose LLR
        // crosses the bound, every game of it counted.
        let mut k = 4;
        while !st.decided() {
            st.add(ffa_result(&s, k, &[0, 1, 2, 3], false));
            k += 1;
        }
        let d = st.sprt().unwrap().decision.unwrap();
        assert_eq!(d.accepted, Hypothesis::H1);
        assert_eq!(k, 4 * d.pairs, "decided on the last game of a set");
        let mut at = FieldSets::default();
        at.add(4, 13);
        (1..d.pairs).for_each(|_| at.add(4, 24));
        assert_eq!(sprt.llr_of_sets(&at), d.llr);
        assert_eq!(st.sprt_sets(), d.pairs);
        // Without an SPRT no field is kept.
        assert!(Standings::new(&s, 4, None).field().is_none());
    }

    #[test]
    fn a_set_with_a_game_never_played_counts_as_games_only() {
        let s = Schedule::with_seats(3, 3, PairingMode::RoundRobin, 30, 0).unwrap();
        let mut st = Standings::new(&s, 3, Some("0,20,0.05,0.1".parse().unwrap()));
        for k in [0, 1, 3, 4, 5] {
            st.add(ffa_result(&s, k, &[0, 1, 2], false));
        }
        st.finish();
        assert_eq!(st.counted(), 5);
        let field = st.field().unwrap();
        assert_eq!((field.sets(), field.counts[12]), (1, 1), "set 0 lacks game 2; set 1 is whole");
    }

    /// Weng-Lin's update for players who all start at the default rating
    /// (mu 25, sigma 25/3, beta 25/6), worked from the paper's formulas
    /// (Bradley-Terry, full pairing) by hand: with every `p = 1/2`,
    /// `c² = 2β² + 2σ²`, `mu' = mu + σ²/c · Σ (s - 1/2)` over the
    /// opponents, and `σ' = σ·√(1 - Σ γ·σ²/c²·p(1-p))` with `γ = σ/c`.
    fn fresh_update(players: usize, place: usize) -> (f64, f64) {
        let (mu, sigma, beta): (f64, f64, f64) = (25.0, 25.0 / 3.0, 25.0 / 6.0);
        let c = (2.0 * beta * beta + 2.0 * sigma * sigma).sqrt();
        // Opponents placed behind score 1, ahead of it 0 (no ties here).
        let behind = (players - place) as f64;
        let ahead = (place - 1) as f64;
        let new_mu = mu + sigma * sigma / c * (behind * 0.5 - ahead * 0.5);
        let delta = (players - 1) as f64 * (sigma / c) * (sigma * sigma / (c * c)) * 0.25;
        (new_mu, sigma * (1.0 - delta).sqrt())
    }

    #[test]
    fn a_free_for_all_game_moves_the_ratings_by_the_worked_values() {
        let s = Schedule::with_seats(4, 4, PairingMode::RoundRobin, 4, 0).unwrap();
        let mut st = Standings::new(&s, 4, None);
        // Game 0: seats hold bots 0, 1, 2, 3; seat 2 wins, then 0, 3, 1.
        let placements = vec![2, 4, 1, 3];
        st.add(GameResult {
            game: 0,
            pairing: 0,
            seats: vec![0, 1, 2, 3],
            winner: Some(2),
            placements: placements.clone(),
            faults: vec![Faults::default(); 4],
            metrics: None,
        });
        // By hand: c = √(2·(25/6)² + 2·(25/3)²) = 13.1762…, σ²/c = 5.2705…
        let c = (2.0f64 * (25.0 / 6.0f64).powi(2) + 2.0 * (25.0 / 3.0f64).powi(2)).sqrt();
        assert!((c - 13.176156917368248).abs() < 1e-12);
        for (bot, &place) in placements.iter().enumerate() {
            let (mu, sigma) = fresh_update(4, place as usize);
            let r = st.bots()[bot].rating;
            assert!((r.mu - mu).abs() < 1e-9, "bot {bot}: mu {} against {mu}", r.mu);
            assert!((r.sigma - sigma).abs() < 1e-9, "bot {bot}: sigma {} against {sigma}", r.sigma);
        }
        // The winner gains 1.5·σ²/c = 7.9058…; the last loses as much.
        assert!((st.bots()[2].rating.mu - 32.90569415042095).abs() < 1e-9);
        assert!((st.bots()[1].rating.mu - 17.09430584957905).abs() < 1e-9);
        assert_eq!(st.bots()[2].games, Trinomial { wins: 1, draws: 0, losses: 0 });
        assert_eq!(st.bots()[1].place_sum, 4);
        assert!(st.pairings().is_empty(), "no pairings in a free-for-all");
        let r = st.bots()[2].rating;
        assert!((r.conservative() - (r.mu - 3.0 * r.sigma)).abs() < 1e-12);
    }

    #[test]
    fn tied_places_share_a_rank() {
        let s = Schedule::with_seats(3, 3, PairingMode::RoundRobin, 3, 0).unwrap();
        let mut st = Standings::new(&s, 3, None);
        // Two share first place (a draw at the tick cap), one is out.
        st.add(GameResult {
            game: 0,
            pairing: 0,
            seats: vec![0, 1, 2],
            winner: None,
            placements: vec![1, 1, 3],
            faults: vec![Faults::default(); 3],
            metrics: None,
        });
        let (mu, sigma, beta): (f64, f64, f64) = (25.0, 25.0 / 3.0, 25.0 / 6.0);
        let c = (2.0 * beta * beta + 2.0 * sigma * sigma).sqrt();
        // Each of the tied two: a draw (1/2 - 1/2 = 0) and a win (+1/2).
        let tied = mu + sigma * sigma / c * 0.5;
        assert!((st.bots()[0].rating.mu - tied).abs() < 1e-9);
        assert!((st.bots()[1].rating.mu - tied).abs() < 1e-9);
        assert!((st.bots()[2].rating.mu - (mu - sigma * sigma / c)).abs() < 1e-9);
        assert_eq!(st.bots()[0].games, Trinomial { wins: 0, draws: 1, losses: 0 });
        assert_eq!(st.bots()[2].games, Trinomial { wins: 0, draws: 0, losses: 1 });
    }
}
