"""Legal cards, trick winners and random playouts over bitboards (see ``bits`` for the layout).

A trick's winner is the highest spade on it, else its highest card of the led suit
(``winning_bit``); a card beats the card now winning when it is in ``beating(winning card)``:
the cards of that card's lane above it plus, when it is not a spade, every spade. That mask is
must win's filter (``R_MUST_WIN``: the legal cards that beat the card now winning, when there
are any; the leader is free). The public state keeps the card now winning as each card is
played (``state.apply_card``); the random playouts and the four-seat solver find a trick's
winner once, from the union of its cards (``winning_offset``).
"""


import numpy as np

from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.engine.bits import CLUBS, NON_SPADES, ONE, SPADES, SUIT_MASK, U64, ZERO, highest_bit, lowest_bit, popcount, select_bit, suit_mask_of
from spades_ai.engine.deal import DEAL_STREAM, deal_from_state, engine_hands
from spades_ai.engine.copies import take_from
from spades_ai.engine.seats import cards_each, hand_slots, n_seats, next_seat
from spades_ai.engine.rng import below, stream_state
from spades_ai.rules import (
    FIRST_LOW_CLUB,
    LEAD_AFTER_FIRST,
    LEAD_AFTER_THREE,
    LEAD_AFTER_THREE_OR_BROKEN,
    LEAD_ANYTIME,
    R_FIRST_LEAD,
    R_MUST_WIN,
    R_DECKS,
    R_EQUAL_LAST,
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


@inline_kernel
def winning_bit(trick, led):
    """The card (a one-bit mask) that wins the trick whose cards are the mask ``trick`` and
    whose led suit is the mask ``led``: its highest spade if it holds any, else its highest
    card of the led suit."""
    spades = trick & SPADES
    return highest_bit(spades) if spades != ZERO else highest_bit(trick & led)


@kernel
def winning_offset(c0, c1, c2, c3):
    """Offset from the leader (0..3) of the winner of the trick ``c0 c1 c2 c3`` (in play order)."""
    w = winning_bit(c0 | c1 | c2 | c3, suit_mask_of(c0))
    return np.int64(w == c1) + 2 * np.int64(w == c2) + 3 * np.int64(w == c3)


@inline_kernel
def beating(win_bit):
    """The cards that beat the one-bit mask ``win_bit`` (the card now winning a trick, a spade
    or of the led suit): its lane's cards above it, and every spade if it is not a spade."""
    lane = suit_mask_of(win_bit)
    return (lane & ~(win_bit | (win_bit - ONE))) | (SPADES & ~lane)


@inline_kernel
def beating_copy(win_bit, equal_last):
    """``beating(win_bit)`` with several decks: an identical copy of the winning card beats it
    too when ``equal_last`` (``R_EQUAL_LAST``: of two identical cards the later one wins)."""
    return beating(win_bit) | (win_bit if equal_last else ZERO)


@inline_kernel
def beating_cards(legal, win_bit):
    """Must win: the cards of ``legal`` that beat ``win_bit``, or all of them when none does."""
    beat = legal & beating(win_bit)
    return beat if beat != ZERO else legal


@kernel
def must_win_cards(legal, must_win, win_card, equal_last):
    """``legal`` under must win (``must_win`` true) against card id ``win_card``, the card now
    winning the trick (-1 while the trick is empty: the leader is free). With several decks and
    ``equal_last`` (``R_EQUAL_LAST``) an identical copy of the winning card beats it too.
    Scalars only: a branch in a kernel that is inlined with arrays costs their reference
    counting on every card."""
    if not must_win or win_card < 0:
        return legal
    beat = legal & beating_copy(ONE << U64(win_card), equal_last)
    return beat if beat != ZERO else legal


@kernel
def first_leader(hands, dealer, rules):
    """The seat that leads the first trick: the dealer's left, or under ``low_club`` the holder
    of the lowest club dealt (the 3 of clubs where the table removes the 2)."""
    if rules[R_FIRST_LEAD] == FIRST_LOW_CLUB:
        clubs = ZERO
        for s in range(n_seats(rules)):
            clubs |= hands[s] & CLUBS
        low = lowest_bit(clubs)
        s = next_seat(dealer, rules)
        for _ in range(n_seats(rules)):  # with copies, its first holder from the dealer's left
            if hands[s] & low:
                return s
            s = next_seat(s, rules)
    return next_seat(dealer, rules)


@inline_kernel
def random_card(legal, state):
    """``(state, card)``: a uniformly random card of ``legal`` (no draw for a single one)."""
    n = popcount(legal)
    if n == 1:
        return state, legal
    state, r = below(state, n)
    return state, select_bit(legal, r)


@hot_kernel
def random_playout(hands, leader, state, rules, seats, played, tricks):
    """Play a hand from ``hands`` (modified) with uniformly random legal cards (must win
    included), at a table of ``seats`` seats (``n_seats(rules)``).

    Adds each seat's tricks to ``tricks`` (int64[N]) and returns the advanced state. A trick's
    cards are kept in play order in ``played`` (uint64[N]) and its winner found once, from
    their union, at its end. Inlined by LLVM, so a caller that passes ``seats`` as a constant
    gets the loops over the seats unrolled (``random_playouts_batch`` at four seats).
    """
    spade_lead, first_lead = rules[R_SPADE_LEAD], rules[R_FIRST_LEAD]
    must_win = rules[R_MUST_WIN] != 0
    broken = False
    for trick_no in range(cards_each(rules)):
        h = hands[leader]
        state, card = random_card(lead_mask(h, broken, trick_no, spade_lead, first_lead), state)
        hands[leader] = h ^ card
        led = suit_mask_of(card)
        trick = card
        seat = next_seat(leader, rules)
        for pos in range(1, seats):
            h = hands[seat]
            legal = follow_mask(h, led)
            if must_win:
                legal = beating_cards(legal, winning_bit(trick, led))
            state, card = random_card(legal, state)
            hands[seat] = h ^ card
            played[pos] = card
            trick |= card
            seat = next_seat(seat, rules)
        if trick & SPADES:
            broken = True
        w = winning_bit(trick, led)
        off = 0
        for pos in range(1, seats):
            off += pos * np.int64(played[pos] == w)
        leader = leader + off - (seats if leader + off >= seats else 0)
        tricks[leader] += 1
    return state


@hot_kernel
def random_playout_copies(hands, leader, state, rules, decks, tricks):
    """``random_playout`` at a table of ``decks`` decks (``rules[R_DECKS]``, given as a
    constant so that LLVM unrolls the levels): ``hands`` are levels (``copies``), a card leaves
    its seat's highest level holding it, and the card now winning is kept as each card falls,
    since two identical cards can fall on one trick (``R_EQUAL_LAST``)."""
    n = n_seats(rules)
    spade_lead, first_lead = rules[R_SPADE_LEAD], rules[R_FIRST_LEAD]
    must_win, equal_last = rules[R_MUST_WIN] != 0, rules[R_EQUAL_LAST] != 0
    broken = False
    for trick_no in range(cards_each(rules)):
        state, card = random_card(lead_mask(hands[leader], broken, trick_no, spade_lead, first_lead), state)
        take_from(hands, leader, n, card, decks)
        led = suit_mask_of(card)
        win_seat, spades = leader, card & SPADES
        beat = beating_copy(card, equal_last)  # the cards that take the trick from its winner
        seat = next_seat(leader, rules)
        for _ in range(1, n):
            legal = follow_mask(hands[seat], led)
            if must_win:
                over = legal & beat
                legal = over if over != ZERO else legal
            state, card = random_card(legal, state)
            take_from(hands, seat, n, card, decks)
            if card & beat:
                win_seat, beat = seat, beating_copy(card, equal_last)
            spades |= card & SPADES
            seat = next_seat(seat, rules)
        if spades != ZERO:
            broken = True
        leader = win_seat
        tricks[leader] += 1
    return state


@kernel
def random_playouts_batch(seed, start, n, dealer, rules):
    """Deal ``start .. start+n-1`` of ``seed`` and play each out at random: ``(n, N)`` tricks.
    One deck (``random_playouts_copies_batch`` with several)."""
    seats = n_seats(rules)
    out = np.zeros((n, seats), dtype=np.int64)
    hands = np.empty(seats, dtype=np.uint64)
    played = np.empty(seats, dtype=np.uint64)
    moves = rules[R_N_EXTRA] > 0
    for i in range(n):
        state = deal_from_state(stream_state(seed, start + i, DEAL_STREAM), hands, rules)
        if moves:
            engine_hands(hands, rules)
        leader = first_leader(hands, dealer, rules)
        if seats == 4:  # the same kernel, its seat loops unrolled by LLVM for the usual table
            random_playout(hands, leader, state, rules, 4, played, out[i])
        else:
            random_playout(hands, leader, state, rules, seats, played, out[i])
    return out


@kernel
def random_playouts_copies_batch(seed, start, n, dealer, rules):
    """``random_playouts_batch`` at a table of several decks (``random_playout_copies``)."""
    out = np.zeros((n, n_seats(rules)), dtype=np.int64)
    hands = np.empty(hand_slots(rules), dtype=np.uint64)
    three = rules[R_DECKS] == 3
    for i in range(n):
        state = deal_from_state(stream_state(seed, start + i, DEAL_STREAM), hands, rules)
        leader = first_leader(hands, dealer, rules)
        if three:  # the levels unrolled by LLVM, as the seats of the one-deck kernel
            random_playout_copies(hands, leader, state, rules, 3, out[i])
        else:
            random_playout_copies(hands, leader, state, rules, 2, out[i])
    return out
