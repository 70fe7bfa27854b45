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
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import gymnasium as gym
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec_wrapper
from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, BaseParallelWrapper, OrderEnforcingWrapper

from lightcycles._lightcycles import PLANES as _PLANES
from lightcycles._lightcycles import Config, Game
from lightcycles._lightcycles import GameBatch as _GameBatch
from lightcycles._lightcycles import _parallel_step
from lightcycles import window as _window
from lightcycles.window import Window

EMPTY = -1
ROCK = -2

#: The planes of a seat's observation, in order (``Game.planes``): its own
#: trail and head, the other players' trails and heads, walls (rocks, and
#: egocentric the cells off the board), the heads of the living players, the
#: cell behind each living head (against its direction).
PLANES = tuple(_PLANES)


class Observations:
    """The observation options every environment takes, checked once:
    ``obs_type`` ("planes" or "grid"), ``egocentric``, ``view``, ``dtype``
    (of planes: int8 or float32) and ``action_mask``."""

    def __init__(
        self,
        config: Config,
        obs_type: str = "planes",
        egocentric: bool = False,
        view: Optional[int] = None,
        dtype: Any = np.int8,
        action_mask: bool = False,
    ) -> None:
        if obs_type not in ("planes", "grid"):
            raise ValueError(f"obs_type {obs_type!r} is not 'planes' or 'grid'")
        self.obs_type = obs_type
        self.egocentric = egocentric
        self.view = view
        self.dtype = np.dtype(dtype)
        self.action_mask = action_mask
        if obs_type == "grid" and (egocentric or view is not None or self.dtype != np.int8):
            raise ValueError('egocentric, view and dtype are options of obs_type="planes"')
        # Game.planes checks the rest (view, dtype) as the VectorEnv does.
        self.shape = Game(config).planes(0, egocentric, view, self.dtype).shape
        n, h, w = config.players, config.height, config.width
        if obs_type == "planes":
            self.seat_space: spaces.Space[Any] = spaces.Box(0, 1, self.shape, self.dtype)
        else:
            self.seat_space = spaces.Dict(
                {
                    "grid": spaces.Box(-2, 7, (h, w), np.int8),
                    "heads": spaces.Box(0, 255, (n, 2), np.int16),
                    "dirs": spaces.Box(0, 3, (n,), np.int8),
                    "alive": spaces.MultiBinary(n),
                }
            )

    def kwargs(self) -> Dict[str, Any]:
        """The options as the Rust VectorEnv takes them."""
        if self.obs_type == "grid":
            return {"obs_type": "grid", "action_mask": self.action_mask}
        return {
            "obs_type": "planes",
            "egocentric": self.egocentric,
            "view": self.view,
            "dtype": self.dtype,
            "action_mask": self.action_mask,
        }


def planes(game: Game, you: int, egocentric: bool = False, view: Optional[int] = None, dtype: Any = np.int8) -> np.ndarray:
    """The planes of player ``you`` (:data:`PLANES`), as every environment
    observes them: ``game.planes(you, egocentric, view, dtype)``."""
    return game.planes(you, egocentric, view, dtype)


#: The render modes every environment takes: the board as text, as an
#: image drawn in Rust, or printed to the terminal (a display of its own).
RENDER_MODES = ["ansi", "rgb_array", "human"]

# Frames a second of the human window.
RENDER_FPS = 10


def _check_render_mode(render_mode: Optional[str]) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not None, {', '.join(map(repr, RENDER_MODES))}")


def _render(
    render_mode: Optional[str], board: np.ndarray, image: Callable[[], np.ndarray], window: Optional[Window]
) -> Any:
    """What render() gives in each mode: text, an image, or None after
    showing the image in ``window`` (human, where a display exists) or
    printing the board (human, elsewhere)."""
    if render_mode == "ansi":
        return ansi(board)
    if render_mode == "rgb_array":
        return image()
    if render_mode == "human":
        if window is not None and _window.available():
            window.show(image())
        else:
            print(ansi(board), end="\n\n", flush=True)
    return None


def parallel_env(**kwargs: Any) -> "LightCyclesEnv":
    """A PettingZoo ParallelEnv: ``parallel_env(width=48, height=36,
    players=2, max_ticks=2000 (or max_cycles), rock_density=4,
    fault_policy="straight", obs_type="planes", egocentric=False, view=None,
    dtype=np.int8, action_mask=False, render_mode=None)``."""
    return LightCyclesEnv(**kwargs)


def raw_env(**kwargs: Any) -> AECEnv:
    """The PettingZoo AEC form of :func:`parallel_env`, unwrapped (as
    PettingZoo environments have ``raw_env``)."""
    return parallel_to_aec_wrapper(parallel_env(**kwargs))


def env(**kwargs: Any) -> AECEnv:
    """The PettingZoo AEC environment: :func:`raw_env` with PettingZoo's
    checks of actions out of range and of the order of calls."""
    return OrderEnforcingWrapper(AssertOutOfBoundsWrapper(raw_env(**kwargs)))


class LightCyclesEnv(ParallelEnv):
    """LightCycles as a PettingZoo ParallelEnv.

    Agents are ``player_0`` … ``player_{n-1}``; an action is 0–3 (N, E, S,
    W). ``obs_type="planes"`` gives each agent its planes (:data:`PLANES`,
    ``Game.planes``; ``egocentric``, ``view`` and ``dtype`` as every env
    takes them); ``obs_type="grid"`` the board with every head, direction
    and who rides; ``obs_type="codeclash"`` the dict a CodeClash
    ``get_move`` receives (its space is then a placeholder Box, since the
    dict has no Gymnasium space). ``action_mask=True`` makes each
    observation ``{"observation": …, "action_mask": …}``, the mask four
    int8 (N, E, S, W), 1 for the moves that do not crash at once.

    Rewards: -1 to an agent on the tick it crashes (it is then terminated
    and leaves ``agents``); when the game ends, +1 to the winner and -1 to
    the others, or 0 to each on a draw; a game stopped at ``max_cycles``
    truncates the agents still riding.
    """

    metadata = {"name": "lightcycles_v0", "render_modes": RENDER_MODES, "render_fps": RENDER_FPS, "is_parallelizable": True}

    def __init__(
        self,
        obs_type: str = "planes",
        render_mode: Optional[str] = None,
        egocentric: bool = False,
        view: Optional[int] = None,
        dtype: Any = np.int8,
        action_mask: bool = False,
        max_cycles: Optional[int] = None,
        **config: Any,
    ) -> None:
        _check_render_mode(render_mode)
        if max_cycles is not None:
            # PettingZoo's name for the tick cap.
            if "max_ticks" in config:
                raise ValueError("give max_cycles or max_ticks, not both")
            config["max_ticks"] = max_cycles
        self.config = Config(**config)
        self.max_cycles = self.config.max_ticks
        if obs_type == "codeclash":
            if egocentric or view is not None or action_mask:
                raise ValueError('obs_type="codeclash" takes no egocentric, view or action_mask')
            self.obs: Optional[Observations] = None
        else:
            self.obs = Observations(self.config, obs_type, egocentric, view, dtype, action_mask)
        self.obs_type = obs_type
        o = self.obs
        self._plane_options = (
            (o.egocentric, o.view, o.dtype) if o is not None and o.obs_type == "planes" and not o.action_mask else None
        )
        self.render_mode = render_mode
        self._window = Window("lightcycles", RENDER_FPS) if render_mode == "human" else None
        self.possible_agents = [f"player_{i}" for i in range(self.config.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: List[str] = []
        self.game: Optional[Game] = None
        self._seed = 0
        self.state_space = spaces.Box(-2, 7, (self.config.height, self.config.width), np.int8)

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        if self.obs is None:
            return spaces.Box(low=0, high=1, shape=(4, self.config.height, self.config.width), dtype=np.int8)
        if self.obs.action_mask:
            return spaces.Dict({"observation": self.obs.seat_space, "action_mask": spaces.MultiBinary(4)})
        return self.obs.seat_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Discrete(4)

    def _observe(self, you: int) -> Any:
        game = self.game
        assert game is not None
        if self.obs is None:
            return game.observation(you)
        o = self.obs
        if o.obs_type == "planes":
            seen: Any = game.planes(you, o.egocentric, o.view, o.dtype)
        else:
            players = game.players
            seen = {
                "grid": game.grid(),
                "heads": np.array([[p["x"], p["y"]] for p in players], dtype=np.int16),
                "dirs": np.array(["NESW".index(p["dir"]) for p in players], dtype=np.int8),
                "alive": np.array([p["alive"] for p in players], dtype=bool),
            }
        if o.action_mask:
            return {"observation": seen, "action_mask": game.action_mask(you)}
        return seen

    def state(self) -> np.ndarray:
        """The whole board (height, width) int8, the values of obs["grid"]:
        every seat's trail, rocks, empty cells."""
        assert self.game is not None, "reset() before state()"
        return self.game.grid()

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Dict[str, Any]]]:
        if seed is not None:
            self._seed = seed
            for i, a in enumerate(self.possible_agents):
                self.action_space(a).seed(seed + i)
        self.game = Game(self.config, seed=self._seed)
        self._seed += 1
        self.agents = list(self.possible_agents)
        observations = {a: self._observe(i) for i, a in enumerate(self.possible_agents)}
        infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        return observations, infos

    def step(self, actions: Dict[str, Any]) -> Tuple[Any, Any, Any, Any, Any]:
        game = self.game
        assert game is not None, "reset() before step()"
        # The tick and PettingZoo's dicts in one Rust call (a loop here was
        # most of a step), with the rewards the class docstring gives.
        observations, rewards, terminations, truncations, infos, self.agents = _parallel_step(
            game, self._seat, self.agents, actions, self._observe, self._plane_options
        )
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Any:
        """``ansi``: the board as text; ``rgb_array``: an image (drawn in
        Rust, 8 pixels a cell); ``human``: that image in a window where a
        display exists (pygame), else the board printed."""
        if self.game is None:
            return None
        game = self.game
        return _render(self.render_mode, game.grid(), game.rgb_array, self._window)

    def close(self) -> None:
        self.game = None
        if self._window is not None:
            self._window.close()


class BlackDeath(BaseParallelWrapper):
    """Keeps every agent in the game until it ends: an agent out of it gets
    zero observations, reward 0 and no flags, and when the game ends every
    agent is done. What SuperSuit's ``pettingzoo_env_to_vec_env_v1`` needs
    for games of more than two (an agent that crashes leaves the others
    riding). SuperSuit's own ``black_death_v3`` ends an episode only when
    every agent is both terminated *and* truncated
    (``(terminations & truncations).all()``), which no game sets, so it
    steps a finished game: use ``black_death(env)`` instead."""

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Dict[str, Any]]]:
        obs, infos = self.env.reset(seed=seed, options=options)
        self.agents = list(self.env.possible_agents)
        return obs, infos

    def step(self, actions: Dict[str, Any]) -> Tuple[Any, Any, Any, Any, Any]:
        inner = self.env
        obs, rewards, terminations, truncations, infos = inner.step(
            {a: act for a, act in actions.items() if a in inner.agents}
        )
        over = not inner.agents
        out = {}
        for a in self.agents:
            out[a] = obs[a] if a in obs else np.zeros_like(self.observation_space(a).low)
        rews = {a: rewards.get(a, 0.0) for a in self.agents}
        # In play, nobody is done; at the end, everybody is, as the game says
        # (an agent out earlier was terminated).
        terms = {a: over and terminations.get(a, True) for a in self.agents}
        truncs = {a: over and truncations.get(a, False) for a in self.agents}
        infos = {a: infos.get(a, {}) for a in self.agents}
        if over:
            self.agents = []
        return out, rews, terms, truncs, infos


def black_death(env: ParallelEnv) -> BlackDeath:
    """``env`` with every agent kept until the game ends (:class:`BlackDeath`)."""
    return BlackDeath(env)


class VectorEnv(GymVectorEnv):
    """Many games stepped in one Rust call, as a ``gymnasium.vector.VectorEnv``
    for self-play: ``VectorEnv(num_envs, seed=0, copy=True, seat=None,
    render_mode=None, obs_type="grid", egocentric=False, view=None,
    dtype=np.int8, action_mask=False, width=48, …)``.

    ``step(actions)`` takes an int array (num_envs, players), 0–3 or -1 for
    no move (every action is checked before any game moves), and returns
    (observations, rewards, terminations, truncations, infos).
    Observations are a dict. ``obs_type="grid"``: ``grid`` (num_envs,
    height, width) int8 (the values of obs["grid"]), ``heads`` (num_envs,
    players, 2) int16 (x, y), ``dirs`` (num_envs, players) int8 (0–3),
    ``alive`` (num_envs, players) bool. ``obs_type="planes"``: ``planes``
    (num_envs, players, 5, rows, columns), every seat's planes as
    ``Game.planes`` gives them. ``action_mask=True`` adds ``action_mask``
    (num_envs, players, 4) int8, as ``Game.action_mask``. Rewards are (num_envs, players), +1
    for the winner and -1 for the others when a game ends; with ``seat=k``
    they are seat k's alone, (num_envs,), the shape Gymnasium's reward
    wrappers (``RecordEpisodeStatistics``, ``NormalizeReward``) take.

    Resets cost about a copy: game k of a seed replays game k mod
    ``map_pool`` (4096) of that seed, made once when first played
    (``map_pool=0``: every game from its own seed).

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

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(
        self,
        num_envs: int,
        seed: int = 0,
        copy: bool = True,
        seat: Optional[int] = None,
        render_mode: Optional[str] = None,
        obs_type: str = "grid",
        egocentric: bool = False,
        view: Optional[int] = None,
        dtype: Any = np.int8,
        action_mask: bool = False,
        opponent: Any = None,
        time_ms: int = 50,
        map_pool: int = 4096,
        **config: Any,
    ) -> None:
        self.num_envs = num_envs
        if opponent is not None and seat is None:
            seat = 0
        _check_render_mode(render_mode)
        self.config = Config(**config)
        n = self.config.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a player of {n}")
        self.obs = Observations(self.config, obs_type, egocentric, view, dtype, action_mask)
        extra = {} if opponent is None else {"opponent": opponent, "seat": seat, "time_ms": time_ms}
        self._env = _GameBatch(num_envs, self.config, seed, copy, **self.obs.kwargs(), **extra, map_pool=map_pool)
        self.copy = copy
        self.seat = seat
        self.opponent = opponent
        self.render_mode = render_mode
        self._window: Optional[Window] = None
        # Against an opponent the env is the learner's seat alone.
        seats = () if opponent is None else (n,)
        self.single_action_space = spaces.Discrete(4) if opponent is not None else spaces.MultiDiscrete([4] * n)
        self.action_space = batch_space(self.single_action_space, num_envs)
        if obs_type == "grid":
            assert isinstance(self.obs.seat_space, spaces.Dict)
            keys = dict(self.obs.seat_space.spaces)
        else:
            keys = {"planes": spaces.Box(0, 1, seats or (n,) + self.obs.shape, self.obs.dtype)}
            if opponent is not None:
                keys["planes"] = spaces.Box(0, 1, self.obs.shape, self.obs.dtype)
        if action_mask:
            keys["action_mask"] = spaces.MultiBinary(4 if opponent is not None else (n, 4))
        self.single_observation_space = spaces.Dict(keys)
        self.observation_space = batch_space(self.single_observation_space, num_envs)

    @property
    def seeds(self) -> List[int]:
        """The seed of each game in play."""
        return self._env.seeds

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        """Starts every game again: with ``seed``, game i gets seed+i (and
        ``np_random`` is seeded); without, the games go on with the seeds
        not played yet (the env's own before its first step)."""
        super().reset(seed=seed)
        obs, infos = self._env.reset(seed)
        return self._learner(obs), infos

    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, Any]:
        actions = np.asarray(actions, dtype=np.int64)
        if self.opponent is not None:
            # The opponent's seats are the bots' (-1 here, their answers in Rust).
            full = np.full((self.num_envs, self.config.players), -1, dtype=np.int64)
            full[:, self.seat] = actions
            actions = full
        obs, rewards, terminations, truncations, infos = self._env.step(actions)
        if self.seat is not None:
            rewards = rewards[:, self.seat]
        return self._learner(obs), rewards, terminations, truncations, infos

    def _learner(self, obs: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        """Against an opponent, the learner's planes and mask alone."""
        if self.opponent is None:
            return obs
        for key in ("planes", "action_mask"):
            if key in obs:
                obs[key] = obs[key][:, self.seat]
        return obs

    def render(self) -> Optional[Tuple[Any, ...]]:
        """Each game's board: as text (``ansi``), as an image
        (``rgb_array``), or, for ``human`` (which returns None), the first
        16 games' images side by side in a window where a display exists
        (pygame), else every board printed."""
        if self.render_mode is None:
            return None
        if self.render_mode == "human" and _window.available():
            if self._window is None:
                self._window = Window("lightcycles", RENDER_FPS)
            self._window.show(_window.tile([self._env.rgb_array(i) for i in range(min(self.num_envs, 16))]))
            return None
        frames = tuple(
            _render(self.render_mode, self._env.board(i), functools.partial(self._env.rgb_array, i), None)
            for i in range(self.num_envs)
        )
        return None if self.render_mode == "human" else frames

    def close_extras(self, **kwargs: Any) -> None:
        if self._window is not None:
            self._window.close()


class DuelEnv(gym.Env):
    """One game against an opponent, as a Gymnasium ``Env``:
    ``gymnasium.make("lightcycles/Duel-v0", opponent="builtin:floodfill")``
    (``import lightcycles.env`` registers it).

    ``opponent`` is any bot ``lightcycles.play`` takes: a spec the host
    accepts (``builtin:random``, ``builtin:floodfill``,
    ``builtin:search:nodes=N``, … stepped in Rust; a program or a plugin)
    or a Python callable ``get_move(obs) -> str``; it plays every seat but
    ``seat`` (0). Actions are 0–3 (N, E, S, W); the reward is +1 for a win,
    -1 for a loss, 0 for a draw, on the last step. Observations take the
    options of every env (``obs_type="planes"`` by default; with
    ``action_mask=True`` a dict of ``planes`` and ``action_mask``; with
    ``obs_type="grid"`` the board, heads, dirs and alive of every seat).
    ``reset(seed=S)`` plays the game of seed S; ``reset()`` the next one.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(
        self,
        opponent: Any = "builtin:floodfill",
        seat: int = 0,
        render_mode: Optional[str] = None,
        obs_type: str = "planes",
        egocentric: bool = False,
        view: Optional[int] = None,
        dtype: Any = np.int8,
        action_mask: bool = False,
        time_ms: int = 50,
        seed: int = 0,
        map_pool: int = 4096,
        **config: Any,
    ) -> None:
        _check_render_mode(render_mode)
        self._venv = VectorEnv(
            1,
            seed=seed,
            seat=seat,
            obs_type=obs_type,
            egocentric=egocentric,
            view=view,
            dtype=dtype,
            action_mask=action_mask,
            opponent=opponent,
            time_ms=time_ms,
            map_pool=map_pool,
            **config,
        )
        self.config = self._venv.config
        self.render_mode = render_mode
        self._window: Optional[Window] = None
        self.action_space = self._venv.single_action_space
        space = self._venv.single_observation_space
        # Planes alone are the observation; with a mask (or the grid) a dict.
        self._bare = obs_type == "planes" and not action_mask
        self.observation_space = space["planes"] if self._bare else space  # type: ignore[index]
        self._over = True

    def _first(self, obs: Dict[str, np.ndarray]) -> Any:
        return obs["planes"][0] if self._bare else {k: v[0] for k, v in obs.items()}

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        super().reset(seed=seed)
        obs, infos = self._venv.reset(seed=seed)
        self._over = False
        return self._first(obs), {"seed": int(infos["seed"][0])}

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        if self._over:
            raise RuntimeError("the game is over: reset() before step()")
        obs, rewards, terminations, truncations, _ = self._venv.step(np.array([action], dtype=np.int64))
        self._over = bool(terminations[0] or truncations[0])
        return self._first(obs), float(rewards[0]), bool(terminations[0]), bool(truncations[0]), {}

    def render(self) -> Any:
        """The board: text (``ansi``), an image (``rgb_array``), or printed
        (``human``)."""
        inner = self._venv._env
        if self._window is None and self.render_mode == "human":
            self._window = Window("lightcycles", RENDER_FPS)
        return _render(self.render_mode, inner.board(0), functools.partial(inner.rgb_array, 0), self._window)

    def close(self) -> None:
        if self._window is not None:
            self._window.close()


def duel_vector_env(num_envs: int, opponent: Any = "builtin:floodfill", **kwargs: Any) -> VectorEnv:
    """``gymnasium.make_vec("lightcycles/Duel-v0", num_envs, opponent=…)``:
    the VectorEnv against ``opponent`` (planes by default)."""
    kwargs.setdefault("obs_type", "planes")
    return VectorEnv(num_envs, opponent=opponent, **kwargs)


if "lightcycles/Duel-v0" not in gym.registry:
    gym.register(
        id="lightcycles/Duel-v0",
        entry_point="lightcycles.env:DuelEnv",
        vector_entry_point="lightcycles.env:duel_vector_env",
    )


def ansi(grid: np.ndarray) -> str:
    """A board as text: ``.`` empty, ``#`` rock, a player's id for its trail."""
    chars = {EMPTY: ".", ROCK: "#"}
    return "\n".join("".join(chars.get(int(v), str(int(v))) for v in row) for row in grid)


__all__ = [
    "BlackDeath",
    "DuelEnv",
    "LightCyclesEnv",
    "Observations",
    "PLANES",
    "RENDER_MODES",
    "VectorEnv",
    "ansi",
    "black_death",
    "duel_vector_env",
    "env",
    "parallel_env",
    "planes",
    "raw_env",
]
