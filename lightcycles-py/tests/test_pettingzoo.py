"""PettingZoo's own tests over the module, as its environments are tested:
module-level env, raw_env and parallel_env; the API, seed, render and
max-cycles tests; state(); images drawn in Rust."""

import numpy as np
import pytest

import lightcycles as lc

env_mod = pytest.importorskip("lightcycles.env")
pz_test = pytest.importorskip("pettingzoo.test")


@pytest.mark.parametrize("players", [2, 4])
def test_the_aec_env_passes_the_api_test(players):
    pz_test.api_test(env_mod.env(width=24, height=24, players=players), num_cycles=200)
    pz_test.api_test(env_mod.env(width=24, height=24, players=players, action_mask=True), num_cycles=200)


@pytest.mark.parametrize("players", [2, 4])
def test_seed_tests(players):
    pz_test.seed_test(lambda **kw: env_mod.env(width=24, height=24, players=players, **kw), num_cycles=100)
    pz_test.parallel_seed_test(lambda **kw: env_mod.parallel_env(width=24, height=24, players=players, **kw))


def test_render_test():
    pz_test.render_test(lambda render_mode=None: env_mod.env(width=16, height=16, render_mode=render_mode))


def test_max_cycles_test():
    pz_test.max_cycles_test(env_mod)


def test_state_is_the_board():
    env = env_mod.parallel_env(width=16, height=12)
    env.reset(seed=4)
    env.step({a: 1 for a in env.agents})
    game = lc.Game(lc.Config(width=16, height=12), seed=4)
    game.step([1, 1])
    assert np.array_equal(env.state(), game.grid()) and env.state_space.contains(env.state())


def test_rgb_array_is_the_board_in_colours():
    game = lc.Game(lc.Config(width=16, height=12), seed=2)
    image = game.rgb_array(cell=4)
    assert image.shape == (48, 64, 3) and image.dtype == np.uint8
    grid = game.grid()
    # Cell by cell, one colour per kind of cell (the pixel at a cell's corner).
    corner = image[::4, ::4].reshape(-1, 3)
    colours = {}
    for value, rgb in zip(grid.reshape(-1), map(tuple, corner)):
        colours.setdefault(int(value), set()).add(rgb)
    assert all(len(c) == 1 for v, c in colours.items() if v < 0), "empty and rock cells have one colour each"
    assert colours[-1] != colours.get(-2), "rocks are not empty cells"
    heads = {(p["x"], p["y"]) for p in game.players}
    assert len({tuple(image[y * 4, x * 4]) for x, y in heads}) == 2, "each player its colour"
    assert (image[3::4] == 0).all(), "a gap between cells"
    with pytest.raises(ValueError, match="cell is 1 to 64"):
        game.rgb_array(cell=0)
    venv = env_mod.VectorEnv(2, seed=2, render_mode="rgb_array", width=16, height=12)
    venv.reset(seed=2)
    frames = venv.render()
    assert np.array_equal(frames[0], game.rgb_array())


def test_max_cycles_is_the_tick_cap():
    env = env_mod.parallel_env(max_cycles=7)
    assert env.config.max_ticks == 7 == env.max_cycles
    with pytest.raises(ValueError, match="not both"):
        env_mod.parallel_env(max_cycles=7, max_ticks=8)
