"""Shared helpers of the package's tests: the repository's golden replays,
and stepping a Game through a replay frame by frame."""

from pathlib import Path

import pytest

import lightcycles as lc

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "lightcycles-core" / "tests" / "golden-replays"


def golden_paths():
    paths = sorted(GOLDEN.glob("*.json"))
    assert paths, f"no golden replays in {GOLDEN}"
    return paths


def game_of(replay: dict) -> lc.Game:
    """The game a replay starts from: its seeded map, or its map file."""
    c = replay["config"]
    if replay.get("map") is not None:
        return lc.Game.from_map(replay["map"], max_ticks=c["max_ticks"], fault_policy=c["fault_policy"])
    config = lc.Config(**c)
    return lc.Game(config, seed=replay["seed"])


def frame_of(game: lc.Game) -> dict:
    """The frame of a replay file for the game as it stands."""
    players = game.players
    return {
        "t": game.tick,
        "heads": [[p["x"], p["y"], 1 if p["alive"] else 0] for p in players],
        "dirs": [p["dir"] for p in players],
    }


def step_through(replay: dict) -> lc.Game:
    """Steps a Game through every recorded tick, checking each frame."""
    game = game_of(replay)
    assert frame_of(game) == replay["frames"][0], "tick 0"
    for k, (commands, faults) in enumerate(zip(replay["commands"], replay["faults"])):
        game.step(commands, faults)
        assert frame_of(game) == replay["frames"][k + 1], f"tick {k + 1}"
    return game


@pytest.fixture
def tmp_games(tmp_path):
    return tmp_path / "games"


#: The unit step of each direction (y grows downward).
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def reference_planes(game: lc.Game, you: int, egocentric: bool = False, view=None):
    """The planes of a seat written again in numpy from the board and the
    players (own trail, other trails, walls, heads, behind the heads), to
    hold Game.planes and the environments to: egocentric is the board padded
    with walls, cropped around the head and turned so that the heading is
    up."""
    import numpy as np

    grid = game.grid()
    h, w = grid.shape
    out = np.zeros((5, h, w), dtype=np.int8)
    out[0] = grid == you
    out[1] = (grid >= 0) & (grid != you)
    out[2] = grid == -2
    for p in game.players:
        if p["alive"]:
            out[3, p["y"], p["x"]] = 1
            dx, dy = DELTA[p["dir"]]
            bx, by = p["x"] - dx, p["y"] - dy
            if 0 <= bx < w and 0 <= by < h:
                out[4, by, bx] = 1
    if not egocentric:
        return out
    r = max(h, w) - 1 if view is None else view
    padded = np.zeros((5, h + 2 * r, w + 2 * r), dtype=np.int8)
    padded[2] = 1
    padded[:, r : r + h, r : r + w] = out
    me = game.players[you]
    window = padded[:, me["y"] : me["y"] + 2 * r + 1, me["x"] : me["x"] + 2 * r + 1]
    return np.rot90(window, "NESW".index(me["dir"]), axes=(1, 2))


def reference_mask(game: lc.Game, you: int):
    """The action mask from Game.safe_moves: all four when none is safe."""
    safe = game.safe_moves(you)
    return [not safe or d in safe for d in "NESW"]
