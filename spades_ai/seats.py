"""Seats and sides of a table: the one vocabulary for who sits where and who scores together.

Seats are 0..players-1, clockwise; the dealer's left is the next seat. A *side* is what scores:
with ``teams="pairs"`` seat s and seat s + players/2 are partners (opposite, as at 4 players)
and side k is seats k and k + n_sides; solo, every seat is its own side. In both cases a seat's
side is ``seat % n_sides``, which is the one expression the kernels use too
(``engine.seats``). Write these names, never seat arithmetic for four seats. ``Seat`` is a seat
of a given table with its partner, neighbours and side as attributes. A *table* here is its
``Rules``, or a number of players (their default teams: pairs at four, solo otherwise).

>>> from spades_ai.rules import Rules
>>> six, three = Rules(players=6, teams="pairs"), Rules(players=3)
>>> side_of(4, six), partner(1, six), side_seats(1, six)
(1, 4, (1, 4))
>>> side_of(2, three), partner(2, three), side_seats(2, three)
(2, None, (2,))
>>> seat_order(2, three)
[2, 0, 1]
>>> Seat(5, 8).left, Seat(5, Rules(players=8, teams="pairs")).partner
(Seat(6, 8), Seat(1, Rules(players=8, teams='pairs')))
"""

from __future__ import annotations

from spades_ai.checks import is_int
from spades_ai.rules import Rules


def table_rules(table: Rules | int | None = None) -> Rules:
    """The rules of ``table``: a ``Rules`` itself, a number of players at their default teams,
    or None for four in pairs."""
    if table is None:
        return Rules()
    if isinstance(table, Rules):
        return table
    if is_int(table):
        return Rules(players=int(table))
    raise TypeError(f"a table is a spades_ai.Rules or a number of players, not {type(table).__name__}")


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


class Seat(int):
    """A seat of a table, clockwise from 0: ``table`` is its ``Rules`` or its number of players,
    four in pairs by default. ``.left`` plays next, ``.partner`` sits ``n_sides`` seats on (None
    solo), ``.side`` scores (``.team`` is its name from the partnership game). A value that is
    not a seat of the table raises ``ValueError`` naming the table.

    >>> s = Seat(1); (s.partner, s.left, s.right, s.side)
    (Seat(3), Seat(2), Seat(0), 1)
    >>> Seat(2, 3).partner is None, Seat(2, 3).left
    (True, Seat(0, 3))
    """

    def __new__(cls, value, table: Rules | int | None = None) -> Seat:
        rules = table_rules(table)
        if not is_int(value) or not 0 <= value < rules.players:
            raise ValueError(f"a seat of {table_name(rules)} is an int in 0..{rules.players - 1}, not {value!r}")
        seat = super().__new__(cls, int(value))
        seat.rules = rules
        return seat

    def __getnewargs__(self) -> tuple:
        return int(self), self.rules

    def _at(self, seat: int) -> Seat:
        return Seat(seat, self.rules)

    @property
    def partner(self) -> Seat | None:
        """The seat's partner, or None solo."""
        other = partner(self, self.rules)
        return None if other is None else self._at(other)

    @property
    def left(self) -> Seat:
        """The seat to this one's left, which plays next (clockwise)."""
        return self._at(left_of(self, self.rules))

    @property
    def right(self) -> Seat:
        """The seat to this one's right, which played before it."""
        return self._at((int(self) - 1) % self.rules.players)

    @property
    def side(self) -> int:
        """The side this seat scores for."""
        return side_of(self, self.rules)

    team = side

    def __repr__(self) -> str:
        # the arguments that rebuild it, each left out where it is the constructor's default
        r = self.rules
        if r.teams != table_rules(r.players).teams:
            return f"Seat({int(self)}, Rules(players={r.players}, teams={r.teams!r}))"
        if r.players == table_rules(None).players:
            return f"Seat({int(self)})"
        return f"Seat({int(self)}, {r.players})"
