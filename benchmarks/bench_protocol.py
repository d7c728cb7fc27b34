"""Bots as programs (issue 23, item 2): a protocol bot in Python against Normal, 1,000 duplicate
deals, and the same bot's logic called in-process, so the pipe's cost shows as a ratio.

    python benchmarks/bench_protocol.py [--deals 1000] [--jobs 2] [--repeats 3]

Three runs of the tournament ``cmd:python examples/protocol_bot.py`` against ``normal`` (one
bot process per worker, kept for every chunk), each timed after a warm-up (compilation and
the workers' start excluded, as ``spades-ai tournament`` reports its rate), with the CPU time
of every process (this one, the workers, their bots: on a shared machine the rate on idle
cores is deals x jobs / CPU seconds), and the same deals with ``InProcess``: a Python agent that builds the very same request and calls the
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


def tree_cpu() -> float:
    """CPU seconds used so far by this process and every process under it (the workers and
    their bots), from /proc: the machine is shared, so CPU time says what wall time cannot."""
    stats = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        stats[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    mine, todo = set(), [os.getpid()]
    while todo:
        pid = todo.pop()
        mine.add(pid)
        todo += [p for p, (ppid, _) in stats.items() if ppid == pid and p not in mine]
    return sum(stats[p][1] for p in mine if p in stats) / os.sysconf("SC_CLK_TCK")


def per_second(count: float, seconds: float, fmt: str = ",.0f") -> str:
    """``count / seconds`` formatted, or "below the clock" when ``seconds`` is under the CPU
    clock's tick (a smoke run can use none that /proc can see)."""
    return format(count / seconds, fmt) if seconds > 0 else "below the clock"


def timed(agents, deals: int, jobs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every process) of one tournament run into a fresh
    folder, the workers and their bots already started."""
    with tempfile.TemporaryDirectory() as out:
        began, cpu = time.perf_counter(), tree_cpu()
        sa.run_tournament(agents, deals=deals, seed=23, n_jobs=jobs, progress=False, out=out)
        return time.perf_counter() - began, tree_cpu() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.deals, args.jobs, args.repeats = 4, 1, 1
    program = [f"cmd:{sys.executable} {EXAMPLE}", "normal"]
    twin = parse_agents(["bench_protocol:AGENT", "normal"], base=HERE)  # found beside this file, in every worker
    rows = {}
    with joblib.parallel_config(backend="loky"):
        for name, agents in (("program (pipe)", program), ("in-process twin", twin)):
            timed(agents, 2 * args.jobs * 10, args.jobs)  # warm-up: compile, start the workers and their bots
            runs = [timed(agents, args.deals, args.jobs) for _ in range(args.repeats)]
            rows[name] = (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
    load = os.getloadavg()
    print(f"{args.deals:,} duplicate deals against Normal (2 tables each), {args.jobs} jobs, median of {args.repeats}; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores\n")
    print(f"| bot | wall seconds | duplicate deals/s | CPU seconds, all processes | deals/s on {args.jobs} idle cores "
          "(from the CPU time) |\n|---|---|---|---|---|")
    for name, (wall, cpu) in rows.items():
        print(f"| {name} | {wall:.2f} | {per_second(args.deals, wall)} | {cpu:.2f} | {per_second(args.deals * args.jobs, cpu)} |")
    (pipe_wall, pipe_cpu), (twin_wall, twin_cpu) = rows["program (pipe)"], rows["in-process twin"]
    print(f"\nthe pipe's cost: program / in-process = {per_second(pipe_wall, twin_wall, '.2f')}x "
          f"the wall time, {per_second(pipe_cpu, twin_cpu, '.2f')}x the CPU time")


if __name__ == "__main__":
    main()
