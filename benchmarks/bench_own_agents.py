"""Researchers' own agents: kernel agents, Python agents and the bidding benchmark, one core.

    python benchmarks/bench_own_agents.py [--repeats 5]

Prints a Markdown table for benchmarks/RESULTS.md. Every rate is a median of ``--repeats``
timed runs after a warm-up (compilation excluded); CPU time is reported beside wall time
because the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))


def rate(fn, units, repeats):
    fn()  # warm-up: compile or load
    wall, cpu = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(units / (time.perf_counter() - w))
        cpu.append(units / (time.process_time() - c))
    return statistics.median(wall), statistics.median(cpu)


def compile_seconds() -> float:
    """Seconds to compile the loop of a new set of kernel agents (engine kernels already cached):
    a fresh module, so nothing of it is in the cache."""
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "fresh_agents.py").write_text(
            (HERE / "own_agents.py").read_text().replace('"counter"', f'"counter{os.getpid()}"') + f"\n# {time.time()}\n"
        )
        code = (
            "import time, spades_ai as sa, fresh_agents as f\n"
            "sa.play_hands(['normal', 'easy'], 1, seed=1)\n"  # engine kernels: cached already
            "t = time.perf_counter(); sa.play_hands([f.COUNTER, 'normal'], 1, seed=1); print(time.perf_counter() - t)"
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([tmp, str(HERE.parent)])}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:  # and no new loop compiled: the compile measure is left out
        args.repeats, args.hands = 1, 1000
    import own_agents as ua

    import spades_ai as sa
    from spades_ai.analysis.bidding import bidding_records

    n, r = args.hands, args.repeats
    rows = []
    normal = rate(lambda: sa.play_hands(["normal"] * 4, n, seed=1), n, r)
    rows.append(("built-in Normal self-play", "hands/s", normal))
    user = rate(lambda: sa.play_hands([ua.NORMAL_AS_USER] * 4, n, seed=1), n, r)
    rows.append(("Normal (written against spades_ai.kernels) as a user's kernel agent, self-play", "hands/s", user))
    counter = rate(lambda: sa.play_hands([ua.COUNTER] * 4, n, seed=1), n, r)
    rows.append(("a kernel agent written against spades_ai.kernels (counter), self-play", "hands/s", counter))
    k = n // 20
    low = ua.Lowest()
    py = rate(lambda: (sa.play_hands([low, "normal"], k, seed=2), sa.play_hands(["normal", low], k, seed=2)), k, r)
    rows.append(("trivial Python agent vs Normal, both tables", "duplicate deals/s", py))
    with tempfile.TemporaryDirectory() as tmp:
        runs = iter(range(10_000))

        def tournament():  # a new folder each time: nothing to resume
            sa.run_tournament(["own_agents:LOWEST", "normal"], deals=k, seed=2, out=Path(tmp, str(next(runs))), n_jobs=1, progress=False)

        tour = rate(tournament, k, r)
    rows.append(("the same through run_tournament (n_jobs=1, Parquet written)", "duplicate deals/s", tour))
    d = n // 10
    bb = rate(lambda: bidding_records({"normal": "normal", "easy": "easy"}, deals=d, seed=3, chunk=d), 2 * d, r)
    rows.append(("bidding benchmark, built-in bidders (2 bidders)", "deals/s per bidder", bb))
    dk = n // 50
    bp = rate(lambda: bidding_records({"fn": ua.lowest_bidder}, deals=dk, seed=3, chunk=dk), dk, r)
    rows.append(("bidding benchmark, a Python function bidder", "deals/s", bp))
    secs = None if args.smoke else compile_seconds()

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; medians of {r} runs\n")
    print("| measure | unit | wall | CPU time |\n|---|---|---|---|")
    for what, unit, (w, c) in rows:
        print(f"| {what} | {unit} | {w:,.0f} | {c:,.0f} |")
    print(f"| ratio user kernel Normal / built-in Normal (time) | | {normal[0] / user[0]:.2f} | {normal[1] / user[1]:.2f} |")
    print(f"| compiling the loop of a new set of kernel agents | s | {'-' if secs is None else f'{secs:.1f}'} | |")


if __name__ == "__main__":
    main()
