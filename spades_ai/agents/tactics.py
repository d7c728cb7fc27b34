"""Card sense shared by the heuristic agents: trick status, winners, ranks across suits.

All kernels read an observation (public array, seat, own bitboard) and never a hidden hand.
Card bits are uint64 one-bit masks; ranks compare across suits by ``bit index mod 13``.
"""


from spades_ai.engine.jit import kernel
from spades_ai.engine.bits import NON_SPADES, ONE, SPADES, SUIT_MASK, U64, ZERO, highest_bit, lowest_bit, lowest_index, suit_mask_of
from spades_ai.engine.state import P_PLAYED, P_TRICK, P_TRICK_LEN, P_WIN_CARD, P_WIN_SEAT


@kernel
def card_bit(card_id):
    return ONE << U64(card_id)



@kernel
def rank_of(b):
    return lowest_index(b) % 13



@kernel
def trick_status(pub):
    """``(winning card bit, winning seat, led suit mask)`` of the current trick (zeros if empty)."""
    if pub[P_TRICK_LEN] == 0:
        return ZERO, -1, ZERO
    return card_bit(pub[P_WIN_CARD]), pub[P_WIN_SEAT], SUIT_MASK[pub[P_TRICK] // 13]



@kernel
def winners_over(cards, win, led):
    """The cards of ``cards`` that beat ``win``."""
    if win & SPADES:
        return cards & SPADES & ~((win << ONE) - ONE)
    return (cards & SPADES) | (cards & led & ~((win << ONE) - ONE))


@kernel
def losers_under(cards, win, led):
    """The cards of ``cards`` that do not beat ``win``."""
    return cards & ~winners_over(cards, win, led)


@kernel
def is_top(c, unseen):
    """Whether card bit ``c`` outranks every unseen card of its suit."""
    return (unseen & suit_mask_of(c) & ~((c << ONE) - ONE)) == ZERO



@kernel
def lowest_by_rank(cards):
    """The lowest-ranked card of ``cards``, preferring a non-spade at equal rank."""
    best = ZERO
    best_rank = 99
    for s in range(4):
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
    for s in range(4):
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


@kernel
def distinct_cards(legal, hand, played):
    """One card per class of equal value: in a suit, cards with only own or played cards
    between them are interchangeable; keep the lowest of each run."""
    out = ZERO
    gone = hand | played
    for s in range(4):
        m = legal & SUIT_MASK[s]
        prev = ZERO
        while m != ZERO:
            b = lowest_bit(m)
            # b continues the run of prev if every card strictly between them is gone.
            if prev != ZERO:
                between = (b - ONE) & ~((prev << ONE) - ONE)
                if (between & ~gone) == ZERO:
                    prev = b
                    m ^= b
                    continue
            out |= b
            prev = b
            m ^= b
    return out


@kernel
def trick_mask(pub):
    """The cards played to the current trick (a mask; 0 between tricks)."""
    m = ZERO
    for i in range(pub[P_TRICK_LEN]):
        m |= ONE << U64(pub[P_TRICK + i])
    return m


@kernel
def play_candidates(pub, hand, legal):
    """The cards Hard weighs: ``distinct_cards`` with only the cards of finished tricks gone.
    A card of the current trick may lie between two of the seat's cards and separate them
    (the 10 on the trick: the 9 loses where the jack wins), so it does not merge them."""
    return distinct_cards(legal, hand, U64(pub[P_PLAYED]) & ~trick_mask(pub))
