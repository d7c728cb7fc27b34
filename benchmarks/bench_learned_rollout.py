"""Hard with the learned agent as its rollout policy: CPU time per decision against default Hard
(issue 21: "Hard with rollout="learned" against default Hard at equal CPU time per decision").

    python benchmarks/bench_learned_rollout.py [--positions 12] [--worlds 512 256]

Every decision point of ``--positions`` hands of Normal self-play (``bench_ismcts``'s
positions, deals of seed 5) is put to each agent through its Python face, timed in CPU time of
the calling thread; medians and means in milliseconds.
"""

from __future__ import annotations

import argparse

import numpy as np

from bench_ismcts import cpu_decision_times
from spades_ai import make_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--worlds", type=int, nargs="+", default=[512, 256])
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.positions, args.worlds = 1, [8]
    print("| agent | bid median ms | bid mean ms | card median ms | card mean ms |")
    print("|---|---|---|---|---|")
    for opts in [{"worlds": 8} if args.smoke else {}] + [{"rollout": "learned", "worlds": w} for w in args.worlds]:
        agent = make_agent("hard", **opts)
        bids, plays = cpu_decision_times(agent, args.positions)
        print(f"| {agent.label} | {1e3 * np.median(bids):.2f} | {1e3 * np.mean(bids):.2f} "
              f"| {1e3 * np.median(plays):.2f} | {1e3 * np.mean(plays):.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
