"""The stubs as a type checker reads them: a bare string where a list of
bots goes is refused by mypy as it is at run time (test_faces.py), and a
correct call passes. (.ci/run also runs `mypy --strict` on the package and
`mypy.stubtest` on the stubs against the built extension.)"""

import os
import subprocess
import sys

import pytest


def mypy(code: str, where) -> subprocess.CompletedProcess:
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("mypy is one of the test extra's packages")
        pytest.skip("mypy is not installed")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-c", code], capture_output=True, text=True, timeout=300, cwd=where
    )


def test_a_bare_string_of_bots_is_a_type_error_and_a_list_is_not(tmp_path):
    bad = mypy('import lightcycles as lc\nlc.play("builtin:random")\n', tmp_path)
    assert bad.returncode == 1 and 'Argument 1 to "play" has incompatible type "str"' in bad.stdout, bad.stdout
    good = mypy(
        "import lightcycles as lc\n"
        'r = lc.play(["builtin:random", "builtin:straight"], rounds=1)\n'
        "p = r.games[0].replay\n"
        "if p is not None:\n"
        "    print(p.name)\n"
        'lc.tournament(("builtin:random", "builtin:straight"), games=2, ffa=None, maps=["builtin:open"])\n',
        tmp_path,
    )
    assert good.returncode == 0, good.stdout


def test_the_defaults_are_the_cores_and_every_keyword_takes_them():
    import lightcycles as lc

    d = lc.DEFAULTS
    c = lc.Config()
    assert (c.width, c.height, c.players, c.max_ticks, c.rock_density, c.fault_policy) == (
        d["width"], d["height"], d["players"], d["max_ticks"], d["rock_density"], d["fault_policy"]
    )
    assert (d["width"], d["height"], d["time_first_ms"], d["time_ms"]) == (48, 36, 1000, 50), "the rule book's game"
    game = lc.Game.from_map("10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n")
    assert (game.config.max_ticks, game.config.fault_policy) == (d["max_ticks"], d["fault_policy"])
