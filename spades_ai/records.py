"""Hand records as JSON lines: one hand a line, at every table of 3 to 12 players.

A file of hand records (``hands.jsonl``) holds one JSON object a line, each the record of one
hand as ``Hand.to_record()`` writes it (blank lines are skipped), and optionally ``"event"``,
free text naming the hand (``spades-ai replay RUN --json`` names the run, the deal and the
table there). The keys, in the order they are written:

==================  ============================================================================
``deal``            every seat's cards as dealt, seat 0 first, each a text of card names
                    (``"AS KS 7H"``); at 6 to 12 players a card held twice is named twice
``dealer``          the dealer's seat
``rules``           the ``Rules`` fields (``Rules.to_dict()``: ``players``, ``teams`` ...)
``scores``          the sides' match scores before the hand, side 0 first
``bag_count``       the sides' bag counts before the hand
``hands_played``    hands of the match before this one (optional, 0)
``passes``          under ``pass_cards`` or ``blind_pass`` only: two rounds (before the bidding,
                    the blind pass) of one entry a seat, its passed cards or ``null``
``bids``            the bids in bidding order, from the dealer's left (0 is nil)
``blind``           one flag a bid: whether it was a blind nil
``plays``           the cards in play order, by name
``event``           optional: free text
==================  ============================================================================

Seats are 0..players-1 clockwise, and side k is seat k (solo) or seats k and k + players/2 (in
pairs), as everywhere in the toolkit (``spades_ai.seats``). Reading replays every pass, bid and
card through ``Hand``: a line that is no JSON object, lacks a key, holds rules that are refused,
or a pass, bid or card the rules refuse raises ``RecordError`` naming the file, the line and the
problem (``hands.jsonl line 3: bid 2 (14) is refused: ...``); nothing is corrected.

>>> from spades_ai import Hand, Rules, deal
>>> rules = Rules(players=8)
>>> h = Hand(deal(seed=1, rules=rules), rules=rules); [h.bid(2) for _ in range(8)] and None
>>> read_records(records_text([h]))[0].to_record() == h.to_record()
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from spades_ai.capabilities import require_table
from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.game import Hand
from spades_ai.rules import Rules

#: The keys of a record line: ``Hand.to_record()``'s, then the optional ones.
KEYS = ("deal", "dealer", "rules", "scores", "bag_count", "hands_played", "passes", "bids", "blind", "plays")
OPTIONAL = ("hands_played", "passes", "event")


class RecordError(ValueError):
    """A line of a records file that cannot be read: the file, the line and the problem."""

    def __init__(self, name: str, line: int, problem: str):
        self.name, self.line, self.problem = name, line, problem
        super().__init__(f"{name} line {line}: {problem}")


def record_line(hand: Hand, event: str | None = None) -> str:
    """The hand's record as one JSON line (no newline), with ``event`` if given."""
    require_table(hand.rules, "records")
    record = hand.to_record()
    return json.dumps(record if event is None else {**record, "event": str(event)})


def records_text(hands: Iterable[Hand], events: Sequence[str | None] | None = None) -> str:
    """Several hands as JSON lines, one a line (``events``: each hand's ``event``, or None)."""
    hands = list(hands)
    events = [None] * len(hands) if events is None else list(events)
    if len(events) != len(hands):
        raise ValueError(f"{len(hands)} hands and {len(events)} events: give one event a hand")
    return "".join(record_line(h, e) + "\n" for h, e in zip(hands, events))


def write_records(hands: Iterable[Hand], path: str | os.PathLike, events: Sequence[str | None] | None = None) -> None:
    """Write hands to a JSON lines file (``records_text``)."""
    Path(path).write_text(records_text(hands, events), encoding="utf-8")


def read_records(text: str, name: str = "the records") -> list[Hand]:
    """Every hand of a JSON lines text, each replayed through ``Hand`` (see the module
    docstring); ``name`` names the text in errors (the file's name)."""
    return [hand for _, hand, _ in read_lines(text, name)]


def read_lines(text: str, name: str = "the records") -> list[tuple[int, Hand, str | None]]:
    """``(line number, hand, event)`` of every record of a JSON lines text."""
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            record = _parse_line(raw, name, no)
            out.append((no, _replay(record, name, no), record.get("event")))
    return out


def read_records_file(path: str | os.PathLike) -> list[Hand]:
    """Every hand of a JSON lines file."""
    path = Path(path)
    return read_records(path.read_text(encoding="utf-8"), path.name)


def _parse_line(raw: str, name: str, no: int) -> dict:
    try:
        record = json.loads(raw)
    except ValueError as exc:
        raise RecordError(name, no, f"not JSON ({exc})") from None
    if not isinstance(record, dict):
        raise RecordError(name, no, f"a record is a JSON object, not {type(record).__name__}")
    if "bags" in record and "bag_count" not in record:  # written by spades_ai 0.1 (``Hand.from_record``)
        record = {("bag_count" if k == "bags" else k): v for k, v in record.items()}
    missing = [k for k in KEYS if k not in record and k not in OPTIONAL]
    unknown = [k for k in record if k not in KEYS and k not in OPTIONAL]
    if missing or unknown:
        problem = "; ".join(p for p in (f"missing {', '.join(missing)}" if missing else "",
                                        f"unknown {', '.join(unknown)}" if unknown else "") if p)  # fmt: skip
        raise RecordError(name, no, f"{problem} (a record has {', '.join(KEYS)}, and optionally event)")
    if "event" in record and not isinstance(record["event"], str):
        raise RecordError(name, no, f"event is text, not {type(record['event']).__name__}")
    return record


def _replay(record: dict, name: str, no: int) -> Hand:
    """The hand of a record, its deal checked, then every pass, bid and card one by one."""
    try:
        rules = Rules.from_dict(record["rules"]) if isinstance(record["rules"], dict) else None
    except (TypeError, ValueError) as exc:  # a RulesError names the field
        raise RecordError(name, no, f"rules: {exc}") from None
    if rules is None:
        raise RecordError(name, no, f"rules is an object of Rules fields, not {type(record['rules']).__name__}")
    require_table(rules, "records")
    bids, blind, plays = record["bids"], record["blind"], record["plays"]
    if not all(isinstance(v, list) for v in (bids, blind, plays)) or len(blind) != len(bids):
        raise RecordError(name, no, "bids, blind and plays are lists, one blind flag a bid")
    passes = record.get("passes", [[None] * rules.players] * 2)
    start = {k: v for k, v in record.items() if k != "event"} | {"bids": [], "blind": [], "plays": []}
    if "passes" in record and isinstance(passes, list) and len(passes) == 2:
        start["passes"] = [passes[0], [None] * rules.players]  # the blind pass follows the bids
    try:  # the deal, the match state and the first pass (``Hand.from_record`` checks their shape)
        hand = Hand.from_record(start)
    except IllegalPassError as exc:
        raise RecordError(name, no, f"the pass is refused: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise RecordError(name, no, str(exc)) from None
    for i, (b, bl) in enumerate(zip(bids, blind)):
        _act(name, no, f"bid {i + 1} ({b})", lambda: hand.bid(b, blind=bl))
    for seat, cards in enumerate(passes[1]):
        if cards is not None:
            _act(name, no, f"the blind pass of seat {seat}", lambda: hand.pass_cards(seat, cards))
    for i, card in enumerate(plays):
        _act(name, no, f"card {i + 1} ({card})", lambda: hand.play(card))
    return hand


def _act(name: str, no: int, what: str, action) -> None:
    """Do one action of the record, or ``RecordError`` naming it and why it is refused."""
    try:
        action()
    except (IllegalBidError, IllegalPassError, IllegalPlayError, TypeError, ValueError) as exc:
        raise RecordError(name, no, f"{what} is refused: {exc}") from None
