"""The kernels every self-play loop shares: recording a finished hand and the rules of a match
(the match's cards and first dealer come from ``engine.deal``)."""

import numpy as np

from spades_ai.engine import score as _sc
from spades_ai.engine.jit import kernel
from spades_ai.engine.seats import n_seats, n_sides, next_seat
from spades_ai.engine.state import P_BAGS, P_BIDS, P_BLIND, P_SCORES, P_WON
from spades_ai.rules import MAX_MATCH_HANDS  # noqa: F401 -- the loops' cap, beside the rules it bounds


@kernel
def record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil):
    """Row ``i`` of the record arrays from the finished hand in ``pub``, scored."""
    n, k = n_seats(rules), n_sides(rules)
    for s in range(n):
        bids[i, s] = pub[P_BIDS + s]
        blind[i, s] = pub[P_BLIND + s] != 0
        tricks_won[i, s] = pub[P_WON + s]
    _sc.score_hand_kernel(
        pub[P_BIDS : P_BIDS + n],
        pub[P_BLIND : P_BLIND + n],
        pub[P_WON : P_WON + n],
        pub[P_SCORES : P_SCORES + k],
        pub[P_BAGS : P_BAGS + k],
        rules,
        sheet[i],
        nil[i],
    )


@kernel
def record_arrays(n, rules):
    """Empty record arrays for ``n`` hands: bids, blind, tricks_won (per seat), sheet (per
    side), nil outcomes (per seat)."""
    seats, sides = n_seats(rules), n_sides(rules)
    return (
        np.empty((n, seats), dtype=np.int8),
        np.empty((n, seats), dtype=np.bool_),
        np.empty((n, seats), dtype=np.int8),
        np.empty((n, sides, _sc.N_FIELDS), dtype=np.int64),
        np.empty((n, seats), dtype=np.int64),
    )


# -- the rules of a match ----------------------------------------------------------------------
@kernel
def after_hand(sheet_row, hand_no, dealer, rules):
    """After hand ``hand_no`` (its sheet, ``sheet_row[side, F_*]``): ``(winner, next
    dealer)``; winner is -1 while the match goes on."""
    winner = _sc.match_winner_kernel(sheet_row[:, _sc.F_SCORE], hand_no + 1, rules)
    return winner, next_seat(dealer, rules)


@kernel
def grow(a, cap):
    out = np.empty((cap,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out
