"""One vocabulary (ARCHITECTURE.md, "The table: seats, sides, decks and copies"): seat arithmetic
for four seats stays in the files that still hold it, and suits have a name of their own, so
that a loop over suits never reads as one over seats."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

from spades_ai import kernels
from spades_ai.cards import Suit
from spades_ai.engine import bits

TOOL = Path(__file__).resolve().parent.parent / "tools" / "house_counts.py"

#: Every file that still writes seat literals (``python tools/house_counts.py --list``), and at
#: most how many lines: only the named four-in-pairs fast path, the partnership solver's node
#: (``engine/exact_node.py``) and its entry points (``engine/solver.py``). Everything else reads
#: the table through ``spades_ai.seats`` or ``engine.seats``, and a loop over suits writes
#: ``range(N_SUITS)``. A line may leave this list; none may join it.
SEAT_LITERAL_FILES = {
    "spades_ai/engine/solver.py": 5,
    "spades_ai/engine/exact_node.py": 5,
}


def house_tool():
    spec = importlib.util.spec_from_file_location("house_counts", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def house_counts():
    return house_tool().counts()


def test_seat_literals_stay_in_the_files_that_still_hold_them():
    found = Counter(place.split(":", 1)[0] for place in house_counts()["seat literals"])
    grown = {f: n for f, n in found.items() if n > SEAT_LITERAL_FILES.get(f, 0)}
    assert not grown, f"seat literals beyond SEAT_LITERAL_FILES (write spades_ai.seats / engine.seats): {grown}"


def test_suits_are_named_apart_from_seats():
    assert kernels.N_SUITS is bits.N_SUITS == len(bits.SUIT_MASK) == len(Suit) == 4
    assert bits.SUIT_MASK[bits.N_SUITS - 1] == bits.SPADES  # the last suit is the trump lane


#: The shape branches left inside kernels, each read once a decision (not per node or card):
#: the learned agent finds its table's model, a search picks its finish (``Finish``).
SHAPE_BRANCHES = {"spades_ai/models/model.py", "spades_ai/montecarlo/finishes.py"}


def test_no_kernel_chooses_a_path_by_the_tables_shape_beyond_the_known_two():
    found = {place.split(":", 1)[0] for place in house_counts()["shape branches inside kernels"]}
    assert found <= SHAPE_BRANCHES, f"a kernel branches on the table's shape: {found - SHAPE_BRANCHES}"


def test_arules_count_is_told_from_a_shape_branch():
    """The end of a trick or of the bidding compares a count of the state with the seats at
    every table; comparing sides with seats, or reading the decks, picks a path by shape."""
    import ast

    tool = house_tool()
    test = lambda src: ast.parse(src).body[0].test  # noqa: E731
    assert tool.rules_count(test("if pub[P_N_BIDS] == n_seats(rules): pass"))
    assert tool.rules_count(test("if rules[R_HOOK] != 0 and pub[P_N_BIDS] == n_seats(rules) - 1: pass"))
    assert not tool.rules_count(test("if n_sides(rules) == n_seats(rules): pass"))
    assert not tool.rules_count(test("if n_decks(rules) > 1: pass"))
    assert not tool.rules_count(test("if params[e] == n_seats(rules): pass"))
