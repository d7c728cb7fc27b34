"""Every benchmark of ``benchmarks/`` runs: each at its ``--smoke`` size (seconds of work) in a
process of its own, as a user starts it (``python benchmarks/bench_x.py``)."""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))

#: Arguments before ``--smoke`` for a benchmark with subcommands.
SUBCOMMAND = {"bench_web": ["latency"]}


def test_every_benchmark_runs_at_smoke_size():
    assert len(BENCHMARKS) > 15
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    failed, took = [], {}
    for path in BENCHMARKS:
        began = time.perf_counter()
        proc = subprocess.run([sys.executable, str(path), *SUBCOMMAND.get(path.stem, []), "--smoke"], cwd=ROOT, env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)  # fmt: skip
        took[path.stem] = time.perf_counter() - began
        if proc.returncode != 0 or not proc.stdout.strip():
            failed.append(f"{path.name} (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    print("seconds per benchmark:", {k: round(v, 1) for k, v in took.items()})
    assert not failed, "\n\n".join(failed)
