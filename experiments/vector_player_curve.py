"""The vector card network's strength against its data, size, loss and inputs (issue 36).

    python experiments/vector_player_curve.py [--decisions 125000 250000 500000 0] [--hidden 128]
        [--loss softmax] [--epochs 8] [--decay 1] [--inputs all] [--deals 2000]

Reads ``train_models.py``'s ``hard`` dataset (Hard self-play with Hard's value of every card,
``experiments/data/hardv-s21``; run that script first, or read the chunks written so far) as
the card network's rows (``models.rows.dataset_vector_rows``: each card decision with a choice,
its observation vector, each legal card's features and Hard's value), holds out the last 10% of
the decisions, and for every combination of the arguments (the defaults: ``train_models.py``'s)
fits the card network
(``models.fit.fit_vector_player``, the seed of ``train_models.py``) on the first ``decisions``
(0: all but the held-out ones). ``--inputs`` leaves columns out (zero in training and when it
plays, ``FIELD_SETS``): the cards played (``no-history``), those and the trick's
(``no-cards-seen``), the feature "Normal's card"
(``no-normal``), the whole vector (``no-vector``: the card features alone). Each network is
scored on the held-out decisions (the points it gives up a decision by Hard's own values, and
how often its top card is Hard's best) and played: the card network alone (Normal's bids at
every seat, so only the cards differ) against Normal on ``--deals`` duplicate deals of
``TUNE_SEED`` (points a deal, with a 95% interval). A markdown table goes to stdout, a row a
network.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
import warnings
from pathlib import Path

import train_models as tm  # first: it puts numpy's BLAS on one thread

import numpy as np  # noqa: E402

from spades_ai import Mixed, make_agent, play_hands  # noqa: E402
from spades_ai.encoding import OBSERVATION_SIZE, SLICES  # noqa: E402
from spades_ai.models.fit import VECTOR_LOSSES, fit_vector_player, vector_regret  # noqa: E402
from spades_ai.models.model import load_model  # noqa: E402
from spades_ai.models.rows import dataset_vector_rows  # noqa: E402

TUNE_SEED = 2121
#: the network's input columns by name: the observation vector's fields (``encoding.SLICES``), then
#: the card's features (``models.features``: the first says whether it is Normal's card)
COLUMNS = {**SLICES, "normal_card": slice(OBSERVATION_SIZE, OBSERVATION_SIZE + 1)}
#: ``--inputs``: the columns left out (zero in training, their weights zeroed) by each name
FIELD_SETS = {"all": (), "no-history": ("played_by",), "no-cards-seen": ("played_by", "current_trick"), "no-normal": ("normal_card",),
              "no-vector": tuple(SLICES)}  # fmt: skip


def card_player_gains(model, deals: int, seed: int = TUNE_SEED, whole: bool = False) -> np.ndarray:
    """Points over Normal of ``model``'s card player (Normal's bids at every seat), or with
    ``whole`` of the learned agent itself (its bids too), on each of ``deals`` duplicate deals of
    ``seed`` (the mean of its two tables)."""
    with tempfile.TemporaryDirectory() as tmp:
        learned = make_agent("learned", model=str(model.save(Path(tmp) / "player.npz")))
    player = learned if whole else Mixed("player", make_agent("normal"), learned)
    a = play_hands([player, "normal"], deals, seed=seed).points
    b = play_hands(["normal", player], deals, seed=seed).points
    return (a[:, 0] - a[:, 1] + b[:, 1] - b[:, 0]) / 2


def decisions_of(rows: dict, first: int, last: int) -> dict:
    """The rows (``dataset_vector_rows``) of decisions ``first .. last - 1``."""
    a, b = rows["start"][first], rows["start"][last - 1] + rows["count"][last - 1]
    return {"obs": rows["obs"][first:last], "x": rows["x"][a:b], "start": rows["start"][first:last] - a,
            "count": rows["count"][first:last], "values": rows["values"][a:b]}  # fmt: skip


def without(rows: dict, fields) -> dict:
    """``rows`` with the input columns ``fields`` (names of ``COLUMNS``) set to zero."""
    rows = dict(rows)
    for field in fields:
        part, cols = ("obs", COLUMNS[field]) if field in SLICES else ("x", slice(COLUMNS[field].start - OBSERVATION_SIZE,
                                                                                  COLUMNS[field].stop - OBSERVATION_SIZE))  # fmt: skip
        rows[part] = rows[part].copy()
        rows[part][:, cols] = 0.0
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=int, nargs="+", default=[125_000, 250_000, 500_000, 0])
    ap.add_argument("--hidden", type=int, nargs="+", default=[tm.FULL["hidden"]])
    ap.add_argument("--loss", nargs="+", choices=VECTOR_LOSSES, default=[tm.FULL["loss"]])
    ap.add_argument("--epochs", type=int, nargs="+", default=[tm.FULL["epochs"]])
    ap.add_argument("--decay", type=float, nargs="+", default=[tm.FULL["decay"]], help="the vector's weight decay (fit_vector_player)")
    ap.add_argument("--inputs", nargs="+", choices=list(FIELD_SETS), default=["all"])
    ap.add_argument("--deals", type=int, default=2000, help="duplicate deals of each network against Normal")
    ap.add_argument("--data", type=Path, default=tm.HERE / "data" / f"{tm.HARD_FOLDER}-s{tm.SEED}")
    args = ap.parse_args(argv)
    with warnings.catch_warnings():  # a dataset still being written is read as far as it goes
        warnings.simplefilter("ignore")
        rows = dataset_vector_rows(tm.hard_chunks(args.data))
    n = len(rows["obs"])
    cut = n - n // 10
    held = decisions_of(rows, cut, n)
    base = load_model("default")
    print(f"{n:,} card decisions with a choice; {n - cut:,} held out\n")
    print("| decisions | hidden | loss | epochs | decay | inputs | regret held out (points) | Hard's best card | card network vs Normal | fit s |\n"
          "|---|---|---|---|---|---|---|---|---|---|")  # fmt: skip
    for size in args.decisions:
        size = cut if size <= 0 else min(size, cut)
        for inputs in args.inputs:
            train = without(decisions_of(rows, 0, size), FIELD_SETS[inputs])
            for hidden, loss, epochs, decay in itertools.product(args.hidden, args.loss, args.epochs, args.decay):
                t0 = time.perf_counter()
                net, _ = fit_vector_player(train, hidden=hidden, epochs=epochs, loss=loss, decay=decay, seed=tm.SEED + 1)
                fit_s = time.perf_counter() - t0
                for field in FIELD_SETS[inputs]:
                    net["W1"][:, COLUMNS[field]] = 0.0  # plays without the field, as it learned
                score = vector_regret(net, held)
                model = type(base)(base.bid, net, base.scalars, bid_kind=base.bid_kind, play_kind="vector")
                gains = card_player_gains(model, args.deals)
                gain, half = gains.mean(), 1.96 * gains.std(ddof=1) / np.sqrt(len(gains))
                print(f"| {size:,} | {hidden} | {loss} | {epochs} | {decay:g} | {inputs} | {score['regret']:.2f} | {score['agreement']:.1%} | "
                      f"{gain:+.2f} ± {half:.2f} | {fit_s:.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
