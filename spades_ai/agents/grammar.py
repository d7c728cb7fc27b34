"""The agent spec grammar: how an agent is written on a command line or in an experiment file.

A built-in name with options, ``"easy:careless=0.5,seed=3"`` (values are TOML: ``64``, ``0.5``,
``true``, ``"x"``), or a user's Python agent ``"package.module:attr"`` (with options after a
further colon, ``"pkg.mod:make_bot:depth=3"``), where ``attr`` is an agent object or a factory
called with the options. This module reads the text; ``agents.spec`` makes entrants of it.

>>> split_spec("easy:careless=0.5")
('easy', None, 'careless=0.5')
>>> split_spec("mybots.greedy:Greedy:depth=3")
('python', 'mybots.greedy:Greedy', 'depth=3')
"""

from __future__ import annotations

import importlib
import re
import tomllib

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


def split_spec(text: str) -> tuple[str, str | None, str]:
    """(built-in name, None, options text) or ("python", "module:attr", options text)."""
    head, _, rest = text.partition(":")
    head = head.strip()
    if head in BUILTIN_NAMES or "=" in rest.partition(":")[0] or not rest:
        return head, None, rest
    attr, _, opts = rest.partition(":")
    return "python", f"{head}:{attr.strip()}", opts


def check_target(target: str, text: str) -> None:
    """Refuse a ``module:attribute`` that is not two dotted Python names."""
    module, _, attr = target.partition(":")
    if not (_NAME.match(module) and _NAME.match(attr)):
        raise TournamentError(f"agent {text!r} is neither a built-in name nor module:attribute")


def load_target(target: str, options: dict):
    """The agent a user's ``module:attribute`` names: the object itself, or what the factory
    returns when called with ``options``."""
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise TournamentError(f"agent {target!r}: cannot import module {module_name!r} ({exc})") from None
    obj = module
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
