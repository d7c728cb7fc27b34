"""The moves of the exact search of four in pairs (``solver``): equivalent cards, sure tricks
and the move order, over four hands as scalar bitboards.

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

Card bits as in ``bits`` (the engine's layout: jokers and high deuces are spades above the ace,
in the trump lane, so nothing here tests for them). The four hands ``a0 a1 a2 a3`` are the
seats clockwise from the one to act; this is the four-in-pairs fast path.
"""

import numpy as np

from spades_ai.engine.bits import (
    N_SUITS,
    ONE,
    SPADES,
    SUIT_MASK,
    U64,
    ZERO,
    highest_bit,
    lowest_bit,
    popcount,
    suit_mask_of,
)
from spades_ai.engine.jit import kernel

U1 = U64(1)
U2 = U64(2)
U4 = U64(4)
U8 = U64(8)
#: Every card bit but the lowest of each suit: fills must not carry across suits. The trump
#: lane runs on above the ace of spades (bits 52..55, jokers and high deuces, ``bits``), so a
#: fill carries from the ace into it; a bit whose card the rules moved there is empty, and
#: held by no hand, so it lies in ``gone`` like a played card.
NOT_LOW = U64(((1 << 56) - 1) & ~((1 << 0) | (1 << 13) | (1 << 26) | (1 << 39)))


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
def above(b):
    """Every bit strictly above the one-bit mask ``b``."""
    return ~((b << U1) - ONE)


@kernel
def beats(c, win):
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
    return np.int64(popcount(m & above(highest_bit(o))))


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
def rotate(k, b0, b1, b2, b3):
    """``(b_k, b_k+1, b_k+2, b_k+3)``, indices mod 4."""
    if k == 0:
        return b0, b1, b2, b3
    if k == 1:
        return b1, b2, b3, b0
    if k == 2:
        return b2, b3, b0, b1
    return b3, b0, b1, b2


@kernel
def best_index(c, u):
    """Index of card ``c`` among the remaining cards ``u`` (stored as 1 + index)."""
    return U64(popcount(u & (c - ONE))) + ONE


@kernel
def _ruffs(h, suit):
    """Whether hand ``h`` could trump a lead of the side suit ``suit`` (void in it, holds a spade)."""
    return (h & suit) == ZERO and (h & SPADES) != ZERO and suit != SPADES


@kernel
def lead_order(moves, a0, a1, a2, a3):
    """Leads in three preferred classes (the rest come last): cash a suit's top card where no
    opponent ruffs; lead low to the partner's top card or to a partner's ruff; low cards of the
    suits no opponent ruffs."""
    u = a0 | a1 | a2 | a3
    cash = ZERO
    to_partner = ZERO
    low = ZERO
    for s in range(N_SUITS):
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
def follow_order(moves, pos, led, win, partner_wins, a1, a2):
    """Follows in three preferred classes (the rest come last). Last to play: the cheapest
    winner if an opponent wins, else the lowest cards. Earlier: a cheap winner that the next
    opponent cannot beat, then low cards; low cards first if the partner already wins safely."""
    if win & SPADES:
        beat = moves & SPADES & above(win)
    else:
        beat = (moves & led & above(win)) | (moves & SPADES)
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
