"""Easy's and Normal's trick counts at each table size: the line from a count to the tricks taken.

    python experiments/table_calibration.py [--players 3 4 5] [--teams solo] [--hands N]
                                            [--seed 5] [--agent easy normal]
    python experiments/table_calibration.py --players 6 7 8 9 10 11 12 --teams solo pairs

Easy's ``easy_count`` (aces, kings, spades beyond three) and Normal's ``estimate_tricks``
(honours, long spades and ruffs) count as at four players. At other tables the same count means
another number of tricks (17 cards among three players win more tricks a card; 10 among five
fewer; 13 among twelve fewer still). For each agent this script plays its self-play at each
table of ``--players`` (3, 4 and 5 by default; solo, and with ``--teams pairs`` also in pairs
where the table is even from six; four players are always the partnership game) on the seed's
deals, fits
``tricks = a + b * count`` over every seat, and prints the lines of its table
(``EASY_TABLE_TRICKS`` in ``spades_ai/policies/easy.py``, ``TABLE_TRICKS`` and, in pairs,
``PAIRS_TABLE_TRICKS`` in ``normal.py``; Easy ignores its partner, and its pairs lines are its
solo ones),
which ``easy.table_count`` and ``normal.table_estimate`` read to map a count at another table
onto the four-player line, so that the bid keeps the margin it has at four players. Four
players keep their count exactly. With several decks (6 to 12 players) a seat's count reads
every copy it holds (the levels of its hand).

``--hands`` defaults to 3,000 deals below six players (the rows of 3 to 5 were fitted so) and
1,000 from six on. Normal's play reads its bid, so its lines depend on the rows it bids by:
fill the rows, run again, and keep the rows once they reproduce themselves.
"""

from __future__ import annotations

import argparse

import numpy as np

import spades_ai as sa
from spades_ai.policies.easy import easy_count
from spades_ai.policies.normal import table_tricks
from spades_ai.simulate import deal_masks

#: Each agent's count of a hand (engine levels ``h1, h2, h3``) under the rules array.
COUNTS = {"easy": lambda h1, h2, h3, arr: easy_count(h1, h2, h3), "normal": lambda h1, h2, h3, arr: table_tricks(h1, arr, h2, h3)}


def counts(agent: str, rules: sa.Rules, hands: int, seed: int) -> np.ndarray:
    """``agent``'s count of every seat's hand of deals ``0 .. hands-1`` of ``seed``,
    ``(hands, players)``, copies counted."""
    n, arr, count = rules.players, rules.as_array(), COUNTS[agent]
    out = np.empty((hands, n))
    for i, row in enumerate(deal_masks(seed, 0, hands, rules)):
        levels = [np.uint64(rules.engine_mask(int(m))) for m in row] + [np.uint64(0)] * (3 * n - len(row))
        for s in range(n):
            out[i, s] = count(levels[s], levels[n + s], levels[2 * n + s], arr)
    return out


def fit(agent: str, rules: sa.Rules, hands: int, seed: int) -> tuple[float, float, float]:
    """(a, b) of tricks = a + b * count over every seat of ``agent``'s self-play, and the mean
    bid margin (bid - tricks taken) of its number bids."""
    rec = sa.play_hands([agent] * rules.players, hands, seed=seed, rules=rules)
    tricks = rec.tricks_won.astype(float)
    b, a = np.polyfit(counts(agent, rules, hands, seed).ravel(), tricks.ravel(), 1)
    bids = rec.bids
    margin = float((bids - tricks)[bids > 0].mean())
    return float(a), float(b), margin


def tables(players: list[int], teams: list[str]):
    """The tables to fit, in order: four players in partnership (the reference line), each
    other size in each of ``teams`` that it allows (pairs at even sizes from six)."""
    for n in players:
        if n == 4:
            yield sa.Rules()
            continue
        for t in teams:
            if t == "solo" or n % 2 == 0 and n >= 6:
                yield sa.Rules(players=n, teams=t)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], choices=range(3, 13))
    ap.add_argument("--teams", nargs="+", choices=("solo", "pairs"), default=["solo"])
    ap.add_argument("--hands", type=int, default=None, help="deals a table (default 3000 below six players, 1000 from six)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--agent", nargs="+", choices=sorted(COUNTS), default=sorted(COUNTS))
    args = ap.parse_args(argv)
    for agent in args.agent:
        for rules in tables(args.players, args.teams):
            hands = args.hands or (3000 if rules.players < 6 else 1000)
            a, b, margin = fit(agent, rules, hands, args.seed)
            table = f"{rules.players} pairs" if rules.teams == "pairs" and rules.players != 4 else f"{rules.players}"
            print(f"{agent} {table}: ({a:.2f}, {b:.2f}),  # bid margin {margin:+.2f}", flush=True)


if __name__ == "__main__":
    main()
