"""Rates per agent from tournament results: bags, sets, nils, bid accuracy, and score context.

These work on the tidy frame of ``load_results`` (one row per hand per side; see
``spades_ai.tournament.results``). The rate definitions are those of ``summarize``::

    set_rate        contracts set / contracts bid, Wilson 95% interval
    bags_per_hand   new bags per side-hand (95% interval of the mean)
    penalties_per_100   bag penalties per 100 side-hands
    nil_rate        nil bids per player-hand; nil_success: nils made / nils bid (Wilson)
    bid_error       number bid minus the tricks that player took (nil bids apart); bid_mae
                    its mean absolute value

Score context (matches mode, where the running scores are kept): before each hand a side is
``near_target`` when its score is within 100 points of the target, ``near_bag_limit`` when its
bag count is within 3 of the limit, and ``trailing`` when it is 100 or more points behind the
best other side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from spades_ai.analysis.summary import agent_stats, mean_interval, summary_table, wilson_interval
from spades_ai.rules import Rules

CONTEXTS = ("near_target", "near_bag_limit", "trailing")


def results_rules(df: pd.DataFrame) -> Rules | None:
    """The rules a run of tournament results (``load_results``) was played by, from the
    config its frame carries (``df.attrs["config"]``); None for a frame without one."""
    config = df.attrs.get("config")
    cfg = config.get("rules") if isinstance(config, dict) else None
    return Rules.from_dict(cfg) if cfg else None


def seat_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per player-hand: ``agent``, ``bid``, ``blind``, ``nil``, ``nil_made``,
    ``tricks_won`` (the player's own), with the hand's ``pairing``, ``deal_no`` (or
    ``match_no`` and ``hand_no``), ``rotation`` and ``side``: every side's seat a, then the
    seat b of the sides that have one (pairs; ``_seat_b``)."""
    keys = [c for c in ("pairing", "match_no", "hand_no", "deal_no", "rotation", "side") if c in df.columns]
    parts = []
    for seat, rows in (("a", df), ("b", df[_seat_b(df)])):
        part = rows[keys + ["agent", "opponent"]].copy()
        part["seat"] = seat
        part["bid"] = rows[f"bid_{seat}"].astype(np.int16)
        part["blind"] = rows[f"blind_{seat}"].astype(bool)
        part["nil"] = rows[f"nil_{seat}"].astype(bool)
        part["nil_made"] = rows[f"nil_made_{seat}"].astype(bool)
        part["tricks_won"] = rows[f"tricks_won_{seat}"].astype(np.int16)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _seat_b(df: pd.DataFrame) -> np.ndarray:
    """The rows whose side has a seat b (a partner): all with pairs, none solo."""
    return df["bid_b"].notna().to_numpy()


def bid_accuracy(df: pd.DataFrame) -> pd.DataFrame:
    """Number bids (nil apart) with ``error`` = bid - the tricks that player took."""
    seats = seat_rows(df)
    seats = seats[seats["bid"] > 0].copy()
    seats["error"] = (seats["bid"] - seats["tricks_won"]).astype(np.int16)
    return seats


def _rates(sides: pd.DataFrame, seats: pd.DataFrame) -> dict:
    out = agent_stats(sides)
    bid_made = sides["contract"] > 0
    sets = int((~sides["made"][bid_made]).sum())
    out["set_lo"], out["set_hi"] = wilson_interval(sets, int(bid_made.sum()))
    _, out["bags_lo"], out["bags_hi"] = mean_interval(sides["new_bags"].to_numpy(float))
    nils = int(seats["nil"].sum())
    out["nil_lo"], out["nil_hi"] = wilson_interval(int(seats["nil_made"].sum()), nils)
    numbers = seats[seats["bid"] > 0]
    err = (numbers["bid"] - numbers["tricks_won"]).to_numpy(float)
    out["bid_error"] = float(err.mean()) if len(err) else np.nan
    out["bid_mae"] = float(np.abs(err).mean()) if len(err) else np.nan
    return out


def agent_rates(df: pd.DataFrame, by: str | list[str] = "agent") -> pd.DataFrame:
    """Bag, set, nil and bid-accuracy rates with 95% intervals, per agent (or per ``by``)."""
    by = [by] if isinstance(by, str) else list(by)
    seats = seat_rows(df)
    for col in by:
        if col not in seats.columns:
            seats[col] = np.concatenate([df[col].to_numpy(), df[col].to_numpy()[_seat_b(df)]])  # as seat_rows stacks
    out = []
    for key, group in df.groupby(by, observed=True, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        mask = np.ones(len(seats), bool)
        for col, value in zip(by, key, strict=True):
            mask &= (seats[col] == value).to_numpy()
        out.append({**dict(zip(by, key, strict=True)), **_rates(group, seats[mask])})
    return summary_table(pd.DataFrame(out))


def with_context(df: pd.DataFrame, rules: Rules | None = None) -> pd.DataFrame:
    """``df`` (matches mode) with each side's score and bag count before the hand, the best
    other side's score before it (``opp_score_before``; with two sides the opponents') and the
    ``CONTEXTS`` flags (``trailing``: 100 or more behind that side). The rules come from the
    results' config unless given."""
    if "score" not in df.columns:
        raise ValueError("score context needs matches-mode results (running scores are kept only there)")
    if rules is None:
        rules = results_rules(df) or Rules()
    out = df.copy()
    points = df["points"].astype(np.int64)
    out["score_before"] = df["score"].astype(np.int64) - points
    # The other sides' rows of the same hand hold their scores before it.
    keys = [c for c in ("pairing", "match_no", "rotation", "hand_no") if c in df.columns]
    n_sides = int(df["side"].max()) + 1 if len(df) else 2
    others = df[keys + ["side"]].assign(before=out["score_before"])
    best = np.full(len(df), np.iinfo(np.int64).min)
    for shift in range(1, n_sides):
        other = others.assign(side=(others["side"] + n_sides - shift) % n_sides)
        merged = df[keys + ["side"]].merge(other, on=keys + ["side"], how="left")
        best = np.maximum(best, merged["before"].to_numpy(np.int64))
    out["opp_score_before"] = best
    out["bag_count_before"] = (
        df["bag_count"].astype(np.int64) - df["new_bags"].astype(np.int64) + df["bag_penalties"].astype(np.int64) * rules.bag_limit
    )
    target = rules.target_score if rules.target_score is not None else np.iinfo(np.int64).max // 2
    out["near_target"] = out["score_before"] >= target - 100
    out["near_bag_limit"] = out["bag_count_before"] >= rules.bag_limit - 3
    out["trailing"] = out["score_before"] <= out["opp_score_before"] - 100
    return out


def rates_by_context(df: pd.DataFrame, context: str = "near_bag_limit", rules: Rules | None = None) -> pd.DataFrame:
    """``agent_rates`` per agent, split by one score-context flag (see ``CONTEXTS``)."""
    if context not in CONTEXTS:
        raise ValueError(f"unknown context {context!r}; contexts: {', '.join(CONTEXTS)}")
    return agent_rates(with_context(df, rules), by=["agent", context])
