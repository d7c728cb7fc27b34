"""Which tables each public part plays, and the one check that refuses the others.

A *table* is the number of players and whether they sit solo or in pairs; the decks, the cards
removed and the cards each follow from it (``Rules.TABLES``, docs/rules.md). Every public part
of the toolkit (a *door*: the solver, review, the SVG picture, PBN records, the bot protocol, an
agent, ...) declares the tables it plays as a ``Part`` in ``PARTS``, and refuses any other
through ``require_table``, which raises one error type, ``TableError`` (a ``RulesError``), whose
one line names the part, the table and where the part is documented. No part reads four seats
out of another table: where a part cannot play a table, it refuses.

>>> from spades_ai.rules import Rules
>>> require_table(Rules(), "pbn").players
4
>>> require_table(Rules(players=3), "pbn")
Traceback (most recent call last):
...
spades_ai.errors.TableError: PBN records play 4 players in pairs, not 3 players solo: PBN is a four-hand bridge format (S W N E); save the JSON record instead (docs/playing.md#records)
>>> plays(Rules(players=8), "pbn")
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from spades_ai.errors import TableError
from spades_ai.rules import Rules
from spades_ai.seats import table_name


@dataclass(frozen=True)
class Tables:
    """A set of tables, in words and as a test of the rules."""

    words: str
    test: Callable[[Rules], bool]

    def __contains__(self, rules: Rules) -> bool:
        return bool(self.test(rules))


#: every table of the rules: 3 to 12 players, solo or in pairs, one to three decks
EVERY_TABLE = Tables("every table of 3 to 12 players", lambda rules: True)
#: the default table: four players in two partnerships
FOUR_IN_PAIRS = Tables("4 players in pairs", lambda rules: rules.players == 4 and rules.teams == "pairs")
#: the tables of partnerships: an even number of players, ``teams="pairs"``
PAIRS = Tables("tables in pairs", lambda rules: rules.teams == "pairs")
#: the tables of one deck, where no card repeats: 3 to 5 players
ONE_DECK = Tables("3 to 5 players (one deck)", lambda rules: rules.decks == 1)
#: the tables the learned agent has a shipped model of, ``(players, teams)``
#: (``models.model.TABLE_MODELS`` names each one's file)
LEARNED_TABLES = ((4, "pairs"), (3, "solo"), (4, "solo"), (5, "solo"), (6, "pairs"))
LEARNED = Tables("4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs",
                 lambda rules: (rules.players, rules.teams) in LEARNED_TABLES)


@dataclass(frozen=True)
class Part:
    """A public part of the toolkit and the tables it plays.

    ``name`` is how an error names it (``"the SVG picture"``), ``doc`` where it is documented,
    ``why`` why the other tables are refused (empty for a part that plays every table)."""

    name: str
    tables: Tables
    doc: str
    why: str = ""

    def refusal(self, rules: Rules) -> TableError:
        """The error that refuses ``rules``' table for this part."""
        why = f": {self.why}" if self.why else ""
        return TableError(f"{self.name} play{'s' if not self.name.endswith('s') else ''} {self.tables.words}, "
                          f"not {table_name(rules)}{why} ({self.doc})", part=self.name, table=table_name(rules), doc=self.doc)


#: Every public part that does not play every table, by key (``require_table(rules, key)``), and
#: those that do, so that docs/rules.md's table of what plays where and the conformance check
#: (``spades_ai.testing.check_table``) read one list.
PARTS: dict[str, Part] = {
    "pbn": Part("PBN records", FOUR_IN_PAIRS, "docs/playing.md#records",
                "PBN is a four-hand bridge format (S W N E); save the JSON record instead"),
    "learned": Part("agent 'learned'", LEARNED, "docs/learning.md#at-every-table-the-learned-agent",
                    "its networks read the observation of a table and were fitted there; those tables have a model"),
    "ismcts": Part("agent 'ismcts'", EVERY_TABLE, "docs/agents.md"),
    "learning": Part("the learning environment", EVERY_TABLE, "docs/learning.md"),
    "partnership": Part("a partnership entrant", PAIRS, "docs/tournaments.md",
                        "solo, every seat is its own side and has no partner"),
    "partners": Part("the partner study", FOUR_IN_PAIRS, "docs/analysis.md",
                     "it compares each agent's value in the two partnerships of that table"),
    "adapters": Part("the OpenSpiel and PettingZoo adapters", EVERY_TABLE, "docs/interop.md"),
    "protocol": Part("the bot protocol", EVERY_TABLE, "docs/PROTOCOL.md"),
    "protocol 1": Part("a bot of protocol 1", FOUR_IN_PAIRS, "docs/PROTOCOL.md#versions",
                       "version 1 speaks of four seats in two pairs; a bot answering the hello with protocol 2 "
                       "plays every table"),
    "svg": Part("the SVG picture", EVERY_TABLE, "docs/playing.md#see-a-hand"),
    "records": Part("JSON hand records", EVERY_TABLE, "docs/playing.md#records"),
    "recorded hands": Part("datasets of recorded hands", FOUR_IN_PAIRS, "docs/learning.md",
                     "the learned models' rows hold four players in pairs; replay the run, or export it with --json"),
    "replay": Part("the replay of --keep-plays runs", EVERY_TABLE, "docs/playing.md#replay-a-hand"),
    "dataset": Part("decision datasets", EVERY_TABLE, "docs/learning.md#datasets"),
    "play_model": Part("a learned play model (play_model=)", FOUR_IN_PAIRS, "docs/agents.md#monte-carlo-from-python",
                       "the model is a model of that table; reading the play without it plays any table of one deck"),
    "play_noise": Part("reading the play (play_noise=)", ONE_DECK, "docs/agents.md#monte-carlo-from-python",
                       "its replay holds one copy of each card, so a seat that played both copies of a card breaks it"),
    "solver": Part("the exact solver", EVERY_TABLE, "docs/analysis.md#exact-play-double-dummy"),
    "review": Part("review", EVERY_TABLE, "docs/playing.md#where-were-points-lost"),
    "whole_deal": Part("review's whole-deal double dummy", FOUR_IN_PAIRS, "docs/playing.md#where-were-points-lost",
                       "the solver of the other tables has no transposition table: a whole deal is out of its reach; "
                       "review the last tricks instead"),
}


def part(key: str | Part) -> Part:
    """The ``Part`` of ``key`` (a ``Part`` is returned as it is); ``KeyError`` naming the keys."""
    if isinstance(key, Part):
        return key
    try:
        return PARTS[key]
    except KeyError:
        raise KeyError(f"no part {key!r}; parts: {', '.join(sorted(PARTS))}") from None


def plays(rules: Rules, key: str | Part) -> bool:
    """Whether the part plays the table of ``rules``."""
    return rules in part(key).tables


def require_table(rules: Rules, key: str | Part) -> Rules:
    """``rules`` if the part plays its table, else ``TableError`` naming the part, the table,
    why, and where the part is documented. The one way a part refuses a table."""
    p = part(key)
    if rules not in p.tables:
        raise p.refusal(rules)
    return rules
