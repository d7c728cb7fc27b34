"""The learned agent's speed against Hard's at each table it has a model of (issue 44, item 5:
at least 100x Hard's speed there).

    python benchmarks/bench_learned_tables.py                      # a markdown table for RESULTS.md
    python benchmarks/bench_learned_tables.py --learned-hands 2000 --hard-hands 10 --rounds 5

Each agent plays every seat of ``play_hands`` (its kernels in the numba self-play loop, as a
tournament runs it) on the same deals; its time a decision is the process's CPU time over the
hands' decisions (every bid and card, ``players * (cards_each + 1)`` a hand), after a warm-up
hand (compile or cache load). The two agents are timed round by round, interleaved, so a change
in the machine's load falls on both; each figure is the median over ``--rounds``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from spades_ai import Rules, make_agent, play_hands
from spades_ai.models.model import load_models
from spades_ai.seats import table_name


def per_decision(agent, hands: int, rules: Rules, seed: int) -> float:
    """CPU seconds a decision of ``agent`` at every seat over ``hands`` deals of ``seed``."""
    t0 = time.process_time()
    play_hands([agent] * rules.players, hands, seed=seed, rules=rules)
    return (time.process_time() - t0) / (hands * rules.players * (rules.cards_each + 1))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--learned-hands", type=int, default=1000, help="hands a round of the learned agent")
    ap.add_argument("--hard-hands", type=int, default=4, help="hands a round of Hard")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args(argv)
    if args.smoke:
        args.learned_hands, args.hard_hands, args.rounds = 2, 1, 1
    learned, hard = make_agent("learned"), make_agent("hard")
    print(f"learned agent vs Hard, CPU time a decision (median of {args.rounds} interleaved rounds; {platform.processor() or platform.machine()})\n")
    print("| table | learned, µs a decision | Hard, ms a decision | Hard / learned |")
    print("|---|---|---|---|")
    for model in load_models("default")[: 2 if args.smoke else None]:  # smoke: 4 in pairs and 3 players
        rules = model.rules
        per_decision(learned, 1, rules, args.seed)  # warm-up: compile or load the kernels
        per_decision(hard, 1, rules, args.seed)
        times = {"learned": [], "hard": []}
        for r in range(args.rounds):
            times["learned"].append(per_decision(learned, args.learned_hands, rules, args.seed + r))
            times["hard"].append(per_decision(hard, args.hard_hands, rules, args.seed + r))
        a, b = statistics.median(times["learned"]), statistics.median(times["hard"])
        print(f"| {table_name(rules)} | {a * 1e6:.1f} | {b * 1e3:.2f} | {b / a:,.0f}x |", flush=True)


if __name__ == "__main__":
    main()
