"""A protocol bot for the tests (docs/PROTOCOL.md): the first legal bid and card, the first cards
of its hand to pass; ``MODE N`` misbehaves at its N-th decision request (1 = the first):

    ok        never
    garbage   answers a line that is not JSON
    illegal   answers a card (or bid) that is not legal
    slow      sleeps 30 s before answering
    die       exits with code 3
    protocol  says hello with protocol 2 (N is ignored)
    default   accepts the default rules only (N is ignored)

Each start appends the bot's pid to the file named by ``$BOT_STARTS`` (if set).
"""

import json
import os
import sys
import time


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if os.environ.get("BOT_STARTS"):
        with open(os.environ["BOT_STARTS"], "a") as f:
            f.write(f"{os.getpid()}\n")
    seen = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "hello":
            answer = {"type": "hello", "name": f"first_legal_{mode}", "protocol": 2 if mode == "protocol" else 1,
                      "rules": "default" if mode == "default" else "any"}
        else:
            seen += 1
            kind = request["type"]
            action = {"bid": lambda: request["legal"][0], "play": lambda: request["legal"][0],
                      "pass": lambda: request["hand"][: request["count"]], "blind_nil": lambda: False}[kind]()
            if seen == at and mode == "garbage":
                sys.stdout.write("this is not JSON\n")
                sys.stdout.flush()
                continue
            if seen == at and mode == "illegal":
                action = 14 if kind == "bid" else "XX"
            if seen == at and mode == "slow":
                time.sleep(30)
            if seen == at and mode == "die":
                sys.exit(3)
            answer = {"id": request["id"], "action": action}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":  # imported by pytest for doctests: run only as a program
    main()
