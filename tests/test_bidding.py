"""The bidding benchmark: bidders on fixed duplicate deals, one play policy."""

import numpy as np
import pandas as pd
import pytest

from spades_ai import IllegalBidError, Rules
from spades_ai.analysis.bidding import bidding_benchmark, bidding_leaderboard, bidding_records, paired_margin
from spades_ai.cli import main


def three(cards, seat, bids, scores):
    return 3


def test_records_hold_each_bidders_seats_on_both_tables():
    rec = bidding_records({"three": three, "normal": "normal"}, deals=20, seed=2)
    assert set(rec["bidder"]) == {"three", "normal"}
    three_rows = rec[rec["bidder"] == "three"]
    assert len(three_rows) == 20 * 2 * 2  # deals x tables x the partnership's two seats
    assert (three_rows["bid"] == 3).all()
    assert sorted(three_rows.groupby("table")["seat"].unique().map(sorted).tolist()) == [[0, 2], [1, 3]]


def test_same_deals_for_every_bidder_and_only_the_bids_differ():
    rec = bidding_records({"a": "normal", "b": "normal"}, deals=15, seed=4)
    a, b = (rec[rec["bidder"] == k].reset_index(drop=True) for k in "ab")
    assert a.drop(columns="bidder").equals(b.drop(columns="bidder"))  # same bidder, same everything


def hand_made_records():
    """Two deals of one bidder, both tables, with every number chosen by hand."""
    cols = ["bidder", "deal_no", "table", "seat", "bid", "blind", "tricks_won", "nil_made",
            "contract", "made", "team_new_bags", "team_points", "opponent_points",
            "team_points_at_bag_cost", "opponent_points_at_bag_cost"]  # fmt: skip
    rows = [
        # deal 0, table 0: 4 + 3 bid, 5 + 3 won: made with one bag (61 with the bag at 10)
        ("x", 0, 0, 0, 4, False, 5, False, 7, True, 1, 71, -40, 61, -40),
        ("x", 0, 0, 2, 3, False, 3, False, 7, True, 1, 71, -40, 61, -40),
        # deal 0, table 1: 2 + nil, 1 + 0 won: set, nil made; the opponents took 2 bags
        ("x", 0, 1, 1, 2, False, 1, False, 2, False, 0, 80, 50, 80, 30),
        ("x", 0, 1, 3, 0, False, 0, True, 2, False, 0, 80, 50, 80, 30),
        # deal 1, table 0: 5 + 2 bid, 3 + 2 won: set; the opponents took a bag
        ("x", 1, 0, 0, 5, False, 3, False, 7, False, 0, -70, 60, -70, 50),
        ("x", 1, 0, 2, 2, False, 2, False, 7, False, 0, -70, 60, -70, 50),
        # deal 1, table 1: 3 + 3 bid, 4 + 3 won: made with one bag
        ("x", 1, 1, 1, 3, False, 4, False, 6, True, 1, 61, -30, 51, -30),
        ("x", 1, 1, 3, 3, False, 3, False, 6, True, 1, 61, -30, 51, -30),
    ]
    return pd.DataFrame(rows, columns=cols)


def test_leaderboard_values_computed_by_hand():
    row = bidding_leaderboard(hand_made_records()).loc["x"]
    # number bids 4 3 2 5 2 3 3 against 5 3 1 3 2 4 3 tricks: errors -1 0 1 2 0 -1 0
    assert row["mean_bid"] == pytest.approx(22 / 7)
    assert row["mean_error"] == pytest.approx(1 / 7) and row["mae"] == pytest.approx(5 / 7)
    assert row["set_rate"] == pytest.approx(2 / 4) and row["bags_per_hand"] == pytest.approx(2 / 4)
    assert row["nil_rate"] == pytest.approx(1 / 8) and row["nil_success"] == pytest.approx(1.0)
    assert row["deals"] == 2
    # per deal, the team's points averaged over the tables: 75.5 and -4.5; minus the
    # opponents' (5 and 15): margins 70.5 and -19.5
    assert row["points_per_deal"] == pytest.approx(35.5)
    assert row["margin"] == pytest.approx(25.5)
    half = 1.959963984540054 * np.std([70.5, -19.5], ddof=1) / np.sqrt(2)
    assert row["margin_low"] == pytest.approx(25.5 - half) and row["margin_high"] == pytest.approx(25.5 + half)
    # bags at their cost: the team 70.5 and -9.5 a deal, the opponents -5 and 10: 75.5 and -19.5
    assert row["margin_at_bag_cost"] == pytest.approx(28.0)
    half = 1.959963984540054 * np.std([75.5, -19.5], ddof=1) / np.sqrt(2)
    assert row["margin_at_bag_cost_low"] == pytest.approx(28.0 - half)
    assert row["margin_at_bag_cost_high"] == pytest.approx(28.0 + half)
    # records saved before the bags-at-cost columns still give every other figure
    older = bidding_leaderboard(hand_made_records().drop(columns=["team_points_at_bag_cost", "opponent_points_at_bag_cost"]))
    assert older.loc["x", "margin"] == pytest.approx(25.5) and np.isnan(older.loc["x", "margin_at_bag_cost"])


def test_the_leaderboard_says_what_its_margin_is_measured_against_and_prints_whole():
    """Issue 32, item 3: the title names the baseline of ``margin`` (the opponents' points,
    who bids for them, who plays the cards), and the table prints every column from a script."""
    board = bidding_benchmark(["normal", "easy"], deals=20, opponents="easy", seed=3)
    with pd.option_context("display.max_columns", 4, "display.width", 40):
        text = str(board)
    title = text.splitlines()[0]
    assert title.startswith("bidding benchmark, 20 deals, seed 3, 4 players in pairs: margin = the bidder's team's points "
                            "per deal minus")
    assert "bidding as easy; normal plays every card" in title
    assert "rows x" not in text and all(c in text for c in board.columns)
    assert "minus the opponents' (with their own bidder)" in str(bidding_leaderboard(hand_made_records()))
    assert title.endswith("a side's contract is its seats' bids: set rate and bags per side and hand")


def test_a_solo_leaderboard_speaks_of_a_seats_own_points_and_bid():
    """Issue 45: at a solo table the margin is the bidder's own points against the mean of the
    other seats', and a seat's bid is its own contract; nothing speaks of a team."""
    board = bidding_benchmark(["normal", "easy"], deals=6, seed=3, rules=Rules.load("cutthroat"))
    title = str(board).splitlines()[0]
    assert "3 players solo: margin = the bidder's own points per deal minus the mean of the other seats'" in title
    assert title.endswith("a seat's bid is its own contract: set rate and bags per seat and hand")
    assert "team" not in title


def test_paired_margin_is_the_mean_difference_deal_by_deal():
    x = hand_made_records()  # margins 70.5 and -19.5 on deals 0 and 1
    y = x.assign(bidder="y", team_points=x["team_points"] - np.where(x["deal_no"] == 0, 10, 40))  # 60.5, -59.5
    z = x[x["deal_no"] == 0].assign(bidder="z")  # bid deal 0 only: paired on it alone
    records = pd.concat([x, y, z])
    m, lo, hi = paired_margin(records, "x", "y")  # differences 10 and 40
    half = 1.959963984540054 * np.std([10, 40], ddof=1) / np.sqrt(2)
    assert (m, lo, hi) == pytest.approx((25.0, 25.0 - half, 25.0 + half))
    assert paired_margin(records, "x", "z")[0] == pytest.approx(0.0)
    with pytest.raises(ValueError, match="no bidder 'w'"):
        paired_margin(records, "x", "w")


def test_leaderboard_sorts_by_margin_and_separates_bidders():
    rec = bidding_records({"three": three, "normal": "normal", "easy": "easy"}, deals=40, seed=1)
    board = bidding_leaderboard(rec)
    assert list(board.index) == list(board.sort_values("margin", ascending=False).index)
    assert board.loc["normal", "margin"] == pytest.approx(0.0)  # Normal bids for both sides: no edge
    assert board.loc["three", "mean_bid"] == pytest.approx(3.0)
    assert len(set(board["margin"].round(6))) == 3


def test_an_illegal_bid_names_the_bidder():
    with pytest.raises(IllegalBidError, match="'fourteen'"):
        bidding_benchmark({"fourteen": lambda cards, seat, bids, scores: 14}, deals=2)


def test_bad_arguments():
    with pytest.raises(ValueError, match="at least one bidder"):
        bidding_benchmark({}, deals=5)
    with pytest.raises(ValueError, match="deals"):
        bidding_benchmark({"n": "normal"}, deals=0)


def test_cli_bidding(capsys, tmp_path):
    assert main(["bidding", "--bidders", "normal,easy", "--deals", "10"]) == 0
    out = capsys.readouterr().out
    assert "normal" in out and "easy" in out and "margin" in out
    bad = tmp_path / "b.toml"
    bad.write_text('bidders = ["normal"]\nwho = 1\n')
    assert main(["bidding", "--config", str(bad)]) == 2
    assert "unknown key(s) 'who'" in capsys.readouterr().err
    assert main(["bidding", "--bidders", "normal,nobody", "--deals", "2"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_parallel_records_equal_serial():
    a = bidding_records({"n": "normal", "t": three}, deals=12, seed=3, chunk=5)
    b = bidding_records({"n": "normal", "t": three}, deals=12, seed=3, chunk=5, n_jobs=2)
    assert a.equals(b)
    assert np.array_equal(a["deal_no"].unique(), np.arange(12))


def test_the_margin_at_bag_cost_charges_every_sides_bags_their_share_of_the_penalty():
    """Hands start with no bags, so a bag's penalty never comes: ``margin_at_bag_cost`` charges
    each side's new bags ``bag_penalty / bag_limit`` and puts the penalties paid back, for the
    bidder's side and the other sides alike, at a solo table too. With a limit of 2 bags and a
    penalty of 50 (25 a bag), a side's points change by ``50 * (bags // 2) - 25 * bags``: 0 for an
    even number of bags, -25 for an odd one."""
    rules = Rules(players=3, bag_penalty=50, bag_limit=2)
    rec = bidding_records({"three": three, "normal": "normal"}, deals=30, seed=5, rules=rules)
    rows = rec.drop_duplicates(["bidder", "deal_no", "table"])
    bags = rows["team_new_bags"].to_numpy()
    assert (bags >= 2).any() and (bags % 2 == 1).any()  # penalties paid in a hand, and odd bags
    want = rows["team_points"].to_numpy() + 50 * (bags // 2) - 25 * bags
    assert (rows["team_points_at_bag_cost"].to_numpy() == want).all()
    others = (rows["opponent_points_at_bag_cost"] - rows["opponent_points"]).to_numpy()
    assert set(np.unique(others)) <= {0.0, -12.5, -25.0} and len(np.unique(others)) > 1  # two other seats
    board = bidding_leaderboard(rec)
    assert board.loc["three", "margin_at_bag_cost"] != board.loc["three", "margin"]
    assert board.loc["normal", "margin_at_bag_cost"] == 0  # bidding as its opponents do, by construction
    m, lo, hi = paired_margin(rec, "three", "normal", at_bag_cost=True)
    assert lo < m < hi
    assert m == pytest.approx(board.loc["three", "margin_at_bag_cost"] - board.loc["normal", "margin_at_bag_cost"])
