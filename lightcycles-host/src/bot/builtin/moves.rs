//! The moves the simple built-in bots weigh: a uniform draw, a random move
//! that does not crash at once, and the safe moves in turning order.

use lightcycles_core::{Dir, Pos, SplitMix64};

use crate::bot::Turn;

/// Uniform in `0..n` for a small `n ≥ 1`.
pub fn pick(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// A random move among those that do not crash at once; any move if none is
/// safe. A reversal into the neck is not a move of its own (it goes
/// straight), so it is never counted twice.
pub fn random_safe_move(turn: &Turn<'_>, rng: &mut SplitMix64) -> Dir {
    // On the stack: RL environments ask this of every opponent every tick.
    let (mut safe, mut n) = ([Dir::N; 4], 0);
    for d in Dir::ALL.into_iter().filter(|&d| turn.effective(d) == d && !turn.crashes_at_once(d)) {
        safe[n] = d;
        n += 1;
    }
    if n == 0 {
        Dir::ALL[pick(rng, 4)]
    } else {
        safe[pick(rng, n)]
    }
}

/// The moves worth weighing, in the order left turn, straight, right turn,
/// then back (only on the first move, before the cycle has a neck; later a
/// reversal is no move of its own), with the cell each leads to, keeping
/// those that do not crash at once.
pub fn safe_moves(turn: &Turn<'_>) -> Vec<(Dir, Pos)> {
    let dir = turn.me().dir;
    let turned = |quarter: u8| Dir::from_code(u32::from((dir.code() + quarter) % 4)).expect("a code below 4");
    let (w, h) = (turn.width(), turn.height());
    [turned(3), dir, turned(1), turned(2)]
        .into_iter()
        .filter(|&d| turn.effective(d) == d && !turn.crashes_at_once(d))
        .filter_map(|d| turn.me().pos.step(d, w, h).map(|target| (d, target)))
        .collect()
}
