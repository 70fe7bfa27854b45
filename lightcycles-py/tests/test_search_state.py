"""SearchState, the lean copy of a Game for search, against the Game: the
golden replays tick for tick, random games with any moves and faults
(hypothesis), copies that stay apart, and bad input."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lightcycles as lc
from conftest import game_of, golden_paths

MOVES = ["N", "E", "S", "W", None, "left", ""]
FAULTS = [None, None, None, "invalid", "timeout", "crash"]


def assert_same(state: lc.SearchState, game: lc.Game):
    """Everything the search state knows, as the game says it."""
    assert state.tick == game.tick
    assert state.is_over == game.is_over
    assert state.winner == game.winner
    assert state.players == game.players
    c = game.config
    grid = game.grid()
    for y in range(c.height):
        for x in range(c.width):
            assert state.is_empty(x, y) == (grid[y, x] == -1), (x, y)
    for p in range(game.num_players):
        assert state.safe_moves(p) == game.safe_moves(p)
        if game.players[p]["alive"]:
            assert state.reachable(p) == game.reachable(p)
    assert state.voronoi() == game.voronoi()


@pytest.mark.parametrize("path", golden_paths()[:6], ids=lambda p: p.name)
def test_golden_replays_step_alike(path):
    replay = json.loads(path.read_text())
    game = game_of(replay)
    c = game.config
    if c.width > 64 or c.height > 64:
        with pytest.raises(ValueError, match="up to 64 × 64"):
            lc.SearchState(game)
        return
    state = lc.SearchState(game)
    assert_same(state, game)
    for moves, faults in zip(replay["commands"], replay["faults"]):
        game.step(moves, faults)
        state.step(moves, faults)
        assert_same(state, game)
    assert state.is_over
    with pytest.raises(lc.GameOver):
        state.step([None] * state.num_players)


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(8, 64),
    height=st.integers(8, 64),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**64 - 1),
    policy=st.sampled_from(["straight", "eliminate"]),
    ticks=st.lists(st.tuples(st.lists(st.sampled_from(MOVES), min_size=4, max_size=4),
                             st.lists(st.sampled_from(FAULTS), min_size=4, max_size=4)), max_size=60),
)
def test_any_moves_and_faults_play_as_the_game(width, height, players, seed, policy, ticks):
    if players > 2 and (width < 16 or height < 16):
        players = 2
    config = lc.Config(width=width, height=height, players=players, max_ticks=200, fault_policy=policy)
    try:
        game = lc.Game(config, seed=seed)
    except ValueError:
        return  # too many players for the board's starts: Game refuses too
    state = lc.SearchState(game)
    for moves, faults in ticks:
        if game.is_over:
            with pytest.raises(lc.GameOver):
                state.step(moves[:players], faults[:players])
            break
        game.step(moves[:players], faults[:players])
        state.step(moves[:players], faults[:players])
        assert state.tick == game.tick and state.players == game.players
        assert state.voronoi() == game.voronoi()
    assert_same(state, game)


def test_copies_stay_apart():
    game = lc.Game(seed=5)
    root = lc.SearchState(game)
    child = root.clone()
    child.step(["N", "S"])
    assert (root.tick, child.tick) == (0, 1)
    assert child != root
    for c in (copy.copy(child), copy.deepcopy(child)):
        assert c == child and c is not child
    root.copy_from(child)
    assert root == child and root.tick == 1
    assert "SearchState 48×36, 2 players, tick 1" in repr(root)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="65 × 20"):
        lc.SearchState(lc.Game(lc.Config(width=65, height=20)))
    state = lc.SearchState(lc.Game())
    with pytest.raises(ValueError, match="3 moves for 2 players"):
        state.step(["N", "N", "N"])
    with pytest.raises(ValueError, match="1 faults for 2 players"):
        state.step(["N", "N"], [None])
    with pytest.raises(IndexError, match="player 2 does not exist"):
        state.reachable(2)
    with pytest.raises(IndexError):
        state.safe_moves(7)
    assert state.is_empty(-1, 0) is False and state.is_empty(0, 400) is False
    assert state.tick == 0, "a refused step changes nothing"
