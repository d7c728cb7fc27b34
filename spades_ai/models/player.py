"""The learned card player: a network scores every legal card from its ``card_features`` (Normal's
own choice among them) and plays the card of the highest score (the lowest id on a tie), unless
it beats Normal's card by less than the model's ``PLAY_MARGIN``: then Normal's. The network is
fitted to imitate a stronger agent's cards (``fit.fit_player``: Hard's); the margin is chosen
by playing (``experiments/train_models.py``), so the network overrides Normal only as far as
that gains.

The same scores, as a softmax over the legal cards, are a play model: how likely each card is
(``card_probabilities``), which Crazy's reading of the play weighs its worlds by
(``montecarlo.reading``, ``make_agent("crazy", read_play=True, play_model=...)``)."""

import numpy as np

from spades_ai import kernels as K
from spades_ai.engine.jit import kernel
from spades_ai.models.features import N_CARD_FEATURES, card_features, play_context
from spades_ai.models.model import H_PLAY_AT, H_PLAY_HIDDEN, H_SCALARS_AT, PLAY_MARGIN
from spades_ai.models.network import forward


@kernel
def card_scores(pub, seat, hand, legal, rules, params, at, scores):
    """The card network's score of every legal card into ``scores[card]`` (engine ids; the
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
def learned_play(pub, seat, hand, legal, rules, params):
    """The card to play (a kernel agent's ``play``; an engine card id): see the module docstring."""
    if K.count(legal) == 1:
        return K.lowest_card(legal)
    scores = np.empty(56)
    normal = card_scores(pub, seat, hand, legal, rules, params, 0, scores)
    best, best_score = -1, -np.inf
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        if scores[card] > best_score:
            best, best_score = card, scores[card]
    margin = params.view(np.float64)[params[H_SCALARS_AT] + PLAY_MARGIN]
    return best if best_score > scores[normal] + margin else normal


@kernel
def card_probabilities(pub, seat, hand, legal, rules, params, at, probs):
    """The play model: the softmax of ``card_scores`` over the legal cards, into ``probs[card]``
    (0 elsewhere; the model at ``params[at]``)."""
    probs[:] = 0.0
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
