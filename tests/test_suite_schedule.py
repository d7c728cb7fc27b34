"""The suite's own scheduler (``tests/conftest.py``): the named units first, the files of
``SPREAD`` test by test and last, the order within a file kept."""

from pathlib import Path

import conftest
from conftest import longest_first


def test_the_named_units_go_first_and_the_rest_most_tests_first(monkeypatch):
    monkeypatch.setattr(conftest, "FIRST", ("tests/test_d.py", "tests/test_c.py"))
    ids = ["tests/test_a.py::t1", "tests/test_b.py::t1", "tests/test_b.py::t2", "tests/test_c.py::t1",
           "tests/test_d.py::t1", "tests/test_d.py::t2"]  # fmt: skip
    assert longest_first(ids) == [
        "tests/test_d.py::t1", "tests/test_d.py::t2", "tests/test_c.py::t1",
        "tests/test_b.py::t1", "tests/test_b.py::t2", "tests/test_a.py::t1",
    ]  # fmt: skip


def test_a_spread_file_is_a_unit_a_test_after_every_other_file(monkeypatch):
    monkeypatch.setattr(conftest, "FIRST", ())
    monkeypatch.setattr(conftest, "SPREAD", frozenset({"tests/test_s.py"}))
    ids = ["tests/test_s.py::t[a]", "tests/test_s.py::t[b]", "tests/test_f.py::t1", "tests/test_f.py::t2",
           "spades_ai/cards.py::spades_ai.cards.Card"]  # fmt: skip
    assert [conftest._scope(i) for i in ids] == [
        "tests/test_s.py::t[a]", "tests/test_s.py::t[b]", "tests/test_f.py", "tests/test_f.py", "spades_ai/cards.py",
    ]  # fmt: skip
    assert longest_first(ids) == [
        "tests/test_f.py::t1", "tests/test_f.py::t2", "spades_ai/cards.py::spades_ai.cards.Card",
        "tests/test_s.py::t[a]", "tests/test_s.py::t[b]",
    ]  # fmt: skip


def test_the_named_files_and_tests_exist():
    """A renamed file or test would silently lose its place."""
    root = Path(conftest.__file__).resolve().parent.parent
    assert all((root / name).is_file() for name in conftest.SPREAD)
    for unit in conftest.FIRST:
        path, _, test = unit.partition("::")
        assert (root / path).is_file(), unit
        assert not test or f"def {test}(" in (root / path).read_text(), unit
