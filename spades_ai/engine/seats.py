"""The seats and sides of a table, in the kernels: the rules array's table slots read by name.

The same vocabulary as ``spades_ai.seats`` (which documents it), over ``Rules.as_array()``:
write these instead of arithmetic for four seats (a seat count of four, a remainder by four, a
side by parity, a partner two seats on). ``partner`` is -1 solo. ``next_seat`` and ``side_of``
step without a division.

Each reads the rules array once, before any branch: these are inlined into the self-play loops,
where an array read under a branch costs numba's reference counting on every card.
"""

from spades_ai.engine.jit import inline_kernel
from spades_ai.rules import R_CARDS_EACH, R_DECKS, R_SEATS, R_SIDES


@inline_kernel
def n_seats(rules):
    return rules[R_SEATS]


@inline_kernel
def n_sides(rules):
    return rules[R_SIDES]


@inline_kernel
def cards_each(rules):
    """Cards dealt to each seat, which is also the tricks of a hand."""
    return rules[R_CARDS_EACH]


@inline_kernel
def side_of(seat, rules):
    """``seat % n_sides``, without a division: a seat is below twice the sides."""
    k = rules[R_SIDES]
    return seat - k if seat >= k else seat


@inline_kernel
def partner(seat, rules):
    """The seat's partner, -1 solo."""
    k, n = rules[R_SIDES], rules[R_SEATS]
    p = seat + k
    return -1 if k == n else (p - n if p >= n else p)


@inline_kernel
def next_seat(seat, rules):
    """The seat to this one's left."""
    n = rules[R_SEATS]
    return 0 if seat + 1 >= n else seat + 1


@inline_kernel
def n_decks(rules):
    """Decks shuffled together: the levels of a multiset of cards (``copies``)."""
    return rules[R_DECKS]


@inline_kernel
def hand_slots(rules):
    """The length of a table's hidden hands, ``decks * N`` (level k of seat s at ``k * N + s``)."""
    return rules[R_DECKS] * rules[R_SEATS]
