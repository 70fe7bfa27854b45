"""The numpy-only trainer of examples/rl: a short run trains, exports a
CodeClash main.py, and that file plays the trainer's own moves, needs no
lightcycles package, and plays games against builtin:random without a fault."""

import importlib.util
import sys

import pytest

import lightcycles as lc
from conftest import REPO

RL = REPO / "examples" / "rl"
sys.path.insert(0, str(RL))

import features  # noqa: E402
import train  # noqa: E402


def load(path):
    spec = importlib.util.spec_from_file_location("exported_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("rl")
    weights = train.train(out, generations=2, pop=3, games=1, seed=0, workers=1, log=lambda *_: None)
    return out, weights


def observations():
    """Observations of both seats along a few games, in the middle and near the end."""
    for seed in range(4):
        game = lc.Game(lc.Config(width=20, height=14, players=2), seed=seed)
        while not game.is_over:
            for you in range(2):
                yield game.observation(you)
            moves = [features.choose([1, -0.5, 0.3, 2, 1, 0.1], game.observation(you)) for you in range(2)]
            game.step(moves)


def test_the_run_writes_its_files(trained):
    out, weights = trained
    for name in ("main.py", "weights.json", "curve.csv"):
        assert (out / name).is_file(), name
    assert len(weights) == len(features.FEATURES)
    lines = (out / "curve.csv").read_text().splitlines()
    assert lines[0].startswith("generation,") and len(lines) == 3


def test_main_py_needs_numpy_only(trained):
    out, _ = trained
    text = (out / "main.py").read_text()
    assert text.startswith('"""')
    assert "lightcycles" not in "".join(l for l in text.splitlines() if l.startswith(("import", "from")))
    source = (RL / "features.py").read_text()
    assert source[source.index(train.MARKER) + len(train.MARKER):].strip() in text


def test_main_py_plays_the_trainers_moves(trained):
    out, weights = trained
    bot = load(out / "main.py")
    assert bot.WEIGHTS == weights
    seen = 0
    for obs in observations():
        assert bot.get_move(obs) == features.choose(weights, obs)
        assert (bot.features(obs) == features.features(obs)).all()
        seen += 1
    assert seen > 100


def test_main_py_plays_without_faults(trained, monkeypatch):
    out, _ = trained
    monkeypatch.setenv("LIGHTCYCLES_PYTHON", sys.executable)  # the host's Python needs numpy
    # A loaded CI machine must not turn a slow tick into a fault: 500 ms a tick.
    result = lc.play([str(out / "main.py"), "builtin:random"], rounds=3, seed=0, swap=True, time_ms=500, time_first_ms=5000)
    assert len(result.games) == 6
    name = [n for n in result.names if n != "random"][0]
    for g in result.games:
        assert g.faults[g.names.index(name)] == {"invalid": 0, "timeout": 0, "crash": 0}, (g.seed, g.faults)
    assert result.wins[result.names.index(name)] >= 1, result.final_results


def test_the_committed_bot_is_the_export_of_its_weights(tmp_path):
    import json

    weights = list(json.loads((RL / "trained" / "weights.json").read_text()).values())
    train.export(weights, tmp_path / "main.py")
    assert (tmp_path / "main.py").read_text() == (RL / "trained" / "main.py").read_text()
