"""The Monte Carlo parts from Python: sample the hidden cards, count them, weigh them, and the
values a search decides from.

The same kernels Hard and Crazy use (``sampling``, ``weights``, ``search``), behind checked
functions of an ``Observation``; ``spades_ai.play_out`` plays a world out. A
perfect-information Monte Carlo agent in a few lines:

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

import math

import numpy as np

from spades_ai.cards import Card
from spades_ai.checks import check_count, check_noise, check_seed
from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, legal_bids
from spades_ai.engine.state import legal_now
from spades_ai.kernels import decision_stream
from spades_ai.models.model import packed_after
from spades_ai.montecarlo.sampling import (constraints_with_copies, count_worlds_float, count_worlds_kernel, counts_fit,
                                           sample_worlds_kernel, seat_groups, table_fits)
from spades_ai.montecarlo.weights import world_weights_kernel
from spades_ai.observation import Observation

MAX_WORLDS = 10_000_000


def relaid(worlds: np.ndarray, convert) -> np.ndarray:
    """``worlds`` with every bitboard passed through ``convert`` (``Rules.engine_mask`` or
    ``public_mask``): worlds are card ids here and the engine's layout in the kernels, which
    differ only under jokers or high deuces (``spades_ai.kernels``)."""
    return np.array([convert(int(m)) for m in worlds.reshape(-1)], dtype=np.uint64).reshape(worlds.shape)


def check_observation(obs) -> Observation:
    """``obs``, if it is an ``Observation`` of a decision that sees cards."""
    if not isinstance(obs, Observation):
        raise TypeError(f"expected an Observation (Hand.observation()), not {type(obs).__name__}")
    if obs.blind_decision:
        raise ValueError("a blind-nil decision sees no cards: there is nothing to condition the worlds on")
    return obs


def count_worlds(obs: Observation) -> int:
    """The number of deals of the unseen cards consistent with ``obs`` (each seat's card count,
    the cards played, every void shown): what ``sample_worlds`` draws from uniformly. With
    copies (several decks) these are deals of the physical cards. Exact unless the seats that
    are not exchangeable (``sampling.seat_groups``) deal more than ``sampling.EXACT_LIMIT``
    (2**62) ways, then to float64 precision."""
    obs = check_observation(obs)
    unseen, _, need, lo, hi, _ = constraints_with_copies(obs.public, obs.seat, obs.engine_cards, obs.rules_array)
    if table_fits(unseen, need):
        return int(count_worlds_kernel(unseen, need, lo, hi)[0, -1])
    # exchangeable seats counted as one, times the ways to split each group's cards among them
    group, gneed, glo, ghi = seat_groups(need, lo, hi, True)
    table = count_worlds_kernel if counts_fit(unseen, gneed) else count_worlds_float
    total = int(table(unseen, gneed, glo, ghi)[0, -1])
    for g, size in enumerate(gneed.tolist()):
        total *= math.factorial(size) // math.prod(math.factorial(int(n)) for n in need[group == g])
    return total


def sample_worlds(obs: Observation, n: int, seed: int = 0, bid_aware: bool = False) -> np.ndarray:
    """``n`` deals consistent with ``obs``, as an ``(n, players)`` uint64 array of the cards each seat
    still holds (the seat's own row is its hand), as card ids (``Rules.cardset`` names them);
    with several decks ``(n, decks * players)``, column ``k * players + seat`` the cards seat
    holds at least ``k + 1`` times (``engine.copies``).

    Exactly uniform among the consistent deals of the physical cards (the kernel Hard uses);
    reproducible from
    ``seed`` and the observation. With ``bid_aware``, ``n`` worlds are drawn from ``4 n`` uniform
    ones in proportion to how well they explain the other seats' bids (Crazy's weights,
    ``world_weights``), with replacement.
    """
    obs = check_observation(obs)
    n, seed = check_count(n), check_seed(seed)
    if not 1 <= n <= MAX_WORLDS:
        raise ValueError(f"n must be in 1..{MAX_WORLDS:,}, not {n}")
    if count_worlds(obs) == 0:
        raise ValueError("no deal of the unseen cards fits this observation")
    hand = obs.engine_cards
    state = np.uint64(decision_stream(np.uint64(seed).view(np.int64), obs.public, obs.seat, hand))
    draw = 4 * n if bid_aware else n
    _, worlds = sample_worlds_kernel(state, obs.public, obs.seat, hand, obs.rules_array, draw)
    if obs.rules.extra_trumps:
        worlds = relaid(worlds, obs.rules.public_mask)
    if not bid_aware:
        return worlds
    w = world_weights(obs, worlds)
    rng = np.random.default_rng([seed, int(state)])
    return worlds[rng.choice(draw, size=n, replace=True, p=w / w.sum())]


def world_weights(obs: Observation, worlds: np.ndarray, play_noise: float | None = None, play_model=None) -> np.ndarray:
    """Crazy's bid-aware weight of each world (how likely the other seats' bids are given the
    hands they hold in it), tempered toward uniform when the weights collapse. With
    ``play_noise`` (in (0, 1)) it also weighs the cards they played (``read_play``: Normal's
    play with that noise, or with ``play_model`` a learned model's card network, ``reading``);
    the worlds must fit ``obs``."""
    obs = check_observation(obs)
    worlds = np.ascontiguousarray(worlds, dtype=np.uint64)
    if worlds.ndim != 2 or worlds.shape[1] != 4:
        raise ValueError(f"worlds must be an (n, 4) array, not shape {worlds.shape}")
    eps = 0.0
    if play_noise is not None:
        try:
            eps = check_noise(play_noise)  # the check of make_agent's play_noise option
        except ValueError as e:
            raise ValueError(f"play_noise {e}") from None
    elif play_model is not None:
        raise ValueError("play_model weighs the cards played with noise play_noise: give play_noise too")
    if obs.rules.extra_trumps:
        worlds = relaid(worlds, obs.rules.engine_mask)
    model, at = packed_after(np.zeros(1, np.int64), play_model) if play_model is not None else (np.zeros(1, np.int64), 0)
    weights, _ = world_weights_kernel(obs.public, obs.seat, worlds, len(worlds), obs.rules_array, True, eps, model, at)
    return weights




def decision_values(agent, obs: Observation) -> tuple[Card | int, dict]:
    """The action a Monte Carlo agent (Hard, Crazy, or either with another ``rollout=``) takes
    at ``obs``, and the value it gives every legal card or bid: its weighted mean over the
    worlds of the search (points to the seat's team, bags at their cost, ``utility``), the
    very numbers its choice is made from. Cards of equal value share a value; a bid outside
    the candidates it weighs, and every action of a decision with one candidate (nothing is
    searched), is NaN. A blind-nil question (``obs.blind_decision``) is not asked here.

    >>> import spades_ai as sa
    >>> hand = sa.Hand(sa.deal(seed=2))
    >>> bid, values = decision_values(sa.make_agent("hard", worlds=16), hand.observation())
    >>> bid in values and values[bid] == values[bid]
    True
    """
    if not isinstance(obs, Observation):
        raise TypeError(f"expected an Observation (Hand.observation()), not {type(obs).__name__}")
    kernels = (getattr(agent, "play_values_kernel", None), getattr(agent, "bid_values_kernel", None))
    if None in kernels:
        raise TypeError(f"{agent!r} is not a Monte Carlo agent (make_agent('hard' or 'crazy', ...))")
    if obs.blind_decision or obs.phase not in ("bidding", "playing"):
        raise ValueError(f"decision_values takes a bid or a card to choose, not the {obs.phase} phase"
                         + (" (blind nil question)" if obs.blind_decision else ""))
    hand, args = obs.engine_cards, (obs.public, obs.seat)
    if obs.phase == "bidding":
        legal = int(legal_bids(obs.seat, hand, obs.public, obs.rules_array)) & BID_BITS
        out = np.full(BLIND_NIL_BIT, np.nan)
        b = int(kernels[1](*args, hand, np.int64(legal), obs.rules_array, agent.params, out))
        return b, {k: float(out[k]) for k in range(BLIND_NIL_BIT) if legal >> k & 1}
    legal = np.uint64(legal_now(obs.public, hand, obs.rules_array))
    out = np.full(56, np.nan)
    c = int(kernels[0](*args, hand, legal, obs.rules_array, agent.params, out))
    deck = obs.rules.engine_deck
    return deck[c], {deck[k]: float(out[k]) for k in range(56) if int(legal) >> k & 1}
