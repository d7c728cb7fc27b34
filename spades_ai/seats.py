"""Seats and sides of a table: the one vocabulary for who sits where and who scores together.

Seats are 0..players-1, clockwise; the dealer's left is the next seat. A *side* is what scores:
with ``teams="pairs"`` seat s and seat s + players/2 are partners (opposite, as at 4 players)
and side k is seats k and k + n_sides; solo, every seat is its own side. In both cases a seat's
side is ``seat % n_sides``, which is the one expression the kernels use too
(``engine.seats``). Write these names instead of ``range(4)``, ``% 4``, ``seat & 1`` or
``seat ^ 2``.

>>> from spades_ai.rules import Rules
>>> four, three = Rules(), Rules(players=3)
>>> side_of(3, four), partner(1, four), side_seats(1, four)
(1, 3, (1, 3))
>>> side_of(2, three), partner(2, three), side_seats(2, three)
(2, None, (2,))
>>> seat_order(2, three)
[2, 0, 1]
"""

from __future__ import annotations

from spades_ai.rules import Rules


def seats(rules: Rules) -> range:
    """Every seat of the table, 0..players-1."""
    return range(rules.players)


def sides(rules: Rules) -> range:
    """Every side of the table, 0..n_sides-1."""
    return range(rules.n_sides)


def side_of(seat: int, rules: Rules) -> int:
    """The side seat ``seat`` scores for."""
    return int(seat) % rules.n_sides


def partner(seat: int, rules: Rules) -> int | None:
    """The seat's partner, or None solo."""
    if rules.teams != "pairs":
        return None
    return (int(seat) + rules.n_sides) % rules.players


def side_seats(side: int, rules: Rules) -> tuple[int, ...]:
    """The seats of a side, its first seat first: ``(k, k + n_sides)`` with pairs, ``(k,)`` solo."""
    return tuple(range(int(side), rules.players, rules.n_sides))


def left_of(seat: int, rules: Rules) -> int:
    """The seat to this one's left, which plays after it."""
    return (int(seat) + 1) % rules.players


def cards_dealt(rules: Rules) -> int:
    """Cards dealt in a hand, every seat's ``cards_each``: the cards a hand's play holds."""
    return rules.players * rules.cards_each


def table_name(rules: Rules) -> str:
    """The table in words: ``"4 players in pairs"``, ``"3 players solo"``."""
    return f"{rules.players} players {'in pairs' if rules.teams == 'pairs' else 'solo'}"


def seat_order(first: int, rules: Rules) -> list[int]:
    """Every seat once, clockwise from ``first``."""
    return [(int(first) + k) % rules.players for k in seats(rules)]
