"""The command line at every table (issue 42): ``tournament``, ``bidding``, ``dataset`` and
``deal`` take ``--players`` and ``--teams`` as ``play`` does, over ``--rules``; the summary and
the bidding header name the table and speak of a seat's own bid and points solo; small times and
zeros print as something; what a table cannot play is refused naming the options (and the rules)."""

from __future__ import annotations

import re

import numba
import pandas as pd
import pytest

from spades_ai import load_results
from spades_ai.analysis.summary import SUMMARY_COLUMNS, format_summary, summary_table
from spades_ai.cli import compiling_notice, duration_text, main
from spades_ai.rules import Rules
from spades_ai.seats import table_name
from spades_ai.simulate import deal

TABLES = [
    pytest.param(["--players", "3"], Rules(players=3), id="3 solo"),
    pytest.param(["--players", "6", "--teams", "pairs"], Rules(players=6, teams="pairs"), id="6 pairs"),
    pytest.param(["--players", "8"], Rules(players=8), id="8 solo"),
]
#: What no output may hold: a time of nothing, a negative zero.
NOTHING = re.compile(r"in 0\.0 s|in 0 s|-0\.0+\b|\[-0\b")


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def table_header(out: str) -> list[str]:
    return next(line for line in out.splitlines() if line.split()[:2] == ["agent", "vs"]).split()


@pytest.mark.parametrize("flags, rules", TABLES)
def test_a_tournament_at_the_table_and_its_summary(capsys, tmp_path, flags, rules):
    """``spades-ai tournament --players 8`` (the README's) plays that table, with the house
    rules of ``--rules`` kept; the summary names the table, and solo has no team columns."""
    (tmp_path / "house.toml").write_text("nil_bonus = 50\n")
    out_dir = tmp_path / "run"
    args = ["tournament", "--deals", "4", "--seed", "2", "--rules", str(tmp_path / "house.toml"), *flags, "--jobs", "1",
            "--out", str(out_dir), "-q"]  # fmt: skip
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    assert out.splitlines()[0].endswith(f"seed 2, {table_name(rules)}, rules: nil_bonus=50")
    stored = Rules.load(load_results(out_dir).attrs["config"]["rules"])
    assert (stored.players, stored.teams, stored.nil_bonus) == (rules.players, rules.teams, 50)
    header = table_header(out)
    if rules.teams == "solo":
        assert header[-2:] == ["bid", "tricks"] and "team" not in out
    else:
        assert header[-4:] == ["team", "bid", "team", "tricks"]
    assert re.search(r"played 4 deals over 1 pairing\(s\) in ([\d.]+ s|\d+ ms|under 1 ms) \(", err), err
    code, again, err = cli(capsys, "summary", str(out_dir))
    assert code == 0 and again == out
    code, _, err = cli(capsys, *args)  # nothing left to play: a time of a few ms, not "0.0 s"
    assert code == 0 and "played 0 deals" in err and not NOTHING.search(err), err


def test_without_out_each_table_has_its_own_folder(capsys, monkeypatch, tmp_path):
    """The README's ``spades-ai tournament --players 8`` after the same run at four players:
    a folder each (the four-player name unchanged), not a refusal of the first one's folder."""
    monkeypatch.chdir(tmp_path)
    for flags in ([], ["--players", "8"], ["--players", "6", "--teams", "pairs"]):
        code, _, err = cli(capsys, "tournament", "--deals", "2", *flags, "--jobs", "1", "-q")
        assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == [
        "normal-vs-easy_6-players-in-pairs_hands_seed0_2", "normal-vs-easy_8-players-solo_hands_seed0_2",
        "normal-vs-easy_hands_seed0_2"]  # fmt: skip


def test_a_matches_run_says_matches(capsys, tmp_path):
    code, out, err = cli(capsys, "tournament", "--mode", "matches", "--deals", "2", "--rules", "cutthroat",
                         "--jobs", "1", "--out", str(tmp_path / "m"), "-q")  # fmt: skip
    assert code == 0, err
    assert "played 2 matches over" in err and "matchs" not in err
    assert "3 players solo, rules: default" in out and "win rate" in out


@pytest.mark.parametrize("flags, rules", TABLES)
def test_the_bidding_benchmark_at_the_table(capsys, flags, rules):
    code, out, err = cli(capsys, "bidding", "--bidders", "normal,easy", "--deals", "3", *flags)
    assert code == 0, err
    title = out.splitlines()[0]
    assert title.startswith(f"bidding benchmark, 3 deals, seed 0, {table_name(rules)}: margin = ")
    if rules.teams == "solo":
        assert "the bidder's own points per deal minus the mean of the other seats'" in title and "team" not in title
    else:
        assert "the bidder's team's points per deal minus the opponents'" in title
    assert [line.split()[:2] for line in out.splitlines()[3:]] in ([["easy", "3"], ["normal", "3"]],
                                                                   [["normal", "3"], ["easy", "3"]])  # fmt: skip
    assert not NOTHING.search(out)


def test_the_bidding_board_prints_no_negative_zero(capsys, monkeypatch):
    """A figure that rounds to zero from below printed as ``-0.000``."""
    board = summary_table(pd.DataFrame({"deals": [3], "mean_error": [-0.0004], "margin": [-0.0]},
                                       index=pd.Index(["normal"], name="bidder")), "title")  # fmt: skip
    monkeypatch.setattr("spades_ai.analysis.bidding.bidding_benchmark", lambda *a, **k: board)
    code, out, err = cli(capsys, "bidding", "--deals", "3")
    assert code == 0, err
    assert out.splitlines()[-1].split() == ["normal", "3", "0.0", "0.0"] and "-0" not in out


def test_the_summary_prints_no_negative_zero():
    row = dict.fromkeys(SUMMARY_COLUMNS, 0.0) | {"agent": "a", "opponent": "b", "units": 10, "matches": 0,
                                                 "points": -0.01, "diff": -0.04, "diff_lo": -0.049, "diff_hi": 0.03}  # fmt: skip
    text = format_summary(pd.DataFrame([row], columns=SUMMARY_COLUMNS), solo=True)
    assert "+0.0 [+0.0, +0.0]" in text and "-0" not in text
    assert table_header(text)[-2:] == ["bid", "tricks"]


def test_a_compilation_takes_some_time():
    """A compilation under half a second said ``compiled in 0 s``."""
    assert [duration_text(s) for s in (0.0002, 0.3, 0.9996, 12.34, 4321.0)] == [
        "under 1 ms", "300 ms", "1.0 s", "12.3 s", "4,321.0 s"]  # fmt: skip


def test_the_compiling_notice_says_how_long(capfd):
    with compiling_notice(5):
        numba.njit(lambda x: x + 1)(1)  # a new function: numba compiles it here
    err = capfd.readouterr().err
    assert "compiling the engine's kernels (once, about 5 s)" in err
    assert re.search(r"compiled in ([\d.]+ s|\d+ ms|under 1 ms), cached in ", err) and not NOTHING.search(err), err


@pytest.mark.parametrize("flags, rules", TABLES)
def test_deal_at_the_table(capsys, flags, rules):
    code, out, err = cli(capsys, "deal", "7", "3", *flags)
    assert code == 0, err
    assert out.splitlines() == [f"seat {s}: {cards}" for s, cards in enumerate(deal(7, 3, rules))]
    assert len(out.splitlines()) == rules.players


@pytest.mark.parametrize("flags, rules", TABLES)
def test_a_dataset_at_the_table(capsys, tmp_path, flags, rules):
    from spades_ai.encoding import observation_layout
    from spades_ai.learn import load_dataset

    code, _, err = cli(capsys, "dataset", "--deals", "1", *flags, "--out", str(tmp_path / "d"))
    assert code == 0, err
    data = load_dataset(tmp_path / "d")
    assert data["obs"].shape == (rules.players * (1 + rules.cards_each), observation_layout(rules).size)
    assert sorted(set(data["seat"].tolist())) == list(range(rules.players))


@pytest.mark.parametrize(
    "args, words",
    [
        (["tournament", "--players", "5", "--teams", "pairs"],
         ["--players 5 --teams pairs: ", "needs an even number of players, not 5"]),
        (["bidding", "--teams", "pairs", "--players", "9"], ["--players 9 --teams pairs: "]),
        (["deal", "7", "--players", "3", "--teams", "pairs"], ["--players 3 --teams pairs: "]),
        (["bidding", "--rules", "cutthroat", "--teams", "pairs"],
         ["--teams pairs contradicts --rules cutthroat (3 players solo): ", "even number of players, not 3"]),
        (["tournament", "--rules", "solo", "--players", "6", "--teams", "pairs"],
         ["--players 6 --teams pairs contradicts --rules solo (4 players solo): ", "'must_win' is played solo only"]),
        (["deal", "7", "--rules", "{tmp}/pass.toml", "--players", "8", "--teams", "pairs"],
         ["--players 8 --teams pairs contradicts --rules {tmp}/pass.toml (4 players in pairs): ",
          "'pass_cards' = 2 is played with one deck only"]),
        (["tournament", "--config", "{tmp}/exp.toml", "--teams", "pairs"],
         ["--teams pairs contradicts the rules of {tmp}/exp.toml (3 players solo)"]),
        (["dataset", "--rules", "solo", "--teams", "pairs", "--deals", "1", "--out", "{tmp}/d"],
         ["--teams pairs contradicts --rules solo (4 players solo)"]),
        (["tournament", "--rules", "cuthroat"], ["no preset or rules file 'cuthroat' (did you mean 'cutthroat'?)",
                                                 "presets are classic, blind, suicide, mirror, whiz, solo, cutthroat"]),
        (["bidding", "--rules", "cuthroat"], ["did you mean 'cutthroat'?"]),
        (["deal", "1", "--rules", "classik"], ["did you mean 'classic'?"]),
        (["tournament", "--agents", "normal+easy,easy+normal", "--players", "3"],
         ["each partnership entrant ('normal+easy', 'easy+normal') plays tables in pairs, not 3 players solo"]),
        (["dataset", "--from", "{tmp}", "--players", "4", "--teams", "solo", "--out", "{tmp}/d"],
         ["--from takes the agents, deals, rules and table of the run: drop --players, --teams"]),
        (["tournament", "--players", "13"], ["--players: invalid choice: 13"]),
        (["bidding", "--teams", "trios"], ["--teams: invalid choice: 'trios'"]),
    ],
)
def test_what_a_table_cannot_play_is_one_line_naming_the_options(capsys, tmp_path, args, words):
    (tmp_path / "pass.toml").write_text("pass_cards = 2\n")
    (tmp_path / "exp.toml").write_text("[rules]\nplayers = 3\n")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    (line,) = err.strip().splitlines()
    assert line.startswith("spades-ai") and "Traceback" not in line
    for w in words:
        assert w.replace("{tmp}", str(tmp_path)) in line, line
