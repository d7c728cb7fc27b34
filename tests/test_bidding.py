"""The bidding benchmark: bidders on fixed duplicate deals, one play policy."""

import numpy as np
import pytest

from spades_ai import IllegalBidError
from spades_ai.analysis.bidding import bidding_benchmark, bidding_leaderboard, bidding_records
from spades_ai.cli import main


def three(hand, seat, bids, scores):
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


def test_leaderboard_is_computed_from_the_records():
    rec = bidding_records({"three": three, "normal": "normal"}, deals=30, seed=1)
    board = bidding_leaderboard(rec)
    g = rec[rec["bidder"] == "three"]
    numbers = g[g["bid"] > 0]
    assert board.loc["three", "mean_error"] == pytest.approx((numbers["bid"] - numbers["tricks"]).mean())
    assert board.loc["three", "mae"] == pytest.approx((numbers["bid"] - numbers["tricks"]).abs().mean())
    team = g.drop_duplicates(["deal", "table"])
    per_deal = team.groupby("deal")[["team_points", "opponent_points"]].mean()
    assert board.loc["three", "margin"] == pytest.approx((per_deal["team_points"] - per_deal["opponent_points"]).mean())
    assert board.loc["normal", "margin"] == pytest.approx(0.0)  # Normal against Normal on both tables
    assert list(board.index) == sorted(board.index, key=lambda k: -board.loc[k, "margin"])


def test_an_illegal_bid_names_the_bidder():
    with pytest.raises(IllegalBidError, match="'fourteen'"):
        bidding_benchmark({"fourteen": lambda hand, seat, bids, scores: 14}, deals=2)


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
    assert np.array_equal(a["deal"].unique(), np.arange(12))
