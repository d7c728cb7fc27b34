"""The public state of a hand: everything every seat has seen, in one int64 array.

A hand in play is this array plus the four hidden bitboards (``uint64[4]``). An observation is
a seat's view of the array (``observe``), the seat and its own bitboard, so an agent kernel that
is handed an observation cannot see a hidden card. Masks are stored as int64 (56 bits fit).

Cards and card masks are in the engine's layout (``engine.bits``): card ids, except that the
jokers and high deuces of the rules sit in the trump lane, engine ids 52..55
(``Rules.public_id`` / ``public_mask`` convert back).

The view equals the array except where a house rule hides something from a seat: under
``closed_bidding`` the other seats' bids and blind flags read -1 and 0 until the play starts
(through a blind pass too);
with card passing, the opponents' passes read 0 (a seat sees what it and its partner gave).

Card passing (``pass_cards`` before the bidding, ``blind_pass`` after it for a team with a
blind nil bidder) is the phase PHASE_PASSING. Every passer of the round chooses (the seat to act
is the first one, from the dealer's left, that has not chosen yet); the choices wait outside
the array, hidden from every view, until the last one is made, and then the partners exchange
at once (``choose_pass``).

Slots::

    P_DEALER            dealer seat
    P_BIDS + s          seat s's bid, -1 before it bids (0 = nil)
    P_BLIND + s         1 if seat s bid blind nil
    P_N_BIDS            bids made so far
    P_PLAYED            every card played so far (mask)
    P_PLAYED_BY + s     the cards seat s has played (mask)
    P_TRICK + i         card id played i-th to the current trick, -1 if none yet
    P_TRICK_LEN         cards in the current trick
    P_LEADER            seat that leads (or led) the current trick; -1 during the bidding, as
                        with ``first_lead="low_club"`` it would tell who holds the lowest club
    P_TRICK_NO          tricks finished (0..13)
    P_WON + s           tricks seat s has won
    P_BROKEN            1 once a spade has been played
    P_VOIDS             bit 4*s + suit set once seat s showed it lacks that suit: it failed to
                        follow it, or it led a spade while the rules allowed that only from a
                        hand of nothing but spades
    P_SCORES + t        match score of team t before this hand
    P_BAGS + t          bag count of team t before this hand
    P_TO_ACT            seat to pass, bid or play next (-1 when the hand is over)
    P_PHASE             PHASE_BIDDING, PHASE_PLAYING, PHASE_OVER or PHASE_PASSING
    P_HANDS_PLAYED      hands of the match finished before this one
    P_WIN_CARD          card id now winning the current trick, -1 if the trick is empty
    P_WIN_SEAT          seat that played it, -1 if the trick is empty
    P_GAVE + s          the cards seat s passed to its partner before the bidding (mask;
                        hidden from the opponents' views)
    P_BLIND_GAVE + s    the cards seat s passed in the blind pass (mask; hidden likewise)
    P_PASS_DONE         bit s set once seat s has chosen its pass in the current round
    P_DECK              every card of this hand's deck (mask): the 52 ids by default, with the
                        jokers and high deuces moved to the trump lane (``Rules`` R_DECK)
    P_HISTORY + t       finished trick t (t < P_TRICK_NO), packed: its leader + 4 * (c0 + 64 c1 +
                        64**2 c2 + 64**3 c3), c_i the engine id (0..55) of the card played i-th
                        (``trick_record``); 0 for a trick not finished. With P_TRICK it orders
                        every card played, so a world can be replayed (``montecarlo.reading``)
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.bits import ONE, SPADES, U64, popcount, suit_of
from spades_ai.engine.play import first_leader, legal_mask, may_lead_spades
from spades_ai.rules import R_BLIND_PASS, R_CLOSED, R_DECK, R_FIRST_LEAD, R_PASS, R_SPADE_LEAD

P_DEALER = 0
P_BIDS = 1
P_BLIND = 5
P_N_BIDS = 9
P_PLAYED = 10
P_PLAYED_BY = 11
P_TRICK = 15
P_TRICK_LEN = 19
P_LEADER = 20
P_TRICK_NO = 21
P_WON = 22
P_BROKEN = 26
P_VOIDS = 27
P_SCORES = 28
P_BAGS = 30
P_TO_ACT = 32
P_PHASE = 33
P_HANDS_PLAYED = 34
P_WIN_CARD = 35
P_WIN_SEAT = 36
P_GAVE = 37
P_BLIND_GAVE = 41
P_PASS_DONE = 45
P_DECK = 46
P_HISTORY = 47
N_PUBLIC = 60

PHASE_BIDDING, PHASE_PLAYING, PHASE_OVER, PHASE_PASSING = 0, 1, 2, 3


@kernel
def reset_public(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, rules):
    """Fill ``pub`` for a new hand dealt as ``hands`` (the passing comes first if the rules
    pass cards before the bidding)."""
    pub[:] = 0
    pub[P_DEALER] = dealer
    for s in range(4):
        pub[P_BIDS + s] = -1
        pub[P_TRICK + s] = -1
    pub[P_LEADER] = -1
    pub[P_SCORES] = score0
    pub[P_SCORES + 1] = score1
    pub[P_BAGS] = bags0
    pub[P_BAGS + 1] = bags1
    pub[P_TO_ACT] = (dealer + 1) & 3
    pub[P_PHASE] = PHASE_PASSING if rules[R_PASS] > 0 else PHASE_BIDDING
    pub[P_HANDS_PLAYED] = hands_played
    pub[P_WIN_CARD] = -1
    pub[P_WIN_SEAT] = -1
    pub[P_DECK] = rules[R_DECK]


@inline_kernel
def hides_anything(rules):
    """Whether a seat's view can differ from the public array under these rules (closed
    bidding, passing). The self-play loop keeps the default rules, which hide nothing, on its
    tight path."""
    return rules[R_CLOSED] != 0 or rules[R_PASS] != 0 or rules[R_BLIND_PASS] != 0


@kernel
def observe(pub, seat, rules, view):
    """Fill ``view`` with what ``seat`` has seen of the hand in ``pub`` (see the docstring).

    Copied element by element, as the self-play loop's ``report``: a slice assignment compiles
    numba's shape-mismatch error message, and every lineup loop compiles this function."""
    for k in range(N_PUBLIC):
        view[k] = pub[k]
    phase = pub[P_PHASE]
    if rules[R_CLOSED] != 0 and (phase == PHASE_BIDDING or phase == PHASE_PASSING):
        for s in range(4):
            if s != seat:
                view[P_BIDS + s] = -1
                view[P_BLIND + s] = 0
    for s in ((seat + 1) & 3, (seat + 3) & 3):
        view[P_GAVE + s] = 0
        view[P_BLIND_GAVE + s] = 0


@kernel
def passers(pub, rules):
    """The seats (bit s) that exchange cards in the current passing round: all four before the
    bidding, after it the two partners of each team with a blind nil bidder."""
    if pub[P_N_BIDS] == 0:
        return 0xF
    m = 0
    for t in range(2):
        if pub[P_BLIND + t] != 0 or pub[P_BLIND + t + 2] != 0:
            m |= (1 << t) | (1 << (t + 2))
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
    for k in range(4):
        s = (pub[P_DEALER] + 1 + k) & 3
        if (m >> s) & 1:
            return s
    return -1


@inline_kernel
def start_play(pub, hands, rules):
    """The bidding (and any blind pass) is over: the first leader, found from ``hands``, leads."""
    pub[P_PHASE] = PHASE_PLAYING
    pub[P_LEADER] = first_leader(hands, pub[P_DEALER], rules[R_FIRST_LEAD])
    pub[P_TO_ACT] = pub[P_LEADER]


@kernel
def choose_pass(pub, hands, pending, seat, cards, rules):
    """Note ``seat``'s pass (``cards``: ``pass_count`` of its cards; no legality check, see
    ``pass_ok``) in ``pending`` (uint64[4], outside every view). Once every passer of the round
    has chosen, the partners exchange at once, the passes are recorded (``P_GAVE`` /
    ``P_BLIND_GAVE``) and the bidding, or the play, starts."""
    pending[seat] = cards
    pub[P_PASS_DONE] |= 1 << seat
    nxt = next_passer(pub, rules)
    if nxt >= 0:
        pub[P_TO_ACT] = nxt
        return
    m = passers(pub, rules)
    slot = P_GAVE if pub[P_N_BIDS] == 0 else P_BLIND_GAVE
    for t in range(2):
        if (m >> t) & 1:
            a, b = t, t + 2
            ga, gb = pending[a], pending[b]
            hands[a] = (hands[a] & ~ga) | gb
            hands[b] = (hands[b] & ~gb) | ga
            pub[slot + a] = np.int64(ga)
            pub[slot + b] = np.int64(gb)
    for s in range(4):
        pending[s] = 0
    pub[P_PASS_DONE] = 0
    if pub[P_N_BIDS] == 0:
        pub[P_PHASE] = PHASE_BIDDING
        pub[P_TO_ACT] = (pub[P_DEALER] + 1) & 3
    else:
        start_play(pub, hands, rules)


@kernel
def pass_ok(hand, cards, n):
    """Whether ``cards`` (a mask) are ``n`` cards of ``hand``."""
    return (cards & ~hand) == 0 and popcount(cards) == n


@kernel
def apply_bid(pub, hands, bid, blind, rules):
    """Record the bid of the seat to act (no legality check: see ``bids.legal_bids``).

    After the fourth bid comes the blind pass if the rules have one and a team bid blind nil;
    otherwise the play starts and the first leader is found from ``hands``.
    """
    seat = pub[P_TO_ACT]
    pub[P_BIDS + seat] = bid
    pub[P_BLIND + seat] = 1 if blind else 0
    pub[P_N_BIDS] += 1
    if pub[P_N_BIDS] == 4:
        if rules[R_BLIND_PASS] > 0 and passers(pub, rules) != 0:
            pub[P_PHASE] = PHASE_PASSING
            pub[P_TO_ACT] = next_passer(pub, rules)
        else:
            start_play(pub, hands, rules)
    else:
        pub[P_TO_ACT] = (seat + 1) & 3


@inline_kernel
def trick_record(pub, t):
    """``(leader, card 0, card 1, card 2, card 3)`` of finished trick ``t`` (cards in the
    order played, the leader's first)."""
    v = pub[P_HISTORY + t]
    return v & 3, (v >> 2) & 63, (v >> 8) & 63, (v >> 14) & 63, (v >> 20) & 63


@kernel
def led_suit(pub):
    """The suit led to the current trick, -1 when the seat to act leads."""
    if pub[P_TRICK_LEN] == 0:
        return -1
    return suit_of(pub[P_TRICK])


@inline_kernel
def legal_now(pub, hand, rules):
    """The legal cards of ``hand`` for the seat to act."""
    return legal_mask(hand, led_suit(pub), pub[P_BROKEN] != 0, pub[P_TRICK_NO], rules[R_SPADE_LEAD], rules[R_FIRST_LEAD])


@inline_kernel
def apply_card(pub, hands, card, rules):
    """Play card id ``card`` for the seat to act (no legality check: see ``legal_now``).

    Removes it from ``hands``, notes voids and broken spades, and closes the trick after the
    fourth card. Returns the trick's winner, or -1 while the trick goes on.
    """
    seat = pub[P_TO_ACT]
    b = ONE << U64(card)
    hands[seat] &= ~b
    pub[P_PLAYED] |= np.int64(b)
    pub[P_PLAYED_BY + seat] |= np.int64(b)
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
        # jokers and high deuces above the ace); other suits lose.
        win = pub[P_WIN_CARD]
        win_suit = suit_of(win)
        if (suit == win_suit and card > win) or (suit == 3 and win_suit != 3):
            pub[P_WIN_CARD] = card
            pub[P_WIN_SEAT] = seat
    if b & SPADES:
        pub[P_BROKEN] = 1
    pub[P_TRICK + n] = card
    pub[P_TRICK_LEN] = n + 1
    if n < 3:
        pub[P_TO_ACT] = (seat + 1) & 3
        return -1
    winner = pub[P_WIN_SEAT]
    pub[P_HISTORY + pub[P_TRICK_NO]] = pub[P_LEADER] + 4 * (pub[P_TRICK] + 64 * (pub[P_TRICK + 1] + 64 * (pub[P_TRICK + 2] + 64 * card)))
    pub[P_WIN_CARD] = -1
    pub[P_WIN_SEAT] = -1
    pub[P_WON + winner] += 1
    pub[P_TRICK_NO] += 1
    for i in range(4):
        pub[P_TRICK + i] = -1
    pub[P_TRICK_LEN] = 0
    pub[P_LEADER] = winner
    if pub[P_TRICK_NO] == 13:
        pub[P_PHASE] = PHASE_OVER
        pub[P_TO_ACT] = -1
    else:
        pub[P_TO_ACT] = winner
    return winner
