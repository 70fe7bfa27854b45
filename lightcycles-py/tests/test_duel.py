"""The single-agent environments: lightcycles/Duel-v0 through gymnasium.make
and make_vec, Gymnasium's check_env, and its opponents held to the host's
own bots game by game (lightcycles.play with the same seeds)."""

import numpy as np
import pytest

import lightcycles as lc

gym = pytest.importorskip("gymnasium")
env_mod = pytest.importorskip("lightcycles.env")


@pytest.mark.parametrize(
    "opponent,options",
    [
        ("builtin:random", {}),
        ("builtin:floodfill", dict(action_mask=True)),
        ("builtin:search:nodes=200", dict(egocentric=True, view=6, dtype=np.float32)),
        ("builtin:wallhug", dict(obs_type="grid", action_mask=True)),
    ],
)
def test_duel_passes_gymnasiums_env_checker(opponent, options):
    from gymnasium.utils.env_checker import check_env

    env = gym.make("lightcycles/Duel-v0", opponent=opponent, render_mode="ansi", width=16, height=16, **options)
    check_env(env.unwrapped)
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs) and info == {"seed": 4}
    assert isinstance(env.render(), str)


def straight(obs_grid):
    """A learner: keeps its direction (obs_type="grid")."""
    return int(obs_grid["dirs"][0])


def first_safe(mask):
    """The learner of these tests: the first safe move, N, E, S, W."""
    return int(np.flatnonzero(mask)[0])


def first_safe_bot(obs):
    """first_safe as a bot for lightcycles.play."""
    return "NESW"[first_safe(lc.Game.from_observation(obs).action_mask(obs["you"]))]


@pytest.mark.parametrize("opponent", ["builtin:floodfill", "builtin:random", "builtin:search:nodes=300"])
def test_duel_opponents_are_the_hosts_bots(opponent):
    cfg = dict(width=20, height=16)
    result = lc.play([first_safe_bot, opponent], rounds=6, seed=30, config=lc.Config(**cfg), time_ms=1000)
    env = env_mod.DuelEnv(opponent=opponent, obs_type="grid", action_mask=True, **cfg)
    for game in result.games:
        obs, _ = env.reset(seed=game.seed)
        ticks, done = 0, False
        while not done:
            obs, reward, term, trunc, _ = env.step(first_safe(obs["action_mask"]))
            ticks += 1
            done = term or trunc
        expected = 0.0 if game.winner is None else (1.0 if game.winner == "first_safe_bot" else -1.0)
        assert (ticks, reward) == (game.ticks, expected), game.seed


def test_a_python_callable_is_an_opponent_too():
    cfg = dict(width=16, height=16)
    result = lc.play(["builtin:straight", "builtin:straight"], rounds=3, seed=2, config=lc.Config(**cfg))
    env = env_mod.DuelEnv(opponent=lambda obs: obs["players"][obs["you"]]["dir"], obs_type="grid", **cfg)
    for game in result.games:
        obs, _ = env.reset(seed=game.seed)
        ticks, done = 0, False
        while not done:
            obs, reward, term, trunc, _ = env.step(straight(obs))
            ticks += 1
            done = term or trunc
        assert ticks == game.ticks


def test_duel_vector_env_and_its_wrappers():
    from gymnasium.wrappers import vector as wrappers

    venv = gym.make_vec("lightcycles/Duel-v0", num_envs=8, opponent="builtin:random", action_mask=True, width=16, height=12)
    assert isinstance(venv, gym.vector.VectorEnv) and venv.spec.id == "lightcycles/Duel-v0"
    assert venv.single_action_space == gym.spaces.Discrete(4) and venv.action_space.shape == (8,)
    env = wrappers.RecordEpisodeStatistics(venv)
    obs, _ = env.reset(seed=0)
    assert obs["planes"].shape == (8, 5, 12, 16) and obs["action_mask"].shape == (8, 4)
    rng = np.random.default_rng(0)
    results = []
    for _ in range(150):
        # A masked random policy: only safe moves.
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terms, truncs, infos = env.step(actions)
        assert rewards.shape == (8,) and venv.observation_space.contains(obs)
        if "episode" in infos:
            results += infos["episode"]["r"][infos["_episode"]].tolist()
    assert results and set(results) <= {-1.0, 0.0, 1.0}
    with pytest.raises(ValueError, match="expected 0 to 3"):
        env.step(np.full(8, 5))


def test_duel_refuses_what_cannot_play():
    with pytest.raises(ValueError):
        env_mod.DuelEnv(opponent="builtin:nosuchbot")
    with pytest.raises(ValueError, match="seat 2"):
        env_mod.DuelEnv(seat=2)
    env = env_mod.DuelEnv(opponent="builtin:straight", width=16, height=16)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
