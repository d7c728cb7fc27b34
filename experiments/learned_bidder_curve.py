"""The learned bidder's strength against its data and network size (issue 21).

    python experiments/learned_bidder_curve.py [--hands 25000 50000 100000] [--hidden 32 64] [--dataset bids-s21]

For each size, the bidding network is fitted (``models.train.fit_bidder``, the seed of
``train_models.py``) on the first ``hands`` hands of ``train_models.py``'s ``bids`` dataset (run
that script first) and measured in the bidding benchmark of ``bidding.toml`` (1,000 deals of
seed 9, Normal playing every card, the opponents bidding as Normal): the margin over Normal's
bidding with its 95% interval, the set rate, the nil rate and success. The table goes to stdout.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tomllib
from pathlib import Path

import train_models as tm  # first: it puts numpy's BLAS on one thread
from spades_ai.agents.registry import make_agent
from spades_ai.analysis.bidding import bidding_benchmark
from spades_ai.models.model import Model, load_model
from spades_ai.learn import iter_dataset
from spades_ai.models.train import HAND_COLUMNS, dataset_bidding_rows, fit_bidder

HERE = Path(__file__).parent


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    ap.add_argument("--hidden", type=int, nargs="+", default=[tm.FULL["bid_hidden"]])
    ap.add_argument("--epochs", type=int, default=tm.FULL["bid_epochs"])
    ap.add_argument("--dataset", default=f"bids-s{tm.SEED}", help="the dataset folder in experiments/data/")
    args = ap.parse_args(argv)
    bench = tomllib.loads((HERE / "bidding.toml").read_text())
    folder = HERE / "data" / args.dataset
    base = load_model("default")
    print("| hands | hidden | fit s | margin vs normal | 95% interval | set rate | nil rate | nil success |\n|---|---|---|---|---|---|---|---|")
    for n in args.hands:
        rows = dataset_bidding_rows(iter_dataset(folder, columns=HAND_COLUMNS), tm.SEED, hands=n)  # chunk by chunk: millions of hands fit
        for hidden in args.hidden:
            t0 = time.perf_counter()
            net, _ = fit_bidder(rows, hidden=hidden, epochs=args.epochs, seed=tm.SEED)
            fit = time.perf_counter() - t0
            with tempfile.TemporaryDirectory() as tmp:
                path = Model(net, base.play, base.scalars).save(Path(tmp) / "curve.npz")
                board = bidding_benchmark({"learned": make_agent("learned", model=str(path)), "normal": "normal"},
                                          deals=bench["deals"], seed=bench["seed"])  # fmt: skip
            r = board.loc["learned"]
            print(f"| {n:,} | {hidden} | {fit:.0f} | {r.margin:+.1f} | [{r.margin_low:+.1f}, {r.margin_high:+.1f}] | "
                  f"{r.set_rate:.1%} | {r.nil_rate:.1%} | {r.nil_success:.0%} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
