"""What binding another rollout policy compiles: Hard with ``rollout="easy"`` after the default
Hard is compiled, on an empty kernel cache, in a fresh process, for this tree and another
checkout (its package dir's parent), alternating.

    python benchmarks/bench_bind_compile.py --baseline /path/to/other/checkout [--repeats 2]

Reported per run, in CPU seconds of the process: the default Hard against Normal (one deal,
every kernel compiled), then Hard bound to Easy (one deal: what the binding compiles again),
then the bound Hard from the cache in a second fresh process (loading the copy).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

STEPS = """
import time, spades_ai as sa
def cpu():
    return time.process_time()
t0 = cpu()
if {first}:
    sa.play_hands([{default}, "normal"], 1, seed=1)
t1 = cpu()
sa.play_hands([{bound}, "normal"], 1, seed=1)
t2 = cpu()
print("steps", t1 - t0, t2 - t1)
"""


def cold_cache(smoke: bool):
    """An empty kernel cache, or with ``smoke`` this machine's warm one (nothing compiles)."""
    if smoke:
        from spades_ai.engine.jit import cache_root

        return contextlib.nullcontext(str(cache_root()))
    return tempfile.TemporaryDirectory()


#: The agents of the two steps: the default Hard, then Hard bound to Easy's rollouts.
AGENTS = ('sa.make_agent("hard", worlds=16)', 'sa.make_agent("hard", worlds=16, rollout="easy")')
#: ``--smoke``: Normal in both steps, so that the suite checks the script without compiling
#: Hard's search twice more in a subprocess (20 to 30 s of a cold suite; Hard with Easy's
#: rollouts plays in tests/test_kernel_agents.py).
SMOKE_AGENTS = ('sa.make_agent("normal")', 'sa.make_agent("normal")')


def run(checkout: Path, cache: Path, first: bool, agents: tuple[str, str]) -> tuple[float, float]:
    """CPU seconds of the steps in a fresh process: ``agents[0]`` (if ``first``), then
    ``agents[1]``, each against Normal."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "SPADES_AI_CACHE_DIR": str(cache), "SPADES_AI_COMPILE_AHEAD": "0"}
    out = subprocess.run([sys.executable, "-c", STEPS.format(first=first, default=agents[0], bound=agents[1])], env=env, capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir()).stdout
    _, a, b = out.split()[-3:]
    return float(a), float(b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    agents = SMOKE_AGENTS if args.smoke else AGENTS
    if args.smoke:
        args.repeats = 1
    elif args.baseline is None:
        ap.error("--baseline is required")
    rows = {"this": []} if args.baseline is None else {"this": [], "baseline": []}
    for r in range(args.repeats):
        order = [("this", HERE)] + ([] if args.baseline is None else [("baseline", args.baseline)])
        for label, checkout in order if r % 2 == 0 else order[::-1]:
            with cold_cache(args.smoke) as cache:
                default, bound = run(checkout, Path(cache), True, agents)
                _, cached = run(checkout, Path(cache), False, agents)
            rows[label].append((default, bound, cached))
            print(f"{label:8s} run {r + 1}: default Hard {default:6.1f} s, bound to Easy {bound:6.1f} s, "
                  f"bound from the cache {cached:5.1f} s", flush=True)
    print("\n| checkout | default Hard, first run | Hard bound to Easy, after it | the bound Hard from the cache |")
    print("|---|---|---|---|")
    for label, rs in rows.items():
        med = [statistics.median(x[k] for x in rs) for k in range(3)]
        print(f"| {label} | {med[0]:.1f} s | {med[1]:.1f} s | {med[2]:.1f} s |")


if __name__ == "__main__":
    main()
