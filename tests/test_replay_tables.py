"""The replay of ``--keep-plays`` runs at every table (issue 42): a tiny tournament at 3 solo,
4 solo, 6 pairs, 8 solo and 12 players, every hand of every rotation replayed through ``Hand``
and checked against the rows by hand here (each side's tricks by seat and points), the run
exported as JSON lines and read back, PBN refused by name, and a damaged row named."""

from __future__ import annotations

import shutil

import numpy as np
import pyarrow.parquet as pq
import pytest

from spades_ai import Hand, Rules, load_results, run_tournament
from spades_ai.cli import main
from spades_ai.errors import TableError
from spades_ai.records import read_records
from spades_ai.seats import seat_order, side_seats, sides
from spades_ai.table import ReplayError, replay_lines, replay_source
from spades_ai.table.replay import run_hands, run_pbn, run_records

TABLES = {"3 solo": Rules(players=3), "4 solo": Rules(players=4, teams="solo"), "6 pairs": Rules(players=6, teams="pairs"),
          "8 solo": Rules(players=8), "12 solo": Rules(players=12)}  # fmt: skip
DEALS = 2


@pytest.fixture(scope="module", params=list(TABLES), ids=list(TABLES))
def run(request, tmp_path_factory):
    rules = TABLES[request.param]
    out = run_tournament("normal,easy", deals=DEALS, seed=6, rules=rules, keep_plays=True, chunk_size=1, n_jobs=1,
                         progress=False, out=tmp_path_factory.mktemp("run"))  # fmt: skip
    return out.path, rules, load_results(out.path)


def check_hand_against_rows(hand: Hand, rows, rules: Rules) -> None:
    """The replayed hand's bids, tricks and points are the rows' (one row a side, by side)."""
    result = hand.result()
    assert len(rows) == rules.n_sides
    for side in sides(rules):
        row = rows[rows.side == side].iloc[0]
        for ab, seat in zip("ab", side_seats(side, rules)):
            assert result.tricks_won[seat] == row[f"tricks_won_{ab}"] and hand.bids[seat] == row[f"bid_{ab}"]
        assert result.points[side] == row.points
        assert np.frombuffer(row.plays, np.int8).tolist() == [int(c) for _, c in hand.plays]


def test_every_hand_of_every_rotation_replays_and_matches_its_rows(run):
    path, rules, df = run
    n = rules.players
    for rotation in range(rules.n_sides):
        for deal_no in range(DEALS):
            (recorded,) = replay_source(path, deal_no=deal_no, table=rotation)
            record = recorded.record
            assert len(record["plays"]) == n * rules.cards_each and len(record["bids"]) == n
            assert len(recorded.teams) == rules.n_sides and len(recorded.agents) == rules.n_sides
            hand = Hand.from_record(record)  # every card checked once more
            bidders = seat_order(record["dealer"] + 1, rules)
            assert [s for s, _, _ in hand.bid_history()] == bidders
            rows = df[(df.deal_no == deal_no) & (df.rotation == rotation)]
            check_hand_against_rows(hand, rows, rules)
            lines = replay_lines(recorded)
            assert sum(line.startswith("Trick ") for line in lines) == rules.cards_each
            assert lines[0] == f"{path}: deal {deal_no}, table {rotation}, pairing 0"


def test_a_run_exports_as_json_lines_at_every_table_and_pbn_is_refused(run, capsys):
    path, rules, df = run
    text = run_records(path, table=rules.n_sides - 1)
    hands = read_records(text, "run.jsonl")
    assert len(hands) == DEALS and text.count("\n") == DEALS and '"event": ' in text
    for deal_no, hand in enumerate(hands):
        check_hand_against_rows(hand, df[(df.deal_no == deal_no) & (df.rotation == rules.n_sides - 1)], rules)
    assert main(["replay", str(path), "--json", "--table", "1"]) == 0
    printed = [h.to_record() for h in read_records(capsys.readouterr().out)]
    assert printed == [h.to_record() for h in read_records(run_records(path, table=1))]
    with pytest.raises(TableError, match=f"PBN records play 4 players in pairs, not {rules.players} players"):
        run_pbn(path)
    assert main(["replay", str(path), "--table", str(rules.n_sides)]) == 2
    err = capsys.readouterr().err
    assert f"--table is 0..{rules.n_sides - 1}, not {rules.n_sides}" in err and len(err.strip().splitlines()) == 1


def test_a_matches_mode_run_at_three_and_six_replays_hand_by_hand(tmp_path):
    for rules in (Rules(players=3, target_score=150), Rules(players=6, teams="pairs", target_score=150)):
        out = run_tournament("normal,easy", deals=1, seed=2, rules=rules, mode="matches", keep_plays=True, n_jobs=1,
                             progress=False, out=tmp_path / str(rules.players))  # fmt: skip
        df = load_results(out.path)
        rotation = rules.n_sides - 1
        hands = run_hands(out.path, match_no=0, table=rotation)
        mine = df[(df.match_no == 0) & (df.rotation == rotation)]
        assert len(hands) == mine.hand_no.nunique() > 1
        for k, recorded in enumerate(hands):
            hand = Hand.from_record(recorded.record)
            rows = mine[mine.hand_no == k]
            check_hand_against_rows(hand, rows, rules)
            assert list(hand.result().scores) == rows.sort_values("side").score.tolist()  # the match carried on


def test_a_row_that_the_replay_contradicts_is_named(run, tmp_path):
    path, rules, _ = run
    damaged = tmp_path / "damaged"
    shutil.copytree(path, damaged)
    chunk = sorted((damaged / "data").glob("*.parquet"))[0]
    table = pq.read_table(chunk)
    points = table.column("points").to_numpy().copy()
    points[-1] += 10  # the last side of the last rotation of deal 0
    pq.write_table(table.set_column(table.schema.get_field_index("points"), "points", [points.astype(np.int32)]), chunk)
    last = rules.n_sides - 1
    with pytest.raises(ReplayError, match=rf"the replayed hand gives (side|team) {last} tricks .* the row says"):
        replay_source(damaged, deal_no=0, table=last)


def test_a_dataset_of_another_table_is_refused_through_the_one_table_check(run):
    from spades_ai.tournament.recorded import recorded_hands

    path, rules, _ = run
    with pytest.raises(TableError, match=rf"datasets of recorded hands play 4 players in pairs, not {rules.players} "
                                         r"players .*export it with --json \(docs/learning.md\)"):  # fmt: skip
        recorded_hands(path)
