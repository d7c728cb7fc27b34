"""Hand review speed (issue 22): a whole hand reviewed, per hand, on one core.

    python benchmarks/bench_review.py [--hands 20] [--seed 5] [--from-trick 8] [--judge solver] [--cpu 0]
    python benchmarks/bench_review.py --players 8 [--teams pairs]     # another table (its default window)

Hands: deals ``0 ..`` of ``--seed`` at the table of ``--players`` / ``--teams`` played out by
Normal (dealer ``i % players``). Each is reviewed
by ``spades_ai.review(hand, judge)`` after a warm-up review (compiles), and for the solver
also with the whole deal's double dummy (``whole_deal=True``, four in pairs only), timed by the wall clock
and by the process's CPU time; the table gives the median, 90th percentile, mean and maximum
per hand. With ``--judge hard`` (or ``crazy``) the same hands are also played again by that
agent, decision by decision from the same positions (its ``bid`` / ``play`` on every
observation of the hand), for the target "a review costs no more than the agent playing it".
The process is pinned to one core.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import spades_ai as sa
from spades_ai.seats import table_name


def normal_hands(n: int, seed: int, rules: sa.Rules | None = None) -> list[sa.Hand]:
    rules = sa.Rules() if rules is None else rules
    normal = sa.make_agent("normal")
    out = []
    for i in range(n):
        hand = sa.Hand(sa.deal(seed, i, rules), dealer=i % rules.players, rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
        out.append(hand)
    return out


def timed(fn) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def agent_plays(agent, hand: sa.Hand) -> None:
    """The agent's decision at every position of the hand (the hand's own actions are played)."""
    record = hand.to_record()
    again = sa.Hand.from_record(dict(record, bids=[], blind=[], plays=[]))
    for b, bl in zip(record["bids"], record["blind"]):
        agent.bid(again.observation())
        again.bid(b, blind=bl)
    for c in record["plays"]:
        agent.play(again.observation())
        again.play(c)


def row(name: str, times: list[tuple[float, float]]) -> str:
    wall, cpu = np.array(times).T
    stats = lambda a: f"{np.median(a):8.3f} {np.percentile(a, 90):8.3f} {a.mean():8.3f} {a.max():8.3f}"
    return f"{name:44} wall {stats(wall)} | cpu {stats(cpu)}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--from-trick", type=int, default=None, help="default: the table's (8 of 13 at four in pairs)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--teams", default=None, help="pairs or solo (default: the table's)")
    ap.add_argument("--judge", default="solver", choices=("solver", "hard", "crazy"))
    ap.add_argument("--cpu", type=int, default=0)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.hands = 1
    os.sched_setaffinity(0, {args.cpu})
    rules = sa.Rules(players=args.players, **({"teams": args.teams} if args.teams else {}))
    hands = normal_hands(args.hands, args.seed, rules)
    first = sa.review(hands[0], args.judge, from_trick=args.from_trick)  # warm-up: compiles the judge
    print(f"{platform.processor() or platform.machine()}, 1 core, {args.hands} hands of Normal, seed {args.seed}, "
          f"{table_name(rules)}")
    print(f"{'seconds per hand':44}      {'median':>8} {'p90':>8} {'mean':>8} {'max':>8}")
    times = [timed(lambda h=h: sa.review(h, args.judge, from_trick=args.from_trick)) for h in hands]
    window = f", tricks {first.attrs['from_trick']}..{rules.cards_each}" if args.judge == "solver" else ""
    what = f"review, {args.judge}{window}"
    print(row(what, times))
    if args.judge == "solver" and rules.four_in_pairs:
        times = [timed(lambda h=h: sa.review(h, from_trick=args.from_trick, whole_deal=True)) for h in hands]
        print(row(what + " + whole-deal DD", times))
    if args.judge != "solver":
        agent = sa.make_agent(args.judge)
        agent_plays(agent, hands[0])
        print(row(f"{args.judge} playing the hand", [timed(lambda h=h: agent_plays(agent, h)) for h in hands]))


if __name__ == "__main__":
    main()
