"""The tournament table: points, win rates, set, bag and nil rates per pairing, and ratings.

Every figure is computed from the tidy rows of ``load_results`` (one per hand per side: a
partnership, or a player solo), per agent over every side it sat at, at any table size::

    points         mean points per side-hand of the agent's side
    diff           mean duplicate difference per unit. A pairing (A, B) seats A on one side and B
                   on every other (``Tournament.lineup``); in each hand A's difference is its
                   points minus the mean of the other sides' points in the same deal and rotation
                   (at two sides: minus B's). For unit u (a deal, or a match in matches mode) it
                   is summed over the rotations and divided by the hands A played there; B's diff
                   is the negative of A's. 95% interval: mean +- 1.96 standard errors over units
                   (hands mode), a percentile bootstrap over matches (matches mode, where units
                   hold different numbers of hands: the ratio needs the bootstrap)
    win_rate       matches won / matches finished (matches mode), Wilson 95% interval; counted
                   per side the agent held (B on two sides of a 3-player match counts two)
    set_rate       contracts set / contracts bid (a side whose players all bid nil bids none)
    bags_per_hand  new bags per side-hand; penalties_per_100: bag penalties per 100 side-hands
    nil_rate       nil bids per player-hand; nil_success: nils made / nils bid
    team_bid, team_tricks   mean side bid (nil counts 0) and mean side tricks per hand (solo a
                   side is one seat: printed as its own ``bid`` and ``tricks``)

``ratings`` fits a Bradley-Terry model to the duplicate outcomes (a unit is won by the agent
with the higher duplicate difference, a tie counts half; in matches mode each finished match
is an outcome) and reports it on the Elo scale (400 log10 strength, mean 0), with percentile
bootstrap intervals that resample each pairing's outcomes.

>>> import numpy as np
>>> [round(x, 3) for x in wilson_interval(8, 10)]
[0.49, 0.943]
>>> [round(x, 3) for x in mean_interval(np.array([1.0, 2.0, 3.0, 4.0]))]
[2.5, 1.235, 3.765]
"""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd

from spades_ai.rules import Rules

Z95 = 1.959963984540054


class SummaryTable(pd.DataFrame):
    """A summary table: a DataFrame that prints whole. ``str()`` and ``repr()`` are
    ``to_string()`` (every row and column, where pandas would cut a wide table to
    ``[3 rows x 12 columns]`` on a terminal), under its title (``attrs["title"]``, which says
    what the figures are measured against) when it has one; a notebook shows its HTML with the
    title above it. Frames made from it (``round``, ``sort_values``, a choice of columns) are
    summary tables too; everything else is pandas'.

    >>> print(summary_table(pd.DataFrame({"agent": ["normal"], "points": [1.5]}), "points per hand"))
    points per hand
        agent  points
    0  normal     1.5
    """

    @property
    def _constructor(self):
        return SummaryTable

    def __repr__(self) -> str:
        title = self.attrs.get("title")
        return (f"{title}\n" if title else "") + self.to_string()

    __str__ = __repr__

    def _repr_html_(self) -> str:
        title = self.attrs.get("title")
        table = super()._repr_html_() or ""
        return (f"<p><b>{html.escape(str(title))}</b></p>" if title else "") + table


def summary_table(df: pd.DataFrame, title: str | None = None) -> SummaryTable:
    """``df`` as a ``SummaryTable`` (its attrs kept) with ``title``, if given."""
    out = SummaryTable(df)
    out.attrs = {**df.attrs, **({"title": title} if title else {})}
    return out


SUMMARY_COLUMNS = [
    "pairing", "agent", "opponent", "units", "hands", "points", "diff", "diff_lo", "diff_hi",
    "win_rate", "win_lo", "win_hi", "matches", "set_rate", "bags_per_hand", "penalties_per_100",
    "nil_rate", "nil_success", "team_bid", "team_tricks",
]  # fmt: skip


# -- intervals --------------------------------------------------------------------------------
def mean_interval(x: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, lo, hi): the normal-approximation 95% interval of the mean of ``x``."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    if n < 2:
        return m, math.nan, math.nan
    half = z * float(x.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n``: (lo, hi); NaNs when ``n`` is 0."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_ratio_interval(
    num: np.ndarray, den: np.ndarray, n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[float, float, float]:
    """(sum(num)/sum(den), lo, hi): percentile bootstrap over units (pairs of num and den)."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    n = len(num)
    if n == 0 or den.sum() == 0:
        return math.nan, math.nan, math.nan
    est = float(num.sum() / den.sum())
    if n < 2 or n_boot < 1:
        return est, math.nan, math.nan
    rng = np.random.default_rng(seed)
    stats = np.empty(n_boot)
    batch = max(1, 2_000_000 // n)  # resample in batches: memory stays ~16 MB
    for i in range(0, n_boot, batch):
        b = min(batch, n_boot - i)
        idx = rng.integers(0, n, size=(b, n))
        stats[i : i + b] = num[idx].sum(axis=1) / np.maximum(den[idx].sum(axis=1), 1e-300)
    a = (1 - level) / 2
    lo, hi = np.quantile(stats, [a, 1 - a])
    return est, float(lo), float(hi)


# -- per pairing ------------------------------------------------------------------------------
def _mode(df: pd.DataFrame) -> str:
    mode = df.attrs.get("config", {}).get("mode") if isinstance(df.attrs.get("config"), dict) else None
    return mode or ("matches" if "match_no" in df.columns else "hands")


def _pairings(df: pd.DataFrame) -> list[tuple[int, str, str, pd.DataFrame]]:
    """(pairing, A, B, rows) with A the agent of side 0 at rotation 0."""
    out = []
    key = df["pairing"] if "pairing" in df.columns else pd.Series(0, index=df.index)
    for p, g in df.groupby(key, sort=True, observed=True):
        first = g[(g["rotation"] == 0) & (g["side"] == 0)]
        a = str((first if len(first) else g)["agent"].iloc[0])
        others = [str(x) for x in g["agent"].unique() if str(x) != a]
        if len(others) != 1:
            raise ValueError(f"pairing {p} has agents {[a, *others]}; a pairing holds exactly two")
        out.append((int(p), a, others[0], g))
    return out


def _is(column: pd.Series, label: str) -> np.ndarray:
    """``column == label`` as a bool array, fast for categoricals (no string conversion)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        cats = [str(c) for c in column.cat.categories]
        if label not in cats:
            return np.zeros(len(column), bool)
        return column.cat.codes.to_numpy() == cats.index(label)
    return column.astype(str).to_numpy() == label


def _unit_outcomes(g: pd.DataFrame, a: str, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """Per unit: (A's points minus the mean of the other sides' in each hand, summed over the
    rotations; the hands A played there). A sits on one side of every hand of its pairing."""
    unit = g["match_no"] if mode == "matches" else g["deal_no"]
    n_sides = int(g["side"].max()) + 1
    mine = _is(g["agent"], a)
    # A's row counts its points, each other row minus its points / (n_sides - 1): the mean of the others
    sign = np.where(mine, 1.0, -1.0 / (n_sides - 1))
    frame = pd.DataFrame({"unit": unit.to_numpy(), "s": sign * g["points"].to_numpy(dtype=float), "hands": mine * 1.0})
    sums = frame.groupby("unit", sort=True).sum()
    return sums["s"].to_numpy(), sums["hands"].to_numpy()


def unit_differences(df: pd.DataFrame, agent: str, opponent: str) -> pd.Series:
    """``agent``'s duplicate difference against ``opponent`` in each unit of their pairing (a
    deal, or a match in matches mode), as a Series indexed by ``deal_no`` (``match_no``): the
    numbers ``summarize``'s ``diff`` is the mean of, at any table size. Two runs of the same seed
    and table hold the same units, so two such Series are paired by their index.

    >>> from spades_ai import run_tournament, load_results
    >>> df = load_results(run_tournament("normal,easy", deals=20, n_jobs=1, progress=False))
    >>> d = unit_differences(df, "normal", "easy")
    >>> len(d), bool(abs(d.mean() - summarize(df)["diff"].iloc[0]) < 1e-9)
    (20, True)
    """
    mode = _mode(df)
    for _, a, b, g in _pairings(df):
        if {a, b} == {agent, opponent}:
            s, hands = _unit_outcomes(g, a, mode)
            sign = 1.0 if a == agent else -1.0
            unit = g["match_no"] if mode == "matches" else g["deal_no"]
            return pd.Series(sign * s / hands, index=np.sort(unit.unique()), name=agent)
    raise ValueError(f"no pairing of {agent!r} and {opponent!r} in these results")


def bags_at_cost(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with each side's ``points`` valued as a match values them: every bag at its share
    of the penalty it leads to (``bag_penalty / bag_limit`` of the run's rules, 10 points by
    default) in place of the penalties paid. ``summarize`` and ``unit_differences`` of the result
    give the margins with bags at their cost.

    In hands mode every hand starts with no bags, so a bag scores its point and its penalty
    never comes: a side that takes many bags (an underbidder) looks better there than it is in
    a match, and a side that avoids them (Hard and Crazy value bags at this cost) worse. This is
    the reading to set beside a hands-mode margin; a matches-mode run measures the same thing
    with the penalties themselves.

    >>> from spades_ai import run_tournament, load_results
    >>> df = load_results(run_tournament("normal,easy", deals=20, n_jobs=1, progress=False))
    >>> valued = bags_at_cost(df)
    >>> bool((df["points"] - valued["points"] == 10 * df["new_bags"] - 100 * df["bag_penalties"]).all())
    True
    """
    rules = Rules.from_dict(df.attrs.get("config", {}).get("rules", {}))  # the run's (as its config.json)
    out = df.copy()
    out["points"] = points_at_bag_cost(df["points"], df["bag_penalties"], df["new_bags"], rules)
    return out


def points_at_bag_cost(points, bag_penalties, new_bags, rules: Rules):
    """``points`` (a side's, for one hand; arrays or columns alike) with the ``bag_penalties``
    paid put back and each of the ``new_bags`` charged its share of the penalty it leads to,
    ``bag_penalty / bag_limit`` of ``rules``: what the hand is worth over a match
    (``bags_at_cost``; the bidding benchmark's ``margin_at_bag_cost``).

    >>> points_at_bag_cost(53, 0, 3, Rules())  # 5 bid, 8 taken: 50 + 3, less 3 bags at 10
    23.0
    """
    return points + rules.bag_penalty * bag_penalties - rules.bag_penalty / rules.bag_limit * new_bags


def _match_results(g: pd.DataFrame, agent: str) -> tuple[int, int]:
    """(matches won by ``agent``, finished matches it played), per side it held."""
    mine = g[_is(g["agent"], agent) & (g["winner"] >= 0).to_numpy()]
    return int((mine["winner"] == mine["side"]).sum()), len(mine)


def agent_stats(r: pd.DataFrame) -> dict:
    """The rates of one agent's side rows (see the module docstring): hands, points,
    set_rate, bags_per_hand, penalties_per_100, nil_rate, nil_success, team_bid, team_tricks.
    Solo (``bid_b`` null) a side is one player."""
    n = len(r)
    bid_made = r["contract"] > 0
    partnered = r["bid_b"].notna().to_numpy()  # seat b is there (pairs)
    players = n + int(partnered.sum())
    nils = int(r["nil_a"].sum() + r["nil_b"][partnered].sum())
    nil_made = int(r["nil_made_a"].sum() + r["nil_made_b"][partnered].sum())
    bids = r["bid_a"].astype(int) + np.where(partnered, r["bid_b"].fillna(0), 0).astype(int)
    return {
        "hands": n,
        "points": float(r["points"].mean()) if n else math.nan,
        "set_rate": float((~r["made"][bid_made]).mean()) if bid_made.any() else math.nan,
        "bags_per_hand": float(r["new_bags"].mean()) if n else math.nan,
        "penalties_per_100": 100 * float(r["bag_penalties"].mean()) if n else math.nan,
        "nil_rate": nils / players if n else math.nan,
        "nil_success": nil_made / nils if nils else math.nan,
        "team_bid": float(bids.mean()) if n else math.nan,
        "team_tricks": float(r["team_tricks"].mean()) if n else math.nan,
    }


def summarize(df: pd.DataFrame, *, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """One row per agent per pairing (see the module docstring for each column).

    >>> from spades_ai import run_tournament, load_results
    >>> table = summarize(load_results(run_tournament("normal,easy", deals=200, n_jobs=1, progress=False)))
    >>> table[["agent", "opponent", "units"]].values.tolist()
    [['normal', 'easy', 200], ['easy', 'normal', 200]]
    """
    mode = _mode(df)
    rows = []
    for p, a, b, g in _pairings(df):
        s, hands = _unit_outcomes(g, a, mode)
        if mode == "matches":
            diff, lo, hi = bootstrap_ratio_interval(s, hands, n_boot=n_boot, seed=seed)
        else:
            diff, lo, hi = mean_interval(s / hands)
        for agent, opp, sign in ((a, b, 1), (b, a, -1)):
            r = g[_is(g["agent"], agent)]
            row = {"pairing": p, "agent": agent, "opponent": opp, "units": len(s)}
            row.update(agent_stats(r))
            d_lo, d_hi = (lo, hi) if sign > 0 else (-hi, -lo)
            row.update({"diff": sign * diff, "diff_lo": d_lo, "diff_hi": d_hi})
            if mode == "matches":
                won, played = _match_results(g, agent)
                w_lo, w_hi = wilson_interval(won, played)
                row.update(
                    {
                        "win_rate": won / played if played else math.nan,
                        "win_lo": w_lo,
                        "win_hi": w_hi,
                        "matches": played,
                    }
                )
            else:
                row.update({"win_rate": math.nan, "win_lo": math.nan, "win_hi": math.nan, "matches": 0})
            rows.append(row)
    return summary_table(pd.DataFrame(rows, columns=SUMMARY_COLUMNS))


# -- ratings ----------------------------------------------------------------------------------
def outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """Per pairing: agents ``a`` and ``b`` and the ``wins``, ``losses`` and ``ties`` of ``a``."""
    mode = _mode(df)
    rows = []
    for p, a, b, g in _pairings(df):
        if mode == "matches":
            won_a, n = _match_results(g, a)
            won_b, _ = _match_results(g, b)
            rows.append({"pairing": p, "a": a, "b": b, "wins": won_a, "losses": won_b, "ties": n - won_a - won_b})
        else:
            s, _ = _unit_outcomes(g, a, mode)
            rows.append(
                {
                    "pairing": p,
                    "a": a,
                    "b": b,
                    "wins": int((s > 0).sum()),
                    "losses": int((s < 0).sum()),
                    "ties": int((s == 0).sum()),
                }
            )
    return pd.DataFrame(rows, columns=["pairing", "a", "b", "wins", "losses", "ties"])


def bradley_terry(
    n_agents: int, pairs: np.ndarray, wins: np.ndarray, prior: float = 0.5, iters: int = 1000
) -> np.ndarray:
    """Bradley-Terry strengths (geometric mean 1) by the MM algorithm, for many data sets at once.

    ``pairs`` is ``(P, 2)`` agent indices; ``wins`` is ``(..., P, 2)``: the wins of each side of
    each pairing (ties split half and half). ``prior`` adds that many wins each way to every
    pairing, so an unbeaten agent stays finite. Returns ``(..., n_agents)``.
    """
    wins = np.asarray(wins, float)
    batch = wins.shape[:-2]
    w = np.zeros(batch + (n_agents, n_agents))
    for k, (i, j) in enumerate(pairs):
        w[..., i, j] += wins[..., k, 0] + prior
        w[..., j, i] += wins[..., k, 1] + prior
    games = w + np.swapaxes(w, -1, -2)
    total = w.sum(axis=-1)
    p = np.ones(batch + (n_agents,))
    for _ in range(iters):
        denom = (games / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        new = np.where(denom > 0, total / np.maximum(denom, 1e-300), 1.0)
        new = new / np.exp(np.log(np.maximum(new, 1e-300)).mean(axis=-1, keepdims=True))
        if np.max(np.abs(new - p)) < 1e-9:
            return new
        p = new
    return p


def ratings(df: pd.DataFrame, *, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Elo-scale Bradley-Terry rating of each agent with a 95% bootstrap interval.

    Columns: ``agent``, ``rating`` (mean 0), ``lo``, ``hi``, ``wins``, ``losses``, ``ties``
    (summed over the agent's pairings), best first. The bootstrap redraws each pairing's
    (wins, losses, ties) from a multinomial with the observed shares, which is the same as
    resampling its units.
    """
    table = outcomes(df)
    agents = list(dict.fromkeys(x for r in table.itertuples() for x in (r.a, r.b)))
    index = {a: i for i, a in enumerate(agents)}
    pairs = np.array([(index[a], index[b]) for a, b in zip(table["a"], table["b"])], dtype=int).reshape(-1, 2)
    wlt = table[["wins", "losses", "ties"]].to_numpy(dtype=float).reshape(-1, 3)

    def as_wins(c):  # (..., P, 3) -> (..., P, 2) with ties split
        return np.stack([c[..., 0] + c[..., 2] / 2, c[..., 1] + c[..., 2] / 2], axis=-1)

    point = 400 * np.log10(bradley_terry(len(agents), pairs, as_wins(wlt)))
    if n_boot > 0 and len(pairs):
        rng = np.random.default_rng(seed)
        n = wlt.sum(axis=1)
        shares = np.where(n[:, None] > 0, wlt / np.maximum(n, 1)[:, None], 0)
        draws = np.stack([rng.multinomial(int(k), s, size=n_boot) for k, s in zip(n, shares)], axis=1)
        boots = 400 * np.log10(bradley_terry(len(agents), pairs, as_wins(draws)))
        lo, hi = np.quantile(boots, [0.025, 0.975], axis=0)
    else:
        lo = hi = np.full(len(agents), np.nan)
    stats = np.zeros((len(agents), 3), dtype=np.int64)
    for (i, j), (w, l, t) in zip(pairs, wlt.astype(np.int64)):
        stats[i] += (w, l, t)
        stats[j] += (l, w, t)
    out = pd.DataFrame(
        {
            "agent": agents,
            "rating": point,
            "lo": lo,
            "hi": hi,
            "wins": stats[:, 0],
            "losses": stats[:, 1],
            "ties": stats[:, 2],
        }
    )
    return summary_table(out.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True))


# -- text -------------------------------------------------------------------------------------
def number_text(x: float, spec: str) -> str:
    """``format(x, spec)``, except that a value rounding to zero never prints as ``-0.0``.

    >>> number_text(-0.04, "+.1f"), number_text(-0.0, ".2f"), number_text(-1.26, "+.1f")
    ('+0.0', '0.00', '-1.3')
    """
    text = format(x, spec)
    if "-" in text and math.isfinite(x) and not any(c in "123456789" for c in text):
        return format(0.0, spec)
    return text


def rounded(frame: pd.DataFrame, digits: int) -> pd.DataFrame:
    """``frame.round(digits)`` without negative zeros (``-0.000`` where a value rounds to 0).

    >>> print(rounded(pd.DataFrame({"x": [-0.0004, 1.23456]}), 3))
           x
    0  0.000
    1  1.235
    """
    out = frame.round(digits)
    floats = out.select_dtypes("float").columns
    out[floats] = out[floats] + 0.0  # -0.0 + 0.0 is +0.0 (IEEE 754); NaN stays NaN
    return out


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


#: Why ``pen/100`` is left out of a hands-mode summary.
HANDS_MODE_PENALTIES = (
    "pen/100 (bag penalties per 100 hands) is left out: in hands mode every hand starts with no bags, "
    "so penalties need matches (--mode matches)"
)


def format_summary(table: pd.DataFrame, rating_table: pd.DataFrame | None = None, *, title: str = "",
                   unit: str = "deal", mode: str = "hands", solo: bool = False) -> str:
    """The summary as aligned plain text, for the terminal; ``unit`` names what a row of the
    difference is per (``"deal"``, or ``"hand"`` for a matches-mode run). In hands ``mode`` bags
    never carry over from one hand to the next, so the bag penalties column (``pen/100``) is
    left out, with a note saying why, unless a single hand paid one. ``solo``: every side is
    one seat, whose own bid and tricks the last two columns are (``bid``, ``tricks``, where
    partnerships have ``team bid`` and ``team tricks``)."""
    lines = [title] if title else []
    show = pd.DataFrame(
        {
            "agent": table["agent"],
            "vs": table["opponent"],
            "units": table["units"].map("{:,}".format),
            "points/hand": [number_text(x, ".1f") for x in table["points"]],
            f"diff/{unit} [95%]": [
                f"{number_text(d, '+.1f')} [{number_text(lo, '+.1f')}, {number_text(hi, '+.1f')}]"
                for d, lo, hi in zip(table["diff"], table["diff_lo"], table["diff_hi"])
            ],
        }
    )
    if table["matches"].sum() > 0:
        show["win rate [95%]"] = [
            f"{_pct(w)} [{_pct(lo)}, {_pct(hi)}]"
            for w, lo, hi in zip(table["win_rate"], table["win_lo"], table["win_hi"])
        ]
    show["set"] = table["set_rate"].map(_pct)
    show["bags/hand"] = table["bags_per_hand"].map("{:.2f}".format)
    penalties_shown = mode != "hands" or bool((table["penalties_per_100"].fillna(0) > 0).any())
    if penalties_shown:
        show["pen/100"] = table["penalties_per_100"].map("{:.1f}".format)
    show["nil"] = table["nil_rate"].map(_pct)
    show["nil made"] = table["nil_success"].map(_pct)
    side = "" if solo else "team "
    show[f"{side}bid"] = table["team_bid"].map("{:.2f}".format)
    show[f"{side}tricks"] = table["team_tricks"].map("{:.2f}".format)
    lines.append(show.to_string(index=False))
    if not penalties_shown:
        lines.append(HANDS_MODE_PENALTIES)
    if rating_table is not None and len(rating_table):
        lines.append("")
        lines.append("ratings (Bradley-Terry on duplicate outcomes, Elo scale, 95% bootstrap):")
        rt = pd.DataFrame(
            {
                "agent": rating_table["agent"],
                "rating": [number_text(x, "+.0f") for x in rating_table["rating"]],
                "[95%]": [f"[{number_text(lo, '+.0f')}, {number_text(hi, '+.0f')}]"
                          for lo, hi in zip(rating_table["lo"], rating_table["hi"])],
                "W-L-T": [
                    f"{w}-{l}-{t}"
                    for w, l, t in zip(rating_table["wins"], rating_table["losses"], rating_table["ties"])
                ],
            }
        )
        lines.append(rt.to_string(index=False))
    return "\n".join(lines)
