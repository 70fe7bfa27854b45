"""The environments: PettingZoo's own API test, VectorEnv against single
Games stepped the same way, and Gymnasium's vector wrappers over it."""

import numpy as np
import pytest

import lightcycles as lc
from conftest import reference_planes

env_mod = pytest.importorskip("lightcycles.env")


def test_parallel_env_passes_the_pettingzoo_api_test():
    from pettingzoo.test import parallel_api_test

    parallel_api_test(env_mod.parallel_env(width=16, height=16, players=2), num_cycles=200)
    parallel_api_test(env_mod.parallel_env(width=16, height=16, players=3), num_cycles=200)


def test_parallel_env_plays_the_seeded_game_and_rewards_the_winner():
    env = env_mod.parallel_env(width=20, height=20)
    obs, infos = env.reset(seed=11)
    game = lc.Game(lc.Config(width=20, height=20), seed=11)
    assert np.array_equal(obs["player_0"], reference_planes(game, 0))
    total = {a: 0.0 for a in env.possible_agents}
    while env.agents:
        actions = {a: 0 for a in env.agents}  # everybody rides north
        obs, rewards, terms, truncs, infos = env.step(actions)
        game.step([0 if a in actions else None for a in env.possible_agents])
        for a, r in rewards.items():
            total[a] += r
    assert game.is_over
    if game.winner is None:
        assert set(total.values()) <= {0.0, -1.0}
    else:
        assert total[f"player_{game.winner}"] == 1.0


def test_parallel_env_planes_are_those_of_the_game_at_every_tick():
    env = env_mod.parallel_env(width=16, height=16, players=3, rock_density=10)
    rng = np.random.default_rng(5)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        while True:
            for a in obs:
                assert np.array_equal(obs[a], reference_planes(env.game, env.possible_agents.index(a))), (seed, a)
            if not env.agents:
                break
            obs, *_ = env.step({a: int(rng.integers(0, 4)) for a in env.agents})


def test_codeclash_observations_are_the_bot_dict():
    env = env_mod.parallel_env(obs_type="codeclash")
    obs, _ = env.reset(seed=3)
    assert obs["player_1"] == lc.Game(seed=3).observation(1)


def outcome_of(game):
    """(rewards by seat, terminated, truncated) of an ended Game, as the
    environments give them."""
    w = game.winner
    rewards = [0.0] * game.num_players if w is None else [1.0 if p == w else -1.0 for p in range(game.num_players)]
    at_cap = w is None and any(p["alive"] for p in game.players)
    return rewards, not at_cap, at_cap


@pytest.mark.parametrize("cfg", [dict(width=20, height=16), dict(width=16, height=16, players=3, max_ticks=9)])
def test_vector_env_matches_single_games_with_next_step_autoreset(cfg):
    n = 16
    players = cfg.get("players", 2)
    venv = env_mod.VectorEnv(n, seed=100, **cfg)
    obs, infos = venv.reset(seed=100)
    assert infos["seed"].tolist() == list(range(100, 100 + n)) and infos["_seed"].all()
    games = [lc.Game(lc.Config(**cfg), seed=100 + i) for i in range(n)]
    pending = [False] * n
    seed_of = list(range(100, 100 + n))
    next_seed = 100 + n
    rng = np.random.default_rng(0)
    ended = truncated = 0
    for _ in range(150):
        actions = rng.integers(0, 4, size=(n, players))
        obs, rewards, terms, truncs, infos = venv.step(actions)
        assert venv.observation_space.contains(obs)
        for i in range(n):
            if pending[i]:
                # The step after the end: a new game, its actions ignored.
                games[i] = lc.Game(lc.Config(**cfg), seed=next_seed)
                assert infos["_seed"][i] and infos["seed"][i] == next_seed
                seed_of[i] = next_seed
                next_seed += 1
                pending[i] = False
                assert rewards[i].tolist() == [0.0] * players and not terms[i] and not truncs[i]
            else:
                assert "_seed" not in infos or not infos["_seed"][i]
                games[i].step([int(a) for a in actions[i]])
                if games[i].is_over:
                    expected, term, trunc = outcome_of(games[i])
                    assert (rewards[i].tolist(), bool(terms[i]), bool(truncs[i])) == (expected, term, trunc)
                    pending[i] = True
                    ended += 1
                    truncated += trunc
                else:
                    assert rewards[i].tolist() == [0.0] * players and not terms[i] and not truncs[i]
            # On the step a game ends this is its final board.
            g = games[i]
            assert np.array_equal(obs["grid"][i], g.grid()), f"env {i}"
            assert obs["heads"][i].tolist() == [[p["x"], p["y"]] for p in g.players]
            assert obs["alive"][i].tolist() == [p["alive"] for p in g.players]
    assert ended > 0, "games ended and were reset"
    if cfg.get("max_ticks"):
        assert truncated > 0, "games reached the tick cap"
    assert venv.seeds == seed_of


def test_vector_env_is_a_gymnasium_vector_env():
    import gymnasium as gym
    from gymnasium.vector import AutoresetMode

    venv = env_mod.VectorEnv(8, seed=1, width=16, height=12)
    assert isinstance(venv, gym.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert venv.render_mode is None and venv.spec is None
    assert venv.single_action_space == gym.spaces.MultiDiscrete([4, 4])
    assert venv.action_space.shape == (8, 2)
    obs, _ = venv.reset(seed=3)
    assert venv.observation_space.contains(obs)
    assert venv.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    # np_random is seeded by reset, as Gymnasium's envs seed it.
    a = venv.np_random.integers(1 << 30)
    venv.reset(seed=3)
    assert venv.np_random.integers(1 << 30) == a
    obs, *_ = venv.step(venv.action_space.sample())
    assert venv.observation_space.contains(obs)
    venv.close()
    assert venv.closed


def test_gymnasium_vector_wrappers_take_the_vector_env():
    from gymnasium.wrappers import vector as wrappers

    env = env_mod.VectorEnv(16, seed=0, seat=0, width=12, height=10)
    env = wrappers.RecordEpisodeStatistics(env)
    env = wrappers.DictInfoToList(env)
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    episodes = []
    returns = np.zeros(16)
    for _ in range(60):
        obs, rewards, terms, truncs, infos = env.step(rng.integers(0, 4, size=(16, 2)))
        assert rewards.shape == (16,) and isinstance(infos, list) and len(infos) == 16
        returns += rewards
        for i, info in enumerate(infos):
            if "episode" in info:
                episodes.append(float(info["episode"]["r"]))
                assert info["episode"]["r"] == returns[i]
                returns[i] = 0.0
    assert episodes and set(episodes) <= {-1.0, 0.0, 1.0}

    flat = wrappers.FlattenObservation(env_mod.VectorEnv(4, copy=False, seat=1, width=12, height=10))
    flat = wrappers.NormalizeObservation(wrappers.NormalizeReward(wrappers.ClipReward(flat, -1, 1)))
    obs, _ = flat.reset(seed=0)
    assert obs.shape == (4, 12 * 10 + 2 * 2 + 2 + 2)  # grid, heads, dirs, alive
    for _ in range(20):
        obs, rewards, *_ = flat.step(np.zeros((4, 2), dtype=np.int64))
        assert obs.shape == (4, 128) and rewards.shape == (4,)

    only = wrappers.FilterObservation(env_mod.VectorEnv(4, width=12, height=10), ["grid"])
    obs, _ = only.reset(seed=0)
    assert list(obs) == ["grid"]


def test_vector_env_copies_or_hands_out_read_only_views():
    fresh = env_mod.VectorEnv(4, seed=0, width=12, height=10)
    obs0, _ = fresh.reset(seed=0)
    obs1, r1, t1, tr1, _ = fresh.step(np.zeros((4, 2), dtype=np.int64))
    obs2, r2, t2, tr2, _ = fresh.step(np.zeros((4, 2), dtype=np.int64))
    for a, b in [(obs1["grid"], obs2["grid"]), (obs1["heads"], obs2["heads"]), (r1, r2), (t1, t2), (tr1, tr2)]:
        assert a is not b and not np.shares_memory(a, b)
    assert not np.array_equal(obs1["heads"], obs2["heads"]), "a kept observation stays the step's"

    views = env_mod.VectorEnv(4, seed=0, copy=False, width=12, height=10)
    v1, r1, *_ = views.step(np.zeros((4, 2), dtype=np.int64))
    v2, r2, *_ = views.step(np.zeros((4, 2), dtype=np.int64))
    assert v1["grid"] is v2["grid"] and v1["alive"] is v2["alive"]
    assert np.array_equal(v1["heads"], obs2["heads"]), "the same games, updated in place"
    for array in v2.values():
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = 1
    assert r1 is not r2 and not np.shares_memory(r1, r2), "rewards are fresh whatever copy says"
    r2[:] = 5.0


def test_writing_into_an_observation_does_not_reach_the_games():
    cfg = dict(width=12, height=10)
    venv = env_mod.VectorEnv(2, seed=7, **cfg)
    obs, _ = venv.reset(seed=7)
    games = [lc.Game(lc.Config(**cfg), seed=7 + i) for i in range(2)]
    for _ in range(3):
        obs["grid"][:] = 3
        obs["heads"][:] = 0
        obs["alive"][:] = False
        obs, *_ = venv.step(np.full((2, 2), -1))
        for i, g in enumerate(games):
            g.step([None, None])
            assert np.array_equal(obs["grid"][i], g.grid())
            assert obs["heads"][i].tolist() == [[p["x"], p["y"]] for p in g.players]


def test_a_bad_action_leaves_every_game_as_it_was():
    cfg = dict(width=12, height=10)
    venv = env_mod.VectorEnv(4, seed=2, **cfg)
    before, _ = venv.reset(seed=2)
    bad = np.zeros((4, 2), dtype=np.int64)
    bad[3, 1] = 9
    with pytest.raises(ValueError, match="action 9 of env 3, player 1"):
        venv.step(bad)
    obs, *_ = venv.step(np.ones((4, 2), dtype=np.int64))
    for i in range(4):
        g = lc.Game(lc.Config(**cfg), seed=2 + i)
        g.step([1, 1])
        assert np.array_equal(obs["grid"][i], g.grid()), f"env {i} moved once"


def test_vector_env_reset_seeds():
    venv = env_mod.VectorEnv(3, seed=40, width=12, height=10)
    _, infos = venv.reset()
    assert infos["seed"].tolist() == [40, 41, 42], "the env's own seeds before its first step"
    _, infos = venv.reset()
    assert infos["seed"].tolist() == [43, 44, 45], "without a seed, the games not played yet"
    _, infos = venv.reset(seed=5)
    assert infos["seed"].tolist() == [5, 6, 7] and venv.seeds == [5, 6, 7]


def test_vector_env_renders_ansi():
    venv = env_mod.VectorEnv(2, seed=0, render_mode="ansi", width=12, height=10)
    obs, _ = venv.reset(seed=0)
    frames = venv.render()
    assert len(frames) == 2 and frames[1] == env_mod.ansi(lc.Game(lc.Config(width=12, height=10), seed=1).grid())
    with pytest.raises(ValueError, match="render_mode"):
        env_mod.VectorEnv(2, render_mode="pixels")
    with pytest.raises(ValueError, match="seat 2"):
        env_mod.VectorEnv(2, seat=2)


def test_vector_env_refuses_bad_actions():
    venv = env_mod.VectorEnv(4)
    with pytest.raises(ValueError, match="expected \\(4, 2\\)"):
        venv.step(np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="expected 0 to 3, or -1"):
        venv.step(np.full((4, 2), 7))
    with pytest.raises(ValueError, match="num_envs is at least 1"):
        env_mod.VectorEnv(0)


@pytest.mark.parametrize("pool", [0, 3])
def test_a_map_pool_replays_the_seeds_first_games(pool):
    cfg = dict(width=12, height=10)
    venv = env_mod.VectorEnv(2, seed=50, map_pool=pool, **cfg)
    venv.reset(seed=50)
    started = 2
    for _ in range(200):
        _, _, _, _, infos = venv.step(np.zeros((2, 2), dtype=np.int64))
        if "_seed" in infos:
            for i in np.flatnonzero(infos["_seed"]):
                expected = 50 + (started % pool if pool else started)
                assert infos["seed"][i] == expected
                started += 1
                obs = venv._env.board(int(i))
                assert np.array_equal(obs, lc.Game(lc.Config(**cfg), seed=expected).grid())
    assert started > 6
    with pytest.raises(ValueError, match="map_pool is at most"):
        lc.GameBatch(1, map_pool=1 << 30)


def test_a_parallel_step_refuses_an_unknown_agent_before_the_tick():
    env = env_mod.parallel_env(width=16, height=12)
    env.reset(seed=1)
    tick = env.game.tick
    with pytest.raises(ValueError, match="'nobody' is not an agent of this env"):
        env.step({"player_0": 1, "nobody": 0})
    assert env.game.tick == tick and env.agents == ["player_0", "player_1"]
    # numpy's integers are actions too, and an agent left out rides on.
    obs, rewards, terms, truncs, infos = env.step({"player_0": np.int64(1)})
    assert env.game.tick == tick + 1
    assert set(obs) == set(rewards) == set(terms) == set(truncs) == set(infos) == {"player_0", "player_1"}
