"""Bots as programs at every table (issue 42, item 1): the example bot and the tests' bot play a
tournament at 3 solo, 4 pairs, 4 solo, 5, 6 pairs, 8 solo and 12, legal and reproducible, and
every request the tests' bot was sent is held against the slow references of ``naive_tables``:
the table, the hand with its copies, the current trick, the seat to act and the legal cards."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from naive import card_id, card_name
from naive_tables import (
    TableRules,
    cards_each,
    decks,
    naive_table_legal_cards,
    naive_table_trick_winner,
    side_of,
    sides,
)
from spades_ai import Rules, load_results, run_tournament
from spades_ai.agents import program
from spades_ai.testing import CHECKED_TABLES

HERE = Path(__file__).resolve().parent
BOT = f"{sys.executable} {HERE / 'bots' / 'first_legal_bot.py'} ok"
EXAMPLE = f"{sys.executable} {HERE.parent / 'examples' / 'protocol_bot.py'}"
TABLES = CHECKED_TABLES


def expected_table(ref: TableRules) -> dict:
    """The ``table`` field of the reference's table."""
    n = ref.players
    return {"players": n, "teams": ref.teams, "sides": len(sides(ref)), "side_of": [side_of(s, ref) for s in range(n)],
            "cards_each": cards_each(n), "decks": decks(n)}  # fmt: skip


def ids(cards) -> list[int]:
    return [card_id(c) for c in cards]


def check_trick(request: dict, ref: TableRules) -> None:
    """The request's ``trick`` and ``seat`` against the play walked trick by trick: each trick
    one card a seat, clockwise from its leader, the next led by its winner (the reference's)."""
    n, plays = ref.players, request["plays"]
    done = len(plays) - len(plays) % n
    leader = (request["dealer"] + 1) % n  # dealer_left: the first lead is the dealer's left
    for start in range(0, len(plays), n):
        trick = [(seat, card_id(card)) for seat, card in plays[start : start + n]]
        assert [seat for seat, _ in trick] == [(leader + i) % n for i in range(len(trick))], plays
        if len(trick) == n:
            leader = naive_table_trick_winner(trick, ref)
    assert request["trick"] == plays[done:]
    assert request["seat"] == (leader + len(plays) - done) % n


def check_request(request: dict, ref: TableRules) -> None:
    """One decision request of the tests' bot against the references."""
    n = ref.players
    assert request["table"] == expected_table(ref)
    assert len(request["bids"]) == len(request["blind"]) == len(request["tricks_won"]) == n
    assert len(request["scores"]) == len(request["bags"]) == len(sides(ref))
    hand, plays = ids(request["hand"]), request["plays"]
    assert hand == sorted(hand) and max(Counter(hand).values()) <= decks(n)
    assert len(hand) == cards_each(n) - sum(seat == request["seat"] for seat, _ in plays)
    held = Counter(hand) + Counter(card_id(c) for seat, c in plays if seat == request["seat"])
    assert all(count <= decks(n) for count in held.values())
    if request["type"] == "play":
        check_trick(request, ref)
        trick = [card_id(card) for _, card in request["trick"]]
        legal = naive_table_legal_cards(hand, trick, request["spades_broken"], len(plays) // n, ref)
        assert request["legal"] == [card_name(c) for c in legal]


def tournament(tmp_path: Path, name: str, rules: Rules, monkeypatch) -> tuple[pd.DataFrame, list[dict]]:
    """The results of a one-deal tournament of the example bot against the tests' bot, and the
    requests the tests' bot was sent, in order."""
    log = tmp_path / f"{name}.jsonl"
    monkeypatch.setenv("BOT_REQUESTS", str(log))
    for agent in program._AGENTS.values():  # bots kept from a run before: started afresh, logging here
        agent.close()
    monkeypatch.setattr(program, "_AGENTS", {})
    run = run_tournament(f"cmd:{EXAMPLE},cmd:{BOT}", deals=1, seed=5, rules=rules, n_jobs=1, progress=False,
                         out=tmp_path / name)  # fmt: skip
    return load_results(run), [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.parametrize("rules", TABLES.values(), ids=TABLES.keys())
def test_the_example_bots_play_a_tournament_at_every_table(rules, tmp_path, monkeypatch):
    df, requests = tournament(tmp_path, "first", rules, monkeypatch)
    assert len(df) == rules.n_sides * rules.n_sides  # a deal: a table per rotation, a row per side
    assert (df.groupby(["deal_no", "rotation"])["team_tricks"].sum() == rules.cards_each).all()
    assert set(df["agent"].astype(str)) == {f"cmd:{EXAMPLE}", f"cmd:{BOT}"}
    hello, decisions = requests[0], requests[1:]
    assert hello["type"] == "hello" and hello["protocol"] == 2 and hello["table"] == expected_table(TableRules.from_rules(rules))
    assert all(r["type"] != "hello" for r in decisions)
    plays = [r for r in decisions if r["type"] == "play"]
    assert {r["type"] for r in decisions} == {"bid", "play"} and any(r["trick"] for r in plays)
    ref = TableRules.from_rules(rules)
    for request in decisions:
        check_request(request, ref)
    if rules.decks > 1:  # copies are spelled: some hand holds a card twice
        assert any(len(set(r["hand"])) < len(r["hand"]) for r in decisions)
    again, same = tournament(tmp_path, "again", rules, monkeypatch)
    pd.testing.assert_frame_equal(df, again)
    assert same == requests
    for agent in program._AGENTS.values():
        agent.close()
