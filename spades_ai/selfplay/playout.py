"""``play_out``: finish an observed hand in one imagined world, with any agents, in the self-play loop."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spades_ai.cards import Card
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.bits import SUIT_MASK
from spades_ai.engine.state import P_N_BIDS, P_PLAYED, apply_bid, apply_card, legal_now
from spades_ai.montecarlo.worlds import check_observation, relaid
from spades_ai.observation import Observation
from spades_ai.scoring import HandResult
from spades_ai.selfplay.loop import MAX_PLAYS, T_JOB, T_N
from spades_ai.selfplay.play import Seating, resolve_lineup


def play_out(obs: Observation, world, agents: Sequence, *, first: Card | str | int | None = None) -> HandResult:
    """Finish the hand seen in ``obs`` as if the hidden cards were ``world`` (a row of
    ``sample_worlds``), with ``agents`` (four agents by seat, or two for (A, B, A, B): built-in,
    kernel or Python), and return the score sheet. ``first`` is the action the seat to act takes
    first (a card, or a bid during the bidding); the agents decide the rest. It runs in the
    same numba loop as ``play_hands``.
    """
    obs = check_observation(obs)
    if obs.phase == "passing":
        raise ValueError("play_out starts after a passing round: the passes chosen are hidden from the observation")
    if obs.rules.closed_bidding and obs.phase == "bidding" and int(obs.public[P_N_BIDS]) > 0:
        raise ValueError("under closed_bidding the observation hides the bids made before; play_out needs them to score")
    hands = np.asarray(world, dtype=np.uint64).reshape(-1).copy()
    if len(hands) != 4:
        raise ValueError(f"a world has four hands, not {len(hands)}")
    rules = obs.rules
    hands = relaid(hands, rules.engine_mask) if rules.extra_trumps else hands  # card ids to the engine's layout
    if int(hands[obs.seat]) != int(obs.engine_cards):
        raise ValueError(f"the world gives seat {obs.seat} other cards than it holds")
    seen = int(obs.public[P_PLAYED])
    for s in range(4):
        expected = 13 - len(obs.played_by[s])
        if int(hands[s]).bit_count() != expected:
            raise ValueError(f"the world gives seat {s} {int(hands[s]).bit_count()} cards, not {expected}")
        if int(hands[s]) & seen or any(int(hands[s]) & int(hands[t]) for t in range(s)):
            raise ValueError(f"the world gives seat {s} a card that is played or held by another seat")
        for suit in obs.voids[s]:
            if int(hands[s]) & int(SUIT_MASK[suit]):
                raise ValueError(f"the world gives seat {s} a card of a suit it has shown it lacks")
    pub = np.array(obs.public)
    if first is not None:
        seat = obs.seat
        if obs.phase == "bidding":
            if not (isinstance(first, (int, np.integer)) and int(legal_bids(seat, hands[seat], pub, obs.rules_array)) >> int(first) & 1):
                raise ValueError(f"seat {seat} may not bid {first!r} here")
            apply_bid(pub, hands, int(first), False, obs.rules_array)
        else:
            card = rules.named(first)
            if not int(legal_now(pub, hands[seat], obs.rules_array)) >> rules.engine_id(card) & 1:
                raise ValueError(f"seat {seat} may not play {card} here")
            apply_card(pub, hands, rules.engine_id(card), obs.rules_array)
    seq = np.zeros(MAX_PLAYS, dtype=np.int64)
    plays = list(obs.plays) + ([(obs.seat, rules.named(first))] if first is not None and obs.phase == "playing" else [])
    for i, (s, c) in enumerate(plays):
        seq[i] = 64 * s + rules.engine_id(c)
    seating = Seating(resolve_lineup(agents, rules), rules)
    pubs, hand_rows, seqs, tables, _ = seating.tables(1)
    pubs[0], hand_rows[0], seqs[0] = pub, hands, seq
    tables[0, T_JOB], tables[0, T_N] = 0, len(plays)
    seating.run("play_on_kernel", rules, tables=(pubs, hand_rows, seqs, tables))
    return HandResult.from_public(pubs[0], obs.rules_array)
