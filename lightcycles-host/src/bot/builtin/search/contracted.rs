//! The chamber bound of [`super::chambers`] on a contracted graph: the same
//! value, from a search over tens of nodes instead of hundreds of cells.
//!
//! Only a cell that may be a door (an articulation point) can split a
//! chamber, and whether it may be is seen from its 3 × 3 neighbourhood:
//! if its neighbours in the region (the head counting as one) are joined
//! to each other through the ring of eight cells around it, any path
//! through it can go round it, so it is no door. That test runs on whole
//! rows of bits at once. The cells that pass it form connected parts, and
//! no cell of such a part is a door, so a part lies whole inside one
//! chamber: it becomes one node, with its count of cells of each colour.
//! The cells that fail the test (the *candidates*) stay single nodes, and
//! Tarjan's search runs on parts, candidates and the head:
//!
//! - a candidate is a door exactly when it is one in the region (removing
//!   it splits the contracted graph as it splits the region, a part being
//!   connected and not containing it);
//! - a part is never a door, although the contracted graph may make it
//!   look like one (two edges from one side into two cells of the part
//!   become two edges into one node): a part always takes in what hangs
//!   below it;
//! - a path enters a chamber through a door, on the colour opposite the
//!   door's, so the parity bound is taken from the door's colour, not the
//!   first node's (which, for a part, has none).
//!
//! Boards up to 64 × 64 (one word a row), and regions with at most
//! [`MAX_CANDIDATES`] candidates; otherwise [`Contracted::bound`] answers
//! `None` and the cell search runs. The tests in [`super::chambers`]
//! compare both on random and played regions.

use lightcycles_core::space::lean::{self, Plane};

use super::chambers::{pack, parity_bound, unpack, Packed, Walk};

/// The widest and tallest board the contracted search takes.
pub const MAX_SIDE: usize = 64;

/// Most candidate doors before the contracted search gives way to the cell
/// search (which is quicker on regions made mostly of corridors).
pub const MAX_CANDIDATES: u32 = 160;

/// Fewest cells of a region for which [`super::chambers::Chambers::bound`]
/// asks the contracted search. At 120 (its value once) node-limited
/// games took 17 % more CPU time than at 60 in the free-for-all of
/// docs/search-bot.md (24 × 24: four riders share at most 576 cells,
/// so most regions went cell by cell) and 3 % more in duels; 30 and 0
/// were no quicker than 60 (paired runs of `farm-bench`, the same games
/// move for move).
pub const MIN_CELLS: u32 = 60;

/// Cells of colour 0 (`(x + y)` even) in a row of even `y`.
const EVEN_ROW_COLOUR_0: u64 = 0x5555_5555_5555_5555;

/// Working memory of the contracted search, reused between calls.
#[derive(Clone, Debug)]
pub struct Contracted {
    /// The node of a cell (`y · 64 + x`), written for the cells that edges
    /// are read from: candidates, the head, part cells next to either.
    label: Vec<u16>,
    /// Per node: its cells of each colour, then (after the search) those
    /// of the chamber below it.
    body: Vec<[u32; 2]>,
    /// Per node: the edges of its cells (a cell and a free neighbour), then
    /// (after the search) those of the chamber below it; when counted.
    degrees: Vec<u32>,
    /// Per node: the colour of its cell (parts: unused).
    color: Vec<u8>,
    /// Per node: where its edges start in `adj` (one more entry at the end).
    start: Vec<u32>,
    adj: Vec<u16>,
    /// Edges as found, `(from, to)`, before they are sorted by node.
    edges: Vec<(u16, u16)>,
    disc: Vec<u32>,
    low: Vec<u32>,
    below: Vec<Packed>,
    stack: Vec<(u16, u16, u32)>,
}

impl Default for Contracted {
    fn default() -> Contracted {
        Contracted {
            label: vec![0; MAX_SIDE * MAX_SIDE],
            body: Vec::new(),
            degrees: Vec::new(),
            color: Vec::new(),
            start: Vec::new(),
            adj: Vec::new(),
            edges: Vec::new(),
            disc: Vec::new(),
            low: Vec::new(),
            below: Vec::new(),
            stack: Vec::new(),
        }
    }
}

/// The cells of `rows` (rows of a board up to 64 wide) whose neighbours in
/// `rows` are not all joined around them through their 3 × 3 ring: the
/// only cells whose removal can disconnect `rows`. Returned for the rows
/// `y` where `only[y]` has bits, limited to those bits.
#[inline(always)]
fn candidate_row(rows: &[u64], h: usize, y: usize, only: u64) -> u64 {
    let c = rows[y];
    let n = if y > 0 { rows[y - 1] } else { 0 };
    let s = if y + 1 < h { rows[y + 1] } else { 0 };
    // Bit x of each: the neighbour of cell x in that direction is open.
    let (e, w) = (c >> 1, c << 1);
    // A neighbour that ends a run of joined neighbours, going clockwise
    // (N, E, S, W): open, and not joined to the next one through the
    // corner between them. More than one such end: more than one run.
    let end_n = n & !((n >> 1) & e);
    let end_e = e & !((s >> 1) & s);
    let end_s = s & !((s << 1) & w);
    let end_w = w & !((n << 1) & n);
    only & ((end_n & end_e) | (end_s & end_w) | ((end_n | end_e) & (end_s | end_w)))
}

impl Contracted {
    /// Fresh memory.
    pub fn new() -> Contracted {
        Contracted::default()
    }

    /// The chamber bound of [`super::chambers::Chambers::bound`] for the
    /// cells of `region` (one word a row, `h` rows, `h ≤ 64`; the head's
    /// cell is not counted even if set) seen from the head at `(hx, hy)`;
    /// `None` when the region has more than [`MAX_CANDIDATES`] candidate
    /// doors.
    pub fn bound(&mut self, region: &[u64], h: usize, head: (usize, usize)) -> Option<u32> {
        self.bound_within(region, h, head, MAX_CANDIDATES)
    }

    /// [`Contracted::bound`] with at most `limit` candidate doors.
    pub fn bound_within(&mut self, region: &[u64], h: usize, head: (usize, usize), limit: u32) -> Option<u32> {
        self.walk_within(region, h, head, limit, None).map(|w| w.bound)
    }

    /// [`super::chambers::Chambers::walk`] on the contracted graph, with at
    /// most `limit` candidate doors; `free`: the free cells, `h` rows.
    pub fn walk_within(
        &mut self,
        region: &[u64],
        h: usize,
        (hx, hy): (usize, usize),
        limit: u32,
        free: Option<&[u64]>,
    ) -> Option<Walk> {
        // The edges of the cells `bits` of row `y`.
        let edges_of = |y: usize, bits: u64| match free {
            None => 0,
            Some(f) => {
                let above = if y > 0 { f[y - 1] } else { 0 };
                let below = f.get(y + 1).copied().unwrap_or(0);
                (bits & (f[y] >> 1)).count_ones()
                    + (bits & (f[y] << 1)).count_ones()
                    + (bits & above).count_ones()
                    + (bits & below).count_ones()
            }
        };
        debug_assert!(h <= MAX_SIDE && hx < MAX_SIDE && hy < h);
        let head_bit = 1u64 << hx;
        let mut open: Plane = [0; MAX_SIDE];
        open[..h].copy_from_slice(&region[..h]);
        open[hy] &= !head_bit;
        // The graph: the region and the head.
        let mut graph = open;
        graph[hy] |= head_bit;

        let mut cand: Plane = [0; MAX_SIDE];
        let mut count = 0;
        for y in 0..h {
            if open[y] != 0 {
                cand[y] = candidate_row(&graph, h, y, open[y]);
                count += cand[y].count_ones();
            }
        }
        if count > limit {
            return None;
        }

        // The cells whose node an edge will ask for: next to a candidate or
        // the head.
        let mut near: Plane = [0; MAX_SIDE];
        for y in 0..h {
            let k = cand[y] | if y == hy { head_bit } else { 0 };
            if k != 0 {
                near[y] |= k << 1 | k >> 1;
                if y > 0 {
                    near[y - 1] |= k;
                }
                if y + 1 < h {
                    near[y + 1] |= k;
                }
            }
        }

        // The parts: what is left once the candidates are out, one flood
        // fill each.
        self.body.clear();
        self.degrees.clear();
        self.color.clear();
        // One plane for every part, each left empty for the next.
        let mut part: Plane = [0; MAX_SIDE];
        let mut rest = open;
        for (y, c) in rest[..h].iter_mut().zip(&cand[..h]) {
            *y &= !c;
        }
        for y0 in 0..h {
            while rest[y0] != 0 {
                let node = self.body.len() as u16;
                part[y0] = rest[y0] & rest[y0].wrapping_neg();
                lean::grow_from(h, &rest, &mut part, 1 << y0);
                // A part is connected, so its rows run on from `y0`, its
                // first (the rows above are empty by now).
                let mut body = [0u32; 2];
                let mut edges = 0;
                let mut y = y0;
                while y < h && part[y] != 0 {
                    let bits = part[y];
                    let colour0 = EVEN_ROW_COLOUR_0 << (y & 1);
                    let zeros = (bits & colour0).count_ones();
                    body[0] += zeros;
                    body[1] += bits.count_ones() - zeros;
                    edges += edges_of(y, bits);
                    let mut mark = bits & near[y];
                    while mark != 0 {
                        self.label[y * MAX_SIDE + mark.trailing_zeros() as usize] = node;
                        mark &= mark - 1;
                    }
                    rest[y] &= !bits;
                    part[y] = 0;
                    y += 1;
                }
                self.body.push(body);
                self.degrees.push(edges);
                self.color.push(0);
            }
        }
        let parts = self.body.len();

        // The candidates, one node each, then the head.
        for (y, &row) in cand[..h].iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.label[y * MAX_SIDE + x] = self.body.len() as u16;
                let colour = ((x + y) & 1) as u8;
                self.body.push(if colour == 0 { [1, 0] } else { [0, 1] });
                self.degrees.push(edges_of(y, 1 << x));
                self.color.push(colour);
            }
        }
        let root = self.body.len();
        self.label[hy * MAX_SIDE + hx] = root as u16;
        self.body.push([0, 0]);
        self.degrees.push(0);
        self.color.push(((hx + hy) & 1) as u8);
        let nodes = root + 1;

        // Edges: every edge has a candidate or the head at one end.
        self.edges.clear();
        let link = |edges: &mut Vec<(u16, u16)>, label: &[u16], y: usize, x: usize, from: usize| {
            let bits = graph[y];
            let mut add = |ny: usize, nx: usize| {
                let to = label[ny * MAX_SIDE + nx] as usize;
                edges.push((from as u16, to as u16));
                // The other way round for a part or the head (a candidate
                // adds its own).
                if to < parts || to == root {
                    edges.push((to as u16, from as u16));
                }
            };
            if y > 0 && graph[y - 1] >> x & 1 != 0 {
                add(y - 1, x);
            }
            if x + 1 < MAX_SIDE && bits >> (x + 1) & 1 != 0 {
                add(y, x + 1);
            }
            if y + 1 < h && graph[y + 1] >> x & 1 != 0 {
                add(y + 1, x);
            }
            if x > 0 && bits >> (x - 1) & 1 != 0 {
                add(y, x - 1);
            }
        };
        for (y, &row) in cand[..h].iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let from = self.label[y * MAX_SIDE + x] as usize;
                link(&mut self.edges, &self.label, y, x, from);
            }
        }
        // The head's edges to parts (those to candidates are in already).
        let mut head_link = |ny: usize, nx: usize| {
            if graph[ny] >> nx & 1 != 0 {
                let to = self.label[ny * MAX_SIDE + nx];
                if (to as usize) < parts {
                    self.edges.push((root as u16, to));
                    self.edges.push((to, root as u16));
                }
            }
        };
        if hy > 0 {
            head_link(hy - 1, hx);
        }
        if hx + 1 < MAX_SIDE {
            head_link(hy, hx + 1);
        }
        if hy + 1 < h {
            head_link(hy + 1, hx);
        }
        if hx > 0 {
            head_link(hy, hx - 1);
        }

        // Adjacency lists by counting sort, on slices held in locals: through
        // `self` every store reloaded the vectors' pointers.
        self.start.clear();
        self.start.resize(nodes + 1, 0);
        self.adj.clear();
        self.adj.resize(self.edges.len(), 0);
        let (start, adj, edges) = (&mut self.start[..], &mut self.adj[..], &self.edges[..]);
        for &(a, _) in edges {
            start[a as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        self.disc.clear();
        self.disc.extend_from_slice(&start[..nodes]);
        let next = &mut self.disc[..];
        for &(a, b) in edges {
            let at = &mut next[a as usize];
            adj[*at as usize] = b;
            *at += 1;
        }

        Some(unpack(self.search(root, parts, nodes)))
    }

    /// Tarjan's search of the contracted graph from the head's node `root`;
    /// nodes below `parts` are parts.
    fn search(&mut self, root: usize, parts: usize, nodes: usize) -> Packed {
        self.disc.clear();
        self.disc.resize(nodes, 0);
        self.low.clear();
        self.low.resize(nodes, 0);
        self.below.clear();
        self.below.resize(nodes, 0);
        let (disc, low, below, body) = (&mut self.disc, &mut self.low, &mut self.below, &mut self.body);
        let degrees = &mut self.degrees;
        let (adj, start, color, stack) = (&self.adj, &self.start, &self.color, &mut self.stack);
        let mut counter = 1;
        disc[root] = counter;
        let entry = 1 - color[root] as usize;
        let mut best = 0;
        for &first in &adj[start[root] as usize..start[root + 1] as usize] {
            let first = first as usize;
            if disc[first] != 0 {
                continue;
            }
            counter += 1;
            disc[first] = counter;
            low[first] = counter;
            stack.clear();
            stack.push((first as u16, root as u16, start[first]));
            'nodes: while let Some(&(v, from, next)) = stack.last() {
                let (v, from) = (v as usize, from as usize);
                let mut l = low[v];
                let end = start[v + 1];
                let mut i = next;
                while i < end {
                    let n = adj[i as usize] as usize;
                    i += 1;
                    if n == from {
                        continue;
                    }
                    let d = disc[n];
                    if d == 0 {
                        low[v] = l;
                        stack.last_mut().expect("v is on the stack").2 = i;
                        counter += 1;
                        disc[n] = counter;
                        low[n] = counter;
                        stack.push((n as u16, v as u16, start[n]));
                        continue 'nodes;
                    }
                    l = l.min(d);
                }
                low[v] = l;
                stack.pop();
                let Some(&(u, _, _)) = stack.last() else {
                    break;
                };
                let u = u as usize;
                low[u] = low[u].min(l);
                if u >= parts && l >= disc[u] {
                    // A door: `v`'s side is a chamber of its own, entered on
                    // the colour opposite the door's.
                    let e = 1 - color[u] as usize;
                    let [same, other] = [body[v][e], body[v][1 - e]];
                    below[u] = below[u].max(below[v] + pack(parity_bound(same, other), degrees[v]));
                } else {
                    let b = body[v];
                    body[u][0] += b[0];
                    body[u][1] += b[1];
                    degrees[u] += degrees[v];
                    below[u] = below[u].max(below[v]);
                }
            }
            let [same, other] = [body[first][entry], body[first][1 - entry]];
            best = best.max(below[first] + pack(parity_bound(same, other), degrees[first]));
        }
        best
    }
}
