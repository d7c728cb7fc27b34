"""Recorded hands replayed on the engine into the models' training rows, in numba, with the same
feature kernels the agent plays by (``features``): so what a model is fitted on is exactly what
it sees when it plays.

A hand is given as ``learn.dataset`` rows turn into (``learn.hands.dataset_hands``): its deal
(a bitboard of card ids a seat, and one a copy level with several decks), dealer, bids, blind
flags and the card ids in play order: at any table for ``play_rows``, at four in pairs for
``bid_rows`` (the tricks bidder's). Every
recorded card is checked as it is replayed (``recorded_card``): a card the seat to act may not
play (not in its hand, or not legal there: a record of other deals or rules) stops the replay,
which returns -1 with the hand, the seat and the card in ``err``.

``bid_rows`` gives a row per bidding decision: a sighted bid (``KIND_BID``: the features before
it) or a blind-nil question (``KIND_BLIND``: no features), with the integer columns ``B_*`` and
the float columns ``V_*`` of how the hand went. ``play_rows`` gives a row of ``card_features``
per legal card of every card decision of the chosen seats that had a choice, and per decision
its first row, its number of cards and the index among them of the card played.

``bid_candidate_rows`` gives the vector bidder's rows (any table): per sighted bid, a row of
``bid_candidate_features`` a candidate bid. ``value_candidate`` says which bids the value bidder weighs; its rows, each candidate bid played
out in sampled worlds, are ``montecarlo.bid_values``'s (they sample worlds, a layer below).
"""

import numpy as np

from spades_ai.engine.bids import BLIND_NIL_BIT, legal_bids
from spades_ai.engine.bits import ONE, U64, lowest_index, popcount
from spades_ai.engine.deal import engine_hands, to_engine
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.score import (
    F_CONTRACT_POINTS,
    F_COUNTED,
    F_NEW_BAGS,
    N_FIELDS,
    bag_cost,
    nil_bid_points,
    score_hand_kernel,
)
from spades_ai.engine.seats import cards_each, n_seats, partner, side_of
from spades_ai.engine.state import (
    MAX_SIDES,
    N_PUBLIC,
    P_BIDS,
    P_PHASE,
    P_TO_ACT,
    P_WON,
    PHASE_BIDDING,
    apply_bid,
    apply_card,
    legal_now,
    reset_public,
)
from spades_ai.models.explore import NIL_TRIAL_BELOW
from spades_ai.models.features import (
    N_CARD_FEATURES,
    bid_candidate_features,
    bid_features,
    card_features,
    is_bid_candidate,
    play_context,
)
from spades_ai.models.model import OUT_VALUE_NIL, VALUE_SHIFTS
from spades_ai.policies.normal import estimate_tricks, normal_bid

KIND_BID, KIND_BLIND = 0, 1
#: the bid mask of every number bid, 1..13: Normal's number bid, whatever is legal (the value
#: bidder's candidates are moved from it, at play as in its rows)
NUMBER_BIDS = 0x3FFE
#: integer columns of a bidding row: the hand, the seat, the kind, the bid (for a blind-nil
#: question: 1 if it was bid), D (the team's counted tricks minus the partner's bid), the
#: partner's bid, whether the partner bid later, whether the seat took no trick, whether the
#: partner bid blind nil
B_HAND, B_SEAT, B_KIND, B_BID, B_D, B_PARTNER, B_PARTNER_LATER, B_NO_TRICK, B_PARTNER_BLIND = range(9)
N_B = 9
#: float columns: the team's points (bags at their real cost), the same without the seat's nil
V_TEAM, V_PARTNER = 0, 1
N_V = 2


@kernel
def start_deal(deal, dealer, rules, hands, pub):
    """Seat ``deal`` (a bitboard of card ids a seat and copy level) into ``hands`` and a new hand of ``dealer``
    into ``pub`` (the match at 0)."""
    hands[:] = deal
    engine_hands(hands, rules)
    zeros = np.zeros(MAX_SIDES, dtype=np.int64)
    reset_public(pub, hands, dealer, zeros, zeros, 0, rules)


@kernel
def recorded_card(pub, hands, i, plays, j, rules, err):
    """The engine id of hand ``i``'s ``j``-th recorded card, or -1 (the hand, the seat to act
    and the card into ``err``) when that seat may not play it."""
    card_id = plays[i, j]
    seat = pub[P_TO_ACT]
    if 0 <= card_id < 52:
        card = lowest_index(to_engine(ONE << U64(card_id), rules))
        if U64(legal_now(pub, hands[seat], rules)) & (ONE << U64(card)):
            return card
    err[0], err[1], err[2] = i, seat, card_id
    return -1


@inline_kernel
def own_nil_points(bid, blind, tricks, rules):
    """A seat's own nil points (0 for a number bid), as ``engine.score`` counts them."""
    return nil_bid_points(blind, tricks, rules) if (bid <= 0 or blind) else 0


@kernel
def bid_rows(deals, dealers, bids, blind, plays, rules, feats, cols, vals, err):
    """The bidding rows of every hand into ``feats`` / ``cols`` / ``vals`` (room for 8 a
    hand); returns how many, or -1 at a recorded card its seat may not play (``err``)."""
    pub = np.empty(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    sheet = np.zeros((2, N_FIELDS), dtype=np.int64)
    nil_out = np.zeros(4, dtype=np.int64)
    tricks = np.zeros(4, dtype=np.int64)
    zeros = np.zeros(2, dtype=np.int64)
    bag = 1.0 - bag_cost(rules)
    m = 0
    for i in range(deals.shape[0]):
        start_deal(deals[i], dealers[i], rules, hands, pub)
        first = m
        while pub[P_PHASE] == PHASE_BIDDING:
            seat = pub[P_TO_ACT]
            later = 1 if pub[P_BIDS + partner(seat, rules)] < 0 else 0
            if (legal_bids(seat, hands[seat], pub, rules) >> BLIND_NIL_BIT) & 1:
                cols[m, B_HAND], cols[m, B_SEAT], cols[m, B_PARTNER_LATER] = i, seat, later
                cols[m, B_KIND], cols[m, B_BID] = KIND_BLIND, 1 if blind[i, seat] else 0
                m += 1
            if blind[i, seat]:
                apply_bid(pub, hands, np.int64(0), True, rules)
                continue
            bid_features(pub, seat, hands[seat], rules, feats[m])
            cols[m, B_HAND], cols[m, B_SEAT], cols[m, B_PARTNER_LATER] = i, seat, later
            cols[m, B_KIND], cols[m, B_BID] = KIND_BID, bids[i, seat]
            m += 1
            apply_bid(pub, hands, np.int64(bids[i, seat]), False, rules)
        for j in range(52):
            card = recorded_card(pub, hands, i, plays, j, rules, err)
            if card < 0:
                return -1
            apply_card(pub, hands, card, rules)
        for s in range(n_seats(rules)):
            tricks[s] = pub[P_WON + s]
        score_hand_kernel(bids[i], blind[i], tricks, zeros, zeros, rules, sheet, nil_out)
        for r in range(first, m):
            seat = cols[r, B_SEAT]
            team, mate = side_of(seat, rules), partner(seat, rules)
            partner_bid = 0 if blind[i, mate] else bids[i, mate]
            cols[r, B_PARTNER] = partner_bid
            cols[r, B_PARTNER_BLIND] = 1 if blind[i, mate] else 0
            cols[r, B_D] = sheet[team, F_COUNTED] - partner_bid
            cols[r, B_NO_TRICK] = 1 if tricks[seat] == 0 else 0
            contract = sheet[team, F_CONTRACT_POINTS] + bag * sheet[team, F_NEW_BAGS]
            vals[r, V_PARTNER] = contract + own_nil_points(bids[i, mate], blind[i, mate], tricks[mate], rules)
            vals[r, V_TEAM] = vals[r, V_PARTNER] + own_nil_points(bids[i, seat], blind[i, seat], tricks[seat], rules)
    return m


@kernel
def play_rows(deals, dealers, bids, blind, plays, actors, rules, feats, decisions, err):
    """The card rows of the seats ``actors[i, seat]`` (room for a row per legal card)
    into ``feats``, and per decision (``decisions``) its first row, its number of legal cards
    and the index among them (by card id) of the card played. Returns (rows, decisions), or
    (-1, -1) at a recorded card its seat may not play (``err``)."""
    pub = np.empty(N_PUBLIC, dtype=np.int64)
    hands = np.empty(deals.shape[1], dtype=np.uint64)
    ctx = np.empty(N_CARD_FEATURES)
    m = 0
    d = 0
    for i in range(deals.shape[0]):
        start_deal(deals[i], dealers[i], rules, hands, pub)
        while pub[P_PHASE] == PHASE_BIDDING:
            seat = pub[P_TO_ACT]
            apply_bid(pub, hands, np.int64(0 if blind[i, seat] else bids[i, seat]), blind[i, seat], rules)
        for j in range(plays.shape[1]):
            seat = pub[P_TO_ACT]
            card = recorded_card(pub, hands, i, plays, j, rules, err)
            if card < 0:
                return -1, -1
            hand = hands[seat]
            legal = U64(legal_now(pub, hand, rules))
            if actors[i, seat] and popcount(legal) > 1:
                normal = play_context(pub, seat, hand, legal, rules, ctx)
                decisions[d, 0], decisions[d, 1] = m, popcount(legal)
                k = 0
                rest = legal
                while rest:
                    c = lowest_index(rest)
                    rest &= rest - ONE
                    card_features(pub, seat, hand, legal, rules, c, normal, ctx, feats[m])
                    if c == card:
                        decisions[d, 2] = k
                    m += 1
                    k += 1
                d += 1
            apply_card(pub, hands, card, rules)
    return m, d


@kernel
def bid_candidate_rows(deals, dealers, bids, blind, rules, feats, cands, decisions):
    """The vector bidder's rows of every sighted bid of every hand: a row of
    ``bid_candidate_features`` a legal candidate (``is_bid_candidate``, ascending) into ``feats``,
    its bid into ``cands``, and per decision (``decisions``) its first row, its number of
    candidates and the index among them of the bid made (-1 if it was none). Returns (rows,
    decisions)."""
    pub = np.empty(N_PUBLIC, dtype=np.int64)
    hands = np.empty(deals.shape[1], dtype=np.uint64)
    m = 0
    d = 0
    for i in range(deals.shape[0]):
        start_deal(deals[i], dealers[i], rules, hands, pub)
        while pub[P_PHASE] == PHASE_BIDDING:
            seat = pub[P_TO_ACT]
            if not blind[i, seat]:
                legal = legal_bids(seat, hands[seat], pub, rules)
                normal = normal_bid(pub, seat, hands[seat], rules, legal)
                decisions[d, 0], decisions[d, 2] = m, -1
                k = 0
                for b in range(cards_each(rules) + 1):
                    if (legal >> b) & 1 and is_bid_candidate(b, normal):
                        bid_candidate_features(b, normal, rules, feats[m])
                        cands[m] = b
                        if b == bids[i, seat]:
                            decisions[d, 2] = k
                        m += 1
                        k += 1
                decisions[d, 1] = k
                d += 1
            apply_bid(pub, hands, np.int64(0 if blind[i, seat] else bids[i, seat]), blind[i, seat], rules)
    return m, d


@kernel
def value_candidate(k, guess, hand, rules):
    """The bid of the value bidder's output ``k`` for a hand Normal would bid ``guess`` on:
    ``guess + VALUE_SHIFTS[k]``, or nil for ``OUT_VALUE_NIL``; -1 where it is no candidate (out
    of 1..13, or nil on a hand of Normal estimate ``explore.NIL_TRIAL_BELOW`` or more). The
    rows and the bidder both ask here, so they weigh the same bids."""
    if k == OUT_VALUE_NIL:
        return 0 if estimate_tricks(hand, rules) < NIL_TRIAL_BELOW else -1
    b = guess + VALUE_SHIFTS[k]
    return b if 1 <= b <= 13 else -1
