"""Issue 45, the diagnosis of Crazy off four in pairs: what its bid weights and its worlds
assumed at each table. No game is played; figures in experiments/RESULTS.md ("Crazy above
Hard at the other tables").

    NUMBA_DISABLE_JIT=1 python experiments/crazy_tables_probe.py bids     # the bid model against Normal's bids
    NUMBA_DISABLE_JIT=1 python experiments/crazy_tables_probe.py nils     # how many hands the nil model calls nils
    python experiments/crazy_tables_probe.py must_win --deals 6           # worlds that break must win at 4 solo

``bids``: at the first bid of each deal (no bag, no bid before), the bid the weights' model
expects (``weights.bid_log_likelihood``'s mode: the count + 0.1) less the bid Normal makes, as
the model read it before issue 45 (the four-player count of the first copy of each card) and
now (``normal.table_estimate`` of the count with every copy). ``nils``: the share of hands
that the nil model finds likely nils (nil-safe and a count under 2 on the table's scale).
``must_win``: hands of Hard (64 worlds) at the ``solo`` preset; at every card from the third trick, the
share of 200 worlds drawn without must win's checks (``sampling.uniform_worlds``) and with
them (``sample_worlds_kernel``) that fit must win (``sampling.fits_must_win``).
"""

from __future__ import annotations

import argparse

import numpy as np

import spades_ai as sa
from spades_ai.engine import state as st
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.bits import U64
from spades_ai.kernels import decision_stream
from spades_ai.montecarlo import sampling
from spades_ai.policies.normal import estimate_tricks, nil_safe, normal_bid, table_estimate

TABLES = {"3 solo": sa.Rules(players=3), "4 pairs": sa.Rules(), "5 solo": sa.Rules(players=5),
          "6 pairs": sa.Rules(players=6, teams="pairs"), "8 solo": sa.Rules(players=8)}


def levels(obs) -> tuple:
    """The seat's hand as copy levels (``engine.copies``) and the table's rules array."""
    pub = obs.public
    return U64(int(obs.engine_cards)), U64(pub[st.P_OWN2]), U64(pub[st.P_OWN3])


def bids(deals: int) -> None:
    for name, rules in TABLES.items():
        ra, old, new = rules.as_array(), [], []
        for i in range(deals):
            obs = sa.Hand(sa.deal(91, i, rules), dealer=i % rules.players, rules=rules).observation()
            h1, h2, h3 = levels(obs)
            b = int(normal_bid(obs.public, obs.seat, h1, ra, np.int64(legal_bids(obs.seat, h1, obs.public, ra))))
            if b > 0:
                old.append(estimate_tricks(h1, ra) + 0.1 - b)
                new.append(table_estimate(estimate_tricks(h1, ra, h2, h3), rules.players, rules.teams == "pairs") + 0.1 - b)
        print(f"{name}: expected bid - Normal's bid, before {np.mean(old):+.2f} (sd {np.std(old):.2f}), "
              f"now {np.mean(new):+.2f} (sd {np.std(new):.2f}), {len(old)} number bids")


def nils(deals: int) -> None:
    for name, rules in {**TABLES, "4 solo": sa.Rules(players=4, teams="solo")}.items():
        ra, likely, n = rules.as_array(), 0, 0
        for i in range(deals):
            hand = sa.Hand(sa.deal(93, i, rules), rules=rules)
            for s in range(rules.players):
                h1, h2, h3 = levels(hand.view(s))
                est = table_estimate(estimate_tricks(h1, ra, h2, h3), rules.players, rules.teams == "pairs")
                likely += bool(nil_safe(h1, h2, h3) and est < 2.0)
                n += 1
        print(f"{name}: hands the nil model calls likely nils {likely / n:.1%} ({n} hands)")


def must_win(deals: int) -> None:
    rules = sa.Rules(players=4, teams="solo", must_win=True)
    ra, hard, before, after = rules.as_array(), sa.make_agent("hard", worlds=64), [], []
    for i in range(deals):
        hand = sa.Hand(sa.deal(77, i, rules), dealer=i % 4, rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            if hand.phase == "playing" and obs.trick_no >= 2:
                pub, seat, h = obs.public, obs.seat, U64(int(obs.engine_cards))
                key = U64(decision_stream(np.int64(5), pub, seat, h))
                checks = sampling.must_win_checks(pub, seat, ra)
                for out, draw in ((before, sampling.uniform_worlds), (after, sampling.sample_worlds_kernel)):
                    out.append(np.mean([sampling.fits_must_win(w, checks, ra) for w in draw(key, pub, seat, h, ra, 200)[1]]))
            hand.bid(hard.bid(obs)) if hand.phase == "bidding" else hand.play(hard.play(obs))
    print(f"4 solo must win, {len(before)} decisions: worlds that fit must win {np.mean(before):.1%} drawn without its "
          f"checks ({np.mean(np.array(before) < 1):.0%} of decisions with some that do not), {np.mean(after):.1%} with them")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("bids", "nils", "must_win"))
    ap.add_argument("--deals", type=int, default=None, help="deals (150 for bids, 100 for nils, 6 for must_win)")
    args = ap.parse_args()
    deals = args.deals or {"bids": 150, "nils": 100, "must_win": 6}[args.what]
    {"bids": bids, "nils": nils, "must_win": must_win}[args.what](deals)
