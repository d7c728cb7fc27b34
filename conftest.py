"""pytest collects the package's doctests too: skip the adapters whose framework is missing
(``pip install -e ".[test]"`` installs both)."""

import importlib.util

collect_ignore = [
    path
    for path, module in (
        ("spades_ai/interop/openspiel.py", "pyspiel"),
        ("spades_ai/interop/pettingzoo.py", "pettingzoo"),
    )
    if importlib.util.find_spec(module) is None
]
