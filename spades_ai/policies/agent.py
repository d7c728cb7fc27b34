"""The agent interface (``Agent``) and the pass of an agent that has none (``default_pass``).

An agent is any object with a ``name``, ``bid(obs) -> int`` (0 = nil) and
``play(obs) -> card`` (a ``Card``, a string such as ``"AS"`` or an id); it may also have
``blind_nil(obs) -> bool``, asked before it sees its cards when the rules allow a blind nil,
and ``pass_cards(obs) -> list of cards``, asked when the rules pass cards (``obs.pass_count``
of its cards; an agent without it passes its highest cards, ``default_pass``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from spades_ai.cards import Card
from spades_ai.kernels import default_pass as default_pass_kernel
from spades_ai.observation import Observation


@runtime_checkable
class Agent(Protocol):
    """What the harness needs of an agent. ``play_hands`` plays many deals at once and may ask
    a Python agent about several hands in turn, so its decisions should depend on the
    observation alone (``check_agent`` checks that), not on the order of the questions."""

    name: str

    def bid(self, obs: Observation) -> int: ...

    def play(self, obs: Observation) -> Card | str | int: ...


def default_pass(obs: Observation) -> list[Card]:
    """The pass of an agent that has no ``pass_cards``: its ``obs.pass_count`` highest cards
    (by rank; a spade before a side card of the same rank), as ``kernels.default_pass``."""
    mask = int(default_pass_kernel(obs.public, obs.seat, obs.engine_cards, np.int64(obs.pass_count), obs.rules_array))
    return list(obs.rules.engine_cards(mask))
