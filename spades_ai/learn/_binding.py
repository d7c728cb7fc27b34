"""The default binding of ``vector_loop``: Normal at every slot.

A binding module gives the template its agent-specific functions (``seat_bid``, ``seat_play``,
``seat_pass`` of ``(slot, pub, seat, hand, legal | n, rules, params)``, each calling kernel
agent ``slot``'s function). Other lineups get a generated binding beside a verbatim copy of the
template (``spades_ai.selfplay.codegen.bind``); this hand-written one is what the package loads
when Normal plays every other seat, the default.
"""

from spades_ai.policies.normal import normal_agent_bid, normal_agent_pass, normal_agent_play
from spades_ai.engine.jit import inline_kernel


@inline_kernel
def seat_bid(slot, pub, seat, hand, legal, rules, params):
    """Normal's bid (or, asked with no cards, its blind-nil choice)."""
    return normal_agent_bid(pub, seat, hand, legal, rules)


@inline_kernel
def seat_play(slot, pub, seat, hand, legal, rules, params):
    """Normal's card (an engine card id)."""
    return normal_agent_play(pub, seat, hand, legal, rules)


@inline_kernel
def seat_pass(slot, pub, seat, hand, n, rules, params):
    """Normal's pass (unused here: the environment refuses card passing)."""
    return normal_agent_pass(pub, seat, hand, n, rules)
