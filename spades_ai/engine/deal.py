"""Dealing: one bitboard of ``cards_each`` cards per seat from the stream keyed by
``(seed, index, 0)``.

Seats 0 .. N-2 each draw ``cards_each`` cards, one at a time, uniformly from the cards of the
table's deck not yet dealt (a draw is ``below`` then ``select_bit``); seat N-1 keeps the rest.
Every deal is equally likely and no 52-card array is shuffled. At four seats (13 cards each
from the 52) this is the deal of every earlier version, card for card. With several decks
(6 to 12 players) the physical cards are shuffled instead (``deal_copies``) and each seat's
cards are put into its levels (``copies``): ``hands[k * N + s]``.

A deal is drawn in card ids whatever the rules, so deal ``i`` of a seed holds the same ids
under every house rule; ``engine_hands`` moves the jokers and high deuces of the rules into
the trump lane (``bits``) before a hand is played.

Hand ``k`` of match ``m`` is dealt from ``(seed, m, 1 + k)`` and match ``m``'s first dealer
drawn from ``(seed, m, MATCH_DEALER_STREAM)`` (``deal_match_hand``, ``match_first_dealer``), so
a match's cards do not depend on who plays it or where.
"""

import numpy as np

from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.engine.bits import FULL_DECK, ONE, U64, ZERO, lowest_bit, popcount, select_bit
from spades_ai.engine.rng import below, stream_state
from spades_ai.engine.copies import add_one
from spades_ai.engine.seats import cards_each, hand_slots, n_seats
from spades_ai.rules import R_DECK, R_DECK2, R_DECK3, R_DECKS, R_EXTRA, R_N_EXTRA

DEAL_STREAM = 0
MAX_DEALT = 156  # the most physical cards a table deals: three decks at 12 players
MATCH_DEALER_STREAM = 1 << 40


@inline_kernel
def dealt_cards(rules):
    """The card ids of the table's deck (``R_DECK`` with each extra trump back on its id)."""
    deck = U64(rules[R_DECK]) & FULL_DECK
    for i in range(rules[R_N_EXTRA]):
        deck |= ONE << U64(rules[R_EXTRA + i])
    return deck


@kernel
def deal_from_state(state, hands, rules):
    """Deal the table's deck into ``hands`` (uint64[decks * N], ``copies``: level k of seat s
    at ``k * N + s``), in card ids; return the advanced state.

    One deck: seats 0 .. N-2 each draw ``cards_each`` cards, one at a time, the r-th lowest of
    the cards left; seat N-1 keeps the rest (the deal of every earlier version). Several decks:
    ``deal_copies``."""
    if rules[R_DECKS] > 1:
        return deal_copies(state, hands, rules)
    return deal_one_deck(state, hands, rules, n_seats(rules))


@hot_kernel
def deal_one_deck(state, hands, rules, seats):
    """``deal_from_state`` with one deck at a table of ``seats`` seats (``n_seats(rules)``):
    inlined by LLVM, so that a caller passing ``seats`` as a constant gets its loops unrolled
    (``play.random_playouts_batch``)."""
    remaining = dealt_cards(rules)
    left = np.int64(popcount(remaining))
    each = cards_each(rules)
    for seat in range(seats - 1):
        h = ZERO
        for _ in range(each):
            state, r = below(state, left)
            b = select_bit(remaining, r)
            h |= b
            remaining ^= b
            left -= 1
        hands[seat] = h
    hands[seats - 1] = remaining
    return state


@kernel
def deal_copies(state, hands, rules):
    """The deal with several decks: every physical card is equally likely at each draw. The
    physical cards are listed (``physical_cards``), the first ``(N - 1) * cards_each`` places
    are shuffled in (a partial Fisher-Yates: place j takes the card at j + r, r drawn below the
    cards left), seat s takes places ``s * cards_each ..`` and the last seat the rest; each
    seat's cards go into its levels (``shuffle_copies``). Three times faster than drawing the
    r-th physical card from the levels, whose every draw waited on the last
    (``benchmarks/RESULTS.md``)."""
    return shuffle_copies(state, hands, rules, physical_cards(rules))


@kernel
def physical_cards(rules):
    """The table's physical cards as one-bit masks in the order ``deal_copies`` shuffles them:
    level 1's cards in id order, then level 2's, then level 3's."""
    cards = np.empty(MAX_DEALT, dtype=np.uint64)
    total = 0
    for level in (dealt_cards(rules), U64(rules[R_DECK2]), U64(rules[R_DECK3])):
        while level != ZERO:
            b = lowest_bit(level)
            cards[total] = b
            total += 1
            level ^= b
    return cards[:total]


@hot_kernel
def shuffle_copies(state, hands, rules, cards):
    """``deal_copies`` from ``cards``, ``physical_cards(rules)`` or a copy of it, which it
    shuffles in place; returns the advanced state. A loop that deals many hands lists the
    cards once and copies them for each deal."""
    n, each, decks = n_seats(rules), cards_each(rules), rules[R_DECKS]
    total = len(cards)
    for j in range((n - 1) * each):
        state, r = below(state, total - j)
        k = j + r
        cards[j], cards[k] = cards[k], cards[j]
    for seat in range(n):
        h1, h2, h3 = ZERO, ZERO, ZERO
        for j in range(seat * each, (seat + 1) * each if seat < n - 1 else total):
            h1, h2, h3 = add_one(cards[j], h1, h2, h3)
        hands[seat] = h1
        hands[n + seat] = h2
        if decks > 2:
            hands[2 * n + seat] = h3
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
