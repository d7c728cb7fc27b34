"""Exact search on a fully visible Spades position: double dummy and a general objective.

One node search (``node_search.node``) serves two objectives, each bound into its own copy of
the node when it is compiled (``spades_ai.templates``), with one move generator, one move
order and one transposition table:

* "tricks", ``dd_tricks``: the most tricks the leader's team can take against best defence,
  by null-window tests ("can the team take >= k of the n tricks left?", a bisection on k).
* "points", ``objective_values``: the value of each legal card of the seat to act, from any
  point of a hand (mid-trick too), where a finished hand is worth ``leaf[t0, t1, t2, t3]`` to
  the maximizing team (seat s ended with ``t_s`` tricks); the other team minimizes. Fail-soft
  alpha-beta on floats in the window of the reachable leaf values, bounds in the table.

The steps of each objective are the ``tricks_*`` and ``points_*`` kernels below; a node never
tests which objective it serves. Search tree: one call of the node plays one card; the four
hands travel as scalars (``Pos``) rotated so that the seat to act comes first, so a ply moves
no array::

    node(Pos(a0 a1 a2 a3, seat, pos, ...))   a0 = hand of ``seat``, the seat to act; a1 its left
        plays c from a0                      pos = cards already in the trick (0: a boundary)
        -> node(Pos(a1 a2 a3 a0^c, seat+1, pos+1, ...))
        after the fourth card the hands are rotated again so that the winner leads.

Equivalent cards: two cards of one hand in one suit with only the hand's own cards, or cards
played to earlier tricks, between them are interchangeable; only the lowest of each run is
searched (an occluded fill through the earlier-played cards finds the runs). A card of the
current trick separates: it may lie between them.

Move order: the table's best card first; leads that cash a top card no opponent can ruff, then
low leads to the partner's top card or ruff, then low cards of safe suits; follows with the
cheapest card that wins for good when an opponent is winning, low cards when the partner is.
Sure tricks cut the double dummy short: the top-spade holder's unbroken run from the top, and
what the leader can cash (top spades while it may lead them, then side suits round by round
while every spade holder still follows).

Transposition table, at trick boundaries only, with winning ranks (as DDS): a proof uses the
ranks of few cards, those that beat a rival of their suit in a trick, plus the boundaries that
fixed a sure-trick count. Each node returns that set; a result then holds for every position
with the same suit lengths per hand whose cards at or above the lowest such card of each
suit (the region) have the same owners, relative ranks counted among the remaining cards ``U``
(``compress_bits`` = pext). Equivalent cards skipped at a node that needs all its cards pull
their run into the region; the spades-broken flag and the trick number follow from the
lengths within one search. A key is the suit lengths, the leader and the tricks won::

    key     sig = 16 suit lengths, 4 bits each (hand-major, rotated to the leader)
            won = tricks won per seat, 4 bits each; a team the leaf only adds up is keyed by
                  its total (objective search); in the double dummy, 16 + the offset of the
                  top spade's holder, a card every double-dummy region then includes
    bucket  TT_WAYS rows stored field by field, TT_WIDTH words per row:
            [sig x16][region x16][A x16][B x16][won x16][lo x16][hi x16][spare x16]
    region  bits 0..51 R = pext(region cards, U)    52..53 leader
            54..59 best card + 1 (index in U)        63 bucket overflowed (row 0 only)
    A       bits 0..51 pext(a1|a3, U) & R            52..63 generation (other: empty)
    B       bits 0..51 pext(a2|a3, U) & R            (owner of each card: 2 bits, A B)
    lo, hi  float64 bounds of the value (double dummy: tricks from here for the searching team)

A position matches a row when sig, leader, won and generation agree and its own owner bits
under R equal A and B; the match runs over a bucket without branches. A full bucket continues
in the next of up to TT_CHAIN buckets (row 0 keeps the flag); the last one replaces at random.
The generation is bumped by the caller for every search, so a table is reused without
clearing and the leaf may change between calls.

Card bits as in ``bits`` (the engine's layout: jokers and high deuces are spades above the ace,
in the trump lane, so nothing here tests for them); seats 0..3 clockwise, team = seat & 1.
Every argument of a recursive kernel has one fixed type (numba can crash loading a second
specialization from its cache).
"""

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from spades_ai.engine.jit import hot_kernel, kernel
from spades_ai.engine.bits import (
    ALL_CARDS,
    NON_SPADES,
    ONE,
    SPADES,
    SUIT_MASK,
    U64,
    ZERO,
    compress_bits,
    deposit_bits,
    highest_bit,
    lowest_bit,
    lowest_index,
    popcount,
    select_bit,
    suit_mask_of,
)
from spades_ai.engine.play import follow_mask, lead_mask, may_lead_spades, winning_offset
from spades_ai.engine.rng import below
from spades_ai.rules import FIRST_LOW_CLUB, R_FIRST_LEAD, R_SPADE_LEAD
from spades_ai.templates import bind

U1 = U64(1)
U2 = U64(2)
U4 = U64(4)
U8 = U64(8)
#: Every card bit but the lowest of each suit: fills must not carry across suits. The trump
#: lane runs on above the ace of spades (bits 52..55, jokers and high deuces, ``bits``), so a
#: fill carries from the ace into it; a bit whose card the rules moved there is empty, and
#: held by no hand, so it lies in ``gone`` like a played card.
NOT_LOW = U64(((1 << 56) - 1) & ~((1 << 0) | (1 << 13) | (1 << 26) | (1 << 39)))
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
#: ``node_search``'s binding to the objective "points" (its own ``_binding`` is "tricks").
POINTS_BINDING = """from spades_ai.engine.solver import points_backup as backup
from spades_ai.engine.solver import points_enter as enter
from spades_ai.engine.solver import points_restrict as restrict
from spades_ai.engine.solver import points_settled as settled
from spades_ai.engine.solver import points_start as start
from spades_ai.engine.solver import points_store as store
"""


@kernel
def distinct_moves(moves, own, gone):
    """``moves`` (cards of ``own``) less every card equivalent to a lower card of ``own``.

    ``gone`` holds the cards played to earlier tricks (not those of the current trick). Two
    cards of ``own`` in one suit are equivalent when every card between them is in ``own`` or
    ``gone``: fill upward from each own card through ``gone`` and drop the cards just above.
    """
    gen = own
    pro = gone & ~own & NOT_LOW
    gen |= pro & (gen << U1)
    pro &= pro << U1
    gen |= pro & (gen << U2)
    pro &= pro << U2
    gen |= pro & (gen << U4)
    pro &= pro << U4
    gen |= pro & (gen << U8)
    return moves & ~(own & (gen << U1) & NOT_LOW)


@kernel
def _above(b):
    """Every bit strictly above the one-bit mask ``b``."""
    return ~((b << U1) - ONE)


@kernel
def _beats(c, win):
    """Whether card ``c`` beats ``win``, the card now winning the trick."""
    if c & SPADES:
        return (win & SPADES) == ZERO or c > win
    return c > win and (c & suit_mask_of(win)) != ZERO


@kernel
def _top_run(mine, others, suit):
    """How many of ``mine``'s cards of ``suit`` rank above every card of ``others`` in it."""
    o = others & suit
    m = mine & suit
    if o == ZERO:
        return np.int64(popcount(m))
    return np.int64(popcount(m & _above(highest_bit(o))))


@kernel
def _len(h, suit):
    return np.int64(popcount(h & suit))


@kernel
def _boundary(others, suit):
    """The highest card of ``suit`` in ``others`` (0 if none): it fixes a top run's length."""
    o = others & suit
    return highest_bit(o) if o != ZERO else ZERO


@kernel
def quick_tricks(a0, a1, a2, a3, can_lead_spades):
    """``(tricks, pins)``: tricks the team of the leader (hand ``a0``; ``a2`` its partner)
    surely takes by cashing, and the cards whose ranks that count used.

    The leader's top spades win whenever played; when it may lead spades and its top run is at
    least as long as every other spade holding, it draws them and all its spades win. Then per
    side suit, round i of its top cards wins while every opponent (and the partner, who must
    not be forced to ruff and take the lead) either still follows or holds no spade. The count
    depends on the suit lengths and, per suit with a top run, on the highest card of the others.
    """
    others = a1 | a2 | a3
    run = _top_run(a0, others, SPADES)
    pins = _boundary(others, SPADES) if run > 0 else ZERO
    max_sp = max(_len(a1, SPADES), _len(a2, SPADES), _len(a3, SPADES))
    drawn = max_sp == 0 or (can_lead_spades and run >= max_sp)
    total = np.int64(popcount(a0 & SPADES)) if drawn else run
    sp1 = (a1 & SPADES) != ZERO
    sp2 = (a2 & SPADES) != ZERO
    sp3 = (a3 & SPADES) != ZERO
    for s in range(3):
        suit = SUIT_MASK[s]
        mine = _len(a0, suit)
        if mine == 0:
            continue
        w = _top_run(a0, others, suit)
        if w == 0:
            continue
        pins |= _boundary(others, suit)
        l1 = _len(a1, suit)
        l2 = _len(a2, suit)
        l3 = _len(a3, suit)
        if w >= max(l1, l2, l3):
            w = mine
        if drawn:
            total += w
            continue
        # Rounds 1..r are safe while each spade holder still follows.
        r = w
        if sp1:
            r = min(r, l1)
        if sp2:
            r = min(r, l2)
        if sp3:
            r = min(r, l3)
        total += r
    return total, pins


@kernel
def sure_spade_run(a0, a1, a2, a3):
    """``(offset, run, pin)``: the hand (offset 0..3) holding the highest spade, how many of its
    spades rank above every other spade (each wins a trick whenever it is played), and the
    highest of those other spades (0 if none), which fixes the run's length."""
    sp = (a0 | a1 | a2 | a3) & SPADES
    if sp == ZERO:
        return np.int64(0), np.int64(0), ZERO
    top = highest_bit(sp)
    if a0 & top:
        off = np.int64(0)
        mine = a0
    elif a1 & top:
        off = np.int64(1)
        mine = a1
    elif a2 & top:
        off = np.int64(2)
        mine = a2
    else:
        off = np.int64(3)
        mine = a3
    rest = sp & ~mine
    return off, _top_run(mine, rest, SPADES), _boundary(rest, SPADES)


@kernel
def _rotate(k, b0, b1, b2, b3):
    """``(b_k, b_k+1, b_k+2, b_k+3)``, indices mod 4."""
    if k == 0:
        return b0, b1, b2, b3
    if k == 1:
        return b1, b2, b3, b0
    if k == 2:
        return b2, b3, b0, b1
    return b3, b0, b1, b2


@kernel
def _best_index(c, u):
    """Index of card ``c`` among the remaining cards ``u`` (stored as 1 + index)."""
    return U64(popcount(u & (c - ONE))) + ONE


@kernel
def _ruffs(h, suit):
    """Whether hand ``h`` could trump a lead of the side suit ``suit`` (void in it, holds a spade)."""
    return (h & suit) == ZERO and (h & SPADES) != ZERO and suit != SPADES


@kernel
def _lead_order(moves, a0, a1, a2, a3):
    """Leads in three preferred classes (the rest come last): cash a suit's top card where no
    opponent ruffs; lead low to the partner's top card or to a partner's ruff; low cards of the
    suits no opponent ruffs."""
    u = a0 | a1 | a2 | a3
    cash = ZERO
    to_partner = ZERO
    low = ZERO
    for s in range(4):
        suit = SUIT_MASK[s]
        m = moves & suit
        if m == ZERO:
            continue
        if _ruffs(a1, suit) or _ruffs(a3, suit):
            continue
        top = highest_bit(u & suit)
        if top & a0:
            cash |= highest_bit(m)
        elif (top & a2) or _ruffs(a2, suit):
            to_partner |= lowest_bit(m)
        else:
            low |= lowest_bit(m)
    return cash, to_partner, low


@kernel
def _can_beat(h, led, win):
    """Whether hand ``h``, following to a trick led in ``led``, has a card that beats ``win``."""
    same = h & led
    if same != ZERO:
        return (win & led) != ZERO and highest_bit(same) > win
    sp = h & SPADES
    if sp == ZERO:
        return False
    return (win & SPADES) == ZERO or highest_bit(sp) > win


@kernel
def _follow_order(moves, pos, led, win, partner_wins, a1, a2):
    """Follows in three preferred classes (the rest come last). Last to play: the cheapest
    winner if an opponent wins, else the lowest cards. Earlier: a cheap winner that the next
    opponent cannot beat, then low cards; low cards first if the partner already wins safely."""
    if win & SPADES:
        beat = moves & SPADES & _above(win)
    else:
        beat = (moves & led & _above(win)) | (moves & SPADES)
    losers = moves & ~beat
    if pos == 3:
        if partner_wins:
            return losers, ZERO, ZERO
        return lowest_bit(beat), losers, ZERO
    # The next seat (a1) is an opponent; after it, at pos 1, plays the partner (a2).
    if partner_wins and not _can_beat(a1, led, win):
        return losers, ZERO, ZERO
    sure = ZERO
    m = beat
    while m != ZERO:
        c = lowest_bit(m)
        if not _can_beat(a1, led, c):
            sure = c
            break
        m ^= c
    return sure, losers, ZERO


@kernel
def length_signature(a0, a1, a2, a3):
    """The 16 suit lengths of the four hands, 4 bits each (hand-major)."""
    sig = ZERO
    for s in range(4):
        m = SUIT_MASK[s]
        sh = U64(4 * s)
        sig |= (U64(popcount(a0 & m)) << sh) | (U64(popcount(a1 & m)) << (sh + U64(16)))
        sig |= (U64(popcount(a2 & m)) << (sh + U64(32))) | (U64(popcount(a3 & m)) << (sh + U64(48)))
    return sig


@kernel
def rank_region(w, u):
    """The remaining cards ``u`` at or above the lowest card of ``w`` in each suit."""
    r = ZERO
    for s in range(4):
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


# -- the search records and the move loop of the node search --------------------------------------
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


@hot_kernel
def _maximizes(seat, s):
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
        first, second, third = _lead_order(moves, p.a0, p.a1, p.a2, p.a3)
    else:
        moves = distinct_moves(follow_mask(p.a0, p.led), p.a0, ~(u | p.trick) & ALL_CARDS)
        first, second, third = _follow_order(moves, p.pos, p.led, p.win, (p.win_seat & 1) == (p.seat & 1), p.a1, p.a2)
    return moves, first, second, third


@hot_kernel
def class_moves(cls, hint, first, second, third, rest):
    """The untried moves (``rest``) of class ``cls`` in the search order: the table's hint, the
    three ordered classes, then every other move."""
    if cls == 0:
        return hint & rest
    if cls == 1:
        return first & rest
    if cls == 2:
        return second & rest
    if cls == 3:
        return third & rest
    return rest


@hot_kernel
def after(c, p):
    """``(child, done, pin)``: the position after the seat to act plays ``c``. With ``done``
    the card ends the trick (the child's seat is its winner, to lead) and ``pin`` holds the
    cards whose ranks decided it."""
    nxt = (p.seat + 1) & 3
    if p.pos == 0:
        return Pos(p.a1, p.a2, p.a3, p.a0 ^ c, nxt, np.int64(1), suit_mask_of(c), c, p.seat, c, p.broken, p.n), \
            False, ZERO
    if _beats(c, p.win):
        nw = c
        nws = p.seat
    else:
        nw = p.win
        nws = p.win_seat
    if p.pos < 3:
        return Pos(p.a1, p.a2, p.a3, p.a0 ^ c, nxt, p.pos + 1, p.led, nw, nws, p.trick | c, p.broken, p.n), False, ZERO
    nb = p.broken or ((p.trick | c) & SPADES) != ZERO
    b0, b1, b2, b3 = _rotate((nws - nxt) & 3, p.a1, p.a2, p.a3, p.a0 ^ c)
    return Pos(b0, b1, b2, b3, nws, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, nb, p.n - 1), True, \
        trick_pin(p.trick | c, nw)


@hot_kernel
def run_pin(c, moves, a0, crel):
    """``c`` if the proof of ``c`` used a card of its run (the equivalent cards above it, which
    ``c`` stands for: their proofs are its own with the cards swapped), else nothing."""
    suit = suit_mask_of(c)
    up = moves & suit & _above(c)
    run = a0 & suit & ~(c - ONE)
    if up != ZERO:
        run &= lowest_bit(up) - ONE
    return c if crel & run else ZERO


@hot_kernel
def _last_trick(p):
    """``(seat, pin)`` of the last trick, every hand holding one card: its winner and the
    winning card if its rank mattered."""
    off = winning_offset(p.a0, p.a1, p.a2, p.a3)
    wc, _, _, _ = _rotate(off, p.a0, p.a1, p.a2, p.a3)
    return (p.seat + off) & 3, trick_pin(p.a0 | p.a1 | p.a2 | p.a3, wc)


@hot_kernel
def _probe(p, s, won):
    """``(key, lo_at, lo, hi_at, hi, hint_idx)``: the table's key of the position (``won`` its
    tricks-won key) and its bounds, as ``tt_probe``."""
    u = p.a0 | p.a1 | p.a2 | p.a3
    sig = length_signature(p.a0, p.a1, p.a2, p.a3)
    ka = compress_bits(p.a1 | p.a3, u)
    kb = compress_bits(p.a2 | p.a3, u)
    lo_at, lo, hi_at, hi, hint_idx = tt_probe(s.tt, sig, p.seat, won, ka, kb, s.gen, s.shift)
    return (sig, ka, kb, won, ZERO), lo_at, lo, hi_at, hi, hint_idx


@hot_kernel
def _hint(u, hint_idx):
    """The card a row names as best (``hint_idx``: 1 + its index in ``u``; 0: none)."""
    return select_bit(u, hint_idx - ONE) if hint_idx != ZERO else ZERO


@hot_kernel
def _stored(p, s, key, rel, lo, hi, best):
    """Store ``lo <= value <= hi`` for the position (``key`` from ``_probe``), proved with the
    ranks of ``rel`` (the key's last field, a card, joins them), its best card ``best``."""
    u = p.a0 | p.a1 | p.a2 | p.a3
    region = rank_region(rel | key[4], u)
    bi = _best_index(best, u) if best != ZERO else ZERO
    tt_store(s, key, p.seat, compress_bits(region, u), lo, hi, bi)


# -- the objective "tricks": the double dummy ----------------------------------------------------
# ``node_search`` bound to these (``_binding``): the value is whether ``max_team`` takes at least
# ``w`` (the target) of the tricks left, the current one included; the table's rows hold the
# tricks from here, keyed by the top spade's holder (``top_spade_key``).
@hot_kernel
def _sure_tricks(p, target, s):
    """``(done, result, pin)``: the test decided by sure tricks (the top spade run, and the
    leader's cashing tricks), and the cards whose ranks that used."""
    off, run, pin = sure_spade_run(p.a0, p.a1, p.a2, p.a3)
    if _maximizes(p.seat + off, s):
        if run >= target:
            return True, True, pin
    elif p.n - run < target:
        return True, False, pin
    trick_no = 13 - p.n
    if not (trick_no == 0 and s.first_lead == FIRST_LOW_CLUB):
        can_sp = may_lead_spades(p.broken, trick_no, s.spade_lead) or (p.a0 & NON_SPADES) == ZERO
        q, qpin = quick_tricks(p.a0, p.a1, p.a2, p.a3, can_sp)
        if _maximizes(p.seat, s):
            if q >= target:
                return True, True, qpin
        elif p.n - q < target:
            return True, False, qpin
    return False, False, ZERO


@hot_kernel
def tricks_enter(p, target, s):
    """At a trick boundary: ``(done, result, relevant, target, hint, key)``; ``done`` when the
    target is out of reach either way, the last trick decides, the table or sure tricks do."""
    if target <= 0:
        return True, True, ZERO, target, ZERO, no_key()
    if target > p.n:
        return True, False, ZERO, target, ZERO, no_key()
    if p.n == 1:
        seat, pin = _last_trick(p)
        return True, _maximizes(seat, s), pin, target, ZERO, no_key()
    tkey, top = top_spade_key(p.a0, p.a1, p.a2, p.a3)
    key, lo_at, lo, hi_at, hi, hint = _probe(p, s, tkey)
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
    return False, False, ZERO, target, _hint(u, hint), key


@hot_kernel
def tricks_restrict(moves, hint, target):
    return moves, hint


@hot_kernel
def tricks_start(p, s):
    """``(result, best)`` before any card: the test fails for the side to act until a card wins it."""
    return not _maximizes(p.seat, s), ZERO


@hot_kernel
def tricks_settled(q, done, target, s):
    """``(known, result, relevant, child's target)``: a finished trick may decide the test
    without a search of the child."""
    t2 = target - np.int64(done and _maximizes(q.seat, s))
    if done and t2 <= 0:
        return True, True, ZERO, t2
    if done and t2 > q.n:
        return True, False, ZERO, t2
    return False, False, ZERO, t2


@hot_kernel
def tricks_backup(p, s, result, best, target, c, child):
    """``(result, best, target, cut)`` after card ``c``: the first card that wins the test
    for the side to act decides it."""
    mover_max = _maximizes(p.seat, s)
    if child == mover_max:
        return mover_max, c, target, True
    return result, best, target, False


@hot_kernel
def tricks_store(p, target, s, result, best, rel, key):
    """The proved bound on the tricks from here; only a test that succeeds names a card."""
    lo = np.float64(target) if result else 0.0
    hi = np.float64(p.n) if result else np.float64(target - 1)
    _stored(p, s, key, rel, lo, hi, best)


# -- the objective "points": a leaf of the finished hand's value ---------------------------------
# ``node_search`` bound to these (``_points_binding``): the value to ``max_team`` of the position,
# in the window ``w = (won, alpha, beta, only)`` (fail-soft: a result at or below ``alpha`` is an
# upper bound, one at or above ``beta`` a lower bound); ``won`` the tricks each seat has won, 4
# bits per seat, a finished hand worth ``leaf[t0, t1, t2, t3]``; ``only`` (a card, or 0)
# restricts the seat to act to that card: the value of one move, never stored in the table.
@hot_kernel
def points_enter(p, w, s):
    """At a trick boundary: ``(done, value, relevant, window, hint, key)``, the window narrowed
    by the table's bounds."""
    won, alpha, beta, only = w
    if p.n == 0:
        return True, _leaf_value(s.leaf, won), ZERO, w, ZERO, no_key()
    if p.n == 1:
        seat, pin = _last_trick(p)
        return True, _leaf_value(s.leaf, won + (1 << (4 * seat))), pin, w, ZERO, no_key()
    if only != ZERO:
        return False, 0.0, ZERO, w, ZERO, no_key()
    key, lo_at, lo, hi_at, hi, hint = _probe(p, s, won_key(won, s.merge))
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
    return False, 0.0, ZERO, (won, max(alpha, lo), min(beta, hi), only), _hint(u, hint), key


@hot_kernel
def points_restrict(moves, hint, w):
    """Only the card ``w[3]``, when one is given (and then no hint)."""
    if w[3] != ZERO:
        return moves & w[3], ZERO
    return moves, hint


@hot_kernel
def points_start(p, s):
    return -INF if _maximizes(p.seat, s) else INF, ZERO


@hot_kernel
def points_settled(q, done, w, s):
    """``(known, value, relevant, child's window)``: the child is always searched, its
    window the current one, with the finished trick won by its winner."""
    return False, 0.0, ZERO, (w[0] + (np.int64(done) << (4 * q.seat)), w[1], w[2], ZERO)


@hot_kernel
def points_backup(p, s, value, best, w, c, child):
    """``(value, best, window, cut)`` after card ``c``: alpha-beta, fail-soft."""
    won, alpha, beta, only = w
    if _maximizes(p.seat, s):
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
    """The bound the result proves in the window ``w`` it was searched in (none for one card)."""
    if w[3] != ZERO:
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
    _stored(p, s, key, rel, lo, hi, best)


# The node search (``node_search``, a template) bound to each objective: numba compiles and caches
# each as its own recursive kernel, with the objective's steps inlined (a second specialization of
# one recursive kernel cannot be loaded from numba's cache, numba issue 6061).
from spades_ai.engine import node_search as tricks_search  # noqa: E402  (the template imports the above)

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
    a0, a1, a2, a3 = _rotate(leader, hands[0], hands[1], hands[2], hands[3])
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
def _leaf_value(leaf, won):
    return leaf[won & 15, (won >> 4) & 15, (won >> 8) & 15, (won >> 12) & 15]


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
        elif _beats(c, win):
            win = c
            win_seat = (leader + i) & 3
        trick |= c
    a0, a1, a2, a3 = _rotate(seat, hands[0], hands[1], hands[2], hands[3])
    return Pos(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, np.int64(popcount(hands[seat])))


@kernel
def _run_of(c, moves, a0, legal):
    """The legal cards of ``a0`` that ``c`` stands for: its run up to the next move of its suit."""
    suit = suit_mask_of(c)
    up = moves & suit & _above(c)
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
    a0, a1, a2, a3 = _rotate(leader, hands[0], hands[1], hands[2], hands[3])
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
            elif _beats(c, win):
                win = c
                win_seat = seat
            hands[seat] = h ^ c
            trick |= c
            seat = (seat + 1) & 3
        broken = broken or (trick & SPADES) != ZERO
        leader = win_seat
        won[leader] += 1
    return leader, broken, state
