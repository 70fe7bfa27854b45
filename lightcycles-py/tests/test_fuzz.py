"""Property tests of every Python entry point: arbitrary input gives a
result or a clear exception (ValueError, TypeError, IndexError,
OverflowError, GameOver), never a crash of the interpreter; games stepped
with arbitrary moves stay equal to their clones and verify as replays."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import lightcycles as lc

CLEAR = (ValueError, TypeError, IndexError, OverflowError, lc.GameOver)

anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
moves = st.one_of(st.sampled_from(["N", "E", "S", "W", " n", "left", "", "N\n"]), st.integers(-2, 5), st.none())
faults = st.one_of(st.none(), st.sampled_from(["invalid", "timeout", "crash", "late"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(anything, max_size=4), st.one_of(st.none(), st.lists(anything, max_size=4)))
def test_step_takes_anything_without_crashing(ms, fs):
    game = lc.Game(seed=1)
    try:
        game.step(ms, fs)
    except CLEAR:
        assert game.tick == 0
    else:
        assert game.tick == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(moves, moves, faults, faults), min_size=1, max_size=60), st.integers(0, 2**64 - 1))
def test_games_of_arbitrary_moves_match_their_copies(ticks, seed):
    game = lc.Game(lc.Config(width=16, height=16), seed=seed)
    copy = game.clone()
    for a, b, fa, fb in ticks:
        if game.is_over:
            break
        try:
            game.step([a, b], [fa, fb])
        except CLEAR:
            continue
        copy.step([a, b], [fa, fb])
        assert game.grid().tolist() == copy.grid().tolist()
        assert game.players == copy.players


@settings(max_examples=300, deadline=None)
@given(anything)
def test_from_observation_takes_anything_without_crashing(obs):
    try:
        lc.Game.from_observation(obs)
    except CLEAR:
        pass


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 25))
def test_observations_round_trip_through_from_observation(seed, density):
    game = lc.Game(lc.Config(width=20, height=18, players=3, rock_density=density), seed=seed)
    for you in range(3):
        rebuilt = lc.Game.from_observation(game.observation(you))
        assert rebuilt.observation(you) == game.observation(you)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_replay_and_map_readers_take_any_text(text):
    for read in (lc.Replay.from_json, lc.Game.from_map):
        try:
            read(text)
        except CLEAR:
            pass


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["width", "height", "players", "max_ticks", "rock_density"]), st.integers(-5, 300)))
def test_config_is_checked_by_the_core(kwargs):
    try:
        c = lc.Config(**kwargs)
    except CLEAR as e:
        assert str(e)
    else:
        assert lc.Game(c, seed=0).tick == 0


def test_a_replay_of_arbitrary_moves_verifies(tmp_path):
    result = lc.play(["builtin:fuzz", "builtin:fuzz"], rounds=3, out_dir=tmp_path, config=lc.Config(width=16, height=16))
    for g in result.games:
        data = json.loads(open(g.replay).read())
        assert lc.Replay.from_json(json.dumps(data)).verify()["ticks"] == g.ticks
