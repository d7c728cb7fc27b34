"""A protocol bot for the tests (docs/PROTOCOL.md, protocol 2: it plays every table): the first
legal bid and card, the first cards of its hand to pass; ``MODE N`` misbehaves at its N-th
decision request (1 = the first):

    ok            never
    garbage       answers a line that is not JSON
    deep          answers a JSON array nested 100,000 deep
    long          answers a JSON object on a line of 10 MB
    latin1        answers a line that is not UTF-8
    illegal       answers a card (or bid) that is not legal
    huge          answers the illegal card "XXX..." of 100,000 letters
    slow          sleeps 30 s before answering
    die           exits with code 3
    die_buffered  holds its answers in its output buffer; at N closes its input, then exits with
                  code 3 (writing them)
    close_stdout  closes its standard output and sleeps 1000 s
    close_stdin   closes its standard input and sleeps 1000 s
    spawn         plays as ok, having started a child process (``sleep 1000``) at its start
    stubborn      plays as ok, ignores SIGTERM, and sleeps 1000 s at the end of its input
    protocol      says hello with protocol N (a JSON value; 3 if not given), then plays as ok
                  (``protocol 1``: a bot of the 4-player protocol)
    default       accepts the default rules only (N is ignored)
    accepts       answers the hello with the rules N (a JSON value), then plays as ok
    mute          never answers the hello (sleeps 1000 s)

Each start appends the bot's pid (then, under ``spawn``, its child's) to the file named by
``$BOT_STARTS`` (if set); each request is appended, as it came, to the file named by
``$BOT_REQUESTS`` (if set).
"""

import json
import os
import signal
import subprocess
import sys
import time

#: What a misbehaving bot writes instead of its answer, by mode.
LINES = {
    "garbage": b"this is not JSON\n",
    "deep": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "long": b'{"action": "' + b"x" * 10_000_000 + b'"}\n',
    "latin1": '{"action": "\u00e9"}\n'.encode("latin-1"),
}


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    arg = sys.argv[2] if len(sys.argv) > 2 else None
    at = int(arg or 1) if mode not in ("protocol", "accepts") else 0
    pids = [os.getpid()]
    if mode == "spawn":
        pids.append(subprocess.Popen(["sleep", "1000"]).pid)
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.environ.get("BOT_STARTS"):
        with open(os.environ["BOT_STARTS"], "a") as f:
            f.write("".join(f"{pid}\n" for pid in pids))
    if mode == "mute":
        time.sleep(1000)
    log = open(os.environ["BOT_REQUESTS"], "a") if os.environ.get("BOT_REQUESTS") else None
    seen = 0
    for line in sys.stdin:
        request = json.loads(line)
        if log is not None:
            log.write(line)
            log.flush()
        if request["type"] == "hello":
            rules = {"default": "default", "accepts": json.loads(arg or '"any"')}.get(mode, "any")
            answer = {"type": "hello", "name": f"first_legal_{mode}",
                      "protocol": json.loads(arg or "3") if mode == "protocol" else 2, "rules": rules}
        else:
            seen += 1
            kind = request["type"]
            action = {"bid": lambda: request["legal"][0], "play": lambda: request["legal"][0],
                      "pass": lambda: request["hand"][: request["count"]], "blind_nil": lambda: False}[kind]()
            if seen == at and mode in LINES:
                sys.stdout.buffer.write(LINES[mode])
                sys.stdout.flush()
                continue
            if seen == at and mode in ("close_stdout", "close_stdin"):
                os.close(1 if mode == "close_stdout" else 0)
                time.sleep(1000)
            if seen == at and mode == "illegal":
                action = 14 if kind == "bid" else "XX"
            if seen == at and mode == "huge":
                action = "X" * 100_000
            if seen == at and mode == "slow":
                time.sleep(30)
            if seen == at and mode == "die_buffered":
                os.close(0)
            if seen == at and mode in ("die", "die_buffered"):
                sys.exit(3)
            answer = {"id": request["id"], "action": action}
        sys.stdout.write(json.dumps(answer) + "\n")
        if mode != "die_buffered" or request["type"] == "hello":
            sys.stdout.flush()
    if mode == "stubborn":
        time.sleep(1000)


if __name__ == "__main__":  # imported by pytest for doctests: run only as a program
    main()
