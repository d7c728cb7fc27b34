"""``VectorEnv``: many Spades tables stepped at once in numba, with gymnasium's vector API.

>>> from spades_ai.learn import VectorEnv
>>> env = VectorEnv(8, seats=(0,))
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, info["seat"].tolist()
((8, 567), (8, 68), [0, 0, 0, 0, 0, 0, 0, 0])
>>> actions = info["action_mask"].argmax(axis=1)          # the lowest legal action of each table
>>> obs, reward, terminated, truncated, info = env.step(actions)

Every table of the rules is played (``rules``: a ``Rules`` or a preset's name); the vector and
the actions are the table's (``env.layout``, ``spades_ai.encoding.observation_layout``):

>>> three = VectorEnv(2, seats=(2,), rules="cutthroat")
>>> obs, info = three.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, info["points"].shape
((2, 455), (2, 72), (2, 3))

The learner controls ``seats`` (one seat, a partnership, or every seat: self-play); the other
seats are played inside the same numba loop by ``others`` (a built-in name, a kernel agent, a
``Mixed`` of kernel agents, or one of them per seat). Each step, every table's seat to act
(``info["seat"]``) is a controlled seat; ``obs`` is its observation vector
(``spades_ai.learn.encoding``: exactly ``interop.encoding.observation_vector``) and
``info["action_mask"]`` its legal actions (ids 0..67 at 13 cards each). An episode is one hand
(``episode="hand"``) or one match (``episode="match"``: scores and bags carried, the dealer
rotating, until a side wins). The reward of a step is the hand's points (bag penalties
included), when a hand ends in it, for the side of the seat that acted; ``info["points"]`` gives
every side's. Autoreset is gymnasium's next-step mode: the step after ``terminated`` or
``truncated`` starts the table's next episode and ignores its action (the mask of an ended
table allows every action, so a sampler never sees an empty mask). ``reset(options={"reset_mask":
mask})`` starts the next episode of the tables it marks at once, whatever state they are in.

Tables never depend on each other: table ``t``'s episode ``k`` plays deal ``(t << 32) + k`` of
the seed (``info["deal_no"]``; ``sa.deal(seed, deal_no, rules)``, dealer ``k % players``) or, in
matches, match ``(t << 32) + k`` as ``play_matches`` deals it (``info["hand_no"]``: the hand
within it), so the same seed and actions give the same trajectory for a table whatever
``num_envs``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import ClassVar

import numpy as np

from spades_ai.policies.kernel_agent import KernelAgent, Mixed
from spades_ai.agents.registry import make_agent
from spades_ai.selfplay.codegen import bind
from spades_ai.cards import CardSet
from spades_ai.checks import check_seat, check_seed, is_int
from spades_ai.engine import state as _st
from spades_ai.encoding import Layout, check_rules, observation_layout
from spades_ai.errors import IllegalBidError, IllegalPlayError
from spades_ai.learn import encoding as enc
from spades_ai.learn import vector_loop as _vl
from spades_ai.rules import Rules

TEMPLATE = "spades_ai.learn.vector_loop"
EPISODES = ("hand", "match")


def check_seats(seats, rules: Rules | None = None) -> tuple[int, ...]:
    """The controlled seats: distinct seats of the table (ints; numpy integers too), at least one."""
    players = 4 if rules is None else rules.players
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise TypeError(f"seats must be a sequence of seats 0..{players - 1}, such as (0,) or (0, 1), not {seats!r}")
    given = [check_seat(s, f"each of seats {seats!r}", players) for s in seats]
    if not given or len(set(given)) != len(given):
        raise ValueError(f"seats must be distinct seats 0..{players - 1}, at least one, not {seats!r}")
    return tuple(sorted(given))


def check_action(action, name: str = "action", n_actions: int = enc.N_ACTIONS) -> int:
    """An action as an int: a Python or numpy integer, or a 0-d integer array. A bool, a float,
    a string or anything else raises ``ValueError`` naming it (nothing is rounded or parsed);
    whether the int is a legal action is for the environment to say."""
    value = action[()] if isinstance(action, np.ndarray) and action.ndim == 0 else action
    if not is_int(value):
        raise ValueError(f"{name} must be an int (an action id 0..{n_actions - 1}), not {action!r} ({type(value).__name__})")
    return int(value)


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


def _roles(others, seats, rules: Rules) -> list[tuple[KernelAgent, KernelAgent] | None]:
    """(bidder, player) per seat, None at a controlled seat."""
    players = rules.players
    if isinstance(others, (str, Mixed)) or not isinstance(others, (list, tuple)):
        others = [others] * players
    others = list(others)
    if len(others) != players:
        raise ValueError(f"others is one agent or one per seat ({players}), not {len(others)}")
    roles = []
    for seat, a in enumerate(others):
        if seat in seats:
            roles.append(None)
        elif isinstance(a, Mixed):
            roles.append((_kernel_part(a.bidder, seat), _kernel_part(a.player, seat)))
        else:
            k = _kernel_part(a, seat)
            roles.append((k, k))
    for pair in roles:
        for agent in pair or ():
            agent.check_table(rules)
    return roles


def _key(agent: KernelAgent):
    return agent.kernels_key(), agent.params.tobytes()


class Lineup:
    """The other seats' slots, params and the compiled loop for their kernel agents."""

    def __init__(self, others, seats, rules: Rules):
        roles = _roles(others, seats, rules)
        first = {}
        for pair in roles:
            for a in pair or ():
                first.setdefault(_key(a), a)
        self.agents = list(first.values())
        slot_of = {k: i for i, k in enumerate(first)}
        self.slots = np.zeros((rules.players, 2), dtype=np.int64)
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
    return bind(TEMPLATE, agents, hot_caller=True)  # ``settle``, a ``hot_kernel``, calls the seats


# -- the environment --------------------------------------------------------------------------------
class VectorEnv:
    """``num_envs`` tables stepped in one numba call; see the module docstring.

    ``copy``: return fresh arrays each step (the default, as gymnasium's vector envs); with
    ``copy=False`` the environment's own output buffers, overwritten by the next step or reset,
    are returned. The legality of the next actions is checked against a mask the caller is
    never given, so editing a returned ``info["action_mask"]`` changes nothing.
    """

    metadata: ClassVar[dict] = {"autoreset_mode": "NextStep", "render_modes": []}
    render_mode = None

    def __init__(self, num_envs: int, seats: Sequence[int] = (0,), others="normal", rules: Rules | str | None = None,
                 episode: str = "hand", *, copy: bool = True):  # fmt: skip
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, not {num_envs!r}")
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        self.num_envs = int(num_envs)
        self.rules = check_rules(rules)
        #: the table's observation vector and actions (``spades_ai.encoding.observation_layout``)
        self.layout = observation_layout(self.rules)
        self.seats = check_seats(seats, self.rules)
        self.episode = episode
        self.copy = bool(copy)
        self.lineup = Lineup(others, self.seats, self.rules)
        self._ctrl = np.int64(sum(1 << s for s in self.seats))
        self._rules = self.rules.as_array()
        n = self.num_envs
        self._pubs = np.zeros((n, _st.N_PUBLIC), dtype=np.int64)
        self._hands = np.zeros((n, self.rules.decks * self.rules.players), dtype=np.uint64)  # levels (engine.copies)
        self._rows = np.zeros((n, _vl.ROW_WIDTH), dtype=np.int64)
        self._obs = np.zeros((n, self.layout.size), dtype=np.float32)
        self._masks = np.zeros((n, self.layout.n_actions), dtype=np.int8)  # what step checks: never handed out
        self._shown_masks = np.zeros_like(self._masks)  # copy=False: the mask buffer the caller gets
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._points = np.zeros((n, self.rules.n_sides), dtype=np.int64)
        self._err = np.zeros(_vl.ERR_SIZE, dtype=np.int64)
        self._seed: int | None = None

    @property
    def seed(self) -> int | None:
        """The seed of the last full ``reset`` (drawn from the OS when none was given)."""
        return self._seed

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start every table's first episode: ``(obs, info)``. Without a seed, one is drawn
        from the OS (see ``self.seed``).

        ``options={"reset_mask": mask}`` (gymnasium's partial reset; ``mask`` a bool array, one
        per table) starts instead the next episode of each table it marks, of the same seed,
        whatever its current one was (mid-hand, ended, or just refused an illegal action); the
        other tables are left as they are, and ``seed`` must be None.

        >>> env = VectorEnv(2)
        >>> _, info = env.reset(seed=1)
        >>> _, info = env.reset(options={"reset_mask": np.array([False, True])})
        >>> info["deal_no"].tolist()                            # table 1's episode 1
        [0, 4294967297]
        """
        restart = self._reset_mask(options)
        full = restart is None
        if full:
            self._seed = check_seed(seed) if seed is not None else int.from_bytes(os.urandom(8), "little")
            restart = np.ones(self.num_envs, dtype=np.bool_)
            obs = self._fresh(self._obs)
            points = self._fresh(self._points)
        else:
            if seed is not None:
                raise ValueError("a partial reset (options['reset_mask']) goes on with the seed of the last full reset: seed must be None")
            if self._seed is None:
                raise RuntimeError("call reset() without a reset_mask first: a partial reset needs a seed to go on with")
            obs = self._obs.copy() if self.copy else self._obs  # the other tables' observations stay
            points = self._points.copy() if self.copy else self._points
        ok = self.lineup.module.reset_kernel(self._batch(), self._tables(), obs, self._masks, self._err, restart, full)
        if not ok:
            self._raise_agent()
        points[restart] = 0
        self._obs, self._points = obs, points
        return obs, self._info()

    def _batch(self) -> _vl.Batch:
        """What the loop's kernels play every table by (``vector_loop.Batch``)."""
        return _vl.Batch(np.uint64(self._seed), self._ctrl, self.episode == "match", self.lineup.slots, self.lineup.params,
                         self._rules)  # fmt: skip

    def _tables(self) -> _vl.Tables:
        """The tables' state arrays, as the loop's kernels take them (``vector_loop.Tables``)."""
        return _vl.Tables(self._pubs, self._hands, self._rows)

    def _reset_mask(self, options) -> np.ndarray | None:
        """The tables a partial reset restarts (None: a full reset); unknown options raise."""
        if options is None:
            return None
        if not isinstance(options, dict) or set(options) - {"reset_mask"}:
            raise ValueError(f"options may only hold 'reset_mask' (a bool array, one per table), not {options!r}")
        mask = options.get("reset_mask")
        if mask is None:
            return None
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a bool array of {self.num_envs} (one per table), not {mask!r}")
        return mask.copy()

    def step(self, actions):
        """Every table takes its action: ``(obs, reward, terminated, truncated, info)``.

        ``actions``: one int per table, as an integer array (numpy's, or anything
        ``np.asarray`` makes one of) or a list or tuple of ints (numpy integers too); floats,
        bools and strings raise ``ValueError``. An action outside its table's mask raises
        ``IllegalBidError`` / ``IllegalPlayError`` naming the table, the seat and the action,
        and changes no table."""
        if self._seed is None:
            raise RuntimeError("call reset() before step()")
        given = self._check_actions(actions)
        if isinstance(given, list):  # an int beyond int64 is no action either way: -1 to the kernel
            ids = np.array([a if 0 <= a < self.layout.n_actions else -1 for a in given], dtype=np.int64)
        else:
            ids = given.astype(np.int64, copy=False)
        # copy=True: the kernel writes into fresh arrays (no second pass over the observations)
        obs, rewards, terminated, truncated, points = (
            self._fresh(a) for a in (self._obs, self._rewards, self._terminated, self._truncated, self._points)
        )
        out = _vl.Outputs(obs, self._masks, rewards, terminated, truncated, points, self._err)
        bad = self.lineup.module.step_kernel(ids, self._batch(), self._tables(), out)
        if bad == -2:
            self._raise_agent()
        if bad >= 0:
            raise self.illegal_error(int(bad), int(given[bad]))
        self._obs, self._rewards, self._terminated, self._truncated, self._points = obs, rewards, terminated, truncated, points
        return obs, rewards, terminated, truncated, self._info()

    def _check_actions(self, actions) -> np.ndarray | list[int]:
        """``actions`` as an integer array of ``num_envs``, or (a list or tuple) as a list of
        ints, each checked on its own so that a ``True`` among ints is refused too."""
        n = self.num_envs
        if isinstance(actions, (list, tuple)):
            if len(actions) != n:
                raise ValueError(f"actions must be {n} ints (one per table), not {len(actions)}")
            return [check_action(a, f"the action of table {t}", self.layout.n_actions) for t, a in enumerate(actions)]
        array = np.asarray(actions)
        if array.shape != (n,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"actions must be {n} ints (one per table), not {array.dtype} {array.shape}: {actions!r}")
        return array

    def _fresh(self, a: np.ndarray) -> np.ndarray:
        """A new array for the kernel to write (copy=True), else the environment's own buffer."""
        return np.empty_like(a) if self.copy else a

    def _info(self) -> dict:
        rows = self._rows
        if self.copy:
            shown = self._masks.copy()
        else:
            shown = self._shown_masks
            np.copyto(shown, self._masks)
        info = {
            "action_mask": shown,
            "seat": rows[:, _vl.V_SEAT].copy(),
            "deal_no": rows[:, _vl.V_JOB].copy(),
            "points": self._points,
        }
        if self.episode == "match":
            info["hand_no"] = rows[:, _vl.V_HAND_NO].copy()
        return info

    def illegal_error(self, t: int, action: int) -> IllegalBidError | IllegalPlayError:
        """The error for ``action`` (any int) refused at table ``t``: names the table, the seat,
        the action and the legal ones, and says that no table was changed."""
        seat = int(self._rows[t, _vl.V_SEAT])
        legal = np.flatnonzero(self._masks[t])
        bidding = self._pubs[t, _st.P_PHASE] == _st.PHASE_BIDDING
        error = IllegalBidError if bidding else IllegalPlayError
        return error(
            f"table {t}, seat {seat}: action {action} ({action_name(action, self.layout)}) is not legal here; legal: "
            f"{', '.join(f'{a} ({self.layout.action_to_string(a)})' for a in legal)}. No table was changed."
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
        return f"<VectorEnv {self.num_envs} tables of {self.layout.table}, seats {self.seats}, episode={self.episode!r}>"


def action_name(action: int, layout: Layout | None = None) -> str:
    """``action_to_string``, or ``not an action`` for an id outside the table's actions."""
    try:
        return (layout or observation_layout()).action_to_string(action)
    except ValueError:
        return "not an action"
