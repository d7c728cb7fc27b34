"""The cards a searching agent weighs: one card per class of equal value.

Hard, Crazy, ISMCTS and the play model of ``reading`` all ask the same question of a legal
set (``play_candidates``); ``candidate_bids`` are the bids a search weighs.
"""

import numpy as np

from spades_ai.engine.bits import N_SUITS, ONE, SUIT_MASK, U64, ZERO, lowest_bit, lowest_index, popcount, suit_of
from spades_ai.engine.copies import levels_diff, levels_sum
from spades_ai.engine.jit import kernel
from spades_ai.engine.state import P_DECK, P_DECK2, P_DECK3, P_PLAYED, P_PLAYED2, P_PLAYED3, P_TRICK, P_TRICK_LEN


@kernel
def distinct_cards(legal, hand, played):
    """One card per class of equal value: in a suit, cards with only own or played cards
    between them are interchangeable; keep the lowest of each run. (A bit that holds no card
    under the rules, e.g. a deuce moved to the trump lane, belongs in ``played``.)"""
    out = ZERO
    gone = hand | played
    for s in range(N_SUITS):
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


@kernel
def held_candidates(pub, h1, h2, h3, legal):
    """``play_candidates`` for a seat holding the multiset ``(h1, h2, h3)`` (its levels,
    ``engine.copies``), right with several decks: a card separates two of the seat's cards
    while a copy of it may be in another hand (deck less played less the seat's own) or lies
    on the current trick. Equal copies are one card id, so one move. With one deck (``h2 = h3
    = 0``) it is ``play_candidates``, to the bit."""
    p1, p2, p3 = levels_sum(U64(pub[P_PLAYED]), U64(pub[P_PLAYED2]), U64(pub[P_PLAYED3]), h1, h2, h3)
    elsewhere, _, _ = levels_diff(U64(pub[P_DECK]), U64(pub[P_DECK2]), U64(pub[P_DECK3]), p1, p2, p3)
    return distinct_cards(legal, ZERO, ~(elsewhere | trick_mask(pub)))


@kernel
def candidate_bids(bid_mask, guess, expected_tricks):
    """The bids Hard weighs: the legal numbers from ``guess - 2`` to ``guess + 3`` (at most
    seven), then nil when it is legal and the hand expects fewer than three tricks. ``bid_mask``
    holds bids only (``BID_BITS``): its top is the table's ``cards_each``."""
    cands = np.empty(8, dtype=np.int64)
    n_c = 0
    for b in range(max(1, guess - 2), guess + 4):
        if (bid_mask >> b) & 1 and n_c < 7:
            cands[n_c] = b
            n_c += 1
    if bid_mask & 1 and expected_tricks < 3.0:
        cands[n_c] = 0
        n_c += 1
    return cands[:n_c]



@kernel
def candidate_ids(cands):
    """The card ids of the one-bit masks in ``cands``, lowest first."""
    ids = np.empty(np.int64(popcount(cands)), dtype=np.int64)
    m = cands
    for j in range(len(ids)):
        b = lowest_bit(m)
        ids[j] = lowest_index(b)
        m ^= b
    return ids


@kernel
def class_of(ids, card):
    """The index of the candidate (``ids``, lowest first) standing for the legal ``card``: the
    highest candidate of its suit at or below it (the lowest card of its run)."""
    j_of = 0
    for j in range(len(ids)):
        if ids[j] <= card and suit_of(ids[j]) == suit_of(card):
            j_of = j
    return j_of
