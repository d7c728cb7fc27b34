"""Issue 4's strength figures for the Monte Carlo agents, on duplicate deals.

    python experiments/mc_strength.py pair hard normal --deals 2000
    python experiments/mc_strength.py pair crazy hard --deals 600
    python experiments/mc_strength.py curve --worlds 8,32,128,512 --deals 1000

``pair A B``: deals ``0 .. N-1`` of ``--seed`` are played twice, A's partnership at seats 0/2
then at 1/3; the per-deal figure is the mean over both tables of A's points minus B's, with a
95% normal interval; also each side's set rate and nil success. ``curve``: the same for Hard
with each world budget against Normal, plotted to ``experiments/hard_budget_curve.png``.
Deals are cut into chunks run in parallel with joblib (``--jobs``); every chunk draws its cards
from ``(seed, deal)`` and every decision from its own observation, so the figures do not depend
on the number of jobs.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from joblib import Parallel, delayed

from spades_ai import make_agent, play_hands


def _spec(text: str):
    """``hard`` or ``hard:worlds=64`` -> an agent."""
    name, _, opts = text.partition(":")
    options = {}
    for item in filter(None, opts.split(",")):
        k, _, v = item.partition("=")
        options[k] = True if v == "true" else False if v == "false" else int(v)
    return make_agent(name, **options)


def _chunk(a: str, b: str, seed: int, start: int, n: int):
    t0 = play_hands([_spec(a), _spec(b)], n, seed=seed, start=start)
    t1 = play_hands([_spec(b), _spec(a)], n, seed=seed, start=start)
    return t0, t1


def duplicate(a: str, b: str, deals: int, seed: int, jobs: int, chunk: int = 25) -> dict:
    starts = range(0, deals, chunk)
    t = time.perf_counter()
    parts = Parallel(n_jobs=jobs)(delayed(_chunk)(a, b, seed, s, min(chunk, deals - s)) for s in starts)
    elapsed = time.perf_counter() - t
    pts0 = np.concatenate([p[0].points for p in parts])
    pts1 = np.concatenate([p[1].points for p in parts])
    diff = (pts0[:, 0] - pts0[:, 1] + pts1[:, 1] - pts1[:, 0]) / 2
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))

    def side(team_of_a: int):
        made, contract, nil = [], [], []
        for p in parts:
            for rec, team in ((p[0], team_of_a), (p[1], 1 - team_of_a)):
                made.append(rec.made[:, team])
                contract.append(rec.contract[:, team])
                nil.append(rec.nil[:, [team, team + 2]].ravel())
        made, contract, nil = map(np.concatenate, (made, contract, nil))
        return 1 - made[contract > 0].mean(), (nil == 1).sum(), (nil >= 0).sum()

    return {"mean": diff.mean(), "half": half, "a": side(0), "b": side(1), "deals": deals, "seconds": elapsed}


def _row(a, b, r) -> str:
    (sa, na, ta), (sb, nb, tb) = r["a"], r["b"]
    return (
        f"| {a} vs {b} | {r['deals']:,} | {r['mean']:+.1f} | [{r['mean'] - r['half']:+.1f}, {r['mean'] + r['half']:+.1f}] "
        f"| {sa:.1%} / {sb:.1%} | {na}/{ta} ({na / max(ta, 1):.0%}) / {nb}/{tb} ({nb / max(tb, 1):.0%}) | {r['seconds']:.0f} s |"
    )


HEADER = (
    "| pairing A vs B | deals | points per deal (A - B) | 95% interval | set rate A / B | nil made A / B | time |\n"
    "|---|---|---|---|---|---|---|"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pair")
    p.add_argument("a")
    p.add_argument("b")
    c = sub.add_parser("curve")
    c.add_argument("--worlds", default="8,32,128,512")
    c.add_argument("--plot", default="experiments/hard_budget_curve.png")
    for s in (p, c):
        s.add_argument("--deals", type=int, default=1000)
        s.add_argument("--seed", type=int, default=4)
        s.add_argument("--jobs", type=int, default=-1)
    args = ap.parse_args()
    print(HEADER)
    if args.cmd == "pair":
        print(_row(args.a, args.b, duplicate(args.a, args.b, args.deals, args.seed, args.jobs)), flush=True)
        return
    worlds = [int(w) for w in args.worlds.split(",")]
    results = []
    for w in worlds:
        a = f"hard:worlds={w}"
        r = duplicate(a, "normal", args.deals, args.seed, args.jobs)
        results.append(r)
        print(_row(a, "normal", r), flush=True)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    means = [r["mean"] for r in results]
    halves = [r["half"] for r in results]
    ax.errorbar(worlds, means, yerr=halves, marker="o", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("worlds sampled per decision (log scale)")
    ax.set_ylabel("points per deal vs Normal (duplicate, 95% CI)")
    ax.set_title(f"Hard vs Normal: strength against budget ({args.deals:,} deals each)")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"\nplot: {args.plot}")


if __name__ == "__main__":
    main()
