"""Every benchmark of ``benchmarks/`` runs: each at its ``--smoke`` size (seconds of work) in a
process of its own, as a user starts it (``python benchmarks/bench_x.py``)."""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))

#: Arguments before ``--smoke`` for a benchmark with subcommands.
SUBCOMMAND = {"bench_web": ["latency"]}


def _env(**extra):
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **extra}


def test_the_benchmarks_are_found():
    assert len(BENCHMARKS) > 15


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.stem)
def test_the_benchmark_runs_at_smoke_size(path):
    """One test a script, so that the scripts spread over the workers (``tests/conftest.py``)."""
    proc = subprocess.run([sys.executable, str(path), *SUBCOMMAND.get(path.stem, []), "--smoke"], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, f"{path.name} (exit {proc.returncode}):\n{proc.stderr[-2000:]}"
    assert proc.stdout.strip(), f"{path.name} printed nothing"


def test_hards_decision_times_at_other_tables_run_at_smoke_size():
    """``bench_agents.py --hard-players``: Hard timed at 4 players in pairs, then 3 and 5 solo."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_agents.py"), "--hard-players", "3,5", "--smoke"],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and " players " in line]
    assert [r.split(" | ")[0] for r in rows] == ["| 4 players pairs", "| 3 players solo", "| 5 players solo"]
    assert rows[0].endswith("| 1.00 |")


def test_the_limit_benchmark_runs_beside_the_c_program():
    """``bench_limit.py``: the C program built and timed beside our playouts, where it can be."""
    folder = Path(os.environ.get("SPADES_LIMIT_DIR") or ROOT.parent / "shared" / "limit")
    if not (folder / "spades_limit.c").is_file():
        pytest.skip(f"no C program to compare with: {folder / 'spades_limit.c'} is absent")
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler: gcc is not on PATH")
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_limit.py"), "--smoke"], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "| tight C (`spades_limit.c`, `random_hand`) |" in proc.stdout
    assert "| spades_ai / C |" in proc.stdout


def test_the_limit_benchmark_says_plainly_when_the_c_program_is_absent(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_limit.py")], cwd=ROOT,
                          env=_env(SPADES_LIMIT_DIR=str(tmp_path / "nowhere")), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "nowhere/spades_limit.c is absent" in proc.stdout and "nothing measured" in proc.stdout


def test_the_first_run_benchmark_reads_the_printed_compile_time():
    """``cli.duration_text`` prints tenths and thousands separators (``"1,234.5 s"``)."""
    spec = importlib.util.spec_from_file_location("bench_first_run", ROOT / "benchmarks" / "bench_first_run.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.printed_compile_seconds("spades-ai: compiled in 12.3 s, cached in /c") == 12.3
    assert bench.printed_compile_seconds("spades-ai: compiled in 1,234.5 s, cached in /c") == 1234.5
    assert bench.printed_compile_seconds("nothing compiled") is None
