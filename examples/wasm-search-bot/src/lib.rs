//! `builtin:search` as a wasm bot: the host's search files
//! (lightcycles-host/src/bot/builtin/search/) compiled in unchanged, with
//! a budget of the answer's fuel (under `--fuel-per-tick`) or of
//! [`DEFAULT_NODES`] nodes, never the clock, and the same choice of search
//! as the host's `SearchBot::think`.

#[path = "../../../lightcycles-host/src/bot/builtin/search/alphabeta.rs"]
pub mod alphabeta;
pub mod budget;
#[path = "../../../lightcycles-host/src/bot/builtin/search/cells.rs"]
pub mod cells;
#[path = "../../../lightcycles-host/src/bot/builtin/search/chambers.rs"]
pub mod chambers;
#[path = "../../../lightcycles-host/src/bot/builtin/search/contracted.rs"]
pub mod contracted;
#[path = "../../../lightcycles-host/src/bot/builtin/search/endgame.rs"]
pub mod endgame;
#[path = "../../../lightcycles-host/src/bot/builtin/search/eval.rs"]
pub mod eval;
#[path = "../../../lightcycles-host/src/bot/builtin/search/multi.rs"]
pub mod multi;
#[path = "../../../lightcycles-host/src/bot/builtin/search/secure.rs"]
pub mod secure;
#[path = "../../../lightcycles-host/src/bot/builtin/search/table.rs"]
pub mod table;
#[path = "../../../lightcycles-host/src/bot/builtin/search/zobrist.rs"]
pub mod zobrist;

/// The search files' own tests name their modules by the host's paths
/// (`crate::bot::builtin::search::…`); this gives them those paths, so that
/// they compile here as they do there (they run in lightcycles-host).
#[cfg(test)]
mod bot {
    pub mod builtin {
        pub mod search {
            pub use crate::{chambers, testing};
        }
    }
}

#[cfg(test)]
#[path = "../../../lightcycles-host/src/bot/builtin/search/testing.rs"]
pub mod testing;

use lightcycles_core::{CellValue, Config, Dir, Engine, FastGame, PlayerState, Pos, Position};
use lightcycles_wasm_bot::{export_bot, View, WasmBot};

use self::alphabeta::Duel;
use self::budget::Budget;
use self::cells::CellGraph;
use self::endgame::Filler;
use self::eval::Evaluator;
use self::multi::Paranoid;

/// Nodes per answer when the clock, not fuel, times the bot.
pub const DEFAULT_NODES: u64 = 1_000;

/// The transposition table: `2^TABLE_BITS` entries, as the host's bot.
pub const TABLE_BITS: u32 = 18;

/// The memory of one game, built on the first answer.
struct Memory {
    graph: CellGraph,
    duel: Option<Duel>,
    paranoid: Option<Paranoid>,
    filler: Filler,
    eval: Evaluator,
}

/// The search bot of one game and seat (it draws no random numbers).
pub struct Search {
    memory: Option<Memory>,
}

/// The position a record shows, as the rules know it; `None` for a
/// record that breaks a rule (the host never sends one).
pub fn position(view: &View<'_>) -> Option<Position> {
    let config = Config {
        width: view.width(),
        height: view.height(),
        players: view.players() as u32,
        max_ticks: view.max_ticks(),
        rock_density: 0,
        ..Config::default()
    };
    let tick = view.tick().saturating_sub(1);
    let players = (0..view.players())
        .map(|id| {
            let p = view.player(id);
            PlayerState {
                pos: Pos::new(u8::try_from(p.x).ok()?, u8::try_from(p.y).ok()?),
                dir: Dir::from_code(p.dir as u32)?,
                alive: p.alive,
                trail: p.trail,
                eliminated_at: (!p.alive).then_some(tick),
            }
            .into()
        })
        .collect::<Option<Vec<_>>>()?;
    let grid: Vec<CellValue> = view.grid().to_vec();
    let position = Position { config, tick, grid, players };
    position.validate().ok()?;
    Some(position)
}

impl Search {
    /// The move of player `me` in `game` within `budget`: what the host's
    /// `SearchBot::think` chooses, search for search.
    fn think(&mut self, game: &FastGame, me: usize, budget: &mut Budget) -> Dir {
        let memory = self.memory.get_or_insert_with(|| Memory {
            graph: CellGraph::new(game.layout()),
            duel: None,
            paranoid: None,
            filler: Filler::new(),
            eval: Evaluator::new(),
        });
        let straight = game.dir(me);
        if !game.is_alive(me) || game.is_over() {
            return straight;
        }
        let rivals: Vec<usize> = (0..game.num_players())
            .filter(|&p| p != me && game.is_alive(p) && memory.eval.can_meet(game, me, p))
            .collect();
        let graph = &memory.graph;
        let dir = match rivals[..] {
            [] => {
                let rival = (0..game.num_players())
                    .filter(|&p| p != me && game.is_alive(p))
                    .map(|p| memory.eval.room_bound(graph, game, p))
                    .max();
                memory.filler.choose(graph, game, me, rival, budget).map(|f| f.dir)
            }
            [other] if game.alive_mask().count_ones() == 2 => {
                if !memory.duel.as_ref().is_some_and(|d| d.other() == other) {
                    memory.duel = Some(Duel::new(graph, game.num_players(), me, other, TABLE_BITS));
                }
                memory.duel.as_mut().and_then(|duel| duel.choose(graph, game, budget)).map(|d| d.dir)
            }
            _ => memory.paranoid.get_or_insert_with(|| Paranoid::new(me)).choose(graph, game, budget).map(|d| d.dir),
        };
        dir.unwrap_or(straight)
    }
}

impl WasmBot for Search {
    fn new(_seed: u64) -> Self {
        Search { memory: None }
    }

    fn choose(&mut self, view: &View<'_>) -> Option<lightcycles_wasm_bot::Dir> {
        let mut budget = Budget::for_answer(DEFAULT_NODES);
        let game = FastGame::from_position(&position(view)?).ok()?;
        let dir = self.think(&game, view.you(), &mut budget);
        lightcycles_wasm_bot::Dir::from_code(u32::from(dir.code()))
    }
}

export_bot!(Search);
