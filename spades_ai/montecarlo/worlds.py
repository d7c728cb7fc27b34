"""The Monte Carlo parts from Python: sample the hidden cards, count them, weigh them, and the
values a search decides from.

The same kernels Hard and Crazy use (``sampling``, ``weights``, ``search``), behind checked
functions of an ``Observation``; ``spades_ai.play_out`` plays a world out. They play every
table of 3 to 12 players, solo or in pairs, one to three decks.

A *world* is one deal of the cards still held: a row of ``decks * players`` uint64 bitboards
of card ids (``Rules.cardset`` names them), the kernels' ``hands[k * players + seat]``:
column ``k * players + seat`` holds the cards ``seat`` holds at least ``k + 1`` times
(``engine.copies``). With one deck (3 to 5 players) that is one bitboard a seat, ``(4,)`` at
the default table; with two decks (6 to 8 players) column ``players + seat`` holds the cards
of which the seat has both copies, and so on. ``sample_worlds`` returns ``(n, decks *
players)``, ``world_width(rules)`` columns, and ``world_weights`` and ``play_out`` take that
shape; ``Rules.cardset`` of a column, or ``CardSet.from_levels`` of a seat's columns, names
the cards. A perfect-information Monte Carlo agent in a few lines, at any table:

>>> import spades_ai as sa
>>> from spades_ai.seats import side_of
>>> class Pimc:
...     name = "pimc"
...     def __init__(self, worlds=8):
...         self.worlds, self.policy = worlds, sa.make_agent("normal")
...     def bid(self, obs):
...         return self.policy.bid(obs)
...     def play(self, obs):
...         worlds = sa.sample_worlds(obs, self.worlds, seed=obs.seat)
...         agents, side = [self.policy] * obs.rules.players, side_of(obs.seat, obs.rules)
...         def value(card):  # the seat's side's points over the worlds, after playing card
...             return sum(sa.play_out(obs, w, agents, first=card).points[side] for w in worlds)
...         return max(obs.legal_cards(), key=value)
>>> sa.play_hands([Pimc(), "normal"], 2, seed=1).tricks_won.sum(axis=1).tolist()
[13, 13]
"""

from __future__ import annotations

import math

import numpy as np

from spades_ai.capabilities import require_table
from spades_ai.cards import Card
from spades_ai.checks import check_count, check_noise, check_seed
from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, legal_bids
from spades_ai.engine.bits import SUIT_MASK
from spades_ai.engine.state import (P_DECK, P_DECK2, P_DECK3, P_OWN2, P_OWN3, P_PLAYED, P_PLAYED2, P_PLAYED3,
                                    P_PLAYED_BY, P_PLAYED_BY2, P_PLAYED_BY3, legal_now)
from spades_ai.kernels import decision_stream
from spades_ai.models.model import packed_after
from spades_ai.montecarlo.sampling import (constraints_with_copies, count_worlds_float, count_worlds_kernel, counts_fit,
                                           sample_worlds_kernel, seat_groups, table_fits)
from spades_ai.montecarlo.weights import world_weights_kernel
from spades_ai.observation import Observation
from spades_ai.rules import Rules
from spades_ai.seats import seats, table_name

MAX_WORLDS = 10_000_000
#: every bit of a bitboard: the engine's 56 cards (``engine.bits``: 52 and the extra trumps'
#: lane) and the bits above, which no deck holds
ENGINE_BITS = np.arange(64, dtype=np.uint64)


def world_width(rules: Rules) -> int:
    """The columns of a world at ``rules``' table: ``decks * players`` (the module docstring)."""
    return rules.decks * rules.players


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


def _copies(masks) -> np.ndarray:
    """How many copies of each bit the levels ``masks`` hold (``int64[64]``)."""
    total = np.zeros(len(ENGINE_BITS), dtype=np.int64)
    for m in masks:
        total += (np.uint64(int(m)) >> ENGINE_BITS & np.uint64(1)).astype(np.int64)
    return total


def _public_levels(obs: Observation, *slots: int) -> list[int]:
    """The levels of a multiset of ``obs.public`` (its slots, first level first), the table's decks of them."""
    return [int(obs.public[slot]) for slot in slots[: obs.rules.decks]]


def _check_seat(obs: Observation, hands: np.ndarray, seat: int, left: np.ndarray) -> None:
    """Refuse a world whose levels of ``seat`` (in ``hands``, the engine's layout) do not fit
    ``obs``; take its cards out of ``left``, the copies of each card not yet accounted for."""
    rules, n = obs.rules, obs.rules.players
    levels = [int(hands[k * n + seat]) for k in range(rules.decks)]
    if any(upper & ~lower for lower, upper in zip(levels, levels[1:])):
        raise ValueError(f"the world's levels of seat {seat} are not nested: a card held twice must be held once")
    played = _public_levels(obs, P_PLAYED_BY + seat, P_PLAYED_BY2 + seat, P_PLAYED_BY3 + seat)
    expected = rules.cards_each - sum(m.bit_count() for m in played)
    held = sum(m.bit_count() for m in levels)
    if held != expected:
        raise ValueError(f"the world gives seat {seat} {held} cards, not {expected}")
    left -= _copies(levels)
    if (left < 0).any():
        bit = int(np.argmax(left < 0))
        card = rules.engine_card(bit) if bit < len(rules.engine_deck) else f"bit {bit}, no card"
        decks = "decks hold" if rules.decks > 1 else "deck holds"
        raise ValueError(f"the world gives seat {seat} a card that is played or held by another seat "
                         f"({card}: more copies than the {decks})")
    for suit in obs.voids[seat]:
        if levels[0] & int(SUIT_MASK[suit]):
            raise ValueError(f"the world gives seat {seat} a card of a suit it has shown it lacks")


def check_world(obs: Observation, world) -> np.ndarray:
    """``world`` (a row of ``sample_worlds``: ``world_width`` bitboards of card ids, the module
    docstring) as the engine's hidden hands, if it fits ``obs``: the seat's own cards, each
    seat's number of cards, no card more often than the decks hold less the cards played, no
    card of a suit a seat has shown it lacks; else a ``ValueError`` saying which."""
    rules = obs.rules
    hands = np.asarray(world, dtype=np.uint64).reshape(-1).copy()
    if len(hands) != world_width(rules):
        raise ValueError(f"a world at {table_name(rules)} ({rules.decks} deck(s)) has {world_width(rules)} "
                         f"bitboards, decks * players, not {len(hands)}")
    hands = relaid(hands, rules.engine_mask) if rules.extra_trumps else hands  # card ids to the engine's layout
    own = [int(obs.engine_cards), int(obs.public[P_OWN2]), int(obs.public[P_OWN3])][: rules.decks]
    if [int(hands[k * rules.players + obs.seat]) for k in range(rules.decks)] != own:
        raise ValueError(f"the world gives seat {obs.seat} other cards than it holds")
    left = _copies(_public_levels(obs, P_DECK, P_DECK2, P_DECK3))
    left -= _copies(_public_levels(obs, P_PLAYED, P_PLAYED2, P_PLAYED3))
    for seat in seats(rules):
        _check_seat(obs, hands, seat, left)
    return hands


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
    """``n`` deals consistent with ``obs``, as an ``(n, decks * players)`` uint64 array of the
    cards each seat still holds, as card ids: column ``k * players + seat`` the cards ``seat``
    holds at least ``k + 1`` times (the module docstring's worlds; ``(n, players)`` with one
    deck, ``(n, 4)`` at the default table). The seat's own columns are its hand.

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
    play with that noise, or with ``play_model`` a learned model's card network, ``reading``;
    reading the play is refused with several decks, and a learned model off 4 players in
    pairs: ``require_table``). ``worlds`` is ``(n, decks * players)`` (rows of
    ``sample_worlds``, the module docstring), each of which must fit ``obs`` (``check_world``).

    The kernel Crazy weighs with: a seat's hand in a world is the cards it holds there at least
    once (level 1), as in Crazy's own search."""
    obs = check_observation(obs)
    worlds = np.ascontiguousarray(worlds, dtype=np.uint64)
    width = world_width(obs.rules)
    if worlds.ndim != 2 or worlds.shape[1] != width:
        raise ValueError(f"worlds at {table_name(obs.rules)} must be an (n, {width}) array (decks * players "
                         f"columns), not shape {worlds.shape}")
    eps = 0.0
    if play_noise is not None:
        require_table(obs.rules, "play_noise")
        try:
            eps = check_noise(play_noise)  # the check of make_agent's play_noise option
        except ValueError as e:
            raise ValueError(f"play_noise {e}") from None
    elif play_model is not None:
        raise ValueError("play_model weighs the cards played with noise play_noise: give play_noise too")
    if play_model is not None:
        require_table(obs.rules, "play_model")
    if obs.rules.extra_trumps:
        worlds = relaid(worlds, obs.rules.engine_mask)
    model, at = packed_after(np.zeros(1, np.int64), play_model) if play_model is not None else (np.zeros(1, np.int64), 0)
    weights, _ = world_weights_kernel(obs.public, obs.seat, worlds, len(worlds), obs.rules_array, True, eps, model, at)
    return weights


def decision_values(agent, obs: Observation) -> tuple[Card | int, dict]:
    """The action a Monte Carlo agent (Hard, Crazy, or either with another ``rollout=``) takes
    at ``obs``, and the value it gives every legal card or bid: its weighted mean over the
    worlds of the search (points to the seat's side, bags at their cost, ``utility``), the
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
    if not callable(getattr(agent, "decide", None)):  # ``agents.hard.MonteCarloAgent.decide``
        raise TypeError(f"{agent!r} is not a Monte Carlo agent (make_agent('hard' or 'crazy', ...))")
    if obs.blind_decision or obs.phase not in ("bidding", "playing"):
        raise ValueError(f"decision_values takes a bid or a card to choose, not the {obs.phase} phase"
                         + (" (blind nil question)" if obs.blind_decision else ""))
    hand = obs.engine_cards
    if obs.phase == "bidding":
        legal = int(legal_bids(obs.seat, hand, obs.public, obs.rules_array)) & BID_BITS
        out = np.full(BLIND_NIL_BIT, np.nan)
        b = agent.decide(obs, out)  # refuses a table its options or its rollout refuse, as when it plays
        return b, {k: float(out[k]) for k in range(BLIND_NIL_BIT) if legal >> k & 1}
    legal = int(legal_now(obs.public, hand, obs.rules_array))
    out = np.full(56, np.nan)
    c = agent.decide(obs, out)
    deck = obs.rules.engine_deck
    return deck[c], {deck[k]: float(out[k]) for k in range(56) if legal >> k & 1}
