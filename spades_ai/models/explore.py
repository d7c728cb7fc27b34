"""The bidder of the bidding model's training hands: Normal, with nils (and blind nils) tried on
hands Normal would bid a number on, so that the data show what a nil there is worth.

``explorer(nil=0.15, blind=False, seed=0, base=None)`` bids nil on a share ``nil`` of the hands
whose Normal trick estimate is below ``NIL_TRIAL_BELOW`` (where nil is legal), and with
``blind=True`` bids blind nil whenever it is asked; else it bids as Normal, or with ``base`` a
learned model (a name or file, as ``load_model`` takes it) as that model's bidder does, so that
a model can be refitted on hands bid as it bids (its partners bid so too). It plays every card
as Normal. The
draws come from the decision's own stream (``kernels.decision_stream``): the same deal, seed
and bids give the same choice. (A blind-nil question shows no card, so its observation, and
its stream, is the same in every deal of a seat: a share of them could not be drawn at random.)
"""

from __future__ import annotations

import numpy as np

from spades_ai import kernels as K
from spades_ai.checks import check_seed
from spades_ai.engine.jit import kernel
from spades_ai.models.bidder import NIL_TRIAL_BELOW, model_bid
from spades_ai.models.model import load_model, packed_after
from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.policies.normal import estimate_tricks, normal_agent_bid, normal_agent_pass, normal_agent_play

PER_MILLE = 1000
#: the explorer's own params, before a base model's (``model.packed_after``)
N_PARAMS = 4


@kernel
def explorer_bid(pub, seat, hand, legal, rules, params):
    state = K.decision_stream(params[0], pub, seat, hand)
    state, r = K.draw_below(state, PER_MILLE)
    if hand == K.ZERO and params[2]:
        return K.BLIND_NIL
    if hand != K.ZERO and (legal & K.NIL_BIT) and r < params[1] and estimate_tricks(hand, rules) < NIL_TRIAL_BELOW:
        return 0
    if params[3]:
        return model_bid(pub, seat, hand, legal, rules, params, N_PARAMS)
    return normal_agent_bid(pub, seat, hand, legal, rules)


@kernel
def explorer_play(pub, seat, hand, legal, rules, params):
    return normal_agent_play(pub, seat, hand, legal, rules)


def explorer(nil: float = 0.15, blind: bool = False, seed: int = 0, base=None) -> KernelAgent:
    """The exploring bidder (see the module docstring), playing as Normal."""
    if isinstance(nil, bool) or not isinstance(nil, (int, float)) or not 0.0 <= nil <= 1.0:
        raise ValueError(f"explorer: nil is a probability in [0, 1], not {nil!r}")
    if not isinstance(blind, bool):
        raise ValueError(f"explorer: blind is True or False, not {blind!r}")
    seed = int(check_seed(seed))
    params = np.array([int(np.uint64(seed).view(np.int64)), round(nil * PER_MILLE), int(blind), int(base is not None)], np.int64)
    options = {"nil": nil, "blind": blind, "seed": seed}
    if base is not None:
        params, _ = packed_after(params, base)
        options["base"] = load_model(base).info.get("made_by", str(base)) if not isinstance(base, str) else base
    return KernelAgent("explorer", explorer_bid, explorer_play, pass_=normal_agent_pass, params=params, options=options)
