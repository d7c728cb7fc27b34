"""The learned bidder's strength against its data and network size (issue 21).

    python experiments/learned_bidder_curve.py [--hands 25000 50000 100000] [--hidden 32 64] [--epochs 6]
    python experiments/learned_bidder_curve.py --hands 3200000 --deals 20000 --seed 10 --paired

For each size, the bidding network is fitted (``models.fit.fit_bidder``, the seed of
``train_models.py``) on the first ``hands`` hands of ``train_models.py``'s ``bids`` dataset (run
that script first, or name another folder of ``experiments/data/`` with ``--dataset``) and measured in
the bidding benchmark of ``bidding.toml`` (1,000 deals of seed 9, Normal playing every card, the
opponents bidding as Normal): the margin over Normal's bidding with its 95% interval, the set
rate, the nil rate and success. The table goes to stdout.

``--deals``/``--seed`` measure on other deals than bidding.toml's (deals that chose nothing);
``--keep DIR`` writes each fitted model there; ``--paired`` adds each fitted bidder's margin
minus the shipped model's, deal by deal on the same deals (``analysis.bidding.paired_margin``):
far tighter than the two margins' own intervals.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tomllib
from pathlib import Path

import train_models as tm  # first: it puts numpy's BLAS on one thread
import pandas as pd

from spades_ai.agents.registry import make_agent
from spades_ai.analysis.bidding import bidding_leaderboard, bidding_records, paired_margin
from spades_ai.learn.hands import iter_dataset_hands
from spades_ai.models.fit import fit_bidder
from spades_ai.models.model import Model, load_model
from spades_ai.models.rows import dataset_bidding_rows

HERE = Path(__file__).parent


def main(argv=None) -> None:
    bench = tomllib.loads((HERE / "bidding.toml").read_text())
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    ap.add_argument("--hidden", type=int, nargs="+", default=[tm.FULL["bid_hidden"]])
    ap.add_argument("--epochs", type=int, default=tm.FULL["bid_epochs"])
    ap.add_argument("--dataset", default=f"bids-s{tm.SEED}", help="the dataset folder in experiments/data/")
    ap.add_argument("--deals", type=int, default=bench["deals"], help="the benchmark's deals")
    ap.add_argument("--seed", type=int, default=bench["seed"], help="the benchmark's seed")
    ap.add_argument("--keep", type=Path, default=None, help="a folder to write each fitted model to")
    ap.add_argument("--paired", action="store_true", help="add each bidder's margin minus the shipped model's, paired deal by deal")
    args = ap.parse_args(argv)
    folder = HERE / "data" / args.dataset
    base = load_model("default")
    shipped = bidding_records({"shipped": make_agent("learned")}, deals=args.deals, seed=args.seed) if args.paired else None
    paired_head = (" minus shipped, paired | 95% interval |", "---|---|") if args.paired else ("", "")
    print(f"| hands | hidden | fit s | margin vs normal | 95% interval | set rate | nil rate | nil success |{paired_head[0]}\n"
          f"|---|---|---|---|---|---|---|---|{paired_head[1]}")  # fmt: skip
    for n in args.hands:
        rows = dataset_bidding_rows(iter_dataset_hands(folder), hands=n)  # chunk by chunk: millions of hands fit
        for hidden in args.hidden:
            t0 = time.perf_counter()
            net, _ = fit_bidder(rows, hidden=hidden, epochs=args.epochs, seed=tm.SEED)
            fit = time.perf_counter() - t0
            model = Model(net, base.play, base.scalars, {"bid_hands": n, "bid_hidden": hidden, "bid_epochs": args.epochs}, bid_kind="tricks", play_kind=base.play_kind)
            with tempfile.TemporaryDirectory() as tmp:
                keep = args.keep or Path(tmp)
                keep.mkdir(parents=True, exist_ok=True)
                path = model.save(keep / f"bidder_{n}_{hidden}_{args.epochs}.npz")
                records = bidding_records({"learned": make_agent("learned", model=str(path)), "normal": "normal"},
                                          deals=args.deals, seed=args.seed)  # fmt: skip
            r = bidding_leaderboard(records).loc["learned"]
            cells = ""
            if shipped is not None:
                m, lo, hi = paired_margin(pd.concat([records, shipped], ignore_index=True), "learned", "shipped")
                cells = f" {m:+.2f} | [{lo:+.2f}, {hi:+.2f}] |"
            print(f"| {n:,} | {hidden} | {fit:.0f} | {r.margin:+.2f} | [{r.margin_low:+.2f}, {r.margin_high:+.2f}] | "
                  f"{r.set_rate:.1%} | {r.nil_rate:.1%} | {r.nil_success:.0%} |{cells}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
