"""The one table check (``spades_ai.capabilities``): every part that refuses a table refuses it
through ``require_table``, with one error type whose one line names the part, the table and where
the part is documented; and no refusal of a table is written any other way in the package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import spades_ai
from spades_ai import Rules, RulesError, TableError
from spades_ai.testing import CHECKED_TABLES
from spades_ai.capabilities import EVERY_TABLE, FOUR_IN_PAIRS, ONE_DECK, PARTS, Part, Tables, part, plays, require_table

PACKAGE = Path(spades_ai.__file__).parent
TABLES = CHECKED_TABLES


@pytest.mark.parametrize("key", sorted(PARTS))
def test_every_part_names_itself_the_table_and_its_doc(key):
    p = PARTS[key]
    assert p.name and p.tables.words and p.doc.startswith("docs/")
    assert (Path(spades_ai.__file__).parent.parent / p.doc.partition("#")[0]).is_file(), f"{key}: {p.doc} is no file"
    assert p.tables is EVERY_TABLE or p.why, f"{key}: a part that refuses tables says why"
    for name, rules in TABLES.items():
        if plays(rules, key):
            assert require_table(rules, key) is rules
            continue
        with pytest.raises(TableError) as info:
            require_table(rules, key)
        err = info.value
        assert isinstance(err, RulesError) and "\n" not in str(err)
        assert err.part == p.name and err.table == spades_ai.seats.table_name(rules) and err.doc == p.doc
        assert str(err).startswith(p.name) and f"not {err.table}" in str(err) and str(err).endswith(f"({p.doc})")


def test_the_sets_of_tables():
    assert [name for name, r in TABLES.items() if r in FOUR_IN_PAIRS] == ["4 pairs"]
    assert [name for name, r in TABLES.items() if r in ONE_DECK] == ["3", "4 pairs", "4 solo", "5"]
    assert all(r in EVERY_TABLE for r in TABLES.values())
    odd = Part("a test part", Tables("odd numbers of players", lambda r: r.players % 2 == 1), "docs/rules.md", "a test")
    assert require_table(Rules(players=5), odd).players == 5
    with pytest.raises(TableError, match=r"^a test part plays odd numbers of players, not 4 players in pairs: a test \(docs/rules.md\)$"):
        require_table(Rules(), odd)
    with pytest.raises(KeyError, match="no part 'nothing'; parts: "):
        part("nothing")


# -- no refusal written any other way --------------------------------------------------------

#: words of a message that refuses a table (the way the package wrote them before the one check):
#: a table that a part plays, or "not" and the table refused (a message that only names the table
#: it is at, "hands must hold 1..17 cards each at 3 players solo", checks an argument)
REFUSAL_WORDS = re.compile(r"players in pairs|four players|4 players|two partnerships|plays only|four seats"
                           r"|not \{table_name\}", re.I)


def _text(node: ast.AST) -> str:
    """The text of a raise's message, an f-string's ``{table_name(...)}`` written ``{table_name}``."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.JoinedStr):
            for part_ in sub.values:
                if isinstance(part_, ast.Constant):
                    out.append(str(part_.value))
                elif isinstance(part_.value, ast.Call) and getattr(part_.value.func, "id", "") == "table_name":
                    out.append("{table_name}")
                else:
                    out.append("{}")
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub.value)
    return "".join(out)


def _reads_the_table(test: ast.AST) -> bool:
    """Whether an ``if`` tests the table's shape: ``four_in_pairs`` or ``teams``."""
    for sub in ast.walk(test):
        if isinstance(sub, ast.Attribute) and sub.attr in ("four_in_pairs", "teams"):
            return True
    return False


def refusals_written_by_hand(source: str) -> list[int]:
    """Lines of ``source`` that refuse a table without ``require_table``: a raise whose message
    names a table (``table_name(...)`` or the old wordings), or an ``if`` on the table's shape
    whose body raises."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            text = _text(node.exc)
            if REFUSAL_WORDS.search(text):
                lines.append(node.lineno)
        elif isinstance(node, ast.If) and _reads_the_table(node.test):
            body = ast.Module(body=node.body, type_ignores=[])
            if any(isinstance(sub, ast.Raise) for sub in ast.walk(body)):
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_walk_finds_a_refusal_written_by_hand():
    hand_written = '''
def f(rules):
    if not rules.four_in_pairs:
        raise ValueError("no")
    if rules.players != 3:
        raise ValueError(f"plays only 4 players in pairs, not {rules.players}")
    if rules.players == 5:
        raise RulesError(f"not {table_name(rules)}")
    require_table(rules, "pbn")
'''
    assert refusals_written_by_hand(hand_written) == [3, 6, 8]


#: Modules whose errors name a table without refusing one: ``Rules`` validates its own fields
#: (``teams='pairs'`` needs an even number of players, its options at each table), and the
#: conformance check reports the door that answered a table wrongly.
NOT_REFUSALS = {"rules.py", "testing/table.py"}


def test_no_table_is_refused_but_through_require_table():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in NOT_REFUSALS or rel == "capabilities.py":
            continue
        found += [f"spades_ai/{rel}:{line}" for line in refusals_written_by_hand(path.read_text())]
    assert not found, "refuse a table with spades_ai.capabilities.require_table, not by hand:\n" + "\n".join(found)


def test_docs_rules_names_every_refusing_part_and_why():
    text = " ".join((PACKAGE.parent / "docs" / "rules.md").read_text().split())
    missing = [key for key, p in PARTS.items() if p.tables is not EVERY_TABLE and f"{p.name}, {p.tables.words} only: {p.why}" not in text]
    assert not missing, f"docs/rules.md ('What plays where') does not list the parts {missing} and why they refuse"
