//! The start of a game: seeded map generation (RULES.md section 4) and the
//! 2010 Google AI Challenge map format (section 9).

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

use crate::config::{Config, ConfigError, MAX_SIDE, MIN_SIDE};
use crate::geometry::{Dir, Pos};
use crate::rng::SplitMix64;

/// A player's start cell and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// The start cell, which holds the player's id from the start.
    pub pos: Pos,
    /// The direction the cycle faces before its first move.
    pub dir: Dir,
}

/// The board before the first tick: its size, its rocks and the starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Map {
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `true` for a rock, row-major (`y * width + x`).
    pub rocks: Vec<bool>,
    /// One start per player, by id.
    pub starts: Vec<Start>,
}

impl Map {
    /// The rock cells sorted by `y`, then `x` (the order of the replay file).
    pub fn rock_cells(&self) -> Vec<Pos> {
        let w = self.width as usize;
        self.rocks.iter().enumerate().filter(|(_, &r)| r).map(|(i, _)| Pos::new((i % w) as u8, (i / w) as u8)).collect()
    }

    /// Whether `pos` is a rock (off-board cells are not rocks; they are walls).
    pub fn is_rock(&self, pos: Pos) -> bool {
        (pos.x as u32) < self.width && (pos.y as u32) < self.height && self.rocks[pos.index(self.width)]
    }

    /// Builds a map from its parts, as a replay file lists them, checking
    /// that the parts fit together.
    pub fn from_parts(width: u32, height: u32, rocks: &[Pos], starts: &[Start]) -> Result<Map, MapError> {
        check_side("width", width)?;
        check_side("height", height)?;
        let mut grid = vec![false; width as usize * height as usize];
        for &rock in rocks {
            if rock.x as u32 >= width || rock.y as u32 >= height {
                return Err(MapError::OffBoard { what: "rock", pos: rock });
            }
            grid[rock.index(width)] = true;
        }
        let map = Map { width, height, rocks: grid, starts: starts.to_vec() };
        map.validate()?;
        Ok(map)
    }

    /// Checks that the parts fit together: the board size, one rock flag per
    /// cell, and starts on the board, off the rocks and on distinct cells.
    pub fn validate(&self) -> Result<(), MapError> {
        check_side("width", self.width)?;
        check_side("height", self.height)?;
        let cells = self.width as usize * self.height as usize;
        if self.rocks.len() != cells {
            return Err(MapError::RockGrid { len: self.rocks.len(), cells });
        }
        for (i, start) in self.starts.iter().enumerate() {
            if start.pos.x as u32 >= self.width || start.pos.y as u32 >= self.height {
                return Err(MapError::OffBoard { what: "start", pos: start.pos });
            }
            if self.rocks[start.pos.index(self.width)] {
                return Err(MapError::StartOnRock { player: i, pos: start.pos });
            }
            if self.starts[..i].iter().any(|s| s.pos == start.pos) {
                return Err(MapError::SharedStart { player: i, pos: start.pos });
            }
        }
        Ok(())
    }
}

fn check_side(field: &'static str, value: u32) -> Result<(), MapError> {
    if (MIN_SIDE..=MAX_SIDE).contains(&value) {
        Ok(())
    } else {
        Err(MapError::Config(ConfigError::OutOfRange {
            field,
            value: value as u64,
            min: MIN_SIDE as u64,
            max: MAX_SIDE as u64,
        }))
    }
}

/// Why a map could not be generated or assembled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// The configuration is out of bounds.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// 1000 tries could not place a player at distance ≥ 4 from the others.
    #[error("board too small for {players} players: player {player} could not be placed in 1000 tries")]
    BoardTooSmall {
        /// The number of players asked for.
        players: u32,
        /// The player that could not be placed.
        player: u32,
    },
    /// A rock or start outside the board.
    #[error("{what} at {pos} is off the board")]
    OffBoard {
        /// `rock` or `start`.
        what: &'static str,
        /// The cell.
        pos: Pos,
    },
    /// A start cell on a rock.
    #[error("player {player} starts on a rock at {pos}")]
    StartOnRock {
        /// The player.
        player: usize,
        /// The cell.
        pos: Pos,
    },
    /// A rock grid whose length is not `width · height`.
    #[error("the rock grid has {len} cells, the board {cells}")]
    RockGrid {
        /// Length of the rock grid.
        len: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// Two players on one start cell.
    #[error("player {player} starts on the cell of an earlier player at {pos}")]
    SharedStart {
        /// The player.
        player: usize,
        /// The cell.
        pos: Pos,
    },
}

/// Generates the map of a seeded game, making the draws of RULES.md section 4
/// in its order.
///
/// After each attempt it must know whether the open cells are still all
/// connected. It asks only about the cells around the new rocks: the open
/// cells were connected before, so they still are exactly when the open
/// neighbours of the new rocks are connected to each other.
pub fn generate(config: &Config, seed: u64) -> Result<Map, MapError> {
    generate_checked(config, seed, Check::Local)
}

/// The same map as [`generate`], made the way section 4.2 reads: a
/// breadth-first search over the whole board after every attempt. Much
/// slower; kept as the yardstick that [`generate`] is tested and
/// benchmarked against.
pub fn generate_reference(config: &Config, seed: u64) -> Result<Map, MapError> {
    generate_checked(config, seed, Check::WholeBoard)
}

/// How the rock loop checks that the open cells stay connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// A breadth-first search over the whole board.
    WholeBoard,
    /// Around the new rocks only ([`CutCheck`]).
    Local,
}

fn generate_checked(config: &Config, seed: u64, check: Check) -> Result<Map, MapError> {
    config.validate()?;
    let (w, h, n) = (config.width, config.height, config.players);
    let mut rng = SplitMix64::new(seed);
    let starts = place_starts(&mut rng, w, h, n)?;
    let rocks = place_rocks(&mut rng, w, h, n, config.rock_density, &starts, check);
    Ok(Map { width: w, height: h, rocks, starts })
}

fn pos(x: u64, y: u64) -> Pos {
    Pos::new(x as u8, y as u8)
}

fn dir(code: u64) -> Dir {
    Dir::ALL[code as usize]
}

fn place_starts(rng: &mut SplitMix64, w: u32, h: u32, n: u32) -> Result<Vec<Start>, MapError> {
    let (w, h) = (w as u64, h as u64);
    match n {
        2 => {
            let x0 = 2 + rng.below(w / 2 - 3);
            let y0 = 2 + rng.below(h - 4);
            let d0 = dir(rng.below(4));
            Ok(vec![
                Start { pos: pos(x0, y0), dir: d0 },
                Start { pos: pos(w - 1 - x0, h - 1 - y0), dir: d0.opposite() },
            ])
        }
        4 => {
            let x0 = 2 + rng.below(w / 2 - 3);
            let y0 = 2 + rng.below(h / 2 - 3);
            let d0 = dir(rng.below(4));
            Ok(vec![
                Start { pos: pos(x0, y0), dir: d0 },
                Start { pos: pos(w - 1 - x0, h - 1 - y0), dir: d0.opposite() },
                Start { pos: pos(w - 1 - x0, y0), dir: d0.mirror_x() },
                Start { pos: pos(x0, h - 1 - y0), dir: d0.mirror_y() },
            ])
        }
        _ => {
            let mut starts: Vec<Start> = Vec::with_capacity(n as usize);
            for player in 0..n {
                let mut placed = false;
                for _ in 0..1000 {
                    let x = 2 + rng.below(w - 4);
                    let y = 2 + rng.below(h - 4);
                    let d = dir(rng.below(4));
                    let far = starts
                        .iter()
                        .all(|s| (x as i64 - s.pos.x as i64).abs() + (y as i64 - s.pos.y as i64).abs() >= 4);
                    if far {
                        starts.push(Start { pos: pos(x, y), dir: d });
                        placed = true;
                        break;
                    }
                }
                if !placed {
                    return Err(MapError::BoardTooSmall { players: n, player });
                }
            }
            Ok(starts)
        }
    }
}

/// The orbit of a cell: the cells that get a rock together (section 4.2).
fn orbit(x: u32, y: u32, w: u32, h: u32, n: u32) -> ([(u32, u32); 4], usize) {
    let candidates: &[(u32, u32)] = match n {
        2 => &[(x, y), (w - 1 - x, h - 1 - y)],
        4 => &[(x, y), (w - 1 - x, h - 1 - y), (w - 1 - x, y), (x, h - 1 - y)],
        _ => &[(x, y)],
    };
    let mut out = [(0, 0); 4];
    let mut len = 0;
    for &c in candidates {
        if !out[..len].contains(&c) {
            out[len] = c;
            len += 1;
        }
    }
    (out, len)
}

fn place_rocks(
    rng: &mut SplitMix64,
    w: u32,
    h: u32,
    n: u32,
    density: u32,
    starts: &[Start],
    check: Check,
) -> Vec<bool> {
    let cells = (w * h) as usize;
    let mut rocks = vec![false; cells];
    let mut protected = vec![false; cells];
    for s in starts {
        let (sx, sy) = (s.pos.x as i32, s.pos.y as i32);
        for y in (sy - 2).max(0)..=(sy + 2).min(h as i32 - 1) {
            for x in (sx - 2).max(0)..=(sx + 2).min(w as i32 - 1) {
                protected[(y as u32 * w + x as u32) as usize] = true;
            }
        }
    }
    let target = (w as u64 * h as u64 * density as u64 / 100) as usize;
    let mut placed = 0usize;
    let mut attempts = 0usize;
    let mut whole = Connectivity::new(if check == Check::WholeBoard && target > 0 { cells } else { 0 });
    let mut local = CutCheck::new(if check == Check::Local && target > 0 { cells } else { 0 });
    while placed < target && attempts < 4 * target + 64 {
        attempts += 1;
        let x = rng.below(w as u64) as u32;
        let y = rng.below(h as u64) as u32;
        let (orbit, len) = orbit(x, y, w, h, n);
        let orbit = &orbit[..len];
        let idx = |&(x, y): &(u32, u32)| (y * w + x) as usize;
        if orbit.iter().any(|c| rocks[idx(c)] || protected[idx(c)]) {
            continue;
        }
        for c in orbit {
            rocks[idx(c)] = true;
        }
        let connected = match check {
            Check::WholeBoard => whole.all_connected(&rocks, w, h),
            Check::Local => local.still_connected(&rocks, w, h, orbit),
        };
        if !connected {
            for c in orbit {
                rocks[idx(c)] = false;
            }
            continue;
        }
        placed += len;
    }
    rocks
}

/// A breadth-first search over the whole board, whose buffers are kept
/// between calls: the plain reading of section 4.2, used by
/// [`generate_reference`] and the tests.
struct Connectivity {
    seen: Vec<bool>,
    queue: VecDeque<usize>,
}

impl Connectivity {
    fn new(cells: usize) -> Self {
        Connectivity { seen: vec![false; cells], queue: VecDeque::with_capacity(cells) }
    }

    /// Whether the non-rock cells are all 4-connected to each other.
    fn all_connected(&mut self, rocks: &[bool], w: u32, h: u32) -> bool {
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
struct CutCheck {
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
    fn new(cells: usize) -> CutCheck {
        CutCheck { mark: vec![0; cells], source: vec![0; cells], epoch: 0, queues: Vec::new() }
    }

    fn still_connected(&mut self, rocks: &[bool], w: u32, h: u32, orbit: &[(u32, u32)]) -> bool {
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

/// A 2010 map file that does not follow RULES.md section 9.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: expected {expected}")]
pub struct MapParseError {
    /// Line, counted from 1.
    pub line: usize,
    /// Column, counted from 1.
    pub column: usize,
    /// What was expected there, and what was found.
    pub expected: alloc::string::String,
}

fn parse_error(line: usize, column: usize, expected: impl Into<alloc::string::String>) -> MapParseError {
    MapParseError { line, column, expected: expected.into() }
}

/// Parses a map of the 2010 Google AI Challenge (RULES.md section 9): two
/// players, `#` rocks, starts facing the longest straight run of empty cells.
pub fn parse_2010(text: &str) -> Result<Map, MapParseError> {
    use alloc::format;
    // A final newline ends the last line; it does not start another one.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut lines = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let header = lines.next().unwrap_or("");
    let (width, height) = parse_header(header)?;
    let (w, h) = (width as usize, height as usize);
    let mut rocks = vec![false; w * h];
    let mut ones: Vec<Pos> = Vec::new();
    let mut twos: Vec<Pos> = Vec::new();
    for y in 0..h {
        let line_no = y + 2;
        let Some(row) = lines.next() else {
            return Err(parse_error(line_no, 1, format!("a map row of {w} characters, found the end of the file")));
        };
        let mut count = 0;
        for (x, ch) in row.chars().enumerate() {
            count = x + 1;
            if x >= w {
                return Err(parse_error(
                    line_no,
                    x + 1,
                    format!("the end of the row after {w} characters, found {ch:?}"),
                ));
            }
            let pos = Pos::new(x as u8, y as u8);
            match ch {
                '#' => rocks[y * w + x] = true,
                ' ' => {}
                '1' => ones.push(pos),
                '2' => twos.push(pos),
                other => return Err(parse_error(line_no, x + 1, format!("'#', ' ', '1' or '2', found {other:?}"))),
            }
            let seen = if ch == '1' { &ones } else { &twos };
            if (ch == '1' || ch == '2') && seen.len() > 1 {
                return Err(parse_error(line_no, x + 1, format!("only one '{ch}' in the map, found a second one")));
            }
        }
        if count < w {
            return Err(parse_error(line_no, count + 1, format!("{w} characters in the row, found {count}")));
        }
    }
    for (k, rest) in lines.enumerate() {
        if !rest.is_empty() {
            return Err(parse_error(h + 2 + k, 1, format!("nothing after the {h} map rows, found {}", shown(rest))));
        }
    }
    let end = h + 1;
    let one = *ones.first().ok_or_else(|| parse_error(end, w, "a '1' (player 0's start) in the map, found none"))?;
    let two = *twos.first().ok_or_else(|| parse_error(end, w, "a '2' (player 1's start) in the map, found none"))?;
    let mut map =
        Map { width, height, rocks, starts: vec![Start { pos: one, dir: Dir::N }, Start { pos: two, dir: Dir::N }] };
    let facing: Vec<Dir> = map.starts.iter().map(|s| longest_run(&map, s.pos)).collect();
    for (start, dir) in map.starts.iter_mut().zip(facing) {
        start.dir = dir;
    }
    Ok(map)
}

/// Text of the map file quoted in an error: at most 24 characters of it, so
/// that a message stays a line whatever the file holds.
fn shown(text: &str) -> alloc::string::String {
    use alloc::format;
    match text.char_indices().nth(24) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

fn parse_header(header: &str) -> Result<(u32, u32), MapParseError> {
    use alloc::format;
    let mut fields = Vec::new();
    let mut start = None;
    for (i, ch) in header.char_indices().chain(core::iter::once((header.len(), ' '))) {
        match (ch, start) {
            (' ', Some(s)) => {
                fields.push((s, &header[s..i]));
                start = None;
            }
            (' ', None) => {}
            (_, None) => start = Some(i),
            _ => {}
        }
    }
    // Columns count characters, as in the rows, not bytes.
    let column = |byte: usize| header[..byte].chars().count() + 1;
    if fields.len() != 2 {
        let at = fields.get(2).map_or(column(header.len()), |f| column(f.0));
        return Err(parse_error(1, at, format!("\"W H\": two integers separated by spaces, found {}", shown(header))));
    }
    let mut out = [0u32; 2];
    for (k, (at, text)) in fields.into_iter().enumerate() {
        let name = ["width", "height"][k];
        if let Some(bad) = text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            return Err(parse_error(
                1,
                column(at + bad.0),
                format!("a decimal digit in the {name}, found {:?}", bad.1),
            ));
        }
        let value: u64 = text.parse().unwrap_or(u64::MAX);
        if !(MIN_SIDE as u64..=MAX_SIDE as u64).contains(&value) {
            let found = if text.len() > 20 { format!("{}…", &text[..20]) } else { text.into() };
            return Err(parse_error(1, column(at), format!("a {name} from {MIN_SIDE} to {MAX_SIDE}, found {found}")));
        }
        out[k] = value as u32;
    }
    Ok((out[0], out[1]))
}

/// The direction with the most empty cells straight ahead (ties: lower code).
fn longest_run(map: &Map, from: Pos) -> Dir {
    let mut best = (0usize, Dir::N);
    for d in Dir::ALL {
        let mut run = 0;
        let mut at = from;
        while let Some(next) = at.step(d, map.width, map.height) {
            if map.rocks[next.index(map.width)] || map.starts.iter().any(|s| s.pos == next) {
                break;
            }
            run += 1;
            at = next;
        }
        if run > best.0 {
            best = (run, d);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[allow(clippy::too_many_arguments)] // one argument per column of the golden table
    fn golden(
        seed: u64,
        w: u32,
        h: u32,
        n: u32,
        density: u32,
        starts: &[(u8, u8, Dir)],
        rocks: usize,
        first: &[(u8, u8)],
    ) {
        let config = Config { width: w, height: h, players: n, rock_density: density, ..Config::default() };
        let map = generate(&config, seed).unwrap();
        let got: Vec<(u8, u8, Dir)> = map.starts.iter().map(|s| (s.pos.x, s.pos.y, s.dir)).collect();
        assert_eq!(got, starts, "starts of seed {seed}");
        let cells = map.rock_cells();
        assert_eq!(cells.len(), rocks, "rock count of seed {seed}");
        let head: Vec<(u8, u8)> = cells.iter().take(4).map(|p| (p.x, p.y)).collect();
        assert_eq!(head, first, "first rocks of seed {seed}");
    }

    #[test]
    fn golden_maps_of_rules_section_4_3() {
        use Dir::*;
        golden(1, 48, 36, 2, 4, &[(4, 9, S), (43, 26, N)], 70, &[(2, 0), (21, 0), (47, 0), (3, 1)]);
        golden(2, 48, 36, 2, 4, &[(6, 4, W), (41, 31, E)], 70, &[(10, 0), (30, 1), (33, 2), (35, 3)]);
        golden(
            7,
            24,
            20,
            4,
            6,
            &[(5, 5, S), (18, 14, N), (18, 5, S), (5, 14, N)],
            28,
            &[(7, 0), (16, 0), (9, 1), (14, 1)],
        );
        golden(3, 20, 16, 3, 10, &[(15, 11, E), (17, 8, W), (10, 12, S)], 32, &[(16, 0), (3, 1), (12, 1), (7, 2)]);
        golden(123, 8, 8, 2, 25, &[(2, 2, N), (5, 5, S)], 16, &[(6, 0), (7, 0), (5, 1), (6, 1)]);
    }

    #[test]
    fn generated_maps_keep_the_invariants() {
        for seed in 0..200u64 {
            let n = 2 + (seed % 7) as u32;
            let side = if n >= 3 { 16 + (seed % 40) as u32 } else { 8 + (seed % 50) as u32 };
            let config = Config {
                width: side,
                height: side + 3,
                players: n,
                rock_density: (seed % 26) as u32,
                ..Config::default()
            };
            let map = match generate(&config, seed) {
                Ok(map) => map,
                Err(MapError::BoardTooSmall { .. }) => continue,
                Err(e) => panic!("{e}"),
            };
            let mut c = Connectivity::new(config.cells());
            assert!(c.all_connected(&map.rocks, map.width, map.height), "seed {seed}");
            for (i, s) in map.starts.iter().enumerate() {
                assert!(!map.is_rock(s.pos));
                // Distance ≥ 4 is a rule of the placement by tries (n ∉ {2, 4}).
                let tried = if n == 2 || n == 4 { &[][..] } else { &map.starts[..i] };
                for t in tried {
                    assert!(s.pos.x.abs_diff(t.pos.x) as u32 + s.pos.y.abs_diff(t.pos.y) as u32 >= 4);
                }
            }
            // Protected 5 × 5 blocks hold no rock.
            for s in &map.starts {
                for p in map.rock_cells() {
                    assert!(p.x.abs_diff(s.pos.x) > 2 || p.y.abs_diff(s.pos.y) > 2, "seed {seed}: rock {p} near start");
                }
            }
        }
    }

    #[test]
    fn the_local_check_builds_the_same_maps_as_the_whole_board_search() {
        // Every size class, every player count, densities up to 25: the maps
        // must be equal rock for rock (the draw order depends on every
        // accepted and rejected attempt, so one wrong answer shows).
        let mut rng = SplitMix64::new(0x5eed);
        for case in 0..300u64 {
            let n = 2 + rng.below(7) as u32;
            let low = if n >= 3 { 16 } else { 8 };
            let width = low + rng.below(if case % 10 == 0 { 60 } else { 30 }) as u32;
            let height = low + rng.below(if case % 10 == 0 { 60 } else { 30 }) as u32;
            let rock_density = if case % 3 == 0 { 25 } else { rng.below(26) as u32 };
            let config = Config { width, height, players: n, rock_density, ..Config::default() };
            let seed = rng.next_u64();
            assert_eq!(generate(&config, seed), generate_reference(&config, seed), "{config:?} seed {seed}");
        }
    }

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

    #[test]
    fn too_many_players_fail_without_looping() {
        // 8 players on 16 × 16 always fit; a board that cannot hold them is
        // impossible within the bounds, so check the error path directly.
        let mut rng = SplitMix64::new(0);
        let err = place_starts(&mut rng, 6, 6, 8).unwrap_err();
        assert!(matches!(err, MapError::BoardTooSmall { players: 8, .. }));
        assert!(err.to_string().starts_with("board too small for 8 players"));
    }

    const SAMPLE: &str = "10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n";

    #[test]
    fn loads_a_2010_map() {
        let map = parse_2010(SAMPLE).unwrap();
        assert_eq!((map.width, map.height), (10, 9));
        assert_eq!(map.starts[0], Start { pos: Pos::new(1, 4), dir: Dir::E });
        assert_eq!(map.starts[1], Start { pos: Pos::new(8, 4), dir: Dir::W });
        assert_eq!(map.rock_cells().len(), 34);
        let crlf = SAMPLE.replace('\n', "\r\n");
        assert_eq!(parse_2010(&crlf).unwrap(), map);
        assert_eq!(parse_2010(&format!("  10   9  {}\n\n\n", &SAMPLE[4..SAMPLE.len() - 1])).unwrap(), map);
    }

    #[test]
    fn start_direction_ties_take_the_lower_code() {
        // Player 0 in an open corner region: N run 0, E run 6, S run 6, W run 0 → E.
        let text = "8 8\n        \n        \n        \n        \n        \n        \n       2\n 1      \n";
        let map = parse_2010(text).unwrap();
        assert_eq!(map.starts[0].pos, Pos::new(1, 7));
        // N: 7 empty, E: 6 empty, S: 0, W: 1 → N.
        assert_eq!(map.starts[0].dir, Dir::N);
        // Player 1 at (7, 6): N 6, E 0, S 1, W 7 → W.
        assert_eq!(map.starts[1].dir, Dir::W);
        let tie = "8 8\n########\n#      #\n#      #\n#  1   #\n#      #\n#      #\n#     2#\n########\n";
        // Player 0 at (3, 3): N 2, E 3, S 3, W 2 → E (lower code of the tie E/S).
        assert_eq!(parse_2010(tie).unwrap().starts[0].dir, Dir::E);
    }

    use alloc::format;

    #[test]
    fn map_errors_name_line_and_column() {
        let cases: &[(&str, &str)] = &[
            ("", "line 1, column 1: expected \"W H\""),
            ("10\n", "line 1, column 3: expected \"W H\""),
            ("10 9 3\n", "line 1, column 6: expected \"W H\""),
            ("1x 9\n", "line 1, column 2: expected a decimal digit in the width, found 'x'"),
            ("7 9\n", "line 1, column 1: expected a width from 8 to 255, found 7"),
            ("10 99999999999999999999999\n", "line 1, column 4: expected a height from 8 to 255"),
            ("10 9\n##########\n", "line 3, column 1: expected a map row of 10 characters, found the end of the file"),
            ("10 9\n#########\n", "line 2, column 10: expected 10 characters in the row, found 9"),
            ("10 9\n###########\n", "line 2, column 11: expected the end of the row after 10 characters"),
            ("10 9\n####x#####\n", "line 2, column 5: expected '#', ' ', '1' or '2', found 'x'"),
        ];
        for (text, prefix) in cases {
            let err = parse_2010(text).unwrap_err().to_string();
            assert!(err.starts_with(prefix), "{text:?}: {err}");
        }
        let two_ones = SAMPLE.replace("#        #\n#1", "# 1      #\n#1");
        assert_eq!(
            parse_2010(&two_ones).unwrap_err().to_string(),
            "line 6, column 2: expected only one '1' in the map, found a second one"
        );
        let no_two = SAMPLE.replace('2', " ");
        assert!(parse_2010(&no_two).unwrap_err().to_string().starts_with("line 10, column 10: expected a '2'"));
        let trailing = format!("{SAMPLE}x\n");
        assert_eq!(
            parse_2010(&trailing).unwrap_err().to_string(),
            "line 11, column 1: expected nothing after the 9 map rows, found \"x\""
        );
    }

    #[test]
    fn map_errors_quote_little_of_the_file_and_count_columns_in_characters() {
        let long_tail = format!("{SAMPLE}{}\n", "x".repeat(100_000));
        assert_eq!(
            parse_2010(&long_tail).unwrap_err().to_string(),
            "line 11, column 1: expected nothing after the 9 map rows, found \"xxxxxxxxxxxxxxxxxxxxxxxx\"…"
        );
        let long_header = "#".repeat(1 << 20);
        let err = parse_2010(&long_header).unwrap_err().to_string();
        assert!(err.starts_with("line 1, column 1048577: expected \"W H\""), "{}", &err[..80]);
        assert!(err.len() < 200, "{} bytes", err.len());
        let digits = format!("10 {}\n", "9".repeat(1 << 20));
        let err = parse_2010(&digits).unwrap_err().to_string();
        assert_eq!(err, "line 1, column 4: expected a height from 8 to 255, found 99999999999999999999…");
        assert_eq!(
            parse_2010("éé 1x\n").unwrap_err().to_string(),
            "line 1, column 1: expected a decimal digit in the width, found 'é'"
        );
        assert_eq!(
            parse_2010("10 1x\n").unwrap_err().to_string(),
            "line 1, column 5: expected a decimal digit in the height, found 'x'"
        );
        assert!(parse_2010("é 9 ü\n").unwrap_err().to_string().starts_with("line 1, column 5: expected \"W H\""));
    }
}
