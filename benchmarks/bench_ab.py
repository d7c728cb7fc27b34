"""A/B speed of this tree against another commit, both in one process, runs interleaved.

    python benchmarks/bench_ab.py e5ad53c                  # random_playouts and Normal self-play
    python benchmarks/bench_ab.py e5ad53c --rounds 40 --what normal

On a shared machine, runs of one script after the other differ by more than 10% as the load
moves; here the commit's package is exported under another name (``spades_ai_ab``, with its own
kernel cache), both are warmed up, and the two are timed in alternation, round after round, on
the process's CPU time, so a change of load hits both. Reported: the median and the mean of the
per-round ratios this tree / the commit (1.00: as fast; 0.95: 5% slower).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(commit: str, into: Path) -> None:
    """``git archive`` the commit's package into ``into/spades_ai_ab``, imports renamed."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "spades_ai"], check=True, capture_output=True).stdout
    tar_path = into / "pkg.tar"
    tar_path.write_bytes(data)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    pkg = into / "spades_ai"
    for path in pkg.rglob("*.py"):
        text = path.read_text()
        text = text.replace("spades_ai.", "spades_ai_ab.").replace("from spades_ai import", "from spades_ai_ab import")
        text = text.replace("import spades_ai\n", "import spades_ai_ab\n")
        path.write_text(text)
    pkg.rename(into / "spades_ai_ab")


def job(module, what: str, r: int) -> int:
    if what == "playouts":
        module.random_playouts(PLAYOUTS, seed=r)
        return PLAYOUTS
    if what in SEARCHERS:  # a searching agent against Normal: its decisions dominate the time
        n = SEARCHERS[what]
        module.play_hands([module.make_agent(what), "normal"], n, seed=r)
        return n
    module.play_hands([what] * 4, 50_000, seed=r)
    return 50_000


#: Random playouts per round (a hundredth with --smoke).
PLAYOUTS = 300_000
#: Deals per round for the searching agents (with their defaults, against Normal).
SEARCHERS = {"hard": 6, "crazy": 1, "ismcts": 2}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commit", nargs="?", help="the commit to compare against (e.g. the branch point)")
    ap.add_argument("--what", default="playouts,normal", help="comma-separated: playouts, normal, random, easy, hard, crazy, ismcts")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:  # one round of playouts against this tree's own HEAD, a hundredth of the work
        args.commit, args.what, args.rounds = args.commit or "HEAD", "playouts", 1
    elif args.commit is None:
        ap.error("the commit to compare against is required")
    if args.smoke:
        global PLAYOUTS
        PLAYOUTS //= 100
    sys.path.insert(0, str(ROOT))
    import spades_ai as new

    with tempfile.TemporaryDirectory() as tmp:
        export(args.commit, Path(tmp))
        sys.path.insert(0, tmp)
        old = importlib.import_module("spades_ai_ab")
        print(f"| measure | {args.commit} (median) | this tree (median) | per-round ratio: median, mean |")
        print("|---|---|---|---|")
        for what in args.what.split(","):
            for m in (old, new):
                job(m, what, 0)
            rates = {old: [], new: []}
            for r in range(args.rounds):
                for m in (old, new) if r % 2 == 0 else (new, old):
                    c0 = time.process_time()
                    n = job(m, what, r)
                    rates[m].append(n / (time.process_time() - c0))
            ratio = [b / a for a, b in zip(rates[old], rates[new])]
            label = "random_playouts hands/s" if what == "playouts" else (f"{what} vs normal hands/s" if what in SEARCHERS else f"{what} self-play hands/s")
            print(f"| {label} | {statistics.median(rates[old]):,.0f} | {statistics.median(rates[new]):,.0f} "
                  f"| {statistics.median(ratio):.3f}, {statistics.mean(ratio):.3f} |")


if __name__ == "__main__":
    main()
