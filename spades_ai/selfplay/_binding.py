"""The seat dispatch of the self-play loop template (``loop``) as it stands in the package:
Normal at every slot. Bound copies (``selfplay.codegen.bind``) have their own binding."""

import numpy as np  # noqa: F401 -- as in every generated binding

from spades_ai.engine.jit import hot_kernel, inline_kernel
from spades_ai.policies.normal import normal_agent_bid as bid_0
from spades_ai.policies.normal import normal_agent_pass as pass_0
from spades_ai.policies.normal import normal_agent_play as play_0


@inline_kernel
def seat_bid(slot, pub, seat, hand, legal, rules, params):
    return bid_0(pub, seat, hand, legal, rules)


@hot_kernel  # Normal's play is a hot kernel (``codegen._counts_no_references``)
def seat_play(slot, pub, seat, hand, legal, rules, params):
    return play_0(pub, seat, hand, legal, rules)


@inline_kernel
def seat_pass(slot, pub, seat, hand, n, rules, params):
    return pass_0(pub, seat, hand, n, rules)
