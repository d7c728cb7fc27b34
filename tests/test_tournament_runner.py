"""Tournament runs (issue 5, sections 2-3): rows, reproducibility across n_jobs, chunk sizes and
backends, resume after an interruption, refusal of another run's folder, damaged files."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import spades_ai
from spades_ai import Rules, load_results, play_hands, play_matches, run_tournament
from spades_ai.tournament import CodeChangedError, ResultsError, Tournament, TournamentError
from spades_ai.tournament.results import COLUMNS_DOC, DATA_DIR, LOCK_FILE, chunk_files

ROOT = Path(__file__).resolve().parent.parent


def run(out, agents="normal,easy", **kw):
    kw.setdefault("n_jobs", 1)
    kw.setdefault("progress", False)
    return run_tournament(agents, out=out, **kw)


def files(out) -> list[str]:
    return sorted(p.name for p in (Path(out) / DATA_DIR).iterdir())


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Normal vs Easy, 3,000 duplicate deals, in one process and one chunk."""
    out = tmp_path_factory.mktemp("ref")
    run(out, deals=3000, chunk_size=3000)
    return load_results(out)


@pytest.fixture(scope="module")
def reference_matches(tmp_path_factory):
    out = tmp_path_factory.mktemp("refm")
    run(out, deals=60, mode="matches", chunk_size=60, rules=Rules(target_score=300))
    return load_results(out)


# -- rows -------------------------------------------------------------------------------------
def test_rows_are_typed_and_documented(reference):
    df = reference
    assert len(df) == 3000 * 4
    assert set(df.columns) <= set(COLUMNS_DOC)
    for col in ("deal_no", "rotation", "side", "players", "agent", "opponent", "bid_a", "bid_b", "nil_a", "nil_b", "blind_a", "blind_b",
                "contract", "team_tricks", "points", "new_bags", "bag_penalties", "made", "nil_made_a", "nil_made_b"):  # fmt: skip
        assert col in df.columns
    assert df["deal_no"].dtype == np.int64 and df["bid_a"].dtype == np.int8 and df["points"].dtype == np.int32
    assert df["made"].dtype == bool and df["nil_a"].dtype == bool
    assert isinstance(df["agent"].dtype, pd.CategoricalDtype)
    assert df.attrs["config"]["agents"][1]["options"] == {"seed": 0, "careless": 0.3}
    assert df.attrs["config"]["version"] == spades_ai.__version__
    assert df.attrs["complete"]


def test_rows_are_exactly_play_hands_at_both_tables(reference):
    df = reference
    for table, lineup in ((0, ["normal", "easy"]), (1, ["easy", "normal"])):
        rec = play_hands(lineup, 3000, seed=0)
        for team in (0, 1):
            rows = df[(df.rotation == table) & (df.side == team)].sort_values("deal_no")
            assert (rows["agent"].astype(str) == lineup[team]).all()
            assert (rows["opponent"].astype(str) == lineup[1 - team]).all()
            np.testing.assert_array_equal(rows["points"], rec.points[:, team])
            np.testing.assert_array_equal(rows["bid_a"], rec.bids[:, team])
            np.testing.assert_array_equal(rows["bid_b"], rec.bids[:, team + 2])
            np.testing.assert_array_equal(rows["team_tricks"], rec.team_tricks[:, team])
            np.testing.assert_array_equal(rows["new_bags"], rec.new_bags[:, team])
            np.testing.assert_array_equal(rows["made"], rec.made[:, team])
            np.testing.assert_array_equal(rows["nil_made_a"], rec.nil_made[:, team])
            np.testing.assert_array_equal(rows["tricks_won_b"], rec.tricks_won[:, team + 2])
            np.testing.assert_array_equal(rows["counted_tricks"], rec.counted_tricks[:, team])
    # rows are ordered by deal, rotation, side
    assert (df[["deal_no", "rotation", "side"]].to_numpy()[:4] == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]]).all()
    assert df["deal_no"].is_monotonic_increasing


def test_matches_rows_carry_running_scores_and_the_winner(reference_matches):
    df = reference_matches
    rules = Rules(target_score=300)
    rec = play_matches(["normal", "easy"], 60, seed=0, rules=rules)
    t0 = df[df.rotation == 0]
    for team in (0, 1):
        rows = t0[t0.side == team].sort_values(["match_no", "hand_no"])
        np.testing.assert_array_equal(rows["score"], rec.scores[:, team])
        np.testing.assert_array_equal(rows["opp_score"], rec.scores[:, 1 - team])
        np.testing.assert_array_equal(rows["winner"], rec.winner)
        np.testing.assert_array_equal(rows["bag_count"], rec.bag_count[:, team])
    last = df[df.winner >= 0]
    assert len(last) == 60 * 2 * 2  # every match ends, at both tables, two team rows each
    assert (
        (last["score"] >= 300) | (last["opp_score"] >= 300) | (last[["score", "opp_score"]].min(axis=1) <= -200)
    ).all()
    assert "deal_no" not in df.columns  # a match's cards come from its own streams
    assert list(df.columns[:6]) == ["pairing", "match_no", "hand_no", "rotation", "side", "players"]


def test_non_duplicate_tables_get_other_cards(tmp_path):
    run(tmp_path, deals=200, duplicate=False)
    df = load_results(tmp_path)
    t1 = df[(df.rotation == 1) & (df.side == 0)].sort_values("deal_no")
    other = play_hands(["easy", "normal"], 200, seed=Tournament.make("normal,easy", duplicate=False).table_seed(1))
    np.testing.assert_array_equal(t1["points"], other.points[:, 0])
    same = play_hands(["easy", "normal"], 200, seed=0)
    assert not np.array_equal(t1["bid_a"], same.bids[:, 0])


def test_user_agents_play_through_the_python_loop(tmp_path):
    r = run(tmp_path, agents="test_tournament_schedule:FirstCard:bid=2,easy", deals=30, chunk_size=10)
    df = load_results(r)
    mine = df[df.agent == "test_tournament_schedule:FirstCard(bid=2)"]
    assert len(mine) == 60 and (mine["bid_a"] == 2).all() and (mine["contract"] == 4).all()


# -- reproducibility --------------------------------------------------------------------------
def test_results_do_not_depend_on_n_jobs_or_chunk_size(tmp_path, reference):
    a = run(tmp_path / "a", deals=3000, n_jobs=2, chunk_size=700)
    assert a.chunks_played == 5 and a.n_jobs == 2
    b = run(tmp_path / "b", deals=3000, n_jobs=1, chunk_size=1234)
    pd.testing.assert_frame_equal(load_results(a), reference)
    pd.testing.assert_frame_equal(load_results(b), reference)
    # deal i is deal i whatever the run's length, so a one-deal-per-chunk run of the first
    # 60 deals gives the reference's first rows
    c = run(tmp_path / "c", deals=60, n_jobs=2, chunk_size=1)
    pd.testing.assert_frame_equal(load_results(c), reference.iloc[: 60 * 4])


def test_matches_do_not_depend_on_n_jobs_or_chunk_size(tmp_path, reference_matches):
    with joblib.parallel_config(backend="loky"):
        r = run(tmp_path, deals=60, mode="matches", chunk_size=7, rules=Rules(target_score=300), n_jobs=2)
    assert r.n_jobs == 2
    pd.testing.assert_frame_equal(load_results(r), reference_matches)


def test_n_jobs_comes_from_the_callers_parallel_config():
    from spades_ai.tournament.runner import _resolve_n_jobs

    with joblib.parallel_config(n_jobs=2):
        assert _resolve_n_jobs(None) == (2, 2)
    with joblib.parallel_config(backend="threading", n_jobs=3):
        assert _resolve_n_jobs(None) == (3, 3)
    assert _resolve_n_jobs(None)[0] == -1  # all cores
    assert _resolve_n_jobs(1) == (1, 1)
    with pytest.raises(ValueError, match="n_jobs"):
        _resolve_n_jobs(0)


def test_a_dask_cluster_gives_the_same_rows(tmp_path, reference):
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):
        r = run(tmp_path, deals=3000, chunk_size=600, n_jobs=-1)
    assert r.n_jobs == 2 and r.chunks_played == 5
    pd.testing.assert_frame_equal(load_results(r), reference)


def test_a_round_robin_runs_every_pairing(tmp_path):
    r = run(tmp_path, agents="normal,easy,random", deals=50, chunk_size=20)
    df = load_results(r)
    assert len(df) == 3 * 50 * 4
    pairs = df.groupby("pairing", observed=True)["agent"].agg(lambda s: tuple(sorted(set(s.astype(str)))))
    assert pairs.tolist() == [("easy", "normal"), ("normal", "random"), ("easy", "random")]


# -- resume -----------------------------------------------------------------------------------
def test_resume_replays_only_missing_chunks(tmp_path, reference):
    first = run(tmp_path, deals=3000, chunk_size=500)
    names = files(tmp_path)
    assert len(names) == 6
    for name in names[1::2]:  # lose half the chunks, as if the run had stopped
        (tmp_path / DATA_DIR / name).unlink()
    kept = {n: (tmp_path / DATA_DIR / n).stat().st_mtime_ns for n in names[0::2]}
    (tmp_path / DATA_DIR / ".p000-000000000500-000000001000.parquet.123.tmp").write_bytes(b"half a file")
    again = run(tmp_path, deals=3000, chunk_size=400)  # another chunk size: gaps are cut to fit
    assert again.chunks_skipped == 3 and again.units_played == 1500
    assert all((tmp_path / DATA_DIR / n).stat().st_mtime_ns == m for n, m in kept.items())
    assert not [n for n in files(tmp_path) if n.endswith(".tmp")]
    pd.testing.assert_frame_equal(load_results(tmp_path), reference)
    done = run(tmp_path, deals=3000)
    assert done.chunks_played == 0 and done.units_played == 0
    assert first.chunks_played == 6


def test_resume_after_the_process_is_killed(tmp_path, reference):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "spades_ai", "tournament", "--agents", "normal,easy", "--deals", "3000",
           "--chunk-size", "50", "--jobs", "1", "--out", str(out), "-q"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            if (out / DATA_DIR).is_dir() and len(list((out / DATA_DIR).glob("*.parquet"))) >= 3:
                break
            if proc.poll() is not None:
                pytest.fail(f"the run ended before it could be killed: {proc.stderr.read().decode()}")
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    before = len(list((out / DATA_DIR).glob("*.parquet")))
    assert 3 <= before < 60, "the run was killed mid-way"
    assert (out / LOCK_FILE).exists()  # left behind by the killed run: taken over below
    again = run(out, deals=3000, n_jobs=2, chunk_size=200)
    assert again.chunks_skipped == before
    assert not (out / LOCK_FILE).exists()
    df = load_results(out)
    assert not df.duplicated(["deal_no", "rotation", "side"]).any()
    pd.testing.assert_frame_equal(df, reference)


def test_interrupt_keeps_finished_chunks(tmp_path, monkeypatch, reference):
    from spades_ai.tournament import runner

    real = runner.play_chunk
    calls = []

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runner, "play_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, deals=3000, chunk_size=500)
    assert len(files(tmp_path)) == 3 and not (tmp_path / LOCK_FILE).exists()
    monkeypatch.setattr(runner, "play_chunk", real)
    assert run(tmp_path, deals=3000, chunk_size=500).chunks_played == 3
    pd.testing.assert_frame_equal(load_results(tmp_path), reference)


# -- refusals and damage ----------------------------------------------------------------------
def test_a_folder_of_another_run_is_refused(tmp_path):
    run(tmp_path, deals=40)
    before = files(tmp_path)
    for kw, words in (
        ({"deals": 40, "seed": 1}, ["different tournament", "seed 0 vs 1"]),
        ({"deals": 50}, ["deals 40 vs 50"]),
        ({"deals": 40, "rules": Rules(nil_bonus=50)}, ["rules", "nil_bonus 100 vs 50"]),
        ({"deals": 40, "agents": "normal,easy:careless=0.5"}, ["agents"]),
        ({"deals": 40, "mode": "matches"}, ["mode"]),
    ):
        with pytest.raises(ResultsError) as err:
            run(tmp_path, **kw)
        for w in words:
            assert w in str(err.value)
    assert files(tmp_path) == before
    cfg = json.loads((tmp_path / "config.json").read_text())
    cfg["version"] = "0.0.1"
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(ResultsError, match="version"):
        run(tmp_path, deals=40)


# -- the agents' code (issue 32, item 1) -------------------------------------------------------
FP_BOT = """
from fp_helper import choose


class Bot:
    def bid(self, obs):
        return choose(obs.legal_bids())

    def play(self, obs):
        return min(obs.legal_cards())


AGENT = Bot()
"""


def test_a_folder_played_by_other_code_is_refused_and_fresh_moves_it_aside(tmp_path, monkeypatch):
    """``config.json`` records a user agent's code (its module and what that imports) and the
    built-ins' version; the same code resumes. After an edit of the imported module, this
    process (which still holds the old code) refuses to run it; a new process (modules imported
    afresh) is refused the folder, naming the agent and the module, and ``fresh=True`` moves the
    folder aside, whole, and plays the new code."""
    from spades_ai.agents import spec

    (tmp_path / "fp_bot.py").write_text(FP_BOT)
    (tmp_path / "fp_helper.py").write_text("choose = max\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(spec, "_AS_RUN", {})
    out = tmp_path / "run"
    run(out, agents="fp_bot:AGENT,easy", deals=10)
    code = json.loads((out / "config.json").read_text())["code"]
    assert set(code["fp_bot:AGENT"]) == {"fp_bot", "fp_helper"} and code["easy"] == {"spades_ai": spades_ai.__version__}
    assert run(out, agents="fp_bot:AGENT,easy", deals=10).chunks_played == 0
    (tmp_path / "fp_helper.py").write_text("choose = min\n")
    before = files(out)
    with pytest.raises(TournamentError, match="module fp_helper changed on disk since this process imported it"):
        run(out, agents="fp_bot:AGENT,easy", deals=10)
    for name in ("fp_bot", "fp_helper"):  # as a new process: the modules imported afresh
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(CodeChangedError) as err:
        run(out, agents="fp_bot:AGENT,easy", deals=10)
    assert "'fp_bot:AGENT' (module fp_helper)" in str(err.value) and "--fresh" in str(err.value)
    assert files(out) == before
    again = run(out, agents="fp_bot:AGENT,easy", deals=10, fresh=True)
    assert again.units_played == 10 and again.chunks_skipped == 0
    assert again.moved_aside.parent == tmp_path and again.moved_aside.name.startswith("run.old-")
    assert files(again.moved_aside) == before
    assert json.loads((again.moved_aside / "config.json").read_text())["code"] == code
    assert json.loads((out / "config.json").read_text())["code"]["fp_bot:AGENT"] != code["fp_bot:AGENT"]
    old, new = (load_results(f).query("agent == 'fp_bot:AGENT'") for f in (again.moved_aside, out))
    assert (old.bid_a == 13).all() and (new.bid_a == 0).all()  # max, then min of the legal bids
    assert run(tmp_path / "new", deals=10, fresh=True).moved_aside is None  # nothing to move


def test_a_builtins_code_takes_in_a_user_rollout_and_a_model_file(tmp_path, monkeypatch):
    """A built-in is its package version, plus the modules of a user rollout policy it names
    and the hash of a model file."""
    from spades_ai.agents.spec import AgentSpec

    (tmp_path / "fp_roll.py").write_text("AGENT = None\n")
    (tmp_path / "weights.npz").write_bytes(b"one")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    hard = AgentSpec(name="hard", options={"rollout": "fp_roll:AGENT", "worlds": 8}, label="h").fingerprint(Rules())
    assert set(hard) == {"spades_ai", "fp_roll"}
    learned = AgentSpec(name="learned", options={"model": "weights.npz"}, label="l")
    first = learned.fingerprint(Rules())
    (tmp_path / "weights.npz").write_bytes(b"two")
    assert set(first) == {"spades_ai", "file weights.npz"} and learned.fingerprint(Rules()) != first


def test_a_folder_without_a_code_record_resumes_with_a_warning(tmp_path):
    """A folder written before runs recorded their code loads as before and resumes, saying
    that the agents' code could not be checked."""
    run(tmp_path, deals=20, chunk_size=10)
    cfg = json.loads((tmp_path / "config.json").read_text())
    del cfg["code"]
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    assert len(load_results(tmp_path)) == 80
    with pytest.warns(UserWarning, match="without checking that the agents' code"):
        assert run(tmp_path, deals=20).chunks_skipped == 2


def test_a_folder_of_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ResultsError, match="not empty"):
        run(tmp_path, deals=10)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_live_lock_is_refused(tmp_path):
    run(tmp_path, deals=10)
    import socket

    (tmp_path / LOCK_FILE).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    with pytest.raises(ResultsError, match="another run"):
        run(tmp_path, deals=10)


def test_a_damaged_file_is_named_and_then_replayed(tmp_path, reference):
    run(tmp_path, deals=3000, chunk_size=1000)
    victim = chunk_files(tmp_path)[1][1]
    good = victim.read_bytes()
    victim.write_bytes(good[: len(good) // 2])
    with pytest.raises(ResultsError) as err:
        load_results(tmp_path)
    assert victim.name in str(err.value) and "\n" not in str(err.value)
    assert victim.read_bytes() == good[: len(good) // 2]  # load_results changes nothing
    with pytest.warns(UserWarning, match=victim.name):
        again = run(tmp_path, deals=3000, chunk_size=1000)
    assert again.chunks_played == 1
    assert (victim.parent / (victim.name + ".bad")).exists()  # kept, not deleted
    pd.testing.assert_frame_equal(load_results(tmp_path), reference)


def test_an_unfinished_run_loads_with_a_warning(tmp_path, reference):
    run(tmp_path, deals=3000, chunk_size=1000)
    chunk_files(tmp_path)[2][1].unlink()
    with pytest.warns(UserWarning, match="unfinished"):
        df = load_results(tmp_path)
    assert not df.attrs["complete"] and len(df) == 2000 * 4


def test_load_results_reads_one_chunk_file_and_refuses_non_folders(tmp_path):
    run(tmp_path, deals=20)
    one = chunk_files(tmp_path)[0][1]
    df = load_results(one)
    assert len(df) == 80 and df.attrs["config"]["deals"] == 20
    assert pq.read_schema(one).metadata[b"spades_ai"]
    with pytest.raises(ResultsError, match="no config.json"):
        load_results(tmp_path / DATA_DIR)
    with pytest.raises(ResultsError, match="does not exist"):
        load_results(tmp_path / "nowhere")


def test_no_warnings_on_a_clean_run(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(tmp_path, deals=20)
        load_results(tmp_path)


# -- results written by an earlier version -----------------------------------------------------
DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    "folder, args",
    [
        ("schema1_hands", dict(agents="normal,easy", deals=12, seed=3, chunk_size=6)),
        ("schema1_matches", dict(agents="normal,random", deals=3, seed=4, mode="matches")),
    ],
)
def test_schema_1_folders_are_read_with_todays_names(tmp_path, folder, args):
    """Folders written by spades_ai 0.1 (schema 1) load with the columns renamed and a note;
    their rows equal what this version writes for the same tournament."""
    old_dir = tmp_path / folder
    shutil.copytree(DATA / folder, old_dir)
    with pytest.warns(UserWarning, match="schema 1.*deal -> deal_no"):
        old = load_results(old_dir)
    new = load_results(run_tournament(**args, out=tmp_path / "new", n_jobs=1, progress=False))
    assert list(old.columns) == list(new.columns)
    pd.testing.assert_frame_equal(old, new, check_like=False)
    with pytest.warns(UserWarning, match="schema 1"):
        some = load_results(old_dir, columns=["points", "new_bags", "team_tricks"])
    assert list(some.columns) == ["points", "new_bags", "team_tricks"]
    assert (some["points"].to_numpy() == new["points"].to_numpy()).all()


def test_schema_1_folder_is_not_resumed(tmp_path):
    old_dir = tmp_path / "old"
    shutil.copytree(DATA / "schema1_hands", old_dir)
    with pytest.raises(ResultsError, match="schema 1.*cannot add to it"):
        run_tournament("normal,easy", deals=12, seed=3, out=old_dir, n_jobs=1, progress=False)


def test_folder_from_a_newer_schema_is_refused(tmp_path):
    run = run_tournament("normal,easy", deals=10, out=tmp_path / "r", n_jobs=1, progress=False)
    cfg = json.loads((run.path / "config.json").read_text())
    cfg["schema"] = 99
    (run.path / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(ResultsError, match="schema 99.*upgrade"):
        load_results(run)


def test_a_tournament_refuses_arguments_it_would_ignore(tmp_path):
    t = Tournament.make("normal,easy", deals=10)
    with pytest.raises(TournamentError, match="already fixes deals, seed"):
        run_tournament(t, deals=20, seed=1, out=tmp_path, n_jobs=1, progress=False)
    with pytest.raises(TournamentError, match="already fixes mode, keep_plays"):
        run_tournament(t, mode="matches", keep_plays=True, out=tmp_path, n_jobs=1, progress=False)
    assert run_tournament(t, out=tmp_path, n_jobs=1, progress=False).units_played == 10


def test_a_setting_run_tournament_does_not_know_is_refused_by_name(tmp_path):
    with pytest.raises(TypeError, match="unexpected keyword argument 'dupliate' .*settings: deals, seed, mode"):
        run_tournament("normal,easy", deals=2, dupliate=False, out=tmp_path, n_jobs=1, progress=False)
    with pytest.raises(TypeError, match="positional"):
        run_tournament("normal,easy", 2, 0, "matches", out=tmp_path)


# -- partnerships of two agents (issue 23, item 1) ---------------------------------------------
def test_a_partnership_seats_its_first_partner_at_seat_0_and_the_second_at_seat_2(tmp_path):
    """``normal+easy`` against ``easy+normal`` (and ``normal`` in a round-robin): each table is
    ``play_hands`` of the four agents by seat, the rows name the pair and each seat's agent, and
    the run resumes like any other (one loop of Normal and Easy: nothing new to compile)."""
    r = run(tmp_path / "hands", agents="normal+easy,easy+normal,normal", deals=40, chunk_size=20)
    df = load_results(r)
    assert len(df) == 3 * 40 * 4 and df.attrs["config"]["schema"] == 4
    p0 = df[df.pairing == 0]
    for table, seats in ((0, ["normal", "easy", "easy", "normal"]), (1, ["easy", "normal", "normal", "easy"])):
        rec = play_hands(seats, 40, seed=0)
        for team in (0, 1):
            rows = p0[(p0.rotation == table) & (p0.side == team)].sort_values("deal_no")
            assert set(rows["agent"].astype(str)) == {f"{seats[team]}+{seats[team + 2]}"}
            assert set(rows["agent_a"].astype(str)) == {seats[team]} and set(rows["agent_b"].astype(str)) == {seats[team + 2]}
            np.testing.assert_array_equal(rows["points"], rec.points[:, team])
            np.testing.assert_array_equal(rows["bid_b"], rec.bids[:, team + 2])
    single = df[df.agent == "normal"]
    assert (single["agent_a"].astype(str) == "normal").all() and (single["agent_b"].astype(str) == "normal").all()
    assert run(tmp_path / "hands", agents="normal+easy,easy+normal,normal", deals=40).chunks_played == 0
    m = load_results(run(tmp_path / "matches", agents=["normal+easy", {"partners": ["easy", "normal"], "label": "en"}],
                         deals=4, mode="matches", rules=Rules(target_score=200)))  # fmt: skip
    assert set(m["agent"].astype(str)) == {"normal+easy", "en"} and (m.groupby(["match_no", "rotation"]).winner.max() >= 0).all()
    rec = play_matches(["normal", "easy", "easy", "normal"], 4, seed=0, rules=Rules(target_score=200))
    t0 = m[(m.rotation == 0) & (m.side == 0)].sort_values(["match_no", "hand_no"])
    np.testing.assert_array_equal(t0["score"], rec.scores[:, 0])


def test_schema_2_folders_are_read_as_before_and_not_resumed(tmp_path):
    """A folder of spades_ai before partnerships (schema 2) loads as before, with ``agent_a`` and
    ``agent_b`` equal to ``agent``, and equals this version's rows; adding to it is refused."""
    old_dir = tmp_path / "old"
    shutil.copytree(DATA / "schema2_hands", old_dir)
    old = load_results(old_dir)
    new = load_results(run(tmp_path / "new", deals=12, seed=3, chunk_size=6))
    assert list(old.columns) == list(new.columns)
    pd.testing.assert_frame_equal(old, new)
    some = load_results(old_dir, columns=["agent_b", "points"])
    assert list(some.columns) == ["agent_b", "points"] and (some["agent_b"] == old["agent"]).all()
    with pytest.raises(ResultsError, match="schema 2.*cannot add to it"):
        run(old_dir, deals=12, seed=3)
