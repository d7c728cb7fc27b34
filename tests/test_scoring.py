"""Hand-computed scoring vectors for ``score_hand`` and ``match_winner`` (RULES.md, "Scoring").

Team 0 is seats 0 and 2, team 1 seats 1 and 3. Each vector's arithmetic is written out in its
comment; the expected numbers were worked by hand from RULES.md, not by running the engine.
"""

from __future__ import annotations

import pytest
from naive import naive_match_winner, naive_score

from spades_ai import HandResult, Rules, match_winner, score_hand

pytestmark = pytest.mark.nojit  # quick enough to run with the JIT off too (tests/test_nojit.py)

N = None


def vec(id, bids, tricks, points, scores, bags, made, nil=(N, N, N, N), *, rules=None, blind=(False,) * 4,
        before=(0, 0), bags_before=(0, 0), extra=None):
    return pytest.param(
        dict(rules or {}), bids, tricks, blind, before, bags_before,
        dict(points=points, scores=scores, bag_count=bags, made=made, nil_made=nil, **(extra or {})),
        id=id,
    )


VECTORS = [
    # T0: contract 4+3=7, 8 tricks -> 70 + 1 overtrick = 71, 1 bag. T1: 3+2=5, 5 tricks -> 50.
    vec("made_with_overtricks", [4, 3, 3, 2], [5, 3, 3, 2], (71, 50), (71, 50), (1, 0), (True, True),
        extra=dict(contract=(7, 5), counted_tricks=(8, 5), contract_points=(70, 50), new_bags=(1, 0))),
    # T0: contract 9, 6 tricks -> set, -90, no bags. T1: contract 4, 7 tricks -> 40 + 3 = 43, 3 bags.
    vec("set", [5, 3, 4, 1], [4, 4, 2, 3], (-90, 43), (30, 123), (2, 4), (False, True),
        before=(120, 80), bags_before=(2, 1), extra=dict(contract_points=(-90, 40), new_bags=(0, 3))),
    # T0 both nil: contract 0, all 13 tricks are bags; nil -100 + 100 = 0. 9 + 13 = 22 bags: two
    # penalties (-200), 2 bags left: 13 - 200 = -187. T1: contract 2, no trick -> -20.
    vec("two_bag_penalties", [0, 1, 0, 1], [13, 0, 0, 0], (-187, -20), (-87, 80), (2, 0), (True, False),
        (False, N, True, N), before=(100, 100), bags_before=(9, 0),
        extra=dict(new_bags=(13, 0), bag_penalties=(2, 0), nil_points=(0, 0), contract=(0, 2))),
    # T0: contract 4, 7 tricks -> 43 with 3 bags; 7 + 3 = 10 reaches the limit: -100, 0 bags left.
    vec("exactly_at_bag_limit", [2, 3, 2, 3], [4, 3, 3, 3], (-57, 60), (-57, 60), (0, 0), (True, True),
        bags_before=(7, 0), extra=dict(bag_penalties=(1, 0), new_bags=(3, 0))),
    # As above with 6 old bags: 9 < 10, no penalty. T1 keeps its 9 bags (no new ones).
    vec("one_below_bag_limit", [2, 3, 2, 3], [4, 3, 3, 3], (43, 60), (43, 60), (9, 9), (True, True),
        bags_before=(6, 9), extra=dict(bag_penalties=(0, 0))),
    # T0 both nil, both fail: contract 0, 3 bags, -200 -> -197. T1: contract 7, 10 tricks -> 73.
    vec("both_partners_nil_failed", [0, 3, 0, 4], [2, 5, 1, 5], (-197, 73), (-197, 73), (3, 3), (True, True),
        (False, N, False, N), extra=dict(contract=(0, 7), nil_points=(-200, 0), new_bags=(3, 3))),
    # T0 both nil, both made: +200. T1: contract 12, 13 tricks -> 121.
    vec("both_partners_nil_made", [0, 6, 0, 6], [0, 6, 0, 7], (200, 121), (200, 121), (0, 1), (True, True),
        (True, N, True, N)),
    # Everyone nil: T0 fails twice (-200) with 6 bags; T1 fails twice with 7 bags.
    vec("all_four_nil", [0, 0, 0, 0], [3, 4, 3, 3], (-194, -193), (-194, -193), (6, 7), (True, True),
        (False, False, False, False)),
    # T0: seat 0 nil takes 2 (-100, 2 bags = +2); seat 2 bid 5 took 3 -> -50. -148.
    # T1: contract 7, 8 tricks -> 71.
    vec("nil_beside_set_contract", [0, 4, 5, 3], [2, 4, 3, 4], (-148, 71), (-148, 71), (2, 1), (False, True),
        (False, N, N, N), extra=dict(contract=(5, 7), counted_tricks=(3, 8), nil_points=(-100, 0))),
    # T0: nil made +100; contract 4, 5 tricks -> 41. T1: 7 bid, 8 taken -> 71.
    vec("nil_beside_made_contract", [0, 3, 4, 4], [0, 4, 5, 4], (141, 71), (141, 71), (1, 1), (True, True),
        (True, N, N, N)),
    # T0: nil takes 3: -100, and 3 bags (+3); partner 4 of 4 -> 40. -57. T1: 7 bid, 6 taken -> -70.
    vec("failed_nil_tricks_are_bags", [0, 3, 4, 4], [3, 3, 4, 3], (-57, -70), (-57, -70), (3, 0), (True, False),
        (False, N, N, N), extra=dict(new_bags=(3, 0), counted_tricks=(4, 6))),
    # Same with 8 old bags: 11 bags -> -100, 1 left. -157.
    vec("failed_nil_bags_cost_a_penalty", [0, 3, 4, 4], [3, 3, 4, 3], (-157, -70), (-157, -70), (1, 0),
        (True, False), (False, N, N, N), bags_before=(8, 0)),
    # nil_tricks_count: the nil's 2 tricks help: 2 + 3 = 5 of 5 -> 50; nil -100 -> -50, no bags.
    vec("nil_tricks_count_helping", [0, 3, 5, 4], [2, 3, 3, 5], (-50, 71), (-50, 71), (0, 1), (True, True),
        (False, N, N, N), rules=dict(nil_tricks_count=True), extra=dict(counted_tricks=(5, 8), new_bags=(0, 1))),
    # The same hand by default: 3 of 5 -> -50; the nil's 2 tricks are bags: -50 + 2 - 100 = -148.
    vec("nil_tricks_dont_count_same_hand", [0, 3, 5, 4], [2, 3, 3, 5], (-148, 71), (-148, 71), (2, 1),
        (False, True), (False, N, N, N), extra=dict(counted_tricks=(3, 8), new_bags=(2, 1))),
    # nil_tricks_count, overtricks: 3 + 4 = 7 on a contract of 2 -> 20 + 5 = 25, 5 bags; -100 -> -75.
    vec("nil_tricks_count_overtricks", [0, 3, 2, 4], [3, 3, 4, 3], (-75, -70), (-75, -70), (5, 0), (True, False),
        (False, N, N, N), rules=dict(nil_tricks_count=True), extra=dict(counted_tricks=(7, 6), new_bags=(5, 0))),
    # The same by default: 4 on 2 -> 20 + 2 (2 bags), the nil's 3 tricks are bags (+3): -75, 5 bags.
    vec("nil_tricks_dont_count_overtricks", [0, 3, 2, 4], [3, 3, 4, 3], (-75, -70), (-75, -70), (5, 0),
        (True, False), (False, N, N, N), extra=dict(counted_tricks=(4, 6), new_bags=(5, 0))),
    # nil_tricks_count, still set: 1 + 3 = 4 of 6 -> -60; nil -100 -> -160, no bag.
    vec("nil_tricks_count_not_enough", [0, 3, 6, 4], [1, 4, 3, 5], (-160, 72), (-160, 72), (0, 2), (False, True),
        (False, N, N, N), rules=dict(nil_tricks_count=True)),
    # By default: 3 of 6 -> -60; 1 nil bag (+1); -100 -> -159.
    vec("nil_tricks_dont_count_not_enough", [0, 3, 6, 4], [1, 4, 3, 5], (-159, 72), (-159, 72), (1, 2),
        (False, True), (False, N, N, N)),
    # Blind nil made: +200; partner 4 bid, 5 taken -> 41. T1: 8 of 8 -> 80.
    vec("blind_nil_made", [0, 4, 4, 4], [0, 4, 5, 4], (241, 80), (241, 80), (1, 0), (True, True), (True, N, N, N),
        rules=dict(blind_nil=True), blind=(True, False, False, False), extra=dict(nil_points=(200, 0))),
    # Blind nil failed: -200 and 1 bag; partner 4 of 4 -> 40. -159.
    vec("blind_nil_failed", [0, 4, 4, 4], [1, 4, 4, 4], (-159, 80), (-159, 80), (1, 0), (True, True),
        (False, N, N, N), rules=dict(blind_nil=True), blind=(True, False, False, False)),
    # Blind nil bonus 300 beside an ordinary nil of the other team (100).
    # T0: +300; 5 bid, 6 taken -> 51. T1: nil takes 2: -100 + 2; 4 bid, 5 taken -> 41: -57, 3 bags.
    vec("blind_nil_bonus_300_and_plain_nil", [0, 0, 5, 4], [0, 2, 6, 5], (351, -57), (351, -57), (1, 3),
        (True, True), (True, False, N, N), rules=dict(blind_nil=True, blind_nil_bonus=300),
        blind=(True, False, False, False), extra=dict(nil_points=(300, -100))),
    # ten_for_200: contract 10 made with one over: 200 + 1. T1: 2 of 2 -> 20.
    vec("ten_for_200_made", [6, 1, 4, 1], [7, 1, 4, 1], (201, 20), (201, 20), (1, 0), (True, True),
        rules=dict(ten_for_200=True), extra=dict(contract_points=(200, 20))),
    # The same hand without the option: 100 + 1.
    vec("ten_for_200_off", [6, 1, 4, 1], [7, 1, 4, 1], (101, 20), (101, 20), (1, 0), (True, True)),
    # ten_for_200, contract 12 made (double: 240) + 1 over. T1: 1 bid, 0 taken -> -10; nil made +100.
    vec("ten_for_200_contract_12", [6, 1, 6, 0], [6, 0, 7, 0], (241, 90), (241, 90), (1, 0), (True, False),
        (N, N, N, True), rules=dict(ten_for_200=True)),
    # ten_for_200 set at 10: the ordinary -100.
    vec("ten_for_200_set", [5, 1, 5, 1], [5, 2, 4, 2], (-100, 22), (-100, 22), (0, 2), (False, True),
        rules=dict(ten_for_200=True)),
    # ten_for_200 with a contract of 9: ordinary 90 + 1.
    vec("ten_for_200_contract_9", [5, 2, 4, 2], [5, 2, 5, 1], (91, -40), (91, -40), (1, 0), (True, False),
        rules=dict(ten_for_200=True)),
    # nil_bonus 50, nil made: +50 + 41. T1: 6 bid, 8 taken -> 62.
    vec("nil_bonus_50", [0, 3, 4, 3], [0, 3, 5, 5], (91, 62), (91, 62), (1, 2), (True, True), (True, N, N, N),
        rules=dict(nil_bonus=50)),
    # nil_bonus 200, nil failed with one trick: -200 + 1 + 40.
    vec("nil_bonus_200_failed", [0, 3, 4, 3], [1, 3, 4, 5], (-159, 62), (-159, 62), (1, 2), (True, True),
        (False, N, N, N), rules=dict(nil_bonus=200)),
    # bag_limit 5, penalty 50: 3 old + 3 new = 6 -> -50, 1 left: 43 - 50 = -7. T1 keeps 4 bags.
    vec("bag_limit_5_penalty_50", [2, 3, 2, 3], [4, 3, 3, 3], (-7, 60), (-7, 60), (1, 4), (True, True),
        rules=dict(bag_limit=5, bag_penalty=50), bags_before=(3, 4)),
    # bag_limit 1, penalty 10: every one of the 3 bags costs 10: 43 - 30 = 13.
    vec("bag_limit_1", [2, 3, 2, 3], [4, 3, 3, 3], (13, 60), (13, 60), (0, 0), (True, True),
        rules=dict(bag_limit=1, bag_penalty=10), extra=dict(bag_penalties=(3, 0))),
    # bag_penalty 0: the count still wraps, no points lost.
    vec("bag_penalty_0", [2, 3, 2, 3], [4, 3, 3, 3], (43, 60), (43, 60), (1, 0), (True, True),
        rules=dict(bag_penalty=0), bags_before=(8, 0), extra=dict(bag_penalties=(1, 0))),
    # T0 bids 13 and takes all 13: 130. T1's two nils take nothing: +200, contract 0 made.
    vec("thirteen_bid_and_made", [7, 0, 6, 0], [7, 0, 6, 0], (130, 200), (630, 300), (0, 0), (True, True),
        (N, True, N, True), before=(500, 100)),
]


@pytest.mark.parametrize("rules_kw, bids, tricks, blind, before, bags_before, expected", VECTORS)
def test_score_vectors(rules_kw, bids, tricks, blind, before, bags_before, expected):
    rules = Rules(**rules_kw)
    r = score_hand(bids, tricks, rules, blind=blind, scores=before, bag_count=bags_before)
    assert isinstance(r, HandResult)
    for field, want in expected.items():
        assert getattr(r, field) == tuple(want), field
    assert r.bids == tuple(bids) and r.tricks_won == tuple(tricks) and r.blind == tuple(blind)
    # The vector and the slow reference agree too (both are read from RULES.md).
    ref = naive_score(bids, blind, tricks, before, bags_before, rules)
    assert list(r.points) == ref["points"] and list(r.bag_count) == ref["bags"] and list(r.nil_made) == ref["nil"]


def test_vector_arithmetic_is_consistent():
    """Each vector's totals follow from its points (a typo in the table would show here)."""
    for p in VECTORS:
        _, _, _, _, before, _, exp = p.values
        assert tuple(b + d for b, d in zip(before, exp["points"])) == tuple(exp["scores"]), p.id


def test_result_prints_a_table():
    text = str(score_hand([4, 3, 3, 2], [5, 3, 3, 2]))
    assert "team 0" in text and "71" in text and "score" in text


# -- bad inputs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(bids=[4, 3, 3], tricks_won=[4, 3, 3, 3]), ["bids", "4", "3"]),
        (dict(bids=[4, 3, 3, 3, 1], tricks_won=[4, 3, 3, 3]), ["bids", "5"]),
        (dict(bids=[4, 3, 3, 3], tricks_won=[4, 3, 3, 2, 1]), ["tricks_won", "4"]),
        (dict(bids=[4, 3, 14, 3], tricks_won=[4, 3, 3, 3]), ["bids[2]", "14"]),
        (dict(bids=[4, -1, 3, 3], tricks_won=[4, 3, 3, 3]), ["bids[1]", "-1"]),
        (dict(bids=[4, 3, 3, 3], tricks_won=[4, 3, 3, 2]), ["add up to 13", "12"]),
        (dict(bids=[4, 3, 3, 3], tricks_won=[4, 3, 14, -8]), ["tricks_won[2]", "14"]),
        (dict(bids=[4, 3, True, 3], tricks_won=[4, 3, 3, 3]), ["bids[2]"]),
        (dict(bids=[4, 3, 3.0, 3], tricks_won=[4, 3, 3, 3]), ["bids[2]"]),
        (dict(bids=[4, 3, 0, 3], tricks_won=[4, 3, 3, 3], blind=(False, True, False, False)), ["seat 1", "blind", "3"]),
        (dict(bids=[4, 3, 0, 3], tricks_won=[4, 3, 3, 3], blind=(False, False, True)), ["blind"]),
        (dict(bids=[4, 3, 0, 3], tricks_won=[4, 3, 3, 3], blind=(0, 0, 1, 0)), ["blind"]),
        (dict(bids=[4, 3, 3, 3], tricks_won=[4, 3, 3, 3], bag_count=(10, 0)), ["bag_count[0]", "10"]),
        (dict(bids=[4, 3, 3, 3], tricks_won=[4, 3, 3, 3], bag_count=(0, -1)), ["bag_count[1]"]),
        (dict(bids=[4, 3, 3, 3], tricks_won=[4, 3, 3, 3], scores=(0, 0, 0)), ["scores", "2"]),
    ],
)
def test_score_hand_bad_input(kwargs, words):
    with pytest.raises(ValueError) as info:
        score_hand(**kwargs)
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_bags_checked_against_the_rules_limit():
    score_hand([4, 3, 3, 3], [4, 3, 3, 3], bag_count=(9, 9))
    with pytest.raises(ValueError, match="bag limit 5"):
        score_hand([4, 3, 3, 3], [4, 3, 3, 3], Rules(bag_limit=5), bag_count=(5, 0))


# -- ending a match ----------------------------------------------------------------------------

MATCH_VECTORS = [
    # (rules, scores, hands_played, winner)
    ({}, (510, 480), None, 0),
    ({}, (480, 510), None, 1),
    ({}, (500, 499), None, 0),  # reaching the target exactly
    ({}, (499, 499), None, None),
    ({}, (499, -199), None, None),
    ({}, (500, 500), None, None),  # tie at the target plays on
    ({}, (650, 650), None, None),
    ({}, (520, 610), None, 1),  # both past the target: the higher wins
    ({}, (610, 520), None, 0),
    ({}, (-200, 100), None, 1),  # exactly at the loss threshold loses
    ({}, (100, -200), None, 0),
    ({}, (-199, 100), None, None),
    ({}, (-250, -210), None, 1),  # both below: the higher wins
    ({}, (-210, -250), None, 0),
    ({}, (-250, -250), None, None),  # a tie plays on
    ({}, (-200, -200), None, None),
    ({}, (520, -300), None, 0),
    ({}, (0, 0), 100, None),  # no max_hands: hands played do not end the match
    ({"loss_threshold": None}, (-1000, 0), None, None),
    ({"loss_threshold": -100}, (-100, 0), None, 1),
    ({"target_score": 250}, (250, 0), None, 0),
    ({"target_score": 250}, (249, 0), None, None),
    ({"max_hands": 10}, (120, 80), 10, 0),
    ({"max_hands": 10}, (80, 120), 11, 1),
    ({"max_hands": 10}, (120, 80), 9, None),
    ({"max_hands": 10}, (100, 100), 10, None),  # tie after the last hand plays on
    ({"max_hands": 10}, (510, 0), 3, 0),  # the target still ends the match
    ({"target_score": None, "max_hands": 5}, (10_000, 0), 4, None),
    ({"target_score": None, "max_hands": 5}, (10_000, 0), 5, 0),
    ({"target_score": None, "max_hands": 5}, (30, 40), 5, 1),
    ({"target_score": None, "max_hands": 5}, (40, 40), 6, None),
    ({"target_score": None, "max_hands": 5}, (-500, 0), 2, 1),  # the loss threshold still applies
    ({"target_score": None, "loss_threshold": None, "max_hands": 3}, (-5000, 0), 2, None),
]


@pytest.mark.parametrize("rules_kw, scores, hands_played, winner", MATCH_VECTORS)
def test_match_winner_vectors(rules_kw, scores, hands_played, winner):
    rules = Rules(**rules_kw)
    assert match_winner(scores, rules, hands_played=hands_played) == winner
    assert naive_match_winner(scores, rules, hands_played) == winner


def test_match_winner_default_rules():
    assert match_winner((500, 0)) == 0
    assert match_winner([0, 500]) == 1
    assert match_winner((0, 0)) is None


@pytest.mark.parametrize(
    "args, words",
    [
        (((1, 2, 3),), ["scores", "2"]),
        (((1,),), ["scores"]),
        (((0, 0), Rules(max_hands=3)), ["hands_played"]),
        (((0, 0), Rules(), -1), ["hands_played", "-1"]),
        (((0, 0), Rules(), True), ["hands_played"]),
        (((0.5, 0),), ["scores[0]"]),
    ],
)
def test_match_winner_bad_input(args, words):
    with pytest.raises(ValueError) as info:
        match_winner(*args)
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize("rules_kw", [{}, dict(half_blind_penalty=True, blind_nil_bonus=150), dict(nil_bonus=50, bag_limit=7, bag_penalty=40)])
def test_a_nil_bids_points_and_a_bags_cost_are_the_scores(rules_kw):
    """``engine.score.nil_bid_points`` (which the learned models value a nil by) is what
    ``score_hand`` counts, and ``bag_cost`` a bag's share of its penalty."""
    from spades_ai.engine.score import bag_cost, nil_bid_points

    rules = Rules(blind_nil=True, **rules_kw)
    for blind in (False, True):
        for taken in (0, 1, 4):
            result = score_hand([0, 4, 3, 4], [taken, 4, 9 - taken, 0], rules, blind=[blind, False, False, False])
            assert nil_bid_points(blind, taken, rules.as_array()) == result.nil_points[0]
    assert bag_cost(rules.as_array()) == rules.bag_penalty / rules.bag_limit
