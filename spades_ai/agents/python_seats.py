"""Python agents inside the numba self-play loop: the ``objmode`` callback and its registry.

``play_hands`` registers the lineup's Python agents (``seated``) for the length of a call; the
generated loop calls ``python_decision`` for their seats with the engine's arrays, and the
agent gets an ``Observation`` built from them (the public array copied, the play history
decoded only if it reads ``obs.plays``). A bid or card that is not even a bid or a card raises
here; one that is illegal is caught by the loop like a kernel agent's.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from spades_ai.cards import cards_to_mask, to_card
from spades_ai.engine.bids import BLIND_NIL_BIT
from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.observation import Observation

_LOCAL = threading.local()


@contextlib.contextmanager
def seated(agents: dict, rules):
    """Register ``{slot: agent}`` (and the rules) for the loop run inside the ``with``."""
    saved = getattr(_LOCAL, "table", None)
    _LOCAL.table = (agents, rules)
    try:
        yield
    finally:
        _LOCAL.table = saved


def python_decision(slot, what, pub, seat, hand, legal, seq, n_seq) -> int:
    """The Python agent in ``slot`` decides: ``what`` 0 is a bid (with ``hand == 0`` and the
    blind-nil bit in ``legal``: the blind-nil question), 1 a card, 2 a pass (``legal`` is the
    number of cards). Returns a bid, a card id or the mask of the cards passed."""
    agents, rules = _LOCAL.table
    agent = agents[int(slot)]
    seat = int(seat)
    if what == 2:
        from spades_ai.agents.registry import default_pass

        obs = Observation(seat, int(hand), pub, rules, history=(seq, int(n_seq)))
        cards = agent.pass_cards(obs) if hasattr(agent, "pass_cards") else default_pass(obs)
        name = getattr(agent, "name", type(agent).__name__)
        try:
            return cards_to_mask(cards)
        except (ValueError, TypeError) as exc:
            raise IllegalPassError(f"agent {name!r} at seat {seat} passed {cards!r}: {exc}", "bad_pass", str(exc)) from None
    if what == 0 and int(hand) == 0 and int(legal) >> BLIND_NIL_BIT & 1:
        if not hasattr(agent, "blind_nil"):
            return 0
        obs = Observation(seat, 0, pub, rules, blind_decision=True, history=(seq, 0), legal=int(legal))
        return BLIND_NIL_BIT if agent.blind_nil(obs) else 0
    obs = Observation(seat, int(hand), pub, rules, history=(seq, int(n_seq)), legal=int(legal))
    name = getattr(agent, "name", type(agent).__name__)
    if what == 0:
        b = agent.bid(obs)
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
            raise IllegalBidError(f"agent {name!r} at seat {seat} bid {b!r}: a bid is an int, 0 (nil) to 13")
        return int(b)
    c = agent.play(obs)
    try:
        return int(to_card(c))
    except (ValueError, TypeError) as exc:
        raise IllegalPlayError(f"agent {name!r} at seat {seat} played {c!r}: {exc}") from None
