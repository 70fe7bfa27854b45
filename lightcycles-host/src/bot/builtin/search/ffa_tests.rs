//! Tests of the searches for three riders or more, each `ffa=` option.

use std::time::{Duration, Instant};

use lightcycles_core::space::lean::Start;
use lightcycles_core::space::safe_moves;
use lightcycles_core::{Action, Config, Dir, Engine, FastGame, SplitMix64};

use super::budget::Budget;
use super::cells::CellGraph;
use super::eval::{Evaluator, Weights};
use super::multi::{rule_move, starts_behind, Ffa, FfaValue, Paranoid};
use super::testing::drawn_position;
use super::{Mode, SearchBot, SearchOptions, Thought};
use crate::bot::BotContext;

fn bot(ffa: Ffa, nodes: u64, seat: usize, players: usize, seed: u64) -> SearchBot {
    let ctx = BotContext { game: 0, seat, players, seed };
    SearchBot::new(SearchOptions { nodes: Some(nodes), ffa, ..SearchOptions::default() }, ctx)
}

/// A drawing widened and lengthened to 16 × 16 (the least board for three
/// riders or more) with `fill`, then read as a position.
fn padded(rows: &[&str], fill: char) -> lightcycles_core::Position {
    let mut lines: Vec<String> =
        rows.iter().map(|r| r.chars().chain(std::iter::repeat(fill)).take(16).collect()).collect();
    while lines.len() < 16 {
        lines.push(std::iter::repeat(fill).take(16).collect());
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    drawn_position(&refs)
}

fn padded_game(rows: &[&str], fill: char) -> FastGame {
    FastGame::from_position(&padded(rows, fill)).expect("a valid drawing")
}

fn think(bot: &mut SearchBot, game: &FastGame, me: usize) -> Thought {
    bot.think(game, me, Instant::now(), Duration::ZERO)
}

#[test]
fn the_option_names_the_search_and_paranoid_is_the_default() {
    assert_eq!(SearchOptions::default().ffa, Ffa::Paranoid);
    assert_eq!(SearchOptions::parse(":ffa=paranoid").unwrap(), SearchOptions::default());
    for ffa in Ffa::ALL {
        let o = SearchOptions::parse(&format!(":nodes=9:ffa={}", ffa.name())).unwrap();
        assert_eq!((o.ffa, o.nodes), (ffa, Some(9)));
        let shown = o.to_string();
        assert_eq!(SearchOptions::parse(&shown).unwrap(), o, "{shown}");
    }
    assert_eq!(SearchOptions::parse(":ffa=mcts").unwrap().to_string(), ":ffa=mcts");
    let e = SearchOptions::parse(":ffa=brs").unwrap_err();
    assert!(e.contains("paranoid, maxn or mcts"), "{e}");
}

#[test]
fn each_search_takes_the_only_safe_move() {
    // Player 0 in a corridor: only east is free.
    let game = padded_game(
        &[
            "##########", //
            "aA........", //
            "########..", //
            "..........", //
            "..........", //
            "B.........", //
            "b.........", //
            "........cC", //
        ],
        '.',
    );
    for ffa in Ffa::ALL {
        let thought = think(&mut bot(ffa, 500, 0, 3, 1), &game, 0);
        assert_eq!((thought.dir, thought.mode), (Dir::E, Mode::Forced), "{ffa:?}");
    }
}

#[test]
fn each_search_keeps_out_of_a_dead_end() {
    // North is a pocket of one cell; east and south lead to the open board.
    let game = padded_game(
        &[
            "#.########", //
            "aA........", //
            "#.........", //
            "..........", //
            "..........", //
            "..........", //
            "........Bb", //
            "..........", //
            "C.........", //
            "c.........", //
        ],
        '.',
    );
    for ffa in Ffa::ALL {
        for nodes in [50, 400] {
            let thought = think(&mut bot(ffa, nodes, 0, 3, 2), &game, 0);
            assert_eq!(thought.mode, Mode::Multi, "{ffa:?}");
            assert_ne!(thought.dir, Dir::N, "{ffa:?} at {nodes} nodes: {thought:?}");
            assert!(safe_moves(&game, 0).contains(thought.dir));
        }
    }
}

#[test]
fn each_search_prefers_the_larger_room() {
    let walled = padded_game(
        &[
            "###.######", //
            "#..A.....#", //
            "###a.....#", //
            "#........#", //
            "#........#", //
            "#....B...#", //
            "#....b...#", //
            "#..C.....#", //
            "#..c.....#", //
            "##########", //
        ],
        '#',
    );
    // North is a pocket of one cell at the top edge, west one of two cells,
    // east the room the others share.
    for ffa in Ffa::ALL {
        for nodes in [60, 600] {
            let thought = think(&mut bot(ffa, nodes, 0, 3, 4), &walled, 0);
            assert_eq!(thought.dir, Dir::E, "{ffa:?} at {nodes} nodes: {thought:?}");
        }
    }
}

#[test]
fn a_node_budget_gives_the_same_answer_twice() {
    for players in [3, 4, 6] {
        let config = Config { width: 20, height: 18, players, rock_density: 5, ..Config::default() };
        let game = FastGame::seeded(&config, 7).unwrap();
        for ffa in Ffa::ALL {
            let once = think(&mut bot(ffa, 300, 1, players as usize, 7), &game, 1);
            let again = think(&mut bot(ffa, 300, 1, players as usize, 7), &game, 1);
            assert_eq!(once, again, "{ffa:?} with {players} players");
            assert_eq!(once.mode, Mode::Multi);
            assert!(once.nodes > 0 && once.nodes <= 300, "{once:?}");
        }
    }
}

#[test]
fn a_dead_rider_is_left_out() {
    // Player 2 has crashed: its trail stays, it takes no move.
    let mut position = padded(
        &[
            "..........", //
            ".A........", //
            ".a........", //
            "..........", //
            "..........", //
            "......B...", //
            "......b...", //
            "..........", //
            "..C.......", //
            "..c.......", //
        ],
        '.',
    );
    position.players[2].alive = false;
    position.players[2].eliminated_at = Some(9);
    let mut with_dead = padded(
        &[
            "..........", //
            ".A........", //
            ".a........", //
            "..........", //
            "..........", //
            "......B...", //
            "......b...", //
            "..........", //
            "..C...D...", //
            "..c...d...", //
        ],
        '.',
    );
    with_dead.players[2].alive = false;
    with_dead.players[2].eliminated_at = Some(9);
    for position in [position, with_dead] {
        let game = FastGame::from_position(&position).unwrap();
        for ffa in Ffa::ALL {
            let thought = think(&mut bot(ffa, 300, 0, game.num_players(), 5), &game, 0);
            assert!(safe_moves(&game, 0).contains(thought.dir), "{ffa:?}: {thought:?}");
        }
    }
}

#[test]
fn games_of_three_to_eight_riders_are_played_safely() {
    // Whole games, every seat the same search on a small budget, with a
    // random move now and then so that riders crash early and tight spots
    // come up: while a move that does not crash at once exists, the search
    // takes one.
    for ffa in Ffa::ALL {
        for players in 3..=8u32 {
            let config = Config { width: 16, height: 16, players, rock_density: 5, ..Config::default() };
            let seed = u64::from(players);
            let mut game = FastGame::seeded(&config, seed).unwrap();
            let n = players as usize;
            let mut bots: Vec<SearchBot> = (0..n).map(|s| bot(ffa, 40, s, n, seed)).collect();
            let mut rng = SplitMix64::new(seed);
            let (mut checked, mut multi) = (0, 0);
            while !game.is_over() {
                let mut actions = vec![Action::Keep; n];
                for (seat, b) in bots.iter_mut().enumerate().filter(|(s, _)| game.is_alive(*s)) {
                    let thought = think(b, &game, seat);
                    let safe = safe_moves(&game, seat);
                    if !safe.is_empty() {
                        assert!(safe.contains(thought.dir), "{ffa:?} {players}p tick {}: {thought:?}", game.tick());
                        checked += 1;
                    }
                    multi += usize::from(thought.mode == Mode::Multi);
                    let random = safe.iter().nth(rng.below(safe.len().max(1) as u64) as usize);
                    let dir = if rng.below(6) == 0 { random.unwrap_or(thought.dir) } else { thought.dir };
                    actions[seat] = Action::Move(dir);
                }
                game.step(&actions).unwrap();
            }
            assert!(checked >= 10 && multi >= 3, "{ffa:?} {players}p: {checked} checked, {multi} multi");
        }
    }
}

#[test]
fn near_sets_how_many_riders_are_searched_move_by_move() {
    assert_eq!(SearchOptions::default().near, super::multi::NEAR);
    let o = SearchOptions::parse(":nodes=9:near=3").unwrap();
    assert_eq!((o.near, o.to_string().as_str()), (3, ":nodes=9:near=3"));
    assert_eq!(SearchOptions::parse(":near=1").unwrap(), SearchOptions::default(), "1 is the default");
    for bad in [":near=0", ":near=4", ":near=x"] {
        let e = SearchOptions::parse(bad).unwrap_err();
        assert!(e.contains("1 to 3"), "{bad}: {e}");
    }
    // Each count answers with a safe move, in paranoid and MaxN, and the
    // searched riders change the tree: one rival searched goes deeper
    // within the same nodes than three.
    let game = FastGame::seeded(&Config { width: 20, height: 18, players: 4, rock_density: 5, ..Config::default() }, 3)
        .unwrap();
    for ffa in [Ffa::Paranoid, Ffa::MaxN] {
        let depths: Vec<u32> = (1..=3)
            .map(|near| {
                let ctx = BotContext { game: 0, seat: 0, players: 4, seed: 3 };
                let options = SearchOptions { nodes: Some(3000), ffa, near, ..SearchOptions::default() };
                let thought = think(&mut SearchBot::new(options, ctx), &game, 0);
                assert!(safe_moves(&game, 0).contains(thought.dir), "{ffa:?} near={near}: {thought:?}");
                thought.depth
            })
            .collect();
        assert!(depths[0] > depths[2], "{ffa:?}: depths {depths:?} for near=1, 2, 3");
    }
}

#[test]
fn an_option_the_chosen_search_ignores_is_an_error() {
    // value= is the paranoid search's leaf, near= the riders paranoid and
    // MaxN search: given to a search that reads neither, they would change
    // nothing, so the spec is refused and the message names both sides.
    for (spec, names) in [
        (":ffa=maxn:value=own", ["value=own", "ffa=maxn"]),
        (":value=lead:ffa=mcts", ["value=lead", "ffa=mcts"]),
        (":ffa=mcts:near=2", ["near=2", "ffa=mcts"]),
        (":near=1:nodes=9:ffa=mcts", ["near=1", "ffa=mcts"]),
    ] {
        let e = SearchOptions::parse(spec).unwrap_err();
        assert!(names.iter().all(|n| e.contains(n)), "{spec}: {e}");
    }
    // The searches that read them take them, in any order.
    for spec in [":value=lead:ffa=paranoid", ":ffa=maxn:near=2", ":near=3:ffa=paranoid:value=own"] {
        assert!(SearchOptions::parse(spec).is_ok(), "{spec}");
    }
    assert_eq!(SearchOptions::parse(":ffa=maxn:near=2").unwrap().near, 2);
}

#[test]
fn value_own_counts_our_space_alone_and_is_the_default() {
    assert_eq!(SearchOptions::default().value, FfaValue::Own);
    assert_eq!(SearchOptions::parse(":value=own").unwrap(), SearchOptions::default());
    let o = SearchOptions::parse(":nodes=9:near=2:value=lead").unwrap();
    assert_eq!((o.value, o.to_string().as_str()), (FfaValue::Lead, ":nodes=9:near=2:value=lead"));
    let e = SearchOptions::parse(":value=max").unwrap_err();
    assert!(e.contains("own or lead"), "{e}");
    // We (A) share 60 cells of the top with B; C rides alone in the 174
    // below the wall. Against the largest rival's space our half of the
    // top is far behind; on its own it is worth its cells.
    let mut rows = vec![
        "................", //
        ".aA.........Bb..", //
        "................", //
        "................", //
        "################", //
    ];
    rows.extend(std::iter::repeat("................").take(5));
    rows.push(".......cC.......");
    rows.extend(std::iter::repeat("................").take(5));
    let game = FastGame::from_position(&drawn_position(&rows)).unwrap();
    let graph = CellGraph::new(game.layout());
    let value = |v: FfaValue, weights: Weights| {
        let mut search = Paranoid::with_weights(0, weights).with_value(v);
        let decision = search.choose(&graph, &game, &mut Budget::nodes(2000)).expect("a safe move");
        assert!(safe_moves(&game, 0).contains(decision.dir), "{v:?}: {decision:?}");
        decision.value
    };
    let cells_only = Weights { ffa_edge: 0, ffa_wall: 0, ffa_rival: 0, ..Weights::DEFAULT };
    let (lead, own) = (value(FfaValue::Lead, cells_only), value(FfaValue::Own, cells_only));
    let cell = Weights::DEFAULT.cell;
    assert!(lead < -100 * cell, "behind C's room by over 100 cells: {lead}");
    assert!((20 * cell..=60 * cell).contains(&own), "20 to 60 cells of the top: {own}");
    // The edges of our walked chambers count on top of the cells, by
    // default, and only with `value=own`.
    assert_ne!(Weights::DEFAULT.ffa_edge, 0);
    let with_edges = value(FfaValue::Own, Weights { ffa_wall: 0, ffa_rival: 0, ..Weights::DEFAULT });
    assert!(with_edges > own + 20 * Weights::DEFAULT.ffa_edge, "{with_edges} against {own} without edges");
    assert_eq!(value(FfaValue::Lead, Weights::DEFAULT), lead);
    // By default half of the nearest rival's own value (B, who shares the
    // top) is taken from ours: less than ours alone, more than our lead
    // over C, whose room is not counted.
    assert_ne!(Weights::DEFAULT.ffa_rival, 0);
    let against_b = value(FfaValue::Own, Weights { ffa_wall: 0, ..Weights::DEFAULT });
    assert!(against_b < with_edges - 10 * cell, "{against_b} against {with_edges} alone");
    assert!(against_b > lead, "{against_b} against {lead}");
}

#[test]
fn the_riders_not_searched_set_out_from_their_path_as_far_ahead_as_the_ticks_since() {
    // Four riders, three ticks of the tree: 0 is us, 1 searched, 2 and 3
    // not; each of those sets out from its three earlier heads.
    let config = Config { width: 20, height: 20, players: 4, ..Config::default() };
    let mut path = vec![FastGame::seeded(&config, 7).unwrap()];
    for _ in 0..3 {
        let mut next = path.last().unwrap().clone();
        let actions: Vec<Action> = (0..4).map(|p| Action::Move(rule_move(&next, p))).collect();
        next.step(&actions).unwrap();
        assert!((0..4).all(|p| next.is_alive(p)));
        path.push(next);
    }
    let mut starts = Vec::new();
    starts_behind(&path, 0, &[1], 100, &mut starts);
    let want: Vec<Start> = [2, 3]
        .into_iter()
        .flat_map(|id| (0..3).map(move |k| (id, k)))
        .map(|(id, k)| Start { id, pos: path[k].head(id), ahead: 3 - k as u32 })
        .collect();
    assert_eq!(starts, want);
    // Half as far: 3 and 2 ticks give 1, 1 tick gives 0 and is left out.
    starts_behind(&path, 0, &[1], 50, &mut starts);
    assert_eq!(starts.iter().map(|s| (s.id, s.ahead)).collect::<Vec<_>>(), [(2, 1), (2, 1), (3, 1), (3, 1)]);
    // Off, at the root, or with every other rider searched: none.
    starts_behind(&path, 0, &[1], 0, &mut starts);
    assert!(starts.is_empty());
    starts_behind(&path[..1], 0, &[1], 100, &mut starts);
    assert!(starts.is_empty());
    starts_behind(&path, 2, &[0, 1, 3], 100, &mut starts);
    assert!(starts.is_empty());
    // A start only takes cells from us: here the leaf's own value is less
    // with them than without.
    let leaf = path.last().unwrap();
    let graph = CellGraph::new(leaf.layout());
    let mut eval = Evaluator::new();
    starts_behind(&path, 0, &[1], 100, &mut starts);
    let (with, without) =
        (eval.own_against(&graph, leaf, 0, &[1], &starts), eval.own_against(&graph, leaf, 0, &[1], &[]));
    assert!(with < without, "{with} against {without}");
}

/// Options, valid and not, that a spec of the search may string together.
const OPTION_WORDS: [&str; 20] = [
    "nodes=40",
    "stats",
    "ffa=paranoid",
    "ffa=maxn",
    "ffa=mcts",
    "ffa=brs",
    "near=1",
    "near=3",
    "near=9",
    "value=own",
    "value=lead",
    "cell=20",
    "ffa_rival=0",
    "ffa_rival=101",
    "ffa_ahead=50",
    "ffa_ahead=201",
    "deepen=50",
    "extend_within=2",
    "extend_within=0",
    "",
];

proptest::proptest! {
    /// Any string of options parses or is refused, never panics; what
    /// parses prints as a spec that parses back to the same options, and
    /// never holds an option its search would ignore.
    #[test]
    fn accepted_options_print_and_parse_back_alike(words in proptest::collection::vec(0..OPTION_WORDS.len(), 1..7)) {
        let text: String = words.iter().map(|&i| format!(":{}", OPTION_WORDS[i])).collect();
        if let Ok(options) = SearchOptions::parse(&text) {
            proptest::prop_assert_eq!(SearchOptions::parse(&options.to_string()), Ok(options), "{}", text);
            let given = |prefix: &str| words.iter().any(|&i| OPTION_WORDS[i].starts_with(prefix));
            proptest::prop_assert!(!given("value=") || options.ffa == Ffa::Paranoid, "{}", text);
            proptest::prop_assert!(!given("near=") || options.ffa != Ffa::Mcts, "{}", text);
        }
    }
}
