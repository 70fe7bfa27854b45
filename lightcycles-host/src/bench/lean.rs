//! The rows of `lightcycles bench` for the lean search state
//! (`SearchState`, `space::lean`) and for the limit probe.

use std::hint::black_box;
use std::time::Duration;

use lightcycles_core::search_state::SearchState;
use lightcycles_core::{Action, Config, FastGame, Pos};

use crate::bench::bots::{BotRng, Moves};
use crate::bench::limit::Probe;
use crate::bench::script::Script;
use crate::bench::timing::{per_op, per_op_seeded};

/// The scripted game of the step rows as search states and probes.
pub(crate) struct LeanScript {
    start: SearchState,
    actions: Vec<[Action; 2]>,
    hot: Vec<(SearchState, [Action; 2])>,
    probe_start: Probe,
    probe_hot: Vec<(Probe, [Action; 2])>,
}

impl LeanScript {
    pub(crate) fn new(script: &Script<FastGame>) -> LeanScript {
        let lean = |g: &FastGame| SearchState::from_game(g).expect("the default board fits a search state");
        LeanScript {
            start: lean(&script.start),
            actions: script.actions.clone(),
            hot: script.hot.iter().map(|(g, a)| (lean(g), *a)).collect(),
            probe_start: Probe::from_game(&script.start),
            probe_hot: script.hot.iter().map(|(g, a)| (Probe::from_game(g), *a)).collect(),
        }
    }

    /// Nanoseconds per step of the scripted game on the search state.
    pub(crate) fn ns_per_step(&self, time: Duration) -> f64 {
        let per_game = per_op(time, || {
            let mut game = self.start;
            for a in &self.actions {
                let _ = game.step(black_box(a));
            }
            game.tick()
        });
        per_game / self.actions.len() as f64
    }

    /// Nanoseconds per copy + step of a warm search state.
    pub(crate) fn ns_per_copy_step(&self, time: Duration) -> f64 {
        let mut i = 0;
        let mut game = self.start;
        per_op(time, || {
            i = (i + 1) % self.hot.len();
            let (state, actions) = &self.hot[i];
            game = *black_box(state);
            let _ = game.step(black_box(actions));
            game.tick()
        })
    }

    /// Nanoseconds per step of the limit probe on the same game.
    pub(crate) fn probe_ns_per_step(&self, time: Duration) -> f64 {
        let per_game = per_op(time, || {
            let mut game = self.probe_start;
            for a in &self.actions {
                if !game.is_over() {
                    game.step(black_box(a));
                }
            }
            game.is_over()
        });
        per_game / self.actions.len() as f64
    }

    /// Nanoseconds per copy + step of the limit probe.
    pub(crate) fn probe_ns_per_copy_step(&self, time: Duration) -> f64 {
        let mut i = 0;
        let mut game = self.probe_start;
        per_op(time, || {
            i = (i + 1) % self.probe_hot.len();
            let (state, actions) = &self.probe_hot[i];
            game = *black_box(state);
            game.step(black_box(actions));
            game.is_over()
        })
    }
}

/// The safe moves of player `id` of a search state (the neck rule of the
/// core's player module), without allocation.
fn lean_safe(state: &SearchState, id: usize) -> Moves {
    if !state.is_alive(id) {
        return Moves::from(lightcycles_core::DirSet::NONE);
    }
    let c = state.config();
    Moves::from(state.player(id).safe_moves(c.width, c.height, |p: Pos| state.cell_is_empty(p)))
}

fn play_out(game: &mut SearchState, rng: &mut BotRng) -> u32 {
    while !game.is_over() {
        let actions = [0, 1].map(|id| Action::Move(lean_safe(game, id).pick(rng)));
        game.step2(actions).expect("the game goes on");
    }
    game.tick()
}

/// Full random games per second on search states (each built from its
/// seeded map through the fast engine), as the engine table's row.
pub(crate) fn games_per_second(config: &Config, time: Duration) -> f64 {
    let mut rng = BotRng::new(11);
    let ns = per_op_seeded(time, |seed| {
        let mut game = SearchState::seeded(config, seed).expect("the configuration builds");
        play_out(&mut game, &mut rng)
    });
    1e9 / ns
}

/// The same games, moves only: 64 starts built beforehand, copied in.
pub(crate) fn moves_per_second(config: &Config, time: Duration) -> f64 {
    let starts: Vec<SearchState> =
        (0..64).map(|seed| SearchState::seeded(config, seed).expect("the configuration builds")).collect();
    let mut rng = BotRng::new(11);
    let ns = per_op_seeded(time, |seed| {
        let mut game = starts[seed as usize % starts.len()];
        play_out(&mut game, &mut rng)
    });
    1e9 / ns
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::space;
    use lightcycles_core::{Dir, Engine};

    #[test]
    fn the_lean_bots_play_the_fast_engines_games() {
        // The random games on search states are the games of the fast
        // engine with the same bot: the same safe moves every tick.
        let config = Config { rock_density: 0, ..Config::default() };
        for seed in 0..20 {
            let mut fast = FastGame::seeded(&config, seed).unwrap();
            let mut state = SearchState::from_game(&fast).unwrap();
            let mut rng = BotRng::new(seed);
            while !fast.is_over() {
                for id in 0..2 {
                    let want: Vec<Dir> = space::safe_moves(&fast, id).iter().collect();
                    assert_eq!(lean_safe(&state, id).as_slice(), &want[..]);
                }
                let actions = [0, 1].map(|id| Action::Move(lean_safe(&state, id).pick(&mut rng)));
                fast.step(&actions).unwrap();
                state.step2(actions).unwrap();
            }
            assert_eq!(state, SearchState::from_game(&fast).unwrap());
        }
    }
}
