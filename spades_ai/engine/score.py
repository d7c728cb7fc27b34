"""Scoring a hand and deciding a match, with every house-rule option.

Per side (its seats ``side_seats``: ``k`` and ``k + n_sides`` with pairs, ``k`` alone solo)::

    contract        sum of the non-nil bids
    counted         tricks toward the contract: the non-nil bidders' tricks, or (nil tricks
                    count) every trick of the side's seats
    made            counted >= contract (a side of nil bidders only has contract 0 and makes it)
    contract points made: 10 x contract (20 x with ten_for_200 and contract >= 10);
                    set: -10 x contract, and a contract of 5 or more loses ``failed_bid``
                    more (``R_FAILED_BID``, 0 by default)
    new bags        overtricks of a made contract, plus, unless nil tricks count, every trick a
                    nil bidder took; each is also worth one point
    nil points      per nil bidder: +bonus with no trick, else -bonus (blind: blind bonus; with
                    half_blind_penalty a failed blind nil loses half of it, rounded down)
    penalties       while bags >= bag_limit: bags -= bag_limit, one penalty of bag_penalty
    points          contract points + new bags + nil points - penalties x bag_penalty

``score_hand_kernel`` fills ``out[side, F_*]`` (``n_sides`` rows) and ``nil_out[seat]`` (``NIL_NONE``, ``NIL_FAILED``,
``NIL_MADE``), a nil bid's points coming from ``nil_bid_points``. ``bag_cost`` is a bag's share
of the penalty it leads to, what a utility charges for a bag before the penalty falls.
"""


import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.seats import n_seats, n_sides
from spades_ai.rules import (
    R_BAG_LIMIT,
    R_BAG_PENALTY,
    R_BLIND_BONUS,
    R_FAILED_BID,
    R_HALF_BLIND,
    R_LOSS,
    R_MAX_HANDS,
    R_NIL_BONUS,
    R_NIL_TRICKS_COUNT,
    R_TARGET,
    R_TEN_FOR_200,
)

(
    F_CONTRACT,
    F_TRICKS,
    F_COUNTED,
    F_MADE,
    F_CONTRACT_POINTS,
    F_NEW_BAGS,
    F_NIL_POINTS,
    F_PENALTIES,
    F_POINTS,
    F_SCORE,
    F_BAGS,
) = range(11)
N_FIELDS = 11
NIL_NONE, NIL_FAILED, NIL_MADE = -1, 0, 1
FAILED_BID_FROM = 5  # the smallest set contract that loses ``failed_bid`` more


@inline_kernel
def nil_bid_points(blind, tricks, rules):
    """A nil bid's points: its bonus when the seat took no trick (``tricks``), else minus it
    (blind: the blind bonus; with half_blind_penalty a failed blind nil loses half of it)."""
    bonus = rules[R_BLIND_BONUS] if blind else rules[R_NIL_BONUS]
    loss = bonus // 2 if (blind and rules[R_HALF_BLIND] != 0) else bonus
    return bonus if tricks == 0 else -loss


@inline_kernel
def bag_cost(rules):
    """A bag's share of the penalty it leads to: ``bag_penalty / bag_limit`` points."""
    return rules[R_BAG_PENALTY] / rules[R_BAG_LIMIT]


@kernel
def score_hand_kernel(bids, blind, tricks, scores, bags, rules, out, nil_out):
    """Score one hand (see the module docstring): ``bids``, ``blind`` and ``tricks`` per seat,
    ``scores`` and ``bags`` per side, before the hand."""
    nil_count = rules[R_NIL_TRICKS_COUNT] != 0
    for side in range(n_sides(rules)):
        contract = 0
        counted = 0
        nil_bags = 0
        nil_points = 0
        side_tricks = 0
        for seat in range(side, n_seats(rules), n_sides(rules)):
            t = tricks[seat]
            side_tricks += t
            if bids[seat] > 0:
                contract += bids[seat]
                counted += t
                nil_out[seat] = NIL_NONE
            else:
                nil_points += nil_bid_points(blind[seat], t, rules)
                nil_out[seat] = NIL_MADE if t == 0 else NIL_FAILED
                if nil_count:
                    counted += t
                else:
                    nil_bags += t
        made = counted >= contract
        if made:
            per_trick = 20 if (rules[R_TEN_FOR_200] != 0 and contract >= 10) else 10
            contract_points = per_trick * contract
            new_bags = counted - contract + nil_bags
        else:
            contract_points = -10 * contract
            if contract >= FAILED_BID_FROM:
                contract_points -= rules[R_FAILED_BID]
            new_bags = nil_bags
        total_bags = bags[side] + new_bags
        penalties = 0
        while total_bags >= rules[R_BAG_LIMIT]:
            total_bags -= rules[R_BAG_LIMIT]
            penalties += 1
        points = contract_points + new_bags + nil_points - penalties * rules[R_BAG_PENALTY]
        out[side, F_CONTRACT] = contract
        out[side, F_TRICKS] = side_tricks
        out[side, F_COUNTED] = counted
        out[side, F_MADE] = made
        out[side, F_CONTRACT_POINTS] = contract_points
        out[side, F_NEW_BAGS] = new_bags
        out[side, F_NIL_POINTS] = nil_points
        out[side, F_PENALTIES] = penalties
        out[side, F_POINTS] = points
        out[side, F_SCORE] = scores[side] + points
        out[side, F_BAGS] = total_bags


@kernel
def match_winner_kernel(scores, hands_played, rules):
    """The winning side when the match is over at ``scores`` (one per side) after
    ``hands_played`` hands, -1 to play on.

    The match ends for every side when one reaches the target, one falls to the loss
    threshold, or ``max_hands`` hands are played; the single highest score then wins (even
    below the target), and a tie for it plays another hand.
    """
    top, low, winner = scores[0], scores[0], np.int64(0)
    tied = False
    for k in range(1, n_sides(rules)):
        s = scores[k]
        low = min(low, s)
        if s > top:
            top, winner, tied = s, k, False
        elif s == top:
            tied = True
    over = top >= rules[R_TARGET] or low <= rules[R_LOSS]
    if rules[R_MAX_HANDS] > 0 and hands_played >= rules[R_MAX_HANDS]:
        over = True
    if not over or tied:
        return -1
    return winner
