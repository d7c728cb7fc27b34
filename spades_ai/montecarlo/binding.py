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

import importlib
import types

import numpy as np

from spades_ai.templates import bind

TEMPLATES = ("rollouts", "search", "tree_search")
_PACKAGE = "spades_ai.montecarlo"


def binding_text(policy, exact: bool = True, weighted: bool = True) -> str:
    """The ``_binding`` module of a copy for ``policy`` (None: Normal): ``rollout_bid``,
    ``rollout_play`` and ``rollout_pass`` call its kernels (``_policy_bid`` ...), with its params
    when they take them; ``EXACT_FINISHES = exact`` and ``WEIGHTED_WORLDS = weighted``."""
    text = "import numpy as np\n\nfrom spades_ai.engine.jit import kernel\n\n"
    text += f"EXACT_FINISHES = {bool(exact)}\nWEIGHTED_WORLDS = {bool(weighted)}\n"
    takes_params = policy is not None and policy.takes_params
    pass_takes_params = policy is not None and policy.pass_takes_params
    if takes_params or pass_takes_params:
        text += f"_POLICY_PARAMS = np.array({np.asarray(policy.params, dtype=np.int64).tolist()!r}, dtype=np.int64)\n"
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
