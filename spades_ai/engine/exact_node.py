"""The records and the move loop's steps of the exact search of four in pairs (``node_search``).

One call of the node plays one card; the four hands travel as scalars (``Pos``) rotated so
that the seat to act comes first, so a ply moves no array::

    node(Pos(a0 a1 a2 a3, seat, pos, ...))   a0 = hand of ``seat``, the seat to act; a1 its left
        plays c from a0                      pos = cards already in the trick (0: a boundary)
        -> node(Pos(a1 a2 a3 a0^c, seat+1, pos+1, ...))
        after the fourth card the hands are rotated again so that the winner leads.

The sides of four in pairs are the seats of one parity (``maximizes``). Every argument of a
recursive kernel has one fixed type (numba can crash loading a second specialization from its
cache).
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.bits import (
    ALL_CARDS,
    ONE,
    SPADES,
    ZERO,
    compress_bits,
    lowest_bit,
    select_bit,
    suit_mask_of,
)
from spades_ai.engine.exact_moves import above, beats, best_index, distinct_moves, follow_order, lead_order, rotate
from spades_ai.engine.exact_table import length_signature, rank_region, trick_pin, tt_probe, tt_store
from spades_ai.engine.jit import hot_kernel
from spades_ai.engine.play import follow_mask, lead_mask, winning_offset


class Pos(NamedTuple):
    """A position of the search, one card to play: ``a0`` is the hand of ``seat``, to play the
    ``pos``-th card of the trick (0: it leads), ``a1 a2 a3`` the hands after it clockwise;
    ``led`` the led suit's mask, ``win``/``win_seat`` the card winning so far and its seat,
    ``trick`` the cards on the trick, ``broken`` whether a spade fell in an earlier trick and
    ``n`` the tricks not yet finished, the current one included."""

    a0: np.uint64
    a1: np.uint64
    a2: np.uint64
    a3: np.uint64
    seat: int
    pos: int
    led: np.uint64
    win: np.uint64
    win_seat: int
    trick: np.uint64
    broken: bool
    n: int


class Search(NamedTuple):
    """What a double-dummy search reads at every node besides the position: the searching
    team, the lead rules (``R_SPADE_LEAD``, ``R_FIRST_LEAD``), the table (``tt`` in generation
    ``gen``, buckets ``>> shift``) and ``stats`` (``int64[STATS]``)."""

    max_team: int
    spade_lead: int
    first_lead: int
    tt: np.ndarray
    gen: np.uint64
    shift: int
    stats: np.ndarray


class LeafSearch(NamedTuple):
    """``Search``'s fields for a search of points: a finished hand is worth ``leaf[t0, t1, t2,
    t3]``; bit ``team`` of ``merge`` keys that team by its total tricks (``leaf_merges``)."""

    max_team: int
    spade_lead: int
    first_lead: int
    tt: np.ndarray
    gen: np.uint64
    shift: int
    stats: np.ndarray
    leaf: np.ndarray
    merge: int


@hot_kernel
def maximizes(seat, s):
    """Whether ``seat`` plays for the searching team ``s.max_team`` (the teams of four in pairs:
    the seats of one parity)."""
    return (seat & 1) == s.max_team


@hot_kernel
def no_key():
    """The table key of a node that neither probes nor stores."""
    return ZERO, ZERO, ZERO, np.int64(0), ZERO


@hot_kernel
def node_moves(p, s):
    """``(moves, first, second, third)``: the distinct legal cards of the seat to act (one per
    run of equivalent cards) and the three classes of them tried first, for a lead or a follow."""
    u = p.a0 | p.a1 | p.a2 | p.a3
    if p.pos == 0:
        moves = distinct_moves(lead_mask(p.a0, p.broken, 13 - p.n, s.spade_lead, s.first_lead), p.a0, ~u & ALL_CARDS)
        first, second, third = lead_order(moves, p.a0, p.a1, p.a2, p.a3)
    else:
        moves = distinct_moves(follow_mask(p.a0, p.led), p.a0, ~(u | p.trick) & ALL_CARDS)
        first, second, third = follow_order(moves, p.pos, p.led, p.win, (p.win_seat & 1) == (p.seat & 1), p.a1, p.a2)
    return moves, first, second, third


@hot_kernel
def play(c, p, s):
    """``(child, done, pin)``: the position after the seat to act plays ``c``. With ``done``
    the card ends the trick (the child's seat is its winner, to lead) and ``pin`` holds the
    cards whose ranks decided it."""
    nxt = (p.seat + 1) & 3
    if p.pos == 0:
        return Pos(p.a1, p.a2, p.a3, p.a0 ^ c, nxt, np.int64(1), suit_mask_of(c), c, p.seat, c, p.broken, p.n), \
            False, ZERO
    if beats(c, p.win):
        nw = c
        nws = p.seat
    else:
        nw = p.win
        nws = p.win_seat
    if p.pos < 3:
        return Pos(p.a1, p.a2, p.a3, p.a0 ^ c, nxt, p.pos + 1, p.led, nw, nws, p.trick | c, p.broken, p.n), False, ZERO
    nb = p.broken or ((p.trick | c) & SPADES) != ZERO
    b0, b1, b2, b3 = rotate((nws - nxt) & 3, p.a1, p.a2, p.a3, p.a0 ^ c)
    return Pos(b0, b1, b2, b3, nws, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, nb, p.n - 1), True, \
        trick_pin(p.trick | c, nw)


@hot_kernel
def run_pin(c, moves, p, crel):
    """``c`` if the proof of ``c`` used a card of its run (the equivalent cards above it, which
    ``c`` stands for: their proofs are its own with the cards swapped), else nothing."""
    suit = suit_mask_of(c)
    up = moves & suit & above(c)
    run = p.a0 & suit & ~(c - ONE)
    if up != ZERO:
        run &= lowest_bit(up) - ONE
    return c if crel & run else ZERO


@hot_kernel
def undo(p, c, s):
    """Nothing: a position of four hands travels as scalars, and the child was a new one."""


@hot_kernel
def last_trick(p):
    """``(seat, pin)`` of the last trick, every hand holding one card: its winner and the
    winning card if its rank mattered."""
    off = winning_offset(p.a0, p.a1, p.a2, p.a3)
    wc, _, _, _ = rotate(off, p.a0, p.a1, p.a2, p.a3)
    return (p.seat + off) & 3, trick_pin(p.a0 | p.a1 | p.a2 | p.a3, wc)


@hot_kernel
def probe(p, s, won):
    """``(key, lo_at, lo, hi_at, hi, hint_idx)``: the table's key of the position (``won`` its
    tricks-won key) and its bounds, as ``tt_probe``."""
    u = p.a0 | p.a1 | p.a2 | p.a3
    sig = length_signature(p.a0, p.a1, p.a2, p.a3)
    ka = compress_bits(p.a1 | p.a3, u)
    kb = compress_bits(p.a2 | p.a3, u)
    lo_at, lo, hi_at, hi, hint_idx = tt_probe(s.tt, sig, p.seat, won, ka, kb, s.gen, s.shift)
    return (sig, ka, kb, won, ZERO), lo_at, lo, hi_at, hi, hint_idx


@hot_kernel
def hint_card(u, hint_idx):
    """The card a row names as best (``hint_idx``: 1 + its index in ``u``; 0: none)."""
    return select_bit(u, hint_idx - ONE) if hint_idx != ZERO else ZERO


@hot_kernel
def store_bounds(p, s, key, rel, lo, hi, best):
    """Store ``lo <= value <= hi`` for the position (``key`` from ``probe``), proved with the
    ranks of ``rel`` (the key's last field, a card, joins them), its best card ``best``."""
    u = p.a0 | p.a1 | p.a2 | p.a3
    region = rank_region(rel | key[4], u)
    bi = best_index(best, u) if best != ZERO else ZERO
    tt_store(s, key, p.seat, compress_bits(region, u), lo, hi, bi)
