"""Recorded plays and ``spades-ai replay`` (issue 13, item 2): ``keep_plays`` in self-play and
tournaments, rows that replay exactly through ``Hand``, and the three replay sources."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from spades_ai import Hand, Rules, deal, load_results, play_hands, play_matches, run_tournament
from spades_ai.cli import main
from spades_ai.table import ReplayError, TableMatch, replay_lines, replay_source
from spades_ai.tournament import ResultsError


class Wrapped:
    """A built-in behind a plain Python class, so self-play takes the Python loop."""

    def __init__(self, name):
        from spades_ai import make_agent

        self.agent, self.name = make_agent(name), name

    def bid(self, obs):
        return self.agent.bid(obs)

    def play(self, obs):
        return self.agent.play(obs)


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- self-play ----------------------------------------------------------------------------------
def test_play_hands_keeps_the_cards_in_play_order_only_when_asked():
    plain = play_hands(["normal", "easy"], 60, seed=4)
    kept = play_hands(["normal", "easy"], 60, seed=4, keep_plays=True)
    assert plain.plays is None and kept.plays.shape == (60, 52) and kept.plays.dtype == np.int8
    assert dataclasses.replace(kept, plays=None) == plain
    assert np.array_equal(play_hands([Wrapped("normal"), Wrapped("easy")], 60, seed=4, keep_plays=True).plays, kept.plays)
    for i in range(60):
        hand = Hand(deal(4, i), dealer=0)
        for k in range(4):
            hand.bid(int(kept.bids[i, (1 + k) % 4]))
        for c in kept.plays[i]:
            hand.play(int(c))  # every card checked again
        assert hand.tricks_won == kept.tricks_won[i].tolist()
        assert list(hand.result().points) == kept.points[i].tolist()
    with pytest.raises(TypeError, match="keep_plays"):
        play_hands(["normal", "easy"], 1, keep_plays="yes")


def test_play_matches_keeps_plays_while_its_arrays_grow():
    rules = Rules(target_score=2000)  # long matches: the record arrays grow inside the kernel
    kept = play_matches(["normal", "easy"], 2, seed=3, rules=rules, keep_plays=True)
    assert len(kept) > 48 and kept.plays.shape == (len(kept), 52)
    assert dataclasses.replace(kept, plays=None) == play_matches(["normal", "easy"], 2, seed=3, rules=rules)
    python = play_matches([Wrapped("normal"), Wrapped("easy")], 1, seed=3, rules=rules, keep_plays=True)
    assert np.array_equal(python.plays, kept.plays[: len(python)])


# -- tournaments --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    hands = run_tournament("normal,easy", deals=40, seed=5, out=base / "h", keep_plays=True, n_jobs=1, progress=False)
    plain = run_tournament("normal,easy", deals=40, seed=5, out=base / "p", n_jobs=1, progress=False)
    matches = run_tournament("normal,easy", deals=3, seed=5, mode="matches", rules=Rules(target_score=200),
                             out=base / "m", keep_plays=True, n_jobs=1, progress=False)  # fmt: skip
    return hands.path, plain.path, matches.path


def test_keep_plays_adds_one_column_and_the_default_run_has_none(runs):
    hands, plain, matches = runs
    with_plays, without = load_results(hands), load_results(plain)
    assert "plays" not in without.columns and "plays" not in pq.read_schema(next((plain / "data").iterdir())).names
    assert list(with_plays.columns) == [*without.columns, "plays"]
    assert with_plays.drop(columns="plays").equals(without)
    assert json.loads((hands / "config.json").read_text())["keep_plays"] is True
    assert "keep_plays" not in json.loads((plain / "config.json").read_text())
    assert with_plays.plays.map(len).eq(52).all()


def test_keep_plays_rows_replay_exactly(runs):
    hands, _, matches = runs
    df = load_results(hands)
    for (deal_no, table), rows in list(df.groupby(["deal_no", "rotation"]))[::7]:
        (recorded,) = replay_source(hands, deal_no=int(deal_no), table=int(table))
        rec = recorded.record
        by_seat = {s: int(rows.iloc[s % 2]["bid_a" if s < 2 else "bid_b"]) for s in range(4)}
        assert rec["bids"] == [by_seat[(rec["dealer"] + 1 + k) % 4] for k in range(4)]
        assert rec["plays"] == list(np.frombuffer(rows.iloc[0].plays, np.int8))
        assert rec["deal"] == [int(m) for m in deal(5, int(deal_no))]
    dm = load_results(matches)
    last = dm[(dm.match_no == 2) & (dm.rotation == 1)].hand_no.max()
    (recorded,) = replay_source(matches, match_no=2, hand_no=int(last), table=1)
    hand = Hand.from_record(recorded.record)
    row = dm[(dm.match_no == 2) & (dm.rotation == 1) & (dm.hand_no == last)].sort_values("side")
    assert list(hand.result().scores) == row.score.tolist()


def test_a_run_refuses_the_other_keep_plays_setting(runs, tmp_path):
    hands, _, _ = runs
    with pytest.raises(ResultsError, match="keep_plays"):
        run_tournament("normal,easy", deals=40, seed=5, out=hands, n_jobs=1, progress=False)


def test_replay_errors_are_one_line(runs, capsys, tmp_path):
    hands, plain, matches = runs
    for args, words in [
        ((str(hands), "--deal", "40"), "deal 40 is not in"),
        ((str(plain), "--deal", "3"), "played without --keep-plays"),
        ((str(hands),), "pick a hand with --deal N"),
        ((str(matches), "--match", "1"), "pick a hand with --match M --hand K"),
        ((str(matches), "--match", "1", "--hand", "99"), "not 99"),
        ((str(hands), "--deal", "1", "--table", "2"), "--table is 0 or 1"),
        ((str(tmp_path / "nothing"),), "does not exist"),
    ]:
        code, out, err = cli(capsys, "replay", *args)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (args, err)


def test_replay_a_run_on_the_command_line(runs, capsys):
    hands, _, _ = runs
    code, out, err = cli(capsys, "replay", str(hands), "--deal", "7", "--table", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith("deal 7, table 1, pairing 0")
    assert sum(line.startswith("Trick ") for line in lines) == 13
    assert "Score sheet" in out and "easy (seats 0, 2)" in out and "normal (seats 1, 3)" in out


# -- the other sources --------------------------------------------------------------------------
def test_replay_a_saved_match_and_a_hand_record(capsys, tmp_path):
    match = TableMatch(4, "easy", Rules(target_score=250))
    match.advance()
    from spades_ai import make_agent

    normal = make_agent("normal")
    while match.hand_no < 2:
        h = match.hand
        action = normal.bid(h.observation()) if h.phase == "bidding" else normal.play(h.observation())
        assert match.answer(str(action))[0]
        match.advance()
    save = tmp_path / "m.jsonl"
    match.save(save)
    code, out, err = cli(capsys, "replay", str(save), "--hand", "1")
    assert code == 0, err
    assert "hand_no 1 (hand 2 of the match)" in out and "Score sheet" in out and "You & North" in out
    trick_lines = [line for line in out.splitlines() if line.startswith("Trick ")]
    assert len(trick_lines) == 13 and all(" wins." in line for line in trick_lines)
    code, out, _ = cli(capsys, "replay", str(save))  # every hand, the one in progress last
    assert out.count("Score sheet") == 2 and "The hand stops here" in out
    record = tmp_path / "hand.json"
    record.write_text(match.hands[0].to_json())
    code, out, err = cli(capsys, "replay", str(record))
    assert code == 0 and "a recorded hand" in out and "seat 0 & seat 2" in out
    assert out.splitlines()[-1].split()[0] == "match"
    code, _, err = cli(capsys, "replay", str(record), "--hand", "1")
    assert code == 2 and "--hand picks a hand of a saved match" in err
    broken = json.loads(match.hands[0].to_json())
    broken["plays"][5], broken["plays"][6] = broken["plays"][6], broken["plays"][5]
    with pytest.raises(ReplayError, match="is refused"):
        replay_lines(replay_source(_write(tmp_path / "b.json", broken))[0])


def _write(path, obj):
    path.write_text(json.dumps(obj))
    return path


def test_keep_plays_from_the_command_line_and_an_experiment_file(capsys, tmp_path):
    code, _, err = cli(capsys, "tournament", "--deals", "12", "--keep-plays", "--jobs", "1", "--out", str(tmp_path / "a"), "-q")
    assert code == 0, err
    assert "played 12 deals" in err
    exp = tmp_path / "exp.toml"
    exp.write_text('agents = ["normal", "random"]\ndeals = 6\nmode = "matches"\nkeep_plays = true\njobs = 1\nout = "b"\n'
                   "[rules]\ntarget_score = 100\n")  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--config", str(exp), "-q")
    assert code == 0, err
    for folder, args in (("a", ["--deal", "11", "--table", "1"]), ("b", ["--match", "5", "--hand", "0"])):
        assert "plays" in load_results(tmp_path / folder).columns
        code, out, err = cli(capsys, "replay", str(tmp_path / folder), *args)
        assert code == 0 and "Score sheet" in out, err
    exp.write_text('agents = ["normal", "easy"]\nkeep_plays = "yes"\n')
    code, _, err = cli(capsys, "tournament", "--config", str(exp), "-q")
    assert code == 2 and "keep_plays must be true or false" in err


def test_runs_and_matches_with_jokers_and_high_deuces_replay(tmp_path):
    """Recorded plays are card ids (a joker keeps the id of its deuce), so the rows of a run
    under jokers and high deuces replay through ``Hand`` and print the jokers by name."""
    rules = Rules(jokers=2, deuces_high=2, target_score=150)
    for mode in ("hands", "matches"):
        run = run_tournament("normal,easy", deals=3, seed=8, mode=mode, rules=rules, out=tmp_path / mode,
                             keep_plays=True, n_jobs=1, progress=False)  # fmt: skip
        df = load_results(run.path)
        row = df.iloc[-1]
        keys = {"deal_no": int(row.deal_no)} if mode == "hands" else {"match_no": int(row.match_no), "hand_no": int(row.hand_no)}
        (recorded,) = replay_source(run.path, table=int(row.rotation), **keys)
        hand = Hand.from_record(recorded.record)
        assert hand.phase == "over" and sorted(recorded.record["plays"]) == list(range(52))
        text = "\n".join(replay_lines(recorded))
        assert "BJ" in text and "LJ" in text
