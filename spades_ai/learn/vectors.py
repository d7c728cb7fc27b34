"""The action mask in numba, the same as the adapters' ``legal_mask``, computed from a seat's
view of the public array and its cards; the observation vector's kernel, ``write_observation``,
is ``spades_ai.encoding``'s (below the models, which read it too). ``vector_loop`` writes both
for the environment, ``learn.dataset`` for the decision rows."""

import numpy as np

from spades_ai.engine.bids import BID_BITS, legal_bids
from spades_ai.engine.bits import U64
from spades_ai.engine.jit import hot_kernel, inline_kernel
from spades_ai.engine.state import P_PHASE, P_TO_ACT, PHASE_BIDDING, legal_now
from spades_ai.encoding import BID_OFFSET, blind_nil_action, id_mask, look_action, n_actions, set_bits
from spades_ai.rules import R_EXTRA, R_N_EXTRA


@inline_kernel
def engine_id(card, rules):
    """The engine id of card id ``card`` (``Rules.engine_id``)."""
    for i in range(rules[R_N_EXTRA]):
        if rules[R_EXTRA + i] == card:
            return np.int64(52 + i)
    return np.int64(card)


@hot_kernel
def write_mask(pub, hand, blind_pending, rules, out):
    """``out`` (int8, at least ``n_actions(rules)``) = the legal actions of the seat to act
    holding ``hand``."""
    for k in range(n_actions(rules)):
        out[k] = 0
    if pub[P_PHASE] == PHASE_BIDDING:
        if blind_pending:
            out[blind_nil_action(rules)] = 1
            out[look_action(rules)] = 1
        else:
            set_bits(out, BID_OFFSET, U64(legal_bids(pub[P_TO_ACT], hand, pub, rules) & BID_BITS))
    else:
        set_bits(out, 0, id_mask(legal_now(pub, hand, rules), rules))


def __getattr__(name: str):
    # deprecated: the observation vector's kernel and size moved to spades_ai.encoding (issue 36)
    if name in ("write_observation", "OBSERVATION_SIZE"):
        import warnings

        import spades_ai.encoding as encoding

        warnings.warn(f"spades_ai.learn.vectors.{name} is spades_ai.encoding.{name}", DeprecationWarning, stacklevel=2)
        return getattr(encoding, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
