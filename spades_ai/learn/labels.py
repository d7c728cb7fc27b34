"""Labels for decision rows: the exact solver's value of every legal card late in the hand.

``solver_labels`` follows the rows of ``rows_from_records`` one for one: for a card decision with
at most ``tricks`` tricks left it gives, for every legal card (by card id), its value to the
acting seat's team with every card visible (``spades_ai.solver.card_values``, the leaf being that
team's points for the hand under the bids made); NaN for every other entry and row.
"""

from __future__ import annotations

import functools

import numpy as np

from spades_ai.game import Hand
from spades_ai.scoring import score_hand
from spades_ai.simulate import deal
from spades_ai.solver import card_values

N_CARDS = 52


def _points_leaf(bids, blind, rules, team: int):
    @functools.cache
    def leaf(t0, t1, t2, t3):
        return float(score_hand(bids, (t0, t1, t2, t3), rules, blind=blind).points[team])

    return leaf


def _values(hand: Hand, bids, blind, rules) -> np.ndarray:
    obs = hand.observation()
    team = hand.to_act % 2
    trick = [card for _, card in obs.current_trick]
    leader = obs.leader
    values = card_values(
        [hand.cards(s) for s in range(4)], leader, _points_leaf(bids, blind, rules, team), team,
        tricks_won=obs.tricks_won, trick=trick, rules=rules, spades_broken=obs.spades_broken,
    )  # fmt: skip
    row = np.full(N_CARDS, np.nan, dtype=np.float32)
    for card, v in values.items():
        row[int(card)] = v
    return row


def solver_labels(records, seed: int, rules, tricks: int) -> np.ndarray:
    """``(rows, 52)`` float32 labels for the rows of ``rows_from_records(records, seed, rules)``
    (see the module docstring); ``tricks`` in 1..13 (the solver's cost grows fast with it)."""
    if not 1 <= int(tricks) <= 13:
        raise ValueError(f"tricks must be in 1..13, not {tricks!r}")
    out = []
    nan = np.full(N_CARDS, np.nan, dtype=np.float32)
    for i, d in enumerate(records.deal_no):
        hand = Hand([int(c) for c in deal(seed, int(d))], int(records.dealer[i]), rules)
        bids = tuple(int(b) for b in records.bids[i])
        blind = tuple(bool(b) for b in records.blind[i])
        while hand.phase == "bidding":  # the bidding rows, in the rows' order
            seat = hand.to_act
            if hand.legal_bids(blind=True):
                out.append(nan)
                if blind[seat]:
                    hand.bid(0, blind=True)
                    continue
            out.append(nan)
            hand.bid(bids[seat])
        for j, card in enumerate(records.plays[i]):
            out.append(_values(hand, bids, blind, rules) if 13 - j // 4 <= tricks else nan)
            hand.play(int(card))
    return np.array(out, dtype=np.float32).reshape(-1, N_CARDS)
