//! The search bot natively and in wasm: `builtin:search:nodes=1000` and
//! `examples/wasm-search-bot` (the same search files compiled for wasm,
//! 1,000 nodes an answer when the clock times it) answer the same positions
//! of one game, in order, each bot made afresh for each run; nodes per
//! second are the nodes of those answers over the CPU time of each side
//! (of the one thread both run on), and the ratio is taken run by run, the
//! two sides one after the other.
//!
//! Both sides answer whole turns the way a game asks them (the native bot
//! builds its engine from the position, the wasm bot gets the record
//! written into its memory and decodes it), and must give the same moves:
//! a difference is an error, not a figure.

use std::path::Path;
use std::time::{Duration, Instant};

use lightcycles_core::{Action, Config, Engine as _, FastGame, Position};

use crate::bot::adapter::wasm::{WasmBudget, WasmFactory};
use crate::bot::builtin::search::{SearchBot, SearchOptions};
use crate::bot::{Bot, BotContext, BotFactory, Reply, Turn};

/// The node budget of an answer on both sides: the wasm bot's own when
/// the clock times it.
pub const NODES: u64 = 1_000;

/// The figures of one measure.
#[derive(Clone, Debug, PartialEq)]
pub struct WasmSearch {
    /// Answers per run, and the nodes they search together.
    pub answers: usize,
    /// Nodes of one run (the same on both sides).
    pub nodes: u64,
    /// Runs of each side.
    pub runs: usize,
    /// Median nodes per second, natively.
    pub native: f64,
    /// Median nodes per second in wasm.
    pub wasm: f64,
    /// Median of the runs' wasm rate over the native rate.
    pub ratio: f64,
}

/// The positions of one game on a 32 × 24 board without rocks, seat 0's
/// turns, played by two `builtin:search:nodes=1000`: what both sides answer.
fn positions() -> Vec<Position> {
    let config = Config { width: 32, height: 24, rock_density: 0, ..Config::default() };
    let mut game = FastGame::seeded(&config, 3).expect("the board builds");
    let options = SearchOptions { nodes: Some(NODES), ..SearchOptions::default() };
    let mut bots: Vec<SearchBot> =
        (0..2).map(|seat| SearchBot::new(options, BotContext { game: 0, seat, players: 2, seed: 3 })).collect();
    let mut positions = Vec::new();
    while !game.is_over() && positions.len() < 80 {
        positions.push(game.position());
        let actions: Vec<Action> =
            (0..2).map(|me| Action::Move(bots[me].think(&game, me, Instant::now(), Duration::ZERO).dir)).collect();
        if game.step(&actions).is_err() {
            break;
        }
    }
    positions
}

/// The CPU time of this thread: both sides run on it, one after the
/// other, so the other work of a shared machine slows a measure less
/// than it would on the wall clock.
fn thread_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
}

/// Answers every position as seat 0 with `bot`: the replies and the
/// thread's CPU time they took.
fn answer_all(bot: &mut dyn Bot, positions: &[Position]) -> (Vec<Reply>, Duration) {
    let limit = Duration::from_secs(60);
    let start = thread_time();
    let replies = positions.iter().map(|p| bot.answer(&Turn::new(p, 0), limit)).collect();
    (replies, thread_time().saturating_sub(start))
}

/// Measures the wasm search bot at `path` against the native one, `runs`
/// times each.
pub fn measure(path: &Path, runs: usize) -> Result<WasmSearch, String> {
    let positions = positions();
    let ctx = BotContext { game: 0, seat: 0, players: 2, seed: 3 };
    let options = SearchOptions { nodes: Some(NODES), ..SearchOptions::default() };
    // The nodes of a run: the native search's count, answer by answer.
    let mut counter = SearchBot::new(options, ctx);
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            let game = FastGame::from_position(p).expect("a played position");
            counter.think(&game, 0, Instant::now(), Duration::ZERO).nodes
        })
        .sum();
    // Timed by the clock, as the nodes budget needs: no fuel counted.
    let budget = WasmBudget { fuel_per_tick: None, tick_ms: 60_000, margin_ms: 0 };
    let factory = WasmFactory::new(path, None, 1024, budget)?;
    let (mut native, mut wasm, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let (native_replies, native_time) = answer_all(&mut SearchBot::new(options, ctx), &positions);
        let mut guest = factory.create(&ctx).map_err(|e| e.to_string())?;
        let (wasm_replies, wasm_time) = answer_all(guest.as_mut(), &positions);
        if let Some(i) = (0..positions.len()).find(|&i| native_replies[i] != wasm_replies[i]) {
            return Err(format!(
                "{} answered {:?} at tick {}, builtin:search:nodes={NODES} {:?}: not the same search",
                path.display(),
                wasm_replies[i],
                positions[i].tick,
                native_replies[i]
            ));
        }
        native.push(nodes as f64 / native_time.as_secs_f64());
        wasm.push(nodes as f64 / wasm_time.as_secs_f64());
        ratio.push(native_time.as_secs_f64() / wasm_time.as_secs_f64());
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Ok(WasmSearch {
        answers: positions.len(),
        nodes,
        runs: runs.max(1),
        native: median(native),
        wasm: median(wasm),
        ratio: median(ratio),
    })
}

/// The figures as a Markdown table.
pub fn table(figures: &Result<WasmSearch, String>) -> String {
    use crate::bench::table::{show, Unit};
    let mut out = String::from("| search bot, native and in wasm | figure |\n| --- | ---: |\n");
    match figures {
        Ok(f) => {
            let what = format!(
                "{} answers of one game (32 × 24), {NODES} nodes each, {} nodes; thread CPU time, median of {} runs",
                f.answers, f.nodes, f.runs
            );
            out.push_str(&format!("| native nodes per second, {what} | {} |\n", show(f.native, Unit::PerSecond)));
            out.push_str(&format!(
                "| in wasm (examples/wasm-search-bot, timed by the clock), the same answers | {} |\n",
                show(f.wasm, Unit::PerSecond)
            ));
            out.push_str(&format!("| wasm's rate as a share of the native rate | {:.0} % |\n", f.ratio * 100.0));
        }
        Err(e) => out.push_str(&format!("| not measured | {e} |\n")),
    }
    out
}
