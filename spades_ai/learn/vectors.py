"""The observation vector and the action mask in numba: the same numbers as
``spades_ai.interop.encoding.observation_vector`` and the adapters' ``legal_mask``, computed
from a seat's view of the public array and its cards (``spades_ai.encoding`` draws the layout).
``vector_loop`` writes them for the environment, ``learn.dataset`` for the decision rows."""

import numpy as np

from spades_ai.engine.bids import legal_bids
from spades_ai.engine.bits import ONE, U64, lowest_index
from spades_ai.engine.deal import public_id
from spades_ai.engine.jit import hot_kernel, inline_kernel
from spades_ai.engine.state import (
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_BROKEN,
    P_DEALER,
    P_LEADER,
    P_PHASE,
    P_PLAYED_BY,
    P_SCORES,
    P_TO_ACT,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_VOIDS,
    P_WON,
    PHASE_BIDDING,
    PHASE_PLAYING,
    legal_now,
)
from spades_ai.encoding import (
    BID_OFFSET,
    BLIND_NIL,
    LOOK,
    N_ACTIONS,
    O_BAGS,
    O_BIDS,
    O_BLIND,
    O_BROKEN,
    O_DEALER,
    O_LEADER,
    O_OWN,
    O_PHASE,
    O_PLAYED,
    O_SCORES,
    O_TRICK,
    O_TRICK_NO,
    O_VOIDS,
    O_WON,
    OBSERVATION_SIZE,
    PH_BIDDING,
    PH_BLIND,
    PH_OVER,
    PH_PLAYING,
)
from spades_ai.rules import R_BAG_LIMIT, R_EXTRA, R_N_EXTRA


# -- cards in the engine's layout and as card ids ----------------------------------------------
@inline_kernel
def id_mask(mask, rules):
    """An engine bitboard as card ids (each joker or high deuce back on its card's id)."""
    for i in range(rules[R_N_EXTRA]):
        lane = ONE << U64(52 + i)
        if mask & lane:
            mask = (mask & ~lane) | (ONE << U64(rules[R_EXTRA + i]))
    return mask


@inline_kernel
def engine_id(card, rules):
    """The engine id of card id ``card`` (``Rules.engine_id``)."""
    for i in range(rules[R_N_EXTRA]):
        if rules[R_EXTRA + i] == card:
            return np.int64(52 + i)
    return np.int64(card)


@inline_kernel
def set_bits(out, base, mask):
    """``out[base + c] = 1`` for every bit ``c`` of ``mask``."""
    while mask:
        out[base + lowest_index(mask)] = 1
        mask &= mask - ONE


# -- the observation vector and the mask -----------------------------------------------------------
@hot_kernel
def write_observation(pub, seat, hand, blind_decision, rules, out):
    """``out`` (float32, ``OBSERVATION_SIZE``) = the observation vector of ``seat`` holding
    ``hand`` (engine layout) in ``pub`` (its view), as ``interop.encoding.observation_vector``."""
    for k in range(OBSERVATION_SIZE):
        out[k] = 0.0
    if not blind_decision:
        set_bits(out, O_OWN, id_mask(hand, rules))
    for s in range(4):
        r = (s - seat) & 3
        set_bits(out, O_PLAYED + 52 * r, id_mask(U64(pub[P_PLAYED_BY + s]), rules))
        b = pub[P_BIDS + s]
        if b >= 0:
            out[O_BIDS + 14 * r + b] = 1.0
        out[O_BLIND + r] = 1.0 if pub[P_BLIND + s] != 0 else 0.0
        out[O_WON + r] = pub[P_WON + s] / 13.0
        for suit in range(4):
            if (pub[P_VOIDS] >> (4 * s + suit)) & 1:
                out[O_VOIDS + 4 * r + suit] = 1.0
    n = pub[P_TRICK_LEN]
    leader = pub[P_LEADER]
    for i in range(n):
        r = (leader + i - seat) & 3
        out[O_TRICK + 52 * r + public_id(pub[P_TRICK + i], rules)] = 1.0
    if n > 0:
        out[O_LEADER + ((leader - seat) & 3)] = 1.0
    phase = pub[P_PHASE]
    if blind_decision:
        out[O_PHASE + PH_BLIND] = 1.0
    elif phase == PHASE_BIDDING:
        out[O_PHASE + PH_BIDDING] = 1.0
    elif phase == PHASE_PLAYING:
        out[O_PHASE + PH_PLAYING] = 1.0
    else:
        out[O_PHASE + PH_OVER] = 1.0
    out[O_DEALER + ((pub[P_DEALER] - seat) & 3)] = 1.0
    out[O_BROKEN] = 1.0 if pub[P_BROKEN] != 0 else 0.0
    us = seat & 1
    for j in range(2):
        team = us ^ j
        out[O_SCORES + j] = min(1.0, max(-1.0, pub[P_SCORES + team] / 1000.0))
        out[O_BAGS + j] = pub[P_BAGS + team] / rules[R_BAG_LIMIT]
    out[O_TRICK_NO] = pub[P_TRICK_NO] / 13.0


@hot_kernel
def write_mask(pub, hand, blind_pending, rules, out):
    """``out`` (int8, ``N_ACTIONS``) = the legal actions of the seat to act holding ``hand``."""
    for k in range(N_ACTIONS):
        out[k] = 0
    if pub[P_PHASE] == PHASE_BIDDING:
        if blind_pending:
            out[BLIND_NIL] = 1
            out[LOOK] = 1
        else:
            set_bits(out, BID_OFFSET, U64(legal_bids(pub[P_TO_ACT], hand, pub, rules) & 0x3FFF))
    else:
        set_bits(out, 0, id_mask(legal_now(pub, hand, rules), rules))
