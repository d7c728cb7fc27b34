"""Hard's bid shaded by its own values (experiments/shaded.py, issue 45): the rule on hand-made
values, and Hard's own bid at margin 0."""

from __future__ import annotations

import math

import pytest

import spades_ai as sa
from experiment_scripts import experiment_script

S = experiment_script("shaded")
VALUES = {0: -60.0, 1: -1.0, 2: 17.5, 3: 33.0, 4: 34.2, 5: 0.4}


@pytest.mark.parametrize(
    "bid, margin, shaded",
    [(4, 0.0, 4), (4, 1.0, 4), (4, 1.5, 3), (4, 5.0, 3), (4, 17.0, 2), (4, 40.0, 1), (0, 100.0, 0), (2, 16.0, 2), (2, 19.0, 1)],
)
def test_the_lowest_bid_within_the_margin_of_the_best(bid, margin, shaded):
    assert S.shaded_bid(bid, VALUES, margin) == shaded


def test_a_bid_without_a_value_is_not_chosen():
    assert S.shaded_bid(3, {1: math.nan, 2: 30.0, 3: 31.0}, 5.0) == 2
    assert S.shaded_bid(3, {3: 31.0}, 5.0) == 3


def test_at_margin_zero_it_bids_and_plays_as_hard():
    hand = sa.Hand(sa.deal(seed=2))
    obs = hand.observation()
    hard, shaded = sa.make_agent("hard", worlds=16), S.ShadedHard(margin=0, worlds=16)
    assert shaded.bid(obs) == hard.bid(obs)
    assert shaded.name == "hard(margin=0)"


@pytest.mark.parametrize("margin", [-1.0, True, "5"])
def test_a_bad_margin_is_named(margin):
    with pytest.raises(ValueError, match="margin"):
        S.ShadedHard(margin=margin)
