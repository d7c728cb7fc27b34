"""Hard's and Crazy's decision time against ``solver_tricks`` (exact finishes), in CPU time.

    python benchmarks/bench_solver_leaves.py [--positions 12] [--agents hard:solver_tricks=3 crazy:solver_tricks=3 ...]

Every decision point (4 bids, 52 cards) of ``--positions`` hands of Normal self-play (deals
``0 ..`` of seed 5, as ``bench_agents.py``) is put to each agent (specs as in a tournament
file) through its Python face, the same positions for every agent; each decision is timed by
the thread's CPU time (steady on a shared machine, unlike the wall clock). Reported: median,
90th percentile and mean per decision, over all decisions and over the card decisions of the
last tricks, where the solver works. The process is pinned to one core.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from spades_ai import Hand, make_agent
from spades_ai.simulate import deal_masks
from spades_ai.agents.spec import parse_agent


def decision_points(positions: int, seed: int = 5):
    """Every observation of ``positions`` hands of Normal self-play."""
    normal = make_agent("normal")
    masks = deal_masks(seed, 0, positions)
    out = []
    for i in range(positions):
        hand = Hand(masks[i].tolist(), dealer=i % 4)
        while hand.phase != "over":
            obs = hand.observation()
            out.append(obs)
            if hand.phase == "bidding":
                hand.bid(normal.bid(obs))
            else:
                hand.play(normal.play(obs))
    return out


def cpu_times(agent, points) -> np.ndarray:
    """CPU seconds of each decision of ``agent`` at ``points`` (after a warm-up bid and card)."""
    agent.bid(points[0])
    agent.play(points[10])
    out = []
    for obs in points:
        t0 = time.thread_time()
        agent.bid(obs) if obs.phase == "bidding" else agent.play(obs)
        out.append(time.thread_time() - t0)
    return np.array(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12, help="hands of decision points")
    ap.add_argument("--agents", nargs="+", default=["hard:solver_tricks=0", "hard:solver_tricks=2", "hard:solver_tricks=3"],
                    help="agent specs (as in a tournament file)")
    ap.add_argument("--cpu", type=int, default=0, help="core to pin to (-1: no pinning)")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.positions, args.agents = 1, ["hard:solver_tricks=0,worlds=8", "hard:solver_tricks=3,worlds=8"]
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    points = decision_points(args.positions)
    late = np.array([o.phase == "playing" and 13 - o.trick_no <= 6 for o in points])
    print(f"{len(points)} decisions ({late.sum()} cards with 6 or fewer tricks left); {platform.machine()}, "
          f"Python {platform.python_version()}, CPU time per decision")
    print()
    print("| agent | median | p90 | mean | last 6 tricks: median | mean |")
    print("|---|---|---|---|---|---|")
    for spec in args.agents:
        t = cpu_times(parse_agent(spec).build(), points) * 1e3
        print(f"| {spec} | {np.median(t):.2f} ms | {np.percentile(t, 90):.2f} ms | {t.mean():.2f} ms "
              f"| {np.median(t[late]):.2f} ms | {t[late].mean():.2f} ms |", flush=True)


if __name__ == "__main__":
    main()
