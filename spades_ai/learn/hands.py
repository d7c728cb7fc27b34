"""The hands of a dataset folder, rebuilt from its rows for the learned models' training rows
(``models.rows``): each deal dealt again from the seed the folder's ``config.json`` records (a
dataset of ``write_dataset``: dealer 0), with the bids, blind nils, cards in play order and
acting agents its rows hold.

>>> import tempfile
>>> from spades_ai.learn import write_dataset
>>> out = write_dataset(tempfile.mkdtemp(), ["normal", "easy"], deals=4, seed=7)
>>> hands = dataset_hands(out)
>>> hands["deals"].shape, hands["plays"].shape, hands["deal_no"].tolist()
((4, 4), (4, 52), [0, 1, 2, 3])

The seed is the dataset's own, never the caller's; a record that does not fit the deals (a
card its seat does not hold, or may not play) is refused when the rows are replayed, naming
the deal, the seat and the card (``models.replay.recorded_card``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from spades_ai.encoding import BID_OFFSET, PH_BIDDING, PH_BLIND, PH_PLAYING, observation_layout
from spades_ai.learn.dataset import DatasetError, deal_rows, iter_dataset, load_dataset, read_config
from spades_ai.rules import Rules
from spades_ai.seats import cards_dealt

#: the dataset columns the hands are rebuilt from
HAND_COLUMNS = ["deal_no", "seat", "phase", "action", "agent"]


def dataset_seed(path) -> int:
    """The seed the dataset folder ``path`` was dealt from (its ``config.json``); a dataset of
    recorded hands (``spades-ai dataset --from``) has none, and is refused."""
    config = read_config(path)
    if "seed" not in config:
        raise DatasetError(f"{path} records no seed (its hands come from {config.get('source', 'elsewhere')!r}): "
                           "only a dataset of write_dataset deals its hands again")  # fmt: skip
    return int(config["seed"])


def dataset_rules_of(path) -> Rules:
    """The rules the dataset folder ``path`` was played under (its ``config.json``)."""
    return Rules.from_dict(read_config(path)["rules"])


def _hands_from_rows(data: dict, seed: int, rules: Rules | None = None) -> dict:
    """The hands of rows (columns ``HAND_COLUMNS``) of a dataset dealt from ``seed``, dealer 0,
    at the table of ``rules`` (N players; four by default): ``deals`` ``(n, N)`` (``deal_rows``),
    ``dealer``, ``bids`` / ``blind`` ``(n, N)``, ``plays`` ``(n, N * cards_each)`` card ids in
    play order, ``deal_no`` and ``seat_agents`` ``(n, N)`` (the acting agent's index), as
    ``tournament.recorded.recorded_hands`` gives the hands of a results folder."""
    rules = Rules() if rules is None else rules
    players, dealt = rules.players, cards_dealt(rules)
    for k in HAND_COLUMNS:
        if k not in data:
            raise ValueError(f"the rows lack the column {k!r} (load_dataset(path) reads it)")
    deal_no, seat, phase, action = (np.asarray(data[k]).astype(np.int64) for k in ("deal_no", "seat", "phase", "action"))
    hands, index = np.unique(deal_no, return_inverse=True)
    n = len(hands)
    card = phase == PH_PLAYING
    if card.sum() != dealt * n:
        raise ValueError(f"{n} hands need {dealt * n} card rows, the rows hold {int(card.sum())}: every hand must be whole")
    bids = np.full((n, players), -1, np.int64)
    blind = np.zeros((n, players), np.bool_)
    b = phase == PH_BIDDING
    bids[index[b], seat[b]] = action[b] - BID_OFFSET
    bl = (phase == PH_BLIND) & (action == observation_layout(rules).blind_nil)
    bids[index[bl], seat[bl]] = 0
    blind[index[bl], seat[bl]] = True
    agents = np.zeros((n, players), np.int64)
    agents[index[card], seat[card]] = np.asarray(data["agent"])[card]
    order = np.argsort(index[card], kind="stable")
    plays = action[card][order].reshape(n, dealt)
    return {"deals": deal_rows(seed, hands, rules), "dealer": np.zeros(n, np.int64), "bids": bids, "blind": blind, "plays": plays,
            "deal_no": hands, "seat_agents": agents}  # fmt: skip


def iter_dataset_hands(path) -> Iterator[dict]:
    """The hands of the dataset folder ``path`` chunk by chunk (``iter_dataset``: the hands of
    each chunk), dealt from its own seed: a dataset larger than memory."""
    seed, rules = dataset_seed(path), dataset_rules_of(path)
    for chunk in iter_dataset(path, columns=HAND_COLUMNS):
        yield _hands_from_rows(chunk, seed, rules)


def dataset_hands(path) -> dict:
    """Every hand of the dataset folder ``path`` (see the module docstring), dealt from its own seed."""
    return _hands_from_rows(load_dataset(path, columns=HAND_COLUMNS), dataset_seed(path), dataset_rules_of(path))
