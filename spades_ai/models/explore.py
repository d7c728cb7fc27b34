"""The bidder of the bidding model's training hands: Normal, with nils (and blind nils) tried on
hands Normal would bid a number on, so that the data show what a nil there is worth.

``explorer(nil=0.15, blind=False, seed=0)`` bids nil on a share ``nil`` of the hands whose
Normal trick estimate is below ``NIL_TRIAL_BELOW`` (where nil is legal), and with ``blind=True``
bids blind nil whenever it is asked; else it bids as Normal. It plays every card as Normal. The
draws come from the decision's own stream (``kernels.decision_stream``): the same deal, seed
and bids give the same choice. (A blind-nil question shows no card, so its observation, and
its stream, is the same in every deal of a seat: a share of them could not be drawn at random.)
"""

from __future__ import annotations

import numpy as np

from spades_ai import kernels as K
from spades_ai.checks import check_seed
from spades_ai.engine.jit import kernel
from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.policies.normal import estimate_tricks, normal_agent_bid, normal_agent_pass, normal_agent_play

#: hands of a lower Normal estimate may be tried as nils
NIL_TRIAL_BELOW = 4.0
PER_MILLE = 1000


@kernel
def explorer_bid(pub, seat, hand, legal, rules, params):
    state = K.decision_stream(params[0], pub, seat, hand)
    state, r = K.draw_below(state, PER_MILLE)
    if hand == K.ZERO:
        return K.BLIND_NIL if params[2] else normal_agent_bid(pub, seat, hand, legal, rules)
    if (legal & K.NIL_BIT) and r < params[1] and estimate_tricks(hand, rules) < NIL_TRIAL_BELOW:
        return 0
    return normal_agent_bid(pub, seat, hand, legal, rules)


@kernel
def explorer_play(pub, seat, hand, legal, rules, params):
    return normal_agent_play(pub, seat, hand, legal, rules)


def explorer(nil: float = 0.15, blind: bool = False, seed: int = 0) -> KernelAgent:
    """The exploring bidder (see the module docstring), playing as Normal."""
    if isinstance(nil, bool) or not isinstance(nil, (int, float)) or not 0.0 <= nil <= 1.0:
        raise ValueError(f"explorer: nil is a probability in [0, 1], not {nil!r}")
    if not isinstance(blind, bool):
        raise ValueError(f"explorer: blind is True or False, not {blind!r}")
    seed = int(check_seed(seed))
    params = [int(np.uint64(seed).view(np.int64)), round(nil * PER_MILLE), int(blind)]
    return KernelAgent("explorer", explorer_bid, explorer_play, pass_=normal_agent_pass, params=params,
                       options={"nil": nil, "blind": blind, "seed": seed})  # fmt: skip
