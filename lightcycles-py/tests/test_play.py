"""The host's match loop from Python: callables as bots, their faults, the
observation they receive, results as the CLI gives them, tournaments."""

import copy
import json
import subprocess
import sys
import time

import pytest

import lightcycles as lc
from conftest import game_of

RECORDER = """
import sys
with open(sys.argv[1], "w") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        print("N", flush=True)
"""


def test_a_callable_sees_exactly_what_a_json_lines_bot_sees(tmp_path):
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "seen.jsonl"
    seen = []

    def get_move(obs):
        seen.append(copy.deepcopy(obs))
        # A bot may scribble on what it gets: the next tick is unharmed.
        obs["grid"][0][0] = 99
        obs["grid"][1].clear()
        obs["players"][0]["x"] = -5
        return "N"

    lc.play([get_move, f"cmd:{sys.executable} {script} {log}"], rounds=1, seed=4, time_first_ms=5000)
    host = [json.loads(line) for line in log.read_text().splitlines()]
    assert host, "the program was asked"
    # The same states, seen from the other seat: only "you" differs.
    assert len(seen) == len(host)
    for mine, theirs in zip(seen, host):
        assert mine == {**theirs, "you": 0}
    # And both are what Game.observation gives for the same game.
    g = lc.Game(seed=4)
    assert g.observation(0) == seen[0]


def test_results_are_those_of_the_cli_for_the_same_arguments():
    result = lc.play(["builtin:floodfill", "builtin:random"], rounds=4, seed=7, swap=True)
    assert result.names == ["floodfill", "random"]
    assert len(result.games) == 8
    assert sum(result.wins) + result.draws == 8
    assert [g.game for g in result.games] == list(range(8))
    assert result.games[1].names == ["random", "floodfill"], "swap reverses the seats"
    assert result.final_results.startswith("FINAL_RESULTS\nBot_1: ")
    again = lc.play(["builtin:floodfill", "builtin:random"], rounds=4, seed=7, swap=True, jobs=2)
    assert [(g.seed, g.winner, g.ticks) for g in again.games] == [(g.seed, g.winner, g.ticks) for g in result.games]


def test_a_raising_a_late_and_a_garbage_bot_are_faults_not_crashes():
    def raises(obs):
        raise RuntimeError("bot bug")

    def late(obs):
        time.sleep(0.03)
        return "N"

    def garbage(obs):
        return 42

    result = lc.play([raises, "builtin:straight"], rounds=1, time_first_ms=1000)
    assert result.games[0].faults[0]["crash"] >= 1
    result = lc.play([late, "builtin:straight"], rounds=1, time_first_ms=10, time_ms=10)
    assert result.games[0].faults[0]["timeout"] >= 1
    result = lc.play([garbage, "builtin:straight"], rounds=1)
    assert result.games[0].faults[0]["invalid"] >= 1


def test_a_callable_is_told_its_time_bank_and_slow_answers_spend_it(tmp_path):
    seen = []

    def slow(obs):
        seen.append(obs.get("time_bank_ms"))
        if obs["tick"] > 1:
            time.sleep(0.03)
        return obs["players"][obs["you"]]["dir"]

    config = lc.Config(width=40, height=16, rock_density=0)
    result = lc.play([slow, "builtin:straight"], rounds=1, time_ms=10, time_bank_ms=200, config=config, out_dir=tmp_path)
    assert seen[:2] == [200, 200], seen
    assert 100 < seen[2] < 200, "tick 2 spent about 20 ms of it"
    assert all(b <= a for a, b in zip(seen, seen[1:])), seen
    replay = json.loads(lc.Replay.load(result.games[0].replay).to_json())
    assert [row[0] for row in replay["time_banks"]][: len(seen)] == seen
    assert replay["time_limits"]["bank_ms"] == [200, 200]

    seen.clear()
    lc.play([slow, "builtin:straight"], rounds=1, time_ms=100, config=config)
    assert seen and seen == [None] * len(seen), "no bank, no key"
    with pytest.raises(ValueError, match="time_bank_ms and time_inc_ms are at most 86400000 ms"):
        lc.play([slow, "builtin:straight"], rounds=1, time_bank_ms=2**64 - 1)


def test_names_are_made_unique():
    def get_move(obs):
        return "N"

    result = lc.play([get_move, get_move, "builtin:random"], rounds=1, config=lc.Config(players=3))
    assert result.names == ["get_move", "get_move_2", "random"]


def test_replays_written_by_play_verify_and_load(tmp_path):
    result = lc.play(["builtin:random", "builtin:fuzz"], rounds=2, out_dir=tmp_path)
    for g in result.games:
        r = lc.Replay.load(g.replay)
        assert r.verify()["ticks"] == g.ticks
        assert r.names == g.names
        assert len(r.frames) == g.ticks + 1


def test_a_changed_replay_names_tick_player_and_field(tmp_path):
    result = lc.play(["builtin:random", "builtin:straight"], rounds=1, out_dir=tmp_path)
    data = json.loads(open(result.games[0].replay).read())
    data["frames"][1]["heads"][1][0] += 1
    with pytest.raises(lc.ReplayMismatch) as e:
        lc.Replay.from_json(json.dumps(data)).verify()
    assert (e.value.tick, e.value.player, e.value.field) == (1, 1, "heads")
    with pytest.raises(ValueError, match="malformed"):
        lc.Replay.from_json("{}")


def test_a_tournament_reports_and_resumes(tmp_path):
    results = tmp_path / "t.jsonl"
    report = lc.tournament(["builtin:floodfill", "builtin:random"], games=6, results=results, jobs=2)
    assert (report["games_scheduled"], report["games_played"]) == (6, 6)
    assert [b["name"] for b in report["bots"]] == ["floodfill", "random"]
    assert report["bots"][0]["wins"] + report["bots"][0]["draws"] + report["bots"][0]["losses"] == 6
    assert "floodfill" in report["table"]
    lines = results.read_text().splitlines()
    assert len(lines) == 7, "a header and one line per game"
    again = lc.tournament(["builtin:floodfill", "builtin:random"], games=6, results=results, resume=True)
    assert again["bots"] == report["bots"], "resumed, the same counts"
    assert len(results.read_text().splitlines()) == 7, "nothing played twice"


def test_bad_bots_and_arguments_are_value_errors():
    with pytest.raises(ValueError, match="not a bot spec"):
        lc.play(["nonsense", "builtin:random"])
    with pytest.raises(ValueError, match="a bot is a spec string or a callable"):
        lc.play([3, "builtin:random"])
    with pytest.raises(ValueError, match="config has 2 players, but 3 bots"):
        lc.play(["builtin:random"] * 3, config=lc.Config())
    with pytest.raises(ValueError, match="cannot read"):
        lc.play(["no/such/main.py", "builtin:random"])
    with pytest.raises(ValueError, match="sprt"):
        lc.tournament(["builtin:random"] * 3, sprt="0,10,0.05,0.05")


def test_replay_record_writes_the_file_the_cli_writes(tmp_path):
    from conftest import golden_paths

    result = lc.play(["builtin:fuzz", "builtin:random"], rounds=2, seed=31, out_dir=tmp_path / "cli")
    headon = next(p for p in golden_paths() if p.name == "map_headon_draw.json")
    files = [g.replay for g in result.games] + [headon]
    for path in files:
        written = json.loads(open(path).read())
        c = written["config"]
        if written["map"] is not None:
            game = lc.Game.from_map(written["map"], max_ticks=c["max_ticks"], fault_policy=c["fault_policy"], record=True)
        else:
            game = lc.Game(lc.Config(**c), seed=written["seed"], record=True)
        for commands, faults in zip(written["commands"], written["faults"]):
            game.step(commands, faults)
        replay = lc.Replay.record(game, written["names"])
        assert json.loads(replay.to_json()) == written, path
        if path != headon:
            assert replay.to_json() + "\n" == open(path).read(), "byte for byte"
        out = tmp_path / "again.json"
        replay.save(out)
        assert lc.Replay.load(out).verify()["ticks"] == written["result"]["ticks"]
    with pytest.raises(ValueError, match="keeps no record"):
        lc.Replay.record(lc.Game())


def test_ctrl_c_stops_a_run_between_games():
    import _thread
    import threading

    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        lc.play(["builtin:random", "builtin:random"], rounds=1_000_000)
    timer.cancel()
    assert time.perf_counter() - started < 30


def c_plugin(tmp_path):
    from conftest import REPO

    out = tmp_path / "libc_plugin_bot.so"
    subprocess.run(
        ["cc", "-std=c11", "-O2", "-fPIC", "-shared", f"-I{REPO / 'include'}", str(REPO / "examples/c-plugin-bot/bot.c"), "-o", str(out)],
        check=True,
    )
    return out


def test_a_native_plugin_plays_in_process_or_isolated(tmp_path, monkeypatch):
    from conftest import REPO

    plugin = c_plugin(tmp_path)
    result = lc.play([str(plugin), "builtin:random"], rounds=2)
    assert result.names[0] == "c-plugin-bot", "the name its table declares, as the CLI names it"
    assert sum(result.wins) + result.draws == 2
    monkeypatch.delenv("LIGHTCYCLES_PLUGIN_HOST", raising=False)
    with pytest.raises(ValueError, match="LIGHTCYCLES_PLUGIN_HOST"):
        lc.play([str(plugin), "builtin:random"], rounds=1, isolate=True)
    host = next((p for p in (REPO / "target/debug/lightcycles", REPO / "target/release/lightcycles") if p.exists()), None)
    if host is None:
        pytest.skip("no lightcycles binary built in this clone to host isolated plugins")
    monkeypatch.setenv("LIGHTCYCLES_PLUGIN_HOST", str(host))
    isolated = lc.play([str(plugin), "builtin:random"], rounds=2, isolate=True)
    assert [(g.winner, g.ticks) for g in isolated.games] == [(g.winner, g.ticks) for g in result.games]


def test_a_callable_that_never_returns_is_a_timeout_and_the_run_goes_on():
    def spin(obs):
        while True:
            pass

    started = time.perf_counter()
    result = lc.play([spin, "builtin:straight"], rounds=2, time_first_ms=100, time_ms=20)
    assert len(result.games) == 2
    for game in result.games:
        assert game.faults[0]["timeout"] >= 1 and game.faults[0]["crash"] == 0
    assert time.perf_counter() - started < 60


def test_a_callable_that_catches_exception_still_times_out():
    def stubborn(obs):
        while True:
            try:
                while True:
                    pass
            except Exception:
                pass

    result = lc.play([stubborn, "builtin:straight"], rounds=1, time_first_ms=100, time_ms=20)
    assert result.games[0].faults[0]["timeout"] >= 1


@pytest.mark.parametrize("raised", [SystemExit(3), KeyboardInterrupt(), GeneratorExit()])
def test_a_base_exception_in_a_callable_is_a_crash_of_that_bot(raised):
    def leaving(obs):
        raise raised

    result = lc.play([leaving, "builtin:straight"], rounds=2)
    assert [g.faults[0]["crash"] >= 1 for g in result.games] == [True, True]
    # The interpreter is still here, and the next run plays.
    assert len(lc.play(["builtin:random", "builtin:straight"], rounds=1).games) == 1


def test_a_late_timeout_never_reaches_the_next_call():
    calls = []

    def quick(obs):
        calls.append(obs["tick"])
        return obs["players"][obs["you"]]["dir"]

    lc.play([quick, "builtin:straight"], rounds=3, time_ms=1)
    result = lc.play([quick, "builtin:straight"], rounds=3)
    assert all(g.faults[0]["timeout"] == 0 and g.faults[0]["crash"] == 0 for g in result.games)


def test_sizes_that_cannot_be_had_raise_instead_of_aborting():
    with pytest.raises(ValueError, match="num_envs is at most"):
        lc.GameBatch(10**9, lc.Config(width=8, height=8))
    with pytest.raises((ValueError, OverflowError)):
        lc.GameBatch(2**70)
    import lightcycles.env

    with pytest.raises(ValueError, match="num_envs is at most"):
        lightcycles.env.VectorEnv(10**9, width=8, height=8)


def test_a_results_file_where_a_replay_goes_is_refused(tmp_path):
    out = tmp_path / "o"
    with pytest.raises(ValueError, match="results .* is a game's replay that out_dir"):
        lc.tournament(["builtin:random", "builtin:straight"], games=2, results=out / "sim_1.json", out_dir=out)
    assert not out.exists()
