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
