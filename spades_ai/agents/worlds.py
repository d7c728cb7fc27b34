"""The Monte Carlo parts from Python: sample the hidden cards, count them, play a world out.

The same kernels Hard and Crazy use (``agents.sampling``, ``agents.hard``), behind checked
functions of an ``Observation``. A perfect-information Monte Carlo agent in a few lines:

>>> import spades_ai as sa
>>> class Pimc:
...     name = "pimc"
...     def __init__(self, worlds=8):
...         self.worlds, self.policy = worlds, sa.make_agent("normal")
...     def bid(self, obs):
...         return self.policy.bid(obs)
...     def play(self, obs):
...         worlds = sa.sample_worlds(obs, self.worlds, seed=obs.seat)
...         def value(card):  # the seat's team's points over the worlds, after playing card
...             return sum(sa.play_out(obs, w, [self.policy] * 4, first=card).points[obs.seat % 2] for w in worlds)
...         return max(obs.legal_cards(), key=value)
>>> sa.play_hands([Pimc(), "normal"], 2, seed=1).tricks_won.sum(axis=1).tolist()
[13, 13]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spades_ai.cards import Card
from spades_ai.checks import check_count, check_seed
from spades_ai.engine.bits import SUIT_MASK
from spades_ai.engine.state import P_N_BIDS as _P_N_BIDS
from spades_ai.engine.state import P_PLAYED as _P_PLAYED
from spades_ai.observation import Observation
from spades_ai.scoring import HandResult

MAX_WORLDS = 10_000_000


def _relaid(worlds: np.ndarray, convert) -> np.ndarray:
    """``worlds`` with every bitboard passed through ``convert`` (``Rules.engine_mask`` or
    ``public_mask``): worlds are card ids here and the engine's layout in the kernels, which
    differ only under jokers or high deuces (``spades_ai.kernels``)."""
    return np.array([convert(int(m)) for m in worlds.reshape(-1)], dtype=np.uint64).reshape(worlds.shape)


def _check_obs(obs) -> Observation:
    if not isinstance(obs, Observation):
        raise TypeError(f"expected an Observation (Hand.observation()), not {type(obs).__name__}")
    if obs.blind_decision:
        raise ValueError("a blind-nil decision sees no cards: there is nothing to condition the worlds on")
    return obs


def count_worlds(obs: Observation) -> int:
    """The number of deals of the unseen cards consistent with ``obs`` (each seat's card count,
    the cards played, every void shown): what ``sample_worlds`` draws from uniformly."""
    from spades_ai.agents.sampling import count_worlds as _count
    from spades_ai.agents.sampling import world_constraints

    obs = _check_obs(obs)
    unseen, _, need, lo, hi, _ = world_constraints(obs.public, obs.seat, obs.engine_cards, obs.rules_array)
    return int(_count(unseen, need, lo, hi)[0, need[0], need[1]])


def sample_worlds(obs: Observation, n: int, seed: int = 0, bid_aware: bool = False) -> np.ndarray:
    """``n`` deals consistent with ``obs``, as an ``(n, 4)`` uint64 array of the cards each seat
    still holds (the seat's own row is its hand), as card ids (``Rules.cardset`` names them).

    Exactly uniform among the consistent deals (the kernel Hard uses); reproducible from
    ``seed`` and the observation. With ``bid_aware``, ``n`` worlds are drawn from ``4 n`` uniform
    ones in proportion to how well they explain the other seats' bids (Crazy's weights,
    ``world_weights``), with replacement.
    """
    from spades_ai.agents.hard import sample_worlds as _sample
    from spades_ai.kernels import decision_stream

    obs = _check_obs(obs)
    n, seed = check_count(n), check_seed(seed)
    if not 1 <= n <= MAX_WORLDS:
        raise ValueError(f"n must be in 1..{MAX_WORLDS:,}, not {n}")
    if count_worlds(obs) == 0:
        raise ValueError("no deal of the unseen cards fits this observation")
    hand = obs.engine_cards
    state = np.uint64(decision_stream(np.uint64(seed).view(np.int64), obs.public, obs.seat, hand))
    draw = 4 * n if bid_aware else n
    _, worlds = _sample(state, obs.public, obs.seat, hand, obs.rules_array, draw)
    if obs.rules.extra_trumps:
        worlds = _relaid(worlds, obs.rules.public_mask)
    if not bid_aware:
        return worlds
    w = world_weights(obs, worlds)
    rng = np.random.default_rng([seed, int(state)])
    return worlds[rng.choice(draw, size=n, replace=True, p=w / w.sum())]


def world_weights(obs: Observation, worlds: np.ndarray, play_noise: float | None = None) -> np.ndarray:
    """Crazy's bid-aware weight of each world (how likely the other seats' bids are given the
    hands they hold in it), tempered toward uniform when the weights collapse. With
    ``play_noise`` (in (0, 1)) it also weighs the cards they played (``read_play``: Normal's
    play with that noise, ``agents.inference``); the worlds must fit ``obs``."""
    from spades_ai.agents.hard import world_weights as _weights
    from spades_ai.agents.registry import _noise

    obs = _check_obs(obs)
    worlds = np.ascontiguousarray(worlds, dtype=np.uint64)
    if worlds.ndim != 2 or worlds.shape[1] != 4:
        raise ValueError(f"worlds must be an (n, 4) array, not shape {worlds.shape}")
    eps = 0.0
    if play_noise is not None:
        try:
            eps = _noise(play_noise)  # the check of make_agent's play_noise option
        except ValueError as e:
            raise ValueError(f"play_noise {e}") from None
    if obs.rules.extra_trumps:
        worlds = _relaid(worlds, obs.rules.engine_mask)
    weights, _ = _weights(obs.public, obs.seat, worlds, len(worlds), obs.rules_array, True, eps)
    return weights


def play_out(obs: Observation, world, agents: Sequence, *, first: Card | str | int | None = None) -> HandResult:
    """Finish the hand seen in ``obs`` as if the hidden cards were ``world`` (a row of
    ``sample_worlds``), with ``agents`` (four agents by seat, or two for (A, B, A, B): built-in,
    kernel or Python), and return the score sheet. ``first`` is the action the seat to act takes
    first (a card, or a bid during the bidding); the agents decide the rest. It runs in the
    same numba loop as ``play_hands``.
    """
    from spades_ai.agents.lineup_loop import T_JOB, T_N
    from spades_ai.agents.selfplay import Seating, resolve_lineup
    from spades_ai.engine.bids import legal_bids
    from spades_ai.engine.state import apply_bid, apply_card, legal_now

    obs = _check_obs(obs)
    if obs.phase == "passing":
        raise ValueError("play_out starts after a passing round: the passes chosen are hidden from the observation")
    if obs.rules.closed_bidding and obs.phase == "bidding" and int(obs.public[_P_N_BIDS]) > 0:
        raise ValueError("under closed_bidding the observation hides the bids made before; play_out needs them to score")
    hands = np.asarray(world, dtype=np.uint64).reshape(-1).copy()
    if len(hands) != 4:
        raise ValueError(f"a world has four hands, not {len(hands)}")
    rules = obs.rules
    hands = _relaid(hands, rules.engine_mask) if rules.extra_trumps else hands  # card ids to the engine's layout
    if int(hands[obs.seat]) != int(obs.engine_cards):
        raise ValueError(f"the world gives seat {obs.seat} other cards than it holds")
    seen = int(obs.public[_P_PLAYED])
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
    seq = np.zeros(52, dtype=np.int64)
    plays = list(obs.plays) + ([(obs.seat, rules.named(first))] if first is not None and obs.phase == "playing" else [])
    for i, (s, c) in enumerate(plays):
        seq[i] = 64 * s + rules.engine_id(c)
    seating = Seating(resolve_lineup(agents))
    pubs, hand_rows, seqs, tables, _ = seating.tables(1)
    pubs[0], hand_rows[0], seqs[0] = pub, hands, seq
    tables[0, T_JOB], tables[0, T_N] = 0, len(plays)
    seating.run("play_on_kernel", rules, tables=(pubs, hand_rows, seqs, tables))
    return HandResult.from_public(pubs[0], obs.rules_array)
