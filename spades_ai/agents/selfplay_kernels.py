"""The kernels every self-play loop shares: recording a finished hand and the rules of a match.

Hand ``k`` of match ``m`` is dealt from ``(seed, m, stream 1 + k)`` and match ``m``'s first
dealer from ``(seed, m, MATCH_DEALER_STREAM)``.
"""

import numpy as np

from spades_ai.engine import score as _sc
from spades_ai.engine.deal import deal_for
from spades_ai.engine.jit import kernel
from spades_ai.engine.rng import below, stream_state
from spades_ai.engine.state import P_BAGS, P_BIDS, P_BLIND, P_SCORES, P_WON

MATCH_DEALER_STREAM = 1 << 40
MAX_MATCH_HANDS = 10_000  # a match still tied after this many hands is reported unfinished


@kernel
def record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil):
    """Row ``i`` of the record arrays from the finished hand in ``pub``, scored."""
    for s in range(4):
        bids[i, s] = pub[P_BIDS + s]
        blind[i, s] = pub[P_BLIND + s] != 0
        tricks_won[i, s] = pub[P_WON + s]
    _sc.score_hand(
        pub[P_BIDS : P_BIDS + 4],
        pub[P_BLIND : P_BLIND + 4],
        pub[P_WON : P_WON + 4],
        pub[P_SCORES : P_SCORES + 2],
        pub[P_BAGS : P_BAGS + 2],
        rules,
        sheet[i],
        nil[i],
    )


@kernel
def record_arrays(n):
    """Empty record arrays for ``n`` hands: bids, blind, tricks_won, sheet, nil outcomes."""
    return (
        np.empty((n, 4), dtype=np.int8),
        np.empty((n, 4), dtype=np.bool_),
        np.empty((n, 4), dtype=np.int8),
        np.empty((n, 2, _sc.N_FIELDS), dtype=np.int64),
        np.empty((n, 4), dtype=np.int64),
    )


# -- the rules of a match ----------------------------------------------------------------------
@kernel
def match_first_dealer(seed, match_no):
    """The dealer of a match's first hand, from the match's own stream."""
    _, d = below(stream_state(seed, match_no, MATCH_DEALER_STREAM), 4)
    return d


@kernel
def deal_match_hand(seed, match_no, hand_no, hands, rules):
    """Deal hand ``hand_no`` of match ``match_no`` into ``hands`` (stream ``1 + hand_no``), in
    the engine's layout of ``rules``."""
    deal_for(stream_state(seed, match_no, 1 + hand_no), hands, rules)


@kernel
def after_hand(sheet_row, hand_no, dealer, rules):
    """After hand ``hand_no``: ``(score0, score1, bags0, bags1, winner, next dealer)``;
    winner is -1 while the match goes on."""
    score0, score1 = sheet_row[0, _sc.F_SCORE], sheet_row[1, _sc.F_SCORE]
    winner = _sc.match_winner(score0, score1, hand_no + 1, rules)
    return score0, score1, sheet_row[0, _sc.F_BAGS], sheet_row[1, _sc.F_BAGS], winner, (dealer + 1) & 3


@kernel
def grow(a, cap):
    out = np.empty((cap,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out
