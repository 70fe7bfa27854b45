"""Observations a policy takes directly: Game.planes and Game.action_mask
against a numpy rewriting of them, and the same options in the VectorEnv
and the ParallelEnv."""

import numpy as np
import pytest

import lightcycles as lc
from conftest import reference_mask, reference_planes

env_mod = pytest.importorskip("lightcycles.env")

CONFIGS = [
    dict(width=20, height=14),
    dict(width=16, height=16, players=3, rock_density=10),
    dict(width=24, height=18, players=4),
]


@pytest.mark.parametrize("cfg", CONFIGS)
def test_planes_and_masks_are_those_of_the_board_at_every_tick(cfg):
    rng = np.random.default_rng(3)
    for seed in range(6):
        game = lc.Game(lc.Config(**cfg), seed=seed)
        while True:
            for you in range(game.num_players):
                assert np.array_equal(game.planes(you), reference_planes(game, you)), (seed, game.tick, you)
                assert game.planes(you, dtype=np.float32).dtype == np.float32
                assert np.array_equal(game.planes(you, dtype="float32"), reference_planes(game, you))
                for view in (None, 1, 5):
                    got = game.planes(you, egocentric=True, view=view)
                    assert np.array_equal(got, reference_planes(game, you, True, view)), (seed, game.tick, you, view)
                assert game.action_mask(you).tolist() == reference_mask(game, you)
            if game.is_over:
                break
            game.step([int(rng.integers(0, 4)) for _ in range(game.num_players)])


def test_an_egocentric_view_turns_with_the_rider():
    game = lc.Game(lc.Config(width=16, height=16), seed=0)
    me = game.players[0]
    planes = game.planes(0, egocentric=True, view=3)
    assert planes.shape == (5, 7, 7)
    assert planes[0, 3, 3] == 1 and planes[3, 3, 3] == 1, "the head is in the centre"
    assert planes[4, 4, 3] == 1, "the cell behind is below the head: the heading is up"
    assert me["dir"] in "NESW"
    # Off the board is a wall: a window wider than the board sees the
    # board's cells once and every other cell as a wall.
    wide = game.planes(0, egocentric=True, view=20)
    assert wide.shape == (5, 41, 41)
    assert wide[2].sum() == 41 * 41 - 16 * 16 + (game.grid() == -2).sum()
    assert wide[3].sum() == 2 and wide[0].sum() == 1 and wide[1].sum() == 1


def test_bad_observation_options_are_refused():
    game = lc.Game()
    with pytest.raises(ValueError, match="needs egocentric=True"):
        game.planes(0, view=4)
    with pytest.raises(ValueError, match="int8 or float32, not float64"):
        game.planes(0, dtype=np.float64)
    with pytest.raises(ValueError, match="view is 1 to 255"):
        game.planes(0, egocentric=True, view=0)
    with pytest.raises(IndexError):
        game.action_mask(2)
    with pytest.raises(ValueError, match="options of obs_type"):
        env_mod.VectorEnv(2, obs_type="grid", egocentric=True)
    with pytest.raises(ValueError, match="obs_type"):
        lc.GameBatch(2, obs_type="pixels")
    with pytest.raises(ValueError, match="options of obs_type"):
        env_mod.parallel_env(obs_type="grid", dtype=np.float32)


@pytest.mark.parametrize(
    "options",
    [
        dict(obs_type="planes"),
        dict(obs_type="planes", dtype=np.float32, action_mask=True),
        dict(obs_type="planes", egocentric=True, view=4, action_mask=True),
        dict(obs_type="grid", action_mask=True),
    ],
)
def test_vector_env_observations_are_those_of_each_game(options):
    n, cfg = 8, dict(width=16, height=12)
    venv = env_mod.VectorEnv(n, seed=20, **options, **cfg)
    obs, _ = venv.reset(seed=20)
    games = [lc.Game(lc.Config(**cfg), seed=20 + i) for i in range(n)]
    pending = [False] * n
    next_seed = 20 + n
    rng = np.random.default_rng(4)
    egocentric, view = options.get("egocentric", False), options.get("view")
    for _ in range(40):
        assert venv.observation_space.contains(obs)
        for i, g in enumerate(games):
            for you in range(2):
                if options["obs_type"] == "planes":
                    got = obs["planes"][i, you]
                    assert got.dtype == np.dtype(options.get("dtype", np.int8))
                    assert np.array_equal(got, reference_planes(g, you, egocentric, view)), (i, you, g.tick)
                if "action_mask" in obs:
                    assert obs["action_mask"][i, you].tolist() == reference_mask(g, you)
            if options["obs_type"] == "grid":
                assert np.array_equal(obs["grid"][i], g.grid())
                assert obs["dirs"][i].tolist() == ["NESW".index(p["dir"]) for p in g.players]
        actions = rng.integers(0, 4, size=(n, 2))
        obs, _, terms, truncs, _ = venv.step(actions)
        for i in range(n):
            if pending[i]:
                games[i] = lc.Game(lc.Config(**cfg), seed=next_seed)
                next_seed += 1
                pending[i] = False
            else:
                games[i].step([int(a) for a in actions[i]])
                pending[i] = games[i].is_over
                assert bool(terms[i] or truncs[i]) == pending[i]


def test_parallel_env_takes_the_same_options():
    from pettingzoo.test import parallel_api_test

    for options in (
        dict(action_mask=True),
        dict(egocentric=True, view=6, dtype=np.float32),
        dict(obs_type="grid", action_mask=True),
    ):
        parallel_api_test(env_mod.parallel_env(width=16, height=16, players=3, **options), num_cycles=100)
    env = env_mod.parallel_env(width=16, height=16, egocentric=True, view=6, action_mask=True)
    obs, _ = env.reset(seed=9)
    rng = np.random.default_rng(2)
    while env.agents:
        for a, o in obs.items():
            you = env.possible_agents.index(a)
            assert np.array_equal(o["observation"], reference_planes(env.game, you, True, 6))
            assert o["action_mask"].tolist() == reference_mask(env.game, you)
        # A masked random policy: only safe moves.
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(actions)
