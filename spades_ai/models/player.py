"""The learned card player. A network of the model's ``play_kind`` scores every legal card:

- ``"vector"``: from the seat's observation vector (``spades_ai.encoding.write_observation``, the
  floats every learner reads, 567 at four in pairs: its cards, every card played and by whom, the trick, bids,
  tricks won, voids, scores) followed by the card's ``card_features`` (among them whether it is
  Normal's card), fitted on a labeller's value of every legal card (``fit.fit_vector_player``:
  Hard's, in points / 10); the player plays its top card (the lowest engine id on a tie). The
  vector's part of the hidden layer is summed once a decision (``network.add_rows``).
- ``"cards"``: from its ``card_features`` alone, fitted to imitate a stronger agent's cards
  (``fit.fit_player``); the player plays the card of the highest score unless it beats Normal's
  card by less than the model's ``PLAY_MARGIN``: then Normal's (the margin was chosen by
  playing, ``experiments/learned_player_curve.py``).

The same scores, as a softmax over the legal cards, are a play model: how likely each card is
(``card_probabilities``), which Crazy's reading of the play weighs its worlds by
(``montecarlo.reading``, ``make_agent("crazy", read_play=True, play_model=...)``)."""

import numpy as np

from spades_ai import kernels as K
from spades_ai.encoding import observation_size, write_observation
from spades_ai.engine.jit import kernel
from spades_ai.models.features import N_CARD_FEATURES, card_features, play_context
from spades_ai.models.model import H_PLAY_AT, H_PLAY_HIDDEN, H_PLAY_KIND, H_SCALARS_AT, PLAY_MARGIN, VECTOR_PLAYER, model_at
from spades_ai.models.network import add_rows, forward, relu_output


@kernel
def card_scores(pub, seat, hand, legal, rules, params, at, scores):
    """The ``"cards"`` network's score of every legal card into ``scores[card]`` (engine ids; the
    model's packed params start at ``params[at]``, ``Model.params``). Returns Normal's card."""
    w = params.view(np.float64)
    hidden = params[at + H_PLAY_HIDDEN]
    ctx = np.empty(N_CARD_FEATURES)
    x = np.empty(N_CARD_FEATURES)
    h = np.empty(hidden)
    out = np.empty(1)
    normal = play_context(pub, seat, hand, legal, rules, ctx)
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        card_features(pub, seat, hand, legal, rules, card, normal, ctx, x)
        forward(w, at + params[at + H_PLAY_AT], N_CARD_FEATURES, hidden, 1, x, h, out)
        scores[card] = out[0]
    return normal


@kernel
def observation_hidden(pub, seat, hand, rules, w, offset, shared):
    """Into ``shared``: the hidden layer's part of a ``"vector"`` network (its floats from
    ``w[offset]``, ``len(shared)`` units) that the seat's observation vector gives, its bias
    included: what every candidate of a decision shares."""
    hidden = shared.shape[0]
    size = observation_size(rules)
    inputs = size + N_CARD_FEATURES
    obs = np.empty(size, np.float32)
    write_observation(pub, seat, hand, False, rules, obs)
    shared[:] = w[offset + inputs * hidden : offset + inputs * hidden + hidden]  # b1
    add_rows(w, offset, hidden, obs, 0, shared)


@kernel
def vector_scores(pub, seat, hand, legal, rules, params, at, scores):
    """The ``"vector"`` card network's score of every legal card into ``scores[card]`` (engine
    ids), from ``seat``'s observation vector and the card's features (the model's packed params
    start at ``params[at]``)."""
    w = params.view(np.float64)
    hidden = params[at + H_PLAY_HIDDEN]
    offset = at + params[at + H_PLAY_AT]
    size = observation_size(rules)  # the model's table's: the agent refuses any other (``Model.part``)
    inputs = size + N_CARD_FEATURES
    shared = np.empty(hidden)
    observation_hidden(pub, seat, hand, rules, w, offset, shared)
    ctx = np.empty(N_CARD_FEATURES)
    x = np.empty(N_CARD_FEATURES)
    h = np.empty(hidden)
    normal = play_context(pub, seat, hand, legal, rules, ctx)
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        card_features(pub, seat, hand, legal, rules, card, normal, ctx, x)
        h[:] = shared
        add_rows(w, offset, hidden, x, size, h)
        scores[card] = relu_output(w, offset, inputs, hidden, 1, 0, h)


@kernel
def top_card(legal, scores):
    """The legal card of the highest score (the lowest engine id on a tie)."""
    best, best_score = -1, -np.inf
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        if scores[card] > best_score:
            best, best_score = card, scores[card]
    return best


@kernel
def learned_play(pub, seat, hand, legal, rules, params):
    """The card to play (a kernel agent's ``play``; an engine card id; ``params`` a set of
    models, ``model.pack_models``, its table's model played): see the module docstring."""
    if K.count(legal) == 1:
        return K.lowest_card(legal)
    at = model_at(params, rules)
    scores = np.empty(56)
    if params[at + H_PLAY_KIND] == VECTOR_PLAYER:
        vector_scores(pub, seat, hand, legal, rules, params, at, scores)
        return top_card(legal, scores)
    normal = card_scores(pub, seat, hand, legal, rules, params, at, scores)
    best = top_card(legal, scores)
    margin = params.view(np.float64)[at + params[at + H_SCALARS_AT] + PLAY_MARGIN]
    return best if scores[best] > scores[normal] + margin else normal


@kernel
def card_probabilities(pub, seat, hand, legal, rules, params, at, probs):
    """The play model: the softmax of the card network's scores (``vector_scores`` or
    ``card_scores``, by the model's kind) over the legal cards, into ``probs[card]`` (0
    elsewhere; the model at ``params[at]``)."""
    probs[:] = 0.0
    if params[at + H_PLAY_KIND] == VECTOR_PLAYER:
        vector_scores(pub, seat, hand, legal, rules, params, at, probs)
    else:
        card_scores(pub, seat, hand, legal, rules, params, at, probs)
    top = -np.inf
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        top = max(top, probs[card])
    total = 0.0
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        probs[card] = np.exp(probs[card] - top)
        total += probs[card]
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        probs[card] /= total
