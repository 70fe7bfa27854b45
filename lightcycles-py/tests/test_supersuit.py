"""SuperSuit's vector conversions over the ParallelEnv, 2 and 4 players
(with lightcycles.env.black_death where agents leave a game that goes on),
in process and pickled into worker processes."""

import numpy as np
import pytest

ss = pytest.importorskip("supersuit")
env_mod = pytest.importorskip("lightcycles.env")


def vec(players, copies, num_cpus=0):
    pz = env_mod.parallel_env(width=16, height=16, players=players)
    if players > 2:
        pz = env_mod.black_death(pz)
    return ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(pz), copies, num_cpus=num_cpus, base_class="gymnasium")


@pytest.mark.parametrize("players", [2, 4])
def test_supersuit_vector_envs_play_whole_games(players):
    v = vec(players, 3)
    obs, _ = v.reset(seed=0)
    assert obs.shape == (3 * players, 5, 16, 16)
    rng = np.random.default_rng(players)
    ended = 0
    for _ in range(150):
        obs, rewards, terms, truncs, _ = v.step(rng.integers(0, 4, size=v.num_envs))
        assert obs.shape == (3 * players, 5, 16, 16) and rewards.shape == (3 * players,)
        ended += int((terms | truncs).sum())
    assert ended > 0, "games ended and SuperSuit reset them"
    v.close()


WORKERS = """
import numpy as np
import supersuit as ss
import lightcycles.env as env_mod

pz = env_mod.black_death(env_mod.parallel_env(width=16, height=16, players=4))
v = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(pz), 2, num_cpus=2, base_class="gymnasium")
obs, _ = v.reset(seed=1)
for _ in range(30):
    obs, rewards, *_ = v.step(np.zeros(v.num_envs, dtype=np.int64))
assert obs.shape == (8, 5, 16, 16), obs.shape
v.close()
print("ok")
"""


def test_supersuit_ships_the_env_to_worker_processes():
    # In a process of its own: SuperSuit forks its workers, and this
    # process may hold threads (Ray's, in CI) that a fork must not copy.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", WORKERS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_black_death_keeps_every_agent_until_the_end():
    env = env_mod.black_death(env_mod.parallel_env(width=16, height=16, players=4))
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    while env.agents:
        assert env.agents == env.possible_agents
        obs, rewards, terms, truncs, _ = env.step({a: int(rng.integers(0, 4)) for a in env.agents})
        assert set(obs) == set(env.possible_agents)
    assert all(t or u for t, u in zip(terms.values(), truncs.values()))
