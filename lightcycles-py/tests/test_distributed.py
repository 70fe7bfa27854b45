"""lightcycles.distributed on a real Ray cluster of several nodes on this
machine. Ray binds the machine's own address unless it sees nothing but
loopback, so each scenario runs inside a network namespace made here
(root and ``ip`` needed), where a multi-node cluster lives on 127.0.0.1.
The scenarios themselves are in ray_cluster.py.

Without Ray, root or ``ip`` these tests are skipped, unless
LIGHTCYCLES_REQUIRE_RAY=1 (as CI sets it), which makes that a failure.
"""

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray

SCRIPT = Path(__file__).with_name("ray_cluster.py")
REQUIRED = os.environ.get("LIGHTCYCLES_REQUIRE_RAY") == "1"


def _unavailable():
    try:
        import ray  # noqa: F401
    except ImportError:
        return "ray is not installed (pip install 'lightcycles[distributed]')"
    if shutil.which("ip") is None:
        return "the ip command is missing"
    if os.geteuid() != 0:
        return "network namespaces need root"
    return None


@pytest.fixture(scope="module")
def netns():
    why = _unavailable()
    if why is not None:
        if REQUIRED:
            pytest.fail(f"LIGHTCYCLES_REQUIRE_RAY=1 but {why}")
        pytest.skip(why)
    name = f"lc-ray-{uuid.uuid4().hex[:8]}"
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"], check=True)
        yield name
    finally:
        # Whatever a scenario left running in the namespace goes with it.
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), 9)
            except (ProcessLookupError, ValueError):
                pass
        subprocess.run(["ip", "netns", "delete", name], check=False)


def scenario(netns, name, work):
    out = subprocess.run(
        ["ip", "netns", "exec", netns, sys.executable, str(SCRIPT), name, str(work)],
        capture_output=True,
        text=True,
        timeout=170,
        cwd=work,
    )
    assert out.returncode == 0 and out.stdout.rstrip().endswith("OK"), (
        f"scenario {name} failed (exit {out.returncode}):\n{out.stdout[-4000:]}\n{out.stderr[-6000:]}"
    )
    return out


def test_shards_on_two_nodes_equal_the_local_run_game_for_game(netns, tmp_path):
    scenario(netns, "split", tmp_path)


def test_a_node_killed_mid_shard_still_gives_the_exact_result(netns, tmp_path):
    scenario(netns, "node_dies", tmp_path)


def test_a_bad_bot_fails_before_any_game_with_a_clear_error(netns, tmp_path):
    scenario(netns, "bad_bot", tmp_path)


def test_bot_files_travel_in_working_dir_and_the_command_line_plays_the_same(netns, tmp_path):
    scenario(netns, "files", tmp_path)
