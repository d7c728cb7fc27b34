"""``SpadesEnv``: one table of ``VectorEnv`` as a gymnasium ``Env``. Needs
``pip install "spades-ai[learn]"`` (gymnasium is imported here only).

>>> from spades_ai.learn import SpadesEnv
>>> env = SpadesEnv(seat=0)
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum())           # the first decision: 14 bids
((567,), 14)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The table is ``rules`` (a ``Rules`` or a preset's name: ``SpadesEnv(rules="cutthroat")``), with
``players`` and ``teams`` set on it if given (``SpadesEnv(players=6, teams="pairs")``). Gymnasium
makes it by id, with the same keyword arguments (the id is registered when this module is
imported; ``"spades_ai.learn.gym_env:spades_ai/Spades-v0"`` imports it first)::

    gymnasium.make("spades_ai.learn.gym_env:spades_ai/Spades-v0", players=3)

One episode is one hand at ``seat`` (the other seats played by ``others`` inside numba);
``reset(seed=s)`` deals deal 0 of ``s`` (``reset()`` first: of a seed drawn from the env's
generator), and each later ``reset()`` the next deal of it, whatever happened to the hand before
(played out, abandoned mid-hand, or ended by an illegal action). The observation is the table's
vector (``spades_ai.encoding.observation_layout``: 567 floats at four in pairs) and
``info["action_mask"]`` the legal actions (``Discrete(68)`` there, ``Layout.n_actions`` at any table). An action is an int (a numpy integer too); a float, a bool or a string raises
``ValueError``. An int outside the mask ends the episode at once with reward
``illegal_reward`` and ``info["illegal"] = True`` (so that an unmasked sampler, gymnasium's
``check_env`` included, plays on), or, with ``illegal="raise"``, raises the environment's error
(``IllegalBidError`` / ``IllegalPlayError``) and changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from spades_ai.checks import check_seat
from spades_ai.encoding import Layout, check_rules, table_rules
from spades_ai.learn.env import VectorEnv, check_action
from spades_ai.rules import Rules

ILLEGAL = ("end", "raise")
#: gymnasium's id of ``SpadesEnv`` (keyword arguments: the table and the env's own)
ENV_ID = "spades_ai/Spades-v0"


class SpadesEnv(gym.Env):
    """One hand of Spades at ``seat`` per episode; see the module docstring."""

    metadata: ClassVar[dict] = {"render_modes": []}

    def __init__(self, seat: int = 0, others="normal", rules: Rules | str | None = None, *, players: int | None = None,
                 teams: bool | str | None = None, illegal: str = "end", illegal_reward: float = -1000.0):  # fmt: skip
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
        rules = check_rules(table_rules(rules, players, teams))
        self.vector = VectorEnv(1, seats=(check_seat(seat, "seat", rules.players),), others=others, rules=rules)
        self.seat = self.vector.seats[0]
        self.rules = rules
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.observation_space, self.action_space = spaces_of(self.vector.layout)
        self._ended = True
        self._info: dict | None = None
        self._obs: np.ndarray | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal 0 of ``seed``, or (no seed) the next deal of the last one: ``(obs, info)``."""
        if options:
            raise ValueError(f"SpadesEnv.reset takes no options, not {options!r}")
        super().reset(seed=seed)
        if seed is not None or self.vector.seed is None:
            # a new seed (given, or drawn from the env's generator): its deal 0
            s = seed if seed is not None else int(self.np_random.integers(0, 2**63))
            obs, info = self.vector.reset(seed=s)
        else:  # the next deal of the seed, wherever the last hand stopped
            obs, info = self.vector.reset(options={"reset_mask": np.ones(1, dtype=np.bool_)})
        self._ended = False
        return self._one(obs, info)

    def step(self, action):
        """The seat takes ``action`` (an int, see the module docstring): gymnasium's five values."""
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        n_actions = self.vector.layout.n_actions
        action = check_action(action, n_actions=n_actions)
        if not (0 <= action < n_actions and self._info["action_mask"][action]):
            if self.illegal == "raise":
                raise self.vector.illegal_error(0, action)
            self._ended = True
            info = {**self._info, "action_mask": np.zeros(n_actions, dtype=np.int8), "illegal": True}
            return self._obs.copy(), self.illegal_reward, True, False, info
        obs, reward, terminated, truncated, info = self.vector.step(np.array([action], dtype=np.int64))
        self._ended = bool(terminated[0] or truncated[0])
        obs, info = self._one(obs, info)
        return obs, float(reward[0]), bool(terminated[0]), bool(truncated[0]), info

    def _one(self, obs, info) -> tuple[np.ndarray, dict]:
        self._info = {k: (v[0].copy() if v.ndim > 1 else v[0].item()) for k, v in info.items()}
        self._info["illegal"] = False
        self._obs = obs[0].copy()
        return self._obs.copy(), {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in self._info.items()}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array (the name maskable-PPO implementations call):
        none once the episode is over, until ``reset()``."""
        if self._ended:
            return np.zeros(self.vector.layout.n_actions, dtype=bool)
        return self._info["action_mask"].astype(bool)


def with_spaces(env: VectorEnv) -> VectorEnv:
    """``env`` with gymnasium's space attributes set (``single_observation_space``,
    ``single_action_space``, ``observation_space``, ``action_space``), for libraries that read
    them; ``VectorEnv`` itself imports no gymnasium.

    >>> env = with_spaces(VectorEnv(4))
    >>> env.observation_space.shape, env.action_space
    ((4, 567), MultiDiscrete([68 68 68 68]))
    """
    env.single_observation_space, env.single_action_space = spaces_of(env.layout)
    env.observation_space = gym.vector.utils.batch_space(env.single_observation_space, env.num_envs)
    env.action_space = gym.vector.utils.batch_space(env.single_action_space, env.num_envs)
    return env


def spaces_of(layout: Layout) -> tuple[spaces.Box, spaces.Discrete]:
    """The observation and action spaces of one table (``observation_layout``)."""
    return spaces.Box(layout.low, layout.high, (layout.size,), np.float32), spaces.Discrete(layout.n_actions)


if ENV_ID not in gym.registry:
    gym.register(ENV_ID, entry_point=SpadesEnv, disable_env_checker=False)
