"""Plots for notebooks and reports (matplotlib). Each takes the table its name says, draws on
``ax`` (a new figure when None) with labelled axes, units and 95% intervals, and returns ``ax``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _ax(ax, figsize=(6, 4)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_rates(rates: pd.DataFrame, axes=None, label: str = "agent"):
    """Bag rate and set rate per agent (``agent_rates``), side by side, with 95% intervals."""
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(10, 4))
    names = rates[label].astype(str).tolist()
    x = np.arange(len(names))
    bags = rates["bags_per_hand"].to_numpy(float)
    axes[0].bar(x, bags, yerr=[bags - rates["bags_lo"], rates["bags_hi"] - bags], capsize=4, color="tab:orange")
    axes[0].set_ylabel("bags per side-hand (a partnership, or a player solo)")
    axes[0].set_title("Bag rate (95% CI)")
    sets = 100 * rates["set_rate"].to_numpy(float)
    axes[1].bar(x, sets, yerr=[sets - 100 * rates["set_lo"], 100 * rates["set_hi"] - sets], capsize=4, color="tab:red")
    axes[1].set_ylabel("contracts set (% of contracts bid)")
    axes[1].set_title("Set rate (95% Wilson CI)")
    for ax in axes:
        ax.set_xticks(x, names, rotation=20)
        ax.set_xlabel(label)
    return axes


def plot_rates_by_context(rates: pd.DataFrame, axes=None, label: str = "agent"):
    """Bag rate and set rate per agent in and out of one score context (``rates_by_context``:
    its flag column, such as ``near_bag_limit``, tells which), side by side, with 95% intervals;
    each tick says how many hands each bar holds. An agent never in the context has no bar there.
    For example ``plot_rates_by_context(metrics.rates_by_context(df, "near_bag_limit"))`` with
    ``df`` the results of a matches-mode run."""
    from spades_ai.analysis.metrics import CONTEXTS

    flags = [c for c in CONTEXTS if c in rates.columns]
    if len(flags) != 1:
        raise ValueError(f"rates by context hold one flag column of {', '.join(CONTEXTS)} (rates_by_context); "
                         f"these have {flags or 'none'}")
    context = flags[0]
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(11, 4))
    names = list(dict.fromkeys(rates[label].astype(str)))
    x = np.arange(len(names))
    width = 0.38
    words = context.replace("_", " ")
    hands = {}
    for k, (flag, colour) in enumerate(((False, "tab:grey"), (True, "tab:blue"))):
        rows = rates[rates[context].astype(bool) == flag].assign(_name=lambda r: r[label].astype(str)).set_index("_name")
        rows = rows.reindex(names)
        hands[flag] = rows["hands"].fillna(0).astype(int).tolist()
        where = x + (k - 0.5) * width
        name = words if flag else f"not {words}"
        bags = rows["bags_per_hand"].to_numpy(float)
        axes[0].bar(where, bags, width, yerr=[bags - rows["bags_lo"].to_numpy(float), rows["bags_hi"].to_numpy(float) - bags],
                    capsize=3, color=colour, label=name)
        sets = 100 * rows["set_rate"].to_numpy(float)
        axes[1].bar(where, sets, width, yerr=[sets - 100 * rows["set_lo"].to_numpy(float), 100 * rows["set_hi"].to_numpy(float) - sets],
                    capsize=3, color=colour, label=name)
    ticks = [f"{n}\n({off:,} / {on:,} hands)" for n, off, on in zip(names, hands[False], hands[True])]
    axes[0].set_ylabel("bags per side-hand (a partnership, or a player solo)")
    axes[0].set_title(f"Bag rate, {words} or not (95% CI)")
    axes[1].set_ylabel("contracts set (% of contracts bid)")
    axes[1].set_title(f"Set rate, {words} or not (95% Wilson CI)")
    for ax in axes:
        ax.set_xticks(x, ticks)
        ax.set_xlabel(label)
        ax.legend()
    return axes


def plot_bid_accuracy(accuracy: pd.DataFrame, ax=None, by: str = "agent"):
    """Histogram of bid minus tricks taken (``bid_accuracy``), one line per agent."""
    ax = _ax(ax)
    lo, hi = int(accuracy["error"].min()), int(accuracy["error"].max())
    bins = np.arange(lo, hi + 2) - 0.5
    for name, g in accuracy.groupby(by, observed=True):
        share, _ = np.histogram(g["error"], bins=bins)
        ax.step(bins[:-1] + 0.5, 100 * share / max(len(g), 1), where="mid", label=f"{name} (mean {g['error'].mean():+.2f})")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("bid - tricks taken by the bidder (tricks; number bids only)")
    ax.set_ylabel("share of bids (%)")
    ax.set_title("Bid accuracy")
    ax.legend()
    return ax


def plot_ladder(table: pd.DataFrame, ax=None, value: str = "rating", lo: str = "lo", hi: str = "hi", label: str = "agent", unit: str = "Elo",
                title: str = "Agent ladder"):
    """A ladder: one horizontal interval per agent, strongest on top (``ratings`` by default;
    for points per deal pass ``value="diff", lo="diff_lo", hi="diff_hi", unit="points per deal"``)."""
    ax = _ax(ax, figsize=(6, 0.6 * len(table) + 1.5))
    t = table.sort_values(value)
    y = np.arange(len(t))
    v = t[value].to_numpy(float)
    ax.errorbar(v, y, xerr=[v - t[lo].to_numpy(float), t[hi].to_numpy(float) - v], fmt="o", capsize=4)
    ax.set_yticks(y, t[label].astype(str))
    ax.set_xlabel(f"{value} ({unit}, 95% CI)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return ax


def plot_budget_curve(curve: pd.DataFrame, ax=None, x: str = "worlds", value: str = "diff", lo: str = "diff_lo", hi: str = "diff_hi", title: str = "Strength against budget"):
    """Points per deal against the opponent (duplicate, 95% CI) as the budget grows (log scale)."""
    ax = _ax(ax)
    v = curve[value].to_numpy(float)
    ax.errorbar(curve[x], v, yerr=[v - curve[lo].to_numpy(float), curve[hi].to_numpy(float) - v], marker="o", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(f"{x} per decision (log scale)")
    ax.set_ylabel("points per deal vs opponent (duplicate, 95% CI)")
    ax.set_title(title)
    return ax


def plot_bidding_leaderboard(board: pd.DataFrame, axes=None):
    """The bidding benchmark: margin per deal (95% CI) and mean absolute bid error per bidder."""
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(10, 0.5 * len(board) + 2))
    b = board.sort_values("margin")
    y = np.arange(len(b))
    m = b["margin"].to_numpy(float)
    axes[0].errorbar(m, y, xerr=[m - b["margin_low"].to_numpy(float), b["margin_high"].to_numpy(float) - m], fmt="o", capsize=4)
    axes[0].axvline(0, color="grey", lw=0.8)
    axes[0].set_yticks(y, b.index.astype(str))
    axes[0].set_xlabel("points per deal minus the opponents' (95% CI)")
    axes[0].set_title("Points earned by the bidding")
    axes[1].barh(y, b["mae"].to_numpy(float), color="tab:purple")
    axes[1].set_yticks(y, b.index.astype(str))
    axes[1].set_xlabel("mean |bid - tricks| (tricks)")
    axes[1].set_title("Bid error")
    return axes


def plot_partner_values(values: pd.DataFrame, ax=None):
    """Each agent's value as a partner (``analysis.partners.partner_values``), best on top."""
    return plot_ladder(values, ax, value="value", unit="points per deal added to its side", title="Value as a partner")
