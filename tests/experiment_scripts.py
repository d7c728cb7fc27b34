"""A script of ``experiments/`` imported as a module by a test (the scripts are not a package:
they import each other by name, so the folder is on the path while one is imported)."""

import importlib
import sys
from pathlib import Path

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


def experiment_script(name: str):
    """The module of ``experiments/NAME.py``."""
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(EXPERIMENTS))
