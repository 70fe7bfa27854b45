//! The transposition table: what earlier searches found about a position,
//! so that iterative deepening, the next tick's search and transpositions
//! within one tree do not redo the work, and the best move found so far is
//! tried first.

use lightcycles_core::Dir;

/// What a stored value says about the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's full key (the table's index uses only its low bits).
    pub key: u64,
    /// The value, from the searching player's side, relative to this
    /// position for won and lost games (see [`Table::store`]).
    pub value: i32,
    /// Ticks searched below the position.
    pub depth: u8,
    /// What `value` is.
    pub bound: Bound,
    /// The best move found, if any.
    pub best: Option<Dir>,
}

const EMPTY: Entry = Entry { key: 0, value: 0, depth: 0, bound: Bound::Upper, best: None };

/// A fixed-size table indexed by the key's low bits; a new result replaces
/// an old one of the same slot unless the old one is of another position
/// and was searched deeper.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Entry>,
    mask: u64,
    /// Values beyond this are won or lost games, stored relative to the node.
    mate: i32,
}

impl Table {
    /// A table of `2^bits` entries; values of magnitude above `mate` count
    /// ticks to the end of the game.
    pub fn new(bits: u32, mate: i32) -> Table {
        Table { entries: vec![EMPTY; 1 << bits], mask: (1 << bits) - 1, mate }
    }

    /// The entry of `key`, if the table holds one. `ply` is the position's
    /// distance from the root, to turn a stored game end back into a
    /// distance from the root.
    pub fn probe(&self, key: u64, ply: u32) -> Option<Entry> {
        let e = self.entries[(key & self.mask) as usize];
        (e.key == key && (e.depth > 0 || e.bound == Bound::Exact))
            .then(|| Entry { value: to_root(e.value, ply, self.mate), ..e })
    }

    /// Stores a result for `key` found at `ply` from the root.
    pub fn store(&mut self, key: u64, ply: u32, depth: u8, value: i32, bound: Bound, best: Option<Dir>) {
        let slot = &mut self.entries[(key & self.mask) as usize];
        if slot.key != key && slot.depth > depth {
            return;
        }
        let best = best.or(if slot.key == key { slot.best } else { None });
        *slot = Entry { key, value: to_node(value, ply, self.mate), depth, bound, best };
    }
}

/// A game end stored as counted from a node `ply` ticks below the root,
/// counted from the root again.
fn to_root(value: i32, ply: u32, mate: i32) -> i32 {
    if value > mate {
        value - ply as i32
    } else if value < -mate {
        value + ply as i32
    } else {
        value
    }
}

/// A game end `ply` ticks below the root, stored as counted from the node.
fn to_node(value: i32, ply: u32, mate: i32) -> i32 {
    if value > mate {
        value + ply as i32
    } else if value < -mate {
        value - ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_results_come_back_for_their_key_only() {
        let mut t = Table::new(4, 1000);
        t.store(0x35, 0, 3, 17, Bound::Lower, Some(Dir::E));
        assert_eq!(
            t.probe(0x35, 0),
            Some(Entry { key: 0x35, value: 17, depth: 3, bound: Bound::Lower, best: Some(Dir::E) })
        );
        assert_eq!(t.probe(0x45, 0), None, "same slot, other key");
        assert_eq!(t.probe(0x36, 0), None);
    }

    #[test]
    fn deeper_results_of_other_positions_are_kept() {
        let mut t = Table::new(4, 1000);
        t.store(0x35, 0, 5, 1, Bound::Exact, Some(Dir::N));
        t.store(0x45, 0, 2, 2, Bound::Exact, None);
        assert!(t.probe(0x45, 0).is_none());
        t.store(0x35, 0, 1, 3, Bound::Upper, None);
        let e = t.probe(0x35, 0).unwrap();
        assert_eq!((e.value, e.depth, e.best), (3, 1, Some(Dir::N)), "the same position is refreshed, its move kept");
    }

    #[test]
    fn game_ends_are_counted_from_the_node() {
        let mut t = Table::new(4, 1000);
        // A win 5 ticks below the root found at ply 2: 3 ticks below the node.
        t.store(7, 2, 3, 2000 - 5, Bound::Exact, None);
        assert_eq!(t.probe(7, 2).unwrap().value, 2000 - 5);
        // Met again at ply 4: the win is 7 ticks from the root.
        assert_eq!(t.probe(7, 4).unwrap().value, 2000 - 7);
        t.store(8, 1, 3, -2000 + 4, Bound::Exact, None);
        assert_eq!(t.probe(8, 0).unwrap().value, -2000 + 3);
        t.store(9, 1, 3, 999, Bound::Exact, None);
        assert_eq!(t.probe(9, 6).unwrap().value, 999, "ordinary values stay");
    }
}
