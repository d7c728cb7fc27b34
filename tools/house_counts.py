"""The house's counts (issue 43): functions over 60 lines, functions over 10 parameters, seat
literals, and branches on the table's shape inside numba kernels, in ``spades_ai/``.

    python tools/house_counts.py            # the four counts
    python tools/house_counts.py --list     # and every place counted

A *seat literal* is a line that writes seat arithmetic for four seats: ``range(4)``, ``% 4``,
``& 3``, ``& 1`` or ``^ 2`` on a seat or side, ``[0, 2]``-style partner pairs. A *shape branch*
is an ``if`` inside a function decorated as a kernel whose test calls ``solver_fits``,
``exact_fits``, ``n_seats``, ``n_sides`` or ``n_decks``, except a *rule's count*: a test that
compares a count read from the public state (``pub``) with ``n_seats`` alone, as the end of a
trick (every seat has played) or of the bidding (every seat has bid) is written at every table.
Those are listed apart, not counted.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "spades_ai"
SEAT_LITERAL = re.compile(r"range\(4\)|%\s*4\b|&\s*3\b|\bseat\s*&\s*1\b|\bside\s*&\s*1\b|\^\s*2\b|\(0, 2\)|\(1, 3\)")
SHAPE_CALLS = {"solver_fits", "exact_fits", "n_seats", "n_sides", "n_decks"}
KERNEL_DECORATORS = {"kernel", "inline_kernel", "hot_kernel", "njit", "jit"}


def _decorated_kernel(fn: ast.FunctionDef) -> bool:
    for d in fn.decorator_list:
        name = d.func if isinstance(d, ast.Call) else d
        name = name.attr if isinstance(name, ast.Attribute) else getattr(name, "id", "")
        if name in KERNEL_DECORATORS:
            return True
    return False


def _calls(node: ast.AST) -> set[str]:
    return {getattr(n.func, "id", getattr(n.func, "attr", "")) for n in ast.walk(node) if isinstance(n, ast.Call)}


#: The list of rules' counts: shown with ``--list``, left out of the counts.
RULES_COUNTS = "rules' counts inside kernels (not counted)"


def rules_count(test: ast.AST) -> bool:
    """``pub[P_N_BIDS] == n_seats(rules)`` and the like: a count of the state against the seats
    (each part of an ``and`` / ``or`` that reads the table)."""
    if isinstance(test, ast.BoolOp):
        return all(rules_count(v) for v in test.values if _calls(v) & SHAPE_CALLS)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or _calls(test) & SHAPE_CALLS != {"n_seats"}:
        return False
    sides = [test.left, test.comparators[0]]
    state = [s for s in sides if "n_seats" not in _calls(s)]
    return len(state) == 1 and any(isinstance(n, ast.Name) and n.id == "pub" for n in ast.walk(state[0]))


def counts() -> dict[str, list[str]]:
    out = {"functions over 60 lines": [], "functions over 10 parameters": [], "seat literals": [],
           "shape branches inside kernels": [], RULES_COUNTS: []}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        text = path.read_text()
        for no, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if SEAT_LITERAL.search(code) and not code.lstrip().startswith(('"', "'")):
                out["seat literals"].append(f"{rel}:{no}: {line.strip()}")
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = fn.end_lineno - fn.lineno + 1
            if length > 60:
                out["functions over 60 lines"].append(f"{rel}:{fn.lineno}: {fn.name} ({length} lines)")
            a = fn.args
            params = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)
            params -= bool(a.args) and a.args[0].arg in ("self", "cls")
            if params > 10:
                out["functions over 10 parameters"].append(f"{rel}:{fn.lineno}: {fn.name} ({params})")
            if _decorated_kernel(fn):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.If, ast.IfExp)) and _calls(node.test) & SHAPE_CALLS:
                        kind = RULES_COUNTS if rules_count(node.test) else "shape branches inside kernels"
                        out[kind].append(f"{rel}:{node.lineno}: in {fn.name}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list every place counted")
    args = parser.parse_args()
    for name, places in counts().items():
        if name == RULES_COUNTS and not args.list:
            continue
        print(f"{name}: {len(places)}")
        if args.list:
            print("\n".join(f"    {p}" for p in places))


if __name__ == "__main__":
    main()
