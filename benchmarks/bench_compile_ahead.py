"""Run speed of kernels compiled with and without the second process of a cold first run.

    python benchmarks/bench_compile_ahead.py [--rounds 12] [--hands 100000]

Two empty caches are filled: one by ``play_hands(["normal", "easy"])`` compiling everything in
one process, one by a cold ``spades-ai`` with the compile-ahead child forced on
(``SPADES_AI_COMPILE_AHEAD=1``), whose Normal and Easy kernels come from the child. Then Normal
vs Easy self-play runs from each cache in turn, a fresh process each time, timed on CPU time;
reported: the medians and the median and mean of the per-round ratios (1.00: as fast).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

TIMED = """
import sys, time
import spades_ai as sa
n = int(sys.argv[1])
sa.play_hands(["normal", "easy"], 10)
t = time.process_time()
sa.play_hands(["normal", "easy"], n, seed=7)
print(n / (time.process_time() - t))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:  # one round of a hundred hands, both "caches" this machine's warm one
        args.rounds, args.hands = 1, 100
    with tempfile.TemporaryDirectory() as tmp:
        serial, ahead = Path(tmp, "serial"), Path(tmp, "ahead")
        if args.smoke:
            from spades_ai.engine.jit import cache_root

            serial = ahead = cache_root()
        env = {**os.environ, "PYTHONPATH": str(HERE)}
        fill = "import spades_ai as sa; sa.play_hands(['normal', 'easy'], 10)"
        subprocess.run([sys.executable, "-c", fill], env={**env, "SPADES_AI_CACHE_DIR": str(serial)}, check=True)
        subprocess.run(
            [sys.executable, "-m", "spades_ai", "tournament", "--agents", "normal,easy", "--deals", "50", "--out", str(Path(tmp, "out"))],
            check=True, capture_output=True, cwd=tmp,
            env={**env, "SPADES_AI_CACHE_DIR": str(ahead), "SPADES_AI_COMPILE_AHEAD": "1"},
        )  # fmt: skip
        rates: dict[str, list[float]] = {"serial": [], "ahead": []}
        caches = {"serial": serial, "ahead": ahead}
        for r in range(args.rounds):
            for which in ("serial", "ahead") if r % 2 == 0 else ("ahead", "serial"):
                out = subprocess.run(
                    [sys.executable, "-c", TIMED, str(args.hands)], env={**env, "SPADES_AI_CACHE_DIR": str(caches[which])},
                    check=True, capture_output=True, text=True,
                )  # fmt: skip
                rates[which].append(float(out.stdout.strip()))
        ratios = [b / a for a, b in zip(rates["serial"], rates["ahead"])]
        print(
            f"Normal vs Easy self-play, {args.rounds} rounds of {args.hands:,} hands: one process "
            f"{statistics.median(rates['serial']):,.0f} hands/s, with the child {statistics.median(rates['ahead']):,.0f}; "
            f"ratio median {statistics.median(ratios):.3f}, mean {statistics.mean(ratios):.3f}"
        )


if __name__ == "__main__":
    main()
