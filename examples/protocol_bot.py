#!/usr/bin/env python3
"""A simple, legal Spades bot that speaks spades_ai's JSON-lines protocol (docs/PROTOCOL.md).

The reference client: standard library only, one JSON object a line on stdin and stdout.

    spades-ai tournament --agents "cmd:python examples/protocol_bot.py,normal"

It plays at every table (3 to 12 players, solo or in pairs: protocol 2). It bids its aces and
kings and its spades beyond three (at least the smallest legal bid), never bids nil, and plays:
lead its lowest card; follow with its lowest card that beats the trick, or else its lowest card.
Cards are named rank then suit ("AS", "TH", "2C"); with two or three decks a hand names a card
it holds twice twice, and of two identical cards on a trick the rules' ``equal_cards`` says
which is ahead.
"""

import json
import os
import sys

RANKS = "23456789TJQKA"
#: The hello's rules (``equal_cards`` is read from them).
RULES = {}


def rank(card: str) -> int:
    return RANKS.index(card[0]) if card[0] in RANKS else len(RANKS)  # jokers and high deuces: above the ace


def beats(card: str, best: str, led: str) -> bool:
    """Whether ``card`` beats ``best`` in a trick led in suit ``led`` (spades trump); a copy of
    ``best`` beats it only where the later of two identical cards wins."""
    if card == best:
        return RULES.get("equal_cards") == "last"
    if card[1] == best[1]:
        return rank(card) > rank(best)
    return card[1] == "S" or (best[1] != "S" and card[1] == led and best[1] != led)


def bid(request: dict) -> int:
    hand = request["hand"]
    honours = sum(1 for c in hand if c[0] in "AK" and c[1] != "S")
    spades = sum(1 for c in hand if c[1] == "S")
    want = honours + max(0, spades - 3) + (1 if "AS" in hand else 0)
    numbers = [b for b in request["legal"] if b > 0] or request["legal"]
    return min(numbers, key=lambda b: (abs(b - want), b))


def play(request: dict) -> str:
    legal = sorted(request["legal"], key=rank)
    trick = request["trick"]
    if not trick:
        non_spades = [c for c in legal if c[1] != "S"]
        return (non_spades or legal)[0]
    led = trick[0][1][1]
    best = trick[0][1]
    for _, card in trick[1:]:
        if beats(card, best, led):
            best = card
    winners = [c for c in legal if beats(c, best, led)]
    return (winners or legal)[0]


def answer(request: dict) -> dict:
    kind = request["type"]
    if kind == "hello":
        RULES.update(request["rules"])
        return {"type": "hello", "name": "protocol_bot", "protocol": 2, "rules": "any"}
    if kind == "bid":
        action = bid(request)
    elif kind == "play":
        action = play(request)
    elif kind == "pass":
        action = sorted(request["hand"], key=rank, reverse=True)[: request["count"]]
    elif kind == "blind_nil":
        action = False
    else:
        raise ValueError(f"unknown request type {kind!r}")
    return {"id": request["id"], "action": action}


def main() -> None:
    """Read what has arrived, answer every whole line of it, write the answers at once: spades_ai
    sends many requests before reading (docs/PROTOCOL.md), so one read and one write serve a
    whole batch instead of a system call each way per decision."""
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    pending = b""
    while True:
        chunk = os.read(stdin, 1 << 16)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        out = "".join(json.dumps(answer(json.loads(line))) + "\n" for line in lines if line.strip()).encode()
        while out:
            out = out[os.write(stdout, out):]


if __name__ == "__main__":
    main()
