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
from spades_ai.engine._jit import kernel
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
from spades_ai.simulate import check_count, check_dealer, check_seed

MATCH_DEALER_STREAM = 1 << 40
MAX_MATCH_HANDS = 10_000  # a match still tied after this many hands is reported unfinished


# -- kernels ---------------------------------------------------------------------------------
@kernel
def play_one_hand(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, kinds, params, rules):
    """Bid and play one dealt hand with built-in agents; leaves the result in ``pub``."""
    reset_public(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, rules)
    for _ in range(4):
        seat = pub[P_TO_ACT]
        b, blind, _ = _d.agent_bid(kinds, params, pub, seat, hands[seat], rules)
        apply_bid(pub, hands, b, blind, rules)
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
def _score_into(pub, rules, team_out, nil_out):
    _sc.score_hand(
        pub[P_BIDS : P_BIDS + 4],
        pub[P_BLIND : P_BLIND + 4],
        pub[P_WON : P_WON + 4],
        pub[P_SCORES : P_SCORES + 2],
        pub[P_BAGS : P_BAGS + 2],
        rules,
        team_out,
        nil_out,
    )


@kernel
def _record(pub, i, bids, blind, tricks):
    for s in range(4):
        bids[i, s] = pub[P_BIDS + s]
        blind[i, s] = pub[P_BLIND + s] != 0
        tricks[i, s] = pub[P_WON + s]


@kernel
def play_hands_kernel(seed, start, n, dealer, kinds, params, rules):
    """Deals ``start .. start+n-1``: bids, blind, tricks, team fields and nil outcomes."""
    bids = np.empty((n, 4), dtype=np.int8)
    blind = np.empty((n, 4), dtype=np.bool_)
    tricks = np.empty((n, 4), dtype=np.int8)
    team = np.empty((n, 2, _sc.N_FIELDS), dtype=np.int64)
    nil = np.empty((n, 4), dtype=np.int64)
    pub = np.zeros(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    for i in range(n):
        deal_from_state(stream_state(seed, start + i, DEAL_STREAM), hands)
        play_one_hand(pub, hands, dealer, 0, 0, 0, 0, 0, kinds, params, rules)
        _record(pub, i, bids, blind, tricks)
        _score_into(pub, rules, team[i], nil[i])
    return bids, blind, tricks, team, nil


@kernel
def match_first_dealer(seed, match):
    _, d = below(stream_state(seed, match, MATCH_DEALER_STREAM), 4)
    return d


@kernel
def play_matches_kernel(seed, start, n, kinds, params, rules):
    """Matches ``start .. start+n-1``; one row per hand plus each row's match, hand and dealer."""
    cap = max(16, n * 24)
    bids = np.empty((cap, 4), dtype=np.int8)
    blind = np.empty((cap, 4), dtype=np.bool_)
    tricks = np.empty((cap, 4), dtype=np.int8)
    team = np.empty((cap, 2, _sc.N_FIELDS), dtype=np.int64)
    nil = np.empty((cap, 4), dtype=np.int64)
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
                bids = _grow(bids, cap)
                blind = _grow(blind, cap)
                tricks = _grow(tricks, cap)
                team = _grow(team, cap)
                nil = _grow(nil, cap)
                meta = _grow(meta, cap)
            deal_from_state(stream_state(seed, m, 1 + k), hands)
            play_one_hand(pub, hands, dealer, score0, score1, bags0, bags1, k, kinds, params, rules)
            _record(pub, row, bids, blind, tricks)
            _score_into(pub, rules, team[row], nil[row])
            score0, score1 = team[row, 0, _sc.F_SCORE], team[row, 1, _sc.F_SCORE]
            bags0, bags1 = team[row, 0, _sc.F_BAGS], team[row, 1, _sc.F_BAGS]
            winner = _sc.match_winner(score0, score1, k + 1, rules)
            meta[row, 0] = m
            meta[row, 1] = k
            meta[row, 2] = dealer
            meta[row, 3] = winner
            row += 1
            if winner >= 0:
                break
            dealer = (dealer + 1) & 3
    return bids[:row], blind[:row], tricks[:row], team[:row], nil[:row], meta[:row]


@kernel
def _grow(a, cap):
    out = np.empty((cap,) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


# -- records ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class HandRecords:
    """One row per hand. Per-seat arrays are ``(n, 4)``, per-team arrays ``(n, 2)``.

    ``nil`` is -1 (no nil bid), 0 (failed) or 1 (made). In matches, ``match``, ``hand`` and
    ``winner`` (the match winner on a match's last row, -1 elsewhere) are set.
    """

    deal: np.ndarray
    dealer: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    tricks: np.ndarray
    team: np.ndarray  # (n, 2, engine.score.N_FIELDS)
    nil: np.ndarray
    match: np.ndarray | None = None
    hand: np.ndarray | None = None
    winner: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.deal)

    def _field(self, f: int) -> np.ndarray:
        return self.team[:, :, f]

    contract = property(lambda self: self._field(_sc.F_CONTRACT))
    team_tricks = property(lambda self: self._field(_sc.F_TRICKS))
    counted_tricks = property(lambda self: self._field(_sc.F_COUNTED))
    made = property(lambda self: self._field(_sc.F_MADE).astype(bool))
    contract_points = property(lambda self: self._field(_sc.F_CONTRACT_POINTS))
    new_bags = property(lambda self: self._field(_sc.F_NEW_BAGS))
    nil_points = property(lambda self: self._field(_sc.F_NIL_POINTS))
    bag_penalties = property(lambda self: self._field(_sc.F_PENALTIES))
    points = property(lambda self: self._field(_sc.F_POINTS))
    scores = property(lambda self: self._field(_sc.F_SCORE))
    bags = property(lambda self: self._field(_sc.F_BAGS))

    def equals(self, other: HandRecords) -> bool:
        """Whether two record sets hold the same values."""
        for name in self.__dataclass_fields__:
            a, b = getattr(self, name), getattr(other, name)
            if (a is None) != (b is None) or (a is not None and not np.array_equal(a, b)):
                return False
        return True


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
    from spades_ai.simulate import deal_masks

    masks = deal_masks(seed, start, n)
    out = _empty(n)
    for i in range(n):
        hand = Hand(masks[i].tolist(), dealer, rules)
        play_hand_python(hand, agents)
        _fill(out, i, hand)
    return out


def _empty(n):
    return {
        "bids": np.empty((n, 4), np.int8),
        "blind": np.empty((n, 4), np.bool_),
        "tricks": np.empty((n, 4), np.int8),
        "team": np.empty((n, 2, _sc.N_FIELDS), np.int64),
        "nil": np.empty((n, 4), np.int64),
    }


def _fill(out, i, hand: Hand):
    pub = hand._pub
    out["bids"][i] = pub[P_BIDS : P_BIDS + 4]
    out["blind"][i] = pub[P_BLIND : P_BLIND + 4] != 0
    out["tricks"][i] = pub[P_WON : P_WON + 4]
    _score_into(pub, hand._rules_array, out["team"][i], out["nil"][i])


# -- public API ------------------------------------------------------------------------------
def play_hands(lineup, n: int, seed: int = 0, rules: Rules | None = None, dealer: int = 0, *, start: int = 0) -> HandRecords:
    """Play deals ``start .. start+n-1`` of ``seed`` (dealer fixed, scores from zero).

    ``lineup`` is four agents or names by seat, or two for (A, B, A, B).

    >>> rec = play_hands(["normal", "easy"], 100, seed=1)
    >>> len(rec), int(rec.tricks.sum(axis=1).max())
    (100, 13)
    """
    agents = resolve_lineup(lineup)
    rules = _check_rules(rules)
    n, seed, dealer, start = check_count(n), check_seed(seed), check_dealer(dealer), check_count(start, "start")
    arrays = _builtin_arrays(agents)
    if arrays is not None:
        bids, blind, tricks, team, nil = play_hands_kernel(np.uint64(seed), start, n, dealer, *arrays, rules.as_array())
        parts = {"bids": bids, "blind": blind, "tricks": tricks, "team": team, "nil": nil}
    else:
        parts = _python_hands(agents, seed, start, n, dealer, rules)
    deal_ids = np.arange(start, start + n, dtype=np.int64)
    return HandRecords(deal=deal_ids, dealer=np.full(n, dealer, np.int8), **parts)


def play_matches(lineup, n: int, seed: int = 0, rules: Rules | None = None, *, start: int = 0) -> HandRecords:
    """Play matches ``start .. start+n-1`` to the end (target, loss threshold or max hands).

    One row per hand, with ``match``, ``hand`` and, on each match's last row, ``winner``.
    A match still undecided after 10,000 hands ends there with winner -1.
    """
    agents = resolve_lineup(lineup)
    rules = _check_rules(rules)
    n, seed, start = check_count(n), check_seed(seed), check_count(start, "start")
    arrays = _builtin_arrays(agents)
    if arrays is not None:
        bids, blind, tricks, team, nil, meta = play_matches_kernel(np.uint64(seed), start, n, *arrays, rules.as_array())
        parts = {"bids": bids, "blind": blind, "tricks": tricks, "team": team, "nil": nil}
    else:
        parts, meta = _python_matches(agents, seed, start, n, rules)
    return HandRecords(
        deal=meta[:, 1].copy(),
        dealer=meta[:, 2].astype(np.int8),
        match=meta[:, 0].copy(),
        hand=meta[:, 1].copy(),
        winner=meta[:, 3].copy(),
        **parts,
    )


def _python_matches(agents, seed, start, n, rules):
    from spades_ai.engine.deal import deal_from_state as _deal

    rows, metas = [], []
    hands = np.empty(4, np.uint64)
    arr = rules.as_array()
    for m in range(start, start + n):
        dealer = int(match_first_dealer(np.uint64(seed), m))
        scores, bags = (0, 0), (0, 0)
        for k in range(MAX_MATCH_HANDS):
            _deal(np.uint64(stream_state(np.uint64(seed), m, 1 + k)), hands)
            hand = Hand(hands.tolist(), dealer, rules, scores, bags, hands_played=k)
            play_hand_python(hand, agents)
            out = _empty(1)
            _fill(out, 0, hand)
            rows.append(out)
            t = out["team"][0]
            scores = (int(t[0, _sc.F_SCORE]), int(t[1, _sc.F_SCORE]))
            bags = (int(t[0, _sc.F_BAGS]), int(t[1, _sc.F_BAGS]))
            winner = int(_sc.match_winner(scores[0], scores[1], k + 1, arr))
            metas.append((m, k, dealer, winner))
            if winner >= 0:
                break
            dealer = (dealer + 1) % 4
    parts = {key: np.concatenate([r[key] for r in rows]) for key in rows[0]} if rows else _empty(0)
    return parts, np.array(metas, dtype=np.int64).reshape(-1, 4)
