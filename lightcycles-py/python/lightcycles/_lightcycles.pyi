"""Type stubs of the extension module (see the docstrings of each object)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

Move = Union[str, int, None]
Fault = Optional[str]
Bot = Union[str, Callable[[Dict[str, Any]], str]]

class GameOver(RuntimeError): ...

class ReplayMismatch(ValueError):
    tick: int
    player: Optional[int]
    field: str
    expected: str
    actual: str

class Config:
    def __init__(
        self,
        width: int = 48,
        height: int = 36,
        players: int = 2,
        max_ticks: int = 2000,
        rock_density: int = 4,
        fault_policy: str = "straight",
    ) -> None: ...
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

class Game:
    def __init__(self, config: Optional[Config] = None, seed: int = 0, record: bool = False) -> None: ...
    @staticmethod
    def from_map(text: str, max_ticks: int = 2000, fault_policy: str = "straight", record: bool = False) -> "Game": ...
    @staticmethod
    def from_observation(obs: Dict[str, Any], fault_policy: str = "straight") -> "Game": ...
    def step(self, moves: Sequence[Move], faults: Optional[Sequence[Fault]] = None) -> None: ...
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
    def observation(self, you: int) -> Dict[str, Any]: ...
    def grid(self) -> npt.NDArray[np.int8]: ...
    def cell(self, x: int, y: int) -> int: ...
    def clone(self) -> "Game": ...
    def copy_from(self, other: "Game") -> None: ...
    def reachable(self, player: int) -> int: ...
    def voronoi(self) -> List[int]: ...
    def separated(self) -> bool: ...
    def safe_moves(self, player: int) -> List[str]: ...

def generate_map(seed: int, config: Optional[Config] = None) -> Dict[str, Any]: ...

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
    def faults(self) -> List[List[Fault]]: ...
    @property
    def names(self) -> List[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def save(self, path: Union[str, PathLike[str]]) -> None: ...
    @staticmethod
    def record(game: Game, names: Optional[Sequence[str]] = None) -> "Replay": ...

class GameResult:
    game: int
    seed: int
    names: List[str]
    seats: List[int]
    winner: Optional[str]
    ticks: int
    faults: List[Dict[str, int]]
    replay: Optional[str]

class PlayResult:
    names: List[str]
    wins: List[int]
    draws: int
    games: List[GameResult]
    final_results: str

def play(
    bots: Sequence[Bot],
    rounds: int = 10,
    seed: int = 0,
    swap: bool = False,
    jobs: int = 1,
    out_dir: Optional[Union[str, PathLike[str]]] = None,
    time_ms: int = 50,
    time_first_ms: int = 1000,
    config: Optional[Config] = None,
    isolate: bool = False,
) -> PlayResult: ...
def tournament(
    bots: Sequence[Bot],
    games: Optional[int] = None,
    seed: int = 0,
    jobs: Optional[int] = None,
    results: Optional[Union[str, PathLike[str]]] = None,
    resume: bool = False,
    sprt: Optional[str] = None,
    gauntlet: bool = False,
    out_dir: Optional[Union[str, PathLike[str]]] = None,
    time_ms: int = 50,
    time_first_ms: int = 1000,
    config: Optional[Config] = None,
    isolate: Optional[bool] = None,
    shard: Optional[Union[str, Tuple[int, int]]] = None,
    log_seconds: int = 0,
) -> Dict[str, Any]: ...
def merge_results(
    shards: Sequence[Union[str, PathLike[str]]],
    output: Union[str, PathLike[str]],
    sprt: Optional[str] = None,
    report: Optional[Union[str, PathLike[str]]] = None,
) -> Dict[str, Any]: ...
def check_bots(
    bots: Sequence[Bot],
    seed: int = 0,
    time_first_ms: int = 1000,
    config: Optional[Config] = None,
    isolate: Optional[bool] = None,
) -> None: ...

class VectorEnv:
    def __init__(self, num_envs: int, config: Optional[Config] = None, seed: int = 0) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def seeds(self) -> List[int]: ...
    def reset(self, seed: Optional[int] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]: ...
