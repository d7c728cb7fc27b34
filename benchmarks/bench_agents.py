"""Agent speed: self-play hands/s, per-decision times, and world sampling.

    python benchmarks/bench_agents.py [--hands 200000] [--positions 20] [--keep-plays] [--stat best]
    python benchmarks/bench_agents.py --players 3,4,5 [--hands 100000] [--repeats 7]
    python benchmarks/bench_agents.py --hard-players 3,4,5 [--positions 20] [--agents hard,crazy]

- Self-play: ``play_hands`` with four copies of an agent (bid + play + score all in numba), one
  core, median of ``--repeats`` runs after a warm-up (``--stat best``: the fastest run, which on a
  shared machine estimates the undisturbed speed far more steadily than the median). Per-decision time of the fast agents is
  derived from it (56 decisions a hand). ``--keep-plays`` records the cards in play order too.
- Hard and Crazy: every decision point (4 bids, 52 cards) of ``--positions`` hands of Normal
  self-play is put to the agent through its Python face; median and 90th percentile.
- Sampling: one consistent world of 39 unseen cards, after the per-decision counting table.
- ``--hard-players``: only Hard's decision times (as above) at each table size, solo except
  four in pairs, and each size's median against four players'; ``--agents hard,crazy`` times
  Crazy too (a table each).
- ``--players``: only random playouts and Normal self-play at each table size (``Rules(players=
  ...)``, solo except four in pairs), in cards played a second of CPU time, the sizes timed in
  turn round after round so that a change of load hits all of them; each size's median over
  the rounds and its ratio to four players.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from spades_ai import Hand, Rules, deal, make_agent, play_hands, random_playouts
from spades_ai.montecarlo.sampling import count_worlds_kernel, sample_world, world_constraints
from spades_ai.engine.jit import kernel
from spades_ai.engine.rng import stream_state


def selfplay_rate(name: str, n: int, repeats: int, keep_plays: bool = False, stat: str = "median") -> tuple[float, float]:
    """Hands/s by wall clock and by the process's CPU time (steadier on a shared machine), the
    median or the best of the runs."""
    extra = {"keep_plays": True} if keep_plays else {}  # (runs against older checkouts too)
    play_hands([name] * 4, 100, seed=1, **extra)
    wall, cpu = [], []
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        play_hands([name] * 4, n, seed=r, **extra)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    pick = statistics.median if stat == "median" else min
    return n / pick(wall), n / pick(cpu)


def decision_times(agent, positions: int, seed: int = 5, cards_only: bool = False, rules: Rules | None = None) -> np.ndarray:
    """Seconds per decision of ``agent`` at every decision point (every card one with
    ``cards_only``) of Normal self-play hands at the table of ``rules`` (4 in pairs by default)."""
    normal = make_agent("normal")
    rules = rules or Rules()
    warm = Hand(deal(seed, 0, rules), rules=rules)
    agent.bid(warm.observation())
    out = []
    for i in range(positions):
        hand = Hand(deal(seed, i, rules), dealer=i % rules.players, rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            if not (cards_only and hand.phase == "bidding"):
                t0 = time.perf_counter()
                agent.bid(obs) if hand.phase == "bidding" else agent.play(obs)
                out.append(time.perf_counter() - t0)
            if hand.phase == "bidding":
                hand.bid(normal.bid(obs))
            else:
                hand.play(normal.play(obs))
    return np.array(out)


@kernel
def _sample_many(state, f, unseen, others, need, lo, hi, n):
    hands = np.zeros(4, dtype=np.uint64)
    acc = np.uint64(0)
    for _ in range(n):
        state = sample_world(state, f, unseen, others, need, lo, hi, hands)
        acc ^= hands[others[0]]
    return acc


def sampling_time(n: int = 200_000) -> tuple[float, float]:
    """(µs per world, µs for the counting table) for a first-trick position (39 unseen cards)."""
    hand = Hand(deal(3))
    for _ in range(4):
        hand.bid(3)
    hand.play(hand.legal_cards()[0])
    obs = hand.observation()
    unseen, others, need, lo, hi, _ = world_constraints(obs.public, obs.seat, np.uint64(obs.cards), obs.rules_array)
    f = count_worlds_kernel(unseen, need, lo, hi)
    t0 = time.perf_counter()
    for _ in range(1000):
        count_worlds_kernel(unseen, need, lo, hi)
    table_us = (time.perf_counter() - t0) / 1000 * 1e6
    state = stream_state(np.uint64(1), 0, 0)
    _sample_many(state, f, unseen, others, need, lo, hi, 10)
    t0 = time.perf_counter()
    _sample_many(state, f, unseen, others, need, lo, hi, n)
    return (time.perf_counter() - t0) / n * 1e6, table_us


def table_rates(sizes: list[int], n: int, repeats: int) -> None:
    """Print random-playout and Normal self-play cards/s (CPU time) at each table size."""
    tables = {p: Rules(players=p) for p in sizes}
    jobs = {
        "random playouts": lambda rules, r: random_playouts(n, seed=r, rules=rules),
        "Normal self-play": lambda rules, r: play_hands(["normal"] * rules.players, n // 4, seed=r, rules=rules),
    }
    print(f"| table | {' | '.join(f'{what}, cards/s (vs 4 players)' for what in jobs)} |")
    print("|---|" + "---|" * len(jobs))
    rates = {(what, p): [] for what in jobs for p in sizes}
    for what, job in jobs.items():
        for p, rules in tables.items():
            job(rules, 0)  # compile and warm up
        for r in range(repeats):
            for p, rules in tables.items():
                c0 = time.process_time()
                cards = len(job(rules, r + 1)) * rules.players * rules.cards_each
                rates[what, p].append(cards / (time.process_time() - c0))
    for p, rules in tables.items():
        cells = []
        for what in jobs:
            rate = statistics.median(rates[what, p])
            base = statistics.median(rates[what, 4]) if 4 in sizes else rate
            cells.append(f"{rate / 1e6:.1f} M ({rate / base:.2f})")
        print(f"| {p} players {rules.teams} | {' | '.join(cells)} |")


def search_table_times(name: str, sizes: list[int], positions: int, budget: dict) -> None:
    """The median decision time of ``name`` (Hard or Crazy, its defaults) at each table size
    (``--hard-players``) and its ratio to four players' (which is timed first, whether asked or
    not)."""
    agent = make_agent(name, **budget)
    four = None
    print(f"| table | {name.capitalize()}'s median decision | p90 | decisions | median / four players' |")
    print("|---|---|---|---|---|")
    for p in [4] + sorted(set(sizes) - {4}):
        rules = Rules(players=p) if p != 4 else Rules()
        t = decision_times(agent, positions, rules=rules)
        median = np.median(t)
        four = four or median
        print(f"| {p} players {rules.teams} | {median * 1e3:.2f} ms | {np.percentile(t, 90) * 1e3:.2f} ms | {len(t)} | {median / four:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--positions", type=int, default=20, help="hands of decision points for Hard and Crazy")
    ap.add_argument("--skip-mc", action="store_true", help="leave out Hard and Crazy")
    ap.add_argument("--keep-plays", action="store_true", help="self-play records the cards in play order")
    ap.add_argument("--stat", choices=("median", "best"), default="median", help="which run's speed to report")
    ap.add_argument("--players", help="comma-separated table sizes (3,4,5): playouts and Normal self-play only")
    ap.add_argument("--hard-players", help="comma-separated table sizes (3,4,5): Hard's decision times only")
    ap.add_argument("--agents", default="hard", help="with --hard-players: the agents timed, one table each (hard,crazy)")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    budget = {"worlds": 8} if args.smoke else {}  # Hard's and Crazy's
    if args.smoke:
        args.hands, args.repeats, args.positions = 200, 1, 1
    if args.hard_players:
        for name in args.agents.split(","):
            search_table_times(name, [int(p) for p in args.hard_players.split(",")], args.positions, budget)
        return
    if args.players:
        table_rates([int(p) for p in args.players.split(",")], args.hands, args.repeats)
        return

    print("| agent | self-play hands/s, one core: wall clock / CPU time | time per decision |")
    print("|---|---|---|")
    for name in ("random", "easy", "normal"):
        wall, cpu = selfplay_rate(name, args.hands, args.repeats, args.keep_plays, args.stat)
        print(f"| {name} | {wall:,.0f} / {cpu:,.0f} | {1e9 / cpu / 56:.0f} ns (mean CPU, incl. dealing and scoring) |")
    if not args.skip_mc:
        for name in ("hard", "crazy"):
            agent = make_agent(name, **budget)
            t = decision_times(agent, args.positions)
            print(
                f"| {name} (worlds={agent.options['worlds']}) | - | median {np.median(t) * 1e3:.2f} ms, "
                f"p90 {np.percentile(t, 90) * 1e3:.2f} ms, mean {t.mean() * 1e3:.2f} ms ({len(t)} decisions) |"
            )
    world_us, table_us = sampling_time(1000 if args.smoke else 200_000)
    print()
    print(f"World sampling (39 unseen cards, first trick): {world_us:.2f} µs per world; counting table {table_us:.1f} µs per decision.")


if __name__ == "__main__":
    main()
