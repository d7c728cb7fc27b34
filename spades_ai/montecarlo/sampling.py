"""Exact, uniform sampling of the hidden cards: deals of the unseen cards consistent with an
observation (each seat's card count, the cards played, every void shown, every spade count
a bid revealed, and the cards the seat knows its partner holds because it passed them), at a
table of any number of seats.

Counting works suit by suit. With ``K`` other seats (every seat but the observer) holding
``need[0..K-1]`` cards and ``u[s]`` unseen cards of suit ``s``, a deal is a choice, for each
suit, of how many of its cards each seat gets (``x_0 + ... + x_{K-1} = u[s]``, with
``lo[k, s] <= x_k <= hi[k, s]``) and then which ones. The state after suits ``s..3`` is the
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

Copies (several decks) extend this as a count of physical cards: ``u[s]`` the physical unseen
cards of the suit and the binomials over them, the cards put into copy levels after the draw
(``docs/design/tables.md``, section 5).
"""

import math

import numpy as np
from numba import types
from numba.extending import overload

from spades_ai.engine.jit import hot_kernel, kernel
from spades_ai.engine.bits import SPADES, SUIT_MASK, U64, ZERO, popcount, select_bit
from spades_ai.engine.rng import below, below64, next_u64
from spades_ai.engine.seats import cards_each, n_seats, next_seat, partner
from spades_ai.engine.state import P_BIDS, P_BLIND_GAVE, P_DECK, P_GAVE, P_PLAYED, P_PLAYED_BY, P_VOIDS
from spades_ai.rules import BID_MIRROR, BID_WHIZ, R_BIDDING

#: The most cards of one suit: 13, or 17 in the trump suit with jokers and high deuces.
MAX_SUIT = 17
#: ``count_worlds_kernel`` counts in int64 while the deals are fewer than this (``counts_fit``).
EXACT_LIMIT = 2.0**62
#: Seats are counted one by one while a suit's table has at most this many states, the most that
#: four players need (three hidden seats of 13 cards: 14 x 14); beyond (five players: up to
#: 11**3), exchangeable seats are merged, which costs far less where there are any.
MAX_STATES = 14 * 14


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
def world_constraints(pub, seat, hand, rules):
    """``(unseen, others, need, lo, hi, known)`` for sampling what ``seat`` cannot see.

    The hidden seats are every seat but ``seat``: ``others[k]`` is the seat ``k + 1`` places to
    the left (``k`` in ``0 .. n_seats - 2``), ``need[k]`` the unseen cards it holds,
    ``lo[k, s] .. hi[k, s]`` how many of suit ``s`` it may hold among them, and ``known[o]``
    (by seat) the cards ``seat`` knows seat ``o`` holds besides (``partner_holds``: only a
    partner, with pairs).
    """
    n = n_seats(rules)
    k_hidden = n - 1
    known = np.zeros(n, dtype=np.uint64)
    p = partner(seat, rules)
    if p >= 0:
        known[p] = partner_holds(pub, seat, rules)
        unseen = U64(pub[P_DECK]) & ~U64(pub[P_PLAYED]) & ~hand & ~known[p]
    else:
        unseen = U64(pub[P_DECK]) & ~U64(pub[P_PLAYED]) & ~hand
    others = np.empty(k_hidden, dtype=np.int64)
    need = np.empty(k_hidden, dtype=np.int64)
    lo = np.zeros((k_hidden, 4), dtype=np.int64)
    hi = np.empty((k_hidden, 4), dtype=np.int64)
    o = seat
    for k in range(k_hidden):
        o = next_seat(o, rules)
        others[k] = o
        played = U64(pub[P_PLAYED_BY + o])
        need[k] = cards_each(rules) - np.int64(popcount(played)) - np.int64(popcount(known[o]))
        for s in range(4):
            void = (pub[P_VOIDS] >> (4 * o + s)) & 1 == 1
            hi[k, s] = 0 if void else MAX_SUIT
        count = revealed_spades(pub, o, rules)
        if count >= 0:
            left = count - np.int64(popcount((played | known[o]) & SPADES))
            if left < 0 or (left > 0 and hi[k, 3] == 0):
                lo[k, 3], hi[k, 3] = 1, 0  # contradicts what was seen: no world
            else:
                lo[k, 3], hi[k, 3] = left, left
    return unseen, others, need, lo, hi, known


@kernel
def counts_fit(unseen, need):
    """Whether ``count_worlds_kernel`` counts the deals of ``unseen`` into hands of ``need``
    cards exactly: every entry of its table is at most the multinomial ``C(n; need)`` (``n``
    unseen cards), which must stay below ``EXACT_LIMIT``."""
    log_bound = math.lgamma(np.int64(popcount(unseen)) + 1.0)
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
def _prefix_terms(x, p, us, stride):
    """``(cards, ways, offset)`` of the prefix ``x[:p]``: the suit's cards it gives, the ways to
    choose them (``C(us, x_0) C(us - x_0, x_1) ...``) and its place in the flat state."""
    used = 0
    ways = np.int64(1)
    offset = 0
    for k in range(p):
        ways = ways * BINOM[us - used, x[k]]
        used += x[k]
        offset += x[k] * stride[k]
    return used, ways, offset


@kernel
def _suit_sizes(unseen):
    """``(u, rem)``: the unseen cards of each suit, and of suits ``s..3`` (``rem[4] = 0``)."""
    u = np.empty(4, dtype=np.int64)
    rem = np.zeros(5, dtype=np.int64)
    for s in range(4):
        u[s] = np.int64(popcount(unseen & SUIT_MASK[s]))
    for s in range(3, -1, -1):
        rem[s] = rem[s + 1] + u[s]
    return u, rem


@kernel
def _fill_counts(f, unseen, need, lo, hi):
    """Fill ``f`` (zeros, int64 or float64, ``(5, states)``) as the module docstring says."""
    u, rem = _suit_sizes(unseen)
    stride, size = _strides(need)
    m = len(need) - 1
    p = m - 1  # the splits of a suit: an odometer over seats 0..p-1, a loop over seat p
    a = np.empty(m, dtype=np.int64)
    x = np.empty(m, dtype=np.int64)
    f[4, 0] = 1
    for s in range(3, -1, -1):
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
                used, ways, offset = _prefix_terms(x, p, u[s], stride)
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
    consistent deals (0 if none). Exact when ``counts_fit(unseen, need)``; else see
    ``count_worlds_float``."""
    _, size = _strides(need)
    return _fill_counts(np.zeros((5, size), dtype=np.int64), unseen, need, lo, hi)


@kernel
def count_worlds_float(unseen, need, lo, hi):
    """``count_worlds_kernel`` in float64, for the positions it cannot count in int64 (each
    entry to a relative 2**-52 or so)."""
    _, size = _strides(need)
    return _fill_counts(np.zeros((5, size), dtype=np.float64), unseen, need, lo, hi)


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
def _find_split(r, f, s, idx, x, p, a, us, c, lo, hi, stride):
    """``(found, last)``: the split of suit ``s`` in whose share of ``f[s, idx]`` the draw ``r``
    falls, as ``x[:p]`` and seat ``p``'s ``last`` cards."""
    m = p + 1
    lo_p, hi_p, lo_m, hi_m, a_p, stride_p = lo[p, s], hi[p, s], lo[m, s], hi[m, s], a[p], stride[p]
    ok = _first_prefix(x, p, a, us, lo, hi, s)
    while ok:
        used, ways, offset = _prefix_terms(x, p, us, stride)
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


@hot_kernel
def _deal_world(state, f, unseen, others, need, lo, hi, hands, stride, a, x, pick):
    """``sample_world`` with its work arrays given (``stride`` from ``_strides``; ``a``, ``x``
    and ``pick`` of ``K - 1`` slots), so that drawing many worlds allocates nothing."""
    m = len(need) - 1
    p = m - 1
    idx = 0
    for k in range(m):
        a[k] = need[k]
        idx += need[k] * stride[k]
    for k in range(m + 1):
        hands[others[k]] = ZERO
    for s in range(4):
        suit_cards = unseen & SUIT_MASK[s]
        us = np.int64(popcount(suit_cards))
        c = 0
        for t in range(s, 4):
            c += np.int64(popcount(unseen & SUIT_MASK[t]))
        for k in range(m):
            c -= a[k]
        while True:
            state, r = draw_below(state, f[s, idx])
            found, last = _find_split(r, f, s, idx, x, p, a, us, c, lo, hi, stride)
            # a float ``r`` past the rounded sum of the splits draws again (a chance below 1e-12)
            if found or f[s, idx] == 0:
                break
        for k in range(p):
            pick[k] = x[k] if found else 0
        pick[p] = last if found else 0
        # Deal the suit uniformly: pick[0] cards to the first seat, pick[1] to the second, ...
        left = us
        for k in range(m):
            for _ in range(pick[k]):
                state, i = below(state, left)
                bit = select_bit(suit_cards, i)
                hands[others[k]] |= bit
                suit_cards ^= bit
                left -= 1
            a[k] -= pick[k]
            idx -= pick[k] * stride[k]
        hands[others[m]] |= suit_cards
    return state


@kernel
def sample_world(state, f, unseen, others, need, lo, hi, hands):
    """Deal ``unseen`` to the seats ``others`` into ``hands`` (by seat) uniformly among the
    consistent deals counted in ``f``; returns the advanced random state."""
    m = len(need) - 1
    stride, _ = _strides(need)
    return _deal_world(state, f, unseen, others, need, lo, hi, hands, stride, np.empty(m, dtype=np.int64),
                       np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64))


@kernel
def seat_groups(need, lo, hi, merge):
    """``(group, gneed, glo, ghi)``: the hidden seats as groups that the table counts as one.

    With ``merge``, seats bound only by voids (no spade count revealed) and void in the same
    suits are exchangeable: any split of the cards dealt to them among them fits. Such a group
    is counted as one seat holding all their cards (``gneed``), and its cards are split among
    its seats uniformly after the draw (``_split_groups``); the ways of that split,
    ``T! / prod(need!)``, are the same for every deal of the group's ``T`` cards, so the draw stays
    uniform. A seat with a revealed count is a group of its own, and without ``merge`` every
    seat is (then the groups are the seats, and drawing them is drawing the seats). ``group[k]``
    is seat ``k``'s group, numbered by their first seats.
    """
    k_hidden = len(need)
    group = np.empty(k_hidden, dtype=np.int64)
    free = np.empty(k_hidden, dtype=np.bool_)
    for k in range(k_hidden):
        free[k] = merge
        for s in range(4):
            if lo[k, s] != 0 or 0 < hi[k, s] < need[k]:
                free[k] = False
    n_groups = 0
    for k in range(k_hidden):
        group[k] = -1
        if free[k]:
            for j in range(k):
                same = free[j]
                for s in range(4):
                    same = same and (hi[j, s] == 0) == (hi[k, s] == 0)
                if same:
                    group[k] = group[j]
                    break
        if group[k] < 0:
            group[k] = n_groups
            n_groups += 1
    # the table needs two groups: a last, empty one (no cards, no room) if all seats merged
    n_rows = max(n_groups, 2)
    gneed = np.zeros(n_rows, dtype=np.int64)
    glo = np.zeros((n_rows, 4), dtype=np.int64)
    ghi = np.zeros((n_rows, 4), dtype=np.int64)
    seats = np.zeros(n_rows, dtype=np.int64)
    for k in range(k_hidden):
        g = group[k]
        gneed[g] += need[k]
        seats[g] += 1
        glo[g] = lo[k]
        ghi[g] = hi[k]
    for g in range(n_rows):
        for s in range(4):
            if seats[g] > 1 and ghi[g, s] > 0:
                ghi[g, s] = max(ghi[g, s], gneed[g])  # a merged group holds any number of a suit
    return group, gneed, glo, ghi


@hot_kernel
def _split_groups(state, ghands, group, need, others, hands):
    """Split each group's cards ``ghands[g]`` among its seats uniformly: each seat but the last
    of its group draws its ``need`` cards one by one from what is left; the last takes the rest.
    A group of one seat draws nothing."""
    k_hidden = len(need)
    for k in range(k_hidden):
        g = group[k]
        last = True
        for j in range(k + 1, k_hidden):
            if group[j] == g:
                last = False
        if last:
            hands[others[k]] = ghands[g]
            continue
        mine = ZERO
        for _ in range(need[k]):
            state, i = below(state, np.int64(popcount(ghands[g])))
            bit = select_bit(ghands[g], i)
            mine |= bit
            ghands[g] ^= bit
        hands[others[k]] = mine
    return state


@kernel
def _draw_worlds(state, f, unseen, others, need, group, gneed, glo, ghi, known, seat, hand, worlds):
    """Fill ``worlds`` (a row per world, a column per seat): the groups' cards drawn from the
    table ``f`` of ``seat_groups``, split among their seats, and the known cards added."""
    n_groups = len(gneed)
    m = n_groups - 1
    stride, _ = _strides(gneed)
    a = np.empty(m, dtype=np.int64)
    x = np.empty(m, dtype=np.int64)
    pick = np.empty(m, dtype=np.int64)
    seats = np.arange(n_groups)
    ghands = np.empty(n_groups, dtype=np.uint64)
    hands = np.empty(worlds.shape[1], dtype=np.uint64)
    merged = False
    for k in range(len(need)):
        merged = merged or group[k] != k
    for i in range(len(worlds)):
        if merged:
            state = _deal_world(state, f, unseen, seats, gneed, glo, ghi, ghands, stride, a, x, pick)
            state = _split_groups(state, ghands, group, need, others, hands)
        else:  # the groups are the seats
            state = _deal_world(state, f, unseen, others, gneed, glo, ghi, hands, stride, a, x, pick)
        for k in range(len(others)):
            hands[others[k]] |= known[others[k]]
        hands[seat] = hand
        worlds[i] = hands
    return state


@kernel
def table_fits(unseen, need):
    """Whether the seats of ``need`` are counted one by one (``seat_groups`` without merging):
    in exact int64 (``counts_fit``) and in at most ``MAX_STATES`` states a suit."""
    _, size = _strides(need)
    return size <= MAX_STATES and counts_fit(unseen, need)


@kernel
def sample_worlds_kernel(state, pub, seat, hand, rules, n):
    """``n`` consistent worlds as rows of ``n_seats`` bitboards (the seat's own hand included),
    drawn uniformly among the deals that fit the observation (``sampling``).

    The seats are counted one by one where ``table_fits`` (always at three and four players),
    else exchangeable seats are merged (``seat_groups``), and the groups counted in float64 if
    even they do not fit in int64."""
    unseen, others, need, lo, hi, known = world_constraints(pub, seat, hand, rules)
    worlds = np.empty((n, n_seats(rules)), dtype=np.uint64)
    group, gneed, glo, ghi = seat_groups(need, lo, hi, not table_fits(unseen, need))
    if counts_fit(unseen, gneed):
        f = count_worlds_kernel(unseen, gneed, glo, ghi)
        state = _draw_worlds(state, f, unseen, others, need, group, gneed, glo, ghi, known, seat, hand, worlds)
    else:
        g = count_worlds_float(unseen, gneed, glo, ghi)
        state = _draw_worlds(state, g, unseen, others, need, group, gneed, glo, ghi, known, seat, hand, worlds)
    return state, worlds
