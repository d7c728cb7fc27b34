"""A model's card network alone against Normal: Normal's bids at every seat, so only the cards
differ (issue 36's target: at least +4 a deal), and two models' card networks paired; with
``--whole``, the learned agent itself (its bids and its cards: the target +16).

    python experiments/card_player_vs_normal.py MODEL [MODEL2] [--seed 3641] [--deals 2000] [--whole]

``MODEL`` is a shipped name or an ``.npz`` path (``load_model``). Each model's card player (or
agent) meets Normal on ``--deals`` duplicate deals of ``--seed``
(``vector_player_curve.card_player_gains``): points a deal with a 95% interval; with two models,
their difference deal by deal (paired: the same deals) too. One line a figure goes to stdout.
"""

from __future__ import annotations

import argparse

import numpy as np

from vector_player_curve import card_player_gains

from spades_ai.models.model import load_model


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", help="one or two models (a shipped name or an .npz path)")
    ap.add_argument("--seed", type=int, default=3641)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--whole", action="store_true", help="the learned agent with its own bids, not Normal's")
    args = ap.parse_args(argv)
    if len(args.models) > 2:
        ap.error(f"one or two models, not {len(args.models)}")
    gains = [card_player_gains(load_model(m), args.deals, args.seed, args.whole) for m in args.models]
    player = "learned agent" if args.whole else "card network"
    for name, g in zip(args.models, gains):
        print(f"{name}: {player} vs Normal {g.mean():+.2f} ± {_half(g):.2f} ({args.deals:,} deals of seed {args.seed})")
    if len(gains) == 2:
        d = gains[1] - gains[0]
        print(f"{args.models[1]} - {args.models[0]}, paired: {d.mean():+.2f} ± {_half(d):.2f}")


def _half(x: np.ndarray) -> float:
    return float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))


if __name__ == "__main__":
    main()
