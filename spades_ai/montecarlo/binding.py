"""The Monte Carlo templates bound to a rollout policy: ``make_agent("hard", rollout=agent)``.

The kernels that call the rollout policy live in three template modules, ``rollouts``,
``search`` and ``tree_search`` (``spades_ai.templates``); ``bound(policy)`` is a copy of the three
bound to ``policy`` (a kernel agent), and ``bound(None)`` this package itself (Normal, its
``_binding``). Everything else of the library is shared by every binding.

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


def binding_text(policy) -> str:
    """The ``_binding`` module of a copy for ``policy``: ``rollout_bid``, ``rollout_play`` and
    ``rollout_pass`` call its kernels (``_policy_bid`` ...), with its params when they take them."""
    text = "import numpy as np\n\nfrom spades_ai.engine.jit import kernel\n\n"
    if policy.takes_params or policy.pass_takes_params:
        text += f"_POLICY_PARAMS = np.array({np.asarray(policy.params, dtype=np.int64).tolist()!r}, dtype=np.int64)\n"
    for what, arg, takes in (("bid", "legal", policy.takes_params), ("play", "legal", policy.takes_params),
                             ("pass", "n", policy.pass_takes_params)):
        if takes:
            text += (f"\n\n@kernel\ndef rollout_{what}(pub, seat, hand, {arg}, rules):\n"
                     f"    return _policy_{what}(pub, seat, hand, {arg}, rules, _POLICY_PARAMS)\n")
        else:
            text += f"\nrollout_{what} = _policy_{what}\n"
    return text


def bound(policy=None) -> types.ModuleType:
    """The templates bound to ``policy`` (None: this package, bound to Normal); the result's
    ``rollouts``, ``search`` and ``tree_search`` are the bound modules. One copy per process
    for each policy's kernels and params."""
    if policy is None:
        importlib.import_module(f"{_PACKAGE}.tree_search")  # the three templates, as submodules
        return importlib.import_module(_PACKAGE)
    key = (policy.kernels_key(), policy.params.tobytes())
    if key not in _COPIES:
        functions = {"_policy_bid": policy.bid_kernel, "_policy_play": policy.play_kernel, "_policy_pass": policy.pass_kernel}
        _COPIES[key] = bind(_PACKAGE, TEMPLATES, binding_text(policy), functions, "rollout")
    return _COPIES[key]


_COPIES: dict = {}
