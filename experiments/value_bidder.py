"""The value bidder: a network of each candidate bid's margin, fitted on bids played out (issue 21).

    python experiments/value_bidder.py [--deals 250000 1000000] [--worlds 1 4 16] [--hidden 128] [--epochs 6] [--bench-deals 20000] [--bench-seed 12]
    python experiments/value_bidder.py --deals 2000000 --out values.npz   # issue 21's best (not shipped)
    python experiments/value_bidder.py --models DIR/values_250000_w4_128.npz --bench-seed 13   # a model of --keep DIR, on fresh deals

The shipped bidder (``train_models.py``) learns the distribution of a hand's tricks from one
outcome a hand, under Normal's own bid. Crazy's bidding instead plays every candidate bid out in
worlds it samples, Normal finishing. Here each candidate bid of every seat (Normal's number bid
moved by -2..+3, and nil on the hands the explorer tries nils on) is played out on the deal's
own cards and, with ``--worlds K``, on K - 1 more deals of the cards the seat does not see that
agree with the bids before it, Normal finishing (``montecarlo.bid_values``: the label is the
mean over the worlds), and a network is fitted to each candidate's margin
(``fit_value_bidder``): across millions of deals it learns the expectation Crazy estimates
from a few hundred worlds a bid, at a network's cost a bid.

For each size and each K the rows of deals ``0 .. N-1`` of seed 21 are made (on two cores;
"worlds kept": the mean a row averages), the network fitted and played in the bidding benchmark
(``--bench-deals`` deals of ``--bench-seed``, Normal playing every card, the opponents bidding as
Normal; seed 12 chose the worlds of issue 36, seed 13 nothing), with its margin minus the shipped
bidder's, paired deal by deal. The model file carries the default model's card network and
blind-nil numbers (as ``learned_bidder_curve.py``'s do), so ``make_agent("learned", model=PATH)``
plays it. ``--keep`` writes each there, ``--out`` the last one; ``--models`` benchmarks model
files fitted before (on fresh deals) without making rows. A table goes to stdout.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import tempfile
import time
from pathlib import Path

import train_models as tm  # first: it puts numpy's BLAS on one thread
import pandas as pd

from spades_ai.agents.registry import make_agent
from spades_ai.analysis.bidding import bidding_leaderboard, bidding_records, paired_margin
from spades_ai.models.fit import fit_value_bidder
from spades_ai.models.model import Model, load_model


def main(argv=None) -> Path | None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, nargs="+", default=[250_000, 1_000_000], help="training deals (each a curve point)")
    ap.add_argument("--worlds", type=int, nargs="+", default=[1], help="worlds a row (each a curve point): the deal's own and K - 1 sampled")
    ap.add_argument("--hidden", type=int, nargs="+", default=[128])
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=tm.SEED, help="the training deals' seed and the fit's")
    ap.add_argument("--bench-deals", type=int, default=20_000)
    ap.add_argument("--bench-seed", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2, help="processes making the rows")
    ap.add_argument("--keep", type=Path, default=None, help="a folder to write each fitted model to")
    ap.add_argument("--out", type=Path, default=None, help="write the last fitted model here")
    ap.add_argument("--models", type=Path, nargs="+", default=[], help="benchmark these fitted models (of --keep) instead: no rows, no fit")
    args = ap.parse_args(argv)
    base = load_model("default")
    shipped = bidding_records({"shipped": make_agent("learned")}, deals=args.bench_deals, seed=args.bench_seed)
    print("| deals | worlds | worlds kept | rows s | hidden | fit s | margin vs normal | 95% interval | set rate | nil rate | nil success | minus shipped, paired | 95% interval |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|")  # fmt: skip
    row = functools.partial(bench_row, shipped=shipped, deals=args.bench_deals, seed=args.bench_seed)
    for path in args.models:  # fitted before: benchmarked alone (fresh deals)
        print(row(path, "-", "-"), flush=True)
    tmp = tempfile.TemporaryDirectory()
    keep = args.keep or Path(tmp.name)
    keep.mkdir(parents=True, exist_ok=True)
    pairs = [] if args.models else itertools.product(args.deals, args.worlds)
    for n, worlds in pairs:
        t0 = time.perf_counter()
        rows = tm.value_rows(n, args.seed, args.jobs, worlds)
        made = time.perf_counter() - t0
        for hidden in args.hidden:
            t0 = time.perf_counter()
            net, losses = fit_value_bidder(rows, hidden=hidden, epochs=args.epochs, seed=args.seed)
            fit = time.perf_counter() - t0
            info = {"bidder": "values", "bid_deals": n, "bid_worlds": worlds, "bid_worlds_kept": float(rows["worlds"].mean()), "bid_hidden": hidden,
                    "bid_epochs": args.epochs, "seed": args.seed, "bid_loss": losses, "made_by": "experiments/value_bidder.py",
                    "play_from": base.info.get("made_by", "a model")}  # fmt: skip
            model = Model(net, base.play, base.scalars, info, bid_kind="value", play_kind=base.play_kind)
            path = model.save(keep / f"values_{n}_w{worlds}_{hidden}.npz")
            print(row(path, f"{made:.0f}", f"{fit:.0f}"), flush=True)
    if args.out:
        args.out.write_bytes(path.read_bytes())
        print(f"wrote {args.out}")
    tmp.cleanup()
    return args.out


def bench_row(path: Path, made: str, fit: str, shipped, deals: int, seed: int) -> str:
    """The table's row of the value bidder in ``path`` (its sizes from its ``info``): the bidding
    benchmark on ``deals`` deals of ``seed``, paired with the shipped bidder's ``shipped`` records."""
    info = load_model(path).info
    records = bidding_records({"values": make_agent("learned", model=str(path)), "normal": "normal"}, deals=deals, seed=seed)
    r = bidding_leaderboard(records).loc["values"]
    m, lo, hi = paired_margin(pd.concat([records, shipped], ignore_index=True), "values", "shipped")
    kept = f"{info['bid_worlds_kept']:.2f}" if "bid_worlds_kept" in info else "-"
    return (f"| {info['bid_deals']:,} | {info.get('bid_worlds', 1)} | {kept} | {made} | {info['bid_hidden']} | {fit} | {r.margin:+.2f} | "
            f"[{r.margin_low:+.2f}, {r.margin_high:+.2f}] | {r.set_rate:.1%} | {r.nil_rate:.1%} | {r.nil_success:.0%} | {m:+.2f} | [{lo:+.2f}, {hi:+.2f}] |")


if __name__ == "__main__":
    main()
