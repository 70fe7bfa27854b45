"""Shards of a tournament from Python: tournament(..., shard=...) plays the
games whose index is I mod N, merge_results joins them into the local
run's results, and check_bots is the probe before game 0."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lightcycles as lc

BOTS = ["builtin:floodfill", "builtin:random", "f=builtin:fuzz"]
SMALL = lc.Config(width=20, height=16, max_ticks=300)


def test_shards_merged_are_the_local_run_byte_for_byte(tmp_path):
    local = lc.tournament(BOTS, games=4, seed=5, jobs=1, results=tmp_path / "all.jsonl", config=SMALL)
    parts = []
    for i in range(3):
        part = tmp_path / f"s{i}.jsonl"
        shard = f"{i}/3" if i % 2 else (i, 3)
        report = lc.tournament(BOTS, games=4, seed=5, jobs=2, results=part, config=SMALL, shard=shard)
        assert report["shard"] == f"{i}/3" and report["games_scheduled"] == 4
        parts.append(part)
    merged = lc.merge_results(parts[::-1], tmp_path / "merged.jsonl", report=tmp_path / "r.json")
    assert (tmp_path / "merged.jsonl").read_text() == (tmp_path / "all.jsonl").read_text()
    assert merged.pop("notes") == []
    assert merged == local
    assert '"games_played": 12' in (tmp_path / "r.json").read_text()


def test_a_merge_of_what_is_not_one_tournament_writes_nothing(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    lc.tournament(BOTS[:2], games=4, results=a, config=SMALL, shard="0/2")
    lc.tournament(BOTS[:2], games=4, seed=1, results=b, config=SMALL, shard="1/2")
    out = tmp_path / "out.jsonl"
    with pytest.raises(ValueError, match="seed is 1 there, 0 in the first"):
        lc.merge_results([a, b], out)
    with pytest.raises(ValueError, match="2 of the tournament's 4 games are missing"):
        lc.merge_results([a], out)
    with pytest.raises(ValueError, match="sprt"):
        lc.merge_results([a], out, sprt="nonsense")
    assert not out.exists()


@pytest.mark.parametrize(
    "shard, says",
    [("2/2", "less than N"), ((2, 2), "less than N"), ("x", "not I/N"), (3, "a pair"), ((1,), "a pair")],
)
def test_bad_shards_are_refused(shard, says):
    with pytest.raises(ValueError, match=says):
        lc.tournament(BOTS[:2], games=2, shard=shard)


def test_an_sprt_is_judged_on_the_merge_not_in_a_shard():
    with pytest.raises(ValueError, match="merge_results"):
        lc.tournament(BOTS[:2], games=2, shard="0/2", sprt="0,5,0.05,0.05")


def test_a_shard_past_the_last_game_plays_none():
    report = lc.tournament(BOTS[:2], games=2, shard=(5, 6), config=SMALL)
    assert (report["games_scheduled"], report["games_played"]) == (0, 0)


def test_check_bots_names_the_bot_that_cannot_play(tmp_path):
    lc.check_bots(["builtin:random", lambda obs: "N"])
    broken = tmp_path / "main.py"
    broken.write_text("import no_such_module\n")
    with pytest.raises(ValueError, match="no_such_module") as e:
        lc.check_bots(["builtin:random", str(broken)])
    assert "cannot play" in str(e.value)
    with pytest.raises(ValueError, match="nope.py"):
        lc.check_bots(["nope.py", "builtin:random"])


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=12), st.tuples(st.integers(), st.integers()), st.integers(), st.none()))
def test_any_shard_value_is_taken_or_refused_in_words(shard):
    try:
        report = lc.tournament(BOTS[:2], games=2, shard=shard, config=SMALL)
    except (ValueError, OverflowError) as e:
        assert str(e)
    else:
        assert report["games_played"] <= 2


def test_the_sprt_takes_the_normalized_model_in_a_run_and_a_merge(tmp_path):
    sprt = "0,10,0.05,0.05,model=normalized"
    run = lc.tournament(BOTS[:2], games=4, jobs=1, results=tmp_path / "n.jsonl", sprt=sprt, config=SMALL)
    assert run["sprt"]["model"] == "pentanomial, normalized Elo, GSPRT approximation"
    header = (tmp_path / "n.jsonl").read_text().splitlines()[0]
    assert '"sprt_model":"normalized"' in header
    parts = []
    for i in range(2):
        part = tmp_path / f"s{i}.jsonl"
        lc.tournament(BOTS[:2], games=4, jobs=1, results=part, shard=f"{i}/2", config=SMALL)
        parts.append(part)
    merged = lc.merge_results(parts, tmp_path / "all.jsonl", sprt=sprt)
    assert merged["sprt"]["model"] == run["sprt"]["model"]
    assert merged["sprt"]["llr"] == run["sprt"]["llr"]
    logistic = lc.merge_results(parts, tmp_path / "all2.jsonl", sprt="0,10,0.05,0.05")
    assert logistic["sprt"]["model"] == "pentanomial, logistic Elo, GSPRT approximation"
    with pytest.raises(ValueError, match="model"):
        lc.merge_results(parts, tmp_path / "all3.jsonl", sprt="0,10,0.05,0.05,model=bayesian")


def test_a_free_for_all_sprt_judges_the_first_bot_against_the_field_in_a_run_and_a_merge(tmp_path):
    bots = ["builtin:floodfill", "builtin:random", "random2=builtin:random"]
    sprt = "0,20,0.05,0.1"
    three = lc.Config(width=20, height=16, max_ticks=300, players=3)
    run = lc.tournament(bots, ffa=3, games=150, jobs=2, results=tmp_path / "f.jsonl", sprt=sprt, config=three)
    test = run["sprt"]
    assert test["model"] == "game sets against the field, logistic Elo, GSPRT approximation"
    assert test["decision"]["accepted"] == "h1"
    assert test["field"]["bot"] == "floodfill" and test["field"]["score"] > 0.75
    assert test["field"]["sets"] >= test["decision"]["pairs"]
    parts = []
    for i in range(2):
        part = tmp_path / f"s{i}.jsonl"
        lc.tournament(bots, ffa=3, games=150, jobs=1, results=part, shard=f"{i}/2", config=three)
        parts.append(part)
    merged = lc.merge_results(parts, tmp_path / "all.jsonl", sprt=sprt)
    # The merge holds every game; the test crossed its bound at the same set.
    assert merged["sprt"]["decision"] == test["decision"]
    assert merged["sprt"]["field"]["sets"] == 50
