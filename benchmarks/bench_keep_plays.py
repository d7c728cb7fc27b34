"""What ``keep_plays`` costs: time and bytes on disk per million hands, Normal vs Easy.

    python benchmarks/bench_keep_plays.py [--deals 100000] [--repeats 3]

Runs alternate with and without ``keep_plays`` on the same duplicate deals (2 hands a deal),
one job, warm numba cache: (a) the whole tournament, ``run_tournament`` into a new folder (play,
rows, Parquet, files), CPU time of this process and bytes of its ``data/`` folder; (b) the
play alone, ``play_hands`` at both tables. Medians over the runs, scaled to a million hands.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from spades_ai import play_hands, run_tournament


def tournament(deals: int, keep: bool) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as out:
        c0, t0 = time.process_time(), time.perf_counter()
        run_tournament("normal,easy", deals=deals, seed=1, out=out, n_jobs=1, progress=False, keep_plays=keep)
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        size = sum(p.stat().st_size for p in (Path(out) / "data").iterdir())
    return cpu, wall, size


def play(deals: int, keep: bool) -> float:
    c0 = time.process_time()
    for seed in (1, 1):  # both tables of a duplicate deal
        play_hands(["normal", "easy"], deals, seed=seed, keep_plays=keep)
    return time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.deals, args.repeats = 50, 1
    for keep in (False, True):  # compile or load both loops before timing
        tournament(10, keep)
    runs = {False: [], True: []}
    plays = {False: [], True: []}
    for r in range(args.repeats):
        for keep in (False, True) if r % 2 == 0 else (True, False):
            runs[keep].append(tournament(args.deals, keep))
            plays[keep].append(play(args.deals, keep))
    hands = 2 * args.deals
    per_m = 1e6 / hands
    print(f"{args.deals:,} duplicate deals = {hands:,} hands a run, {args.repeats} runs each, medians per million hands")
    print()
    print("| keep_plays | tournament, CPU s | tournament, wall s | on disk, MB (= bytes a hand) | play_hands alone, CPU s |")
    print("|---|---|---|---|---|")
    for keep in (False, True):
        cpu = statistics.median(x[0] for x in runs[keep]) * per_m
        wall = statistics.median(x[1] for x in runs[keep]) * per_m
        size = statistics.median(x[2] for x in runs[keep]) * per_m
        alone = statistics.median(plays[keep]) * per_m
        print(f"| {keep} | {cpu:.2f} | {wall:.2f} | {size / 1e6:.1f} | {alone:.2f} |")
    cpu0 = statistics.median(x[0] for x in runs[False])
    cpu1 = statistics.median(x[0] for x in runs[True])
    size0 = statistics.median(x[2] for x in runs[False])
    size1 = statistics.median(x[2] for x in runs[True])
    print()
    print(
        f"keep_plays adds {(cpu1 - cpu0) * per_m:+.2f} s CPU ({(cpu1 / cpu0 - 1) * 100:+.0f}%) and "
        f"{(size1 - size0) * per_m / 1e6:+.1f} MB ({(size1 / size0 - 1) * 100:+.0f}%) per million hands; "
        f"the play alone {(statistics.median(plays[True]) / statistics.median(plays[False]) - 1) * 100:+.1f}%"
    )


if __name__ == "__main__":
    main()
