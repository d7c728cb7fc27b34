"""Train the shipped learned model, ``spades_ai/models/weights/default.npz``, from a seed.

    python experiments/train_models.py            # the whole model (datasets in experiments/data/)
    python experiments/train_models.py --bidder-from default   # the shipped file: its bidder kept, the card network fitted
    python experiments/train_models.py --bidder-from default --hard-deals 20400 --out /tmp/m.npz   # on more Hard deals
    python experiments/train_models.py --tiny --out /tmp/tiny.npz   # a small end-to-end run (CI)
    python experiments/train_models.py --bidder values   # the value bidder (not shipped: experiments/RESULTS.md)

The bidding network is the distribution of the tricks (``--bidder tricks``, the default: the
shipped one), fitted on the ``bids`` dataset below (``learned_bidder_curve.py`` reads it too).
With ``--bidder values`` it is the value bidder: each candidate bid of every seat of
``value_deals`` deals of the seed played out on the deal's own cards, Normal finishing
(``montecarlo.bid_values``, made on two cores, no dataset kept), and the network
fitted to each candidate's margin (``value_bidder.py`` draws its curve). With ``--bidder-from
MODEL`` the bidding network and blind-nil numbers are that model's, kept as they are (no
bidding dataset is made): how the shipped file's card network was last fitted (issue 36), beside
the bidder this script fitted before from the same seed and datasets.

The card network is of the ``"vector"`` kind (``models.player``): the seat's observation vector
(567 floats) -> a value for each card id, fitted (``models.fit.fit_vector_player``) on Hard's
value of every legal card in the ``hard`` dataset, the card decisions where Hard weighed two
cards or more (``models.rows.dataset_vector_rows``); ``vector_player_curve.py`` draws its curve
against data size, network size and loss.

The datasets of ``spades_ai.learn.write_dataset`` (resumable: a second run reuses their
chunks), all dealt from the seed with dealer 0:

- ``bids`` (``--bidder tricks``): the exploring bidder (``models.explore.explorer``: Normal's
  bids, with nils tried on weak hands) at every seat, Normal playing every card: the tricks
  bidder's rows;
- ``blind``: under ``Rules(blind_nil=True)``, seat 0 bids blind nil in every hand, Normal at the
  other seats: the blind-nil numbers (its chance, and a sighted bid's value at seats 1 and 3);
- ``hard`` (folder ``hardv-s<seed>``): Hard at every seat, with Hard's value of every card
  (``labels="hard"``; the tiny run's Hard weighs 8 worlds, ``TINY_HARD``): the card network's rows.

Then ``models.fit.train_model`` fits both networks in numpy and the model is written with what
made it (``info``: seed, sizes, losses, the card network's regret against Hard's values). Same
seed, same sizes: the same file.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import replace
from pathlib import Path

# numpy's BLAS on one thread: the networks are small, and on the shared machine its threads
# made the fit 20-40 times slower (281 s against 7 s for the bidder on 100,000 hands)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from spades_ai import make_agent  # noqa: E402
from spades_ai.learn import iter_dataset, write_dataset  # noqa: E402
from spades_ai.learn.hands import HAND_COLUMNS, dataset_hands, iter_dataset_hands  # noqa: E402
from spades_ai.models.explore import explorer  # noqa: E402
from spades_ai.models.fit import FitSettings, train_model  # noqa: E402
from spades_ai.models.model import WEIGHTS_DIR  # noqa: E402
from spades_ai.models.rows import dataset_bidding_rows, dataset_vector_rows  # noqa: E402
from spades_ai.montecarlo.bid_values import value_bidding_rows  # noqa: E402
from spades_ai.rules import Rules  # noqa: E402

HERE = Path(__file__).parent
SEED = 21
#: the value bidder's deals, the deals of each dataset, the networks' sizes, the card network's
#: epochs, loss (``models.fit.VECTOR_LOSSES``) and weight decay, the bidder's epochs
FULL = {"value_deals": 4_000_000, "bids": 3_200_000, "blind": 20_000, "hard": 11_800, "bid_hidden": 128, "hidden": 128, "epochs": 8,
        "loss": "softmax", "decay": 1.0, "bid_epochs": 6}  # fmt: skip
TINY = {"value_deals": 300, "bids": 300, "blind": 200, "hard": 6, "bid_hidden": 4, "hidden": 4, "epochs": 1, "loss": "softmax", "decay": 1.0,
        "bid_epochs": 1}  # fmt: skip
#: the Hard of the ``hard`` dataset: bidding by its own search, its default when the shipped
#: data was written (Hard has bid like the learned bidder by default since issue 36, item 4),
#: so that the same seed still writes the same data
HARD = {"bidder": "search"}
#: the tiny run's Hard: 8 worlds a decision (seconds, not minutes)
TINY_HARD = {**HARD, "worlds": 8}
#: deals a task of the value bidder's rows
VALUE_CHUNK = 50_000
CHUNK = {"bids": 10_000, "blind": 10_000, "hard": 200, "normal": 200, "crazy": 50}
COLUMNS = HAND_COLUMNS
#: the Hard self-play folder (with Hard's values, ``labels="hard"``), the columns of its card rows
#: (``dataset_vector_rows``), and what ``card_value_targets`` reads besides the hands
HARD_FOLDER = "hardv"
VECTOR_COLUMNS = ["obs", "phase", "mask", "action", "label_values"]
LABEL_COLUMNS = ["mask", "label_values"]


def dataset(name: str, agents, deals: int, seed: int, data: Path, rules=None, n_jobs: int = 1, bidding: bool = False) -> dict:
    """The hands of dataset ``name`` (in ``data/name-s{seed}``; written first if any chunk is
    missing; ``n_jobs`` chunks at once), or with ``bidding`` only their bidding rows
    (``dataset_bidding_rows``: millions of hands do not fit in memory as hands)."""
    t0 = time.perf_counter()
    out = write_dataset(data / f"{name}-s{seed}", agents, deals, seed=seed, rules=rules, chunk_size=CHUNK[name], n_jobs=n_jobs)
    got = dataset_bidding_rows(iter_dataset_hands(out), rules=rules) if bidding else dataset_hands(out)
    print(f"{name}: {deals:,} deals in {time.perf_counter() - t0:.0f} s", flush=True)
    return got


def value_rows(deals: int, seed: int, n_jobs: int = 2, worlds: int = 1) -> dict:
    """The value bidder's rows (``montecarlo.bid_values.value_bidding_rows``, ``worlds`` worlds a
    row) of deals ``0 .. deals-1`` of ``seed``, ``VALUE_CHUNK`` deals a task on ``n_jobs``
    processes (the same rows for any)."""
    from joblib import Parallel, delayed
    import numpy as np

    tasks = (delayed(value_bidding_rows)(seed, s, min(VALUE_CHUNK, deals - s), worlds=worlds) for s in range(0, deals, VALUE_CHUNK))
    parts = Parallel(n_jobs=n_jobs)(tasks)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def hard_chunks(folder: Path):
    """A labelled dataset's chunks as ``dataset_vector_rows`` reads them: each chunk's rows and hands."""
    return zip(iter_dataset(folder, columns=VECTOR_COLUMNS), iter_dataset_hands(folder))


def hard_dataset(deals: int, seed: int, data: Path, n_jobs: int = 1, hard: dict | None = None) -> Path:
    """The folder of the ``hard`` dataset, ``data/hardv-s{seed}``: ``deals`` deals of Hard (with
    options ``hard``, by default ``HARD``) at every seat, with its values (the chunks missing written first, ``n_jobs``
    at once)."""
    hard = HARD if hard is None else hard
    agent = make_agent("hard", **hard)
    labels = "hard" + "".join(f":{k}={v}" for k, v in hard.items())
    return write_dataset(data / f"{HARD_FOLDER}-s{seed}", [agent, agent], deals, seed=seed, chunk_size=CHUNK["hard"], n_jobs=n_jobs,
                         labels=labels)  # fmt: skip


def hard_rows(deals: int, seed: int, data: Path, n_jobs: int = 1, hard: dict | None = None) -> dict:
    """The card network's rows (``dataset_vector_rows``) of the ``hard`` dataset
    (``hard_dataset``: written first if any chunk is missing)."""
    t0 = time.perf_counter()
    rows = dataset_vector_rows(hard_chunks(hard_dataset(deals, seed, data, n_jobs, hard)))
    print(f"hard: {deals:,} deals, {len(rows['obs']):,} card decisions in {time.perf_counter() - t0:.0f} s", flush=True)
    return rows


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
    ap = script_parser(__doc__, SEED, WEIGHTS_DIR / "default.npz", "small datasets and networks (the CI run)")
    ap.add_argument("--bidder", choices=("tricks", "values"), default="tricks", help="the bidding network (see above)")
    ap.add_argument("--bidder-from", metavar="MODEL", help="keep this model's bidder and blind-nil numbers (a shipped name or an .npz path)")
    ap.add_argument("--hard-deals", type=int, metavar="N", help="deals of the hard dataset (default: FULL's)")
    args = ap.parse_args(argv)
    size = dict(TINY if args.tiny else FULL)
    if args.hard_deals is not None:
        if args.hard_deals < 1:
            ap.error(f"--hard-deals must be at least 1, not {args.hard_deals}")
        size["hard"] = args.hard_deals
    seed = args.seed
    jobs = 1 if args.tiny else 2
    play = hard_rows(size["hard"], seed, args.data, jobs, TINY_HARD if args.tiny else None)
    made_by = "experiments/train_models.py" + (" --tiny" if args.tiny else "")
    made_by += f" --hard-deals {args.hard_deals}" if args.hard_deals else ""
    card = FitSettings(play_hidden=size["hidden"], epochs=size["epochs"], play_loss=size["loss"], play_decay=size["decay"], seed=seed)
    t0 = time.perf_counter()
    if args.bidder_from:
        info = {"datasets": {"hard": size["hard"]}, "imitates": "hard's values", "made_by": f"{made_by} --bidder-from {args.bidder_from}"}
        model = train_model(None, play, bidder_from=args.bidder_from, settings=card, info=info)
    else:
        if args.bidder == "values":
            t1 = time.perf_counter()
            bid_rows = value_rows(size["value_deals"], seed, jobs)
            print(f"values: {size['value_deals']:,} deals in {time.perf_counter() - t1:.0f} s", flush=True)
        else:
            bid_rows = dataset("bids", [explorer(seed=seed)] * 2, size["bids"], seed, args.data, n_jobs=jobs, bidding=True)
        blind_lineup = [explorer(nil=0.0, blind=True, seed=seed), "normal", "normal", "normal"]
        blind = dataset("blind", blind_lineup, size["blind"], seed, args.data, Rules(blind_nil=True))
        bid_data = {"bidder": "values", "value_deals": size["value_deals"]} if args.bidder == "values" else {"bids": size["bids"]}
        info = {"datasets": {**bid_data, "blind": size["blind"], "hard": size["hard"]}, "bid_epochs": size["bid_epochs"],
                "imitates": "hard's values", "made_by": made_by}  # fmt: skip
        t0 = time.perf_counter()
        settings = replace(card, bid_hidden=size["bid_hidden"], bid_epochs=size["bid_epochs"])
        model = train_model(None, play, blind, bid_rows=bid_rows, settings=settings, info=info)
    model.save(args.out)
    print(f"fitted in {time.perf_counter() - t0:.0f} s: {json.dumps(model.info['fit'])}")
    print(f"wrote {args.out}")
    return args.out


if __name__ == "__main__":
    main()
