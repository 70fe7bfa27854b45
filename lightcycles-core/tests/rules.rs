//! docs/RULES.md section 7 and 8 on hand-built boards, one rule per test.

use lightcycles_core::{
    Action, Answer, CellValue, Config, Dir, Engine, FaultKind, FaultPolicy, PlayerState, Pos, Position, ReferenceGame,
    StepError, EMPTY,
};
use Dir::{E, N, S, W};

/// A board from a picture: `.` empty, `#` rock, a digit a cell of that
/// player's trail. `heads` gives each player's head, direction and whether
/// it is alive (dead players were eliminated on tick 1).
fn board(art: &[&str], heads: &[(u8, u8, Dir, bool)], policy: FaultPolicy, max_ticks: u32) -> ReferenceGame {
    let height = art.len() as u32;
    let width = art[0].len() as u32;
    let grid: Vec<CellValue> = art
        .iter()
        .flat_map(|row| row.chars())
        .map(|c| match c {
            '.' => EMPTY,
            '#' => -2,
            d => d.to_digit(10).expect("cell") as CellValue,
        })
        .collect();
    let players = heads
        .iter()
        .enumerate()
        .map(|(id, &(x, y, dir, alive))| PlayerState {
            pos: Pos::new(x, y),
            dir,
            alive,
            trail: grid.iter().filter(|&&v| v == id as CellValue).count() as u32,
            eliminated_at: if alive { None } else { Some(1) },
        })
        .collect();
    let config =
        Config { width, height, players: heads.len() as u32, max_ticks, rock_density: 0, fault_policy: policy };
    let tick = if heads.iter().all(|h| h.3) { 0 } else { 1 };
    ReferenceGame::from_position(&Position { config, tick, grid, players }).expect("a valid hand-built board")
}

fn open8(heads: &[(u8, u8, Dir, bool)], art: &[&str]) -> ReferenceGame {
    board(art, heads, FaultPolicy::Straight, 100)
}

fn mv(d: Dir) -> Action {
    Action::Move(d)
}

fn head(g: &ReferenceGame, i: usize) -> (u8, u8, Dir, bool) {
    let p = g.player(i);
    (p.pos.x, p.pos.y, p.dir, p.alive)
}

/// An 8 × 8 board with the given cells set.
fn with(cells: &[(usize, usize, char)]) -> Vec<String> {
    sized(8, cells)
}

/// A `side × side` board with the given cells set (three or more players need 16).
fn sized(side: usize, cells: &[(usize, usize, char)]) -> Vec<String> {
    let mut rows = vec![vec!['.'; side]; side];
    for &(x, y, c) in cells {
        rows[y][x] = c;
    }
    rows.into_iter().map(|r| r.into_iter().collect()).collect()
}

fn art(rows: &[String]) -> Vec<&str> {
    rows.iter().map(String::as_str).collect()
}

#[test]
fn riding_off_the_board_is_a_crash() {
    let rows = with(&[(0, 3, '0'), (5, 5, '1')]);
    let mut g = open8(&[(0, 3, W, true), (5, 5, N, true)], &art(&rows));
    g.step(&[mv(W), mv(N)]).unwrap();
    assert_eq!(head(&g, 0), (0, 3, W, false), "the head stays where it was");
    assert_eq!(head(&g, 1), (5, 4, N, true));
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.ticks, o.eliminated_at.clone()), (Some(1), 1, vec![Some(1), None]));
}

#[test]
fn a_rock_is_a_crash() {
    let rows = with(&[(2, 2, '0'), (3, 2, '#'), (6, 6, '1')]);
    let mut g = open8(&[(2, 2, E, true), (6, 6, N, true)], &art(&rows));
    g.step(&[Action::Keep, mv(N)]).unwrap();
    assert_eq!(head(&g, 0), (2, 2, E, false));
    assert_eq!(g.cell(Pos::new(3, 2)), -2, "the crash marks nothing");
}

#[test]
fn own_trail_is_a_crash() {
    // Player 0 rode E along y = 2 and turned S then W: going N runs into its trail.
    let rows = with(&[(2, 2, '0'), (3, 2, '0'), (3, 3, '0'), (2, 3, '0'), (6, 6, '1')]);
    let mut g = open8(&[(2, 3, W, true), (6, 6, N, true)], &art(&rows));
    g.step(&[mv(N), mv(N)]).unwrap();
    assert_eq!(head(&g, 0), (2, 3, N, false), "a crashed player still takes the new direction");
}

#[test]
fn another_living_trail_is_a_crash() {
    let rows = with(&[(2, 2, '0'), (4, 1, '1'), (4, 2, '1'), (4, 3, '1')]);
    let mut g = open8(&[(2, 2, E, true), (4, 3, S, true)], &art(&rows));
    g.step(&[Action::Keep, Action::Keep]).unwrap();
    assert_eq!(head(&g, 0), (3, 2, E, true));
    g.step(&[Action::Keep, Action::Keep]).unwrap();
    assert_eq!(head(&g, 0), (3, 2, E, false));
    assert_eq!(head(&g, 1), (4, 5, S, true));
}

#[test]
fn a_dead_players_trail_stays_solid() {
    let rows = sized(16, &[(2, 2, '0'), (3, 1, '2'), (3, 2, '2'), (6, 6, '1')]);
    let mut g = board(&art(&rows), &[(2, 2, E, true), (6, 6, N, true), (3, 2, S, false)], FaultPolicy::Straight, 100);
    g.step(&[Action::Keep, Action::Keep, mv(E)]).unwrap();
    assert_eq!(head(&g, 0), (2, 2, E, false));
    assert_eq!(head(&g, 2), (3, 2, S, false), "a dead player's command is ignored");
}

#[test]
fn head_on_into_an_empty_cell_crashes_both_and_marks_nothing() {
    let rows = with(&[(2, 3, '0'), (4, 3, '1')]);
    let mut g = open8(&[(2, 3, E, true), (4, 3, W, true)], &art(&rows));
    g.step(&[Action::Keep, Action::Keep]).unwrap();
    assert_eq!(head(&g, 0), (2, 3, E, false));
    assert_eq!(head(&g, 1), (4, 3, W, false));
    assert_eq!(g.cell(Pos::new(3, 3)), EMPTY);
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.draw, o.placements.clone()), (None, true, vec![1, 1]));
}

#[test]
fn swapping_cells_crashes_both() {
    let rows = with(&[(1, 3, '0'), (2, 3, '0'), (3, 3, '1'), (4, 3, '1')]);
    let mut g = open8(&[(2, 3, E, true), (3, 3, W, true)], &art(&rows));
    g.step(&[Action::Keep, Action::Keep]).unwrap();
    assert_eq!(head(&g, 0), (2, 3, E, false));
    assert_eq!(head(&g, 1), (3, 3, W, false));
    assert!(g.outcome().unwrap().draw);
}

#[test]
fn following_into_a_head_that_leaves_is_a_crash() {
    // Player 1's head is at (3, 3) and leaves it northward; player 0 follows into it.
    let rows = with(&[(2, 3, '0'), (3, 3, '1'), (3, 4, '1')]);
    let mut g = open8(&[(2, 3, E, true), (3, 3, N, true)], &art(&rows));
    g.step(&[Action::Keep, Action::Keep]).unwrap();
    assert_eq!(head(&g, 0), (2, 3, E, false));
    assert_eq!(head(&g, 1), (3, 2, N, true));
    assert_eq!(g.outcome().unwrap().winner, Some(1));
}

#[test]
fn reversal_is_ignored_with_a_neck_and_allowed_on_the_first_move() {
    let rows = with(&[(2, 3, '0'), (3, 3, '0'), (6, 6, '1')]);
    let mut g = open8(&[(3, 3, E, true), (6, 6, W, true)], &art(&rows));
    g.step(&[mv(W), mv(E)]).unwrap();
    assert_eq!(head(&g, 0), (4, 3, E, true), "a neck: the reversal keeps the direction");
    assert_eq!(head(&g, 1), (7, 6, E, true), "no neck yet: the first move may reverse");
    g.step(&[mv(N), mv(W)]).unwrap();
    assert_eq!(head(&g, 1), (7, 6, E, false), "with a neck now, W is ignored and E rides off the board");
}

#[test]
fn invalid_lines_are_no_move_under_straight() {
    let rows = with(&[(2, 3, '0'), (0, 7, '1')]);
    let mut g = open8(&[(2, 3, E, true), (0, 7, N, true)], &art(&rows));
    for line in [&b"n"[..], b"NORTH", b"", b"N E", b"\xff"] {
        let a = Answer::from_line(line);
        assert_eq!(a.fault, Some(FaultKind::Invalid));
        g.step(&[a.action(), Action::Keep]).unwrap();
    }
    assert_eq!(head(&g, 0), (7, 3, E, true));
    assert_eq!(head(&g, 1), (0, 2, N, true));
    g.step(&[Action::Fault(FaultKind::Timeout), Action::Fault(FaultKind::Crash)]).unwrap();
    assert_eq!(head(&g, 0), (7, 3, E, false), "a timeout is no move: player 0 rode off the right");
    assert_eq!(head(&g, 1), (0, 1, N, true), "a crash fault is no move: player 1 rode on");
    assert_eq!(g.outcome().unwrap().winner, Some(1));
}

#[test]
fn a_fault_under_eliminate_crashes_where_it_stands() {
    for kind in [FaultKind::Invalid, FaultKind::Timeout, FaultKind::Crash] {
        // Player 0 faults; player 1 aims at the cell player 0 would have
        // entered (no head-on: player 0 takes no part) and player 2 follows
        // into player 0's head (solid).
        let rows = sized(16, &[(2, 3, '0'), (4, 3, '1'), (2, 5, '2'), (2, 4, '2')]);
        let mut g =
            board(&art(&rows), &[(2, 3, E, true), (4, 3, W, true), (2, 4, N, true)], FaultPolicy::Eliminate, 100);
        g.step(&[Action::Fault(kind), Action::Keep, Action::Keep]).unwrap();
        assert_eq!(head(&g, 0), (2, 3, E, false), "{kind}: eliminated, head and direction unchanged");
        assert_eq!(head(&g, 1), (3, 3, W, true), "{kind}: no head-on with a faulted player");
        assert_eq!(head(&g, 2), (2, 4, N, false), "{kind}: the faulted head is solid");
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(1));
        assert_eq!(o.eliminated_at, vec![Some(1), None, Some(1)]);
        assert_eq!(o.placements, vec![2, 1, 2]);
    }
    // Under eliminate, no answer without a fault is still no move.
    let rows = with(&[(2, 3, '0'), (6, 6, '1')]);
    let mut g = board(&art(&rows), &[(2, 3, E, true), (6, 6, N, true)], FaultPolicy::Eliminate, 100);
    g.step(&[Action::Keep, Action::Keep]).unwrap();
    assert_eq!(head(&g, 0), (3, 3, E, true));
}

#[test]
fn the_tick_cap_is_a_draw_between_equal_survivors() {
    let rows = with(&[(1, 1, '0'), (1, 5, '1')]);
    let mut g = open8(&[(1, 1, E, true), (1, 5, E, true)], &art(&rows));
    let mut g2 = g.clone();
    for _ in 0..3 {
        g.step(&[Action::Keep, Action::Keep]).unwrap();
    }
    assert!(!g.is_over());
    let config = Config { max_ticks: 3, ..*g2.config() };
    g2 = ReferenceGame::from_position(&Position { config, ..g2.position() }).unwrap();
    for _ in 0..3 {
        g2.step(&[Action::Keep, Action::Keep]).unwrap();
    }
    let o = g2.outcome().unwrap();
    assert_eq!((o.winner, o.draw, o.ticks), (None, true, 3));
    assert_eq!(o.placements, vec![1, 1]);
    assert_eq!(o.trails, vec![4, 4]);
    assert_eq!(o.eliminated_at, vec![None, None]);
    assert_eq!(g2.step(&[Action::Keep, Action::Keep]), Err(StepError::GameOver));
}

#[test]
fn at_the_cap_the_longest_trail_wins() {
    // Unequal trails cannot arise in play, but the comparison is a rule: a
    // position where player 1 already has a longer trail.
    let rows = sized(16, &[(1, 1, '0'), (1, 5, '1'), (2, 5, '1'), (5, 7, '2')]);
    let mut g = board(&art(&rows), &[(1, 1, E, true), (2, 5, E, true), (5, 7, E, true)], FaultPolicy::Straight, 1);
    g.step(&[Action::Keep, Action::Keep, mv(S)]).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.draw), (Some(1), false));
    assert_eq!(o.trails, vec![2, 3, 2]);
    assert_eq!(o.placements, vec![2, 1, 2]);
}

#[test]
fn three_crash_on_one_tick_a_draw_with_placements() {
    // Player 3 dies on tick 1; players 0, 1, 2 all crash on tick 2.
    let rows: Vec<String> = [
        "................",
        ".0..............",
        "................",
        "..............1.",
        "................",
        "................",
        "...............2",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "3...............",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut g = board(
        &art(&rows),
        &[(1, 1, W, true), (14, 3, E, true), (15, 6, S, true), (0, 15, W, true)],
        FaultPolicy::Straight,
        100,
    );
    g.step(&[Action::Keep, Action::Keep, Action::Keep, Action::Keep]).unwrap();
    assert_eq!(g.player(3).eliminated_at, Some(1));
    assert!(!g.is_over());
    g.step(&[mv(W), mv(E), mv(E), Action::Keep]).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.draw, o.ticks), (None, true, 2));
    assert_eq!(o.eliminated_at, vec![Some(2), Some(2), Some(2), Some(1)]);
    assert_eq!(o.placements, vec![1, 1, 1, 4]);
}

#[test]
fn bad_steps_are_errors() {
    let rows = with(&[(2, 3, '0'), (6, 6, '1')]);
    let mut g = open8(&[(2, 3, E, true), (6, 6, N, true)], &art(&rows));
    assert_eq!(g.step(&[Action::Keep]), Err(StepError::WrongLength { expected: 2, got: 1 }));
    assert_eq!(g.tick(), 0, "a rejected step changes nothing");
}

#[test]
fn positions_that_break_an_invariant_are_rejected() {
    let rows = with(&[(2, 3, '0'), (6, 6, '1')]);
    let g = open8(&[(2, 3, E, true), (6, 6, N, true)], &art(&rows));
    let good = g.position();
    let mut p = good.clone();
    p.players[0].pos = Pos::new(3, 3);
    assert!(ReferenceGame::from_position(&p).unwrap_err().to_string().contains("player 0's head (3, 3)"));
    let mut p = good.clone();
    p.players[1].trail = 2;
    assert!(ReferenceGame::from_position(&p).unwrap_err().to_string().contains("trail of 2 but 1 cells"));
    let mut p = good.clone();
    p.grid[0] = 5;
    assert!(ReferenceGame::from_position(&p).unwrap_err().to_string().contains("cell (0, 0) holds 5"));
    let mut p = good.clone();
    p.grid.pop();
    assert!(ReferenceGame::from_position(&p).is_err());
    let mut p = good;
    p.players[0].alive = false;
    assert!(ReferenceGame::from_position(&p).unwrap_err().to_string().contains("alive = false"));
}
