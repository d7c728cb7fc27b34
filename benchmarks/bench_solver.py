"""Exact solver speed: double_dummy and card_values per position, on one core.

    python benchmarks/bench_solver.py [--full 200] [--seed 1] [--cpu 0]
    python benchmarks/bench_solver.py --tables 100      # every other table only (3 to 12 seats)

Positions: deals ``0 .. n-1`` of ``--seed`` (``spades_ai.simulate.deal_masks``), dealer 0 so
seat 1 leads, default rules; a position with k tricks left is reached by playing 13 - k tricks
of uniformly random legal cards (``random_position``). Every call goes through the public,
validating functions with int bitboards, after a warm-up call; each is timed by wall clock and
by the process's CPU time (steadier when the machine is shared), and the table gives the
median, 90th percentile, mean and maximum per position. The process is pinned to one core.

The objective search uses a Spades leaf: the point difference of the hand for the team of the
seat to act, each new bag costing 10 points (100 per 10), with the bids of a made-up auction
(one of them a nil) scored by ``spades_ai.score_hand``.

``--tables N``: the paranoid solver of every other table (``engine.table_solver``), N positions
a table and tricks left: deals ``0 .. N-1`` of ``--seed`` at that table, dealer 0, the bids the
first legal ones, played with uniformly random legal cards (``random.Random(i)``) down to k
tricks left; ``double_dummy`` from the leader and ``card_values`` of the leader on the trick
count of its side (``tricks_leaf(side, rules)``, the ranked leaf built per call included).
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import time

import numpy as np

from spades_ai import Hand, Rules, deal, score_hand
from spades_ai.engine import solver as ksolver
from spades_ai.engine.rng import stream_state
from spades_ai.simulate import deal_masks
from spades_ai.seats import seats, side_of
from spades_ai.solver import card_values, double_dummy, tricks_leaf

POSITION_STREAM = 77


def random_position(seed: int, index: int, tricks_left: int):
    """Deal ``index`` of ``seed`` played at random down to ``tricks_left`` tricks: the four
    bitboards, the leader, whether spades are broken, and each seat's tricks."""
    hands = deal_masks(seed, index, 1)[0].copy()
    won = np.zeros(4, np.int64)
    state = np.uint64(stream_state(np.uint64(seed), index, POSITION_STREAM))
    leader, broken, _ = ksolver.play_random_tricks(hands, 1, 13 - tricks_left, state, 0, 0, won)
    return [int(h) for h in hands], int(leader), bool(broken), won.tolist()


def spades_leaf(bids, team: int) -> np.ndarray:
    """Point difference for ``team`` (new bags at 10 points each) of every 13-trick outcome."""
    leaf = np.zeros((14, 14, 14, 14))
    for t in itertools.product(range(14), repeat=3):
        last = 13 - sum(t)
        if last < 0:
            continue
        r = score_hand(bids, (*t, last))
        value = [r.points[k] - 10 * r.new_bags[k] for k in range(2)]
        leaf[(*t, last)] = value[team] - value[1 - team]
    return leaf


#: The tables of ``--tables`` and the tricks left they are timed at.
TABLES = (("3 solo", Rules(players=3), (3, 5)), ("4 solo", Rules(players=4, teams="solo"), (3, 5)),
          ("5 solo", Rules(players=5), (3, 5)), ("6 solo", Rules(players=6), (3, 4)),
          ("6 pairs", Rules(players=6, teams="pairs"), (3, 4)), ("8 pairs", Rules(players=8, teams="pairs"), (3, 4)),
          ("8 solo", Rules(players=8), (3, 4)), ("12 solo", Rules(players=12), (2, 3)))


def table_position(rules: Rules, seed: int, index: int, tricks_left: int):
    """Deal ``index`` of ``seed`` at the table of ``rules`` played at random down to
    ``tricks_left`` tricks: every seat's cards, the leader, spades broken, each seat's tricks."""
    hand = Hand(deal(seed, index, rules), rules=rules, dealer=0)
    rnd = random.Random(index)
    while hand.phase == "bidding":
        hand.bid(hand.legal_bids()[0])
    while hand.trick_no < rules.cards_each - tricks_left or hand.current_trick:
        hand.play(rnd.choice(hand.legal_cards()))
    return [hand.cards(s) for s in seats(rules)], hand.leader, hand.spades_broken, list(hand.tricks_won)


def table_rows(n: int, seed: int) -> list[str]:
    lines = []
    for name, rules, lefts in TABLES:
        for k in lefts:
            cases = [table_position(rules, seed, i, k) for i in range(n)]
            dd = lambda h, leader, broken, won: double_dummy(h, leader, rules, spades_broken=broken)  # noqa: E731
            lines.append(row(f"{name}: double_dummy, {k} tricks left", n, *timed(dd, cases)))
            cv = lambda h, leader, broken, won: card_values(  # noqa: E731
                h, leader, tricks_leaf(side_of(leader, rules), rules), side_of(leader, rules), tricks_won=won,
                rules=rules, spades_broken=broken)
            lines.append(row(f"{name}: card_values, {k} tricks left", n, *timed(cv, cases)))
    return lines


def timed(fn, args_list):
    fn(*args_list[0])  # warm-up: load the kernels from numba's cache
    wall, cpu = [], []
    for args in args_list:
        t0, c0 = time.perf_counter(), time.process_time()
        fn(*args)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return np.array(wall) * 1e3, np.array(cpu) * 1e3


def row(name: str, n: int, wall: np.ndarray, cpu: np.ndarray, target: str = "") -> str:
    def fmt(x: float) -> str:
        return f"{x:.3f}" if x < 1 else f"{x:.1f}" if x < 100 else f"{x:.0f}"

    return (f"| {name} | {n} | **{fmt(np.median(wall))}** / {fmt(np.median(cpu))} | "
            f"{fmt(np.percentile(wall, 90))} / {fmt(np.percentile(cpu, 90))} | {fmt(wall.mean())} | "
            f"{fmt(wall.max())} | {target} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", type=int, default=200, help="full deals")
    ap.add_argument("--eight", type=int, default=1000, help="positions with 8 tricks left")
    ap.add_argument("--five", type=int, default=5000, help="positions with 5 tricks left")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu", type=int, default=0, help="core to pin the process to (-1: no pinning)")
    ap.add_argument("--tables", type=int, default=0, help="positions a table and tricks left at every other table "
                    "(only those are timed)")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.full, args.eight, args.five = 1, 3, 3
        args.tables = min(args.tables, 2)
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    load_before = os.getloadavg()
    started = time.strftime("%H:%M UTC", time.gmtime())

    lines = table_rows(args.tables, args.seed) if args.tables else four_in_pairs_rows(args)
    load_after = os.getloadavg()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores shared with other sessions; pinned to core "
          f"{args.cpu}; started {started}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print()
    print("| measure | positions | median ms (wall / CPU) | p90 ms (wall / CPU) | mean ms (wall) | max ms (wall) | target |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(lines))


def four_in_pairs_rows(args) -> list[str]:
    lines = []
    dd = lambda h, leader, broken: double_dummy(h, leader, spades_broken=broken)
    for name, k, n, target in (("double_dummy, full deal (13 tricks)", 13, args.full, "<= 100 ms"),
                               ("double_dummy, 8 tricks left", 8, args.eight, ""),
                               ("double_dummy, 5 tricks left", 5, args.five, "<= 0.5 ms")):
        cases = [random_position(args.seed, i, k)[:3] for i in range(n)]
        wall, cpu = timed(dd, cases)
        lines.append(row(name, n, wall, cpu, target))

    bids = [(3, 4, 0, 3), (4, 3, 2, 3), (2, 5, 3, 0), (5, 2, 4, 1)]
    leaves = {(b, t): spades_leaf(b, t) for b in bids for t in (0, 1)}
    for name, k, n in (("card_values, Spades leaf, 8 tricks left", 8, args.eight),
                       ("card_values, Spades leaf, 5 tricks left", 5, args.five)):
        cases = []
        for i in range(n):
            h, leader, broken, won = random_position(args.seed, i, k)
            team = leader & 1
            cases.append((h, leader, leaves[(bids[i % len(bids)], team)], team, won, broken))
        cv = lambda h, leader, leaf, team, won, broken: card_values(
            h, leader, leaf, team, tricks_won=won, spades_broken=broken)
        wall, cpu = timed(cv, cases)
        lines.append(row(name, n, wall, cpu))
    return lines


if __name__ == "__main__":
    main()
