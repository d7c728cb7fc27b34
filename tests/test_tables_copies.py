"""The engine at the tables of several decks (6 to 12 players, cards that repeat) held in lock
step against the slow reference ``naive_tables.py``.

* The state kernels beside the reference on random hands dealt from the physical cards: the
  first leader, the legal cards at every turn (must win on and off), every trick's winner under
  ``equal_cards`` "first" and "last", the cards each seat holds and has played (copies
  counted), and the score sheet per side; the match end with up to twelve sides.
* ``deal`` and ``random_playouts`` card for card against a replica built from the reference's
  deck and legal cards, drawing from the engine's stream (``naive.NaiveStream``).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from naive import NaiveStream
from test_tables import assert_result_agrees, replica_playout  # one-deck helpers: hands are lists, copies and all
from naive_tables import (
    TableRules,
    cards_each,
    deck,
    first_leader,
    naive_table_legal_cards,
    naive_table_score,
    naive_table_trick_winner,
    winning_position,
)

import spades_ai as sa
from spades_ai.engine import state as st
from spades_ai.engine.bids import BID_BITS, legal_bids

#: The tables of several decks, with the options that change the play most.
TABLES = {
    "six pairs": dict(players=6, teams="pairs"),
    "six solo must win": dict(players=6, must_win=True),
    "seven": dict(players=7),
    "eight pairs": dict(players=8, teams="pairs"),
    "eight solo must win": dict(players=8, must_win=True),
    "nine": dict(players=9),
    "ten pairs": dict(players=10, teams="pairs"),
    "eleven must win": dict(players=11, must_win=True),
    "twelve": dict(players=12),
    "twelve pairs must win": dict(players=12, teams="pairs"),
}
HANDS = 80  # random hands per table in the default run (the slow test plays 2,000)
SLOW_HANDS = 2000


def rule_variants(table: dict, rnd: random.Random, n: int = 8) -> list[sa.Rules]:
    """A few rules of the table under random equal cards, scoring and lead options."""
    return [
        sa.Rules(
            **table,
            equal_cards=rnd.choice(["first", "last"]),
            failed_bid=rnd.choice([0, 10, 50]),
            spade_lead=rnd.choice(["broken", "after_first_trick", "anytime"]),
            first_lead=rnd.choice(["dealer_left", "low_club"]),
            nil_tricks_count=rnd.random() < 0.3,
            bag_limit=rnd.choice([5, 10]),
        )
        for _ in range(n)
    ]


def levels(hands: list[list[int]], decks: int) -> np.ndarray:
    """The engine's hidden hands (``hands[k * N + s]``) of hands given as card lists with repeats."""
    n = len(hands)
    out = np.zeros(decks * n, dtype=np.uint64)
    for s, h in enumerate(hands):
        for c, k in Counter(h).items():
            for level in range(k):
                out[level * n + s] |= np.uint64(1 << c)
    return out


def held(hands_levels: np.ndarray, n: int) -> list[Counter]:
    """The cards each seat holds, copies counted, read back from the levels."""
    out = [Counter() for _ in range(n)]
    for i, m in enumerate(hands_levels.tolist()):
        for c in range(56):
            if m >> c & 1:
                out[i % n][c] += 1
    return out


def public_levels(pub: np.ndarray, first: int, others: tuple[int, int]) -> Counter:
    """The multiset held in a mask slot of the public array and its level slots."""
    out: Counter = Counter()
    for slot in (first, *others):
        m = int(pub[slot])
        for c in range(56):
            if m >> c & 1:
                out[c] += 1
    return out


def play_in_lock_step(rules: sa.Rules, rnd: random.Random) -> None:
    """One random hand through the state kernels and the reference side by side."""
    table = TableRules.from_rules(rules)
    n, each, k, arr = rules.players, rules.cards_each, rules.n_sides, rules.as_array()
    cards = deck(n)
    rnd.shuffle(cards)
    dealt = [sorted(cards[s * each : (s + 1) * each]) for s in range(n)]
    hands = levels(dealt, rules.decks)
    assert held(hands, n) == [Counter(h) for h in dealt]
    dealer = rnd.randrange(n)
    scores = np.array([rnd.randint(-190, 490) for _ in range(k)], dtype=np.int64)
    bags = np.array([rnd.randrange(rules.bag_limit) for _ in range(k)], dtype=np.int64)
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    st.reset_public(pub, hands, dealer, scores, bags, 0, arr)
    for _ in range(n):
        seat = int(pub[st.P_TO_ACT])
        mask = int(legal_bids(seat, hands[seat], pub, arr)) & int(BID_BITS)
        legal = [b for b in range(each + 1) if mask >> b & 1]
        assert legal and max(legal) <= each
        st.apply_bid(pub, hands, rnd.choice(legal[: rnd.choice([3, 6, len(legal)])]), False, arr)
    leader = first_leader(dealt, dealer, table)
    assert pub[st.P_TO_ACT] == leader
    left = [list(h) for h in dealt]
    broken, won = False, [0] * n
    for trick_no in range(each):
        trick: list[tuple[int, int]] = []
        for pos in range(n):
            seat = (leader + pos) % n
            assert pub[st.P_TO_ACT] == seat
            legal = naive_table_legal_cards(left[seat], [c for _, c in trick], broken, trick_no, table)
            got = int(st.legal_now(pub, hands[seat], arr))
            assert [c for c in range(56) if got >> c & 1] == legal, (trick_no, trick, left[seat], rules)
            card = rnd.choice(legal)
            winner = st.apply_card(pub, hands, card, arr)
            left[seat].remove(card)
            trick.append((seat, card))
            if pos < n - 1:
                best = winning_position([c for _, c in trick], table)
                assert (pub[st.P_WIN_SEAT], pub[st.P_WIN_CARD]) == trick[best], (trick, rules.equal_cards)
        leader = naive_table_trick_winner(trick, table)
        assert winner == leader, (trick, rules.equal_cards)
        won[leader] += 1
        broken = broken or any(c // 13 == 3 for _, c in trick)
        assert held(hands, n) == [Counter(h) for h in left]
        played = Counter(c for s in range(n) for c in dealt[s]) - Counter(c for h in left for c in h)
        assert public_levels(pub, st.P_PLAYED, (st.P_PLAYED2, st.P_PLAYED3)) == played
    for s in range(n):
        by = public_levels(pub, st.P_PLAYED_BY + s, (st.P_PLAYED_BY2 + s, st.P_PLAYED_BY3 + s))
        assert by == Counter(dealt[s])
    assert pub[st.P_PHASE] == st.PHASE_OVER
    bids = [int(b) for b in pub[st.P_BIDS : st.P_BIDS + n]]
    result = sa.score_hand(bids, won, rules, scores=scores.tolist(), bag_count=bags.tolist())
    want = naive_table_score(bids, [False] * n, won, scores.tolist(), bags.tolist(), table)
    assert_result_agrees(result, want, rules, table, rnd)


@pytest.mark.parametrize("name", TABLES)
def test_hands_agree_with_the_reference(name):
    rnd = random.Random(f"copies {name}")
    variants = rule_variants(TABLES[name], rnd)
    for i in range(HANDS):
        play_in_lock_step(variants[i % len(variants)], rnd)


@pytest.mark.slow
@pytest.mark.parametrize("name", TABLES)
def test_many_hands_agree_with_the_reference(name):
    rnd = random.Random(f"many copies {name}")
    variants = rule_variants(TABLES[name], rnd, 24)
    for i in range(SLOW_HANDS):
        play_in_lock_step(variants[i % len(variants)], rnd)


@pytest.mark.parametrize("equal_cards", ["first", "last"])
def test_two_identical_cards_on_one_trick_follow_equal_cards(equal_cards):
    """Two aces of spades on one trick at eight players: the first stays ahead under "first",
    the later one wins under "last"; and under must win the second ace must be played only
    where it would win."""
    rules = sa.Rules(players=8, equal_cards=equal_cards, must_win=True, spade_lead="anytime")
    arr, n = rules.as_array(), 8
    deck_cards = Counter(deck(n))
    rest = list((deck_cards - Counter({51: 2, 50: 1})).elements())
    random.Random(1).shuffle(rest)
    hands_list = [[51], [], [51], [50]] + [[] for _ in range(4)]
    for s in range(n):
        while len(hands_list[s]) < 13:
            hands_list[s].append(rest.pop())
    hands = levels([sorted(h) for h in hands_list], 2)
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    st.reset_public(pub, hands, n - 1, np.zeros(n, np.int64), np.zeros(n, np.int64), 0, arr)
    for _ in range(n):
        st.apply_bid(pub, hands, 1, False, arr)
    st.apply_card(pub, hands, 51, arr)  # seat 0 leads the ace of spades
    seat1 = int(st.legal_now(pub, hands[1], arr))
    st.apply_card(pub, hands, [c for c in range(56) if seat1 >> c & 1][0], arr)
    legal = int(st.legal_now(pub, hands[2], arr))
    if equal_cards == "last":
        assert legal == 1 << 51  # must win: the second ace beats the first, so it must be played
    else:
        assert legal >> 51 & 1  # it follows suit, but would not win: must win does not force it
    st.apply_card(pub, hands, 51, arr)
    assert pub[st.P_WIN_SEAT] == (2 if equal_cards == "last" else 0)


# -- deals and random playouts, card for card ------------------------------------------------


def replica_deal(stream: NaiveStream, n: int) -> list[list[int]]:
    """The engine's deal at ``n`` seats with copies: the physical cards listed (the distinct
    cards in id order, then the second copies, then the third), the first ``(n - 1) *
    cards_each`` places shuffled in (place j takes the card at j + r, r below the cards left),
    seat s takes its ``cards_each`` places, the last seat the rest."""
    copies = Counter(deck(n))
    cards = [c for level in (1, 2, 3) for c in sorted(copies) if copies[c] >= level]
    each = cards_each(n)
    for j in range((n - 1) * each):
        k = j + stream.below(len(cards) - j)
        cards[j], cards[k] = cards[k], cards[j]
    return [sorted(cards[s * each : (s + 1) * each]) for s in range(n - 1)] + [sorted(cards[(n - 1) * each :])]


@pytest.mark.parametrize("name", ["six pairs", "eight solo must win", "eleven must win", "twelve"])
def test_deals_and_random_playouts_match_the_replica(name):
    for k, (first_lead, equal_cards) in enumerate([("dealer_left", "first"), ("low_club", "last")]):
        rules = sa.Rules(**TABLES[name], first_lead=first_lead, equal_cards=equal_cards, spade_lead="after_first_trick")
        table = TableRules.from_rules(rules)
        n, seed, dealer = rules.players, 11 + k, k % rules.players
        got = sa.random_playouts(60, seed=seed, rules=rules, dealer=dealer)
        assert got.shape == (60, n)
        for i in range(60):
            stream = NaiveStream(seed, i, 0)
            hands = replica_deal(stream, n)
            assert got[i].tolist() == replica_playout(hands, dealer, stream, table), (i, name, first_lead)
