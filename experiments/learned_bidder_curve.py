"""The learned bidder's strength against its data and network size (issue 21).

    python experiments/learned_bidder_curve.py [--hands 25000 50000 100000] [--hidden 32 64] [--dataset bids-s21]
    python experiments/learned_bidder_curve.py --shift 0.3 --bidder plain conditioned --hands 1600000 --deals 20000 --seed 10

For each size, the bidding network is fitted (``models.train.fit_bidder``, the seed of
``train_models.py``) on the first ``hands`` hands of ``train_models.py``'s ``bids`` dataset (run
that script first) and measured in the bidding benchmark of ``bidding.toml`` (1,000 deals of
seed 9, Normal playing every card, the opponents bidding as Normal): the margin over Normal's
bidding with its 95% interval, the set rate, the nil rate and success. The table goes to stdout.

``--shift S`` fits on the dataset of the explorer that moves a share ``S`` of Normal's number
bids (``train_models.bids_dataset``; written first, on two cores, when missing);
``--bidder conditioned`` fits the network that takes its own bid (``fit_bidder(conditioned=
True)``); ``--deals``/``--seed`` measure on other deals than bidding.toml's; ``--keep DIR``
writes each fitted model there.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tomllib
from pathlib import Path

import train_models as tm  # first: it puts numpy's BLAS on one thread
from spades_ai.agents.registry import make_agent
import pandas as pd

from spades_ai.analysis.bidding import bidding_leaderboard, bidding_records, paired_margin
from spades_ai.learn import iter_dataset, write_dataset
from spades_ai.models.model import Model, load_model
from spades_ai.models.train import HAND_COLUMNS, dataset_bidding_rows, fit_bidder

HERE = Path(__file__).parent


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    ap.add_argument("--hidden", type=int, nargs="+", default=[tm.FULL["bid_hidden"]])
    ap.add_argument("--epochs", type=int, default=tm.FULL["bid_epochs"])
    ap.add_argument("--dataset", default=None, help="the dataset folder in experiments/data/ (default: that of --shift)")
    ap.add_argument("--shift", type=float, default=tm.FULL["shift"], help="the explorer's share of moved number bids")
    ap.add_argument("--bidder", nargs="+", choices=("plain", "conditioned"), default=["conditioned" if tm.FULL["conditioned"] else "plain"])
    bench = tomllib.loads((HERE / "bidding.toml").read_text())
    ap.add_argument("--deals", type=int, default=bench["deals"], help="the benchmark's deals")
    ap.add_argument("--seed", type=int, default=bench["seed"], help="the benchmark's seed")
    ap.add_argument("--keep", type=Path, default=None, help="a folder to write each fitted model to")
    ap.add_argument("--paired", action="store_true", help="add each bidder's margin minus the shipped model's, paired deal by deal")
    args = ap.parse_args(argv)
    lineup, default_folder = tm.bids_dataset(tm.SEED, args.shift)
    folder = HERE / "data" / (args.dataset or default_folder)
    if args.dataset is None:  # written first if any chunk is missing
        write_dataset(folder, lineup, max(args.hands), seed=tm.SEED, chunk_size=tm.CHUNK["bids"], n_jobs=2)
    base = load_model("default")
    shipped = bidding_records({"shipped": make_agent("learned")}, deals=args.deals, seed=args.seed) if args.paired else None
    paired_head = (" minus shipped, paired | 95% interval |", "---|---|") if args.paired else ("", "")
    print(f"| hands | bidder | hidden | fit s | margin vs normal | 95% interval | set rate | nil rate | nil success |{paired_head[0]}\n"
          f"|---|---|---|---|---|---|---|---|---|{paired_head[1]}")
    for n in args.hands:
        rows = dataset_bidding_rows(iter_dataset(folder, columns=HAND_COLUMNS), tm.SEED, hands=n)  # chunk by chunk: millions of hands fit
        for kind in args.bidder:
            for hidden in args.hidden:
                t0 = time.perf_counter()
                net, _ = fit_bidder(rows, hidden=hidden, epochs=args.epochs, seed=tm.SEED, conditioned=kind == "conditioned")
                fit = time.perf_counter() - t0
                model = Model(net, base.play, base.scalars, {"bid_hands": n, "bid_shift": args.shift, "bidder": kind, "bid_hidden": hidden})
                with tempfile.TemporaryDirectory() as tmp:
                    keep = args.keep or Path(tmp)
                    keep.mkdir(parents=True, exist_ok=True)
                    path = model.save(keep / f"bidder_{n}_{kind}_{hidden}_shift{round(100 * args.shift)}.npz")
                    records = bidding_records({"learned": make_agent("learned", model=str(path)), "normal": "normal"},
                                              deals=args.deals, seed=args.seed)  # fmt: skip
                r = bidding_leaderboard(records).loc["learned"]
                cells = ""
                if shipped is not None:
                    m, lo, hi = paired_margin(pd.concat([records, shipped], ignore_index=True), "learned", "shipped")
                    cells = f" {m:+.2f} | [{lo:+.2f}, {hi:+.2f}] |"
                print(f"| {n:,} | {kind} | {hidden} | {fit:.0f} | {r.margin:+.2f} | [{r.margin_low:+.2f}, {r.margin_high:+.2f}] | "
                      f"{r.set_rate:.1%} | {r.nil_rate:.1%} | {r.nil_success:.0%} |{cells}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
