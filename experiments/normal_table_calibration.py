"""Normal's trick count at each table size: the line from its hand estimate to the tricks it takes.

    python experiments/normal_table_calibration.py [--hands 3000] [--seed 5]

Normal's ``estimate_tricks`` counts honours, long spades and ruffs as at four players. At other
tables the same count means another number of tricks (17 cards among three players win more
tricks a card; 10 among five fewer). This script plays Normal self-play at 3, 4 and 5 players
(solo at 3 and 5) on the seed's deals, fits ``tricks = a + b * estimate`` over every seat, and
prints the ``TABLE_TRICKS`` lines of ``spades_ai/policies/normal.py``, which map an estimate at
another table onto the four-player scale (``(a + b * est - a4) / b4``), so that Normal's bid
keeps the margin it has at four players. Four players keep their count exactly.
"""

from __future__ import annotations

import argparse

import numpy as np

import spades_ai as sa
from spades_ai.policies.normal import estimate_tricks


def fit(rules: sa.Rules, hands: int, seed: int) -> tuple[float, float]:
    """(a, b) of tricks = a + b * estimate, over every seat of Normal self-play."""
    rec = sa.play_hands(["normal"] * rules.players, hands, seed=seed, rules=rules)
    arr = rules.as_array()
    est = np.array([[estimate_tricks(np.uint64(rules.engine_mask(int(h))), arr) for h in sa.deal(seed, i, rules)]
                    for i in range(hands)])  # fmt: skip
    b, a = np.polyfit(est.ravel(), rec.tricks_won.ravel().astype(float), 1)
    return float(a), float(b)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    for players in (3, 4, 5):
        a, b = fit(sa.Rules(players=players), args.hands, args.seed)
        print(f"    {players}: ({a:.2f}, {b:.2f}),")


if __name__ == "__main__":
    main()
