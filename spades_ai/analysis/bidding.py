"""The bidding benchmark: bidding heuristics compared on one fixed set of deals.

Each bidder bids for one side, side ``r`` at table ``r``, on the same deals at one table per side
of the rules (at 4 players in pairs: seats 0 and 2 at table 0, seats 1 and 3 at table 1; at 3
players solo: seat 0, 1 and 2 at tables 0, 1 and 2), the opponents on every other side bid with
their own agent, and every card, at every seat, is played by one fixed policy (Normal by
default). Only the bids differ between bidders, so the differences in the tricks taken, the sets,
the bags and the points are the bidding's. The opponents' points are the mean of the other sides'
(with two sides, the other side's).

Every hand starts with no bags, so a bag scores its point and its penalty never comes: a bidder
that underbids and takes bags looks better here than it is over a match. ``margin_at_bag_cost``
is the margin with every side's bags charged their share of the penalty
(``analysis.points_at_bag_cost``; ``bags_at_cost`` reads a tournament so), beside the plain one.

A bidder is a built-in or user agent (its ``bid``), an agent spec such as ``"hard:worlds=64"``,
or a plain function ``f(cards, seat, bids, scores) -> bid`` taking the seat's cards (a
``CardSet``), its seat, the bids so far by seat (None for not yet, 0 for nil) and the match
scores.

>>> def two_each(cards, seat, bids, scores):
...     return 2
>>> board = bidding_benchmark({"two": two_each, "normal": "normal"}, deals=40)
>>> list(board.index)
['normal', 'two']
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from spades_ai.policies.kernel_agent import Mixed
from spades_ai.selfplay.play import play_hands
from spades_ai.analysis.summary import mean_interval, points_at_bag_cost, summary_table
from spades_ai.observation import Observation
from spades_ai.rules import Rules
from spades_ai.seats import seats, side_of, side_seats, sides, table_name

class FunctionBidder:
    """A bidder from a plain function ``f(cards, seat, bids, scores) -> bid``."""

    def __init__(self, name: str, bid_fn: Callable):
        self.name = name
        self._bid_fn = bid_fn

    def bid(self, obs: Observation) -> int:
        return self._bid_fn(obs.cards, obs.seat, obs.bids, obs.scores)

    def play(self, obs: Observation):  # never asked: the benchmark's play policy plays
        raise NotImplementedError("a bidding function only bids")


def _agent(spec):
    """The agent of a spec text or an ``AgentSpec`` (built in the worker), or ``spec`` itself."""
    from spades_ai.agents.spec import AgentSpec, parse_agent

    if isinstance(spec, str):
        return parse_agent(spec).build()
    if isinstance(spec, AgentSpec):
        return spec.build()
    return spec


def _name_of(spec) -> str:
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "name", getattr(spec, "__name__", type(spec).__name__)))


def _seat_agent(name, spec, policy):
    """The benchmark's seat: bids like the bidder, plays like the policy (``Mixed``: a kernel
    bidder and policy run wholly in numba; a Python bidder is asked only for its bids)."""
    obj = _agent(spec)
    if hasattr(obj, "bid"):
        return Mixed(name, obj, policy)
    if callable(obj):
        return Mixed(name, FunctionBidder(name, obj), policy)
    raise TypeError(f"bidder {name!r} is neither an agent with bid(obs) nor a function f(cards, seat, bids, scores)")


def _normalise(bidders) -> dict:
    if isinstance(bidders, Mapping):
        items = dict(bidders)
    else:
        items = {}
        for spec in bidders:
            items[_name_of(spec)] = spec
    if not items:
        raise ValueError("give at least one bidder")
    return items


def _chunk(name, spec, policy_spec, opponent_spec, seed, start, n, rules):
    rules = Rules() if rules is None else rules
    policy = _agent(policy_spec)
    seat_agent = _seat_agent(name, spec, policy)
    opponent = Mixed("opponents", _agent(opponent_spec), policy)
    rows = []
    for table in sides(rules):
        team = table  # the bidder's side
        lineup = [seat_agent if side_of(seat, rules) == team else opponent for seat in seats(rules)]
        rec = play_hands(lineup, n, seed=seed, rules=rules, start=start)
        others = np.delete(rec.points, team, axis=1)
        valued = points_at_bag_cost(rec.points, rec.bag_penalties, rec.new_bags, rules)
        for seat in side_seats(team, rules):
            rows.append(pd.DataFrame({
                "bidder": name,
                "deal_no": rec.deal_no,
                "table": np.int8(table),
                "seat": np.int8(seat),
                "bid": rec.bids[:, seat].astype(np.int16),
                "blind": rec.blind[:, seat],
                "tricks_won": rec.tricks_won[:, seat].astype(np.int16),
                "nil_made": rec.nil_made[:, seat],
                "contract": rec.contract[:, team],
                "made": rec.made[:, team],
                "team_new_bags": rec.new_bags[:, team],
                "team_points": rec.points[:, team],
                "opponent_points": others.mean(axis=1),
                "team_points_at_bag_cost": valued[:, team],
                "opponent_points_at_bag_cost": np.delete(valued, team, axis=1).mean(axis=1),
            }))
    return pd.concat(rows, ignore_index=True)


def bidding_records(
    bidders,
    deals: int = 2000,
    seed: int = 0,
    *,
    rules: Rules | None = None,
    policy="normal",
    opponents="normal",
    n_jobs: int = 1,
    chunk: int = 250,
) -> pd.DataFrame:
    """One row per bidder, deal, table and bidding seat: the bid, the tricks that seat took,
    and its side's contract, made flag, new bags and points (and the mean of the other sides'
    points), the points also with bags at their cost (``points_at_bag_cost``). A table per side
    of ``rules``: at table ``r`` the bidder bids for side ``r``."""
    items = _normalise(bidders)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be an int >= 1, not {deals!r}")
    tasks = [
        delayed(_chunk)(name, spec, policy, opponents, seed, s, min(chunk, deals - s), rules)
        for name, spec in items.items()
        for s in range(0, deals, chunk)
    ]
    parts = Parallel(n_jobs=n_jobs)(tasks) if n_jobs != 1 else [t[0](*t[1], **t[2]) for t in tasks]
    records = pd.concat(parts, ignore_index=True)
    played = Rules() if rules is None else rules
    records.attrs = {"deals": deals, "seed": seed, "policy": _label_of(policy), "opponents": _label_of(opponents),
                     "table": table_name(played), "solo": played.teams == "solo"}  # fmt: skip
    return records


def _label_of(spec) -> str:
    """A play policy's or the opponents' name, for the leaderboard's title."""
    return getattr(spec, "label", None) or _name_of(spec)


def margin_title(records: pd.DataFrame) -> str:
    """What a leaderboard's ``margin`` is measured against: the opponents' points on the same
    deals, with who bids for them and who plays every card, at which table (``records.attrs``,
    when known). Solo the bidder's side is its own seat: its own points, against the mean of
    every other seat's."""
    a = records.attrs
    opponents = f"bidding as {a['opponents']}" if "opponents" in a else "with their own bidder"
    policy = f"; {a['policy']} plays every card" if "policy" in a else ""
    run = f", {a['deals']:,} deals, seed {a['seed']}" if "deals" in a else ""
    table = f", {a['table']}" if "table" in a else ""
    if a.get("solo"):
        return (f"bidding benchmark{run}{table}: margin = the bidder's own points per deal minus the mean of the other "
                f"seats' ({opponents}{policy}), over every seat it bid from, 95% interval over deals; a seat's bid is its "
                f"own contract: set rate and bags per seat and hand")
    return (f"bidding benchmark{run}{table}: margin = the bidder's team's points per deal minus the opponents' "
            f"({opponents}{policy}), over every table, 95% interval over deals; a side's contract is its seats' bids: "
            f"set rate and bags per side and hand")


_VALUED = ("team_points_at_bag_cost", "opponent_points_at_bag_cost")


def _per_deal(team: pd.DataFrame) -> pd.DataFrame:
    """One bidder's points per deal over every table (``team_points``, ``opponent_points``) and
    its ``margin`` (the first minus the second), and ``margin_at_bag_cost`` the same with bags at
    their cost (NaN for records saved before they had those columns), from its rows of one per
    deal and table."""
    valued = [c for c in _VALUED if c in team.columns]
    per_deal = team.groupby("deal_no")[["team_points", "opponent_points", *valued]].mean()
    at_cost = per_deal[_VALUED[0]] - per_deal[_VALUED[1]] if len(valued) == len(_VALUED) else np.nan
    return per_deal.assign(margin=per_deal["team_points"] - per_deal["opponent_points"], margin_at_bag_cost=at_cost)


def paired_margin(
    records: pd.DataFrame, bidder: str, against: str, *, at_bag_cost: bool = False
) -> tuple[float, float, float]:
    """``bidder``'s margin minus ``against``'s, deal by deal on the deals both bid (the same
    deals, the same cards played around them): ``(mean, low, high)``, a 95% interval; with
    ``at_bag_cost``, of ``margin_at_bag_cost``."""
    column = "margin_at_bag_cost" if at_bag_cost else "margin"
    margins = {}
    for name in (bidder, against):
        rows = records[records["bidder"] == name]
        if rows.empty:
            raise ValueError(f"no bidder {name!r} in the records: they hold {sorted(records['bidder'].unique())}")
        margins[name] = _per_deal(rows.drop_duplicates(["deal_no", "table"]))[column]
    common = margins[bidder].index.intersection(margins[against].index)
    m, lo, hi = mean_interval((margins[bidder][common] - margins[against][common]).to_numpy(float))
    return float(m), float(lo), float(hi)


def bidding_leaderboard(records: pd.DataFrame) -> pd.DataFrame:
    """The leaderboard of ``bidding_records``: per bidder, how its bids met the tricks taken.

    ``mean_error`` and ``mae`` compare each number bid with the tricks that seat took (nil bids
    apart); ``set_rate`` and ``bags_per_hand`` are per side-hand; ``points_per_deal`` is the
    bidder's side's points averaged over every table of a deal, ``margin`` the same minus the
    opponents' points (the other sides' mean), with its 95% interval over deals, and
    ``margin_at_bag_cost`` with every side's bags at their cost (the module's docstring). Sorted
    by margin. A ``SummaryTable``: it prints whole, under a title saying what the margin is
    measured against (``margin_title``).
    """
    out = []
    for name, g in records.groupby("bidder", sort=False):
        numbers = g[g["bid"] > 0]
        nils = g[g["bid"] == 0]
        team = g.drop_duplicates(["deal_no", "table"])
        per_deal = _per_deal(team)
        margin, margin_low, margin_high = mean_interval(per_deal["margin"].to_numpy(float))
        valued, valued_low, valued_high = mean_interval(per_deal["margin_at_bag_cost"].to_numpy(float))
        err = (numbers["bid"] - numbers["tricks_won"]).to_numpy(float)
        with_contract = team[team["contract"] > 0]
        out.append({
            "bidder": name,
            "deals": int(per_deal.shape[0]),
            "mean_bid": float(numbers["bid"].mean()) if len(numbers) else np.nan,
            "mean_error": float(err.mean()) if len(err) else np.nan,
            "mae": float(np.abs(err).mean()) if len(err) else np.nan,
            "set_rate": float(1 - with_contract["made"].mean()) if len(with_contract) else np.nan,
            "bags_per_hand": float(team["team_new_bags"].mean()),
            "nil_rate": float(len(nils) / len(g)),
            "nil_success": float(nils["nil_made"].mean()) if len(nils) else np.nan,
            "points_per_deal": float(per_deal["team_points"].mean()),
            "margin": margin,
            "margin_low": margin_low,
            "margin_high": margin_high,
            "margin_at_bag_cost": valued,
            "margin_at_bag_cost_low": valued_low,
            "margin_at_bag_cost_high": valued_high,
        })
    board = pd.DataFrame(out).set_index("bidder").sort_values("margin", ascending=False)
    return summary_table(board, margin_title(records))


def bidding_benchmark(bidders, deals: int = 2000, seed: int = 0, **kwargs) -> pd.DataFrame:
    """``bidding_leaderboard(bidding_records(bidders, deals, seed, **kwargs))``."""
    return bidding_leaderboard(bidding_records(bidders, deals, seed, **kwargs))
