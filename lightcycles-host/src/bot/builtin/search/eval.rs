//! The evaluation: who has more room that it can really fill.
//!
//! - While the players can still meet, each owns the cells it reaches
//!   strictly first (the Voronoi split of the core's `search`), and its
//!   space is the [chamber bound](super::chambers) of its own cells: a
//!   territory split by a door counts only the side the cycle can fill.
//! - Once they are separated, each has its whole room, measured the same
//!   way; the difference is nearly the result, so it weighs more, and the
//!   side ahead gets a bonus.
//! - A game that has ended is a win, a loss or a draw, counted in ticks
//!   from the root so that a quick win beats a slow one and a slow loss a
//!   quick one.

use lightcycles_core::bitboard;
use lightcycles_core::config::MAX_PLAYERS;
use lightcycles_core::search_state::SearchState;
use lightcycles_core::space::lean::{self, Plane, Start};
use lightcycles_core::space::{self, Scratch};
use lightcycles_core::{Dir, Engine, FastGame, Pos};

use super::cells::CellGraph;
use super::chambers::{Chambers, Walk};
use super::secure::{self, secure_counts, secure_counts_by_cell, Layers};

/// The value of a won game at the root; a game won `k` ticks below the root
/// is worth `WIN - k`.
pub const WIN: i32 = 1_000_000;
/// Values beyond this are game ends, not evaluations.
pub const MATE: i32 = WIN - 100_000;
/// The value of one cell of space while the players can still meet.
pub const CELL: i32 = 16;
/// The value of one cell of space once the players are separated.
pub const SEPARATED_CELL: i32 = 24;
/// Added for the player ahead once the players are separated.
pub const SEPARATED_BONUS: i32 = 30 * CELL;
/// The value of one edge of a player's cells (a cell and a free neighbour)
/// while the players can still meet: off, as [`CHAMBER_EDGE`] counts the
/// edges that matter.
pub const EDGE: i32 = 0;
/// The value of one edge of the chambers a player's [chamber
/// walk](super::chambers::Chambers::walk) takes, while the players can
/// still meet (docs/search-bot.md: 49.1 % against a1k0n on the 2010
/// maps, where `edge=4` scored 42.2 %).
pub const CHAMBER_EDGE: i32 = 4;
/// The value of one [secure](super::secure) cell (reached more than
/// [`SECURE_BY`] moves before the rival) while the players can still meet.
pub const SECURE: i32 = 0;
/// The margin, in moves, past which a cell is secure.
pub const SECURE_BY: i32 = 4;
/// Whether the chamber walk of the Voronoi cells follows the battlefront
/// rule ([`Chambers::walk_front`]): 0 no, 1 yes.
pub const FRONT: i32 = 0;
/// The value of one edge of the chambers our walk takes in a free-for-all
/// valued by our own space (`value=own`), half a cell (docs/search-bot.md:
/// 36.3 % of 480 free-for-alls against three copies of the bot of commit
/// 19e900b, where 0 won 30.4 %).
pub const FFA_EDGE: i32 = 8;
/// What a draw costs the bot: a drawn game (both riders crashing on one
/// tick, or the tick cap) is worth minus this, where an even position is
/// worth 0. 0 values a draw as the rule book scores it, half a point.
pub const CONTEMPT: i32 = 0;
/// What each wall beside the chambers a player's walk takes costs in the
/// opening ([`OPENING`]): a cell of those chambers next to a wall, a
/// rock, a trail or the board's edge, counted once for each such side
/// (four sides a cell, less its [chamber edges](CHAMBER_EDGE)). 24, a
/// cell and a half: a fit of the terms to the results of played games
/// valued these walls at 1.5 to 2.7 cells in the opening, and at 24 an
/// SPRT in self-play against 0 accepted H1 (Elo +20.8 ± 16.4 after 1,219
/// games at 3,000 nodes; docs/search-bot.md). 0 turns it off.
pub const WALL: i32 = 24;
/// [`WALL`] for three riders or more: what each wall beside the chambers
/// of our own walk costs the paranoid search's leaf (`value=own`) in the
/// opening. 16, a cell: in 4-seat free-for-alls at 500 nodes against three
/// copies of the bot with 0 (off), an SPRT accepted H1 after 499 game sets
/// (Elo +15.2 ± 11.4 against the field; docs/search-bot.md). 0 turns it
/// off.
pub const FFA_WALL: i32 = 16;
/// How long the opening lasts for [`WALL`]: while at least this
/// percentage of the board's cells is free.
pub const OPENING: i32 = 75;
/// For three riders or more (`value=own`): the percentage of the nearest
/// rival's own value (its walk, edges and walls, as ours) that the
/// paranoid search's leaf takes from ours. 50, half: our room counts, and
/// so does the room of the rider who can shut us out of it. In 4-seat
/// free-for-alls at 500 nodes against three copies of the bot with 0, the
/// SPRT accepted H1 twice: after 156 game sets on seeds from 0 (Elo +25.3
/// ± 19.5 against the field) and after 66 on seeds from 5000 (+63.4 ±
/// 34.7; docs/search-bot.md). 0 turns it off.
pub const FFA_RIVAL: i32 = 50;
/// For three riders or more (`value=own`): how far ahead, as a
/// percentage of the ticks searched since, the riders the paranoid search
/// does not play set out from each cell they rode through in its tree,
/// in the Voronoi split of its leaves ([`lean::voronoi_cells_ahead`]).
/// Those riders ride straight on by a fixed rule; from each cell of that
/// guess they might have turned, and the cells they could have reached
/// first are then not counted ours. 60, where `lightcycles tune` settled
/// (the mean of its second half): against three copies of the bot with
/// 0 (4-seat free-for-alls at 500 nodes) the SPRT accepted H1 on seeds
/// from 13000 (Elo +32.4 ± 23.1) and from 17000 (+42.6 ± 27.5), where
/// 100 gave H1 once and H0 twice, winning no more games than the copies
/// (docs/search-bot.md). A node-limited game takes about 14 % longer at
/// 100. 0 turns it off. Boards past 64 × 64 split without it.
pub const FFA_AHEAD: i32 = 60;

/// The weights of the evaluation: [`CELL`], [`SEPARATED_CELL`],
/// [`SEPARATED_BONUS`], [`EDGE`], [`CHAMBER_EDGE`], [`SECURE`],
/// [`SECURE_BY`], [`FRONT`], [`FFA_EDGE`], [`CONTEMPT`], [`WALL`],
/// [`FFA_WALL`], [`OPENING`], [`FFA_RIVAL`] and [`FFA_AHEAD`] by default;
/// `builtin:search:cell=N`, `separated_cell=N`, `separated_bonus=N`,
/// `edge=N`, `chamber_edge=N`, `secure=N`, `secure_by=K`, `front=0|1`,
/// `ffa_edge=N`, `contempt=N`, `wall=N`, `ffa_wall=N`, `opening=PCT`,
/// `ffa_rival=PCT` and `ffa_ahead=PCT` change them (for tuning:
/// `lightcycles tune`, docs/tuning.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// The value of one cell of space while the players can still meet.
    pub cell: i32,
    /// The value of one cell of space once the players are separated.
    pub separated_cell: i32,
    /// Added for the player ahead once the players are separated.
    pub separated_bonus: i32,
    /// The value of one edge of a player's Voronoi cells (a cell and one of
    /// its free neighbours) while the players can still meet: open
    /// territory is worth more than a ragged strip of the same size.
    pub edge: i32,
    /// The value of one edge of the chambers a player's chamber walk takes
    /// (the rooms it can fill, not those behind doors it will not take),
    /// while they can still meet: a1k0n's measure of open room.
    pub chamber_edge: i32,
    /// The value of one cell a player reaches more than `secure_by` moves
    /// before the other, while they can still meet: far territory won by
    /// a move or two is not held, and this makes the margin worth keeping
    /// ([`super::secure`]).
    pub secure: i32,
    /// The margin, in moves (0 to [`super::secure::MAX_MARGIN`]), past
    /// which a cell counts as secure.
    pub secure_by: i32,
    /// 1: the chamber walk of each player's Voronoi cells counts a walk to
    /// a chamber on the front from the head, without the chamber it leaves
    /// (a1k0n's battlefront rule, [`Chambers::walk_front`]); 0: off.
    pub front: i32,
    /// [`Weights::chamber_edge`] for three riders or more, when the
    /// paranoid search values our own space (`value=own`).
    pub ffa_edge: i32,
    /// What a draw costs: a drawn game is worth `-contempt` (0: as an even
    /// position; a bot that expects to win more than it loses from an even
    /// position plays on rather than take a draw). Read by the duel and
    /// the paranoid search ([`game_end`]); MaxN and MCTS value a draw
    /// their own way.
    pub contempt: i32,
    /// What each wall beside a player's walked chambers costs in the
    /// opening, while the players can still meet ([`WALL`]).
    pub wall: i32,
    /// [`Weights::wall`] for three riders or more, when the paranoid
    /// search values our own space (`value=own`) ([`FFA_WALL`]).
    pub ffa_wall: i32,
    /// The opening, for `wall` and `ffa_wall`: while at least this
    /// percentage of the board's cells is free.
    pub opening: i32,
    /// For three riders or more (`value=own`): the percentage of the
    /// nearest searched rival's own value taken from ours ([`FFA_RIVAL`]).
    pub ffa_rival: i32,
    /// For three riders or more (`value=own`): how far ahead, as a
    /// percentage of the ticks searched since, the riders not searched set
    /// out from the cells they rode through in the tree ([`FFA_AHEAD`]).
    pub ffa_ahead: i32,
}

impl Weights {
    /// The weights the bot plays with when no option changes them.
    pub const DEFAULT: Weights = Weights {
        cell: CELL,
        separated_cell: SEPARATED_CELL,
        separated_bonus: SEPARATED_BONUS,
        edge: EDGE,
        chamber_edge: CHAMBER_EDGE,
        secure: SECURE,
        secure_by: SECURE_BY,
        front: FRONT,
        ffa_edge: FFA_EDGE,
        contempt: CONTEMPT,
        wall: WALL,
        ffa_wall: FFA_WALL,
        opening: OPENING,
        ffa_rival: FFA_RIVAL,
        ffa_ahead: FFA_AHEAD,
    };
}

impl Weights {
    /// Whether the chamber walks count their edges: for `chamber_edge`,
    /// and for `wall`, which counts the sides that are not edges.
    fn counts_edges(&self) -> bool {
        self.chamber_edge != 0 || self.wall != 0
    }

    /// Whether a wall weight (`wall` in the duel, `ffa_wall` in the
    /// free-for-all) charges its walls at `game`: the weight is on and the
    /// game still in the opening. The one test of both leaves, so the
    /// opening is counted only when a weight needs it.
    fn charges_walls(&self, weight: i32, game: &FastGame) -> bool {
        weight != 0 && self.in_opening(game)
    }

    /// Whether `game` is still in the opening: at least `opening` % of its
    /// cells free (the solid plane has no bit off the board).
    fn in_opening(&self, game: &FastGame) -> bool {
        let solid: u64 = game.solid().iter().map(|word| word.count_ones() as u64).sum();
        let cells = game.layout().width() as u64 * game.layout().height() as u64;
        (cells - solid) * 100 >= cells * self.opening.max(0) as u64
    }
}

/// The walls beside the chambers two walks take, the first's less the
/// second's: four sides for each move of the bound, less the chambers'
/// edges (`edges`, the first's less the second's).
fn walls_beside(mine: u32, theirs: u32, edges: i32) -> i32 {
    (mine as i32 - theirs as i32).saturating_mul(4).saturating_sub(edges)
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The value of a game that has ended `ply` ticks below the root, for
/// player `me`: [`WIN`] less the ticks if `me` rides alone, a loss the other
/// way round, `-contempt` for a draw (nobody left, or the tick cap).
pub fn game_end(game: &FastGame, me: usize, ply: u32, contempt: i32) -> i32 {
    let mine = game.is_alive(me);
    let others = game.alive_mask() & !(1 << me) != 0;
    match (mine, others) {
        (true, false) => WIN - ply as i32,
        (false, true) => -WIN + ply as i32,
        _ => -contempt,
    }
}

/// Working memory of the evaluation, reused between calls.
///
/// On boards up to 64 × 64 (one word per row) the flood fills run on the
/// lean search state (`space::lean`, whole planes on the stack); larger
/// boards use the fast engine's helpers with a scratch. Both give the same
/// cells (the core's tests prove it), so the values, and the moves, are
/// the same either way.
#[derive(Clone, Debug)]
pub struct Evaluator {
    scratch: Scratch,
    chambers: Chambers,
    /// The lean fills' cells, by player id.
    planes: Box<[Plane; MAX_PLAYERS]>,
    weights: Weights,
    /// A duel's cells: the evaluated player's, then the other's.
    duel_planes: Box<[Plane; 2]>,
    /// The free cells, for the edges term on boards past 64.
    free: Vec<u64>,
    /// The secure cells' layers.
    layers: Box<Layers>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator {
            scratch: Scratch::default(),
            chambers: Chambers::default(),
            planes: Box::new([[0; 64]; MAX_PLAYERS]),
            weights: Weights::DEFAULT,
            duel_planes: Box::new([[0; 64]; 2]),
            free: Vec::new(),
            layers: secure::layers(),
        }
    }
}

/// What the evaluation found about one position of two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelView {
    /// Whether no free path joins the two heads.
    pub separated: bool,
    /// The space of each player (`[me, other]`): the chamber bound of its
    /// Voronoi cells, or of its whole room once separated.
    pub space: [u32; 2],
    /// The value, from `me`'s side.
    pub value: i32,
}

impl Evaluator {
    /// Fresh memory.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// Fresh memory, valuing positions with `weights`.
    pub fn with_weights(weights: Weights) -> Evaluator {
        Evaluator { weights, ..Evaluator::default() }
    }

    /// The weights positions are valued with.
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// The value of a split of space `mine` against `theirs`, from the
    /// first side (`theirs`: the largest rival's, with more than two).
    pub fn value(&self, separated: bool, mine: u32, theirs: u32) -> i32 {
        let diff = mine as i32 - theirs as i32;
        let w = &self.weights;
        if separated {
            diff.saturating_mul(w.separated_cell).saturating_add(diff.signum().saturating_mul(w.separated_bonus))
        } else {
            diff.saturating_mul(w.cell)
        }
    }

    /// The chamber bound of everything `id` can reach: how many more moves it
    /// can make at most if nobody else gets in its way.
    pub fn room_bound(&mut self, graph: &CellGraph, game: &FastGame, id: usize) -> u32 {
        let head = game.head(id);
        if let Ok(state) = SearchState::from_game(game) {
            let h = game.layout().height() as usize;
            lean::reachable_cells(&state, head, &mut self.planes[0]);
            return self.chambers.bound(graph, &self.planes[0][..h], graph.cell(head));
        }
        space::reachable_with(game, head, &mut self.scratch);
        self.chambers.bound(graph, self.scratch.reached(), graph.cell(head))
    }

    /// Evaluates a position of two living players `me` and `other`.
    pub fn duel(&mut self, graph: &CellGraph, game: &FastGame, me: usize, other: usize) -> DuelView {
        match SearchState::from_game(game) {
            Ok(state) => self.duel_lean(graph, game, &state, me, other),
            Err(_) => self.duel_fast(graph, game, me, other),
        }
    }

    /// [`Evaluator::duel`] on the lean search state.
    fn duel_lean(
        &mut self,
        graph: &CellGraph,
        game: &FastGame,
        state: &SearchState,
        me: usize,
        other: usize,
    ) -> DuelView {
        let h = game.layout().height() as usize;
        let (my_head, their_head) = (game.head(me), game.head(other));
        // One call: both rooms once separated, else the Voronoi split.
        let [mine_plane, theirs_plane] = &mut *self.duel_planes;
        let (_, separated) = lean::duel_cells(state, me, other, mine_plane, theirs_plane);
        let w = self.weights;
        // The free rows, once, for whichever of the terms is on.
        let wants_free =
            !separated && (w.edge != 0 || w.chamber_edge != 0 || w.secure != 0 || w.front != 0 || w.wall != 0);
        let free = if wants_free { Some(lean::free_cells(state)) } else { None };
        let (mine, theirs) = match &free {
            Some(free) if w.front != 0 => (
                self.chambers.walk_front(graph, &mine_plane[..h], graph.cell(my_head), &free[..h]),
                self.chambers.walk_front(graph, &theirs_plane[..h], graph.cell(their_head), &free[..h]),
            ),
            _ => {
                let walk_free = free.as_ref().filter(|_| w.counts_edges()).map(|f| &f[..h]);
                (
                    self.chambers.walk(graph, &mine_plane[..h], graph.cell(my_head), walk_free),
                    self.chambers.walk(graph, &theirs_plane[..h], graph.cell(their_head), walk_free),
                )
            }
        };
        let chamber_edges = mine.edges as i32 - theirs.edges as i32;
        let (mine, theirs) = (mine.bound, theirs.bound);
        let (mut edges, mut secure, mut walls) = (0, 0, 0);
        if let Some(free) = &free {
            if w.charges_walls(w.wall, game) {
                walls = walls_beside(mine, theirs, chamber_edges);
            }
            if self.weights.edge != 0 {
                edges =
                    lean_edges(&mine_plane[..h], &free[..h]) as i32 - lean_edges(&theirs_plane[..h], &free[..h]) as i32;
            }
            if self.weights.secure != 0 {
                let k = self.weights.secure_by as u32;
                let [a, b] = secure_counts(free, h, [my_head, their_head], k, &mut self.layers);
                secure = a as i32 - b as i32;
            }
        }
        let value = self
            .value(separated, mine, theirs)
            .saturating_add(edges.saturating_mul(self.weights.edge))
            .saturating_add(chamber_edges.saturating_mul(self.weights.chamber_edge))
            .saturating_add(secure.saturating_mul(self.weights.secure))
            .saturating_sub(walls.saturating_mul(self.weights.wall));
        DuelView { separated, space: [mine, theirs], value }
    }

    /// [`Evaluator::duel`] with the fast engine's helpers (boards past 64).
    fn duel_fast(&mut self, graph: &CellGraph, game: &FastGame, me: usize, other: usize) -> DuelView {
        let (my_head, their_head) = (game.head(me), game.head(other));
        space::reachable_with(game, my_head, &mut self.scratch);
        let meets = touches(game, self.scratch.reached(), their_head);
        if !meets {
            let mine = self.chambers.bound(graph, self.scratch.reached(), graph.cell(my_head));
            space::reachable_with(game, their_head, &mut self.scratch);
            let theirs = self.chambers.bound(graph, self.scratch.reached(), graph.cell(their_head));
            return DuelView { separated: true, space: [mine, theirs], value: self.value(true, mine, theirs) };
        }
        space::voronoi_with(game, &mut self.scratch);
        let w = self.weights;
        if w.edge != 0 || w.chamber_edge != 0 || w.front != 0 || w.wall != 0 {
            self.fill_free(game);
        }
        let (mine, theirs) = if w.front != 0 {
            (
                self.chambers.walk_front(graph, self.scratch.owned(me), graph.cell(my_head), &self.free),
                self.chambers.walk_front(graph, self.scratch.owned(other), graph.cell(their_head), &self.free),
            )
        } else {
            let walk_free = Some(&self.free[..]).filter(|_| w.counts_edges());
            (
                self.chambers.walk(graph, self.scratch.owned(me), graph.cell(my_head), walk_free),
                self.chambers.walk(graph, self.scratch.owned(other), graph.cell(their_head), walk_free),
            )
        };
        let chamber_edges = mine.edges as i32 - theirs.edges as i32;
        let (mine, theirs) = (mine.bound, theirs.bound);
        let mut value = self.value(false, mine, theirs);
        value = value.saturating_add(chamber_edges.saturating_mul(w.chamber_edge));
        if w.charges_walls(w.wall, game) {
            value = value.saturating_sub(walls_beside(mine, theirs, chamber_edges).saturating_mul(w.wall));
        }
        if w.edge != 0 {
            let edges = edges(graph, &self.free, self.scratch.owned(me)) as i32
                - edges(graph, &self.free, self.scratch.owned(other)) as i32;
            value = value.saturating_add(edges.saturating_mul(self.weights.edge));
        }
        if self.weights.secure != 0 {
            let [a, b] = secure_counts_by_cell(game, [my_head, their_head], self.weights.secure_by as u32);
            value = value.saturating_add((a as i32 - b as i32).saturating_mul(self.weights.secure));
        }
        DuelView { separated: false, space: [mine, theirs], value }
    }

    /// For three players or more: `id`'s space, the chamber bound of its
    /// Voronoi cells, and the same for every other living player (in
    /// `spaces`, by id; 0 for the dead).
    pub fn spaces(&mut self, graph: &CellGraph, game: &FastGame, spaces: &mut [u32]) {
        let lean_state = SearchState::from_game(game).ok();
        let h = game.layout().height() as usize;
        match &lean_state {
            Some(state) => {
                lean::voronoi_cells(state, &mut self.planes);
            }
            None => {
                space::voronoi_with(game, &mut self.scratch);
            }
        }
        for (id, space) in spaces.iter_mut().enumerate().take(game.num_players()) {
            *space = if !game.is_alive(id) {
                0
            } else if lean_state.is_some() {
                self.chambers.bound(graph, &self.planes[id][..h], graph.cell(game.head(id)))
            } else {
                self.chambers.bound(graph, self.scratch.owned(id), graph.cell(game.head(id)))
            };
        }
    }

    /// For three players or more, `value=own`: `id`'s chamber-bounded
    /// Voronoi space alone, with `ffa_edge` for each edge of its walked
    /// chambers and, in the opening, less `ffa_wall` for each wall beside
    /// them.
    pub fn own(&mut self, graph: &CellGraph, game: &FastGame, id: usize) -> i32 {
        let w = self.weights;
        let walk = self.space_of(graph, game, id, w.ffa_edge != 0 || w.ffa_wall != 0);
        self.own_value(game, walk)
    }

    /// For three players or more, `value=own`: `me`'s [`Evaluator::own`]
    /// less `ffa_rival` % of the largest such value among the `rivals`
    /// still riding, all walked in one Voronoi split (with `ffa_rival=0`,
    /// [`Evaluator::own`] alone, the rivals not walked). Riders also set
    /// out from their `starts` in that split ([`lean::voronoi_cells_ahead`];
    /// not on boards past 64 × 64).
    pub fn own_against(
        &mut self,
        graph: &CellGraph,
        game: &FastGame,
        me: usize,
        rivals: &[usize],
        starts: &[Start],
    ) -> i32 {
        let w = self.weights;
        // At 0 the rivals are not walked: our own value alone.
        let rivals = if w.ffa_rival == 0 { &[][..] } else { rivals };
        let mut ids = [me; MAX_PLAYERS];
        let mut n = 1;
        for &p in rivals.iter().filter(|&&p| p != me && game.is_alive(p)) {
            ids[n] = p;
            n += 1;
        }
        let mut walks = [Walk::default(); MAX_PLAYERS];
        self.walks_of(graph, game, &ids[..n], starts, w.ffa_edge != 0 || w.ffa_wall != 0, &mut walks[..n]);
        let mine = self.own_value(game, walks[0]);
        let Some(theirs) = walks[1..n].iter().map(|&walk| self.own_value(game, walk)).max() else {
            return mine;
        };
        mine.saturating_sub(theirs.saturating_mul(w.ffa_rival) / 100)
    }

    /// The value [`Evaluator::own`] gives a rider's `walk` in `game`.
    fn own_value(&self, game: &FastGame, walk: Walk) -> i32 {
        let w = self.weights;
        let value = self.value(false, walk.bound, 0).saturating_add((walk.edges as i32).saturating_mul(w.ffa_edge));
        if !w.charges_walls(w.ffa_wall, game) {
            return value;
        }
        value.saturating_sub(walls_beside(walk.bound, 0, walk.edges as i32).saturating_mul(w.ffa_wall))
    }

    /// For three players or more: the chamber walk of `id`'s Voronoi cells
    /// alone, where [`Evaluator::spaces`] walks every rider's (the same
    /// bound as its `spaces[id]`); with `edges`, the walk's edges too.
    pub fn space_of(&mut self, graph: &CellGraph, game: &FastGame, id: usize, edges: bool) -> Walk {
        let mut walk = [Walk::default()];
        self.walks_of(graph, game, &[id], &[], edges, &mut walk);
        walk[0]
    }

    /// [`Evaluator::space_of`] for each of `ids` (into `walks`, in order),
    /// from one Voronoi split of `game` where riders also set out from
    /// their `starts` (on boards up to 64 × 64).
    fn walks_of(
        &mut self,
        graph: &CellGraph,
        game: &FastGame,
        ids: &[usize],
        starts: &[Start],
        edges: bool,
        walks: &mut [Walk],
    ) {
        if let Ok(state) = SearchState::from_game(game) {
            let h = game.layout().height() as usize;
            lean::voronoi_cells_ahead(&state, starts, &mut self.planes);
            let free = if edges { Some(lean::free_cells(&state)) } else { None };
            for (walk, &id) in walks.iter_mut().zip(ids) {
                let head = graph.cell(game.head(id));
                *walk = self.chambers.walk(graph, &self.planes[id][..h], head, free.as_ref().map(|f| &f[..h]));
            }
            return;
        }
        space::voronoi_with(game, &mut self.scratch);
        if edges {
            self.fill_free(game);
        }
        let free = Some(&self.free[..]).filter(|_| edges);
        for (walk, &id) in walks.iter_mut().zip(ids) {
            *walk = self.chambers.walk(graph, self.scratch.owned(id), graph.cell(game.head(id)), free);
        }
    }

    /// The free cells of `game` into `self.free`, for the edge terms on
    /// boards past 64.
    fn fill_free(&mut self, game: &FastGame) {
        let layout = game.layout();
        self.free.resize(layout.words(), 0);
        bitboard::complement(layout, game.solid(), &mut self.free);
    }

    /// Whether `a`'s room reaches a cell next to `b`'s head: the two can
    /// still meet.
    pub fn can_meet(&mut self, game: &FastGame, a: usize, b: usize) -> bool {
        if let Ok(state) = SearchState::from_game(game) {
            let h = game.layout().height() as usize;
            lean::reachable_cells(&state, game.head(a), &mut self.planes[0]);
            return touches(game, &self.planes[0][..h], game.head(b));
        }
        space::reachable_with(game, game.head(a), &mut self.scratch);
        touches(game, self.scratch.reached(), game.head(b))
    }
}

/// The edges of `cells` (pairs of a cell and a free 4-neighbour) on lean
/// rows: four masks and counts a row.
fn lean_edges(cells: &[u64], free: &[u64]) -> u32 {
    let mut edges = 0;
    for (y, (&c, &f)) in cells.iter().zip(free).enumerate() {
        let above = if y > 0 { free[y - 1] } else { 0 };
        let below = free.get(y + 1).copied().unwrap_or(0);
        edges += (c & (f >> 1)).count_ones() + (c & (f << 1)).count_ones();
        edges += (c & above).count_ones() + (c & below).count_ones();
    }
    edges
}

/// [`lean_edges`] on any board, cell by cell (`free`: the free cells):
/// the reference, and the evaluation of boards past 64.
fn edges(graph: &CellGraph, free: &[u64], cells: &[u64]) -> u32 {
    bitboard::cells(graph.layout(), cells).map(|c| graph.free_degree(free, graph.cell(c))).sum()
}

/// Whether a cell of `room` is next to `head`.
fn touches(game: &FastGame, room: &[u64], head: Pos) -> bool {
    let layout = game.layout();
    Dir::ALL.into_iter().filter_map(|d| head.step(d, layout.width(), layout.height())).any(|c| layout.get(room, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin::search::testing::{self, drawn_game, step_scripted};
    use lightcycles_core::Action;

    fn view(rows: &[&str]) -> DuelView {
        view_with(rows, Weights::DEFAULT)
    }

    fn view_with(rows: &[&str], weights: Weights) -> DuelView {
        let game = drawn_game(rows);
        let graph = CellGraph::new(game.layout());
        Evaluator::with_weights(weights).duel(&graph, &game, 0, 1)
    }

    #[test]
    fn separated_rooms_are_measured_whole() {
        // A wall splits an 8 × 8 board: 3 columns for player 0 (A), 4 for
        // player 1 (B).
        let v = view(&[
            "A..#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#....", //
            "...#...B", //
        ]);
        assert!(v.separated);
        // 23 free cells on the left, entered from a corner on the colour
        // of 11 of them, 12 of the other: 23. Right: 31, the same way.
        assert_eq!(v.space, [23, 31]);
        assert_eq!(v.value, -8 * SEPARATED_CELL - SEPARATED_BONUS);
    }

    #[test]
    fn an_open_symmetric_board_is_even() {
        let v = view(&[
            "........", //
            "...A....", //
            "........", //
            "........", //
            "........", //
            "........", //
            "....B...", //
            "........", //
        ]);
        assert!(!v.separated);
        assert_eq!(v.space[0], v.space[1]);
        assert_eq!(v.value, 0, "the board is symmetric about its centre");
    }

    #[test]
    fn pockets_behind_doors_count_once() {
        // Two dead-end cells (1, 0) and (3, 0) hang off player 0's row: a
        // cycle can end in one of them, never pass through. Player 0's
        // Voronoi count has both; its space has at most one.
        let rows = [
            "#.#.####", //
            "A.......", //
            "........", //
            "........", //
            "........", //
            "........", //
            "........", //
            ".......B", //
        ];
        let v = view(&rows);
        let split = space::voronoi(&drawn_game(&rows));
        assert!(!v.separated);
        assert!(v.space[0] < split.counts[0], "{v:?} against {split:?}");
        // The value of the cells alone (the walls beside them, charged in
        // the opening, are tested on their own below).
        let cells = view_with(&rows, Weights { wall: 0, ..Weights::DEFAULT });
        assert_eq!(cells.space, v.space);
        assert!(cells.value < (split.counts[0] as i32 - split.counts[1] as i32) * CELL);
    }

    #[test]
    fn the_lean_and_the_fast_evaluation_agree_on_played_games() {
        use lightcycles_core::Config;
        for seed in 0..6 {
            let mut game = FastGame::seeded(&Config::default(), seed).unwrap();
            let graph = CellGraph::new(game.layout());
            // The edges terms too (the chambers' is off by default).
            let mut evals = [
                Evaluator::new(),
                Evaluator::with_weights(Weights { edge: 56, ..Weights::DEFAULT }),
                Evaluator::with_weights(Weights { chamber_edge: 9, ..Weights::DEFAULT }),
                Evaluator::with_weights(Weights { front: 1, ..Weights::DEFAULT }),
                Evaluator::with_weights(Weights { wall: 24, ..Weights::DEFAULT }),
                Evaluator::with_weights(Weights { wall: 5, chamber_edge: 0, opening: 50, ..Weights::DEFAULT }),
            ];
            let mut t = 0;
            while !game.is_over() {
                if game.is_alive(0) && game.is_alive(1) {
                    let state = SearchState::from_game(&game).unwrap();
                    for eval in &mut evals {
                        let lean = eval.duel_lean(&graph, &game, &state, 0, 1);
                        assert_eq!(lean, eval.duel_fast(&graph, &game, 0, 1), "seed {seed} tick {}", game.tick());
                        assert_eq!(eval.duel(&graph, &game, 1, 0), eval.duel_fast(&graph, &game, 1, 0));
                    }
                }
                step_scripted(&mut game, t);
                t += 1;
            }
        }
    }

    #[test]
    fn one_riders_walk_is_its_share_of_the_split_of_all() {
        use lightcycles_core::Config;
        // Four riders on a board of the search state's size and on one too
        // wide for it (the fast engine's split): `space_of` walks one
        // rider's cells of the split `spaces` walks for every rider.
        for (width, seed) in [(24, 1), (24, 2), (70, 3)] {
            let config = Config { width, height: 20, players: 4, rock_density: 4, ..Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            let graph = CellGraph::new(game.layout());
            let mut eval = Evaluator::new();
            let mut spaces = [0; 4];
            let mut t = 0;
            while !game.is_over() {
                eval.spaces(&graph, &game, &mut spaces);
                let mut free = vec![0; game.layout().words()];
                bitboard::complement(game.layout(), game.solid(), &mut free);
                for id in (0..4).filter(|&id| game.is_alive(id)) {
                    let plain = eval.space_of(&graph, &game, id, false);
                    assert_eq!(
                        plain,
                        Walk { bound: spaces[id], edges: 0 },
                        "seed {seed} tick {} rider {id}",
                        game.tick()
                    );
                    let walked = eval.space_of(&graph, &game, id, true);
                    space::voronoi_with(&game, &mut eval.scratch);
                    let owned = eval.scratch.owned(id).to_vec();
                    let want = eval.chambers.walk_by_cells(&graph, &owned, graph.cell(game.head(id)), Some(&free));
                    assert_eq!(walked, want, "seed {seed} tick {} rider {id}, with edges", game.tick());
                }
                step_scripted(&mut game, t);
                t += 1;
            }
        }
    }

    #[test]
    fn edges_count_a_cell_and_each_free_neighbour() {
        // The block left of the wall, 4 × 8 cells less A's head.
        let rows = [
            "A...#...", //
            "....#.#.", //
            "....#...", //
            "....#.#.", //
            "....#...", //
            "....#.#.", //
            "....#...", //
            "....#.#B", //
        ];
        let game = drawn_game(&rows);
        let state = SearchState::from_game(&game).unwrap();
        let free = lean::free_cells(&state);
        let h = 8;
        let mut block = [0u64; 64];
        for (y, row) in block[..h].iter_mut().enumerate() {
            *row = if y == 0 { 0b1110 } else { 0b1111 };
        }
        // Neighbours off the block: the wall column (x = 4) is solid, the
        // board's edges are walls; the head (0, 0) is solid.
        // Each row of 4 cells has 3 inner pairs (6 edges), each column of
        // 8 has 7 (14 edges per column, 4 columns): 6 × 8 + 14 × 4 = 104,
        // less the head's 2 pairs both ways (4): 100.
        assert_eq!(lean_edges(&block[..h], &free[..h]), 100);
        assert_eq!(edges(&CellGraph::new(game.layout()), &free[..h], &block[..h]), 100);
    }

    #[test]
    fn the_edge_weights_prefer_open_territory() {
        // Player 0 owns an open 3 × 3 room and the west of the corridor,
        // player 1 the corridor's east: cells with two free neighbours
        // each against cells with up to four.
        let rows = [
            "A..#######", //
            "...#######", //
            "...#######", //
            "#.........", //
            "#########B", //
            "##########", //
            "##########", //
            "##########", //
        ];
        let game = drawn_game(&rows);
        let graph = CellGraph::new(game.layout());
        let with = |edge, chamber_edge| {
            let weights = Weights { edge, chamber_edge, ..Weights::DEFAULT };
            Evaluator::with_weights(weights).duel(&graph, &game, 0, 1)
        };
        let (plain, edged, chambered) = (with(0, 0), with(10, 0), with(0, 10));
        let default = Evaluator::new().duel(&graph, &game, 0, 1);
        assert!(!plain.separated);
        assert_eq!(plain.space, edged.space, "the edges change the value, not the space");
        assert_eq!(plain.space, chambered.space);
        assert!(edged.value > plain.value, "{edged:?} against {plain:?}");
        assert!(chambered.value > plain.value, "{chambered:?} against {plain:?}");
        // The default weighs the walked chambers' edges (4 an edge), between
        // none and 10 an edge.
        assert!(plain.value < default.value && default.value < chambered.value, "{default:?}");
    }

    /// Two uneven duels a few ticks into seeded games, with their board
    /// widths: 40 columns (the lean rows) and 70 (past 64, the fast
    /// engine's path).
    fn uneven_duels() -> [(u32, FastGame); 2] {
        [(40, 3), (70, 5)].map(|(width, seed)| {
            let config = lightcycles_core::Config { width, height: 20, ..lightcycles_core::Config::default() };
            let mut game = FastGame::seeded(&config, seed).unwrap();
            testing::ride_unevenly(&mut game, 6);
            (width, game)
        })
    }

    #[test]
    fn the_secure_weight_adds_its_value_for_each_cell_won_by_a_margin() {
        for (width, game) in uneven_duels() {
            assert!(!game.is_over());
            let graph = CellGraph::new(game.layout());
            let plain = Evaluator::new().duel(&graph, &game, 0, 1);
            assert!(!plain.separated);
            for (secure, secure_by) in [(8, 4), (3, 0), (20, 9)] {
                let weights = Weights { secure, secure_by, ..Weights::DEFAULT };
                let v = Evaluator::with_weights(weights).duel(&graph, &game, 0, 1);
                let [a, b] = secure_counts_by_cell(&game, [game.head(0), game.head(1)], secure_by as u32);
                assert_ne!(a, b, "width {width}, {weights:?}: an uneven position");
                assert_eq!(v.space, plain.space, "width {width}");
                assert_eq!(v.value - plain.value, secure * (a as i32 - b as i32), "width {width}, {weights:?}");
                // From the other side, the same the other way round.
                let other = Evaluator::with_weights(weights).duel(&graph, &game, 1, 0);
                let plain_other = Evaluator::new().duel(&graph, &game, 1, 0);
                assert_eq!(other.value - plain_other.value, secure * (b as i32 - a as i32));
                // With the edge term on too (the free rows are made once for
                // both), each term adds what it adds alone.
                let edge = Evaluator::with_weights(Weights { edge: 5, ..Weights::DEFAULT }).duel(&graph, &game, 0, 1);
                let both = Evaluator::with_weights(Weights { edge: 5, ..weights }).duel(&graph, &game, 0, 1);
                assert_ne!(edge.value, plain.value, "width {width}: the edge term counts here");
                assert_eq!(both.value - plain.value, (edge.value - plain.value) + (v.value - plain.value));
            }
        }
    }

    /// Both riders' walks of `game` by the reference cell search on the
    /// Voronoi split, counting edges, and the free cells they were counted on.
    fn reference_walks(graph: &CellGraph, game: &FastGame) -> ([Walk; 2], Vec<u64>) {
        let mut split = lightcycles_core::space::Scratch::for_game(game);
        lightcycles_core::space::voronoi_with(game, &mut split);
        let layout = game.layout();
        let mut free = vec![0; layout.words()];
        bitboard::complement(layout, game.solid(), &mut free);
        let mut chambers = Chambers::new();
        let walks =
            [0, 1].map(|id| chambers.walk_by_cells(graph, split.owned(id), graph.cell(game.head(id)), Some(&free)));
        (walks, free)
    }

    #[test]
    fn the_chamber_edge_weight_adds_its_value_for_each_edge_of_the_walked_chambers() {
        // The lean rows take the contracted walk; past 64 columns, the cell
        // walk.
        for (width, game) in uneven_duels() {
            let graph = CellGraph::new(game.layout());
            let plain =
                Evaluator::with_weights(Weights { chamber_edge: 0, ..Weights::DEFAULT }).duel(&graph, &game, 0, 1);
            assert!(!plain.separated);
            let ([a, b], _) = reference_walks(&graph, &game);
            assert_eq!(plain.space, [a.bound, b.bound], "width {width}");
            assert_ne!(a.edges, b.edges, "width {width}: an uneven position");
            for k in [1, 7] {
                let v =
                    Evaluator::with_weights(Weights { chamber_edge: k, ..Weights::DEFAULT }).duel(&graph, &game, 0, 1);
                assert_eq!(v.space, plain.space);
                assert_eq!(v.value - plain.value, k * (a.edges as i32 - b.edges as i32), "width {width}");
            }
        }
    }

    #[test]
    fn the_wall_weight_takes_its_value_for_each_wall_beside_the_walked_chambers_in_the_opening() {
        for (width, game) in uneven_duels() {
            let graph = CellGraph::new(game.layout());
            let plain = Evaluator::with_weights(Weights { wall: 0, ..Weights::DEFAULT }).duel(&graph, &game, 0, 1);
            let ([a, b], free) = reference_walks(&graph, &game);
            let walls = 4 * (a.bound as i32 - b.bound as i32) - (a.edges as i32 - b.edges as i32);
            assert_ne!(walls, 0, "width {width}: an uneven position");
            let layout = game.layout();
            let open = free.iter().map(|w| w.count_ones()).sum::<u32>() * 100 / (layout.width() * layout.height());
            for k in [1, 7] {
                let with = |opening: u32| {
                    let weights = Weights { wall: k, opening: opening as i32, ..Weights::DEFAULT };
                    Evaluator::with_weights(weights).duel(&graph, &game, 0, 1)
                };
                // In the opening (as much of the board free as it asks or
                // more), the walls count; past it, not at all.
                let (opening, past) = (with(open), with(open + 1));
                assert_eq!(opening.space, plain.space);
                assert_eq!(opening.value - plain.value, -k * walls, "width {width}");
                assert_eq!(past, plain, "width {width}");
            }
        }
    }

    /// Three riders who can all meet on a 16 × 16 board with a rock here
    /// and there, for the free-for-all leaf's tests.
    const THREE_RIDERS_AMONG_ROCKS: [&str; 16] = [
        "A..........#....", //
        "....#...........", //
        "..........B.....", //
        "......#.........", //
        ".#..........#...", //
        ".......#........", //
        "...C............", //
        "..........#.....", //
        "................", //
        "....#...........", //
        "................", //
        ".........#......", //
        "................", //
        "..#.............", //
        "...........#....", //
        "................", //
    ];

    #[test]
    fn the_ffa_wall_weight_takes_its_value_for_each_wall_beside_our_walked_chambers_in_the_opening() {
        let game = drawn_game(&THREE_RIDERS_AMONG_ROCKS);
        let graph = CellGraph::new(game.layout());
        let layout = game.layout();
        let solid: u32 = game.solid().iter().map(|w| w.count_ones()).sum();
        let open = (layout.width() * layout.height() - solid) * 100 / (layout.width() * layout.height());
        for me in 0..3 {
            let walk = Evaluator::new().space_of(&graph, &game, me, true);
            let walls = 4 * walk.bound as i32 - walk.edges as i32;
            assert!(walls > 0, "rider {me}: the board's edges and the rocks");
            let plain = Evaluator::with_weights(Weights { ffa_wall: 0, ..Weights::DEFAULT }).own(&graph, &game, me);
            let cell = Weights::DEFAULT.cell;
            assert_eq!(plain, walk.bound as i32 * cell + walk.edges as i32 * Weights::DEFAULT.ffa_edge);
            let charged = Evaluator::new().own(&graph, &game, me);
            assert_eq!(charged, plain - Weights::DEFAULT.ffa_wall * walls, "rider {me}: charged by default");
            for k in [1, 7] {
                let with = |opening: u32| {
                    let weights = Weights { ffa_wall: k, opening: opening as i32, ..Weights::DEFAULT };
                    Evaluator::with_weights(weights).own(&graph, &game, me)
                };
                // In the opening the walls count; past it, not at all.
                assert_eq!(with(open) - plain, -k * walls, "rider {me}");
                assert_eq!(with(open + 1), plain, "rider {me}");
            }
        }
    }

    #[test]
    fn the_ffa_rival_weight_takes_its_share_of_the_largest_rivals_own_value() {
        let mut game = drawn_game(&THREE_RIDERS_AMONG_ROCKS);
        let graph = CellGraph::new(game.layout());
        for pct in [0, 1, 50, 100] {
            let mut eval = Evaluator::with_weights(Weights { ffa_rival: pct, ..Weights::DEFAULT });
            let own: Vec<i32> = (0..3).map(|p| eval.own(&graph, &game, p)).collect();
            for me in 0..3 {
                let rivals: Vec<usize> = (0..3).filter(|&p| p != me).collect();
                let largest = rivals.iter().map(|&p| own[p]).max().unwrap();
                let want = own[me] - largest * pct / 100;
                assert_eq!(eval.own_against(&graph, &game, me, &rivals, &[]), want, "rider {me} at {pct} %");
                // One rival, or none: that rival's share, or ours alone.
                let one = rivals[0];
                assert_eq!(eval.own_against(&graph, &game, me, &[one], &[]), own[me] - own[one] * pct / 100);
                assert_eq!(eval.own_against(&graph, &game, me, &[], &[]), own[me], "rider {me}: no rival");
            }
        }
        // A rival who has crashed is not counted: C rides off the board.
        for _ in 0..4 {
            game.step(&[Dir::E, Dir::E, Dir::W].map(Action::Move)).unwrap();
        }
        assert!(!game.is_alive(2) && game.is_alive(0) && game.is_alive(1));
        let mut eval = Evaluator::new();
        let (a, b) = (eval.own(&graph, &game, 0), eval.own(&graph, &game, 1));
        let half = Weights::DEFAULT.ffa_rival;
        assert_eq!(eval.own_against(&graph, &game, 0, &[1, 2], &[]), a - b * half / 100);
        assert_eq!(eval.own_against(&graph, &game, 0, &[2], &[]), a, "C is out");
    }

    #[test]
    fn game_ends_count_ticks_from_the_root() {
        let mut game = drawn_game(&[
            "A......B", "........", "........", "........", "........", "........", "........", "........",
        ]);
        // Player 0 rides off the board to the west: B wins.
        game.step(&[lightcycles_core::Action::Move(Dir::W), lightcycles_core::Action::Move(Dir::S)]).unwrap();
        assert_eq!(game_end(&game, 0, 3, 0), -WIN + 3);
        assert_eq!(game_end(&game, 1, 3, 0), WIN - 3);
    }

    #[test]
    fn a_head_on_crash_of_both_is_a_draw() {
        let mut game = drawn_game(&[
            "A.B.....", "........", "........", "........", "........", "........", "........", "........",
        ]);
        // Both ride into (1, 0): nobody is left, the game is drawn (the
        // rule book), worth an even position, not a loss.
        game.step(&[lightcycles_core::Action::Move(Dir::E), lightcycles_core::Action::Move(Dir::W)]).unwrap();
        assert!(game.is_over() && game.alive_mask() == 0);
        assert_eq!(game_end(&game, 0, 1, 0), 0);
        assert_eq!(game_end(&game, 1, 1, 0), 0);
        assert_eq!(game_end(&game, 1, 1, 64), -64, "less the contempt");
    }
}
