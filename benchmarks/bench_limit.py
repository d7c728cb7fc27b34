"""The engine at its limit: our random deal and playout beside a tight C program of the same work.

    python benchmarks/bench_limit.py                     # 9 rounds: about 1 s of each side a round
    python benchmarks/bench_limit.py --rounds 15 --hands 1000000 --seconds 1
    SPADES_LIMIT_DIR=/path/to/limit python benchmarks/bench_limit.py

The C program (``spades_limit.c`` in ``../shared/limit/`` beside the repository, or in
``$SPADES_LIMIT_DIR``; its README) deals four hands of 13 on one ``uint64`` a hand and plays
them out with uniformly random legal cards, single-threaded. Where that folder and ``gcc`` are
present it is built with ``-O3 -march=native`` into a temporary folder, and its ``random_hand``
row (deal + random playout) and our ``random_playouts`` at four players in pairs are timed in
alternation, round after round, both by wall clock, so that a change of load on a shared
machine hits both. Printed: each side's median hands a second and the ratio of the medians,
with the median of the per-round ratios beside it. Where the folder or the compiler is
missing it says so in one line and exits 0: nothing in the package or its tests needs a C
compiler.

The work is the same: 39 bounded draws for a deal, 13 tricks of random legal cards. Ours also
starts each deal's own counter-based stream (the same deal for the same seed and number in any
order, ``engine.rng``), finds the first leader from the rules and writes the tricks of every
seat into an array; the C program draws every deal from one running stream.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_ENV = "SPADES_LIMIT_DIR"
SOURCE = "spades_limit.c"
#: The C program's row for a deal and a random playout (``bench`` prints its median first).
ROW = re.compile(r"^random: deal\+playout\s+(\d+)", re.MULTILINE)


def limit_dir() -> Path:
    """``$SPADES_LIMIT_DIR`` if set, else ``../shared/limit`` beside the repository."""
    return Path(os.environ[LIMIT_ENV]) if os.environ.get(LIMIT_ENV) else ROOT.parent / "shared" / "limit"


def missing(folder: Path, gcc: str | None) -> str | None:
    """Why the C program cannot run here, or None."""
    if not (folder / SOURCE).is_file():
        return f"no C program to compare with: {folder / SOURCE} is absent (set {LIMIT_ENV} to its folder)"
    if gcc is None:
        return "no C compiler to build the limit program: gcc is not on PATH"
    return None


def build(folder: Path, gcc: str, into: Path) -> Path:
    """Compile the C program into ``into`` as its README says; return the executable."""
    exe = into / "spades_limit"
    subprocess.run([gcc, "-O3", "-march=native", "-o", str(exe), str(folder / SOURCE), "-lpthread", "-lm"],
                   check=True, capture_output=True, text=True)  # fmt: skip
    return exe


def c_rate(exe: Path, seconds: float) -> float:
    """One repetition of the C program's ``random_hand`` row: hands a second (wall clock)."""
    out = subprocess.run([str(exe), "bench", str(seconds), "1", "random_hand"], check=True, capture_output=True, text=True).stdout
    found = ROW.search(out)
    if found is None:
        raise RuntimeError(f"the C program printed no 'random: deal+playout' row:\n{out}")
    return float(found.group(1))


def our_rate(random_playouts, hands: int, seed: int) -> float:
    """Our deal and random playout at four players: hands a second (wall clock)."""
    t0 = time.perf_counter()
    random_playouts(hands, seed=seed)
    return hands / (time.perf_counter() - t0)


def compare(exe: Path, rounds: int, hands: int, seconds: float) -> None:
    """Time both sides in alternation and print the table."""
    from spades_ai import random_playouts

    random_playouts(1000)  # compile, or load from the cache
    ours, theirs = [], []
    for r in range(rounds):
        if r % 2 == 0:
            theirs.append(c_rate(exe, seconds))
            ours.append(our_rate(random_playouts, hands, r + 1))
        else:
            ours.append(our_rate(random_playouts, hands, r + 1))
            theirs.append(c_rate(exe, seconds))
    per_round = [a / b for a, b in zip(ours, theirs)]
    mine, limit = statistics.median(ours), statistics.median(theirs)
    print(f"| deal + random playout, four players, {rounds} rounds | hands/s (median) | ns a card |")
    print("|---|---|---|")
    print(f"| tight C (`{SOURCE}`, `random_hand`) | {limit:,.0f} | {1e9 / limit / 52:.2f} |")
    print(f"| spades_ai `random_playouts` | {mine:,.0f} | {1e9 / mine / 52:.2f} |")
    print(f"| spades_ai / C | {mine / limit:.3f} (per-round ratios: median {statistics.median(per_round):.3f}, "
          f"min {min(per_round):.3f}, max {max(per_round):.3f}) | |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9, help="rounds, each timing both sides once")
    ap.add_argument("--hands", type=int, default=1_000_000, help="our hands a round")
    ap.add_argument("--seconds", type=float, default=1.0, help="the C program's time a round")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.rounds, args.hands, args.seconds = 1, 2000, 0.05
    folder, gcc = limit_dir(), shutil.which("gcc")
    why = missing(folder, gcc)
    if why is not None:
        print(f"bench_limit: {why}; nothing measured.")
        return 0
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(folder, gcc, Path(tmp))
        print(f"C: {folder / SOURCE}, gcc -O3 -march=native; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
        compare(exe, args.rounds, args.hands, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
