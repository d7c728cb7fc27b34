"""Exact search at any table: every card visible, one side against all the other seats.

``engine.solver`` is the exact search of the table of four in pairs (two teams, one maximising
and one minimising, with a transposition table). At every other table (3 players, 4 solo,
5 players) the last tricks of a world are solved here, as a **paranoid** search: the side of the
searching seat maximises the value of the finished hand and every other seat, whatever its
side, minimises it, as if all of them played together against that side (Sturtevant and Korf,
2000; the standard choice of exact search in multi-player trick games). That is a two-player
zero-sum game again, so plain alpha-beta solves it exactly; its value is what the side makes
against the worst the others can do, a lower bound on what it makes against others who each
seek their own score (max^n, which prunes far less).

A finished hand is worth ``leaf[code]`` to the maximising side, ``code = sum of won[s] *
radix**s`` over the seats (``radix = cards_each + 1``; ``finish_code``): the table
``montecarlo.finishes`` fills from the utility, for every split of the tricks left
(``next_split``). The search is fail-soft alpha-beta over an array of hands (a card leaves its
hand for the child and comes back), in the window of the leaf values the hand can still reach,
with no transposition table: ``solver_tricks`` (3 by default) tricks are at most 15 plies at
5 players, and the last trick is forced (no search). The move ideas are ``engine.solver``'s:
one card per run of equivalent cards (``distinct_moves``); leads that cash a suit's top card
first, then each suit's lowest card; a follower tries the cheapest card that takes the trick
from the other party first, or its lowest cards first when its party already wins the trick
(the parties: the maximising side and everyone else).

Card bits in the engine's layout (``bits``); seats and sides from the rules array
(``engine.seats``), read once per search into the scalars of ``Table``; legal cards as the
engine's (``play``: spade leads, first lead, must win).
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.bits import ALL_CARDS, ONE, SPADES, SUIT_MASK, U64, ZERO, highest_bit, lowest_bit, suit_mask_of
from spades_ai.engine.jit import kernel
from spades_ai.engine.play import beating, beating_cards, follow_mask, lead_mask, winning_bit
from spades_ai.engine.seats import cards_each, n_seats, n_sides
from spades_ai.engine.solver import distinct_moves
from spades_ai.engine.state import (
    P_BROKEN,
    P_TO_ACT,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_WIN_CARD,
    P_WIN_SEAT,
    P_WON,
    legal_now,
)
from spades_ai.rules import R_FIRST_LEAD, R_MUST_WIN, R_SPADE_LEAD

INF = np.inf


@kernel
def finish_radix(rules):
    """The base of a finish code: a seat wins 0..cards_each tricks in a hand."""
    return cards_each(rules) + 1


@kernel
def finish_code(won, rules):
    """The leaf index of a finished hand in which seat s won ``won[s]`` tricks."""
    radix = finish_radix(rules)
    code = 0
    step = 1
    for s in range(n_seats(rules)):
        code += won[s] * step
        step *= radix
    return code


@kernel
def leaf_size(rules):
    """The entries of a leaf table: one per code, ``radix ** seats``."""
    return finish_radix(rules) ** n_seats(rules)


@kernel
def next_split(x, n):
    """Step ``x`` (tricks each seat takes from here on, summing to ``n``) to the next split of
    ``n`` tricks among ``len(x)`` seats; False after the last one (``x`` is back at the first,
    ``[0, ..., 0, n]``). Every split is visited once from the first."""
    last = len(x) - 1
    total = n - x[last]  # the tricks of the seats before the last one
    for i in range(last):
        if total < n:
            x[i] += 1
            x[last] -= 1
            return True
        total -= x[i]
        x[last] += x[i]
        x[i] = 0
    return False


@kernel
def reachable_range(leaf, code, n, rules):
    """The least and greatest leaf a hand can reach from the tricks won ``code`` (a finish code)
    with ``n`` tricks left: every value of the position lies between them."""
    seats = n_seats(rules)
    radix = finish_radix(rules)
    split = np.zeros(seats, dtype=np.int64)
    split[seats - 1] = n
    lo = INF
    hi = -INF
    while True:
        at = code
        step = 1
        for s in range(seats):
            at += split[s] * step
            step *= radix
        lo = min(lo, leaf[at])
        hi = max(hi, leaf[at])
        if not next_split(split, n):
            return lo, hi


@kernel
def _lead_order(moves, own, held):
    """Leads tried first: the top card of each suit whose highest card still held (``held``) is
    the mover's (it cashes), then the lowest card of each suit."""
    cash = ZERO
    low = ZERO
    for s in range(4):
        m = moves & SUIT_MASK[s]
        if m == ZERO:
            continue
        if highest_bit(held & SUIT_MASK[s]) & own:
            cash |= highest_bit(m)
        low |= lowest_bit(m)
    return cash, low


@kernel
def _follow_order(moves, win, party_wins):
    """Follows tried first: the cheapest card that takes the trick from the other party, then
    the cards that do not take it; those first when the mover's party wins the trick already."""
    takes = moves & beating(win)
    losers = moves & ~takes
    if party_wins:
        return losers, ZERO
    return lowest_bit(takes), losers


@kernel
def _last_trick_winner(hands, leader, seats):
    """The seat that wins the last trick, every seat holding one card, ``leader`` to lead."""
    trick = ZERO
    for s in range(seats):
        trick |= hands[s]
    w = winning_bit(trick, suit_mask_of(hands[leader]))
    for s in range(seats):
        if hands[s] == w:
            return s
    return -1


class Table(NamedTuple):
    """The rules a search reads, as scalars: an array passed down the recursion would cost its
    reference counting at every node."""

    seats: int
    sides: int
    radix: int
    """``finish_radix``: a seat's tricks are a digit of the finish code in this base."""
    spade_lead: int
    first_lead: int
    must_win: bool
    max_side: int
    """The side that maximises; every other seat minimises."""


@kernel
def table_of(rules, max_side):
    """The ``Table`` of ``rules`` for a search that ``max_side`` maximises."""
    return Table(np.int64(n_seats(rules)), np.int64(n_sides(rules)), np.int64(finish_radix(rules)),
                 np.int64(rules[R_SPADE_LEAD]), np.int64(rules[R_FIRST_LEAD]), rules[R_MUST_WIN] != 0, np.int64(max_side))


@kernel
def _maximizes(seat, t):
    """Whether ``seat`` plays for the maximising side (``seat % sides``, without a division)."""
    return (seat - t.sides if seat >= t.sides else seat) == t.max_side


@kernel
def _digit(seat, t):
    """What a trick won by ``seat`` adds to the finish code: ``radix ** seat``."""
    d = np.int64(1)
    for _ in range(seat):
        d *= t.radix
    return d


@kernel
def table_node(hands, seat, pos, led, win, win_seat, trick, broken, trick_no, n, code, alpha, beta, only, t, leaf):
    """The value to the maximising side (``t.max_side``) of the position, within the window
    ``alpha < value < beta`` (fail-soft: a result at or below ``alpha`` is an upper bound, one
    at or above ``beta`` a lower bound), every other seat minimising.

    ``hands`` (``uint64[N]``, restored on return) are the cards held; ``seat`` plays the
    ``pos``-th card of the trick (0: it leads); ``led`` is the led suit's mask, ``win`` and
    ``win_seat`` the card winning so far and its seat, ``trick`` the cards on the trick;
    ``broken`` whether a spade fell in an earlier trick, ``trick_no`` the trick's number, ``n``
    the tricks not yet finished, ``code`` the finish code of the tricks won so far (a finished
    hand is worth ``leaf[code]``); ``t`` the table (``Table``). ``only`` (a card, or 0)
    restricts the seat to that card.
    """
    if pos == 0:
        if n == 0:
            return leaf[code]
        if n == 1:
            return leaf[code + _digit(_last_trick_winner(hands, seat, t.seats), t)]
    own = hands[seat]
    held = ZERO
    for s in range(t.seats):
        held |= hands[s]
    maximize = _maximizes(seat, t)
    if pos == 0:
        legal = lead_mask(own, broken, trick_no, t.spade_lead, t.first_lead)
        moves = distinct_moves(legal, own, ~held & ALL_CARDS)
        first, second = _lead_order(moves, own, held)
    else:
        legal = follow_mask(own, led)
        if t.must_win:
            legal = beating_cards(legal, win)
        moves = distinct_moves(legal, own, ~(held | trick) & ALL_CARDS)
        first, second = _follow_order(moves, win, _maximizes(win_seat, t) == maximize)
    if only != ZERO:
        moves = legal & only
    nxt = np.int64(0) if seat + 1 >= t.seats else seat + 1
    ends_trick = pos + 1 == t.seats
    value = -INF if maximize else INF
    rest = moves
    for cls in range(3):
        m = rest & (first if cls == 0 else (second if cls == 1 else rest))
        while m != ZERO:
            c = lowest_bit(m)
            m ^= c
            rest ^= c
            hands[seat] = own ^ c
            if pos == 0:
                v = table_node(hands, nxt, np.int64(1), suit_mask_of(c), c, seat, c, broken, trick_no, n, code, alpha, beta,
                               ZERO, t, leaf)
            else:
                takes = (c & beating(win)) != ZERO
                w = c if takes else win
                ws = seat if takes else win_seat
                if ends_trick:
                    v = table_node(hands, ws, np.int64(0), ZERO, ZERO, ws, ZERO, broken or ((trick | c) & SPADES) != ZERO,
                                   trick_no + 1, n - 1, code + _digit(ws, t), alpha, beta, ZERO, t, leaf)
                else:
                    v = table_node(hands, nxt, pos + 1, led, w, ws, trick | c, broken, trick_no, n, code, alpha, beta,
                                   ZERO, t, leaf)
            hands[seat] = own
            if maximize:
                value = max(value, v)
                alpha = max(alpha, value)
            else:
                value = min(value, v)
                beta = min(beta, value)
            if alpha >= beta:
                return value
    return value


@kernel
def table_value(pub, hands, card, max_side, leaf, rules):
    """The value to ``max_side`` of the hand in ``pub`` (in play) with every card of ``hands``
    (``uint64[N]``) visible and best play on both parties (the module docstring), after the
    seat to act plays ``card`` (an engine id; -1: between tricks, the value of the position).
    ``leaf`` holds every finish the hand can reach (``montecarlo.finishes``)."""
    seat = np.int64(pub[P_TO_ACT])
    pos = np.int64(pub[P_TRICK_LEN])
    trick_no = np.int64(pub[P_TRICK_NO])
    n = np.int64(cards_each(rules) - trick_no)
    code = np.int64(finish_code(pub[P_WON : P_WON + n_seats(rules)], rules))
    lo, hi = reachable_range(leaf, code, n, rules)
    only = ZERO
    if card >= 0:
        only = ONE << U64(card)
        if (legal_now(pub, hands[seat], rules) & only) == ZERO:
            raise ValueError("table_value: the card is not legal for the seat to act")
    elif pos != 0:
        raise ValueError("table_value: a position's value is searched between tricks (give the card played)")
    if lo == hi:
        return lo
    led = ZERO
    win = ZERO
    trick = ZERO
    if pos > 0:
        led = suit_mask_of(ONE << U64(pub[P_TRICK]))
        win = ONE << U64(pub[P_WIN_CARD])
        for i in range(pos):
            trick |= ONE << U64(pub[P_TRICK + i])
    # one fixed type per argument of the recursive kernel (numba issue 6061, see engine.solver)
    return table_node(hands, seat, pos, led, win, np.int64(pub[P_WIN_SEAT]), trick, pub[P_BROKEN] != 0, trick_no, n,
                      code, np.float64(lo), np.float64(hi), only, table_of(rules, max_side), leaf)
