"""The learned models' training rows, from hands: each hand replayed on the engine with the
feature kernels the agent plays by (``replay``), every recorded card checked as it is played.

``bidding_rows`` (``dataset_bidding_rows`` for a whole dataset folder, chunk by chunk) and
``card_rows`` replay hands (``learn.hands.dataset_hands`` of a dataset folder, dealt from its
own seed, or the hands of a ``--keep-plays`` results folder); ``card_value_targets`` gives a
labelled dataset's values of the card rows; ``vector_card_rows`` (``dataset_vector_rows`` for a
whole folder, chunk by chunk) adds each decision's observation vector as the dataset stores it
(the ``"vector"`` card network's rows). The value bidder's rows need no hand, only deals
(``montecarlo.bid_values``: they play every candidate bid out in sampled worlds).

>>> # from spades_ai.learn.hands import dataset_hands, iter_dataset_hands
>>> # bids = dataset_bidding_rows(iter_dataset_hands("runs/bids"), hands=100_000)
>>> # cards = card_rows(dataset_hands("runs/hard"), agent=0)
"""

from __future__ import annotations

import numpy as np

from spades_ai.capabilities import require_table
from spades_ai.cards import DECK
from spades_ai.encoding import BID_OFFSET, PH_BIDDING, PH_PLAYING, check_rules
from spades_ai.models import replay
from spades_ai.models.features import BID_WINDOW, N_BID_FEATURES, N_CARD_FEATURES
from spades_ai.models.model import FOUR_SEAT_BIDDERS
from spades_ai.rules import Rules



def _which(hands: dict, i: int) -> str:
    """Hand ``i`` of ``hands`` as a player finds it: its deal, or its match and hand."""
    if "match_no" in hands and "hand_no" in hands:
        return f"match {int(hands['match_no'][i])}, hand {int(hands['hand_no'][i])}"
    if "deal_no" in hands:
        return f"deal {int(hands['deal_no'][i])}"
    return f"hand {i}"


def _check_replayed(done: int, err: np.ndarray, hands: dict) -> None:
    """Raise, naming the deal, the seat and the card, when a replay stopped at a recorded card
    (``replay.recorded_card``: ``done`` is -1 and ``err`` holds the hand, seat and card)."""
    if done >= 0:
        return
    i, seat, card = (int(v) for v in err)
    name = str(DECK[card]) if 0 <= card < 52 else f"card id {card}"
    raise ValueError(f"{_which(hands, i)}: seat {seat} is recorded playing {name}, which it may not play there "
                     "(not in its hand, or not legal): the record is not of these deals or rules")  # fmt: skip


def bidding_rows(hands: dict, rules: Rules | None = None) -> dict:
    """The bidding rows of ``hands`` (``replay.bid_rows``): ``x`` features (float32: a row
    per bid, millions of them in a large dataset), ``cols`` (``B_*``) and ``vals`` (``V_*``).
    Four players in pairs only: the tricks bidder's rows speak of a partner across the table."""
    rules = require_table(check_rules(rules), FOUR_SEAT_BIDDERS)
    n = len(hands["deals"])
    x = np.zeros((8 * n, N_BID_FEATURES))
    cols = np.zeros((8 * n, replay.N_B), np.int64)
    vals = np.zeros((8 * n, replay.N_V))
    err = np.zeros(3, np.int64)
    m = replay.bid_rows(hands["deals"], hands["dealer"], hands["bids"], hands["blind"], hands["plays"], rules.as_array(), x, cols, vals, err)
    _check_replayed(m, err, hands)
    return {"x": x[:m].astype(np.float32), "cols": cols[:m], "vals": vals[:m]}


def dataset_bidding_rows(hand_chunks, *, hands: int | None = None, rules: Rules | None = None) -> dict:
    """The ``bidding_rows`` of the first ``hands`` hands (all when None) of a dataset, given as
    its hands chunk by chunk (``learn.hands.iter_dataset_hands(path)``), built so that only the
    rows, never every hand's cards, are held at once."""
    parts, done = [], 0
    for part in hand_chunks:
        if hands is not None and done >= hands:
            break
        if hands is not None:
            part = {k: v[: hands - done] for k, v in part.items()}
        rows = bidding_rows(part, rules)
        rows["cols"][:, replay.B_HAND] += done  # the hand's index in the dataset, not the chunk
        parts.append(rows)
        done += len(part["deals"])
    if not parts:
        raise ValueError("the dataset holds no hands")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def card_rows(hands: dict, agent: int | None = None, rules: Rules | None = None) -> dict:
    """The card rows of ``hands`` (``replay.play_rows``, at any table) played by
    agent index ``agent`` (every seat when None): ``x`` (a row per legal card), ``start``,
    ``count`` and ``chosen`` per decision with a choice."""
    rules = check_rules(rules)
    n = len(hands["deals"])
    actors = np.ones((n, rules.players), np.bool_) if agent is None else hands["seat_agents"] == agent
    each = rules.cards_each  # at most each + (each - 1) + ... + 1 legal cards over a seat's decisions
    x = np.zeros((int(actors.sum()) * each * (each + 1) // 2, N_CARD_FEATURES))
    dec = np.zeros((int(actors.sum()) * each, 3), np.int64)
    err = np.zeros(3, np.int64)
    m, d = replay.play_rows(hands["deals"], hands["dealer"], hands["bids"], hands["blind"], hands["plays"], actors, rules.as_array(), x, dec, err)
    _check_replayed(m, err, hands)
    return {"x": x[:m], "start": dec[:d, 0], "count": dec[:d, 1], "chosen": dec[:d, 2]}


def card_value_targets(data: dict, cards: dict, rules: Rules | None = None, scale: float = 10.0) -> np.ndarray:
    """The labeller's value of every card row of ``cards`` (``card_rows`` of every seat of the
    hands of ``data``, a dataset with ``labels="hard"`` or ``"crazy"``: ``load_dataset`` with
    the columns ``phase``, ``mask``, ``action``, ``label_values``), in points / ``scale`` (a
    trick is 1), NaN where it weighed the card not. Checks that the rows are the same
    decisions: a dataset and hands that do not belong together are refused."""
    rules = check_rules(rules)
    for k in ("phase", "mask", "action", "label_values"):
        if k not in data:
            raise ValueError(f"the rows lack the column {k!r}: a dataset written with labels='hard' (or 'crazy') has it")
    card = np.asarray(data["phase"]) == PH_PLAYING
    mask = np.asarray(data["mask"])[card, :52].astype(bool)
    choice = mask.sum(1) > 1
    mask, values = mask[choice], np.asarray(data["label_values"])[card][choice]
    action = np.asarray(data["action"])[card][choice]
    if len(mask) != len(cards["count"]) or not (mask.sum(1) == cards["count"]).all():
        raise ValueError(f"the dataset's {len(mask)} card decisions with a choice are not the {len(cards['count'])} of the card rows")
    engine = np.array([rules.engine_mask(1 << c).bit_length() - 1 for c in range(52)])  # the rows go by engine id
    out = np.full(len(cards["x"]), np.nan)
    for d in range(len(mask)):
        legal = np.flatnonzero(mask[d])
        order = legal[np.argsort(engine[legal], kind="stable")]
        if order[cards["chosen"][d]] != action[d]:
            raise ValueError(f"card decision {d}: the rows played card {order[cards['chosen'][d]]}, the dataset {action[d]}")
        start = cards["start"][d]
        out[start : start + len(order)] = values[d, order] / scale
    return out


def vector_card_rows(data: dict, hands: dict, rules: Rules | None = None, scale: float = 10.0) -> dict:
    """The ``"vector"`` card network's rows of the hands of a labelled dataset: ``data`` its rows
    (``learn.load_dataset`` with the columns ``obs``, ``phase``, ``mask``, ``action`` and
    ``label_values``; ``labels="hard"`` or ``"crazy"``), ``hands`` the same hands
    (``learn.hands.dataset_hands``). For each card decision with a choice, ``obs`` (its
    observation vector, float32 ``(decisions, 567)``) and ``start``, ``count``: its legal cards'
    rows of ``x`` (``card_rows``: the card's features, float32) and ``values`` (the labeller's
    value of each, ``card_value_targets``: points / ``scale``, NaN where it weighed the card
    not). The decisions and cards are checked to be the dataset's."""
    cards = card_rows(hands, None, rules)
    values = card_value_targets(data, cards, rules, scale)
    card = (np.asarray(data["phase"]) == PH_PLAYING) & (np.asarray(data["mask"])[:, :52].sum(1) > 1)
    return {"obs": np.asarray(data["obs"], np.float32)[card], "x": cards["x"].astype(np.float32), "start": cards["start"],
            "count": cards["count"], "values": values.astype(np.float32)}  # fmt: skip


def vector_bid_rows(data: dict, hands: dict, rules: Rules | None = None, scale: float = 10.0) -> dict:
    """The vector bidder's rows (``replay.bid_candidate_rows``) of the hands of a labelled
    dataset, as ``vector_card_rows`` gives the card network's: for each sighted bid where the
    labeller weighed two candidates or more, ``obs`` (its observation vector as the dataset
    stores it), ``start`` and ``count`` of its candidates' rows of ``x`` (their features) and
    ``values`` (the labeller's value of each candidate bid, points / ``scale``, NaN where it
    weighed it not). Any table."""
    rules = check_rules(rules)
    for k in ("obs", "phase", "label_values"):
        if k not in data:
            raise ValueError(f"the rows lack the column {k!r}: a dataset written with labels='hard' (or 'crazy') has it")
    n = len(hands["deals"]) * rules.players
    room = n * (2 * BID_WINDOW + 2)
    x, cands, dec = np.zeros((room, N_CARD_FEATURES), np.float32), np.zeros(room, np.int64), np.zeros((n, 3), np.int64)
    m, d = replay.bid_candidate_rows(hands["deals"], hands["dealer"], hands["bids"], hands["blind"], rules.as_array(), x, cands, dec)
    bid = np.asarray(data["phase"]) == PH_BIDDING
    if int(bid.sum()) != d:
        raise ValueError(f"the dataset's {int(bid.sum())} sighted bids are not the {d} of its hands replayed")
    start, count = dec[:d, 0], dec[:d, 1]
    decision = np.repeat(np.arange(d), count)
    values = np.asarray(data["label_values"])[bid][decision, BID_OFFSET + cands[:m]] / scale
    keep = np.add.reduceat((~np.isnan(values)).astype(np.int64), start) >= 2 if d else np.zeros(0, bool)
    rows = np.concatenate([np.arange(a, a + c) for a, c in zip(start[keep], count[keep])] or [np.zeros(0, np.int64)])
    return {"obs": np.asarray(data["obs"], np.float32)[bid][keep], "x": x[rows], "start": np.cumsum(count[keep]) - count[keep],
            "count": count[keep], "values": values[rows].astype(np.float32)}  # fmt: skip


def dataset_vector_bid_rows(chunks, rules: Rules | None = None, scale: float = 10.0) -> dict:
    """``vector_bid_rows`` of a labelled dataset chunk by chunk (``chunks`` as
    ``dataset_vector_rows`` takes them), in order."""
    return _joined([vector_bid_rows(data, hands, rules, scale) for data, hands in chunks])


def _joined(parts: list[dict]) -> dict:
    """Rows of decisions (``obs``, ``x``, ``start``, ``count``, ``values``) one after the other."""
    if not parts:
        raise ValueError("the dataset has no chunk to take decisions from")
    offsets = np.cumsum([0] + [len(p["x"]) for p in parts[:-1]])
    return {k: np.concatenate([p[k] + (o if k == "start" else 0) for p, o in zip(parts, offsets)]) for k in parts[0]}


def dataset_vector_rows(chunks, decisions: int | None = None, rules: Rules | None = None, scale: float = 10.0) -> dict:
    """``vector_card_rows`` of a labelled dataset chunk by chunk (``chunks``: pairs of a chunk's
    rows and hands, ``zip(learn.iter_dataset(path, columns), learn.hands.iter_dataset_hands(path))``),
    in order, the first ``decisions`` decisions (all when None), so that only what is kept is
    held at once."""
    parts, n, rows = [], 0, 0
    for data, hands in chunks:
        if decisions is not None and n >= decisions:
            break
        part = vector_card_rows(data, hands, rules, scale)
        keep = len(part["obs"]) if decisions is None else min(len(part["obs"]), decisions - n)
        used = int(part["start"][keep - 1] + part["count"][keep - 1]) if keep else 0
        parts.append({"obs": part["obs"][:keep], "x": part["x"][:used], "start": part["start"][:keep] + rows,
                      "count": part["count"][:keep], "values": part["values"][:used]})  # fmt: skip
        n, rows = n + keep, rows + used
    if not parts:
        raise ValueError("the dataset has no chunk to take card decisions from")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
