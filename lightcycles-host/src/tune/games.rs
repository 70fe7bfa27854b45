//! The games of an iteration, played by the tournament library, and the
//! bot a set of values makes of the tuned bot's spec:
//!
//! - every `{NAME}` in the spec is replaced by the value of parameter
//!   NAME (for any form of bot: `cmd:./bot --depth {depth}`);
//! - a built-in bot (`builtin:...`) is given every other parameter as a
//!   spec option, `:NAME=VALUE` (`builtin:search:nodes=2000:cell=17`);
//! - any other bot runs with `LIGHTCYCLES_PARAM_<NAME>=VALUE` in its
//!   environment, for every parameter (a `cmd:` program, a `tron2010:`
//!   program, a CodeClash `main.py`).

use std::sync::Arc;

use super::params::Param;
use super::spsa::Points;
use super::state::TuneConfig;
use super::{Games, Outcome};
use crate::bot::adapter::plugin::isolated;
use crate::bot::adapter::{Hosting, WasmBudget};
use crate::bot::spec::BotSpec;
use crate::stats::Trinomial;
use crate::tournament::plan::{self, Entry, PlanError, ProgressChoice, TournamentOptions};

/// `template` with every `{NAME}` replaced by its value, and the names of
/// the parameters that were so placed.
fn substitute(template: &str, params: &[Param], values: &[f64]) -> (String, Vec<bool>) {
    let mut text = template.to_string();
    let mut placed = Vec::with_capacity(params.len());
    for (p, v) in params.iter().zip(values) {
        let hole = format!("{{{}}}", p.name);
        placed.push(text.contains(&hole));
        text = text.replace(&hole, &p.show(*v));
    }
    (text, placed)
}

/// The spec's form, without a `NAME=` it may start with.
fn form_of(spec: &str) -> &str {
    match spec.split_once('=') {
        Some((name, form)) if crate::bot::spec::is_valid_name(name) => form,
        _ => spec,
    }
}

/// The bot `template` makes with `values`, before any name: its spec
/// (with `{NAME}`s and, for a built-in bot, the options put in) and the
/// environment its processes get (empty for a built-in bot).
pub fn bot_with(template: &str, params: &[Param], values: &[f64]) -> (String, Vec<(String, String)>) {
    let (text, placed) = substitute(form_of(template), params, values);
    if text.starts_with("builtin:") {
        let mut spec = text;
        for ((p, v), placed) in params.iter().zip(values).zip(placed) {
            if !placed {
                spec.push_str(&format!(":{}={}", p.name, p.show(*v)));
            }
        }
        (spec, Vec::new())
    } else {
        let env = params.iter().zip(values).map(|(p, v)| (p.env_name(), p.show(*v))).collect();
        (text, env)
    }
}

/// The bot with `values` as a user would write it: the spec, after the
/// environment a process gets (`LIGHTCYCLES_PARAM_X=3 cmd:./bot`).
pub fn shown_bot(template: &str, params: &[Param], values: &[f64]) -> String {
    let (spec, env) = bot_with(template, params, values);
    let mut words: Vec<String> = env.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    words.push(crate::tournament::shell::shell_quote(&spec));
    words.join(" ")
}

/// The tournament entry of the tuned bot with `values`, named `name`.
fn entry(template: &str, params: &[Param], values: &[f64], name: &str, hosting: &Hosting) -> Result<Entry, String> {
    let (spec, env) = bot_with(template, params, values);
    let parsed = BotSpec::parse(&spec).map_err(|e| e.to_string())?;
    if env.is_empty() {
        return Ok(Entry::Spec(format!("{name}={spec}")));
    }
    let factory = parsed
        .adapter
        .factory_with_env(&parsed.target, None, hosting, &env)
        .map_err(|reason| format!("bot {spec:?}: {reason}"))?;
    Ok(Entry::Made { base_name: name.to_string(), kind: "tune", factory: Arc::clone(&factory) })
}

/// Each iteration's games as a tournament: the plus point against the
/// minus point, or (with `against`) a gauntlet of the opponent against
/// both, `games_per_iter` games a pairing, seeds from
/// [`TuneConfig::games_seed`]. With `ffa` (N seats) one group of N bots:
/// both points and N − 2 riders of the field (copies of `against`, or of
/// the bot at the current values), every seed in every rotation of the
/// seats.
pub struct TournamentGames {
    /// The tune's settings.
    pub config: TuneConfig,
    /// Everything else of the tournament: board, jobs, hosting (its bots,
    /// games, seed and pairing are set here).
    pub base: TournamentOptions,
    /// Warnings of the plan, printed once.
    warned: bool,
}

impl TournamentGames {
    /// The games of `config`'s iterations, on `base`'s board and jobs.
    pub fn new(config: TuneConfig, base: TournamentOptions) -> TournamentGames {
        TournamentGames { config, base, warned: false }
    }

    fn hosting(&self) -> Hosting {
        Hosting {
            sandbox: self.base.sandbox,
            isolate: self.base.isolate.unwrap_or_else(isolated::host_known),
            wasm: WasmBudget {
                fuel_per_tick: self.base.fuel_per_tick,
                tick_ms: self.base.board.time_ms,
                margin_ms: self.base.board.time_margin_ms,
            },
        }
    }

    /// The tournament of iteration `k`: its points `plus` and `minus`, and
    /// the current values `theta` (the field of a free-for-all).
    pub fn options(&self, k: u64, plus: &[f64], minus: &[f64], theta: &[f64]) -> Result<TournamentOptions, String> {
        let c = &self.config;
        let hosting = self.hosting();
        let mut bots = Vec::new();
        if let (Some(against), None) = (&c.against, c.ffa) {
            bots.push(Entry::Spec(against.clone()));
        }
        bots.push(entry(&c.bot, &c.params, plus, "plus", &hosting)?);
        bots.push(entry(&c.bot, &c.params, minus, "minus", &hosting)?);
        if let Some(seats) = c.ffa {
            for i in 1..seats - 1 {
                let name = format!("field{i}");
                bots.push(match &c.against {
                    Some(against) => Entry::Spec(format!("{name}={}", form_of(against))),
                    None => entry(&c.bot, &c.params, theta, &name, &hosting)?,
                });
            }
        }
        Ok(TournamentOptions {
            bots,
            games: Some(c.games_per_iter),
            seed: c.games_seed(k),
            gauntlet: c.against.is_some() && c.ffa.is_none(),
            progress: ProgressChoice { bar: false, log_every: 0, log_seconds: 0 },
            results: None,
            resume: false,
            sprt: None,
            shard: None,
            report: None,
            html: None,
            league: false,
            league_lag: None,
            ffa: c.ffa,
            command_line: None,
            maps: c.maps.clone(),
            map_order: crate::tournament::maps::Order::Sequential,
            map_start: c.map_start(k),
            ..self.base.clone()
        })
    }
}

impl Games for TournamentGames {
    fn play(&mut self, k: u64, points: &Points) -> Result<Outcome, String> {
        let planned = self.options(k, &points.plus, &points.minus, &points.theta)?.plan().map_err(|e| match e {
            PlanError::Broken { reports, message } => format!("{}{message}", reports.concat()),
            PlanError::Invalid(message) => message,
        })?;
        if !self.warned {
            for warning in &planned.warnings {
                eprintln!("{warning}");
            }
            self.warned = true;
        }
        let report = plan::run(&planned)?;
        if self.config.ffa.is_some() {
            // The points' own games against each other: which placed ahead.
            let head_to_head = report.crosstable.first().and_then(|row| row.get(1));
            return head_to_head.map(ffa_outcome).ok_or_else(|| "the tournament reported no crosstable".into());
        }
        let score = |i: usize| -> Result<(u64, f64), String> {
            let row = report.pairings.get(i).ok_or("the tournament reported no pairing")?;
            let games = row.games.wins + row.games.draws + row.games.losses;
            Ok((games, row.score.ok_or("the tournament played no game")?))
        };
        if self.config.against.is_some() {
            // Pairings (opponent, plus) and (opponent, minus), from the
            // opponent's side.
            let ((games, against_plus), (_, against_minus)) = (score(0)?, score(1)?);
            Ok(Outcome { games, score_plus: 1.0 - against_plus, score_minus: 1.0 - against_minus })
        } else {
            let (games, s) = score(0)?;
            Ok(Outcome { games, score_plus: s, score_minus: 1.0 - s })
        }
    }
}

/// A free-for-all iteration's outcome from the plus point's games against
/// the minus point (`crosstable[plus][minus]`): a game scores 1 for the
/// point that placed ahead of the other, ½ each when they share a place.
fn ffa_outcome(games: &Trinomial) -> Outcome {
    let n = games.wins + games.draws + games.losses;
    let score_plus = if n == 0 { 0.5 } else { (games.wins as f64 + games.draws as f64 / 2.0) / n as f64 };
    Outcome { games: n, score_plus, score_minus: 1.0 - score_plus }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Vec<Param> {
        super::super::params::parse_all(&["cell=16,4,64,4,0.002".into(), "r=0.5,0,1.0,0.1,0.01".into()]).unwrap()
    }

    #[test]
    fn a_builtin_gets_options_and_a_process_gets_variables() {
        let p = params();
        let (spec, env) = bot_with("builtin:search:nodes=300", &p, &[17.4, 0.25]);
        assert_eq!((spec.as_str(), env.len()), ("builtin:search:nodes=300:cell=17:r=0.25", 0));
        let (spec, env) = bot_with("tuned=builtin:search:cell={cell}", &p, &[17.6, 0.25]);
        assert_eq!(spec, "builtin:search:cell=18:r=0.25", "a placeholder is filled, the name dropped");
        assert!(env.is_empty());
        let (spec, env) = bot_with("cmd:./bot --cell {cell}", &p, &[20.0, 0.75]);
        assert_eq!(spec, "cmd:./bot --cell 20");
        assert_eq!(
            env,
            [("LIGHTCYCLES_PARAM_cell".to_string(), "20".to_string()), ("LIGHTCYCLES_PARAM_r".into(), "0.75".into())]
        );
        assert_eq!(
            shown_bot("bots/x/main.py", &p, &[20.0, 0.75]),
            "LIGHTCYCLES_PARAM_cell=20 LIGHTCYCLES_PARAM_r=0.75 bots/x/main.py"
        );
    }

    #[test]
    fn the_iterations_take_the_map_pool_in_turn() {
        let pool = ["builtin:open", "builtin:ring", "builtin:doors"];
        let config = TuneConfig {
            bot: "builtin:search:nodes=50".into(),
            against: Some("builtin:wallhug".into()),
            params: super::super::params::parse_all(&["cell=16,4,64,4,0.002".into()]).unwrap(),
            iterations: 3,
            games_per_iter: 4,
            seed: 0,
            gains: super::super::spsa::Gains::default(),
            board: Vec::new(),
            maps: pool.map(String::from).to_vec(),
            ffa: None,
        };
        let games = TournamentGames::new(config, TournamentOptions::default());
        for k in 0..3 {
            let t = games.options(k, &[16.0], &[16.0], &[16.0]).unwrap().plan().unwrap().tournament;
            let maps = t.maps.as_ref().expect("a pool");
            // Two rounds an iteration, each on one map for both pairings
            // (the opponent against each point) in both seats; the rotation
            // goes on across iterations.
            let mut seen = Vec::new();
            for g in 0..8 {
                let game = t.schedule.game(g);
                let expected = pool[(2 * k as usize + game.round as usize) % 3];
                assert_eq!(maps.maps[game.map.unwrap()].name, expected, "iteration {k}, game {g}");
                seen.push((game.round, game.pairing, game.seats.clone()));
            }
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 8, "iteration {k}: two rounds, two pairings, both seats: {seen:?}");
        }
    }

    #[test]
    fn a_free_for_all_seats_both_points_and_the_field_in_one_group() {
        let config = |against: Option<&str>| TuneConfig {
            bot: "builtin:search:nodes=50".into(),
            against: against.map(String::from),
            params: super::super::params::parse_all(&["cell=16,4,64,4,0.002".into()]).unwrap(),
            iterations: 3,
            games_per_iter: 8,
            seed: 10,
            gains: super::super::spsa::Gains::default(),
            board: Vec::new(),
            maps: Vec::new(),
            ffa: Some(4),
        };
        let specs = |games: &TournamentGames, k| {
            let options = games.options(k, &[20.0], &[11.0], &[15.5]).unwrap();
            let specs: Vec<String> = options
                .bots
                .iter()
                .map(|b| match b {
                    Entry::Spec(s) => s.clone(),
                    _ => panic!("built-in bots are specs"),
                })
                .collect();
            (options, specs)
        };
        let field = TournamentGames::new(config(None), TournamentOptions::default());
        let (options, bots) = specs(&field, 2);
        assert_eq!(
            bots,
            [
                "plus=builtin:search:nodes=50:cell=20",
                "minus=builtin:search:nodes=50:cell=11",
                "field1=builtin:search:nodes=50:cell=16",
                "field2=builtin:search:nodes=50:cell=16",
            ],
            "the field rides at the current values (15.5 rounds to 16)"
        );
        assert_eq!((options.ffa, options.gauntlet, options.seed), (Some(4), false, 10 + 2 * 8 / 4));
        let t = options.plan().unwrap().tournament;
        assert_eq!(t.schedule.total_games(), 8, "one group of four, two seeds in four rotations");
        let against = TournamentGames::new(config(Some("x=builtin:floodfill")), TournamentOptions::default());
        let (options, bots) = specs(&against, 0);
        assert_eq!(&bots[2..], ["field1=builtin:floodfill", "field2=builtin:floodfill"]);
        assert!(!options.gauntlet, "one group: the points meet in every game");
    }

    #[test]
    fn a_free_for_all_scores_the_games_a_point_placed_ahead() {
        let o = ffa_outcome(&Trinomial { wins: 3, draws: 2, losses: 1 });
        assert_eq!((o.games, o.score_plus, o.score_minus), (6, 4.0 / 6.0, 1.0 - 4.0 / 6.0));
        let none = ffa_outcome(&Trinomial::default());
        assert_eq!((none.games, none.score_plus, none.score_minus), (0, 0.5, 0.5));
    }

    #[test]
    fn a_form_that_is_no_process_refuses_variables() {
        let hosting = Hosting::default();
        let e = entry("wasm:bot.wasm", &params(), &[16.0, 0.5], "plus", &hosting).err().unwrap();
        assert!(e.contains("take no environment variables") || e.contains("bot.wasm"), "{e}");
    }
}
