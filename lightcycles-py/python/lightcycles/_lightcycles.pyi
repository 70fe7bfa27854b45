"""Type stubs of the extension module (see the docstrings of each object)."""

from os import PathLike
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, final


import numpy as np
import numpy.typing as npt

_Move = Union[str, int, None]
_Fault = Optional[str]
_Bot = Union[str, Callable[[Dict[str, Any]], str]]
#: A list of bots: a list or tuple, never one string (which the runtime refuses).
_Bots = Union[List[_Bot], Tuple[_Bot, ...]]
_StrPath = Union[str, PathLike[str]]

__all__ = [
    "__version__",
    "PLANES",
    "DEFAULTS",
    "Config",
    "Game",
    "Replay",
    "SearchState",
    "PlayResult",
    "GameResult",
    "GameBatch",
    "generate_map",
    "play",
    "tournament",
    "merge_results",
    "check_bots",
    "ReplayMismatch",
    "GameOver",
    "CallableTimeout",
    "_parallel_step",
]

#: The version of the crate the extension was built from (the package's version).
__version__: str
#: The names of the five planes of Game.planes, in order.
PLANES: List[str]
#: The defaults of a game and a run (board, ticks, rocks, fault policy,
#: time limits): the core's constants, which the keywords written ``...``
#: below default to.
DEFAULTS: Dict[str, Any]

class GameOver(RuntimeError): ...

class ReplayMismatch(ValueError):
    tick: int
    player: Optional[int]
    field: str
    expected: str
    actual: str

class CallableTimeout(BaseException):
    """Raised inside a callable bot still running at its deadline."""

@final
class Config:
    def __new__(
        cls,
        width: int = ...,  # DEFAULTS["width"]
        height: int = ...,  # DEFAULTS["height"]
        players: int = ...,  # DEFAULTS["players"]
        max_ticks: int = ...,  # DEFAULTS["max_ticks"]
        rock_density: int = ...,  # DEFAULTS["rock_density"]
        fault_policy: str = ...,  # DEFAULTS["fault_policy"]
    ) -> "Config": ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def max_ticks(self) -> int: ...
    @property
    def rock_density(self) -> int: ...
    @property
    def fault_policy(self) -> str: ...

@final
class Game:
    def __new__(cls, config: Optional[Config] = None, seed: int = 0, record: bool = False) -> "Game": ...
    @staticmethod
    def from_map(text: str, max_ticks: int = ..., fault_policy: str = ..., record: bool = False) -> "Game": ...
    @staticmethod
    def from_observation(obs: Dict[str, Any], fault_policy: str = ...) -> "Game": ...
    def step(self, moves: Sequence[_Move], faults: Optional[Sequence[_Fault]] = None) -> None: ...
    @property
    def tick(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[int]: ...
    @property
    def result(self) -> Optional[Dict[str, Any]]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def config(self) -> Config: ...
    @property
    def players(self) -> List[Dict[str, Any]]: ...
    @property
    def alive(self) -> List[bool]: ...
    def observation(self, you: int) -> Dict[str, Any]: ...
    def grid(self) -> npt.NDArray[np.int8]: ...
    def cell(self, x: int, y: int) -> int: ...
    def clone(self) -> "Game": ...
    def copy_from(self, other: "Game") -> None: ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def reachable(self, player: int) -> int: ...
    def voronoi(self) -> List[int]: ...
    def separated(self) -> bool: ...
    def safe_moves(self, player: int) -> List[str]: ...
    def planes(
        self, you: int, egocentric: bool = False, view: Optional[int] = None, dtype: Any = None
    ) -> npt.NDArray[Any]: ...
    def action_mask(self, you: int) -> npt.NDArray[np.int8]: ...
    def rgb_array(self, cell: int = 8) -> npt.NDArray[np.uint8]: ...

@final
class SearchState:
    def __new__(cls, game: Game) -> "SearchState": ...
    def step(self, moves: Sequence[_Move], faults: Optional[Sequence[_Fault]] = None) -> None: ...
    def clone(self) -> "SearchState": ...
    def copy_from(self, other: "SearchState") -> None: ...
    def __copy__(self) -> "SearchState": ...
    def __deepcopy__(self, memo: Any) -> "SearchState": ...
    @property
    def tick(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[int]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def players(self) -> List[Dict[str, Any]]: ...
    def is_empty(self, x: int, y: int) -> bool: ...
    def reachable(self, player: int) -> int: ...
    def voronoi(self) -> List[int]: ...
    def safe_moves(self, player: int) -> List[str]: ...

def _parallel_step(
    game: Game,
    seats: Dict[str, int],
    agents: List[str],
    actions: Dict[str, Any],
    observe: Callable[[int], Any],
    plane_options: Optional[Tuple[bool, Optional[int], Any]] = None,
) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict[str, Any]], List[str]]: ...
def generate_map(seed: int, config: Optional[Config] = None) -> Dict[str, Any]: ...

@final
class Replay:
    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> "Replay": ...
    @staticmethod
    def from_json(text: str) -> "Replay": ...
    def verify(self) -> Dict[str, Any]: ...
    @property
    def frames(self) -> List[Dict[str, Any]]: ...
    @property
    def commands(self) -> List[List[Optional[str]]]: ...
    @property
    def faults(self) -> List[List[_Fault]]: ...
    @property
    def names(self) -> List[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def save(self, path: Union[str, PathLike[str]]) -> None: ...
    @staticmethod
    def record(game: Game, names: Optional[Sequence[str]] = None) -> "Replay": ...

@final
class GameResult:
    game: int
    seed: int
    names: List[str]
    seats: List[int]
    winner: Optional[str]
    ticks: int
    faults: List[Dict[str, int]]
    replay: Optional[Path]

@final
class PlayResult:
    names: List[str]
    wins: List[int]
    draws: int
    games: List[GameResult]
    final_results: str

def play(
    bots: _Bots,
    rounds: int = 10,
    seed: int = 0,
    swap: bool = False,
    jobs: int = 1,
    out_dir: Optional[Union[str, PathLike[str]]] = None,
    time_ms: int = ...,  # DEFAULTS["time_ms"]
    time_first_ms: int = ...,  # DEFAULTS["time_first_ms"]
    config: Optional[Config] = None,
    isolate: bool = False,
    time_bank_ms: int = 0,
    time_inc_ms: int = 0,
) -> PlayResult: ...
def tournament(
    bots: _Bots,
    games: Optional[int] = None,
    seed: int = 0,
    jobs: Optional[int] = None,
    results: Optional[_StrPath] = None,
    resume: bool = False,
    sprt: Optional[str] = None,
    gauntlet: bool = False,
    out_dir: Optional[_StrPath] = None,
    time_ms: Optional[int] = None,
    time_first_ms: Optional[int] = None,
    config: Optional[Config] = None,
    isolate: Optional[bool] = None,
    shard: Optional[Union[str, Tuple[int, int]]] = None,
    log_seconds: int = 0,
    *,
    report: Optional[_StrPath] = None,
    html: Optional[_StrPath] = None,
    ffa: Optional[int] = None,
    maps: Optional[List[str]] = None,
    sizes: Optional[str] = None,
    densities: Optional[str] = None,
    map_order: str = "sequential",
    map_start: int = 0,
    league: bool = False,
    league_lag: Optional[int] = None,
    affinity: bool = False,
    allow_broken: bool = False,
    log_every: int = 0,
    width: Optional[int] = None,
    height: Optional[int] = None,
    max_ticks: Optional[int] = None,
    rock_density: Optional[int] = None,
    fault_policy: Optional[str] = None,
    map: Optional[_StrPath] = None,
    bot_time: Optional[Union[List[str], Dict[str, Union[int, Tuple[int, int]]]]] = None,
    time_margin_ms: int = 0,
    time_bank_ms: int = 0,
    time_inc_ms: int = 0,
    bot_memory_mb: Optional[int] = None,
    bot_processes: Optional[int] = None,
    fuel_per_tick: Optional[int] = None,
) -> Dict[str, Any]: ...
def merge_results(
    shards: Sequence[Union[str, PathLike[str]]],
    output: Union[str, PathLike[str]],
    sprt: Optional[str] = None,
    report: Optional[Union[str, PathLike[str]]] = None,
) -> Dict[str, Any]: ...
def check_bots(
    bots: _Bots,
    seed: int = 0,
    time_first_ms: int = ...,  # DEFAULTS["time_first_ms"]
    config: Optional[Config] = None,
    isolate: Optional[bool] = None,
) -> None: ...

@final
class GameBatch:
    def __new__(
        cls,
        num_envs: int,
        config: Optional[Config] = None,
        seed: int = 0,
        copy: bool = True,
        obs_type: str = "grid",
        egocentric: bool = False,
        view: Optional[int] = None,
        dtype: Any = None,
        action_mask: bool = False,
        opponent: Optional[_Bot] = None,
        seat: int = 0,
        time_ms: int = ...,  # DEFAULTS["time_ms"]
        map_pool: int = ...,  # 4096, the Rust default
    ) -> "GameBatch": ...
    @property
    def num_envs(self) -> int: ...
    def board(self, env: int) -> npt.NDArray[np.int8]: ...
    def rgb_array(self, env: int, cell: int = 8) -> npt.NDArray[np.uint8]: ...
    @property
    def seeds(self) -> List[int]: ...
    @property
    def copy(self) -> bool: ...
    def reset(self, seed: Optional[int] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, np.ndarray]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, np.ndarray]]: ...
