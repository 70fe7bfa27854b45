"""The Python Game against the Rust core: golden replays and fuzz games
frame for frame, the space helpers, copies, and bad input."""

import json

import numpy as np
import pytest

import lightcycles as lc
from conftest import frame_of, game_of, golden_paths, step_through


@pytest.mark.parametrize("path", golden_paths(), ids=lambda p: p.name)
def test_golden_replays_step_frame_for_frame(path):
    replay = json.loads(path.read_text())
    game = step_through(replay)
    assert game.is_over
    result = game.result
    assert result["ticks"] == replay["result"]["ticks"]
    assert result["placements"] == replay["result"]["placements"]
    assert result["eliminated_at"] == replay["result"]["eliminated_at"]
    assert result["trails"] == replay["result"]["trails"]
    assert game.winner == replay["winner"]
    with pytest.raises(lc.GameOver):
        game.step([None] * game.num_players)


def test_fuzz_games_of_the_host_step_frame_for_frame(tmp_path):
    # builtin:fuzz sends invalid lines too: faults go through the same path.
    for players, bots in [(2, ["builtin:fuzz", "builtin:random"]), (4, ["builtin:fuzz"] * 2 + ["builtin:random"] * 2)]:
        config = lc.Config(width=24, height=20, players=players, max_ticks=300)
        out = tmp_path / f"p{players}"
        result = lc.play(bots, rounds=6, seed=77, out_dir=out, config=config)
        assert len(result.games) == 6
        for g in result.games:
            replay = json.loads(open(g.replay).read())
            game = step_through(replay)
            assert game.is_over and game.result["ticks"] == g.ticks
            assert lc.Replay.load(g.replay).verify()["ticks"] == g.ticks


def test_moves_as_letters_ints_none_and_invalid_lines():
    a, b = lc.Game(seed=5), lc.Game(seed=5)
    a.step(["N", "E"])
    b.step([0, 1])
    assert frame_of(a) == frame_of(b)
    # Any other string is an invalid line: under "straight" no move.
    c, d = lc.Game(seed=5), lc.Game(seed=5)
    c.step(["left", " n "])
    d.step([None, None])
    assert frame_of(c) == frame_of(d)
    # " N\r\n" trims to a move, as the rule book says.
    e = lc.Game(seed=5)
    e.step([" N\r\n", "E"])
    assert frame_of(e) == frame_of(a)


def test_faults_follow_the_policy():
    config = lc.Config(fault_policy="eliminate")
    g = lc.Game(config, seed=2)
    g.step([None, None], [None, "timeout"])
    assert g.is_over and g.winner == 0
    h = lc.Game(seed=2)
    h.step([None, None], [None, "crash"])
    assert not h.is_over, "under straight a crash fault is no move"


def test_grid_is_the_observation_grid():
    g = lc.Game(lc.Config(players=3, width=30, height=20), seed=9)
    for _ in range(5):
        g.step([m[0] if (m := g.safe_moves(i)) else None for i in range(3)])
        if g.is_over:
            break
        grid = g.grid()
        assert grid.dtype == np.int8 and grid.shape == (20, 30)
        assert grid.tolist() == g.observation(1)["grid"]


def test_clone_and_copy_from_are_independent():
    g = lc.Game(seed=1)
    c = g.clone()
    g.step(["N", "N"])
    assert c.tick == 0 and g.tick == 1
    c.copy_from(g)
    assert frame_of(c) == frame_of(g) and c.grid().tolist() == g.grid().tolist()
    c.step(["E", "W"])
    assert g.tick == 1


def test_space_helpers_agree_with_a_plain_flood_fill():
    g = lc.Game(seed=4)
    for _ in range(30):
        moves = [m[0] if (m := g.safe_moves(i)) else None for i in range(2)]
        g.step(moves)
        if g.is_over:
            break
        grid = g.grid()
        for i, p in enumerate(g.players):
            seen, todo = set(), [(p["x"], p["y"])]
            while todo:
                x, y = todo.pop()
                for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                    if 0 <= nx < grid.shape[1] and 0 <= ny < grid.shape[0] and grid[ny, nx] == -1 and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        todo.append((nx, ny))
            assert g.reachable(i) == len(seen)
        v = g.voronoi()
        assert len(v) == 2 and sum(v) <= int((g.grid() == -1).sum())
    assert isinstance(g.separated(), bool)


def test_from_observation_rebuilds_the_game():
    g = lc.Game(lc.Config(players=3, width=20, height=20), seed=8)
    for _ in range(4):
        g.step(["N", "N", "N"])
    r = lc.Game.from_observation(g.observation(2))
    assert frame_of(r)["heads"] == frame_of(g)["heads"]
    assert r.grid().tolist() == g.grid().tolist()
    a, b = g.clone(), r
    a.step(["E", "E", "E"])
    b.step(["E", "E", "E"])
    assert frame_of(a)["heads"] == frame_of(b)["heads"]


def test_from_map_plays_a_2010_map():
    rows = ["##########"] + ["#" + " " * 8 + "#"] * 7 + ["##########"]
    rows[2] = "#1      2#"
    g = lc.Game.from_map("10 9\n" + "\n".join(rows) + "\n", max_ticks=50)
    assert (g.config.width, g.config.height, g.num_players) == (10, 9, 2)
    assert g.grid()[0].tolist() == [-2] * 10
    assert [(p["x"], p["y"]) for p in g.players] == [(1, 2), (8, 2)]


def test_generate_map_is_the_cli_map():
    m = lc.generate_map(3)
    g = lc.Game(seed=3)
    assert (m["width"], m["height"]) == (48, 36)
    for x, y in m["rocks"]:
        assert g.grid()[y, x] == -2
    assert [[p["x"], p["y"], p["dir"]] for p in g.players] == [list(s) for s in m["start"]]


def test_bad_input_is_a_clear_exception():
    with pytest.raises(ValueError, match="width = 7 is out of range: allowed 8 to 255"):
        lc.Config(width=7)
    with pytest.raises(ValueError, match="players = 9"):
        lc.Config(players=9)
    with pytest.raises(ValueError, match="fault_policy"):
        lc.Config(fault_policy="maybe")
    with pytest.raises(OverflowError):
        lc.Config(width=-1)
    g = lc.Game()
    with pytest.raises(ValueError, match="1 moves for 2 players"):
        g.step(["N"])
    with pytest.raises(ValueError, match="move 4 is not a direction"):
        g.step([4, 0])
    with pytest.raises(TypeError, match="a move is"):
        g.step([1.5, 0])
    with pytest.raises(ValueError, match='fault "late" is not one of'):
        g.step(["N", "N"], [None, "late"])
    with pytest.raises(IndexError, match="player 2 does not exist"):
        g.reachable(2)
    with pytest.raises(ValueError, match="not an observation"):
        lc.Game.from_observation({"tick": 1})
    with pytest.raises(ValueError):
        lc.Game.from_map("not a map")
    assert g.tick == 0, "a refused step changes nothing"
