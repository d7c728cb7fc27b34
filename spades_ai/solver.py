"""Exact play with every card visible: double dummy and card values for any objective.

``double_dummy`` answers the classic question: how many of the remaining tricks can the side of
the seat on lead take against best defence? ``card_values`` gives the value of each legal card
of the seat to act, from any point of a hand (mid-trick too), when a finished hand is worth
``leaf[t0, t1, t2, t3]`` to one team (seat s ending with ``t_s`` tricks) and the other team
plays to minimize it. A Spades objective (points, bags at their cost, nil, set) is such a table;
``tricks_leaf(team)`` is the plain trick count.

Every table: both take the table from ``rules`` (``docs/rules.md``). At four players in pairs
they are thin, validating wrappers around the numba kernels of ``spades_ai.engine.solver``; each
thread keeps its own transposition table, reused from call to call. At every other table they
search ``engine.table_solver``'s **paranoid** game: the side of the seat on lead (for
``double_dummy``) or side ``team`` (for ``card_values``) maximises, and every other seat, of
whatever side, minimises, as if all of them played together against it. With pairs that is the
tricks (or value) a side can take against the rest; solo, a seat against all the others. The
hands are the table's (3 to 12 of them), with copies of cards at 6 to 12 players (``"AS AS"``:
two decks), two identical cards on one trick ordered by ``Rules.equal_cards``, must win as the
rules say; a leaf is a function of every seat's final tricks (or an array of shape
``(cards_each + 1,) * players``). That search has no transposition table: endgames of a few
tricks take milliseconds, a whole deal at five or more seats is out of reach
(``benchmarks/RESULTS.md``, "Exact solver at every table").

Cards are card ids, as everywhere at the Python face; under ``Rules(jokers=..., deuces_high=...)``
the ids of the jokers and high deuces name those cards (``BJ`` is id 26, ...: ``Rules.card``),
and the search runs on the engine's layout, where they are trumps above the ace.

>>> double_dummy(["AS KS", "QS JS", "2H 3H", "4H 5H"], leader=0)
2
>>> double_dummy(["AS KS", "QS JS", "2H 3H"], leader=0, rules=Rules(players=3))  # seat 0 against 1 and 2
2
>>> double_dummy(["AS 3H", "AS 4H", "KS 5H", "QS 6H", "2H 7H", "JS 8H"], leader=1,
...              rules=Rules(players=6, teams="pairs"), spades_broken=True)  # seats 1 and 4 against the rest
1
"""

from __future__ import annotations

import functools
import itertools
import operator
import threading
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from spades_ai.cards import Card, CardSet
from spades_ai.checks import check_seat, is_int
from spades_ai.engine import exact_table as _table
from spades_ai.engine import solver as _sol
from spades_ai.engine import table_solver as _ts
from spades_ai.engine.play import legal_mask
from spades_ai.rules import R_FIRST_LEAD, R_SPADE_LEAD, Rules
from spades_ai.seats import seat_order, seats, side_of, side_seats, table_name

CLUB_MASK = 0x1FFF
LEAF_SHAPE = (14, 14, 14, 14)
#: log2 of the table rows used for a search with n cards per hand (more tricks, more positions).
_DD_BITS = {n: min(19, max(12, 7 + n)) for n in range(1, 14)}
_OBJ_BITS = {n: min(19, max(12, 7 + n)) for n in range(1, 14)}
_GENERATIONS = 4095  # the table rows hold a 12-bit generation


class _Tables(threading.local):
    """One double-dummy table and one objective table per thread, grown on demand; a search
    with ``2**bits`` rows uses the first ``2**bits`` rows (the small ones stay in cache)."""

    def __init__(self):
        self.dd = np.zeros(0, np.uint64)
        self.obj = np.zeros(0, np.uint64)
        self.dd_gen = 0
        self.obj_gen = 0

    def take_dd(self, bits: int) -> tuple[np.ndarray, int, int]:
        if len(self.dd) < _table.TT_WIDTH << bits:
            self.dd = np.zeros(_table.TT_WIDTH << bits, np.uint64)
            self.dd_gen = 0
        self.dd_gen = self.dd_gen % _GENERATIONS + 1
        if self.dd_gen == 1:
            self.dd[:] = 0
        return self.dd, self.dd_gen, _shift(bits)

    def take_obj(self, bits: int) -> tuple[np.ndarray, int, int]:
        if len(self.obj) < _table.TT_WIDTH << bits:
            self.obj = np.zeros(_table.TT_WIDTH << bits, np.uint64)
            self.obj_gen = 0
        self.obj_gen = self.obj_gen % _GENERATIONS + 1
        if self.obj_gen == 1:
            self.obj[:] = 0
        return self.obj, self.obj_gen, _shift(bits)


def _shift(bits: int) -> int:
    """The kernels' ``shift`` for a table of ``2**bits`` rows in buckets of ``TT_WAYS``."""
    return 64 - bits + _table.TT_WAYS.bit_length() - 1


_tables = _Tables()


def _rules(rules) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules object or None, not {type(rules).__name__}")
    return rules


def _flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def _names(mask: int, rules: Rules) -> str:
    """The cards of an engine bitboard, as the rules name them."""
    return " ".join(map(str, rules.engine_cards(mask)))


def _check_first_lead(masks, leader: int, rules: Rules) -> None:
    """Under ``first_lead="low_club"`` the holder of the lowest club leads the first trick
    (``masks`` every seat's cards in the engine's layout, where a joker or high deuce is no
    club; with copies, the level of the cards held at least once)."""
    if rules.first_lead != "low_club":
        return
    masks = [int(m) for m in masks]
    clubs = functools.reduce(operator.or_, masks) & CLUB_MASK
    low = clubs & -clubs
    holder = next((s for s, m in enumerate(masks) if m & low), None)
    if holder != leader:
        where = f"{_names(low, rules)} is held by seat {holder}" if holder is not None else "no club is held"
        raise ValueError(f"first_lead='low_club': the first trick is led by the holder of the lowest club, "
                         f"not seat {leader} ({where})")


def double_dummy(hands, leader: int, rules: Rules | None = None, spades_broken: bool = False) -> int:
    """The most tricks the side of ``leader`` can take from here against best defence, with
    every card visible: at four in pairs against the other team; at every other table against
    all the other seats together (the paranoid reading, module docstring): with pairs the
    leader and its partner, solo the leader alone.

    ``hands`` are every seat's cards (``rules.players`` hands), of equal size 1..cards_each
    (strings such as ``"AS KS 7H"``, lists of cards or ids, or int bitboards; or one string
    with ``/`` between the hands; copies of a card at 6 to 12 players); ``leader`` leads the
    next trick; ``spades_broken`` says whether a spade has been played to an earlier trick
    (taken as given). ``rules`` supplies the table and the spade-lead, first-lead, must-win and
    equal-cards options (``cards_each`` cards each is the first trick). Bad input raises
    ``ValueError``.

    >>> deal = "QS JS 7H / KS 3S JH / AS 8S 7S / 4S AH QH"
    >>> double_dummy(deal, leader=0), double_dummy(deal, leader=0, spades_broken=True)
    (2, 3)
    """
    rules = _rules(rules)
    if not rules.four_in_pairs:
        return _table_double_dummy(hands, leader, rules, _flag(spades_broken, "spades_broken"))
    masks = [rules.engine_mask(h) for h in rules.parse_hands(hands)]
    leader = check_seat(leader, "leader")
    spades_broken = _flag(spades_broken, "spades_broken")
    sizes = [m.bit_count() for m in masks]
    if len(set(sizes)) != 1:
        raise ValueError(f"the four hands must be of equal size, not {sizes}")
    n = sizes[0]
    if not 1 <= n <= 13:
        raise ValueError(f"hands must hold 1..13 cards each, not {n}")
    if n == 13:
        _check_first_lead(masks, leader, rules)
    r = rules.as_array()
    tt, gen, shift = _tables.take_dd(_DD_BITS[n])
    stats = np.zeros(_table.STATS, np.int64)
    return int(_sol.dd_tricks(np.array(masks, np.uint64), leader, spades_broken, r[R_SPADE_LEAD], r[R_FIRST_LEAD],
                              tt, gen, shift, stats))


def tricks_leaf(team: int, rules: Rules | None = None):
    """The leaf worth the tricks side ``team`` takes in the whole hand: with it, ``card_values``
    gives double-dummy trick counts (plus the tricks already won). At four players in pairs the
    ``(14, 14, 14, 14)`` table; at any other table a function of the seats' counts (a table of
    ``(cards_each + 1) ** players`` entries would not fit at eight seats).

    >>> float(tricks_leaf(0)[3, 4, 2, 4]), tricks_leaf(2, Rules(players=3))(5, 6, 6)
    (5.0, 6)
    """
    rules = _rules(rules)
    if not rules.four_in_pairs:
        return functools.partial(_side_tricks, side_seats(_side(team, rules), rules))
    if team not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team!r}")
    idx = np.indices(LEAF_SHAPE, dtype=np.float64)
    return idx[team] + idx[team + 2]


def _side_tricks(side: tuple[int, ...], *won: int) -> int:
    return sum(won[s] for s in side)


def card_values(
    hands,
    leader: int,
    leaf: np.ndarray | Callable[[int, int, int, int], float],
    team: int,
    tricks_won: Sequence[int] | None = None,
    trick: Iterable[Card | str | int] | str = (),
    rules: Rules | None = None,
    spades_broken: bool = False,
) -> dict[Card, float]:
    """The value to ``team`` of each legal card of the seat to act, with every card visible,
    ``team`` maximizing and the other team minimizing the value of the finished hand. At every
    table but four in pairs, ``team`` is a side (``spades_ai.seats``: a seat solo) and every
    seat of the other sides minimizes (the paranoid reading, module docstring); the hands, the
    trick and ``tricks_won`` are the table's (``rules.players`` of each, the trick up to
    ``players - 1`` cards, copies at 6 to 12 players) and ``leaf`` is a function of every
    seat's final tricks or an array of shape ``(cards_each + 1,) * players``; every legal card
    is searched (must win included).

    ``hands``: the cards each seat still holds (the seats that already played to the current
    trick hold one card fewer). ``leader``: the seat that led (or is to lead) the current
    trick; ``trick``: the cards played to it so far, in order (0..3 cards), so the seat to act
    is ``len(trick)`` seats left of the leader. ``tricks_won``: each seat's tricks in the hand so far
    (they sum to the tricks played; None only before the first trick). ``leaf``: ``leaf[t0, t1, t2, t3]`` is the value of the
    finished hand in which seat s took ``t_s`` tricks, a ``(14, 14, 14, 14)`` float array whose
    reachable entries are finite, or a function of the four counts. ``spades_broken``: whether
    a spade was played to an earlier trick. Returns ``{card: value}`` for the legal cards.

    Seat 1 to play to a heart lead with two tricks left, seat 0 having won 6 and seat 2 having
    won 5 (team 0 maximizes its tricks):

    >>> hands = ["AS", "KS 3C", "QS 2H", "JS 3H"]
    >>> card_values(hands, 0, tricks_leaf(0), team=0, tricks_won=[6, 0, 5, 0], trick=["4H"])
    {3C: 13.0, KS: 12.0}
    """
    rules = _rules(rules)
    broken = _flag(spades_broken, "spades_broken")
    if not rules.four_in_pairs:
        return _table_card_values(hands, leader, leaf, team, tricks_won, trick, rules, broken)
    return _pairs_card_values(hands, leader, leaf, team, tricks_won, trick, rules, broken)


def _pairs_card_values(hands, leader, leaf, team, tricks_won, trick, rules: Rules, spades_broken: bool) -> dict:
    """``card_values`` at four players in pairs: ``engine.solver``'s objective search."""
    masks = [rules.engine_mask(h) for h in rules.parse_hands(hands)]
    leader = check_seat(leader, "leader")
    if not is_int(team) or int(team) not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team!r}")
    team = int(team)
    trick_ids = [rules.engine_id(c) for c in rules.named_cards(trick)]
    if len(trick_ids) > 3:
        raise ValueError(f"a trick in progress holds 0..3 cards, not {len(trick_ids)}")
    if len(set(trick_ids)) != len(trick_ids):
        raise ValueError("a card appears twice in the trick")
    trick_mask = sum(1 << c for c in trick_ids)
    for s in seats(rules):
        if masks[s] & trick_mask:
            raise ValueError(f"seat {s} holds {_names(masks[s] & trick_mask, rules)}, already played to the trick")
    k = len(trick_ids)
    order = seat_order(leader, rules)
    seat = order[k]
    n = masks[seat].bit_count()
    played = order[:k]
    want = [n - 1 if s in played else n for s in seats(rules)]
    sizes = [m.bit_count() for m in masks]
    if sizes != want:
        raise ValueError(f"with {k} card(s) in the trick led by seat {leader}, the hands must hold {want} cards, not {sizes}")
    if not 1 <= n <= 13:
        raise ValueError(f"the seat to act must hold 1..13 cards, not {n}")
    won = _tricks_won(tricks_won, 13 - n)
    trick_no = 13 - n
    if trick_no == 0 and rules.first_lead == "low_club":
        before = list(masks)
        for s, c in zip(played, trick_ids):
            before[s] |= 1 << c
        _check_first_lead(before, leader, rules)
    _check_trick(masks, leader, trick_ids, spades_broken, trick_no, rules)
    leaf_arr = _leaf_table(leaf, won)
    r = rules.as_array()
    tt, gen, shift = _tables.take_obj(_OBJ_BITS[n])
    stats = np.zeros(_table.STATS, np.int64)
    out = np.empty(56)
    _sol.objective_values(np.array(masks, np.uint64), seat, np.array(trick_ids, np.int64), np.array(won, np.int64),
                          spades_broken, team, leaf_arr, r, _table.Memo(tt, np.uint64(gen), np.int64(shift), stats), out)
    return {rules.engine_card(c): float(out[c]) for c in np.flatnonzero(~np.isnan(out))}


def _tricks_won(tricks_won, played: int, players: int = 4) -> list[int]:
    if tricks_won is None:
        if played:
            raise ValueError(f"tricks_won is needed once tricks have been played ({played} so far)")
        return [0] * players
    many = "four" if players == 4 else players
    try:
        won = list(tricks_won)
    except TypeError:
        raise ValueError(f"tricks_won must be {many} counts, not {tricks_won!r}") from None
    if len(won) != players or any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0 for t in won):
        raise ValueError(f"tricks_won must be {many} counts >= 0, not {tricks_won!r}")
    won = [int(t) for t in won]
    if sum(won) != played:
        raise ValueError(f"tricks_won {won} sum to {sum(won)}, but {played} trick(s) have been played")
    return won


def _check_trick(masks, leader, trick_ids, broken, trick_no, rules) -> None:
    """Each card of the trick in progress must have been legal from the hand it left."""
    r = rules.as_array()
    led = -1
    for s, c in zip(seat_order(leader, rules), trick_ids):
        hand = masks[s] | (1 << c)
        legal = int(legal_mask(np.uint64(hand), led, broken, trick_no, r[R_SPADE_LEAD], r[R_FIRST_LEAD]))
        if not legal >> c & 1:
            raise ValueError(f"seat {s} could not play {rules.engine_card(c)} to the trick: its legal cards were "
                             f"{_names(legal, rules)}")
        if led < 0:
            led = min(c // 13, 3)  # a joker or high deuce (engine ids 52..55) leads the trumps


@functools.lru_cache(maxsize=4096)
def _reachable(won: tuple[int, int, int, int]) -> tuple[np.ndarray, ...]:
    """Index arrays of the leaf entries a hand can still reach from ``won`` (one per seat)."""
    left = 13 - sum(won)
    out = []
    for add in itertools.product(range(left + 1), repeat=3):
        last = left - sum(add)
        if last >= 0:
            out.append((won[0] + add[0], won[1] + add[1], won[2] + add[2], won[3] + last))
    return tuple(np.array(out).T)


def _leaf_table(leaf, won: list[int]) -> np.ndarray:
    """The leaf table as float64 ``(14, 14, 14, 14)``, with every reachable entry finite."""
    idx = _reachable(tuple(won))
    if callable(leaf):
        table = np.zeros(LEAF_SHAPE)
        for t in zip(*(i.tolist() for i in idx)):
            table[t] = float(leaf(*t))
    else:
        table = np.ascontiguousarray(leaf, dtype=np.float64)
        if table.shape != LEAF_SHAPE:
            raise ValueError(f"leaf must have shape {LEAF_SHAPE}, not {table.shape}")
    bad = ~np.isfinite(table[idx])
    if bad.any():
        first = tuple(int(i[bad][0]) for i in idx)
        raise ValueError(f"leaf{list(first)} is {table[first]}: every reachable entry must be finite")
    return table


# -- every other table: the side against the rest (engine.table_solver) ------------------------
def _table_hands(hands, rules: Rules, played=(), trick_ids=()) -> tuple[list[CardSet], np.ndarray]:
    """The N hands (``CardSet``s, copies counted) and their engine levels (``uint64[decks * N]``,
    ``engine.copies``). The cards of the trick in progress go back to the seats that played
    them for the deck's check: no card more often than the table's decks hold it."""
    sets = list(rules.parse_hands(hands))
    if trick_ids:
        rules.parse_hands(_before_trick(sets, played, trick_ids))
    return sets, rules.engine_hands(sets)


def _before_trick(sets: list[CardSet], played, trick_ids) -> list[CardSet]:
    """The hands with the cards of the trick in progress (card ids) back where they came from."""
    before = list(sets)
    for s, c in zip(played, trick_ids):
        before[s] = before[s] + CardSet([c])
    return before


def _side(team, rules: Rules) -> int:
    if not is_int(team) or not 0 <= int(team) < rules.n_sides:
        raise ValueError(f"team must be a side 0..{rules.n_sides - 1} of {table_name(rules)}, not {team!r}")
    return int(team)


def _ranked_leaf(rules: Rules, n: int, won: list[int], leaf) -> np.ndarray:
    """The value of every finish of the ``n`` tricks left (``won`` each seat's tricks so far),
    in ``engine.table_solver.ranked_splits``' order: ``leaf`` a function of the N final counts
    or an array of shape ``(cards_each + 1,) * N``, every reachable entry finite."""
    final = _ts.ranked_splits(n, rules.as_array()).astype(np.int64) + np.array(won, np.int64)
    if callable(leaf):
        values = np.array([float(leaf(*map(int, row))) for row in final])
    else:
        table = np.asarray(leaf, dtype=np.float64)
        shape = (rules.cards_each + 1,) * rules.players
        if table.shape != shape:
            raise ValueError(f"leaf must be a function of the {rules.players} seats' tricks or an array of shape "
                             f"{shape}, not {table.shape}")
        values = table[tuple(final.T)]
    bad = ~np.isfinite(values)
    if bad.any():
        raise ValueError(f"leaf{final[bad][0].tolist()} is {values[bad][0]}: every reachable entry must be finite")
    return np.ascontiguousarray(values)


def _table_double_dummy(hands, leader, rules: Rules, spades_broken: bool) -> int:
    leader = check_seat(leader, "leader", rules.players)
    sets, levels = _table_hands(hands, rules)
    sizes = [len(h) for h in sets]
    if len(set(sizes)) != 1:
        raise ValueError(f"the {rules.players} hands must be of equal size, not {sizes}")
    n = sizes[0]
    if not 1 <= n <= rules.cards_each:
        raise ValueError(f"hands must hold 1..{rules.cards_each} cards each at {table_name(rules)}, not {n}")
    if n == rules.cards_each:
        _check_first_lead(levels[: rules.players], leader, rules)
    side = side_of(leader, rules)
    r = rules.as_array()
    splits = _ts.ranked_splits(n, r)
    leaf = splits[:, list(side_seats(side, rules))].sum(axis=1).astype(np.float64)
    t = _ts.ranked_table(r, side, n)
    return int(round(_ts.ranked_value(levels, leader, np.zeros(0, np.int64), spades_broken, rules.cards_each - n, t,
                                      leaf, -1)))


def _table_card_values(hands, leader, leaf, team, tricks_won, trick, rules: Rules, spades_broken: bool) -> dict:
    leader = check_seat(leader, "leader", rules.players)
    side = _side(team, rules)
    cards = rules.named_cards(trick)
    if len(cards) >= rules.players:
        raise ValueError(f"a trick in progress holds 0..{rules.players - 1} cards, not {len(cards)}")
    order = seat_order(leader, rules)
    played, seat = order[: len(cards)], order[len(cards)]
    ids = [rules.engine_id(c) for c in cards]
    sets, levels = _table_hands(hands, rules, played, [int(c) for c in cards])
    n = len(sets[seat])
    want = [n - 1 if s in played else n for s in seats(rules)]
    if [len(h) for h in sets] != want:
        raise ValueError(f"with {len(cards)} card(s) in the trick led by seat {leader}, the hands must hold {want} "
                         f"cards, not {[len(h) for h in sets]}")
    if not 1 <= n <= rules.cards_each:
        raise ValueError(f"the seat to act must hold 1..{rules.cards_each} cards, not {n}")
    trick_no = rules.cards_each - n
    won = _tricks_won(tricks_won, trick_no, rules.players)
    if trick_no == 0:
        before = _before_trick(sets, played, [int(c) for c in cards])
        _check_first_lead(rules.engine_hands(before)[: rules.players], leader, rules)
    t = _ts.ranked_table(rules.as_array(), side, n)
    _table_check_trick(sets, played, cards, (leader, spades_broken, trick_no, t), rules)
    values = _ranked_leaf(rules, n, won, leaf)
    ids = np.array(ids, np.int64)
    legal = int(_ts.ranked_legal(levels, leader, ids, spades_broken, trick_no, t))
    return {rules.engine_card(c): float(_ts.ranked_value(levels, leader, ids, spades_broken, trick_no, t, values, c))
            for c in range(56) if legal >> c & 1}


def _table_check_trick(sets, played, cards, where, rules: Rules) -> None:
    """Each card of the trick in progress must have been legal (must win included) from the
    hand it left; ``where`` is ``(leader, spades_broken, trick_no, table)``."""
    leader, broken, trick_no, t = where
    ids = [rules.engine_id(c) for c in cards]
    for i, (s, card) in enumerate(zip(played, cards)):
        before = _before_trick(sets, played[i:], [int(c) for c in cards[i:]])
        legal = int(_ts.ranked_legal(rules.engine_hands(before), leader, np.array(ids[:i], np.int64), broken, trick_no, t))
        if not legal >> ids[i] & 1:
            raise ValueError(f"seat {s} could not play {card} to the trick: its legal cards were {_names(legal, rules)}")
