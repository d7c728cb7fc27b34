"""The summary (issue 5, section 4), checked against hand computation on small synthetic frames."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from spades_ai import load_results, run_tournament, summarize
from spades_ai.analysis import (
    bags_at_cost,
    bootstrap_ratio_interval,
    format_summary,
    mean_interval,
    outcomes,
    ratings,
    wilson_interval,
)
from spades_ai.analysis.summary import Z95, bradley_terry


def frame(rows: list[dict], **defaults) -> pd.DataFrame:
    """Rows with every column the summary reads; unspecified fields take harmless defaults."""
    base = {
        "pairing": 0, "dealer": 0, "bid_a": 3, "bid_b": 3, "nil_a": False, "nil_b": False, "blind_a": False,
        "blind_b": False, "nil_made_a": False, "nil_made_b": False, "team_tricks": 6, "contract": 6, "made": True,
        "new_bags": 0, "bag_penalties": 0, "points": 60,
    }  # fmt: skip
    df = pd.DataFrame([{**base, **defaults, **r} for r in rows])
    df["agent"] = df["agent"].astype("category")
    df["opponent"] = df["opponent"].astype("category")
    return df


def duplicate_deal(deal, a_t0, b_t0, b_t1, a_t1, a="A", b="B", **extra):
    """The four rows of one duplicate deal: points of A and B at table 0 and table 1."""
    return [
        {"deal_no": deal, "rotation": 0, "side": 0, "agent": a, "opponent": b, "points": a_t0, **extra.get("a0", {})},
        {"deal_no": deal, "rotation": 0, "side": 1, "agent": b, "opponent": a, "points": b_t0, **extra.get("b0", {})},
        {"deal_no": deal, "rotation": 1, "side": 0, "agent": b, "opponent": a, "points": b_t1, **extra.get("b1", {})},
        {"deal_no": deal, "rotation": 1, "side": 1, "agent": a, "opponent": b, "points": a_t1, **extra.get("a1", {})},
    ]


HANDS = frame(
    duplicate_deal(0, 50, 30, 40, 60, a0={"new_bags": 2}, b1={"bag_penalties": 1, "new_bags": 3})
    + duplicate_deal(
        1,
        -40,
        61,
        20,
        22,
        a0={"made": False, "contract": 8, "team_tricks": 4},
        b0={"nil_a": True, "nil_made_a": True, "bid_a": 0, "contract": 3},
    )
    + duplicate_deal(
        2,
        70,
        10,
        0,
        0,
        b1={"nil_b": True, "bid_b": 0, "contract": 3},
        a1={"contract": 0, "bid_a": 0, "bid_b": 0, "nil_a": True, "nil_b": True, "nil_made_b": True},
    )
)


def test_points_and_the_duplicate_difference_by_hand():
    table = summarize(HANDS)
    a = table[table.agent == "A"].iloc[0]
    b = table[table.agent == "B"].iloc[0]
    per_deal = np.array([((50 - 30) + (60 - 40)) / 2, ((-40 - 61) + (22 - 20)) / 2, ((70 - 10) + (0 - 0)) / 2])
    mean = per_deal.mean()
    half = Z95 * per_deal.std(ddof=1) / math.sqrt(3)
    assert a["units"] == 3 and a["hands"] == 6
    assert a["points"] == pytest.approx((50 + 60 - 40 + 22 + 70 + 0) / 6)
    assert b["points"] == pytest.approx((30 + 40 + 61 + 20 + 10 + 0) / 6)
    assert a["diff"] == pytest.approx(mean) and a["diff"] == pytest.approx(a["points"] - b["points"])
    assert (a["diff_lo"], a["diff_hi"]) == pytest.approx((mean - half, mean + half))
    assert (b["diff"], b["diff_lo"], b["diff_hi"]) == pytest.approx((-mean, -mean - half, -mean + half))
    assert math.isnan(a["win_rate"])


def test_set_bag_nil_bid_and_trick_rates_by_hand():
    table = summarize(HANDS).set_index("agent")
    # A: six team-hands, five with a contract (one of them set), one with two nil bidders
    assert table.loc["A", "set_rate"] == pytest.approx(1 / 5)
    assert table.loc["B", "set_rate"] == 0
    assert table.loc["A", "bags_per_hand"] == pytest.approx(2 / 6)
    assert table.loc["B", "bags_per_hand"] == pytest.approx(3 / 6)
    assert table.loc["B", "penalties_per_100"] == pytest.approx(100 / 6)
    assert table.loc["A", "nil_rate"] == pytest.approx(2 / 12) and table.loc["A", "nil_success"] == pytest.approx(1 / 2)
    assert table.loc["B", "nil_rate"] == pytest.approx(2 / 12) and table.loc["B", "nil_success"] == pytest.approx(1 / 2)
    assert table.loc["A", "team_bid"] == pytest.approx((6 * 5 + 0) / 6)
    assert table.loc["B", "team_bid"] == pytest.approx((6 * 4 + 3 + 3) / 6)
    assert table.loc["A", "team_tricks"] == pytest.approx((6 * 5 + 4) / 6)


def test_no_nil_bids_give_no_success_rate():
    df = frame(duplicate_deal(0, 10, 20, 30, 40) + duplicate_deal(1, 10, 20, 30, 40))
    t = summarize(df)
    assert t["nil_rate"].eq(0).all() and t["nil_success"].isna().all()
    assert t["diff"].tolist() == [0.0, 0.0] and t["diff_lo"].tolist() == [0.0, 0.0]


def matches_frame() -> pd.DataFrame:
    rows = []

    def hands(match, table, points_team0, points_team1, winner, a_team):
        for k, (p0, p1) in enumerate(zip(points_team0, points_team1)):
            last = k == len(points_team0) - 1
            for team, p in ((0, p0), (1, p1)):
                me = "A" if team == a_team else "B"
                rows.append({"match_no": match, "hand_no": k, "rotation": table, "side": team, "agent": me,
                             "opponent": "B" if me == "A" else "A", "points": p, "winner": winner if last else -1})  # fmt: skip

    hands(0, 0, [100, 200, 250], [50, 60, 70], 0, a_team=0)  # A wins in 3 hands
    hands(0, 1, [80, 90], [300, 300], 1, a_team=1)  # A (team 1) wins in 2
    hands(1, 0, [10], [600], 1, a_team=0)  # B wins in 1
    hands(1, 1, [20, 30, 40, 50], [60, 70, 80, 500], 1, a_team=1)  # A wins in 4
    return frame(rows)


def test_matches_mode_ratio_bootstrap_and_wilson_by_hand():
    df = matches_frame()
    t = summarize(df, n_boot=500).set_index("agent")
    a_points = [100, 200, 250, 300, 300, 10, 60, 70, 80, 500]
    b_points = [50, 60, 70, 80, 90, 600, 20, 30, 40, 50]
    assert t.loc["A", "units"] == 2 and t.loc["A", "hands"] == 10
    assert t.loc["A", "diff"] == pytest.approx((sum(a_points) - sum(b_points)) / 10)
    assert t.loc["A", "points"] == pytest.approx(np.mean(a_points))
    assert t.loc["A", "diff_lo"] <= t.loc["A", "diff"] <= t.loc["A", "diff_hi"]
    assert t.loc["A", "matches"] == 4 and t.loc["A", "win_rate"] == pytest.approx(3 / 4)
    assert (t.loc["A", "win_lo"], t.loc["A", "win_hi"]) == pytest.approx(wilson_interval(3, 4))
    assert t.loc["B", "win_rate"] == pytest.approx(1 / 4)
    # with two units the bootstrap can only pick (0,0), (0,1), (1,1): its range is known
    per_match = [
        ((100 + 200 + 250 + 300 + 300) - (50 + 60 + 70 + 80 + 90), 5),
        ((10 + 60 + 70 + 80 + 500) - (600 + 20 + 30 + 40 + 50), 5),
    ]
    lows = per_match[1][0] / 5
    highs = per_match[0][0] / 5
    assert lows - 1e-9 <= t.loc["A", "diff_lo"] and t.loc["A", "diff_hi"] <= highs + 1e-9


def test_bags_at_cost_values_each_bag_at_its_share_of_the_run_rules_penalty():
    """A bag is worth its point less ``bag_penalty / bag_limit`` of the run's rules (the
    defaults where the config names none), and a penalty paid is given back: the margin moves
    by the bags each side took. The frame given is left as it was."""
    df = frame(duplicate_deal(0, 62, 60, 60, 61, a0={"new_bags": 2}, b1={"new_bags": 1}) + duplicate_deal(1, 60, 60, 60, 60))
    df.loc[2, ["new_bags", "bag_penalties", "points"]] = (4, 1, -36)  # B at table 1 crossed the limit: 100 paid
    df.attrs["config"] = {"rules": {"bag_limit": 5, "bag_penalty": 50}}
    valued = bags_at_cost(df)
    assert valued["points"].tolist()[:4] == [62 - 20, 60, -36 + 50 - 40, 61]
    assert df["points"].tolist()[:4] == [62, 60, -36, 61]
    before, after = summarize(df).set_index("agent"), summarize(valued).set_index("agent")
    assert after.loc["A", "diff"] - before.loc["A", "diff"] == pytest.approx((-20 - (50 - 40)) / 2 / 2)
    df.attrs = {}
    assert bags_at_cost(df)["points"].iloc[0] == 62 - 10 * 2


def test_wilson_interval_against_the_formula_and_scipy():
    lo, hi = wilson_interval(8, 10)
    p, n, z = 0.8, 10, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (lo, hi) == pytest.approx((centre - half, centre + half))
    assert wilson_interval(0, 5)[0] == 0 and wilson_interval(5, 5)[1] == 1
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    stats = pytest.importorskip("scipy.stats")
    res = stats.binomtest(8, 10).proportion_ci(method="wilson")
    assert (lo, hi) == pytest.approx((res.low, res.high))


def test_mean_and_bootstrap_intervals():
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    m, _lo, hi = mean_interval(x)
    assert m == 4 and hi - m == pytest.approx(Z95 * x.std(ddof=1) / math.sqrt(5))
    assert all(math.isnan(v) for v in mean_interval(np.array([]))) and math.isnan(mean_interval(np.array([1.0]))[1])
    rng = np.random.default_rng(1)
    num, den = rng.normal(5, 2, 4000), np.full(4000, 1.0)
    est, blo, bhi = bootstrap_ratio_interval(num, den, n_boot=400)
    _, nlo, nhi = mean_interval(num)
    assert est == pytest.approx(num.mean())
    assert blo == pytest.approx(nlo, abs=0.03) and bhi == pytest.approx(nhi, abs=0.03)


def test_bradley_terry_two_agents_is_the_win_ratio():
    p = bradley_terry(2, np.array([[0, 1]]), np.array([[30.0, 10.0]]), prior=0.5)
    assert p[0] / p[1] == pytest.approx(30.5 / 10.5)
    assert np.prod(p) == pytest.approx(1.0)


def test_ratings_order_and_elo_scale_on_synthetic_outcomes():
    rows = []
    # A beats B in 3 of 4 deals, B beats C in 3 of 4, A beats C in every deal
    spec = {("A", "B", 0): [1, 1, 1, -1], ("B", "C", 1): [1, 1, 1, -1], ("A", "C", 2): [1, 1, 1, 1]}
    for (a, b, p), signs in spec.items():
        for d, s in enumerate(signs):
            rows += [{**r, "pairing": p} for r in duplicate_deal(d, 50 + 10 * s, 50, 50, 50, a=a, b=b)]
    df = frame(rows)
    o = outcomes(df)
    assert o[["wins", "losses", "ties"]].values.tolist() == [[3, 1, 0], [3, 1, 0], [4, 0, 0]]
    r = ratings(df, n_boot=200)
    assert r["agent"].tolist() == ["A", "B", "C"]
    assert r["rating"].sum() == pytest.approx(0, abs=1e-6)
    assert (r["lo"] <= r["rating"] + 1e-9).all() and (r["rating"] <= r["hi"] + 1e-9).all()
    assert r.set_index("agent").loc["A", ["wins", "losses"]].tolist() == [7, 1]
    two = ratings(frame([x for x in rows if x["pairing"] == 0]), n_boot=0)
    gap = two["rating"].iloc[0] - two["rating"].iloc[1]
    assert gap == pytest.approx(400 * math.log10(3.5 / 1.5))


def test_summary_of_a_real_run_and_its_text(tmp_path):
    r = run_tournament("normal,easy,random", deals=100, out=tmp_path, n_jobs=1, progress=False)
    df = load_results(r)
    t = summarize(df)
    assert len(t) == 6 and set(t["agent"]) == {"normal", "easy", "random"}
    one = df[df.pairing == 0]
    normal = one[one.agent == "normal"]
    assert t.iloc[0]["points"] == pytest.approx(normal["points"].mean())
    assert t.iloc[0]["diff"] == pytest.approx(normal["points"].mean() - one[one.agent == "easy"]["points"].mean())
    text = format_summary(t, ratings(df, n_boot=50))
    assert "normal" in text and "ratings" in text and "diff/deal" in text


def test_a_hands_mode_summary_leaves_out_bag_penalties_and_says_why(tmp_path):
    """Issue 32, item 3: in hands mode every hand starts with no bags, so ``pen/100`` (zero) is
    left out with a note naming matches mode; matches mode, or a hand that paid one, shows it."""
    t = summarize(load_results(run_tournament("normal,easy", deals=30, out=tmp_path, n_jobs=1, progress=False)))
    assert (t["penalties_per_100"] == 0).all()
    text = format_summary(t)
    assert "pen/100" not in text.splitlines()[0] and "--mode matches" in text
    assert "pen/100" in format_summary(t, mode="matches").splitlines()[0]
    paid = t.assign(penalties_per_100=[2.5, 0.0])
    assert "pen/100" in format_summary(paid).splitlines()[0] and "--mode matches" not in format_summary(paid)


def test_summary_tables_print_whole_from_a_script():
    """Issue 32, item 3: ``summarize``'s table (20 columns) prints every row and column under
    any display settings, where pandas cuts it to ``[.. rows x .. columns]``, and keeps doing so
    after ``round`` or a choice of columns; a title prints above it."""
    from spades_ai.analysis.summary import SummaryTable, summary_table

    wide = summary_table(pd.DataFrame({f"column_{i}": np.arange(80) * 1.5 for i in range(20)}), "what it measures")
    with pd.option_context("display.max_columns", 4, "display.max_rows", 6, "display.width", 40):
        assert "rows x" in str(pd.DataFrame(wide)) and "..." in str(pd.DataFrame(wide))
        for shown in (wide, wide.round(1), wide[["column_0", "column_19"]]):
            assert isinstance(shown, SummaryTable)
            text = str(shown)
            assert "rows x" not in text and "..." not in text and len(text.splitlines()) == 80 + 2
            assert text.splitlines()[0] == "what it measures" and repr(shown) == text
        assert "column_19" in str(wide) and "<b>what it measures</b>" in wide._repr_html_()
