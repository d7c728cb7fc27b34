"""Train the shipped learned model, ``spades_ai/models/weights/default.npz``, from a seed.

    python experiments/train_models.py            # the shipped model (datasets in experiments/data/)
    python experiments/train_models.py --tiny --out /tmp/tiny.npz   # a small end-to-end run (CI)
    python experiments/train_models.py --bidder values   # the value bidder (not shipped: experiments/RESULTS.md)

The bidding network is the distribution of the tricks (``--bidder tricks``, the default: the
shipped one), fitted on the ``bids`` dataset below (``learned_bidder_curve.py`` reads it too).
With ``--bidder values`` it is the value bidder: each candidate bid of every seat of
``value_deals`` deals of the seed played out on the deal's own cards, Normal finishing
(``models.rows.value_bidding_rows``, made on two cores, no dataset kept), and the network
fitted to each candidate's margin (``value_bidder.py`` draws its curve).

The datasets of ``spades_ai.learn.write_dataset`` (resumable: a second run reuses their
chunks), all dealt from the seed with dealer 0:

- ``bids`` (``--bidder tricks``; the tiny run's cards either way): the exploring bidder
  (``models.explore.explorer``: Normal's bids, with nils tried on weak hands) at every seat,
  Normal playing every card: the tricks bidder's rows;
- ``blind``: under ``Rules(blind_nil=True)``, seat 0 bids blind nil in every hand, Normal at the
  other seats: the blind-nil numbers (its chance, and a sighted bid's value at seats 1 and 3);
- ``hard`` (folder ``hardv-s<seed>``): Hard at every seat, with Hard's value of every card
  (``labels="hard"``): the card network imitates Hard's cards (``learned_player_curve.py``
  fits it on the values too).

Then ``models.fit.train_model`` fits both networks in numpy; the card network's margin (how
much a card must outscore Normal's to be played instead, ``models.player``) is chosen from
``MARGINS`` by playing the card player (Normal bidding) against Normal on ``TUNE_DEALS`` duplicate
deals of ``TUNE_SEED`` (never the deals of the measurements), and the model is written with
what made it (``info``: seed, sizes, losses, the margins' results). Same seed, same sizes: the
same file.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

# numpy's BLAS on one thread: the networks are small, and on the shared machine its threads
# made the fit 20-40 times slower (281 s against 7 s for the bidder on 100,000 hands)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from spades_ai import Mixed, make_agent, play_hands  # noqa: E402
from spades_ai.learn import write_dataset  # noqa: E402
from spades_ai.learn.hands import HAND_COLUMNS, dataset_hands, iter_dataset_hands  # noqa: E402
from spades_ai.models.explore import explorer  # noqa: E402
from spades_ai.models.fit import train_model  # noqa: E402
from spades_ai.models.model import WEIGHTS_DIR  # noqa: E402
from spades_ai.models.rows import dataset_bidding_rows, value_bidding_rows  # noqa: E402
from spades_ai.rules import Rules  # noqa: E402

HERE = Path(__file__).parent
SEED = 21
MARGINS = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 1e9)  # 1e9: Normal's card always; a value network's are tricks
TUNE_SEED, TUNE_DEALS = 2121, 2000
#: the value bidder's deals, the deals of each dataset, the networks' sizes, the card network's epochs and the bidder's
FULL = {"value_deals": 4_000_000, "bids": 3_200_000, "blind": 20_000, "hard": 8_000, "bid_hidden": 128, "hidden": 32, "epochs": 3, "bid_epochs": 6,
        "tune": TUNE_DEALS}  # fmt: skip
TINY = {"value_deals": 300, "bids": 300, "blind": 200, "hard": 0, "bid_hidden": 4, "hidden": 4, "epochs": 1, "bid_epochs": 1, "tune": 20}
#: deals a task of the value bidder's rows
VALUE_CHUNK = 50_000
CHUNK = {"bids": 10_000, "blind": 10_000, "hard": 200, "normal": 200, "crazy": 50}
COLUMNS = HAND_COLUMNS
#: the Hard self-play folder (with Hard's values, ``labels="hard"``), and what ``card_value_targets`` reads besides
HARD_FOLDER = "hardv"
LABEL_COLUMNS = ["mask", "label_values"]


def dataset(name: str, agents, deals: int, seed: int, data: Path, rules=None, n_jobs: int = 1, bidding: bool = False,
            folder: str | None = None, labels: str | None = None) -> dict:  # fmt: skip
    """The hands of dataset ``name`` (in ``data/folder``, by default ``name-s{seed}``, with the
    ``labels`` of ``write_dataset``; written first if any chunk is missing; ``n_jobs`` chunks at once), or with ``bidding`` only their
    bidding rows (``dataset_bidding_rows``: millions of hands do not fit in memory as hands)."""
    t0 = time.perf_counter()
    out = write_dataset(data / (folder or f"{name}-s{seed}"), agents, deals, seed=seed, rules=rules, chunk_size=CHUNK[name], n_jobs=n_jobs,
                        labels=labels)  # fmt: skip
    got = dataset_bidding_rows(iter_dataset_hands(out), rules=rules) if bidding else dataset_hands(out)
    print(f"{name}: {deals:,} deals in {time.perf_counter() - t0:.0f} s", flush=True)
    return got


def value_rows(deals: int, seed: int, n_jobs: int = 2) -> dict:
    """The value bidder's rows (``models.rows.value_bidding_rows``) of deals ``0 .. deals-1`` of
    ``seed``, ``VALUE_CHUNK`` deals a task on ``n_jobs`` processes (the same rows for any)."""
    from joblib import Parallel, delayed
    import numpy as np

    tasks = (delayed(value_bidding_rows)(seed, s, min(VALUE_CHUNK, deals - s)) for s in range(0, deals, VALUE_CHUNK))
    parts = Parallel(n_jobs=n_jobs)(tasks)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def play_margin_gains(model, deals: int = TUNE_DEALS, seed: int = TUNE_SEED) -> dict[float, float]:
    """Points per duplicate deal over Normal of the card player at each of ``MARGINS`` (Normal's
    bids at every seat, so only the cards differ)."""
    import numpy as np

    gains = {}
    for margin in MARGINS:
        with tempfile.TemporaryDirectory() as tmp:
            path = model.with_margin(margin).save(Path(tmp) / "margin.npz")
            player = Mixed("player", make_agent("normal"), make_agent("learned", model=str(path)))
        a = play_hands([player, "normal"], deals, seed=seed).points
        b = play_hands(["normal", player], deals, seed=seed).points
        gains[margin] = float(np.mean((a[:, 0] - a[:, 1] + b[:, 1] - b[:, 0]) / 2))
    return gains


def script_parser(doc: str, seed: int, out: Path, tiny: str) -> argparse.ArgumentParser:
    """The arguments of a model-training script: ``--seed``, ``--tiny`` (described by ``tiny``),
    ``--data`` (the datasets' folder) and ``--out`` (the model file)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--tiny", action="store_true", help=tiny)
    ap.add_argument("--data", type=Path, default=HERE / "data", help="where the datasets go")
    ap.add_argument("--out", type=Path, default=out)
    return ap


def main(argv=None) -> Path:
    ap = script_parser(__doc__, SEED, WEIGHTS_DIR / "default.npz", "small datasets and networks (the CI run); the cards imitate Normal")
    ap.add_argument("--bidder", choices=("tricks", "values"), default="tricks", help="the bidding network (see above)")
    args = ap.parse_args(argv)
    size = TINY if args.tiny else FULL
    seed = args.seed
    jobs = 1 if args.tiny else 2
    if args.bidder == "values":
        t0 = time.perf_counter()
        bid_rows = value_rows(size["value_deals"], seed, jobs)
        print(f"values: {size['value_deals']:,} deals in {time.perf_counter() - t0:.0f} s", flush=True)
    else:
        bid_rows = dataset("bids", [explorer(seed=seed)] * 2, size["bids"], seed, args.data, n_jobs=jobs, bidding=True)
    blind_lineup = [explorer(nil=0.0, blind=True, seed=seed), "normal", "normal", "normal"]
    blind = dataset("blind", blind_lineup, size["blind"], seed, args.data, Rules(blind_nil=True))
    if size["hard"]:
        play, player = dataset("hard", ["hard", "hard"], size["hard"], seed, args.data, n_jobs=jobs, folder=f"{HARD_FOLDER}-s{seed}", labels="hard"), None
    else:  # the tiny run imitates the bidding hands' Normal play
        play, player = dataset("bids", [explorer(seed=seed)] * 2, size["bids"], seed, args.data), None
    t0 = time.perf_counter()
    # the tricks bidder's info as it was before the value bidder, so its file is the same byte for byte
    bid_data = {"bidder": "values", "value_deals": size["value_deals"]} if args.bidder == "values" else {"bids": size["bids"]}
    info = {"datasets": {**bid_data, "blind": size["blind"], "hard": size["hard"]}, "bid_epochs": size["bid_epochs"],
            "imitates": "hard" if size["hard"] else "normal", "made_by": "experiments/train_models.py" + (" --tiny" if args.tiny else "")}  # fmt: skip
    model = train_model(None, play, blind, bid_rows=bid_rows, player_agent=player, bid_hidden=size["bid_hidden"], play_hidden=size["hidden"],
                        epochs=size["epochs"], bid_epochs=size["bid_epochs"], seed=seed, info=info)  # fmt: skip
    gains = play_margin_gains(model, size["tune"])
    margin = max(gains, key=lambda m: (gains[m], m))
    model = model.with_margin(margin)
    model.info["margin_gains"] = {str(m): g for m, g in gains.items()}
    model.save(args.out)
    print(f"play margin {margin} (points a deal over Normal's cards at each: {gains})")
    print(f"fitted in {time.perf_counter() - t0:.0f} s: {json.dumps(model.info['fit'])}")
    print(f"wrote {args.out}")
    return args.out


if __name__ == "__main__":
    main()
