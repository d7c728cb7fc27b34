"""The agent spec grammar: how an agent is written on a command line or in an experiment file.

A built-in name with options, ``"easy:careless=0.5,seed=3"`` (values are TOML: ``64``, ``0.5``,
``true``, ``"x"``), a bot that is a program, ``"cmd:python mybot.py"`` (any command line; the
protocol is ``docs/PROTOCOL.md``), or a user's Python agent ``"package.module:attr"`` (with options after a
further colon, ``"pkg.mod:make_bot:depth=3"``), where ``attr`` is an agent object or a factory
called with the options. This module reads the text; ``agents.spec`` makes entrants of it.

A module that Python's own path (``sys.path``) does not hold is looked for, as ``python -m``
does, in the current folder, and for an agent named in a file (an experiment or bidding TOML)
first in that file's folder (``find_folder``); the folder found is kept with the entrant, so
every worker imports the same file.

>>> split_spec("easy:careless=0.5")
('easy', None, 'careless=0.5')
>>> split_spec("mybots.greedy:Greedy:depth=3")
('python', 'mybots.greedy:Greedy', 'depth=3')
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import tomllib
from pathlib import Path

from spades_ai.errors import TournamentError

#: The built-in agents' names (``agents.registry.BUILTINS`` describes each).
BUILTIN_NAMES = ("random", "easy", "normal", "hard", "crazy", "ismcts", "learned")
_NAME = re.compile(r"^[A-Za-z_][\w.]*$")


def option_value(text: str):
    """``64`` -> 64, ``0.5`` -> 0.5, ``true`` -> True, ``"x"`` or ``x`` -> "x"."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_options(text: str, where: str) -> dict:
    """``"a=1,b=x"`` (or with ``:`` between them) as a dict of TOML values."""
    options = {}
    for item in filter(None, re.split(r"[,:]", text)):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise TournamentError(f"agent {where!r}: option {item!r} is not KEY=VALUE")
        options[key] = option_value(value.strip())
    return options


#: The prefix of a bot that is a program: ``cmd:python mybot.py`` (``agents.program``).
PROGRAM_PREFIX = "cmd"


def split_spec(text: str) -> tuple[str, str | None, str]:
    """(built-in name, None, options text), ("python", "module:attr", options text), or
    ("cmd", None, the command line)."""
    head, _, rest = text.partition(":")
    head = head.strip()
    if head == PROGRAM_PREFIX:
        return head, None, rest.strip()
    if head in BUILTIN_NAMES or "=" in rest.partition(":")[0] or not rest:
        return head, None, rest
    attr, _, opts = rest.partition(":")
    return "python", f"{head}:{attr.strip()}", opts


def check_target(target: str, text: str) -> None:
    """Refuse a ``module:attribute`` that is not two dotted Python names."""
    module, _, attr = target.partition(":")
    if not (_NAME.match(module) and _NAME.match(attr)):
        raise TournamentError(f"agent {text!r} is neither a built-in name nor module:attribute")


def _in_folder(folder: Path, top: str) -> bool:
    """Whether ``folder`` holds the top-level module or package ``top``."""
    return (folder / f"{top}.py").is_file() or (folder / top).is_dir()


def search_folders(base: str | os.PathLike | None = None) -> list[Path]:
    """The folders a user agent's module is looked for in, after Python's path: the folder of
    the file naming it (``base``), then the current folder."""
    folders = [Path(base).resolve()] if base is not None else []
    cwd = Path.cwd().resolve()
    return folders + ([cwd] if cwd not in folders else [])


def find_folder(target: str, base: str | os.PathLike | None = None) -> str | None:
    """Where ``module:attribute``'s module is: None if Python's path holds it (an installed or
    ``PYTHONPATH`` module), else the first of ``search_folders(base)`` that holds it. Raises
    ``TournamentError`` naming every folder searched when none does.

    >>> find_folder("spades_ai.agents.builtin:NORMAL") is None
    True
    """
    module_name = target.partition(":")[0]
    top = module_name.partition(".")[0]
    try:
        if importlib.util.find_spec(top) is not None:
            return None
    except (ImportError, ValueError):
        pass
    folders = search_folders(base)
    for folder in folders:
        if _in_folder(folder, top):
            return str(folder)
    where = ", ".join(str(f) for f in folders)
    raise TournamentError(
        f"agent {target!r}: cannot import module {module_name!r} (No module named {top!r}); "
        f"looked in Python's path (sys.path) and in {where}"
    )


def import_module_of(target: str, folder: str | None):
    """The module of ``target``, with ``folder`` (from ``find_folder``) on Python's path."""
    module_name = target.partition(":")[0]
    if folder is not None and folder not in sys.path:
        sys.path.append(folder)  # after the installed modules: a local file never shadows one
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        where = f" from {folder}" if folder is not None else ""
        raise TournamentError(f"agent {target!r}: cannot import module {module_name!r}{where} ({exc})") from None


def load_target(target: str, options: dict, folder: str | None = None):
    """The agent a user's ``module:attribute`` names: the object itself, or what the factory
    returns when called with ``options``. ``folder``: where ``find_folder`` found the module
    (None: on Python's path)."""
    module_name, _, attr = target.partition(":")
    obj = import_module_of(target, folder)
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise TournamentError(f"agent {target!r}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not (hasattr(obj, "bid") and hasattr(obj, "play")) or isinstance(obj, type):
        if not callable(obj):
            raise TournamentError(f"agent {target!r} is neither an agent (bid and play) nor a factory")
        try:
            obj = obj(**options)
        except Exception as exc:  # noqa: BLE001 -- a user factory may raise anything; report it in one line
            raise TournamentError(f"agent {target!r}: calling it with {options} failed: {exc}") from None
    elif options:
        raise TournamentError(f"agent {target!r} is an agent object, so it takes no options (got {options})")
    if not (hasattr(obj, "bid") and hasattr(obj, "play")):
        raise TournamentError(f"agent {target!r} gave {obj!r}, which is not an agent (it needs bid(obs) and play(obs))")
    return obj
