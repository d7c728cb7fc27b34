"""The learned bidder: a network's distribution of the tricks the team takes, scored by the
rules (nil and blind nil included); the bid of the highest expected value. A model of a table
other than four in pairs bids like Normal, or by a ``"vector"`` network fitted on a labeller's
value of each candidate bid (``vector_bid``), as the card network is fitted on its cards.

For a number bid ``b`` the network gives the distribution of ``D``, the team's counted tricks
minus the partner's bid (``model.N_TRICK_CLASSES`` classes, -13..13; fitted on the hands where
the seat bid a number), and the partner's bid ``p`` when it bids later (its bid when known). The
contract ``b + p`` is made when ``D >= b``: ``10 (b + p)`` (20 a trick under ten-for-two-hundred
at 10 or more) plus the overtricks at their real cost (each bag worth ``1 - bag_penalty /
bag_limit``, as Hard's utility charges them), else ``-10 (b + p)``. A nil is worth
``nil_bonus (2 q - 1)`` with ``q`` the network's chance that it is made (fitted on hands where
the seat bid nil), plus the partner's contract value beside it; only on hands like those the
nils of the data were tried on (``explore.NIL_TRIAL_BELOW``), never where it would guess. A
blind nil (asked before the cards are seen) is bid when ``blind_nil_bonus (2 q - 1)`` plus the partner's value, from the
model's scalars, beats the value of a sighted bid.

A *value* bidding network (``model.N_VALUE_OUTPUTS`` outputs) gives each candidate bid's
expected margin directly: Normal's number bid moved by each of ``model.VALUE_SHIFTS``, and nil
where its rows tried one. It is fitted on the rows of ``montecarlo.bid_values``, where every
candidate is played out on the deal's own cards, and in sampled worlds, with Normal finishing, as
Crazy's bidding plays each one out in its worlds (``fit.fit_value_bidder``); the bid is the
legal candidate of the highest value.
"""

import numpy as np

from spades_ai import kernels as K
from spades_ai.encoding import observation_size
from spades_ai.engine.jit import kernel
from spades_ai.engine.score import bag_cost, nil_bid_points
from spades_ai.models.explore import NIL_TRIAL_BELOW
from spades_ai.models.features import (
    N_BID_FEATURES,
    N_CARD_FEATURES,
    bid_candidate_features,
    bid_features,
    is_bid_candidate,
)
from spades_ai.models.model import (
    BLIND_MADE,
    BLIND_PARTNER,
    H_BID_AT,
    H_BID_HIDDEN,
    H_BID_KIND,
    H_SCALARS_AT,
    N_BID_OUTPUTS,
    N_TRICK_CLASSES,
    N_VALUE_OUTPUTS,
    NORMAL_BIDDER,
    OUT_NIL,
    OUT_NIL_PARTNER,
    OUT_PARTNER,
    SIGHTED_VALUE,
    VALUE_BIDDER,
    VALUE_SCALE,
    VECTOR_BIDDER,
    model_at,
)
from spades_ai.models.network import add_rows, forward, relu_output, sigmoid
from spades_ai.models.player import observation_hidden
from spades_ai.models.replay import NUMBER_BIDS, value_candidate
from spades_ai.policies.normal import estimate_tricks, normal_agent_bid, normal_bid

#: D = the class index - D_OFFSET
D_OFFSET = 13


@kernel
def number_value(probs, b, p, rules):
    """The expected points of a number bid ``b`` beside the partner's ``p``, over ``probs`` of D."""
    bag = 1.0 - bag_cost(rules)
    contract = b + p
    per_trick = 20.0 if (K.ten_for_200(rules) and contract >= 10) else 10.0
    ev = 0.0
    for k in range(N_TRICK_CLASSES):
        d = k - D_OFFSET
        if d >= b:
            ev += probs[k] * (per_trick * contract + (d - b) * bag)
        else:
            ev -= probs[k] * 10.0 * contract
    return ev


@kernel
def bid_values(pub, seat, hand, rules, params, values, at=0):
    """``values[b]`` for b = 0 (nil) .. 13: each bid's expected points (legal or not); from a
    value network (``model.VALUE_BIDDER``), each candidate's expected margin. The model's packed
    params start at ``params[at]`` (``Model.params``, ``model.packed_after``)."""
    w = params.view(np.float64)
    x = np.empty(N_BID_FEATURES)
    bid_features(pub, seat, hand, rules, x)
    values_bids = params[at + H_BID_KIND] == VALUE_BIDDER
    outputs = N_VALUE_OUTPUTS if values_bids else N_BID_OUTPUTS
    h = np.empty(params[at + H_BID_HIDDEN])
    out = np.empty(outputs)
    forward(w, at + params[at + H_BID_AT], N_BID_FEATURES, params[at + H_BID_HIDDEN], outputs, x, h, out)
    if values_bids:  # each candidate's margin, -inf for every other bid
        values[:] = -np.inf
        guess = normal_bid(pub, seat, hand, rules, NUMBER_BIDS)
        for k in range(N_VALUE_OUTPUTS):
            b = value_candidate(k, guess, hand, rules)
            if b >= 0:
                values[b] = VALUE_SCALE * out[k]
        return
    top = out[0]  # ``out[:N_TRICK_CLASSES].max()``, without compiling numba's (1.3 s of a cold first Hard run)
    for k in range(1, N_TRICK_CLASSES):
        if out[k] > top or np.isnan(out[k]):
            top = out[k]
    probs = np.exp(out[:N_TRICK_CLASSES] - top)
    probs /= probs.sum()
    pb = -1 if K.closed_bidding(rules) else K.bid_of(pub, K.partner(seat, rules))
    p = float(pb) if pb >= 0 else max(13.0 * out[OUT_PARTNER], 0.0)
    for b in range(1, 14):
        values[b] = number_value(probs, b, p, rules)
    if estimate_tricks(hand, rules) < NIL_TRIAL_BELOW:
        q = sigmoid(out[OUT_NIL])
        values[0] = K.nil_bonus(rules) * (2.0 * q - 1.0) + 100.0 * out[OUT_NIL_PARTNER]
    else:  # the nil data hold no hand this strong (``explore``): no nil
        values[0] = -np.inf


@kernel
def blind_nil_value(rules, params, at=0):
    """A blind nil's expected points (the model's scalars) minus a sighted bid's (the model
    packed from ``params[at]``)."""
    w = params.view(np.float64)
    s = at + params[at + H_SCALARS_AT]
    q = w[s + BLIND_MADE]
    made, failed = nil_bid_points(True, 0, rules), nil_bid_points(True, 1, rules)
    return made * q + failed * (1.0 - q) + w[s + BLIND_PARTNER] - w[s + SIGHTED_VALUE]


@kernel
def learned_bid_values(pub, seat, hand, legal, rules, params, at, values):
    """The legal bid of the highest expected points of the model packed from ``params[at]``,
    each bid's value into ``values`` (14: ``bid_values``; untouched for a blind-nil question).
    Hard and Crazy with ``bidder="learned"`` bid by it, the model packed after their params."""
    if hand == K.ZERO:  # asked about a blind nil, before looking
        return K.BLIND_NIL if blind_nil_value(rules, params, at) > 0.0 else 0
    bid_values(pub, seat, hand, rules, params, values, at)
    best, best_value = -1, -np.inf
    for b in range(14):  # the first legal bid even if every value is -inf (a nil it must bid)
        if (legal >> b) & 1 and (best < 0 or values[b] > best_value):
            best, best_value = b, values[b]
    return best


@kernel
def learned_bid(pub, seat, hand, legal, rules, params):
    """The learned agent's bid (a kernel agent's ``bid``; ``params`` a set of models,
    ``model.pack_models``): by the bidding network of its table's model, the legal bid of the
    highest expected points, or Normal's where the model bids like Normal."""
    at = model_at(params, rules)
    kind = params[at + H_BID_KIND]
    if kind == NORMAL_BIDDER or (kind == VECTOR_BIDDER and hand == K.ZERO):  # a blind-nil question: Normal's answer
        return normal_agent_bid(pub, seat, hand, legal, rules)
    if kind == VECTOR_BIDDER:
        return vector_bid(pub, seat, hand, legal, rules, params, at)
    return learned_bid_values(pub, seat, hand, legal, rules, params, at, np.empty(14))


@kernel
def vector_bid(pub, seat, hand, legal, rules, params, at):
    """The candidate bid (``features.is_bid_candidate``) of the highest score of the ``"vector"``
    bidding network (the model from ``params[at]``): the seat's observation vector and the
    candidate's ``bid_candidate_features``."""
    w = params.view(np.float64)
    hidden = params[at + H_BID_HIDDEN]
    offset = at + params[at + H_BID_AT]
    size = observation_size(rules)
    shared = np.empty(hidden)
    observation_hidden(pub, seat, hand, rules, w, offset, shared)
    normal = normal_bid(pub, seat, hand, rules, legal)
    x = np.empty(N_CARD_FEATURES)
    h = np.empty(hidden)
    best, best_score = normal, -np.inf
    for b in range(K.cards_each(rules) + 1):
        if (legal >> b) & 1 and is_bid_candidate(b, normal):
            bid_candidate_features(b, normal, rules, x)
            h[:] = shared
            add_rows(w, offset, hidden, x, size, h)
            score = relu_output(w, offset, size + N_CARD_FEATURES, hidden, 1, 0, h)
            if score > best_score:
                best, best_score = b, score
    return best
