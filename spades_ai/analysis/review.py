"""Hand review: where did an agent lose points? Every decision of a hand valued by a judge.

``review(record, judge)`` replays a hand (a ``Hand``, its record or JSON, or a PBN text) and
gives one row per judged decision:

- ``judge="solver"``: exact values with every card visible (``spades_ai.solver.card_values``)
  for every card from trick ``from_trick`` (1..13, default 8: the last 6 tricks) on; a value
  is the hand's point difference for the acting seat's side (its points minus the opponents',
  bag penalties included) when both sides play on perfectly. With ``whole_deal=True``,
  ``attrs["double_dummy"]`` holds the tricks NS (side 0) take with perfect play from the
  opening lead, for the whole deal (``double_dummy``; four in pairs only).
  At every other table (3 to 12 players, solo or in pairs, copies of cards included) a value
  is the acting seat's side's points minus the mean of the other sides' points (``table_leaf``:
  the agents' ``mean`` utility, bags at face value), every other seat playing to lower it (the
  solver's paranoid reading), for the last ``TABLE_TRICKS[players]`` tricks by default; the
  ``team`` column is the side (``spades_ai.seats``: a seat solo).
- ``judge="hard"`` / ``"crazy"``: the values the agent chooses from, from the acting seat's
  information only (``spades_ai.montecarlo.decision_values``), for every bid and card, at
  every table the agent plays.

Columns: ``decision`` (0.. in the hand), ``play_no`` (the card's index in the play, -1 for a
bid), ``seat``, ``team``, ``trick`` (1..13, 0 for a bid), ``phase`` (``bid``, ``lead``,
``follow``: the seat holds the suit led, ``discard``: it does not), ``action`` (what was
played or bid), ``best`` (the judge's best), ``value``, ``best_value``, ``loss`` (best minus
chosen, in points, >= 0) and ``values`` (every legal action's value, a dict).

``seat_summary`` (points lost per seat, the worst decision), ``worst`` and, over many hands
(a results folder: ``review_hands``), ``loss_table`` (loss per agent per 100 decisions by
phase) answer "where does my bot lose" with a number. ``spades_ai.render.reviewed_html``
marks the costly decisions on the picture of the hand; ``spades-ai review`` reads files and
results folders.

>>> import spades_ai as sa
>>> hand = sa.Hand(sa.deal(seed=2))
>>> normal = sa.make_agent("normal")
>>> while hand.phase != "over":
...     obs = hand.observation()
...     hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
>>> df = review(hand)
>>> len(df), sorted(set(df.phase)) <= ["discard", "follow", "lead"], bool((df.loss >= 0).all())
(24, True, True)
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from spades_ai.capabilities import require_table
from spades_ai.game import Hand
from spades_ai.pbn import as_hand
from spades_ai.scoring import HandResult
from spades_ai.seats import seats, side_of, side_seats, sides
from spades_ai.solver import LEAF_SHAPE, card_values, double_dummy

JUDGES = ("solver", "hard", "crazy")
COLUMNS = ["decision", "play_no", "seat", "team", "trick", "phase", "action", "best", "value", "best_value", "loss",
           "values"]
PHASES = ("bid", "lead", "follow", "discard")
#: The tricks the solver judges by default at each table but four in pairs (``from_trick``):
#: the N-hand search (``engine.table_solver``) has no transposition table, so the window is
#: the one that keeps a hand's review near a second (``benchmarks/RESULTS.md``, "Hand review").
TABLE_TRICKS = {3: 6, 4: 6, 5: 5, 6: 4, 7: 4, 8: 3, 9: 2, 10: 2, 11: 2, 12: 2}


@functools.lru_cache(maxsize=256)
def points_leaf(rules, bids: tuple, blind: tuple, scores: tuple, bag_count: tuple) -> np.ndarray:
    """``leaf[t0, t1, t2, t3]``: side 0's points minus side 1's for the hand finished with
    seat s holding ``t_s`` tricks (every finish of 13 tricks; NaN elsewhere)."""
    leaf = np.full(LEAF_SHAPE, np.nan)
    r = rules.as_array()
    b, bl = np.array(bids, np.int64), np.array(blind, np.bool_)
    s, g = np.array(scores, np.int64), np.array(bag_count, np.int64)
    for t0 in range(14):
        for t1 in range(14 - t0):
            for t2 in range(14 - t0 - t1):
                t = (t0, t1, t2, 13 - t0 - t1 - t2)
                p = HandResult.from_arrays(b, bl, np.array(t, np.int64), s, g, r).points
                leaf[t] = p[0] - p[1]
    return leaf


@functools.lru_cache(maxsize=256)
def side_points(rules, bids: tuple, blind: tuple, scores: tuple, bag_count: tuple) -> tuple[np.ndarray, ...]:
    """Per side k, ``points[k][t]``: the hand's points of side k when its seats (``side_seats``)
    take the tricks ``t`` (one index per seat: ``[t_a, t_b]`` with pairs, ``[t_a]`` solo). A
    side is scored on its own seats' tricks alone (docs/rules.md, "Scoring a side")."""
    r, n = rules.as_array(), rules.cards_each
    b, bl = np.array(bids, np.int64), np.array(blind, np.bool_)
    s, g = np.array(scores, np.int64), np.array(bag_count, np.int64)
    out = []
    for side in sides(rules):
        own = side_seats(side, rules)
        table = np.zeros((n + 1,) * len(own))
        for t in np.ndindex(*table.shape):
            if sum(t) <= n:
                tricks = np.zeros(rules.players, np.int64)
                tricks[list(own)] = t
                table[t] = HandResult.from_arrays(b, bl, tricks, s, g, r).points[side]
        out.append(table)
    return tuple(out)


def table_leaf(hand: Hand, side: int):
    """The solver judge's objective off four in pairs, a function of every seat's final tricks:
    side ``side``'s points minus the mean of the other sides' (the agents' ``mean`` utility,
    bags at their face value), which every other seat plays to lower."""
    rules = hand.rules
    points = side_points(rules, tuple(hand.bids), tuple(hand.blind), hand.scores, hand.bag_count)
    own = [list(side_seats(k, rules)) for k in sides(rules)]

    def leaf(*won):
        each = [points[k][tuple(won[s] for s in own[k])] for k in sides(rules)]
        return each[side] - (sum(each) - each[side]) / (len(each) - 1)

    return leaf


def _phase(hand: Hand, card) -> str:
    trick = hand.current_trick
    if not trick:
        return "lead"
    return "follow" if card.suit == trick[0][1].suit else "discard"


def _row(decision, play_no, seat, side, trick, phase, action, values: dict) -> dict:
    """A decision's row. Actions the judge did not weigh (NaN: a bid outside a Monte Carlo
    judge's candidates) are not the best, and choosing one has no known loss (NaN); a decision
    it did not search at all (every value NaN: the cards left were all of one value) loses
    nothing."""
    weighed = {k: v for k, v in values.items() if v == v}
    if not weighed:
        return {"decision": decision, "play_no": play_no, "seat": seat, "team": side, "trick": trick,
                "phase": phase, "action": str(action), "best": str(action), "value": np.nan, "best_value": np.nan,
                "loss": 0.0, "values": {str(k): v for k, v in values.items()}}
    best = max(weighed, key=weighed.get)
    value = values[action]
    return {"decision": decision, "play_no": play_no, "seat": seat, "team": side, "trick": trick, "phase": phase,
            "action": str(action), "best": str(best), "value": value, "best_value": values[best],
            "loss": values[best] - value, "values": {str(k): v for k, v in values.items()}}


def solver_values(hand: Hand, leaf_side0: np.ndarray) -> dict:
    """The solver judge at the seat to act of ``hand``: ``{card: value to its side}``."""
    seat = hand.to_act
    side = side_of(seat, hand.rules)
    return card_values([hand.cards(s) for s in seats(hand.rules)], hand.leader, leaf_side0 if side == 0 else -leaf_side0, side,
                       tricks_won=hand.tricks_won, trick=[c for _, c in hand.current_trick], rules=hand.rules,
                       spades_broken=hand.spades_broken)  # fmt: skip


def table_values(hand: Hand, leaf) -> dict:
    """The solver judge at the seat to act of ``hand`` off four in pairs: ``{card: value to its
    side}``, ``leaf`` that side's ``table_leaf``; every other seat plays against it."""
    rules = hand.rules
    return card_values([hand.cards(s) for s in seats(rules)], hand.leader, leaf, side_of(hand.to_act, rules),
                       tricks_won=hand.tricks_won, trick=[c for _, c in hand.current_trick], rules=rules,
                       spades_broken=hand.spades_broken)


def _replayed(hand: Hand):
    """The hand again from its deal: (the position before each action, the action), bids
    and cards only (passes are replayed as they were)."""
    record = hand.to_record()
    plays, bids = record["plays"], list(zip(record["bids"], record["blind"]))
    record.update(bids=[], blind=[], plays=[])
    if "passes" in record:
        record["passes"][1] = [None] * hand.rules.players
    now = Hand.from_record(record)
    for b, blind in bids:
        yield now, ("bid", b, blind)
        now.bid(b, blind=blind)
        if now.phase == "passing":  # the blind pass, as it was
            for seat, cards in enumerate(hand.passes[1]):
                if cards is not None:
                    now.pass_cards(seat, cards)
    for c in plays:
        yield now, ("play", now.rules.named(c), None)
        now.play(c)


def review(record, judge: str = "solver", *, from_trick: int | None = None, agent=None,
           whole_deal: bool = False) -> pd.DataFrame:
    """Every judged decision of a hand, one row each (see the module docstring).

    ``from_trick``: the solver judges the cards of tricks ``from_trick`` .. ``cards_each``
    (default ``default_from_trick``: 8 of 13, the last 6, at four in pairs; the last
    ``TABLE_TRICKS[players]`` elsewhere). ``agent``: for the ``hard`` / ``crazy`` judges, the
    agent whose values judge (default ``make_agent(judge)``). ``whole_deal``: with the solver,
    also solve the whole deal double dummy from the opening lead (``attrs["double_dummy"]``: a
    13-card search, 0.1 s on average and seconds for a few deals, where the last 6 tricks take
    0.01 s; four in pairs only, ``PARTS["whole_deal"]``).
    """
    if judge not in JUDGES:
        raise ValueError(f"judge must be one of {', '.join(JUDGES)}, not {judge!r}")
    hand = as_hand(record)
    rules = hand.rules
    from_trick = default_from_trick(rules) if from_trick is None else from_trick
    if isinstance(from_trick, bool) or not isinstance(from_trick, int) or not 1 <= from_trick <= rules.cards_each:
        raise ValueError(f"from_trick is a trick 1..{rules.cards_each}, not {from_trick!r}")
    if judge == "solver" and whole_deal:
        require_table(rules, "whole_deal")
    if hand.phase in ("passing", "bidding"):
        raise ValueError(f"the hand is still {hand.phase}: review needs the bids made")
    rows = _solver_rows(hand, from_trick) if judge == "solver" else _agent_rows(hand, judge, agent)
    df = pd.DataFrame(rows, columns=COLUMNS)
    df.attrs.update(judge=judge, from_trick=from_trick if judge == "solver" else None)
    if judge == "solver" and whole_deal and hand.plays:
        df.attrs["double_dummy"] = _opening_double_dummy(hand)
    return df


def default_from_trick(rules) -> int:
    """The first trick the solver judges by default: the last 6 tricks at four in pairs, the
    last ``TABLE_TRICKS[players]`` at any other table (its search has no transposition table)."""
    last = 6 if rules.four_in_pairs else TABLE_TRICKS[rules.players]
    return rules.cards_each - last + 1


def _solver_rows(hand: Hand, from_trick: int) -> list[dict]:
    rules = hand.rules
    if rules.four_in_pairs:
        leaf = points_leaf(rules, tuple(hand.bids), tuple(hand.blind), hand.scores, hand.bag_count)
        judge = lambda now: solver_values(now, leaf)  # noqa: E731
    else:
        leaves = [table_leaf(hand, side) for side in sides(rules)]
        judge = lambda now: table_values(now, leaves[side_of(now.to_act, rules)])  # noqa: E731
    rows = []
    for k, (now, (kind, action, _)) in enumerate(_replayed(hand)):
        if kind == "play" and now.trick_no + 1 >= from_trick:
            rows.append(_row(k, len(now.plays), now.to_act, side_of(now.to_act, rules), now.trick_no + 1,
                             _phase(now, action), action, judge(now)))
    return rows


def _opening_double_dummy(hand: Hand) -> int:
    """Tricks NS (side 0) take from the opening lead with every card visible."""
    leader = hand.plays[0][0]
    rules = hand.rules
    unpassed = [None] * rules.players
    tricks = double_dummy(list(hand.deal), leader, rules) if hand.passes == [unpassed, unpassed] else None
    if tricks is None:  # the cards changed hands: solve the hands held at the first lead
        start = next(now for now, (kind, _, _) in _replayed(hand) if kind == "play")
        tricks = double_dummy([start.cards(s) for s in seats(rules)], leader, rules)
    return tricks if side_of(leader, rules) == 0 else rules.cards_each - tricks


def _agent_rows(hand: Hand, judge: str, agent) -> list[dict]:
    from spades_ai.agents import make_agent
    from spades_ai.montecarlo import decision_values

    agent = make_agent(judge) if agent is None else agent
    rows = []
    for k, (now, (kind, action, blind)) in enumerate(_replayed(hand)):
        if kind == "bid" and blind:
            continue  # a blind nil is decided before the cards are seen: no values to weigh it by
        _, values = decision_values(agent, now.observation())
        phase = "bid" if kind == "bid" else _phase(now, action)
        trick = 0 if kind == "bid" else now.trick_no + 1
        rows.append(_row(k, -1 if kind == "bid" else len(now.plays), now.to_act, side_of(now.to_act, now.rules), trick,
                         phase, action, values))
    return rows


# -- summaries -------------------------------------------------------------------------------
def worst(df: pd.DataFrame, n: int = 5) -> pd.DataFrame:
    """The ``n`` costliest decisions (loss > 0), costliest first."""
    cols = [c for c in df.columns if c != "values"]
    return df[df.loss > 0].sort_values(["loss", "decision"], ascending=[False, True]).head(n)[cols]


def seat_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per seat: decisions judged, points lost in all, and the worst decision (its trick,
    action, the best action and its loss); with a ``hand`` column (a results folder), points
    lost per hand."""
    rows = []
    for seat, g in df.groupby("seat"):
        top = g.sort_values(["loss", "decision"], ascending=[False, True]).iloc[0]
        hands = g["hand"].nunique() if "hand" in g else 1
        rows.append({"seat": int(seat), "decisions": len(g), "points_lost": float(g.loss.sum()),
                     "lost_per_hand": float(g.loss.sum()) / hands, "costly": int((g.loss > 0).sum()),
                     "worst_trick": int(top.trick), "worst_action": top.action, "worst_best": top.best,
                     "worst_loss": float(top.loss)})
    return pd.DataFrame(rows)


def review_hands(hands, judge: str = "solver", *, from_trick: int | None = None, agent=None) -> pd.DataFrame:
    """``review`` of many hands in one frame, with ``hand`` (a running number), ``deal_no``,
    ``table`` and ``agent`` (the acting seat's side's agent) columns added. ``hands``: the
    hands of a results folder as ``spades_ai.table.replay.run_hands`` reads them (each with
    ``record``, ``agents`` by side and ``where``), or plain ``Hand`` objects (``agent``:
    ``side 0``, ``side 1``, ... at any table). A results folder, both tables:
    ``loss_table(review_hands(run_hands(path, table=0) + run_hands(path, table=1)))``.
    """
    frames = []
    for item in hands:
        hand = item if isinstance(item, Hand) else Hand.from_record(item.record)
        where = getattr(item, "where", None) or {}
        agents = getattr(item, "agents", None) or tuple(f"side {k}" for k in sides(hand.rules))
        df = review(hand, judge, from_trick=from_trick, agent=agent)
        df.insert(0, "hand", len(frames))
        df.insert(1, "deal_no", where.get("deal_no"))
        df.insert(2, "table", where.get("table"))
        df.insert(3, "agent", [agents[t] for t in df.team])
        frames.append(df)
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["hand", "deal_no", "table", "agent", *COLUMNS])
    window = frames[0].attrs["from_trick"] if frames else (from_trick if judge == "solver" else None)
    out.attrs.update(judge=judge, from_trick=window)
    return out


def loss_table(df: pd.DataFrame) -> pd.DataFrame:
    """Points lost per 100 decisions, by agent (rows) and phase (columns: bid, lead, follow,
    discard, and all), with the number of decisions judged."""
    key = "agent" if "agent" in df else "seat"
    per = df.groupby([key, "phase"]).loss.mean().unstack("phase") * 100
    per = per.reindex(columns=[p for p in PHASES if p in per.columns])
    per["all"] = df.groupby(key).loss.mean() * 100
    per["decisions"] = df.groupby(key).size()
    return per
