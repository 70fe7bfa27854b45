//! Criterion benchmarks of the fast engine beside the reference engine:
//! `step`, clone + step, copy into + step, the search helpers on an early
//! and a mid-game board, full random games and map generation.
//!
//! `cargo bench -p lightcycles-core` runs them all; `lightcycles bench`
//! prints the same figures as one table.
//!
//! For instruction counts (repeatable on a noisy machine), the same binary
//! runs one measure a given number of times without criterion:
//! `engines --count WHAT TIMES`, with `WHAT` one of `step`, `copy-step`,
//! `voronoi-early`, `voronoi-mid`, `reachable-early`, `reachable-mid`,
//! `voronoi-four` (four riders on 24 × 24, tick 10), and the same on the
//! search state: `lean-step`, `lean-copy-step`, `lean-voronoi-early`, …,
//! and `lean-voronoi-four-ahead` (the same board, two riders also setting
//! out from their earlier heads, as the search bot's free-for-all leaves)
//! (`benches/callgrind.sh` runs them all). Run it under
//! `valgrind --tool=callgrind` with two values of `TIMES`; the difference of
//! the totals divided by the difference of `TIMES` is the cost of one call
//! (one step, for `step`), free of the setup.

use std::hint::black_box;

use criterion::{criterion_group, BenchmarkId, Criterion};
use lightcycles_core::search_state::SearchState;
use lightcycles_core::space::{self, Scratch};
use lightcycles_core::{map, Action, Config, Dir, Engine, FastGame, ReferenceGame, SplitMix64, EMPTY};

/// The moves that do not crash at once, through the `Engine` trait.
fn safe<E: Engine>(game: &E, id: usize) -> ([Dir; 4], usize) {
    let mut out = ([Dir::N; 4], 0);
    for d in space::safe_moves(game, id).iter() {
        out.0[out.1] = d;
        out.1 += 1;
    }
    out
}

fn random_move<E: Engine>(game: &E, id: usize, rng: &mut SplitMix64) -> Action {
    let (dirs, len) = safe(game, id);
    Action::Move(if len == 0 { Dir::ALL[rng.below(4) as usize] } else { dirs[rng.below(len as u64) as usize] })
}

/// The free cells around a move's target, to keep games going.
fn steady<E: Engine>(game: &E, id: usize) -> Action {
    let p = game.player(id);
    let (w, h) = (game.config().width, game.config().height);
    let (dirs, len) = safe(game, id);
    let room = |d: Dir| {
        let t = p.pos.step(d, w, h).unwrap();
        Dir::ALL.iter().filter(|&&e| t.step(e, w, h).is_some_and(|c| game.cell(c) == EMPTY)).count()
    };
    dirs[..len].iter().copied().max_by_key(|&d| (room(d), d == p.dir)).map_or(Action::Keep, Action::Move)
}

/// A long game on the default board: every state and the actions played on it.
fn script<E: Engine>() -> (E, Vec<E>, Vec<[Action; 2]>) {
    let mut rng = SplitMix64::new(7);
    for seed in 0.. {
        let start = E::seeded(&Config::default(), seed).unwrap();
        let (mut game, mut states, mut actions) = (start.clone(), Vec::new(), Vec::new());
        while !game.is_over() {
            let pick = |id, rng: &mut SplitMix64| {
                if rng.below(4) == 0 {
                    random_move(&game, id, rng)
                } else {
                    steady(&game, id)
                }
            };
            let tick = [pick(0, &mut rng), pick(1, &mut rng)];
            states.push(game.clone());
            actions.push(tick);
            game.step(&tick).unwrap();
        }
        if actions.len() >= 200 {
            return (start, states, actions);
        }
    }
    unreachable!()
}

fn board_at(ticks: u32) -> FastGame {
    board_of(&Config::default(), ticks)
}

/// The first seeded game of `config` whose riders all still ride after
/// `ticks` steady ticks.
fn board_of(config: &Config, ticks: u32) -> FastGame {
    history_of(config, ticks).pop().unwrap()
}

/// The games of [`board_of`] from tick 0 to `ticks`, a tick each.
fn history_of(config: &Config, ticks: u32) -> Vec<FastGame> {
    (0..)
        .find_map(|seed| {
            let mut games = vec![FastGame::seeded(config, seed).unwrap()];
            let mut game = games[0].clone();
            while game.tick() < ticks && game.alive_mask().count_ones() == config.players {
                let actions: Vec<Action> = (0..game.num_players()).map(|id| steady(&game, id)).collect();
                game.step(&actions).unwrap();
                games.push(game.clone());
            }
            (game.tick() == ticks && game.alive_mask().count_ones() == config.players).then_some(games)
        })
        .unwrap()
}

/// The free-for-all board of docs/search-bot.md (4 riders, 24 × 24, rock
/// density 4 %) after 10 ticks.
fn four_riders() -> FastGame {
    board_of(&four(), 10)
}

fn four() -> Config {
    Config { width: 24, height: 24, players: 4, rock_density: 4, ..Config::default() }
}

/// The starts the search bot's free-for-all leaves give the two riders
/// it does not search on [`four_riders`] (riders 2 and 3): each one's head
/// in every earlier tick, 60 % of the ticks since ahead (`ffa_ahead=60`).
fn four_riders_starts() -> Vec<space::lean::Start> {
    let games = history_of(&four(), 10);
    let last = games.len() - 1;
    (2..4)
        .flat_map(|id| {
            games[..last].iter().enumerate().map(move |(k, g)| (id, g.head(id), (last - k) as u32 * 60 / 100))
        })
        .filter(|&(_, _, ahead)| ahead > 0)
        .map(|(id, pos, ahead)| space::lean::Start { id, pos, ahead })
        .collect()
}

fn stepping<E: Engine>(c: &mut Criterion, name: &str) {
    let (start, states, actions) = script::<E>();
    let mut group = c.benchmark_group(format!("step/{name}"));
    group.throughput(criterion::Throughput::Elements(actions.len() as u64));
    let mut game = start.clone();
    group.bench_function("scripted game (per game; per step = time / steps)", |b| {
        b.iter(|| {
            game.clone_from(&start);
            for a in &actions {
                let _ = game.step(black_box(a));
            }
        })
    });
    group.finish();
    let mut i = 0;
    c.bench_function(&format!("clone + step/{name}"), |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let mut g = states[i].clone();
            let _ = g.step(black_box(&actions[i]));
            g
        })
    });
    let mut g = start.clone();
    c.bench_function(&format!("copy into + step/{name}"), |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            g.clone_from(&states[i]);
            let _ = g.step(black_box(&actions[i]));
        })
    });
}

fn steps(c: &mut Criterion) {
    stepping::<FastGame>(c, "fast");
    stepping::<ReferenceGame>(c, "reference");
}

fn searches(c: &mut Criterion) {
    for (label, ticks) in [("early", 10), ("mid", 250)] {
        let game = board_at(ticks);
        let mut scratch = Scratch::for_game(&game);
        let head = game.head(0);
        c.bench_with_input(BenchmarkId::new("reachable", label), &game, |b, g| {
            b.iter(|| space::reachable_with(black_box(g), head, &mut scratch))
        });
        c.bench_with_input(BenchmarkId::new("voronoi", label), &game, |b, g| {
            b.iter(|| space::voronoi_with(black_box(g), &mut scratch))
        });
        c.bench_with_input(BenchmarkId::new("separated", label), &game, |b, g| {
            b.iter(|| space::separated_with(black_box(g), &mut scratch))
        });
    }
}

fn full_games<E: Engine>(config: &Config, seed: &mut u64, rng: &mut SplitMix64) -> u32 {
    *seed += 1;
    let mut game = E::seeded(config, *seed).unwrap();
    while !game.is_over() {
        let actions = [random_move(&game, 0, rng), random_move(&game, 1, rng)];
        game.step(&actions).unwrap();
    }
    game.tick()
}

fn games(c: &mut Criterion) {
    let open = Config { rock_density: 0, ..Config::default() };
    let mut group = c.benchmark_group("random game, open 48 × 36");
    let (mut seed, mut rng) = (0, SplitMix64::new(1));
    group.bench_function("fast", |b| b.iter(|| full_games::<FastGame>(&open, &mut seed, &mut rng)));
    group.bench_function("reference", |b| b.iter(|| full_games::<ReferenceGame>(&open, &mut seed, &mut rng)));
    group.finish();
    let mut group = c.benchmark_group("map, 48 × 36, density 4");
    let config = Config::default();
    group.bench_function("generate", |b| {
        b.iter(|| {
            seed += 1;
            map::generate(&config, seed)
        })
    });
    group.bench_function("generate_reference", |b| {
        b.iter(|| {
            seed += 1;
            map::generate_reference(&config, seed)
        })
    });
    group.finish();
}

criterion_group!(benches, steps, searches, games);

/// Runs `what` `times` times (see the module documentation).
fn count(what: &str, times: u64) {
    match what {
        "step" | "lean-step" => {
            // The scripted game replayed step by step; one call is one step.
            let (start, _, actions) = script::<FastGame>();
            let lean_start = SearchState::from_game(&start).unwrap();
            let (mut game, mut lean) = (start.clone(), lean_start);
            let mut done = 0;
            while done < times {
                game.clone_from(&start);
                lean = lean_start;
                for a in actions.iter().take((times - done) as usize) {
                    if what == "step" {
                        let _ = game.step(black_box(a));
                    } else {
                        let _ = lean.step(black_box(a));
                    }
                    done += 1;
                }
            }
            black_box((game, lean));
        }
        "copy-step" | "lean-copy-step" => {
            // A warm position of the scripted game copied and stepped.
            let (_, states, actions) = script::<FastGame>();
            let hot: Vec<(FastGame, SearchState, [Action; 2])> = (100..116)
                .map(|i| (states[i].clone(), SearchState::from_game(&states[i]).unwrap(), actions[i]))
                .collect();
            let mut game = states[0].clone();
            let mut lean = SearchState::from_game(&game).unwrap();
            for t in 0..times as usize {
                let (g, l, a) = &hot[t % hot.len()];
                if what == "copy-step" {
                    game.clone_from(black_box(g));
                    let _ = game.step(black_box(a));
                } else {
                    lean = *black_box(l);
                    let _ = lean.step(black_box(a));
                }
                black_box((&game, &lean));
            }
        }
        "lean-voronoi-four-ahead" => {
            // The free-for-all leaf's split: four riders, two of them also
            // setting out from where they were (`voronoi_cells_ahead`).
            let state = SearchState::from_game(&four_riders()).unwrap();
            let starts = four_riders_starts();
            let mut owned: [space::lean::Plane; lightcycles_core::config::MAX_PLAYERS] =
                [[0; 64]; lightcycles_core::config::MAX_PLAYERS];
            for _ in 0..times {
                black_box(space::lean::voronoi_cells_ahead(black_box(&state), black_box(&starts), &mut owned));
            }
        }
        _ => {
            let (ticks, reach, lean) = match what {
                "voronoi-early" => (10, false, false),
                "voronoi-mid" => (250, false, false),
                "reachable-early" => (10, true, false),
                "reachable-mid" => (250, true, false),
                "lean-voronoi-early" => (10, false, true),
                "lean-voronoi-mid" => (250, false, true),
                "lean-reachable-early" => (10, true, true),
                "lean-reachable-mid" => (250, true, true),
                "voronoi-four" => (0, false, false),
                "lean-voronoi-four" => (0, false, true),
                _ => panic!("unknown measure {what}"),
            };
            let game = if ticks == 0 { four_riders() } else { board_at(ticks) };
            let state = SearchState::from_game(&game).unwrap();
            let mut scratch = Scratch::for_game(&game);
            for _ in 0..times {
                match (reach, lean) {
                    (true, false) => {
                        black_box(space::reachable_with(black_box(&game), game.head(0), &mut scratch));
                    }
                    (false, false) => {
                        black_box(space::voronoi_with(black_box(&game), &mut scratch));
                    }
                    (true, true) => {
                        black_box(space::lean::reachable(black_box(&state), state.head(0)));
                    }
                    (false, true) => {
                        black_box(space::lean::voronoi(black_box(&state)));
                    }
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--count") {
        let times = args.get(i + 2).and_then(|t| t.parse().ok()).expect("--count WHAT TIMES");
        count(&args[i + 1], times);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
