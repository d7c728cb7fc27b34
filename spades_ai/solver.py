"""Exact play with every card visible: double dummy and card values for any objective.

``double_dummy`` answers the classic question: how many of the remaining tricks can the team of
the seat on lead take against best defence? ``card_values`` gives the value of each legal card
of the seat to act, from any point of a hand (mid-trick too), when a finished hand is worth
``leaf[t0, t1, t2, t3]`` to one team (seat s ending with ``t_s`` tricks) and the other team
plays to minimize it. A Spades objective (points, bags at their cost, nil, set) is such a table;
``tricks_leaf(team)`` is the plain trick count.

Both are thin, validating wrappers around the numba kernels of ``spades_ai.engine.solver``; each
thread keeps its own transposition table, reused from call to call. Cards are card ids, as
everywhere at the Python face; under ``Rules(jokers=..., deuces_high=...)`` the ids of the
jokers and high deuces name those cards (``BJ`` is id 26, ...: ``Rules.card``), and the search
runs on the engine's layout, where they are trumps above the ace.

>>> double_dummy(["AS KS", "QS JS", "2H 3H", "4H 5H"], leader=0)
2
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from spades_ai.cards import Card
from spades_ai.checks import check_seat, is_int
from spades_ai.engine import solver as _sol
from spades_ai.engine.play import legal_mask
from spades_ai.rules import R_FIRST_LEAD, R_SPADE_LEAD, Rules

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
        if len(self.dd) < _sol.TT_WIDTH << bits:
            self.dd = np.zeros(_sol.TT_WIDTH << bits, np.uint64)
            self.dd_gen = 0
        self.dd_gen = self.dd_gen % _GENERATIONS + 1
        if self.dd_gen == 1:
            self.dd[:] = 0
        return self.dd, self.dd_gen, _shift(bits)

    def take_obj(self, bits: int) -> tuple[np.ndarray, int, int]:
        if len(self.obj) < _sol.TT_WIDTH << bits:
            self.obj = np.zeros(_sol.TT_WIDTH << bits, np.uint64)
            self.obj_gen = 0
        self.obj_gen = self.obj_gen % _GENERATIONS + 1
        if self.obj_gen == 1:
            self.obj[:] = 0
        return self.obj, self.obj_gen, _shift(bits)


def _shift(bits: int) -> int:
    """The kernels' ``shift`` for a table of ``2**bits`` rows in buckets of ``TT_WAYS``."""
    return 64 - bits + _sol.TT_WAYS.bit_length() - 1


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


def _check_first_lead(masks: list[int], leader: int, rules: Rules) -> None:
    """Under ``first_lead="low_club"`` the holder of the lowest club leads the first trick
    (``masks`` in the engine's layout, where a joker or high deuce is no club)."""
    if rules.first_lead != "low_club":
        return
    clubs = (masks[0] | masks[1] | masks[2] | masks[3]) & CLUB_MASK
    low = clubs & -clubs
    holder = next((s for s in range(4) if masks[s] & low), None)
    if holder != leader:
        where = f"{_names(low, rules)} is held by seat {holder}" if holder is not None else "no club is held"
        raise ValueError(f"first_lead='low_club': the first trick is led by the holder of the lowest club, "
                         f"not seat {leader} ({where})")


def double_dummy(hands, leader: int, rules: Rules | None = None, spades_broken: bool = False) -> int:
    """The most tricks the team of ``leader`` can take from here against best defence, with
    every card visible.

    ``hands`` are the four seats' cards, of equal size 1..13 (strings such as ``"AS KS 7H"``,
    lists of cards or ids, or int bitboards; or one string with ``/`` between the hands);
    ``leader`` (0..3) leads the next trick; ``spades_broken`` says whether a spade has been
    played to an earlier trick (taken as given). ``rules`` supplies the spade-lead and
    first-lead options (13 cards each is the first trick). Bad input raises ``ValueError``.

    >>> deal = "QS JS 7H / KS 3S JH / AS 8S 7S / 4S AH QH"
    >>> double_dummy(deal, leader=0), double_dummy(deal, leader=0, spades_broken=True)
    (2, 3)
    """
    rules = _rules(rules)
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
    stats = np.zeros(_sol.STATS, np.int64)
    return int(_sol.dd_tricks(np.array(masks, np.uint64), leader, spades_broken, r[R_SPADE_LEAD], r[R_FIRST_LEAD],
                              tt, gen, shift, stats))


def tricks_leaf(team: int) -> np.ndarray:
    """The leaf table worth the tricks ``team`` takes in the whole hand: with it, ``card_values``
    gives double-dummy trick counts (plus the tricks already won).

    >>> float(tricks_leaf(0)[3, 4, 2, 4])
    5.0
    """
    if team not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team!r}")
    idx = np.indices(LEAF_SHAPE, dtype=np.float64)
    return idx[team] + idx[team + 2]


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
    ``team`` maximizing and the other team minimizing the value of the finished hand.

    ``hands``: the cards each seat still holds (the seats that already played to the current
    trick hold one card fewer). ``leader``: the seat that led (or is to lead) the current
    trick; ``trick``: the cards played to it so far, in order (0..3 cards), so the seat to act
    is ``(leader + len(trick)) % 4``. ``tricks_won``: each seat's tricks in the hand so far
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
    masks = [rules.engine_mask(h) for h in rules.parse_hands(hands)]
    leader = check_seat(leader, "leader")
    if not is_int(team) or int(team) not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team!r}")
    team = int(team)
    spades_broken = _flag(spades_broken, "spades_broken")
    trick_ids = [rules.engine_id(c) for c in rules.named_cards(trick)]
    if len(trick_ids) > 3:
        raise ValueError(f"a trick in progress holds 0..3 cards, not {len(trick_ids)}")
    if len(set(trick_ids)) != len(trick_ids):
        raise ValueError("a card appears twice in the trick")
    trick_mask = sum(1 << c for c in trick_ids)
    for s in range(4):
        if masks[s] & trick_mask:
            raise ValueError(f"seat {s} holds {_names(masks[s] & trick_mask, rules)}, already played to the trick")
    k = len(trick_ids)
    seat = (leader + k) % 4
    n = masks[seat].bit_count()
    played = [(leader + i) % 4 for i in range(k)]
    want = [n - 1 if s in played else n for s in range(4)]
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
    stats = np.zeros(_sol.STATS, np.int64)
    out = np.empty(56)
    _sol.objective_values(np.array(masks, np.uint64), seat, np.array(trick_ids, np.int64), np.array(won, np.int64),
                          spades_broken, team, leaf_arr, r[R_SPADE_LEAD], r[R_FIRST_LEAD], tt, gen, shift, stats,
                          out)
    return {rules.engine_card(c): float(out[c]) for c in np.flatnonzero(~np.isnan(out))}


def _tricks_won(tricks_won, played: int) -> list[int]:
    if tricks_won is None:
        if played:
            raise ValueError(f"tricks_won is needed once tricks have been played ({played} so far)")
        return [0, 0, 0, 0]
    try:
        won = list(tricks_won)
    except TypeError:
        raise ValueError(f"tricks_won must be four counts, not {tricks_won!r}") from None
    if len(won) != 4 or any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0 for t in won):
        raise ValueError(f"tricks_won must be four counts >= 0, not {tricks_won!r}")
    won = [int(t) for t in won]
    if sum(won) != played:
        raise ValueError(f"tricks_won {won} sum to {sum(won)}, but {played} trick(s) have been played")
    return won


def _check_trick(masks, leader, trick_ids, broken, trick_no, rules) -> None:
    """Each card of the trick in progress must have been legal from the hand it left."""
    r = rules.as_array()
    led = -1
    for i, c in enumerate(trick_ids):
        s = (leader + i) % 4
        hand = masks[s] | (1 << c)
        legal = int(legal_mask(np.uint64(hand), led, broken, trick_no, r[R_SPADE_LEAD], r[R_FIRST_LEAD]))
        if not legal >> c & 1:
            raise ValueError(f"seat {s} could not play {rules.engine_card(c)} to the trick: its legal cards were "
                             f"{_names(legal, rules)}")
        if i == 0:
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
