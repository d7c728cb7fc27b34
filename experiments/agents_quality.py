"""Issue 3's strength and calibration figures for Easy and Normal.

    python experiments/agents_quality.py [--deals 20000] [--matches 2000] [--seed 2026]

Prints markdown: Normal self-play calibration (set rate, nil rate and success, mean bid sum),
Normal vs Easy and Easy vs random on duplicate deals (each deal played twice with the teams
swapped; the figure is the mean per deal of (A's points - B's points) over both tables, with a
95% normal interval), and the share of duplicate matches to 500 that Normal wins.
"""

from __future__ import annotations

import argparse

import numpy as np

from spades_ai import play_hands, play_matches


def duplicate(a: str, b: str, deals: int, seed: int) -> tuple[float, float]:
    """Mean per deal of a's team points minus b's over both orientations, and its 95% half-width."""
    t0 = play_hands([a, b], deals, seed=seed)
    t1 = play_hands([b, a], deals, seed=seed)
    diff = (t0.points[:, 0] - t0.points[:, 1] + t1.points[:, 1] - t1.points[:, 0]) / 2
    return float(diff.mean()), float(1.96 * diff.std(ddof=1) / np.sqrt(len(diff)))


def match_wins(a: str, b: str, matches: int, seed: int) -> tuple[float, int]:
    t0 = play_matches([a, b], matches, seed=seed)
    t1 = play_matches([b, a], matches, seed=seed)
    w0, w1 = t0.winner[t0.winner >= 0], t1.winner[t1.winner >= 0]
    n = len(w0) + len(w1)
    return float(((w0 == 0).sum() + (w1 == 1).sum()) / n), n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--matches", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    r = play_hands(["normal"] * 4, args.deals, seed=args.seed)
    bids = r.bids.astype(int)
    nil_bids = r.nil_bid.sum()
    print(f"Normal self-play, {args.deals:,} deals, seed {args.seed}:\n")
    print("| measure | value | target |\n|---|---|---|")
    print(f"| set rate (team contract failed) | {1 - r.made[r.contract > 0].mean():.1%} | <= 12% |")
    print(f"| nil bids per seat-hand | {(bids == 0).mean():.2%} | |")
    print(f"| nil success | {r.nil_made.sum() / max(nil_bids, 1):.1%} ({nil_bids} nil bids) | >= 70% |")
    print(f"| mean sum of the four bids | {bids.sum(axis=1).mean():.2f} | 10 to 11.5 |")
    print(f"| bags per team-hand | {r.new_bags.mean():.2f} | |")
    print()
    print(f"Duplicate deals ({args.deals:,} deals, each played with the teams swapped), seed {args.seed}:\n")
    print("| pairing | points per deal (A - B) | 95% interval |\n|---|---|---|")
    for a, b in (("normal", "easy"), ("easy", "random")):
        m, h = duplicate(a, b, args.deals, args.seed)
        print(f"| {a} vs {b} | {m:+.1f} | [{m - h:+.1f}, {m + h:+.1f}] |")
    easy_nils = (play_hands(["easy", "random"], args.deals, seed=args.seed).bids[:, [0, 2]] == 0).sum()
    print(f"\nEasy nil bids in {args.deals:,} deals (two Easy seats each): {easy_nils}")
    share, n = match_wins("normal", "easy", args.matches, args.seed)
    print(f"\nNormal vs Easy, matches to 500: Normal wins {share:.1%} of {n:,} matches ({args.matches:,} match seeds, both orientations).")


if __name__ == "__main__":
    main()
