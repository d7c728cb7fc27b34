"""What reading the play costs Crazy: decision times without it, with Normal's play as the play
model, and with a learned play model (issue 21, item 3).

    python benchmarks/bench_reading.py [--positions 10] [--play-model reading]

Every card decision of ``--positions`` hands of Normal self-play is put to each agent through
its Python face (``bench_agents.decision_times``; the bids are the same for all three and left
out); median, 90th percentile and mean, and each median over the one without reading.
"""

from __future__ import annotations

import argparse

import numpy as np

from bench_agents import decision_times
from spades_ai import make_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--play-model", default="reading")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    budget = {"worlds": 8} if args.smoke else {}
    if args.smoke:
        args.positions = 1
    specs = {"crazy": {}, "crazy:read_play=true": {"read_play": True},
             f"crazy:read_play=true,play_model={args.play_model}": {"read_play": True, "play_model": args.play_model}}  # fmt: skip
    print("| agent | card decisions | median | p90 | mean | median / without reading |")
    print("|---|---|---|---|---|---|")
    base = None
    for label, options in specs.items():
        t = decision_times(make_agent("crazy", **options, **budget), args.positions, cards_only=True) * 1e3
        base = base or np.median(t)
        print(f"| {label} | {len(t)} | {np.median(t):.2f} ms | {np.percentile(t, 90):.2f} ms | {t.mean():.2f} ms | {np.median(t) / base:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
