"""World sampling at every table size: the time of one decision's worlds (the counting table and
``--worlds`` worlds, Hard's 512 by default) and per world, at 4 players against 8 and 12 (copies).

    python benchmarks/bench_sampler.py [--players 4,8,12] [--positions 40] [--worlds 512] [--repeats 5] [--smoke]

Positions: ``--positions`` deals per table, each cut at a random card of tricks 1 to 10 of a
play in which every seat follows suit with a random card when it can, else plays any card and
shows the void; the seat to play next looks on (its view written by hand, copies in
``P_OWN2`` / ``P_OWN3``, as the engine of these tables will). Each position is sampled once to
compile, then timed ``--repeats`` times (the best kept); the table prints each size's median
over positions and its ratio to four players', and how many positions merged seats into
groups or counted in float64.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

import numpy as np

from spades_ai import Rules
from spades_ai.engine import state as st
from spades_ai.montecarlo.sampling import constraints_with_copies, counts_fit, sample_worlds_kernel, seat_groups, table_fits
from spades_ai.rules import R_DECK, R_DECK2, R_DECK3


def levels(cards, decks: int) -> list[int]:
    """The copy levels of a multiset of card ids (``engine.copies``)."""
    count = Counter(cards)
    return [sum(1 << c for c, k in count.items() if k > lv) for lv in range(decks)] + [0] * (3 - decks)


def position(rules: Rules, rng: random.Random):
    """``(pub, seat, hand)`` of a random point of a follow-suit play (module docstring)."""
    n, decks, a = rules.players, rules.decks, rules.as_array()
    deck = [c for c in range(52) for slot in (R_DECK, R_DECK2, R_DECK3) if int(a[slot]) >> c & 1]
    rng.shuffle(deck)
    hands = [deck[s * rules.cards_each:(s + 1) * rules.cards_each] for s in range(n)]
    played = [[] for _ in range(n)]
    voids = 0
    stop = rng.randrange(n, 10 * n)  # cards played before the decision
    leader, done, seat = 0, 0, 0
    while done < stop:
        led = None
        for i in range(n):
            s = (leader + i) % n
            if done == stop:
                seat = s
                break
            follow = [c for c in hands[s] if led is not None and c // 13 == led]
            if led is not None and not follow:
                voids |= 1 << (4 * s + led)
            c = rng.choice(follow or hands[s])
            led = c // 13 if led is None else led
            hands[s].remove(c)
            played[s].append(c)
            done += 1
        else:
            leader = seat = rng.randrange(n)  # who wins does not matter to the constraints
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    pub[st.P_BIDS:st.P_BIDS + n] = 3
    for s in range(n):
        for slot, lv in zip((st.P_PLAYED_BY, st.P_PLAYED_BY2, st.P_PLAYED_BY3), levels(played[s], decks)):
            pub[slot + s] = lv
    for slot, lv in zip((st.P_PLAYED, st.P_PLAYED2, st.P_PLAYED3), levels(sum(played, []), decks)):
        pub[slot] = lv
    pub[st.P_DECK], pub[st.P_DECK2], pub[st.P_DECK3] = a[R_DECK], a[R_DECK2], a[R_DECK3]
    pub[st.P_VOIDS] = voids
    own = levels(hands[seat], decks)
    pub[st.P_OWN2], pub[st.P_OWN3] = own[1], own[2]
    return pub, seat, np.uint64(own[0]), a


def time_table(players: int, positions: int, worlds: int, repeats: int, seed: int) -> dict:
    """Seconds per decision (table + ``worlds`` worlds) at each position, and what it counted."""
    rules = Rules(players=players)
    rng = random.Random(seed)
    out = {"decision": [], "merged": 0, "float": 0}
    for i in range(positions):
        pub, seat, hand, a = position(rules, rng)
        unseen, _, need, lo, hi, _ = constraints_with_copies(pub, seat, hand, a)
        fits = table_fits(unseen, need)
        out["merged"] += not fits
        out["float"] += not counts_fit(unseen, seat_groups(need, lo, hi, not fits)[1])
        state = np.uint64(i)
        sample_worlds_kernel(state, pub, seat, hand, a, worlds)
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            sample_worlds_kernel(state, pub, seat, hand, a, worlds)
            best = min(best, time.perf_counter() - t0)
        out["decision"].append(best)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="4,8,12")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=512)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.positions, args.worlds, args.repeats, args.players = 3, 8, 1, "4,8"
    sizes = [int(p) for p in args.players.split(",")]
    print(f"| table | decks | median decision ({args.worlds} worlds), ms | p90, ms | per world, µs "
          f"| median / four players' | merged | float64 |")
    print("|---|---|---|---|---|---|---|---|")
    base = None
    for p in sizes:
        r = time_table(p, args.positions, args.worlds, args.repeats, args.seed)
        med = statistics.median(r["decision"])
        p90 = float(np.percentile(r["decision"], 90))
        base = med if p == 4 else base
        ratio = f"{med / base:.2f}" if base else "-"
        print(f"| {p} players | {Rules(players=p).decks} | {med * 1e3:.3f} | {p90 * 1e3:.3f} | {med / args.worlds * 1e6:.2f} "
              f"| {ratio} | {r['merged']}/{args.positions} | {r['float']}/{args.positions} |")


if __name__ == "__main__":
    main()
