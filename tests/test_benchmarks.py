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


def test_hards_decision_times_at_other_tables_run_at_smoke_size():
    """``bench_agents.py --hard-players``: Hard timed at 4 players in pairs, then 3 and 5 solo."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_agents.py"), "--hard-players", "3,5", "--smoke"],
                          cwd=ROOT, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and " players " in line]
    assert [r.split(" | ")[0] for r in rows] == ["| 4 players pairs", "| 3 players solo", "| 5 players solo"]
    assert rows[0].endswith("| 1.00 |")
