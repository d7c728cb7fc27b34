"""Easy and random: the weak built-ins (the Easy level of docs/agents.md), and the uniform random baseline.

Easy bids a rough count (aces, kings, spades beyond three), never bids nil unless the rules
leave no other bid, and plays a careless card (uniform among the legal ones) with probability
``careless``; otherwise it plays high when it can win and low when it cannot, with no thought
for its partner or the bags. When cards are passed it gives its highest cards, whoever gets
them; random passes uniformly random cards. Neither ever bids blind nil.
"""

import numpy as np

from spades_ai.policies.tactics import highest_by_rank, lowest_by_rank, trick_status, winners_over
from spades_ai.engine.jit import kernel
from spades_ai.kernels import (
    BID_BITS,
    ONE,
    SPADES,
    SUIT_MASK,
    U64,
    ZERO,
    decision_stream,
    draw_below,
    highest_bit,
    lowest_index,
    nearest_legal_bid,
    popcount,
    select_bit,
    trick_len,
)


@kernel
def random_bid(bid_mask, state):
    """A uniform legal bid (blind nil excluded)."""
    m = U64(bid_mask & BID_BITS)
    state, r = draw_below(state, popcount(m))
    return state, lowest_index(select_bit(m, r))


@kernel
def random_card(legal, state):
    state, r = draw_below(state, popcount(legal))
    return state, select_bit(legal, r)


@kernel
def random_pass(hand, n, state):
    """``n`` of ``hand``'s cards, uniformly at random."""
    out = ZERO
    m = hand
    for _ in range(n):
        state, r = draw_below(state, popcount(m))
        b = select_bit(m, r)
        out |= b
        m ^= b
    return state, out


@kernel
def easy_pass(hand, n):
    """Easy's pass: its ``n`` highest cards by rank."""
    out = ZERO
    m = hand
    for _ in range(n):
        b = highest_by_rank(m)
        out |= b
        m ^= b
    return out


@kernel
def easy_bid(hand, bid_mask):
    count = 0
    for s in range(4):
        m = hand & SUIT_MASK[s]
        count += (m >> U64(13 * s + 12)) & ONE
        count += (m >> U64(13 * s + 11)) & ONE
    n_sp = np.int64(popcount(hand & SPADES))
    return nearest_legal_bid(bid_mask, np.int64(count) + max(0, n_sp - 3))


@kernel
def easy_play(pub, legal, careless_permille, state):
    state, r = draw_below(state, 1000)
    if r < careless_permille:
        return random_card(legal, state)
    if trick_len(pub) == 0:
        return state, highest_by_rank(legal)
    win, _, led = trick_status(pub)
    over = winners_over(legal, win, led)
    if over != ZERO:
        return state, highest_bit(over)
    return state, lowest_by_rank(legal)


# -- the kernel agents (spades_ai.kernels): params = [seed] for random, [seed, careless per mille] for Easy
RANDOM_PARAMS = ("seed",)
EASY_PARAMS = ("seed", "careless_permille")


@kernel
def random_agent_bid(pub, seat, hand, legal, rules, params):
    return random_bid(legal, decision_stream(params[0], pub, seat, hand))[1]


@kernel
def random_agent_play(pub, seat, hand, legal, rules, params):
    return lowest_index(random_card(legal, decision_stream(params[0], pub, seat, hand))[1])


@kernel
def easy_agent_bid(pub, seat, hand, legal, rules, params):
    return easy_bid(hand, legal)


@kernel
def easy_agent_play(pub, seat, hand, legal, rules, params):
    return lowest_index(easy_play(pub, legal, params[1], decision_stream(params[0], pub, seat, hand))[1])


@kernel
def random_agent_pass(pub, seat, hand, n, rules, params):
    return random_pass(hand, n, decision_stream(params[0], pub, seat, hand))[1]


@kernel
def easy_agent_pass(pub, seat, hand, n, rules, params):
    return easy_pass(hand, n)
