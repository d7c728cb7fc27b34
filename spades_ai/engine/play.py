"""Legal cards, trick winners and random playouts over bitboards (see ``bits`` for the layout).

A trick's winner is the highest spade on it, else its highest card of the led suit
(``winning_bit``); a card beats the card now winning when it is in ``beating(winning card)``:
the cards of that card's lane above it plus, when it is not a spade, every spade. That mask is
must win's filter (``R_MUST_WIN``: the legal cards that beat the card now winning, when there
are any; the leader is free). The public state keeps the card now winning as each card is
played (``state.apply_card``); the random playouts find a trick's winner once, from the union
of its cards (``winning_bit``), and the partnership solver's four-card tricks by
``winning_offset``.
"""


from typing import NamedTuple

import numpy as np

from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.engine.bits import CLUBS, NON_SPADES, ONE, SPADES, SUIT_MASK, U64, ZERO, highest_bit, highest_index, lane_of, lowest_bit, lowest_index, popcount, select_bit, suit_mask_of
from spades_ai.engine.deal import DEAL_STREAM, deal_one_deck, engine_hands, physical_cards, shuffle_copies
from spades_ai.engine.copies import take_held
from spades_ai.engine.seats import cards_each, hand_slots, n_seats, next_seat
from spades_ai.engine.rng import below, below_skip, peek, stream_state
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

NEVER = 1 << 30  # a trick number no hand reaches (``spade_opening``)


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
    return highest_bit(trick & (led | SPADES))  # the trump lane lies above every other suit


@kernel
def winning_offset(c0, c1, c2, c3):
    """Offset from the leader (0..3) of the winner of the four-card trick ``c0 c1 c2 c3`` (in play
    order): the partnership solver's fast path (``engine.solver``, four in pairs)."""
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


@inline_kernel
def random_card_ahead(legal, state, a, b):
    """``random_card`` drawn from the window ``(a, b)`` of the stream (``rng.peek``): returns
    ``(state, a, b, card)``, the same state and card, without a branch on a single legal card
    (``rng.below_skip``)."""
    state, a, b, r = below_skip(state, a, b, popcount(legal))
    return state, a, b, select_bit(legal, r)


@inline_kernel
def spade_opening(spade_lead):
    """``may_lead_spades`` as two numbers read once a hand: ``(open_at, by_broken)``, a spade
    may be led from trick ``open_at`` on, and before it once spades are broken if
    ``by_broken``."""
    if spade_lead == LEAD_ANYTIME:
        return 0, False
    if spade_lead == LEAD_AFTER_FIRST:
        return 1, False
    if spade_lead == LEAD_AFTER_THREE:
        return 3, False
    if spade_lead == LEAD_AFTER_THREE_OR_BROKEN:
        return 3, True
    return NEVER, True


@inline_kernel
def lead_cards(hand, may_spade, lowest_club):
    """``lead_mask`` for the playouts, which keep whether a spade may be led as a flag
    (``spade_opening``); ``lowest_club``: the first trick under ``FIRST_LOW_CLUB``, whose
    leader holds the lowest club and must lead it."""
    if lowest_club:
        return lowest_bit(hand & CLUBS)
    others = hand & NON_SPADES
    return hand if may_spade or others == ZERO else others


@hot_kernel
def random_playout(hands, leader, state, rules, seats, tricks):
    """Play a hand from ``hands`` (modified) with uniformly random legal cards (must win
    included), at a table of one deck and ``seats`` seats (``n_seats(rules)``, 3 to 5).

    Adds each seat's tricks to ``tricks`` (int64[N]) and returns the advanced state: trick
    after trick of ``random_trick``, the spade lead kept as a flag by arithmetic
    (``spade_opening``). ``random_playouts_batch`` plays two hands at once instead
    (``_random_pair``)."""
    open_at, by_broken = spade_opening(rules[R_SPADE_LEAD])
    low_club = rules[R_FIRST_LEAD] == FIRST_LOW_CLUB
    must_win = rules[R_MUST_WIN] != 0
    a, b = peek(state)
    may_spade = open_at <= 0
    for trick_no in range(cards_each(rules)):
        leader, state, a, b, spade = random_trick(hands, leader, low_club and trick_no == 0, state, a, b, may_spade, must_win, seats, tricks)
        may_spade = may_spade | (by_broken & spade) | (trick_no + 1 >= open_at)
    return state


@hot_kernel
def random_trick(hands, leader, lowest_club, state, a, b, may_spade, must_win, seats, tricks):
    """One trick of a random playout led by ``leader`` (``lowest_club``: the first trick under
    ``FIRST_LOW_CLUB``): the cards leave ``hands`` and the winner's count in ``tricks`` goes up.
    Returns ``(winner, state, a, b, whether a spade fell)`` (the stream's window: ``rng.peek``).

    A trick's winner is found once, from the union of its cards, at its end. Inlined by LLVM,
    so a caller that passes ``seats`` as a constant gets only its table's followers: they are
    written out, since a loop over them was not unrolled at five seats and ran 1.2x slower.
    Nothing branches on the cards: the draws come from a window of the stream
    (``random_card_ahead``) and the seats are indexed unsigned (no negative-index fix-up)."""
    h = hands[U64(leader)]
    legal = lead_cards(h, may_spade, lowest_club)
    state, a, b, card = random_card_ahead(legal, state, a, b)
    hands[U64(leader)] = h ^ card
    led = lane_of(card)
    trick = card
    state, a, b, c1 = random_follow(hands, seat_after(leader, 1, seats), led, trick, must_win, state, a, b)
    trick |= c1
    c2, c3, c4 = ZERO, ZERO, ZERO
    if seats > 2:
        state, a, b, c2 = random_follow(hands, seat_after(leader, 2, seats), led, trick, must_win, state, a, b)
        trick |= c2
    if seats > 3:
        state, a, b, c3 = random_follow(hands, seat_after(leader, 3, seats), led, trick, must_win, state, a, b)
        trick |= c3
    if seats > 4:
        state, a, b, c4 = random_follow(hands, seat_after(leader, 4, seats), led, trick, must_win, state, a, b)
        trick |= c4
    w = winning_bit(trick, led)
    leader = seat_after(leader, np.int64(c1 == w) + 2 * np.int64(c2 == w) + 3 * np.int64(c3 == w) + 4 * np.int64(c4 == w), seats)
    tricks[U64(leader)] += 1
    return leader, state, a, b, (trick & SPADES) != ZERO


@inline_kernel
def seat_after(seat, k, seats):
    """The seat ``k`` places to the left of ``seat`` (0 <= k < seats), without a division."""
    return seat + k - (seats if seat + k >= seats else 0)


@inline_kernel
def random_follow(hands, seat, led, trick, must_win, state, a, b):
    """A random legal card of ``seat`` to the trick ``trick`` (a mask; ``led`` its suit), taken
    from its hand: ``(state, a, b, card)`` (``random_card_ahead``)."""
    h = hands[U64(seat)]
    legal = follow_mask(h, led)
    if must_win:
        legal = beating_cards(legal, winning_bit(trick, led))
    state, a, b, card = random_card_ahead(legal, state, a, b)
    hands[U64(seat)] = h ^ card
    return state, a, b, card


@hot_kernel
def random_trick_copies(hands, leader, lowest_club, stream, may_spade, rules, decks, played, tricks):
    """``random_trick`` at a table of ``decks`` decks (``rules[R_DECKS]``, given as a constant
    so that LLVM unrolls the levels), the stream as one tuple ``(state, a, b)``: ``hands`` are
    levels (``copies``) and a card leaves its seat's highest level holding it (``take_held``);
    ``played`` (uint64[N]) holds the trick's cards. The winner is found at the trick's end from its cards,
    as with one deck: the highest card, and of two identical copies of it the first played, or
    the last under ``R_EQUAL_LAST``. Returns ``(winner, stream, whether a spade fell)``."""
    n = n_seats(rules)
    must_win, equal_last = rules[R_MUST_WIN] != 0, rules[R_EQUAL_LAST] != 0
    state, a, b = stream
    legal = lead_cards(hands[U64(leader)], may_spade, lowest_club)
    state, a, b, card = random_card_ahead(legal, state, a, b)
    take_held(hands, leader, n, card, decks)
    led = lane_of(card)
    played[0] = card
    trick = card
    seat = leader
    for pos in range(1, n):
        # Stepped from the last follower, not ``seat_after(leader, pos, n)``: LLVM then keeps
        # fewer values across the card (6 to 12 players 1.04-1.07x).
        seat = seat + 1 if seat + 1 < n else 0
        legal = follow_mask(hands[U64(seat)], led)
        if must_win:
            over = legal & beating_copy(winning_bit(trick, led), equal_last)
            legal = over if over != ZERO else legal
        state, a, b, card = random_card_ahead(legal, state, a, b)
        take_held(hands, seat, n, card, decks)
        played[pos] = card
        trick |= card
    w = winning_bit(trick, led)
    holders = 0  # bit pos: the card played pos-th is the winning card (a copy of it)
    for pos in range(n):
        holders |= np.int64(played[pos] == w) << pos
    off = highest_index(U64(holders)) if equal_last else lowest_index(U64(holders))
    leader = seat_after(leader, off, n)
    tricks[U64(leader)] += 1
    return leader, (state, a, b), (trick & SPADES) != ZERO


@kernel
def random_playouts_batch(seed, start, n, dealer, rules):
    """Deal ``start .. start+n-1`` of ``seed`` and play each out at random: ``(n, N)`` tricks.
    One deck: 3 to 5 seats (``random_playouts_copies_batch`` with several decks)."""
    seats = n_seats(rules)
    out = np.zeros((n, seats), dtype=np.int64)
    hands = np.empty(seats, dtype=np.uint64)
    other = np.empty(seats, dtype=np.uint64)
    # The same kernel for each table of one deck, compiled with its seats as a constant.
    if seats == 4:
        _random_playouts_into(out, hands, other, seed, start, dealer, rules, 4)
    elif seats == 3:
        _random_playouts_into(out, hands, other, seed, start, dealer, rules, 3)
    else:
        _random_playouts_into(out, hands, other, seed, start, dealer, rules, 5)
    return out


@hot_kernel
def _random_playouts_into(out, hands, other, seed, start, dealer, rules, seats):
    """The loop of ``random_playouts_batch``, deal ``start + i`` into ``out[i]``, at a table of
    ``seats`` seats given as a constant: two deals at a time (``_random_pair``, in ``hands``
    and ``other``), an odd last one alone."""
    n = out.shape[0]
    for i in range(0, n - 1, 2):
        _random_pair(out[i], out[i + 1], hands, other, seed, start + i, dealer, rules, seats)
    if n % 2 == 1:
        state, leader = _deal_random(hands, seed, start + n - 1, dealer, rules, seats)
        random_playout(hands, leader, state, rules, seats, out[n - 1])


@hot_kernel
def _deal_random(hands, seed, index, dealer, rules, seats):
    """Deal ``index`` of ``seed`` into ``hands`` for a random playout: ``(state, first leader)``."""
    state = deal_one_deck(stream_state(seed, index, DEAL_STREAM), hands, rules, seats)
    if rules[R_N_EXTRA] > 0:
        engine_hands(hands, rules)
    leader = first_leader(hands, dealer, rules) if rules[R_FIRST_LEAD] == FIRST_LOW_CLUB else next_seat(dealer, rules)
    return state, leader


@hot_kernel
def _random_pair(tricks, other_tricks, hands, other, seed, index, dealer, rules, seats):
    """Deals ``index`` (into ``hands``) and ``index + 1`` (into ``other``) played out at once,
    a trick of each in turn: each draws from its own stream, so each gets the cards it gets
    alone. A trick waits on the last (its leader is the last trick's winner) and one hand's
    tricks leave the core idle between them; two independent hands fill it: 3 players 1.23x
    faster, 4 players 1.11x (``benchmarks/RESULTS.md``)."""
    state, leader = _deal_random(hands, seed, index, dealer, rules, seats)
    o_state, o_leader = _deal_random(other, seed, index + 1, dealer, rules, seats)
    open_at, by_broken = spade_opening(rules[R_SPADE_LEAD])
    low_club = rules[R_FIRST_LEAD] == FIRST_LOW_CLUB
    must_win = rules[R_MUST_WIN] != 0
    a, b = peek(state)
    o_a, o_b = peek(o_state)
    may_spade = o_may_spade = open_at <= 0
    for trick_no in range(cards_each(rules)):
        first = low_club and trick_no == 0
        leader, state, a, b, spade = random_trick(hands, leader, first, state, a, b, may_spade, must_win, seats, tricks)
        o_leader, o_state, o_a, o_b, o_spade = random_trick(other, o_leader, first, o_state, o_a, o_b, o_may_spade, must_win, seats, other_tricks)
        opened = trick_no + 1 >= open_at
        may_spade = may_spade | (by_broken & spade) | opened
        o_may_spade = o_may_spade | (by_broken & o_spade) | opened


class _CopiesDeal(NamedTuple):
    """The working arrays of one deal of several decks in play: its hands (levels,
    ``copies``), the cards of the trick in play and its shuffled physical cards."""

    hands: np.ndarray
    played: np.ndarray
    cards: np.ndarray


@kernel
def random_playouts_copies_batch(seed, start, n, dealer, rules):
    """``random_playouts_batch`` at a table of several decks (``random_trick_copies``), two
    deals at a time as with one deck (``_random_pair_copies``)."""
    out = np.zeros((n, n_seats(rules)), dtype=np.int64)
    listed = physical_cards(rules)
    one = _CopiesDeal(np.empty(hand_slots(rules), dtype=np.uint64), np.empty(n_seats(rules), dtype=np.uint64), np.empty_like(listed))
    two = _CopiesDeal(np.empty(hand_slots(rules), dtype=np.uint64), np.empty(n_seats(rules), dtype=np.uint64), np.empty_like(listed))
    if rules[R_DECKS] == 3:  # the levels unrolled by LLVM, as the seats of the one-deck kernel
        _random_playouts_copies_into(out, one, two, listed, seed, start, dealer, rules, 3)
    else:
        _random_playouts_copies_into(out, one, two, listed, seed, start, dealer, rules, 2)
    return out


@hot_kernel
def _random_playouts_copies_into(out, one, two, listed, seed, start, dealer, rules, decks):
    """The loop of ``random_playouts_copies_batch`` at a table of ``decks`` decks, two deals at
    a time (in ``one`` and ``two``), an odd last one alone; ``listed`` holds the table's
    ``physical_cards``, copied for each deal."""
    n = out.shape[0]
    for i in range(0, n - 1, 2):
        _random_pair_copies(out[i], out[i + 1], one, two, listed, seed, start + i, dealer, rules, decks)
    if n % 2 == 1:
        state, leader = _deal_copies_random(one, listed, seed, start + n - 1, dealer, rules)
        _play_copies(out[n - 1], one, leader, state, rules, decks)


@hot_kernel
def _deal_copies_random(deal, listed, seed, index, dealer, rules):
    """Deal ``index`` of ``seed`` into ``deal`` (a ``_CopiesDeal``): ``(state, first leader)``."""
    for k in range(len(listed)):
        deal.cards[k] = listed[k]
    state = shuffle_copies(stream_state(seed, index, DEAL_STREAM), deal.hands, rules, deal.cards)
    leader = first_leader(deal.hands, dealer, rules) if rules[R_FIRST_LEAD] == FIRST_LOW_CLUB else next_seat(dealer, rules)
    return state, leader


@hot_kernel
def _play_copies(tricks, deal, leader, state, rules, decks):
    """Play the hand in ``deal`` out at random from ``leader``, trick after trick."""
    open_at, by_broken = spade_opening(rules[R_SPADE_LEAD])
    low_club = rules[R_FIRST_LEAD] == FIRST_LOW_CLUB
    a, b = peek(state)
    stream = (np.uint64(state), a, b)
    may_spade = open_at <= 0
    for trick_no in range(cards_each(rules)):
        leader, stream, spade = random_trick_copies(deal.hands, leader, low_club and trick_no == 0, stream, may_spade, rules, decks, deal.played, tricks)
        may_spade = may_spade | (by_broken & spade) | (trick_no + 1 >= open_at)


@hot_kernel
def _random_pair_copies(tricks, other_tricks, one, two, listed, seed, index, dealer, rules, decks):
    """Deals ``index`` (in ``one``) and ``index + 1`` (in ``two``) played out at once, a trick
    of each in turn, as ``_random_pair``."""
    state, leader = _deal_copies_random(one, listed, seed, index, dealer, rules)
    o_state, o_leader = _deal_copies_random(two, listed, seed, index + 1, dealer, rules)
    open_at, by_broken = spade_opening(rules[R_SPADE_LEAD])
    low_club = rules[R_FIRST_LEAD] == FIRST_LOW_CLUB
    a, b = peek(state)
    o_a, o_b = peek(o_state)
    stream, o_stream = (np.uint64(state), a, b), (np.uint64(o_state), o_a, o_b)
    may_spade = o_may_spade = open_at <= 0
    for trick_no in range(cards_each(rules)):
        first = low_club and trick_no == 0
        leader, stream, spade = random_trick_copies(one.hands, leader, first, stream, may_spade, rules, decks, one.played, tricks)
        o_leader, o_stream, o_spade = random_trick_copies(two.hands, o_leader, first, o_stream, o_may_spade, rules, decks, two.played, other_tricks)
        opened = trick_no + 1 >= open_at
        may_spade = may_spade | (by_broken & spade) | opened
        o_may_spade = o_may_spade | (by_broken & o_spade) | opened
