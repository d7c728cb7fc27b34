"""Exact, uniform sampling of the hidden cards: deals of the unseen cards consistent with an
observation (each seat's card count, the cards played, every void shown, every spade count
a bid revealed, and the cards the seat knows its partner holds because it passed them), at a
table of any number of seats.

Counting works suit by suit. With ``K`` other seats (every seat but the observer) holding
``need[0..K-1]`` cards and ``u[s]`` unseen cards of suit ``s``, a deal is a choice, for each
suit, of how many of its cards each seat gets (``x_0 + ... + x_{K-1} = u[s]``, with
``lo[k, s] <= x_k <= hi[k, s]``) and then which ones. The state after suits ``s .. N_SUITS - 1`` is the
number of cards ``a_k`` each of the first ``K - 1`` seats takes from them (the last seat takes the
rest), and the number of deals of those suits that leave that state is::

    f[s, a] = sum over x of  C(u[s]; x_0, ..., x_{K-1}) * f[s + 1, a - x]

with three seats (four players) ``f[s, a, b]``. ``a`` is stored flat, in mixed radix
``need[k] + 1`` with seat 0 the most significant digit, so that ``f[s, -1]`` is the state
``a = need`` and ``f[0, -1]`` the number of consistent deals (0 if none).

The bounds carry every constraint of this kind: a void shown is ``hi = 0``; a spade count
revealed by a bid (mirror, or a whiz bid other than nil: the bid is the bidder's number of
spades) fixes ``lo = hi =`` that count minus the spades the seat has played. Suit 3 is the trump
suit, jokers and high deuces included (they sit in the spade lane, ``engine.bits``).

``count_worlds_kernel`` fills ``f`` once per decision in exact int64 arithmetic when the
number of deals fits (``counts_fit``: always at four players, 39! / 13!^3 ~ 8.4e16 < 2**62, and
at three). Where it would not, or the table would be larger than four players' (``table_fits``:
five players deal 40! / 10!^4 ~ 4.7e21 ways at the start, in 11**3 states), the seats bound by
the same voids alone are exchangeable and counted as one seat (``seat_groups``), their cards
split among them uniformly after the draw; what still does not fit is counted in float64
(``count_worlds_float``).
``sample_world`` then draws the counts of each suit
in turn with probability proportional to the number of deals they leave (``draw_below``: an
exact integer draw, or a float one, exact to a relative 2**-53, beyond int64), the splits in
lexicographic order of ``x`` (seat 0's count slowest), and deals each suit uniformly: ``x_0``
cards to seat 0 one by one, then ``x_1`` to seat 1, ..., the rest to the last seat. So every
consistent deal has the same probability, with no rejection (but for a float draw that the
rounding leaves past the last split, drawn again). Deal-and-retry is as exact but
about 9x slower; giving constrained cards out first is biased as soon as two seats show voids.

Must win (``R_MUST_WIN``) shows more than voids: a card followed to a trick that does not beat
the card then winning says its seat held no legal card that does. No count bound says that, so
``sample_worlds_kernel`` draws the worlds above and draws again those that break it
(``must_win_checks``, ``fits_must_win``): rejection keeps the draw uniform among the deals that fit.
At four players solo, 23.5% of the worlds drawn without it broke must win (tricks 3 to 13 of
Hard's hands), and 35% of the decisions had some such worlds.

Copies (several decks, ``engine.copies``) make ``unseen`` a multiset, ``uint64[decks]`` copy
levels (``constraints_with_copies``), and the count one of physical cards: ``u[s]`` the physical
unseen cards of the suit, so the binomials count physical deals and each world (a multiset
deal) weighs the number of physical deals that give it, as ``tests/naive_tables.naive_worlds``
(``docs/design/tables.md``, section 5). A suit is dealt physical card by physical card, the
``i``-th counted through level 1, then 2, then 3 (as ``engine.deal``), each copy out of the
unseen levels and into the seat's, ``hands[k * N + seat]``. With one deck that is the draw
above, bit for bit. At 6 to 12 players the seats are merged (``seat_groups``) as at five: the
table then has a dimension per group of seats bound by the same voids, not per seat.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.engine.bits import N_SUITS, SPADES, SUIT_MASK, U64, ZERO, popcount, select_bit
from spades_ai.engine.copies import give_to, levels_diff, size_of, take_from, take_one
from spades_ai.engine.rng import below, below64, next_u64
from spades_ai.engine.seats import cards_each, n_seats, next_seat, partner
from spades_ai.engine.state import (P_BIDS, P_BLIND_GAVE, P_DECK, P_DECK2, P_DECK3, P_GAVE, P_OWN2, P_OWN3, P_PLAYED,
                                    P_PLAYED2, P_PLAYED3, P_PLAYED_BY, P_PLAYED_BY2, P_PLAYED_BY3, P_TRICK_LEN, P_VOIDS,
                                    copy_into, legal_now)
from spades_ai.montecarlo.reading import replay_states
from spades_ai.rules import BID_MIRROR, BID_WHIZ, R_BIDDING, R_DECKS, R_MUST_WIN

#: The most physical cards of one suit: three decks' 13 (one deck holds at most 17, in the trump
#: suit with jokers and high deuces, which are one-deck options).
MAX_SUIT = 3 * 13
#: Under must win, worlds drawn at most for each world wanted (``sample_worlds_kernel``).
MUST_WIN_TRIES = 32
#: Draws again of a suit's split whose float draw fell past the rounded sum of the splits
#: (each a chance below 1e-12) before ``_deal_world`` gives up with an error, never a hang.
REDRAWS = 64

#: ``count_worlds_kernel`` counts in int64 while the deals are fewer than this (``counts_fit``).
EXACT_LIMIT = 2.0**62
#: Seats are counted one by one while a suit's table has at most this many states, the most that
#: four players need (three hidden seats of 13 cards: 14 x 14); beyond (five players: up to
#: 11**3), exchangeable seats are merged, which costs far less where there are any.
MAX_STATES = 14 * 14
#: The most states a suit's table may have (``(N_SUITS + 1, states)`` entries, 168 MB at this size): beyond,
#: counting is refused. Merged seats stay far below (twelve players' midgames: tens of thousands);
#: seats whose spades a bid revealed are never merged, which at eight players and more reaches it.
MAX_TABLE = 1 << 22


class Hidden(NamedTuple):
    """What a seat cannot see and who holds it (``constraints_with_copies``); a tuple, so it
    unpacks as ``unseen, others, need, lo, hi, known``."""

    unseen: np.ndarray
    """The cards nobody has seen, ``uint64[decks]`` copy levels."""
    others: np.ndarray
    """The hidden seats: ``others[k]`` is the seat ``k + 1`` places to the observer's left."""
    need: np.ndarray
    """``need[k]``: the unseen cards seat ``others[k]`` holds, copies counted."""
    lo: np.ndarray
    """``lo[k, s]``: the fewest physical cards of suit ``s`` it may hold among them."""
    hi: np.ndarray
    """``hi[k, s]``: the most (0: a void shown)."""
    known: np.ndarray
    """By seat: the cards the observer knows that seat holds besides (``partner_holds``)."""


class Groups(NamedTuple):
    """The hidden seats as the table counts them (``seat_groups``); a tuple, so it unpacks as
    ``group, gneed, glo, ghi``."""

    group: np.ndarray
    """``group[k]``: the group of hidden seat ``k``."""
    need: np.ndarray
    """The cards of each group (those of its seats)."""
    lo: np.ndarray
    """``lo[g, s] .. hi[g, s]``: how many of suit ``s`` group ``g`` may hold."""
    hi: np.ndarray


class Counted(NamedTuple):
    """A counting table with what it counts, as ``_deal_world`` draws from it."""

    f: np.ndarray
    """The table (``count_worlds_kernel`` or ``count_worlds_float``)."""
    unseen: np.ndarray
    """The cards dealt, copy levels."""
    need: np.ndarray
    """The cards of each seat (or group) counted, and its bounds by suit."""
    lo: np.ndarray
    hi: np.ndarray
    stride: np.ndarray
    """The place value of each seat's digit in the flat state (``_strides(need)``)."""


def _binomials():
    c = np.zeros((MAX_SUIT + 1, MAX_SUIT + 1), dtype=np.int64)
    for n in range(MAX_SUIT + 1):
        c[n, 0] = 1
        for k in range(1, n + 1):
            c[n, k] = c[n - 1, k - 1] + c[n - 1, k]
    return c


BINOM = _binomials()


@kernel
def revealed_spades(pub, seat, rules):
    """The number of spades (trumps) ``seat`` holds in all, as its bid revealed it, or -1.

    A mirror bid is always the count (nil: none); a whiz bid other than nil is too. The count
    is read from the bids the observation shows, so under closed bidding a hidden bid reveals
    nothing.
    """
    bid = pub[P_BIDS + seat]
    preset = rules[R_BIDDING]
    if bid < 0:
        return -1
    if preset == BID_MIRROR or (preset == BID_WHIZ and bid > 0):
        return bid
    return -1


@kernel
def partner_holds(pub, seat, rules):
    """The cards ``seat`` knows its partner still holds: those it passed it (before the bidding,
    unless they came back in the blind pass, and in the blind pass), not played since. None
    without a partner (solo)."""
    p = partner(seat, rules)
    if p < 0:
        return ZERO
    gave = U64(pub[P_GAVE + seat]) & ~U64(pub[P_BLIND_GAVE + p])
    return (gave | U64(pub[P_BLIND_GAVE + seat])) & ~U64(pub[P_PLAYED_BY + p])


@kernel
def own_levels(pub, hand, rules):
    """The levels of ``seat``'s own hand in its view: ``hand`` (level 1, the agent argument),
    then ``view[P_OWN2]``, ``view[P_OWN3]``, as many as the table has decks (``uint64[decks]``)."""
    decks = rules[R_DECKS]
    own = np.empty(decks, dtype=np.uint64)
    own[0] = hand
    if decks > 1:
        own[1] = U64(pub[P_OWN2])
    if decks > 2:
        own[2] = U64(pub[P_OWN3])
    return own


@kernel
def constraints_with_copies(pub, seat, hand, rules):
    """``Hidden(unseen, others, need, lo, hi, known)``: what ``seat`` cannot see, from its
    view ``pub`` (``P_OWN2`` / ``P_OWN3`` hold its copies) and its ``hand`` (level 1).

    ``unseen`` is the multiset of cards nobody has seen, deck - played - own (- known), as
    ``uint64[decks]`` copy levels (``engine.copies``; one mask with one deck). The hidden seats
    are every seat but ``seat``: ``others[k]`` is the seat ``k + 1`` places to the left (``k``
    in ``0 .. n_seats - 2``), ``need[k]`` the unseen cards it holds, copies counted,
    ``lo[k, s] .. hi[k, s]`` how many of suit ``s`` it may hold among them (physical cards), and
    ``known[o]`` (by seat) the cards ``seat`` knows seat ``o`` holds besides (``partner_holds``:
    only a partner, with pairs, so only with one deck: passing is a one-deck option).
    """
    n = n_seats(rules)
    decks = rules[R_DECKS]
    k_hidden = n - 1
    known = np.zeros(n, dtype=np.uint64)
    p = partner(seat, rules)
    if p >= 0:
        known[p] = partner_holds(pub, seat, rules)
    own = own_levels(pub, hand, rules)
    u1, u2, u3 = levels_diff(U64(pub[P_DECK]), U64(pub[P_DECK2]), U64(pub[P_DECK3]),
                             U64(pub[P_PLAYED]), U64(pub[P_PLAYED2]), U64(pub[P_PLAYED3]))
    u1, u2, u3 = levels_diff(u1, u2, u3, own[0], own[1] if decks > 1 else ZERO, own[2] if decks > 2 else ZERO)
    u1, u2, u3 = levels_diff(u1, u2, u3, known[p] if p >= 0 else ZERO, ZERO, ZERO)
    unseen = np.empty(decks, dtype=np.uint64)
    unseen[0] = u1
    if decks > 1:
        unseen[1] = u2
    if decks > 2:
        unseen[2] = u3
    others = np.empty(k_hidden, dtype=np.int64)
    need = np.empty(k_hidden, dtype=np.int64)
    lo = np.zeros((k_hidden, N_SUITS), dtype=np.int64)
    hi = np.empty((k_hidden, N_SUITS), dtype=np.int64)
    o = seat
    for k in range(k_hidden):
        o = next_seat(o, rules)
        others[k] = o
        b1, b2, b3 = U64(pub[P_PLAYED_BY + o]), U64(pub[P_PLAYED_BY2 + o]), U64(pub[P_PLAYED_BY3 + o])
        need[k] = cards_each(rules) - size_of(b1, b2, b3) - np.int64(popcount(known[o]))
        for s in range(N_SUITS):
            void = (pub[P_VOIDS] >> (N_SUITS * o + s)) & 1 == 1
            hi[k, s] = 0 if void else MAX_SUIT
        count = revealed_spades(pub, o, rules)
        if count >= 0:
            left = count - size_of(b1 & SPADES, b2 & SPADES, b3 & SPADES) - np.int64(popcount(known[o] & SPADES))
            if left < 0 or (left > 0 and hi[k, 3] == 0):
                lo[k, 3], hi[k, 3] = 1, 0  # contradicts what was seen: no world
            else:
                lo[k, 3], hi[k, 3] = left, left
    return Hidden(unseen, others, need, lo, hi, known)


@kernel
def world_constraints(pub, seat, hand, rules):
    """``constraints_with_copies`` with ``unseen`` as one mask, its level 1: every unseen card
    with one deck (the four-player face, which the one-deck tools and tests read as an int).
    With several decks it leaves the second and third copies out; sample and count from
    ``constraints_with_copies`` there."""
    unseen, others, need, lo, hi, known = constraints_with_copies(pub, seat, hand, rules)
    return unseen[0], others, need, lo, hi, known


def as_levels(unseen):
    """``unseen`` as an array of copy levels: a mask (one deck) becomes ``uint64[1]``, an array
    of levels stays itself. The counting kernels take either (compiled once per type)."""
    if isinstance(unseen, np.ndarray):
        return unseen
    return np.array([unseen], dtype=np.uint64)


@overload(as_levels)
def _as_levels_typed(unseen):
    if isinstance(unseen, types.Array):
        return lambda unseen: unseen
    return lambda unseen: np.array([U64(unseen)], dtype=np.uint64)


@kernel
def counts_fit(unseen, need):
    """Whether ``count_worlds_kernel`` counts the deals of ``unseen`` (a mask or copy levels)
    into hands of ``need`` cards exactly: every entry of its table is at most the multinomial
    ``C(n; need)`` (``n`` unseen physical cards), which must stay below ``EXACT_LIMIT``."""
    levels = as_levels(unseen)
    physical = 0
    for lv in range(len(levels)):
        physical += popcount(levels[lv])
    log_bound = math.lgamma(physical + 1.0)
    for k in range(len(need)):
        log_bound -= math.lgamma(need[k] + 1.0)
    return log_bound < math.log(EXACT_LIMIT) - 1e-6


@kernel
def _strides(need):
    """The place value of each of the first ``K - 1`` seats' digits in the flat state (seat 0
    most significant), and the number of states."""
    m = len(need) - 1
    stride = np.empty(m, dtype=np.int64)
    size = 1
    for k in range(m - 1, -1, -1):
        stride[k] = size
        size *= need[k] + 1
    return stride, size


@kernel
def _table_size(need):
    """The states of the table of ``need`` (``_strides``); a ``ValueError`` beyond ``MAX_TABLE``."""
    _, size = _strides(need)
    if size > MAX_TABLE:
        raise ValueError("too many hidden seats that are not exchangeable to count their deals (seats whose "
                         "spades a bid revealed are counted one by one): the table would pass MAX_TABLE states")
    return size


@hot_kernel
def _advance(x, j, p, a, us, lo, hi, s):
    """Move the first ``p`` digits of ``x`` (the cards of suit ``s`` given to seats ``0..p-1``;
    digits before ``j`` valid) to the next prefix in lexicographic order, digit ``j`` up by
    one, with every seat within its bounds, ``x_k <= a[k]`` and at most the suit's ``us``
    cards in all; whether there is one."""
    x[j] += 1
    while True:
        used = 0
        for i in range(j):
            used += x[i]
        if x[j] > min(a[j], us - used, hi[j, s]):
            if j == 0:
                return False
            j -= 1
            x[j] += 1
            continue
        if j == p - 1:
            return True
        j += 1
        x[j] = lo[j, s]


@hot_kernel
def _first_prefix(x, p, a, us, lo, hi, s):
    """Set ``x[:p]`` to the first prefix of ``_advance``'s order (with ``p = 0``, the empty
    one); whether there is one."""
    if p == 0:
        return True
    x[0] = lo[0, s] - 1
    return _advance(x, 0, p, a, us, lo, hi, s)


@hot_kernel
def _next_prefix(x, p, a, us, lo, hi, s):
    """Set ``x[:p]`` to the prefix after it; whether there is one."""
    if p == 0:
        return False
    return _advance(x, p - 1, p, a, us, lo, hi, s)


@hot_kernel
def _prefix_terms(x, p, us, stride, one):
    """``(cards, ways, offset)`` of the prefix ``x[:p]``: the suit's cards it gives, the ways to
    choose them (``C(us, x_0) C(us - x_0, x_1) ...``, in the type of ``one``: the table's, as a
    suit of several decks split among many seats passes int64) and its place in the flat state."""
    used = 0
    ways = one
    offset = 0
    for k in range(p):
        ways = ways * BINOM[us - used, x[k]]
        used += x[k]
        offset += x[k] * stride[k]
    return used, ways, offset


@inline_kernel
def _in_suit(unseen, s):
    """The physical cards of suit ``s`` among the copy levels ``unseen``."""
    total = 0
    for lv in range(len(unseen)):
        total += popcount(unseen[lv] & SUIT_MASK[s])
    return np.int64(total)


@kernel
def _suit_sizes(unseen):
    """``(u, rem)``: the unseen physical cards of each suit (``unseen`` as copy levels), and of
    suits ``s .. N_SUITS - 1`` (``rem[N_SUITS] = 0``)."""
    u = np.empty(N_SUITS, dtype=np.int64)
    rem = np.zeros(N_SUITS + 1, dtype=np.int64)
    for s in range(N_SUITS):
        u[s] = _in_suit(unseen, s)
    for s in range(N_SUITS - 1, -1, -1):
        rem[s] = rem[s + 1] + u[s]
    return u, rem


@kernel
def _fill_counts(f, unseen, need, lo, hi):
    """Fill ``f`` (zeros, int64 or float64, ``(N_SUITS + 1, states)``) as the module docstring says
    (``unseen`` as copy levels)."""
    u, rem = _suit_sizes(unseen)
    stride, size = _strides(need)
    m = len(need) - 1
    p = m - 1  # the splits of a suit: an odometer over seats 0..p-1, a loop over seat p
    a = np.empty(m, dtype=np.int64)
    x = np.empty(m, dtype=np.int64)
    one = f[0, 0] * 0 + 1  # the table's type: the ways of a split count in it
    f[N_SUITS, 0] = 1
    for s in range(N_SUITS - 1, -1, -1):
        a[:] = 0
        for idx in range(size):
            if idx > 0:  # the next state: count up in mixed radix, seat m - 1 fastest
                k = m - 1
                a[k] += 1
                while a[k] > need[k]:
                    a[k] = 0
                    k -= 1
                    a[k] += 1
            given = 0
            for k in range(m):
                given += a[k]
            c = rem[s] - given
            if c < 0 or c > need[m]:
                continue
            total = f[s, idx] * 0
            ok = _first_prefix(x, p, a, u[s], lo, hi, s)
            while ok:
                used, ways, offset = _prefix_terms(x, p, u[s], stride, one)
                left = u[s] - used
                for last in range(lo[p, s], min(a[p], left, hi[p, s]) + 1):
                    rest = left - last
                    if rest > c or rest < lo[m, s] or rest > hi[m, s]:
                        continue
                    tail = f[s + 1, idx - offset - last * stride[p]]
                    if tail != 0:
                        total += ways * BINOM[left, last] * tail
                ok = _next_prefix(x, p, a, u[s], lo, hi, s)
            f[s, idx] = total
    return f


@kernel
def count_worlds_kernel(unseen, need, lo, hi):
    """The table ``f`` (see the module docstring) in exact int64: ``f[0, -1]`` is the number of
    consistent deals (0 if none), physical deals with copies (``unseen`` a mask or copy levels).
    Exact when ``counts_fit(unseen, need)``; else see ``count_worlds_float``."""
    return _fill_counts(np.zeros((N_SUITS + 1, _table_size(need)), dtype=np.int64), as_levels(unseen), need, lo, hi)


@kernel
def count_worlds_float(unseen, need, lo, hi):
    """``count_worlds_kernel`` in float64, for the positions it cannot count in int64 (each
    entry to a relative 2**-52 or so)."""
    return _fill_counts(np.zeros((N_SUITS + 1, _table_size(need)), dtype=np.float64), as_levels(unseen), need, lo, hi)


@kernel
def _draw_below_float(state, weight):
    state, x = next_u64(state)
    return state, np.float64(x >> np.uint64(11)) * (1.0 / 2.0**53) * weight


def draw_below(state, weight):
    """``(state, r)``: ``r`` uniform in ``[0, weight)``; exactly (``below64``) for an integer
    weight, with 53 random bits for a float one. Compiled once per type of ``weight``."""
    if isinstance(weight, (float, np.floating)):
        return _draw_below_float(state, weight)
    return below64(state, weight)


@overload(draw_below)
def _draw_below_typed(state, weight):
    if isinstance(weight, types.Float):
        return lambda state, weight: _draw_below_float(state, weight)
    return lambda state, weight: below64(state, weight)


@hot_kernel
def _find_split(r, counted, s, idx, x, p, a, us, c):
    """``(found, last)``: the split of suit ``s`` in whose share of ``f[s, idx]`` (``counted``)
    the draw ``r`` falls, as ``x[:p]`` and seat ``p``'s ``last`` cards."""
    f, lo, hi, stride = counted.f, counted.lo, counted.hi, counted.stride
    m = p + 1
    lo_p, hi_p, lo_m, hi_m, a_p, stride_p = lo[p, s], hi[p, s], lo[m, s], hi[m, s], a[p], stride[p]
    one = f[0, 0] * 0 + 1  # the table's type: the ways of a split count in it
    ok = _first_prefix(x, p, a, us, lo, hi, s)
    while ok:
        used, ways, offset = _prefix_terms(x, p, us, stride, one)
        left = us - used
        for last in range(lo_p, min(a_p, left, hi_p) + 1):
            rest = left - last
            if rest > c or rest < lo_m or rest > hi_m:
                continue
            term = ways * BINOM[left, last] * f[s + 1, idx - offset - last * stride_p]
            if r < term:
                return True, last
            r -= term
        ok = _next_prefix(x, p, a, us, lo, hi, s)
    return False, 0


@inline_kernel
def _select_physical(i, l1, l2, l3):
    """The card of the ``i``-th physical card of the multiset ``(l1, l2, l3)``, counting level 1,
    then level 2, then level 3 (as ``engine.deal`` does): a card is hit once per copy held."""
    c1 = np.int64(popcount(l1))
    if i < c1:
        return select_bit(l1, i)
    c2 = np.int64(popcount(l2))
    if i - c1 < c2:
        return select_bit(l2, i - c1)
    return select_bit(l3, i - c1 - c2)


@inline_kernel
def _draw_split(state, counted, s, idx, x, p, a, us, c):
    """``(state, found, last)``: a split of suit ``s`` drawn with its weight (``_find_split``);
    a float draw past the rounded sum of the splits draws again (a chance below 1e-12), at most
    ``REDRAWS`` times before a ``ValueError``, so that a table that does not add up never hangs."""
    for _ in range(REDRAWS + 1):
        state, r = draw_below(state, counted.f[s, idx])
        found, last = _find_split(r, counted, s, idx, x, p, a, us, c)
        if found or counted.f[s, idx] == 0:
            return state, found, last
    raise ValueError("world sampler: the count table does not add up to its splits (a bug: please report it)")


@hot_kernel
def _deal_world(state, counted, others, hands, n, work):
    """``sample_world`` from a ``Counted`` table, with its work arrays given (``work``: ``a``, ``x``
    and ``pick``, of ``K - 1`` slots) so that many worlds allocate nothing; level ``k`` of item ``o``
    is ``hands[k * n + o]``."""
    unseen, need, stride = counted.unseen, counted.need, counted.stride
    a, x, pick = work
    decks, m = len(unseen), len(need) - 1
    p = m - 1
    idx = 0
    for k in range(m):
        a[k] = need[k]
        idx += need[k] * stride[k]
    for k in range(m + 1):
        for lv in range(decks):
            hands[lv * n + others[k]] = ZERO
    for s in range(N_SUITS):
        s1 = unseen[0] & SUIT_MASK[s]
        s2 = unseen[1] & SUIT_MASK[s] if decks > 1 else ZERO
        s3 = unseen[2] & SUIT_MASK[s] if decks > 2 else ZERO
        us = size_of(s1, s2, s3)
        c = 0
        for t in range(s, N_SUITS):
            c += _in_suit(unseen, t)
        for k in range(m):
            c -= a[k]
        state, found, last = _draw_split(state, counted, s, idx, x, p, a, us, c)
        for k in range(p):
            pick[k] = x[k] if found else 0
        pick[p] = last if found else 0
        # Deal the suit's physical cards uniformly: pick[0] to the first seat, pick[1] to the
        # second, ..., each copy out of the suit's levels and into the seat's
        left = us
        single = s2 == ZERO  # one copy of each card of the suit (one deck: always)
        for k in range(m):
            for _ in range(pick[k]):
                state, i = below(state, left)
                if single:
                    bit = select_bit(s1, i)
                    s1 ^= bit
                    hands[others[k]] |= bit
                else:
                    bit = _select_physical(i, s1, s2, s3)
                    s1, s2, s3 = take_one(bit, s1, s2, s3)
                    give_to(hands, others[k], n, bit, decks)
                left -= 1
            a[k] -= pick[k]
            idx -= pick[k] * stride[k]
        # the last seat's levels hold none of the suit yet: the rest adds level by level
        o = others[m]
        hands[o] |= s1
        if decks > 1:
            hands[n + o] |= s2
        if decks > 2:
            hands[2 * n + o] |= s3
    return state


@kernel
def sample_world(state, f, unseen, others, need, lo, hi, hands):
    """Deal ``unseen`` (a mask, or copy levels ``uint64[decks]``) to the seats ``others`` into
    ``hands`` (``hands[k * N + seat]``: ``uint64[decks * N]``) uniformly among the consistent
    physical deals counted in ``f``; returns the advanced random state."""
    levels = as_levels(unseen)
    stride, _ = _strides(need)
    m = len(need) - 1
    work = (np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64))
    return _deal_world(state, Counted(f, levels, need, lo, hi, stride), others, hands, len(hands) // len(levels), work)


@kernel
def seat_groups(need, lo, hi, merge):
    """``Groups(group, gneed, glo, ghi)``: the hidden seats as groups that the table counts as one.

    With ``merge``, seats bound only by voids (no spade count revealed) and void in the same
    suits are exchangeable: any split of the cards dealt to them among them fits. Such a group
    is counted as one seat holding all their cards (``gneed``), and its cards are split among
    its seats uniformly after the draw (``_split_groups``); the ways of that split,
    ``T! / prod(need!)``, are the same for every deal of the group's ``T`` cards, so the draw stays
    uniform. A seat with a revealed count is a group of its own, and without ``merge`` every
    seat is (then the groups are the seats, and drawing them is drawing the seats). ``group[k]``
    is seat ``k``'s group. Merged groups are numbered by their cards, fewest first (ties by first
    seat), so that the largest is the last: the table's state leaves it out, and it takes the
    rest of each suit without a draw, then splits it among its seats (at eight players, one
    draw a card where a first group would take two).
    """
    group, n_groups = _group_by_voids(_free_seats(need, lo, hi, merge), hi)
    # the table needs two groups: an empty one (no cards, no room), first, if all seats merged
    n_rows = max(n_groups, 2)
    if merge:
        _number_by_size(group, need, n_rows)
    return _group_bounds(group, need, lo, hi, n_rows)


@kernel
def _free_seats(need, lo, hi, merge):
    """Which hidden seats may share a group: with ``merge``, those bound by voids alone (no
    lower bound, and every upper bound a void or no bound at all)."""
    free = np.empty(len(need), dtype=np.bool_)
    for k in range(len(need)):
        free[k] = merge
        for s in range(N_SUITS):
            if lo[k, s] != 0 or 0 < hi[k, s] < need[k]:
                free[k] = False
    return free


@kernel
def _group_by_voids(free, hi):
    """``(group, n_groups)``: each free seat joins the group of the first free seat before it
    void in the same suits; any other seat starts a group (numbered in order of first seats)."""
    k_hidden = len(free)
    group = np.empty(k_hidden, dtype=np.int64)
    n_groups = 0
    for k in range(k_hidden):
        group[k] = -1
        if free[k]:
            for j in range(k):
                same = free[j]
                for s in range(N_SUITS):
                    same = same and (hi[j, s] == 0) == (hi[k, s] == 0)
                if same:
                    group[k] = group[j]
                    break
        if group[k] < 0:
            group[k] = n_groups
            n_groups += 1
    return group, n_groups


@kernel
def _number_by_size(group, need, n_rows):
    """Number the ``n_rows`` groups of ``group`` (in place) by their cards, fewest first, ties
    by first seat (a stable sort)."""
    size = np.zeros(n_rows, dtype=np.int64)
    for k in range(len(need)):
        size[group[k]] += need[k]
    order = _stable_order(size)
    rank = np.empty(n_rows, dtype=np.int64)
    for r in range(n_rows):
        rank[order[r]] = r
    for k in range(len(need)):
        group[k] = rank[group[k]]


@kernel
def _stable_order(size):
    """``np.argsort(size, kind="mergesort")`` for the few groups of a table, by insertion: the
    same order (stable: ties by index), without compiling numba's merge sort, which was a
    second of a cold first Hard run."""
    order = np.empty(len(size), dtype=np.int64)
    for i in range(len(size)):
        order[i] = i
    for i in range(1, len(size)):
        j = i
        while j > 0 and size[order[j - 1]] > size[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    return order


@kernel
def _group_bounds(group, need, lo, hi, n_rows):
    """The ``Groups`` of ``group``: each group's cards, and its seats' bounds, a merged group's
    raised to hold any number of a suit it is not void in."""
    gneed = np.zeros(n_rows, dtype=np.int64)
    glo = np.zeros((n_rows, N_SUITS), dtype=np.int64)
    ghi = np.zeros((n_rows, N_SUITS), dtype=np.int64)
    seats = np.zeros(n_rows, dtype=np.int64)
    for k in range(len(need)):
        g = group[k]
        gneed[g] += need[k]
        seats[g] += 1
        copy_into(glo[g], lo[k])
        copy_into(ghi[g], hi[k])
    for g in range(n_rows):
        for s in range(N_SUITS):
            if seats[g] > 1 and ghi[g, s] > 0:
                ghi[g, s] = max(ghi[g, s], gneed[g])  # a merged group holds any number of a suit
    return Groups(group, gneed, glo, ghi)


@hot_kernel
def _split_groups(state, ghands, group, need, others, hands, n):
    """Split each group's cards among its seats uniformly: each seat but the last of its group
    draws its ``need`` physical cards one by one from what is left; the last takes the rest. A
    group of one seat draws nothing. Level ``k`` of group ``g`` is ``ghands[k * G + g]`` (``G``
    groups), of seat ``o`` ``hands[k * n + o]``."""
    k_hidden = len(need)
    decks = len(hands) // n
    n_groups = len(ghands) // decks
    for k in range(k_hidden):
        g = group[k]
        o = others[k]
        last = True
        for j in range(k + 1, k_hidden):
            if group[j] == g:
                last = False
        for lv in range(decks):
            hands[lv * n + o] = ghands[lv * n_groups + g] if last else ZERO
        if last:
            continue
        for _ in range(need[k]):
            g1 = ghands[g]
            g2 = ghands[n_groups + g] if decks > 1 else ZERO
            g3 = ghands[2 * n_groups + g] if decks > 2 else ZERO
            state, i = below(state, size_of(g1, g2, g3))
            bit = _select_physical(i, g1, g2, g3)
            take_from(ghands, g, n_groups, bit, decks)
            give_to(hands, o, n, bit, decks)
    return state


@kernel
def _draw_worlds(state, f, hidden, groups, seat, own, worlds):
    """Fill ``worlds`` (a row per world, ``hands[k * N + seat]`` in a row: ``decks * N`` columns):
    the cards of the ``Groups`` (``hidden.unseen``: copy levels) drawn from the table ``f`` of
    ``seat_groups``, split among their seats, the ``Hidden`` seats' known cards added and
    ``seat``'s ``own`` levels set."""
    unseen, others, need, known = hidden.unseen, hidden.others, hidden.need, hidden.known
    group, gneed = groups.group, groups.need
    decks = len(unseen)
    n = len(known)
    n_groups = len(gneed)
    stride, _ = _strides(gneed)
    counted = Counted(f, unseen, gneed, groups.lo, groups.hi, stride)
    m = n_groups - 1
    work = (np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64))
    seats = np.arange(n_groups)
    ghands = np.empty(decks * n_groups, dtype=np.uint64)
    hands = np.empty(decks * n, dtype=np.uint64)
    merged = False
    for k in range(len(need)):
        merged = merged or group[k] != k
    for i in range(len(worlds)):
        if merged:
            state = _deal_world(state, counted, seats, ghands, n_groups, work)
            state = _split_groups(state, ghands, group, need, others, hands, n)
        else:  # the groups are the seats
            state = _deal_world(state, counted, others, hands, n, work)
        for k in range(len(others)):
            hands[others[k]] |= known[others[k]]  # level 1: known cards come from a one-deck pass
        for lv in range(decks):
            hands[lv * n + seat] = own[lv]
        copy_into(worlds[i], hands)
    return state


@kernel
def table_fits(unseen, need):
    """Whether the seats of ``need`` are counted one by one (``seat_groups`` without merging):
    in exact int64 (``counts_fit``) and in at most ``MAX_STATES`` states a suit."""
    _, size = _strides(need)
    return size <= MAX_STATES and counts_fit(unseen, need)


@inline_kernel
def sample_worlds_kernel(state, pub, seat, hand, rules, n):
    """``n`` consistent worlds as rows of ``decks * n_seats`` bitboards, level ``k`` of seat
    ``o`` in column ``k * n_seats + o`` (``engine.copies``; one column per seat with one deck),
    the seat's own hand included, drawn uniformly among the physical deals that fit the
    observation (``sampling``). ``pub`` is the seat's view (its copies in ``P_OWN2`` /
    ``P_OWN3``), ``hand`` its level 1.

    The seats are counted one by one where ``table_fits`` (always at three and four players),
    else exchangeable seats are merged (``seat_groups``), and the groups counted in float64 if
    even they do not fit in int64. A ``ValueError`` where the groups' table would pass
    ``MAX_TABLE`` states (eight players and more with every spade count revealed).

    Under must win (``R_MUST_WIN``) a card followed to a trick also shows that its seat held no
    legal card that beats the card then winning unless it played one (``must_win_checks``):
    worlds that break it are drawn again (``keep_fitting``), up to ``MUST_WIN_TRIES`` draws a
    world wanted, so the worlds stay uniform among the deals that fit; where even that many
    leave some rows unfit, those rows keep uniform draws that do not."""
    state, worlds = uniform_worlds(state, pub, seat, hand, rules, n)
    if rules[R_MUST_WIN] == 0 or n == 0:
        return state, worlds
    checks = must_win_checks(pub, seat, rules)
    kept = keep_fitting(worlds, 0, checks, rules)
    tries = n
    while kept < n and tries < MUST_WIN_TRIES * n:
        # as many draws as the rate of fitting worlds so far says the rows left need
        more = min(MUST_WIN_TRIES * n - tries, (n - kept) * (tries // max(kept, 1) + 1))
        state, extra = uniform_worlds(state, pub, seat, hand, rules, more)
        for i in range(more):
            if kept < n and fits_must_win(extra[i], checks, rules):
                copy_into(worlds[kept], extra[i])
                kept += 1
        tries += more
    return state, worlds


@kernel
def must_win_checks(pub, seat, rules):
    """What must win says of the other seats' hands: ``(states, seats, cards, held, m)``, for
    each of the ``m`` cards another seat followed to a trick (the leader is free), the public
    state just before it (``reading.replay_states``), the seat, the card and the cards that seat
    played from then on (held then in every world). The card was legal: under must win the seat
    held then no card that beats the card winning the trick, unless it played one."""
    states, who, cards, n = replay_states(pub, rules)
    held = np.zeros(n, dtype=np.uint64)
    m = 0
    for k in range(n):
        if who[k] == seat or states[k, P_TRICK_LEN] == 0:
            continue
        for j in range(k, n):
            if who[j] == who[k]:
                held[m] |= U64(1) << U64(cards[j])
        copy_into(states[m], states[k])
        who[m], cards[m] = who[k], cards[k]
        m += 1
    return states, who, cards, held, m


@kernel
def fits_must_win(world, checks, rules):
    """Whether every card of ``checks`` (``must_win_checks``) was legal with the hand its seat
    holds in ``world`` (a row of ``sample_worlds_kernel``) plus the cards it played since."""
    states, who, cards, held, m = checks
    for k in range(m):
        legal = legal_now(states[k], world[who[k]] | held[k], rules)
        if (legal >> U64(cards[k])) & U64(1) == ZERO:
            return False
    return True


@kernel
def keep_fitting(worlds, start, checks, rules):
    """Move the rows of ``worlds`` from ``start`` on that fit must win (``fits_must_win``) up
    to ``start``, in order; the number of rows that fit from the top. The rows after them keep
    the unfit draws (in some order)."""
    kept = start
    for i in range(start, len(worlds)):
        if fits_must_win(worlds[i], checks, rules):
            if i != kept:
                row = worlds[kept].copy()
                copy_into(worlds[kept], worlds[i])
                copy_into(worlds[i], row)
            kept += 1
    return kept


@inline_kernel
def uniform_worlds(state, pub, seat, hand, rules, n):
    """``n`` worlds drawn uniformly among the deals that fit the observation's counts, voids,
    revealed spades and known cards (``sample_worlds_kernel`` without must win's checks)."""
    hidden = constraints_with_copies(pub, seat, hand, rules)
    unseen = hidden.unseen
    own = own_levels(pub, hand, rules)
    worlds = np.empty((n, len(unseen) * n_seats(rules)), dtype=np.uint64)
    groups = seat_groups(hidden.need, hidden.lo, hidden.hi, not table_fits(unseen, hidden.need))
    if counts_fit(unseen, groups.need):
        f = count_worlds_kernel(unseen, groups.need, groups.lo, groups.hi)
        state = _draw_worlds(state, f, hidden, groups, seat, own, worlds)
    else:
        g = count_worlds_float(unseen, groups.need, groups.lo, groups.hi)
        state = _draw_worlds(state, g, hidden, groups, seat, own, worlds)
    return state, worlds
