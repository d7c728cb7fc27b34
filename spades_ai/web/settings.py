"""The settings before PLAY: the level, the turn timer, the table (3 to 12 players, solo or in
pairs; two decks from 6 players, three from 9) and every house rule the engine offers, as a form.

``rules_form(base)`` describes each field of ``Rules`` for the page (its kind, its choices, its
value in ``base`` and the first sentence of its docstring); ``rules_from_form(base, given)``
checks what the page sent, field by field (a number must fit the engine's 64 bits), and builds
the ``Rules`` (whose own checks say which combinations are refused: pairs need an even number
of players, must win needs solo). ``TIMERS`` are the turn timers of docs/rules.md (off, 7, 15, 30 or 60
seconds; ``check_timer``). The browser table bounds a match's length, and so its memory:
``target_score`` at most ``MAX_TARGET``, ``max_hands`` at most ``MAX_HANDS``.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import typing


from spades_ai.errors import RulesError
from spades_ai.render.text import TABLE_SEATS
from spades_ai.rules import BIDDINGS, EQUAL_CARDS, FAILED_BIDS, FIRST_LEADS, SPADE_LEADS, TEAMS, Rules
from spades_ai.table.game import LEVELS

MAX_TARGET = 2000
MAX_HANDS = 100
#: The tables the browser table seats: 3 to 12 players (``render.text.TABLE_SEATS``).
PLAYERS = tuple(TABLE_SEATS)
CHOICES = {"spade_lead": SPADE_LEADS, "first_lead": FIRST_LEADS, "bidding": BIDDINGS, "players": PLAYERS,
           "teams": TEAMS, "failed_bid": FAILED_BIDS, "equal_cards": EQUAL_CARDS}
#: The turn timers of docs/rules.md, in seconds (None: off, the default): Fast 7, Standard
#: 15, Slow 30, Very Slow 60. When yours runs out the table plays Normal's choice for you.
TIMERS = (None, 7, 15, 30, 60)
#: The lengths of a match the settings offer first (the online tables players know: 500 or 250 points).
TARGETS = (500, 250)


@functools.cache
def field_docs() -> dict[str, str]:
    """The first sentence of each ``Rules`` field's docstring (the string under the field)."""
    tree = ast.parse(inspect.getsource(Rules))
    body = tree.body[0].body
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            text = " ".join(str(after.value.value).split())
            docs[node.target.id] = text.split(". ")[0].rstrip(".") + "."
    return docs


def _kind(field: dataclasses.Field) -> tuple[str, bool]:
    """(``bool``, ``int`` or ``choice``; whether None, "off", is allowed)."""
    hint = typing.get_type_hints(Rules)[field.name]
    args = typing.get_args(hint)
    optional = type(None) in args
    base = next(a for a in args if a is not type(None)) if optional else hint
    if field.name in CHOICES:
        return "choice", False  # teams: None (the table's default) is resolved before the form
    return ("bool" if base is bool else "int"), optional


def rules_form(base: Rules) -> list[dict]:
    """Every rules field as the page draws it (see the module docstring)."""
    docs = field_docs()
    out = []
    for field in dataclasses.fields(Rules):
        kind, optional = _kind(field)
        entry = {"name": field.name, "kind": kind, "optional": optional, "value": getattr(base, field.name),
                 "doc": docs.get(field.name, "")}
        if kind == "choice":
            entry["choices"] = list(CHOICES[field.name])
        out.append(entry)
    return out


def rules_from_form(base: Rules, given) -> Rules:
    """``base`` with the fields of ``given`` (a JSON object from the page) changed; a wrong
    field, type or value raises ``RulesError`` naming it. ``players`` without ``teams`` takes
    that table's sides (pairs at four, solo otherwise)."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise RulesError(f"rules must be an object of fields, not {type(given).__name__}")
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    values = base.to_dict()
    for name, value in given.items():
        if name not in fields:
            raise RulesError(f"unknown rules field {name!r}; valid fields: {', '.join(sorted(fields))}")
        kind, optional = _kind(fields[name])
        if value is None:
            if not optional:
                raise RulesError(f"rules field {name!r} cannot be off")
        elif kind == "bool" and not isinstance(value, bool):
            raise RulesError(f"rules field {name!r} is true or false, not {value!r}")
        elif kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(f"rules field {name!r} is a whole number, not {value!r}")
        elif kind == "choice" and value not in CHOICES[name]:
            raise RulesError(f"rules field {name!r} is one of {', '.join(map(str, CHOICES[name]))}, not {value!r}")
        values[name] = value
    if "players" in given and "teams" not in given:
        values["teams"] = None  # the sides follow the players: pairs at four, solo otherwise
    rules = Rules.from_dict(values)
    if rules.target_score is not None and rules.target_score > MAX_TARGET:
        raise RulesError(f"the browser table plays to at most {MAX_TARGET} points, not {rules.target_score}")
    if rules.max_hands is not None and rules.max_hands > MAX_HANDS:
        raise RulesError(f"the browser table plays at most {MAX_HANDS} hands, not {rules.max_hands}")
    if rules.target_score is None and rules.max_hands is None:
        raise RulesError("a match needs a target score or a number of hands")
    rules.as_array()  # what the kernels read, made now: a match is never built on rules it cannot take
    return rules


def check_level(level) -> str:
    """A level of the opponents (``LEVELS``), or ``ValueError`` naming the levels."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return level


def check_timer(timer) -> int | None:
    """A turn timer in seconds (``TIMERS``; None: off), or ``ValueError`` naming the field."""
    if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int) or timer not in TIMERS):
        raise ValueError(f"field 'timer' is one of {', '.join('off' if t is None else str(t) for t in TIMERS)} "
                         f"(seconds; null: off), not {timer!r}")
    return timer


def table_choices() -> list[dict]:
    """The tables a match may be played at: each number of players with the sides it may be
    played in, as the rules allow them (pairs only at an even number)."""
    out = []
    for n in PLAYERS:
        allowed = []
        for teams in TEAMS:
            try:
                Rules(players=n, teams=teams)
            except RulesError:
                continue
            allowed.append(teams)
        out.append({"players": n, "teams": allowed, "default": Rules(players=n).teams})
    return out


def settings_form(base: Rules, level: str) -> dict:
    """What the settings screen offers: the levels, the turn timers, the usual targets (and the
    server's own, if another; None: no target, a number of hands), the tables (``table_choices``)
    and every rules field."""
    targets = list(TARGETS) + ([base.target_score] if base.target_score not in TARGETS else [])
    return {"levels": list(LEVELS), "level": level, "timers": list(TIMERS), "timer": None, "targets": targets,
            "tables": table_choices(), "rules": rules_form(base)}
