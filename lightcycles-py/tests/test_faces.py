"""The CLI and the Python package are two faces of one tournament plan
(lightcycles_host::tournament::plan): every kind of tournament the CLI
plays, played again through ``lightcycles.tournament`` with the same
options in keywords, writes the same results file and report, byte for
byte; and the options the plan refuses are refused in both, in each
face's words."""

import os
import subprocess
from pathlib import Path

import pytest

import lightcycles as lc
from conftest import REPO

MAP = REPO / "lightcycles-host" / "maps" / "rooms.txt"
PYBOT = REPO / "examples" / "python-bot" / "main.py"
SMALL = (["--width", "20", "--height", "16"], {"width": 20, "height": 16})
THREE = ["builtin:floodfill", "builtin:random", "builtin:wallhug"]

#: Each kind: its name, the bots, the CLI's flags and the same in keywords.
KINDS = [
    ("match", THREE[:2], ["-g", "4", *SMALL[0]], {"games": 4, **SMALL[1]}),
    ("round-robin", THREE, ["-g", "2", "-s", "5", *SMALL[0]], {"games": 2, "seed": 5, **SMALL[1]}),
    ("gauntlet", THREE, ["-g", "2", "--gauntlet", *SMALL[0]], {"games": 2, "gauntlet": True, **SMALL[1]}),
    (
        "sprt",
        THREE[:2],
        ["-g", "8", "--sprt", "0,10,0.05,0.05,model=normalized", *SMALL[0]],
        {"games": 8, "sprt": "0,10,0.05,0.05,model=normalized", **SMALL[1]},
    ),
    (
        "ffa",
        THREE,
        ["--ffa", "3", "-g", "3", "--width", "20", "--height", "20"],
        {"ffa": 3, "games": 3, "width": 20, "height": 20},
    ),
    (
        "map-pool",
        THREE[:2],
        ["-g", "6", "--maps", "builtin:open", "builtin:rooms", str(MAP), "--map-order", "random", "--map-start", "1"],
        {"games": 6, "maps": ["builtin:open", "builtin:rooms", str(MAP)], "map_order": "random", "map_start": 1},
    ),
    (
        "sizes",
        THREE[:2],
        ["-g", "4", "--sizes", "16x16,20x16", "--densities", "0,6"],
        {"games": 4, "sizes": "16x16,20x16", "densities": "0,6"},
    ),
    ("map-file", THREE[:2], ["-g", "2", "--map", str(MAP)], {"games": 2, "map": str(MAP)}),
    (
        "league",
        THREE,
        ["--league", "--league-lag", "2", "-g", "6", *SMALL[0]],
        {"league": True, "league_lag": 2, "games": 6, **SMALL[1]},
    ),
    ("shard", THREE[:2], ["-g", "4", "--shard", "1/2", *SMALL[0]], {"games": 4, "shard": "1/2", **SMALL[1]}),
    (
        "rules-and-time",
        THREE[:2],
        [
            "-g", "2", "--max-ticks", "300", "--rock-density", "8", "--fault-policy", "eliminate",
            "--bot-time", "random=300,30,bank=50", "--time-margin-ms", "5", "--time-first-ms", "900", "--time-ms", "40",
            "--time-bank-ms", "200", "--time-inc-ms", "2", *SMALL[0],
        ],
        {
            "games": 2, "max_ticks": 300, "rock_density": 8, "fault_policy": "eliminate",
            "bot_time": ["random=300,30,bank=50"], "time_margin_ms": 5, "time_first_ms": 900, "time_ms": 40,
            "time_bank_ms": 200, "time_inc_ms": 2, **SMALL[1],
        },
    ),
    ("python-bot", [str(PYBOT), "builtin:wallhug"], ["-g", "2", *SMALL[0]], {"games": 2, **SMALL[1]}),
]


def binary() -> Path:
    for build in ("debug", "release"):
        path = REPO / "target" / build / "lightcycles"
        if path.exists():
            return path
    if os.environ.get("CI") == "true":
        pytest.fail("no lightcycles binary: CI builds it (cargo test --workspace) before pytest")
    pytest.skip("no lightcycles binary built in this clone")


@pytest.mark.parametrize("kind, bots, flags, keywords", KINDS, ids=[k[0] for k in KINDS])
def test_every_kind_of_tournament_is_the_same_through_both_faces(tmp_path, kind, bots, flags, keywords):
    cli, py = tmp_path / "cli", tmp_path / "py"
    cli.mkdir()
    py.mkdir()
    command = [str(binary()), "tournament", *bots, *flags, "-j", "1"]
    command += ["--results", str(cli / "results.jsonl"), "--report", str(cli / "report.json")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = lc.tournament(bots, jobs=1, results=py / "results.jsonl", report=py / "report.json", **keywords)
    for name in ("results.jsonl", "report.json"):
        assert (py / name).read_bytes() == (cli / name).read_bytes(), f"{kind}: {name}"
    assert report["table"] == done.stdout, f"{kind}: the table"


def test_merges_are_the_same_through_both_faces(tmp_path):
    bots = THREE[:2]
    for i in range(2):
        lc.tournament(bots, games=4, shard=f"{i}/2", jobs=1, results=tmp_path / f"s{i}.jsonl", **SMALL[1])
    shards = [str(tmp_path / f"s{i}.jsonl") for i in range(2)]
    done = subprocess.run(
        [str(binary()), "tournament", "merge", *shards, "-o", str(tmp_path / "cli.jsonl"), "--sprt", "0,10,0.05,0.05"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    merged = lc.merge_results(shards, tmp_path / "py.jsonl", sprt="0,10,0.05,0.05")
    assert (tmp_path / "py.jsonl").read_bytes() == (tmp_path / "cli.jsonl").read_bytes()
    assert merged["table"] == done.stdout


#: Options the plan refuses: the CLI's flags, the same in keywords, and
#: what each face's message says.
REFUSED = [
    (["--league-lag", "0", "--league", "--results", "R"], {"league": True, "league_lag": 0, "results": "R"},
     "league-lag", "league_lag 0 is out of range"),
    (["--ffa", "4", "--sprt", "0,5,0.05,0.05"], {"ffa": 4, "sprt": "0,5,0.05,0.05"},
     "so it takes 4 bots, but 3 were given", "so it takes 4 bots, but 3 were given"),
    (["--bot-time", "nobody=30"], {"bot_time": ["nobody=30"]},
     "--bot-time nobody=30: no bot is named", "bot_time nobody=30: no bot is named"),
    (["--sizes", "7x7"], {"sizes": "7x7"}, "--sizes", "sizes"),
]


@pytest.mark.parametrize("flags, keywords, cli_says, py_says", REFUSED)
def test_the_same_options_are_refused_by_both_faces_in_their_words(tmp_path, flags, keywords, cli_says, py_says):
    bots = ["builtin:random", "builtin:straight", "builtin:wallhug"] if "--ffa" in flags else THREE[:2]
    keywords = {k: (str(tmp_path / v) if k == "results" else v) for k, v in keywords.items()}
    flags = [str(tmp_path / f) if f == "R" else f for f in flags]
    done = subprocess.run([str(binary()), "tournament", *bots, *flags], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and cli_says in done.stderr, done.stderr
    with pytest.raises(ValueError, match=py_says.replace("(", r"\(")):
        lc.tournament(bots, **keywords)


def test_a_bare_string_where_a_list_of_bots_goes_is_refused_in_words():
    with pytest.raises(TypeError, match="bots is a list of bots, not one string"):
        lc.play("builtin:random")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not one string"):
        lc.tournament("builtin:random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="maps is a list of strings, not one string"):
        lc.tournament(THREE[:2], maps="builtin:open")  # type: ignore[arg-type]
