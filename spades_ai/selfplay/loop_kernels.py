"""The kernels every self-play loop shares: recording a finished hand and the rules of a match
(the match's cards and first dealer come from ``engine.deal``)."""

import numpy as np

from spades_ai.engine import score as _sc
from spades_ai.engine.jit import kernel
from spades_ai.engine.state import P_BAGS, P_BIDS, P_BLIND, P_SCORES, P_WON
from spades_ai.rules import MAX_MATCH_HANDS  # noqa: F401 -- the loops' cap, beside the rules it bounds


@kernel
def record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil):
    """Row ``i`` of the record arrays from the finished hand in ``pub``, scored."""
    for s in range(4):
        bids[i, s] = pub[P_BIDS + s]
        blind[i, s] = pub[P_BLIND + s] != 0
        tricks_won[i, s] = pub[P_WON + s]
    _sc.score_hand_kernel(
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
def after_hand(sheet_row, hand_no, dealer, rules):
    """After hand ``hand_no``: ``(score0, score1, bags0, bags1, winner, next dealer)``;
    winner is -1 while the match goes on."""
    score0, score1 = sheet_row[0, _sc.F_SCORE], sheet_row[1, _sc.F_SCORE]
    winner = _sc.match_winner_kernel(score0, score1, hand_no + 1, rules)
    return score0, score1, sheet_row[0, _sc.F_BAGS], sheet_row[1, _sc.F_BAGS], winner, (dealer + 1) & 3


@kernel
def grow(a, cap):
    out = np.empty((cap,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out
