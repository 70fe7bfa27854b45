//! The search bot's rows of `lightcycles bench`: what its evaluation costs,
//! how many nodes it searches a second, how deep it gets in one tick.

use std::hint::black_box;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use lightcycles_core::bitboard;
use lightcycles_core::engine::Engine;
use lightcycles_core::space::{self, Scratch};
use lightcycles_core::{Config, FastGame};

use crate::bench::bots::{board_at, steady, EARLY_TICK, MID_TICK};
use crate::bench::table::{show, Unit};
use crate::bench::timing::per_op;

/// One line of the search bot's table: a figure of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRow {
    /// What is measured.
    pub what: String,
    /// The figure, shown in `unit`.
    pub value: f64,
    /// The unit of the figure.
    pub unit: SearchUnit,
}

/// The unit of a [`SearchRow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchUnit {
    /// Nanoseconds per operation.
    Nanos,
    /// Operations per second.
    PerSecond,
    /// Ticks searched.
    Ticks,
}

/// The search bot's figures on the boards of the engine table: what its
/// evaluation costs, how many nodes it searches a second, and how deep it
/// gets within one tick of 50 ms.
pub fn measure_search(time: Duration) -> Vec<SearchRow> {
    use crate::bot::builtin::search::alphabeta::Duel;
    use crate::bot::builtin::search::budget::{Budget, Limit};
    use crate::bot::builtin::search::cells::CellGraph;
    use crate::bot::builtin::search::chambers::Chambers;
    use crate::bot::builtin::search::eval::Evaluator;
    use crate::bot::builtin::search::TABLE_BITS;

    let mut rows = Vec::new();
    let row = |what: String, value: f64, unit: SearchUnit| SearchRow { what, value, unit };
    for (label, ticks) in [("early game", EARLY_TICK), ("mid game", MID_TICK)] {
        let game = board_at(ticks);
        let graph = CellGraph::new(game.layout());
        let mut scratch = Scratch::for_game(&game);
        space::voronoi_with(&game, &mut scratch);
        let owned = scratch.owned(0).to_vec();
        let head = graph.cell(game.head(0));
        let mut chambers = Chambers::new();
        rows.push(row(
            format!("chamber bound of player 0's Voronoi cells, {label} ({} cells)", bitboard::count(&owned)),
            per_op(time, || chambers.bound(&graph, black_box(&owned), head)),
            SearchUnit::Nanos,
        ));
        rows.push(row(
            format!("the same bound cell by cell (Tarjan over every cell, the reference), {label}"),
            per_op(time, || chambers.bound_by_cells(&graph, black_box(&owned), head)),
            SearchUnit::Nanos,
        ));
        let mut eval = Evaluator::new();
        rows.push(row(
            format!("evaluation: Voronoi split and both chamber bounds, {label}"),
            per_op(time, || eval.duel(&graph, black_box(&game), 0, 1).value),
            SearchUnit::Nanos,
        ));
    }
    let game = duel_board(DUEL_TICK);
    let graph = CellGraph::new(game.layout());
    // Each search starts from an empty table, made before the clock starts;
    // 20,000 nodes with the default time, fewer for a quick run.
    let nodes = (time.as_millis() as u64 * 13).clamp(200, 20_000);
    let runs = 5;
    let mut rates: Vec<f64> = (0..runs)
        .map(|_| {
            let mut duel = Duel::new(&graph, 2, 0, 1, TABLE_BITS);
            let mut budget = Budget::nodes(nodes);
            let start = Instant::now();
            black_box(duel.choose(&graph, &game, &mut budget));
            budget.spent() as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    let at = format!("tick {} of a game still open", game.tick());
    rows.push(row(format!("alpha-beta nodes per second, {at}"), rates[runs / 2], SearchUnit::PerSecond));
    let mut depths: Vec<f64> = (0..runs)
        .map(|_| {
            let mut duel = Duel::new(&graph, 2, 0, 1, TABLE_BITS);
            let mut budget = Budget::new(Instant::now(), Limit::Time(Duration::from_millis(50)));
            duel.choose(&graph, &game, &mut budget).map_or(0.0, |d| d.depth as f64)
        })
        .collect();
    depths.sort_by(f64::total_cmp);
    rows.push(row(
        format!("ticks searched within a 50 ms limit (stops at 25 ms), {at}"),
        depths[runs / 2],
        SearchUnit::Ticks,
    ));
    rows
}

/// The tick of the board the alpha-beta figures search.
const DUEL_TICK: u32 = 30;

/// A default board played to `ticks` by two steady bots where the two can
/// still meet and player 0 has a choice: the first seed whose game gets
/// there.
fn duel_board(ticks: u32) -> FastGame {
    for seed in 0.. {
        let mut game = FastGame::seeded(&Config::default(), seed).expect("the default configuration builds");
        while game.tick() < ticks && !game.is_over() {
            let actions = [steady(&game, 0), steady(&game, 1)];
            game.step(&actions).expect("the game goes on");
        }
        let open = !game.is_over() && !space::separated(&game) && space::safe_moves(&game, 0).len() >= 2;
        if game.tick() == ticks && open {
            return game;
        }
    }
    unreachable!("some seed reaches the tick")
}

/// Prints the search bot's rows as a Markdown table.
pub fn print_search_table<W: Write + ?Sized>(out: &mut W, rows: &[SearchRow]) -> io::Result<()> {
    writeln!(out, "| search bot | figure |")?;
    writeln!(out, "| --- | ---: |")?;
    for row in rows {
        let figure = match row.unit {
            SearchUnit::Nanos => show(row.value, Unit::Nanos),
            SearchUnit::PerSecond => show(row.value, Unit::PerSecond),
            SearchUnit::Ticks => format!("{:.0}", row.value),
        };
        writeln!(out, "| {} | {} |", row.what, figure)?;
    }
    Ok(())
}
