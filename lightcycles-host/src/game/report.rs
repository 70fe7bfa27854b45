//! What a run prints: one line per game, and the FINAL_RESULTS block of
//! docs/RULES.md section 11 that CodeClash parses.
//!
//! A game line reads, for example:
//!
//! ```text
//! game 0 seed 7 random vs fuzz: random won on tick 57; faults: fuzz 3 invalid, 1 timeout
//! game 1 seed 8 fuzz vs random: draw of fuzz, random on tick 12
//! game 2 seed 9 a vs b: draw of a, b at the tick cap (2000)
//! ```

use std::fmt::Write;
use std::time::Duration;

use crate::game::bank::BankUse;
use crate::game::match_loop::FaultCounts;
use crate::game::run::GameSummary;
use crate::io::untrusted::terminal_text;

/// Wins per entrant and draws, over the games of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Games won, by entrant (not by seat).
    pub wins: Vec<u64>,
    /// Games that no one won.
    pub draws: u64,
}

impl Tally {
    /// No games yet, for `entrants` bots.
    pub fn new(entrants: usize) -> Tally {
        Tally { wins: vec![0; entrants], draws: 0 }
    }

    /// Counts one finished game.
    pub fn add(&mut self, game: &GameSummary) {
        match game.winning_entrant() {
            Some(e) => self.wins[e] += 1,
            None => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins.iter().sum::<u64>() + self.draws
    }
}

/// A run's timeouts per entrant, to explain them at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeouts {
    /// Timeouts, by entrant.
    pub count: Vec<u64>,
    /// Games with a timeout, by entrant.
    pub games: Vec<u64>,
    /// The slowest answer seen, by entrant (late ones included).
    pub slowest: Vec<Option<Duration>>,
}

/// More timeouts than this in a run are explained.
pub const TIMEOUTS_EXPLAINED_ABOVE: u64 = 3;

impl Timeouts {
    /// None yet, for `entrants` bots.
    pub fn new(entrants: usize) -> Timeouts {
        Timeouts { count: vec![0; entrants], games: vec![0; entrants], slowest: vec![None; entrants] }
    }

    /// Counts the timeouts of one finished game.
    pub fn add(&mut self, game: &GameSummary) {
        for (seat, &e) in game.plan.seats.iter().enumerate() {
            let timeouts = game.faults.get(seat).map_or(0, |f| f.timeout) as u64;
            self.count[e] += timeouts;
            self.games[e] += (timeouts > 0) as u64;
            self.slowest[e] = self.slowest[e].max(game.slowest.get(seat).copied().flatten());
        }
    }

    /// One note per bot that timed out more than a few times: how often,
    /// its slowest answer against the limit, and what to change. `limit`
    /// is the limit after the first tick, `jobs` the games played at once.
    pub fn advice(&self, names: &[String], limit: Duration, jobs: usize) -> Vec<String> {
        let limit_ms = limit.as_millis();
        (0..self.count.len())
            .filter(|&e| self.count[e] > TIMEOUTS_EXPLAINED_ABOVE)
            .map(|e| {
                let name = terminal_text(&names[e]);
                let (n, games) = (self.count[e], self.games[e]);
                let plural = if games == 1 { "" } else { "s" };
                let mut note = format!("note: {name} timed out {n} times in {games} game{plural} (limit {limit_ms} ms");
                let more = match self.slowest[e] {
                    Some(slowest) if slowest > limit => {
                        let ms = slowest.as_millis();
                        let _ = write!(note, ", its slowest answer took {ms} ms)");
                        // Half again the slowest answer, rounded up to 10 ms.
                        (ms * 3 / 2).div_ceil(10) * 10
                    }
                    // No answer ever came late: each timeout was a tick with
                    // no answer at all, a stall, which more time does not mend
                    // (the answers that came were all in time).
                    _ => {
                        let _ = write!(
                            note,
                            "): it never answered late, so each was a tick with no answer at all. It stalled \
                             (stuck, stopped, or waiting for something) rather than answered slowly; its log \
                             (-o DIR, in DIR/logs) may say why."
                        );
                        return note;
                    }
                };
                let _ = write!(note, ". If it is slow rather than stuck, give it more time (--time-ms {more})");
                if jobs > 1 {
                    let _ =
                        write!(note, " or play fewer games at once (now -j {jobs}; each game's bots share the cores)");
                } else {
                    note.push_str(" or run it on a machine with less load");
                }
                note.push('.');
                note
            })
            .collect()
    }
}

/// How each bot used its time bank over a run, for the end summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BankUses {
    /// By entrant: games played with a bank, the bank at their starts and
    /// time taken out of it, summed.
    pub total: Vec<(u64, BankUse)>,
    /// By entrant: the most taken out in one game.
    pub most: Vec<Duration>,
}

impl BankUses {
    /// None yet, for `entrants` bots.
    pub fn new(entrants: usize) -> BankUses {
        BankUses { total: vec![(0, BankUse::default()); entrants], most: vec![Duration::ZERO; entrants] }
    }

    /// Counts the bank use of one finished game.
    pub fn add(&mut self, game: &GameSummary) {
        for (seat, &e) in game.plan.seats.iter().enumerate() {
            if let Some(used) = game.banks.get(seat).copied().flatten() {
                self.total[e].0 += 1;
                self.total[e].1.merge(&used);
                self.most[e] = self.most[e].max(used.used);
            }
        }
    }

    /// One line for the bots that had a bank: per game on average, what
    /// each took out of the bank it started with, and the most in one game;
    /// `None` when no bot had one.
    pub fn note(&self, names: &[String]) -> Option<String> {
        let parts: Vec<String> = (0..self.total.len())
            .filter(|&e| self.total[e].0 > 0)
            .map(|e| {
                let (games, sum) = self.total[e];
                let per_game = |d: Duration| d.as_millis() as u64 / games;
                format!(
                    "{} used {} of {} ms a game (most {} ms)",
                    terminal_text(&names[e]),
                    per_game(sum.used),
                    per_game(sum.start),
                    self.most[e].as_millis()
                )
            })
            .collect();
        (!parts.is_empty()).then(|| format!("time banks: {}", parts.join("; ")))
    }
}

/// The FINAL_RESULTS block, one line per bot in the order the bots were
/// given, each ending with a newline.
pub fn final_results(tally: &Tally, names: &[String]) -> String {
    let mut out = String::from("FINAL_RESULTS\n");
    for (i, (wins, name)) in tally.wins.iter().zip(names).enumerate() {
        let _ = writeln!(out, "Bot_{}: {wins} games won ({})", i + 1, terminal_text(name));
    }
    let _ = writeln!(out, "Draws: {}", tally.draws);
    out
}

fn faults_text(name: &str, f: &FaultCounts) -> String {
    let parts: Vec<String> = [(f.invalid, "invalid"), (f.timeout, "timeout"), (f.crash, "crash")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, kind)| format!("{n} {kind}"))
        .collect();
    format!("{name} {}", parts.join(", "))
}

/// The line printed when a game finishes (without a newline).
pub fn game_line(game: &GameSummary, max_ticks: u32) -> String {
    let o = &game.outcome;
    // Names come from the command line or a bot's file: shown, never obeyed.
    let names: Vec<String> = game.names.iter().map(|n| terminal_text(n)).collect();
    let mut line = format!("game {} seed {} {}: ", game.plan.game, game.plan.seed, names.join(" vs "));
    match o.winner {
        Some(seat) => {
            let _ = write!(line, "{} won on tick {}", names[seat], o.ticks);
        }
        None => {
            let tied: Vec<&str> =
                (0..names.len()).filter(|&s| o.placements[s] == 1).map(|s| names[s].as_str()).collect();
            let _ = write!(line, "draw of {}", tied.join(", "));
            let survivors = o.eliminated_at.iter().any(Option::is_none);
            if survivors && o.ticks >= max_ticks {
                let _ = write!(line, " at the tick cap ({})", o.ticks);
            } else {
                let _ = write!(line, " on tick {}", o.ticks);
            }
        }
    }
    let faulty: Vec<String> =
        game.faults.iter().zip(&names).filter(|(f, _)| f.total() > 0).map(|(f, name)| faults_text(name, f)).collect();
    if !faulty.is_empty() {
        let _ = write!(line, "; faults: {}", faulty.join("; "));
    }
    let never: Vec<&str> = (0..names.len())
        .filter(|&s| {
            let asked = o.eliminated_at[s].unwrap_or(o.ticks);
            asked > 0 && game.faults[s].crash >= asked
        })
        .map(|s| names[s].as_str())
        .collect();
    if !never.is_empty() {
        let _ = write!(line, "; {} crashed on every tick (never played: see its log, -o DIR/logs)", never.join(", "));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::run::GamePlan;
    use lightcycles_core::Outcome;

    fn summary(seats: Vec<usize>, names: &[&str], outcome: Outcome, faults: Vec<FaultCounts>) -> GameSummary {
        GameSummary {
            plan: GamePlan { game: 4, seed: 11, seats },
            names: names.iter().map(|s| s.to_string()).collect(),
            outcome,
            slowest: vec![None; faults.len()],
            times: vec![Default::default(); faults.len()],
            banks: vec![None; faults.len()],
            faults,
            replay_path: None,
        }
    }

    fn won_by(seat: usize, ticks: u32) -> Outcome {
        let mut placements = vec![2, 2];
        placements[seat] = 1;
        let mut eliminated_at = vec![Some(ticks), Some(ticks)];
        eliminated_at[seat] = None;
        Outcome { winner: Some(seat), draw: false, ticks, placements, eliminated_at, trails: vec![ticks + 1, ticks] }
    }

    #[test]
    fn wins_are_counted_per_bot_not_per_seat() {
        let mut tally = Tally::new(2);
        let none = vec![FaultCounts::default(); 2];
        tally.add(&summary(vec![0, 1], &["a", "b"], won_by(0, 9), none.clone()));
        tally.add(&summary(vec![1, 0], &["b", "a"], won_by(1, 9), none.clone()));
        tally.add(&summary(vec![1, 0], &["b", "a"], won_by(0, 9), none.clone()));
        let draw = Outcome {
            winner: None,
            draw: true,
            ticks: 3,
            placements: vec![1, 1],
            eliminated_at: vec![Some(3), Some(3)],
            trails: vec![3, 3],
        };
        tally.add(&summary(vec![0, 1], &["a", "b"], draw, none));
        assert_eq!(tally, Tally { wins: vec![2, 1], draws: 1 });
        assert_eq!(tally.games(), 4);
        assert_eq!(
            final_results(&tally, &["bot_a".into(), "bot_b".into()]),
            "FINAL_RESULTS\nBot_1: 2 games won (bot_a)\nBot_2: 1 games won (bot_b)\nDraws: 1\n"
        );
    }

    #[test]
    fn names_are_shown_never_obeyed() {
        let evil = "\u{1b}[2J\u{202e}x";
        let f = FaultCounts { invalid: 1, timeout: 0, crash: 0 };
        let s = summary(vec![0, 1], &[evil, "b"], won_by(0, 5), vec![f, FaultCounts::default()]);
        let line = game_line(&s, 2000);
        assert_eq!(
            line,
            "game 4 seed 11 \\u{1b}[2J\\u{202e}x vs b: \\u{1b}[2J\\u{202e}x won on tick 5; faults: \\u{1b}[2J\\u{202e}x 1 invalid"
        );
        let results = final_results(&Tally { wins: vec![1, 0], draws: 0 }, &[evil.into(), "b".into()]);
        assert!(results.contains("Bot_1: 1 games won (\\u{1b}[2J\\u{202e}x)\n"), "{results}");
        assert!(!results.contains('\u{1b}') && !line.contains('\u{202e}'));
    }

    #[test]
    fn many_timeouts_are_explained_with_the_slowest_answer_and_what_to_change() {
        let slow = FaultCounts { timeout: 19, ..FaultCounts::default() };
        let mut s = summary(vec![1, 0], &["b", "a"], won_by(1, 30), vec![slow, FaultCounts::default()]);
        s.slowest = vec![Some(Duration::from_millis(212)), None];
        let mut t = Timeouts::new(2);
        t.add(&s);
        let names = ["a".to_string(), "b".to_string()];
        assert_eq!(
            t.advice(&names, Duration::from_millis(50), 2),
            ["note: b timed out 19 times in 1 game (limit 50 ms, its slowest answer took 212 ms). If it is slow \
              rather than stuck, give it more time (--time-ms 320) or play fewer games at once (now -j 2; each \
              game's bots share the cores)."]
        );
        let few = FaultCounts { timeout: 3, ..FaultCounts::default() };
        let mut t = Timeouts::new(2);
        t.add(&summary(vec![0, 1], &["a", "b"], won_by(1, 30), vec![few, FaultCounts::default()]));
        assert!(t.advice(&names, Duration::from_millis(50), 1).is_empty(), "a few timeouts are not explained");
    }

    #[test]
    fn timeouts_with_no_late_answer_are_called_a_stall_not_slowness() {
        let stalled = FaultCounts { timeout: 26, ..FaultCounts::default() };
        let names = ["a".to_string(), "b".to_string()];
        for slowest in [Some(Duration::from_millis(3)), None] {
            let mut s = summary(vec![0, 1], &["a", "b"], won_by(1, 40), vec![stalled, FaultCounts::default()]);
            s.slowest = vec![slowest, None];
            let mut t = Timeouts::new(2);
            t.add(&s);
            let advice = t.advice(&names, Duration::from_millis(50), 2);
            assert_eq!(advice.len(), 1);
            assert!(advice[0].starts_with("note: a timed out 26 times in 1 game (limit 50 ms): it never answered late"));
            assert!(advice[0].contains("It stalled") && !advice[0].contains("--time-ms"), "{}", advice[0]);
        }
    }

    #[test]
    fn a_bot_that_crashed_on_every_tick_is_flagged() {
        let crashed = FaultCounts { crash: 9, ..FaultCounts::default() };
        let s = summary(vec![0, 1], &["p1", "random"], won_by(1, 9), vec![crashed, FaultCounts::default()]);
        assert_eq!(
            game_line(&s, 2000),
            "game 4 seed 11 p1 vs random: random won on tick 9; faults: p1 9 crash; \
             p1 crashed on every tick (never played: see its log, -o DIR/logs)"
        );
        let once = FaultCounts { crash: 8, ..FaultCounts::default() };
        let s = summary(vec![0, 1], &["p1", "random"], won_by(1, 9), vec![once, FaultCounts::default()]);
        assert!(!game_line(&s, 2000).contains("every tick"));
    }

    #[test]
    fn game_lines_say_who_won_how_and_the_faults() {
        let f = FaultCounts { invalid: 3, timeout: 1, crash: 0 };
        let s = summary(vec![0, 1], &["random", "fuzz"], won_by(0, 57), vec![FaultCounts::default(), f]);
        assert_eq!(
            game_line(&s, 2000),
            "game 4 seed 11 random vs fuzz: random won on tick 57; faults: fuzz 3 invalid, 1 timeout"
        );
        let cap = Outcome {
            winner: None,
            draw: true,
            ticks: 40,
            placements: vec![1, 1, 3],
            eliminated_at: vec![None, None, Some(2)],
            trails: vec![41, 41, 3],
        };
        let s = summary(vec![0, 1, 2], &["a", "b", "c"], cap, vec![FaultCounts::default(); 3]);
        assert_eq!(game_line(&s, 40), "game 4 seed 11 a vs b vs c: draw of a, b at the tick cap (40)");
        let crash = Outcome {
            winner: None,
            draw: true,
            ticks: 5,
            placements: vec![1, 1],
            eliminated_at: vec![Some(5), Some(5)],
            trails: vec![5, 5],
        };
        let s = summary(vec![1, 0], &["b", "a"], crash, vec![FaultCounts { crash: 2, ..f }, FaultCounts::default()]);
        assert_eq!(
            game_line(&s, 40),
            "game 4 seed 11 b vs a: draw of b, a on tick 5; faults: b 3 invalid, 1 timeout, 2 crash"
        );
    }
}
