"""Dealing: one bitboard of ``cards_each`` cards per seat from the stream keyed by
``(seed, index, 0)``.

Seats 0 .. N-2 each draw ``cards_each`` cards, one at a time, uniformly from the cards of the
table's deck not yet dealt (a draw is ``below`` then ``select_bit``); seat N-1 keeps the rest.
Every deal is equally likely and no 52-card array is shuffled. At four seats (13 cards each
from the 52) this is the deal of every earlier version, card for card.

A deal is drawn in card ids whatever the rules, so deal ``i`` of a seed holds the same ids
under every house rule; ``engine_hands`` moves the jokers and high deuces of the rules into
the trump lane (``bits``) before a hand is played.

Hand ``k`` of match ``m`` is dealt from ``(seed, m, 1 + k)`` and match ``m``'s first dealer
drawn from ``(seed, m, MATCH_DEALER_STREAM)`` (``deal_match_hand``, ``match_first_dealer``), so
a match's cards do not depend on who plays it or where.
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.bits import FULL_DECK, ONE, U64, ZERO, popcount, select_bit
from spades_ai.engine.rng import below, stream_state
from spades_ai.engine.copies import add_one, take_one
from spades_ai.engine.seats import cards_each, hand_slots, n_seats
from spades_ai.rules import R_DECK, R_DECK2, R_DECK3, R_DECKS, R_EXTRA, R_N_EXTRA

DEAL_STREAM = 0
MATCH_DEALER_STREAM = 1 << 40


@inline_kernel
def dealt_cards(rules):
    """The card ids of the table's deck (``R_DECK`` with each extra trump back on its id)."""
    deck = U64(rules[R_DECK]) & FULL_DECK
    for i in range(rules[R_N_EXTRA]):
        deck |= ONE << U64(rules[R_EXTRA + i])
    return deck


@inline_kernel
def physical_card(r, r1, r2, r3):
    """The card (a one-bit mask) of the ``r``-th physical card of the levels ``r1, r2, r3``:
    level 1's cards in id order, then level 2's, then level 3's. With copies the level and the
    index in it are chosen by selects, not branches (the level of a draw is not predictable)."""
    if r2 == ZERO:
        return select_bit(r1, r)
    p1 = np.int64(popcount(r1))
    p12 = p1 + np.int64(popcount(r2))
    first, second = r < p1, r < p12
    level = r1 if first else (r2 if second else r3)
    return select_bit(level, r if first else (r - p1 if second else r - p12))


@kernel
def deal_from_state(state, hands, rules):
    """Deal the table's deck into ``hands`` (uint64[decks * N], ``copies``: level k of seat s
    at ``k * N + s``), in card ids; return the advanced state.

    With several decks every physical card is equally likely at each draw: the r-th card
    counts level 1's cards first, then level 2's, then level 3's, and the drawn card leaves the
    deck's highest level holding it and joins the seat's lowest level lacking it. With one
    deck levels 2 and 3 are empty and this is the one-deck draw, card for card."""
    r1 = dealt_cards(rules)
    r2, r3 = U64(rules[R_DECK2]), U64(rules[R_DECK3])
    left = np.int64(popcount(r1) + popcount(r2) + popcount(r3))
    n = n_seats(rules)
    decks = rules[R_DECKS]
    last = n - 1
    for seat in range(last):
        h1, h2, h3 = ZERO, ZERO, ZERO
        for _ in range(cards_each(rules)):
            state, r = below(state, left)
            b = physical_card(r, r1, r2, r3)
            r1, r2, r3 = take_one(b, r1, r2, r3)
            h1, h2, h3 = add_one(b, h1, h2, h3)
            left -= 1
        hands[seat] = h1
        if decks > 1:
            hands[n + seat] = h2
        if decks > 2:
            hands[2 * n + seat] = h3
    hands[last] = r1
    if decks > 1:
        hands[n + last] = r2
    if decks > 2:
        hands[2 * n + last] = r3
    return state


@kernel
def deal_batch(seed, start, n, rules):
    """Deals ``start .. start+n-1`` of ``seed`` as an ``(n, decks * N)`` uint64 array of card
    ids (``(n, N)`` with one deck)."""
    out = np.empty((n, hand_slots(rules)), dtype=np.uint64)
    for i in range(n):
        deal_from_state(stream_state(seed, start + i, DEAL_STREAM), out[i], rules)
    return out


@kernel
def to_engine(mask, rules):
    """A bitboard of card ids in the engine's layout: each extra trump moved to its lane bit."""
    for i in range(rules[R_N_EXTRA]):
        c = U64(rules[R_EXTRA + i])
        if (mask >> c) & ONE:
            mask ^= (ONE << c) | (ONE << U64(52 + i))
    return mask


@kernel
def engine_hands(hands, rules):
    """Move the dealt hands (card ids) into the engine's layout, in place."""
    if rules[R_N_EXTRA] > 0:
        for s in range(n_seats(rules)):
            hands[s] = to_engine(hands[s], rules)


@kernel
def public_id(engine_id, rules):
    """The card id of an engine card id (a joker or high deuce keeps the id of its card)."""
    return rules[R_EXTRA + engine_id - 52] if engine_id >= 52 else engine_id


@kernel
def deal_for(state, hands, rules):
    """``deal_from_state`` in the engine's layout of ``rules``: the same card ids, with the
    jokers and high deuces moved to the trump lane. Returns the advanced state."""
    state = deal_from_state(state, hands, rules)
    engine_hands(hands, rules)
    return state


# -- the hands of a match -------------------------------------------------------------------------
@kernel
def match_first_dealer(seed, match_no, rules):
    """The dealer of a match's first hand, from the match's own stream."""
    _, d = below(stream_state(seed, match_no, MATCH_DEALER_STREAM), n_seats(rules))
    return d


@kernel
def deal_match_hand(seed, match_no, hand_no, hands, rules):
    """Deal hand ``hand_no`` of match ``match_no`` into ``hands`` (stream ``1 + hand_no``), in
    the engine's layout of ``rules``."""
    deal_for(stream_state(seed, match_no, 1 + hand_no), hands, rules)
