"""Decision rows: the numba replay against ``Hand`` + ``observation_vector`` row by row, and
dataset folders that resume without losing or doubling rows and refuse another dataset."""

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.interop.encoding import observation_vector
from spades_ai.learn import encoding as enc
from spades_ai.learn import load_dataset, rows_from_records, write_dataset
from spades_ai.learn.dataset import DatasetError, chunk_path


def reference_rows(records, seed, rules):
    """(obs, mask, seat, action, outcome) of every decision, replayed through Hand."""
    out = []
    for i, d in enumerate(records.deal_no):
        h = sa.Hand([int(c) for c in sa.deal(seed, int(d))], int(records.dealer[i]), rules)
        points = records.points[i]

        def row(obs, action, seat, legal, points=points):
            mask = np.zeros(enc.N_ACTIONS, np.int8)
            mask[legal] = 1
            out.append((observation_vector(obs), mask, seat, action, points[seat % 2]))

        while h.phase == "bidding":
            seat = h.to_act
            if h.legal_bids(blind=True):
                blind = bool(records.blind[i, seat])
                row(h.observation(blind_decision=True), enc.BLIND_NIL if blind else enc.LOOK, seat, [enc.BLIND_NIL, enc.LOOK])
                if blind:
                    h.bid(0, blind=True)
                    continue
            b = int(records.bids[i, seat])
            row(h.observation(), enc.BID_OFFSET + b, seat, [enc.BID_OFFSET + x for x in h.legal_bids()])
            h.bid(b)
        for card in records.plays[i]:
            seat = h.to_act
            row(h.observation(), int(card), seat, [int(c) for c in h.legal_cards()])
            h.play(int(card))
    return out


@pytest.mark.parametrize(
    "rules", [sa.Rules(), sa.Rules(blind_nil=True, closed_bidding=True, jokers=2)], ids=["default", "blind nil, closed, jokers"]
)
def test_rows_equal_the_hand_replay(rules):
    seed = 6
    records = sa.play_hands(["normal", "random"], 6, seed=seed, rules=rules, keep_plays=True)
    rows = rows_from_records(records, seed, rules)
    expected = reference_rows(records, seed, rules)
    assert len(rows["action"]) == len(expected)
    for k, (v, mask, seat, action, outcome) in enumerate(expected):
        np.testing.assert_array_equal(rows["obs"][k], v, err_msg=f"row {k}")
        np.testing.assert_array_equal(rows["mask"][k], mask, err_msg=f"row {k}")
        assert (rows["seat"][k], rows["action"][k], rows["outcome"][k]) == (seat, action, outcome), f"row {k}"
    if rules.blind_nil:
        assert (rows["action"] == enc.LOOK).any() and (rows["phase"] == 1).any()


def test_a_record_of_other_rules_is_refused():
    records = sa.play_hands(["normal", "normal"], 2, seed=1, keep_plays=True)
    with pytest.raises(DatasetError, match="hand 0 .*rules refuse"):
        rows_from_records(records, seed=2, rules=sa.Rules())  # the cards of another seed


def test_a_killed_run_resumes_without_lost_or_doubled_rows(tmp_path):
    full = load_dataset(write_dataset(tmp_path / "full", ["normal", "easy"], deals=12, seed=3, chunk_size=4))
    out = write_dataset(tmp_path / "run", ["normal", "easy"], deals=12, seed=3, chunk_size=4)
    chunk_path(out, 1).unlink()  # killed before chunk 1 was renamed into place ...
    (out / ".chunk-000001.parquet.123.tmp").write_bytes(b"half a chunk")  # ... while writing it
    write_dataset(out, ["normal", "easy"], deals=12, seed=3, chunk_size=4)
    again = load_dataset(out)
    assert len(full["action"]) == 12 * 56  # no blind nil under the default rules
    for name in full:
        np.testing.assert_array_equal(full[name], again[name], err_msg=name)
    assert sorted(np.unique(again["deal_no"])) == list(range(12))
    assert set(np.unique(again["agent"])) == {0, 1, 2, 3}


def test_a_folder_of_another_dataset_is_refused(tmp_path):
    out = write_dataset(tmp_path / "d", ["normal", "easy"], deals=4, seed=3, chunk_size=4)
    with pytest.raises(DatasetError, match="seed: 3 there, 4 asked"):
        write_dataset(out, ["normal", "easy"], deals=4, seed=4, chunk_size=4)
    with pytest.raises(ValueError, match="play_values_kernel"):
        write_dataset(tmp_path / "e", ["hard", "normal"], deals=4, labels="hard")


def test_the_dataset_command_from_a_run_and_live(tmp_path, capsys):
    from spades_ai.cli import main

    run = tmp_path / "run"
    assert main(["tournament", "--agents", "normal,random", "--deals", "3", "--seed", "2", "--keep-plays", "--jobs", "1",
                 "--out", str(run), "-q"]) == 0  # fmt: skip
    assert main(["dataset", "--from", str(run), "--out", str(tmp_path / "from")]) == 0
    data = load_dataset(tmp_path / "from")
    assert len(data["action"]) == 2 * 3 * 56  # two tables of three deals (duplicate), 56 decisions each
    # table 0 of the duplicate run is the lineup (normal, random, normal, random) on deals 0..2 of seed 2
    records = sa.play_hands(["normal", "random"], 3, seed=2, keep_plays=True)
    live = rows_from_records(records, 2, sa.Rules())
    np.testing.assert_array_equal(data["obs"][: len(live["obs"])], live["obs"])
    np.testing.assert_array_equal(data["action"][: len(live["obs"])], live["action"])
    assert main(["dataset", "--agents", "normal,easy", "--deals", "2", "--out", str(tmp_path / "live")]) == 0
    assert len(load_dataset(tmp_path / "live")["action"]) == 2 * 56
    assert main(["dataset", "--agents", "hard,normal", "--deals", "2", "--labels", "hard", "--out", str(tmp_path / "x")]) == 2
    assert "play_values_kernel" in capsys.readouterr().err


def test_solver_labels(tmp_path):
    """Labels on legal cards only, and only with at most two tricks left; at the hand's last
    card (nothing left to choose) the value is the hand's outcome for the acting team."""
    out = write_dataset(tmp_path / "s", ["normal", "random"], deals=6, seed=8, labels="solver", solver_tricks=2)
    data = load_dataset(out)
    labels, mask, phase = data["solver_values"], data["mask"], data["phase"]
    has = ~np.isnan(labels).all(axis=1)
    play_no = np.zeros(len(phase), np.int64)  # the card's index in the hand's play, per row
    for d in np.unique(data["deal_no"]):
        rows = np.flatnonzero((data["deal_no"] == d) & (phase == 3))
        play_no[rows] = np.arange(len(rows))
    np.testing.assert_array_equal(has, (phase == 3) & (play_no >= 44))
    np.testing.assert_array_equal(~np.isnan(labels[has]), mask[has][:, :52] == 1)
    last = play_no == 51
    assert last.sum() == 6
    np.testing.assert_array_equal(labels[last, data["action"][last]], data["outcome"][last])
