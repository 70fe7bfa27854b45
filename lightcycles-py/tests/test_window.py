"""render_mode="human": a pygame window where a display exists (here SDL's
dummy video driver, a real display without a screen), the text board
elsewhere. What the window shows is read back and compared with the image
rgb_array gives."""

import pickle

import numpy as np
import pytest

env_mod = pytest.importorskip("lightcycles.env")
pz_test = pytest.importorskip("pettingzoo.test")
from lightcycles import window  # noqa: E402


@pytest.fixture
def display(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    import pygame

    pygame.display.quit()


@pytest.fixture
def no_display(monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(window.sys, "platform", "linux")


def test_the_parallel_env_shows_its_image_in_a_window(display):
    assert window.available()
    env = env_mod.parallel_env(width=16, height=12, render_mode="human")
    env.reset(seed=3)
    for _ in range(4):
        env.step({a: 1 for a in env.agents})
        assert env.render() is None
        game = env.game
        assert np.array_equal(env._window.pixels(), game.rgb_array())
    # A pickled env takes no window along, and opens its own.
    copy = pickle.loads(pickle.dumps(env))
    assert copy._window.pixels() is None
    copy.render()
    assert np.array_equal(copy._window.pixels(), copy.game.rgb_array())
    env.close()
    assert env._window.pixels() is None


def test_the_vector_env_shows_its_first_games_side_by_side(display):
    venv = env_mod.VectorEnv(6, seed=1, render_mode="human", width=12, height=10)
    venv.reset(seed=1)
    venv.step(np.ones((6, 2), dtype=np.int64))
    assert venv.render() is None
    frames = [venv._env.rgb_array(i) for i in range(6)]
    shown = venv._window.pixels()
    assert np.array_equal(shown, window.tile(frames))
    # Four to a row, a gap of 4 pixels: the second row starts with game 4.
    h, w, _ = frames[0].shape
    assert shown.shape == (2 * h + 4, 4 * w + 3 * 4, 3)
    assert np.array_equal(shown[h + 4 :, :w], frames[4])
    venv.close()


def test_the_duel_env_shows_its_game(display):
    import gymnasium as gym

    env = gym.make("lightcycles/Duel-v0", opponent="builtin:floodfill", render_mode="human", width=16, height=16)
    env.reset(seed=2)
    env.step(1)
    assert env.render() is None
    inner = env.unwrapped
    assert np.array_equal(inner._window.pixels(), inner._venv._env.rgb_array(0))
    env.close()


def test_pettingzoos_render_test_with_a_display(display):
    pz_test.render_test(lambda render_mode=None: env_mod.env(width=16, height=16, render_mode=render_mode))


def test_without_a_display_human_prints_the_board(no_display, capsys):
    assert not window.available()
    env = env_mod.parallel_env(width=12, height=10, render_mode="human")
    env.reset(seed=5)
    assert env.render() is None
    assert capsys.readouterr().out == env_mod.ansi(env.game.grid()) + "\n\n"
    assert env._window.pixels() is None


def test_tile_lays_out_rows_of_images():
    a = np.full((2, 3, 3), 10, dtype=np.uint8)
    b = np.full((2, 3, 3), 20, dtype=np.uint8)
    out = window.tile([a, b, a], columns=2, gap=1)
    assert out.shape == (5, 7, 3)
    assert (out[:2, :3] == 10).all() and (out[:2, 4:] == 20).all() and (out[3:, :3] == 10).all()
    assert (out[2] == 0).all() and (out[:, 3] == 0).all() and (out[3:, 4:] == 0).all()
    # One image is itself.
    assert np.array_equal(window.tile([a]), a)

