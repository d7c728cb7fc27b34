"""Easy's and Normal's trick counts at each table size: the line from a count to the tricks taken.

    python experiments/table_calibration.py [--hands 3000] [--seed 5] [--agent easy normal]

Easy's ``easy_count`` (aces, kings, spades beyond three) and Normal's ``estimate_tricks``
(honours, long spades and ruffs) count as at four players. At other tables the same count means
another number of tricks (17 cards among three players win more tricks a card; 10 among five
fewer). For each agent this script plays its self-play at 3, 4 and 5 players (solo at 3 and 5)
on the seed's deals, fits ``tricks = a + b * count`` over every seat, and prints the lines of its
table (``EASY_TABLE_TRICKS`` in ``spades_ai/policies/easy.py``, ``TABLE_TRICKS`` in
``normal.py``), which ``tactics.four_player_scale`` reads to map a count at another table onto
the four-player line (``(a + b * count - a4) / b4``), so that the bid keeps the margin it has at
four players. Four players keep their count exactly.
"""

from __future__ import annotations

import argparse

import numpy as np

import spades_ai as sa
from spades_ai.policies.easy import easy_count
from spades_ai.policies.normal import estimate_tricks

#: Each agent's count of a hand (an engine bitboard) under the rules array.
COUNTS = {"easy": lambda hand, arr: easy_count(hand), "normal": estimate_tricks}


def fit(agent: str, rules: sa.Rules, hands: int, seed: int) -> tuple[float, float]:
    """(a, b) of tricks = a + b * count, over every seat of ``agent``'s self-play."""
    rec = sa.play_hands([agent] * rules.players, hands, seed=seed, rules=rules)
    arr = rules.as_array()
    count = COUNTS[agent]
    est = np.array([[count(np.uint64(rules.engine_mask(int(h))), arr) for h in sa.deal(seed, i, rules)]
                    for i in range(hands)], dtype=float)  # fmt: skip
    b, a = np.polyfit(est.ravel(), rec.tricks_won.ravel().astype(float), 1)
    return float(a), float(b)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--agent", nargs="+", choices=sorted(COUNTS), default=sorted(COUNTS))
    args = ap.parse_args(argv)
    for agent in args.agent:
        for players in (3, 4, 5):
            a, b = fit(agent, sa.Rules(players=players), args.hands, args.seed)
            print(f"{agent} {players}: ({a:.2f}, {b:.2f}),")


if __name__ == "__main__":
    main()
