"""The ``spades-ai`` command line (issue 5, section 5): happy paths and one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spades_ai import load_results
from spades_ai.cli import main, rate_text

ROOT = Path(__file__).resolve().parent.parent


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_arguments_runs_the_default_tournament(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the default run writes to a temporary folder
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    code, out, err = cli(capsys)
    assert code == 0, err
    assert "normal vs easy: 2,000 duplicate deals" in out
    assert any(line.split()[:3] == ["normal", "easy", "2,000"] for line in out.splitlines())
    assert "played 2,000 deals" in err
    (folder,) = tmp_path.glob("spades-ai-*")
    assert len(load_results(folder)) == 8000


def test_tournament_then_summary(capsys, tmp_path):
    out_dir = tmp_path / "run"
    code, out, err = cli(capsys, "tournament", "--agents", "normal,easy:careless=0.5", "--deals", "300", "--seed", "4",
                         "--jobs", "1", "--out", str(out_dir), "-q")  # fmt: skip
    assert code == 0, err
    assert "easy(careless=0.5)" in out and "seed 4" in out
    df = load_results(out_dir)
    assert len(df) == 1200 and df.attrs["config"]["seed"] == 4
    code, again, err = cli(capsys, "summary", str(out_dir))
    assert code == 0 and again == out
    code, _, err = cli(capsys, "tournament", "--agents", "normal,easy:careless=0.5", "--deals", "300", "--seed", "4",
                       "--jobs", "1", "--out", str(out_dir), "-q")  # fmt: skip
    assert code == 0 and "resumed" in err and "played 0 deals" in err


def test_without_out_results_go_to_a_folder_named_after_the_run(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "tournament", "--deals", "20", "--seed", "3", "--jobs", "1", "-q")
    assert code == 0, err
    folder = tmp_path / "runs" / "normal-vs-easy_hands_seed3_20"
    assert f"results: {Path('runs') / folder.name}" in out
    assert len(load_results(folder)) == 80


def test_matches_round_robin_with_a_rules_file(capsys, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text("target_score = 200\nnil_bonus = 50\n")
    code, out, err = cli(capsys, "tournament", "--agents", "normal,easy,random", "--deals", "8", "--mode", "matches",
                         "--rules", str(rules), "--jobs", "1", "--out", str(tmp_path / "m"), "-q")  # fmt: skip
    assert code == 0, err
    assert "win rate" in out and "ratings" in out and "diff/hand" in out and "target_score=200" in out
    assert load_results(tmp_path / "m").attrs["config"]["rules"]["nil_bonus"] == 50


def test_an_experiment_file_with_flags_over_it(capsys, tmp_path):
    exp = tmp_path / "exp.toml"
    exp.write_text('agents = ["normal", {name = "easy", label = "sloppy", careless = 0.6}]\ndeals = 50\nseed = 2\n'
                   'out = "results"\njobs = 1\n[rules]\nbag_limit = 5\n')  # fmt: skip
    code, _out, err = cli(capsys, "tournament", "--config", str(exp), "--deals", "60", "-q")
    assert code == 0, err
    df = load_results(tmp_path / "results")
    cfg = df.attrs["config"]
    assert (cfg["deals"], cfg["seed"], cfg["rules"]["bag_limit"]) == (60, 2, 5)
    assert set(df.agent.astype(str)) == {"normal", "sloppy"}


def test_the_dask_backend_on_a_local_cluster(capsys, tmp_path):
    pytest.importorskip("dask.distributed")
    code, out, err = cli(capsys, "tournament", "--deals", "3000", "--chunk-size", "1000", "--backend", "dask", "--jobs", "2",
                         "--out", str(tmp_path / "d"), "-q")  # fmt: skip
    assert code == 0, err
    assert "dask: 2 workers" in err
    code, ref, _ = cli(capsys, "tournament", "--deals", "3000", "--jobs", "1", "--out", str(tmp_path / "l"), "-q")
    assert out.split("\n", 2)[2] == ref.split("\n", 2)[2]  # same table, only the folder differs


def test_sprt_stops_the_run_and_the_summary_shows_the_decision(capsys, tmp_path):
    out_dir = tmp_path / "s"
    args = ["tournament", "--sprt", "0,5", "--chunk-size", "50", "--jobs", "1", "--out", str(out_dir), "-q"]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    assert "stopped: the SPRT accepted H1 after" in err and "played 50 deals" in err
    assert "up to 2,000 duplicate deals" in out
    assert "SPRT on normal minus easy, points per duplicate deal: H0: mean <= 0, H1: mean >= 5" in out
    assert "H1 accepted (mean >= 5) after 48 deals: LLR 2.966 >= 2.944 (bounds -2.944, 2.944)" in out
    assert "the table covers the deals the test used (2 more deals on disk" in out
    assert any(line.split()[:3] == ["normal", "easy", "48"] for line in out.splitlines())
    code, again, err = cli(capsys, "summary", str(out_dir))
    assert code == 0 and again == out and not err
    code, _, err = cli(capsys, *args, "--deals", "5000")  # a decided run has nothing to play
    assert code == 0 and "played 0 deals" in err and "it had decided before this run" in err


def test_sprt_settings_from_an_experiment_file_and_a_growing_budget(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    exp = tmp_path / "exp.toml"
    exp.write_text('agents = ["easy", "easy:seed=2"]\nsprt = "0,5"\nsprt_alpha = 0.1\nchunk_size = 50\njobs = 1\n')
    code, out, err = cli(capsys, "tournament", "--config", str(exp), "--deals", "100", "-q")
    assert code == 0, err
    folder = Path("runs") / "easy-vs-easy_seed=2__hands_seed0_sprt0_5_a0.1_b0.05"
    assert f"results: {folder}" in out
    assert "alpha 0.1, beta 0.05" in out and "undecided after 100 deals" in out
    assert "run again with a larger --deals to go on" in out
    code, out, err = cli(capsys, "tournament", "--config", str(exp), "--deals", "3000", "-q")
    assert code == 0, err
    assert "resumed: 2 finished chunks kept" in err and "H0 accepted (mean <= 0) after" in out
    assert load_results(folder).attrs["sprt"]["decision"] == "H0"
    code, _, err = cli(capsys, "tournament", "--config", str(exp), "--deals", "3000", "--sprt-alpha", "0.05",
                       "--out", str(folder), "-q")  # fmt: skip
    assert code == 2 and "holds a different tournament" in err and "(alpha 0.1, beta 0.05" in err
    assert "vs 0,5 (alpha 0.05, beta 0.05" in err


def test_agents_and_deal_commands(capsys):
    code, out, _ = cli(capsys, "agents")
    assert code == 0 and "normal" in out and "careless=0.3" in out
    code, out, _ = cli(capsys, "deal", "7", "3")
    assert code == 0 and out.count("seat") == 4


@pytest.mark.parametrize(
    "args, words",
    [
        (["tournament", "--agents", "normal,best", "--out", "{tmp}/x"], ["unknown agent 'best'"]),
        (["tournament", "--agents", "normal"], ["at least 2 agents"]),
        (["tournament", "--deals", "lots"], ["--deals", "'lots' is not an int"]),
        (["tournament", "--deals", "-5"], ["--deals", "must be >= 1"]),
        (["tournament", "--jobs", "0"], ["--jobs"]),
        (["tournament", "--mode", "rubber"], ["--mode", "invalid choice"]),
        (["tournament", "--backend", "spark"], ["--backend", "invalid choice"]),
        (
            ["tournament", "--backend", "loky", "--scheduler", "tcp://127.0.0.1:1"],
            ["--scheduler needs the dask backend"],
        ),
        (["tournament", "--rules", "{tmp}/missing.toml"], ["rules file", "does not exist"]),
        (["tournament", "--rules", "{tmp}/bad.toml"], ["colour"]),
        (["tournament", "--config", "{tmp}/missing.toml"], ["experiment file", "does not exist"]),
        (["tournament", "--agents", "normal,easy", "--deals", "10", "--out", "{tmp}/taken"], ["not empty"]),
        (["summary", "{tmp}/nowhere"], ["does not exist"]),
        (["summary", "{tmp}"], ["not a tournament results folder"]),
        (["tournament", "--frobnicate"], ["unrecognized arguments"]),
        (["tournament", "--sprt", "5,0"], ["--sprt", "D1 must be greater than D0"]),
        (["tournament", "--sprt", "5"], ["--sprt", "two numbers D0,D1"]),
        (["tournament", "--sprt", "0,5,9"], ["--sprt", "two numbers D0,D1"]),
        (["tournament", "--sprt", "zero,five"], ["--sprt", "two numbers D0,D1"]),
        (["tournament", "--sprt", "0,5", "--sprt-alpha", "0.5"], ["--sprt-alpha", "(0, 0.5)"]),
        (["tournament", "--sprt", "0,5", "--sprt-beta", "0"], ["--sprt-beta", "(0, 0.5)"]),
        (["tournament", "--sprt", "0,5", "--sprt-alpha", "x"], ["--sprt-alpha", "not a number"]),
        (["tournament", "--sprt-alpha", "0.1"], ["--sprt-alpha needs --sprt D0,D1"]),
        (["tournament", "--agents", "normal,easy,random", "--sprt", "0,5"], ["two agents", "3 agents"]),
        (["tournament", "--sprt", "0,5", "--mode", "matches"], ["hands mode"]),
        (["tournament", "--config", "{tmp}/sprt.toml"], ["experiment file", "sprt beta must be in (0, 0.5)"]),
        (["bogus"], ["invalid choice"]),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(capsys, tmp_path, args, words):
    (tmp_path / "bad.toml").write_text("colour = 'red'\n")
    (tmp_path / "sprt.toml").write_text("sprt = [0, 5]\nsprt_beta = 0.7\n")
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.txt").write_text("x")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    _out, err = capsys.readouterr()
    assert code == 2
    # one line, besides the note a first run prints while it compiles (a cold cache: the errors
    # found after the warm-up come after it)
    lines = [x for x in err.strip().splitlines() if not x.startswith("spades-ai: compil")]
    assert len(lines) == 1, err
    err = lines[0]
    assert err.startswith("spades-ai")
    assert "Traceback" not in err
    for w in words:
        assert w in err


def test_errors_from_the_installed_command_have_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "spades_ai", "tournament", "--agents", "normal,nobody"]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == ["spades-ai: error: unknown agent 'nobody'; built-in agents: "
                                               + res.stderr.split("built-in agents: ")[1].strip()]  # fmt: skip
    assert not list(tmp_path.iterdir())  # nothing written


class KillerEasy:
    """Easy, except that in a worker process (not the test's own) it kills that process once:
    the marker file names the test's pid and is removed before the kill."""

    name = "killer"
    marker = None

    def __init__(self, marker: str):
        from spades_ai import make_agent

        self.easy = make_agent("easy")
        self.marker = marker

    def bid(self, obs):
        try:
            with open(self.marker) as f:
                parent = int(f.read())
        except FileNotFoundError:
            parent = None
        if parent is not None and parent != os.getpid():
            os.remove(self.marker)
            os._exit(1)
        return self.easy.bid(obs)

    def play(self, obs):
        return self.easy.play(obs)


def test_a_killed_worker_is_one_line_and_the_run_resumes(capsys, tmp_path):
    marker = tmp_path / "kill-once"
    marker.write_text(str(os.getpid()))
    args = ["tournament", "--agents", f"normal,test_cli:KillerEasy:marker='{marker}'", "--deals", "40",
            "--chunk-size", "10", "--jobs", "2", "--backend", "loky", "--out", str(tmp_path / "k"), "-q"]  # fmt: skip
    code, _, err = cli(capsys, *args)
    assert code == 1, err
    assert "a worker died" in err and "run the same command to resume" in err
    # one line, besides the note a first run prints while it compiles
    assert len([x for x in err.strip().splitlines() if not x.startswith("spades-ai: compil")]) == 1, err
    assert not marker.exists()
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    df = load_results(tmp_path / "k")
    assert len(df) == 40 * 4 and not df.duplicated(["deal_no", "rotation", "side"]).any()


@pytest.mark.parametrize("lost", ["loky", "pool", "dask"])
def test_a_dead_worker_is_one_line_exit_1_and_the_run_resumes(capsys, monkeypatch, tmp_path, lost):
    """A worker that dies (loky, a process pool or dask) ends the command with one line naming
    the folder; any other error is not mistaken for it."""
    from concurrent.futures.process import BrokenProcessPool

    from distributed import KilledWorker
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    import spades_ai.tournament as tournament

    error = {"loky": TerminatedWorkerError, "pool": BrokenProcessPool, "dask": KilledWorker}[lost]

    def dies(*args, **kwargs):
        raise error("task", None, 1) if error is KilledWorker else error("the worker was killed")

    monkeypatch.setattr(tournament, "run_tournament", dies)
    out = tmp_path / "run"
    assert main(["tournament", "--agents", "normal,easy", "--deals", "4", "--out", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"a worker died ({error.__name__}); finished chunks are kept in {out}" in err

    def fails(*args, **kwargs):
        raise KeyError("not a worker")

    monkeypatch.setattr(tournament, "run_tournament", fails)
    with pytest.raises(KeyError, match="not a worker"):
        main(["tournament", "--agents", "normal,easy", "--deals", "4", "--out", str(out), "-q"])


MINE = '''
class Agent:
    """The first legal bid and card: a user's agent in a file of the current folder."""

    name = "mine"

    def bid(self, obs):
        return min(obs.legal_bids())

    def play(self, obs):
        return min(obs.legal_cards())


AGENT = Agent()
'''


def test_a_user_agent_in_the_current_folder_needs_no_pythonpath(capsys, monkeypatch, tmp_path):
    """Issue 23, item 0: ``mine.py`` beside the user, ``spades-ai tournament --agents
    mine:AGENT,normal`` from that folder, as a new user types it (no ``PYTHONPATH`` but the
    package's own; ``-P``: like the installed command, Python's path lacks the current folder);
    the run records the folder, and a missing module names the folders searched."""
    (tmp_path / "mine.py").write_text(MINE)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-P", "-m", "spades_ai", "tournament", "--agents", "mine:AGENT,normal", "--deals", "20",
           "--jobs", "1", "--out", "run"]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert res.returncode == 0, res.stderr
    assert any(line.split()[:3] == ["mine:AGENT", "normal", "20"] for line in res.stdout.splitlines()), res.stdout
    df = load_results(tmp_path / "run")
    assert df.attrs["config"]["agents"][0]["folder"] == str(tmp_path.resolve())
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "tournament", "--agents", "theirs:AGENT,normal")
    assert code == 2
    assert "cannot import module 'theirs'" in err and str(tmp_path.resolve()) in err


def test_a_tournament_of_partnerships(capsys, tmp_path):
    """Issue 23, item 1: ``--agents "normal+easy,easy+normal"``: the summary names the pairs."""
    code, out, err = cli(capsys, "tournament", "--agents", "normal+easy,easy+normal", "--deals", "30", "--jobs", "1",
                         "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 0, err
    assert any(line.split()[:3] == ["normal+easy", "easy+normal", "30"] for line in out.splitlines()), out
    df = load_results(tmp_path / "run")
    assert set(df["agent_a"].astype(str)) == {"normal", "easy"}
    assert "value as a partner" not in out  # the same two agents on both sides: no values
    code, out, err = cli(capsys, "tournament", "--agents", "easy+easy,easy+normal,normal+normal", "--deals", "20",
                         "--jobs", "1", "--out", str(tmp_path / "study"))  # fmt: skip
    assert code == 0, err
    values = out.split("value as a partner")[1].splitlines()[1:]
    assert [line.split()[0] for line in values] == ["normal", "easy"]


def test_an_edited_agent_is_refused_and_fresh_plays_it_anew(tmp_path):
    """Issue 32, item 1: ``mine.py`` plays, is edited, and the same command is refused naming the
    agent and ``--fresh``; ``--fresh`` moves the old folder aside (kept) and the new code plays
    (it bids 13 where the old one bid its lowest)."""
    (tmp_path / "mine.py").write_text(MINE)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "spades_ai", "tournament", "--agents", "mine:AGENT,normal", "--deals", "20",
           "--jobs", "1", "--out", "run", "-q"]  # fmt: skip

    def tournament(*extra):
        return subprocess.run(cmd + list(extra), capture_output=True, text=True, env=env, cwd=tmp_path, check=False)

    assert tournament().returncode == 0
    old_bids = load_results(tmp_path / "run").query("agent == 'mine:AGENT'").bid_a
    (tmp_path / "mine.py").write_text(MINE.replace("min(obs.legal_bids())", "max(obs.legal_bids())"))
    res = tournament()
    assert res.returncode == 2 and "resumed" not in res.stderr
    assert "other code for agent 'mine:AGENT' (module mine)" in res.stderr and "--fresh" in res.stderr
    res = tournament("--fresh")
    assert res.returncode == 0, res.stderr
    (aside,) = tmp_path.glob("run.old-*")
    assert f"moved to {aside.name}" in res.stderr and "played 20 deals" in res.stderr
    assert (load_results(aside).query("agent == 'mine:AGENT'").bid_a == old_bids).all()
    assert (load_results(tmp_path / "run").query("agent == 'mine:AGENT'").bid_a == 13).all()


def test_rates_read_right_at_any_speed():
    """Issue 32, item 3: deals per second when at least one a second, else seconds per deal
    (a slow run once printed ``0/s``)."""
    assert rate_text(20_000, 4.0, "deal") == "5,000 deals/s, "
    assert rate_text(30, 20.0, "deal") == "1.5 deals/s, "
    assert rate_text(3, 10.0, "deal") == "3.33 s/deal, "
    assert rate_text(2, 500.0, "match") == "250 s/match, "
    assert rate_text(0, 3.0, "deal") == ""


def test_labels_on_the_command_line(capsys, tmp_path):
    """Issue 32, item 3: ``label=NAME`` among an agent's options names it in the results, as
    ``label =`` does in an experiment file; the bidding benchmark takes it too."""
    code, out, err = cli(capsys, "tournament", "--agents", "normal:label=steady,easy:careless=0.5,label=sloppy",
                         "--deals", "20", "--jobs", "1", "--out", str(tmp_path / "run"), "-q")  # fmt: skip
    assert code == 0, err
    assert out.startswith("steady vs sloppy:") and any(line.split()[:3] == ["steady", "sloppy", "20"] for line in out.splitlines())
    assert set(load_results(tmp_path / "run")["agent"].astype(str)) == {"steady", "sloppy"}
    code, out, err = cli(capsys, "bidding", "--bidders", "normal,easy:careless=0.5,label=sloppy", "--deals", "10")
    assert code == 0, err
    assert "margin = the bidder's team's points per deal minus the opponents'" in out.splitlines()[0]
    assert any(line.split()[:2] == ["sloppy", "10"] for line in out.splitlines())
    code, _, err = cli(capsys, "tournament", "--agents", "normal:label=,easy", "--deals", "2")
    assert code == 2 and "empty label" in err
