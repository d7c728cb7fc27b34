"""The hands a results folder recorded, as arrays: what ``spades-ai dataset --from`` writes as
rows and what ``models.fit`` fits a model on (``train_play_model(recorded_hands(run)[0])``:
a play model of the players of that run). Datasets hold the learned models' table, four
players in pairs (``capabilities.PARTS["recorded hands"]``): a run of another table is refused; its
hands replay through ``spades-ai replay`` (``table.replay``) and export as JSON lines
(``spades_ai.records``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from spades_ai.capabilities import require_table
from spades_ai.learn.rows import N_STARTS, S_BAGS0, S_PLAYED, S_SCORE0
from spades_ai.rules import Rules
from spades_ai.seats import cards_dealt, side_seats, sides
from spades_ai.simulate import deal_masks, match_deal
from spades_ai.tournament.results import load_results, read_config, seat_labels
from spades_ai.tournament.schedule import Tournament


def recorded_hands(run_dir) -> tuple[dict, list[str], Rules]:
    """The hands of a ``--keep-plays`` results folder (hands or matches mode) as ``learn`` and
    ``models.rows`` and ``models.fit`` take them (``learn.dataset.HAND_ARRAYS``; in matches mode also ``match_no``
    and ``hand_no``, and the scores and bags each hand starts from), the labels of the agents
    that ``seat_agents`` index (a partnership's partners each its own) and the rules."""
    run_dir = Path(run_dir)
    t = Tournament.from_dict(read_config(run_dir))
    require_table(t.rules, "recorded hands")
    if not t.keep_plays:
        raise ValueError(f"{run_dir}: a dataset is made from a run played with --keep-plays (its plays are not recorded)")
    matches = t.mode == "matches"
    unit = ["match_no", "hand_no"] if matches else ["deal_no"]
    cols = ["pairing", "rotation", "side", *unit, "dealer", "bid_a", "bid_b", "blind_a", "blind_b", "points", "plays"]
    cols += ["score", "bag_count"] if matches else []
    df = load_results(run_dir, columns=cols).sort_values(["pairing", "rotation", *unit, "side"], kind="stable")
    rules = t.rules
    by_side = [df.iloc[k :: rules.n_sides] for k in sides(rules)]  # a hand's rows, one a side
    first = by_side[0]
    n = len(first)
    bids, blind = np.empty((n, rules.players), np.int64), np.empty((n, rules.players), np.bool_)
    for k, rows in enumerate(by_side):
        for column, s in zip(("a", "b"), side_seats(k, rules)):  # a side's first seat, then its partner
            bids[:, s] = rows[f"bid_{column}"].to_numpy()
            blind[:, s] = rows[f"blind_{column}"].to_numpy()
    pairing, table = (first[c].to_numpy(np.int64) for c in ("pairing", "rotation"))
    starts = np.zeros((n, N_STARTS), np.int64)
    extra = {}
    if matches:
        match_no, hand_no = first["match_no"].to_numpy(np.int64), first["hand_no"].to_numpy(np.int64)
        deals = np.array([match_deal(t.table_seed(int(tb)), int(m), int(k), t.rules)  # card ids, as the rows take them
                          for tb, m, k in zip(table, match_no, hand_no)], np.uint64).reshape(n, rules.players)  # fmt: skip
        # a hand starts from the scores and bags after the match's previous hand (the row before)
        later = hand_no > 0
        for side, rows in enumerate(by_side):
            starts[1:, S_SCORE0 + side] = rows["score"].to_numpy(np.int64)[:-1]
            starts[1:, S_BAGS0 + side] = rows["bag_count"].to_numpy(np.int64)[:-1]
        starts[~later, : S_PLAYED] = 0
        starts[:, S_PLAYED] = hand_no
        deal_no = np.full(n, -1, np.int64)
        extra = {"match_no": match_no, "hand_no": hand_no}
    else:
        deal_no = first["deal_no"].to_numpy(np.int64)
        deals = np.concatenate([deal_masks(t.table_seed(int(tb)), int(d), 1) for tb, d in zip(table, deal_no)])
    labels = seat_labels(t)  # each seat's own agent: a partnership's two partners apart
    seat_agents = np.array([[labels.index(spec.label) for spec in t.seat_specs(int(p), int(tb))]
                            for p, tb in zip(pairing, table)])  # fmt: skip
    hands = {
        "deals": deals, "dealer": first["dealer"].to_numpy(np.int64), "starts": starts, "bids": bids, "blind": blind,
        "plays": (np.stack([np.frombuffer(b, np.int8) for b in first["plays"]]) if n
                  else np.zeros((0, cards_dealt(rules)), np.int8)),
        "points": np.stack([rows["points"].to_numpy() for rows in by_side], axis=1),
        "deal_no": deal_no, "seat_agents": seat_agents, **extra,
    }  # fmt: skip
    return hands, labels, rules
