"""The public, read-only kernel API that a researcher's numba agent is written against.

A kernel agent is two ``numba.njit`` functions handed to ``spades_ai.kernel_agent``::

    bid(pub, seat, hand, legal, rules) -> int     # 0 = nil, 1..cards_each; legal: bit b = bid b legal
    play(pub, seat, hand, legal, rules) -> int    # a card id (below); legal: uint64 mask of cards

``pub`` is the hand's public state (what every seat has seen), ``seat`` the seat to act,
``hand`` its own cards as a uint64 bitboard (bit = card id = ``suit * 13 + rank``, suits C D H
S, ranks 2..A), ``rules`` the house rules as an array. Read them only through the kernels
below: the array layouts are the engine's and may change, these names will not.

The table is in the rules too: ``n_seats(rules)`` seats (3 to 12), ``n_sides(rules)``
sides that score (a side is a pair of partners, ``partner(seat, rules)``, or solo a seat
alone, ``partner`` -1), ``side_of(seat, rules)``, ``next_seat(seat, rules)`` (to the left) and
``cards_each(rules)`` cards a seat, which is also the tricks of a hand (13 at four seats, 17 at
three, 10 at five). ``score``, ``bag_count`` and ``tricks_needed`` take a side.

From 6 players on the deck is ``n_decks(rules)`` decks shuffled together, and a card can
repeat. A multiset of cards is then up to three masks, its *levels*: level 1 holds the cards
present at least once, level 2 twice, level 3 three times (``spades_ai.engine.copies``). The
``hand`` argument, ``legal``, ``cards_played``, ``played_by`` and ``deck`` are level 1 (which is
all that following suit needs); ``own_copies(pub, hand)``, ``unseen_copies(pub, hand)`` give
every level, and ``copies_of`` / ``size_of`` count a card or a multiset. Of two identical cards
on one trick the first played stays ahead unless ``equal_cards_last(rules)``. With one deck
levels 2 and 3 are empty and all of this is the usual game.

Jokers and high deuces (``Rules(jokers=..., deuces_high=...)``) are trumps above the ace of
spades. The engine moves them into the *trump lane*, ids 52..55 above the ace of spades (51),
the lowest of them first, and leaves their own ids empty: with two jokers and two high deuces,
52 is 2D, 53 2S, 54 the little joker, 55 the big one, and ids 0 (2C), 13, 26 (2H) and 39 hold
no card. So every kernel sees them as spades ranking above the ace, with no test of its own:

- ``card_suit`` of an id in the lane is 3 (spades): they follow a spade lead, are led only when
  spades may be, break spades, count as spades for mirror and whiz bids; ``SPADES``,
  ``SUIT_MASK[3]`` and ``suit_cards(mask, 3)`` hold the whole lane (bits 39..55);
- ``card_rank`` is 13, 14, ... for them (above the ace's 12): within the trump suit the higher
  rank wins, and ranks still compare across suits; ``highest_card`` of a trick's spades, or of
  any mask, is still the best card;
- ``play`` returns an id in the lane to play one (``legal`` holds it); ``deck(pub)`` is every
  card of the hand's deck, ``FULL_DECK`` only the default one (ids 0..51);
- ``face_card(card, rules)`` is the id a Python ``Card`` shows for it (a joker keeps the id of
  the deuce it replaces: the big joker 26, the little one 0), ``extra_trumps(rules)`` how many
  ids the lane holds, ``jokers(rules)`` and ``deuces_high(rules)`` the options. When the rules
allow the seat a blind nil, ``bid`` is first asked with ``hand == 0`` and ``legal`` holding only
``BLIND_NIL_BIT`` and nil: return ``BLIND_NIL`` to bid it, anything else to look at the cards.

When the rules pass cards (``pass_cards``, ``blind_pass``), an agent may also have a third
function, given to ``kernel_agent(..., pass_=...)``::

    pass_(pub, seat, hand, n, rules) -> uint64     # a mask of n of the seat's cards

asked in the passing phase (``PHASE_PASSING``); an agent without one passes ``default_pass``,
its ``n`` highest cards. Under ``closed_bidding`` and with passing, ``pub`` is the seat's own
view: the bids it has not seen read -1, the opponents' passes 0.
An agent with options takes a sixth argument, ``params`` (an int64 array given to
``kernel_agent(..., params=...)``).

>>> import numba, spades_ai as sa
>>> from spades_ai import kernels as K
>>> @numba.njit
... def low_bid(pub, seat, hand, legal, rules):
...     return K.nearest_legal_bid(legal, 2)
>>> @numba.njit
... def low_card(pub, seat, hand, legal, rules):
...     return K.lowest_card(legal)
>>> agent = sa.kernel_agent("low", low_bid, low_card)
>>> sa.play_hands([agent, "normal"], 10, seed=1).tricks_won.sum(axis=1).tolist() == [13] * 10
True
"""

import numpy as np

from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, NIL_BIT, legal_bids
from spades_ai.engine.bids import best_other_score as _best_other_score
from spades_ai.engine.copies import copies_of, levels_diff, levels_sum, size_of
from spades_ai.engine.seats import cards_each, n_decks, n_seats, n_sides, next_seat, partner, side_of
from spades_ai.engine.bits import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    N_SUITS,
    RANK_OF,
    NON_SPADES,
    ONE,
    SPADES,
    SUIT_MASK,
    U64,
    ZERO,
    highest_bit,
    highest_index,
    lowest_bit,
    lowest_index,
    popcount,
    select_bit,
    suit_mask_of,
    suit_of,
)
from spades_ai.engine.jit import inline_kernel
from spades_ai.engine.rng import below, mix64, stream_state
from spades_ai.engine.state import (
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_BROKEN,
    P_DEALER,
    P_HANDS_PLAYED,
    P_LEADER,
    P_N_BIDS,
    P_PHASE,
    P_PLAYED,
    P_PLAYED_BY,
    P_SCORES,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_VOIDS,
    P_WIN_CARD,
    P_WIN_SEAT,
    P_WON,
    P_BLIND_GAVE,
    P_DECK,
    P_DECK2,
    P_DECK3,
    P_GAVE,
    P_OWN2,
    P_OWN3,
    P_PLAYED2,
    P_PLAYED3,
    PHASE_BIDDING,
    PHASE_OVER,
    PHASE_PASSING,
    PHASE_PLAYING,
    legal_now,
    pass_count,
)
from spades_ai.rules import (
    R_BAG_LIMIT,
    R_BAG_PENALTY,
    R_BIDDING,
    R_BLIND_BONUS,
    R_BLIND_NIL,
    R_BLIND_PASS,
    R_CLOSED,
    R_DEUCES_HIGH,
    R_EQUAL_LAST,
    R_EXTRA,
    R_FIRST_LEAD,
    R_JOKERS,
    R_LOSS,
    R_MAX_HANDS,
    R_MIN_BID,
    R_MIN_TEAM_BID,
    R_MUST_WIN,
    R_N_EXTRA,
    R_NIL,
    R_NIL_BONUS,
    R_NIL_TRICKS_COUNT,
    R_PASS,
    R_SPADE_LEAD,
    R_TARGET,
    R_TEN_FOR_200,
)

#: Return this from ``bid`` to bid a blind nil (only when ``legal`` has this bit).
BLIND_NIL = BLIND_NIL_BIT
# ``BID_BITS``: the number bids and nil of a bid mask (bits 0..17, up to ``cards_each``), the
# blind-nil bit left out.

__all__ = [
    # bitboards
    "CLUBS", "DIAMONDS", "HEARTS", "SPADES", "NON_SPADES", "FULL_DECK", "N_SUITS", "SUIT_MASK", "ONE", "ZERO", "U64",
    "popcount", "lowest_bit", "highest_bit", "lowest_index", "highest_index", "select_bit", "suit_mask_of",
    "card_bit", "card_suit", "card_rank", "face_card", "lowest_card", "highest_card", "suit_cards", "count",
    # the table (``spades_ai.seats``): seats, sides, partners, cards dealt to each seat
    "n_seats", "n_sides", "side_of", "partner", "next_seat", "cards_each",
    # several decks (``spades_ai.engine.copies``): the levels of a multiset of cards
    "n_decks", "own_copies", "unseen_copies", "copies_of", "size_of", "equal_cards_last",
    # the public state
    "dealer", "phase", "PHASE_PASSING", "PHASE_BIDDING", "PHASE_PLAYING", "PHASE_OVER", "bid_of", "is_blind", "bids_made",
    "tricks_won", "trick_no", "cards_played", "played_by", "deck", "unseen_cards", "trick_len", "trick_card",
    "leader", "led_suit", "winning_card", "winning_seat", "spades_broken", "is_void", "voids_shown", "void_in", "score",
    "bag_count", "best_other_score", "hands_played", "team_contract", "tricks_needed", "partnership_need",
    "cards_to_pass", "gave", "blind_gave",
    # rules
    "target_score", "loss_threshold", "nil_allowed", "nil_bonus", "blind_nil_allowed", "blind_nil_bonus",
    "nil_tricks_count", "bag_limit", "bag_penalty", "spade_lead", "first_lead", "min_bid",
    "min_team_bid", "ten_for_200", "bidding", "max_hands", "closed_bidding", "pass_cards", "blind_pass",
    "jokers", "deuces_high", "extra_trumps", "must_win",
    # legality, bids, randomness
    "legal_cards", "legal_bid_mask", "nearest_legal_bid", "NIL_BIT", "BLIND_NIL", "BID_BITS", "default_pass", "highest_cards", "decision_stream", "draw_below",
]  # fmt: skip


# -- cards and bitboards -----------------------------------------------------------------------
@inline_kernel
def card_bit(card):
    """The one-bit mask of card id ``card``."""
    return ONE << U64(card)


@inline_kernel
def card_suit(card):
    """0 clubs, 1 diamonds, 2 hearts, 3 spades (a joker or high deuce, ids 52..55, too)."""
    return suit_of(card)


@inline_kernel
def card_rank(card):
    """0 for a two up to 12 for an ace; 13, 14, ... for the jokers and high deuces of the
    trump lane (ids 52..55), in trump order above the ace."""
    return RANK_OF[card]


@inline_kernel
def face_card(card, rules):
    """The card id (0..51) that ``card`` shows as a Python ``Card``: itself, except in the
    trump lane, where a joker or high deuce shows the id of its card (``Rules.card``)."""
    return rules[R_EXTRA + card - 52] if card >= 52 else card


@inline_kernel
def lowest_card(mask):
    """The id of the lowest card of a non-empty mask (clubs first, then by rank)."""
    return lowest_index(mask)


@inline_kernel
def highest_card(mask):
    """The id of the highest card of a non-empty mask (a spade if it holds one)."""
    return highest_index(mask)


@inline_kernel
def suit_cards(mask, suit):
    """The cards of ``mask`` in ``suit``."""
    return mask & SUIT_MASK[suit]


@inline_kernel
def count(mask):
    """The number of cards in ``mask``."""
    return np.int64(popcount(mask))


# -- the public state ------------------------------------------------------------------------
@inline_kernel
def dealer(pub):
    return pub[P_DEALER]


@inline_kernel
def phase(pub):
    """``PHASE_PASSING``, ``PHASE_BIDDING``, ``PHASE_PLAYING`` or ``PHASE_OVER``."""
    return pub[P_PHASE]


@inline_kernel
def bid_of(pub, seat):
    """``seat``'s bid (0 = nil), -1 before it has bid."""
    return pub[P_BIDS + seat]


@inline_kernel
def is_blind(pub, seat):
    """Whether ``seat`` bid blind nil."""
    return pub[P_BLIND + seat] != 0


@inline_kernel
def bids_made(pub):
    return pub[P_N_BIDS]


@inline_kernel
def tricks_won(pub, seat):
    return pub[P_WON + seat]


@inline_kernel
def trick_no(pub):
    """Tricks finished (the index, 0..12, of the trick in play)."""
    return pub[P_TRICK_NO]


@inline_kernel
def cards_played(pub):
    """Every card played so far (a mask)."""
    return U64(pub[P_PLAYED])


@inline_kernel
def played_by(pub, seat):
    """The cards ``seat`` has played (a mask)."""
    return U64(pub[P_PLAYED_BY + seat])


@inline_kernel
def deck(pub):
    """Every card of this hand's deck (a mask): ``FULL_DECK`` under the default rules, with the
    jokers and high deuces moved to the trump lane under those options."""
    return U64(pub[P_DECK])


@inline_kernel
def unseen_cards(pub, hand):
    """The cards in the other hands, as far as the seat holding ``hand`` knows (the cards it
    knows its partner holds from a pass included): with several decks, the cards of which a
    copy is still unseen (level 1 of ``unseen_copies``)."""
    return unseen_copies(pub, hand)[0]


@inline_kernel
def own_copies(pub, hand):
    """The levels ``(hand, twice, three times)`` of the cards of the seat whose view ``pub`` is
    and whose ``hand`` argument is ``hand``: with several decks, the cards it holds at least
    once, twice, three times (``0, 0`` above ``hand`` with one deck)."""
    return hand, U64(pub[P_OWN2]), U64(pub[P_OWN3])


@inline_kernel
def unseen_copies(pub, hand):
    """The levels of the multiset of cards in the other hands, as far as the seat holding
    ``hand`` knows: the deck less the cards played less its own, copies counted. A card is in
    level 1 while any copy of it is unseen, in level 2 while two are."""
    h1, h2, h3 = own_copies(pub, hand)
    p1, p2, p3 = levels_sum(U64(pub[P_PLAYED]), U64(pub[P_PLAYED2]), U64(pub[P_PLAYED3]), h1, h2, h3)
    return levels_diff(U64(pub[P_DECK]), U64(pub[P_DECK2]), U64(pub[P_DECK3]), p1, p2, p3)


@inline_kernel
def trick_len(pub):
    """Cards in the current trick (0 when the seat to act leads)."""
    return pub[P_TRICK_LEN]


@inline_kernel
def trick_card(pub, i):
    """The card id played ``i``-th to the current trick (``i < trick_len(pub)``)."""
    return pub[P_TRICK + i]


@inline_kernel
def leader(pub):
    """The seat that led (or leads) the current trick; -1 during the bidding."""
    return pub[P_LEADER]


@inline_kernel
def led_suit(pub):
    """The suit led to the current trick, -1 when the seat to act leads."""
    return -1 if pub[P_TRICK_LEN] == 0 else suit_of(pub[P_TRICK])


@inline_kernel
def winning_card(pub):
    """The card id now winning the current trick, -1 if it is empty."""
    return pub[P_WIN_CARD]


@inline_kernel
def winning_seat(pub):
    """The seat now winning the current trick, -1 if it is empty."""
    return pub[P_WIN_SEAT]


@inline_kernel
def spades_broken(pub):
    return pub[P_BROKEN] != 0


@inline_kernel
def is_void(pub, seat, suit):
    """Whether ``seat`` has shown that it holds no card of ``suit``."""
    return void_in(voids_shown(pub), seat, suit)


@inline_kernel
def voids_shown(pub):
    """Every void shown so far, packed in an int (bit ``4 * seat + suit``). Read it once and
    test it with ``void_in``: a helper kernel that takes this int instead of ``pub`` avoids the
    reference counting of an array argument (Normal's play does this)."""
    return pub[P_VOIDS]


@inline_kernel
def void_in(voids, seat, suit):
    """Whether the packed ``voids`` (from ``voids_shown``) say ``seat`` holds no ``suit``."""
    return (voids >> (4 * seat + suit)) & 1 == 1


@inline_kernel
def score(pub, side):
    """The match score of ``side`` (at four in pairs, 0: seats 0 and 2; solo, a seat) before
    this hand."""
    return pub[P_SCORES + side]


@inline_kernel
def best_other_score(pub, side, rules):
    """The highest match score of the sides other than ``side`` before this hand."""
    return _best_other_score(pub, side, rules)


@inline_kernel
def bag_count(pub, side):
    """The running bag count of ``side`` before this hand."""
    return pub[P_BAGS + side]


@inline_kernel
def hands_played(pub):
    """Hands of the match finished before this one."""
    return pub[P_HANDS_PLAYED]


@inline_kernel
def team_contract(pub, side):
    """The sum of ``side``'s number bids so far (nil and unmade bids count 0), at four in pairs
    only: it reads seats ``side`` and ``side + 2`` and has no rules to read another table by
    (``tricks_needed`` reads any table)."""
    return max(pub[P_BIDS + side], 0) + max(pub[P_BIDS + side + 2], 0)


@inline_kernel
def partnership_need(bid_a, won_a, bid_b, won_b, nil_count):
    """Tricks a partnership still needs for its contract, from its two bids (-1: not yet) and
    tricks won; a nil bidder's tricks count only when ``nil_count`` (the rules say so)."""
    counted = 0
    if bid_a > 0 or nil_count:
        counted += won_a
    if bid_b > 0 or nil_count:
        counted += won_b
    return max(bid_a, 0) + max(bid_b, 0) - counted


@inline_kernel
def tricks_needed(pub, side, rules):
    """Tricks ``side`` still needs for its contract (0 or less: made), at any table (at four in
    pairs ``partnership_need`` of its two seats). A nil bidder's tricks count only when the rules
    say so."""
    mate = partner(side, rules)  # side s's first seat is s, and its partner if any: no loop (the hot path)
    m = max(mate, 0)
    bid_b, won_b = pub[P_BIDS + m], pub[P_WON + m]
    return partnership_need(pub[P_BIDS + side], pub[P_WON + side], bid_b if mate >= 0 else -1, won_b if mate >= 0 else 0,
                            rules[R_NIL_TRICKS_COUNT] != 0)  # fmt: skip


@inline_kernel
def cards_to_pass(pub, rules):
    """How many cards each passer gives in the passing round under way (0 outside one)."""
    return pass_count(pub, rules)


@inline_kernel
def gave(pub, seat):
    """The cards ``seat`` passed to its partner before the bidding (a mask; 0 before the
    exchange, and always 0 for an opponent of the seat whose view ``pub`` is)."""
    return U64(pub[P_GAVE + seat])


@inline_kernel
def blind_gave(pub, seat):
    """The cards ``seat`` passed in the blind pass (a mask; as ``gave``)."""
    return U64(pub[P_BLIND_GAVE + seat])


# -- rules -----------------------------------------------------------------------------------
@inline_kernel
def target_score(rules):
    return rules[R_TARGET]


@inline_kernel
def loss_threshold(rules):
    return rules[R_LOSS]


@inline_kernel
def nil_allowed(rules):
    return rules[R_NIL] != 0


@inline_kernel
def nil_bonus(rules):
    return rules[R_NIL_BONUS]


@inline_kernel
def blind_nil_allowed(rules):
    return rules[R_BLIND_NIL] != 0


@inline_kernel
def blind_nil_bonus(rules):
    return rules[R_BLIND_BONUS]


@inline_kernel
def nil_tricks_count(rules):
    return rules[R_NIL_TRICKS_COUNT] != 0


@inline_kernel
def bag_limit(rules):
    return rules[R_BAG_LIMIT]


@inline_kernel
def bag_penalty(rules):
    return rules[R_BAG_PENALTY]


@inline_kernel
def spade_lead(rules):
    """The code of ``Rules.spade_lead`` (its index in ``spades_ai.rules.SPADE_LEADS``)."""
    return rules[R_SPADE_LEAD]


@inline_kernel
def first_lead(rules):
    """The code of ``Rules.first_lead`` (its index in ``spades_ai.rules.FIRST_LEADS``)."""
    return rules[R_FIRST_LEAD]


@inline_kernel
def min_bid(rules):
    return rules[R_MIN_BID]


@inline_kernel
def min_team_bid(rules):
    return rules[R_MIN_TEAM_BID]


@inline_kernel
def ten_for_200(rules):
    return rules[R_TEN_FOR_200] != 0


@inline_kernel
def bidding(rules):
    """The code of ``Rules.bidding`` (its index in ``spades_ai.rules.BIDDINGS``)."""
    return rules[R_BIDDING]


@inline_kernel
def max_hands(rules):
    """``Rules.max_hands``, 0 when off."""
    return rules[R_MAX_HANDS]


@inline_kernel
def closed_bidding(rules):
    return rules[R_CLOSED] != 0


@inline_kernel
def pass_cards(rules):
    """``Rules.pass_cards``: cards each player passes before the bidding (0: none)."""
    return rules[R_PASS]


@inline_kernel
def blind_pass(rules):
    """``Rules.blind_pass``: cards a blind nil bidder's side exchanges after the bidding (0: none)."""
    return rules[R_BLIND_PASS]


@inline_kernel
def jokers(rules):
    """``Rules.jokers``: 0, 1 or 2 jokers (the highest trumps)."""
    return rules[R_JOKERS]


@inline_kernel
def deuces_high(rules):
    """``Rules.deuces_high``: 0..4 deuces made trumps below the jokers."""
    return rules[R_DEUCES_HIGH]


@inline_kernel
def equal_cards_last(rules):
    """``Rules.equal_cards == "last"``: of two identical cards on one trick (several decks) the
    later one wins; otherwise the first played stays ahead."""
    return rules[R_EQUAL_LAST] != 0


@inline_kernel
def must_win(rules):
    """``Rules.must_win``: a seat that holds a card beating the one now winning must play one."""
    return rules[R_MUST_WIN] != 0


@inline_kernel
def extra_trumps(rules):
    """How many trumps rank above the ace (jokers + deuces_high): the trump lane holds ids
    ``52 .. 51 + extra_trumps(rules)``."""
    return rules[R_N_EXTRA]


# -- legality, bids, randomness ----------------------------------------------------------------
@inline_kernel
def legal_cards(pub, hand, rules):
    """The cards ``hand`` may play now (the ``legal`` a play kernel is given)."""
    return legal_now(pub, hand, rules)


@inline_kernel
def legal_bid_mask(pub, seat, hand, rules):
    """The bid mask ``seat`` holding ``hand`` has now (the ``legal`` a bid kernel is given)."""
    return legal_bids(seat, hand, pub, rules)


@inline_kernel
def nearest_legal_bid(legal, want):
    """The legal number bid (1..cards_each) closest to ``want`` (the lower on a tie); nil (0)
    only when the mask allows nothing else."""
    for d in range(BLIND_NIL_BIT):
        for b in (want - d, want + d):
            if 1 <= b < BLIND_NIL_BIT and (legal >> b) & 1:
                return b
    return 0


@inline_kernel
def default_pass(pub, seat, hand, n, rules):
    """The pass of an agent that has none of its own: its ``n`` highest cards
    (``highest_cards``), as a mask."""
    return highest_cards(hand, n)


@inline_kernel
def highest_cards(hand, n):
    """The ``n`` highest cards of ``hand`` by rank (a mask): at equal rank a spade first, then
    the side suits in order (clubs, diamonds, hearts). Normal passes these toward a nil."""
    out = ZERO
    m = hand
    for _ in range(n):
        best = ZERO
        best_score = -1
        for s in range(N_SUITS):
            c = m & SUIT_MASK[s]
            if c != ZERO:
                b = highest_bit(c)
                score = 2 * card_rank(lowest_index(b)) + (1 if s == 3 else 0)
                if score > best_score:
                    best, best_score = b, score
        out |= best
        m &= ~best
    return out


@inline_kernel
def decision_stream(seed, pub, seat, hand):
    """A random stream for one decision, keyed by ``seed`` and the observation: the same
    observation always gives the same stream, in any order or process (the built-ins use it)."""
    return stream_state(U64(seed), hand ^ mix64(U64(pub[P_PLAYED])), U64(seat + 4 * pub[P_N_BIDS]))


@inline_kernel
def draw_below(state, n):
    """``(new state, r)`` with ``r`` uniform in ``0 .. n - 1`` (exactly; ``n`` >= 1)."""
    return below(state, n)
