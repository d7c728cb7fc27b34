"""Would the bidding network gain from seeing the seat's cards themselves (issue 21)?

    python experiments/bidder_inputs_probe.py [--dataset bids-s21] [--hands 600000] [--held-out 200000] [--hidden 128] [--epochs 6]

The learned bidder sees a hand through ``models.features.bid_features`` (62 numbers: per suit its
length, honours, shortness and lowest two cards; Normal's estimate; the bids and the score). If
that summary were what holds the bidder back, the same network given the 52 cards as well would
predict the outcomes of held-out hands better. Both networks are fitted as the shipped bidder
is (``models.optim.fit_network`` with ``fit._bid_loss``, the seed of ``train_models.py``) on the first
``--hands`` hands of a bidding dataset (``train_models.py``'s ``bids``: run that script first, or
name another folder of ``experiments/data/`` with ``--dataset``) and scored on the next
``--held-out`` hands: the cross-entropy of D (the team's counted
tricks minus the partner's bid, what a number bid is valued from) on the number bids, and the
log loss of "the nil was made" on the nils, each with the 95% interval of the cards' change,
paired row by row. A table goes to stdout.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import train_models as tm  # first: it puts numpy's BLAS on one thread
import numpy as np

from spades_ai.analysis.summary import mean_interval
from spades_ai.learn.hands import dataset_seed, iter_dataset_hands
from spades_ai.models import replay
from spades_ai.models.fit import _bid_loss
from spades_ai.models.model import N_BID_OUTPUTS, N_TRICK_CLASSES, OUT_NIL
from spades_ai.models.optim import fit_network, forward, init_network, shuffled
from spades_ai.models.rows import dataset_bidding_rows
from spades_ai.simulate import deal_masks

HERE = Path(__file__).parent


def row_losses(net: dict, x: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per held-out row: D's cross-entropy on the number bids, the nil's log loss on the nils."""
    out = forward(net, x)[0]
    number = cols[:, replay.B_BID] > 0
    z = out[number, :N_TRICK_CLASSES]
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    d_loss = -log_p[np.arange(number.sum()), cols[number, replay.B_D] + N_TRICK_CLASSES // 2]
    q = 1.0 / (1.0 + np.exp(-out[~number, OUT_NIL]))
    made = cols[~number, replay.B_NO_TRICK]
    nil_loss = -(made * np.log(q + 1e-12) + (1 - made) * np.log(1 - q + 1e-12))
    return d_loss, nil_loss


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=600_000, help="hands to fit on")
    ap.add_argument("--held-out", type=int, default=200_000, help="the hands after them, to score on")
    ap.add_argument("--hidden", type=int, default=tm.FULL["bid_hidden"])
    ap.add_argument("--epochs", type=int, default=tm.FULL["bid_epochs"])
    ap.add_argument("--dataset", default=f"bids-s{tm.SEED}", help="the dataset folder in experiments/data/")
    args = ap.parse_args(argv)
    total = args.hands + args.held_out
    folder = HERE / "data" / args.dataset
    seed = dataset_seed(folder)  # the deals' seed, for the seats' cards
    rows = dataset_bidding_rows(iter_dataset_hands(folder), hands=total)
    if rows["cols"][:, replay.B_HAND].max() < total - 1:
        raise SystemExit(f"{folder} holds fewer than the {total:,} hands asked (--hands + --held-out)")
    keep = rows["cols"][:, replay.B_KIND] == replay.KIND_BID
    x, cols, vals = rows["x"][keep], rows["cols"][keep], rows["vals"][keep]
    seat_cards = deal_masks(seed, 0, total)[cols[:, replay.B_HAND], cols[:, replay.B_SEAT]]
    cards = ((seat_cards[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(np.float32)
    fit_rows, test = cols[:, replay.B_HAND] < args.hands, cols[:, replay.B_HAND] >= args.hands
    losses = {}
    print("| inputs | fit s | D cross-entropy (held out, nats a number bid) | nil log loss (nats a nil) |\n|---|---|---|---|")
    for name, inputs in (("62 features", x), ("62 features + the 52 cards", np.hstack([x, cards]))):
        rng = np.random.default_rng(tm.SEED)
        net = init_network(inputs.shape[1], args.hidden, N_BID_OUTPUTS, rng)
        xf, cf, vf = inputs[fit_rows], cols[fit_rows], vals[fit_rows]

        def batches(epoch, xf=xf, cf=cf, vf=vf, rng=rng):
            for i in shuffled(rng, len(xf), 1024):
                yield xf[i], {"cols": cf[i], "vals": vf[i]}

        t0 = time.perf_counter()
        fit_network(net, batches, _bid_loss, args.epochs)
        losses[name] = row_losses(net, inputs[test], cols[test])
        print(f"| {name} | {time.perf_counter() - t0:.0f} | {losses[name][0].mean():.4f} | {losses[name][1].mean():.4f} |", flush=True)
    (d0, n0), (d1, n1) = losses.values()
    for what, a, b in (("D cross-entropy", d0, d1), ("nil log loss", n0, n1)):
        m, lo, hi = mean_interval((b - a).astype(float))
        print(f"\nthe cards' change in {what}: {m:+.4f} [{lo:+.4f}, {hi:+.4f}] over {len(a):,} held-out rows")


if __name__ == "__main__":
    main()
