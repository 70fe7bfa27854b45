//! Whether the open cells of a board are all connected, as the rock loop
//! of the generator asks after every attempt (docs/RULES.md section 4.2).
//!
//! Two checkers answer the same question, as the two engines do: a plain
//! breadth-first search over the whole board ([`Connectivity`], the
//! reading of the rule book, behind [`super::generate_reference`]) and a
//! local check around the new rocks ([`CutCheck`], behind
//! [`super::generate`]), much quicker and tested to build the same maps.

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

/// A breadth-first search over the whole board, whose buffers are kept
/// between calls: the plain reading of section 4.2, used by
/// [`super::generate_reference`] and the tests.
pub(super) struct Connectivity {
    seen: Vec<bool>,
    queue: VecDeque<usize>,
}

impl Connectivity {
    pub(super) fn new(cells: usize) -> Self {
        Connectivity { seen: vec![false; cells], queue: VecDeque::with_capacity(cells) }
    }

    /// Whether the non-rock cells are all 4-connected to each other.
    pub(super) fn all_connected(&mut self, rocks: &[bool], w: u32, h: u32) -> bool {
        let (w, h) = (w as usize, h as usize);
        let open = rocks.iter().filter(|&&r| !r).count();
        let Some(first) = rocks.iter().position(|&r| !r) else {
            return true;
        };
        self.seen.iter_mut().for_each(|s| *s = false);
        self.queue.clear();
        self.seen[first] = true;
        self.queue.push_back(first);
        let mut reached = 0;
        while let Some(i) = self.queue.pop_front() {
            reached += 1;
            let (x, y) = (i % w, i / w);
            let mut visit = |j: usize| {
                if !rocks[j] && !self.seen[j] {
                    self.seen[j] = true;
                    self.queue.push_back(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        reached == open
    }
}

/// Decides whether the open cells are still all connected after a few cells
/// (an orbit) became rocks, given that they were connected before.
///
/// A connected graph stays connected after removing some cells exactly when
/// the open neighbours of the removed cells are still connected to each
/// other (every part left over touches a removed cell). New rocks side by
/// side are taken together as one cluster, and each cluster is checked on
/// its own (a cluster touches no other, so each part left over touches the
/// rest only through the one cluster beside it). Two checks, the cheap one
/// first:
///
/// 1. A lone new rock whose open neighbours lie on one arc of open cells of
///    its ring of eight: the arc joins them, in a few lookups. This settles
///    nearly every attempt on a sparse board.
/// 2. Otherwise, a breadth-first search from each open neighbour of the
///    cluster at once, in turns, merging searches that meet. All merged:
///    connected. One search runs out of cells before meeting the rest: it
///    enclosed a pocket, not connected. The work is bounded by the smallest
///    pocket or the shortest detour around the cluster, not by the board.
pub(super) struct CutCheck {
    /// `mark[cell] == epoch` when the current search has seen the cell.
    mark: Vec<u32>,
    /// Which source's search saw the cell first.
    source: Vec<u8>,
    epoch: u32,
    queues: Vec<Vec<u32>>,
}

/// The ring of eight around a cell, in order: consecutive cells are 4-adjacent.
const RING: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
/// The four neighbours of a cell.
const SIDES: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

impl CutCheck {
    pub(super) fn new(cells: usize) -> CutCheck {
        CutCheck { mark: vec![0; cells], source: vec![0; cells], epoch: 0, queues: Vec::new() }
    }

    pub(super) fn still_connected(&mut self, rocks: &[bool], w: u32, h: u32, orbit: &[(u32, u32)]) -> bool {
        let open =
            |x: i32, y: i32| x >= 0 && y >= 0 && x < w as i32 && y < h as i32 && !rocks[(y * w as i32 + x) as usize];
        // Group the new rocks into clusters of side-by-side cells: each
        // cluster's open neighbours must stay connected, and (the board being
        // connected before) that is enough: every part left over touches a
        // cluster, and a cluster touches one part only.
        let mut cluster = [0usize; 4];
        for i in 0..orbit.len() {
            cluster[i] = i;
            for j in 0..i {
                let (a, b) = (orbit[i], orbit[j]);
                if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1 {
                    let (from, to) = (cluster[j], cluster[i]);
                    cluster[..=i].iter_mut().filter(|c| **c == from).for_each(|c| *c = to);
                }
            }
        }
        for c in 0..orbit.len() {
            let members = || (0..orbit.len()).filter(move |&i| cluster[i] == c).map(|i| orbit[i]);
            let size = members().count();
            if size == 0 {
                continue;
            }
            if size == 1 {
                let (x, y) = orbit[c];
                if one_arc(&open, x as i32, y as i32) {
                    continue;
                }
            }
            let mut sources = [0u32; 16];
            let mut count = 0;
            for (x, y) in members() {
                for (dx, dy) in SIDES {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    let cell = (ny * w as i32 + nx) as u32;
                    if open(nx, ny) && !sources[..count].contains(&cell) {
                        sources[count] = cell;
                        count += 1;
                    }
                }
            }
            if !self.meet(rocks, w, h, &sources[..count]) {
                return false;
            }
        }
        true
    }

    /// Whether the searches from `sources` all meet.
    fn meet(&mut self, rocks: &[bool], w: u32, h: u32, sources: &[u32]) -> bool {
        let m = sources.len();
        if m <= 1 {
            return true;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.iter_mut().for_each(|v| *v = 0);
            self.epoch = 1;
        }
        while self.queues.len() < m {
            self.queues.push(Vec::new());
        }
        // Union-find over the sources; `active[root]`: how many searches of
        // that merged set still have cells to visit.
        let mut parent = [0u8; 16];
        let mut active = [0u32; 16];
        let mut read = [0usize; 16];
        for (i, &cell) in sources.iter().enumerate() {
            parent[i] = i as u8;
            active[i] = 1;
            self.mark[cell as usize] = self.epoch;
            self.source[cell as usize] = i as u8;
            self.queues[i].clear();
            self.queues[i].push(cell);
        }
        fn root(parent: &mut [u8; 16], mut i: u8) -> u8 {
            while parent[i as usize] != i {
                parent[i as usize] = parent[parent[i as usize] as usize];
                i = parent[i as usize];
            }
            i
        }
        let mut sets = m;
        let (w, h) = (w as usize, h as usize);
        loop {
            for (g, read) in read[..m].iter_mut().enumerate() {
                let Some(&cell) = self.queues[g].get(*read) else { continue };
                *read += 1;
                let (x, y) = (cell as usize % w, cell as usize / w);
                let mut look = |next: usize| {
                    if rocks[next] {
                        return false;
                    }
                    if self.mark[next] != self.epoch {
                        self.mark[next] = self.epoch;
                        self.source[next] = g as u8;
                        self.queues[g].push(next as u32);
                        return false;
                    }
                    let (a, b) = (root(&mut parent, g as u8), root(&mut parent, self.source[next]));
                    if a != b {
                        parent[b as usize] = a;
                        active[a as usize] += active[b as usize];
                        sets -= 1;
                    }
                    sets == 1
                };
                let done = (x > 0 && look(cell as usize - 1))
                    || (x + 1 < w && look(cell as usize + 1))
                    || (y > 0 && look(cell as usize - w))
                    || (y + 1 < h && look(cell as usize + w));
                if done {
                    return true;
                }
                if *read == self.queues[g].len() {
                    let r = root(&mut parent, g as u8) as usize;
                    active[r] -= 1;
                    if active[r] == 0 {
                        // This set's searches ran out: a closed pocket.
                        return false;
                    }
                }
            }
        }
    }
}

/// Whether the open 4-neighbours of `(x, y)` all lie on one arc of open
/// cells of its ring of eight (and are therefore connected around it).
fn one_arc(open: &impl Fn(i32, i32) -> bool, x: i32, y: i32) -> bool {
    let ring = RING.map(|(dx, dy)| open(x + dx, y + dy));
    let mut arcs_with_sides = 0;
    for start in 0..8 {
        if !ring[start] || ring[(start + 7) % 8] {
            continue;
        }
        // An arc starts here; does it hold a side (an even index)?
        let mut i = start;
        let mut side = false;
        while ring[i] {
            side |= i % 2 == 0;
            i = (i + 1) % 8;
            if i == start {
                break;
            }
        }
        arcs_with_sides += side as u32;
    }
    // No arc start means all eight are open (one ring) or none are.
    arcs_with_sides <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_arc_tells_a_bridge_from_a_bend() {
        // A vertical corridor cell: open above and below only: two arcs.
        let corridor = |x: i32, _y: i32| x == 1;
        assert!(!one_arc(&corridor, 1, 1));
        // A corner: open N, NE, E: one arc.
        let corner = |x: i32, y: i32| (x, y) == (1, 0) || (x, y) == (2, 0) || (x, y) == (2, 1);
        assert!(one_arc(&corner, 1, 1));
        // Everything open, or nothing: one ring, or no neighbour to keep.
        assert!(one_arc(&|_, _| true, 1, 1));
        assert!(one_arc(&|_, _| false, 1, 1));
        // N and E open but NE a rock: two arcs.
        let split = |x: i32, y: i32| (x, y) == (1, 0) || (x, y) == (2, 1);
        assert!(!one_arc(&split, 1, 1));
    }

    #[test]
    fn the_cut_check_finds_pockets_and_detours() {
        // 6 × 5, a wall with one gap at (3, 2); closing the gap cuts the board.
        let (w, h) = (6u32, 5u32);
        let mut rocks = vec![false; 30];
        for y in 0..h {
            if y != 2 {
                rocks[(y * w + 3) as usize] = true;
            }
        }
        let mut check = CutCheck::new(30);
        rocks[(2 * w + 3) as usize] = true;
        assert!(!check.still_connected(&rocks, w, h, &[(3, 2)]));
        // Open a detour at the top: closing the gap now keeps one region.
        rocks[3] = false;
        assert!(check.still_connected(&rocks, w, h, &[(3, 2)]));
        // Two rocks side by side fencing off the corner cell (0, 0).
        let mut rocks = vec![false; 30];
        rocks[1] = true;
        rocks[w as usize] = true;
        assert!(!check.still_connected(&rocks, w, h, &[(1, 0), (0, 1)]));
    }
}
