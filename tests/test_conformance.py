"""The conformance check (``spades_ai.testing.check_table``) at the eight tables of issue 42: every
public door plays the table with its shape or refuses it through the one table check, and
docs/rules.md's table of what plays where says the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spades_ai import Rules
from spades_ai.capabilities import Part, Tables
from spades_ai.testing.table import DOOR_NAMES, DOORS, Door, TableCheckError, Visit, _visit
from spades_ai.errors import TableError
from spades_ai.testing import CHECKED_TABLES, check_table

DOCS = Path(__file__).parent.parent / "docs" / "rules.md"
TABLES = CHECKED_TABLES


def documented() -> dict[str, dict[str, str]]:
    """docs/rules.md's table "What plays where": door -> table column -> plays / refuses."""
    text = DOCS.read_text()
    section = text[text.index("## What plays where") :]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    head = [c.strip() for c in rows[0].strip("|").split("|")]
    out = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        door = cells[0].strip("`")
        out[door] = {col: {"yes": "plays", "no": "refuses"}[cells[k]] for k, col in enumerate(head) if col in TABLES}
    return out


@pytest.mark.parametrize("name", list(TABLES))
def test_every_door_plays_or_refuses_by_name(name):
    report = check_table(TABLES[name], "normal")
    assert [r.door for r in report.results] == list(DOOR_NAMES)
    refused = [r for r in report.results if r.outcome == "refuses"]
    assert all(r.detail.endswith(")") and "not " in r.detail for r in refused)
    doc = documented()
    for r in report.results:
        if r.outcome != "skipped":
            assert doc[r.door][name] == r.outcome, f"docs/rules.md says {r.door!r} {doc[r.door][name]} at {name}; it {r.outcome}"


def test_the_protocol_door_ends_the_bot_it_started():
    """The check's bot lives in the check's own folder: no process of it outlives the check."""
    import psutil

    report = check_table(TABLES["3"], "normal", doors=["protocol"])
    assert [r.outcome for r in report.results] == ["plays"]
    bots = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and any("first_legal_bot.py" in a for a in child.cmdline()):
                bots.append(child)
        except psutil.NoSuchProcess:
            pass
    assert not bots, bots


def test_the_docs_table_lists_every_door_once():
    assert sorted(documented()) == sorted(DOOR_NAMES)


def _visit_one(door: Door, rules: Rules = Rules(players=3)):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return _visit(door, Visit(rules, None, 0, Path(folder), None))


def test_a_door_that_crashes_or_refuses_by_hand_fails_the_check():
    def crash(v):
        raise IndexError("list index out of range")

    def by_hand(v):
        raise ValueError("plays only 4 players")

    for run in (crash, by_hand):
        with pytest.raises(TableCheckError, match=r"3 players solo: door 'x' raised"):
            _visit_one(Door("x", run))


def test_a_refusal_must_agree_with_the_declared_part(monkeypatch):
    from spades_ai import capabilities

    monkeypatch.setitem(capabilities.PARTS, "test part", Part("a test part", Tables("odd", lambda r: r.players % 2), "docs/rules.md", "a test"))

    def refuse(v):
        raise TableError("no", part="a test part")

    with pytest.raises(TableCheckError, match="refused a table its part 'a test part' declares it plays"):
        _visit_one(Door("x", refuse, part="test part"))
    with pytest.raises(TableCheckError, match="answered a table its part 'a test part' declares it does not play"):
        _visit_one(Door("x", lambda v: "fine", part="test part"), Rules())
    assert _visit_one(Door("x", refuse, part="test part"), Rules()).outcome == "refuses"


def test_an_answer_of_the_wrong_shape_fails_the_check():
    def four_seats(v):
        v.expect(False, "deal() gave 4 hands")

    with pytest.raises(TableCheckError, match=r"door 'x', 3 players solo: deal\(\) gave 4 hands"):
        _visit_one(Door("x", four_seats))


def test_doors_are_chosen_by_name():
    report = check_table(Rules(players=5), doors=["deal"])
    assert [r.door for r in report.results] == ["deal"] and report.outcome("deal") == "plays"
    with pytest.raises(ValueError, match=re.escape("no door 'dael'; doors: deal, hand")):
        check_table(Rules(players=5), doors=["dael"])
    assert [d.name for d in DOORS] == list(DOOR_NAMES)
