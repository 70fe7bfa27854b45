//! The engine tables: every row measured on the fast engine beside the
//! reference engine, and the run that prints them with the search bot's.
//!
//! Every measure runs the same work on both engines: the same scripted
//! games for `step`, the same positions for `clone`, the same boards for the
//! search helpers (the reference column is a plain breadth-first search on
//! the reference engine's grid, the way a bot without the fast engine would
//! do it), the same random bot for full games. Times are medians of several
//! batches, each batch long enough for the clock; figures from one run are
//! comparable with each other, less so across machines or runs.

use std::hint::black_box;
use std::io::{self, Write};
use std::time::Duration;

use lightcycles_core::bitboard;
use lightcycles_core::engine::Engine;
use lightcycles_core::search_state::SearchState;
use lightcycles_core::space::{self, Scratch};
use lightcycles_core::{map, Action, Config, FastGame, ReferenceGame};

use crate::bench::abi::{self, print_abi_table, AbiRow};
use crate::bench::bots::{board_at, BotRng, NaturalSafe, EARLY_TICK, MID_TICK};
use crate::bench::lean::{self, LeanScript};
use crate::bench::plain::PlainSearch;
use crate::bench::script::Script;
use crate::bench::search_bot::{measure_search, print_search_table};
use crate::bench::table::{print_table, Row, Unit};
use crate::bench::timing::{per_op, per_op_seeded};

/// Everything the engine tables of one run hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The engine table.
    pub rows: Vec<Row>,
    /// The limit probe's step, in nanoseconds: the yardstick of the
    /// table's last column.
    pub limit_ns: f64,
    /// The C ABI table.
    pub abi: Vec<AbiRow>,
}

/// Measures every row, spending about `time` per engine on each.
pub fn measure(time: Duration) -> Measured {
    measure_saying(time, &mut |_| {})
}

/// [`measure`], telling `progress` what it measures next, as it goes.
pub fn measure_saying(time: Duration, progress: &mut dyn FnMut(&str)) -> Measured {
    let mut rows = Vec::new();
    progress("engines: the limit probe, step, clone + step, copy into + step");
    let ns = |what: &str, fast: f64, reference: f64| Row { what: what.into(), unit: Unit::Nanos, fast, reference };

    let (script_fast, script_ref) = (Script::<FastGame>::new(), Script::<ReferenceGame>::new());
    let script_lean = LeanScript::new(&script_fast);
    let ref_step = script_ref.ns_per_step(time);
    let ref_clone_step = script_ref.ns_per_clone_step(time);
    let limit_ns = script_lean.probe_ns_per_step(time);
    rows.push(ns("limit probe: step (a minimal two-player bitboard tick, 48 × 36)", limit_ns, ref_step));
    rows.push(ns("limit probe: copy + step (296 B)", script_lean.probe_ns_per_copy_step(time), ref_clone_step));
    rows.push(ns("step (2 players, 48 × 36)", script_fast.ns_per_step(time), ref_step));
    rows.push(ns("search state: step", script_lean.ns_per_step(time), ref_step));
    rows.push(ns("clone + step", script_fast.ns_per_clone_step(time), ref_clone_step));
    rows.push(ns(
        "copy into + step (no allocation)",
        script_fast.ns_per_copy_step(time),
        script_ref.ns_per_copy_step(time),
    ));
    rows.push(ns(
        "search state: copy + step (640 B, no allocation)",
        script_lean.ns_per_copy_step(time),
        ref_clone_step,
    ));

    let early = board_at(EARLY_TICK);
    for (label, ticks) in [("early game", EARLY_TICK), ("mid game", MID_TICK)] {
        progress(&format!("engines: reachable cells and the Voronoi split, {label}"));
        let fast = board_at(ticks);
        let lean = SearchState::from_game(&fast).expect("the default board fits a search state");
        let reference = ReferenceGame::from_position(&fast.position()).expect("a position of a played game is valid");
        let free = Config::default().cells() as u32 - bitboard::count(fast.solid());
        let mut scratch = Scratch::for_game(&fast);
        let mut plain = PlainSearch::new(&reference);
        let head = fast.head(0);
        let plain_reach = per_op(time, || plain.reachable(black_box(&reference), head));
        let plain_voronoi = per_op(time, || plain.voronoi(black_box(&reference)));
        rows.push(ns(
            &format!("reachable cells, {label} (tick {}, {free} free)", fast.tick()),
            per_op(time, || space::reachable_with(black_box(&fast), head, &mut scratch)),
            plain_reach,
        ));
        rows.push(ns(
            &format!("search state: reachable cells, {label}"),
            per_op(time, || space::lean::reachable(black_box(&lean), head)),
            plain_reach,
        ));
        rows.push(ns(
            &format!("Voronoi split, {label}"),
            per_op(time, || space::voronoi_with(black_box(&fast), &mut scratch)),
            plain_voronoi,
        ));
        rows.push(ns(
            &format!("search state: Voronoi split, {label}"),
            per_op(time, || space::lean::voronoi(black_box(&lean))),
            plain_voronoi,
        ));
    }

    let open = Config { rock_density: 0, ..Config::default() };
    progress("engines: full games, moves only, map generation");
    let per_second =
        |what: &str, fast: f64, reference: f64| Row { what: what.into(), unit: Unit::PerSecond, fast, reference };
    let ref_games = games_per_second::<ReferenceGame>(&open, time);
    let ref_moves = moves_per_second::<ReferenceGame>(&open, time);
    rows.push(per_second(
        "full random games per second (48 × 36, open board, one thread)",
        games_per_second::<FastGame>(&open, time),
        ref_games,
    ));
    rows.push(per_second("search state: full random games per second", lean::games_per_second(&open, time), ref_games));
    rows.push(per_second(
        "the same games, moves only (starts built beforehand, copied in)",
        moves_per_second::<FastGame>(&open, time),
        ref_moves,
    ));
    rows.push(per_second("search state: the same games, moves only", lean::moves_per_second(&open, time), ref_moves));
    let default = Config::default();
    rows.push(per_second(
        "maps generated per second (48 × 36, rock density 4)",
        1e9 / per_op_seeded(time, |seed| map::generate(&default, seed)),
        1e9 / per_op_seeded(time, |seed| map::generate_reference(&default, seed)),
    ));
    let fast = FastGame::seeded(&default, 1).expect("the default configuration builds");
    let reference = ReferenceGame::seeded(&default, 1).expect("the default configuration builds");
    let reference_bytes = (std::mem::size_of::<ReferenceGame>()
        + std::mem::size_of_val(reference.grid())
        + std::mem::size_of_val(reference.players())) as f64;
    let bytes = |what: &str, fast: f64| Row { what: what.into(), unit: Unit::Bytes, fast, reference: reference_bytes };
    rows.push(bytes("one game state (48 × 36, 2 players)", fast.state_bytes() as f64));
    rows.push(bytes("search state: one game state (any board up to 64 × 64)", SearchState::state_bytes() as f64));

    progress("engines: through the C ABI");
    let abi = abi::abi_rows(&script_fast, &script_lean, &early, time);
    Measured { rows, limit_ns, abi }
}

/// Measures and prints the tables (Markdown) to `out`: the engines, then
/// the search bot.
pub fn run<W: Write + ?Sized>(out: &mut W, time: Duration) -> io::Result<()> {
    run_saying(out, time, &mut |_| {})
}

/// [`run`], telling `progress` what it measures next; each table is
/// printed (and flushed) as soon as it is measured.
pub fn run_saying<W: Write + ?Sized>(out: &mut W, time: Duration, progress: &mut dyn FnMut(&str)) -> io::Result<()> {
    let measured = measure_saying(time, progress);
    print_table(out, &measured.rows, measured.limit_ns)?;
    writeln!(out)?;
    print_abi_table(out, &measured.abi)?;
    writeln!(out)?;
    out.flush()?;
    progress("the search bot");
    print_search_table(out, &measure_search(time))?;
    out.flush()
}

/// Full games per second: a fresh seeded game each time, two random bots
/// (a random safe move, found through [`NaturalSafe`], any move when none is
/// safe), played to the end.
fn games_per_second<E: NaturalSafe>(config: &Config, time: Duration) -> f64 {
    let mut rng = BotRng::new(11);
    let ns = per_op_seeded(time, |seed| {
        let mut game = E::seeded(config, seed).expect("the configuration builds");
        play_out(&mut game, &mut rng)
    });
    1e9 / ns
}

/// Plays a two-player game to its end with two random bots; its last tick.
fn play_out<E: NaturalSafe>(game: &mut E, rng: &mut BotRng) -> u32 {
    while !game.is_over() {
        let mut actions = [Action::Keep; 2];
        for (id, action) in actions.iter_mut().enumerate() {
            *action = Action::Move(game.natural_safe(id).pick(rng));
        }
        game.step(&actions).expect("the game goes on");
    }
    game.tick()
}

/// As [`games_per_second`], without building each game: the starts of 64
/// seeds are built once and copied into one game, so that the figure is
/// the engine's and the bot's alone.
fn moves_per_second<E: NaturalSafe>(config: &Config, time: Duration) -> f64 {
    let starts: Vec<E> = (0..64).map(|seed| E::seeded(config, seed).expect("the configuration builds")).collect();
    let mut game = starts[0].clone();
    let mut rng = BotRng::new(11);
    let ns = per_op_seeded(time, |seed| {
        game.clone_from(&starts[seed as usize % starts.len()]);
        play_out(&mut game, &mut rng)
    });
    1e9 / ns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_says_what_it_measures_as_it_goes_and_prints_each_table_when_measured() {
        // The notes see the output as it is when they are made: the engine
        // table is out before the search bot is measured.
        let out = std::cell::RefCell::new(Vec::new());
        let mut seen: Vec<String> = Vec::new();
        let mut writer = SharedOut(&out);
        run_saying(&mut writer, Duration::from_millis(1), &mut |what| {
            let tables = String::from_utf8_lossy(&out.borrow()).matches("| measure |").count();
            seen.push(format!("{what} (tables so far: {tables})"));
        })
        .unwrap();
        assert_eq!(seen.len(), 6, "{seen:?}");
        assert!(seen[0].starts_with("engines: the limit probe") && seen[0].ends_with("(tables so far: 0)"), "{seen:?}");
        assert!(
            seen[4].starts_with("engines: through the C ABI") && seen[4].ends_with("(tables so far: 0)"),
            "{seen:?}"
        );
        assert!(seen[5].starts_with("the search bot") && seen[5].ends_with("(tables so far: 1)"), "{seen:?}");
    }

    struct SharedOut<'a>(&'a std::cell::RefCell<Vec<u8>>);

    impl Write for SharedOut<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lightcycles_bench_prints_every_row_with_figures() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from(["lightcycles", "bench", "--measure-ms", "1"]).unwrap();
        let mut out = Vec::new();
        crate::cli::execute(cli, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // The engine table, the C ABI table, the search bot's table, then
        // the bot adapters' table.
        let mut tables = text.split("\n\n");
        let engines = tables.next().expect("the engine table first");
        let abi = tables.next().expect("the C ABI table");
        let searches = tables.next().expect("the search bot's table");
        let lines: Vec<&str> = engines.lines().collect();
        assert_eq!(lines[0], "| measure | fast | reference | fast vs reference | fast in limit steps |");
        for adapter in ["| none (built-in bot) |", "| in-process C plugin |", "| JSON-lines subprocess |"] {
            assert!(text.contains(adapter), "{adapter} in {text}");
        }
        let rows: Vec<Vec<&str>> =
            lines[2..].iter().map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect()).collect();
        let wanted = [
            "limit probe: step",
            "limit probe: copy + step",
            "step (2 players, 48 × 36)",
            "search state: step",
            "clone + step",
            "copy into + step",
            "search state: copy + step",
            "reachable cells, early game",
            "search state: reachable cells, early game",
            "Voronoi split, early game",
            "search state: Voronoi split, early game",
            "reachable cells, mid game",
            "search state: reachable cells, mid game",
            "Voronoi split, mid game",
            "search state: Voronoi split, mid game",
            "full random games per second",
            "search state: full random games per second",
            "the same games, moves only",
            "search state: the same games, moves only",
            "maps generated per second",
            "one game state",
            "search state: one game state",
        ];
        assert_eq!(rows.len(), wanted.len(), "{text}");
        for (row, wanted) in rows.iter().zip(wanted) {
            assert!(row[0].starts_with(wanted), "{row:?} is not {wanted:?}");
            let sizes = row[0].contains("game state");
            for (i, figure) in row[1..].iter().enumerate() {
                if sizes && i == 3 {
                    assert_eq!(*figure, "—", "{row:?}: a size has no limit steps");
                    continue;
                }
                assert!(figure.starts_with(|c: char| c.is_ascii_digit()), "{row:?}");
                assert!(!figure.contains("inf") && !figure.contains("NaN"), "{row:?}");
            }
        }
        let lines: Vec<&str> = abi.lines().collect();
        assert_eq!(lines[0], "| through liblightcycles | C ABI | Rust | C ABI vs Rust |");
        assert_eq!(lines.len() - 2, 7, "{abi}");
        for line in &lines[2..] {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert!(cells[0].starts_with("`lc_"), "{line}");
            assert!(cells[1..].iter().all(|f| f.starts_with(|c: char| c.is_ascii_digit())), "{line}");
        }
        let lines: Vec<&str> = searches.lines().collect();
        assert_eq!(lines[0], "| search bot | figure |");
        let wanted = [
            "chamber bound of player 0's Voronoi cells, early game",
            "the same bound cell by cell",
            "evaluation: Voronoi split and both chamber bounds, early game",
            "chamber bound of player 0's Voronoi cells, mid game",
            "the same bound cell by cell",
            "evaluation: Voronoi split and both chamber bounds, mid game",
            "alpha-beta nodes per second",
            "ticks searched within a 50 ms limit",
        ];
        assert_eq!(lines.len() - 2, wanted.len(), "{text}");
        for (line, wanted) in lines[2..].iter().zip(wanted) {
            let (what, figure) = line.trim_matches('|').split_once(" | ").expect("two columns");
            assert!(what.trim().starts_with(wanted), "{line:?} is not {wanted:?}");
            assert!(figure.trim().starts_with(|c: char| c.is_ascii_digit()), "{line:?}");
        }
    }

    #[test]
    fn the_plain_searches_agree_with_the_helpers() {
        for ticks in [EARLY_TICK, MID_TICK] {
            let fast = board_at(ticks);
            let reference = ReferenceGame::from_position(&fast.position()).unwrap();
            let mut plain = PlainSearch::new(&reference);
            assert_eq!(plain.reachable(&reference, fast.head(0)), space::reachable(&fast, fast.head(0)));
            let v = space::voronoi(&fast);
            let counts = plain.voronoi(&reference);
            assert_eq!((counts[0], counts[1], counts[8]), (v.counts[0], v.counts[1], v.ties));
        }
    }
}
