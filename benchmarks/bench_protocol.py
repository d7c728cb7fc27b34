"""Bots as programs (issue 23, item 2): a protocol bot in Python against Normal, 1,000 duplicate
deals, and the same bot's logic called in-process, so the pipe's cost shows as a ratio.

    python benchmarks/bench_protocol.py [--deals 1000] [--jobs 2] [--repeats 3]

Three runs of the tournament ``cmd:python examples/protocol_bot.py`` against ``normal`` (one
bot process per worker, kept for every chunk), each timed after a warm-up (compilation and
the workers' start excluded, as ``spades-ai tournament`` reports its rate), and the same
deals with ``InProcess``: a Python agent that builds the very same request and calls the
example's ``answer`` function without a pipe. Prints a Markdown table for benchmarks/RESULTS.md:
the medians, the ratio, and the machine's load.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import joblib

import spades_ai as sa
from spades_ai.agents.program import observation_json
from spades_ai.agents.spec import parse_agents

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "protocol_bot.py"


def _example():
    spec = importlib.util.spec_from_file_location("protocol_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcess:
    """The example bot's decisions with no process between: the same JSON request, answered by
    the same function, parsed back as the program agent parses it."""

    name = "protocol_bot (in-process)"

    def __init__(self):
        self.bot = _example()

    def _ask(self, obs, kind):
        return self.bot.answer({"type": kind, "id": 0, **observation_json(obs, kind)})["action"]

    def bid(self, obs):
        return self._ask(obs, "bid")

    def play(self, obs):
        legal = obs.legal_cards()
        return legal[[str(c) for c in legal].index(self._ask(obs, "play"))]


#: ``benchmarks/bench_protocol.py:AGENT`` is the in-process twin, by module:attribute.
AGENT = InProcess()


def timed(agents, deals: int, jobs: int) -> float:
    """Seconds of one tournament run (into a fresh folder), the workers already started."""
    with tempfile.TemporaryDirectory() as out:
        began = time.perf_counter()
        sa.run_tournament(agents, deals=deals, seed=23, n_jobs=jobs, progress=False, out=out)
        return time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    program = [f"cmd:{sys.executable} {EXAMPLE}", "normal"]
    twin = parse_agents(["bench_protocol:AGENT", "normal"], base=HERE)  # found beside this file, in every worker
    rows = {}
    with joblib.parallel_config(backend="loky"):
        for name, agents in (("program (pipe)", program), ("in-process twin", twin)):
            timed(agents, 2 * args.jobs * 10, args.jobs)  # warm-up: compile, start the workers and their bots
            rows[name] = statistics.median(timed(agents, args.deals, args.jobs) for _ in range(args.repeats))
    load = os.getloadavg()
    print(f"{args.deals:,} duplicate deals against Normal (2 tables each), {args.jobs} jobs, median of {args.repeats}; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores\n")
    print("| bot | seconds | duplicate deals/s |\n|---|---|---|")
    for name, seconds in rows.items():
        print(f"| {name} | {seconds:.2f} | {args.deals / seconds:,.0f} |")
    print(f"\nthe pipe's cost: program / in-process = {rows['program (pipe)'] / rows['in-process twin']:.2f}x the time")


if __name__ == "__main__":
    main()
