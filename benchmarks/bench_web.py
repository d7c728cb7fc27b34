"""Issue 24: the browser table's speed, against a real ``spades-ai serve`` in its own process.

``latency``: plays matches as the page does (your bid or card, then at once one agent's move)
and times, for every one of your bids and cards, the wait from sending it to the next agent's
move being back: the target is 100 ms at Normal, and at Hard the agent's decision time plus 100 ms. The
server says how long each step took (``step_ms``: the agent's decision and its bookkeeping), so
the overhead (the wait less the step) is measured in the same requests.

``load``: N clients at once, each playing a whole match (first legal choices, the agents
stepped as the page does, no pause); every request must succeed, and each save file must hold
every action made, yours and the agents' (the sum of the bids, passes and cards of its hands).

    python benchmarks/bench_web.py latency --level normal --matches 2
    python benchmarks/bench_web.py latency --level hard --matches 1
    python benchmarks/bench_web.py load --clients 50 --level easy --target 250
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from spades_ai.table.game import PARTNER_LEVEL
from spades_ai.web.client import TableClient, first_choice, play_match
from spades_ai.web.view import BrowserMatch


@contextmanager
def serve(folder: Path, level: str):
    """``spades-ai serve`` in a process of its own on a free port; its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "spades_ai", "serve", "--port", "0", "--dir", str(folder),
                             "--level", level], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in proc.stdout:
            if "the table is at " in line:
                url = line.split("the table is at ")[1].split(";")[0].split(" ")[0]
                break
        else:
            raise RuntimeError(f"spades-ai serve ended: exit {proc.wait()}")
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep its pipe drained
        TableClient(url).wait_until_warm()  # it answers at once and compiles in the background
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def pct(values, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def latency(args) -> None:
    levels = {1: args.level, 2: PARTNER_LEVEL[args.level], 3: args.level}
    waits: dict[str, list[float]] = {}
    steps: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder), args.level) as url:
        client = TableClient(url)
        for _ in range(args.matches):
            state = client.new_match(args.level, {"target_score": args.target})
            while not state["over"]:
                hand = state["hand"]
                if not hand["your_turn"]:
                    state = client.step(state["id"])
                    continue
                phase = "card" if hand["phase"] == "playing" else "bid" if hand["phase"] == "bidding" else "pass"
                began = time.perf_counter()
                state = client.act(state["id"], first_choice(hand))
                if state["over"] or state["hand"]["your_turn"]:
                    continue
                seat = state["hand"]["to_act"]
                state = client.step(state["id"])
                wait = 1000 * (time.perf_counter() - began)
                waits.setdefault((levels[seat], phase), []).append(wait)
                steps.setdefault((levels[seat], phase), []).append(state["step_ms"])
    print(f"latency: {args.matches} match(es) to {args.target}, opponents {args.level}; load: {os.getloadavg()}")
    print("agent, after your  n      wait median  p95   max   | step median  p95   max  | overhead (wait-step) median  p95")
    for (level, phase) in sorted(waits):
        w, s = waits[level, phase], steps[level, phase]
        over = [a - b for a, b in zip(w, s)]
        print(f"{level:7} {phase:5}  {len(w):5}  {statistics.median(w):8.1f} {pct(w, .95):6.1f} {max(w):6.1f}   |"
              f" {statistics.median(s):8.1f} {pct(s, .95):6.1f} {max(s):6.1f} | {statistics.median(over):8.1f} {pct(over, .95):6.1f}  ms")


def actions_in(path: Path) -> int:
    """Every pass, bid and card in a saved match."""
    match = BrowserMatch.load(path)
    hands = match.hands + ([match.hand] if match.hand is not None else [])
    return sum(len(h.plays) + sum(b is not None for b in h.bids) + sum(p is not None for rnd in h.passes for p in rnd)
               for h in hands)


def load(args) -> None:
    errors: list[str] = []
    results = []
    times: list[float] = []
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder), args.level) as url:
        start = threading.Barrier(args.clients)

        def one(k: int) -> None:
            client = TableClient(url, timeout=300)
            try:
                start.wait()
                state = client.new_match(args.level, {"target_score": args.target})
                began = time.perf_counter()
                played = play_match(client, state)
                with lock:
                    times.append(time.perf_counter() - began)
                    results.append((state["id"], played))
            except Exception as exc:  # noqa: BLE001 -- every failure is counted and printed
                with lock:
                    errors.append(f"client {k}: {type(exc).__name__}: {exc}")

        began = time.perf_counter()
        threads = [threading.Thread(target=one, args=(k,)) for k in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - began
        lost = []
        for match_id, played in results:
            saved = actions_in(Path(folder) / f"{match_id}.jsonl")
            if saved != played.actions + played.steps:
                lost.append(f"{match_id}: {played.actions + played.steps} actions made, {saved} saved")
    requests = sum(p.actions + p.steps for _, p in results) + len(results)
    hands = sum(p.state["stats"]["hands"] for _, p in results)
    print(f"load: {args.clients} clients at once, each a whole match to {args.target} (opponents {args.level}); "
          f"load average after: {os.getloadavg()}")
    print(f"  matches finished {len(results)}/{args.clients}, hands {hands}, requests {requests}, errors {len(errors)}, "
          f"saved actions lost {len(lost)}")
    print(f"  wall {wall:.1f} s, {requests / wall:.0f} requests/s; a match's time: median {statistics.median(times):.1f} s,"
          f" max {max(times):.1f} s")
    for line in (errors + lost)[:10]:
        print("  " + line)
    if errors or lost:
        sys.exit(1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    la = sub.add_parser("latency")
    la.add_argument("--level", default="normal")
    la.add_argument("--matches", type=int, default=2)
    la.add_argument("--target", type=int, default=250)
    lo = sub.add_parser("load")
    lo.add_argument("--clients", type=int, default=50)
    lo.add_argument("--level", default="easy")
    lo.add_argument("--target", type=int, default=250)
    for sp in (la, lo):
        sp.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = p.parse_args()
    if args.smoke:  # one short match at Easy (latency), two clients (load)
        args.level, args.target, args.matches, args.clients = "easy", 50, 1, 2
    latency(args) if args.what == "latency" else load(args)


if __name__ == "__main__":
    main()
