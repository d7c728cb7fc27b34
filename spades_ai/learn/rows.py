"""Decision rows from recorded hands, in numba: every bid and card of a hand replayed on the
engine, with the acting seat's observation vector and mask (``learn.vectors``) before it.

A hand is its deal (four bitboards of card ids), dealer, what a match carries into it (``starts``:
the scores and bag counts of teams 0 and 1 and the hands already played, all 0 for a hand on its
own), bids, blind flags and the 52 card ids in play order (``HandRecords.plays``, a
``--keep-plays`` results folder). A seat offered a blind
nil gives a row of its own first: action ``BLIND_NIL`` (66) if it bid one, else ``LOOK`` (67),
on the view without its cards (the environment's encoding). Each row's columns (``cols``)::

    C_HAND     the hand's index in the batch
    C_SEAT     the acting seat
    C_PHASE    encoding.PHASES index: 1 blind decision, 2 bidding, 3 playing
    C_ACTION   the action id taken (spades_ai.encoding)
    C_OUTCOME  the hand's points for the acting seat's team
"""

import numpy as np

from spades_ai.engine.bids import BLIND_NIL_BIT, legal_bids
from spades_ai.engine.deal import engine_hands
from spades_ai.engine.jit import kernel
from spades_ai.engine.state import (
    N_PUBLIC,
    P_PHASE,
    P_TO_ACT,
    PHASE_BIDDING,
    apply_bid,
    apply_card,
    hides_anything,
    observe,
    reset_public,
)
from spades_ai.encoding import BID_OFFSET, BLIND_NIL, LOOK, PH_BIDDING, PH_BLIND, PH_PLAYING
from spades_ai.encoding import write_observation
from spades_ai.learn.vectors import engine_id, write_mask

C_HAND, C_SEAT, C_PHASE, C_ACTION, C_OUTCOME = 0, 1, 2, 3, 4
N_COLS = 5
#: At most 4 blind-nil decisions, 4 bids and 52 cards a hand.
MAX_ROWS_PER_HAND = 60
#: ``starts`` columns: what a match carries into the hand.
S_SCORE0, S_SCORE1, S_BAGS0, S_BAGS1, S_PLAYED = 0, 1, 2, 3, 4
N_STARTS = 5


@kernel
def emit(m, i, pub, view, hands, seat, blind_decision, action, phase, points, rules, obs, masks, cols):
    """Row ``m``: ``seat``'s vector and mask, and ``action``; False if the mask refuses it."""
    seen = pub
    if hides_anything(rules):
        observe(pub, hands, seat, rules, view)
        seen = view
    write_observation(seen, seat, hands[seat], blind_decision, rules, obs[m])
    write_mask(pub, hands[seat], blind_decision, rules, masks[m])
    cols[m, C_HAND], cols[m, C_SEAT], cols[m, C_PHASE], cols[m, C_ACTION] = i, seat, phase, action
    cols[m, C_OUTCOME] = points[i, seat & 1]
    return masks[m, action] != 0


@kernel
def decision_rows(deals, dealers, starts, bids, blind, plays, points, rules, obs, masks, cols):
    """Rows of hands ``0 .. len(deals)-1`` into ``obs`` / ``masks`` / ``cols`` (room for
    ``MAX_ROWS_PER_HAND`` a hand). Returns the rows written, or ``-1 - i`` when hand ``i``'s
    record holds an action its mask refuses (a record of other rules or cards)."""
    pub = np.empty(N_PUBLIC, dtype=np.int64)
    view = np.empty(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    m = 0
    for i in range(deals.shape[0]):
        for s in range(4):
            hands[s] = deals[i, s]
        engine_hands(hands, rules)
        st = starts[i]
        reset_public(pub, hands, dealers[i], st[S_SCORE0 : S_SCORE1 + 1], st[S_BAGS0 : S_BAGS1 + 1], st[S_PLAYED], rules)
        while pub[P_PHASE] == PHASE_BIDDING:
            seat = pub[P_TO_ACT]
            if (legal_bids(seat, hands[seat], pub, rules) >> BLIND_NIL_BIT) & 1:
                action = BLIND_NIL if blind[i, seat] else LOOK
                if not emit(m, i, pub, view, hands, seat, True, action, PH_BLIND, points, rules, obs, masks, cols):
                    return -1 - i
                m += 1
            if blind[i, seat]:
                apply_bid(pub, hands, np.int64(0), True, rules)
                continue
            b = np.int64(bids[i, seat])
            if not emit(m, i, pub, view, hands, seat, False, BID_OFFSET + b, PH_BIDDING, points, rules, obs, masks, cols):
                return -1 - i
            m += 1
            apply_bid(pub, hands, b, False, rules)
        for j in range(52):
            seat = pub[P_TO_ACT]
            card = np.int64(plays[i, j])
            if not emit(m, i, pub, view, hands, seat, False, card, PH_PLAYING, points, rules, obs, masks, cols):
                return -1 - i
            m += 1
            apply_card(pub, hands, engine_id(card, rules), rules)
    return m
