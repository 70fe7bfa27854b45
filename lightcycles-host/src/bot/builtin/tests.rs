//! The built-in bots' behaviour, each through [`Builtin::make`] as a run
//! makes it.

use std::time::Duration;

use lightcycles_core::{Dir, SplitMix64};

use crate::bot::builtin::{Builtin, FuzzKind};
use crate::bot::{BotContext, Reply, Turn};
use lightcycles_core::{parse_move, Action, Answer, Config, Engine, FaultKind, Position, ReferenceGame, Start};
use std::collections::HashSet;

fn ctx(seed: u64, seat: usize) -> BotContext {
    BotContext { game: 0, seat, players: 2, seed }
}

/// A hand-made position: player 0 at (1, 1) facing E with a neck at
/// (0, 1); rocks at (2, 1) and (1, 0); so only S is safe.
fn cornered() -> Position {
    let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
    let mut position = Position::start(
        &config,
        &lightcycles_core::Map::from_parts(
            8,
            8,
            &[lightcycles_core::Pos::new(2, 1), lightcycles_core::Pos::new(1, 0)],
            &[
                lightcycles_core::Start { pos: lightcycles_core::Pos::new(0, 1), dir: Dir::E },
                lightcycles_core::Start { pos: lightcycles_core::Pos::new(6, 6), dir: Dir::W },
            ],
        )
        .unwrap(),
    );
    let mut game = ReferenceGame::from_position(&position).unwrap();
    game.step(&[Action::Move(Dir::E), Action::Keep]).unwrap();
    position = game.position();
    assert_eq!(position.players[0].pos, lightcycles_core::Pos::new(1, 1));
    position
}

#[test]
fn names_round_trip() {
    for b in Builtin::ALL {
        assert_eq!(Builtin::from_name(b.name()), Some(b));
    }
    assert_eq!(Builtin::from_name("Random"), None);
    assert_eq!(Builtin::names(), "random, fuzz, straight, wallhug, floodfill, search");
}

#[test]
fn random_takes_the_only_safe_move_and_never_reverses_into_its_neck() {
    let position = cornered();
    let turn = Turn::new(&position, 0);
    for seed in 0..100 {
        let mut bot = Builtin::Random.make(&ctx(seed, 0));
        assert_eq!(bot.answer(&turn, Duration::ZERO), Reply::of_dir(Dir::S), "seed {seed}");
    }
}

#[test]
fn random_spreads_over_the_safe_moves() {
    let config = Config { width: 16, height: 16, rock_density: 0, ..Config::default() };
    let game = ReferenceGame::seeded(&config, 9).unwrap();
    let position = game.position();
    let turn = Turn::new(&position, 0);
    let mut seen = HashSet::new();
    for seed in 0..64 {
        let mut bot = Builtin::Random.make(&ctx(seed, 0));
        let Reply::Line(line) = bot.answer(&turn, Duration::ZERO) else { panic!("random always answers") };
        let dir = parse_move(&line).expect("random answers a valid move");
        assert!(!turn.crashes_at_once(dir));
        seen.insert(dir);
    }
    assert_eq!(seen.len(), 4, "on an open board with no neck every direction is drawn");
}

#[test]
fn random_moves_anyway_when_nothing_is_safe() {
    let mut position = cornered();
    // Block the last way out.
    position.grid[2 * 8 + 1] = lightcycles_core::ROCK;
    let turn = Turn::new(&position, 0);
    let mut bot = Builtin::Random.make(&ctx(1, 0));
    assert!(matches!(bot.answer(&turn, Duration::ZERO), Reply::Line(l) if parse_move(&l).is_some()));
}

#[test]
fn straight_names_its_own_direction() {
    let position = cornered();
    let mut bot = Builtin::Straight.make(&ctx(0, 0));
    assert_eq!(bot.answer(&Turn::new(&position, 0), Duration::ZERO), Reply::of_dir(Dir::E));
    assert_eq!(bot.answer(&Turn::new(&position, 1), Duration::ZERO), Reply::of_dir(Dir::W));
}

/// An 8 × 8 board without rocks, player 0 starting at `start` (no neck
/// yet) and player 1 at (7, 7) facing W, with `rocks` added.
fn board(start: Start, rocks: &[lightcycles_core::Pos]) -> Position {
    let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
    let starts = [start, Start { pos: lightcycles_core::Pos::new(7, 7), dir: Dir::W }];
    Position::start(&config, &lightcycles_core::Map::from_parts(8, 8, rocks, &starts).unwrap())
}

fn answer_of(bot: Builtin, position: &Position, seed: u64) -> Dir {
    let mut bot = bot.make(&ctx(seed, 0));
    let Reply::Line(line) = bot.answer(&Turn::new(position, 0), Duration::ZERO) else { panic!("no line") };
    parse_move(&line).expect("a valid move")
}

#[test]
fn wallhug_rides_along_the_wall_keeping_it_on_its_left() {
    // At (0, 3) facing N: N and S both touch the edge and the head; N
    // comes first (straight before back); W is off the board.
    let position = board(Start { pos: lightcycles_core::Pos::new(0, 3), dir: Dir::N }, &[]);
    assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::N);
    // Facing E along the top edge: the left turn (N) is off the board,
    // straight keeps the edge on its left.
    let position = board(Start { pos: lightcycles_core::Pos::new(3, 0), dir: Dir::E }, &[]);
    assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::E);
    // The only safe move is taken, for any seed: no randomness.
    let position = cornered();
    for seed in 0..20 {
        assert_eq!(answer_of(Builtin::Wallhug, &position, seed), Dir::S);
    }
}

#[test]
fn wallhug_enters_a_dead_end_only_when_nothing_else_is_left() {
    // At (3, 3) facing E. (4, 3) is a pocket: rocks above, below and
    // beyond it, so it touches 4 solid cells and leads nowhere; (3, 2)
    // touches 2 (the rock at (4, 2) and the head).
    let p = lightcycles_core::Pos::new;
    let pocket = [p(4, 2), p(4, 4), p(5, 3)];
    let position = board(Start { pos: p(3, 3), dir: Dir::E }, &pocket);
    assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::N);
    // Close every other way: the pocket is the last move left.
    let walled = [p(4, 2), p(4, 4), p(5, 3), p(3, 2), p(3, 4), p(2, 3)];
    let position = board(Start { pos: p(3, 3), dir: Dir::E }, &walled);
    assert_eq!(answer_of(Builtin::Wallhug, &position, 0), Dir::E);
}

#[test]
fn floodfill_takes_the_side_with_more_room() {
    let p = lightcycles_core::Pos::new;
    // A wall of rock across row `y` with a gap at x = 3 where player 0
    // starts facing E: N leads into rows above, S into rows below.
    let split = |y: u8| {
        let rocks: Vec<_> = (0..8).filter(|&x| x != 3).map(|x| p(x, y)).collect();
        board(Start { pos: p(3, y), dir: Dir::E }, &rocks)
    };
    for seed in 0..20 {
        assert_eq!(answer_of(Builtin::Floodfill, &split(4), seed), Dir::N, "32 cells above, 24 below");
        assert_eq!(answer_of(Builtin::Floodfill, &split(3), seed), Dir::S, "24 cells above, 32 below");
    }
}

#[test]
fn floodfill_breaks_ties_with_its_seeded_generator() {
    let config = Config { width: 16, height: 16, rock_density: 0, ..Config::default() };
    let starts = [
        Start { pos: lightcycles_core::Pos::new(7, 7), dir: Dir::N },
        Start { pos: lightcycles_core::Pos::new(14, 14), dir: Dir::W },
    ];
    let position = Position::start(&config, &lightcycles_core::Map::from_parts(16, 16, &[], &starts).unwrap());
    // Every direction keeps the same room and touches one solid cell.
    let seen: HashSet<Dir> = (0..64).map(|seed| answer_of(Builtin::Floodfill, &position, seed)).collect();
    assert_eq!(seen.len(), 4);
    for seed in 0..8 {
        assert_eq!(answer_of(Builtin::Floodfill, &position, seed), answer_of(Builtin::Floodfill, &position, seed));
    }
}

#[test]
fn floodfill_avoids_a_head_on_when_the_room_is_equal() {
    let p = lightcycles_core::Pos::new;
    // Player 0 at (3, 3) facing N, player 1 two cells east at (5, 3):
    // (4, 3) touches player 1's head; N, W and S keep the same room.
    let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
    let starts = [Start { pos: p(3, 3), dir: Dir::N }, Start { pos: p(5, 3), dir: Dir::W }];
    let position = Position::start(&config, &lightcycles_core::Map::from_parts(8, 8, &[], &starts).unwrap());
    for seed in 0..32 {
        assert_ne!(answer_of(Builtin::Floodfill, &position, seed), Dir::E, "seed {seed}");
    }
}

#[test]
fn every_fuzz_kind_is_what_it_claims() {
    let mut rng = SplitMix64::new(3);
    for _ in 0..50 {
        for kind in FuzzKind::ALL {
            let reply = kind.reply(Dir::S, &mut rng);
            let answer = match &reply {
                Reply::Line(bytes) => Answer::from_line(bytes),
                Reply::Timeout => Answer::fault(FaultKind::Timeout),
                Reply::NoMove => Answer::none(),
                Reply::Crash => unreachable!("fuzz never crashes"),
            };
            let Reply::Line(bytes) = &reply else {
                assert!(matches!(kind, FuzzKind::NoAnswer | FuzzKind::Declines), "{kind:?}");
                continue;
            };
            match kind {
                FuzzKind::PaddedMove => assert_eq!(answer.action(), Action::Move(Dir::S)),
                _ => assert_eq!(answer.fault, Some(FaultKind::Invalid), "{kind:?} {reply:?}"),
            }
            match kind {
                FuzzKind::Over64 => assert!((65..=1024).contains(&bytes.len()), "{}", bytes.len()),
                FuzzKind::Over1024 => assert!(bytes.len() > 1024),
                FuzzKind::NotUtf8 => assert!(std::str::from_utf8(bytes).is_err()),
                FuzzKind::LowerCase => assert_eq!(bytes, b"s"),
                _ => {}
            }
            if kind == FuzzKind::Over64 {
                let line = answer.line.unwrap();
                assert!(line.ends_with('…') && line.len() <= 60 + '…'.len_utf8(), "{line:?}");
            }
        }
    }
}

#[test]
fn fuzz_is_seeded_and_mixes_moves_with_every_kind_of_fault() {
    let config = Config { width: 16, height: 16, rock_density: 0, ..Config::default() };
    let game = ReferenceGame::seeded(&config, 4).unwrap();
    let position = game.position();
    let turn = Turn::new(&position, 1);
    let run = |seed| {
        let mut bot = Builtin::Fuzz.make(&ctx(seed, 1));
        (0..300).map(|_| bot.answer(&turn, Duration::ZERO)).collect::<Vec<_>>()
    };
    let replies = run(11);
    assert_eq!(replies, run(11), "same seed and seat, same answers");
    assert_ne!(replies, run(12));
    let moves = replies.iter().filter(|r| matches!(r, Reply::Line(l) if parse_move(l).is_some())).count();
    assert!(moves > 150, "mostly moves: {moves}");
    assert!(replies.contains(&Reply::Timeout));
    assert!(replies.contains(&Reply::NoMove));
    let invalid = replies.iter().filter(|r| matches!(r, Reply::Line(l) if parse_move(l).is_none())).count();
    assert!(invalid > 30, "{invalid}");
}
