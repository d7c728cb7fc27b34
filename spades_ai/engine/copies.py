"""Cards that repeat: a multiset of cards as one bitboard per copy count.

With several decks (6 to 12 players, ``Rules.decks``) a seat may hold two or three copies of a
card. A multiset of cards is then up to three masks in the engine's layout (``bits``), its
*levels*: level ``k`` (0-based) holds the cards held at least ``k + 1`` times, so
``L2 ⊆ L1`` and ``L3 ⊆ L2``, and level 0 is the one-deck bitboard. Legal cards, following suit
and voids read level 0 only (a seat that holds a card holds it at level 0), so they stay one
mask operation; the copies matter where cards are counted, removed or added.

Arrays of levels keep level ``k`` of item ``i`` (a seat, usually) at ``k * n + i`` for ``n``
items: the hidden hands of a table are ``hands[k * N + s]`` (``uint64[decks * N]``), which at
one deck is the ``uint64[N]`` of the four-player game. In the public array, the levels above
the first of a mask live in their own slots (``state.P_PLAYED2``, ``P_PLAYED_BY2`` ...).

Counts never exceed ``MAX_COPIES`` (three decks). The formulas for a sum and a difference are
checked against ``collections.Counter`` for every pair of counts (``tests/test_copies.py``).
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel
from spades_ai.engine.bits import U64, ZERO, popcount

MAX_COPIES = 3


@inline_kernel
def copies_of(b, l1, l2, l3):
    """How many copies of the one-bit mask ``b`` the multiset ``(l1, l2, l3)`` holds."""
    return np.int64((l1 & b) != ZERO) + np.int64((l2 & b) != ZERO) + np.int64((l3 & b) != ZERO)


@inline_kernel
def size_of(l1, l2, l3):
    """The number of cards of the multiset ``(l1, l2, l3)``, copies counted."""
    return np.int64(popcount(l1) + popcount(l2) + popcount(l3))


@inline_kernel
def take_one(b, l1, l2, l3):
    """``(l1, l2, l3)`` less one copy of the one-bit mask ``b`` (which it holds): the copy comes
    out of the highest level holding it. Branch-free: the level is not predictable in a deal."""
    hit3 = l3 & b
    rest = b ^ hit3
    hit2 = l2 & rest
    return l1 ^ (rest ^ hit2), l2 ^ hit2, l3 ^ hit3


@inline_kernel
def add_one(b, l1, l2, l3):
    """``(l1, l2, l3)`` plus one copy of the one-bit mask ``b``: set in the lowest level
    lacking it (at most ``MAX_COPIES`` copies). Branch-free, as ``take_one``."""
    new1 = b & ~l1
    rest = b ^ new1
    new2 = rest & ~l2
    return l1 | new1, l2 | new2, l3 | (rest ^ new2)


@inline_kernel
def levels_sum(a1, a2, a3, b1, b2, b3):
    """The sum of two multisets whose counts add up to at most ``MAX_COPIES``."""
    return a1 | b1, a2 | b2 | (a1 & b1), a3 | b3 | (a2 & b1) | (a1 & b2)


@inline_kernel
def levels_diff(a1, a2, a3, b1, b2, b3):
    """The multiset ``A - B`` for ``B`` a sub-multiset of ``A``."""
    return (a1 & ~b1) | (a2 & ~b2) | (a3 & ~b3), (a2 & ~b1) | (a3 & ~b2), a3 & ~b1


@inline_kernel
def take_from(hands, seat, n, b, decks):
    """Remove one copy of the one-bit mask ``b`` from seat ``seat``'s levels in ``hands``
    (``hands[k * n + seat]``; ``decks`` levels): from the highest level holding it.

    The levels are written out, not looped over: LLVM kept the loop (three trips) in the
    several-decks playout, and its pointers pushed the stream out of registers (random
    playouts at 6 to 12 players 1.04-1.08x faster). Level 1 holds the card once no higher
    level did. Indexed unsigned: no negative-index fix-up on every card."""
    rest = _take_above_first(hands, seat, n, b, decks)
    i = U64(seat)
    hands[i] ^= hands[i] & rest


@inline_kernel
def take_held(hands, seat, n, b, decks):
    """``take_from`` for a card the seat holds, as every card of a random playout (drawn from
    its legal cards): level 1 gives it up, with no test, when no higher level did (random
    playouts at 12 players 1.03x)."""
    rest = _take_above_first(hands, seat, n, b, decks)
    hands[U64(seat)] ^= rest


@inline_kernel
def _take_above_first(hands, seat, n, b, decks):
    """``take_from`` on levels 3 and 2: returns ``b`` if neither held it, else 0."""
    rest = b
    if decks > 2:
        i = U64(2 * n + seat)
        hit = hands[i] & rest
        hands[i] ^= hit
        rest ^= hit
    if decks > 1:
        i = U64(n + seat)
        hit = hands[i] & rest
        hands[i] ^= hit
        rest ^= hit
    return rest


@inline_kernel
def give_to(hands, seat, n, b, decks):
    """Add one copy of the one-bit mask ``b`` to seat ``seat``'s levels in ``hands``."""
    for k in range(decks):
        i = k * n + seat
        if not hands[i] & b:
            hands[i] |= b
            return
