"""Engine speed: deals/s and random playouts (hands/s) on one core, plus compile and import times.

    python benchmarks/bench_engine.py            # prints a markdown table for RESULTS.md

Each figure is the median of ``--repeats`` timed runs after a warm-up call. Compile time is the
first call in a fresh interpreter with an empty numba cache (a temporary NUMBA_CACHE_DIR);
import time is ``import spades_ai`` in a fresh interpreter with the cache warm.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time


from spades_ai.simulate import deal_masks, random_playouts

C_REFERENCE_HANDS_PER_S = 2.7e6  # PERF_NOTES.md / issue 2: tight C, deal + random playout


def median_rate(fn, n: int, repeats: int) -> tuple[float, list[float]]:
    fn(min(n, 1000))  # warm-up: compile or load from the cache
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(n)
        times.append(time.perf_counter() - t0)
    return n / statistics.median(times), times


def fresh_interpreter(code: str, env: dict) -> float:
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2_000_000, help="deals per timed run")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:  # a thousand deals once; the "empty" cache is this machine's warm one
        args.n, args.repeats = 1000, 1

    deals, _ = median_rate(lambda n: deal_masks(1, 0, n), args.n, args.repeats)
    playouts, _ = median_rate(lambda n: random_playouts(n, seed=1), args.n, args.repeats)

    with contextlib.nullcontext(None) if args.smoke else tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache} if cache else dict(os.environ)
        first_call = (
            "import time; t=time.perf_counter(); import spades_ai as sa; sa.random_playouts(10); "
            "h=sa.Hand(sa.deal(0)); [h.bid(h.legal_bids()[1]) for _ in range(4)]; h.play(h.legal_cards()[0]); "
            "sa.score_hand([3,3,3,3],[4,3,3,3]); print(time.perf_counter()-t)"
        )
        compile_s = fresh_interpreter(first_call, env)
        cached_s = fresh_interpreter(first_call, env)
    import_s = statistics.median(
        fresh_interpreter("import time; t=time.perf_counter(); import spades_ai; print(time.perf_counter()-t)", dict(os.environ))
        for _ in range(1 if args.smoke else 5)
    )

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print()
    print("| measure | median |")
    print("|---|---|")
    print(f"| deals/s (deal_masks, one core) | {deals / 1e6:.2f} M |")
    print(f"| random_playouts hands/s (deal + 13 random tricks, one core) | {playouts / 1e6:.2f} M |")
    print(f"| per card | {1e9 / playouts / 52:.1f} ns |")
    print(f"| vs tight C (2.7 M hands/s) | {playouts / C_REFERENCE_HANDS_PER_S:.0%} |")
    print(f"| `import spades_ai`, warm cache | {import_s * 1000:.0f} ms |")
    print(f"| first calls (playout, Hand, score), empty cache: compilation | {compile_s:.1f} s |")
    print(f"| first calls, warm cache | {cached_s:.2f} s |")


if __name__ == "__main__":
    main()
