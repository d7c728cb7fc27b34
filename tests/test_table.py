"""``spades-ai play`` (issue 13, item 1): a scripted match through the command line, refused
lines that change nothing, save and resume mid-hand, end of input, and the table's text."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from spades_ai import CardSet, Hand, Rules, make_agent
from spades_ai.cards import DECK
from spades_ai.cli import compiling_notice, main
from spades_ai.simulate import match_deal
from spades_ai.table import SaveFileError, TableMatch, play_session
from spades_ai.table import render

SEED = 11
LEVEL = "easy"
TARGET = 250


def pick(match: TableMatch, normal) -> str:
    """Your answer as Normal would give it, written as a player types it."""
    hand = match.hand
    if match.asks_blind_nil():
        return "look"
    if hand.phase == "bidding":
        b = normal.bid(hand.observation())
        return "nil" if b == 0 else str(b)
    text = str(normal.play(hand.observation()))  # "TD": typed as players do, "10d"
    return ("10" if text[0] == "T" else text[0]) + text[1].lower()


def scripted(seed=SEED, level=LEVEL, target=TARGET, bad=None, rules=None):
    """Play a match in-process with Normal's answers: (answers, where, final match), ``where[i]``
    being (hand_no, cards played) when answer ``i`` was given. ``bad(match)`` may return
    refused lines to put before an answer; each is checked to change nothing. ``rules``: the
    table (default: four in pairs), its target set to ``target``."""
    match = TableMatch(seed, level, (rules or Rules()).replace(target_score=target))
    normal = make_agent("normal")
    answers, where = [], []
    match.advance()
    while not match.over:
        for line, words in (bad(match) if bad else []):
            before = json.dumps(match.to_lines())
            ok, lines = match.answer(line)
            assert not ok and len(lines) == 1 and words in lines[0], (line, lines)
            assert json.dumps(match.to_lines()) == before
            answers.append(line)
            where.append((match.hand_no, len(match.hand.plays)))
        where.append((match.hand_no, len(match.hand.plays)))
        line = pick(match, normal)
        ok, lines = match.answer(line)
        assert ok, (line, lines)
        answers.append(line)
        match.advance()
    return answers, where, match


@pytest.fixture(scope="module")
def game():
    return scripted()


def run_cli(monkeypatch, capsys, lines, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def play_args(save):
    return ["--level", LEVEL, "--target", str(TARGET), "--seed", str(SEED), "--save", str(save)]


def test_a_scripted_match_finishes_through_the_command_line(game, monkeypatch, capsys, tmp_path):
    answers, where, match = game
    save = tmp_path / "m.jsonl"
    code, out, err = run_cli(monkeypatch, capsys, answers, *play_args(save))
    assert code == 0, err
    assert "Spades to 250: you (South) and North (hard) against West and East (easy); seed 11." in out
    assert out.rstrip().endswith(match.result_line())
    assert "Score sheet, hand 1" in out and "Your bid (" in out and "Your card? " in out
    lines = [json.loads(x) for x in save.read_text().splitlines()]
    assert len(lines) == len(match.hands) and all(x["finished"] for x in lines)
    assert [x["hand"] for x in lines] == [h.to_record() for h in match.hands]
    assert {(x["seed"], x["level"], x["rules"]["target_score"]) for x in lines} == {(SEED, LEVEL, TARGET)}


def refusals(match: TableMatch):
    """Wrong lines for the position, with the words of their one-line reason."""
    hand = match.hand
    if hand.phase == "bidding":
        return [("AS", "Not a bid"), ("14", "a bid is 0 (nil) to 13"), ("blind nil", "blind nil is off")]
    mine = hand.cards(0)
    legal = hand.legal_cards()
    out = [("zz", "Not a card: 'zz'")]
    held_not = next(c for c in reversed(DECK) if c not in mine)
    out.append((str(held_not), f"You do not hold {held_not}"))
    illegal = [c for c in mine if c not in legal]
    if illegal and hand.current_trick:
        out.append((str(illegal[0]), "You must follow suit"))
    elif illegal:
        out.append((str(illegal[0]), "Spades aren't broken yet"))
    return out


def test_refused_lines_get_one_line_and_change_nothing(game, monkeypatch, capsys, tmp_path):
    answers, where, match = game
    seen = set()

    def bad(m):
        cases = refusals(m)
        seen.update(words for _, words in cases)
        return cases

    noisy, _, again = scripted(bad=bad)
    assert {"You must follow suit", "Spades aren't broken yet", "Not a bid"} <= seen
    assert [h.to_record() for h in again.hands] == [h.to_record() for h in match.hands]
    save = tmp_path / "noisy.jsonl"
    code, out, err = run_cli(monkeypatch, capsys, noisy, *play_args(save))
    assert code == 0, err
    assert out.rstrip().endswith(match.result_line())
    for words in ("You must follow suit: play ", "Spades aren't broken yet: lead another suit.", "Not a card: 'zz'",
                  "You may not bid 14: a bid is 0 (nil) to 13."):  # fmt: skip
        assert words in out
    # the same question again right after the reason
    i = out.index("Not a card: 'zz'")
    assert out[i:].split("\n", 1)[1].startswith("Your card? ")
    clean = tmp_path / "clean.jsonl"
    run_cli(monkeypatch, capsys, answers, *play_args(clean))
    assert save.read_text() == clean.read_text()


def test_save_and_resume_mid_hand_give_the_same_match(game, monkeypatch, capsys, tmp_path):
    answers, where, match = game
    cut = next(i for i, (k, played) in enumerate(where) if k == 1 and played >= 10)  # mid-hand 2
    save = tmp_path / "m.jsonl"
    code, out, err = run_cli(monkeypatch, capsys, answers[:cut], *play_args(save))
    assert code == 0, err
    assert f"end of input: the match is saved in {save}" in out
    last = json.loads(save.read_text().splitlines()[-1])
    assert last["finished"] is False and 0 < len(last["hand"]["plays"]) < 52
    code, out, err = run_cli(monkeypatch, capsys, answers[cut:], "--resume", str(save))
    assert code == 0, err
    assert out.rstrip().endswith(match.result_line())
    whole = tmp_path / "whole.jsonl"
    run_cli(monkeypatch, capsys, answers, *play_args(whole))
    assert save.read_text() == whole.read_text()
    resumed = TableMatch.load(save)
    assert resumed.over and resumed.winner == match.winner


def test_end_of_input_at_once_exits_0_and_a_finished_match_says_so(monkeypatch, capsys, tmp_path):
    save = tmp_path / "m.jsonl"
    code, out, err = run_cli(monkeypatch, capsys, [], *play_args(save))
    assert code == 0, err
    assert "end of input" in out and "Your bid (" in out
    code, out, err = run_cli(monkeypatch, capsys, [], "--seed", "3")
    assert code == 0 and "the match is not saved (play with --save FILE" in out


def test_resume_refuses_new_settings_and_bad_files(monkeypatch, capsys, tmp_path):
    save = tmp_path / "m.jsonl"
    run_cli(monkeypatch, capsys, ["3"], *play_args(save))
    code, _, err = run_cli(monkeypatch, capsys, [], "--resume", str(save), "--level", "hard")
    assert code == 2 and "drop --level" in err and len(err.strip().splitlines()) == 1
    bad = tmp_path / "bad.jsonl"
    line = json.loads(save.read_text().splitlines()[0])
    bad.write_text(json.dumps({**line, "seed": 12}) + "\n")
    code, _, err = run_cli(monkeypatch, capsys, [], "--resume", str(bad))
    assert code == 2 and "hand 0 is not the one seed 12 deals" in err
    line["hand"]["plays"][-1] = "AS" if line["hand"]["plays"][-1] != "AS" else "KS"
    bad.write_text(json.dumps(line) + "\n")
    code, _, err = run_cli(monkeypatch, capsys, [], "--resume", str(bad))
    assert code == 2 and "the hand does not replay" in err
    with pytest.raises(SaveFileError, match="not JSON"):
        (tmp_path / "junk").write_text("{oops\n")
        TableMatch.load(tmp_path / "junk")


def test_a_blind_nil_is_asked_before_the_cards_are_shown():
    match = TableMatch(5, "easy", Rules.preset("blind"))
    match.advance()
    assert match.asks_blind_nil()
    assert "blind nil" in match.question() and "Your cards" not in "\n".join(match.view())
    out = io.StringIO()
    play_session(match, io.StringIO("look\n3\n"), out)
    text = out.getvalue()
    assert "Your cards: S:" in text and "You bid 3." in text and "end of input" in text


def test_the_table_text():
    hand = Hand("AS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH / KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS / "
                "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC / 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", dealer=3)  # fmt: skip
    assert render.format_cards(hand.cards(0), ["AS", "2H"]) == "S: AS* KS  H: QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H*  D: -  C: -"
    for b in (2, 0, 1, 4):
        hand.bid(b)
    assert render.format_bids(hand, render.TABLE_NAMES) == "Bids: You 2, West nil, North 1, East 4"
    assert render.tricks_against_bids(hand.bids, [1, 0, 0, 2], render.TABLE_NAMES) == "You 1/2  West 0/nil  North 0/1  East 2/4"
    assert render.team_tricks_against_contracts(hand.bids, [1, 0, 0, 2]) == "1/3, 2/4"
    while hand.phase == "playing":
        hand.play(hand.legal_cards()[-1])
    sheet = render.format_sheet(hand.result(), render.TABLE_NAMES, render.TABLE_TEAMS, "Score sheet, hand 1")
    r = hand.result()
    # West took 11 tricks on its nil: the nil fails, its tricks are bags (not counted toward
    # East's 4), which reach the bag limit; every figure is the result's own.
    assert (r.points, r.contract_points, r.new_bags, r.nil_points) == ((-30, -229), (-30, -40), (0, 11), (0, -100))
    assert sheet.splitlines() == [
        "Score sheet, hand 1",
        "                  You & North       West & East",
        "  bids            2 + 1             nil + 4",
        "  tricks          2 + 0 = 2         11 + 0 = 11",
        "  contract        2 of 3: set       0 of 4: set",
        "  contract points -30               -40",
        "  bags            0 (bag count 0)   +11 (bag count 1)",
        "  nil             -                 -100 (West nil lost)",
        "  bag penalty     0                 -100 (bag limit reached)",
        "  hand            -30               -229",
        "  match           -30               -229",
    ]


def test_the_compiling_notice_shows_when_a_kernel_compiles(capsys):
    import numba

    @numba.njit
    def fresh(x):  # compiled on its first call: nothing caches it
        return x + 1

    with compiling_notice(12):
        assert fresh(1) == 2
    err = capsys.readouterr().err
    assert "compiling the engine's kernels (once, about 12 s)..." in err
    assert re.search(r"compiled in (\d+ ms|\d+(\.\d)? s),", err) and "compiled in 0 s" not in err
    with compiling_notice(12):  # compiled already
        assert fresh(2) == 3
    assert capsys.readouterr().err == ""


def test_a_slow_step_that_compiles_nothing_is_not_called_compiling(capsys):
    import time

    with compiling_notice(12):  # as a run waiting for a bot's program, or the disk
        time.sleep(0.5)
    assert capsys.readouterr().err == ""


def test_the_compiling_notice_follows_the_kernel_cache(tmp_path):
    """A package kernel in a fresh cache folder compiles (the notice), and in a second
    process, from the cache the first one filled, loads (no notice)."""
    import os
    import subprocess

    script = (
        "import numpy as np\n"
        "from spades_ai.cli import compiling_notice\n"
        "from spades_ai.engine.bits import popcount\n"
        "with compiling_notice(3):\n"
        "    assert popcount(np.uint64(7)) == 3\n"
    )
    env = {**os.environ, "SPADES_AI_CACHE_DIR": str(tmp_path)}
    cold, warm = (subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
                  for _ in range(2))
    assert "compiling the engine's kernels (once, about 3 s)..." in cold.stderr
    assert f"cached in {tmp_path}" in cold.stderr
    assert warm.stderr == ""


@pytest.mark.parametrize("rules", [Rules(pass_cards=1), Rules(blind_nil=True, blind_pass=2), Rules(closed_bidding=True)])
def test_the_table_refuses_rules_it_cannot_show_rightly(rules):
    from spades_ai import RulesError

    with pytest.raises(RulesError, match="rules fields 'pass_cards', 'blind_pass' and 'closed_bidding' must be off"):
        TableMatch(seed=1, rules=rules)


def test_the_table_plays_jokers_and_high_deuces(tmp_path):
    """The table shows the jokers among the spades, takes them typed, refuses a card the deck
    has lost in the rules' words, and saves and resumes a match with them."""
    rules = Rules(target_score=None, max_hands=2, jokers=2, deuces_high=2)
    match = TableMatch(5, "normal", rules)
    normal = make_agent("normal")
    shown = []
    refused = 0
    match.advance()
    while not match.over:
        shown += match.view()
        hand = match.hand
        if hand.phase == "playing" and not refused:
            before = json.dumps(match.to_lines())
            ok, lines = match.answer("2h")
            assert not ok and lines == ["2H is not in the deck: BJ replaces it in these rules."]
            assert json.dumps(match.to_lines()) == before
            refused += 1
        ok, lines = match.answer(pick(match, normal))
        assert ok, lines
        match.advance()
    text = "\n".join(shown)
    assert ("BJ" in text or "LJ" in text) and "2H" not in text and "2C" not in text
    match.save(tmp_path / "jokers.json")
    assert TableMatch.load(tmp_path / "jokers.json").to_lines() == match.to_lines()
    assert sum(r.tricks_won[0] + r.tricks_won[2] for r in match.results) + sum(
        r.tricks_won[1] + r.tricks_won[3] for r in match.results) == 26  # fmt: skip


def test_format_cards_puts_the_jokers_at_the_top_of_the_spades():
    rules = Rules(jokers=2, deuces_high=1)
    cards = rules.cardset(CardSet("2H 2C 2S AS 7S QH 4H"))
    assert render.format_cards(cards, legal=["2H", "AS"]) == "S: BJ* LJ 2S AS* 7S  H: QH 4H  D: -  C: -"


def test_step_lets_one_agent_act_and_answer_waits_for_your_turn():
    """``step`` is one agent's action (the browser paces them); out of turn, ``answer``
    refuses and changes nothing, and ``step`` on your turn is an error."""
    match = TableMatch(seed=3, level="easy", rules=Rules(target_score=250))
    while match.agent_to_act:
        before = json.dumps(match.to_lines())
        ok, lines = match.answer("nil")
        assert not ok and lines[0].endswith("'s turn, not yours.") and json.dumps(match.to_lines()) == before
        n = len(match.hand.plays) + sum(b is not None for b in match.hand.bids)
        match.step()
        assert len(match.hand.plays) + sum(b is not None for b in match.hand.bids) == n + 1
    with pytest.raises(ValueError, match="it is your turn"):
        match.step()


def must_win_refusals(match: TableMatch):
    """At a must-win table: a card of the suit led that would not win the trick, refused."""
    hand = match.hand
    if hand.phase != "playing" or not hand.current_trick:
        return []
    led = hand.current_trick[0][1].suit
    losing = [c for c in hand.cards(0) if c.suit == led and c not in hand.legal_cards()]
    return [(str(losing[0]), "You must win the trick if you can: ")] if losing else []


SOLO_TABLES = {
    "cutthroat": ("3 players solo", ["You", "West", "East"], 17),
    "solo": ("4 players solo", ["You", "West", "North", "East"], 13),
    "five.toml": ("5 players solo", ["You", "West", "North-west", "North-east", "East"], 10),
}


@pytest.mark.parametrize("preset", list(SOLO_TABLES))
def test_a_solo_match_at_three_four_and_five_players_through_the_command_line(preset, monkeypatch, capsys, tmp_path):
    """``spades-ai play --rules cutthroat`` (and ``solo``, and a rules file of five players):
    every other seat an opponent at the level, named around the table, the cards each, bids to
    the cards each, a score sheet a column a seat, the match won by one seat; saved and resumed.
    At the solo preset a card that does not win the trick is refused in the table's words."""
    table, names, each = SOLO_TABLES[preset]
    (tmp_path / "five.toml").write_text("players = 5\n")
    rules_arg = str(tmp_path / preset) if preset.endswith(".toml") else preset
    rules = Rules.load(rules_arg)
    bad = must_win_refusals if rules.must_win else None
    answers, where, match = scripted(target=150, rules=rules, bad=bad)
    assert match.names == tuple(names) and match.teams == tuple(names) and match.partner is None
    assert [a.name for a in match.agents[1:]] == [make_agent(LEVEL).name] * (len(names) - 1)
    save = tmp_path / "m.jsonl"
    code, out, err = run_cli(monkeypatch, capsys, answers, "--level", LEVEL, "--rules", rules_arg, "--target", "150",
                             "--seed", str(SEED), "--save", str(save))  # fmt: skip
    assert code == 0, err
    against = " and ".join(filter(None, [", ".join(names[1:-1]), names[-1]]))
    assert f"Spades to 150, {table}: you (South) against {against} ({LEVEL}); seed {SEED}." in out
    assert out.rstrip().endswith(match.result_line())
    assert "Your cards: S: " in out and re.search(rf"Your bid \(1-{each}(, or nil)?\)\?", out)
    assert "teams " not in out  # solo: a side's tricks are its seat's
    header = next(line for line in out.splitlines() if line.startswith("  " + " " * 16 + "You"))
    assert header.split() == [w for name in names for w in name.split()]
    winner = names[match.winner]
    assert match.result_line().startswith(f"{winner} {'win' if winner == 'You' else 'wins'} the match, {max(match.scores)} to ")
    assert sum(sum(r.tricks_won) for r in match.results) == each * len(match.results)
    if rules.must_win:
        assert "You must win the trick if you can: " in out
    assert TableMatch.load(save).to_lines() == match.to_lines()


def test_the_text_of_a_three_player_table():
    """Seats, sides and the sheet at three players solo: a column a seat, tricks without a sum."""
    rules = Rules.preset("cutthroat")
    names = render.table_names(rules)
    assert names == ("You", "West", "East") and render.team_names(names, rules) == names
    assert render.team_names(render.TABLE_NAMES) == render.TABLE_TEAMS  # four in pairs, as before
    assert render.format_match_score((120, -40, 7), (3, 1, 0), names, 300) == (
        "Match: You 120 (3 bags), West -40 (1 bag), East 7 (0 bags); 300 to win")
    hand = Hand(match_deal(2, 0, 0, rules), dealer=2, rules=rules)
    for b in (5, 0, 6):
        hand.bid(b)
    assert render.format_bids(hand, names) == "Bids: You 5, West nil, East 6"
    while hand.phase == "playing":
        hand.play(hand.legal_cards()[0])
    r = hand.result()
    sheet = render.format_sheet(r, names, names, "Score sheet, hand 1").splitlines()
    assert sheet[1].split() == ["You", "West", "East"]
    assert sheet[2].split() == ["bids", "5", "nil", "6"]
    assert sheet[3].split() == ["tricks", *map(str, r.tricks_won)]
    assert sheet[-1].split() == ["match", *map(str, r.scores)]
    winners = render.trick_winners(hand)
    assert len(winners) == 17 and [winners.count(seat) for seat in range(3)] == list(r.tricks_won)
    assert winners[:-1] == [t[0][0] for t in hand.tricks[1:]]  # each trick's winner leads the next
