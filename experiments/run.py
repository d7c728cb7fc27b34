"""Run one headline experiment from its TOML file and write its table and plot.

Every NAME, the figure it makes and its files: ``experiments/README.md``. For example:

    python experiments/run.py ladder            # Easy < Normal < Hard < Crazy, round-robin
    python experiments/run.py hard_vs_normal    # issue 4: Hard against Normal
    python experiments/run.py crazy_vs_hard     # issue 4: Crazy against Hard
    python experiments/run.py budget_curve      # Hard's strength against worlds per decision
    python experiments/run.py bidding           # the bidding benchmark
    python experiments/run.py bidding_learned   # issue 21: the learned bidder on the benchmark's deals
    python experiments/run.py crazy_vs_hard_pooled   # both Crazy vs Hard runs (seeds 5 and 6) pooled
    python experiments/run.py blind_nil         # issue 9: Hard with blind nil against Hard without
    python experiments/run.py house_default     # issue 9: the ladder under the default rules,
    python experiments/run.py house_suicide     #   suicide bidding
    python experiments/run.py house_passing     #   and card passing
    python experiments/run.py house_jokers      #   and jokers + deuces high with card passing
    python experiments/run.py ismcts_vs_normal  # issue 11: ISMCTS against Normal (with and without Hard's bids)
    python experiments/run.py ismcts_vs_hard    # issue 11: ISMCTS against Hard at equal time per decision
    python experiments/run.py ismcts_vs_normal_pooled   # ISMCTS vs Normal, seeds 111 and 113 pooled
    python experiments/run.py solver_leaves     # Hard with the last k tricks solved exactly, k = 0, 3, ...
    python experiments/run.py racing            # Hard with and without racing, and racing at more worlds
    python experiments/run.py thrift            # Hard with thrift (the cheapest card of the same effect)
    python experiments/run.py racing_budget     # racing with solver_tricks=3, and racing with thrift
    python experiments/run.py racing_thrift     # racing and thrift together
    python experiments/run.py hard_opponents    # issue 11: set rates of Hard and Crazy against Hard opponents
    python experiments/run.py crazy_noracing_vs_hard   # the same deals, Crazy without racing
    python experiments/run.py crazy_reads_play_2000  # issue 11: Crazy reading the play vs Hard, 2,000 deals of seed 41
    python experiments/run.py crazy_noread_2000      #   Crazy without it vs Hard, the same deals
    python experiments/run.py crazy_reads_play_paired   # the two above, deal by deal
    python experiments/run.py crazy_vs_hard_2000     # issue 11 target: Crazy vs Hard, 2,000 deals of seed 61
    python experiments/run.py crazy_leaves_vs_hard_2000   #   Crazy with exact finishes (solver_tricks=3), the same deals
    python experiments/run.py crazy_leaves_paired    # the two above, deal by deal
    python experiments/run.py crazy_vs_ismcts        # Crazy against ISMCTS, 400 deals of seed 71
    python experiments/run.py partners          # issue 23: Easy's, Normal's and Hard's values as partners
    python experiments/run.py learned_vs_normal      # issue 21: the learned agent against Normal, hard_vs_normal's deals
    python experiments/run.py learned_defence        # issue 21: its set rate when Hard and Crazy defend
    python experiments/run.py learned_rollout        # issue 21: Hard with rollout=learned vs Hard, ~equal CPU
    python experiments/run.py crazy_reads_learned    # issue 21: Crazy reading the play with the learned play model vs Crazy
    python experiments/run.py crazy_reads_learned_vs_hard   # Crazy with the learned play model vs Hard
    python experiments/run.py crazy_vs_hard_s83      # Crazy without it vs Hard, the same deals
    python experiments/run.py crazy_reads_learned_paired   # the two above, deal by deal
    python experiments/run.py defence_hard     # issue 45: Hard against OpenSpiel's MCTS in sampled worlds (defender.py)
    python experiments/run.py defence_crazy_on_hard   # Hard's set rate with Crazy defending
    python experiments/run.py defence_shaded   # Hard's bid shaded by its own values (shaded.py) against that defender
    python experiments/run.py defence_shaded_normal   # Hard and the shaded Hard against Normal, the same deals

Each tournament experiment is a plain tournament file, ``experiments/NAME.toml``, that
``spades-ai tournament --config experiments/NAME.toml`` also runs; this script runs it through
the library (resuming any finished chunks in ``experiments/runs/NAME``), then writes
``experiments/results/NAME.md`` (the table, the sizes, the seed and the machine) and
``experiments/results/NAME.png``. ``bidding.toml`` holds the benchmark's own settings.
Same files, same seed: same numbers.

How a file is reported is in its own ``[report]`` table (``REPORT_KEYS``): ``kind`` (one of
``KINDS``), ``paired_with`` (another run on the same deals whose agents this one's are paired
with) and, for a file that reports other runs and plays no tournament itself (``pool``,
``paired``), ``runs``. Every ``experiments/*.toml`` is a NAME this script takes.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tomllib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import spades_ai as sa  # noqa: E402
from spades_ai.analysis import plots, ratings, unit_differences  # noqa: E402
from spades_ai.analysis.bidding import bidding_leaderboard, bidding_records, margin_title, paired_margin  # noqa: E402
from spades_ai.seats import table_name  # noqa: E402
from spades_ai.analysis.partners import partner_difference, partner_values  # noqa: E402
from spades_ai.tournament.schedule import read_experiment  # noqa: E402

HERE = Path(__file__).parent
RESULTS = HERE / "results"  # where tables and plots go (a scratch folder for --smoke)
#: What each kind of report writes after the table of pairings (or instead of it: pool, paired).
KINDS = {"pairs": "the table of pairings alone", "ladder": "ratings and a ladder plot",
         "partners": "each agent's value as a partner, and its plot", "blind": "blind nils bid and made",
         "curve": "strength against the budget, plotted", "leaves": "each variant paired with the second agent",
         "bidding": "the bidding benchmark's leaderboard (the file holds its settings, not a tournament's)",
         "pool": "the runs' per-deal differences pooled", "paired": "two runs on the same deals, deal by deal"}
#: The keys of an experiment file's ``[report]`` table.
REPORT_KEYS = {"kind": "one of KINDS", "paired_with": "the name of a run on the same deals (seed)",
               "runs": "the names of the runs a pool or paired report reads"}


def experiment_names() -> list[str]:
    """The NAMEs this script takes: every ``experiments/NAME.toml``."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def read_report(path: Path) -> dict:
    """The ``[report]`` table of an experiment file, checked: its keys, its kind, and the runs it
    names (each an experiment file beside it; two for ``paired``, at least two for ``pool``)."""
    report = tomllib.loads(path.read_text()).get("report")
    if not isinstance(report, dict):
        raise ValueError(f"{path}: no [report] table saying how run.py reports it (kind = one of {', '.join(KINDS)})")
    unknown = sorted(set(report) - set(REPORT_KEYS))
    if unknown:
        raise ValueError(f"{path}: unknown [report] key(s) {', '.join(map(repr, unknown))}; valid keys: {', '.join(REPORT_KEYS)}")
    if report.get("kind") not in KINDS:
        raise ValueError(f"{path}: [report] kind must be one of {', '.join(KINDS)}, not {report.get('kind')!r}")
    runs = report.get("runs", [])
    if report["kind"] in ("pool", "paired"):
        if not isinstance(runs, list) or len(runs) < 2 or (report["kind"] == "paired" and len(runs) != 2):
            raise ValueError(f"{path}: a {report['kind']} report needs runs = [two{' or more' if report['kind'] == 'pool' else ''} run names], not {runs!r}")
    elif runs:
        raise ValueError(f"{path}: runs is for a pool or paired report, not a {report['kind']} one")
    names = {p.stem for p in path.parent.glob("*.toml")}
    for other in [*runs, *([report["paired_with"]] if "paired_with" in report else [])]:
        if other not in names:
            raise ValueError(f"{path}: [report] names {other!r}, which is not an experiment file beside it")
    return report


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, spades_ai {sa.__version__}"


def pairs_table(table, mode: str = "hands") -> str:
    """The summary's rows; in matches mode a unit is a match and the difference is a hand's."""
    cols = ["agent", "opponent", "units", "diff", "diff_lo", "diff_hi", "set_rate", "bags_per_hand", "nil_rate", "nil_success", "team_bid", "team_tricks"]
    units, per = ("matches", "hand") if mode == "matches" else ("deals", "deal")
    lines = [f"| agent | opponent | {units} | points per {per} vs opponent | 95% interval | set rate | bags/hand | nil rate | nil success | team bid | team tricks |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in table[cols].itertuples(index=False):
        lines.append(
            f"| {r.agent} | {r.opponent} | {r.units:,} | {r.diff:+.1f} | [{r.diff_lo:+.1f}, {r.diff_hi:+.1f}] | {r.set_rate:.1%} "
            f"| {r.bags_per_hand:.2f} | {r.nil_rate:.1%} | {r.nil_success:.0%} | {r.team_bid:.2f} | {r.team_tricks:.2f} |"
        )
    return "\n".join(lines)


def blind_table(df, table) -> str:
    """How often each agent bid blind nil and made it (per player-hand), and its match record."""
    from spades_ai.analysis.metrics import seat_rows
    from spades_ai.analysis.summary import wilson_interval

    seats = seat_rows(df)
    lines = [
        "| agent | player-hands | blind nils bid | per 100 hands | made | made rate (95% interval) | matches won (95% interval) |",
        "|---|---|---|---|---|---|---|",
    ]
    for agent, g in seats.groupby("agent", observed=True):
        n, bid = len(g), int(g["blind"].sum())
        made = int((g["blind"] & g["nil_made"]).sum())
        lo, hi = wilson_interval(made, bid) if bid else (0.0, 0.0)
        rate = f"{made / bid:.0%} [{lo:.0%}, {hi:.0%}]" if bid else "-"
        row = table[table["agent"] == agent].iloc[0]
        won = f"{row.win_rate:.1%} [{row.win_lo:.1%}, {row.win_hi:.1%}] of {int(row.matches)}"
        lines.append(f"| {agent} | {n:,} | {bid} | {100 * bid / n:.2f} | {made} | {rate} | {won} |")
    return "\n".join(lines)


def run_tournament_experiment(name: str, jobs: int | None, deals: int | None = None) -> str:
    path = HERE / f"{name}.toml"
    report = read_report(path)  # before hours of play: a bad [report] is named at once
    settings = read_experiment(path)
    if deals is not None:  # a smoke test: a small run in its own folder
        settings["deals"] = deals
        settings["out"] = str(HERE / "runs" / f"{name}-smoke-{deals}")
    settings.pop("backend", None)
    settings.pop("scheduler", None)
    n_jobs = jobs if jobs is not None else settings.pop("jobs", None)
    settings.pop("jobs", None)
    settings.setdefault("out", str(HERE / "runs" / name))
    t0 = time.perf_counter()
    run = sa.run_tournament(settings.pop("agents"), n_jobs=n_jobs, **settings)
    elapsed = time.perf_counter() - t0
    df = sa.load_results(run)
    table = sa.summarize(df)
    kind = report["kind"]
    out = [pairs_table(table, df.attrs["config"].get("mode", "hands"))]
    if kind == "ladder":
        r = ratings(df)
        out.append("\n| agent | rating (Elo scale) | 95% interval | duplicate wins | losses | ties |\n|---|---|---|---|---|---|")
        for row in r.itertuples(index=False):
            out.append(f"| {row.agent} | {row.rating:+.0f} | [{row.lo:+.0f}, {row.hi:+.0f}] | {row.wins} | {row.losses} | {row.ties} |")
        ax = plots.plot_ladder(r)
    elif kind == "partners":
        out.append("\n" + partners_table(df))
        ax = plots.plot_partner_values(partner_values(df))
    elif kind == "blind":
        out.append("\n" + blind_table(df, table))
        ax = None
    elif kind == "curve":
        first = df.attrs["config"]["agents"][0]["label"]  # the gauntlet's head meets every budget
        curve = table[table["opponent"] == first].copy()
        worlds = {a["label"]: a["options"].get("worlds") for a in df.attrs["config"]["agents"]}
        curve["worlds"] = [worlds[a] for a in curve["agent"]]
        curve = curve.sort_values("worlds")
        ax = plots.plot_budget_curve(curve, title=f"Hard vs {first}: strength against budget")
    elif kind == "leaves":
        out.append("\n" + leaves_table(df))
        ax = None
    else:
        ax = None
    if "paired_with" in report:
        out.append("\n" + paired_with_run(report["paired_with"], df))
    if ax is not None:
        ax.figure.tight_layout()
        ax.figure.savefig(RESULTS / f"{name}.png", dpi=110)
    cfg = df.attrs["config"]
    head = (f"`python experiments/run.py {name}` ({path.name}): {cfg.get('mode', 'hands')} mode, {settings.get('deals', 2000):,} "
            f"duplicate units per pairing, seed {cfg.get('seed')}; {_played(run, elapsed)} on {machine()}.\n")
    return head + "\n" + "\n".join(out) + "\n"


def _played(run, elapsed: float) -> str:
    """How long this call played; a resumed run says how many chunks it found played before."""
    if run.chunks_skipped == 0:
        return f"{elapsed:.0f} s"
    total = run.chunks_played + run.chunks_skipped
    return f"{elapsed:.0f} s for the {run.chunks_played} of {total} chunks played now (the others resumed)"


def partners_table(df) -> str:
    """Each agent's value as a partner (sum zero), and each one's worth over the next below it."""
    values = partner_values(df)
    lines = ["| agent | value as a partner (points per deal) | 95% interval | player-hands |", "|---|---|---|---|"]
    for r in values.itertuples(index=False):
        lines.append(f"| {r.agent} | {r.value:+.1f} | [{r.lo:+.1f}, {r.hi:+.1f}] | {r.seats:,} |")
    lines += ["", "| as a partner | worth more than | points per deal | 95% interval |", "|---|---|---|---|"]
    for a, b in zip(values["agent"], values["agent"][1:]):
        d, lo, hi = partner_difference(values, a, b)
        lines.append(f"| {a} | {b} | {d:+.1f} | [{lo:+.1f}, {hi:+.1f}] |")
    return "\n".join(lines)


def leaves_table(df) -> str:
    """Each variant of a gauntlet against the first (e.g. ``solver_tricks=0``), paired deal by
    deal: every variant met the head of the gauntlet on the same deals."""
    from spades_ai.analysis.summary import mean_interval

    agents = [a["label"] for a in df.attrs["config"]["agents"]]
    head, base = agents[:2]
    b = unit_differences(df, base, head)
    lines = [f"Paired against {base} on the same deals:", "",
             "| agent | deals | points per deal vs " + base + " | 95% interval |", "|---|---|---|---|"]
    for a in agents[2:]:
        d = unit_differences(df, a, head)
        common = d.index.intersection(b.index)
        m, lo, hi = mean_interval((d[common] - b[common]).to_numpy())
        lines.append(f"| {a} | {len(common):,} | {m:+.1f} | [{lo:+.1f}, {hi:+.1f}] |")
    return "\n".join(lines) + "\n"


def paired_with_run(other: str, df) -> str:
    """Each agent of this run (after the head of its gauntlet) against the second agent (the
    first after the head) of the run ``other`` (its report's ``paired_with``), deal by deal (the
    same seed: the same deals, and the same head)."""
    from spades_ai.analysis.summary import mean_interval

    run_dir = HERE / "runs" / other
    if not (run_dir / "config.json").exists():
        return f"(run `python experiments/run.py {other}` first for the pairing with its agents)\n"
    odf = sa.load_results(str(run_dir))
    head, base = (a["label"] for a in odf.attrs["config"]["agents"][:2])
    b = unit_differences(odf, base, head)
    lines = [f"Paired against {base} of `{other}` on the same deals:", "",
             f"| agent | deals | points per deal vs {base} | 95% interval |", "|---|---|---|---|"]
    for a in [x["label"] for x in df.attrs["config"]["agents"]][1:]:
        d = unit_differences(df, a, head)
        common = d.index.intersection(b.index)
        m, lo, hi = mean_interval((d[common] - b[common]).to_numpy())
        lines.append(f"| {a} | {len(common):,} | {m:+.1f} | [{lo:+.1f}, {hi:+.1f}] |")
    return "\n".join(lines) + "\n"


def run_pool(name: str, jobs: int | None) -> str:
    """Pool the per-deal duplicate differences of independent runs (different seeds: different
    deals) of the same pairing, the ``runs`` of its report; each run is played first if its
    folder is not complete."""
    import numpy as np

    from spades_ai.analysis.summary import mean_interval

    runs = read_report(HERE / f"{name}.toml")["runs"]
    diffs, parts = [], []
    for part in runs:
        settings = read_experiment(HERE / f"{part}.toml")
        first, second = (a.label for a in settings["agents"][:2])
        run = sa.run_tournament(settings["agents"], n_jobs=jobs, deals=settings["deals"], seed=settings["seed"],
                                schedule=settings.get("schedule"), mode=settings.get("mode", "hands"),
                                rules=settings.get("rules"), out=str(HERE / "runs" / part), progress=False)
        d = unit_differences(sa.load_results(run), first, second).to_numpy()
        diffs.append(d)
        parts.append(f"{part} (seed {settings['seed']}, {len(d):,} deals): {d.mean():+.1f}")
    d = np.concatenate(diffs)
    m, lo, hi = mean_interval(d)
    return (f"`python experiments/run.py {name}`: {first} vs {second}, runs {', '.join(runs)} pooled "
            f"({len(d):,} duplicate deals): **{m:+.1f} points per deal, 95% interval [{lo:+.1f}, {hi:+.1f}]**.\n\n"
            + "\n".join(f"- {p}" for p in parts) + "\n")


def run_paired(name: str) -> str:
    """Two runs on the same deals (same seed), the ``runs`` of its report, each of an agent
    against the same opponent: each run's duplicate difference per deal, and the first agent's
    minus the second's, deal by deal, on the deals both have finished. Nothing is played here:
    an unfinished run (see its ``.md``; resume it with ``run.py <part>``) is read as far as it
    went, and said so; a run not played at all (run data is not in git) is named."""
    import warnings

    from spades_ai.analysis.summary import mean_interval

    a, b = read_report(HERE / f"{name}.toml")["runs"]
    unplayed = [part for part in (a, b) if not (HERE / "runs" / part / "config.json").exists()]
    if unplayed:
        raise SystemExit(f"{name} reads runs not played here yet: run "
                         + " and ".join(f"`python experiments/run.py {part}`" for part in unplayed) + " first")
    diffs, lines = {}, []
    for part in (a, b):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unfinished run: said below
            df = sa.load_results(HERE / "runs" / part)
        agent, opponent = (x["label"] for x in df.attrs["config"]["agents"][:2])
        diffs[part] = d = unit_differences(df, agent, opponent)
        m, lo, hi = mean_interval(d.to_numpy())
        state = "complete" if df.attrs["complete"] else "unfinished"
        lines.append(f"| {part} | {agent} | {len(d):,} ({state}) | {m:+.1f} | [{lo:+.1f}, {hi:+.1f}] |")
    common = diffs[a].index.intersection(diffs[b].index)
    m, lo, hi = mean_interval((diffs[a][common] - diffs[b][common]).to_numpy())
    ma, loa, hia = mean_interval(diffs[a][common].to_numpy())
    mb, lob, hib = mean_interval(diffs[b][common].to_numpy())
    return (f"`python experiments/run.py {name}`: runs {a} and {b} (same seed, same deals), read on {machine()}.\n\n"
            "| run | agent | deals | points per deal vs opponent | 95% interval |\n|---|---|---|---|---|\n" + "\n".join(lines)
            + f"\n\nOn the {len(common):,} deals both runs finished: {a} {ma:+.1f} [{loa:+.1f}, {hia:+.1f}], {b} {mb:+.1f} "
            f"[{lob:+.1f}, {hib:+.1f}]; **paired difference ({a} - {b}) {m:+.1f} points per deal, 95% interval "
            f"[{lo:+.1f}, {hi:+.1f}]**.\n")


def run_bidding(name: str, jobs: int | None, deals: int | None = None) -> str:
    cfg = tomllib.loads((HERE / f"{name}.toml").read_text())
    cfg.pop("report")  # run.py's, read by main
    if deals is not None:
        cfg["deals"] = deals
    bidders = {b: b for b in cfg.pop("bidders")}
    if "rules" in cfg:  # a preset, a file beside this one or a table of fields, as tournament files take
        cfg["rules"] = sa.Rules.load(cfg["rules"], HERE)
    played = cfg.get("rules") or sa.Rules()
    t0 = time.perf_counter()
    file_jobs = cfg.pop("jobs", 1)
    paired = cfg.pop("paired", None)  # every other bidder against this one, deal by deal
    if paired is not None and paired not in bidders:
        raise ValueError(f"{name}.toml: paired = {paired!r} is not one of its bidders {sorted(bidders)}")
    records = bidding_records(bidders, n_jobs=jobs if jobs is not None else file_jobs, **cfg)
    board = bidding_leaderboard(records)
    elapsed = time.perf_counter() - t0
    axes = plots.plot_bidding_leaderboard(board)
    axes[0].figure.tight_layout()
    axes[0].figure.savefig(RESULTS / f"{name}.png", dpi=110)
    lines = ["| bidder | deals | mean bid | bid - tricks | mean abs error | set rate | bags/hand | nil rate | nil success | points/deal | margin vs opponents | 95% interval | margin, bags at cost |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for bidder, r in board.iterrows():
        lines.append(
            f"| {bidder} | {int(r.deals):,} | {r.mean_bid:.2f} | {r.mean_error:+.2f} | {r.mae:.2f} | {r.set_rate:.1%} | {r.bags_per_hand:.2f} "
            f"| {r.nil_rate:.1%} | {r.nil_success:.0%} | {r.points_per_deal:.1f} | {r.margin:+.1f} | [{r.margin_low:+.1f}, {r.margin_high:+.1f}] "
            f"| {r.margin_at_bag_cost:+.1f} [{r.margin_at_bag_cost_low:+.1f}, {r.margin_at_bag_cost_high:+.1f}] |"
        )
    lines += ["", "Margin, bags at cost: every side's bags charged their share of the penalty "
              "(`spades_ai.analysis.points_at_bag_cost`), as a match charges them."]
    if paired is not None:
        lines += ["", f"Paired against {paired}, deal by deal on the same deals:", "",
                  f"| bidder | margin minus {paired}'s | 95% interval | the same, bags at cost |", "|---|---|---|---|"]  # fmt: skip
        for bidder in bidders:
            if bidder != paired:
                m, lo, hi = paired_margin(records, bidder, paired)
                c, clo, chi = paired_margin(records, bidder, paired, at_bag_cost=True)
                lines.append(f"| {bidder} | {m:+.2f} | [{lo:+.2f}, {hi:+.2f}] | {c:+.2f} [{clo:+.2f}, {chi:+.2f}] |")
    sides = f"{played.n_sides} tables per bidder (one per side: at table r it bids for side r)"
    head = (f"`python experiments/run.py {name}` ({name}.toml), {table_name(played)}: {cfg.get('deals', 2000):,} deals x {sides}, seed "
            f"{cfg.get('seed', 0)}, play by {cfg.get('policy', 'normal')}, opponents {cfg.get('opponents', 'normal')}; "
            f"{elapsed:.0f} s on {machine()}.\n")
    return head + "\n" + margin_title(records) + ".\n\n" + "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", choices=experiment_names())
    ap.add_argument("--jobs", type=int, default=None, help="override the file's jobs")
    ap.add_argument("--smoke", type=int, default=None, metavar="DEALS", help="a small run to try the pipeline; writes nothing to results/")
    args = ap.parse_args()
    results = HERE / "results"
    if args.smoke is not None:
        results = HERE / "runs" / "smoke"
        results.mkdir(parents=True, exist_ok=True)
    global RESULTS
    RESULTS = results
    kind = read_report(HERE / f"{args.name}.toml")["kind"]
    if kind == "pool":
        text = run_pool(args.name, args.jobs)
    elif kind == "paired":
        text = run_paired(args.name)
    elif kind == "bidding":
        text = run_bidding(args.name, args.jobs, args.smoke)
    else:
        text = run_tournament_experiment(args.name, args.jobs, args.smoke)
    (results / f"{args.name}.md").write_text(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
