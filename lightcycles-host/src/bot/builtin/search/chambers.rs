//! How many moves a cycle can really make in a region: an upper bound that
//! sees chambers and the checkerboard.
//!
//! Counting the free cells of a region overrates it in two ways:
//!
//! - **Chambers.** An articulation point (a cell whose removal splits the
//!   region) is a door: a cycle that goes through it never comes back, so of
//!   the rooms behind the doors of one chamber it can fill only one. The
//!   bound walks the block-cut tree rooted at the head: a chamber's own cells
//!   plus the best of the chambers hanging below it.
//! - **Parity.** Every move changes the colour of the cell on a
//!   checkerboard, so a path that enters a chamber on colour `s` visits at
//!   most `2·n_s` cells, and at most `2·n_o + 1` where `n_o` counts the other
//!   colour.
//!
//! One depth-first search (Tarjan's low links) finds both: O(cells of the
//! region). The result never underestimates the longest path from the head
//! through the region, which is what the endgame filler needs to prune, and
//! it is the space measure of the evaluation.
//!
//! The walk can also count the edges (a cell and a free neighbour) of the
//! chambers it takes, as a1k0n's evaluation does: the open room a cycle
//! will ride through, not that of rooms behind doors it will not take
//! ([`Chambers::walk`]).

use lightcycles_core::bitboard::Layout;
use lightcycles_core::Pos;

use super::cells::{Cell, CellGraph, NONE};
use super::contracted::{self, Contracted};

/// Working memory of the chamber search, reused between calls.
///
/// The search numbers cells on the board framed by one cell of wall on
/// each side (`(x + 1, y + 1)` in a board `width + 2` wide), so that the
/// four neighbours of any cell are at fixed offsets and the wall needs no
/// test: a frame cell is never part of a region.
#[derive(Clone, Debug, Default)]
pub struct Chambers {
    layout: Option<Layout>,
    /// The framed width.
    stride: usize,
    /// What the search knows of each framed cell, in one place.
    node: Vec<Node>,
    /// The checkerboard colour of each framed cell.
    color: Vec<u8>,
    stack: Vec<Frame>,
    /// Discovery numbers used so far.
    counter: u32,
    /// The articulation points of the last run (framed numbers), when asked for.
    cuts: Vec<u32>,
    keep_cuts: bool,
    /// The battlefront walk's record of each framed cell (see
    /// [`Chambers::walk_front`]); sized on its first use.
    front: Vec<Front>,
    /// The breadth-first queue of the battlefront walk's distances.
    queue: Vec<u32>,
    /// The same bound on a contracted graph, for boards up to 64 × 64.
    contracted: Contracted,
}

/// What the chamber walk found in a region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// The bound: at most this many moves through the region.
    pub bound: u32,
    /// The edges (a cell and a free neighbour, in the region or not) of the
    /// chambers the bound takes; of those with the most edges among equal
    /// bounds. 0 when not asked for.
    pub edges: u32,
}

/// A walk's bound and edges in one number ordered as the walk chooses: the
/// larger bound, and among equal bounds the more edges (so that the choice
/// does not depend on the order of the search).
pub(super) type Packed = u64;

#[inline(always)]
pub(super) fn pack(bound: u32, edges: u32) -> Packed {
    (bound as u64) << 32 | edges as u64
}

#[inline(always)]
pub(super) fn unpack(p: Packed) -> Walk {
    Walk { bound: (p >> 32) as u32, edges: p as u32 }
}

/// The search's record of one cell.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The run's base for a cell of the region not reached yet, above it
    /// once reached (its discovery number), below it for any other cell: so
    /// nothing is cleared between runs.
    disc: u32,
    /// The lowest discovery number reachable from the cell's subtree by one
    /// edge that is not a tree edge.
    low: u32,
    /// Cells of each colour in the part of the cell's chamber below it.
    body: [u32; 2],
    /// The edges of those cells, when counted.
    edges: u32,
    /// The best chamber walk hanging below the cell's own chamber.
    below: Packed,
}

/// What the battlefront walk adds to a cell's [`Node`].
#[derive(Clone, Copy, Debug, Default)]
struct Front {
    /// Moves from the head to the cell, within the region.
    dist: u32,
    /// Whether a cell of the part of the cell's chamber below it has a free
    /// neighbour outside the region: the chamber meets the other rider's
    /// ground.
    touches: bool,
    /// The best walk below the cell's own chamber that leaves it for a
    /// chamber on the front, counted from the head (the moves to its door
    /// and the walk past it).
    best: Packed,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    cell: u32,
    parent: u32,
    next: u8,
}

/// The longest path that enters a chamber on colour `s` can visit, given
/// the chamber's cells of colour `s` and of the other colour.
#[inline]
pub fn parity_bound(same: u32, other: u32) -> u32 {
    (2 * same).min(2 * other + 1)
}

impl Chambers {
    /// Empty memory; the first call sizes it for its board.
    pub fn new() -> Chambers {
        Chambers::default()
    }

    fn fit(&mut self, layout: Layout) {
        if self.layout != Some(layout) {
            let (w, h) = (layout.width() as usize, layout.height() as usize);
            self.stride = w + 2;
            let cells = self.stride * (h + 2);
            self.node = vec![Node::default(); cells];
            self.color = (0..cells).map(|i| ((i % self.stride + i / self.stride) & 1) as u8).collect();
            self.counter = 0;
            self.layout = Some(layout);
        }
        // Each run numbers at most every cell once, plus its base and the head.
        if self.counter > u32::MAX - self.node.len() as u32 - 4 {
            self.node.fill(Node::default());
            self.counter = 0;
        }
    }

    /// The framed number of a cell.
    #[inline]
    fn framed(&self, pos: Pos) -> u32 {
        ((pos.y as usize + 1) * self.stride + pos.x as usize + 1) as u32
    }

    /// An upper bound on the moves a cycle with its head at `head` can make
    /// through the cells of `region` (a bitboard of `graph`'s layout; the
    /// head itself is not in it). Cells of `region` not connected to the
    /// head do not count.
    ///
    /// On boards up to 64 × 64 the search runs on the contracted graph of
    /// [`super::contracted`] (the same value from far fewer nodes); on
    /// larger boards, or regions with many candidate doors, cell by cell
    /// ([`Chambers::bound_by_cells`]).
    pub fn bound(&mut self, graph: &CellGraph, region: &[u64], head: Cell) -> u32 {
        self.walk(graph, region, head, None).bound
    }

    /// [`Chambers::bound`], and with `free` (the free cells, a bitboard of
    /// `graph`'s layout) the edges of the chambers the bound takes.
    pub fn walk(&mut self, graph: &CellGraph, region: &[u64], head: Cell, free: Option<&[u64]>) -> Walk {
        let layout = graph.layout();
        let h = layout.height() as usize;
        if layout.words_per_row() == 1 && h <= contracted::MAX_SIDE {
            // A small region is quicker cell by cell than the contracted
            // search's fixed work over whole rows; so is one with many
            // candidate doors (corridors), which contracts little.
            let cells: u32 = region[..h].iter().map(|w| w.count_ones()).sum();
            if cells >= contracted::MIN_CELLS {
                let p = graph.pos(head);
                let limit = (cells / 4).min(contracted::MAX_CANDIDATES);
                let head = (p.x as usize, p.y as usize);
                if let Some(w) = self.contracted.walk_within(region, h, head, limit, free.map(|f| &f[..h])) {
                    return w;
                }
            }
        }
        self.walk_by_cells(graph, region, head, free)
    }

    /// [`Chambers::bound`] by Tarjan's search over every cell of the region:
    /// the reference the contracted search is tested against.
    pub fn bound_by_cells(&mut self, graph: &CellGraph, region: &[u64], head: Cell) -> u32 {
        self.walk_by_cells(graph, region, head, None).bound
    }

    /// [`Chambers::walk`] by the cell search.
    pub fn walk_by_cells(&mut self, graph: &CellGraph, region: &[u64], head: Cell, free: Option<&[u64]>) -> Walk {
        self.walk_cells(graph, region, head, free, false)
    }

    /// [`Chambers::walk`] with a1k0n's battlefront rule: a chamber on the
    /// front (one with a free neighbour outside the region: the other
    /// rider's ground, or cells both reach together) is one the cycle must
    /// race to, so a walk that leaves for it counts the moves to its door
    /// and the walk past it, not the chamber it leaves. Of the two, the
    /// walk takes whichever makes more moves. The value is no longer a
    /// bound (the race to the door is not guaranteed), so only the
    /// evaluation uses it, never the endgame.
    pub fn walk_front(&mut self, graph: &CellGraph, region: &[u64], head: Cell, free: &[u64]) -> Walk {
        self.walk_cells(graph, region, head, Some(free), true)
    }

    fn walk_cells(
        &mut self,
        graph: &CellGraph,
        region: &[u64],
        head: Cell,
        free: Option<&[u64]>,
        battlefront: bool,
    ) -> Walk {
        let layout = graph.layout();
        self.fit(layout);
        // Mark the region with this run's base.
        let base = self.counter + 1;
        let k = layout.words_per_row();
        for (i, &word) in region[..layout.words()].iter().enumerate() {
            let first = ((i / k) + 1) * self.stride + (i % k) * 64 + 1;
            let mut rest = word;
            while rest != 0 {
                self.node[first + rest.trailing_zeros() as usize].disc = base;
                rest &= rest - 1;
            }
        }
        let root = self.framed(graph.pos(head));
        self.node[root as usize].disc = base + 1;
        self.counter = base + 1;
        let front = match (battlefront, free) {
            (true, Some(free)) => {
                self.distances(root, base);
                Some((graph, free, region))
            }
            _ => None,
        };
        let mut best = 0;
        for child in self.around(root) {
            if self.node[child as usize].disc != base {
                continue;
            }
            self.search_from(root, child, base, free.map(|f| (graph, f)), front);
            let c = &self.node[child as usize];
            let [b0, b1] = c.body;
            let (same, other) = if self.color[child as usize] == 0 { (b0, b1) } else { (b1, b0) };
            let mut walk = c.below + pack(parity_bound(same, other), c.edges);
            if front.is_some() {
                walk = walk.max(self.front[child as usize].best);
            }
            best = best.max(walk);
        }
        unpack(best)
    }

    /// The moves from the head (`root`) to every cell of the region marked
    /// with `base`, within the region, into `front[_].dist`.
    fn distances(&mut self, root: u32, base: u32) {
        if self.front.len() != self.node.len() {
            self.front = vec![Front::default(); self.node.len()];
        }
        let s = self.stride as u32;
        self.queue.clear();
        self.queue.push(root);
        self.front[root as usize].dist = 0;
        // A cell is queued once: its mark moves from `base` to `base - 1`
        // (below every mark of this run), and back once the search is done.
        let mut i = 0;
        while i < self.queue.len() {
            let c = self.queue[i];
            i += 1;
            let d = self.front[c as usize].dist + 1;
            for n in [c - s, c + 1, c + s, c - 1] {
                if self.node[n as usize].disc == base {
                    self.node[n as usize].disc = base - 1;
                    self.front[n as usize].dist = d;
                    self.queue.push(n);
                }
            }
        }
        for &c in &self.queue[1..] {
            self.node[c as usize].disc = base;
        }
    }

    /// The four neighbours of a framed cell, in direction order.
    #[inline(always)]
    fn around(&self, c: u32) -> [u32; 4] {
        let s = self.stride as u32;
        [c - s, c + 1, c + s, c - 1]
    }

    /// The articulation points of `region` seen from `head`: the cells whose
    /// removal cuts some cells of the region off from the head (the head's
    /// own cell is no part of the region, so it is never listed). Sorted.
    pub fn articulation_points(&mut self, graph: &CellGraph, region: &[u64], head: Cell) -> Vec<Cell> {
        self.keep_cuts = true;
        self.cuts.clear();
        self.bound_by_cells(graph, region, head);
        self.keep_cuts = false;
        let stride = self.stride;
        let mut cuts: Vec<Cell> = self
            .cuts
            .iter()
            .map(|&f| graph.cell(Pos::new((f as usize % stride - 1) as u8, (f as usize / stride - 1) as u8)))
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        cuts
    }

    /// Tarjan's search from `start`, a neighbour of the head `root`: fills
    /// `body` and `below` of every cell it reaches; with `degrees` (the
    /// graph and its free cells), their edges too.
    /// With `front` (the graph, the free cells and the region), the
    /// battlefront walk's records too ([`Chambers::walk_front`]).
    fn search_from(
        &mut self,
        root: u32,
        start: u32,
        base: u32,
        degrees: Option<(&CellGraph, &[u64])>,
        front: Option<(&CellGraph, &[u64], &[u64])>,
    ) {
        let stride = self.stride as i32;
        let offsets = [-stride, 1, stride, -1];
        let width = self.stride as u32 - 2;
        if self.stack.len() < self.node.len() {
            self.stack.resize(self.node.len(), Frame { cell: 0, parent: 0, next: 0 });
        }
        let (node, color, stack) = (&mut self.node[..], &self.color[..], &mut self.stack[..]);
        let fronts = &mut self.front[..];
        let mut counter = self.counter;
        let mut enter = |node: &mut [Node], fronts: &mut [Front], frame: &mut Frame, cell: u32, parent: u32| {
            counter += 1;
            let mut body = [0; 2];
            body[color[cell as usize] as usize] = 1;
            let (x, y) = (cell % (width + 2) - 1, cell / (width + 2) - 1);
            let id = (y * width + x) as Cell;
            let edges = degrees.map_or(0, |(graph, free)| graph.free_degree(free, id));
            node[cell as usize] = Node { disc: counter, low: counter, body, edges, below: 0 };
            if let Some((graph, free, region)) = front {
                let touches = graph
                    .neighbours(id)
                    .into_iter()
                    .any(|n| n != NONE && graph.contains(free, n) && !graph.contains(region, n));
                let f = &mut fronts[cell as usize];
                f.touches = touches;
                f.best = 0;
            }
            *frame = Frame { cell, parent, next: 0 };
        };
        enter(node, fronts, &mut stack[0], start, root);
        let mut sp = 1;
        'cells: loop {
            let Frame { cell: v, parent: from, mut next } = stack[sp - 1];
            let mut low = node[v as usize].low;
            while next < 4 {
                let n = (v as i32 + offsets[next as usize]) as u32;
                next += 1;
                if n == from {
                    continue;
                }
                let d = node[n as usize].disc;
                if d == base {
                    node[v as usize].low = low;
                    stack[sp - 1].next = next;
                    enter(node, fronts, &mut stack[sp], n, v);
                    sp += 1;
                    continue 'cells;
                }
                if d > base {
                    // A cell reached before (the head among them: the root).
                    low = low.min(d);
                }
            }
            node[v as usize].low = low;
            // `v` is done: fold it into its parent.
            sp -= 1;
            if sp == 0 {
                break;
            }
            let u = stack[sp - 1].cell;
            let child = node[v as usize];
            let parent = &mut node[u as usize];
            parent.low = parent.low.min(child.low);
            if child.low >= parent.disc {
                // The parent is a door to `v`'s side: a chamber of its own.
                let [b0, b1] = child.body;
                let (same, other) = if color[v as usize] == 0 { (b0, b1) } else { (b1, b0) };
                let walk = child.below + pack(parity_bound(same, other), child.edges);
                if front.is_some() {
                    // Counted from the head: filling this chamber (and the
                    // best below it) after the moves to its door, or a race
                    // through it to a chamber on the front further down.
                    let f = fronts[v as usize];
                    let pf = &mut fronts[u as usize];
                    let filled = walk + pack(pf.dist, 0);
                    if f.best > filled {
                        pf.best = pf.best.max(f.best);
                    } else if f.touches {
                        pf.best = pf.best.max(filled);
                    } else {
                        parent.below = parent.below.max(walk);
                    }
                } else {
                    parent.below = parent.below.max(walk);
                }
                if self.keep_cuts {
                    self.cuts.push(u);
                }
            } else {
                parent.body[0] += child.body[0];
                parent.body[1] += child.body[1];
                parent.edges += child.edges;
                parent.below = parent.below.max(child.below);
                if front.is_some() {
                    let f = fronts[v as usize];
                    let pf = &mut fronts[u as usize];
                    pf.touches |= f.touches;
                    pf.best = pf.best.max(f.best);
                }
            }
        }
        self.counter = counter;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A region drawn as text: `.` a cell of the region, `#` a solid cell,
    /// `@` the head. Returns the graph, the region and the head.
    pub(crate) fn drawn(rows: &[&str]) -> (CellGraph, Vec<u64>, Cell) {
        let (w, h) = (rows[0].len() as u32, rows.len() as u32);
        let graph = CellGraph::new(Layout::new(w, h).unwrap());
        let mut region = vec![0u64; graph.layout().words()];
        let mut head = NONE;
        for (y, row) in rows.iter().enumerate() {
            assert_eq!(row.len() as u32, w, "rows of one width");
            for (x, ch) in row.chars().enumerate() {
                let c = graph.cell(Pos::new(x as u8, y as u8));
                match ch {
                    '.' => graph.insert(&mut region, c),
                    '@' => head = c,
                    '#' => {}
                    other => panic!("unexpected {other:?}"),
                }
            }
        }
        assert_ne!(head, NONE, "a head");
        (graph, region, head)
    }

    /// The longest path from `head` through `region`, by trying every path.
    pub(crate) fn longest_path(graph: &CellGraph, region: &mut [u64], head: Cell) -> u32 {
        let mut best = 0;
        for n in graph.neighbours(head) {
            if n != NONE && graph.contains(region, n) {
                graph.remove(region, n);
                best = best.max(1 + longest_path(graph, region, n));
                graph.insert(region, n);
            }
        }
        best
    }

    fn bound(rows: &[&str]) -> u32 {
        let (graph, region, head) = drawn(rows);
        Chambers::new().bound(&graph, &region, head)
    }

    fn cuts(rows: &[&str]) -> Vec<Pos> {
        let (graph, region, head) = drawn(rows);
        Chambers::new().articulation_points(&graph, &region, head).into_iter().map(|c| graph.pos(c)).collect()
    }

    #[test]
    fn parity_bound_counts_alternating_colours() {
        assert_eq!(parity_bound(1, 0), 1);
        assert_eq!(parity_bound(0, 5), 0);
        assert_eq!(parity_bound(3, 3), 6);
        assert_eq!(parity_bound(4, 3), 7);
        assert_eq!(parity_bound(5, 3), 7);
        assert_eq!(parity_bound(3, 5), 6);
    }

    #[test]
    fn a_corridor_is_a_chain_of_doors() {
        let rows = ["#######", "@.....#", "#######"];
        assert_eq!(bound(&rows), 5);
        // Every cell but the last is a door to the rest.
        assert_eq!(cuts(&rows), (1..5).map(|x| Pos::new(x, 1)).collect::<Vec<_>>());
    }

    /// The corridor from the head forks at the door (2, 4): up to a 3 × 2
    /// room through (2, 3), or on to (5, 4) and down to another 3 × 2 room
    /// through (5, 5). Up: 3 + 6 = 9 moves; right: 6 + 6 = 12.
    const TWO_ROOMS: [&str; 9] = [
        "#########", //
        "#...#####", //
        "#...#####", //
        "##.######", //
        "@.....###", //
        "#####.###", //
        "####...##", //
        "####...##", //
        "#########", //
    ];

    #[test]
    fn two_rooms_behind_one_door_count_only_the_larger() {
        let rows = TWO_ROOMS;
        assert_eq!(bound(&rows), 12);
        let (graph, mut region, head) = drawn(&rows);
        assert_eq!(longest_path(&graph, &mut region, head), 12);
        let doors = cuts(&rows);
        for door in [(1, 4), (2, 4), (2, 3), (3, 4), (4, 4), (5, 4), (5, 5)] {
            assert!(doors.contains(&Pos::new(door.0, door.1)), "{door:?} in {doors:?}");
        }
        assert!(!doors.contains(&Pos::new(1, 1)), "a room has no doors inside");
    }

    #[test]
    fn the_walk_counts_the_edges_of_the_chambers_it_takes_only() {
        // The rooms of `TWO_ROOMS`, the free cells the region's: the
        // bound takes the corridor to (5, 5) and the room below, whose
        // cells have 1 + 3 + 2 + 2 + 2 + 2 and 2 + 4 + 2 + 2 + 3 + 2 free
        // neighbours (the corridor's fork counts its edge up, into the
        // room it does not take; the room up there counts nothing).
        let rows = TWO_ROOMS;
        let (graph, region, head) = drawn(&rows);
        let walk = Chambers::new().walk(&graph, &region, head, Some(&region));
        assert_eq!(walk, Walk { bound: 12, edges: 27 });
        assert_eq!(Chambers::new().walk_by_cells(&graph, &region, head, Some(&region)), walk);
        assert_eq!(Chambers::new().walk(&graph, &region, head, None), Walk { bound: 12, edges: 0 });
        // A free cell outside the region adds the edges into it.
        let mut free = region.clone();
        graph.insert(&mut free, graph.cell(Pos::new(7, 6)));
        assert_eq!(Chambers::new().walk(&graph, &region, head, Some(&free)).edges, 28);
    }

    #[test]
    fn between_walks_of_one_bound_the_one_with_more_edges_counts() {
        // Up: a corridor of 6 cells (searched first); down: a 2 × 3 room.
        // Both take 6 moves; the room's cells have more free edges.
        let rows = [
            "##.##", //
            "##.##", //
            "##.##", //
            "##.##", //
            "##.##", //
            "##.##", //
            "##@##", //
            "#...#", //
            "#...#", //
        ];
        let (graph, region, head) = drawn(&rows);
        let walk = Chambers::new().walk_by_cells(&graph, &region, head, Some(&region));
        assert_eq!(walk.bound, 6);
        // The room: corners 2 edges, middles 3, four cells of 2 and two of 3.
        assert_eq!(walk.edges, 2 + 3 + 2 + 2 + 3 + 2);
    }

    #[test]
    fn rooms_on_both_sides_of_a_door() {
        // A 3 × 3 room to the left and a 3 × 4 room to the right, joined by
        // the one cell (4, 2); the head sits in the left room's corner.
        let rows = [
            "###########", //
            "#@..#.....#", //
            "#.......#.#", //
            "#...#.....#", //
            "###########", //
        ];
        // The left room has 8 cells and the door (4, 2) leads to the right
        // one: the cycle fills part of the left and then the right, never
        // the other way back.
        let (graph, mut region, head) = drawn(&rows);
        let exact = longest_path(&graph, &mut region, head);
        let b = Chambers::new().bound(&graph, &region, head);
        assert!(b >= exact);
        assert!(b <= exact + 2, "a tight bound: {b} against {exact}");
        assert!(cuts(&rows).contains(&Pos::new(4, 2)));
    }

    #[test]
    fn a_dead_end_pocket_beside_the_way_counts_only_if_taken_last() {
        // Two side pockets off a corridor: only one of them is worth going
        // into, and the corridor's far end is a third choice.
        let rows = [
            "#########", //
            "###.#.###", //
            "@.......#", //
            "#########", //
        ];
        // Corridor (1..=7, 2): 7 cells; pockets (3, 1) and (5, 1) hang off
        // (3, 2) and (5, 2). Best: all the corridor (7), or up to (3,2) and
        // into the pocket (4), or to (5, 2) and its pocket (6).
        assert_eq!(bound(&rows), 7);
        let (graph, mut region, head) = drawn(&rows);
        assert_eq!(longest_path(&graph, &mut region, head), 7);
    }

    #[test]
    fn parity_caps_an_open_room() {
        // A 3 × 3 room entered from its middle edge: 5 cells of one colour,
        // 4 of the other. The head at (0, 2) is colour 0; the first cell
        // (1, 2) is colour 1, which has 4 cells in the room: at most 8.
        let rows = [
            "#####", //
            "#...#", //
            "@...#", //
            "#...#", //
            "#####", //
        ];
        assert_eq!(bound(&rows), 8);
        let (graph, mut region, head) = drawn(&rows);
        assert_eq!(longest_path(&graph, &mut region, head), 8);
        // Entered from a corner, on the colour of 5: all 9.
        let rows = ["@####", "....#", "....#", "....#", "#####"];
        let (graph, mut region, head) = drawn(&rows);
        let b = Chambers::new().bound(&graph, &region, head);
        assert_eq!(b, longest_path(&graph, &mut region, head));
    }

    #[test]
    fn cells_out_of_reach_do_not_count_and_the_head_can_be_walled_in() {
        assert_eq!(bound(&["#####", "#@#..", "#####"]), 0);
        assert_eq!(bound(&["#####", "#@...", "#####"]), 3);
        assert_eq!(bound(&["##.##", "#@#..", "#####"]), 0);
    }

    #[test]
    fn a_loop_through_the_head_has_no_doors() {
        // A ring around a rock block: from the head both ways lead round.
        let rows = [
            "......", //
            ".####.", //
            "@####.", //
            ".####.", //
            "......", //
        ];
        let (graph, mut region, head) = drawn(&rows);
        assert!(cuts(&rows).is_empty(), "{:?}", cuts(&rows));
        let exact = longest_path(&graph, &mut region, head);
        assert_eq!(exact, 17);
        assert_eq!(Chambers::new().bound(&graph, &region, head), 17);
    }

    #[test]
    fn the_bound_never_undercounts_random_regions() {
        let mut rng = lightcycles_core::SplitMix64::new(17);
        let mut chambers = Chambers::new();
        for _ in 0..300 {
            let (w, h) = (5 + rng.below(3) as u32, 4 + rng.below(2) as u32);
            let graph = CellGraph::new(Layout::new(w, h).unwrap());
            let mut region = vec![0u64; graph.layout().words()];
            let head = rng.below((w * h) as u64) as Cell;
            for c in 0..(w * h) as Cell {
                if c != head && rng.below(100) < 70 {
                    graph.insert(&mut region, c);
                }
            }
            let b = chambers.bound(&graph, &region, head);
            let exact = longest_path(&graph, &mut region, head);
            assert!(b >= exact, "bound {b} below the longest path {exact}");
            let reach = reachable(&graph, &region, head);
            assert!(b <= reach, "bound {b} above the {reach} reachable cells");
        }
    }

    /// A region drawn as for [`drawn`], with `o` for free cells outside it
    /// (the other rider's ground): the graph, the region, the head and the
    /// free cells (the region's and the `o`s).
    fn drawn_with_front(rows: &[&str]) -> (CellGraph, Vec<u64>, Cell, Vec<u64>) {
        let plain: Vec<String> = rows.iter().map(|r| r.replace('o', "#")).collect();
        let plain: Vec<&str> = plain.iter().map(String::as_str).collect();
        let (graph, region, head) = drawn(&plain);
        let mut free = region.clone();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == 'o' {
                    graph.insert(&mut free, graph.cell(Pos::new(x as u8, y as u8)));
                }
            }
        }
        (graph, region, head, free)
    }

    #[test]
    fn the_battlefront_walk_races_to_a_chamber_on_the_front() {
        // A 3 × 3 room with the head in its corner, a corridor of two doors,
        // and a 3 × 3 room whose right side meets the other rider's ground.
        let rows = [
            "@..##...o", //
            "........o", //
            "...##...o", //
        ];
        let (graph, region, head, free) = drawn_with_front(&rows);
        let mut chambers = Chambers::new();
        // The plain walk fills the first room (8 by parity), the doors
        // (3, 1), (4, 1) and (5, 1), and the far room's other 8 cells
        // (entered on the colour of 5 of them: 7).
        let plain = chambers.walk_by_cells(&graph, &region, head, Some(&free));
        assert_eq!(plain.bound, 18);
        // The battlefront walk races to the far room: 6 moves to its door
        // (5, 1), then 7 past it; more than the 8 of the first room alone.
        // Its edges are those of the far room's cells past the door (their
        // free neighbours, the front's among them): 24.
        let front = chambers.walk_front(&graph, &region, head, &free);
        assert_eq!(front, Walk { bound: 13, edges: 24 });
        // With the front walled off, nothing is raced to: the plain walk.
        let walled: Vec<String> = rows.iter().map(|r| r.replace('o', "#")).collect();
        let walled: Vec<&str> = walled.iter().map(String::as_str).collect();
        let (graph, region, head, free) = drawn_with_front(&walled);
        let walled_plain = chambers.walk_by_cells(&graph, &region, head, Some(&free));
        assert_eq!(walled_plain.bound, plain.bound);
        assert_eq!(chambers.walk_front(&graph, &region, head, &free), walled_plain);
    }

    #[test]
    fn the_battlefront_walk_keeps_a_room_worth_more_than_the_race() {
        // The head's room is worth more than racing 5 moves to the pocket
        // (5, 1) on the front, behind the door (4, 1): the pocket does not
        // count, where the plain walk ends in it.
        let rows = [
            "@....#o", //
            "......o", //
            ".....#o", //
        ];
        let (graph, region, head, free) = drawn_with_front(&rows);
        let mut chambers = Chambers::new();
        let plain = chambers.walk_by_cells(&graph, &region, head, Some(&free));
        let front = chambers.walk_front(&graph, &region, head, &free);
        assert!(front.bound < plain.bound, "{front:?} against {plain:?}");
        // The room alone: 14 cells, 7 of each colour, entered from the
        // corner on the other colour: 14.
        assert_eq!(front.bound, 14);
    }

    #[test]
    fn the_battlefront_walk_is_the_plain_walk_without_a_front_and_never_above_it() {
        let mut rng = lightcycles_core::SplitMix64::new(41);
        let mut chambers = Chambers::new();
        for round in 0..1000 {
            let (w, h) = (4 + rng.below(9) as u32, 4 + rng.below(9) as u32);
            let graph = CellGraph::new(Layout::new(w, h).unwrap());
            let (mut region, mut free) = (vec![0u64; graph.layout().words()], vec![0u64; graph.layout().words()]);
            let head = rng.below((w * h) as u64) as Cell;
            let fronted = round % 2 == 0;
            for c in 0..(w * h) as Cell {
                let roll = rng.below(100);
                if c != head && roll < 65 {
                    graph.insert(&mut region, c);
                    graph.insert(&mut free, c);
                } else if c != head && fronted && roll < 80 {
                    graph.insert(&mut free, c);
                }
            }
            let plain = chambers.walk_by_cells(&graph, &region, head, Some(&free));
            let front = chambers.walk_front(&graph, &region, head, &free);
            if fronted {
                assert!(front.bound <= plain.bound, "round {round}: {front:?} above {plain:?}");
            } else {
                assert_eq!(front, plain, "round {round}");
            }
            // The memory is reused: a plain walk after it is unchanged.
            assert_eq!(chambers.walk_by_cells(&graph, &region, head, Some(&free)), plain);
        }
    }

    /// The contracted search against the cell search on one region: the
    /// same bound, with no limit on candidates.
    fn check_contracted(
        contracted: &mut super::Contracted,
        cells: &mut Chambers,
        graph: &CellGraph,
        region: &[u64],
        head: Cell,
        free: &[u64],
    ) {
        let h = graph.layout().height() as usize;
        let p = graph.pos(head);
        let want = cells.bound_by_cells(graph, region, head);
        let got = contracted.bound_within(region, h, (p.x as usize, p.y as usize), u32::MAX);
        assert_eq!(got, Some(want), "head {p} on a {}x{h} board", graph.layout().width());
        assert_eq!(cells.bound(graph, region, head), want);
        // The walk with its edges: the same chambers, the same edges.
        let want = cells.walk_by_cells(graph, region, head, Some(free));
        assert_eq!(want.bound, cells.bound_by_cells(graph, region, head));
        let got = contracted.walk_within(region, h, (p.x as usize, p.y as usize), u32::MAX, Some(&free[..h]));
        assert_eq!(got, Some(want), "head {p} on a {}x{h} board, with edges", graph.layout().width());
        assert_eq!(cells.walk(graph, region, head, Some(free)), want);
    }

    #[test]
    fn the_contracted_search_agrees_with_the_cell_search_on_random_regions() {
        let mut rng = lightcycles_core::SplitMix64::new(29);
        let (mut contracted, mut cells) = (super::Contracted::new(), Chambers::new());
        for round in 0..3000 {
            // Small boards often (every shape of door), large ones sometimes.
            let (w, h) = if round % 4 == 0 {
                (8 + rng.below(57) as u32, 8 + rng.below(57) as u32)
            } else {
                (3 + rng.below(10) as u32, 3 + rng.below(10) as u32)
            };
            let graph = CellGraph::new(Layout::new(w, h).unwrap());
            let mut region = vec![0u64; graph.layout().words()];
            let head = rng.below((w * h) as u64) as Cell;
            let holes = rng.below(70);
            // Free: the region and some cells beside it.
            let mut free = vec![0u64; graph.layout().words()];
            for c in 0..(w * h) as Cell {
                if c != head && rng.below(100) >= holes {
                    graph.insert(&mut region, c);
                    graph.insert(&mut free, c);
                } else if c != head && rng.below(3) == 0 {
                    graph.insert(&mut free, c);
                }
            }
            check_contracted(&mut contracted, &mut cells, &graph, &region, head, &free);
        }
    }

    #[test]
    fn the_contracted_search_agrees_with_the_cell_search_on_played_voronoi_cells() {
        use crate::bot::builtin::search::testing::step_scripted;
        use lightcycles_core::search_state::SearchState;
        use lightcycles_core::space::lean;
        use lightcycles_core::{Config, Engine, FastGame};
        let (mut contracted, mut cells) = (super::Contracted::new(), Chambers::new());
        for (seed, w, h, rocks) in [(0, 48, 36, 4), (1, 48, 36, 0), (2, 48, 36, 10), (3, 64, 64, 4), (4, 20, 30, 20)] {
            let config = Config { width: w, height: h, rock_density: rocks, ..Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            let graph = CellGraph::new(game.layout());
            let mut planes = [[0u64; 64]; lightcycles_core::config::MAX_PLAYERS];
            let mut t = 0;
            while !game.is_over() {
                let state = SearchState::from_game(&game).unwrap();
                lean::voronoi_cells(&state, &mut planes);
                let free = lean::free_cells(&state);
                let free = &free[..h as usize];
                for (id, plane) in planes.iter().enumerate().take(2) {
                    let head = graph.cell(game.head(id));
                    check_contracted(&mut contracted, &mut cells, &graph, &plane[..h as usize], head, free);
                    let mut room = [0u64; 64];
                    lean::reachable_cells(&state, game.head(id), &mut room);
                    check_contracted(&mut contracted, &mut cells, &graph, &room[..h as usize], head, free);
                }
                step_scripted(&mut game, t);
                t += 1;
            }
        }
    }

    fn reachable(graph: &CellGraph, region: &[u64], head: Cell) -> u32 {
        let mut seen = vec![false; graph.len()];
        let mut stack = vec![head];
        seen[head as usize] = true;
        let mut n = 0;
        while let Some(c) = stack.pop() {
            for m in graph.neighbours(c) {
                if m != NONE && !seen[m as usize] && graph.contains(region, m) {
                    seen[m as usize] = true;
                    n += 1;
                    stack.push(m);
                }
            }
        }
        n
    }
}
