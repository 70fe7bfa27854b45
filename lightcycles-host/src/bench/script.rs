//! A recorded game for the step and clone measures, played the same on
//! every engine.

use std::hint::black_box;
use std::time::Duration;

use lightcycles_core::engine::Engine;
use lightcycles_core::{Action, Config};

use crate::bench::bots::{safe, steady, BotRng};
use crate::bench::timing::per_op;

/// How many positions (from tick 100 on) the clone measures cycle through.
pub(crate) const HOT_STATES: usize = 16;

/// A recorded game on the default board for the step measures: its start,
/// the actions of every tick, and a few positions of its middle with the
/// actions played on them (a search copies from positions it has just
/// made, warm in the cache, so the clone measures cycle through a few).
pub(crate) struct Script<E: Engine> {
    pub(crate) start: E,
    pub(crate) actions: Vec<[Action; 2]>,
    pub(crate) hot: Vec<(E, [Action; 2])>,
}

impl<E: Engine> Script<E> {
    pub(crate) fn new() -> Script<E> {
        let mut rng = BotRng::new(7);
        for seed in 0.. {
            let start = E::seeded(&Config::default(), seed).expect("the default configuration builds");
            let mut game = start.clone();
            let (mut hot, mut actions) = (Vec::new(), Vec::new());
            while !game.is_over() {
                // Steady, with a random safe move now and then.
                let pick = |id: usize, rng: &mut BotRng| {
                    let moves = safe(&game, id);
                    if rng.below(4) == 0 && moves.len > 0 {
                        Action::Move(moves.pick(rng))
                    } else {
                        steady(&game, id)
                    }
                };
                let tick = [pick(0, &mut rng), pick(1, &mut rng)];
                if game.tick() >= 100 && hot.len() < HOT_STATES {
                    hot.push((game.clone(), tick));
                }
                actions.push(tick);
                game.step(&tick).expect("the game goes on");
            }
            if actions.len() >= 200 {
                return Script { start, actions, hot };
            }
        }
        unreachable!("some seed gives a long game")
    }

    pub(crate) fn ns_per_step(&self, time: Duration) -> f64 {
        let mut game = self.start.clone();
        let per_game = per_op(time, || {
            game.clone_from(&self.start);
            for a in &self.actions {
                let _ = game.step(black_box(a));
            }
            game.tick()
        });
        per_game / self.actions.len() as f64
    }

    pub(crate) fn ns_per_clone_step(&self, time: Duration) -> f64 {
        let mut i = 0;
        per_op(time, || {
            i = (i + 1) % self.hot.len();
            let (state, actions) = &self.hot[i];
            let mut game = state.clone();
            let _ = game.step(black_box(actions));
            game
        })
    }

    pub(crate) fn ns_per_copy_step(&self, time: Duration) -> f64 {
        let mut i = 0;
        let mut game = self.start.clone();
        per_op(time, || {
            i = (i + 1) % self.hot.len();
            let (state, actions) = &self.hot[i];
            game.clone_from(state);
            let _ = game.step(black_box(actions));
            game.tick()
        })
    }
}
