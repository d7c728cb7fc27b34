"""ISMCTS decision time by budget, in CPU time (steady on a shared machine), with Hard beside it.

    python benchmarks/bench_ismcts.py [--positions 20] [--iterations 1000 5000] [--hard]

Every decision point (4 bids, 52 cards) of ``--positions`` hands of Normal self-play (deals of
seed 5, as ``bench_agents.py``) is put to the agent through its Python face; the CPU time of
the calling thread is taken around each decision (``time.thread_time``: the kernels run in it).
Decisions with one distinct card return at once, as they do in play; bids are Hard's (512
worlds) unless ``--bid-worlds 0``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spades_ai import Hand, make_agent
from spades_ai.simulate import deal_masks


def cpu_decision_times(agent, positions: int, seed: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """CPU seconds per decision of ``agent`` at every decision point of Normal self-play hands:
    ``(bids, plays)``."""
    normal = make_agent("normal")
    masks = deal_masks(seed, 0, positions)
    warm = Hand(masks[0].tolist())  # load the compiled kernels (bid and play) first
    agent.bid(warm.observation())
    for _ in range(4):
        warm.bid(3)
    agent.play(warm.observation())
    bids, plays = [], []
    for i in range(positions):
        hand = Hand(masks[i].tolist(), dealer=i % 4)
        while hand.phase != "over":
            obs = hand.observation()
            t0 = time.thread_time()
            if hand.phase == "bidding":
                agent.bid(obs)
                bids.append(time.thread_time() - t0)
                hand.bid(normal.bid(obs))
            else:
                agent.play(obs)
                plays.append(time.thread_time() - t0)
                hand.play(normal.play(obs))
    return np.array(bids), np.array(plays)


def row(label: str, bids: np.ndarray, plays: np.ndarray) -> str:
    t = np.concatenate([bids, plays]) * 1e3
    return (f"| {label} | {np.median(t):.2f} ms | {np.percentile(t, 90):.2f} ms | {t.mean():.2f} ms "
            f"| {np.median(plays) * 1e3:.2f} ms | {np.median(bids) * 1e3:.1f} ms | {len(t)} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20, help="hands of decision points")
    ap.add_argument("--iterations", type=int, nargs="+", default=[1000, 2000, 5000])
    ap.add_argument("--bid-worlds", type=int, default=512)
    ap.add_argument("--hard", action="store_true", help="Hard (default budget) too")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.positions, args.iterations, args.bid_worlds = 1, [50], 8
    print("| agent | median decision (CPU) | p90 | mean | median card | median bid | decisions |")
    print("|---|---|---|---|---|---|---|")
    for n in args.iterations:
        agent = make_agent("ismcts", iterations=n, bid_worlds=args.bid_worlds)
        print(row(agent.label, *cpu_decision_times(agent, args.positions)), flush=True)
    if args.hard:
        print(row("hard", *cpu_decision_times(make_agent("hard"), args.positions)), flush=True)


if __name__ == "__main__":
    main()
