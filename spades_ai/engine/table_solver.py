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
entries, not ``14 ** 12``. The search is the exact search's one node (``node_search``) bound to
this module's positions and objective (``table_node``, a copy for one deck and one for copies):
fail-soft alpha-beta over an array of hands (a card leaves its hand for the child and comes
back), in the window of the leaf values the hand can
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


import numpy as np

from spades_ai.engine.bits import (
    ONE,
    U64,
    ZERO,
    suit_mask_of,
)
from spades_ai.engine.jit import kernel
from spades_ai.engine.play import beating_copy
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
from spades_ai.engine.table_node import (
    Spot,
    Table,
    TableSearch,
    legal_moves,
    next_at,
    others_hold,
    split_count,
    split_rank,
)
from spades_ai.rules import R_EQUAL_LAST, R_FIRST_LEAD, R_MUST_WIN, R_SPADE_LEAD
from spades_ai.templates import bind

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


#: ``node_search`` bound to this module's positions and objective (``table_node``), one copy
#: for one deck and one for copies: the deck is chosen once a search, never at a node.
TABLE_BINDING = """from spades_ai.engine.table_node import table_backup as backup
from spades_ai.engine.table_node import table_enter as enter
from spades_ai.engine.table_node import table_moves as node_moves
from spades_ai.engine.table_node import table_restrict as restrict
from spades_ai.engine.table_node import table_run_pin as run_pin
from spades_ai.engine.table_node import table_settled as settled
from spades_ai.engine.table_node import table_start as start
from spades_ai.engine.table_node import table_store as store
from spades_ai.engine.table_node import play_{deck} as play
from spades_ai.engine.table_node import undo_{deck} as undo
"""
one_deck_search = bind("spades_ai.engine", ("node_search",), TABLE_BINDING.format(deck="one_deck"), {}, "table").node_search
copies_search = bind("spades_ai.engine", ("node_search",), TABLE_BINDING.format(deck="copies"), {}, "copies").node_search


@kernel
def search_value(x, alpha, beta, only, s):
    """The value of the position ``x`` (``Spot``) in the window ``alpha < value < beta``
    (fail-soft), ``only`` (a card, or 0) the seat's one card, by the copy of the node search
    for the table's decks."""
    if s.t.decks == 1:
        value, _ = one_deck_search.node(x, (alpha, beta, only), s)
    else:
        value, _ = copies_search.node(x, (alpha, beta, only), s)
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
    return search_value(x, np.float64(lo), np.float64(hi), only, TableSearch(table_of(rules, max_side), leaf, hands))


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
        s = next_at(s, t)
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
    return search_value(x, np.float64(leaf.min()), np.float64(leaf.max()), only, TableSearch(t, leaf, hands))


@kernel
def ranked_legal(hands, leader, trick_cards, broken, trick_no, t):
    """The legal cards of the seat to act (must win included) in ``ranked_value``'s position."""
    led, win, _, trick, seat = _trick_state(trick_cards, leader, t)
    legal, _, _ = legal_moves(hands[seat], others_hold(hands, seat, t), np.int64(len(trick_cards)), led, win, trick,
                              broken != 0, trick_no, t)
    return legal
