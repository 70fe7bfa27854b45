"""The package's benchmark: ``python -m lightcycles.bench [--quick]``.

Prints one Markdown table: the Python ``Game`` calls per call (step, clone,
copy_from, reachable, voronoi, observation), ``VectorEnv`` environment
steps per second at 1, 64 and 1024 games on this one thread (grid, planes,
against built-in opponents) beside a plain numpy env written by hand, the PettingZoo
``ParallelEnv``, and the cost of a Python callable bot in
``lightcycles.play`` against the same game loop written in Python. Every
figure is the median of several timed batches; figures from one run compare
with each other, less so across machines.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

import lightcycles as lc


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """Seconds per call of fn: batches sized to a tenth of the time, the
    median of seven. Time is this thread's CPU time (every call measured
    here runs on the calling thread), so other work on a shared machine
    takes less from the figures than it would from the wall clock."""
    n = 1
    while True:
        start = time.thread_time()
        for _ in range(n):
            fn()
        took = time.thread_time() - start
        if took >= seconds / 40 or n >= 1 << 24:
            break
        n *= 2
    n = max(1, int(n * (seconds / 10) / max(took, 1e-9)))
    samples = []
    for _ in range(7):
        start = time.thread_time()
        for _ in range(n):
            fn()
        samples.append((time.thread_time() - start) / n)
    return statistics.median(samples)


def early_game(ticks: int = 10) -> lc.Game:
    game = lc.Game(seed=1)
    for _ in range(ticks):
        game.step([m[0] if (m := game.safe_moves(i)) else None for i in range(2)])
    return game


def long_game() -> Tuple[lc.Game, List[List[str]]]:
    """A game of two flood-fill bots on the default board: its start and the
    moves of every tick, to step through without a bot in the loop."""
    result = lc.play(["builtin:floodfill", "builtin:floodfill"], rounds=1, seed=1, out_dir=tempfile.mkdtemp())
    path = result.games[0].replay
    assert path is not None, "play was given out_dir"
    replay = lc.Replay.load(path)
    return lc.Game(seed=1), [[move or "" for move in row] for row in replay.commands]


def game_rows(seconds: float) -> List[Tuple[str, str]]:
    start, script = long_game()
    game = start.clone()
    ticks = len(script)

    def play_through() -> None:
        game.copy_from(start)
        step = game.step
        for moves in script:
            step(moves)

    copy = per_call(lambda: game.copy_from(start), seconds)
    through = per_call(play_through, seconds)
    rows = [(f"Game.step (2 players, 48 × 36; a {ticks}-tick game)", f"{(through - copy) / ticks * 1e9:,.0f} ns")]

    early = early_game()
    other = early.clone()
    batch = 100

    def repeat(f: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            for _ in range(batch):
                f()

        return run

    def each(f: Callable[[], object]) -> float:
        return per_call(repeat(f), seconds) / batch

    rows.append(("Game.clone", f"{each(early.clone) * 1e9:,.0f} ns"))
    rows.append(("Game.copy_from", f"{each(lambda: other.copy_from(early)) * 1e9:,.0f} ns"))
    reachable = early.reachable
    rows.append(("Game.reachable, early game", f"{each(lambda: reachable(0)) * 1e9:,.0f} ns"))
    rows.append(("Game.voronoi, early game", f"{each(early.voronoi) * 1e9:,.0f} ns"))
    rows.append(("Game.observation (the CodeClash dict)", f"{each(lambda: early.observation(0)) * 1e6:,.1f} µs"))
    rows.append(("Game.grid (numpy int8)", f"{each(early.grid) * 1e6:,.1f} µs"))
    return rows


def vector_rows(seconds: float) -> List[Tuple[str, str]]:
    from lightcycles.env import VectorEnv

    rows = []
    variants: List[Tuple[int, bool, Dict[str, Any], str]] = [
        (1, False, {}, "grid"),
        (64, False, {}, "grid"),
        (1024, False, {}, "grid"),
        (1024, True, {}, "grid"),
        (1024, False, {"obs_type": "planes"}, "planes int8"),
        (1024, False, {"obs_type": "planes", "dtype": np.float32}, "planes float32"),
        (1024, False, {"obs_type": "planes", "egocentric": True, "view": 10}, "egocentric planes 21 × 21 int8"),
        (1024, False, {"obs_type": "planes", "action_mask": True}, "planes int8 and action masks"),
        (1024, False, {"opponent": "builtin:random"}, "grid, one seat against builtin:random"),
        (1024, False, {"opponent": "builtin:floodfill"}, "grid, one seat against builtin:floodfill"),
        (1024, False, {"opponent": "builtin:random", "obs_type": "planes"}, "planes, one seat against builtin:random"),
    ]
    for n, copy, options, what in variants:
        env = VectorEnv(n, seed=0, copy=copy, **options)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        shape = (n,) if "opponent" in options else (n, 2)
        actions = [rng.integers(0, 4, size=shape) for _ in range(16)]
        # The map pool fills in the first steps (each of its 4096 games made
        # when first played): the figures are of the steps after.
        for i in range(64):
            env.step(actions[i % 16])
        k = [0]

        def step() -> None:
            env.step(actions[k[0] % 16])
            k[0] += 1

        per = per_call(step, seconds)
        reset, calls = 0, 200
        for i in range(calls):
            infos = env.step(actions[i % 16])[4]
            reset += int(infos["_seed"].sum()) if "_seed" in infos else 0
        arrays = "fresh arrays (copy=True)" if copy else "arrays in place (copy=False)"
        rows.append(
            (
                f"VectorEnv.step, {n} envs, {what}, {arrays} (random moves; {reset / calls:,.1f} games reset a step)",
                f"{n / per:,.0f} env steps/s",
            )
        )
    return rows


class NumpyTron:
    """The yardstick: a plain numpy Tron env for two, written by hand as a
    researcher would, to hold the VectorEnv to. Grid written in place, no
    rocks, fixed starts; a reversal keeps the direction; a crash into a
    wall, a trail or the other head ends the game, which resets in the
    same step."""

    DELTA = np.array([(0, -1), (1, 0), (0, 1), (-1, 0)])

    def __init__(self, n: int, width: int = 48, height: int = 36) -> None:
        self.n, self.w, self.h = n, width, height
        self.grid = np.full((n, height, width), -1, dtype=np.int8)
        self.start = np.array([(width // 4, height // 2), (width - 1 - width // 4, height // 2)])
        self.pos = np.broadcast_to(self.start, (n, 2, 2)).copy()
        self.dirs = np.tile(np.array([1, 3]), (n, 1))
        self.rows = np.arange(n)[:, None]
        self.grid[self.rows, self.pos[..., 1], self.pos[..., 0]] = np.array([0, 1])

    def step(self, actions: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        reverse = actions == (self.dirs + 2) % 4
        self.dirs = np.where(reverse, self.dirs, actions)
        new = self.pos + self.DELTA[self.dirs]
        x, y = new[..., 0], new[..., 1]
        out = (x < 0) | (y < 0) | (x >= self.w) | (y >= self.h)
        cx, cy = np.clip(x, 0, self.w - 1), np.clip(y, 0, self.h - 1)
        crash = out | (self.grid[self.rows, cy, cx] != -1)
        crash |= ((new[:, 0] == new[:, 1]).all(axis=1))[:, None]
        self.pos = new
        ok = ~crash
        env, seat = np.nonzero(ok)
        self.grid[env, cy[ok], cx[ok]] = seat.astype(np.int8)
        done = crash.any(axis=1)
        rewards = np.where(done[:, None], np.where(crash, -1.0, 1.0), 0.0)
        if done.any():
            self.grid[done] = -1
            self.pos[done] = self.start
            self.dirs[done] = (1, 3)
            self.grid[np.flatnonzero(done)[:, None], self.start[:, 1], self.start[:, 0]] = np.array([0, 1])
        return self.grid, rewards, done


def target_rows(seconds: float) -> List[Tuple[str, str]]:
    """The rows the RL environments have targets for, at 1024 envs with
    arrays in place, beside the numpy yardstick of the same run."""
    from lightcycles.env import VectorEnv, parallel_env

    # ParallelEnv first: the VectorEnvs' memory makes the interpreter's
    # collections of the dicts it builds slower.
    penv = parallel_env()
    penv.reset(seed=0)

    def pstep() -> None:
        if not penv.agents:
            penv.reset()
        penv.step({a: 0 for a in penv.agents})

    rows = [("ParallelEnv.step (planes, 48 × 36)", f"{1 / per_call(pstep, seconds):,.0f} steps/s")]
    rows += numpy_rows(seconds)
    variants: List[Tuple[Dict[str, Any], str]] = [
        ({}, "grid"),
        ({"obs_type": "planes"}, "planes int8"),
        ({"opponent": "builtin:random"}, "grid, one seat against builtin:random"),
        ({"opponent": "builtin:floodfill"}, "grid, one seat against builtin:floodfill"),
    ]
    for options, what in variants:
        env = VectorEnv(1024, seed=0, copy=False, **options)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        shape = (1024,) if "opponent" in options else (1024, 2)
        actions = [rng.integers(0, 4, size=shape) for _ in range(16)]
        # The map pool fills in the first steps (each of its 4096 games made
        # when first played): the figures are of the steps after.
        for i in range(64):
            env.step(actions[i % 16])
        k = [0]

        def step() -> None:
            env.step(actions[k[0] % 16])
            k[0] += 1

        rows.append((f"VectorEnv.step, 1024 envs, {what}, copy=False", f"{1024 / per_call(step, seconds):,.0f} env steps/s"))
    return rows


def numpy_rows(seconds: float) -> List[Tuple[str, str]]:
    env = NumpyTron(1024)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 4, size=(1024, 2)) for _ in range(16)]
    k = [0]

    def step() -> None:
        env.step(actions[k[0] % 16])
        k[0] += 1

    per = per_call(step, seconds)
    return [("the yardstick: a plain numpy env, 1024 envs, grid in place, no rocks (random moves)", f"{1024 / per:,.0f} env steps/s")]


def reset_rows(seconds: float) -> List[Tuple[str, str]]:
    seed = [0]

    def new_game() -> None:
        lc.Game(seed=seed[0])
        seed[0] += 1

    return [("a new seeded game (the map generated: what a reset costs)", f"{per_call(new_game, seconds) * 1e6:,.1f} µs")]


def parallel_rows(seconds: float) -> List[Tuple[str, str]]:
    from lightcycles.env import parallel_env

    env = parallel_env()
    env.reset(seed=0)

    def step() -> None:
        if not env.agents:
            env.reset()
        env.step({a: 0 for a in env.agents})

    per = per_call(step, seconds)
    return [("ParallelEnv.step (planes, 48 × 36)", f"{1 / per:,.0f} steps/s")]


EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "python-bot" / "main.py"


GetMove = Callable[[Dict[str, Any]], str]


def example_bot() -> Optional[GetMove]:
    """get_move of examples/python-bot/main.py, when the repository is here."""
    path = EXAMPLE
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("example_main", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    get_move: GetMove = module.get_move
    return get_move


def python_loop(get_move: GetMove, games: int) -> Tuple[float, int]:
    """The game loop of a CodeClash-style engine written in Python: both
    seats' observations, get_move for each, one step. Seconds, ticks."""
    ticks = 0
    start = time.perf_counter()
    for seed in range(games):
        game = lc.Game(seed=seed)
        while not game.is_over:
            game.step([get_move(game.observation(i)) for i in range(2)])
            ticks += 1
    return time.perf_counter() - start, ticks


def host_loop(get_move: Union[str, GetMove], games: int) -> Tuple[float, int]:
    """lightcycles.play of the bot against itself: a callable in process,
    or a file run by the host's CodeClash adapter (a process per bot and
    game). Seconds, ticks."""
    start = time.perf_counter()
    result = lc.play([get_move, get_move], rounds=games, time_ms=10_000, time_first_ms=10_000)
    return time.perf_counter() - start, sum(g.ticks for g in result.games)


def loop_rows(games: int) -> List[Tuple[str, str]]:
    rows: List[Tuple[str, str]] = []

    steps = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

    def first_safe(obs: Dict[str, Any]) -> str:
        """A cheap bot: the first direction whose next cell is empty."""
        me = obs["players"][obs["you"]]
        grid, w, h = obs["grid"], obs["width"], obs["height"]
        for d, (dx, dy) in steps.items():
            x, y = me["x"] + dx, me["y"] + dy
            if 0 <= x < w and 0 <= y < h and grid[y][x] == -1:
                return d
        return str(me["dir"])

    own = [0.0]

    def timed(obs: Dict[str, Any]) -> str:
        start = time.perf_counter()
        move = first_safe(obs)
        own[0] += time.perf_counter() - start
        return move

    t_py, n_py = python_loop(first_safe, games)
    t_host, n_host = host_loop(timed, games)
    overhead = (t_host - own[0]) / (2 * n_host)
    rows.append(("a cheap callable, both seats, Python loop (Game + observation)", f"{t_py / n_py * 1e6:,.1f} µs per tick"))
    rows.append(("a cheap callable, both seats, lightcycles.play", f"{t_host / n_host * 1e6:,.1f} µs per tick"))
    rows.append(("lightcycles.play: the host's cost per bot and tick, beyond the bot's own time", f"{overhead * 1e6:,.1f} µs"))
    bot = example_bot()
    if bot is not None:
        t_py, n_py = python_loop(bot, games)
        t_host, n_host = host_loop(bot, games)
        rows.append(("examples/python-bot, both seats, Python loop", f"{t_py:,.2f} s for {games} games ({n_py} ticks)"))
        rows.append(("examples/python-bot, both seats, lightcycles.play", f"{t_host:,.2f} s ({t_host / t_py:.2f}× the loop)"))
        t_file, _ = host_loop(str(EXAMPLE), games)
        rows.append(
            (
                "examples/python-bot as a file (a process per bot and game, as `lightcycles play` runs it), both seats",
                f"{t_file:,.2f} s ({t_file / t_py:.2f}× the loop)",
            )
        )
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lightcycles.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measure (default 1)")
    parser.add_argument("--games", type=int, default=20, help="games of the game-loop rows (default 20)")
    parser.add_argument("--quick", action="store_true", help="a short run: 0.1 s a measure, 2 games")
    parser.add_argument(
        "--targets",
        type=int,
        metavar="N",
        help="only the rows the RL environments have targets for (and the numpy yardstick), N times over",
    )
    args = parser.parse_args(argv)
    seconds, games = (0.1, 2) if args.quick else (args.seconds, args.games)
    print("| measure | figure |\n| --- | ---: |")
    if args.targets is not None:
        for run in range(1, args.targets + 1):
            for what, figure in target_rows(seconds):
                print(f"| run {run}: {what} | {figure} |", flush=True)
        return 0
    sections: List[Callable[[], List[Tuple[str, str]]]] = [
        lambda: game_rows(seconds),
        lambda: vector_rows(seconds),
        lambda: numpy_rows(seconds),
        lambda: reset_rows(seconds),
        lambda: parallel_rows(seconds),
        lambda: loop_rows(games),
    ]
    for section in sections:
        for what, figure in section():
            print(f"| {what} | {figure} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
