//! The final report of a tournament, built once from the standings and
//! shown two ways: a table on stdout and JSON (`--report FILE.json`). It
//! holds no clock readings, so a run killed and resumed reports exactly
//! what one run straight through does.

use std::fmt::Write;

use serde::Serialize;

use super::results::Faults;
use super::schedule::{PairingMode, Schedule};
use super::shard::Shard;
use super::standings::{Rating, SprtDecision, Standings};
use crate::io::untrusted::terminal_text;
use crate::stats::{signed, EloEstimate, Pentanomial, Trinomial};

/// A metric's figure in the table: up to 4 decimals, without trailing
/// zeros (`7`, `-0.25`, `3.3333`).
pub(crate) fn number(x: f64) -> String {
    let text = format!("{x:.4}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// The `format` of the JSON report.
pub const FORMAT: &str = "lightcycles-tournament-report/1";

/// The report of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// Who played whom.
    pub pairing: PairingMode,
    /// The seed of round 0.
    pub seed: u64,
    /// Games per pairing asked for (`-g`).
    pub games_per_pairing: u64,
    /// Games in the schedule (of the shard, for one shard's run).
    pub games_scheduled: u64,
    /// The shard, `I/N`, when the run played one shard's games only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Games finished and counted.
    pub games_played: u64,
    /// Each bot, in the order given.
    pub bots: Vec<BotRow>,
    /// Each pairing, in schedule order, from its first bot's side.
    pub pairings: Vec<PairingRow>,
    /// The SPRT, when one ran.
    pub sprt: Option<SprtRow>,
    /// Seats in every game (more than 2: a free-for-all).
    pub seats: usize,
    /// Whether this is a league (`--league`).
    pub league: bool,
    /// `crosstable[i][j]`: bot `i`'s games against bot `j`, by who placed
    /// ahead (for two seats, the games of their pairing).
    pub crosstable: Vec<Vec<Trinomial>>,
}

/// One bot's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotRow {
    /// Its display name.
    pub name: String,
    /// Its spec.
    pub spec: String,
    /// Its games, from its side.
    #[serde(flatten)]
    pub games: Trinomial,
    /// Its score, `(W + D/2) / N`.
    pub score: Option<f64>,
    /// Its faults over all its games.
    pub faults: Faults,
    /// Its Weng-Lin rating (fed game by game in index order).
    pub rating: Rating,
    /// Its conservative rating, `mu - 3·sigma`.
    pub conservative: f64,
    /// Its mean placement (1 is first), when it played.
    pub mean_place: Option<f64>,
    /// Its games by the seat it rode (seat 0 first), from its side.
    pub by_seat: Vec<Trinomial>,
    /// The metrics it reported ([`crate::metric`]), by name; left out of
    /// the JSON when it reported none.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub metrics: std::collections::BTreeMap<String, MetricRow>,
}

/// One metric of one bot over all its games: over the ticks that reported
/// it (a tick's value is the last the bot wrote on it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MetricRow {
    /// Ticks that reported it.
    pub ticks: u64,
    /// The mean of their values.
    pub mean: f64,
    /// The largest value.
    pub max: f64,
}

/// One pairing's line, from its first bot's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingRow {
    /// Its two bots.
    pub bots: [String; 2],
    /// Its games.
    #[serde(flatten)]
    pub games: Trinomial,
    /// The first bot's score.
    pub score: Option<f64>,
    /// The share of draws.
    pub draw_ratio: Option<f64>,
    /// The Elo difference with its 95 % interval, trinomial.
    pub elo: Option<EloEstimate>,
    /// The likelihood of superiority of the first bot.
    pub los: Option<f64>,
    /// Its complete game pairs, by the first bot's points: LL, LD, DD+WL, WD, WW.
    pub pentanomial: [u64; 5],
    /// The Elo difference with its 95 % interval, from the pairs.
    pub pentanomial_elo: Option<EloEstimate>,
}

/// The SPRT's parameters and where it stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtRow {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// `ln(β/(1-α))`.
    pub lower_bound: f64,
    /// `ln((1-β)/α)`.
    pub upper_bound: f64,
    /// The model.
    pub model: &'static str,
    /// The LLR over every pair counted (games in flight when the test
    /// stopped included).
    pub llr: f64,
    /// Where it crossed a bound, if it did.
    pub decision: Option<SprtDecision>,
    /// With `--ffa N`: the first bot's game sets against the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<FieldRow>,
}

/// The first bot of a free-for-all SPRT against the field, from its game
/// sets (a seed in every rotation of the seats): its share of the half
/// points against each other rider, 2 for placing ahead and 1 for a tie.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldRow {
    /// The bot.
    pub bot: String,
    /// Complete game sets.
    pub sets: u64,
    /// Its mean score per set (½ is even with the field).
    pub score: Option<f64>,
    /// The Elo difference against the field with its 95 % interval.
    pub elo: Option<EloEstimate>,
}

impl Report {
    /// The report of `standings` for bots `names` (specs `specs`).
    pub fn new(
        schedule: &Schedule,
        mode: PairingMode,
        standings: &Standings,
        names: &[String],
        specs: &[String],
    ) -> Report {
        let bots = standings
            .bots()
            .iter()
            .enumerate()
            .map(|(i, b)| BotRow {
                name: names[i].clone(),
                spec: specs[i].clone(),
                games: b.games,
                score: b.games.score(),
                faults: b.faults,
                rating: b.rating,
                conservative: b.rating.conservative(),
                mean_place: (b.games.games() > 0).then(|| b.place_sum as f64 / b.games.games() as f64),
                by_seat: (0..schedule.seats()).map(|s| b.by_seat.get(s).copied().unwrap_or_default()).collect(),
                metrics: b
                    .metrics
                    .iter()
                    .map(|(name, m)| (name.clone(), MetricRow { ticks: m.n, mean: m.mean(), max: m.max }))
                    .collect(),
            })
            .collect();
        let pairings = standings
            .pairings()
            .iter()
            .map(|p| PairingRow {
                bots: [names[p.bots.0].clone(), names[p.bots.1].clone()],
                games: p.games,
                score: p.games.score(),
                draw_ratio: p.games.draw_ratio(),
                elo: p.games.elo(),
                los: p.games.los(),
                pentanomial: p.pairs.counts,
                pentanomial_elo: p.pairs.elo(),
            })
            .collect();
        let sprt = standings.sprt().map(|s| SprtRow {
            elo0: s.sprt.elo0,
            elo1: s.sprt.elo1,
            alpha: s.sprt.alpha,
            beta: s.sprt.beta,
            lower_bound: s.sprt.lower_bound(),
            upper_bound: s.sprt.upper_bound(),
            model: if standings.field().is_some() { s.sprt.field_model_text() } else { s.sprt.model_text() },
            llr: standings.llr().unwrap_or(0.0),
            decision: s.decision,
            field: standings.field().map(|f| FieldRow {
                bot: names[0].clone(),
                sets: f.sets(),
                score: f.score(),
                elo: f.elo(),
            }),
        });
        Report {
            format: FORMAT,
            pairing: mode,
            seed: schedule.base_seed(),
            games_per_pairing: schedule.games_per_pairing(),
            games_scheduled: schedule.total_games(),
            shard: None,
            games_played: standings.counted(),
            bots,
            pairings,
            sprt,
            seats: schedule.seats(),
            league: false,
            crosstable: standings.crosstable().to_vec(),
        }
    }

    /// The report of one shard's run: its games are the shard's.
    pub fn of_shard(mut self, shard: Option<Shard>) -> Report {
        if let Some(shard) = shard {
            self.games_scheduled = shard.games_of(self.games_scheduled);
            self.shard = Some(shard.to_string());
        }
        self
    }

    /// The report as JSON, one object.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }

    /// The report as a table, for stdout.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let rated = self.bots.len() > 2;
        let kind = match (self.league, self.pairing) {
            (true, _) => "league",
            (false, PairingMode::RoundRobin) => "round robin",
            (false, PairingMode::Gauntlet) => "gauntlet",
        };
        let seats = if self.seats > 2 { format!(", free-for-all of {} seats", self.seats) } else { String::new() };
        let _ = writeln!(
            out,
            "Tournament of {} bots ({kind}{seats}){}, {} of {} games played, seeds from {}",
            self.bots.len(),
            self.shard.as_ref().map_or(String::new(), |s| format!(", shard {s}")),
            self.games_played,
            self.games_scheduled,
            self.seed
        );
        out.push('\n');
        if self.seats > 2 || self.league {
            self.ratings_table(&mut out);
        } else {
            self.bots_table(&mut out, rated);
        }
        self.seats_table(&mut out);
        self.metrics_table(&mut out);
        if self.bots.len() > 2 {
            self.crosstable_text(&mut out);
        }
        for p in &self.pairings {
            out.push('\n');
            let _ = writeln!(
                out,
                "{} vs {}: {} games, {} wins, {} draws, {} losses, score {}, draws {}",
                terminal_text(&p.bots[0]),
                terminal_text(&p.bots[1]),
                p.games.games(),
                p.games.wins,
                p.games.draws,
                p.games.losses,
                percent(p.score),
                percent(p.draw_ratio)
            );
            let _ = writeln!(out, "  Elo {} (95%: {}), LOS {}", elo_text(p.elo), interval_text(p.elo), percent(p.los));
            let [ll, ld, dd, wd, ww] = p.pentanomial;
            let pairs = Pentanomial { counts: p.pentanomial }.pairs();
            let _ = writeln!(
                out,
                "  {pairs} game pairs: LL {ll}, LD {ld}, DD/WL {dd}, WD {wd}, WW {ww}; Elo {} (95%: {})",
                elo_text(p.pentanomial_elo),
                interval_text(p.pentanomial_elo)
            );
        }
        if let Some(s) = &self.sprt {
            out.push('\n');
            let _ = write!(
                out,
                "SPRT elo0 {}, elo1 {}, alpha {}, beta {} ({}): ",
                s.elo0, s.elo1, s.alpha, s.beta, s.model
            );
            let sets = if self.seats > 2 { format!("game sets of {}", self.seats) } else { "game pairs".to_string() };
            match s.decision {
                Some(d) => {
                    let _ = writeln!(
                        out,
                        "{} accepted after {} {sets}, LLR {:.2} (bounds {:.2}, {:.2})",
                        match d.accepted {
                            crate::stats::Hypothesis::H0 => "H0",
                            crate::stats::Hypothesis::H1 => "H1",
                        },
                        d.pairs,
                        d.llr,
                        s.lower_bound,
                        s.upper_bound
                    );
                    if (s.llr - d.llr).abs() > 0.0 {
                        let _ = writeln!(out, "  LLR {:.2} with the games that were in flight when it stopped", s.llr);
                    }
                }
                None => {
                    let _ = writeln!(
                        out,
                        "no decision, LLR {:.2} (bounds {:.2}, {:.2})",
                        s.llr, s.lower_bound, s.upper_bound
                    );
                }
            }
            if let Some(f) = &s.field {
                let _ = writeln!(
                    out,
                    "  {} against the field: {} {sets}, score {} (by places, ½ is even), Elo {} (95%: {})",
                    terminal_text(&f.bot),
                    f.sets,
                    percent(f.score),
                    elo_text(f.elo),
                    interval_text(f.elo)
                );
            }
        }
        out
    }

    /// Each bot's metrics, when any bot reported one: a row a bot and
    /// metric, with the ticks that reported it, the mean and the maximum.
    fn metrics_table(&self, out: &mut String) {
        let rows: Vec<(String, String, &MetricRow)> = self
            .bots
            .iter()
            .flat_map(|b| b.metrics.iter().map(move |(name, m)| (terminal_text(&b.name), terminal_text(name), m)))
            .collect();
        if rows.is_empty() {
            return;
        }
        let bot_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(3).max(3);
        let name_width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(6).max(6);
        out.push('\n');
        let _ = writeln!(
            out,
            "{:<bot_width$}  {:<name_width$}  {:>7}  {:>12}  {:>12}",
            "bot", "metric", "ticks", "mean", "max"
        );
        for (bot, name, m) in rows {
            let _ = writeln!(
                out,
                "{bot:<bot_width$}  {name:<name_width$}  {:>7}  {:>12}  {:>12}",
                m.ticks,
                number(m.mean),
                number(m.max)
            );
        }
    }

    fn bots_table(&self, out: &mut String, rated: bool) {
        // Names come from the command line or a file: shown, never obeyed.
        let names: Vec<String> = self.bots.iter().map(|b| terminal_text(&b.name)).collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(3).max(3);
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        if rated {
            order.sort_by(|&a, &b| {
                let (ra, rb) = (self.bots[a].rating.mu, self.bots[b].rating.mu);
                rb.total_cmp(&ra).then(a.cmp(&b))
            });
        }
        let _ = write!(
            out,
            "{:>4}  {:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
            "rank", "bot", "games", "wins", "draws", "losses", "score", "invalid", "timeout", "crash"
        );
        out.push_str(if rated { "  rating (mu ± sigma)\n" } else { "\n" });
        for (rank, &i) in order.iter().enumerate() {
            let b = &self.bots[i];
            let _ = write!(
                out,
                "{:>4}  {:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
                rank + 1,
                names[i],
                b.games.games(),
                b.games.wins,
                b.games.draws,
                b.games.losses,
                percent(b.score),
                b.faults.invalid,
                b.faults.timeout,
                b.faults.crash
            );
            if rated {
                let _ = write!(out, "  {:.2} ± {:.2}", b.rating.mu, b.rating.sigma);
            }
            out.push('\n');
        }
    }

    /// Each bot's score by the seat it rode: a seat that wins more shows.
    fn seats_table(&self, out: &mut String) {
        let names: Vec<String> = self.bots.iter().map(|b| terminal_text(&b.name)).collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(3).max(3);
        let _ = write!(out, "\n{:<width$}", "by seat");
        for s in 0..self.seats {
            let _ = write!(out, "  {:>17}", format!("seat {s}"));
        }
        out.push('\n');
        for (i, b) in self.bots.iter().enumerate() {
            let _ = write!(out, "{:<width$}", names[i]);
            for t in &b.by_seat {
                let _ = write!(out, "  {:>17}", format!("{}-{}-{} {}", t.wins, t.draws, t.losses, percent(t.score())));
            }
            out.push('\n');
        }
    }

    /// Who wins and loses against whom: row against column, wins-draws-losses.
    fn crosstable_text(&self, out: &mut String) {
        let names: Vec<String> = self.bots.iter().map(|b| terminal_text(&b.name)).collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(3).max(10);
        let _ = write!(out, "\n{:<width$}", "crosstable");
        for n in &names {
            let _ = write!(out, "  {n:>width$}");
        }
        out.push('\n');
        for (i, row) in self.crosstable.iter().enumerate() {
            let _ = write!(out, "{:<width$}", names[i]);
            for (j, t) in row.iter().enumerate() {
                let cell = if i == j || t.games() == 0 {
                    "-".to_string()
                } else {
                    format!("{}-{}-{}", t.wins, t.draws, t.losses)
                };
                let _ = write!(out, "  {cell:>width$}");
            }
            out.push('\n');
        }
    }

    /// The table of a free-for-all or a league: every bot by its
    /// conservative rating `mu - 3·sigma`, highest first.
    fn ratings_table(&self, out: &mut String) {
        let names: Vec<String> = self.bots.iter().map(|b| terminal_text(&b.name)).collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(3).max(3);
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        order.sort_by(|&a, &b| {
            let (ra, rb) = (self.bots[a].conservative, self.bots[b].conservative);
            rb.total_cmp(&ra).then(a.cmp(&b))
        });
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
            "rank",
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "place",
            "mu",
            "sigma",
            "mu-3s",
            "invalid",
            "timeout",
            "crash"
        );
        for (rank, &i) in order.iter().enumerate() {
            let b = &self.bots[i];
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7.2}  {:>7.2}  {:>7.2}  {:>7}  {:>7}  {:>7}",
                rank + 1,
                names[i],
                b.games.games(),
                b.games.wins,
                b.games.draws,
                b.games.losses,
                b.mean_place.map_or_else(|| "-".to_string(), |p| format!("{p:.2}")),
                b.rating.mu,
                b.rating.sigma,
                b.conservative,
                b.faults.invalid,
                b.faults.timeout,
                b.faults.crash
            );
        }
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |x| format!("{:.1}%", 100.0 * x))
}

fn elo_text(elo: Option<EloEstimate>) -> String {
    elo.map_or_else(|| "-".to_string(), |e| e.to_string())
}

fn interval_text(elo: Option<EloEstimate>) -> String {
    elo.map_or_else(|| "-".to_string(), |e| format!("{} to {}", signed(e.lower), signed(e.upper)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::results::GameResult;

    /// A two-seat game `k` of a round robin of 2 or 3 bots.
    fn result(k: u64, seats: Vec<usize>, winner: Option<usize>, faults: Vec<Faults>) -> GameResult {
        let pairing = match (seats[0].min(seats[1]), seats[0].max(seats[1])) {
            (0, 1) => 0,
            (0, 2) => 1,
            _ => 2,
        };
        let placements = (0..2).map(|s| if winner.is_none() || winner == Some(s) { 1 } else { 2 }).collect();
        GameResult { game: k, pairing, seats, winner, placements, faults, metrics: None }
    }

    #[test]
    fn metrics_are_averaged_over_the_ticks_of_all_games_by_hand() {
        use crate::metric::Summary;
        let schedule = Schedule::new(2, PairingMode::RoundRobin, 2, 0).unwrap();
        let mut st = Standings::new(&schedule, 2, None);
        // Bot 0: depth 3, 5, 4 in game 0 and 8 in game 1; score -1 and 0.5
        // in game 0. Bot 1 reports nothing.
        let reported = [
            vec![("depth", Summary { n: 3, sum: 12.0, max: 5.0 }), ("score", Summary { n: 2, sum: -0.5, max: 0.5 })],
            vec![("depth", Summary { n: 1, sum: 8.0, max: 8.0 })],
        ];
        for (k, metrics) in reported.iter().enumerate() {
            let seats = schedule.game(k as u64).seats;
            let mut game = result(k as u64, seats.clone(), None, vec![Faults::default(); 2]);
            let mut by_seat = vec![crate::metric::Summaries::new(); 2];
            let seat = seats.iter().position(|&s| s == 0).unwrap();
            by_seat[seat] = metrics.iter().map(|(n, s)| (n.to_string(), *s)).collect();
            game.metrics = Some(by_seat);
            st.add(game);
        }
        let names = ["deep".to_string(), "quiet".to_string()];
        let report = Report::new(&schedule, PairingMode::RoundRobin, &st, &names, &names);
        // depth: (3 + 5 + 4 + 8) / 4 = 5, max 8; score: -0.5 / 2 = -0.25, max 0.5.
        assert_eq!(report.bots[0].metrics["depth"], MetricRow { ticks: 4, mean: 5.0, max: 8.0 });
        assert_eq!(report.bots[0].metrics["score"], MetricRow { ticks: 2, mean: -0.25, max: 0.5 });
        assert!(report.bots[1].metrics.is_empty());
        let table = report.to_table();
        assert!(
            table.contains(
                "bot   metric    ticks          mean           max\n\
                 deep  depth         4             5             8\n\
                 deep  score         2         -0.25           0.5\n"
            ),
            "{table}"
        );
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["bots"][0]["metrics"]["score"], serde_json::json!({"ticks": 2, "mean": -0.25, "max": 0.5}));
        assert!(json["bots"][1].get("metrics").is_none());
        assert_eq!((number(1.0 / 3.0), number(-0.0), number(1e6)), ("0.3333".into(), "0".into(), "1000000".into()));
    }

    #[test]
    fn names_in_the_table_are_shown_never_obeyed() {
        let schedule = Schedule::new(2, PairingMode::RoundRobin, 2, 0).unwrap();
        let mut st = Standings::new(&schedule, 2, None);
        for k in 0..2 {
            st.add(result(k, schedule.game(k).seats, None, vec![Faults::default(); 2]));
        }
        let names = ["\u{1b}]0;title\u{7}".to_string(), "b\u{200b}".to_string()];
        let report = Report::new(&schedule, PairingMode::RoundRobin, &st, &names, &names);
        let table = report.to_table();
        assert!(!table.chars().any(|c| c.is_control() && c != '\n' || c == '\u{200b}'), "{table:?}");
        assert!(table.contains("\\u{1b}]0;title\\u{7} vs b\\u{200b}: 2 games"), "{table}");
        assert!(table.contains("   1  \\u{1b}]0;title\\u{7}        2"), "{table}");
        assert!(report.to_json().contains("\\u001b]0;title\\u0007"), "the JSON keeps the name");
    }

    #[test]
    fn a_two_bot_report_as_table_and_json() {
        let schedule = Schedule::new(2, PairingMode::RoundRobin, 4, 7).unwrap();
        let mut st = Standings::new(&schedule, 2, Some("0,5,0.05,0.05".parse().unwrap()));
        // Bot 0 wins games 0, 1, 2; game 3 is a draw.
        for (k, winner_bot) in [(0u64, Some(0usize)), (1, Some(0)), (2, Some(0)), (3, None)] {
            let seats = schedule.game(k).seats;
            let winner = winner_bot.map(|b| seats.iter().position(|&s| s == b).unwrap());
            // The random bot times out twice a game, whichever seat it rides in.
            let mut faults = vec![Faults::default(); 2];
            faults[seats.iter().position(|&s| s == 1).unwrap()].timeout = 2;
            st.add(result(k, seats, winner, faults));
        }
        let names = ["ff".to_string(), "rnd".to_string()];
        let specs = ["builtin:floodfill".to_string(), "rnd=builtin:random".to_string()];
        let report = Report::new(&schedule, PairingMode::RoundRobin, &st, &names, &specs);
        let table = report.to_table();
        assert!(
            table.starts_with("Tournament of 2 bots (round robin), 4 of 4 games played, seeds from 7\n"),
            "{table}"
        );
        assert!(
            table.contains("rank  bot    games     wins    draws   losses    score  invalid  timeout    crash\n"),
            "{table}"
        );
        assert!(
            table.contains("   1  ff         4        3        1        0    87.5%        0        0        0\n"),
            "{table}"
        );
        // ff rides seat 0 in the even games (0, 2: won), seat 1 in the odd
        // (1 won, 3 drawn).
        assert!(table.contains("by seat             seat 0             seat 1\n"), "{table}");
        assert!(table.contains("ff        2-0-0 100.0%        1-1-0 75.0%\n"), "{table}");
        assert!(table.contains("rnd        0-1-1 25.0%         0-0-2 0.0%\n"), "{table}");
        assert!(!table.contains("crosstable"), "two bots: the pairing says it all");
        assert_eq!(report.crosstable[0][1], Trinomial { wins: 3, draws: 1, losses: 0 });
        assert_eq!(report.crosstable[1][0], report.crosstable[0][1].flipped());
        assert!(
            table.contains("   2  rnd        4        0        1        3    12.5%        0        8        0\n"),
            "{table}"
        );
        assert!(table.contains("ff vs rnd: 4 games, 3 wins, 1 draws, 0 losses, score 87.5%, draws 25.0%\n"), "{table}");
        assert!(table.contains("  2 game pairs: LL 0, LD 0, DD/WL 0, WD 1, WW 1; Elo"), "{table}");
        assert!(table.contains("SPRT elo0 0, elo1 5, alpha 0.05, beta 0.05 (pentanomial"), "{table}");
        assert!(table.contains("no decision, LLR"), "{table}");
        assert!(!table.contains("rating"), "two bots need no ratings table: {table}");
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["format"], FORMAT);
        assert_eq!(json["games_played"], 4);
        assert_eq!(json["bots"][1]["timeout"], serde_json::Value::Null, "faults are nested");
        assert_eq!(json["bots"][1]["faults"]["timeout"], 8);
        assert_eq!(json["pairings"][0]["wins"], 3);
        assert_eq!(json["pairings"][0]["pentanomial"], serde_json::json!([0, 0, 0, 1, 1]));
        assert!(json["pairings"][0]["elo"]["elo"].as_f64().unwrap() > 0.0);
        assert_eq!(json["sprt"]["decision"], serde_json::Value::Null);
    }

    #[test]
    fn three_bots_are_ranked_by_rating() {
        let schedule = Schedule::new(3, PairingMode::RoundRobin, 2, 0).unwrap();
        let mut st = Standings::new(&schedule, 3, None);
        // Bot 2 wins everything, bot 1 beats bot 0.
        for k in 0..schedule.total_games() {
            let seats = schedule.game(k).seats;
            let best = *seats.iter().max().unwrap();
            let winner = seats.iter().position(|&s| s == best);
            st.add(result(k, seats, winner, vec![Faults::default(); 2]));
        }
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let report = Report::new(&schedule, PairingMode::RoundRobin, &st, &names, &names);
        let table = report.to_table();
        let ranks: Vec<&str> =
            table.lines().filter(|l| l.starts_with("   ")).map(|l| l.split_whitespace().nth(1).unwrap()).collect();
        assert_eq!(ranks, ["c", "b", "a"], "{table}");
        assert!(table.contains("rating (mu ± sigma)"), "{table}");
        assert_eq!(table.matches(" vs ").count(), 3);
    }
}
