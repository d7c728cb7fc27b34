"""Exact search at any table: every card visible, one side against all the other seats.

``engine.solver`` is the exact search of the table of four in pairs (two teams, one maximising
and one minimising, with a transposition table). At every other table (3 to 12 players, solo
or in pairs, one to three decks) positions are solved here, as a **paranoid** search: the side
of the searching seat maximises the value of the finished hand and every other seat, whatever
its side, minimises it, as if all of them played together against that side (Sturtevant and
Korf, 2000; the standard choice of exact search in multi-player trick games). That is a
two-player zero-sum game again, so plain alpha-beta solves it exactly; its value is what the
side makes against the worst the others can do, a lower bound on what it makes against others
who each seek their own score (max^n, which prunes far less).

A finished hand is worth ``leaf[code]`` to the maximising side, ``code = sum of won[s] *
radix**s`` over the seats (``radix = cards_each + 1``; ``finish_code``): the table
``montecarlo.finishes`` fills from the utility, for every split of the tricks left
(``next_split``). A **ranked** leaf (``ranked_table``, the Python solver's) holds one entry per
split of the ``n`` tricks of the search instead, ``C(n + N - 1, N - 1)`` of them in
``ranked_splits``' order (``split_rank``), so a whole deal at twelve seats needs 2.5 million
entries, not ``14 ** 12``. The search is fail-soft alpha-beta over an array of hands (a card
leaves its hand for the child and comes back), in the window of the leaf values the hand can
still reach, with no transposition table: ``solver_tricks`` (3 by default) tricks are at most
15 plies at 5 players, and the last trick is forced (no search). The move ideas are
``engine.solver``'s: one card per run of equivalent cards (``distinct_moves``); leads that cash
a suit's top card first, then each suit's lowest card; a follower tries the cheapest card that
takes the trick from the other party first, or its lowest cards first when its party already
wins the trick (the parties: the maximising side and everyone else).

Copies (two or three decks, ``copies``): the hands are levels, ``hands[k * N + s]``; a card
leaves its seat's highest level holding it. Legal cards and runs read level 0; a card that
another seat or the trick also holds a copy of is a run of its own (an identical copy may beat
it or lose to it), and a card takes the trick when it is in ``beating_copy`` of the card
winning it (an identical copy only under ``equal_cards = "last"``). With one deck every such
test is the one-deck test.

Card bits in the engine's layout (``bits``); seats and sides from the rules array
(``engine.seats``), read once per search into the scalars of ``Table``; legal cards as the
engine's (``play``: spade leads, first lead, must win).
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.bits import (
    ALL_CARDS,
    N_SUITS,
    ONE,
    SPADES,
    SUIT_MASK,
    U64,
    ZERO,
    highest_bit,
    lowest_bit,
    suit_mask_of,
)
from spades_ai.engine.copies import take_from
from spades_ai.engine.exact_moves import distinct_moves
from spades_ai.engine.jit import hot_kernel, kernel
from spades_ai.engine.play import beating_copy, follow_mask, lead_mask
from spades_ai.engine.seats import cards_each, n_decks, n_seats, n_sides
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
from spades_ai.rules import R_EQUAL_LAST, R_FIRST_LEAD, R_MUST_WIN, R_SPADE_LEAD

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
    for s in range(N_SUITS):
        m = moves & SUIT_MASK[s]
        if m == ZERO:
            continue
        if highest_bit(held & SUIT_MASK[s]) & own:
            cash |= highest_bit(m)
        low |= lowest_bit(m)
    return cash, low


@kernel
def _follow_order(moves, beat, party_wins):
    """Follows tried first: the cheapest card that takes the trick from the other party (of
    ``beat``, the cards that beat the card now winning), then the cards that do not take it;
    those first when the mover's party wins the trick already."""
    takes = moves & beat
    losers = moves & ~takes
    if party_wins:
        return losers, ZERO
    return lowest_bit(takes), losers


class Table(NamedTuple):
    """The rules a search reads, as scalars: an array passed down the recursion would cost its
    reference counting at every node."""

    seats: int
    sides: int
    radix: int
    """A seat's tricks are a digit of the finish code in this base (``finish_radix``, or the
    tricks of the search plus one for a ranked leaf)."""
    spade_lead: int
    first_lead: int
    must_win: bool
    max_side: int
    """The side that maximises; every other seat minimises."""
    decks: int
    """The levels of the hands (``copies``): 1, or 2 and 3 where a card repeats."""
    equal_last: bool
    """``R_EQUAL_LAST``: of two identical cards on a trick the later one wins."""
    ranked: int
    """0: ``leaf[code]`` (``code`` the tricks won in the hand); else the tricks of the search,
    and ``leaf[split_rank(code, t)]`` with ``code`` the tricks won during the search."""


@kernel
def table_of(rules, max_side):
    """The ``Table`` of ``rules`` for a search that ``max_side`` maximises, on a leaf indexed
    by the finish code of the whole hand (``finish_code``)."""
    return Table(np.int64(n_seats(rules)), np.int64(n_sides(rules)), np.int64(finish_radix(rules)),
                 np.int64(rules[R_SPADE_LEAD]), np.int64(rules[R_FIRST_LEAD]), rules[R_MUST_WIN] != 0, np.int64(max_side),
                 np.int64(n_decks(rules)), rules[R_EQUAL_LAST] != 0, np.int64(0))


@kernel
def ranked_table(rules, max_side, n):
    """The ``Table`` of a search of ``n`` tricks on a ranked leaf (``split_rank``): one entry
    per split of the ``n`` tricks among the seats, whatever the table's size."""
    t = table_of(rules, max_side)
    return Table(t.seats, t.sides, np.int64(n + 1), t.spade_lead, t.first_lead, t.must_win, t.max_side, t.decks,
                 t.equal_last, np.int64(n))


def _binomials(size):
    out = np.zeros((size, size), dtype=np.int64)
    for a in range(size):
        out[a, 0] = 1
        for b in range(1, a + 1):
            out[a, b] = out[a - 1, b - 1] + out[a - 1, b]
    return out


#: ``BINOM[a, b]`` = C(a, b), enough for 17 tricks among 12 seats.
BINOM = _binomials(32)


@kernel
def split_count(n, seats):
    """The splits of ``n`` tricks among ``seats`` seats: C(n + seats - 1, seats - 1)."""
    return BINOM[n + seats - 1, seats - 1]


@kernel
def split_rank(code, t):
    """The index of a split of ``t.ranked`` tricks (``code``: seat s's tricks its digit in base
    ``t.radix``) among all splits in lexicographic order of the seats' tricks: the splits with
    the same tricks for the seats before s and fewer for s, summed over s (hockey stick)."""
    rank = np.int64(0)
    left = t.ranked
    for s in range(t.seats - 1):
        x = code % t.radix
        code //= t.radix
        k = t.seats - 1 - s
        rank += BINOM[left + k, k] - BINOM[left - x + k, k]
        left -= x
    return rank


@kernel
def ranked_splits(n, rules):
    """``out[split_rank(x)] = x`` for every split ``x`` of ``n`` tricks among the seats: the
    finishes a ranked leaf holds, in its order."""
    seats = n_seats(rules)
    t = ranked_table(rules, 0, n)
    out = np.zeros((split_count(n, seats), seats), dtype=np.int64)
    x = np.zeros(seats, dtype=np.int64)
    x[seats - 1] = n
    while True:
        code = 0
        for s in range(seats - 1, -1, -1):
            code = code * t.radix + x[s]
        out[split_rank(code, t)] = x
        if not next_split(x, n):
            return out


@kernel
def _leaf_at(leaf, code, t):
    return leaf[split_rank(code, t)] if t.ranked else leaf[code]


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
def _next(seat, t):
    return np.int64(0) if seat + 1 >= t.seats else seat + 1


@kernel
def _last_trick_winner(hands, leader, t):
    """The seat that wins the last trick, every seat holding one card, ``leader`` to lead: each
    card in turn takes the trick when it beats the card winning it (an identical copy only
    under ``t.equal_last``)."""
    win = hands[leader]
    ws = leader
    s = _next(leader, t)
    for _ in range(t.seats - 1):
        if hands[s] & beating_copy(win, t.equal_last):
            win = hands[s]
            ws = s
        s = _next(s, t)
    return ws


@kernel
def _others(hands, seat, t):
    """The cards the seats other than ``seat`` hold (a copy or more)."""
    out = ZERO
    for s in range(t.seats):
        if s != seat:
            out |= hands[s]
    return out


@kernel
def _levels_above(hands, seat, t):
    """Levels 2 and 3 of ``seat``'s cards (0 where the table has fewer decks)."""
    l2 = hands[t.seats + seat] if t.decks > 1 else ZERO
    l3 = hands[2 * t.seats + seat] if t.decks > 2 else ZERO
    return l2, l3


@kernel
def _put_back(hands, seat, own, l2, l3, t):
    hands[seat] = own
    if t.decks > 1:
        hands[t.seats + seat] = l2
    if t.decks > 2:
        hands[2 * t.seats + seat] = l3


@kernel
def _node_moves(own, others, pos, led, win, trick, broken, trick_no, t):
    """``(legal, moves, beat)``: the legal cards of the seat holding ``own`` (``others``: the
    cards the other seats hold), those of them worth searching (one per run of equivalent cards,
    ``distinct_moves``), and the cards that beat ``win``. A card some other seat or the trick
    also holds a copy of is its own run: an identical copy may beat it or lose to it."""
    alone = own & ~(others | trick)
    if pos == 0:
        legal = lead_mask(own, broken, trick_no, t.spade_lead, t.first_lead)
        return legal, distinct_moves(legal, alone, ~(own | others) & ALL_CARDS), ZERO
    beat = beating_copy(win, t.equal_last)
    legal = follow_mask(own, led)
    if t.must_win and (legal & beat) != ZERO:
        legal &= beat
    return legal, distinct_moves(legal, alone, ~(own | others | trick) & ALL_CARDS), beat


class Spot(NamedTuple):
    """A position of ``table_node`` besides the hands: ``seat`` plays the ``pos``-th card of the
    trick (0: it leads); ``led`` is the led suit's mask, ``win`` and ``win_seat`` the card
    winning so far and its seat, ``trick`` the cards on the trick; ``broken`` whether a spade
    fell in an earlier trick, ``trick_no`` the trick's number, ``n`` the tricks not yet
    finished, ``code`` the finish code of the tricks won (``finish_code``)."""

    seat: int
    pos: int
    led: np.uint64
    win: np.uint64
    win_seat: int
    trick: np.uint64
    broken: bool
    trick_no: int
    n: int
    code: int


@hot_kernel
def _child(x, c, beat, t):
    """The spot after ``x.seat`` plays ``c`` (``beat``: the cards that take the trick from
    ``x.win``); after the trick's last card its winner leads the next."""
    nxt = _next(x.seat, t)
    if x.pos == 0:
        return Spot(nxt, np.int64(1), suit_mask_of(c), c, x.seat, c, x.broken, x.trick_no, x.n, x.code)
    takes = (c & beat) != ZERO
    w = c if takes else x.win
    ws = x.seat if takes else x.win_seat
    if x.pos + 1 == t.seats:
        return Spot(ws, np.int64(0), ZERO, ZERO, ws, ZERO, x.broken or ((x.trick | c) & SPADES) != ZERO, x.trick_no + 1,
                    x.n - 1, x.code + _digit(ws, t))
    return Spot(nxt, x.pos + 1, x.led, w, ws, x.trick | c, x.broken, x.trick_no, x.n, x.code)


@hot_kernel
def _ordered_moves(hands, x, own, maximize, t):
    """``(legal, moves, first, second, beat)``: ``_node_moves`` of the seat to act and the two
    classes of its moves tried first."""
    others = _others(hands, x.seat, t)
    legal, moves, beat = _node_moves(own, others, x.pos, x.led, x.win, x.trick, x.broken, x.trick_no, t)
    if x.pos == 0:
        first, second = _lead_order(moves, own, own | others)
    else:
        first, second = _follow_order(moves, beat, _maximizes(x.win_seat, t) == maximize)
    return legal, moves, first, second, beat


@kernel
def table_node(hands, x, alpha, beta, only, t, leaf):
    """The value to the maximising side (``t.max_side``) of the position, within the window
    ``alpha < value < beta`` (fail-soft: a result at or below ``alpha`` is an upper bound, one
    at or above ``beta`` a lower bound), every other seat minimising.

    ``hands`` (``uint64[decks * N]``, level k of seat s at ``k * N + s``: ``copies``; restored
    on return) are the cards held, ``x`` the rest of the position (``Spot``); a finished hand
    is worth ``leaf[x.code]``, or ``leaf[split_rank(x.code)]`` (``Table.ranked``); ``t`` the
    table (``Table``). ``only`` (a card, or 0) restricts the seat to that card.
    """
    if x.pos == 0 and x.n <= 1:
        return _leaf_at(leaf, x.code + (_digit(_last_trick_winner(hands, x.seat, t), t) if x.n == 1 else 0), t)
    seat = x.seat
    own = hands[seat]
    l2, l3 = _levels_above(hands, seat, t)
    maximize = _maximizes(seat, t)
    legal, moves, first, second, beat = _ordered_moves(hands, x, own, maximize, t)
    if only != ZERO:
        moves = legal & only
    value = -INF if maximize else INF
    rest = moves
    for cls in range(3):
        m = rest & (first if cls == 0 else (second if cls == 1 else rest))
        while m != ZERO:
            c = lowest_bit(m)
            m ^= c
            rest ^= c
            if t.decks == 1:
                hands[seat] = own ^ c
            else:
                take_from(hands, seat, t.seats, c, t.decks)
            v = table_node(hands, _child(x, c, beat, t), alpha, beta, ZERO, t, leaf)
            _put_back(hands, seat, own, l2, l3, t)
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
    x = Spot(seat, pos, led, win, np.int64(pub[P_WIN_SEAT]), trick, pub[P_BROKEN] != 0, trick_no, n, code)
    return table_node(hands, x, np.float64(lo), np.float64(hi), only, table_of(rules, max_side), leaf)


@kernel
def _trick_state(trick_cards, leader, t):
    """``(led, win, win_seat, trick, seat)`` of the trick in progress, ``trick_cards`` (ids in
    play order) led by ``leader``: ``seat`` is the seat to play next."""
    led = ZERO
    win = ZERO
    ws = leader
    trick = ZERO
    s = leader
    for i in range(len(trick_cards)):
        c = ONE << U64(trick_cards[i])
        if i == 0:
            led = suit_mask_of(c)
            win = c
        elif c & beating_copy(win, t.equal_last):
            win = c
            ws = s
        trick |= c
        s = _next(s, t)
    return led, win, ws, trick, s


@kernel
def ranked_value(hands, leader, trick_cards, broken, trick_no, t, leaf, card):
    """The value to ``t.max_side`` (a ``ranked_table`` of the tricks left, the current one
    included) of the position with every card of ``hands`` (``uint64[decks * N]``) visible,
    ``leader`` having led ``trick_cards`` (ids, play order) to trick ``trick_no`` (0-based),
    after the seat to act plays ``card`` (an engine id; -1: its best card). ``leaf`` has an
    entry per split of the tricks left (``ranked_splits``)."""
    led, win, ws, trick, seat = _trick_state(trick_cards, leader, t)
    only = ZERO if card < 0 else ONE << U64(card)
    # one fixed type per argument of the recursive kernel (numba issue 6061, see engine.solver)
    x = Spot(np.int64(seat), np.int64(len(trick_cards)), led, win, np.int64(ws), trick, broken != 0, np.int64(trick_no),
             np.int64(t.ranked), np.int64(0))
    return table_node(hands, x, np.float64(leaf.min()), np.float64(leaf.max()), only, t, leaf)


@kernel
def ranked_legal(hands, leader, trick_cards, broken, trick_no, t):
    """The legal cards of the seat to act (must win included) in ``ranked_value``'s position."""
    led, win, _, trick, seat = _trick_state(trick_cards, leader, t)
    legal, _, _ = _node_moves(hands[seat], _others(hands, seat, t), np.int64(len(trick_cards)), led, win, trick,
                              broken != 0, trick_no, t)
    return legal
