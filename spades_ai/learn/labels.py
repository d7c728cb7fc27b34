"""Labels for decision rows: the exact solver's value of every legal card late in the hand, and
a Monte Carlo agent's (Hard's or Crazy's) value of every legal card or bid.

``solver_labels`` follows the rows of ``rows_from_records`` one for one: for a card decision with
at most ``tricks`` tricks left it gives, for every legal card (by card id), its value to the
acting seat's team with every card visible (``spades_ai.solver.card_values``, the leaf being that
team's points for the hand under the bids made); NaN for every other entry and row.

``labelled_hands`` plays the hands itself (``play_hand_python``: the same kernels, so the same
records as ``play_hands``) and asks the labelling agent at every bid and card for the values its
choice is made from (``montecarlo.decision_values``). At a seat the labeller plays itself (the
same agent: same label) those values are a by-product of its own decision, which is the action
taken: no second search. At any other seat the labeller evaluates the same observation beside
the agent that acts. A blind-nil question is not labelled (NaN, choice -1), as
``decision_values`` does not ask it.
"""

from __future__ import annotations

import functools

import numpy as np

from spades_ai.game import Hand
from spades_ai.encoding import bid_action, observation_layout
from spades_ai.montecarlo import decision_values
from spades_ai.scoring import score_hand
from spades_ai.selfplay.play import agent_name, play_hand_python
from spades_ai.seats import cards_dealt, seats, side_of
from spades_ai.simulate import deal, deal_masks
from spades_ai.solver import card_values

N_CARDS = 52
#: ``label_action`` of a row the labeller was not asked about (a blind-nil question).
NO_CHOICE = -1


def _points_leaf(bids, blind, rules, side: int):
    @functools.cache
    def leaf(*tricks):
        return float(score_hand(bids, tricks, rules, blind=blind).points[side])

    return leaf


def _values(hand: Hand, bids, blind, rules) -> np.ndarray:
    obs = hand.observation()
    side = side_of(hand.to_act, rules)
    trick = [card for _, card in obs.current_trick]
    leader = obs.leader
    values = card_values(
        [hand.cards(s) for s in seats(rules)], leader, _points_leaf(bids, blind, rules, side), side,
        tricks_won=obs.tricks_won, trick=trick, rules=rules, spades_broken=obs.spades_broken,
    )  # fmt: skip
    row = np.full(N_CARDS, np.nan, dtype=np.float32)
    for card, v in values.items():
        row[int(card)] = v
    return row


def solver_labels(records, seed: int, rules, tricks: int) -> np.ndarray:
    """``(rows, 52)`` float32 labels for the rows of ``rows_from_records(records, seed, rules)``
    (see the module docstring); ``tricks`` in 1..cards each (the solver's cost grows fast with it)."""
    if not 1 <= int(tricks) <= rules.cards_each:
        raise ValueError(f"tricks must be in 1..{rules.cards_each}, not {tricks!r}")
    out = []
    nan = np.full(N_CARDS, np.nan, dtype=np.float32)
    for i, d in enumerate(records.deal_no):
        hand = Hand([int(c) for c in deal(seed, int(d), rules)], int(records.dealer[i]), rules)
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
            out.append(_values(hand, bids, blind, rules) if rules.cards_each - j // rules.players <= tricks else nan)
            hand.play(int(card))
    return np.array(out, dtype=np.float32).reshape(-1, N_CARDS)


# -- Monte Carlo labels ----------------------------------------------------------------------------
class _LabelledSeat:
    """A seat's agent as ``play_hand_python`` drives it, with the labeller asked beside it: each
    decision appends ``(seat, kind, action, values, choice)`` to ``log`` (kind ``"blind"``,
    ``"bid"`` or ``"card"``; the labeller's values by action id and its choice), in the order of
    the rows (``learn.rows``)."""

    def __init__(self, agent, labeller, log: list):
        self.agent, self.labeller, self.log = agent, labeller, log
        self.name = agent_name(agent)
        self.is_labeller = getattr(agent, "label", None) == labeller.label

    def blind_nil(self, obs) -> bool:
        blind = bool(self.agent.blind_nil(obs)) if hasattr(self.agent, "blind_nil") else False
        self.log.append((obs.seat, "blind", blind, {}, NO_CHOICE))
        return blind

    def bid(self, obs) -> int:
        choice, values = decision_values(self.labeller, obs)
        b = choice if self.is_labeller else int(self.agent.bid(obs))
        self.log.append((obs.seat, "bid", b, {bid_action(k): v for k, v in values.items()}, bid_action(choice)))
        return b

    def play(self, obs):
        choice, values = decision_values(self.labeller, obs)
        card = choice if self.is_labeller else self.agent.play(obs)
        self.log.append((obs.seat, "card", int(card), {int(c): v for c, v in values.items()}, int(choice)))
        return card


def labelled_hands(lineup, labeller, seed: int, rules, start: int, n: int) -> tuple[dict, np.ndarray, np.ndarray]:
    """Deals ``start .. start+n-1`` of ``seed`` (dealer 0) at the table of ``rules``, played by
    the agents ``lineup`` (one a seat) with ``labeller`` (a Monte Carlo agent) asked at every
    decision. Returns the hands as
    ``dataset.rows_from_hands`` takes them (``deals``, ``dealer``, ``bids``, ``blind``, ``plays``,
    ``points``, ``deal_no``; ``seat_agents`` is the caller's), the labeller's values
    ``(rows, 68)`` float32 by action id (NaN where illegal or not weighed) and its choice
    ``(rows,)`` int8 (an action id; ``NO_CHOICE`` for a blind-nil question), in row order."""
    players = rules.players
    hands = {name: np.zeros(shape, dtype) for name, shape, dtype in (
        ("dealer", n, np.int64), ("bids", (n, players), np.int64), ("blind", (n, players), np.bool_),
        ("plays", (n, cards_dealt(rules)), np.int64), ("points", (n, rules.n_sides), np.int64))}  # fmt: skip
    hands["deals"] = deal_masks(seed, start, n, rules)
    n_actions = observation_layout(rules).n_actions
    values, choices = [], []
    for i in range(n):
        hand = Hand([int(c) for c in deal(seed, start + i, rules)], 0, rules)
        log: list = []
        play_hand_python(hand, [_LabelledSeat(a, labeller, log) for a in lineup])
        plays = [action for _, kind, action, _, _ in log if kind == "card"]
        for seat, kind, action, vals, choice in log:
            if kind == "blind":
                hands["blind"][i, seat] = action
            elif kind == "bid":
                hands["bids"][i, seat] = action
            row = np.full(n_actions, np.nan, dtype=np.float32)
            row[list(vals)] = list(vals.values())
            values.append(row)
            choices.append(choice)
        hands["plays"][i] = plays
        hands["points"][i] = hand.result().points
    hands["deal_no"] = np.arange(start, start + n, dtype=np.int64)
    return hands, np.array(values, np.float32).reshape(-1, n_actions), np.array(choices, np.int8)
