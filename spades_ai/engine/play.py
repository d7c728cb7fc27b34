"""Legal cards, trick winners and random playouts over bitboards (see ``bits`` for the layout).

A trick is held as the four one-bit masks in play order. The winner is found once from the
union of the trick's cards: its highest spade if it holds any, else its highest card of the led
suit; comparing that bit with the four played bits gives the winner's offset from the leader
without a data-dependent branch.
"""

import numpy as np

from spades_ai.engine.jit import kernel
from spades_ai.engine.bits import CLUBS, NON_SPADES, SPADES, SUIT_MASK, ZERO, highest_bit, lowest_bit, popcount, select_bit, suit_mask_of
from spades_ai.engine.deal import DEAL_STREAM, deal_from_state, engine_hands
from spades_ai.engine.rng import below, stream_state
from spades_ai.rules import (
    FIRST_LOW_CLUB,
    LEAD_AFTER_FIRST,
    LEAD_AFTER_THREE,
    LEAD_AFTER_THREE_OR_BROKEN,
    LEAD_ANYTIME,
    R_FIRST_LEAD,
    R_N_EXTRA,
    R_SPADE_LEAD,
)


@kernel
def may_lead_spades(broken, trick_no, spade_lead):
    """Whether the spade-lead rule lets a spade be led now (an all-spade hand always may)."""
    if spade_lead == LEAD_ANYTIME:
        return True
    if spade_lead == LEAD_AFTER_FIRST:
        return trick_no >= 1
    if spade_lead == LEAD_AFTER_THREE:
        return trick_no >= 3
    if spade_lead == LEAD_AFTER_THREE_OR_BROKEN:
        return broken or trick_no >= 3
    return broken


@kernel
def lead_mask(hand, broken, trick_no, spade_lead, first_lead):
    """The cards ``hand`` may lead to trick ``trick_no`` (0-based)."""
    if trick_no == 0 and first_lead == FIRST_LOW_CLUB:
        # The leader of the first trick is the holder of the lowest club and must lead it.
        return lowest_bit(hand & CLUBS)
    if may_lead_spades(broken, trick_no, spade_lead):
        return hand
    others = hand & NON_SPADES
    return others if others != ZERO else hand


@kernel
def follow_mask(hand, led_suit_mask):
    """The cards ``hand`` may play to a trick whose led suit is ``led_suit_mask``."""
    same = hand & led_suit_mask
    return same if same != ZERO else hand


@kernel
def legal_mask(hand, led_suit, broken, trick_no, spade_lead, first_lead):
    """The legal cards of ``hand``: ``led_suit`` is -1 when leading, else the suit led (0..3)."""
    if led_suit < 0:
        return lead_mask(hand, broken, trick_no, spade_lead, first_lead)
    return follow_mask(hand, SUIT_MASK[led_suit])


@kernel
def winning_offset(c0, c1, c2, c3):
    """Offset from the leader (0..3) of the winner of the trick ``c0 c1 c2 c3`` (in play order)."""
    trick = c0 | c1 | c2 | c3
    spades = trick & SPADES
    if spades != ZERO:
        w = highest_bit(spades)
    else:
        w = highest_bit(trick & suit_mask_of(c0))
    return np.int64(w == c1) + 2 * np.int64(w == c2) + 3 * np.int64(w == c3)


@kernel
def first_leader(hands, dealer, first_lead):
    """The seat that leads the first trick."""
    if first_lead == FIRST_LOW_CLUB:
        low = lowest_bit((hands[0] | hands[1] | hands[2] | hands[3]) & CLUBS)
        for s in range(4):
            if hands[s] & low:
                return s
    return (dealer + 1) & 3


@kernel
def random_playout(hands, leader, state, spade_lead, first_lead, tricks):
    """Play 13 tricks from ``hands`` (modified) with uniformly random legal cards.

    Adds each seat's tricks to ``tricks`` (int64[4]) and returns the advanced state.
    """
    broken = False
    played = np.zeros(4, dtype=np.uint64)
    for trick_no in range(13):
        seat = leader
        led = ZERO
        for pos in range(4):
            h = hands[seat]
            if pos == 0:
                legal = lead_mask(h, broken, trick_no, spade_lead, first_lead)
            else:
                legal = follow_mask(h, led)
            n = popcount(legal)
            if n == 1:
                card = legal
            else:
                state, r = below(state, n)
                card = select_bit(legal, r)
            if pos == 0:
                led = suit_mask_of(card)
            hands[seat] = h ^ card
            played[pos] = card
            seat = (seat + 1) & 3
        if (played[0] | played[1] | played[2] | played[3]) & SPADES:
            broken = True
        leader = (leader + winning_offset(played[0], played[1], played[2], played[3])) & 3
        tricks[leader] += 1
    return state


@kernel
def random_playouts_batch(seed, start, n, dealer, rules):
    """Deal ``start .. start+n-1`` of ``seed`` and play each out at random: ``(n, 4)`` tricks."""
    out = np.zeros((n, 4), dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    spade_lead = rules[R_SPADE_LEAD]
    first_lead = rules[R_FIRST_LEAD]
    moves = rules[R_N_EXTRA] > 0
    for i in range(n):
        state = deal_from_state(stream_state(seed, start + i, DEAL_STREAM), hands)
        if moves:
            engine_hands(hands, rules)
        leader = first_leader(hands, dealer, first_lead)
        random_playout(hands, leader, state, spade_lead, first_lead, out[i])
    return out
