"""The learned agent's speed against Hard's and Normal's, in one run on one core (issue 21).

    python benchmarks/bench_learned.py [--hands 20000] [--hard-hands 40] [--repeats 3] [--model default]

Self-play hands per second of four copies of each agent (``play_hands``: bids, cards and
scoring in numba), by the process's CPU time (steadier than the wall clock on a shared machine),
the best of ``--repeats`` runs after a warm-up; and the bidder's time per bid through its
kernel (``learned`` bids against Normal's, on the same positions). The figure the target reads
is ``learned / hard``: the learned agent's hands per second over Hard's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spades_ai import Hand, make_agent, play_hands
from spades_ai.simulate import deal_masks


def hands_per_second(agent, n: int, repeats: int) -> float:
    """Hands per CPU second of four copies of ``agent``, the best of ``repeats`` runs."""
    play_hands([agent] * 4, min(n, 8), seed=1)  # compile and warm
    best = np.inf
    for r in range(repeats):
        c0 = time.process_time()
        play_hands([agent] * 4, n, seed=100 + r)
        best = min(best, time.process_time() - c0)
    return n / best


def bid_seconds(agent, positions: int = 2000) -> float:
    """CPU seconds per bid of ``agent``'s bid kernel over the first bids of ``positions`` deals."""
    kernel, params = agent.bid_kernel, agent.params
    obs = [Hand(m.tolist()).observation() for m in deal_masks(3, 0, positions)]
    legal = np.int64(0x3FFF)
    args = [(o.public, o.seat, o.engine_cards, legal, o.rules_array) for o in obs]
    kernel(*args[0], params) if agent.takes_params else kernel(*args[0])
    c0 = time.process_time()
    for a in args:
        kernel(*a, params) if agent.takes_params else kernel(*a)
    return (time.process_time() - c0) / positions


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--hard-hands", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--model", default="default", help="the learned agent's model (a shipped name or an .npz path)")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args(argv)
    if args.smoke:
        args.hands, args.hard_hands, args.repeats = 50, 1, 1
    learned, normal, hard = make_agent("learned", model=args.model), make_agent("normal"), make_agent("hard", **({"worlds": 8} if args.smoke else {}))
    rates = {"learned": hands_per_second(learned, args.hands, args.repeats),
             "normal": hands_per_second(normal, args.hands, args.repeats),
             "hard": hands_per_second(hard, args.hard_hands, args.repeats)}  # fmt: skip
    print("| agent | self-play hands / CPU s | vs hard |\n|---|---|---|")
    for name, r in rates.items():
        print(f"| {name} | {r:,.1f} | {r / rates['hard']:,.0f}x |")
    print(f"\nlearned bid: {1e6 * bid_seconds(learned):.1f} us a bid (Python call included); "
          f"normal bid: {1e6 * bid_seconds(normal):.1f} us")  # fmt: skip


if __name__ == "__main__":
    main()
