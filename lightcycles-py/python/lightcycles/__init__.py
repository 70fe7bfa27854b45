"""LightCycles for Python: the Tron light-cycles engine and match runner.

The engine (``Game``, the fast bitboard engine proven equal to the rule
book's reference, and ``SearchState``, its lean copy for a search's inner
loop), maps and replays come from ``lightcycles-core``; ``play``
and ``tournament`` are the match loop of ``lightcycles-host``, in process;
``GameBatch`` steps many games in one call. ``lightcycles.env`` holds a
PettingZoo ``ParallelEnv`` and the Gymnasium ``VectorEnv`` (also
``lightcycles.VectorEnv``, imported when first named, as it needs the
``env`` extra); ``lightcycles.errors`` the exceptions;
``lightcycles.distributed`` plays a tournament's shards on a Ray cluster.
The rules are those of docs/RULES.md in the repository.
"""

from typing import Any

from lightcycles._lightcycles import (
    DEFAULTS,
    PLANES,
    CallableTimeout,
    Config,
    Game,
    GameBatch,
    GameOver,
    GameResult,
    PlayResult,
    Replay,
    ReplayMismatch,
    SearchState,
    __version__,
    check_bots,
    generate_map,
    merge_results,
    play,
    tournament,
)

#: The four directions, in the order of their codes 0 to 3.
DIRECTIONS = ("N", "E", "S", "W")


def __getattr__(name: str) -> Any:
    # lightcycles.VectorEnv is lightcycles.env.VectorEnv, which needs
    # Gymnasium: imported when first asked for, so that the package itself
    # needs numpy alone.
    if name == "VectorEnv":
        from lightcycles.env import VectorEnv

        return VectorEnv
    raise AttributeError(f"module 'lightcycles' has no attribute {name!r}")


__all__ = [
    "DEFAULTS",
    "PLANES",
    "CallableTimeout",
    "Config",
    "DIRECTIONS",
    "Game",
    "GameBatch",
    "GameOver",
    "GameResult",
    "PlayResult",
    "Replay",
    "ReplayMismatch",
    "SearchState",
    "__version__",
    "check_bots",
    "generate_map",
    "merge_results",
    "play",
    "tournament",
]
