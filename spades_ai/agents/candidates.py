"""The cards a searching agent weighs: one card per class of equal value.

Hard, Crazy, ISMCTS and the play model of ``inference`` all ask the same question of a legal
set, so the answer lives here, below all of them (``hard`` imports ``inference``, which needs it).
"""

from spades_ai.engine.bits import ONE, SUIT_MASK, U64, ZERO, lowest_bit
from spades_ai.engine.jit import kernel
from spades_ai.engine.state import P_DECK, P_PLAYED, P_TRICK, P_TRICK_LEN


@kernel
def distinct_cards(legal, hand, played):
    """One card per class of equal value: in a suit, cards with only own or played cards
    between them are interchangeable; keep the lowest of each run. (A bit that holds no card
    under the rules, e.g. a deuce moved to the trump lane, belongs in ``played``.)"""
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
    return distinct_cards(legal, hand, (U64(pub[P_PLAYED]) & ~trick_mask(pub)) | ~U64(pub[P_DECK]))
