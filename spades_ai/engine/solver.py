"""Exact search on a fully visible position of four in pairs: double dummy and any leaf objective.

One node search (``node_search.node``, a template) serves two objectives (``objectives``),
each bound into its own copy of the node when it is compiled (``spades_ai.templates``), with
one move generator and order (``exact_moves``), one set of search records (``exact_node``) and
one transposition table (``exact_table``):

* "tricks", ``dd_tricks``: the most tricks the leader's side can take against best defence,
  by null-window tests ("can the side take >= k of the n tricks left?", a bisection on k).
* "points", ``objective_values``: the value of each legal card of the seat to act, from any
  point of a hand (mid-trick too), where a finished hand is worth ``leaf[t0, t1, t2, t3]`` to
  the maximizing side (seat s ended with ``t_s`` tricks); the other side minimizes. Fail-soft
  alpha-beta on floats in the window of the reachable leaf values, bounds in the table.

A node never tests which objective it serves: numba compiles and caches each copy as its own
recursive kernel, the objective's steps inlined (a second specialization of one recursive
kernel cannot be loaded from numba's cache, numba issue 6061). Every other table's exact
finishes are ``table_solver``'s.
"""

import numpy as np

from spades_ai.engine import node_search as tricks_search
from spades_ai.engine.bits import (
    ALL_CARDS,
    ONE,
    SPADES,
    U64,
    ZERO,
    lowest_bit,
    lowest_index,
    popcount,
    select_bit,
    suit_mask_of,
)
from spades_ai.engine.exact_moves import above, beats, distinct_moves, rotate, sure_spade_run
from spades_ai.engine.exact_node import LeafSearch, Pos, Search
from spades_ai.engine.exact_table import INF
from spades_ai.engine.jit import kernel
from spades_ai.engine.objectives import leaf_merges
from spades_ai.engine.play import follow_mask, lead_mask
from spades_ai.engine.rng import below
from spades_ai.rules import R_FIRST_LEAD, R_SPADE_LEAD
from spades_ai.templates import bind

#: ``node_search``'s binding to the objective "points" (its own ``_binding`` is "tricks").
POINTS_BINDING = """from spades_ai.engine.exact_node import node_moves, play, run_pin, undo
from spades_ai.engine.objectives import points_backup as backup
from spades_ai.engine.objectives import points_enter as enter
from spades_ai.engine.objectives import points_restrict as restrict
from spades_ai.engine.objectives import points_settled as settled
from spades_ai.engine.objectives import points_start as start
from spades_ai.engine.objectives import points_store as store
"""
points_search = bind("spades_ai.engine", ("node_search",), POINTS_BINDING, {}, "points").node_search


@kernel
def dd_tricks(hands, leader, broken, spade_lead, first_lead, tt, gen, shift, stats):
    """Most tricks the team of ``leader`` takes from ``hands`` (``uint64[4]``, equal sizes,
    ``leader`` to lead a new trick), with every card visible and best play on both sides.

    ``tt`` is the table (a flat ``uint64`` array of at least ``TT_WIDTH * TT_WAYS`` words per
    bucket); the search uses buckets ``0 .. 2**(64 - shift) - 1``. ``gen`` is a generation in
    1..4095 not used before with the table (rows of other generations count as empty).
    ``stats`` (``int64[STATS]``) gains the nodes, table cuts, sure-trick cuts and tests.
    """
    # Every argument of the recursive kernel gets one fixed type: a second specialization of a
    # recursive kernel crashes when loaded from numba's cache (numba issue 6061).
    leader = np.int64(leader)
    n = np.int64(popcount(hands[0]))
    s = Search(leader & 1, np.int64(spade_lead), np.int64(first_lead), tt, U64(gen), np.int64(shift), stats)
    a0, a1, a2, a3 = rotate(leader, hands[0], hands[1], hands[2], hands[3])
    p = Pos(a0, a1, a2, a3, leader, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, broken != 0, n)
    lo = np.int64(0)
    hi = n
    off, run, _ = sure_spade_run(a0, a1, a2, a3)
    if (off & 1) == 0:
        lo = run
    else:
        hi = n - run
    while lo < hi:
        t = (lo + hi + 1) // 2
        stats[3] += 1
        ok, _ = tricks_search.node(p, t, s)
        if ok:
            lo = t
        else:
            hi = t - 1
    return lo


@kernel
def _packed_won(won):
    """The tricks each seat has won (``int64[4]``), 4 bits per seat."""
    packed = U64(0)
    for s in range(4):
        packed |= U64(won[s]) << U64(4 * s)
    return np.int64(packed)


@kernel
def leaf_search(max_team, leaf, won, n, rules, memo):
    """The ``LeafSearch`` of a search of ``leaf`` from ``won`` with ``n`` tricks left."""
    return LeafSearch(np.int64(max_team), np.int64(rules[R_SPADE_LEAD]), np.int64(rules[R_FIRST_LEAD]), memo.tt,
                      U64(memo.gen), np.int64(memo.shift), memo.stats, leaf, leaf_merges(leaf, won, n))


@kernel
def _trick_position(hands, seat, trick_cards, broken):
    """The ``Pos`` of ``seat`` to play to the trick ``trick_cards`` (ids in play order)."""
    pos = np.int64(len(trick_cards))
    leader = (seat - pos) & 3
    led = ZERO
    win = ZERO
    win_seat = leader
    trick = ZERO
    for i in range(pos):
        c = ONE << U64(trick_cards[i])
        if i == 0:
            led = suit_mask_of(c)
            win = c
        elif beats(c, win):
            win = c
            win_seat = (leader + i) & 3
        trick |= c
    a0, a1, a2, a3 = rotate(seat, hands[0], hands[1], hands[2], hands[3])
    return Pos(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, np.int64(popcount(hands[seat])))


@kernel
def _run_of(c, moves, a0, legal):
    """The legal cards of ``a0`` that ``c`` stands for: its run up to the next move of its suit."""
    suit = suit_mask_of(c)
    up = moves & suit & above(c)
    run = a0 & legal & suit & ~(c - ONE)
    if up != ZERO:
        run &= lowest_bit(up) - ONE
    return run


@kernel
def objective_values(hands, seat, trick_cards, won, broken, max_team, leaf, rules, memo, out):
    """The value to ``max_team`` of each legal card of ``seat``: ``out[card]`` (NaN for the
    other cards; ``out`` holds 56 entries, one per engine id, the trump lane included). ``hands`` (``uint64[4]``) are the cards still held, ``trick_cards`` the ids
    played to the current trick in order (``int64[k]``, k = 0..3; the leader is ``seat - k``),
    ``won`` (``int64[4]``) the tricks each seat has won, ``broken`` whether a spade fell in an
    earlier trick, ``leaf`` the ``(14, 14, 14, 14)`` value table of finished hands, ``rules``
    the rules array (its lead rules).

    ``memo`` the table (``Memo``, ``memo_of``), as in ``dd_tricks``. Returns the number of
    distinct cards searched.
    """
    p = _trick_position(hands, np.int64(seat), trick_cards, broken != 0)
    if p.pos == 0:
        legal = lead_mask(p.a0, p.broken, 13 - p.n, rules[R_SPADE_LEAD], rules[R_FIRST_LEAD])
        moves = distinct_moves(legal, p.a0, ~(p.a0 | p.a1 | p.a2 | p.a3) & ALL_CARDS)
    else:
        legal = follow_mask(p.a0, p.led)
        moves = distinct_moves(legal, p.a0, ~(p.a0 | p.a1 | p.a2 | p.a3 | p.trick) & ALL_CARDS)
    # Every value lies between the least and the greatest leaf the hand can still reach: a
    # search in that window is exact, and a side that reaches its bound looks no further.
    lo, hi = reachable_bounds(leaf, won, p.n)
    s = leaf_search(max_team, leaf, won, p.n, rules, memo)
    wpack = _packed_won(won)
    out[:] = np.nan
    count = 0
    m = moves
    while m != ZERO:
        c = lowest_bit(m)
        m ^= c
        v, _ = points_search.node(p, (wpack, lo, hi, c), s)
        count += 1
        run = _run_of(c, moves, p.a0, legal)  # the same value for every card c stands for
        while run != ZERO:
            b = lowest_bit(run)
            run ^= b
            out[lowest_index(b)] = v
    return count


@kernel
def reachable_bounds(leaf, won, n):
    """The least and greatest leaf a hand can reach from ``won`` (``int64[4]``) with ``n``
    tricks left: every value of the position lies between them."""
    lo = INF
    hi = -INF
    for t0 in range(n + 1):
        for t1 in range(n + 1 - t0):
            for t2 in range(n + 1 - t0 - t1):
                v = leaf[won[0] + t0, won[1] + t1, won[2] + t2, won[3] + n - t0 - t1 - t2]
                lo = min(lo, v)
                hi = max(hi, v)
    return lo, hi


@kernel
def position_value(hands, leader, won, broken, max_team, leaf, rules, memo):
    """The value to ``max_team`` of a position between tricks, ``leader`` to lead from
    ``hands`` (``uint64[4]``, equal sizes 1..13), with best play on both sides: the value of
    the leader's best card in ``objective_values``, by one search rather than one per card.

    ``won`` (``int64[4]``) the tricks each seat has won, ``broken`` whether a spade has been
    played; ``leaf``, ``rules`` and ``memo`` as in ``objective_values``.
    """
    leader = np.int64(leader)
    n = np.int64(popcount(hands[0]))
    lo, hi = reachable_bounds(leaf, won, n)
    if lo == hi:
        return lo
    s = leaf_search(max_team, leaf, won, n, rules, memo)
    a0, a1, a2, a3 = rotate(leader, hands[0], hands[1], hands[2], hands[3])
    p = Pos(a0, a1, a2, a3, leader, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, broken != 0, n)
    v, _ = points_search.node(p, (_packed_won(won), lo, hi, ZERO), s)
    return v


@kernel
def play_random_tricks(hands, leader, k, state, spade_lead, first_lead, won):
    """Play ``k`` whole tricks of uniformly random legal cards from a full deal in ``hands``
    (modified), adding each seat's tricks to ``won`` (``int64[4]``): returns ``(leader, broken,
    state)`` of the position reached (test and benchmark positions)."""
    broken = False
    for trick_no in range(k):
        seat = leader
        led = ZERO
        trick = ZERO
        win = ZERO
        win_seat = leader
        for pos in range(4):
            h = hands[seat]
            legal = lead_mask(h, broken, trick_no, spade_lead, first_lead) if pos == 0 else follow_mask(h, led)
            state, r = below(state, popcount(legal))
            c = select_bit(legal, r)
            if pos == 0:
                led = suit_mask_of(c)
                win = c
            elif beats(c, win):
                win = c
                win_seat = seat
            hands[seat] = h ^ c
            trick |= c
            seat = (seat + 1) & 3
        broken = broken or (trick & SPADES) != ZERO
        leader = win_seat
        won[leader] += 1
    return leader, broken, state
