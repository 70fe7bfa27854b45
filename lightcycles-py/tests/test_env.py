"""The environments: PettingZoo's own API test, and VectorEnv against
single Games stepped the same way."""

import numpy as np
import pytest

import lightcycles as lc

env_mod = pytest.importorskip("lightcycles.env")


def test_parallel_env_passes_the_pettingzoo_api_test():
    from pettingzoo.test import parallel_api_test

    parallel_api_test(env_mod.parallel_env(width=16, height=16, players=2), num_cycles=200)
    parallel_api_test(env_mod.parallel_env(width=16, height=16, players=3), num_cycles=200)


def test_parallel_env_plays_the_seeded_game_and_rewards_the_winner():
    env = env_mod.parallel_env(width=20, height=20)
    obs, infos = env.reset(seed=11)
    game = lc.Game(lc.Config(width=20, height=20), seed=11)
    assert np.array_equal(obs["player_0"], env_mod.planes(game, 0))
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
                assert np.array_equal(obs[a], env_mod.planes(env.game, env.possible_agents.index(a))), (seed, a)
            if not env.agents:
                break
            obs, *_ = env.step({a: int(rng.integers(0, 4)) for a in env.agents})


def test_codeclash_observations_are_the_bot_dict():
    env = env_mod.parallel_env(obs_type="codeclash")
    obs, _ = env.reset(seed=3)
    assert obs["player_1"] == lc.Game(seed=3).observation(1)


def test_vector_env_matches_single_games_and_resets_itself():
    n = 16
    cfg = dict(width=20, height=16)
    venv = env_mod.VectorEnv(n, seed=100, **cfg)
    obs, infos = venv.reset(seed=100)
    games = [lc.Game(lc.Config(**cfg), seed=100 + i) for i in range(n)]
    next_seed = 100 + n
    rng = np.random.default_rng(0)
    ended_total = 0
    for _ in range(120):
        actions = rng.integers(0, 4, size=(n, 2))
        obs, rewards, terms, truncs, infos = venv.step(actions)
        for i, g in enumerate(games):
            g.step([int(a) for a in actions[i]])
            if g.is_over:
                assert i in infos["ended"]
                w = g.winner
                expected = [0.0, 0.0] if w is None else [1.0 if p == w else -1.0 for p in range(2)]
                assert rewards[i].tolist() == expected
                assert terms[i] or truncs[i]
                games[i] = g = lc.Game(lc.Config(**cfg), seed=next_seed)
                next_seed += 1
                ended_total += 1
            else:
                assert i not in infos["ended"] and not terms[i] and rewards[i].tolist() == [0.0, 0.0]
            assert np.array_equal(obs["grid"][i], g.grid()), f"env {i}"
            assert obs["heads"][i].tolist() == [[p["x"], p["y"]] for p in g.players]
            assert obs["alive"][i].tolist() == [p["alive"] for p in g.players]
    assert ended_total > 0, "games ended and were reset"
    assert venv.seeds == [None] * 0 or len(venv.seeds) == n


def test_vector_env_refuses_bad_actions():
    venv = env_mod.VectorEnv(4)
    with pytest.raises(ValueError, match="expected \\(4, 2\\)"):
        venv.step(np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="expected 0 to 3, or -1"):
        venv.step(np.full((4, 2), 7))
    with pytest.raises(ValueError, match="num_envs is at least 1"):
        env_mod.VectorEnv(0)
