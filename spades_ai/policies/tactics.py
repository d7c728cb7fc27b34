"""Card sense shared by the heuristic agents: trick status, winners, ranks across suits.

All kernels read an observation (public array, seat, own bitboard) and never a hidden hand.
Card bits are uint64 one-bit masks; ranks compare across suits by ``rank_of`` (the bit index mod
13, and 13 and up for the jokers and high deuces of the trump lane, ``spades_ai.kernels``).
With several decks a card can fall twice on one trick: ``equal_last`` (``kernels.equal_cards_last``)
says whether the later of two identical cards wins, and a card's identical copies played after
it then beat it (``later_beaters``).
"""

import numpy as np

from spades_ai import kernels as K
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.kernels import N_SUITS, NON_SPADES, ONE, SPADES, SUIT_MASK, U64, ZERO, highest_bit, lowest_bit, lowest_index, suit_mask_of


@kernel
def rank_of(b):
    i = lowest_index(b)
    return i % 13 + 13 * np.int64(i >= 52)  # as bits.RANK_OF, without its load: the lane ranks 13..16



@kernel
def trick_status(pub):
    """``(winning card bit, winning seat, led suit mask)`` of the current trick (zeros if empty)."""
    if K.trick_len(pub) == 0:
        return ZERO, -1, ZERO
    return K.card_bit(K.winning_card(pub)), K.winning_seat(pub), SUIT_MASK[K.led_suit(pub)]



@inline_kernel
def later_beaters(c, equal_last):
    """The cards of ``c``'s suit (by id) that beat card bit ``c`` when played after it on the
    same trick: those above it, and its own copies too when ``equal_last``."""
    return ~((c << ONE) - ONE) | (c if equal_last else ZERO)


@kernel
def winners_over(cards, win, led, equal_last=False):
    """The cards of ``cards`` that beat ``win``, the card now winning the trick (``led``: the
    led suit's mask); a copy of ``win`` only when ``equal_last``. Masks given as Python ints
    (a call from Python) are read as uint64."""
    win, led = U64(win), U64(led)
    if win & SPADES:
        return cards & SPADES & later_beaters(win, equal_last)
    return (cards & SPADES) | (cards & led & later_beaters(win, equal_last))


@kernel
def losers_under(cards, win, led, equal_last=False):
    """The cards of ``cards`` that do not beat ``win``."""
    return cards & ~winners_over(cards, win, led, equal_last)


@kernel
def is_top(c, unseen, equal_last):
    """Whether no ``unseen`` card of its suit (level 1 of the unseen multiset: a card of which
    any copy is out) can beat card bit ``c`` once it is played: none above it, nor under
    ``equal_last`` a copy of it."""
    return (unseen & suit_mask_of(c) & later_beaters(c, equal_last)) == ZERO



@kernel
def lowest_by_rank(cards):
    """The lowest-ranked card of ``cards``, preferring a non-spade at equal rank."""
    best = ZERO
    best_rank = 99
    for s in range(N_SUITS):
        m = cards & SUIT_MASK[s]
        if m != ZERO:
            b = lowest_bit(m)
            r = rank_of(b)
            if r < best_rank:
                best, best_rank = b, r
    return best


@kernel
def highest_by_rank(cards):
    """The highest-ranked card of ``cards``, preferring a non-spade at equal rank."""
    best = ZERO
    best_rank = -1
    for s in range(N_SUITS):
        m = cards & SUIT_MASK[s]
        if m != ZERO:
            b = highest_bit(m)
            r = rank_of(b)
            if r > best_rank or (r == best_rank and s < 3 and (best & SPADES) != ZERO):
                best, best_rank = b, r
    return best


@kernel
def discard_low(cards):
    """A throw-away: the lowest non-spade if any, else the lowest spade."""
    others = cards & NON_SPADES
    return lowest_by_rank(others) if others != ZERO else lowest_bit(cards)


@kernel
def discard_high(cards):
    """Shed the highest non-spade if any, else the lowest spade."""
    others = cards & NON_SPADES
    return highest_by_rank(others) if others != ZERO else lowest_bit(cards)



