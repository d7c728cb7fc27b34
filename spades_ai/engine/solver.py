"""Exact search on a fully visible Spades position: double dummy and a general objective.

Two searches share one move generator, one move order and one transposition table:

* ``dd_tricks``: the most tricks the leader's team can take against best defence, by
  null-window tests ("can the team take >= k of the n tricks left?", a bisection on k).
* ``objective_values``: the value of each legal card of the seat to act, from any point of a
  hand (mid-trick too), where a finished hand is worth ``leaf[t0, t1, t2, t3]`` to the
  maximizing team (seat s ended with ``t_s`` tricks); the other team minimizes. Fail-soft
  alpha-beta on floats in the window of the reachable leaf values, bounds in the table.

Search tree. One call of a node kernel plays one card; the four hands travel as scalars
rotated so that the seat to act comes first, so a ply moves no array::

    node(a0 a1 a2 a3, seat, pos, ...)     a0 = hand of ``seat``, the seat to act; a1 its left
        plays c from a0                   pos = cards already in the trick (0: a boundary)
        -> node(a1 a2 a3 a0^c, seat+1, pos+1, ...)
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
from spades_ai.rules import FIRST_LOW_CLUB

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
def tt_store(tt, sig, leader, won, r, a, b, gen, shift, lo, hi, best, salt):
    """Record ``lo <= value <= hi`` for the positions that match ``sig``, ``leader``, ``won``
    and the owner bits ``a``, ``b`` on the relative-rank region ``r``: in the row of the same
    key and region (bounds merged), else in a free row of the chain, else over a random row of
    its last bucket."""
    lead = U64(leader)
    won = U64(won)
    a &= r
    b &= r
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


# -- the move loop both searches share ------------------------------------------------------------
@hot_kernel
def _moves(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, trick_no, spade_lead, first_lead):
    """``(moves, first, second, third)``: the distinct legal cards of the seat to act (one per
    run of equivalent cards) and the three classes of them tried first, for a lead or a follow."""
    u = a0 | a1 | a2 | a3
    if pos == 0:
        moves = distinct_moves(lead_mask(a0, broken, trick_no, spade_lead, first_lead), a0, ~u & ALL_CARDS)
        first, second, third = _lead_order(moves, a0, a1, a2, a3)
    else:
        moves = distinct_moves(follow_mask(a0, led), a0, ~(u | trick) & ALL_CARDS)
        first, second, third = _follow_order(moves, pos, led, win, (win_seat & 1) == (seat & 1), a1, a2)
    return moves, first, second, third


@hot_kernel
def _class_moves(cls, hint, first, second, third, rest):
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
def _after(c, a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken):
    """The position after ``seat`` plays ``c``: ``(b0, b1, b2, b3, seat, pos, led, win,
    win_seat, trick, broken, done, pin)`` as a node takes them, ``b0`` the hand to act. With
    ``done`` the card ends the trick: ``seat`` is its winner, to lead, and ``pin`` the cards
    whose ranks decided it."""
    nxt = (seat + 1) & 3
    if pos == 0:
        return a1, a2, a3, a0 ^ c, nxt, np.int64(1), suit_mask_of(c), c, seat, c, broken, False, ZERO
    if _beats(c, win):
        nw = c
        nws = seat
    else:
        nw = win
        nws = win_seat
    if pos < 3:
        return a1, a2, a3, a0 ^ c, nxt, pos + 1, led, nw, nws, trick | c, broken, False, ZERO
    nb = broken or ((trick | c) & SPADES) != ZERO
    b0, b1, b2, b3 = _rotate((nws - nxt) & 3, a1, a2, a3, a0 ^ c)
    return b0, b1, b2, b3, nws, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, nb, True, trick_pin(trick | c, nw)


@hot_kernel
def _run_pin(c, moves, a0, crel):
    """``c`` if the proof of ``c`` used a card of its run (the equivalent cards above it, which
    ``c`` stands for: their proofs are its own with the cards swapped), else nothing."""
    suit = suit_mask_of(c)
    up = moves & suit & _above(c)
    run = a0 & suit & ~(c - ONE)
    if up != ZERO:
        run &= lowest_bit(up) - ONE
    return c if crel & run else ZERO


@kernel
def dd_node(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, n, target,
            max_team, spade_lead, first_lead, tt, gen, shift, stats):
    """``(result, relevant)``: whether ``max_team`` takes at least ``target`` of the ``n``
    tricks left (the current one included), and the cards whose ranks the proof used.

    ``a0`` is the hand of ``seat``, to play the ``pos``-th card of the trick; ``led`` is the
    led suit's mask, ``win``/``win_seat`` the card winning so far, ``trick`` the cards played
    to it, ``broken`` whether a spade fell in an earlier trick. The result holds for every
    position with the same suit lengths per hand whose cards at or above the lowest relevant
    card of each suit lie where they lie here (the table stores it that way)."""
    stats[0] += 1
    mover_max = (seat & 1) == max_team
    hint = ZERO
    u = a0 | a1 | a2 | a3
    if pos == 0:
        if target <= 0:
            return True, ZERO
        if target > n:
            return False, ZERO
        if n == 1:
            off = winning_offset(a0, a1, a2, a3)
            wc, _, _, _ = _rotate(off, a0, a1, a2, a3)
            return ((seat + off) & 1) == max_team, trick_pin(u, wc)
        trick_no = 13 - n
        sig = length_signature(a0, a1, a2, a3)
        ka = compress_bits(a1 | a3, u)
        kb = compress_bits(a2 | a3, u)
        tkey, top = top_spade_key(a0, a1, a2, a3)
        lo_at, lo, hi_at, hi, hint_idx = tt_probe(tt, sig, seat, tkey, ka, kb, gen, shift)
        if lo >= target:
            stats[1] += 1
            return True, deposit_bits(tt[lo_at] & LOW52, u)
        if hi < target:
            stats[1] += 1
            return False, deposit_bits(tt[hi_at] & LOW52, u)
        # Sure tricks: the top spade run, and the leader's cashing tricks.
        off, run, pin = sure_spade_run(a0, a1, a2, a3)
        if ((seat + off) & 1) == max_team:
            if run >= target:
                stats[2] += 1
                return True, pin
        elif n - run < target:
            stats[2] += 1
            return False, pin
        if not (trick_no == 0 and first_lead == FIRST_LOW_CLUB):
            can_sp = may_lead_spades(broken, trick_no, spade_lead) or (a0 & NON_SPADES) == ZERO
            q, qpin = quick_tricks(a0, a1, a2, a3, can_sp)
            if mover_max:
                if q >= target:
                    stats[2] += 1
                    return True, qpin
            elif n - q < target:
                stats[2] += 1
                return False, qpin
        if hint_idx != ZERO:
            hint = select_bit(u, hint_idx - ONE)
    moves, first, second, third = _moves(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, 13 - n,
                                         spade_lead, first_lead)

    result = not mover_max
    best = ZERO
    rel = ZERO
    rest = moves
    for cls in range(5):
        m = _class_moves(cls, hint, first, second, third, rest)
        while m != ZERO:
            c = lowest_bit(m)
            m ^= c
            rest ^= c
            b0, b1, b2, b3, s2, p2, l2, w2, ws2, tr2, br2, done, pin = _after(c, a0, a1, a2, a3, seat, pos, led, win,
                                                                             win_seat, trick, broken)
            t2 = target - np.int64(done and (s2 & 1) == max_team)
            if done and t2 <= 0:
                child = True
                crel = ZERO
            elif done and t2 > n - 1:
                child = False
                crel = ZERO
            else:
                child, crel = dd_node(b0, b1, b2, b3, s2, p2, l2, w2, ws2, tr2, br2, n - np.int64(done), t2, max_team,
                                      spade_lead, first_lead, tt, gen, shift, stats)
            crel |= pin
            if child == mover_max:
                result = mover_max
                best = c
                rel = crel
                break
            # Every card fails here, so the proof needs each one (and a card stands for its run).
            rel |= crel | _run_pin(c, moves, a0, crel)
        if result == mover_max:
            break

    if pos == 0:
        region = rank_region(rel | top, u)
        bi = _best_index(best, u) if best != ZERO else ZERO
        lo = np.float64(target) if result else 0.0
        hi = np.float64(n) if result else np.float64(target - 1)
        tt_store(tt, sig, seat, tkey, compress_bits(region, u), ka, kb, gen, shift, lo, hi, bi, stats[0])
    return result, rel


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
    broken = broken != 0
    spade_lead = np.int64(spade_lead)
    first_lead = np.int64(first_lead)
    gen = U64(gen)
    shift = np.int64(shift)
    n = np.int64(popcount(hands[0]))
    max_team = leader & 1
    a0, a1, a2, a3 = _rotate(leader, hands[0], hands[1], hands[2], hands[3])
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
        ok, _ = dd_node(a0, a1, a2, a3, leader, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, broken, n, t,
                        max_team, spade_lead, first_lead, tt, gen, shift, stats)
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
def obj_node(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, n, won, alpha, beta, only,
             max_team, merge, spade_lead, first_lead, leaf, tt, gen, shift, stats):
    """``(value, relevant)``: the value to ``max_team`` of the position, within the window
    ``alpha < value < beta`` (fail-soft: a result at or below ``alpha`` is an upper bound, one
    at or above ``beta`` a lower bound), and the cards whose ranks the result used.

    The position is as in ``dd_node``, plus ``won``: the tricks each seat has won in the hand,
    4 bits per seat; a finished hand is worth ``leaf[t0, t1, t2, t3]``. ``only`` (a card, or 0)
    restricts the seat to act to that card: the value of one move, never stored in the table.
    """
    stats[0] += 1
    mover_max = (seat & 1) == max_team
    hint = ZERO
    u = a0 | a1 | a2 | a3
    sig = ZERO
    ka = ZERO
    kb = ZERO
    if pos == 0:
        if n == 0:
            return _leaf_value(leaf, won), ZERO
        if n == 1:
            off = winning_offset(a0, a1, a2, a3)
            wc, _, _, _ = _rotate(off, a0, a1, a2, a3)
            return _leaf_value(leaf, won + (1 << (4 * ((seat + off) & 3)))), trick_pin(u, wc)
        if only == ZERO:
            sig = length_signature(a0, a1, a2, a3)
            ka = compress_bits(a1 | a3, u)
            kb = compress_bits(a2 | a3, u)
            kw = won_key(won, merge)
            lo_at, lo, hi_at, hi, hint_idx = tt_probe(tt, sig, seat, kw, ka, kb, gen, shift)
            if lo >= beta:
                stats[1] += 1
                return lo, deposit_bits(tt[lo_at] & LOW52, u)
            if hi <= alpha:
                stats[1] += 1
                return hi, deposit_bits(tt[hi_at] & LOW52, u)
            if lo == hi:
                stats[1] += 1
                return lo, deposit_bits((tt[lo_at] | tt[hi_at]) & LOW52, u)
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            if hint_idx != ZERO:
                hint = select_bit(u, hint_idx - ONE)
    moves, first, second, third = _moves(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, 13 - n,
                                         spade_lead, first_lead)
    if only != ZERO:
        moves &= only
        hint = ZERO

    a_in = alpha
    b_in = beta
    value = -INF if mover_max else INF
    best = ZERO
    rel = ZERO
    rest = moves
    cut = False
    for cls in range(5):
        m = _class_moves(cls, hint, first, second, third, rest)
        while m != ZERO:
            c = lowest_bit(m)
            m ^= c
            rest ^= c
            b0, b1, b2, b3, s2, p2, l2, w2, ws2, tr2, br2, done, pin = _after(c, a0, a1, a2, a3, seat, pos, led, win,
                                                                             win_seat, trick, broken)
            cv, crel = obj_node(b0, b1, b2, b3, s2, p2, l2, w2, ws2, tr2, br2, n - np.int64(done),
                                won + (np.int64(done) << (4 * s2)), alpha, beta, ZERO, max_team, merge, spade_lead,
                                first_lead, leaf, tt, gen, shift, stats)
            crel |= pin
            if mover_max:
                if cv > value:
                    value = cv
                    best = c
                alpha = max(alpha, value)
            else:
                if cv < value:
                    value = cv
                    best = c
                beta = min(beta, value)
            if alpha >= beta:
                cut = True
                rel = crel
                break
            # Without a cut the result needs every card (and a card stands for its run, see dd_node).
            rel |= crel | _run_pin(c, moves, a0, crel)
        if cut:
            break

    if pos == 0 and only == ZERO:
        if value <= a_in:
            lo = -INF
            hi = value
        elif value >= b_in:
            lo = value
            hi = INF
        else:
            lo = value
            hi = value
        region = rank_region(rel, u)
        bi = _best_index(best, u) if best != ZERO else ZERO
        tt_store(tt, sig, seat, won_key(won, merge), compress_bits(region, u), ka, kb, gen, shift, lo, hi, bi,
                 stats[0])
    return value, rel


@kernel
def objective_values(hands, seat, trick_cards, won, broken, max_team, leaf, spade_lead, first_lead,
                     tt, gen, shift, stats, out):
    """The value to ``max_team`` of each legal card of ``seat``: ``out[card]`` (NaN for the
    other cards; ``out`` holds 56 entries, one per engine id, the trump lane included). ``hands`` (``uint64[4]``) are the cards still held, ``trick_cards`` the ids
    played to the current trick in order (``int64[k]``, k = 0..3; the leader is ``seat - k``),
    ``won`` (``int64[4]``) the tricks each seat has won, ``broken`` whether a spade fell in an
    earlier trick, ``leaf`` the ``(14, 14, 14, 14)`` value table of finished hands.

    ``tt``, ``shift``, ``gen`` and ``stats`` as in ``dd_tricks``. Returns the number of
    distinct cards searched.
    """
    seat = np.int64(seat)
    broken = broken != 0
    max_team = np.int64(max_team)
    spade_lead = np.int64(spade_lead)
    first_lead = np.int64(first_lead)
    gen = U64(gen)
    shift = np.int64(shift)
    pos = np.int64(len(trick_cards))
    leader = (seat - pos) & 3
    n = np.int64(popcount(hands[seat]))
    packed = U64(0)
    for s in range(4):
        packed |= U64(won[s]) << U64(4 * s)
    wpack = np.int64(packed)
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
    if pos == 0:
        legal = lead_mask(a0, broken, 13 - n, spade_lead, first_lead)
        moves = distinct_moves(legal, a0, ~(a0 | a1 | a2 | a3) & ALL_CARDS)
    else:
        legal = follow_mask(a0, led)
        moves = distinct_moves(legal, a0, ~(a0 | a1 | a2 | a3 | trick) & ALL_CARDS)
    # Every value lies between the least and the greatest leaf the hand can still reach: a
    # search in that window is exact, and a side that reaches its bound looks no further.
    lo, hi = reachable_bounds(leaf, won, n)
    merge = leaf_merges(leaf, won, n)
    out[:] = np.nan
    count = 0
    m = moves
    while m != ZERO:
        c = lowest_bit(m)
        m ^= c
        v, _ = obj_node(a0, a1, a2, a3, seat, pos, led, win, win_seat, trick, broken, n, wpack, lo, hi, c,
                        max_team, merge, spade_lead, first_lead, leaf, tt, gen, shift, stats)
        count += 1
        # The same value for every card of the run that c stands for.
        suit = suit_mask_of(c)
        up = moves & suit & _above(c)
        run = a0 & legal & suit & ~(c - ONE)
        if up != ZERO:
            run &= lowest_bit(up) - ONE
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
def position_value(hands, leader, won, broken, max_team, leaf, spade_lead, first_lead, tt, gen, shift, stats):
    """The value to ``max_team`` of a position between tricks, ``leader`` to lead from
    ``hands`` (``uint64[4]``, equal sizes 1..13), with best play on both sides: the value of
    the leader's best card in ``objective_values``, by one search rather than one per card.

    ``won`` (``int64[4]``) the tricks each seat has won, ``broken`` whether a spade has been
    played; ``leaf``, ``tt``, ``gen``, ``shift`` and ``stats`` as in ``objective_values``.
    """
    leader = np.int64(leader)
    broken = broken != 0
    max_team = np.int64(max_team)
    spade_lead = np.int64(spade_lead)
    first_lead = np.int64(first_lead)
    gen = U64(gen)
    shift = np.int64(shift)
    n = np.int64(popcount(hands[0]))
    packed = U64(0)
    for s in range(4):
        packed |= U64(won[s]) << U64(4 * s)
    lo, hi = reachable_bounds(leaf, won, n)
    if lo == hi:
        return lo
    merge = leaf_merges(leaf, won, n)
    a0, a1, a2, a3 = _rotate(leader, hands[0], hands[1], hands[2], hands[3])
    v, _ = obj_node(a0, a1, a2, a3, leader, np.int64(0), ZERO, ZERO, np.int64(0), ZERO, broken, n, np.int64(packed),
                    lo, hi, ZERO, max_team, merge, spade_lead, first_lead, leaf, tt, gen, shift, stats)
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
