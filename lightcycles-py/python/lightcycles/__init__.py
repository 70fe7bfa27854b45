"""LightCycles for Python: the Tron light-cycles engine and match runner.

The engine (``Game``, the fast bitboard engine proven equal to the rule
book's reference, and ``SearchState``, its lean copy for a search's inner
loop), maps and replays come from ``lightcycles-core``; ``play``
and ``tournament`` are the match loop of ``lightcycles-host``, in process;
``lightcycles.env`` holds a PettingZoo ``ParallelEnv`` and the batched
``VectorEnv``; ``lightcycles.distributed`` plays a tournament's shards on a
Ray cluster. The rules are those of docs/RULES.md in the repository.
"""

from lightcycles._lightcycles import (
    CallableTimeout,
    Config,
    Game,
    GameOver,
    GameResult,
    PlayResult,
    Replay,
    ReplayMismatch,
    SearchState,
    VectorEnv,
    __version__,
    check_bots,
    generate_map,
    merge_results,
    play,
    tournament,
)

#: The four directions, in the order of their codes 0 to 3.
DIRECTIONS = ("N", "E", "S", "W")

__all__ = [
    "CallableTimeout",
    "Config",
    "DIRECTIONS",
    "Game",
    "GameOver",
    "GameResult",
    "PlayResult",
    "Replay",
    "ReplayMismatch",
    "SearchState",
    "VectorEnv",
    "check_bots",
    "generate_map",
    "merge_results",
    "play",
    "tournament",
]
