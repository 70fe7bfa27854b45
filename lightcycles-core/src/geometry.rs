//! Cells and directions (docs/RULES.md sections 1 and 2).

use core::fmt;

/// One of the four directions a cycle can ride, with its protocol code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// Code 0, `(0, -1)`.
    N = 0,
    /// Code 1, `(+1, 0)`.
    E = 1,
    /// Code 2, `(0, +1)`.
    S = 2,
    /// Code 3, `(-1, 0)`.
    W = 3,
}

impl Dir {
    /// All directions in code order.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction of a code `0..=3`, or `None`.
    pub const fn from_code(code: u32) -> Option<Dir> {
        match code {
            0 => Some(Dir::N),
            1 => Some(Dir::E),
            2 => Some(Dir::S),
            3 => Some(Dir::W),
            _ => None,
        }
    }

    /// The protocol code `0..=3`.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// `(d + 2) mod 4`.
    pub const fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 4]
    }

    /// Swaps `E` and `W`.
    pub const fn mirror_x(self) -> Dir {
        match self {
            Dir::E => Dir::W,
            Dir::W => Dir::E,
            d => d,
        }
    }

    /// Swaps `N` and `S`.
    pub const fn mirror_y(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::S => Dir::N,
            d => d,
        }
    }

    /// `(dx, dy)` of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }

    /// The one-letter name used in commands, observations and replays.
    pub const fn letter(self) -> char {
        match self {
            Dir::N => 'N',
            Dir::E => 'E',
            Dir::S => 'S',
            Dir::W => 'W',
        }
    }

    /// The one-letter name as a string slice.
    pub const fn as_str(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::E => "E",
            Dir::S => "S",
            Dir::W => "W",
        }
    }

    /// Parses exactly `N`, `E`, `S` or `W` (no trimming: see [`crate::command`]).
    pub fn from_letter(s: &str) -> Option<Dir> {
        match s {
            "N" => Some(Dir::N),
            "E" => Some(Dir::E),
            "S" => Some(Dir::S),
            "W" => Some(Dir::W),
            _ => None,
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of directions, one bit per direction code: what
/// [`crate::space::safe_moves`] answers, and what a search keeps of the
/// moves it still has to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DirSet(u8);

impl DirSet {
    /// No direction.
    pub const NONE: DirSet = DirSet(0);

    /// The set as bits: bit `d.code()` for each direction `d` in it.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `dir` is in the set.
    pub const fn contains(self, dir: Dir) -> bool {
        self.0 >> dir.code() & 1 != 0
    }

    /// The number of directions in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `dir` added.
    pub const fn with(self, dir: Dir) -> DirSet {
        DirSet(self.0 | 1 << dir.code())
    }

    /// The directions in the set, in code order.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |&d| self.contains(d))
    }
}

/// A cell of the board; `x` grows to the right, `y` downward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Column, from 0 on the left.
    pub x: u8,
    /// Row, from 0 at the top.
    pub y: u8,
}

impl Pos {
    /// A cell at `(x, y)`.
    pub const fn new(x: u8, y: u8) -> Pos {
        Pos { x, y }
    }

    /// The neighbour one step in `dir`, or `None` when it is off a
    /// `width × height` board (off the board is a wall).
    pub fn step(self, dir: Dir, width: u32, height: u32) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        let x = self.x as i32 + dx;
        let y = self.y as i32 + dy;
        if x < 0 || y < 0 || x >= width as i32 || y >= height as i32 {
            None
        } else {
            Some(Pos::new(x as u8, y as u8))
        }
    }

    /// Row-major index on a board `width` cells wide.
    pub const fn index(self, width: u32) -> usize {
        self.y as usize * width as usize + self.x as usize
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The value of one cell (docs/RULES.md section 1): `-1` empty, `-2` rock,
/// `p ≥ 0` the trail (head included) of player `p`.
pub type CellValue = i8;
/// An empty cell.
pub const EMPTY: CellValue = -1;
/// A rock.
pub const ROCK: CellValue = -2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_table_of_rules_section_2() {
        assert_eq!(Dir::N.delta(), (0, -1));
        assert_eq!(Dir::E.delta(), (1, 0));
        assert_eq!(Dir::S.delta(), (0, 1));
        assert_eq!(Dir::W.delta(), (-1, 0));
        for d in Dir::ALL {
            assert_eq!(Dir::from_code(d.code() as u32), Some(d));
            assert_eq!(d.opposite().code(), (d.code() + 2) % 4);
            assert_eq!(Dir::from_letter(d.as_str()), Some(d));
        }
        assert_eq!(Dir::from_code(4), None);
        assert_eq!(Dir::E.mirror_x(), Dir::W);
        assert_eq!(Dir::N.mirror_x(), Dir::N);
        assert_eq!(Dir::N.mirror_y(), Dir::S);
        assert_eq!(Dir::W.mirror_y(), Dir::W);
    }

    #[test]
    fn off_the_board_is_none() {
        assert_eq!(Pos::new(0, 0).step(Dir::N, 8, 8), None);
        assert_eq!(Pos::new(0, 0).step(Dir::W, 8, 8), None);
        assert_eq!(Pos::new(7, 7).step(Dir::E, 8, 8), None);
        assert_eq!(Pos::new(7, 7).step(Dir::S, 8, 8), None);
        assert_eq!(Pos::new(3, 3).step(Dir::E, 8, 8), Some(Pos::new(4, 3)));
    }
}
