"""The positions and the objective of the exact search at every table but four in pairs
(``table_solver``), as the steps a copy of ``node_search`` inlines (``spades_ai.templates``).

A position (``Spot``) is the trick's scalars; the search (``TableSearch``) the table's
scalars (``Table``), the leaf and the array of hands every node of one search shares. The objective
is the seat's side against the rest (paranoid): the side ``t.max_side`` maximises the value of
the finished hand, ``leaf[code]`` (or ``leaf[split_rank(code)]``, a ranked leaf), every other
seat minimises, fail-soft alpha-beta in the window ``w = (alpha, beta, only)``, no
transposition table (no relevant cards: ``run_pin`` and ``store`` do nothing). The deck is
chosen where the search is bound: ``play_one_deck`` / ``undo_one_deck`` move a card in and out
of a one-deck hand, ``play_copies`` / ``undo_copies`` take it from the highest level holding it
and give it back (``copies``), so no node tests how many decks the table has.
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.bits import ALL_CARDS, N_SUITS, SPADES, SUIT_MASK, ZERO, highest_bit, lowest_bit, suit_mask_of
from spades_ai.engine.copies import give_to, take_from
from spades_ai.engine.exact_moves import distinct_moves
from spades_ai.engine.jit import hot_kernel, kernel
from spades_ai.engine.play import beating_copy, follow_mask, lead_mask

INF = np.inf


@kernel
def lead_order(moves, own, held):
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
def follow_order(moves, beat, party_wins):
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
def leaf_at(leaf, code, t):
    return leaf[split_rank(code, t)] if t.ranked else leaf[code]


@kernel
def maximizes(seat, t):
    """Whether ``seat`` plays for the maximising side (``seat % sides``, without a division)."""
    return (seat - t.sides if seat >= t.sides else seat) == t.max_side


@kernel
def digit(seat, t):
    """What a trick won by ``seat`` adds to the finish code: ``radix ** seat``."""
    d = np.int64(1)
    for _ in range(seat):
        d *= t.radix
    return d


@kernel
def next_at(seat, t):
    return np.int64(0) if seat + 1 >= t.seats else seat + 1


@kernel
def last_trick_winner(hands, leader, t):
    """The seat that wins the last trick, every seat holding one card, ``leader`` to lead: each
    card in turn takes the trick when it beats the card winning it (an identical copy only
    under ``t.equal_last``)."""
    win = hands[leader]
    ws = leader
    s = next_at(leader, t)
    for _ in range(t.seats - 1):
        if hands[s] & beating_copy(win, t.equal_last):
            win = hands[s]
            ws = s
        s = next_at(s, t)
    return ws


@kernel
def others_hold(hands, seat, t):
    """The cards the seats other than ``seat`` hold (a copy or more)."""
    out = ZERO
    for s in range(t.seats):
        if s != seat:
            out |= hands[s]
    return out


@kernel
def legal_moves(own, others, pos, led, win, trick, broken, trick_no, t):
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
    """A position of the search besides the hands (``TableSearch.hands``): ``seat`` plays the
    ``pos``-th card of the trick (0: it leads); ``led`` is the led suit's mask, ``win`` and
    ``win_seat`` the card winning so far and its seat, ``trick`` the cards on the trick;
    ``broken`` whether a spade fell in an earlier trick, ``trick_no`` the trick's number, ``n``
    the tricks not yet finished, ``code`` the finish code of the tricks won (``finish_code``)."""

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


class TableSearch(NamedTuple):
    """What a search reads at every node besides the position: the table, the leaf, and the
    hands (``uint64[decks * N]``, level k of seat s at ``k * N + s``: ``copies``), one array
    the whole search shares: a card leaves its hand for the child and comes back (``play_*``,
    ``undo_*``). Kept here, not in the position, so that no node builds a record holding an
    array (its reference count would be kept at every node)."""

    t: Table
    leaf: np.ndarray
    hands: np.ndarray


@hot_kernel
def table_enter(p, w, s):
    """``(done, value, relevant, window, hint, key)``: a finished hand, or the last trick
    (forced), is its leaf; any other position is searched."""
    if p.pos == 0 and p.n <= 1:
        code = p.code + (digit(last_trick_winner(s.hands, p.seat, s.t), s.t) if p.n == 1 else 0)
        return True, leaf_at(s.leaf, code, s.t), ZERO, w, ZERO, ZERO
    return False, 0.0, ZERO, w, ZERO, ZERO


@hot_kernel
def table_moves(p, s):
    """``(moves, first, second, third)``: the distinct legal cards of the seat to act and the
    two classes of them tried first (``lead_order``, ``follow_order``; no third)."""
    own = s.hands[p.seat]
    others = others_hold(s.hands, p.seat, s.t)
    _, moves, beat = legal_moves(own, others, p.pos, p.led, p.win, p.trick, p.broken, p.trick_no, s.t)
    if p.pos == 0:
        first, second = lead_order(moves, own, own | others)
    else:
        first, second = follow_order(moves, beat, maximizes(p.win_seat, s.t) == maximizes(p.seat, s.t))
    return moves, first, second, ZERO


@hot_kernel
def table_restrict(p, moves, hint, w, s):
    """Only the card ``w[2]``, when one is given: any legal card, not only one a run stands for."""
    if w[2] != ZERO:
        legal, _, _ = legal_moves(s.hands[p.seat], others_hold(s.hands, p.seat, s.t), p.pos, p.led, p.win, p.trick,
                                  p.broken, p.trick_no, s.t)
        return legal & w[2], ZERO
    return moves, hint


@hot_kernel
def table_start(p, s):
    return -INF if maximizes(p.seat, s.t) else INF, ZERO


@hot_kernel
def child_spot(p, c, s):
    """The spot after ``p.seat`` plays ``c`` (its hands already without ``c``); after the
    trick's last card its winner leads the next."""
    t = s.t
    nxt = next_at(p.seat, t)
    if p.pos == 0:
        return Spot(nxt, np.int64(1), suit_mask_of(c), c, p.seat, c, p.broken, p.trick_no, p.n, p.code)
    takes = (c & beating_copy(p.win, t.equal_last)) != ZERO
    w = c if takes else p.win
    ws = p.seat if takes else p.win_seat
    if p.pos + 1 == t.seats:
        return Spot(ws, np.int64(0), ZERO, ZERO, ws, ZERO, p.broken or ((p.trick | c) & SPADES) != ZERO,
                    p.trick_no + 1, p.n - 1, p.code + digit(ws, t))
    return Spot(nxt, p.pos + 1, p.led, w, ws, p.trick | c, p.broken, p.trick_no, p.n, p.code)


@hot_kernel
def play_one_deck(c, p, s):
    """``(child, done, pin)`` after ``p.seat`` plays ``c`` from a one-deck hand."""
    s.hands[p.seat] ^= c
    return child_spot(p, c, s), False, ZERO


@hot_kernel
def undo_one_deck(p, c, s):
    s.hands[p.seat] ^= c


@hot_kernel
def play_copies(c, p, s):
    """``(child, done, pin)`` after ``p.seat`` plays a copy of ``c`` (its highest level)."""
    take_from(s.hands, p.seat, s.t.seats, c, s.t.decks)
    return child_spot(p, c, s), False, ZERO


@hot_kernel
def undo_copies(p, c, s):
    give_to(s.hands, p.seat, s.t.seats, c, s.t.decks)


@hot_kernel
def table_settled(q, done, w, s):
    """``(known, value, relevant, child's window)``: every child is searched, in the window
    of its parent, for its every card."""
    return False, 0.0, ZERO, (w[0], w[1], ZERO)


@hot_kernel
def table_backup(p, s, value, best, w, c, child):
    """``(value, best, window, cut)`` after card ``c``: alpha-beta, fail-soft."""
    alpha, beta, only = w
    if maximizes(p.seat, s.t):
        value = max(value, child)
        alpha = max(alpha, value)
    else:
        value = min(value, child)
        beta = min(beta, value)
    return value, best, (alpha, beta, only), alpha >= beta


@hot_kernel
def table_run_pin(c, moves, p, relevant):
    return ZERO


@hot_kernel
def table_store(p, w, s, value, best, relevant, key):
    """Nothing: the search keeps no table."""
