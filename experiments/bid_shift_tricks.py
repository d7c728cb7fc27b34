"""How much the tricks a team takes depend on its contract, when Normal plays the cards (issue 21).

    python experiments/bid_shift_tricks.py [--deals 20000] [--seed 77]

Seat 0 bids Normal's bid moved by ``d`` (its nils and any moved bid out of 1..13 kept as
Normal's), Normal at every other seat and playing every card, on the same deals for each ``d``:
the mean bid of seat 0, its team's tricks, and the change in those tricks from ``d = 0`` with a
95% interval (paired deal by deal). Seat 0 bids last (dealer 0), so the other bids are the same
at every ``d``: what changes is only how the team plays to its contract. The tricks do move
with ``d`` (experiments/RESULTS.md), so a bidder that learns a hand's tricks from Normal's bids
alone misjudges every other bid a little; a bidding network that also took its own bid, fitted on
bids moved at random, was tried and measured worse (commit 23d1976, removed after it).
"""

from __future__ import annotations

import argparse

import numpy as np

from spades_ai import kernels as K
from spades_ai.engine.jit import kernel
from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.policies.normal import normal_agent_bid, normal_agent_pass, normal_agent_play
from spades_ai.selfplay.play import play_hands


@kernel
def _moved_bid(pub, seat, hand, legal, rules, params):
    b = normal_agent_bid(pub, seat, hand, legal, rules)
    moved = b + params[0]
    if b <= 0 or hand == K.ZERO or not 1 <= moved <= 13 or not (legal >> moved) & 1:
        return b
    return moved


@kernel
def _normal_play(pub, seat, hand, legal, rules, params):
    return normal_agent_play(pub, seat, hand, legal, rules)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--moves", type=int, nargs="+", default=[-2, -1, 0, 1, 2])
    args = ap.parse_args(argv)
    team = {}
    print("| seat 0 bids Normal's + d | mean bid | team tricks | change from d = 0 | 95% interval |\n|---|---|---|---|---|")
    for d in sorted(set(args.moves) | {0}, key=lambda d: (d != 0, d)):
        agent = KernelAgent(f"moved{d:+d}", _moved_bid, _normal_play, pass_=normal_agent_pass, params=[d], options={"d": d})
        rec = play_hands([agent, "normal", "normal", "normal"], args.deals, seed=args.seed)
        team[d] = (rec.tricks_won[:, 0] + rec.tricks_won[:, 2]).astype(float)
        diff = team[d] - team[0]
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if d else 0.0
        print(f"| {d:+d} | {rec.bids[:, 0].mean():.2f} | {team[d].mean():.3f} | {diff.mean():+.3f} | "
              f"[{diff.mean() - half:+.3f}, {diff.mean() + half:+.3f}] |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
