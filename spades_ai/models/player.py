"""The learned card player: a network scores every legal card from its ``card_features`` (Normal's
own choice among them) and plays the card of the highest score (the lowest id on a tie), unless
it beats Normal's card by less than the model's ``PLAY_MARGIN``: then Normal's. The network is
fitted to imitate a stronger agent's cards (``train.fit_player``: Hard's); the margin is chosen
by playing (``experiments/train_models.py``), so the network overrides Normal only as far as
that gains."""

import numpy as np

from spades_ai import kernels as K
from spades_ai.engine.jit import kernel
from spades_ai.models.features import N_CARD_FEATURES, card_features, play_context
from spades_ai.models.model import H_PLAY_AT, H_PLAY_HIDDEN, H_SCALARS_AT, PLAY_MARGIN
from spades_ai.models.network import forward


@kernel
def learned_play(pub, seat, hand, legal, rules, params):
    """The card to play (a kernel agent's ``play``; an engine card id): see the module docstring."""
    if K.count(legal) == 1:
        return K.lowest_card(legal)
    w = params.view(np.float64)
    hidden = params[H_PLAY_HIDDEN]
    ctx = np.empty(N_CARD_FEATURES)
    x = np.empty(N_CARD_FEATURES)
    h = np.empty(hidden)
    out = np.empty(1)
    normal = play_context(pub, seat, hand, legal, rules, ctx)
    best, best_score = -1, -np.inf
    normal_score = 0.0
    m = legal
    while m:
        card = K.lowest_card(m)
        m &= m - K.ONE
        card_features(pub, seat, hand, legal, rules, card, normal, ctx, x)
        forward(w, params[H_PLAY_AT], N_CARD_FEATURES, hidden, 1, x, h, out)
        if card == normal:
            normal_score = out[0]
        if out[0] > best_score:
            best, best_score = card, out[0]
    return best if best_score > normal_score + w[params[H_SCALARS_AT] + PLAY_MARGIN] else normal
