"""The public state of a hand: everything every seat has seen, in one int64 array.

A hand in play is this array plus the four hidden bitboards (``uint64[4]``). An observation is
the public array, a seat and that seat's own bitboard, so an agent kernel that is handed an
observation cannot see a hidden card. Masks are stored as int64 (52 bits fit).

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
    P_TO_ACT            seat to bid or play next (-1 when the hand is over)
    P_PHASE             PHASE_BIDDING, PHASE_PLAYING or PHASE_OVER
    P_HANDS_PLAYED      hands of the match finished before this one
    P_WIN_CARD          card id now winning the current trick, -1 if the trick is empty
    P_WIN_SEAT          seat that played it, -1 if the trick is empty
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.bits import ONE, SPADES, U64
from spades_ai.engine.play import first_leader, legal_mask, may_lead_spades
from spades_ai.rules import R_FIRST_LEAD, R_SPADE_LEAD

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
N_PUBLIC = 37

PHASE_BIDDING, PHASE_PLAYING, PHASE_OVER = 0, 1, 2


@kernel
def reset_public(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, rules):
    """Fill ``pub`` for a new hand dealt as ``hands``."""
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
    pub[P_PHASE] = PHASE_BIDDING
    pub[P_HANDS_PLAYED] = hands_played
    pub[P_WIN_CARD] = -1
    pub[P_WIN_SEAT] = -1


@kernel
def apply_bid(pub, hands, bid, blind, rules):
    """Record the bid of the seat to act (no legality check: see ``bids.legal_bids``).

    After the fourth bid the play starts and the first leader is found from ``hands``.
    """
    seat = pub[P_TO_ACT]
    pub[P_BIDS + seat] = bid
    pub[P_BLIND + seat] = 1 if blind else 0
    pub[P_N_BIDS] += 1
    if pub[P_N_BIDS] == 4:
        pub[P_PHASE] = PHASE_PLAYING
        pub[P_LEADER] = first_leader(hands, pub[P_DEALER], rules[R_FIRST_LEAD])
        pub[P_TO_ACT] = pub[P_LEADER]
    else:
        pub[P_TO_ACT] = (seat + 1) & 3


@kernel
def led_suit(pub):
    """The suit led to the current trick, -1 when the seat to act leads."""
    if pub[P_TRICK_LEN] == 0:
        return -1
    return pub[P_TRICK] // 13


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
        if card // 13 == 3 and not may_lead_spades(pub[P_BROKEN] != 0, pub[P_TRICK_NO], rules[R_SPADE_LEAD]):
            pub[P_VOIDS] |= 0x7 << (4 * seat)  # a spade lead only an all-spade hand may make
    else:
        led = pub[P_TRICK] // 13
        suit = card // 13
        if suit != led:
            pub[P_VOIDS] |= 1 << (4 * seat + led)
        # A spade beats any other suit; within one suit the higher id wins; other suits lose.
        win = pub[P_WIN_CARD]
        win_suit = win // 13
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
