"""Environments for reinforcement learning: a PettingZoo ``ParallelEnv`` and a
batched ``VectorEnv``, a ``gymnasium.vector.VectorEnv``.

Both follow the rule book: every player moves at once, a reversal into the
neck keeps the direction, the last one riding wins. Rewards are +1 for the
winner, -1 for a player that loses (when it is eliminated, or when the game
ends with another winner) and 0 on a draw. Seeds are the rule book's: the
game of seed S is ``Game(config, seed=S)``, the map of ``lightcycles map
--seed S``.

Needs the ``env`` extra: ``pip install ./lightcycles-py[env]``.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space
from pettingzoo import ParallelEnv

from lightcycles._lightcycles import Config, Game
from lightcycles._lightcycles import VectorEnv as _VectorEnv

EMPTY = -1
ROCK = -2

#: The planes of an observation, in order.
PLANES = ("own trail", "other trails", "rocks", "heads")


def planes(game: Game, you: int) -> np.ndarray:
    """The observation of player ``you`` as four int8 planes (4, height,
    width): its own trail and head, the other players' trails and heads, the
    rocks, and the heads of every living player."""
    grid = game.grid()
    out = np.zeros((4,) + grid.shape, dtype=np.int8)
    out[0] = grid == you
    out[1] = (grid >= 0) & (grid != you)
    out[2] = grid == ROCK
    for p in game.players:
        if p["alive"]:
            out[3, p["y"], p["x"]] = 1
    return out


def parallel_env(**kwargs: Any) -> "LightCyclesEnv":
    """A PettingZoo ParallelEnv: ``parallel_env(width=48, height=36,
    players=2, max_ticks=2000, rock_density=4, fault_policy="straight",
    obs_type="planes")``."""
    return LightCyclesEnv(**kwargs)


class LightCyclesEnv(ParallelEnv):
    """LightCycles as a PettingZoo ParallelEnv.

    Agents are ``player_0`` … ``player_{n-1}``; an action is 0–3 (N, E, S,
    W). ``obs_type="planes"`` gives each agent the int8 planes of
    :func:`planes`; ``obs_type="codeclash"`` the dict a CodeClash
    ``get_move`` receives (its space is then a placeholder Box, since the
    dict has no Gymnasium space).
    """

    metadata = {"name": "lightcycles_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, obs_type: str = "planes", render_mode: Optional[str] = None, **config: Any) -> None:
        if obs_type not in ("planes", "codeclash"):
            raise ValueError(f"obs_type {obs_type!r} is not 'planes' or 'codeclash'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not None or 'ansi'")
        self.config = Config(**config)
        self.obs_type = obs_type
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.config.players)]
        self.agents: List[str] = []
        self.game: Optional[Game] = None
        self._seed = 0

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        shape = (4, self.config.height, self.config.width)
        return spaces.Box(low=0, high=1, shape=shape, dtype=np.int8)

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        return spaces.Discrete(4)

    def _observe(self, you: int) -> Any:
        assert self.game is not None
        if self.obs_type == "codeclash":
            return self.game.observation(you)
        return self._planes[you].copy()

    def _track(self, players) -> None:
        """Brings every agent's planes up to date after a tick: only the
        cells under the heads change (trails and rocks stay), and the heads
        plane moves with the heads."""
        assert self.game is not None
        planes = self._planes
        for x, y in self._head_cells:
            planes[:, 3, y, x] = 0
        self._head_cells = []
        for p in players:
            x, y = p["x"], p["y"]
            v = self.game.cell(x, y)
            for a in range(len(planes)):
                planes[a, 0, y, x] = v == a
                planes[a, 1, y, x] = v >= 0 and v != a
            if p["alive"]:
                planes[:, 3, y, x] = 1
                self._head_cells.append((x, y))

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            self._seed = seed
        self.game = Game(self.config, seed=self._seed)
        self._seed += 1
        if self.obs_type == "planes":
            self._planes = np.stack([planes(self.game, i) for i in range(self.config.players)])
            self._head_cells = [(p["x"], p["y"]) for p in self.game.players if p["alive"]]
        self.agents = list(self.possible_agents)
        observations = {a: self._observe(i) for i, a in enumerate(self.possible_agents)}
        infos: Dict[str, dict] = {a: {} for a in self.agents}
        return observations, infos

    def step(self, actions: Dict[str, Any]):
        assert self.game is not None, "reset() before step()"
        moves: List[Any] = [None] * self.config.players
        for a, act in actions.items():
            moves[self.possible_agents.index(a)] = int(act)
        before = list(self.agents)
        self.game.step(moves)
        players = self.game.players
        if self.obs_type == "planes":
            self._track(players)
        over = self.game.is_over
        winner = self.game.winner
        rewards: Dict[str, float] = {}
        terminations: Dict[str, bool] = {}
        truncations: Dict[str, bool] = {}
        at_cap = over and winner is None and any(p["alive"] for p in players)
        for a in before:
            i = self.possible_agents.index(a)
            alive = players[i]["alive"]
            if over:
                rewards[a] = 0.0 if winner is None else (1.0 if winner == i else -1.0)
            else:
                rewards[a] = 0.0 if alive else -1.0
            terminations[a] = (over and not at_cap) or not alive
            truncations[a] = at_cap and alive
        observations = {a: self._observe(self.possible_agents.index(a)) for a in before}
        infos = {a: {} for a in before}
        self.agents = [] if over else [a for a in before if players[self.possible_agents.index(a)]["alive"]]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return ansi(self.game.grid())

    def close(self) -> None:
        self.game = None


class VectorEnv(GymVectorEnv):
    """Many games stepped in one Rust call, as a ``gymnasium.vector.VectorEnv``
    for self-play: ``VectorEnv(num_envs, seed=0, copy=True, seat=None,
    render_mode=None, width=48, …)``.

    ``step(actions)`` takes an int array (num_envs, players), 0–3 or -1 for
    no move (every action is checked before any game moves), and returns
    (observations, rewards, terminations, truncations, infos).
    Observations are a dict: ``grid`` (num_envs, height, width) int8 (the
    values of obs["grid"]), ``heads`` (num_envs, players, 2) int16 (x, y),
    ``alive`` (num_envs, players) bool. Rewards are (num_envs, players), +1
    for the winner and -1 for the others when a game ends; with ``seat=k``
    they are seat k's alone, (num_envs,), the shape Gymnasium's reward
    wrappers (``RecordEpisodeStatistics``, ``NormalizeReward``) take.

    Autoreset is Gymnasium's ``NEXT_STEP`` (``metadata["autoreset_mode"]``):
    the step on which a game ends returns its final board, rewards and
    flags; the next step resets it with the next seed instead of moving
    it (its actions ignored, reward 0, no flags; ``infos["seed"]`` and the
    mask ``infos["_seed"]`` name the new games).

    ``copy=True`` returns fresh observation arrays each step; ``copy=False``
    the same read-only views each step, updated in place (faster; copy
    what you keep). Rewards and flags are fresh arrays each step either
    way, as in Gymnasium's own vector envs. Nothing written into a returned
    array reaches the games.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        num_envs: int,
        seed: int = 0,
        copy: bool = True,
        seat: Optional[int] = None,
        render_mode: Optional[str] = None,
        **config: Any,
    ) -> None:
        self.num_envs = num_envs
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not None or 'ansi'")
        self.config = Config(**config)
        n, h, w = self.config.players, self.config.height, self.config.width
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a player of {n}")
        self._env = _VectorEnv(num_envs, self.config, seed, copy)
        self.copy = copy
        self.seat = seat
        self.render_mode = render_mode
        self._grid: Optional[np.ndarray] = None
        self.single_action_space = spaces.MultiDiscrete([4] * n)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = spaces.Dict(
            {
                "grid": spaces.Box(-2, 7, (h, w), np.int8),
                "heads": spaces.Box(0, 255, (n, 2), np.int16),
                "alive": spaces.MultiBinary(n),
            }
        )
        self.observation_space = batch_space(self.single_observation_space, num_envs)

    @property
    def seeds(self) -> List[int]:
        """The seed of each game in play."""
        return self._env.seeds

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Starts every game again: with ``seed``, game i gets seed+i (and
        ``np_random`` is seeded); without, the games go on with the seeds
        not played yet (the env's own before its first step)."""
        super().reset(seed=seed)
        obs, infos = self._env.reset(seed)
        self._grid = obs["grid"]
        return obs, infos

    def step(self, actions: Any):
        obs, rewards, terminations, truncations, infos = self._env.step(np.asarray(actions, dtype=np.int64))
        if self.seat is not None:
            rewards = rewards[:, self.seat]
        self._grid = obs["grid"]
        return obs, rewards, terminations, truncations, infos

    def render(self) -> Optional[tuple]:
        """With ``render_mode="ansi"``, each game's board as text."""
        if self.render_mode != "ansi" or self._grid is None:
            return None
        return tuple(ansi(board) for board in self._grid)


def ansi(grid: np.ndarray) -> str:
    """A board as text: ``.`` empty, ``#`` rock, a player's id for its trail."""
    chars = {EMPTY: ".", ROCK: "#"}
    return "\n".join("".join(chars.get(int(v), str(int(v))) for v in row) for row in grid)


__all__ = ["LightCyclesEnv", "PLANES", "VectorEnv", "ansi", "parallel_env", "planes"]
