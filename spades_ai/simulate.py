"""Deals and random playouts: validated wrappers around the engine's batch kernels."""

from __future__ import annotations

import numpy as np

from spades_ai.cards import CardSet
from spades_ai.checks import check_count, check_dealer, check_seed
from spades_ai.engine.deal import deal_batch, deal_match_hand, match_first_dealer
from spades_ai.engine.play import random_playouts_batch, random_playouts_copies_batch
from spades_ai.rules import Rules



def _rules(rules) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a spades_ai.Rules, not {type(rules).__name__}")
    return rules


def deal_masks(seed: int, start: int, n: int, rules: Rules | None = None) -> np.ndarray:
    """Deals ``start .. start+n-1`` of ``seed`` as an ``(n, players)`` uint64 array of
    bitboards (card ids) of the table of ``rules`` (four seats of 13 by default); with several
    decks ``(n, decks * players)``, the seats' levels (``engine.copies``: column
    ``k * players + s`` holds the cards seat s has at least k + 1 times)."""
    seed, start, n = check_seed(seed), check_count(start, "start"), check_count(n)
    return deal_batch(np.uint64(seed), start, n, _rules(rules).as_array())


def match_deal(seed: int, match_no: int, hand_no: int, rules: Rules) -> list[int]:
    """The seats' bitboards (card ids, jokers and high deuces too) of hand ``hand_no`` of
    match ``match_no`` of ``seed``: the cards ``play_matches``, ``VectorEnv(episode="match")``,
    the tables and the adapters deal there. With several decks, one ``CardSet`` a seat, its
    copies included (a bitboard cannot hold them)."""
    cards = np.empty(rules.decks * rules.players, np.uint64)
    deal_match_hand(np.uint64(seed), match_no, hand_no, cards, rules.as_array())
    if rules.decks > 1:
        return list(_cardsets(cards, rules))
    return [rules.public_mask(int(c)) for c in cards]


def first_dealer(seed: int, match_no: int, rules: Rules | None = None) -> int:
    """The dealer of the first hand of match ``match_no`` of ``seed`` (as ``play_matches``)."""
    return int(match_first_dealer(np.uint64(seed), match_no, _rules(rules).as_array()))


def deal(seed: int, index: int = 0, rules: Rules | None = None) -> tuple[CardSet, ...]:
    """Every seat's cards of deal ``index`` of ``seed``; same key, same deal. Four seats of 13
    by default; the table of ``rules`` otherwise (three seats of 17, without the 2D, ...).

    >>> hands = deal(7, 3); [len(h) for h in hands]
    [13, 13, 13, 13]
    >>> [len(h) for h in deal(7, 3, Rules(players=5))]
    [10, 10, 10, 10, 10]
    >>> [len(h) for h in deal(7, 3, Rules(players=8))]  # two decks: a hand may hold a card twice
    [13, 13, 13, 13, 13, 13, 13, 13]
    """
    return _cardsets(deal_masks(seed, index, 1, rules)[0], _rules(rules))


def _cardsets(row: np.ndarray, rules: Rules) -> tuple[CardSet, ...]:
    """Every seat's ``CardSet`` (copies included) of a row of hands in card ids."""
    n = rules.players
    return tuple(CardSet.from_levels(*(int(row[k * n + s]) for k in range(rules.decks))) for s in range(n))


def random_playouts(n: int, seed: int = 0, *, rules: Rules | None = None, dealer: int = 0) -> np.ndarray:
    """Tricks per seat, ``(n, players)`` int64, of deals ``0 .. n-1`` of ``seed`` played at
    random.

    Every card is drawn uniformly from the legal cards, must win included (no bidding);
    ``rules`` supplies the table, the spade-lead and first-lead options and the jokers and
    high deuces. The engine's speed baseline.

    >>> random_playouts(3, seed=1).sum(axis=1).tolist()
    [13, 13, 13]
    >>> random_playouts(2, seed=1, rules=Rules(players=3)).sum(axis=1).tolist()
    [17, 17]
    """
    rules = _rules(rules)
    n, seed, dealer = check_count(n), check_seed(seed), check_dealer(dealer, rules)
    batch = random_playouts_batch if rules.decks == 1 else random_playouts_copies_batch
    return batch(np.uint64(seed), 0, n, dealer, rules.as_array())
