"""Tournaments and results at every table size (issue 34): the duplicate rotations, results
schema 4 (one row per hand per side) and the summaries per agent over sides.

Besides real runs at 3 and 5 players, some tests drive the paths with ``HandRecords`` built in
the test with the shapes of the engine's contract (per seat ``(n, players)``, per side
``(n, n_sides, F)``, ``plays`` ``(n, deck size)``), and with a stand-in for ``play_hands`` whose
points are a seat's luck plus its agent's skill: a duplicate schedule that puts every entrant in
every seat cancels the luck exactly.
"""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import spades_ai.selfplay
from spades_ai.analysis.bidding import bidding_leaderboard, bidding_records
from spades_ai.analysis.metrics import agent_rates, seat_rows, with_context
from spades_ai.analysis.summary import agent_stats, outcomes, ratings, summarize
from spades_ai.cli import build_parser, _settings
from spades_ai.engine import score as sc
from spades_ai.errors import RulesError, TableError
from spades_ai.folders import write_atomic
from spades_ai.rules import Rules
from spades_ai.selfplay.records import HandRecords
from spades_ai.tournament import load_results, run_tournament
from spades_ai.tournament.results import (
    DATA_DIR,
    ResultsError,
    best_other,
    check_folder,
    chunk_table,
    deal_differences,
    prepare_folder,
    run_config,
)
from spades_ai.tournament.runner import seat_lineup
from spades_ai.tournament.schedule import Chunk, Tournament, read_experiment

DATA = Path(__file__).parent / "data"
EXPERIMENTS = Path(__file__).parent.parent / "experiments"
FIVE = Rules(players=5)
SKILL = {"easy": 0, "normal": 10, "random": -30}


# -- HandRecords of any table, as the engine's contract shapes them ------------------------------
def records(rules: Rules, deal_no, agents=None, *, seed=0, keep_plays=False, matches=None) -> HandRecords:
    """Hands of ``rules``'s table: each seat's "luck" from (seed, deal), a side's points its
    seats' luck plus the skill (``SKILL``) of the agents there (``agents``: names by seat)."""
    deal_no = np.asarray(deal_no, np.int64)
    n, players, n_sides = len(deal_no), rules.players, rules.n_sides
    rngs = [np.random.default_rng([seed % 2**32, int(i)]) for i in deal_no]  # per deal: any chunking
    luck = np.array([rng.integers(-60, 60, players) for rng in rngs]).reshape(n, players)
    sheet = np.array([rng.integers(0, 9, (n_sides, sc.N_FIELDS)) for rng in rngs]).reshape(n, n_sides, sc.N_FIELDS)
    skill = np.array([SKILL.get(a, 0) for a in (agents or ["easy"] * players)])
    bids = (np.abs(luck) % (rules.cards_each // 2)).astype(np.int8)
    sheet[:, :, sc.F_MADE] %= 2
    sheet[:, :, sc.F_POINTS] = 0
    for seat in range(players):
        sheet[:, seat % n_sides, sc.F_POINTS] += luck[:, seat] + skill[seat]
    extra = {}
    if matches is not None:
        match_no, hand_no, winner = matches
        extra = {"match_no": np.asarray(match_no), "hand_no": np.asarray(hand_no), "winner": np.asarray(winner, np.int8)}
        sheet[:, :, sc.F_SCORE] = np.cumsum(sheet[:, :, sc.F_POINTS], axis=0)
    deck = players * rules.cards_each
    plays = np.stack([np.random.default_rng(int(i)).permutation(deck).astype(np.int8) for i in deal_no]) if keep_plays else None
    return HandRecords(
        dealer=np.zeros(n, np.int8), bids=bids, blind=np.zeros((n, players), bool),
        tricks_won=(np.abs(luck) % 5).astype(np.int8), sheet=sheet, nil_made=bids == 0,
        deal_no=None if matches is not None else deal_no, plays=plays, **extra,
    )  # fmt: skip


def fake_play_hands(lineup, n, seed=0, rules=None, dealer=0, *, start=0, keep_plays=False):
    """``play_hands`` for any table: the lineup's agents by seat score their skill."""
    rules = rules or Rules()
    assert len(lineup) == rules.players, "the runner seats one agent per seat"
    return records(rules, np.arange(start, start + n), [a.name for a in lineup], seed=seed, keep_plays=keep_plays)


def fake_play_matches(lineup, n, seed=0, rules=None, *, start=0, keep_plays=False):
    """``play_matches`` for any table: match ``m`` lasts 1 to 3 hands (by where Normal sits, so
    that rotations differ), its hands scored as ``fake_play_hands``'s; the highest score wins."""
    rules = rules or Rules()
    names = [a.name for a in lineup]
    match_no, hand_no, winner = [], [], []
    for m in range(start, start + n):
        hands = 1 + (m + names.index("normal")) % 3
        match_no += [m] * hands
        hand_no += list(range(hands))
        winner += [-1] * hands
    rec = records(rules, np.array(match_no) * 10 + hand_no, names, seed=seed, matches=(match_no, hand_no, winner))
    sheet = rec.sheet.copy()
    for m in set(match_no):
        rows = np.flatnonzero(np.array(match_no) == m)
        sheet[rows, :, sc.F_SCORE] = np.cumsum(sheet[rows, :, sc.F_POINTS], axis=0)
        rec.winner[rows[-1]] = np.argmax(sheet[rows[-1], :, sc.F_SCORE])
    return HandRecords(**{**{f: getattr(rec, f) for f in rec.__dataclass_fields__}, "sheet": sheet})


@pytest.fixture
def any_table(monkeypatch):
    monkeypatch.setattr(spades_ai.selfplay, "play_hands", fake_play_hands)
    monkeypatch.setattr(spades_ai.selfplay, "play_matches", fake_play_matches)


def run(out, agents="normal,easy", **kw):
    kw.setdefault("n_jobs", 1)
    kw.setdefault("progress", False)
    return run_tournament(agents, out=out, **kw)


# -- the duplicate schedule -------------------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(), Rules.preset("cutthroat"), Rules.preset("solo"), FIVE], ids=["4 pairs", "3", "4 solo", "5"])
def test_every_entrant_sits_at_every_side_once_per_unit(rules):
    t = Tournament.make("normal,easy", rules=rules)
    assert list(t.rotations) == list(range(rules.n_sides))
    lineups = [t.lineup(0, r) for r in t.rotations]
    assert lineups[0] == (0,) + (1,) * (rules.n_sides - 1)
    for side in range(rules.n_sides):  # A once at each side, B everywhere else
        assert sorted(lineup[side] for lineup in lineups) == [0] + [1] * (rules.n_sides - 1)
    for r in t.rotations:  # rotation r: side k holds lineup[(k + r) % n_sides], who sits left of whom kept
        assert [lineups[r][k] for k in range(rules.n_sides)] == [lineups[0][(k + r) % rules.n_sides] for k in range(rules.n_sides)]
        specs = [s.label for s in t.seat_specs(0, r)]
        assert len(specs) == rules.players
        assert specs == [t.labels[lineups[r][seat % rules.n_sides]] for seat in range(rules.players)]
        assert [a.name for a in seat_lineup(t, 0, r)] == specs


def test_four_players_in_pairs_keep_the_two_tables():
    t = Tournament.make("hard:worlds=8+normal,easy", seed=7)
    assert [t.lineup(0, r) for r in t.rotations] == [(0, 1), (1, 0)]
    assert [s.label for s in t.seat_specs(0, 1)] == ["easy", "hard(worlds=8)", "easy", "normal"]


def test_rotations_of_a_non_duplicate_run_have_cards_of_their_own():
    t = Tournament.make("normal,easy", seed=7, duplicate=False, rules=FIVE)
    seeds = [t.table_seed(r) for r in t.rotations]
    assert seeds[0] == 7 and len(set(seeds)) == 5
    assert seeds[1] == Tournament.make("normal,easy", seed=7, duplicate=False).table_seed(1)  # as at 4 players
    assert {Tournament.make("normal,easy", seed=7, rules=FIVE).table_seed(r) for r in range(5)} == {7}


def test_a_partnership_needs_partners():
    with pytest.raises(TableError, match="partnership.*'normal\\+easy'.*3 players solo"):
        Tournament.make("normal+easy,easy", rules="cutthroat")


# -- schema 4 rows ----------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules.preset("cutthroat"), FIVE], ids=["3", "5"])
def test_rows_hold_one_side_per_row_at_every_rotation(rules):
    t = Tournament.make("normal,easy", rules=rules, keep_plays=True)
    k, n = rules.n_sides, 6
    recs = [records(rules, np.arange(10, 10 + n), seed=r, keep_plays=True) for r in range(k)]
    df = chunk_table(t, Chunk(0, 10, 10 + n), recs).to_pandas()
    assert len(df) == n * k * k
    assert df["players"].eq(rules.players).all() and df["rotation"].dtype == np.int8
    assert df[["deal_no", "rotation", "side"]].to_numpy()[: k + 1].tolist() == [[10, 0, s] for s in range(k)] + [[10, 1, 0]]
    for col in ("opponent", "agent_b", "bid_b", "nil_b", "blind_b", "nil_made_b", "tricks_won_b"):
        assert df[col].isna().all(), col
    assert df["plays"].map(len).eq(rules.players * rules.cards_each).all()
    for r in range(k):
        for side in range(k):
            rows = df[(df.rotation == r) & (df.side == side)]
            label = t.labels[t.lineup(0, r)[side]]
            assert (rows["agent"] == label).all() and (rows["agent_a"] == label).all()
            np.testing.assert_array_equal(rows["points"], recs[r].points[:, side])
            np.testing.assert_array_equal(rows["bid_a"], recs[r].bids[:, side])
            np.testing.assert_array_equal(rows["tricks_won_a"], recs[r].tricks_won[:, side])
            assert list(rows["plays"]) == [p.tobytes() for p in recs[r].plays]


def test_matches_rows_are_ordered_by_match_rotation_hand_and_side():
    rules = Rules.preset("cutthroat")
    t = Tournament.make("normal,easy", rules=rules, mode="matches")
    # rotation r plays match 0 in 2 + r hands and match 1 in 1 hand
    recs = []
    for r in range(3):
        hands = 2 + r
        recs.append(records(rules, np.arange(hands + 1), matches=([0] * hands + [1], [*range(hands), 0], [-1] * (hands - 1) + [2, 1])))
    df = chunk_table(t, Chunk(0, 0, 2), recs).to_pandas()
    assert len(df) == 3 * (3 + 4 + 5)
    key = df[["match_no", "rotation", "hand_no", "side"]].to_numpy().tolist()
    assert key == sorted(key) and df["opponent"].isna().all()
    last = df[(df.match_no == 0) & (df.rotation == 2)]
    assert last["hand_no"].max() == 3 and last["winner"].iloc[-1] == 2
    for r in range(3):
        rows = df[df.rotation == r]
        scores = rows["score"].to_numpy().reshape(-1, 3)
        np.testing.assert_array_equal(rows["opp_score"].to_numpy().reshape(-1, 3), best_other(scores))


def test_best_other_is_the_other_side_with_two():
    x = np.array([[5, -3], [2, 2], [-1, 4]])
    np.testing.assert_array_equal(best_other(x), x[:, ::-1])


# -- a whole run of three or five seats -------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules.preset("cutthroat"), FIVE], ids=["3", "5"])
def test_a_run_at_any_table_cancels_the_luck_and_resumes(tmp_path, any_table, rules):
    one = run(tmp_path / "one", deals=10, seed=4, rules=rules, chunk_size=4)
    df = load_results(one)
    k = rules.n_sides
    assert len(df) == 10 * k * k and df.attrs["config"]["schema"] == 4
    # chunking and resuming change nothing
    other = run(tmp_path / "other", deals=10, seed=4, rules=rules, chunk_size=3)
    pd.testing.assert_frame_equal(load_results(other), df)
    (one.path / DATA_DIR / Chunk(0, 4, 8).filename).unlink()
    again = run(tmp_path / "one", deals=10, seed=4, rules=rules, chunk_size=4)
    assert again.chunks_played == 1 and again.chunks_skipped == 2
    pd.testing.assert_frame_equal(load_results(again), df)
    # every seat's luck cancels over the rotations: the difference is the skill, exactly
    table = summarize(df)
    assert table[["agent", "opponent", "units", "hands"]].values.tolist() == [
        ["normal", "easy", 10, 10 * k], ["easy", "normal", 10, 10 * k * (k - 1)]]  # fmt: skip
    assert table["diff"].tolist() == [10.0, -10.0]
    assert table["diff_lo"].tolist() == [10.0, -10.0] and table["diff_hi"].tolist() == [10.0, -10.0]
    assert outcomes(df)[["wins", "losses", "ties"]].values.tolist() == [[10, 0, 0]]
    assert list(ratings(df, n_boot=20)["agent"]) == ["normal", "easy"]
    # the sequential test's per-deal differences are the summary's
    data = pq.read_table(one.path / DATA_DIR / Chunk(0, 0, 4).filename, columns=["deal_no", "agent", "points"])
    np.testing.assert_array_equal(deal_differences(data, "normal", 0, 4, k), [10.0] * 4)


def test_a_matches_run_at_three_players(tmp_path, any_table):
    rules = Rules.preset("cutthroat")
    df = load_results(run(tmp_path / "a", deals=6, seed=2, mode="matches", rules=rules, chunk_size=4))
    pd.testing.assert_frame_equal(load_results(run(tmp_path / "b", deals=6, seed=2, mode="matches", rules=rules, chunk_size=5)), df)
    key = df[["match_no", "rotation", "hand_no", "side"]].to_numpy().tolist()
    assert key == sorted(key) and df.groupby(["match_no", "rotation"])["hand_no"].max().nunique() > 1
    scores = df["score"].to_numpy().reshape(-1, 3)
    np.testing.assert_array_equal(df["opp_score"].to_numpy().reshape(-1, 3), best_other(scores))
    table = summarize(df, n_boot=50).set_index("agent")
    assert table.loc["normal", "matches"] == 6 * 3 and table.loc["easy", "matches"] == 6 * 3 * 2  # a match per side held
    won = table.loc["normal", "win_rate"] * 18 + table.loc["easy", "win_rate"] * 36
    assert won == pytest.approx(18)  # one winner a match, at every rotation
    assert table.loc["normal", "diff"] == -table.loc["easy", "diff"]
    assert table.loc["normal", "diff_lo"] <= table.loc["normal", "diff"] <= table.loc["normal", "diff_hi"]


def test_the_difference_is_against_the_mean_of_the_other_sides():
    """One deal at 3 players, numbers by hand: A's points minus the mean of the other two
    sides' in the same rotation, averaged over the rotations; B's is its negative."""
    points = {0: (30, 12, 0), 1: (6, -9, 60), 2: (-3, 21, 9)}  # rotation -> points by side
    rows = []
    for r, by_side in points.items():
        for side, p in enumerate(by_side):
            agent = "A" if side == (-r) % 3 else "B"
            rows.append({"pairing": 0, "deal_no": 0, "rotation": r, "side": side, "agent": agent, "points": p})
    df = pd.DataFrame(rows)
    a = [30 - 6, 60 - (6 - 9) / 2, 21 - (-3 + 9) / 2]  # A at side 0, 2, 1
    from spades_ai.analysis import unit_differences

    assert unit_differences(df, "A", "B").tolist() == pytest.approx([np.mean(a)])
    assert unit_differences(df, "B", "A").tolist() == pytest.approx([-np.mean(a)])
    with pytest.raises(ValueError, match="no pairing of 'A' and 'C'"):
        unit_differences(df, "A", "C")


def test_solo_rates_count_one_player_a_side():
    rows = pd.DataFrame({
        "agent": ["A", "A"], "contract": [3, 0], "made": [True, False], "points": [31, -100], "new_bags": [1, 0],
        "bag_penalties": [0, 0], "team_tricks": [4, 1], "bid_a": [3, 0], "bid_b": [None, None],
        "nil_a": [False, True], "nil_b": [None, None], "nil_made_a": [False, False], "nil_made_b": [None, None],
    })  # fmt: skip
    stats = agent_stats(rows)
    assert stats["nil_rate"] == 0.5 and stats["nil_success"] == 0.0 and stats["team_bid"] == 1.5
    seats = seat_rows(rows.assign(blind_a=False, blind_b=None, tricks_won_a=[4, 1], tricks_won_b=None, opponent=None))
    assert list(seats["seat"]) == ["a", "a"] and list(seats["bid"]) == [3, 0]


def test_score_context_trails_the_best_other_side():
    rows = []
    for side, (points, score) in enumerate([(10, 110), (50, 350), (-20, 180)]):
        rows.append({"pairing": 0, "match_no": 0, "rotation": 0, "hand_no": 1, "side": side, "points": points, "score": score,
                     "opp_score": 0, "bag_count": 0, "new_bags": 0, "bag_penalties": 0})  # fmt: skip
    out = with_context(pd.DataFrame(rows), Rules.preset("cutthroat"))
    assert out["opp_score_before"].tolist() == [300, 200, 300]
    assert out["trailing"].tolist() == [True, False, True]


def test_agent_rates_at_three_players(tmp_path, any_table):
    df = load_results(run(tmp_path, deals=4, seed=1, rules="cutthroat"))
    rates = agent_rates(df)
    assert rates.set_index("agent").loc["normal", "hands"] == 4 * 3 and rates.set_index("agent").loc["easy", "hands"] == 4 * 3 * 2
    import matplotlib

    matplotlib.use("Agg")
    from spades_ai.analysis.plots import plot_rates

    axes = plot_rates(rates)
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["normal", "easy"]


def test_the_bidding_benchmark_seats_the_bidder_at_every_side(monkeypatch):
    import spades_ai.analysis.bidding as bidding

    monkeypatch.setattr(bidding, "play_hands", fake_play_hands)
    recs = bidding_records(["normal"], deals=5, rules=Rules.preset("cutthroat"), opponents="easy")
    assert sorted(recs.groupby("table")["seat"].unique().map(list).tolist()) == [[0], [1], [2]]
    assert len(recs) == 5 * 3
    board = bidding_leaderboard(recs)
    assert board.loc["normal", "deals"] == 5


# -- older folders, rules and the command line -------------------------------------------------
def test_schema_3_folders_load_with_the_new_names_and_are_not_resumed(tmp_path):
    for name, mode in (("schema3_hands", "hands"), ("schema3_matches", "matches")):
        old_dir = tmp_path / name
        shutil.copytree(DATA / name, old_dir)
        stored = pd.concat([pq.read_table(p).to_pandas() for p in sorted((old_dir / DATA_DIR).iterdir())], ignore_index=True)
        df = load_results(old_dir)
        expected = stored.rename(columns={"table": "rotation", "team": "side"})
        expected.insert(expected.columns.get_loc("side") + 1, "players", np.int8(4))
        pd.testing.assert_frame_equal(df, expected)
        cfg = json.loads((old_dir / "config.json").read_text())
        with pytest.raises(ResultsError, match="schema 3.*cannot add to it.*load_results still reads.*--fresh"):
            run(old_dir, Tournament.from_dict(cfg))
    moved = run(old_dir, Tournament.from_dict(cfg), fresh=True)  # schema3_matches set aside, whole, and played anew
    assert moved.moved_aside is not None and (moved.moved_aside / "data").is_dir() and moved.units_played == 3
    some = load_results(tmp_path / "schema3_hands", columns=["players", "side", "rotation", "points"])
    assert list(some.columns) == ["players", "side", "rotation", "points"] and some["players"].eq(4).all()


def test_schema_3_rows_are_those_of_this_version(tmp_path):
    old = load_results(DATA / "schema3_hands")
    new = load_results(run(tmp_path, Tournament.from_dict(json.loads((DATA / "schema3_hands" / "config.json").read_text())), chunk_size=4))
    pd.testing.assert_frame_equal(old, new)


def test_an_older_rules_record_is_the_same_four_player_rules(tmp_path):
    t = Tournament.make("normal,easy", deals=4)
    config = run_config(t)
    out = prepare_folder(tmp_path / "run", config)
    old = json.loads((out / "config.json").read_text())
    for field in ("players", "teams", "must_win", "failed_bid", "equal_cards"):
        del old["rules"][field]
    write_atomic(out / "config.json", json.dumps(old).encode())
    assert check_folder(out, config) is not None  # no refusal: the same run
    with pytest.raises(ResultsError, match="players 4 vs 3"):
        check_folder(out, run_config(Tournament.make("normal,easy", deals=4, rules="cutthroat")))


def test_the_command_line_takes_a_preset_for_the_rules():
    args = build_parser().parse_args(["tournament", "--agents", "normal,easy", "--rules", "cutthroat"])
    assert _settings(args)["rules"] == Rules.preset("cutthroat")
    with pytest.raises(RulesError, match="nowhere.toml"):
        _settings(build_parser().parse_args(["tournament", "--rules", "nowhere.toml"]))


def test_the_cutthroat_experiment_plays_the_ladder_at_three_players():
    settings = read_experiment(EXPERIMENTS / "cutthroat.toml")
    assert settings["rules"] == Rules.preset("cutthroat") and settings["rules"].players == 3
    assert [a.label for a in settings["agents"]] == ["easy", "normal", "hard"]
    t = Tournament.make(settings["agents"], settings["deals"], rules=settings["rules"])
    assert len(t.pairings) == 3  # every pair of the three: the round robin a ladder rates
    assert [t.lineup(0, r) for r in t.rotations] == [(0, 1, 1), (1, 1, 0), (1, 0, 1)]
