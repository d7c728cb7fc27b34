"""Kernel agents: a bid and a play written as numba functions, run wherever a built-in runs.

Every built-in (random, easy, normal, hard, crazy) is one, made the same way as a researcher's
own (``kernel_agent``): the self-play loop of ``play_hands`` / ``play_matches`` calls their
kernels directly inside numba, Hard and Crazy can use any of them as the rollout policy, and
from Python ``agent.bid(obs)`` / ``agent.play(obs)`` run the same kernels, so the records are
the same whichever way a hand is driven. The signatures are in ``spades_ai.kernels``.
"""

from __future__ import annotations

import dataclasses
import inspect

import numba
import numpy as np

from spades_ai.capabilities import part, require_table
from spades_ai.cards import Card
from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, legal_bids
from spades_ai.engine.bits import U64
from spades_ai.engine.state import legal_now
from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.kernels import default_pass as default_pass_kernel
from spades_ai.observation import Observation
from spades_ai.policies.agent import default_pass

#: The arguments of a kernel agent's functions, without and with ``params``.
SIGNATURE = ("pub", "seat", "hand", "legal", "rules")


def _arity(fn, what: str, name: str) -> int:
    # with NUMBA_DISABLE_JIT=1, numba.njit hands back the plain function
    args = "pub, seat, hand, n, rules" if what == "pass_" else "pub, seat, hand, legal, rules"
    py = getattr(fn, "py_func", fn if numba.config.DISABLE_JIT else None)
    if py is None or not callable(fn):
        raise TypeError(
            f"kernel agent {name!r}: {what} must be a numba.njit function "
            f"{what}({args}), not {type(fn).__name__}"
        )
    n = len(inspect.signature(py).parameters)
    if n not in (5, 6):
        raise TypeError(
            f"kernel agent {name!r}: {what} takes ({args}) or, with params, "
            f"({args}, params); {py.__name__} takes {n} arguments"
        )
    return n


class KernelAgent:
    """An agent made of a numba ``bid`` and ``play`` (see ``spades_ai.kernels``), and
    optionally ``pass_`` (the cards it passes when the rules pass cards; by default
    ``kernels.default_pass``, its highest cards).

    ``params`` (an int64 array, read-only) is passed to them as a sixth argument when they
    take one. ``options`` are what made it (shown in ``repr`` and tournament labels).
    """

    def __init__(
        self, name: str, bid, play, *, pass_=None, params=None, options: dict | None = None, label: str | None = None
    ):
        if not isinstance(name, str) or not name:
            raise ValueError(f"a kernel agent needs a name, not {name!r}")
        self.name = name
        self.bid_kernel = bid
        self.play_kernel = play
        n_bid, n_play = _arity(bid, "bid", name), _arity(play, "play", name)
        if n_bid != n_play:
            raise TypeError(f"kernel agent {name!r}: bid and play must both take params, or neither")
        self.takes_params = n_bid == 6
        if pass_ is None:
            pass_ = default_pass_kernel
        self.pass_kernel = pass_
        self.pass_takes_params = _arity(pass_, "pass_", name) == 6
        if self.pass_takes_params and not self.takes_params:
            raise TypeError(f"kernel agent {name!r}: pass_ takes params, so bid and play must too")
        if params is None:
            if self.takes_params:
                raise TypeError(f"kernel agent {name!r}: its kernels take params: give params=...")
            params = np.zeros(1, dtype=np.int64)
        params = np.array(params, dtype=np.int64).reshape(-1)
        params.setflags(write=False)
        self.params = params
        self.options = dict(options or {})
        self._label = label

    #: The key in ``spades_ai.capabilities.PARTS`` of the tables the agent plays, or None for
    #: every table: ``check_table`` refuses every other table through ``require_table``.
    tables_part: str | None = None

    def check_table(self, rules) -> None:
        """Refuse (``TableError``), naming the agent and the table, a table the agent does not play."""
        if self.tables_part is not None:
            require_table(rules, dataclasses.replace(part(self.tables_part), name=f"agent {self.label!r}"))

    # -- from Python: the same kernels, checked --------------------------------------------
    def _args(self, obs: Observation, legal):
        self.check_table(obs.rules)
        base = (obs.public, obs.seat, obs.engine_cards, legal, obs.rules_array)
        return (*base, self.params) if self.takes_params else base

    def _bid_now(self, args: tuple) -> int:
        """The bid kernel called from Python with ``args`` (``_args``); an agent with one
        compiled entry for Python (``agents.ismcts``) calls that instead."""
        return int(self.bid_kernel(*args))

    def _play_now(self, args: tuple) -> int:
        """The play kernel called from Python with ``args`` (``_args``), as ``_bid_now``."""
        return int(self.play_kernel(*args))

    def blind_nil(self, obs: Observation) -> bool:
        """Asked before the seat sees its cards, when the rules allow it a blind nil."""
        self.check_table(obs.rules)
        legal = np.int64((1 << BLIND_NIL_BIT) | 1)
        args = (obs.public, obs.seat, U64(0), legal, obs.rules_array)
        return self._bid_now((*args, self.params) if self.takes_params else args) == BLIND_NIL_BIT

    def bid(self, obs: Observation) -> int:
        legal = _legal_bid_mask(obs)
        b = self._bid_now(self._args(obs, np.int64(legal)))
        if not (0 <= b <= obs.rules.cards_each and legal >> b & 1):
            raise IllegalBidError(f"kernel agent {self.name!r} at seat {obs.seat} bid {b}, which is not legal here")
        return b

    def pass_cards(self, obs: Observation) -> list[Card]:
        """The cards it passes (``obs.pass_count`` of its own) in a passing round."""
        self.check_table(obs.rules)
        n = obs.pass_count
        hand = obs.engine_cards
        args = (obs.public, obs.seat, hand, np.int64(n), obs.rules_array)
        mask = int(self.pass_kernel(*args, self.params) if self.pass_takes_params else self.pass_kernel(*args))
        deck = obs.rules.engine_deck
        if mask & ~int(hand) or mask.bit_count() != n:
            shown = " ".join(str(deck[c] if c < 56 and deck[c] else c) for c in range(64) if mask >> c & 1) or "no card"
            why = f"it passes {n} of its own cards"
            raise IllegalPassError(f"kernel agent {self.name!r} at seat {obs.seat} passed {shown}: {why}", "count", why)
        return [deck[c] for c in range(56) if mask >> c & 1]

    def play(self, obs: Observation) -> Card:
        legal = U64(legal_now(obs.public, obs.engine_cards, obs.rules_array))  # uint64, as in the loop
        c = self._play_now(self._args(obs, legal))
        deck = obs.rules.engine_deck  # an engine id (jokers and high deuces in the trump lane)
        if not (0 <= c < 56 and int(legal) >> c & 1):
            shown = str(deck[c] or c) if 0 <= c < 56 else str(c)
            raise IllegalPlayError(f"kernel agent {self.name!r} at seat {obs.seat} played {shown}, which is not legal here")
        return deck[c]

    # -- identity ----------------------------------------------------------------------------
    @property
    def label(self) -> str:
        """The name, with the options that made it: ``easy(careless=0.5)``."""
        if self._label is not None:
            return self._label
        return self.name + (f"({', '.join(f'{k}={v}' for k, v in self.options.items())})" if self.options else "")

    def kernels_key(self) -> tuple:
        """What the compiled self-play loop depends on: the functions (not the params)."""
        return (self.bid_kernel, self.play_kernel, self.pass_kernel, self.takes_params, self.pass_takes_params)

    def __repr__(self) -> str:
        return f"<KernelAgent {self.label}>"


def _legal_bid_mask(obs: Observation) -> int:
    return int(legal_bids(obs.seat, obs.engine_cards, obs.public, obs.rules_array)) & BID_BITS


def kernel_agent(name: str, bid, play, *, pass_=None, params=None) -> KernelAgent:
    """An agent from two numba functions ``bid(pub, seat, hand, legal, rules) -> int`` and
    ``play(pub, seat, hand, legal, rules) -> card id`` (read ``pub``, ``hand`` and ``rules``
    through ``spades_ai.kernels``). With ``params`` (ints), both take it as a sixth argument.

    Optional: ``pass_(pub, seat, hand, n, rules[, params]) -> uint64``, the mask of the ``n``
    cards the seat passes when the rules pass cards (``Rules.pass_cards``, ``blind_pass``).
    Without it the agent passes ``spades_ai.kernels.default_pass``: its ``n`` highest cards.
    A blind nil is asked through ``bid`` (see ``spades_ai.kernels``).

    The agent runs inside the numba self-play loop of ``play_hands`` and ``play_matches``, in
    tournaments (as ``module:attribute``), in the bidding benchmark, from Python
    (``bid(obs)``, ``play(obs)``), in ``check_agent`` and as the rollout policy of Hard and
    Crazy (``make_agent("hard", rollout=agent)``). An illegal bid or card raises an error
    naming the agent, the seat and the action.
    """
    return KernelAgent(name, bid, play, pass_=pass_, params=params)


class Mixed:
    """An agent that bids like ``bid`` and plays like ``play`` (any two agents). The self-play
    loop runs each part the fastest way it can: a kernel part inside numba, a Python part
    asked from Python for its own decisions only. The bidding benchmark is built on it.

    >>> from spades_ai import make_agent
    >>> Mixed("hard-bids", make_agent("hard", worlds=8), make_agent("normal")).name
    'hard-bids'
    """

    def __init__(self, name: str, bid, play):
        self.name = name
        self.bidder = bid
        self.player = play

    def bid(self, obs: Observation) -> int:
        return self.bidder.bid(obs)

    def blind_nil(self, obs: Observation) -> bool:
        return bool(getattr(self.bidder, "blind_nil", lambda o: False)(obs))

    def pass_cards(self, obs: Observation):
        """Passes like the bidder: the pass is part of judging the hand before the bidding."""
        return self.bidder.pass_cards(obs) if hasattr(self.bidder, "pass_cards") else default_pass(obs)

    def play(self, obs: Observation):
        return self.player.play(obs)

    def __repr__(self) -> str:
        return f"<Mixed {self.name}: bids like {getattr(self.bidder, 'name', self.bidder)!s}, plays like {getattr(self.player, 'name', self.player)!s}>"
