"""The learned card player's strength against the size of its data (issue 21).

    python experiments/learned_player_curve.py [--hands 200 400 800] [--fit choices values]

The card network of the ``"cards"`` kind (32 hand-made features a card, ``models.player``; the
shipped one until issue 36's ``"vector"`` kind, whose curve is ``vector_player_curve.py``). For
each size, it is fitted (``models.fit.fit_player``, ``HIDDEN`` units, ``EPOCHS`` epochs, the
seed of ``train_models.py``) on the first ``hands`` hands of ``train_models.py``'s ``hard``
dataset (Hard self-play with Hard's value of every card, ``labels="hard"``; run that script
first): on Hard's choices (``--fit choices``) or on its values (``values``), or each in turn.
Its agreement with Hard is measured on the last 10% of the hands (held out), and the card player
(Normal's bids at every seat) meets Normal on ``TUNE_DEALS`` duplicate deals of ``TUNE_SEED``
at each of ``MARGINS`` (how much a card must outscore Normal's to be played instead): points per
duplicate deal over Normal at margin 0 (the network's card always) and at the best margin. The
table goes to stdout.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from spades_ai import Mixed, make_agent, play_hands
from spades_ai.learn import load_dataset
from spades_ai.learn.hands import dataset_hands
from spades_ai.models.fit import card_accuracy, fit_player
from spades_ai.models.model import load_model
from spades_ai.models.rows import card_rows, card_value_targets

HERE = Path(__file__).parent
HIDDEN, EPOCHS = 32, 3
MARGINS = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 1e9)  # 1e9: Normal's card always
TUNE_SEED, TUNE_DEALS = 2121, 2000


def play_margin_gains(model, deals: int = TUNE_DEALS, seed: int = TUNE_SEED) -> dict[float, float]:
    """Points per duplicate deal over Normal of the card player at each of ``MARGINS`` (Normal's
    bids at every seat, so only the cards differ)."""
    gains = {}
    for margin in MARGINS:
        with tempfile.TemporaryDirectory() as tmp:
            path = model.with_margin(margin).save(Path(tmp) / "margin.npz")
            player = Mixed("player", make_agent("normal"), make_agent("learned", model=str(path)))
        a = play_hands([player, "normal"], deals, seed=seed).points
        b = play_hands(["normal", player], deals, seed=seed).points
        gains[margin] = float(np.mean((a[:, 0] - a[:, 1] + b[:, 1] - b[:, 0]) / 2))
    return gains


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
            net, _ = fit_player({**rows, "values": values} if on == "values" else rows, hidden=HIDDEN, epochs=EPOCHS, seed=tm.SEED + 1)
            fit = time.perf_counter() - t0
            model = type(base)(base.bid, net, base.scalars, bid_kind=base.bid_kind, play_kind="cards")
            gains = play_margin_gains(model)
            best = max(gains, key=lambda m: (gains[m], m))
            print(f"| {n:,} | {on} | {len(rows['count']):,} | {card_accuracy(net, held):.1%} | {gains[0.0]:+.2f} | {best:g} | "
                  f"{gains[best]:+.2f} | {fit:.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
