"""What a finished hand is worth to a team: the value every Monte Carlo search maximizes.

``utility`` is the difference between the teams' points, with every bag charged its real cost
(``bag_penalty / bag_limit`` for each bag the hand adds to the count, the penalty itself counted
when the count reaches the limit), that cost halved for a team within ``NEAR_TARGET`` (150)
points of the target, where the match is likely to end before the bags come due, and
``MATCH_BONUS`` (300) when the hand ends the match (target, loss threshold or max hands) in the
team's favour, minus it against. ``win_chance`` is the objective of a blind nil: the chance of
winning the match after the hand.
"""

import math

import numpy as np

from spades_ai.engine.jit import kernel
from spades_ai.engine.score import F_BAGS, F_POINTS, F_SCORE, bag_cost, match_winner_kernel, score_hand_kernel
from spades_ai.engine.state import P_BAGS, P_BIDS, P_BLIND, P_HANDS_PLAYED, P_SCORES, P_WON
from spades_ai.rules import NO_TARGET, R_MAX_HANDS, R_TARGET

MATCH_BONUS = 300.0
#: A team this close to the target pays ``NEAR_TARGET_BAG_COST`` of a bag's cost (see ``utility``).
NEAR_TARGET = 150
NEAR_TARGET_BAG_COST = 0.5
#: ``win_chance``'s match model: a team scores about this many points a hand ...
POINTS_PER_HAND = 60.0
#: ... and the difference between the teams moves by about this much a hand (standard deviation).
HAND_SIGMA = 100.0

@kernel
def utility(pub, rules, team, sheet, nil_out):
    """Value of the finished hand in ``pub`` to ``team``: point difference, bags at their cost,
    and the match's end."""
    score_hand_kernel(pub[P_BIDS : P_BIDS + 4], pub[P_BLIND : P_BLIND + 4], pub[P_WON : P_WON + 4],
               pub[P_SCORES : P_SCORES + 2], pub[P_BAGS : P_BAGS + 2], rules, sheet, nil_out)
    per_bag = bag_cost(rules)
    value = np.zeros(2)
    for t in range(2):
        # Bags still on the count will cost their share of a penalty later, unless the match
        # is about to end (then they are nearly free).
        near_end = sheet[t, F_SCORE] >= rules[R_TARGET] - NEAR_TARGET
        cost = per_bag * (NEAR_TARGET_BAG_COST if near_end else 1.0)
        value[t] = sheet[t, F_POINTS] - cost * (sheet[t, F_BAGS] - pub[P_BAGS + t])
    v = value[team] - value[1 - team]
    w = match_winner_kernel(sheet[:, F_SCORE], pub[P_HANDS_PLAYED] + 1, rules)
    if w >= 0:
        v += MATCH_BONUS if w == team else -MATCH_BONUS
    return v



@kernel
def win_chance(pub, rules, team, sheet, nil_out):
    """The chance that ``team`` wins the match, after the finished hand in ``pub``.

    1 or 0 when the hand ends the match. Otherwise the score difference (each bag on the count
    charged ``bag_penalty / bag_limit``) against a random walk of ``HAND_SIGMA`` a hand over the
    hands left: the target's distance from the leader at ``POINTS_PER_HAND`` a hand, or the
    hands ``max_hands`` leaves, whichever is fewer.
    """
    score_hand_kernel(pub[P_BIDS : P_BIDS + 4], pub[P_BLIND : P_BLIND + 4], pub[P_WON : P_WON + 4],
               pub[P_SCORES : P_SCORES + 2], pub[P_BAGS : P_BAGS + 2], rules, sheet, nil_out)
    s0, s1 = sheet[0, F_SCORE], sheet[1, F_SCORE]
    w = match_winner_kernel(sheet[:, F_SCORE], pub[P_HANDS_PLAYED] + 1, rules)
    if w >= 0:
        return 1.0 if w == team else 0.0
    per_bag = bag_cost(rules)
    mine = sheet[team, F_SCORE] - per_bag * sheet[team, F_BAGS]
    d = mine - (sheet[1 - team, F_SCORE] - per_bag * sheet[1 - team, F_BAGS])
    left = 1e9
    if rules[R_TARGET] != NO_TARGET:
        left = max(1.0, (rules[R_TARGET] - max(s0, s1)) / POINTS_PER_HAND)
    if rules[R_MAX_HANDS] > 0:
        left = min(left, max(1.0, rules[R_MAX_HANDS] - pub[P_HANDS_PLAYED] - 1.0))
    return 0.5 * (1.0 + math.erf(d / (HAND_SIGMA * math.sqrt(2.0 * left))))

