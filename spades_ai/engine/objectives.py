"""The two objectives of the exact search of four in pairs, each the six steps a copy of
``node_search`` inlines (``spades_ai.templates``):

* "tricks" (``tricks_*``, the package's own ``_binding``): the double dummy's test, whether
  ``max_team`` takes at least ``target`` of the tricks left, the current one included; the
  table's rows hold the tricks from here, keyed by the top spade's holder (``top_spade_key``).
* "points" (``points_*``, bound by ``solver.POINTS_BINDING``): the value to ``max_team`` of the
  position in the window ``w = (won, alpha, beta, only)`` (fail-soft: a result at or below
  ``alpha`` is an upper bound, one at or above ``beta`` a lower bound); ``won`` the tricks each
  seat has won, 4 bits per seat, a finished hand worth ``leaf[t0, t1, t2, t3]``; ``only`` (a
  card, or 0) restricts the seat to act to that card: the value of one move, never stored.
"""

import numpy as np

from spades_ai.engine.bits import (
    NON_SPADES,
    ZERO,
    deposit_bits,
)
from spades_ai.engine.exact_moves import quick_tricks, sure_spade_run
from spades_ai.engine.exact_node import hint_card, last_trick, maximizes, no_key, probe, store_bounds
from spades_ai.engine.exact_table import INF, LOW52, top_spade_key
from spades_ai.engine.jit import hot_kernel, kernel
from spades_ai.engine.play import may_lead_spades
from spades_ai.rules import FIRST_LOW_CLUB


# -- the objective "tricks": the double dummy ----------------------------------------------------
# ``node_search`` bound to these (``_binding``): the value is whether ``max_team`` takes at least
# ``w`` (the target) of the tricks left, the current one included; the table's rows hold the
# tricks from here, keyed by the top spade's holder (``top_spade_key``).
@hot_kernel
def _sure_tricks(p, target, s):
    """``(done, result, pin)``: the test decided by sure tricks (the top spade run, and the
    leader's cashing tricks), and the cards whose ranks that used."""
    off, run, pin = sure_spade_run(p.a0, p.a1, p.a2, p.a3)
    if maximizes(p.seat + off, s):
        if run >= target:
            return True, True, pin
    elif p.n - run < target:
        return True, False, pin
    trick_no = 13 - p.n
    if not (trick_no == 0 and s.first_lead == FIRST_LOW_CLUB):
        can_sp = may_lead_spades(p.broken, trick_no, s.spade_lead) or (p.a0 & NON_SPADES) == ZERO
        q, qpin = quick_tricks(p.a0, p.a1, p.a2, p.a3, can_sp)
        if maximizes(p.seat, s):
            if q >= target:
                return True, True, qpin
        elif p.n - q < target:
            return True, False, qpin
    return False, False, ZERO


@hot_kernel
def tricks_enter(p, target, s):
    """``(done, result, relevant, target, hint, key)``, the node counted; at a trick boundary
    ``done`` when the target is out of reach either way, the last trick decides, the table or
    sure tricks do (within a trick never: only boundaries are in the table)."""
    s.stats[0] += 1
    if p.pos != 0:
        return False, False, ZERO, target, ZERO, no_key()
    if target <= 0:
        return True, True, ZERO, target, ZERO, no_key()
    if target > p.n:
        return True, False, ZERO, target, ZERO, no_key()
    if p.n == 1:
        seat, pin = last_trick(p)
        return True, maximizes(seat, s), pin, target, ZERO, no_key()
    tkey, top = top_spade_key(p.a0, p.a1, p.a2, p.a3)
    key, lo_at, lo, hi_at, hi, hint = probe(p, s, tkey)
    key = (key[0], key[1], key[2], key[3], top)
    u = p.a0 | p.a1 | p.a2 | p.a3
    if lo >= target:
        s.stats[1] += 1
        return True, True, deposit_bits(s.tt[lo_at] & LOW52, u), target, ZERO, key
    if hi < target:
        s.stats[1] += 1
        return True, False, deposit_bits(s.tt[hi_at] & LOW52, u), target, ZERO, key
    done, result, pin = _sure_tricks(p, target, s)
    if done:
        s.stats[2] += 1
        return True, result, pin, target, ZERO, key
    return False, False, ZERO, target, hint_card(u, hint), key


@hot_kernel
def tricks_restrict(p, moves, hint, target, s):
    return moves, hint


@hot_kernel
def tricks_start(p, s):
    """``(result, best)`` before any card: the test fails for the side to act until a card wins it."""
    return not maximizes(p.seat, s), ZERO


@hot_kernel
def tricks_settled(q, done, target, s):
    """``(known, result, relevant, child's target)``: a finished trick may decide the test
    without a search of the child."""
    t2 = target - np.int64(done and maximizes(q.seat, s))
    if done and t2 <= 0:
        return True, True, ZERO, t2
    if done and t2 > q.n:
        return True, False, ZERO, t2
    return False, False, ZERO, t2


@hot_kernel
def tricks_backup(p, s, result, best, target, c, child):
    """``(result, best, target, cut)`` after card ``c``: the first card that wins the test
    for the side to act decides it."""
    mover_max = maximizes(p.seat, s)
    if child == mover_max:
        return mover_max, c, target, True
    return result, best, target, False


@hot_kernel
def tricks_store(p, target, s, result, best, rel, key):
    """The proved bound on the tricks from here, at a trick boundary; only a test that succeeds
    names a card."""
    if p.pos != 0:
        return
    lo = np.float64(target) if result else 0.0
    hi = np.float64(p.n) if result else np.float64(target - 1)
    store_bounds(p, s, key, rel, lo, hi, best)


# -- the objective "points": a leaf of the finished hand's value ---------------------------------
# ``node_search`` bound to these (``_points_binding``): the value to ``max_team`` of the position,
# in the window ``w = (won, alpha, beta, only)`` (fail-soft: a result at or below ``alpha`` is an
# upper bound, one at or above ``beta`` a lower bound); ``won`` the tricks each seat has won, 4
# bits per seat, a finished hand worth ``leaf[t0, t1, t2, t3]``; ``only`` (a card, or 0)
# restricts the seat to act to that card: the value of one move, never stored in the table.
@hot_kernel
def points_enter(p, w, s):
    """``(done, value, relevant, window, hint, key)``, the node counted; at a trick boundary the
    window narrowed by the table's bounds (within a trick the position is searched)."""
    s.stats[0] += 1
    if p.pos != 0:
        return False, 0.0, ZERO, w, ZERO, no_key()
    won, alpha, beta, only = w
    if p.n == 0:
        return True, leaf_value(s.leaf, won), ZERO, w, ZERO, no_key()
    if p.n == 1:
        seat, pin = last_trick(p)
        return True, leaf_value(s.leaf, won + (1 << (4 * seat))), pin, w, ZERO, no_key()
    if only != ZERO:
        return False, 0.0, ZERO, w, ZERO, no_key()
    key, lo_at, lo, hi_at, hi, hint = probe(p, s, won_key(won, s.merge))
    u = p.a0 | p.a1 | p.a2 | p.a3
    if lo >= beta:
        s.stats[1] += 1
        return True, lo, deposit_bits(s.tt[lo_at] & LOW52, u), w, ZERO, key
    if hi <= alpha:
        s.stats[1] += 1
        return True, hi, deposit_bits(s.tt[hi_at] & LOW52, u), w, ZERO, key
    if lo == hi:
        s.stats[1] += 1
        return True, lo, deposit_bits((s.tt[lo_at] | s.tt[hi_at]) & LOW52, u), w, ZERO, key
    return False, 0.0, ZERO, (won, max(alpha, lo), min(beta, hi), only), hint_card(u, hint), key


@hot_kernel
def points_restrict(p, moves, hint, w, s):
    """Only the card ``w[3]``, when one is given (and then no hint)."""
    if w[3] != ZERO:
        return moves & w[3], ZERO
    return moves, hint


@hot_kernel
def points_start(p, s):
    return -INF if maximizes(p.seat, s) else INF, ZERO


@hot_kernel
def points_settled(q, done, w, s):
    """``(known, value, relevant, child's window)``: the child is always searched, its
    window the current one, with the finished trick won by its winner."""
    return False, 0.0, ZERO, (w[0] + (np.int64(done) << (4 * q.seat)), w[1], w[2], ZERO)


@hot_kernel
def points_backup(p, s, value, best, w, c, child):
    """``(value, best, window, cut)`` after card ``c``: alpha-beta, fail-soft."""
    won, alpha, beta, only = w
    if maximizes(p.seat, s):
        if child > value:
            value = child
            best = c
        alpha = max(alpha, value)
    else:
        if child < value:
            value = child
            best = c
        beta = min(beta, value)
    return value, best, (won, alpha, beta, only), alpha >= beta


@hot_kernel
def points_store(p, w, s, value, best, rel, key):
    """The bound the result proves in the window ``w`` it was searched in, at a trick boundary
    (none for one card)."""
    if p.pos != 0 or w[3] != ZERO:
        return
    if value <= w[1]:
        lo = -INF
        hi = value
    elif value >= w[2]:
        lo = value
        hi = INF
    else:
        lo = value
        hi = value
    store_bounds(p, s, key, rel, lo, hi, best)


@kernel
def won_key(won, merge):
    """The tricks won as the table keys them: a team whose partners' tricks the leaf only adds
    up (bit ``team`` of ``merge``) is keyed by its total."""
    if merge & 1:
        won = (won & ~np.int64(0xF0F)) | ((won & 15) + ((won >> 8) & 15))
    if merge & 2:
        won = (won & ~np.int64(0xF0F0)) | ((((won >> 4) & 15) + ((won >> 12) & 15)) << 4)
    return won


@kernel
def leaf_merges(leaf, won, n):
    """Bit ``team`` set when every leaf the hand can reach from ``won`` (``n`` tricks left)
    depends on that team's two seats only through their total: then positions that differ
    only in how the partners split their tricks have the same value."""
    merge = np.int64(3)
    for t0 in range(n + 1):
        for t1 in range(n + 1 - t0):
            for t2 in range(n + 1 - t0 - t1):
                t3 = n - t0 - t1 - t2
                a = won[0] + t0
                b = won[1] + t1
                c = won[2] + t2
                d = won[3] + t3
                v = leaf[a, b, c, d]
                if t0 > 0 and leaf[a - 1, b, c + 1, d] != v:
                    merge &= ~np.int64(1)
                if t1 > 0 and leaf[a, b - 1, c, d + 1] != v:
                    merge &= ~np.int64(2)
    return merge


@kernel
def leaf_value(leaf, won):
    return leaf[won & 15, (won >> 4) & 15, (won >> 8) & 15, (won >> 12) & 15]
