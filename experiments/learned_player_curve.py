"""The learned card player's strength against the size of its data (issue 21).

    python experiments/learned_player_curve.py [--hands 200 400 800] [--fit choices values]

For each size, the card network is fitted (``models.fit.fit_player``, the seed and sizes of
``train_models.py``) on the first ``hands`` hands of ``train_models.py``'s ``hard`` dataset
(Hard self-play with Hard's value of every card, ``labels="hard"``; run that script first): on
Hard's choices (``--fit choices``) or on its values (``values``), or each in turn. Its agreement
with Hard is measured on the last 10% of the hands (held out), and the card player (Normal's
bids at every seat) meets Normal on the tuning deals of ``train_models.py`` at every margin:
points per duplicate deal over Normal at margin 0 (the network's card always) and at the best
margin. The table goes to stdout.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from spades_ai.learn import load_dataset
from spades_ai.learn.hands import dataset_hands
from spades_ai.models.fit import card_accuracy, fit_player
from spades_ai.models.model import load_model
from spades_ai.models.rows import card_rows, card_value_targets

HERE = Path(__file__).parent


def main(argv=None) -> None:
    import train_models as tm

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, nargs="+", default=[200, 400, 800])
    ap.add_argument("--fit", nargs="+", choices=["choices", "values"], default=["choices", "values"])
    args = ap.parse_args(argv)
    folder = HERE / "data" / f"{tm.HARD_FOLDER}-s{tm.SEED}"
    data = load_dataset(folder, columns=tm.COLUMNS + tm.LABEL_COLUMNS)
    hands = dataset_hands(folder)
    n_all = len(hands["deals"])
    held = card_rows({k: v[n_all - n_all // 10 :] for k, v in hands.items()})
    base = load_model("default")
    print("| Hard hands | fitted on | decisions | agreement with Hard (held out) | vs Normal, margin 0 | best margin | vs Normal there | fit s |\n"
          "|---|---|---|---|---|---|---|---|")  # fmt: skip
    for n in args.hands:
        n = min(n, n_all - n_all // 10)
        rows = card_rows({k: v[:n] for k, v in hands.items()})
        first = data["deal_no"] < hands["deal_no"][n - 1] + 1  # the rows of the first n hands
        values = card_value_targets({k: v[first] for k, v in data.items()}, rows)
        for on in args.fit:
            t0 = time.perf_counter()
            net, _ = fit_player({**rows, "values": values} if on == "values" else rows, hidden=tm.FULL["hidden"],
                                epochs=tm.FULL["epochs"], seed=tm.SEED + 1)  # fmt: skip
            fit = time.perf_counter() - t0
            model = type(base)(base.bid, net, base.scalars, bid_kind=base.bid_kind)
            gains = tm.play_margin_gains(model)
            best = max(gains, key=lambda m: (gains[m], m))
            print(f"| {n:,} | {on} | {len(rows['count']):,} | {card_accuracy(net, held):.1%} | {gains[0.0]:+.2f} | {best:g} | "
                  f"{gains[best]:+.2f} | {fit:.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
