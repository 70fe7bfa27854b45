//! `lightcycles tune`: SPSA over a bot's parameters, the games played by
//! the tournament library (docs/tuning.md).
//!
//! - [`params`]: the parameters, `NAME=START,MIN,MAX,C_END,R_END`.
//! - [`spsa`]: the arithmetic, pure and seeded.
//! - [`state`]: the state file, written whole after every iteration and
//!   read back to resume.
//! - [`games`]: the bot a set of values makes (spec options, `{NAME}` in
//!   the spec, `LIGHTCYCLES_PARAM_<NAME>` in a process's environment), and
//!   each iteration's games as a tournament.
//!
//! The driver, [`State::step`] and [`run`], takes the games as a
//! [`Games`]: the tournament for the CLI, any function for a test.

pub mod games;
pub mod params;
pub mod spsa;
pub mod state;

use std::fmt::Write;
use std::path::Path;

pub use self::params::Param;
use self::spsa::Points;
pub use self::state::{Iteration, State, TuneConfig};

/// What one iteration's games gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Games each point played.
    pub games: u64,
    /// The plus point's score, from 0 to 1.
    pub score_plus: f64,
    /// The minus point's score, from 0 to 1.
    pub score_minus: f64,
}

/// Plays the games of an iteration: `plus` against `minus` (or each
/// against a fixed opponent), values by parameter.
pub trait Games {
    /// Plays iteration `k`'s games.
    fn play(&mut self, k: u64, points: &Points) -> Result<Outcome, String>;
}

impl<F: FnMut(u64, &[f64], &[f64]) -> Result<Outcome, String>> Games for F {
    fn play(&mut self, k: u64, points: &Points) -> Result<Outcome, String> {
        self(k, &points.plus, &points.minus)
    }
}

impl State {
    /// Plays the next iteration and updates the values.
    pub fn step(&mut self, games: &mut dyn Games) -> Result<&Iteration, String> {
        let k = self.iteration;
        let spsa = self.config.spsa();
        let points = spsa.points(&self.theta, k);
        let outcome = games.play(k, &points)?;
        let result = outcome.games as f64 * (outcome.score_plus - outcome.score_minus);
        let theta = spsa.update(&self.theta, k, &points.delta, result);
        self.history.push(Iteration {
            iteration: k,
            delta: points.delta,
            plus: points.plus,
            minus: points.minus,
            games: outcome.games,
            score_plus: outcome.score_plus,
            score_minus: outcome.score_minus,
            theta: theta.clone(),
        });
        self.theta = theta;
        self.iteration += 1;
        Ok(self.history.last().expect("pushed above"))
    }

    /// The values as `NAME=VALUE` words, as the bot is given them.
    pub fn values_text(&self, values: &[f64]) -> String {
        self.config
            .params
            .iter()
            .zip(values)
            .map(|(p, v)| format!("{}={}", p.name, p.show(*v)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The line of iteration `it`, as the run prints it.
    pub fn iteration_line(&self, it: &Iteration) -> String {
        format!(
            "iteration {}/{}: plus {:.3}, minus {:.3} ({} games each); {}",
            it.iteration + 1,
            self.config.iterations,
            it.score_plus,
            it.score_minus,
            it.games,
            self.values_text(&it.theta)
        )
    }

    /// The values and their history, as `tune --show` prints them.
    pub fn show(&self) -> String {
        let mut out = String::new();
        let c = &self.config;
        let _ = writeln!(out, "tune of {} ({} of {} iterations done)", c.bot, self.iteration, c.iterations);
        match (&c.against, c.ffa) {
            (against, Some(seats)) => {
                let field = against.as_deref().unwrap_or("the bot at the current values");
                let _ = writeln!(
                    out,
                    "the two points ride {} free-for-alls of {seats} seats per iteration, beside {} of {field}",
                    c.games_per_iter,
                    if seats == 3 { "one copy".to_string() } else { format!("{} copies", seats - 2) }
                );
            }
            (Some(against), None) => {
                let _ = writeln!(out, "each point plays {} games per iteration against {against}", c.games_per_iter);
            }
            (None, None) => {
                let _ =
                    writeln!(out, "the two points play {} games per iteration against each other", c.games_per_iter);
            }
        }
        if !c.maps.is_empty() {
            let _ = writeln!(out, "on the map pool {}", c.maps.join(" "));
        }
        let names: Vec<&str> = c.params.iter().map(|p| p.name.as_str()).collect();
        let widths: Vec<usize> = names.iter().map(|n| n.len().max(10)).collect();
        let _ = write!(out, "\n{:>9}  {:>6}  {:>6}", "iteration", "plus", "minus");
        for (n, w) in names.iter().zip(&widths) {
            let _ = write!(out, "  {n:>w$}");
        }
        out.push('\n');
        let _ = write!(out, "{:>9}  {:>6}  {:>6}", "start", "", "");
        for (p, w) in c.params.iter().zip(&widths) {
            let _ = write!(out, "  {:>w$}", number(p.start));
        }
        out.push('\n');
        for it in &self.history {
            let _ = write!(out, "{:>9}  {:>6.3}  {:>6.3}", it.iteration + 1, it.score_plus, it.score_minus);
            for (v, w) in it.theta.iter().zip(&widths) {
                let _ = write!(out, "  {:>w$}", number(*v));
            }
            out.push('\n');
        }
        let _ = writeln!(out, "\ncurrent values: {}", self.values_text(&self.theta));
        let _ = writeln!(out, "as a bot: {}", games::shown_bot(&c.bot, &c.params, &self.theta));
        out
    }
}

/// A value in the table: 4 decimals, trailing zeros cut.
fn number(x: f64) -> String {
    crate::tournament::report::number(x)
}

/// Plays the iterations left, writing the state to `path` (when given)
/// after each one and handing it to `each` (to print its line).
pub fn run(
    state: &mut State,
    games: &mut dyn Games,
    path: Option<&Path>,
    mut each: impl FnMut(&State, &Iteration),
) -> Result<(), String> {
    while !state.is_done() {
        state.step(games)?;
        if let Some(path) = path {
            state.save(path)?;
        }
        let last = state.history.last().expect("an iteration was played").clone();
        each(state, &last);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::spsa::Gains;
    use super::*;

    fn config(params: &[&str], iterations: u64) -> TuneConfig {
        TuneConfig {
            bot: "cmd:./bot".into(),
            against: None,
            params: params::parse_all(&params.iter().map(|p| p.to_string()).collect::<Vec<_>>()).unwrap(),
            iterations,
            games_per_iter: 8,
            seed: 5,
            gains: Gains::default(),
            board: Vec::new(),
            maps: Vec::new(),
            ffa: None,
        }
    }

    /// A match whose expected score falls with the distance to `best`: the
    /// plus point's share of 8 games, played without noise.
    fn toward(best: Vec<f64>) -> impl FnMut(u64, &[f64], &[f64]) -> Result<Outcome, String> {
        move |_k, plus, minus| {
            let loss = |x: &[f64]| x.iter().zip(&best).map(|(a, b)| (a - b) * (a - b)).sum::<f64>();
            let edge = (loss(minus) - loss(plus)).clamp(-1.0, 1.0) * 0.5;
            Ok(Outcome { games: 8, score_plus: 0.5 + edge / 2.0, score_minus: 0.5 - edge / 2.0 })
        }
    }

    #[test]
    fn theta_converges_toward_the_optimum_of_a_known_match() {
        let mut state = State::new(config(&["x=0.0,-10,10,0.5,0.05", "y=8.0,-10,10,0.5,0.05"], 300));
        let before = (state.theta[0] - 3.0).abs() + (state.theta[1] + 2.0).abs();
        run(&mut state, &mut toward(vec![3.0, -2.0]), None, |_, _| {}).unwrap();
        let after = (state.theta[0] - 3.0).abs() + (state.theta[1] + 2.0).abs();
        assert!(after < 0.5 && after < before / 10.0, "{:?}, from {before} to {after}", state.theta);
        assert_eq!(state.history.len(), 300);
    }

    #[test]
    fn integer_parameters_converge_too_and_are_handed_over_rounded() {
        let mut state = State::new(config(&["n=40,0,100,2,0.03"], 200));
        let mut seen = Vec::new();
        let mut games = toward(vec![70.0]);
        let mut recording = |k: u64, plus: &[f64], minus: &[f64]| {
            seen.push((plus[0], minus[0]));
            games(k, plus, minus)
        };
        run(&mut state, &mut recording, None, |_, _| {}).unwrap();
        assert!((state.theta[0] - 70.0).abs() < 3.0, "{:?}", state.theta);
        assert_eq!(state.values_text(&[69.6]), "n=70");
    }

    #[test]
    fn the_same_seed_gives_the_same_run_and_a_resume_continues_it() {
        let c = config(&["x=0.0,-10,10,0.5,0.05"], 20);
        let mut straight = State::new(c.clone());
        run(&mut straight, &mut toward(vec![3.0]), None, |_, _| {}).unwrap();
        let mut again = State::new(c.clone());
        run(&mut again, &mut toward(vec![3.0]), None, |_, _| {}).unwrap();
        assert_eq!(straight, again);
        // Stopped after 7 iterations, written, read back, and finished.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tune.json");
        let mut first = State::new(TuneConfig { iterations: 7, ..c.clone() });
        run(&mut first, &mut toward(vec![3.0]), Some(&path), |_, _| {}).unwrap();
        let mut resumed = State::load(&path).unwrap().unwrap();
        assert_eq!(resumed, first);
        assert_eq!(c.refuse_resume(&resumed.config), None, "only --iterations differs");
        resumed.config.iterations = 20;
        run(&mut resumed, &mut toward(vec![3.0]), Some(&path), |_, _| {}).unwrap();
        // The first 7 iterations ran with the gains of a 7-iteration run;
        // the signs are those of the straight run throughout.
        assert_eq!(resumed.history.len(), 20);
        for (a, b) in resumed.history.iter().zip(&straight.history) {
            assert_eq!(a.delta, b.delta);
        }
        assert_eq!(State::load(&path).unwrap().unwrap(), resumed);
    }

    #[test]
    fn a_resume_with_other_settings_is_refused_naming_the_setting() {
        let c = config(&["x=0.0,-10,10,0.5,0.05"], 20);
        let seed = TuneConfig { seed: 6, ..c.clone() }.refuse_resume(&c).unwrap();
        assert!(
            seed.starts_with("--seed of this command differ") && seed.contains("made with 5, this command gives 6"),
            "{seed}"
        );
        let p = config(&["x=1.0,-10,10,0.5,0.05"], 20).refuse_resume(&c).unwrap();
        assert!(p.contains("the parameters") && p.contains("--param x=0,-10,10,0.5,0.05"), "{p}");
        let g = TuneConfig { games_per_iter: 4, ..c.clone() }.refuse_resume(&c).unwrap();
        assert!(g.contains("--games-per-iter"), "{g}");
    }

    #[test]
    fn a_state_file_that_is_not_one_is_refused_with_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        assert_eq!(State::load(&path).unwrap(), None, "no file: a new tune");
        std::fs::write(&path, "{\"format\":\"x\"").unwrap();
        let e = State::load(&path).unwrap_err();
        assert!(e.starts_with(&format!("--state {}: not a tune state file", path.display())), "{e}");
        let mut state = State::new(config(&["x=0.0,-10,10,0.5,0.05"], 2));
        state.iteration = 1;
        state.save(&path).unwrap();
        assert!(State::load(&path).unwrap_err().contains("iteration 1 but 0 iterations"));
    }

    #[test]
    fn the_games_are_told_the_current_values_also_where_a_bound_clamps_a_point() {
        // x starts at its bound: the minus point is clamped, so the points'
        // midpoint is not the current value.
        struct Seen(Vec<Points>);
        impl Games for Seen {
            fn play(&mut self, _k: u64, points: &Points) -> Result<Outcome, String> {
                self.0.push(points.clone());
                Ok(Outcome { games: 2, score_plus: 0.5, score_minus: 0.5 })
            }
        }
        let mut state = State::new(config(&["x=-10.0,-10,10,0.5,0.05"], 2));
        let mut seen = Seen(Vec::new());
        state.step(&mut seen).unwrap();
        let p = &seen.0[0];
        assert_eq!(p.theta, [-10.0]);
        assert!(p.plus[0] == -10.0 || p.minus[0] == -10.0, "one point at the bound: {p:?}");
        assert_ne!((p.plus[0] + p.minus[0]) / 2.0, -10.0);
    }

    #[test]
    fn a_failed_iteration_leaves_the_state_as_it_was() {
        let mut state = State::new(config(&["x=0.0,-10,10,0.5,0.05"], 3));
        let before = state.clone();
        let mut failing = |_: u64, _: &[f64], _: &[f64]| -> Result<Outcome, String> { Err("no games".into()) };
        assert_eq!(run(&mut state, &mut failing, None, |_, _| {}).unwrap_err(), "no games");
        assert_eq!(state, before);
    }
}
