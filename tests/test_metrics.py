"""analysis.metrics against values computed by hand on small, hand-made result frames."""

import math

import numpy as np
import pandas as pd
import pytest

from spades_ai import Rules
from spades_ai.analysis import metrics
from spades_ai.analysis.summary import wilson_interval

FALSE2 = {"nil_a": False, "nil_b": False, "nil_made_a": False, "nil_made_b": False, "blind_a": False, "blind_b": False}


def hands_frame():
    rows = [
        dict(deal_no=0, rotation=0, side=0, agent="A", opponent="B", bid_a=4, bid_b=3, tricks_won_a=5, tricks_won_b=3,
             team_tricks=8, contract=7, made=True, new_bags=1, bag_penalties=0, points=71, **FALSE2),
        dict(deal_no=0, rotation=0, side=1, agent="B", opponent="A", bid_a=2, bid_b=0, tricks_won_a=3, tricks_won_b=2,
             team_tricks=5, contract=2, made=True, new_bags=3, bag_penalties=0, points=-77,
             **{**FALSE2, "nil_b": True}),
        dict(deal_no=1, rotation=0, side=0, agent="A", opponent="B", bid_a=5, bid_b=2, tricks_won_a=3, tricks_won_b=2,
             team_tricks=5, contract=7, made=False, new_bags=0, bag_penalties=0, points=-70, **FALSE2),
        dict(deal_no=1, rotation=0, side=1, agent="B", opponent="A", bid_a=3, bid_b=3, tricks_won_a=4, tricks_won_b=4,
             team_tricks=8, contract=6, made=True, new_bags=2, bag_penalties=1, points=-38, **FALSE2),
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_agent_rates_by_hand():
    rates = metrics.agent_rates(hands_frame()).set_index("agent")
    a, b = rates.loc["A"], rates.loc["B"]
    assert a["hands"] == 2 and a["points"] == pytest.approx(0.5)
    assert a["set_rate"] == pytest.approx(0.5) and (a["set_lo"], a["set_hi"]) == pytest.approx(wilson_interval(1, 2))
    assert a["bags_per_hand"] == pytest.approx(0.5) and a["penalties_per_100"] == 0
    assert a["nil_rate"] == 0 and math.isnan(a["nil_success"])
    assert a["team_bid"] == pytest.approx(7) and a["team_tricks"] == pytest.approx(6.5)
    assert a["bid_error"] == pytest.approx(0.25) and a["bid_mae"] == pytest.approx(0.75)  # errors -1 0 2 0
    assert b["points"] == pytest.approx(-57.5) and b["set_rate"] == 0
    assert b["bags_per_hand"] == pytest.approx(2.5) and b["penalties_per_100"] == pytest.approx(50)
    assert b["nil_rate"] == pytest.approx(1 / 4) and b["nil_success"] == 0
    assert (b["nil_lo"], b["nil_hi"]) == pytest.approx(wilson_interval(0, 1))
    assert b["bid_error"] == pytest.approx(-1) and b["bid_mae"] == pytest.approx(1)  # nil apart: 2 3 3 vs 3 4 4
    lo, hi = b["bags_lo"], b["bags_hi"]
    assert (lo + hi) / 2 == pytest.approx(2.5) and hi - lo == pytest.approx(2 * 1.959963984540054 * np.std([3, 2], ddof=1) / np.sqrt(2))


def test_seat_rows_and_bid_accuracy():
    seats = metrics.seat_rows(hands_frame())
    assert len(seats) == 8 and set(seats["seat"]) == {"a", "b"}
    assert seats["tricks_won"].sum() == 5 + 3 + 3 + 2 + 3 + 2 + 4 + 4
    acc = metrics.bid_accuracy(hands_frame())
    assert len(acc) == 7 and sorted(acc["error"].tolist()) == sorted([-1, 0, -1, 2, 0, -1, -1])


def matches_frame():
    """One match, two hands: before hand 1 team 0 trails (100 vs 420) with 8 bags, and team 1 is
    within 100 of the target."""
    def row(hand_no, team, points, score, opp_score, new_bags, bag_penalties, bag_count):
        return dict(match_no=0, hand_no=hand_no, rotation=0, side=team, agent="AB"[team], opponent="BA"[team],
                    points=points, score=score, opp_score=opp_score, new_bags=new_bags,
                    bag_penalties=bag_penalties, bag_count=bag_count, contract=5, made=True, bid_a=3, bid_b=2,
                    tricks_won_a=3, tricks_won_b=2, team_tricks=5, **FALSE2)  # fmt: skip

    return pd.DataFrame([
        row(0, 0, 100, 100, 420, 8, 0, 8), row(0, 1, 420, 420, 100, 0, 0, 0),
        row(1, 0, 40, 140, 470, 3, 1, 1), row(1, 1, 50, 470, 140, 0, 0, 0),
    ])  # fmt: skip


def test_score_context_flags_by_hand():
    ctx = metrics.with_context(matches_frame(), Rules())
    assert ctx["score_before"].tolist() == [0, 0, 100, 420]
    assert ctx["opp_score_before"].tolist() == [0, 0, 420, 100]
    assert ctx["bag_count_before"].tolist() == [0, 0, 8, 0]
    assert ctx["trailing"].tolist() == [False, False, True, False]
    assert ctx["near_target"].tolist() == [False, False, False, True]
    assert ctx["near_bag_limit"].tolist() == [False, False, True, False]
    split = metrics.rates_by_context(matches_frame(), "near_bag_limit", Rules()).set_index(["agent", "near_bag_limit"])
    assert split.loc[("A", True), "hands"] == 1 and split.loc[("A", True), "bags_per_hand"] == 3


def test_context_errors():
    with pytest.raises(ValueError, match="matches-mode"):
        metrics.with_context(hands_frame())
    with pytest.raises(ValueError, match="unknown context"):
        metrics.rates_by_context(matches_frame(), "lucky")


def test_rates_by_context_are_plotted_in_and_out_of_the_context():
    """Issue 32, item 4: one pair of bars per agent (out of and in the context) for the bag and
    the set rate, with the hands behind each; an agent never in the context has no bar there."""
    import matplotlib

    matplotlib.use("Agg")
    from spades_ai.analysis import plots

    rates = metrics.rates_by_context(matches_frame(), "near_bag_limit", Rules())
    bags, sets = plots.plot_rates_by_context(rates)
    heights = [p.get_height() for p in bags.patches]  # out of the context A, B; then in it A, B
    assert heights[:3] == [8, 0, 3] and math.isnan(heights[3])  # A: 8 bags, then 3 with 8 held
    assert [t.get_text() for t in bags.get_xticklabels()] == ["A\n(1 / 1 hands)", "B\n(2 / 0 hands)"]
    assert "near bag limit" in bags.get_title() and [t.get_text() for t in sets.get_legend().get_texts()] == [
        "not near bag limit", "near bag limit"]
    with pytest.raises(ValueError, match="one flag column"):
        plots.plot_rates_by_context(metrics.agent_rates(matches_frame()))
