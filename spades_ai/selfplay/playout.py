"""``play_out``: finish an observed hand in one imagined world, with any agents, in the self-play loop."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spades_ai.cards import Card
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.state import P_N_BIDS, apply_bid, apply_card, legal_now
from spades_ai.montecarlo.worlds import check_observation, check_world
from spades_ai.observation import Observation
from spades_ai.scoring import HandResult
from spades_ai.selfplay.loop import MAX_PLAYS, T_JOB, T_N
from spades_ai.selfplay.play import Seating, resolve_lineup


def play_out(obs: Observation, world, agents: Sequence, *, first: Card | str | int | None = None) -> HandResult:
    """Finish the hand seen in ``obs`` as if the hidden cards were ``world`` (a row of
    ``sample_worlds``: ``decks * players`` bitboards, column ``(k - 1) * players + seat`` copy
    level k of ``seat``, the cards it holds at least ``k`` times, ``montecarlo.worlds``), with ``agents`` (one a seat,
    or with pairs one a side: (A, B) is (A, B, A, B) at four; built-in, kernel or Python), and
    return the score sheet. ``first`` is the action the seat to act takes first (a card, or a
    bid during the bidding); the agents decide the rest. It runs in the same numba loop as
    ``play_hands``, at every table. A world that does not fit ``obs`` is refused
    (``check_world``).
    """
    obs = check_observation(obs)
    if obs.phase == "passing":
        raise ValueError("play_out starts after a passing round: the passes chosen are hidden from the observation")
    if obs.rules.closed_bidding and obs.phase == "bidding" and int(obs.public[P_N_BIDS]) > 0:
        raise ValueError("under closed_bidding the observation hides the bids made before; play_out needs them to score")
    rules, hands = obs.rules, check_world(obs, world)
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
