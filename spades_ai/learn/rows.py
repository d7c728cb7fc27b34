"""Decision rows from recorded hands, in numba: every bid and card of a hand replayed on the
engine, with the acting seat's observation vector and mask (``learn.vectors``) before it.

A hand is its deal (a bitboard of card ids a seat; with several decks ``decks * players``, the
seats' levels, ``engine.copies``), dealer, what a match carries into it (``starts``: the scores
of the sides, their bag counts and the hands already played, ``n_starts(rules)`` numbers, all 0
for a hand on its own), bids, blind flags and the card ids in play order (``players *
cards_each`` of them: ``HandRecords.plays``, a ``--keep-plays`` results folder). Every table of
the rules is replayed. A seat offered a blind nil gives a row of its own first: the table's
blind-nil action (66 at 13 cards each) if it bid one, else its look action (67), on the view
without its cards (the environment's encoding). Each row's columns (``cols``)::

    C_HAND     the hand's index in the batch
    C_SEAT     the acting seat
    C_PHASE    encoding.PHASES index: 1 blind decision, 2 bidding, 3 playing
    C_ACTION   the action id taken (spades_ai.encoding)
    C_OUTCOME  the hand's points for the acting seat's side
"""

from typing import NamedTuple

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
from spades_ai.encoding import BID_OFFSET, PH_BIDDING, PH_BLIND, PH_PLAYING, blind_nil_action, look_action, write_observation
from spades_ai.engine.seats import cards_each, n_seats, n_sides, side_of
from spades_ai.learn.vectors import engine_id, write_mask

C_HAND, C_SEAT, C_PHASE, C_ACTION, C_OUTCOME = 0, 1, 2, 3, 4
N_COLS = 5
#: At most 4 blind-nil decisions, 4 bids and 52 cards a hand at four players (``max_rows``: any table).
MAX_ROWS_PER_HAND = 60
#: ``starts`` columns at four players in pairs: what a match carries into the hand (any table:
#: the sides' scores, their bag counts, the hands played, ``n_starts``).
S_SCORE0, S_SCORE1, S_BAGS0, S_BAGS1, S_PLAYED = 0, 1, 2, 3, 4
N_STARTS = 5


def max_rows(rules) -> int:
    """The most rows a hand at the table of ``rules`` gives: a blind-nil question and a bid a
    seat, and every card."""
    return rules.players * (2 + rules.cards_each)


def n_starts(rules) -> int:
    """The ``starts`` numbers of a hand at the table of ``rules``: the scores and the bag counts
    of its sides, then the hands played (``N_STARTS`` at two sides)."""
    return 2 * rules.n_sides + 1


class Recorded(NamedTuple):
    """Recorded hands as ``decision_rows`` replays them, hand ``i`` in row ``i`` of each array."""

    deals: np.ndarray
    """``uint64 (n, N)``: each seat's cards (``(n, decks * N)``, the seats' levels, with copies)."""
    dealers: np.ndarray
    """``int64 (n,)``: the dealer."""
    starts: np.ndarray
    """``int64 (n, n_starts)``: what a match carries into the hand (all 0 for a hand on its own)."""
    bids: np.ndarray
    """``int64 (n, N)``: each seat's bid."""
    blind: np.ndarray
    """``bool (n, N)``: whether the seat bid blind nil."""
    plays: np.ndarray
    """``int64 (n, N * cards_each)``: the card ids in play order."""
    points: np.ndarray
    """``int64 (n, sides)``: the hand's points of each side."""


class RowBuffers(NamedTuple):
    """Where ``decision_rows`` writes: room for ``max_rows`` rows a hand."""

    obs: np.ndarray
    """``float32 (rows, size)``: the acting seat's observation vector."""
    masks: np.ndarray
    """``int8 (rows, n_actions)``: its legal actions."""
    cols: np.ndarray
    """``int64 (rows, N_COLS)``: the row's ``C_*`` columns."""


@kernel
def emit(out, m, row, pub, view, hands, blind_decision, points, rules):
    """Row ``m`` of ``out``: the acting seat's vector and mask, and ``row`` (hand ``i``,
    ``seat``, ``phase``, ``action``) with the points of its side; False if the mask refuses
    the action."""
    i, seat, phase, action = row
    seen = pub
    if hides_anything(rules):
        observe(pub, hands, seat, rules, view)
        seen = view
    write_observation(seen, seat, hands[seat], blind_decision, rules, out.obs[m])
    write_mask(pub, hands[seat], blind_decision, rules, out.masks[m])
    cols = out.cols
    cols[m, C_HAND], cols[m, C_SEAT], cols[m, C_PHASE], cols[m, C_ACTION] = i, seat, phase, action
    cols[m, C_OUTCOME] = points[i, side_of(seat, rules)]
    return out.masks[m, action] != 0


@kernel
def decision_rows(recorded, rules, out):
    """Rows of the ``Recorded`` hands ``0 .. n - 1`` into the ``RowBuffers`` ``out`` (room for
    ``max_rows`` a hand). Returns the rows written, or ``-1 - i`` when hand ``i``'s record
    holds an action its mask refuses (a record of other rules or cards)."""
    deals, blind, points = recorded.deals, recorded.blind, recorded.points
    pub = np.empty(N_PUBLIC, dtype=np.int64)
    view = np.empty(N_PUBLIC, dtype=np.int64)
    hands = np.empty(deals.shape[1], dtype=np.uint64)
    k = n_sides(rules)
    blind_nil, look = blind_nil_action(rules), look_action(rules)
    m = 0
    for i in range(deals.shape[0]):
        for s in range(deals.shape[1]):
            hands[s] = deals[i, s]
        engine_hands(hands, rules)
        st = recorded.starts[i]
        reset_public(pub, hands, recorded.dealers[i], st[:k], st[k : 2 * k], st[2 * k], rules)
        while pub[P_PHASE] == PHASE_BIDDING:
            seat = pub[P_TO_ACT]
            if (legal_bids(seat, hands[seat], pub, rules) >> BLIND_NIL_BIT) & 1:
                action = blind_nil if blind[i, seat] else look
                if not emit(out, m, (i, seat, PH_BLIND, action), pub, view, hands, True, points, rules):
                    return -1 - i
                m += 1
            if blind[i, seat]:
                apply_bid(pub, hands, np.int64(0), True, rules)
                continue
            b = np.int64(recorded.bids[i, seat])
            if not emit(out, m, (i, seat, PH_BIDDING, BID_OFFSET + b), pub, view, hands, False, points, rules):
                return -1 - i
            m += 1
            apply_bid(pub, hands, b, False, rules)
        for j in range(n_seats(rules) * cards_each(rules)):
            seat = pub[P_TO_ACT]
            card = np.int64(recorded.plays[i, j])
            if not emit(out, m, (i, seat, PH_PLAYING, card), pub, view, hands, False, points, rules):
                return -1 - i
            m += 1
            apply_card(pub, hands, engine_id(card, rules), rules)
    return m
