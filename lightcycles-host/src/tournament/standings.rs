//! The standings of a tournament: games are counted in the order of their
//! index, whatever order they finish or are read back in, so the report of
//! a run depends on the set of finished games alone: the same for `-j 1`
//! and `-j 8`, and for a run killed and resumed as for one run straight
//! through. Only the games waiting for an earlier one are kept, as a few
//! bytes each; nothing else grows with the number of games.

use std::collections::BTreeMap;

use skillratings::weng_lin::{weng_lin, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

use super::results::{Faults, GameResult};
use super::schedule::Schedule;
use super::shard::Shard;
use crate::stats::{GameScore, Hypothesis, Pentanomial, Sprt, Trinomial};

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

/// Where an SPRT stopped.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SprtDecision {
    /// The hypothesis accepted.
    pub accepted: Hypothesis,
    /// The LLR that crossed the bound.
    pub llr: f64,
    /// Game pairs counted when it crossed.
    pub pairs: u64,
}

/// The SPRT of a two-bot tournament, checked after each game pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// Its parameters.
    pub sprt: Sprt,
    /// Its first crossing of a bound, in pair order.
    pub decision: Option<SprtDecision>,
}

/// Counts games in index order and keeps every statistic of the report.
#[derive(Clone, Debug)]
pub struct Standings {
    schedule: Schedule,
    pairings: Vec<PairingStats>,
    bots: Vec<BotStats>,
    sprt: Option<SprtState>,
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
            schedule: schedule.clone(),
            next: 0,
            stride: 1,
            waiting: BTreeMap::new(),
            counted: 0,
        }
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
        let scheduled = self.schedule.game(game.game);
        let (a, b) = self.pairings[scheduled.pairing].bots;
        let seat_of_a = if game.seats[0] == a { 0 } else { 1 };
        let score_a = match game.winner {
            None => GameScore::Draw,
            Some(seat) if seat == seat_of_a => GameScore::Win,
            Some(_) => GameScore::Loss,
        };
        let pairing = &mut self.pairings[scheduled.pairing];
        pairing.games.add(score_a);
        match pairing.open_pair.take() {
            Some((pair, first)) if pair == scheduled.pair() => {
                pairing.pairs.add(first, score_a);
                self.check_sprt(scheduled.pairing);
            }
            // A pair whose other game was never played counts as games only.
            _ => pairing.open_pair = Some((scheduled.pair(), score_a)),
        }
        self.bots[a].games.add(score_a);
        self.bots[b].games.add(score_a.flipped());
        for (seat, bot) in game.seats.iter().enumerate() {
            let f = &mut self.bots[*bot].faults;
            f.invalid = f.invalid.saturating_add(game.faults[seat].invalid);
            f.timeout = f.timeout.saturating_add(game.faults[seat].timeout);
            f.crash = f.crash.saturating_add(game.faults[seat].crash);
        }
        let outcome = match score_a {
            GameScore::Win => Outcomes::WIN,
            GameScore::Draw => Outcomes::DRAW,
            GameScore::Loss => Outcomes::LOSS,
        };
        let rating = |r: Rating| WengLinRating { rating: r.mu, uncertainty: r.sigma };
        let (ra, rb) =
            weng_lin(&rating(self.bots[a].rating), &rating(self.bots[b].rating), &outcome, &WengLinConfig::new());
        self.bots[a].rating = Rating { mu: ra.rating, sigma: ra.uncertainty };
        self.bots[b].rating = Rating { mu: rb.rating, sigma: rb.uncertainty };
    }

    fn check_sprt(&mut self, pairing: usize) {
        let Some(state) = &mut self.sprt else { return };
        if pairing != 0 || state.decision.is_some() {
            return;
        }
        let pairs = &self.pairings[0].pairs;
        let llr = state.sprt.llr(pairs);
        if let Some(accepted) = state.sprt.verdict(llr) {
            state.decision = Some(SprtDecision { accepted, llr, pairs: pairs.pairs() });
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

    /// The SPRT, when one runs.
    pub fn sprt(&self) -> Option<&SprtState> {
        self.sprt.as_ref()
    }

    /// The LLR of the SPRT on the pairs counted so far.
    pub fn llr(&self) -> Option<f64> {
        self.sprt.as_ref().map(|s| s.sprt.llr(&self.pairings[0].pairs))
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
        let seats = schedule.game(k).seats;
        GameResult {
            game: k,
            seats,
            winner: winner.map(|bot| seats.iter().position(|&b| b == bot).unwrap()),
            faults: [Faults { timeout: 1, ..Faults::default() }, Faults::default()],
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
        results.iter().for_each(|r| in_order.add(*r));
        let mut shuffled = Standings::new(&s, 3, None);
        for k in [3, 1, 0, 2, 17, 5, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 15] {
            shuffled.add(results[k]);
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
}
