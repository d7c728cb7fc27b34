"""First run: ``spades-ai`` (Normal vs Easy, 2,000 duplicate deals, its summary) on an empty
numba cache, as on a fresh install.

    python benchmarks/bench_first_run.py [--repeats 3] [--baseline /path/to/other/checkout]
                                         [--command "play --level easy --seed 1"]

Each run gets a new, empty ``SPADES_AI_CACHE_DIR``, so every kernel compiles. Reported per
run: the wall-clock time to the summary, the CPU time of the process (user + system, steadier
than the wall clock on a shared machine), the compile time the command itself printed, and the
load average when the run started. With ``--baseline``, runs of that checkout (its package on
``PYTHONPATH``) alternate with runs of this one, so that both see the same machine.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def first_run(checkout: Path, args: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="spades-ai-cold-") as cache, tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "SPADES_AI_CACHE_DIR": cache, "PYTHONPATH": str(checkout), "TMPDIR": cwd}
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "spades_ai", *args], env=env, cwd=cwd, capture_output=True, text=True,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{checkout}: spades-ai {' '.join(args)} failed:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    compiled = re.search(r"compiled in (\d+) s", proc.stderr)
    return {"wall": wall, "cpu": cpu, "compile": int(compiled[1]) if compiled else None, "load": load}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline", type=Path, help="another checkout to compare with (its package dir's parent)")
    ap.add_argument("--command", default="", help="spades-ai arguments (default: none, the default run)")
    args = ap.parse_args()
    command = shlex.split(args.command)
    checkouts = [("this", HERE)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    runs: dict[str, list[dict]] = {name: [] for name, _ in checkouts}
    for r in range(args.repeats):
        for name, path in checkouts if r % 2 == 0 else checkouts[::-1]:
            res = first_run(path, command)
            runs[name].append(res)
            print(
                f"{name:8s} run {r + 1}: {res['wall']:6.1f} s wall, {res['cpu']:6.1f} s CPU, "
                f"compile (printed) {res['compile'] if res['compile'] is not None else '-'} s, load {res['load']:.2f}",
                flush=True,
            )
    print()
    print("| checkout | first run, wall clock (median [range]) | CPU time, user + system (median [range]) | runs |")
    print("|---|---|---|---|")
    for name, _ in checkouts:
        w = [x["wall"] for x in runs[name]]
        c = [x["cpu"] for x in runs[name]]
        print(
            f"| {name} | {statistics.median(w):.1f} s [{min(w):.1f}-{max(w):.1f}] | "
            f"{statistics.median(c):.1f} s [{min(c):.1f}-{max(c):.1f}] | {len(w)} |"
        )


if __name__ == "__main__":
    main()
