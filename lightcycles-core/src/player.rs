//! One player as the rules see it, and the one rule about its moves that
//! depends on the player alone: a cycle never reverses into its own neck
//! (docs/RULES.md section 7, step 2). Both engines, the space helpers and every
//! bot that predicts a move ask this module, so the rule is written once.

use crate::geometry::{Dir, DirSet, Pos};

/// One player as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerState {
    /// The head (the last head, for an eliminated player).
    pub pos: Pos,
    /// The current direction.
    pub dir: Dir,
    /// Whether the player still rides.
    pub alive: bool,
    /// Trail length in cells, head included.
    pub trail: u32,
    /// The tick on which the player was eliminated.
    pub eliminated_at: Option<u32>,
}

/// Whether asking for `asked` reverses into the neck of a cycle riding `dir`
/// with a trail of `trail` cells: the reversal of its direction while it
/// has a neck (two cells or more). On its first move a cycle has no neck.
#[inline(always)]
pub const fn reverses_into_neck(dir: Dir, trail: u32, asked: Dir) -> bool {
    // Two directions are opposite exactly when their codes differ by 2
    // (the form the fast engine's step compiles best).
    trail >= 2 && (asked as u8 ^ dir as u8) == 2
}

/// The direction a cycle riding `dir` with a trail of `trail` cells takes
/// when it asks for `asked`: `asked`, unless that reverses into its neck,
/// which keeps `dir`.
#[inline(always)]
pub const fn resolve(dir: Dir, trail: u32, asked: Dir) -> Dir {
    if reverses_into_neck(dir, trail, asked) {
        dir
    } else {
        asked
    }
}

impl PlayerState {
    /// Whether asking for `asked` reverses into this player's neck (see
    /// [`reverses_into_neck`]).
    #[inline]
    pub const fn reverses_into_neck(&self, asked: Dir) -> bool {
        reverses_into_neck(self.dir, self.trail, asked)
    }

    /// The direction this player takes when it asks for `asked` (see
    /// [`resolve`]).
    #[inline]
    pub const fn resolve(&self, asked: Dir) -> Dir {
        resolve(self.dir, self.trail, asked)
    }

    /// The moves that do not crash at once on a `width × height` board
    /// whose free cells are those where `is_free` holds: the target is on
    /// the board and free, and the direction is not the reversal into the
    /// neck (that command keeps the current direction, so it is not a move
    /// of its own). Whether the player still rides is not asked: see
    /// [`crate::space::safe_moves`] for a player of a game.
    #[inline]
    pub fn safe_moves(&self, width: u32, height: u32, is_free: impl Fn(Pos) -> bool) -> DirSet {
        let mut moves = DirSet::NONE;
        for d in Dir::ALL {
            if !self.reverses_into_neck(d) && self.pos.step(d, width, height).is_some_and(&is_free) {
                moves = moves.with(d);
            }
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neck_turns_the_reversal_into_keeping_on() {
        for dir in Dir::ALL {
            for asked in Dir::ALL {
                let reverses = asked == dir.opposite();
                assert!(!reverses_into_neck(dir, 1, asked), "no neck on the first move");
                assert_eq!(resolve(dir, 1, asked), asked);
                assert_eq!(reverses_into_neck(dir, 2, asked), reverses);
                assert_eq!(resolve(dir, 7, asked), if reverses { dir } else { asked });
            }
        }
    }
}
