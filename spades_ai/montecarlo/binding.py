"""The Monte Carlo templates bound to a rollout policy: ``make_agent("hard", rollout=agent)``.

The kernels that call the rollout policy live in three template modules, ``rollouts``,
``search`` and ``tree_search`` (``spades_ai.templates``); ``bound(policy)`` is a copy of the three
bound to ``policy`` (a kernel agent), and ``bound()`` this package itself (Normal, its
``_binding``, with every part of the search). A copy may leave out the search's optional parts
(exact finishes, weighted worlds) for an agent that never uses them. Everything else of the
library is shared by every binding.

>>> from spades_ai import make_agent
>>> bound(make_agent("easy")).search.mc_agent_play.__module__.startswith("spades_ai_bound_rollout_")
True
"""

from __future__ import annotations

import hashlib
import importlib
import io
import types
from pathlib import Path

import numpy as np

from spades_ai.engine.jit import cache_dir
from spades_ai.folders import write_atomic
from spades_ai.templates import GENERATED, bind

TEMPLATES = ("rollouts", "search", "tree_search")
_PACKAGE = "spades_ai.montecarlo"
#: A policy with more params than this keeps them in a file of the kernel cache folder, read by
#: its binding (``policy_params``), not as a literal: the learned agent's 577,742 were 12 MB of
#: generated source, about 10 s to write and parse in every process that built the copy.
LITERAL_PARAMS = 4096


def _params_path(digest: str) -> Path:
    return cache_dir() / GENERATED / "params" / f"{digest}.npy"


def save_params(params: np.ndarray) -> str:
    """Keep ``params`` (int64) in the kernel cache folder, once; returns the digest that names
    them (and, through the binding's text, the copy that reads them)."""
    digest = hashlib.sha256(params.tobytes()).hexdigest()[:32]
    path = _params_path(digest)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.save(buffer, params)
        write_atomic(path, buffer.getvalue())
    return digest


def policy_params(digest: str) -> np.ndarray:
    """The params ``save_params`` kept under ``digest``: a bound copy's ``_POLICY_PARAMS``."""
    return np.load(_params_path(digest))


def binding_text(policy, exact: bool = True, weighted: bool = True) -> str:
    """The ``_binding`` module of a copy for ``policy`` (None: Normal): ``rollout_bid``,
    ``rollout_play`` and ``rollout_pass`` call its kernels (``_policy_bid`` ...), with its params
    when they take them (a literal array, or, past ``LITERAL_PARAMS``, read from the file
    ``save_params`` writes); ``EXACT_FINISHES = exact`` and ``WEIGHTED_WORLDS = weighted``."""
    text = "import numpy as np\n\nfrom spades_ai.engine.jit import kernel\n\n"
    text += f"EXACT_FINISHES = {bool(exact)}\nWEIGHTED_WORLDS = {bool(weighted)}\n"
    takes_params = policy is not None and policy.takes_params
    pass_takes_params = policy is not None and policy.pass_takes_params
    if takes_params or pass_takes_params:
        params = np.ascontiguousarray(policy.params, dtype=np.int64)
        if len(params) > LITERAL_PARAMS:
            text += ("from spades_ai.montecarlo.binding import policy_params\n\n"
                     f"_POLICY_PARAMS = policy_params({save_params(params)!r})\n")  # fmt: skip
        else:
            text += f"_POLICY_PARAMS = np.array({params.tolist()!r}, dtype=np.int64)\n"
    for what, arg, takes in (("bid", "legal", takes_params), ("play", "legal", takes_params),
                             ("pass", "n", pass_takes_params)):
        if takes:
            text += (f"\n\n@kernel\ndef rollout_{what}(pub, seat, hand, {arg}, rules):\n"
                     f"    return _policy_{what}(pub, seat, hand, {arg}, rules, _POLICY_PARAMS)\n")
        else:
            text += f"\nrollout_{what} = _policy_{what}\n"
    return text


def bound(policy=None, exact: bool = True, weighted: bool = True) -> types.ModuleType:
    """The templates bound to ``policy`` (None: Normal); the result's ``rollouts``, ``search``
    and ``tree_search`` are the bound modules. ``exact`` / ``weighted``: whether the search
    compiles exact finishes (``solver_tricks``) and weighted worlds (``bid_aware``, reading the
    play); an agent that uses neither gets a copy without them, which compiles in about half
    the time. ``bound()`` is this package itself, bound to Normal with both. One copy per
    process for each policy's kernels and params and each choice of parts."""
    if policy is None and exact and weighted:
        importlib.import_module(f"{_PACKAGE}.tree_search")  # the three templates, as submodules
        return importlib.import_module(_PACKAGE)
    key = (None if policy is None else (policy.kernels_key(), policy.params.tobytes()), bool(exact), bool(weighted))
    if key not in _COPIES:
        if policy is None:  # Normal, as this package's own binding names it
            own = importlib.import_module(f"{_PACKAGE}._binding")
            kernels = (own.rollout_bid, own.rollout_play, own.rollout_pass)
        else:
            kernels = (policy.bid_kernel, policy.play_kernel, policy.pass_kernel)
        functions = dict(zip(("_policy_bid", "_policy_play", "_policy_pass"), kernels))
        _COPIES[key] = bind(_PACKAGE, TEMPLATES, binding_text(policy, exact, weighted), functions, "rollout")
    return _COPIES[key]


_COPIES: dict = {}
