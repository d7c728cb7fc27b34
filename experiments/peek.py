"""The ceiling of Hard's design at a solo table: a seat that sees every hand.

Hard values each bid and card by playing it out with Normal in worlds sampled to fit what it
has seen. The *peeking* seat here does the same in the one true world: every seat's cards in
view, each legal bid or card played out by Normal to the end of the hand (``search.
rollout_values``, the search's own kernel, with Normal rollouts and Hard's default utility),
the best taken. It is what Hard would do with a perfect sampler and perfect reading of the
play, so its margin over Normal is the most that more or better worlds can add to Hard; what
separates it from Hard is the cost of the hidden cards.

One peeking seat against Normals at every rotation of every deal (the ladder's rotated
duplicate deals at a solo table): a deal's figure is the mean over the rotations of the seat's
points less the mean of the other seats', so Normal against Normals scores 0 on every deal.

    python experiments/peek.py --rules solo --deals 400 --seed 4502
    python experiments/peek.py --players 5 --deals 400 --seed 4504
    python experiments/peek.py --rules solo --deals 400 --seed 4502 --peeks bidding

``--peeks bidding`` (or ``playing``) lets the seat see every hand for its bid (or its cards)
only and play (or bid) as Normal otherwise: where the hidden cards cost Hard most.

Prints the margin with its 95% interval, in points and with bags at their cost
(``analysis.bags_at_cost``: a hand starts with no bags, so a bag's penalty never comes), the
peeking seat's mean bid, tricks, set rate and bags, and Normal's. Tables in pairs are refused: the figure compares one seat with the rest.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import spades_ai as sa
from spades_ai.analysis.summary import mean_interval, points_at_bag_cost
from spades_ai.engine.seats import side_of
from spades_ai.engine.state import legal_now
from spades_ai.game import Hand
from spades_ai.montecarlo.candidates import candidate_ids
from spades_ai.montecarlo.finishes import no_finish
from spades_ai.montecarlo.search import SearchSettings, rollout_values
from spades_ai.montecarlo.utility import DEFAULT_UTILITY, UTILITIES
from spades_ai.seats import seats
from spades_ai.simulate import deal

#: One world (the true one), no racing, no exact finishes, no weights: Hard's rollouts.
SETTINGS = SearchSettings(worlds=1, rollouts=0, bid_aware=False, solver_tricks=0, race_z=0.0, thrift=False,
                          play_eps=0.0)  # fmt: skip


def best_choice(hand: Hand, choices: np.ndarray, is_bid: bool) -> int:
    """The choice whose Normal playout in the true world is worth most to the seat to act."""
    seat, rules = hand.to_act, hand.rules_array
    f = no_finish(rules, side_of(seat, rules), UTILITIES.index(DEFAULT_UTILITY))
    world = hand.rules.engine_hands([hand.cards(s) for s in seats(hand.rules)]).reshape(1, -1)
    values, _, _, _ = rollout_values(hand.public.copy(), seat, rules, choices, is_bid, world, np.ones(1), SETTINGS,
                                     np.int64(0), f)  # fmt: skip
    return int(choices[int(np.argmax(values[0]))])


def peek_bid(hand: Hand) -> int:
    return best_choice(hand, np.array(hand.legal_bids(), dtype=np.int64), True)


def peek_card(hand: Hand):
    obs = hand.observation()
    legal = legal_now(obs.public, obs.engine_cards, obs.rules_array)
    return hand.rules.engine_deck[best_choice(hand, candidate_ids(np.uint64(legal)), False)]


def play_deal(cards, dealer: int, peeker: int, peeks: str, normal, rules: sa.Rules) -> Hand:
    """One hand of ``cards`` (a deal): ``peeker`` sees every hand for its bid, its cards or both
    (``peeks``), and plays as Normal otherwise; Normal at the other seats."""
    hand = Hand(cards, dealer, rules)
    while hand.phase != "over":
        peek = hand.to_act == peeker and peeks in ("both", hand.phase)
        if hand.phase == "bidding":
            hand.bid(peek_bid(hand) if peek else normal.bid(hand.observation()))
        else:
            hand.play(peek_card(hand) if peek else normal.play(hand.observation()))
    return hand


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default=None, help="a preset (solo, cutthroat); else --players")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=4502)
    ap.add_argument("--peeks", choices=("both", "bidding", "playing"), default="both",
                    help="where the seat sees every hand: its bid, its cards or both (else it is Normal)")
    args = ap.parse_args(argv)
    rules = sa.Rules.preset(args.rules) if args.rules else sa.Rules(players=args.players, teams="solo")
    if rules.n_sides != rules.players:
        ap.error(f"a table in pairs ({rules.players} players) is refused: the figure compares one seat with the rest")
    n = rules.players
    normal = sa.make_agent("normal", seed=1)
    margins, costed = [], []  # a deal's margin in points, and with bags at their cost
    stats = {"peek": np.zeros(5), "normal": np.zeros(5)}  # bids, tricks, sets, bags, count
    t0 = time.perf_counter()
    for i in range(args.deals):
        cards = deal(args.seed, i, rules)
        margins.append(0.0)
        costed.append(0.0)
        for peeker in range(n):
            r = play_deal(cards, i % n, peeker, args.peeks, normal, rules).result()
            valued = [points_at_bag_cost(p, k, b, rules) for p, k, b in zip(r.points, r.bag_penalties, r.new_bags)]
            for points, out in ((r.points, margins), (valued, costed)):
                others = [points[s] for s in range(n) if s != peeker]
                out[-1] += (points[peeker] - sum(others) / len(others)) / n
            for s in range(n):
                who = "peek" if s == peeker else "normal"
                stats[who] += (r.bids[s], r.tricks_won[s], r.bids[s] > 0 and not r.made[s], r.new_bags[s], 1)
        if (i + 1) % 50 == 0:
            print(f"{i + 1} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr)

    print(f"{rules.players} players solo ({args.rules or 'no preset'}), {args.deals} deals, seed {args.seed}, "
          f"peeking in {args.peeks}")
    print("peeking seat - Normals: {:+.1f} [{:+.1f}, {:+.1f}] points a deal".format(*mean_interval(np.array(margins))))
    print("  with bags at their cost: {:+.1f} [{:+.1f}, {:+.1f}]".format(*mean_interval(np.array(costed))))
    for who, (b, t, s, g, c) in stats.items():
        print(f"  {who}: bid {b / c:.2f}, tricks {t / c:.2f}, set {100 * s / c:.1f}%, bags {g / c:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
