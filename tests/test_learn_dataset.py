"""Decision rows: the numba replay against ``Hand`` + ``observation_vector`` row by row, and
dataset folders that resume without losing or doubling rows and refuse another dataset."""

import json
import os
import socket
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import spades_ai as sa
from spades_ai.encoding import observation_layout
from spades_ai.interop.encoding import observation_vector
from spades_ai.learn import encoding as enc
from spades_ai.learn import iter_dataset, load_dataset, rows_from_records, write_dataset
from spades_ai.learn.dataset import DatasetError, chunk_path, deal_rows, rows_from_hands


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


def test_rows_from_hands_takes_the_hands_as_one_mapping_and_names_what_it_lacks():
    records = sa.play_hands(["normal", "normal"], 2, seed=1, keep_plays=True)
    hands = {"deals": deal_rows(1, records.deal_no), "dealer": records.dealer, "bids": records.bids, "blind": records.blind,
             "plays": records.plays, "points": records.points, "deal_no": records.deal_no,
             "seat_agents": np.zeros((2, 4), np.int8)}  # fmt: skip
    rows = rows_from_hands(hands, sa.Rules())
    expected = rows_from_records(records, 1, sa.Rules(), seat_agents=(0, 0, 0, 0))
    for name in expected:
        np.testing.assert_array_equal(rows[name], expected[name], err_msg=name)
    matches = rows_from_hands({**hands, "match_no": np.array([7, 7]), "hand_no": np.array([0, 1])}, sa.Rules())
    assert matches["match_no"].tolist() == [7] * 56 + [7] * 56 and matches["hand_no"].dtype == np.int16
    with pytest.raises(DatasetError, match="the hands lack plays, seat_agents"):
        rows_from_hands({k: v for k, v in hands.items() if k not in ("plays", "seat_agents")}, sa.Rules())


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


def assert_same_rows(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name, values in a.items():
        np.testing.assert_array_equal(values, b[name], err_msg=name)


def cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def not_parquet(path: Path) -> None:
    path.write_bytes(b"\0" * path.stat().st_size)


def lacking_a_column(path: Path) -> None:
    table = pq.read_table(path)
    pq.write_table(table.drop_columns(["outcome"]), path)


@pytest.mark.parametrize("damage", [cut_short, not_parquet, lacking_a_column])
def test_a_damaged_chunk_is_named_then_set_aside_and_written_again(tmp_path, damage):
    """A chunk file damaged after its run (a disk that filled up, a copy cut short): reading the
    folder names it and says what to do; running again sets it aside as ``*.bad``, with a
    warning, and writes it again, so the rows equal an undamaged run's."""
    lineup = ["normal", "easy"]
    clean = load_dataset(write_dataset(tmp_path / "clean", lineup, deals=10, seed=3, chunk_size=4))
    out = write_dataset(tmp_path / "run", lineup, deals=10, seed=3, chunk_size=4)
    victim = chunk_path(out, 1)
    damage(victim)
    damaged = victim.read_bytes()
    with pytest.raises(DatasetError) as err:
        load_dataset(out)
    assert victim.name in str(err.value) and "set aside as *.parquet.bad" in str(err.value)
    assert victim.read_bytes() == damaged  # reading changes nothing
    with pytest.warns(UserWarning, match=f"{victim.name}: .*; kept as {victim.name}.bad, and its deals are written again"):
        write_dataset(out, lineup, deals=10, seed=3, chunk_size=4)
    assert (out / (victim.name + ".bad")).read_bytes() == damaged  # kept, not deleted
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same_rows(load_dataset(out), clean)


def test_the_dataset_command_run_again_writes_a_truncated_chunk_again(tmp_path):
    """The same ``spades-ai dataset`` command, in a process of its own, run again after a chunk
    was cut short: a warning on stderr names it, and the folder's rows equal a clean run's."""
    out = tmp_path / "d"
    cmd = [sys.executable, "-m", "spades_ai", "dataset", "--agents", "normal,easy", "--deals", "6", "--seed", "2",
           "--chunk-size", "2", "--jobs", "2", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=300)
    cut_short(chunk_path(out, 2))
    again = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, timeout=300)
    assert f"{chunk_path(out, 2)}: not a readable Parquet file" in again.stderr
    assert "kept as chunk-000002.parquet.bad, and its deals are written again" in again.stderr
    clean = write_dataset(tmp_path / "clean", ["normal", "easy"], deals=6, seed=2, chunk_size=2)
    assert_same_rows(load_dataset(out), load_dataset(clean))


def test_an_unfinished_dataset_loads_with_a_warning(tmp_path):
    """A folder with a chunk missing (its run unfinished, or killed) is read with a warning that
    says how much is missing, pointing at the caller; a whole folder is read without one."""
    out = write_dataset(tmp_path / "d", ["normal", "easy"], deals=10, seed=3, chunk_size=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        whole = load_dataset(out)
    chunk_path(out, 1).unlink()
    with pytest.warns(UserWarning, match="the dataset is unfinished, 4 of its deals are not written yet") as caught:
        part = load_dataset(out)
    assert caught[0].filename == __file__
    assert len(part["action"]) == 6 * 56 and sorted(np.unique(part["deal_no"])) == [0, 1, 2, 3, 8, 9]
    np.testing.assert_array_equal(part["action"], np.concatenate([whole["action"][: 4 * 56], whole["action"][8 * 56 :]]))
    with pytest.warns(UserWarning, match="unfinished, 4 of its deals") as caught:
        chunks = iter_dataset(out, columns=["deal_no"])
    assert caught[0].filename == __file__ and len(list(chunks)) == 2
    chunk_path(out, 2).unlink()  # the last chunk: two deals
    with pytest.warns(UserWarning, match="unfinished, 6 of its deals"):
        load_dataset(out)


def test_iter_dataset_gives_the_rows_chunk_by_chunk(tmp_path):
    out = write_dataset(tmp_path / "rows", ["normal", "easy"], deals=10, seed=3, chunk_size=4)
    chunks = list(iter_dataset(out, columns=["deal_no", "action"]))
    assert [len(np.unique(c["deal_no"])) for c in chunks] == [4, 4, 2]  # whole hands in each
    whole = load_dataset(out, columns=["deal_no", "action"])
    for name in whole:
        np.testing.assert_array_equal(np.concatenate([c[name] for c in chunks]), whole[name])
    with pytest.raises(DatasetError, match="not a dataset folder"):
        next(iter_dataset(tmp_path))


def test_a_folder_of_another_dataset_is_refused(tmp_path):
    out = write_dataset(tmp_path / "d", ["normal", "easy"], deals=4, seed=3, chunk_size=4)
    with pytest.raises(DatasetError, match="seed: 3 there, 4 asked"):
        write_dataset(out, ["normal", "easy"], deals=4, seed=4, chunk_size=4)
    (out / ".lock").write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))  # a live run's lock
    with pytest.raises(DatasetError, match="another run .* is writing to"):
        write_dataset(out, ["normal", "easy"], deals=4, seed=3, chunk_size=4)
    with pytest.raises(ValueError, match="normal has no evaluation of every legal card"):
        write_dataset(tmp_path / "e", ["hard", "normal"], deals=4, labels="normal")
    with pytest.raises(ValueError, match="labels='best'.*unknown agent 'best'"):
        write_dataset(tmp_path / "e", ["hard", "normal"], deals=4, labels="best")


@pytest.mark.parametrize("rules, lineup", [(sa.Rules(players=3), ["easy"] * 3),
                                           (sa.Rules(players=6, teams="pairs"), ["easy"] * 3),
                                           (sa.Rules(players=8), ["easy"] * 8)], ids=["3 solo", "6 pairs", "8 solo"])
def test_a_dataset_at_another_table(tmp_path, rules, lineup):
    """Issue 44: datasets play every table (issue 42 refused them by name): the rows written are
    those of the same hands' records, in the table's layout; the default table still counts its
    own seats."""
    data = load_dataset(write_dataset(tmp_path / "d", lineup, deals=2, seed=5, rules=rules))
    live = rows_from_records(sa.play_hands(lineup, 2, seed=5, rules=rules, keep_plays=True), 5, rules)
    for k in ("obs", "mask", "seat", "phase", "action", "outcome", "deal_no"):
        np.testing.assert_array_equal(data[k], live[k])
    assert data["obs"].shape == (2 * rules.players * (1 + rules.cards_each), observation_layout(rules).size)
    with pytest.raises(ValueError, match="a lineup has 4 seats .or 2 sides. at this table, not 3"):
        write_dataset(tmp_path / "e", ["easy"] * 3, deals=2)


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
    cut_short(chunk_path(tmp_path / "from", 0))  # the same command again writes a damaged chunk again
    with pytest.warns(UserWarning, match="kept as chunk-000000.parquet.bad, and its hands are written again"):
        assert main(["dataset", "--from", str(run), "--out", str(tmp_path / "from")]) == 0
    assert_same_rows(load_dataset(tmp_path / "from"), data)
    assert main(["dataset", "--agents", "normal,easy", "--deals", "2", "--out", str(tmp_path / "live")]) == 0
    assert len(load_dataset(tmp_path / "live")["action"]) == 2 * 56
    assert main(["dataset", "--agents", "normal,easy", "--deals", "1", "--labels", "easy", "--out", str(tmp_path / "x")]) == 2
    assert "easy has no evaluation" in capsys.readouterr().err
    assert main(["dataset", "--agents", "hard:worlds=16,normal", "--deals", "1", "--labels", "hard:worlds=16",
                 "--out", str(tmp_path / "hard")]) == 0  # fmt: skip
    hard = load_dataset(tmp_path / "hard")
    at_hard = hard["seat"] % 2 == 0  # Hard's own seats: the labels come with its decision
    np.testing.assert_array_equal(hard["label_action"][at_hard], hard["action"][at_hard])


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


def record_rows(record):
    """(obs, mask, seat, action, outcome) of every decision of a ``Hand.to_record()`` record,
    replayed through a ``Hand`` that starts from the record's match state."""
    rules = sa.Rules.from_dict(record["rules"])
    h = sa.Hand(record["deal"], record["dealer"], rules, record["scores"], record["bag_count"], record["hands_played"])
    actions = []
    for b, blind in zip(record["bids"], record["blind"]):
        seat = h.to_act
        if h.legal_bids(blind=True):
            actions.append((h.observation(blind_decision=True), enc.BLIND_NIL if blind else enc.LOOK, seat,
                            [enc.BLIND_NIL, enc.LOOK]))  # fmt: skip
        if not blind:
            actions.append((h.observation(), enc.BID_OFFSET + b, seat, [enc.BID_OFFSET + x for x in h.legal_bids()]))
        h.bid(b, blind=blind)
    for card in record["plays"]:
        card = rules.named(card)
        actions.append((h.observation(), int(card), h.to_act, [int(c) for c in h.legal_cards()]))
        h.play(card)
    out = []
    for obs, action, seat, legal in actions:
        mask = np.zeros(enc.N_ACTIONS, np.int8)
        mask[legal] = 1
        out.append((observation_vector(obs), mask, seat, action, h.result().points[seat % 2]))
    return out


def test_the_dataset_of_a_matches_mode_run(tmp_path):
    """Every hand of the matches carries the scores and bags of the match into its rows (here
    also whether a blind nil is offered: only when trailing by 100)."""
    from spades_ai.cli import main
    from spades_ai.table.replay import from_run
    from spades_ai.tournament.results import load_results

    rules = tmp_path / "rules.toml"
    rules.write_text("target_score = 200\nblind_nil = true\nblind_nil_min_deficit = 100\n")
    run = tmp_path / "run"
    assert main(["tournament", "--agents", "normal,random", "--deals", "2", "--mode", "matches", "--seed", "4",
                 "--rules", str(rules), "--keep-plays", "--jobs", "1", "--out", str(run), "-q"]) == 0  # fmt: skip
    assert main(["dataset", "--from", str(run), "--out", str(tmp_path / "from"), "--chunk-size", "3"]) == 0
    data = load_dataset(tmp_path / "from")
    assert (data["deal_no"] == -1).all() and data["hand_no"].max() >= 2
    hands = load_results(run, columns=["rotation", "side", "match_no", "hand_no"]).query("side == 0")
    r = checked = 0
    for table, m, k in hands.sort_values(["rotation", "match_no", "hand_no"])[["rotation", "match_no", "hand_no"]].to_numpy():
        expected = record_rows(from_run(run, match_no=int(m), hand_no=int(k), table=int(table)).record)
        for v, mask, seat, action, outcome in expected:
            assert (data["match_no"][r], data["hand_no"][r]) == (m, k)
            np.testing.assert_array_equal(data["obs"][r], v, err_msg=f"table {table}, match {m}, hand {k}, row {r}")
            np.testing.assert_array_equal(data["mask"][r], mask)
            assert (data["seat"][r], data["action"][r], data["outcome"][r]) == (seat, action, outcome)
            r += 1
        checked += k > 0
    assert r == len(data["action"])
    assert checked >= 4 and (data["phase"] == 1).any()  # later hands, and a blind nil offered


def test_a_parallel_dataset_equals_the_serial_one(tmp_path):
    serial = load_dataset(write_dataset(tmp_path / "serial", ["normal", "random"], deals=9, seed=5, chunk_size=3))
    parallel = load_dataset(write_dataset(tmp_path / "par", ["normal", "random"], deals=9, seed=5, chunk_size=3, n_jobs=2))
    assert serial.keys() == parallel.keys() and len(serial["action"]) == 9 * 56
    for name in serial:
        np.testing.assert_array_equal(serial[name], parallel[name], err_msg=name)


@pytest.mark.parametrize("labeller", ["hard", "crazy"])
def test_search_labels_are_the_agents_own_evaluation(tmp_path, labeller):
    """At the labeller's seats the labels are its own decision (label_action == action, and the
    play is play_hands' own); at the others it evaluates the same observation; every label
    equals a direct call of ``decision_values`` on the row's observation."""
    from spades_ai.montecarlo import decision_values

    agent = sa.make_agent(labeller, worlds=16)
    spec = f"{labeller}:worlds=16"
    out = write_dataset(tmp_path / "l", [agent, "normal"], deals=2, seed=7, labels=spec, chunk_size=1)
    data = load_dataset(out)
    plain = load_dataset(write_dataset(tmp_path / "p", [agent, "normal"], deals=2, seed=7))
    for name in plain:  # the labels change nothing of the play
        np.testing.assert_array_equal(data[name], plain[name], err_msg=name)
    chunk_path(out, 0).unlink()  # a killed run: the labelled chunk is made again, the same
    write_dataset(out, [agent, "normal"], deals=2, seed=7, labels=spec, chunk_size=1)
    again = load_dataset(out)
    for name in data:
        np.testing.assert_array_equal(again[name], data[name], err_msg=name)
    values, choice, seat, phase = data["label_values"], data["label_action"], data["seat"], data["phase"]
    own = seat % 2 == 0
    np.testing.assert_array_equal(choice[own], data["action"][own])
    assert (choice[~own] != data["action"][~own]).any()  # Normal does not always choose as Hard would
    weighed = ~np.isnan(values)
    assert (data["mask"][weighed] == 1).all() and weighed[phase == 2][:, 52:66].any() and weighed[phase == 3][:, :52].any()
    records = sa.play_hands([agent, "normal"], 2, seed=7, keep_plays=True)
    reference = sa.make_agent(labeller, worlds=16)
    row = 0
    for i in range(2):
        h = sa.Hand([int(c) for c in sa.deal(7, i)], 0)
        while h.phase == "bidding":
            b = records.bids[i][h.to_act]
            _, direct = decision_values(reference, h.observation())
            expected = np.full(enc.N_ACTIONS, np.nan, np.float32)
            expected[[enc.BID_OFFSET + k for k in direct]] = list(direct.values())
            np.testing.assert_array_equal(values[row], expected, err_msg=f"row {row}")
            h.bid(int(b))
            row += 1
        for card in records.plays[i]:
            c, direct = decision_values(reference, h.observation())
            expected = np.full(enc.N_ACTIONS, np.nan, np.float32)
            expected[[int(k) for k in direct]] = list(direct.values())
            np.testing.assert_array_equal(values[row], expected, err_msg=f"row {row}")
            assert choice[row] == int(c)
            h.play(int(card))
            row += 1
    assert row == len(values)
