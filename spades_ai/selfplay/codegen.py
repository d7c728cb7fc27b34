"""The seat dispatch of a lineup: a template's ``seat_bid`` / ``seat_play`` / ``seat_pass``
bound to a set of kernel agents (``spades_ai.templates``).

A loop template (the self-play loop ``selfplay.loop``; the learning environment's loop) imports
``seat_bid(slot, pub, seat, hand, legal, rules, params)``, ``seat_play(...)`` and
``seat_pass(slot, pub, seat, hand, n, rules, params)`` from its ``_binding``: each calls kernel
agent ``slot``'s function, with ``params[slot]`` when it takes params (``params`` is the
lineup's 2-D int64 array, row ``k`` for agent ``k``). ``bind(template, agents)`` writes that
binding for ``agents`` (in slot order) and returns the bound copy of the template module.

>>> from spades_ai import make_agent
>>> loop = bind("spades_ai.selfplay.loop", [make_agent("normal"), make_agent("easy")])
>>> hasattr(loop, "play_hands_kernel")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_ai.templates import bind as bind_templates

#: (function, agent kernel, its argument after ``hand``, what a slot with no kernel returns)
_SEAT_FUNCS = (
    ("seat_bid", "bid", "legal", "-1"),
    ("seat_play", "play", "legal", "-1"),
    ("seat_pass", "pass", "n", "np.uint64(0)"),
)


def _counts_no_references(kernel) -> bool:
    """Whether ``kernel`` is a ``hot_kernel`` (compiled without reference counting, and so
    allocating nothing). ``seat_play`` is one when every play kernel of the lineup is: inlined
    into the loop's IR, it held the public and rules arrays in new variables, counted in and
    out around every card, which was most of Easy's and Normal's self-play time
    (``benchmarks/RESULTS.md``). A kernel that allocates (a search's) needs the counting."""
    return getattr(kernel, "targetoptions", {}).get("_nrt", True) is False


#: the built-in agents whose bid and play kernels allocate no array. Any other agent's (the learned
#: agent's network layers, a researcher's kernel agent) may: in a template that calls the seat
#: functions from a loop compiled without reference counting (the ``hot_kernel`` ``settle`` of
#: ``learn.vector_loop``: ``hot_caller``), its lineup's seat functions are compiled apart with
#: it (``counted_kernel``), never inlined.
NON_ALLOCATING = ("random", "easy", "normal")


def _seat_decorator(agents: Sequence, kind: str, hot_caller: bool) -> str:
    """``inline_kernel`` where every agent of the lineup is ``NON_ALLOCATING``, for the pass
    (which every agent makes by a small kernel) and wherever the caller counts references (the
    self-play loop), else ``counted_kernel``.

    A seat function compiled apart costs a cold first run as much as the agents' kernels below
    it: numba links every callee's code into each compiled function and optimises it all again
    there, so Hard's search, behind counted ``seat_bid`` and ``seat_play``, was optimised twice
    more (8 of a first Hard run's 70 s of compile)."""
    plain = not hot_caller or kind == "pass" or all(getattr(a, "name", None) in NON_ALLOCATING for a in agents)
    return "inline_kernel" if plain else "counted_kernel"


def lineup_binding(agents: Sequence, hot_caller: bool = False) -> str:
    """The binding module's text for kernel agents ``agents`` (functions ``bid_k``, ``play_k``,
    ``pass_k`` for agent ``k``, which ``bind`` imports); ``hot_caller``: the template calls the
    seat functions from a ``hot_kernel`` (``_seat_decorator``)."""
    out = ["import numpy as np\n\nfrom spades_ai.engine.jit import counted_kernel, hot_kernel, inline_kernel\n\n"]
    hot_play = all(_counts_no_references(a.play_kernel) for a in agents)
    for func, kind, arg, none in _SEAT_FUNCS:
        decorator = "hot_kernel" if func == "seat_play" and hot_play else _seat_decorator(agents, kind, hot_caller)
        out.append(f"\n@{decorator}\ndef {func}(slot, pub, seat, hand, {arg}, rules, params):\n")
        for k, agent in enumerate(agents):
            takes = agent.pass_takes_params if kind == "pass" else agent.takes_params
            extra = f", params[{k}]" if takes else ""
            call = f"return {kind}_{k}(pub, seat, hand, {arg}, rules{extra})\n"
            if len(agents) == 1:
                out.append(f"    {call}\n")  # one kernel agent in the lineup: no branch
                break
            out.append(f"    if slot == {k}:\n        {call}")
        else:
            out.append(f"    return {none}\n\n")
    return "".join(out)


def bind(template: str, agents: Sequence, hot_caller: bool = False):
    """The module ``template`` (``package.module``, a template importing the seat dispatch from
    its ``_binding``) bound to kernel agents ``agents`` in slot order; ``hot_caller`` as
    ``lineup_binding``."""
    package, _, name = template.rpartition(".")
    functions = {}
    for k, agent in enumerate(agents):
        functions[f"bid_{k}"] = agent.bid_kernel
        functions[f"play_{k}"] = agent.play_kernel
        functions[f"pass_{k}"] = agent.pass_kernel
    return getattr(bind_templates(package, (name,), lineup_binding(agents, hot_caller), functions, name), name)
