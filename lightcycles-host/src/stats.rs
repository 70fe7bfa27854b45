//! The statistics of a match between two bots, as chess engine testers
//! compute them (cutechess-cli, fastchess, fishtest), for "is bot A better
//! than bot B, and by how much?".
//!
//! Everything is seen from bot A: a game is a win (1 point), a draw (½) or
//! a loss (0).
//!
//! **Score and Elo.** With `W`, `D`, `L` games won, drawn and lost and
//! `N = W + D + L`, the score is `s = (W + D/2) / N` and the Elo difference
//! of the logistic model is `elo(s) = -400 · log10(1/s - 1)` (infinite at
//! `s = 0` or `1`).
//!
//! **95 % interval, trinomial.** The per-game variance of the score is
//! `σ² = (W·(1-s)² + D·(½-s)² + L·(0-s)²) / N`, the standard error of `s` is
//! `σ/√N`, and the interval is `[elo(s - z·σ/√N), elo(s + z·σ/√N)]` with
//! `z = Φ⁻¹(0.975) ≈ 1.959964`; its half-width `(hi - lo)/2` is the `±`
//! shown, as cutechess-cli shows it.
//!
//! **LOS**, the likelihood of superiority (that A is truly the stronger):
//! `LOS = Φ((W - L) / √(W + L)) = ½ · (1 + erf((W - L) / √(2(W + L))))`,
//! draws do not count.
//!
//! **Pentanomial.** Each seed is played twice with the seats swapped (a
//! game pair), and a pair scores 0, ½, 1, 1½ or 2 points for A: its
//! counts are `LL`, `LD`, `DD` or `WL`, `WD`, `WW`. The pair score per game
//! `x ∈ {0, ¼, ½, ¾, 1}` has mean `μ = Σ pᵢ·xᵢ` and variance
//! `σ² = Σ pᵢ·(xᵢ - μ)²` over the `P` pairs (`pᵢ = nᵢ/P`), and the Elo and
//! its interval are `elo(μ)` and `[elo(μ - z·σ/√P), elo(μ + z·σ/√P)]`. The
//! two games of a pair share a map, so a pair's games are not independent;
//! the pentanomial variance counts that, and is the one to trust.
//!
//! **SPRT** (sequential probability ratio test) of `H0: elo = elo0`
//! against `H1: elo = elo1` (logistic Elo), on the pentanomial counts, with
//! the generalized-SPRT approximation of Michel Van den Bergh ("GSPRT
//! approximation", used by fishtest as `LLR_alt2`):
//! `LLR = (P/2) · ln(Σ pᵢ·(xᵢ - s0)² / Σ pᵢ·(xᵢ - s1)²)` with
//! `sk = 1 / (1 + 10^(-elok/400))`, where `pᵢ` and `P` are taken from the
//! counts with half a pair added to each of the five (a Jeffreys-like
//! prior; fishtest instead replaces zero counts by 0.001). The prior
//! matters here: a built-in bot's randomness follows its seat, so two
//! versions of one bot often play a game pair as exact mirror images
//! (`DD`/`WL`), and from a few such pairs alone the approximation sees
//! almost no variance and stops at once. In simulations of a bot 10 Elo
//! stronger whose pairs mirror 94% of the time, SPRT(0, 10, 0.05, 0.05)
//! with the 0.001 rule accepted H1 in only 25% of runs; with the prior it
//! does in 98%, and equal bots are still accepted as H1 in at most 5.5%.
//! The test stops with H1 when `LLR ≥ ln((1-β)/α)` and with H0 when
//! `LLR ≤ ln(β/(1-α))`.
//!
//! **A free-for-all against the field** ([`FieldSets`]): with `N` seats
//! the sample is a game set, a seed in every rotation of the seats, scored
//! `x = k / (2·N·(N-1))` from the `k` half points the first bot took (2 for
//! each rider it placed ahead of, 1 for each tie); the SPRT's LLR is the
//! same approximation over the sets' scores, with the same prior (half a
//! set at each of 0, ¼, ½, ¾ and 1).
//!
//! **Normalized Elo** (`model=normalized`, as fastchess defines it): the
//! bounds are in normalized Elo, `nelo = (μ - ½) / √(2σ²) · 800/ln 10` for
//! the pair scores above (σ² their variance), so that a bound is a number of
//! standard deviations of the score rather than a score: `sk = ½ + nelok ·
//! √(2σ²) / (800/ln 10)`, with `σ²` from the counts (with the prior), and the
//! same LLR formula. Logistic stays the default: here two versions of one
//! bot often play mirrored pairs, whose variance is near 0, so normalized
//! bounds shrink with it to scores indistinguishable from ½, and a
//! logistic bound keeps meaning the same strength whatever the draw rate
//! (and every `--sprt` given before keeps its meaning).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::erf::erf;

/// One game from bot A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// A lost.
    Loss,
    /// Nobody won.
    Draw,
    /// A won.
    Win,
}

impl GameScore {
    /// Half points: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// The same game from the other bot's side.
    pub fn flipped(self) -> GameScore {
        match self {
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
            GameScore::Win => GameScore::Loss,
        }
    }
}

/// `z = Φ⁻¹(0.975)`: a two-sided 95 % interval is `± z` standard errors.
pub fn z95() -> f64 {
    Normal::new(0.0, 1.0).expect("the standard normal").inverse_cdf(0.975)
}

/// `Φ(x)`, the standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The logistic Elo difference of a score: `-400 · log10(1/s - 1)`,
/// `±∞` at or beyond 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The estimate.
    #[serde(serialize_with = "finite_or_null")]
    pub elo: f64,
    /// The interval's lower end.
    #[serde(serialize_with = "finite_or_null")]
    pub lower: f64,
    /// The interval's upper end.
    #[serde(serialize_with = "finite_or_null")]
    pub upper: f64,
}

fn finite_or_null<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else {
        s.serialize_none()
    }
}

impl EloEstimate {
    /// The estimate from a mean score and its standard error.
    fn from_mean(mean: f64, std_error: f64) -> EloEstimate {
        let dev = z95() * std_error;
        EloEstimate { elo: elo_of_score(mean), lower: elo_of_score(mean - dev), upper: elo_of_score(mean + dev) }
    }

    /// The `±` shown: half the interval's width (cutechess-cli's "error
    /// margin"); infinite when an end is.
    pub fn margin(&self) -> f64 {
        if self.upper.is_finite() && self.lower.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

impl fmt::Display for EloEstimate {
    /// `+12.3 ± 4.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ± {}", signed(self.elo), unsigned(self.margin()))
    }
}

/// `+12.3`, `-4.0`, `+inf`.
pub fn signed(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // -0.0 would show as "-0.0".
        format!("{:+.1}", if x == 0.0 { 0.0 } else { x })
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

/// Wins, draws and losses of bot A against bot B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trinomial {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl Trinomial {
    /// Counts one game.
    pub fn add(&mut self, game: GameScore) {
        match game {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// The same games from B's side.
    pub fn flipped(&self) -> Trinomial {
        Trinomial { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// `N = W + D + L`.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// `s = (W + D/2) / N`; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The share of draws, `D / N`.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// The per-game variance of the score, `σ²`.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s) / n)
    }

    /// The Elo difference and its 95 % interval.
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let std_error = (self.variance()? / self.games() as f64).sqrt();
        Some(EloEstimate::from_mean(s, std_error))
    }

    /// The likelihood of superiority; `None` when every game was drawn.
    pub fn los(&self) -> Option<f64> {
        let decisive = self.wins + self.losses;
        (decisive > 0).then(|| phi((self.wins as f64 - self.losses as f64) / (decisive as f64).sqrt()))
    }
}

/// `800 / ln 10`: normalized Elo per unit of `(μ - ½) / √(2σ²)`.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Pseudo-pairs added to each pentanomial count before the SPRT's LLR.
pub const PRIOR_PAIRS: f64 = 0.5;

/// The pair scores per game of the pentanomial outcomes, in count order.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game pairs of bot A against bot B by the points A took from the pair:
/// `counts[k]` pairs scored `k/2` points (`LL`, `LD`, `DD`+`WL`, `WD`, `WW`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Pairs by half points, 0 to 4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair of games.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// The same pairs from B's side.
    pub fn flipped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// The number of pairs `P`.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    fn mean_and_variance(counts: &[f64; 5]) -> (f64, f64) {
        mean_and_variance(counts.iter().copied().zip(PAIR_SCORES))
    }

    fn as_f64(&self) -> [f64; 5] {
        self.counts.map(|n| n as f64)
    }

    /// The mean score per game, `μ`.
    pub fn score(&self) -> Option<f64> {
        (self.pairs() > 0).then(|| Self::mean_and_variance(&self.as_f64()).0)
    }

    /// The Elo difference and its 95 % interval from the pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        let pairs = self.pairs();
        (pairs > 0).then(|| {
            let (mean, variance) = Self::mean_and_variance(&self.as_f64());
            EloEstimate::from_mean(mean, (variance / pairs as f64).sqrt())
        })
    }
}

/// The most half points one game set of a free-for-all holds: 8 games
/// (8 seats), 7 rivals in each, 2 half points against each.
pub const MAX_SET_POINTS: usize = 2 * 8 * 7;

/// Game sets of a free-for-all from one bot's side, for an SPRT of that bot
/// against the field: a set is one seed played once in every rotation of
/// the `N` seats, and in each of its games the bot takes 2 half points from
/// each other rider it places ahead of and 1 from each it ties with, of
/// `2·N·(N-1)` in all. Its score `x`, the share of those points, is the
/// bot's score against one rival by who places ahead: ½ for a copy of the
/// field, whose Elo against the field is 0. The SPRT treats the sets as it
/// treats game pairs (the games of a set share a seed and a map, so the set
/// is the sample).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSets {
    /// Seats in a game, `N` (0 before any set).
    pub seats: usize,
    /// `counts[k]`: sets in which the bot took `k` half points.
    pub counts: [u64; MAX_SET_POINTS + 1],
}

impl Default for FieldSets {
    fn default() -> FieldSets {
        FieldSets { seats: 0, counts: [0; MAX_SET_POINTS + 1] }
    }
}

impl FieldSets {
    /// Counts one set of games of `seats` seats (3 to 8) in which the bot
    /// took `half_points` (more than `2·seats·(seats-1)`, from a results
    /// file that says so, counts as all of them).
    pub fn add(&mut self, seats: usize, half_points: usize) {
        debug_assert!((3..=8).contains(&seats), "{seats} seats");
        debug_assert!(self.seats == 0 || self.seats == seats, "one number of seats");
        self.seats = seats;
        self.counts[half_points.min(2 * seats * seats.saturating_sub(1)).min(MAX_SET_POINTS)] += 1;
    }

    /// The number of sets.
    pub fn sets(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Each score that occurred with the number of sets that scored it.
    fn samples(&self) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
        let most = (2 * self.seats * self.seats.saturating_sub(1)).max(1) as f64;
        self.counts.iter().enumerate().filter(|(_, n)| **n > 0).map(move |(k, n)| (*n as f64, k as f64 / most))
    }

    /// The mean score per set, `μ`.
    pub fn score(&self) -> Option<f64> {
        (self.sets() > 0).then(|| mean_and_variance(self.samples()).0)
    }

    /// The Elo difference against the field and its 95 % interval, from the sets.
    pub fn elo(&self) -> Option<EloEstimate> {
        let sets = self.sets();
        (sets > 0).then(|| {
            let (mean, variance) = mean_and_variance(self.samples());
            EloEstimate::from_mean(mean, (variance / sets as f64).sqrt())
        })
    }
}

/// The mean and variance of weighted samples `(weight, x)`.
fn mean_and_variance(samples: impl Iterator<Item = (f64, f64)> + Clone) -> (f64, f64) {
    let total: f64 = samples.clone().map(|(n, _)| n).sum();
    let mean = samples.clone().map(|(n, x)| n * x).sum::<f64>() / total;
    let variance = samples.map(|(n, x)| n * (x - mean).powi(2)).sum::<f64>() / total;
    (mean, variance)
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Hypothesis {
    /// `elo = elo0`: A is not better by `elo1`.
    H0,
    /// `elo = elo1`: A is better.
    H1,
}

/// The Elo scale the SPRT's `elo0` and `elo1` are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Logistic Elo, `score = 1 / (1 + 10^(-elo/400))`.
    #[default]
    Logistic,
    /// Normalized Elo (fastchess's `model=normalized`): the score's
    /// distance from ½ in units of its standard deviation.
    Normalized,
}

impl SprtModel {
    /// `logistic` or `normalized`, as `model=` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
        }
    }
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: SprtModel,
}

/// An `--sprt` value that is no test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--sprt {value:?}: {problem}; expected ELO0,ELO1,ALPHA,BETA[,model=logistic|normalized] with ELO0 < ELO1 and ALPHA, BETA between 0 and 1, for example 0,5,0.05,0.05")]
pub struct SprtParseError {
    /// The value given.
    pub value: String,
    /// What is wrong with it.
    pub problem: String,
}

impl FromStr for Sprt {
    type Err = SprtParseError;

    fn from_str(value: &str) -> Result<Sprt, SprtParseError> {
        let fail = |problem: String| SprtParseError { value: value.to_string(), problem };
        let mut parts: Vec<&str> = value.split(',').map(str::trim).collect();
        let mut model = SprtModel::Logistic;
        if let Some(last) = parts.last().and_then(|p| p.strip_prefix("model=")) {
            model = match last {
                "logistic" => SprtModel::Logistic,
                "normalized" => SprtModel::Normalized,
                other => return Err(fail(format!("model {other:?} is not logistic or normalized"))),
            };
            parts.pop();
        }
        if parts.len() != 4 {
            return Err(fail(format!("{} numbers given, 4 needed", parts.len())));
        }
        let mut numbers = [0.0; 4];
        for (i, (part, name)) in parts.iter().zip(["ELO0", "ELO1", "ALPHA", "BETA"]).enumerate() {
            numbers[i] = part
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| fail(format!("{name} {part:?} is not a number")))?;
        }
        let [elo0, elo1, alpha, beta] = numbers;
        if elo0 >= elo1 {
            return Err(fail(format!("ELO0 {elo0} is not below ELO1 {elo1}")));
        }
        for (name, p) in [("ALPHA", alpha), ("BETA", beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(fail(format!("{name} {p} is not between 0 and 1")));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(fail(format!("ALPHA + BETA is {}, it must be below 1", alpha + beta)));
        }
        Ok(Sprt { elo0, elo1, alpha, beta, model })
    }
}

impl Sprt {
    /// `ln(β / (1-α))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1-β) / α)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 given the pairs so far
    /// (0 before any pair).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        self.llr_of_counts(pairs.counts.map(|n| n as f64 + PRIOR_PAIRS))
    }

    /// The log-likelihood ratio of H1 against H0 given the game sets of a
    /// free-for-all so far, from the bot's side against the field (0
    /// before any set). The same prior as for pairs: half a set at each of
    /// the scores 0, ¼, ½, ¾ and 1.
    pub fn llr_of_sets(&self, sets: &FieldSets) -> f64 {
        if sets.sets() == 0 {
            return 0.0;
        }
        let prior = PAIR_SCORES.iter().map(|x| (PRIOR_PAIRS, *x));
        self.llr_of_samples(sets.samples().chain(prior))
    }

    /// The LLR of (prior-added) pair counts: the scores of H0 and H1 on the
    /// model's scale, then the GSPRT approximation.
    fn llr_of_counts(&self, counts: [f64; 5]) -> f64 {
        self.llr_of_samples(counts.into_iter().zip(PAIR_SCORES))
    }

    /// The GSPRT approximation over weighted samples `(weight, x)` of the
    /// score per game: `(n/2) · ln(Σ w·(x - s0)² / Σ w·(x - s1)²)`, with
    /// `s0` and `s1` the scores of H0 and H1 on the model's scale.
    fn llr_of_samples(&self, samples: impl Iterator<Item = (f64, f64)> + Clone) -> f64 {
        let total: f64 = samples.clone().map(|(n, _)| n).sum();
        let (s0, s1) = match self.model {
            SprtModel::Logistic => (score_of_elo(self.elo0), score_of_elo(self.elo1)),
            SprtModel::Normalized => {
                let (_, variance) = mean_and_variance(samples.clone());
                let per_nelo = (2.0 * variance).sqrt() / NELO_SCALE;
                (0.5 + self.elo0 * per_nelo, 0.5 + self.elo1 * per_nelo)
            }
        };
        let spread = |s: f64| samples.clone().map(|(n, x)| n / total * (x - s).powi(2)).sum::<f64>();
        total / 2.0 * (spread(s0) / spread(s1)).ln()
    }

    /// `model`, as the reports name it.
    pub fn model_text(&self) -> &'static str {
        match self.model {
            SprtModel::Logistic => "pentanomial, logistic Elo, GSPRT approximation",
            SprtModel::Normalized => "pentanomial, normalized Elo, GSPRT approximation",
        }
    }

    /// `model` for an SPRT of a free-for-all's game sets against the field.
    pub fn field_model_text(&self) -> &'static str {
        match self.model {
            SprtModel::Logistic => "game sets against the field, logistic Elo, GSPRT approximation",
            SprtModel::Normalized => "game sets against the field, normalized Elo, GSPRT approximation",
        }
    }

    /// The hypothesis an LLR accepts, if it crosses a bound.
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        if llr >= self.upper_bound() {
            Some(Hypothesis::H1)
        } else if llr <= self.lower_bound() {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    /// `elo0 0, elo1 5, alpha 0.05, beta 0.05` (and `, normalized Elo`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elo0 {}, elo1 {}, alpha {}, beta {}", self.elo0, self.elo1, self.alpha, self.beta)?;
        if self.model == SprtModel::Normalized {
            write!(f, ", normalized Elo")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked values, computed independently (Python's `math` and
    /// `statistics.NormalDist`, double precision) from the formulas above.
    fn close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} is not {expected}");
    }

    #[test]
    fn the_normal_quantile_and_distribution() {
        close(z95(), 1.9599639845400536);
        close(phi(0.0), 0.5);
        close(phi(1.9599639845400536), 0.975);
        close(phi(-1.0), 0.15865525393145707);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        close(elo_of_score(0.75), 190.848501887865);
        close(elo_of_score(0.5), 0.0);
        close(score_of_elo(190.848501887865), 0.75);
        close(score_of_elo(-100.0), 0.35993500019711494);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_of_score(-0.1), f64::NEG_INFINITY);
    }

    #[test]
    fn sixty_wins_thirty_draws_ten_losses() {
        let t = Trinomial { wins: 60, draws: 30, losses: 10 };
        assert_eq!(t.games(), 100);
        close(t.score().unwrap(), 0.75);
        close(t.draw_ratio().unwrap(), 0.3);
        close(t.variance().unwrap(), 0.1125);
        let e = t.elo().unwrap();
        close(e.elo, 190.848501887865);
        close(e.lower, 134.35727022740497);
        close(e.upper, 258.44734117044135);
        close(e.margin(), 62.04503547151819);
        close(t.los().unwrap(), 0.9999999988575881);
        assert_eq!(e.to_string(), "+190.8 ± 62.0");
        // B's side: the mirror image.
        let b = t.flipped().elo().unwrap();
        close(b.elo, -e.elo);
        close(b.lower, -e.upper);
        close(t.flipped().los().unwrap(), 1.0 - 0.9999999988575881);
    }

    #[test]
    fn an_even_match_and_the_empty_one() {
        let t = Trinomial { wins: 20, draws: 10, losses: 20 };
        close(t.elo().unwrap().elo, 0.0);
        assert_eq!(t.elo().unwrap().to_string(), format!("+0.0 ± {:.1}", t.elo().unwrap().margin()));
        assert_eq!(signed(-0.0), "+0.0");
        assert_eq!(signed(-0.04), "-0.0", "a true rounding keeps its sign");
        close(t.los().unwrap(), 0.5);
        assert_eq!(Trinomial::default().score(), None);
        assert_eq!(Trinomial::default().elo(), None);
        assert_eq!(Trinomial { draws: 5, ..Trinomial::default() }.los(), None);
        let all_won = Trinomial { wins: 7, ..Trinomial::default() }.elo().unwrap();
        assert_eq!((all_won.elo, all_won.lower, all_won.upper), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
        assert_eq!(all_won.to_string(), "+inf ± inf");
    }

    #[test]
    fn a_pentanomial_set() {
        // LL 3, LD 7, DD+WL 40, WD 30, WW 20: 100 pairs.
        let p = Pentanomial { counts: [3, 7, 40, 30, 20] };
        assert_eq!(p.pairs(), 100);
        close(p.score().unwrap(), 0.6425);
        let e = p.elo().unwrap();
        close(e.elo, 101.83883434649307);
        close(e.lower, 66.3660619953896);
        close(e.upper, 139.51215907913485);
        assert_eq!(p.flipped().counts, [20, 30, 40, 7, 3]);
        close(p.flipped().elo().unwrap().elo, -101.83883434649307);
        let mut built = Pentanomial::default();
        use GameScore::*;
        built.add(Loss, Loss);
        built.add(Loss, Draw);
        built.add(Draw, Loss);
        built.add(Win, Loss);
        built.add(Draw, Draw);
        built.add(Win, Draw);
        built.add(Win, Win);
        assert_eq!(built.counts, [1, 2, 2, 1, 1]);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt: Sprt = "0,5,0.05,0.05".parse().unwrap();
        assert_eq!(sprt, Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: SprtModel::Logistic });
        close(sprt.lower_bound(), -2.9444389791664403);
        close(sprt.upper_bound(), 2.9444389791664403);
        let p = Pentanomial { counts: [3, 7, 40, 30, 20] };
        close(sprt.llr(&p), 1.237185594347016);
        assert_eq!(sprt.verdict(sprt.llr(&p)), None);
        // Ten times the pairs, about ten times the evidence.
        let more = Pentanomial { counts: [30, 70, 400, 300, 200] };
        close(sprt.llr(&more), 12.533444937602724);
        assert_eq!(sprt.verdict(sprt.llr(&more)), Some(Hypothesis::H1));
        close(sprt.llr(&p.flipped()), -1.271413497184094);
        let even = Pentanomial { counts: [10, 20, 40, 20, 10] };
        close(sprt.llr(&even), -0.034797794416899334);
        assert_eq!(sprt.verdict(sprt.llr(&even)), None);
        // Half a pair is added to every count.
        let all_won = Pentanomial { counts: [0, 0, 0, 0, 12] };
        close(sprt.llr(&all_won), 0.18979245516304655);
        let thousand = Pentanomial { counts: [0, 0, 0, 0, 1000] };
        close(sprt.llr(&thousand), 14.512269764845566);
        // Six mirrored pairs say next to nothing.
        let mirrored = Pentanomial { counts: [0, 0, 6, 0, 0] };
        close("0,10,0.05,0.05".parse::<Sprt>().unwrap().llr(&mirrored), -0.023861059583993628);
        let wide: Sprt = "-10,10,0.1,0.2".parse().unwrap();
        close(wide.lower_bound(), (0.2f64 / 0.9).ln());
        close(wide.upper_bound(), (0.8f64 / 0.1).ln());
        close(wide.llr(&even), 0.0);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.verdict(-3.0), Some(Hypothesis::H0));
    }

    #[test]
    fn field_sets_score_elo_and_llr() {
        // Four seats: 24 half points a set. By hand (Python, the formulas
        // above): 3 sets at 24, 4 at 18, 5 at 12 and 2 at 6 have
        // μ = 0.6428571428571429 and σ² = 0.059948979591836746.
        let mut sets = FieldSets::default();
        assert_eq!((sets.sets(), sets.score(), sets.elo()), (0, None, None));
        for (points, n) in [(24, 3), (18, 4), (12, 5), (6, 2)] {
            for _ in 0..n {
                sets.add(4, points);
            }
        }
        assert_eq!((sets.seats, sets.sets()), (4, 14));
        close(sets.score().unwrap(), 0.6428571428571429);
        let elo = sets.elo().unwrap();
        close(elo.elo, 102.1090020413225);
        close(elo.lower, 10.149357488871583);
        close(elo.upper, 210.99810904920102);
        let sprt: Sprt = "0,20,0.05,0.1".parse().unwrap();
        close(sprt.llr_of_sets(&sets), 0.6032664637028216);
        // Ten times the sets.
        let mut more = FieldSets { seats: 4, ..FieldSets::default() };
        for (k, n) in sets.counts.iter().enumerate() {
            more.counts[k] = 10 * n;
        }
        close(sprt.llr_of_sets(&more), 6.66282974301339);
        assert_eq!(sprt.verdict(sprt.llr_of_sets(&more)), Some(Hypothesis::H1));
        // Eight seats, ten sets scoring exactly even (56 of 112), and none.
        let mut even = FieldSets::default();
        (0..10).for_each(|_| even.add(8, 56));
        close(sprt.llr_of_sets(&even), -0.20330591969410058);
        assert_eq!(sprt.llr_of_sets(&FieldSets::default()), 0.0);
        // A set is the pentanomial's pair when it holds two games of two
        // riders: the same prior, the same approximation.
        let p = Pentanomial { counts: [3, 7, 40, 30, 20] };
        let as_samples = p.counts.map(|n| n as f64 + PRIOR_PAIRS).into_iter().zip(PAIR_SCORES);
        close(sprt.llr(&p), sprt.llr_of_samples(as_samples));
    }

    #[test]
    fn normalized_elo_sprt() {
        let sprt: Sprt = "0,5,0.05,0.05,model=normalized".parse().unwrap();
        assert_eq!(sprt.model, SprtModel::Normalized);
        assert_eq!(sprt.to_string(), "elo0 0, elo1 5, alpha 0.05, beta 0.05, normalized Elo");
        assert_eq!("0,5,0.05,0.05,model=logistic".parse::<Sprt>().unwrap(), "0,5,0.05,0.05".parse().unwrap());
        // The bounds do not depend on the model.
        close(sprt.lower_bound(), -2.9444389791664403);
        close(sprt.upper_bound(), 2.9444389791664403);
        // By hand, without the prior (fastchess's formula on counts with no
        // zero): LL 3, LD 7, DD 40, WD 30, WW 20 over 100 pairs have
        // μ = 0.6425 and σ² = Σ pᵢ(xᵢ - μ)² = 0.06031875, so
        // s1 = ½ + 5 · √(2 · 0.06031875) / (800 / ln 10) = 0.5049984674733504,
        // s0 = ½, and LLR = 50 · ln(Σ pᵢ(xᵢ - ½)² / Σ pᵢ(xᵢ - s1)²), where
        // Σ pᵢ(xᵢ - ½)² = (3·¼ + 7·1/16 + 30·1/16 + 20·¼) / 100 = 0.080625.
        let counts = [3.0, 7.0, 40.0, 30.0, 20.0];
        let (mean, variance) = Pentanomial::mean_and_variance(&counts);
        close(mean, 0.6425);
        close(variance, 0.06031875);
        let s1 = 0.5 + 5.0 * (2.0 * variance).sqrt() / NELO_SCALE;
        close(s1, 0.5049984674733504);
        let spread = |s: f64| counts.iter().zip(PAIR_SCORES).map(|(n, x)| n / 100.0 * (x - s).powi(2)).sum::<f64>();
        close(spread(0.5), 0.080625);
        close(sprt.llr_of_counts(counts), 50.0 * (spread(0.5) / spread(s1)).ln());
        close(sprt.llr_of_counts(counts), 0.8755774964766089);
        // With half a pair added to every count, as the test runs it.
        let p = Pentanomial { counts: [3, 7, 40, 30, 20] };
        close(sprt.llr(&p), 0.8777817607506825);
        close(sprt.llr(&Pentanomial { counts: [30, 70, 400, 300, 200] }), 8.758277700631611);
        close(sprt.llr(&p.flipped()), -0.8948628004537267);
        close(sprt.llr(&Pentanomial { counts: [10, 20, 40, 20, 10] }), -0.021223907699004962);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        // The logistic LLR of the same pairs differs: the models are not one.
        assert!((sprt.llr(&p) - "0,5,0.05,0.05".parse::<Sprt>().unwrap().llr(&p)).abs() > 0.3);
    }

    /// Runs an SPRT on pairs drawn from `p` (weights of LL … WW, out of
    /// their sum) until it decides or `cap` pairs are played.
    fn simulate(sprt: &Sprt, p: [u64; 5], cap: u64, rng: &mut lightcycles_core::SplitMix64) -> Option<Hypothesis> {
        let mut pairs = Pentanomial::default();
        for _ in 0..cap {
            let mut draw = rng.below(p.iter().sum());
            let k = p
                .iter()
                .position(|&pk| {
                    if draw < pk {
                        true
                    } else {
                        draw -= pk;
                        false
                    }
                })
                .unwrap();
            pairs.counts[k] += 1;
            if let Some(h) = sprt.verdict(sprt.llr(&pairs)) {
                return Some(h);
            }
        }
        None
    }

    #[test]
    fn the_sprt_keeps_its_error_rates_on_simulated_pairs() {
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let mut rng = lightcycles_core::SplitMix64::new(2024);
        // Equal bots (mean score 0.5): H1 is a false positive, wanted in 5% of runs.
        let equal = [50, 200, 500, 200, 50];
        let false_positives =
            (0..400).filter(|_| simulate(&sprt, equal, 5000, &mut rng) == Some(Hypothesis::H1)).count();
        assert!(false_positives <= 32, "{false_positives} of 400 runs accepted H1 between equals");
        // A bot 10 Elo stronger (mean score 0.515): H0 is a miss, wanted in 5% of runs.
        let stronger = [40, 190, 500, 210, 60];
        let found = (0..400).filter(|_| simulate(&sprt, stronger, 5000, &mut rng) == Some(Hypothesis::H1)).count();
        assert!(found >= 360, "only {found} of 400 runs accepted H1 for a stronger bot");
        // Versions of one bot whose pairs mostly mirror each other (DD/WL),
        // equal and 10 Elo apart (probabilities in ten-thousandths).
        let mirror_equal = [0, 300, 9400, 300, 0];
        let mirror_stronger = [0, 12, 9400, 588, 0];
        let simulate_10k = |p: [u64; 5], rng: &mut lightcycles_core::SplitMix64| simulate(&sprt, p, 20_000, rng);
        let false_positives = (0..400).filter(|_| simulate_10k(mirror_equal, &mut rng) == Some(Hypothesis::H1)).count();
        assert!(false_positives <= 32, "{false_positives} of 400 runs accepted H1 between mirrored equals");
        let found = (0..400).filter(|_| simulate_10k(mirror_stronger, &mut rng) == Some(Hypothesis::H1)).count();
        assert!(found >= 360, "only {found} of 400 runs accepted H1 for a stronger mirrored bot");
    }

    #[test]
    fn bad_sprt_values_say_what_is_wrong() {
        let err = |s: &str| s.parse::<Sprt>().unwrap_err().problem;
        assert_eq!(err("0,5,0.05"), "3 numbers given, 4 needed");
        assert_eq!(err("0,x,0.05,0.05"), "ELO1 \"x\" is not a number");
        assert_eq!(err("5,5,0.05,0.05"), "ELO0 5 is not below ELO1 5");
        assert_eq!(err("0,5,0,0.05"), "ALPHA 0 is not between 0 and 1");
        assert_eq!(err("0,5,0.05,1"), "BETA 1 is not between 0 and 1");
        assert_eq!(err("0,5,0.6,0.5"), "ALPHA + BETA is 1.1, it must be below 1");
        assert_eq!(err("0,5,nan,0.05"), "ALPHA \"nan\" is not a number");
        assert_eq!(err("0,5,0.05,0.05,model=bayesian"), "model \"bayesian\" is not logistic or normalized");
        assert_eq!(err("0,5,0.05,model=normalized"), "3 numbers given, 4 needed");
        assert_eq!(err("0,5,0.05,0.05,0.1"), "5 numbers given, 4 needed");
        assert!("0, 5, 0.05, 0.05".parse::<Sprt>().is_ok(), "spaces after commas are fine");
        let full = "1,0,0.05,0.05".parse::<Sprt>().unwrap_err().to_string();
        assert!(full.starts_with("--sprt \"1,0,0.05,0.05\": ELO0 1 is not below ELO1 0; expected"), "{full}");
    }
}
