//! The arithmetic of SPSA (simultaneous perturbation stochastic
//! approximation), as fishtest runs it: pure, and deterministic given the
//! tuner's seed.
//!
//! With `N` iterations planned, `A = a_ratio · N` (0.1 by default),
//! `α = 0.602` and `γ = 0.101`, each parameter `i` has
//!
//! ```text
//! c_i = c_end_i · N^γ                   c_k,i = c_i / (k + 1)^γ
//! a_i = r_end_i · c_end_i² · (A + N)^α  a_k,i = a_i / (A + k + 1)^α
//! ```
//!
//! so that at the last iteration (`k = N - 1`) the perturbation is `c_end`
//! and the learning rate `a_k / c_k²` is `r_end`. Iteration `k` draws a
//! sign `Δ_i = ±1` per parameter, plays `θ + c_k·Δ` against `θ - c_k·Δ`
//! (each clamped to `[min, max]`), and moves
//!
//! ```text
//! θ_i ← clamp(θ_i + (a_k,i / c_k,i) · R · Δ_i)
//! ```
//!
//! where `R = games · (score₊ − score₋)`: the wins less the losses of `θ+`
//! when the two play each other (fishtest's result of a batch of game
//! pairs), the same scale when each plays a fixed opponent.

use lightcycles_core::SplitMix64;
use serde::{Deserialize, Serialize};

use super::params::Param;

/// The exponent of the learning rate's decay.
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// `A` as a share of the iterations.
pub const A_RATIO: f64 = 0.1;

/// The gains' constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// `α`.
    pub alpha: f64,
    /// `γ`.
    pub gamma: f64,
    /// `A / N`.
    pub a_ratio: f64,
}

impl Default for Gains {
    fn default() -> Gains {
        Gains { alpha: ALPHA, gamma: GAMMA, a_ratio: A_RATIO }
    }
}

/// SPSA over `params` for `iterations` iterations.
#[derive(Clone, Copy, Debug)]
pub struct Spsa<'p> {
    /// The parameters.
    pub params: &'p [Param],
    /// The iterations planned, `N`.
    pub iterations: u64,
    /// The seed the signs are drawn from.
    pub seed: u64,
    /// The gains' constants.
    pub gains: Gains,
}

/// The two points iteration `k` plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    /// The sign of each parameter's perturbation, `+1` or `-1`.
    pub delta: Vec<f64>,
    /// `θ + c_k·Δ`, clamped.
    pub plus: Vec<f64>,
    /// `θ - c_k·Δ`, clamped.
    pub minus: Vec<f64>,
    /// `θ`, the current values (at which the field of a free-for-all
    /// rides: the points' midpoint unless a bound clamped one).
    pub theta: Vec<f64>,
}

impl Spsa<'_> {
    fn big_a(&self) -> f64 {
        self.gains.a_ratio * self.iterations as f64
    }

    /// `c_k` of parameter `i`.
    pub fn c(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        let n = self.iterations.max(1) as f64;
        p.c_end * n.powf(self.gains.gamma) / ((k + 1) as f64).powf(self.gains.gamma)
    }

    /// `a_k` of parameter `i`.
    pub fn a(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        let n = self.iterations.max(1) as f64;
        let a = p.r_end * p.c_end * p.c_end * (self.big_a() + n).powf(self.gains.alpha);
        a / (self.big_a() + (k + 1) as f64).powf(self.gains.alpha)
    }

    /// The signs of iteration `k`: drawn from the seed and `k` alone, so a
    /// resumed run draws what one run straight through does.
    pub fn delta(&self, k: u64) -> Vec<f64> {
        let mut rng = SplitMix64::new(self.seed ^ (k.wrapping_add(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.params.iter().map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 }).collect()
    }

    /// The two points of iteration `k` around `theta`.
    pub fn points(&self, theta: &[f64], k: u64) -> Points {
        let delta = self.delta(k);
        let shifted = |sign: f64| -> Vec<f64> {
            self.params.iter().enumerate().map(|(i, p)| p.clamp(theta[i] + sign * self.c(i, k) * delta[i])).collect()
        };
        Points { plus: shifted(1.0), minus: shifted(-1.0), delta, theta: theta.to_vec() }
    }

    /// `theta` after iteration `k`, whose signs were `delta` and whose
    /// result was `result` (`games · (score₊ − score₋)`).
    pub fn update(&self, theta: &[f64], k: u64, delta: &[f64], result: f64) -> Vec<f64> {
        self.params
            .iter()
            .enumerate()
            .map(|(i, p)| p.clamp(theta[i] + self.a(i, k) / self.c(i, k) * result * delta[i]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> Param {
        Param { name: "x".into(), start, min, max, c_end, r_end, integer: false }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end() {
        let params = [param(10.0, 0.0, 100.0, 2.0, 0.002)];
        let spsa = Spsa { params: &params, iterations: 200, seed: 1, gains: Gains::default() };
        let last = 199;
        assert!((spsa.c(0, last) - 2.0).abs() < 1e-12);
        let r = spsa.a(0, last) / (spsa.c(0, last) * spsa.c(0, last));
        assert!((r - 0.002).abs() < 1e-12, "{r}");
        // Worked by hand: c = 2·200^0.101 = 3.4153…, c_0 = c; A = 20,
        // a = 0.002·4·220^0.602 = 0.20437…, a_0 = a / 21^0.602 = 0.032656….
        assert!((spsa.c(0, 0) - 2.0 * 200f64.powf(0.101)).abs() < 1e-12);
        assert!((spsa.c(0, 0) - 3.4153).abs() < 1e-4, "{}", spsa.c(0, 0));
        assert!((spsa.a(0, 0) - 0.008 * 220f64.powf(0.602) / 21f64.powf(0.602)).abs() < 1e-12);
        // Both shrink as k grows.
        assert!(spsa.c(0, 10) < spsa.c(0, 9) && spsa.a(0, 10) < spsa.a(0, 9));
    }

    #[test]
    fn points_and_updates_stay_within_the_bounds() {
        let params = [param(0.5, 0.0, 1.0, 0.4, 10.0), param(99.0, 0.0, 100.0, 5.0, 1.0)];
        let spsa = Spsa { params: &params, iterations: 10, seed: 7, gains: Gains::default() };
        let theta = [0.9, 99.0];
        for k in 0..10 {
            let pts = spsa.points(&theta, k);
            for v in [&pts.plus, &pts.minus] {
                assert!((0.0..=1.0).contains(&v[0]) && (0.0..=100.0).contains(&v[1]), "{pts:?}");
            }
            for result in [-8.0, 8.0] {
                let next = spsa.update(&theta, k, &pts.delta, result);
                assert!((0.0..=1.0).contains(&next[0]) && (0.0..=100.0).contains(&next[1]), "{next:?}");
            }
        }
        // Near the top the plus point is clamped: θ + c·Δ over 1 is 1.
        let pts = spsa.points(&[1.0, 100.0], 0);
        assert!(pts.plus.iter().chain(&pts.minus).any(|&v| v == 1.0 || v == 100.0));
    }

    #[test]
    fn the_signs_follow_the_seed_and_the_iteration_only() {
        let params = vec![param(0.0, -1.0, 1.0, 0.1, 1.0); 16];
        let spsa = |seed| Spsa { params: &params, iterations: 50, seed, gains: Gains::default() };
        assert_eq!(spsa(3).delta(5), spsa(3).delta(5));
        assert_ne!(spsa(3).delta(5), spsa(4).delta(5));
        assert_ne!(spsa(3).delta(5), spsa(3).delta(6));
        // Both signs come up, about as often.
        let plus: usize = (0..100).map(|k| spsa(3).delta(k).iter().filter(|&&d| d > 0.0).count()).sum();
        assert!((700..900).contains(&plus), "{plus} of 1600");
        // The perturbation is symmetric: θ± = θ ± c_k·Δ.
        let pts = spsa(3).points(&[0.0; 16], 0);
        for i in 0..16 {
            assert_eq!(pts.plus[i], -pts.minus[i]);
            assert!((pts.plus[i] - spsa(3).c(i, 0) * pts.delta[i]).abs() < 1e-15);
        }
    }

    #[test]
    fn a_win_moves_theta_toward_the_plus_point() {
        let params = [param(10.0, 0.0, 20.0, 1.0, 0.1)];
        let spsa = Spsa { params: &params, iterations: 10, seed: 0, gains: Gains::default() };
        let pts = spsa.points(&[10.0], 0);
        let won = spsa.update(&[10.0], 0, &pts.delta, 4.0)[0];
        let lost = spsa.update(&[10.0], 0, &pts.delta, -4.0)[0];
        let even = spsa.update(&[10.0], 0, &pts.delta, 0.0)[0];
        assert_eq!(even, 10.0);
        assert_eq!((won - 10.0).signum(), pts.delta[0]);
        assert!((won - 10.0 + (lost - 10.0)).abs() < 1e-12);
        assert!(((won - 10.0).abs() - spsa.a(0, 0) / spsa.c(0, 0) * 4.0).abs() < 1e-12);
    }
}
