"""The ``spades-ai`` command line. Bad arguments get one clear line, not a traceback."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def _cmd_demo(args) -> None:
    from spades_ai.simulate import random_playouts

    random_playouts(10, seed=args.seed)  # compile (or load the cache) outside the timing
    start = time.perf_counter()
    tricks = random_playouts(args.deals, seed=args.seed)
    elapsed = time.perf_counter() - start
    print(f"random playouts: {args.deals:,} deals of seed {args.seed} in {elapsed:.2f} s ({args.deals / elapsed:,.0f} hands/s)")
    team = tricks[:, [0, 1]] + tricks[:, [2, 3]]
    print("mean tricks per seat: " + "  ".join(f"{i}: {m:.3f}" for i, m in enumerate(tricks.mean(axis=0))))
    print(f"team 0 takes 7+ tricks in {np.mean(team[:, 0] >= 7):.1%} of deals")


def _cmd_deal(args) -> None:
    from spades_ai.cards import cards_to_mask, format_hand
    from spades_ai.simulate import deal

    for seat, cards in enumerate(deal(args.seed, args.index)):
        print(f"seat {seat}: {format_hand(cards_to_mask(cards))}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spades-ai", description="Monte Carlo AI research toolkit for Spades.")
    sub = p.add_subparsers(dest="command")
    d = sub.add_parser("demo", help="random playouts: the engine's speed baseline (the default)")
    d.add_argument("--deals", type=int, default=200_000)
    d.add_argument("--seed", type=int, default=0)
    d.set_defaults(func=_cmd_demo)
    s = sub.add_parser("deal", help="print deal INDEX of SEED")
    s.add_argument("seed", type=int)
    s.add_argument("index", type=int, nargs="?", default=0)
    s.set_defaults(func=_cmd_deal)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    try:
        args.func(args)
    except (ValueError, OSError) as exc:
        print(f"spades-ai: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
