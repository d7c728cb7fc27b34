"""Tournament harness speed (issue 5): end to end, overhead over raw ``play_hands``, 1 vs 2 jobs.

    python benchmarks/bench_tournament.py                 # prints a markdown section for RESULTS.md
    python benchmarks/bench_tournament.py --deals 1000000 --small 200000 --repeats 5

(a) ``run_tournament("normal,easy", deals=D)``: D duplicate deals (2 D hands) played, encoded and
    written as Parquet, timed from the call to the last file on disk (worker start-up included,
    numba cache warm); default ``n_jobs`` (all cores).
(b) overhead: the same work as raw ``play_hands`` calls (both tables of every chunk, results
    dropped), against ``run_tournament``, in one process and on 2 loky workers.
(c) parallel efficiency: time with 1 job / (2 x time with 2 jobs), for the harness and for raw
    ``play_hands``.

Every figure is the median of ``--repeats`` runs; the machine is shared, so the spread is shown.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import resource
import shutil
import statistics
import tempfile
import time

import joblib

from spades_ai import play_hands, run_tournament
from spades_ai.tournament import Tournament, plan_chunks
from spades_ai.tournament.schedule import default_chunk_size

AGENTS = "normal,easy"


def raw_chunk(start: int, stop: int) -> int:
    """Both tables of one chunk, as bare ``play_hands`` calls: the work the harness wraps."""
    a = play_hands(["normal", "easy"], stop - start, seed=0, start=start)
    b = play_hands(["easy", "normal"], stop - start, seed=0, start=start)
    return len(a) + len(b)


def breakdown(chunk: int, chunks: int) -> dict[str, float]:
    """Median CPU milliseconds per chunk of each step, run one chunk after another in this
    process: the harness's own work (rows, Parquet, the file) against the play it wraps."""
    from pathlib import Path

    from spades_ai.tournament import Chunk
    from spades_ai.folders import write_atomic
    from spades_ai.tournament.results import chunk_table, encode, run_config

    t = Tournament.make(AGENTS, deals=chunk * chunks)
    config = run_config(t)
    steps: dict[str, list[float]] = {"play": [], "rows": [], "parquet": [], "write": []}
    folder = Path(tempfile.mkdtemp(prefix="bench-breakdown-"))
    try:
        for i in range(chunks):
            c = Chunk(0, i * chunk, (i + 1) * chunk)
            t0 = time.process_time()
            recs = [play_hands(["normal", "easy"], chunk, seed=0, start=c.start),
                    play_hands(["easy", "normal"], chunk, seed=0, start=c.start)]  # fmt: skip
            t1 = time.process_time()
            table = chunk_table(t, c, recs, config)
            t2 = time.process_time()
            data = encode(table)
            t3 = time.process_time()
            write_atomic(folder / c.filename, data)
            t4 = time.process_time()
            for key, v in zip(steps, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                steps[key].append(v)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {key: 1000 * statistics.median(v) for key, v in steps.items()}


def raw(deals: int, chunk: int, n_jobs: int) -> float:
    t = Tournament.make(AGENTS, deals=deals)
    chunks = plan_chunks(t, chunk)
    began = time.perf_counter()
    if n_jobs == 1:
        for c in chunks:
            raw_chunk(c.start, c.stop)
    else:
        with joblib.parallel_config(backend="loky"):
            for _ in joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)(
                joblib.delayed(raw_chunk)(c.start, c.stop) for c in chunks
            ):
                pass
    return time.perf_counter() - began


def harness(deals: int, chunk: int | None, n_jobs: int | None, backend: str = "loky") -> float:
    out = tempfile.mkdtemp(prefix="bench-tournament-")
    try:
        began = time.perf_counter()
        with joblib.parallel_config(backend=backend):
            run_tournament(AGENTS, deals=deals, out=out, n_jobs=n_jobs, chunk_size=chunk, progress=False)
        return time.perf_counter() - began
    finally:
        shutil.rmtree(out, ignore_errors=True)


CPU: dict[str, list[float]] = {}
ARGS = argparse.Namespace(quiet=1.0, max_wait=0.0)


def machine_busy(seconds: float = 1.0) -> float:
    """Share of all cores busy over ``seconds`` (from /proc/stat; 0.0 where it is missing)."""

    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return v[3] + v[4], sum(v)  # idle + iowait, total

    try:
        i0, t0 = sample()
        time.sleep(seconds)
        i1, t1 = sample()
    except OSError:
        return 0.0
    return 1 - (i1 - i0) / max(1, t1 - t0)


QUIET = {"waited": 0.0, "skipped": 0}


def wait_for_quiet(limit: float, max_wait: float) -> None:
    """On a shared machine, start a timed run only when the cores are idle (<= ``limit`` busy),
    waiting at most ``max_wait`` seconds; the report says how long it waited."""
    if limit >= 1:
        return
    began = time.perf_counter()
    while machine_busy() > limit:
        if time.perf_counter() - began > max_wait:
            QUIET["skipped"] += 1
            return
        time.sleep(2)
    QUIET["waited"] += time.perf_counter() - began


def median(fn, repeats: int, cpu_key: str | None = None) -> tuple[float, list[float]]:
    """Median wall time of ``fn``; with ``cpu_key``, also keep this process's CPU times (a
    1-job run lives in this process, and its CPU time is what other load on the machine
    disturbs least)."""
    times = []
    for _ in range(repeats):
        wait_for_quiet(ARGS.quiet, ARGS.max_wait)
        c0 = time.process_time()
        times.append(fn())
        if cpu_key:
            CPU.setdefault(cpu_key, []).append(time.process_time() - c0)
    return statistics.median(times), times


def spread(times: list[float]) -> str:
    return f"{min(times):.2f}-{max(times):.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000, help="duplicate deals for (a)")
    ap.add_argument("--small", type=int, default=200_000, help="duplicate deals for (b) and (c)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument(
        "--quiet", type=float, default=0.15, help="start a timed run only below this busy share (1: never wait)"
    )
    ap.add_argument("--max-wait", type=float, default=300, help="seconds to wait for quiet before each run")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:  # no waiting for quiet, and no dask cluster
        args.deals, args.small, args.repeats, args.quiet = 40, 40, 1, 1.0
    ARGS.quiet, ARGS.max_wait = args.quiet, args.max_wait

    raw_chunk(0, 100)  # compile or load the kernels
    harness(100, None, 1)
    joblib.Parallel(n_jobs=2)(joblib.delayed(raw_chunk)(0, 10) for _ in range(2))  # start the loky pool
    harness(20, 10, 2)  # and import the harness in its workers

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    a_med, a_times = median(lambda: harness(args.deals, None, None), args.repeats)
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    chunk = default_chunk_size(Tournament.make(AGENTS, deals=args.small), 2)
    # (b) and (c) interleaved, one round of the four at a time and the order reversed every
    # other round, so that other load on the machine falls on all four alike
    runs = {
        "r1": lambda: raw(args.small, chunk, 1),
        "h1": lambda: harness(args.small, chunk, 1),
        "r2": lambda: raw(args.small, chunk, 2),
        "h2": lambda: harness(args.small, chunk, 2),
    }
    times: dict[str, list[float]] = {k: [] for k in runs}
    keys = list(runs)
    for round_no in range(args.repeats):
        wait_for_quiet(args.quiet, args.max_wait)
        order = keys if round_no % 2 == 0 else keys[::-1]  # no configuration always runs first
        for key in order:
            fn = runs[key]
            c0 = time.process_time()
            times[key].append(fn())
            if key in ("r1", "h1"):
                CPU.setdefault("raw" if key == "r1" else "harness", []).append(time.process_time() - c0)
    (r1, r1_t), (h1, h1_t), (r2, r2_t), (h2, h2_t) = ((statistics.median(times[k]), times[k]) for k in runs)

    wait_for_quiet(args.quiet, args.max_wait)
    parts = breakdown(chunk, max(3, args.small // chunk))

    dask_med = dask_times = None
    try:
        if args.smoke:
            raise ImportError("--smoke: no dask cluster")
        from dask.distributed import Client, LocalCluster
    except ImportError:
        pass
    else:
        cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        )
        with cluster, Client(cluster):
            harness(40, 10, -1, "dask")  # workers import spades_ai and load the kernels
            dask_med, dask_times = median(lambda: harness(args.small, chunk, -1, "dask"), args.repeats)

    hands = 2 * args.deals
    print(f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}, "
          f"joblib {joblib.__version__}; medians of {args.repeats} runs (range in brackets).\n")  # fmt: skip
    print("| measure | value | target |\n|---|---|---|")
    print(f"| (a) {args.deals:,} duplicate deals ({hands:,} hands) Normal vs Easy, end to end with Parquet, all cores "
          f"| **{a_med:.1f} s** ({hands / a_med:,.0f} hands/s) [{spread(a_times)}] | < 20 s |")  # fmt: skip
    print(f"| (b) raw `play_hands`, {args.small:,} deals, 1 process | {r1:.2f} s [{spread(r1_t)}] | |")
    print(f"| (b) harness, same work, 1 job | {h1:.2f} s [{spread(h1_t)}] | |")
    print(f"| (b) **harness overhead, 1 job** | **{100 * (h1 / r1 - 1):+.1f}%** | < 15% |")
    cpu_overhead = statistics.median(CPU["harness"]) / statistics.median(CPU["raw"]) - 1
    print(f"| (b) harness overhead, 1 job, in CPU time | {100 * cpu_overhead:+.1f}% | < 15% |")
    own = parts["rows"] + parts["parquet"] + parts["write"]
    print(
        f"| (b) harness overhead, 1 job, per chunk step by step (CPU ms per {chunk:,}-deal chunk: play "
        f"{parts['play']:.0f}, rows {parts['rows']:.1f}, Parquet {parts['parquet']:.1f}, file {parts['write']:.1f}) "
        f"| {100 * own / parts['play']:+.1f}% | < 15% |"
    )
    print(f"| (b) raw `play_hands`, 2 loky workers | {r2:.2f} s [{spread(r2_t)}] | |")
    print(f"| (b) harness, 2 jobs | {h2:.2f} s [{spread(h2_t)}] | |")
    print(f"| (b) **harness overhead, 2 jobs** | **{100 * (h2 / r2 - 1):+.1f}%** | < 15% |")
    print(
        f"| (c) **parallel efficiency, harness** (1-job time / (2 x 2-job time)) | **{100 * h1 / (2 * h2):.0f}%** | >= 85% |"
    )
    print(f"| (c) parallel efficiency, raw `play_hands` | {100 * r1 / (2 * r2):.0f}% | |")
    if dask_med is not None:
        print(f"| (d) harness on a local dask cluster (2 worker processes), {args.small:,} deals | {dask_med:.2f} s "
              f"[{spread(dask_times)}] | |")  # fmt: skip
    print(
        f"\nBefore each timed run (each round of the four (b) runs) the script waited for the machine to be idle "
        f"(<= {100 * args.quiet:.0f}% busy): {QUIET['waited']:.0f} s in all, {QUIET['skipped']} run(s) started busy after "
        f"{args.max_wait:.0f} s."
    )
    print(f"\nChunk size for (b) and (c): {chunk:,} deals ({args.small // chunk} chunks). Peak memory of the calling "
          f"process: {rss_before / 1024:.0f} MB before (a), {rss_after / 1024:.0f} MB after {args.repeats} runs of (a).")  # fmt: skip


if __name__ == "__main__":
    main()
