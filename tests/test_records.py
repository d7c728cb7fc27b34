"""JSON lines of hand records (issue 42, ``spades_ai.records``): every table of 3 to 12 players,
copies of cards, passes and blind nils round-trip through ``Hand``; a damaged or refused line
is named by its file and line; ``spades-ai replay`` reads such a file."""

from __future__ import annotations

import json
import random

import pytest

from naive import random_rules_kwargs
from spades_ai import Hand, Rules, deal
from spades_ai.cli import main
from spades_ai.records import RecordError, read_records, read_records_file, record_line, records_text, write_records
from spades_ai.table import ReplayError, replay_lines, replay_source

#: every table: one deck (3 to 5 players), two decks (6 to 8), three (9 to 12), solo and pairs
TABLES = [Rules(players=p, teams=t) for p in range(3, 13) for t in ("solo", "pairs") if t == "solo" or p % 2 == 0]


def random_hand(rnd: random.Random, rules: Rules, seed: int) -> Hand:
    """A hand of ``rules`` at a random match state, played at random (passes and blind nils
    where the rules have them) to a random point, or to its end."""
    k = rules.n_sides
    hand = Hand(deal(seed, 0, rules), dealer=rnd.randrange(rules.players), rules=rules,
                scores=[rnd.randint(-100, 300) for _ in range(k)], bag_count=[rnd.randrange(rules.bag_limit) for _ in range(k)],
                hands_played=rnd.randint(0, 3))  # fmt: skip
    stop = rnd.choice([0, 3, rnd.randrange(rules.players * rules.cards_each), 10**4, 10**4])
    while hand.phase != "over" and (hand.phase != "playing" or len(hand.plays) < stop):
        if hand.phase == "passing":
            seat = hand.passers[0]
            hand.pass_cards(seat, rnd.sample(list(hand.cards(seat)), hand.pass_count))
        elif hand.phase == "bidding":
            blind = hand.legal_bids(blind=True) and rnd.random() < 0.4
            hand.bid(0 if blind else rnd.choice(hand.legal_bids()), blind=bool(blind))
        else:
            hand.play(rnd.choice(hand.legal_cards()))
    return hand


def test_every_table_round_trips_through_json_lines(tmp_path):
    rnd = random.Random(42)
    hands = [random_hand(rnd, rules, i) for i, rules in enumerate(TABLES * 3)]
    assert any(h.rules.decks == 3 and h.phase == "over" for h in hands)
    assert any(max(h.deal[s].count(c) for s in range(h.rules.players) for c in h.deal[s]) > 1 for h in hands)  # copies
    write_records(hands, tmp_path / "hands.jsonl", events=[f"hand {i}" for i in range(len(hands))])
    back = read_records_file(tmp_path / "hands.jsonl")
    assert [h.to_record() for h in back] == [h.to_record() for h in hands]
    assert [h.tricks_won for h in back] == [h.tricks_won for h in hands]
    assert [h.result() for h in back if h.phase == "over"] == [h.result() for h in hands if h.phase == "over"]
    lines = (tmp_path / "hands.jsonl").read_text().splitlines()
    assert len(lines) == len(hands) and json.loads(lines[3])["event"] == "hand 3"


def test_four_seat_house_rules_with_passes_and_blind_nils_round_trip():
    rnd = random.Random(7)
    hands = []
    for i in range(60):
        rules = Rules(**random_rules_kwargs(rnd))
        hands.append(random_hand(rnd, rules, i))
    assert any(any(p is not None for p in h.passes[0]) for h in hands)  # the rules did pass cards
    assert any(any(p is not None for p in h.passes[1]) for h in hands)  # and blind passes
    assert [h.to_record() for h in read_records(records_text(hands))] == [h.to_record() for h in hands]


def good_lines() -> list[dict]:
    rules = Rules(players=6)  # two decks: copies of cards
    out = []
    for seed in (1, 2, 3):
        hand = Hand(deal(seed, 0, rules), rules=rules)
        for _ in range(6):
            hand.bid(2)
        for _ in range(8):
            hand.play(hand.legal_cards()[0])
        out.append(hand.to_record())
    return out


def damaged(line: int, change) -> str:
    """Three good records with record ``line`` (from 1) changed by ``change`` (a dict -> text)."""
    records = [json.dumps(r) for r in good_lines()]
    records[line - 1] = change(good_lines()[line - 1])
    return "\n".join(records[:1] + [""] + records[1:]) + "\n"  # a blank line is skipped, and counted


@pytest.mark.parametrize("line, change, problem", [
    (1, lambda r: "{not json", r"hands.jsonl line 1: not JSON"),
    (2, lambda r: "[1, 2]", r"hands.jsonl line 3: a record is a JSON object, not list"),
    (2, lambda r: json.dumps({k: v for k, v in r.items() if k != "plays"}), r"hands.jsonl line 3: missing plays"),
    (3, lambda r: json.dumps({**r, "colour": 1}), r"hands.jsonl line 4: unknown colour"),
    (3, lambda r: json.dumps({**r, "rules": {**r["rules"], "players": 13}}), r"hands.jsonl line 4: rules: .*players"),
    (1, lambda r: json.dumps({**r, "bids": [2, 18] + r["bids"][2:]}), r"hands.jsonl line 1: bid 2 \(18\) is refused"),
    (2, lambda r: json.dumps({**r, "plays": r["plays"][:3] + r["plays"][4:5] + r["plays"][3:4] + r["plays"][5:]}),
     r"hands.jsonl line 3: card 4 \(\w+\) is refused: seat \d"),
    (3, lambda r: json.dumps({**r, "deal": [r["deal"][0] + " AS AS AS"] + r["deal"][1:]}), r"hands.jsonl line 4: .*AS"),
    (3, lambda r: json.dumps({**r, "event": 5}), r"hands.jsonl line 4: event is text, not int"),
])  # fmt: skip
def test_a_damaged_or_refused_line_is_named_by_file_and_line(line, change, problem, tmp_path):
    text = damaged(line, change)
    with pytest.raises(RecordError, match=rf"^{problem}"):
        read_records(text, "hands.jsonl")
    (tmp_path / "hands.jsonl").write_text(text)
    with pytest.raises(RecordError, match=rf"^{problem}"):
        read_records_file(tmp_path / "hands.jsonl")
    with pytest.raises(ReplayError, match=problem.replace("hands.jsonl", ".*hands.jsonl")):
        replay_source(tmp_path / "hands.jsonl")


def test_replay_reads_json_lines_at_every_table(tmp_path, capsys):
    (tmp_path / "hands.jsonl").write_text("".join(json.dumps(r) + "\n" for r in good_lines()))
    recorded = replay_source(tmp_path / "hands.jsonl")
    assert [r.title for r in recorded] == [f"{tmp_path / 'hands.jsonl'}: record {k} (line {k + 1})" for k in range(3)]
    assert main(["replay", str(tmp_path / "hands.jsonl"), "--hand", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("record 2 (line 3)") and "\n".join(replay_lines(recorded[2])) + "\n" == out
    assert "The hand stops here: 8 of 102 cards played." in out
    assert main(["replay", str(tmp_path / "hands.jsonl"), "--hand", "3"]) == 2
    assert "holds records 0..2 (--hand), not 3" in capsys.readouterr().err
    one = Hand.from_record(good_lines()[0])
    assert record_line(one, "x") == json.dumps({**one.to_record(), "event": "x"})
