"""The utility's three readings of a side's worth against the others (issue 34, item 4): own
points, paranoid (minus the best other side) and mean (minus the mean of the others); the
same at two sides as the point difference Hard and Crazy have always maximized; and the agents'
``utility`` option that picks one.

The scoring of a hand beyond two sides is the engine's (``score_hand_kernel``); until it plays
those tables the readings are checked on the sides' values directly (``against_others``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_mc_agents import finished

from spades_ai import Hand, Rules, deal, make_agent
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.state import N_PUBLIC, P_BAGS, P_BIDS, P_N_BIDS, P_PHASE, P_SCORES, P_TO_ACT, P_TRICK_NO, P_WON, PHASE_OVER
from spades_ai.montecarlo import decision_values
from spades_ai.montecarlo.search import MC_UTILITY
from spades_ai.seats import seats, sides
from spades_ai.montecarlo.utility import (
    DEFAULT_UTILITY,
    MATCH_BONUS,
    UTILITIES,
    UTILITY_MEAN,
    UTILITY_OWN,
    UTILITY_PARANOID,
    against_others,
    utility,
    utility_vector,
)


@pytest.mark.parametrize(
    "values, side, own, paranoid, mean",
    [
        ([7.0, -3.0], 0, 7.0, 10.0, 10.0),  # two sides: paranoid and mean are the difference
        ([7.0, -3.0], 1, -3.0, -10.0, -10.0),
        ([10.0, 30.0, -5.0], 0, 10.0, -20.0, -2.5),  # three: the best other is 30, the mean 12.5
        ([10.0, 30.0, -5.0], 1, 30.0, 20.0, 27.5),
        ([10.0, 30.0, -5.0], 2, -5.0, -35.0, -25.0),
        ([40.0, 40.0, 0.0, -20.0], 1, 40.0, 0.0, 40.0 - 20.0 / 3),  # four: a tie for the best
        ([1.5, 2.5, 3.5, 4.5, 5.5], 4, 5.5, 1.0, 2.5),  # five
    ],
)
def test_against_others_reads_the_sides_three_ways(values, side, own, paranoid, mean):
    v = np.array(values)
    assert against_others(v, side, UTILITY_OWN) == own
    assert against_others(v, side, UTILITY_PARANOID) == paranoid
    assert against_others(v, side, UTILITY_MEAN) == mean


def random_finished(rng: random.Random):
    """A finished hand that cannot end the match (the scores stay far from 500 and -200)."""
    tricks = [0] * 4
    for _ in range(13):
        tricks[rng.randrange(4)] += 1
    bids = [rng.randint(1, 6) for _ in range(4)]  # no nil: a set nil could reach -200
    scores = (rng.randint(0, 300), rng.randint(0, 300))
    return finished(bids, tricks, scores=scores, bag_count=(rng.randint(0, 9), rng.randint(0, 9)))


def value(pub, side, mode, rules=Rules()):
    return utility(pub, rules.as_array(), side, np.zeros((2, N_FIELDS), dtype=np.int64), np.zeros(4, dtype=np.int64),
                   mode)


def test_at_two_sides_paranoid_and_mean_are_the_difference_and_own_is_one_side():
    """Four players in pairs: paranoid, mean and the default (the mode left out) give the same
    float, bit for bit, and it is the difference of the two sides' own worths."""
    rng = random.Random(34)
    for _ in range(300):
        pub = random_finished(rng)
        own = [value(pub, side, UTILITY_OWN) for side in (0, 1)]
        for side in (0, 1):
            p = value(pub, side, UTILITY_PARANOID)
            assert p == value(pub, side, UTILITY_MEAN) == own[side] - own[1 - side]
            assert p == utility(pub, Rules().as_array(), side, np.zeros((2, N_FIELDS), dtype=np.int64),
                                np.zeros(4, dtype=np.int64))


def test_own_counts_the_match_bonus_for_and_against():
    """A hand that takes team 0 past the target: +MATCH_BONUS to its own worth, -MATCH_BONUS to
    the loser's."""
    pub = finished((4, 3, 3, 2), (5, 3, 3, 2), scores=(450, 100))
    rules = Rules(target_score=500)
    base = finished((4, 3, 3, 2), (5, 3, 3, 2), scores=(400, 100))  # as near the target, not past it
    assert value(pub, 0, UTILITY_OWN, rules) == value(base, 0, UTILITY_OWN, rules) + MATCH_BONUS
    assert value(pub, 1, UTILITY_OWN, rules) == value(base, 1, UTILITY_OWN, rules) - MATCH_BONUS


def table_finished(rules: Rules, rng: random.Random):
    """A finished hand at ``rules``' table: random bids and tricks, scores that may end the match."""
    k, n = len(sides(rules)), len(seats(rules))
    pub = np.zeros(N_PUBLIC, dtype=np.int64)
    tricks = [0] * n
    for _ in range(rules.cards_each):
        tricks[rng.choice(seats(rules))] += 1
    pub[P_BIDS : P_BIDS + n] = [rng.randint(0, 4) for _ in seats(rules)]
    pub[P_N_BIDS] = n
    pub[P_WON : P_WON + n] = tricks
    pub[P_SCORES : P_SCORES + k] = [rng.randint(-100, 520) for _ in sides(rules)]
    pub[P_BAGS : P_BAGS + k] = [rng.randint(0, 9) for _ in sides(rules)]
    pub[P_TRICK_NO] = rules.cards_each
    pub[P_TO_ACT] = -1
    pub[P_PHASE] = PHASE_OVER
    return pub


@pytest.mark.parametrize("table", [{}, {"players": 3}, {"players": 4, "teams": "solo"}, {"players": 5},
                                   {"players": 6, "teams": "pairs"}, {"players": 8}])
def test_the_vector_is_every_sides_mean_reading(table):
    """``utility_vector`` writes each side's ``utility`` read as ``mean``, match bonus
    included; at two sides the two values are the difference and its negation, bit for bit."""
    rules = Rules(**table)
    rng = random.Random(45)
    k = len(sides(rules))
    sheet, nil_out = np.zeros((k, N_FIELDS), dtype=np.int64), np.zeros(len(seats(rules)), dtype=np.int64)
    ended = 0
    for _ in range(200):
        pub = table_finished(rules, rng)
        out = np.full(k, np.nan)
        utility_vector(pub, rules.as_array(), sheet, nil_out, out)
        for side in sides(rules):
            assert out[side] == utility(pub, rules.as_array(), side, sheet, nil_out, UTILITY_MEAN)
        if k == 2:
            assert out[0] == utility(pub, rules.as_array(), 0, sheet, nil_out, UTILITY_PARANOID) == -out[1]
        ended += abs(out).max() >= MATCH_BONUS / 2
    assert ended > 10


# -- the agents' option ----------------------------------------------------------------------------
def test_hard_and_crazy_take_a_utility_option():
    assert DEFAULT_UTILITY in UTILITIES
    for name in ("hard", "crazy"):
        assert make_agent(name).options["utility"] == DEFAULT_UTILITY
        assert make_agent(name).params[MC_UTILITY] == UTILITIES.index(DEFAULT_UTILITY)
        for mode in UTILITIES:
            agent = make_agent(name, utility=mode)
            assert agent.params[MC_UTILITY] == UTILITIES.index(mode)
    assert make_agent("hard", utility="own").label == "hard(utility=own)"
    with pytest.raises(ValueError, match="option 'utility': must be one of 'own', 'paranoid', 'mean', not 'max'"):
        make_agent("hard", utility="max")
    with pytest.raises(ValueError, match="option 'utility': must be one of 'own', 'paranoid', 'mean', not 'vector'"):
        make_agent("crazy", utility="vector")  # one value per side is a tree's (ISMCTS)
    with pytest.raises(ValueError, match="option 'utility': must be one of 'own', 'paranoid', 'mean', 'vector', not 'max'"):
        make_agent("ismcts", utility="max")


def test_the_option_reaches_the_search():
    """At four players paranoid and mean value every card alike; own values them by the seat's
    side's points alone, which differs."""
    hand = Hand(deal(seed=5))
    normal = make_agent("normal")
    while hand.phase == "bidding":
        hand.bid(normal.bid(hand.observation()))
    for _ in range(5):
        hand.play(normal.play(hand.observation()))
    obs = hand.observation()
    values = {m: decision_values(make_agent("hard", worlds=24, utility=m), obs)[1] for m in UTILITIES}
    assert len(values["own"]) > 1
    assert values["paranoid"] == values["mean"]
    assert values["own"] != values["paranoid"]
