"""Dealing: four 13-card bitboards from the stream keyed by ``(seed, index, 0)``.

Seats 0, 1 and 2 each draw 13 cards, one at a time, uniformly from the cards not yet dealt
(a draw is ``below`` then ``select_bit``); seat 3 keeps the rest. Every deal is equally likely
and no 52-card array is shuffled.
"""

import numpy as np

from spades_ai.engine.jit import kernel
from spades_ai.engine.bits import FULL_DECK, ZERO, select_bit
from spades_ai.engine.rng import below, stream_state

DEAL_STREAM = 0


@kernel
def deal_from_state(state, hands):
    """Deal into ``hands`` (uint64[4]); return the advanced state."""
    remaining = FULL_DECK
    left = np.int64(52)  # not the literal 52: numba would also compile below() for that type
    for seat in range(3):
        h = ZERO
        for _ in range(13):
            state, r = below(state, left)
            b = select_bit(remaining, r)
            h |= b
            remaining ^= b
            left -= 1
        hands[seat] = h
    hands[3] = remaining
    return state


@kernel
def deal_batch(seed, start, n):
    """Deals ``start .. start+n-1`` of ``seed`` as an ``(n, 4)`` uint64 array."""
    out = np.empty((n, 4), dtype=np.uint64)
    for i in range(n):
        deal_from_state(stream_state(seed, start + i, DEAL_STREAM), out[i])
    return out
