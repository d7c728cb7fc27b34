"""What a finished hand is worth to a side: the value every Monte Carlo search maximizes.

Each side's hand is worth its points, with every bag charged its real cost (``bag_penalty /
bag_limit`` for each bag the hand adds to the count, the penalty itself counted when the count
reaches the limit), that cost halved for a side within ``NEAR_TARGET`` (150) points of the
target, where the match is likely to end before the bags come due. ``utility`` reads the
searching side's worth against the other sides' in one of three ways (``UTILITIES``, the
agents' ``utility`` option):

- ``own``: its own worth, whatever the others make;
- ``paranoid``: its worth minus the best other side's (as if the others played against it);
- ``mean``: its worth minus the mean of the other sides'.

A tree search may instead keep one value per side (``vector``, ``utility_vector``): every
side's worth read as ``mean``, so that each side of the tree chooses by its own (max^n).

With two sides (four players in pairs) ``paranoid`` and ``mean`` are both the difference between
the sides, to the bit. ``MATCH_BONUS`` (300) is added when the hand ends the match (target, loss
threshold or max hands) in the side's favour, and taken off when another side wins it.
``win_chance`` is the objective of a blind nil: the chance of winning the match after the hand,
against the best other side whatever the mode (a match is won only by beating every side).
"""

import math

import numpy as np

from spades_ai.engine.jit import kernel
from spades_ai.engine.score import F_BAGS, F_POINTS, F_SCORE, bag_cost, match_winner_kernel, score_hand_kernel
from spades_ai.engine.seats import n_seats, n_sides
from spades_ai.engine.state import P_BAGS, P_BIDS, P_BLIND, P_HANDS_PLAYED, P_SCORES, P_WON
from spades_ai.rules import NO_TARGET, R_MAX_HANDS, R_TARGET

MATCH_BONUS = 300.0
#: A side this close to the target pays ``NEAR_TARGET_BAG_COST`` of a bag's cost (see ``utility``).
NEAR_TARGET = 150
NEAR_TARGET_BAG_COST = 0.5
#: ``win_chance``'s match model: a side scores about this many points a hand ...
POINTS_PER_HAND = 60.0
#: ... and the difference between two sides moves by about this much a hand (standard deviation).
HAND_SIGMA = 100.0
#: How ``utility`` reads a side's worth against the others (the module docstring), by number.
UTILITIES = ("own", "paranoid", "mean")
UTILITY_OWN, UTILITY_PARANOID, UTILITY_MEAN = range(3)
#: The readings of a tree search (ISMCTS): ``UTILITIES``, each a scalar the searching side
#: maximizes and every other side minimizes, and ``vector``: one value per side
#: (``utility_vector``), each side choosing by its own (max^n).
TREE_UTILITIES = UTILITIES + ("vector",)
UTILITY_VECTOR = 3
#: The agents' default. Every mode but ``own`` is today's utility at four players in pairs. At
#: three players (issue 34), one Hard alone against two Normals scored per deal over them, on
#: the same 200 deals (``cutthroat_utility_alone_*``): mean +17.3 [+15.7, +19.0], paranoid the
#: same to -0.0 [-1.1, +1.1] paired, own -1.3 [-3.1, +0.6] paired. ``mean`` is kept: the best
#: of a Hard among other players, the question a default answers. Two Hards beside one Normal
#: (``cutthroat_utility_*``, 600 deals) lead it by +13.3 with ``own`` against +5.8 with ``mean``:
#: Hards that seek only their own points do not spend tricks setting each other.
DEFAULT_UTILITY = "mean"


@kernel
def against_others(values, side, mode):
    """``values[side]`` read against the other sides' ``values`` as ``mode`` says
    (``UTILITY_OWN``, ``UTILITY_PARANOID`` or ``UTILITY_MEAN``)."""
    if mode == UTILITY_OWN:
        return values[side]
    best = -np.inf
    total = 0.0
    for t in range(len(values)):
        if t != side:
            best = max(best, values[t])
            total += values[t]
    if mode == UTILITY_PARANOID:
        return values[side] - best
    return values[side] - total / (len(values) - 1)


@kernel
def score_sheet(pub, rules, sheet, nil_out):
    """Score the finished hand in ``pub`` into ``sheet`` (a row per side) and ``nil_out``."""
    n = n_seats(rules)
    k = n_sides(rules)
    score_hand_kernel(pub[P_BIDS : P_BIDS + n], pub[P_BLIND : P_BLIND + n], pub[P_WON : P_WON + n],
                      pub[P_SCORES : P_SCORES + k], pub[P_BAGS : P_BAGS + k], rules, sheet, nil_out)


@kernel
def match_winner_after(pub, rules, sheet):
    """The side that wins the match with the hand scored in ``sheet``, or -1 to play on."""
    return match_winner_kernel(sheet[:, F_SCORE], pub[P_HANDS_PLAYED] + 1, rules)


@kernel
def side_worths(pub, rules, sheet, nil_out):
    """Each side's own worth of the finished hand in ``pub`` (points with bags at their cost),
    a float per side; ``sheet`` and ``nil_out`` receive the hand's score."""
    score_sheet(pub, rules, sheet, nil_out)
    per_bag = bag_cost(rules)
    value = np.zeros(n_sides(rules))
    for t in range(len(value)):
        # Bags still on the count will cost their share of a penalty later, unless the match
        # is about to end (then they are nearly free).
        near_end = sheet[t, F_SCORE] >= rules[R_TARGET] - NEAR_TARGET
        cost = per_bag * (NEAR_TARGET_BAG_COST if near_end else 1.0)
        value[t] = sheet[t, F_POINTS] - cost * (sheet[t, F_BAGS] - pub[P_BAGS + t])
    return value


@kernel
def utility(pub, rules, side, sheet, nil_out, mode=UTILITIES.index(DEFAULT_UTILITY)):
    """Value of the finished hand in ``pub`` to ``side``: points with bags at their cost, read
    against the other sides as ``mode`` says (``against_others``), and the match's end.
    ``sheet`` and ``nil_out`` receive the hand's score."""
    value = side_worths(pub, rules, sheet, nil_out)
    v = against_others(value, side, mode)
    w = match_winner_after(pub, rules, sheet)
    if w >= 0:
        v += MATCH_BONUS if w == side else -MATCH_BONUS
    return v


@kernel
def utility_vector(pub, rules, sheet, nil_out, out):
    """Every side's ``utility`` of the finished hand in ``pub``, read as ``mean`` (its worth
    minus the mean of the others'), into ``out`` (a float per side): the reward of a search
    that keeps one value per side (``UTILITY_VECTOR``). The values sum to zero but for the
    match's end; at two sides ``out[t]`` is ``utility(.., t, .., mode)`` of every mode but
    ``own``, to the bit, and ``out[1] == -out[0]``."""
    value = side_worths(pub, rules, sheet, nil_out)
    w = match_winner_after(pub, rules, sheet)
    for t in range(len(value)):
        v = against_others(value, t, UTILITY_MEAN)
        if w >= 0:
            v += MATCH_BONUS if w == t else -MATCH_BONUS
        out[t] = v


@kernel
def win_chance(pub, rules, side, sheet, nil_out):
    """The chance that ``side`` wins the match, after the finished hand in ``pub``.

    1 or 0 when the hand ends the match. Otherwise the score difference to the best other side
    (each bag on the count charged ``bag_penalty / bag_limit``) against a random walk of
    ``HAND_SIGMA`` a hand over the hands left: the target's distance from the leader at
    ``POINTS_PER_HAND`` a hand, or the hands ``max_hands`` leaves, whichever is fewer.
    """
    score_sheet(pub, rules, sheet, nil_out)
    w = match_winner_after(pub, rules, sheet)
    if w >= 0:
        return 1.0 if w == side else 0.0
    per_bag = bag_cost(rules)
    worth = np.empty(n_sides(rules))
    for t in range(len(worth)):
        worth[t] = sheet[t, F_SCORE] - per_bag * sheet[t, F_BAGS]
    d = against_others(worth, side, UTILITY_PARANOID)
    top = sheet[0, F_SCORE]
    for t in range(1, len(worth)):
        top = max(top, sheet[t, F_SCORE])
    left = 1e9
    if rules[R_TARGET] != NO_TARGET:
        left = max(1.0, (rules[R_TARGET] - top) / POINTS_PER_HAND)
    if rules[R_MAX_HANDS] > 0:
        left = min(left, max(1.0, rules[R_MAX_HANDS] - pub[P_HANDS_PLAYED] - 1.0))
    return 0.5 * (1.0 + math.erf(d / (HAND_SIGMA * math.sqrt(2.0 * left))))
