"""Self-play: many deals or whole matches with four agents, returned as tidy arrays.

When every seat is a built-in agent the whole loop (deal, bids, play, score) runs inside numba;
otherwise a Python loop drives ``Hand`` and the agents' ``bid`` / ``play``, giving identical
records for the built-ins (both use the same kernels and the same decision streams).

Deal ``i`` of ``play_hands`` comes from ``(seed, i)``; hand ``k`` of match ``m`` of
``play_matches`` from ``(seed, m, stream 1 + k)``, and match ``m``'s first dealer from its own
stream, so the same seed gives the same cards to whichever agents sit down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from spades_ai.agents import dispatch as _d
from spades_ai.agents.normal import normal_play
from spades_ai.agents.registry import Agent, BuiltinAgent, make_agent
from spades_ai.engine import score as _sc
from spades_ai.engine.jit import kernel
from spades_ai.engine.bits import lowest_index
from spades_ai.engine.deal import DEAL_STREAM, deal_from_state
from spades_ai.engine.rng import below, stream_state
from spades_ai.engine.state import (
    N_PUBLIC,
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_SCORES,
    P_TO_ACT,
    P_WON,
    apply_bid,
    apply_card,
    legal_now,
    reset_public,
)
from spades_ai.errors import IllegalBidError, IllegalPlayError
from spades_ai.game import Hand
from spades_ai.rules import Rules
from spades_ai.checks import check_count, check_dealer, check_seed
from spades_ai.simulate import deal_masks

MATCH_DEALER_STREAM = 1 << 40
MAX_MATCH_HANDS = 10_000  # a match still tied after this many hands is reported unfinished


# -- kernels ---------------------------------------------------------------------------------
@kernel
def play_one_hand(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, kinds, params, rules):
    """Bid and play one dealt hand with built-in agents; leaves the result in ``pub``."""
    reset_public(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, rules)
    for _ in range(4):
        seat = pub[P_TO_ACT]
        apply_bid(pub, hands, _d.agent_bid(kinds, params, pub, seat, hands[seat], rules)[0], False, rules)
    for _ in range(52):
        seat = pub[P_TO_ACT]
        if kinds[seat] == _d.KIND_NORMAL:
            # Normal called here directly rather than through agent_play: measured 40% faster
            # self-play (LLVM optimises the call in the loop; see benchmarks/RESULTS.md).
            hand = hands[seat]
            card = lowest_index(normal_play(pub, seat, hand, rules, legal_now(pub, hand, rules)))
        else:
            card, _ = _d.agent_play(kinds, params, pub, seat, hands[seat], rules)
        apply_card(pub, hands, card, rules)


@kernel
def record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil):
    """Row ``i`` of the record arrays from the finished hand in ``pub``, scored."""
    for s in range(4):
        bids[i, s] = pub[P_BIDS + s]
        blind[i, s] = pub[P_BLIND + s] != 0
        tricks_won[i, s] = pub[P_WON + s]
    _sc.score_hand(
        pub[P_BIDS : P_BIDS + 4],
        pub[P_BLIND : P_BLIND + 4],
        pub[P_WON : P_WON + 4],
        pub[P_SCORES : P_SCORES + 2],
        pub[P_BAGS : P_BAGS + 2],
        rules,
        sheet[i],
        nil[i],
    )


@kernel
def record_arrays(n):
    """Empty record arrays for ``n`` hands: bids, blind, tricks_won, sheet, nil outcomes."""
    return (
        np.empty((n, 4), dtype=np.int8),
        np.empty((n, 4), dtype=np.bool_),
        np.empty((n, 4), dtype=np.int8),
        np.empty((n, 2, _sc.N_FIELDS), dtype=np.int64),
        np.empty((n, 4), dtype=np.int64),
    )


@kernel
def play_hands_kernel(seed, start, n, dealer, kinds, params, rules):
    """Deals ``start .. start+n-1``: the record arrays of ``record_arrays``."""
    bids, blind, tricks_won, sheet, nil = record_arrays(n)
    pub = np.zeros(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    for i in range(n):
        deal_from_state(stream_state(seed, start + i, DEAL_STREAM), hands)
        play_one_hand(pub, hands, dealer, 0, 0, 0, 0, 0, kinds, params, rules)
        record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil)
    return bids, blind, tricks_won, sheet, nil


# The rules of a match, shared by the numba loop (built-in agents) and the Python loop.
@kernel
def match_first_dealer(seed, match_no):
    """The dealer of a match's first hand, from the match's own stream."""
    _, d = below(stream_state(seed, match_no, MATCH_DEALER_STREAM), 4)
    return d


@kernel
def deal_match_hand(seed, match_no, hand_no, hands):
    """Deal hand ``hand_no`` of match ``match_no`` into ``hands`` (stream ``1 + hand_no``)."""
    deal_from_state(stream_state(seed, match_no, 1 + hand_no), hands)


@kernel
def after_hand(sheet_row, hand_no, dealer, rules):
    """After hand ``hand_no``: ``(score0, score1, bags0, bags1, winner, next dealer)``;
    winner is -1 while the match goes on."""
    score0, score1 = sheet_row[0, _sc.F_SCORE], sheet_row[1, _sc.F_SCORE]
    winner = _sc.match_winner(score0, score1, hand_no + 1, rules)
    return score0, score1, sheet_row[0, _sc.F_BAGS], sheet_row[1, _sc.F_BAGS], winner, (dealer + 1) & 3


@kernel
def play_matches_kernel(seed, start, n, kinds, params, rules):
    """Matches ``start .. start+n-1``; one row per hand plus each row's match, hand and dealer."""
    cap = max(16, n * 24)
    bids, blind, tricks_won, sheet, nil = record_arrays(cap)
    meta = np.empty((cap, 4), dtype=np.int64)  # match, hand, dealer, winner (-1 until the last hand)
    pub = np.zeros(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    row = 0
    for m in range(start, start + n):
        dealer = match_first_dealer(seed, m)
        score0 = score1 = bags0 = bags1 = 0
        for k in range(MAX_MATCH_HANDS):
            if row == cap:
                cap *= 2
                bids, blind, tricks_won = _grow(bids, cap), _grow(blind, cap), _grow(tricks_won, cap)
                sheet, nil, meta = _grow(sheet, cap), _grow(nil, cap), _grow(meta, cap)
            deal_match_hand(seed, m, k, hands)
            play_one_hand(pub, hands, dealer, score0, score1, bags0, bags1, k, kinds, params, rules)
            record_hand(pub, rules, row, bids, blind, tricks_won, sheet, nil)
            meta[row, 0], meta[row, 1], meta[row, 2] = m, k, dealer
            score0, score1, bags0, bags1, winner, dealer = after_hand(sheet[row], k, dealer, rules)
            meta[row, 3] = winner
            row += 1
            if winner >= 0:
                break
    return bids[:row], blind[:row], tricks_won[:row], sheet[:row], nil[:row], meta[:row]


@kernel
def _grow(a, cap):
    out = np.empty((cap,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


# -- records ---------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class HandRecords:
    """One row per hand. Per-seat arrays are ``(n, 4)``, per-team arrays ``(n, 2)``.

    ``deal_no`` is the deal index ``i`` of ``(seed, i)`` (``play_hands``; None in matches,
    whose cards come from their own streams); ``tricks_won`` the seats' tricks; ``sheet`` the
    engine's score sheet ``(n, 2, engine.score.N_FIELDS)`` behind the team properties;
    ``nil_made`` whether each seat bid nil and made it. In matches, ``match_no``, ``hand_no``
    (from 0 in each match) and ``winner`` (the match winner on a match's last row, -1
    elsewhere) are set. Two record sets are equal when every array is.
    """

    dealer: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    tricks_won: np.ndarray
    sheet: np.ndarray
    nil_made: np.ndarray
    deal_no: np.ndarray | None = None
    match_no: np.ndarray | None = None
    hand_no: np.ndarray | None = None
    winner: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.bids)

    def team_field(self, field: int) -> np.ndarray:
        """``(n, 2)`` values of one score-sheet field (``engine.score.F_*``)."""
        return self.sheet[:, :, field]

    contract = property(lambda self: self.team_field(_sc.F_CONTRACT))
    team_tricks = property(lambda self: self.team_field(_sc.F_TRICKS))
    counted_tricks = property(lambda self: self.team_field(_sc.F_COUNTED))
    made = property(lambda self: self.team_field(_sc.F_MADE).astype(bool))
    contract_points = property(lambda self: self.team_field(_sc.F_CONTRACT_POINTS))
    new_bags = property(lambda self: self.team_field(_sc.F_NEW_BAGS))
    nil_points = property(lambda self: self.team_field(_sc.F_NIL_POINTS))
    bag_penalties = property(lambda self: self.team_field(_sc.F_PENALTIES))
    points = property(lambda self: self.team_field(_sc.F_POINTS))
    scores = property(lambda self: self.team_field(_sc.F_SCORE))
    bag_count = property(lambda self: self.team_field(_sc.F_BAGS))
    nil_bid = property(lambda self: self.bids == 0, doc="``(n, 4)``: whether each seat bid nil")

    @property
    def mode(self) -> str:
        return "hands" if self.match_no is None else "matches"

    def __eq__(self, other) -> bool:
        if not isinstance(other, HandRecords):
            return NotImplemented
        for name in self.__dataclass_fields__:
            a, b = getattr(self, name), getattr(other, name)
            if (a is None) != (b is None) or (a is not None and not np.array_equal(a, b)):
                return False
        return True

    __hash__ = None

    def __repr__(self) -> str:
        n = len(self)
        if self.mode == "hands":
            span = f"deals {self.deal_no[0]}..{self.deal_no[-1]}" if n else "no deals"
        else:
            span = f"matches {self.match_no[0]}..{self.match_no[-1]}" if n else "no matches"
        return f"<HandRecords {n:,} hands ({self.mode}, {span}); mean points {self.points.mean(axis=0).round(1).tolist() if n else '-'}>"


# -- the lineup ------------------------------------------------------------------------------
def resolve_lineup(lineup: Sequence[Agent | str]) -> list[Agent]:
    """Four agents from agents or built-in names; a two-entry lineup means (A, B, A, B)."""
    lineup = list(lineup)
    if len(lineup) == 2:
        lineup = lineup * 2
    if len(lineup) != 4:
        raise ValueError(f"a lineup has 4 seats (or 2 teams), not {len(lineup)}")
    agents = []
    for seat, a in enumerate(lineup):
        if isinstance(a, str):
            a = make_agent(a)
        if not (hasattr(a, "bid") and hasattr(a, "play")):
            raise TypeError(f"seat {seat}: {a!r} is not an agent (it needs bid(obs) and play(obs))")
        agents.append(a)
    return agents


def _builtin_arrays(agents):
    if not all(isinstance(a, BuiltinAgent) for a in agents):
        return None
    kinds = np.array([a.kind for a in agents], dtype=np.int64)
    params = np.stack([a.params for a in agents])
    return kinds, params


def _check_rules(rules):
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a spades_ai.Rules, not {type(rules).__name__}")
    return rules


def _records(arrays, **extra) -> HandRecords:
    bids, blind, tricks_won, sheet, nil = arrays
    return HandRecords(bids=bids, blind=blind, tricks_won=tricks_won, sheet=sheet, nil_made=nil == _sc.NIL_MADE, **extra)


# -- the Python loop -------------------------------------------------------------------------
def agent_name(agent) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


def play_hand_python(hand: Hand, agents: Sequence[Agent]) -> None:
    """Drive ``hand`` to its end with the agents' ``bid`` / ``play`` (any Python agents)."""
    while hand.phase == "bidding":
        seat = hand.to_act
        agent = agents[seat]
        if hand.legal_bids(blind=True) and hasattr(agent, "blind_nil"):
            if agent.blind_nil(hand.observation(blind_decision=True)):
                _act(hand.bid, agent, seat, 0, "blind nil", blind=True)
                continue
        b = agent.bid(hand.observation())
        _act(hand.bid, agent, seat, b, "bid")
    while hand.phase == "playing":
        seat = hand.to_act
        agent = agents[seat]
        card = agent.play(hand.observation())
        _act(hand.play, agent, seat, card, "card")


def _act(action, agent, seat, value, what, **kw):
    try:
        action(value, **kw)
    except (IllegalBidError, IllegalPlayError) as exc:
        raise type(exc)(f"agent {agent_name(agent)!r} at seat {seat} chose an illegal {what} {value!r}: {exc}") from None


def _python_hands(agents, seed, start, n, dealer, rules):
    masks = deal_masks(seed, start, n)
    arrays = record_arrays(n)
    arr = rules.as_array()
    for i in range(n):
        hand = Hand(masks[i].tolist(), dealer, rules)
        play_hand_python(hand, agents)
        record_hand(np.array(hand.public), arr, i, *arrays)
    return arrays


def _python_matches(agents, seed, start, n, rules):
    arrays = record_arrays(max(16, 24 * n))
    metas = []
    hands = np.empty(4, np.uint64)
    arr = rules.as_array()
    seed = np.uint64(seed)
    for m in range(start, start + n):
        dealer = int(match_first_dealer(seed, m))
        score0 = score1 = bags0 = bags1 = 0
        for k in range(MAX_MATCH_HANDS):
            row = len(metas)
            if row == len(arrays[0]):
                arrays = tuple(_grow(a, 2 * row) for a in arrays)
            deal_match_hand(seed, m, k, hands)
            hand = Hand(hands.tolist(), dealer, rules, (score0, score1), (bags0, bags1), hands_played=k)
            play_hand_python(hand, agents)
            record_hand(np.array(hand.public), arr, row, *arrays)
            score0, score1, bags0, bags1, winner, next_dealer = (int(x) for x in after_hand(arrays[3][row], k, dealer, arr))
            metas.append((m, k, dealer, winner))
            dealer = next_dealer
            if winner >= 0:
                break
    return tuple(a[: len(metas)] for a in arrays), np.array(metas, dtype=np.int64).reshape(-1, 4)


# -- public API ------------------------------------------------------------------------------
def play_hands(lineup, n: int, seed: int = 0, rules: Rules | None = None, dealer: int = 0, *, start: int = 0) -> HandRecords:
    """Play deals ``start .. start+n-1`` of ``seed`` (dealer fixed, scores from zero).

    ``lineup`` is four agents or names by seat, or two for (A, B, A, B).

    >>> rec = play_hands(["normal", "easy"], 100, seed=1)
    >>> len(rec), int(rec.tricks_won.sum(axis=1).max())
    (100, 13)
    """
    agents = resolve_lineup(lineup)
    rules = _check_rules(rules)
    n, seed, dealer, start = check_count(n), check_seed(seed), check_dealer(dealer), check_count(start, "start")
    arrays = _builtin_arrays(agents)
    if arrays is not None:
        parts = play_hands_kernel(np.uint64(seed), start, n, dealer, *arrays, rules.as_array())
    else:
        parts = _python_hands(agents, seed, start, n, dealer, rules)
    return _records(parts, deal_no=np.arange(start, start + n, dtype=np.int64), dealer=np.full(n, dealer, np.int8))


def play_matches(lineup, n: int, seed: int = 0, rules: Rules | None = None, *, start: int = 0) -> HandRecords:
    """Play matches ``start .. start+n-1`` to the end (target, loss threshold or max hands).

    One row per hand, with ``match_no``, ``hand_no`` and, on each match's last row, ``winner``.
    A match still undecided after 10,000 hands ends there with winner -1.
    """
    agents = resolve_lineup(lineup)
    rules = _check_rules(rules)
    n, seed, start = check_count(n), check_seed(seed), check_count(start, "start")
    arrays = _builtin_arrays(agents)
    if arrays is not None:
        *parts, meta = play_matches_kernel(np.uint64(seed), start, n, *arrays, rules.as_array())
    else:
        parts, meta = _python_matches(agents, seed, start, n, rules)
    return _records(
        parts,
        dealer=meta[:, 2].astype(np.int8),
        match_no=meta[:, 0].copy(),
        hand_no=meta[:, 1].copy(),
        winner=meta[:, 3].copy(),
    )
