"""Pickling and copying: Config, Game (its record too) and the envs go
through pickle and copy.deepcopy and play on as the originals."""

import copy
import pickle

import numpy as np
import pytest

import lightcycles as lc


def test_config_pickles_and_copies():
    c = lc.Config(width=20, height=18, players=3, max_ticks=77, rock_density=9, fault_policy="eliminate")
    for again in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c)):
        assert again == c and repr(again) == repr(c)


@pytest.mark.parametrize("record", [False, True])
def test_a_game_pickled_mid_game_plays_on_as_the_original(record):
    rng = np.random.default_rng(1)
    game = lc.Game(lc.Config(width=16, height=16, players=3), seed=5, record=record)
    for _ in range(6):
        game.step([int(rng.integers(0, 4)) for _ in range(3)], faults=[None, "timeout", None])
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert again.tick == game.tick and again.players == game.players
        assert np.array_equal(again.grid(), game.grid())
        a, b = game.clone(), again
        while not a.is_over:
            moves = [int(rng.integers(0, 4)) for _ in range(3)]
            a.step(moves)
            b.step(moves)
            assert np.array_equal(a.grid(), b.grid()) and a.players == b.players
        assert b.is_over and b.result == a.result
        if record:
            assert lc.Replay.record(b).to_json() == lc.Replay.record(a).to_json()


def test_a_game_over_pickles():
    game = lc.Game(lc.Config(width=8, height=8), seed=0)
    while not game.is_over:
        game.step(["N", "N"])
    again = pickle.loads(pickle.dumps(game))
    assert again.is_over and again.result == game.result


def test_bad_states_are_refused():
    with pytest.raises(ValueError):
        lc.Game._from_state((lc.Config(width=8, height=8), 0, bytes(10), [], None))


def test_the_parallel_env_pickles_mid_game():
    env_mod = pytest.importorskip("lightcycles.env")
    env = env_mod.parallel_env(width=16, height=16, action_mask=True)
    env.reset(seed=3)
    env.step({a: 1 for a in env.agents})
    again = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        if not env.agents:
            break
        actions = {a: 0 for a in env.agents}
        one, two = env.step(actions), again.step(actions)
        for a in one[0]:
            assert np.array_equal(one[0][a]["observation"], two[0][a]["observation"])
        assert one[1:4] == two[1:4]


@pytest.mark.parametrize(
    "options",
    [
        dict(),
        dict(obs_type="planes", action_mask=True, copy=False),
        dict(obs_type="planes", egocentric=True, view=5, dtype=np.float32),
        dict(opponent="builtin:wallhug", obs_type="planes"),
    ],
)
def test_the_vector_env_pickles_mid_run_and_steps_on_as_the_original(options):
    env_mod = pytest.importorskip("lightcycles.env")
    n = 6
    env = env_mod.VectorEnv(n, seed=8, width=16, height=12, **options)
    env.reset(seed=8)
    shape = (n,) if "opponent" in options else (n, 2)
    rng = np.random.default_rng(0)
    for _ in range(15):
        env.step(rng.integers(0, 4, size=shape))
    for again in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert again.seeds == env.seeds
        a, b = copy.deepcopy(env), again
        for _ in range(40):
            actions = rng.integers(0, 4, size=shape)
            one, two = a.step(actions), b.step(actions)
            for key in one[0]:
                assert np.array_equal(one[0][key], two[0][key]), key
            for x, y in zip(one[1:4], two[1:4]):
                assert np.array_equal(x, y)


def test_the_duel_env_pickles():
    # A bot without random draws: a pickled bot starts its draws again.
    env_mod = pytest.importorskip("lightcycles.env")
    env = env_mod.DuelEnv(opponent="builtin:wallhug", width=16, height=16)
    env.reset(seed=1)
    env.step(0)
    again = pickle.loads(pickle.dumps(env))
    for _ in range(10):
        one, two = env.step(1), again.step(1)
        assert np.array_equal(one[0], two[0]) and one[1:3] == two[1:3]
        if one[2] or one[3]:
            break


@pytest.mark.parametrize("players", [2, 4])
def test_a_search_state_pickles_and_plays_on_as_the_original(players):
    rng = np.random.default_rng(players)
    cfg = lc.Config(width=20, height=20, players=players, rock_density=8)
    for seed in range(5):
        game = lc.Game(cfg, seed=seed)
        for _ in range(int(rng.integers(0, 30))):
            if game.is_over:
                break
            game.step([int(rng.integers(0, 4)) for _ in range(players)])
        state = lc.SearchState(game)
        for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
            a, b = state.clone(), again
            while True:
                assert (a.tick, a.players, a.is_over, a.winner) == (b.tick, b.players, b.is_over, b.winner)
                assert all(a.is_empty(x, y) == b.is_empty(x, y) for x in range(20) for y in range(20))
                assert a.voronoi() == b.voronoi()
                if a.is_over:
                    break
                moves = [int(rng.integers(0, 4)) for _ in range(players)]
                a.step(moves)
                b.step(moves)


def test_gymnasiums_async_vector_env_runs_duels_in_processes():
    gym = pytest.importorskip("gymnasium")
    env_mod = pytest.importorskip("lightcycles.env")
    make = [lambda: env_mod.DuelEnv(opponent="builtin:random", width=16, height=16)] * 2
    # spawn: the workers unpickle what they run, and no thread of this
    # process (Ray's, in CI) is forked with them.
    env = gym.vector.AsyncVectorEnv(make, context="spawn")
    try:
        obs, infos = env.reset(seed=[5, 6])
        assert obs.shape == (2, 5, 16, 16) and infos["seed"].tolist() == [5, 6]
        single = env_mod.DuelEnv(opponent="builtin:random", width=16, height=16)
        first, _ = single.reset(seed=5)
        assert np.array_equal(obs[0], first)
        for _ in range(20):
            obs, rewards, terms, truncs, _ = env.step(np.array([0, 1]))
            assert obs.shape == (2, 5, 16, 16) and rewards.shape == (2,)
    finally:
        env.close()
