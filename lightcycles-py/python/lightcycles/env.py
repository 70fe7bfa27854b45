"""Environments for reinforcement learning: a PettingZoo ``ParallelEnv`` and a
batched ``VectorEnv`` in Gymnasium's vector style.

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
        chars = {EMPTY: ".", ROCK: "#"}
        rows = ["".join(chars.get(v, str(v)) for v in row) for row in self.game.grid()]
        return "\n".join(rows)

    def close(self) -> None:
        self.game = None


class VectorEnv:
    """Many games stepped in one Rust call, in Gymnasium's vector style:
    ``VectorEnv(num_envs, seed=0, width=48, …)``.

    ``step(actions)`` takes an int array (num_envs, players), 0–3 or -1 for
    no move, and returns (observations, rewards, terminations, truncations,
    infos). Observations are a dict of arrays written in place each step
    (copy them to keep them): ``grid`` (num_envs, height, width) int8,
    ``heads`` (num_envs, players, 2) int16, ``alive`` (num_envs, players).
    A game that ends is reset in the same step with the next seed; its
    rewards and flags say how it ended, ``infos["ended"]`` which games.
    """

    def __init__(self, num_envs: int, seed: int = 0, **config: Any) -> None:
        self.config = Config(**config)
        self._env = _VectorEnv(num_envs, self.config, seed)
        self.num_envs = num_envs
        n, h, w = self.config.players, self.config.height, self.config.width
        self.single_action_space = spaces.MultiDiscrete([4] * n)
        self.action_space = spaces.MultiDiscrete(np.full((num_envs, n), 4))
        self.single_observation_space = spaces.Dict(
            {
                "grid": spaces.Box(-2, 7, (h, w), np.int8),
                "heads": spaces.Box(0, 255, (n, 2), np.int16),
                "alive": spaces.MultiBinary(n),
            }
        )
        self.observation_space = spaces.Dict(
            {
                "grid": spaces.Box(-2, 7, (num_envs, h, w), np.int8),
                "heads": spaces.Box(0, 255, (num_envs, n, 2), np.int16),
                "alive": spaces.MultiBinary((num_envs, n)),
            }
        )

    @property
    def seeds(self) -> List[int]:
        """The seed of each game in play."""
        return self._env.seeds

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        return self._env.reset(seed)

    def step(self, actions: np.ndarray):
        return self._env.step(np.asarray(actions, dtype=np.int64))

    def close(self) -> None:
        pass


__all__ = ["LightCyclesEnv", "PLANES", "VectorEnv", "parallel_env", "planes"]
