"""The public state of a hand: everything every seat has seen, in one int64 array.

A hand in play is this array plus the hidden bitboards, one per seat (``uint64[N]``, N the
seats of the table, ``engine.seats``). An observation is a seat's view of the array
(``observe``), the seat and its own bitboard, so an agent kernel that is handed an
observation cannot see a hidden card. Masks are stored as int64 (56 bits fit).

Cards and card masks are in the engine's layout (``engine.bits``): card ids, except that the
jokers and high deuces of the rules sit in the trump lane, engine ids 52..55
(``Rules.public_id`` / ``public_mask`` convert back).

The view equals the array except where a house rule hides something from a seat: under
``closed_bidding`` the other seats' bids and blind flags read -1 and 0 until the play starts
(through a blind pass too);
with card passing, the other sides' passes read 0 (a seat sees what it and its partner gave).

Card passing (``pass_cards`` before the bidding, ``blind_pass`` after it for a side with a
blind nil bidder; partners only) is the phase PHASE_PASSING. Every passer of the round chooses
(the seat to act is the first one, from the dealer's left, that has not chosen yet); the
choices wait outside the array, hidden from every view, until the last one is made, and then
the partners exchange at once (``choose_pass``).

The layout is the same for every table: a per-seat block has ``MAX_SEATS`` slots and a
per-side block ``MAX_SIDES``, of which a table uses its first N (or ``n_sides``). Slots::

    P_DEALER            dealer seat
    P_N_BIDS            bids made so far
    P_PLAYED            every card played so far (mask)
    P_TRICK_LEN         cards in the current trick
    P_LEADER            seat that leads (or led) the current trick; -1 during the bidding, as
                        with ``first_lead="low_club"`` it would tell who holds the lowest club
    P_TRICK_NO          tricks finished (0..cards_each)
    P_BROKEN            1 once a spade has been played
    P_VOIDS             bit 4*s + suit set once seat s showed it lacks that suit: it failed to
                        follow it, or it led a spade while the rules allowed that only from a
                        hand of nothing but spades (48 bits at 12 seats)
    P_TO_ACT            seat to pass, bid or play next (-1 when the hand is over)
    P_PHASE             PHASE_BIDDING, PHASE_PLAYING, PHASE_OVER or PHASE_PASSING
    P_HANDS_PLAYED      hands of the match finished before this one
    P_WIN_CARD          card id now winning the current trick, -1 if the trick is empty
    P_WIN_SEAT          seat that played it, -1 if the trick is empty
    P_PASS_DONE         bit s set once seat s has chosen its pass in the current round
    P_DECK              every card of this hand's deck (mask): the 52 ids by default, less
                        the cards the table removes, with the jokers and high deuces moved to
                        the trump lane (``Rules`` R_DECK)
    P_BIDS + s          seat s's bid, -1 before it bids (0 = nil)
    P_BLIND + s         1 if seat s bid blind nil
    P_PLAYED_BY + s     the cards seat s has played (mask)
    P_TRICK + i         card id played i-th to the current trick, -1 if none yet
    P_WON + s           tricks seat s has won
    P_GAVE + s          the cards seat s passed to its partner before the bidding (mask;
                        hidden from the other sides' views)
    P_BLIND_GAVE + s    the cards seat s passed in the blind pass (mask; hidden likewise)
    P_SCORES + k        match score of side k before this hand
    P_BAGS + k          bag count of side k before this hand
    P_PLAYED2, P_PLAYED3, P_DECK2, P_DECK3
                        levels 2 and 3 of P_PLAYED and P_DECK with several decks: the cards
                        played (in the deck) at least twice, three times (``copies``); 0 with
                        one deck
    P_OWN2, P_OWN3      in a seat's view (``observe``, and the self-play loop before it asks
                        a seat), levels 2 and 3 of that seat's own hand: an agent's ``hand``
                        argument is level 1, so the seat's cards are ``(hand, view[P_OWN2],
                        view[P_OWN3])``; 0 in the public array itself and with one deck
    P_PLAYED_BY2 + s, P_PLAYED_BY3 + s
                        levels 2 and 3 of P_PLAYED_BY + s
    P_HISTORY + 2 t     finished trick t (t < P_TRICK_NO), packed in two words
                        (``HISTORY_WORDS``): the first holds its leader (4 bits) and the first
                        nine cards, ``leader + 16 * (c0 + 64 c1 + ... + 64**8 c8)``, the second
                        cards 9..11, ``c9 + 64 c10 + 64**2 c11``, c_i the engine id (0..55) of
                        the card played i-th (``history_leader``, ``history_card``); 0 for a
                        trick not finished. With P_TRICK it orders every card played, so a
                        world can be replayed (``montecarlo.reading``)
"""

import numpy as np

from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.engine.bits import ONE, SPADES, U64, ZERO, popcount, suit_of
from spades_ai.engine.copies import add_one, take_from
from spades_ai.engine.play import first_leader, legal_mask, may_lead_spades, must_win_cards
from spades_ai.engine.seats import cards_each, n_seats, n_sides, next_seat, partner, side_of
from spades_ai.rules import R_BLIND_PASS, R_CLOSED, R_DECK, R_DECK2, R_DECK3, R_DECKS, R_EQUAL_LAST, R_FIRST_LEAD, R_MUST_WIN, R_PASS, R_SPADE_LEAD

MAX_SEATS = 12
MAX_SIDES = 12
MAX_HAND_SLOTS = 3 * MAX_SEATS  # hidden hands at most: three levels of twelve seats (``copies``)
MAX_TRICKS = 17  # cards_each at 3, 6 and 9 players
HISTORY_WORDS = 2  # a finished trick's record: leader and up to 12 cards of 6 bits
HISTORY_FIRST = 9  # cards in a record's first word (4 + 9 * 6 = 58 bits)

P_DEALER = 0
P_N_BIDS = 1
P_PLAYED = 2
P_TRICK_LEN = 3
P_LEADER = 4
P_TRICK_NO = 5
P_BROKEN = 6
P_VOIDS = 7
P_TO_ACT = 8
P_PHASE = 9
P_HANDS_PLAYED = 10
P_WIN_CARD = 11
P_WIN_SEAT = 12
P_PASS_DONE = 13
P_DECK = 14
P_BIDS = 16
P_BLIND = P_BIDS + MAX_SEATS
P_PLAYED_BY = P_BLIND + MAX_SEATS
P_TRICK = P_PLAYED_BY + MAX_SEATS
P_WON = P_TRICK + MAX_SEATS
P_GAVE = P_WON + MAX_SEATS
P_BLIND_GAVE = P_GAVE + MAX_SEATS
P_SCORES = P_BLIND_GAVE + MAX_SEATS
P_BAGS = P_SCORES + MAX_SIDES
P_HISTORY = P_BAGS + MAX_SIDES
# The levels above the first of the masks that can hold copies (several decks, ``copies``).
P_PLAYED2 = P_HISTORY + HISTORY_WORDS * MAX_TRICKS
P_PLAYED3 = P_PLAYED2 + 1
P_DECK2 = P_PLAYED3 + 1
P_DECK3 = P_DECK2 + 1
P_OWN2 = P_DECK3 + 1
P_OWN3 = P_OWN2 + 1
P_PLAYED_BY2 = P_OWN3 + 1
P_PLAYED_BY3 = P_PLAYED_BY2 + MAX_SEATS
N_PUBLIC = P_PLAYED_BY3 + MAX_SEATS

PHASE_BIDDING, PHASE_PLAYING, PHASE_OVER, PHASE_PASSING = 0, 1, 2, 3


@kernel
def reset_public(pub, hands, dealer, scores, bags, hands_played, rules):
    """Fill ``pub`` for a new hand dealt as ``hands``, the match's ``scores`` and ``bags`` (one
    per side) before it (the passing comes first if the rules pass cards before the bidding)."""
    pub[:] = 0
    pub[P_DEALER] = dealer
    for s in range(n_seats(rules)):
        pub[P_BIDS + s] = -1
        pub[P_TRICK + s] = -1
    pub[P_LEADER] = -1
    for k in range(n_sides(rules)):
        pub[P_SCORES + k] = scores[k]
        pub[P_BAGS + k] = bags[k]
    pub[P_TO_ACT] = next_seat(dealer, rules)
    pub[P_PHASE] = PHASE_PASSING if rules[R_PASS] > 0 else PHASE_BIDDING
    pub[P_HANDS_PLAYED] = hands_played
    pub[P_WIN_CARD] = -1
    pub[P_WIN_SEAT] = -1
    pub[P_DECK] = rules[R_DECK]
    pub[P_DECK2] = rules[R_DECK2]
    pub[P_DECK3] = rules[R_DECK3]


@inline_kernel
def hides_anything(rules):
    """Whether a seat's view can differ from the public array under these rules (closed
    bidding, passing, and several decks, where a view carries its seat's copies: ``show_own``).
    The self-play loop keeps the default rules, which hide nothing, on its tight path."""
    return rules[R_CLOSED] != 0 or rules[R_PASS] != 0 or rules[R_BLIND_PASS] != 0 or rules[R_DECKS] > 1


@inline_kernel
def copy_into(dst, src):
    """``dst[:] = src`` (1-D, of one length), element by element: numba compiles a slice
    assignment of an array with its shape-mismatch message (string formatting), 1.6 s of a cold
    first Hard run, paid once whichever kernel has the first."""
    for k in range(len(src)):
        dst[k] = src[k]


@kernel
def observe(pub, hands, seat, rules, view):
    """Fill ``view`` with what ``seat`` has seen of the hand in ``pub`` (see the docstring), its
    own copies from ``hands`` included (``show_own``).

    Copied element by element, as the self-play loop's ``report``: a slice assignment compiles
    numba's shape-mismatch error message, and every lineup loop compiles this function."""
    for k in range(N_PUBLIC):
        view[k] = pub[k]
    phase = pub[P_PHASE]
    if rules[R_CLOSED] != 0 and (phase == PHASE_BIDDING or phase == PHASE_PASSING):
        for s in range(n_seats(rules)):
            if s != seat:
                view[P_BIDS + s] = -1
                view[P_BLIND + s] = 0
    side = side_of(seat, rules)
    for s in range(n_seats(rules)):
        if side_of(s, rules) != side:
            view[P_GAVE + s] = 0
            view[P_BLIND_GAVE + s] = 0
    show_own(view, hands, seat, rules)


@kernel
def hide_own(view):
    """Clear a view's own copies (``P_OWN2`` / ``P_OWN3``): the view of a seat whose cards are
    hidden from it, as before it decides on blind nil (its level 1, the ``hand`` argument, is 0)."""
    view[P_OWN2] = 0
    view[P_OWN3] = 0


@kernel
def upper_levels(hands, seat, rules):
    """Levels 2 and 3 of ``seat``'s hand in ``hands`` (``hands[k * N + seat]``, ``copies``): 0
    where the table has fewer decks. The one place that reads a seat's copies by the decks."""
    n = n_seats(rules)
    decks = rules[R_DECKS]
    return hands[n + seat] if decks >= 2 else ZERO, hands[2 * n + seat] if decks >= 3 else ZERO


@kernel
def show_own(view, hands, seat, rules):
    """Write levels 2 and 3 of ``seat``'s hand (``upper_levels``) into its view's ``P_OWN2`` /
    ``P_OWN3``."""
    l2, l3 = upper_levels(hands, seat, rules)
    view[P_OWN2] = np.int64(l2)
    view[P_OWN3] = np.int64(l3)


@kernel
def passers(pub, rules):
    """The seats (bit s) that exchange cards in the current passing round: every seat before
    the bidding, after it the partners of each side with a blind nil bidder."""
    if pub[P_N_BIDS] == 0:
        return (1 << n_seats(rules)) - 1
    m = 0
    for s in range(n_seats(rules)):
        if pub[P_BLIND + s] != 0:
            m |= (1 << s) | (1 << partner(s, rules))
    return m


@kernel
def pass_count(pub, rules):
    """How many cards each passer gives in the current round (0 outside the passing)."""
    if pub[P_PHASE] != PHASE_PASSING:
        return 0
    return rules[R_PASS] if pub[P_N_BIDS] == 0 else rules[R_BLIND_PASS]


@kernel
def next_passer(pub, rules):
    """The first passer of the round, from the dealer's left, that has not chosen (-1: none)."""
    m = passers(pub, rules) & ~pub[P_PASS_DONE]
    s = pub[P_DEALER]
    for _ in range(n_seats(rules)):
        s = next_seat(s, rules)
        if (m >> s) & 1:
            return s
    return -1


@inline_kernel
def start_play(pub, hands, rules):
    """The bidding (and any blind pass) is over: the first leader, found from ``hands``, leads."""
    pub[P_PHASE] = PHASE_PLAYING
    pub[P_LEADER] = first_leader(hands, pub[P_DEALER], rules)
    pub[P_TO_ACT] = pub[P_LEADER]


@kernel
def choose_pass(pub, hands, pending, seat, cards, rules):
    """Note ``seat``'s pass (``cards``: ``pass_count`` of its cards; no legality check, see
    ``pass_ok``) in ``pending`` (uint64[N], outside every view). Once every passer of the round
    has chosen, the partners exchange at once, the passes are recorded (``P_GAVE`` /
    ``P_BLIND_GAVE``) and the bidding, or the play, starts. Passing is played in pairs only."""
    pending[seat] = cards
    pub[P_PASS_DONE] |= 1 << seat
    nxt = next_passer(pub, rules)
    if nxt >= 0:
        pub[P_TO_ACT] = nxt
        return
    m = passers(pub, rules)
    slot = P_GAVE if pub[P_N_BIDS] == 0 else P_BLIND_GAVE
    for a in range(n_sides(rules)):
        if (m >> a) & 1:
            b = partner(a, rules)
            ga, gb = pending[a], pending[b]
            hands[a] = (hands[a] & ~ga) | gb
            hands[b] = (hands[b] & ~gb) | ga
            pub[slot + a] = np.int64(ga)
            pub[slot + b] = np.int64(gb)
    for s in range(n_seats(rules)):
        pending[s] = 0
    pub[P_PASS_DONE] = 0
    if pub[P_N_BIDS] == 0:
        pub[P_PHASE] = PHASE_BIDDING
        pub[P_TO_ACT] = next_seat(pub[P_DEALER], rules)
    else:
        start_play(pub, hands, rules)


@kernel
def pass_ok(hand, cards, n):
    """Whether ``cards`` (a mask) are ``n`` cards of ``hand``."""
    return (cards & ~hand) == 0 and popcount(cards) == n


@kernel
def apply_bid(pub, hands, bid, blind, rules):
    """Record the bid of the seat to act (no legality check: see ``bids.legal_bids``).

    After the last bid comes the blind pass if the rules have one and a side bid blind nil;
    otherwise the play starts and the first leader is found from ``hands``.
    """
    seat = pub[P_TO_ACT]
    pub[P_BIDS + seat] = bid
    pub[P_BLIND + seat] = 1 if blind else 0
    pub[P_N_BIDS] += 1
    if pub[P_N_BIDS] == n_seats(rules):
        if rules[R_BLIND_PASS] > 0 and passers(pub, rules) != 0:
            pub[P_PHASE] = PHASE_PASSING
            pub[P_TO_ACT] = next_passer(pub, rules)
        else:
            start_play(pub, hands, rules)
    else:
        pub[P_TO_ACT] = next_seat(seat, rules)


@inline_kernel
def history_leader(pub, t):
    """The seat that led finished trick ``t``."""
    return pub[P_HISTORY + HISTORY_WORDS * t] & 15


@inline_kernel
def history_card(pub, t, i):
    """The engine id of the card played ``i``-th to finished trick ``t`` (the leader's is 0)."""
    if i < HISTORY_FIRST:
        return (pub[P_HISTORY + HISTORY_WORDS * t] >> (4 + 6 * i)) & 63
    return (pub[P_HISTORY + HISTORY_WORDS * t + 1] >> (6 * (i - HISTORY_FIRST))) & 63


@inline_kernel
def clear_history(pub):
    """Forget every finished trick's record (the tricks are to be played again)."""
    for k in range(HISTORY_WORDS * MAX_TRICKS):
        pub[P_HISTORY + k] = 0


@inline_kernel
def record_trick(pub):
    """Pack the finished trick in ``P_TRICK`` into its ``P_HISTORY`` words. Every slot of the
    block is read, the table's seats or not (those beyond hold 0): loops of a fixed length,
    unrolled, keep the self-play loop free of branches around the public array (each costs
    the array's reference counting on every card)."""
    at = P_HISTORY + HISTORY_WORDS * pub[P_TRICK_NO]
    first = pub[P_LEADER]
    for i in range(HISTORY_FIRST):
        first |= pub[P_TRICK + i] << (4 + 6 * i)
    pub[at] = first
    rest = 0
    for i in range(HISTORY_FIRST, MAX_SEATS):
        rest |= pub[P_TRICK + i] << (6 * (i - HISTORY_FIRST))
    pub[at + 1] = rest


@kernel
def led_suit(pub):
    """The suit led to the current trick, -1 when the seat to act leads."""
    if pub[P_TRICK_LEN] == 0:
        return -1
    return suit_of(pub[P_TRICK])


@hot_kernel
def legal_now(pub, hand, rules):
    """The legal cards of ``hand`` for the seat to act; under must win, those of them that
    beat the card now winning the trick, when there are any (the leader is free).

    A ``hot_kernel``, as ``apply_card``: inlined in numba's IR, its array arguments became new
    variables that were counted in and out around every card of the self-play loop."""
    legal = legal_mask(hand, led_suit(pub), pub[P_BROKEN] != 0, pub[P_TRICK_NO], rules[R_SPADE_LEAD], rules[R_FIRST_LEAD])
    return must_win_cards(legal, rules[R_MUST_WIN] != 0, pub[P_WIN_CARD], rules[R_EQUAL_LAST] != 0)


@inline_kernel
def add_played(pub, slot1, slot2, slot3, b):
    """Add one copy of the card ``b`` to the multiset in the public slots ``slot1..3`` (its
    levels: ``copies.add_one``), without a branch."""
    p1, p2, p3 = add_one(b, U64(pub[slot1]), U64(pub[slot2]), U64(pub[slot3]))
    pub[slot1], pub[slot2], pub[slot3] = np.int64(p1), np.int64(p2), np.int64(p3)


@hot_kernel
def apply_card(pub, hands, card, rules):
    """Play card id ``card`` for the seat to act (no legality check: see ``legal_now``).

    Removes it from ``hands``, notes voids and broken spades, keeps the card now winning the
    trick, and closes the trick after the last seat's card. Returns the trick's winner, or -1
    while the trick goes on. A ``hot_kernel`` (see ``legal_now``).
    """
    seat = pub[P_TO_ACT]
    b = ONE << U64(card)
    # Branch-free at every table (a branch here costs the arrays' reference counting on
    # every card): the copy leaves the seat's highest level holding it (``copies``) and joins
    # the played levels; with one deck the levels above the first stay 0.
    take_from(hands, seat, n_seats(rules), b, rules[R_DECKS])
    add_played(pub, P_PLAYED, P_PLAYED2, P_PLAYED3, b)
    add_played(pub, P_PLAYED_BY + seat, P_PLAYED_BY2 + seat, P_PLAYED_BY3 + seat, b)
    n = pub[P_TRICK_LEN]
    if n == 0:
        pub[P_WIN_CARD] = card
        pub[P_WIN_SEAT] = seat
        if suit_of(card) == 3 and not may_lead_spades(pub[P_BROKEN] != 0, pub[P_TRICK_NO], rules[R_SPADE_LEAD]):
            pub[P_VOIDS] |= 0x7 << (4 * seat)  # a spade lead only an all-spade hand may make
    else:
        led = suit_of(pub[P_TRICK])
        suit = suit_of(card)
        if suit != led:
            pub[P_VOIDS] |= 1 << (4 * seat + led)
        # A spade beats any other suit; within one suit the higher id wins (in the trump lane,
        # jokers and high deuces above the ace), and an identical copy only under equal_cards =
        # "last"; other suits lose (``play.beating``).
        win = pub[P_WIN_CARD]
        win_suit = suit_of(win)
        if (suit == win_suit and (card > win or (card == win and rules[R_EQUAL_LAST] != 0))) or (suit == 3 and win_suit != 3):
            pub[P_WIN_CARD] = card
            pub[P_WIN_SEAT] = seat
    if b & SPADES:
        pub[P_BROKEN] = 1
    pub[P_TRICK + n] = card
    pub[P_TRICK_LEN] = n + 1
    if pub[P_TRICK_LEN] < n_seats(rules):
        pub[P_TO_ACT] = next_seat(seat, rules)
        return -1
    winner = pub[P_WIN_SEAT]
    record_trick(pub)
    pub[P_WIN_CARD] = -1
    pub[P_WIN_SEAT] = -1
    pub[P_WON + winner] += 1
    pub[P_TRICK_NO] += 1
    for i in range(MAX_SEATS):
        pub[P_TRICK + i] = -1 if i <= n else 0
    pub[P_TRICK_LEN] = 0
    pub[P_LEADER] = winner
    if pub[P_TRICK_NO] == cards_each(rules):
        pub[P_PHASE] = PHASE_OVER
        pub[P_TO_ACT] = -1
    else:
        pub[P_TO_ACT] = winner
    return winner
