"""The transposition table of the exact search of four in pairs (``solver``).

At trick boundaries only, with winning ranks (as DDS): a proof uses the ranks of few cards,
those that beat a rival of their suit in a trick, plus the boundaries that fixed a sure-trick
count. Each node returns that set; a result then holds for every position with the same suit
lengths per hand whose cards at or above the lowest such card of each suit (the region) have
the same owners, relative ranks counted among the remaining cards ``U`` (``compress_bits`` =
pext). Equivalent cards skipped at a node that needs all its cards pull their run into the
region; the spades-broken flag and the trick number follow from the lengths within one search.
A key is the suit lengths, the leader and the tricks won::

    key     sig = 16 suit lengths, 4 bits each (hand-major, rotated to the leader)
            won = tricks won per seat, 4 bits each; a side the leaf only adds up is keyed by
                  its total (objective search); in the double dummy, 16 + the offset of the
                  top spade's holder, a card every double-dummy region then includes
    bucket  TT_WAYS rows stored field by field, TT_WIDTH words per row:
            [sig x16][region x16][A x16][B x16][won x16][lo x16][hi x16][spare x16]
    region  bits 0..51 R = pext(region cards, U)    52..53 leader
            54..59 best card + 1 (index in U)        63 bucket overflowed (row 0 only)
    A       bits 0..51 pext(a1|a3, U) & R            52..63 generation (other: empty)
    B       bits 0..51 pext(a2|a3, U) & R            (owner of each card: 2 bits, A B)
    lo, hi  float64 bounds of the value (double dummy: tricks from here for the searching side)

A position matches a row when sig, leader, won and generation agree and its own owner bits
under R equal A and B; the match runs over a bucket without branches. A full bucket continues
in the next of up to TT_CHAIN buckets (row 0 keeps the flag); the last one replaces at random.
The generation is bumped by the caller for every search, so a table is reused without
clearing and the leaf may change between calls.
"""

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from spades_ai.engine.bits import (
    N_SUITS,
    ONE,
    SPADES,
    SUIT_MASK,
    U64,
    ZERO,
    highest_bit,
    lowest_bit,
    lowest_index,
    popcount,
    suit_mask_of,
)
from spades_ai.engine.jit import kernel

HASH1 = U64(0x9E3779B97F4A7C15)
HASH2 = U64(0xC2B2AE3D27D4EB4F)
HASH3 = U64(0x165667B19E3779F9)
INF = np.inf
#: The table: buckets of TT_WAYS rows stored field by field (TT_WIDTH fields), chained over
#: up to TT_CHAIN buckets per key.
TT_WAYS = 16
TT_CHAIN = 8
TT_WIDTH = 8
TT_SIG, TT_REGION, TT_A, TT_B, TT_WON, TT_LO, TT_HI = range(7)
LOW52 = U64((1 << 52) - 1)
STATS = 4  # stats[0] nodes, [1] table hits that cut, [2] sure-trick cuts, [3] tests


@kernel
def length_signature(a0, a1, a2, a3):
    """The 16 suit lengths of the four hands, 4 bits each (hand-major)."""
    sig = ZERO
    for s in range(N_SUITS):
        m = SUIT_MASK[s]
        sh = U64(4 * s)
        sig |= (U64(popcount(a0 & m)) << sh) | (U64(popcount(a1 & m)) << (sh + U64(16)))
        sig |= (U64(popcount(a2 & m)) << (sh + U64(32))) | (U64(popcount(a3 & m)) << (sh + U64(48)))
    return sig


@kernel
def rank_region(w, u):
    """The remaining cards ``u`` at or above the lowest card of ``w`` in each suit."""
    r = ZERO
    for s in range(N_SUITS):
        ws = w & SUIT_MASK[s]
        if ws != ZERO:
            r |= u & SUIT_MASK[s] & ~(lowest_bit(ws) - ONE)
    return r


@kernel
def top_spade_key(a0, a1, a2, a3):
    """``(key, card)``: the highest spade and 16 + its holder's offset (0, 0 without spades).

    The double dummy keys its rows by who holds it too and always puts it in the region:
    proofs nearly always use it, and the suit-length keys of a full deal that share a
    bucket chain by the hundred spread over four."""
    sp = (a0 | a1 | a2 | a3) & SPADES
    if sp == ZERO:
        return np.int64(0), ZERO
    top = highest_bit(sp)
    off = np.int64((a1 & top) != ZERO) + 2 * np.int64((a2 & top) != ZERO) + 3 * np.int64((a3 & top) != ZERO)
    return np.int64(16) + off, top


@kernel
def trick_pin(trick, w):
    """``w`` if the trick's winner beat another card of its suit (its rank mattered), else 0."""
    if w & SPADES:
        rivals = trick & SPADES & ~w
    else:
        rivals = trick & suit_mask_of(w) & ~w
    return w if rivals != ZERO else ZERO


@intrinsic
def _float_bits(typingctx, x):
    sig = types.uint64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return sig, codegen


@intrinsic
def _bits_float(typingctx, x):
    sig = types.float64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


@kernel
def _block(sig, leader, won, link, shift):
    """Start of bucket ``link`` (0, 1, ...) of the chain of ``(sig, leader, won)``."""
    h = (sig ^ (U64(leader) * HASH2) ^ (U64(won) * HASH3) ^ (U64(link) * HASH1)) * HASH1
    h ^= h >> U64(29)
    h *= HASH3
    return np.int64(h >> U64(shift)) * (TT_WIDTH * TT_WAYS)


@kernel
def _scan(tt, o, sig, lead, won, a, b, gen):
    """The ways of the bucket at ``o`` whose row matches the position, as a bit mask."""
    hits = ZERO
    for j in range(TT_WAYS):
        w1 = tt[o + TT_REGION * TT_WAYS + j]
        w2 = tt[o + TT_A * TT_WAYS + j]
        r = w1 & LOW52
        same = (tt[o + j] == sig) & ((w2 >> U64(52)) == gen) & (((w1 >> U64(52)) & U64(3)) == lead) \
            & (tt[o + TT_WON * TT_WAYS + j] == won) & ((a & r) == (w2 & LOW52)) \
            & ((b & r) == tt[o + TT_B * TT_WAYS + j])
        hits |= U64(same) << U64(j)
    return hits


@kernel
def _chained(tt, o, gen):
    """Whether the bucket at ``o`` overflowed into the next bucket of its chain in this
    generation (bit 63 of its first row's region word; that row is never replaced)."""
    return (tt[o + TT_REGION * TT_WAYS] >> U64(63)) != ZERO and (tt[o + TT_A * TT_WAYS] >> U64(52)) == gen


@kernel
def tt_probe(tt, sig, leader, won, a, b, gen, shift):
    """``(lo_word, lo, hi_word, hi, hint)``: the greatest lower and least upper bound of the
    rows that match the position, with the word holding each one's region (-1: no bound),
    and 1 + the index of a stored best card (0: none)."""
    lead = U64(leader)
    won = U64(won)
    hint = ZERO
    lo = -INF
    hi = INF
    lo_at = np.int64(-1)
    hi_at = np.int64(-1)
    for link in range(TT_CHAIN):
        o = _block(sig, leader, won, link, shift)
        hits = _scan(tt, o, sig, lead, won, a, b, gen)
        while hits != ZERO:
            j = lowest_index(hits)
            hits &= hits - ONE
            elo = _bits_float(tt[o + TT_LO * TT_WAYS + j])
            ehi = _bits_float(tt[o + TT_HI * TT_WAYS + j])
            if elo > lo:
                lo = elo
                lo_at = o + TT_REGION * TT_WAYS + j
            if ehi < hi:
                hi = ehi
                hi_at = o + TT_REGION * TT_WAYS + j
            if hint == ZERO:
                hint = (tt[o + TT_REGION * TT_WAYS + j] >> U64(54)) & U64(63)
        if not _chained(tt, o, gen):
            break
    return lo_at, lo, hi_at, hi, hint


@kernel
def tt_store(s, key, leader, r, lo, hi, best):
    """Record ``lo <= value <= hi`` for the positions that match ``key`` (``(sig, a, b, won,
    _)``: the suit lengths, the owner bits and the tricks-won key), ``leader`` and the owner
    bits ``a``, ``b`` on the relative-rank region ``r``, in the table of the search ``s``: in
    the row of the same key and region (bounds merged), else in a free row of the chain, else
    over a random row of its last bucket."""
    tt = s.tt
    gen = s.gen
    shift = s.shift
    salt = s.stats[0]
    sig = key[0]
    lead = U64(leader)
    won = U64(key[3])
    a = key[1] & r
    b = key[2] & r
    key1 = r | (lead << U64(52))
    for link in range(TT_CHAIN):
        o = _block(sig, leader, won, link, shift)
        free = np.int64(-1)
        for j in range(TT_WAYS):
            w1 = tt[o + TT_REGION * TT_WAYS + j]
            w2 = tt[o + TT_A * TT_WAYS + j]
            if (w2 >> U64(52)) != gen:
                if free < 0:
                    free = j
                continue
            if tt[o + j] == sig and (w1 & (LOW52 | (U64(3) << U64(52)))) == key1 and (w2 & LOW52) == a \
                    and tt[o + TT_B * TT_WAYS + j] == b and tt[o + TT_WON * TT_WAYS + j] == won:
                tt[o + TT_LO * TT_WAYS + j] = _float_bits(max(lo, _bits_float(tt[o + TT_LO * TT_WAYS + j])))
                tt[o + TT_HI * TT_WAYS + j] = _float_bits(min(hi, _bits_float(tt[o + TT_HI * TT_WAYS + j])))
                if best != ZERO:
                    tt[o + TT_REGION * TT_WAYS + j] = (w1 & ~(U64(63) << U64(54))) | (best << U64(54))
                return
        if free >= 0:
            break
        if link == TT_CHAIN - 1:
            free = np.int64(1) + (salt % (TT_WAYS - 1))  # the first row keeps the chain flag
            break
        if not _chained(tt, o, gen):
            tt[o + TT_REGION * TT_WAYS] |= ONE << U64(63)
    flag = ZERO
    if free == 0 and _chained(tt, o, gen):
        flag = ONE << U64(63)
    tt[o + free] = sig
    tt[o + TT_REGION * TT_WAYS + free] = key1 | (best << U64(54)) | flag
    tt[o + TT_A * TT_WAYS + free] = a | (gen << U64(52))
    tt[o + TT_B * TT_WAYS + free] = b
    tt[o + TT_WON * TT_WAYS + free] = won
    tt[o + TT_LO * TT_WAYS + free] = _float_bits(lo)
    tt[o + TT_HI * TT_WAYS + free] = _float_bits(hi)


class Memo(NamedTuple):
    """A transposition table as the callers keep it: ``tt`` in generation ``gen`` (1..4095, new
    for each search), buckets ``>> shift``, and ``stats`` (``int64[STATS]``)."""

    tt: np.ndarray
    gen: np.uint64
    shift: int
    stats: np.ndarray


@kernel
def memo_of(tt, gen, shift, stats):
    """The ``Memo`` of a table, one fixed type per field."""
    return Memo(tt, U64(gen), np.int64(shift), stats)
