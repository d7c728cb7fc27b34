"""``VectorEnv``: many Spades tables stepped at once in numba, with gymnasium's vector API.

>>> from spades_ai.learn import VectorEnv
>>> env = VectorEnv(8, seats=(0,))
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, info["seat"].tolist()
((8, 567), (8, 68), [0, 0, 0, 0, 0, 0, 0, 0])
>>> actions = info["action_mask"].argmax(axis=1)          # the lowest legal action of each table
>>> obs, reward, terminated, truncated, info = env.step(actions)

The learner controls ``seats`` (one seat, a partnership, or all four: self-play); the other
seats are played inside the same numba loop by ``others`` (a built-in name, a kernel agent, a
``Mixed`` of kernel agents, or one of them per seat). Each step, every table's seat to act
(``info["seat"]``) is a controlled seat; ``obs`` is its observation vector
(``spades_ai.learn.encoding``: exactly ``interop.encoding.observation_vector``) and
``info["action_mask"]`` its legal actions (ids 0..67). An episode is one hand
(``episode="hand"``) or one match (``episode="match"``: scores and bags carried, the dealer
rotating, until a team wins). The reward of a step is the hand's points (bag penalties
included), when a hand ends in it, for the team of the seat that acted; ``info["points"]`` gives
both teams'. Autoreset is gymnasium's next-step mode: the step after ``terminated`` or
``truncated`` starts the table's next episode and ignores its action (the mask of an ended
table allows every action, so a sampler never sees an empty mask).

Tables never depend on each other: table ``t``'s episode ``k`` plays deal ``(t << 32) + k`` of
the seed (``info["deal_no"]``; ``sa.deal(seed, deal_no)``, dealer ``k % 4``) or, in matches,
match ``(t << 32) + k`` as ``play_matches`` deals it (``info["hand_no"]``: the hand within it),
so the same seed and actions give the same trajectory for a table whatever ``num_envs``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from spades_ai.policies.kernel_agent import KernelAgent, Mixed
from spades_ai.agents.registry import make_agent
from spades_ai.selfplay.codegen import bind
from spades_ai.cards import CardSet
from spades_ai.checks import check_seed
from spades_ai.engine import state as _st
from spades_ai.encoding import check_rules
from spades_ai.errors import IllegalBidError, IllegalPlayError
from spades_ai.learn import encoding as enc
from spades_ai.learn import vector_loop as _vl
from spades_ai.rules import Rules

TEMPLATE = "spades_ai.learn.vector_loop"
EPISODES = ("hand", "match")


def check_seats(seats) -> tuple[int, ...]:
    """The controlled seats: distinct seats 0..3, at least one."""
    try:
        out = tuple(sorted({int(s) for s in seats}))
    except TypeError:
        raise TypeError(f"seats must be a sequence of seats 0..3, such as (0,) or (0, 2), not {seats!r}") from None
    if not out or any(not 0 <= s < 4 for s in out) or len(out) != len(list(seats)):
        raise ValueError(f"seats must be distinct seats 0..3, at least one, not {seats!r}")
    return out


# -- the other seats ------------------------------------------------------------------------------
def _kernel_part(agent, seat: int) -> KernelAgent:
    if isinstance(agent, str):
        agent = make_agent(agent)
    if not isinstance(agent, KernelAgent):
        raise TypeError(
            f"seat {seat}: the environment plays the other seats inside numba, so they must be kernel agents "
            f"(a built-in name, kernel_agent(...) or a Mixed of them), not {agent!r}"
        )
    return agent


def _roles(others, seats) -> list[tuple[KernelAgent, KernelAgent] | None]:
    """(bidder, player) per seat, None at a controlled seat."""
    if isinstance(others, (str, Mixed)) or not isinstance(others, (list, tuple)):
        others = [others] * 4
    others = list(others)
    if len(others) != 4:
        raise ValueError(f"others is one agent or one per seat (4), not {len(others)}")
    roles = []
    for seat, a in enumerate(others):
        if seat in seats:
            roles.append(None)
        elif isinstance(a, Mixed):
            roles.append((_kernel_part(a.bidder, seat), _kernel_part(a.player, seat)))
        else:
            k = _kernel_part(a, seat)
            roles.append((k, k))
    return roles


def _key(agent: KernelAgent):
    return agent.kernels_key(), agent.params.tobytes()


class Lineup:
    """The other seats' slots, params and the compiled loop for their kernel agents."""

    def __init__(self, others, seats):
        roles = _roles(others, seats)
        first = {}
        for pair in roles:
            for a in pair or ():
                first.setdefault(_key(a), a)
        self.agents = list(first.values())
        slot_of = {k: i for i, k in enumerate(first)}
        self.slots = np.zeros((4, 2), dtype=np.int64)
        for seat, pair in enumerate(roles):
            if pair is not None:
                self.slots[seat] = slot_of[_key(pair[0])], slot_of[_key(pair[1])]
        width = max([1] + [len(a.params) for a in self.agents])
        self.params = np.zeros((max(1, len(self.agents)), width), dtype=np.int64)
        for k, a in enumerate(self.agents):
            self.params[k, : len(a.params)] = a.params
        self.module = loop_module(tuple(self.agents))

    def label(self, slot: int) -> str:
        return self.agents[slot].label


def _is_default_binding(agents) -> bool:
    """Whether ``_binding.py`` (Normal at every slot) already binds these agents."""
    normal = make_agent("normal")
    return all(a.kernels_key() == normal.kernels_key() for a in agents)


def loop_module(agents: tuple):
    """The loop module for these kernel agents (in slot order): the package's own for Normal
    (or nobody: self-play), else a copy bound to them (``selfplay.codegen.bind``)."""
    if _is_default_binding(agents):
        return _vl
    return bind(TEMPLATE, agents)


# -- the environment --------------------------------------------------------------------------------
class VectorEnv:
    """``num_envs`` tables stepped in one numba call; see the module docstring.

    ``copy``: return fresh arrays each step (the default, as gymnasium's vector envs); with
    ``copy=False`` the environment's own buffers, overwritten by the next step, are returned
    (``info["action_mask"]`` included: the next step checks the actions against it).
    """

    metadata: ClassVar[dict] = {"autoreset_mode": "NextStep", "render_modes": []}
    render_mode = None

    def __init__(self, num_envs: int, seats: Sequence[int] = (0,), others="normal", rules: Rules | None = None,
                 episode: str = "hand", *, copy: bool = True):  # fmt: skip
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, not {num_envs!r}")
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        self.num_envs = int(num_envs)
        self.seats = check_seats(seats)
        self.rules = check_rules(rules)
        self.episode = episode
        self.copy = bool(copy)
        self.lineup = Lineup(others, self.seats)
        self._ctrl = np.int64(sum(1 << s for s in self.seats))
        self._rules = self.rules.as_array()
        n = self.num_envs
        self._pubs = np.zeros((n, _st.N_PUBLIC), dtype=np.int64)
        self._hands = np.zeros((n, 4), dtype=np.uint64)
        self._rows = np.zeros((n, _vl.ROW_WIDTH), dtype=np.int64)
        self._obs = np.zeros((n, enc.OBSERVATION_SIZE), dtype=np.float32)
        self._masks = np.zeros((n, enc.N_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._points = np.zeros((n, 2), dtype=np.int64)
        self._err = np.zeros(_vl.ERR_SIZE, dtype=np.int64)
        self._seed: int | None = None

    @property
    def seed(self) -> int | None:
        """The seed of the last ``reset`` (drawn from the OS when none was given)."""
        return self._seed

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start every table's first episode: ``(obs, info)``. Without a seed, one is drawn
        from the OS (see ``self.seed``)."""
        self._seed = check_seed(seed) if seed is not None else int.from_bytes(os.urandom(8), "little")
        ok = self.lineup.module.reset_kernel(
            np.uint64(self._seed), self._ctrl, self.episode == "match", self.lineup.slots, self.lineup.params,
            self._rules, self._pubs, self._hands, self._rows, self._obs, self._masks, self._err,
        )  # fmt: skip
        if not ok:
            self._raise_agent()
        self._points[:] = 0
        return self._out(self._obs), self._info()

    def step(self, actions):
        """Every table takes its action: ``(obs, reward, terminated, truncated, info)``.

        An action outside its table's mask raises ``IllegalBidError`` / ``IllegalPlayError``
        naming the table, the seat and the action, and changes no table."""
        if self._seed is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} ints (one per table), not {actions.dtype} {actions.shape}")
        # copy=True: the kernel writes into fresh arrays (no second pass over the observations)
        fresh = np.empty_like if self.copy else (lambda a: a)
        obs, rewards, terminated, truncated, points = (
            fresh(a) for a in (self._obs, self._rewards, self._terminated, self._truncated, self._points)
        )
        bad = self.lineup.module.step_kernel(
            actions.astype(np.int64, copy=False), np.uint64(self._seed), self._ctrl, self.episode == "match",
            self.lineup.slots, self.lineup.params, self._rules, self._pubs, self._hands, self._rows, obs,
            self._masks, rewards, terminated, truncated, points, self._err,
        )  # fmt: skip
        if bad == -2:
            self._raise_agent()
        if bad >= 0:
            self._raise_illegal(int(bad), int(actions[bad]))
        self._obs, self._rewards, self._terminated, self._truncated, self._points = obs, rewards, terminated, truncated, points
        return obs, rewards, terminated, truncated, self._info()

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _info(self) -> dict:
        rows = self._rows
        info = {
            "action_mask": self._out(self._masks),
            "seat": rows[:, _vl.V_SEAT].copy(),
            "deal_no": rows[:, _vl.V_JOB].copy(),
            "points": self._points,
        }
        if self.episode == "match":
            info["hand_no"] = rows[:, _vl.V_HAND_NO].copy()
        return info

    def _raise_illegal(self, t: int, action: int):
        seat = int(self._rows[t, _vl.V_SEAT])
        legal = np.flatnonzero(self._masks[t])
        shown = action_name(action)
        bidding = self._pubs[t, _st.P_PHASE] == _st.PHASE_BIDDING
        error = IllegalBidError if bidding else IllegalPlayError
        raise error(
            f"table {t}, seat {seat}: action {action} ({shown}) is not legal here; legal: "
            f"{', '.join(f'{a} ({enc.action_to_string(a)})' for a in legal)}. No table was changed."
        )

    def _raise_agent(self):
        what, t, seat, action, slot = (int(x) for x in self._err)
        kind = "bid" if what == _vl.E_BID else "card"
        shown = str(action) if what == _vl.E_BID else str(CardSet(1 << self.rules.public_id(action)) if 0 <= action < 56 else action)
        error = IllegalBidError if what == _vl.E_BID else IllegalPlayError
        raise error(f"table {t}: agent {self.lineup.label(slot)!r} at seat {seat} chose an illegal {kind} {shown}")

    def close(self) -> None:
        """Nothing to release (gymnasium's API)."""

    def __repr__(self) -> str:
        return f"<VectorEnv {self.num_envs} tables, seats {self.seats}, episode={self.episode!r}>"


def action_name(action: int) -> str:
    """``action_to_string``, or ``not an action`` for an id outside 0..67."""
    try:
        return enc.action_to_string(action)
    except ValueError:
        return "not an action"
