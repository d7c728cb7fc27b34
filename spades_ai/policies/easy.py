"""Easy and random: the weak built-ins (the Easy level of docs/agents.md), and the uniform random baseline.

Easy bids a rough count (aces, kings, spades beyond three; at another table than four moved
by the tricks it takes there beyond four players, ``table_count``), never bids nil unless the rules
leave no other bid, and plays a careless card (uniform among the legal ones) with probability
``careless``; otherwise it plays high when it can win and low when it cannot, with no thought
for its partner or the bags. When cards are passed it gives its highest cards, whoever gets
them; random passes uniformly random cards. Neither ever bids blind nil.
"""

import numpy as np

from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.kernels import (
    BID_BITS,
    N_SUITS,
    ONE,
    SPADES,
    U64,
    ZERO,
    copies_of,
    decision_stream,
    draw_below,
    equal_cards_last,
    highest_bit,
    lowest_index,
    n_seats,
    nearest_legal_bid,
    own_copies,
    popcount,
    select_bit,
    size_of,
    trick_len,
)
from spades_ai.policies.tactics import highest_by_rank, lowest_by_rank, trick_status, winners_over


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


#: ``tricks = a + b * easy_count`` in Easy self-play at each table size (rows by players;
#: ``experiments/table_calibration.py`` prints them). Easy's play never reads its bid, so the
#: lines hold whatever it bids; nor its partner, so they hold in pairs too.
EASY_TABLE_TRICKS = np.array([
    (0.0, 1.0), (0.0, 1.0), (0.0, 1.0),
    (2.26, 0.83),
    (1.20, 0.77),
    (0.74, 0.66),
    (0.38, 0.59),
    (0.25, 0.53),
    (0.24, 0.51),
    (0.02, 0.45),
    (0.03, 0.41),
    (0.04, 0.40),
    (0.03, 0.39),
])  # fmt: skip


@kernel
def easy_count(hand, hand2=ZERO, hand3=ZERO):
    """Easy's rough count of its tricks: aces and kings, and spades beyond three. With several
    decks the hand's levels are ``(hand, hand2, hand3)`` (``kernels.own_copies``) and every copy
    counts: a second ace is a trick more, a second spade a spade more."""
    count = 0
    for s in range(N_SUITS):
        ace, king = ONE << U64(13 * s + 12), ONE << U64(13 * s + 11)
        count += copies_of(ace, hand, hand2, hand3) + copies_of(king, hand, hand2, hand3)
    n_sp = size_of(hand & SPADES, hand2 & SPADES, hand3 & SPADES)
    return np.int64(count) + max(0, n_sp - 3)


@inline_kernel
def table_count(count, seats):
    """Easy's ``count`` at a table of ``seats``: moved by the tricks that count takes there
    beyond what it takes at four players (``EASY_TABLE_TRICKS``), so that Easy's bid keeps the
    margin over its tricks it has at four players (Easy's line at four players is flat, slope
    0.77: Normal's way, ``normal.table_estimate``, would divide the shift by it and overbid).
    At four players ``count`` itself."""
    if seats == 4:
        return np.float64(count)
    t = EASY_TABLE_TRICKS
    return count + (t[seats, 0] + t[seats, 1] * count) - (t[4, 0] + t[4, 1] * count)


@kernel
def easy_bid(hand, bid_mask, seats, hand2=ZERO, hand3=ZERO):
    """Easy's bid: its count of the hand ``(hand, hand2, hand3)`` (levels, ``easy_count``;
    ``table_count`` at another table than four), the nearest legal bid to it."""
    count = easy_count(hand, hand2, hand3)
    return nearest_legal_bid(bid_mask, np.int64(np.floor(table_count(count, seats) + 0.5)))


@kernel
def easy_play(pub, legal, careless_permille, state, equal_last):
    """Easy's card and the advanced ``state``: careless, a uniform legal card; else the
    highest when leading, the highest that beats the trick so far (a copy of the winning card
    only when ``equal_last``), or the lowest."""
    state, r = draw_below(state, 1000)
    if r < careless_permille:
        return random_card(legal, state)
    if trick_len(pub) == 0:
        return state, highest_by_rank(legal)
    win, _, led = trick_status(pub)
    over = winners_over(legal, win, led, equal_last)
    if over != ZERO:
        return state, highest_bit(over)
    return state, lowest_by_rank(legal)


# -- the kernel agents (spades_ai.kernels): params = [seed] for random, [seed, careless per mille] for Easy
RANDOM_PARAMS = ("seed",)
EASY_PARAMS = ("seed", "careless_permille")


@kernel
def random_agent_bid(pub, seat, hand, legal, rules, params):
    return random_bid(legal, decision_stream(params[0], pub, seat, hand))[1]


# The play kernels are hot kernels: the self-play loop's seat dispatch is one then, and counts
# no references around a card (``selfplay.codegen._counts_no_references``).
@hot_kernel
def random_agent_play(pub, seat, hand, legal, rules, params):
    return lowest_index(random_card(legal, decision_stream(params[0], pub, seat, hand))[1])


@kernel
def easy_agent_bid(pub, seat, hand, legal, rules, params):
    _, hand2, hand3 = own_copies(pub, hand)
    return easy_bid(hand, legal, n_seats(rules), hand2, hand3)


@hot_kernel
def easy_agent_play(pub, seat, hand, legal, rules, params):
    state = decision_stream(params[0], pub, seat, hand)
    return lowest_index(easy_play(pub, legal, params[1], state, equal_cards_last(rules))[1])


@kernel
def random_agent_pass(pub, seat, hand, n, rules, params):
    return random_pass(hand, n, decision_stream(params[0], pub, seat, hand))[1]


@kernel
def easy_agent_pass(pub, seat, hand, n, rules, params):
    return easy_pass(hand, n)
