"""Train the shipped learned models of the tables beyond four in pairs, from a seed.

    python experiments/train_table_models.py                 # every table's model (datasets in experiments/data/)
    python experiments/train_table_models.py --table 3       # one table's (3, 4solo, 5, 6pairs)
    python experiments/train_table_models.py --tiny --out-dir /tmp/m   # small datasets and networks (the CI run)

Issue 44, item 5. Each table's model is a ``"vector"`` card network (``models.player``) fitted
(``models.fit.fit_vector_player``) on Hard's value of every legal card
(``labels="hard"``) in ``deals`` deals of Hard at every seat of that table, dealt from the seed
(dataset folder ``data/hardv-<table>-s<seed>``, resumable: a second run reuses its chunks), and a
``"vector"`` bidding network of the same shape fitted on Hard's value of each candidate bid near
Normal's (``rows.vector_bid_rows``; Normal's bids count the tricks of the table, and Normal
answers a blind-nil question). The file is written as ``spades_ai/models/weights/table-<table>.npz``, the model the
learned agent plays at that table. Same seed, same sizes: the same file.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # see train_models.py
os.environ.setdefault("OMP_NUM_THREADS", "1")

from train_models import VECTOR_COLUMNS  # noqa: E402

from spades_ai import make_agent  # noqa: E402
from spades_ai.learn import iter_dataset, write_dataset  # noqa: E402
from spades_ai.learn.hands import iter_dataset_hands  # noqa: E402
from spades_ai.models.fit import FitSettings, train_model  # noqa: E402
from spades_ai.models.model import TABLE_MODELS, WEIGHTS_DIR  # noqa: E402
from spades_ai.models.rows import dataset_vector_bid_rows, dataset_vector_rows  # noqa: E402
from spades_ai.rules import Rules  # noqa: E402

HERE = Path(__file__).parent
SEED = 44
#: the tables with a shipped model of their own: (players, teams), the deals of Hard's self-play
TABLES = {"3": ((3, "solo"), 3000), "4solo": ((4, "solo"), 3000), "5": ((5, "solo"), 3000), "6pairs": ((6, "pairs"), 1200)}
CHUNK = 100
#: the networks' sizes and fits: the card network's as the four-player model's
#: (``train_models.FULL``), the vector bidder's smaller (a few thousand bids a table) and longer
FIT = {"play_hidden": 128, "epochs": 8, "play_loss": "softmax", "play_decay": 1.0, "bid_hidden": 32, "bid_epochs": 30}
TINY_DEALS, TINY_HARD = 6, {"worlds": 8}
TINY_FIT = {"play_hidden": 4, "epochs": 1, "play_loss": "softmax", "play_decay": 1.0, "bid_hidden": 4, "bid_epochs": 1}
#: the columns of the bidder's rows (``rows.vector_bid_rows``)
BID_COLUMNS = ["obs", "phase", "label_values"]


def table_dataset(table: str, deals: int, seed: int, data: Path, n_jobs: int = 1, hard: dict | None = None) -> Path:
    """The folder of Hard's labelled self-play at ``table`` (a key of ``TABLES``): ``deals``
    deals of the seed, Hard (options ``hard``) at every seat, its value of every card."""
    (players, teams), _ = TABLES[table]
    hard = hard or {}
    agent = make_agent("hard", **hard)
    labels = "hard" + "".join(f":{k}={v}" for k, v in hard.items())
    out = data / f"hardv-{table}-s{seed}"
    t0 = time.perf_counter()
    write_dataset(out, [agent] * players, deals, seed=seed, rules=Rules(players=players, teams=teams), chunk_size=CHUNK, n_jobs=n_jobs,
                  labels=labels)  # fmt: skip
    print(f"{table}: {deals:,} deals of Hard in {time.perf_counter() - t0:.0f} s", flush=True)
    return out


def fit_table(table: str, folder: Path, seed: int, fit: dict, made_by: str):
    """The model of ``table`` fitted on the labelled dataset ``folder``: its card network on
    Hard's value of each card, its vector bidder on Hard's value of each candidate bid."""
    players, teams = TABLES[table][0]
    rules = Rules(players=players, teams=teams)
    t0 = time.perf_counter()
    rows = dataset_vector_rows(zip(iter_dataset(folder, columns=VECTOR_COLUMNS), iter_dataset_hands(folder)), rules=rules)
    bids = dataset_vector_bid_rows(zip(iter_dataset(folder, columns=BID_COLUMNS), iter_dataset_hands(folder)), rules=rules)
    info = {"made_by": made_by, "imitates": "hard's values", "table": table, "dataset": folder.name, **fit}
    model = train_model(None, rows, bid_rows=bids, settings=FitSettings(seed=seed, **fit), rules=rules, info=info)
    print(f"{table}: fitted on {len(rows['count']):,} card decisions in {time.perf_counter() - t0:.0f} s: "
          f"{json.dumps({k: v for k, v in model.info['fit'].items() if not k.endswith('_loss')})}", flush=True)
    return model


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--table", choices=sorted(TABLES), action="append", help="this table only (again for more)")
    ap.add_argument("--tiny", action="store_true", help="small datasets and networks (the CI run)")
    ap.add_argument("--data", type=Path, default=HERE / "data", help="where the datasets go")
    ap.add_argument("--jobs", type=int, default=2, help="dataset chunks at once")
    ap.add_argument("--data-only", action="store_true", help="write the datasets, fit nothing")
    ap.add_argument("--out-dir", type=Path, default=WEIGHTS_DIR, help="where the models go (the package's weights by default)")
    args = ap.parse_args(argv)
    for table in args.table or list(TABLES):
        deals = TINY_DEALS if args.tiny else TABLES[table][1]
        folder = table_dataset(table, deals, args.seed, args.data, 1 if args.tiny else args.jobs, TINY_HARD if args.tiny else None)
        if args.data_only:
            continue
        made_by = "experiments/train_table_models.py" + (" --tiny" if args.tiny else "") + f" --table {table}"
        model = fit_table(table, folder, args.seed, TINY_FIT if args.tiny else FIT, made_by)
        out = args.out_dir / f"{TABLE_MODELS[TABLES[table][0]]}.npz"
        args.out_dir.mkdir(parents=True, exist_ok=True)
        model.save(out)
        print(f"wrote {out}", flush=True)


if __name__ == "__main__":
    main()
