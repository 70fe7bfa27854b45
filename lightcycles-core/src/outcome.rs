//! The end of a game: winner, draw and placements (docs/RULES.md section 8).

use alloc::vec::Vec;

use crate::player::PlayerState;

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner's id, `None` for a draw.
    pub winner: Option<usize>,
    /// Whether the game is a draw (no single winner).
    pub draw: bool,
    /// The tick on which the game ended.
    pub ticks: u32,
    /// `1 +` the number of players that did strictly better, by id.
    pub placements: Vec<u32>,
    /// The tick on which each player was eliminated, by id.
    pub eliminated_at: Vec<Option<u32>>,
    /// Each player's trail length in cells, head included, by id.
    pub trails: Vec<u32>,
}

/// Whether a game is over after tick `tick` with `alive` players riding.
pub const fn is_over(tick: u32, max_ticks: u32, alive: usize) -> bool {
    alive <= 1 || tick >= max_ticks
}

/// How well a player did: higher is better. Living players beat eliminated
/// ones and compare by trail; eliminated players compare by tick.
fn standing(p: &PlayerState) -> (bool, u32) {
    match p.eliminated_at {
        None => (true, p.trail),
        Some(t) => (false, t),
    }
}

impl Outcome {
    /// The outcome after tick `tick`, or `None` while the game goes on.
    pub fn decide(tick: u32, max_ticks: u32, players: &[PlayerState]) -> Option<Outcome> {
        let alive = players.iter().filter(|p| p.alive).count();
        if !is_over(tick, max_ticks, alive) {
            return None;
        }
        let placements: Vec<u32> =
            players.iter().map(|p| 1 + players.iter().filter(|q| standing(q) > standing(p)).count() as u32).collect();
        let firsts: Vec<usize> = (0..players.len()).filter(|&i| placements[i] == 1).collect();
        // With nobody alive the first are those eliminated on this tick; with
        // survivors, the longest trails among them.
        let winner = if firsts.len() == 1 { Some(firsts[0]) } else { None };
        Some(Outcome {
            winner,
            draw: winner.is_none(),
            ticks: tick,
            placements,
            eliminated_at: players.iter().map(|p| p.eliminated_at).collect(),
            trails: players.iter().map(|p| p.trail).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Dir, Pos};
    use alloc::vec;

    fn p(alive: bool, trail: u32, eliminated_at: Option<u32>) -> PlayerState {
        PlayerState { pos: Pos::new(0, 0), dir: Dir::N, alive, trail, eliminated_at }
    }

    #[test]
    fn goes_on_while_two_ride_before_the_cap() {
        assert_eq!(Outcome::decide(5, 10, &[p(true, 6, None), p(true, 6, None)]), None);
    }

    #[test]
    fn last_rider_wins() {
        let o = Outcome::decide(5, 10, &[p(false, 5, Some(5)), p(true, 6, None), p(false, 3, Some(3))]).unwrap();
        assert_eq!(o.winner, Some(1));
        assert!(!o.draw);
        assert_eq!(o.placements, vec![2, 1, 3]);
        assert_eq!(o.eliminated_at, vec![Some(5), None, Some(3)]);
        assert_eq!(o.trails, vec![5, 6, 3]);
    }

    #[test]
    fn nobody_left_is_a_draw_of_the_last_eliminated() {
        let o = Outcome::decide(7, 10, &[p(false, 7, Some(7)), p(false, 2, Some(2)), p(false, 7, Some(7))]).unwrap();
        assert_eq!(o.winner, None);
        assert!(o.draw);
        assert_eq!(o.placements, vec![1, 3, 1]);
    }

    #[test]
    fn the_cap_compares_trails() {
        let tie = Outcome::decide(10, 10, &[p(true, 11, None), p(true, 11, None), p(false, 4, Some(4))]).unwrap();
        assert_eq!((tie.winner, tie.draw, tie.placements.clone()), (None, true, vec![1, 1, 3]));
        // Not reachable under the rules, but the comparison is implemented.
        let longer = Outcome::decide(10, 10, &[p(true, 9, None), p(true, 11, None)]).unwrap();
        assert_eq!((longer.winner, longer.draw, longer.placements), (Some(1), false, vec![2, 1]));
    }
}
