"""First run: ``spades-ai`` (Normal vs Easy, 2,000 duplicate deals, its summary) on an empty
numba cache, as on a fresh install.

    python benchmarks/bench_first_run.py [--repeats 3] [--baseline /path/to/other/checkout]
                                         [--command "play --level easy --seed 1" | --hard]
                                         [--env NAME=VALUE ...] [--baseline-env NAME=VALUE ...]

``--hard`` times the first Hard run instead: ``spades-ai tournament --agents hard,normal
--deals 1`` (one duplicate deal, the smallest run that plays Hard).

Each run gets a new, empty ``SPADES_AI_CACHE_DIR``, so every kernel compiles. Reported per
run: the wall-clock time to the summary, the CPU time (user + system, steadier than the wall
clock on a shared machine) of the ``spades-ai`` process itself and of the processes it started
(the child that compiles ahead, ``agents/compile_ahead.py``), the compile time the command
itself printed, how many kernels the process compiled (numba's compile events, nested ones
included: fewer is less to optimise and emit), and the load average when the run started. With ``--baseline``, runs of that
checkout (its package on ``PYTHONPATH``) alternate with runs of this one, so that both see the
same machine; ``--baseline .`` with ``--baseline-env SPADES_AI_COMPILE_AHEAD=0`` compares this
checkout with and without the second process.

On an idle machine the process's own CPU time is about its wall clock, the child running on
the other core; on a busy one the wall clock says little, and the two processes share the
same cores.
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


#: ``python -m spades_ai`` that prints, as it exits, its own CPU time, its children's and how
#: many kernels it compiled.
LAUNCH = """
import resource, runpy, sys
from numba.core import event
compiled = []
class Count(event.Listener):
    def on_start(self, e):
        compiled.append(1)
    def on_end(self, e):
        pass
event.register("numba:compile", Count())
def cpu(who):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime
try:
    sys.argv[0] = "spades-ai"
    runpy.run_module("spades_ai", run_name="__main__", alter_sys=True)
finally:
    print(f"bench-cpu {cpu(resource.RUSAGE_SELF):.3f} {cpu(resource.RUSAGE_CHILDREN):.3f} {len(compiled)}", file=sys.stderr)
"""

#: ``--hard``: the first Hard run.
HARD = "tournament --agents hard,normal --deals 1 --out runs/hard"


def printed_compile_seconds(stderr: str) -> float | None:
    """The compile time the command printed (``cli.duration_text``: ``"12.3 s"``, ``"1,234.5 s"``),
    or None where it compiled nothing."""
    found = re.search(r"compiled in ([\d,]+(?:\.\d+)?) s", stderr)
    return float(found[1].replace(",", "")) if found else None


def first_run(checkout: Path, args: list[str], extra_env: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="spades-ai-cold-") as cache, tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "SPADES_AI_CACHE_DIR": cache, "PYTHONPATH": str(checkout), "TMPDIR": cwd, **extra_env}
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", LAUNCH, *args], env=env, cwd=cwd, capture_output=True, text=True,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{checkout}: spades-ai {' '.join(args)} failed:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    own = re.search(r"bench-cpu ([\d.]+) ([\d.]+) (\d+)", proc.stderr)
    return {
        "wall": wall, "cpu": cpu, "own": float(own[1]), "children": float(own[2]), "kernels": int(own[3]),
        "compile": printed_compile_seconds(proc.stderr), "load": load,
    }  # fmt: skip


def _env(pairs: list[str]) -> dict:
    try:
        return dict(p.split("=", 1) for p in pairs)
    except ValueError:
        raise SystemExit(f"--env takes NAME=VALUE, not {pairs!r}") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline", type=Path, help="another checkout to compare with (its package dir's parent)")
    ap.add_argument("--command", default="", help="spades-ai arguments (default: none, the default run)")
    ap.add_argument("--hard", action="store_true", help=f"the first Hard run: --command {HARD!r}")
    ap.add_argument("--env", nargs="*", default=[], help="NAME=VALUE set for this checkout's runs")
    ap.add_argument("--baseline-env", nargs="*", default=[], help="NAME=VALUE set for the baseline's runs")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.hard and args.command:
        raise SystemExit("--hard is a --command of its own: give one of them")
    if args.smoke:  # once, on an empty cache, a command that compiles nothing
        args.repeats, args.command, args.hard, args.baseline = 1, "--help", False, None
    command = shlex.split(HARD if args.hard else args.command)
    checkouts = [("this", HERE, _env(args.env))]
    if args.baseline:
        checkouts.append(("baseline", args.baseline.resolve(), _env(args.baseline_env)))
    runs: dict[str, list[dict]] = {name: [] for name, _, _ in checkouts}
    for r in range(args.repeats):
        for name, path, env in checkouts if r % 2 == 0 else checkouts[::-1]:
            res = first_run(path, command, env)
            runs[name].append(res)
            print(
                f"{name:8s} run {r + 1}: {res['wall']:6.1f} s wall, {res['cpu']:6.1f} s CPU "
                f"({res['own']:.1f} s its own, {res['children']:.1f} s its children's), "
                f"compile (printed) {res['compile'] if res['compile'] is not None else '-'} s, "
                f"{res['kernels']} kernels compiled, load {res['load']:.2f}",
                flush=True,
            )
    print()
    print(
        "| checkout | first run, wall clock (median [range]) | CPU time, user + system (median [range]) "
        "| the process's own CPU time (median [range]) | kernels compiled | load average | runs |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, _, _ in checkouts:
        w, c, o, n, lo = ([x[k] for x in runs[name]] for k in ("wall", "cpu", "own", "kernels", "load"))
        print(
            f"| {name} | {statistics.median(w):.1f} s [{min(w):.1f}-{max(w):.1f}] | "
            f"{statistics.median(c):.1f} s [{min(c):.1f}-{max(c):.1f}] | "
            f"{statistics.median(o):.1f} s [{min(o):.1f}-{max(o):.1f}] | {statistics.median(n):.0f} | "
            f"{min(lo):.1f}-{max(lo):.1f} | {len(w)} |"
        )


if __name__ == "__main__":
    main()
