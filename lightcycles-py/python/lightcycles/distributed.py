"""Tournaments on a Ray cluster: one Ray task per shard, merged as they finish.

A tournament's games are numbered; shard ``I`` of ``N`` plays the games whose
index is ``I mod N`` with the seeds and seats of the whole tournament, so the
shards together are exactly the games one machine plays
(``lightcycles.tournament(..., shard=...)``, ``lightcycles tournament --shard``).
Here each shard is a Ray task that runs the Rust tournament (GIL released)
on whatever node Ray picks; each finished shard's results are saved beside
the results file, and once all are in, ``lightcycles.merge_results`` checks
them and writes the one results file and report a local run writes.

A worker that dies mid-shard is retried by Ray (``max_retries``): a shard is
deterministic, so the retry plays the same games to the same results.

Bots given as files must be readable on the workers: give ``working_dir`` (a
folder packed once, put in Ray's object store and unpacked for each shard;
bot paths relative to it), or use paths every node can read (a shared
filesystem; on one machine, any path).
Builtins need nothing. Python callables travel with the task (cloudpickle).

The command line: ``python -m lightcycles.distributed BOT BOT... --shards N
--results ALL.jsonl`` with the flags of ``lightcycles tournament`` that
``lightcycles.tournament`` takes (``--help`` lists them).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tarfile
import tempfile
import time
import uuid
from os import PathLike
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import lightcycles

__all__ = ["tournament", "main"]

#: The options passed on to ``lightcycles.tournament`` in every shard: all
#: of its own but those of the whole run (results, resume, sprt, report,
#: html, shard, progress) and a league's (a league is not sharded).
_OPTIONS = (
    "gauntlet", "out_dir", "time_ms", "time_first_ms", "isolate", "ffa", "maps", "sizes", "densities",
    "map_order", "map_start", "affinity", "allow_broken", "width", "height", "max_ticks", "rock_density",
    "fault_policy", "map", "bot_time", "time_margin_ms", "time_bank_ms", "time_inc_ms", "bot_memory_mb",
    "bot_processes", "fuel_per_tick",
)

#: Config fields, to send a ``lightcycles.Config`` to the workers.
_CONFIG_FIELDS = ("width", "height", "players", "max_ticks", "rock_density", "fault_policy")


def _play_shard(
    bots: List[Any], index: int, count: int, options: Dict[str, Any], cwd: Optional[str], files: Optional[bytes]
) -> Dict[str, Any]:
    """One shard on a worker: its results file's text, where it ran and
    how long it took. ``files`` is the packed ``working_dir``, unpacked into
    a folder of the task's own where the bots' paths are read."""
    import ray

    started = time.monotonic()
    options = dict(options)
    if options.get("config") is not None:
        options["config"] = lightcycles.Config(**options["config"])
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="lightcycles-shard-") as tmp:
        if files is not None:
            cwd = os.path.join(tmp, "files")
            _unpack(files, cwd)
        if cwd is not None and os.path.isdir(cwd):
            # Bots named by relative paths are read where the driver reads them.
            os.chdir(cwd)
        try:
            path = os.path.join(tmp, "shard.jsonl")
            lightcycles.tournament(bots, shard=(index, count), results=path, **options)
            text = Path(path).read_text(encoding="utf-8")
        finally:
            os.chdir(before)
    return {"text": text, "node": ray.get_runtime_context().get_node_id(), "seconds": time.monotonic() - started}


#: The most ``working_dir`` may hold, packed.
MAX_FILES_BYTES = 256 * 1024 * 1024

#: Left out of a packed ``working_dir``.
_SKIPPED = {".git", "__pycache__", ".venv", "target", "node_modules"}


def _pack(folder: Union[str, "PathLike[str]"]) -> bytes:
    """``folder`` as a gzipped tar (file modes kept, so programs stay
    executable), without version-control and build folders."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"working_dir {root}: not a folder")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(root, arcname=".", filter=lambda info: None if Path(info.name).name in _SKIPPED else info)
    if buffer.tell() > MAX_FILES_BYTES:
        raise ValueError(
            f"working_dir {root}: {buffer.tell() >> 20} MiB packed, more than the {MAX_FILES_BYTES >> 20} MiB "
            "sent to the workers; ship the bots alone, or put them on a path every node can read"
        )
    return buffer.getvalue()


def _unpack(files: bytes, dest: str) -> None:
    with tarfile.open(fileobj=io.BytesIO(files), mode="r:gz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="tar")
        else:  # Python < 3.11.4: the archive is the driver's own
            tar.extractall(dest)


def _shard_file(folder: Path, index: int, count: int) -> Path:
    return folder / f"shard-{index}-of-{count}.jsonl"


def _write_whole(path: Path, text: str) -> None:
    """Writes ``path`` through a temporary file and a rename: a shard file
    is there whole or not at all."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02}:{s:02}" if h else f"{m:02}:{s:02}"


def tournament(
    bots: Sequence[Union[str, Callable[[Dict[str, Any]], str]]],
    games: Optional[int] = None,
    seed: int = 0,
    shards: Optional[int] = None,
    address: Optional[str] = None,
    results: Optional[Union[str, "PathLike[str]"]] = None,
    resume: bool = False,
    sprt: Optional[str] = None,
    report: Optional[Union[str, "PathLike[str]"]] = None,
    jobs: int = 1,
    working_dir: Optional[Union[str, "PathLike[str]"]] = None,
    max_retries: int = 3,
    config: Optional[lightcycles.Config] = None,
    progress: bool = True,
    **options: Any,
) -> Dict[str, Any]:
    """Plays ``lightcycles.tournament(bots, games=..., seed=..., ...)`` as
    ``shards`` Ray tasks and returns the same report a local run returns
    (with ``"notes"`` from the merge, and ``"shards"``: where each shard
    played and how long it took).

    - ``shards``: how many (default: the cluster's CPUs over ``jobs``); each
      task plays its shard with ``jobs`` games at once and asks Ray for that
      many CPUs.
    - ``address``: the Ray cluster (``ray.init(address=...)``); ``None``
      joins ``RAY_ADDRESS`` or the cluster already initialised, else starts
      a local one.
    - ``results``: the merged results file (new, or with ``resume=True`` the
      finished shards in ``RESULTS.shards/`` are kept and only the others
      played). Without it the results go to a temporary folder.
    - ``sprt``: judged on the merged games (shards play all their games).
    - ``report``: also write the report there as JSON (``--report``).
    - ``working_dir``: a folder shipped to every shard (packed into Ray's
      object store, at most 256 MiB; ``.git``, ``__pycache__``, ``.venv``,
      ``target`` and ``node_modules`` left out); bot paths are relative to it.
    - ``max_retries``: how often Ray plays a shard again whose worker died.
    - ``options``: every keyword of ``lightcycles.tournament`` that a shard
      takes (``gauntlet``, ``ffa``, ``maps``, ``sizes``, the board and time
      keywords, ``out_dir``, a path every node can write, ...; ``_OPTIONS``
      lists them); paths are read on the workers, relative to ``working_dir``.

    Every argument and every bot is checked on this machine before any
    shard starts (a bot that cannot play raises ``ValueError`` naming it).
    """
    import ray

    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"tournament() got unexpected keyword arguments: {', '.join(unknown)}")
    if jobs < 1 or max_retries < 0 or (shards is not None and shards < 1):
        raise ValueError("jobs and shards are at least 1, max_retries at least 0")
    bots = list(bots)
    shard_options: Dict[str, Any] = dict(options, games=games, seed=seed, jobs=jobs)
    if config is not None:
        shard_options["config"] = {f: getattr(config, f) for f in _CONFIG_FIELDS}

    folder, output, keep = _places(results, resume)
    cwd = None if working_dir is not None else os.getcwd()
    _check_here(bots, shard_options, config, working_dir)
    folder.mkdir(parents=True, exist_ok=True)

    if address is not None or not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=True)
    if shards is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        shards = max(1, cpus // jobs)
    files = ray.put(_pack(working_dir)) if working_dir is not None else None
    # SPREAD: shards go to different nodes where Ray can, rather than
    # filling the first node's CPUs, so that a node lost costs few shards.
    remote = ray.remote(_play_shard).options(
        num_cpus=jobs, max_retries=max_retries, retry_exceptions=False, scheduling_strategy="SPREAD"
    )

    started = time.monotonic()
    pending: Dict[Any, int] = {}
    submitted: Dict[int, float] = {}
    runs: List[Dict[str, Any]] = []
    done = 0
    for index in range(shards):
        if resume and _shard_file(folder, index, shards).is_file():
            done += 1
            continue
        submitted[index] = time.monotonic()
        pending[remote.remote(bots, index, shards, shard_options, cwd, files)] = index
    if progress and done:
        print(f"resuming: {done} of {shards} shards are done", file=sys.stderr)
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            index = pending.pop(ready[0])
            try:
                run = ray.get(ready[0])
            except ray.exceptions.RayTaskError as e:
                raise RuntimeError(f"shard {index}/{shards} failed: {e.cause if e.cause else e}") from None
            _write_whole(_shard_file(folder, index, shards), run["text"])
            done += 1
            wall = time.monotonic() - submitted[index]
            played = run["text"].count("\n") - 1
            runs.append(
                {"shard": f"{index}/{shards}", "games": played, "node": run["node"], "seconds": run["seconds"], "wall": wall}
            )
            if progress:
                print(
                    f"shard {index}/{shards} done ({played} games in {run['seconds']:.1f} s): "
                    f"{done} of {shards} shards, {_clock(time.monotonic() - started)} elapsed",
                    file=sys.stderr,
                )
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    files = [_shard_file(folder, i, shards) for i in range(shards)]
    merged = lightcycles.merge_results(files, output, sprt=sprt, report=report)
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    # Where each shard played and how long it took (its task's time, and
    # from its submission to its result here: the difference is what Ray's
    # scheduling cost); not part of the report a local run gives.
    merged["shards"] = sorted(runs, key=lambda r: int(r["shard"].split("/")[0]))
    return merged


def _places(results: Optional[Union[str, "PathLike[str]"]], resume: bool) -> Tuple[Path, Path, bool]:
    """The folder of the shards' files (made once every check has passed),
    the merged file, and whether the shards are kept (with a results
    file)."""
    if results is None:
        if resume:
            raise ValueError("resume continues a results file: give results=PATH")
        folder = Path(tempfile.gettempdir()) / f"lightcycles-shards-{uuid.uuid4().hex}"
        return folder, folder / "results.jsonl", False
    output = Path(results).absolute()
    folder = output.with_name(output.name + ".shards")
    if output.exists() and output.stat().st_size > 0:
        raise ValueError(f"results {output}: the file already holds results; name another file")
    if folder.exists() and any(folder.iterdir()) and not resume:
        raise ValueError(f"{folder} holds shards of an earlier run: pass resume=True to keep them, or remove it")
    return folder, output, True


def _check_here(bots: List[Any], shard_options: Dict[str, Any], config: Any, working_dir: Any) -> None:
    """Checks every argument and bot on this machine before any shard runs:
    the arguments as each worker will (a shard past the last game plays
    none but checks them all), and each bot by the probe the CLI makes."""
    before = os.getcwd()
    if working_dir is not None:
        os.chdir(working_dir)
    try:
        options = dict(shard_options)
        if options.get("config") is not None:
            options["config"] = config
        lightcycles.tournament(bots, shard=(2**62, 2**62 + 1), **options)
        lightcycles.check_bots(
            bots,
            seed=shard_options["seed"],
            time_first_ms=shard_options.get("time_first_ms", 1000),
            config=config,
            isolate=shard_options.get("isolate"),
        )
    finally:
        os.chdir(before)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m lightcycles.distributed``: prints the report's table."""
    p = argparse.ArgumentParser(
        prog="python -m lightcycles.distributed",
        description="Play a lightcycles tournament as shards on a Ray cluster and merge them: "
        "the flags of `lightcycles tournament` that lightcycles.tournament takes, and the cluster's.",
    )
    p.add_argument("bots", nargs="+", metavar="BOT", help="the bots, 2 or more (specs, as for lightcycles tournament)")
    p.add_argument("-g", "--games", type=int, help="games per pairing, even (default 100, 20000 with --sprt)")
    p.add_argument("-s", "--seed", type=int, default=0, help="the seed of round 0")
    p.add_argument("-j", "--jobs", type=int, default=1, help="games at once in each shard (its CPUs)")
    p.add_argument("-o", "--output", metavar="DIR", help="replays to DIR (a path every node can write)")
    p.add_argument("--results", metavar="FILE.jsonl", help="the merged results file")
    p.add_argument("--resume", action="store_true", help="keep the finished shards of FILE.jsonl.shards/")
    p.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA", help="an SPRT judged on the merged games")
    p.add_argument("--gauntlet", action="store_true", help="the first bot plays each of the others")
    p.add_argument("--report", metavar="FILE.json", help="also write the report as JSON")
    p.add_argument("--width", type=int, default=48)
    p.add_argument("--height", type=int, default=36)
    p.add_argument("--max-ticks", type=int, default=2000)
    p.add_argument("--rock-density", type=int, default=4)
    p.add_argument("--fault-policy", choices=("straight", "eliminate"), default="straight")
    p.add_argument("--time-ms", type=int, default=50, help="time for each answer after the first")
    p.add_argument("--time-first-ms", type=int, default=1000, help="time for the first answer")
    p.add_argument("--isolate", action="store_true", help="native plugins in a child process each")
    p.add_argument("--shards", type=int, help="Ray tasks, one shard each (default: the cluster's CPUs / -j)")
    p.add_argument("--address", help="the Ray cluster (default: RAY_ADDRESS, else a local one)")
    p.add_argument("--working-dir", metavar="DIR", help="a folder shipped to every worker; bot paths relative to it")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a shard whose worker died")
    a = p.parse_args(argv)

    try:
        config = lightcycles.Config(
            width=a.width,
            height=a.height,
            max_ticks=a.max_ticks,
            rock_density=a.rock_density,
            fault_policy=a.fault_policy,
        )
        report = tournament(
            a.bots,
            games=a.games,
            seed=a.seed,
            shards=a.shards,
            address=a.address,
            results=a.results,
            resume=a.resume,
            sprt=a.sprt,
            report=a.report,
            jobs=a.jobs,
            working_dir=a.working_dir,
            max_retries=a.max_retries,
            config=config,
            out_dir=a.output,
            time_ms=a.time_ms,
            time_first_ms=a.time_first_ms,
            isolate=a.isolate or None,
        )
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    table = report.pop("table")
    for note in report.pop("notes", []):
        print(f"note: {note}", file=sys.stderr)
    sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
