"""Agents for bench_own_agents.py, in a module of their own so their compiled loop is cached.

``COUNTER`` is a small bidder and player written only against ``spades_ai.kernels`` (the one of
notebooks/your_own_agent.ipynb). ``NORMAL_AS_USER`` is built-in Normal's two kernels handed to
``kernel_agent`` from outside the package, as a user would. Normal is written against
``spades_ai.kernels`` only (a test checks its source), so this is a reimplementation of Normal
through the public API, run as a user's agent: it measures what the public API and the
mechanism cost against the built-in.
"""

import numba
import numpy as np

import spades_ai as sa
from spades_ai import kernels as K
from spades_ai.policies.normal import normal_agent_bid, normal_agent_play


@numba.njit
def counter_bid(pub, seat, hand, legal, rules):
    n = 0
    for s in range(4):
        cards = K.suit_cards(hand, s)
        n += (cards >> np.uint64(13 * s + 12)) & np.uint64(1)
        if K.count(cards) >= 2:
            n += (cards >> np.uint64(13 * s + 11)) & np.uint64(1)
    n += max(0, K.count(hand & K.SPADES) - 3)
    return K.nearest_legal_bid(legal, max(1, np.int64(n)))


@numba.njit
def counter_play(pub, seat, hand, legal, rules):
    if K.tricks_needed(pub, seat & 1, rules) <= 0 or K.trick_len(pub) == 0 or K.winning_seat(pub) == (seat ^ 2):
        return K.lowest_card(legal)
    win = K.winning_card(pub)
    best = -1
    m = legal
    while m:
        c = K.lowest_card(m)
        m &= m - np.uint64(1)
        beats = (c // 13 == win // 13 and c > win) or (c // 13 == 3 and win // 13 != 3)
        if beats and (best < 0 or c % 13 < best % 13 or (best // 13 == 3 and c // 13 != 3)):
            best = c
    return best if best >= 0 else K.lowest_card(legal)


COUNTER = sa.kernel_agent("counter", counter_bid, counter_play)
NORMAL_AS_USER = sa.kernel_agent("normal-as-user", normal_agent_bid, normal_agent_play)


class Lowest:
    """A trivial Python agent: the second-lowest legal bid and the lowest legal card."""

    name = "lowest"

    def bid(self, obs):
        bids = obs.legal_bids()
        return bids[1] if len(bids) > 1 else bids[0]

    def play(self, obs):
        return obs.legal_cards()[0]


LOWEST = Lowest()  # by spec, "own_agents:LOWEST", in a tournament


def lowest_bidder(cards, seat, bids, scores):
    """A plain-function bidder for the bidding benchmark: one trick per ace, at least one."""
    return max(1, sum(c.rank == 12 for c in cards))
