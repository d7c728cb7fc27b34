"""The exact solver at every table but four in pairs (``spades_ai.solver`` over
``engine.table_solver``): the side of the seat to act against all the other seats, every card
visible, checked against the brute-force paranoid minimax of ``naive_tables`` on random small
endgames at 3, 4 solo, 5, 6 and 8 seats, in pairs and solo, with copies of cards (two decks) at
6 and 8 seats, must win and both ``equal_cards`` readings. Four in pairs is ``test_solver.py``.
"""

from __future__ import annotations

import random
import numpy as np
import pytest
from naive_tables import TableRules, deck, naive_table_legal_cards, naive_table_minimax, naive_table_trick_winner

import spades_ai as sa
from spades_ai.seats import seat_order, side_of, side_seats
from spades_ai.solver import card_values, double_dummy, tricks_leaf

#: name -> (rules, cards a hand, endgames): small enough for the brute force in Python.
TABLES = {
    "3 solo": (sa.Rules(players=3), 4, 40),
    "3 must win": (sa.Rules(players=3, must_win=True), 4, 30),
    "4 solo": (sa.Rules(players=4, teams="solo"), 4, 30),
    "5 solo": (sa.Rules(players=5), 3, 30),
    "6 solo, copies": (sa.Rules(players=6), 3, 30),
    "6 pairs, copies, last": (sa.Rules(players=6, teams="pairs", equal_cards="last"), 3, 30),
    "6 must win, copies, last": (sa.Rules(players=6, must_win=True, equal_cards="last"), 2, 30),
    "8 pairs, copies": (sa.Rules(players=8, teams="pairs"), 2, 25),
    "8 solo, copies, last": (sa.Rules(players=8, equal_cards="last"), 2, 25),
}


def endgame(rules, n: int, rnd: random.Random, crowded: bool, trick_len: int | None = None):
    """A random position with ``n`` tricks left: hands (id lists with repeats), the leader, the
    trick so far (``(seat, card)`` pairs, legal under the reference), spades broken, tricks won.
    ``crowded`` deals from a few suits' top cards, so that copies meet on tricks."""
    ref = TableRules.from_rules(rules)
    cards = deck(rules.players)
    if crowded:
        gone = rnd.choice((0, 1, 2))
        cards = [c for c in cards if c % 13 >= 7 and c // 13 != gone]
    rnd.shuffle(cards)
    hands = [sorted(cards[s * n:(s + 1) * n]) for s in range(rules.players)]
    leader = rnd.randrange(rules.players)
    broken = rnd.random() < 0.6
    trick_no = rules.cards_each - n
    trick = []
    k = rnd.randrange(rules.players) if trick_len is None else trick_len
    for seat in seat_order(leader, rules)[:k]:
        card = rnd.choice(naive_table_legal_cards(hands[seat], [c for _, c in trick], broken, trick_no, ref))
        hands[seat].remove(card)
        trick.append((seat, card))
    won = [0] * rules.players
    for _ in range(trick_no):
        won[rnd.randrange(rules.players)] += 1
    return hands, leader, trick, broken, won


def leaf_of(seed: int):
    """A made-up objective of the final tricks of every seat, integer valued."""
    return lambda *won: float(sum((s + seed) * w * (w + 1) for s, w in enumerate(won)) % 17 - 8)


def _cards(hand) -> str:
    return " ".join(str(sa.Card(c)) for c in hand)


@pytest.mark.parametrize("name", TABLES)
def test_card_values_match_brute_force(name):
    rules, n, count = TABLES[name]
    rnd = random.Random(name)
    ref = TableRules.from_rules(rules)
    for i in range(count):
        hands, leader, trick, broken, won = endgame(rules, n, rnd, crowded=i % 2 == 1)
        trick_seat = seat_order(leader, rules)[len(trick)]
        side = rnd.randrange(rules.n_sides)
        leaf = leaf_of(i)
        got = card_values([_cards(h) for h in hands], leader, leaf, side, tricks_won=won,
                          trick=[sa.Card(c) for _, c in trick], rules=rules, spades_broken=broken)
        trick_no = rules.cards_each - len(hands[trick_seat])
        legal = naive_table_legal_cards(hands[trick_seat], [c for _, c in trick], broken, trick_no, ref)
        assert sorted(int(c) for c in got) == legal, (name, i)
        for card in legal:
            want = _naive_value(hands, leader, trick, card, broken, won, rules, leaf, side)
            assert got[sa.Card(card)] == want, (name, i, sa.Card(card))


def _naive_value(hands, leader, trick, card, broken, won, rules, leaf, side):
    ref = TableRules.from_rules(rules)
    seat = seat_order(leader, rules)[len(trick)]
    trick_no = rules.cards_each - len(hands[seat])
    after = [list(h) for h in hands]
    after[seat].remove(card)
    played = trick + [(seat, card)]
    if len(played) < rules.players:
        return naive_table_minimax(after, leader, played, broken, trick_no, won, ref, lambda w: leaf(*w), side)
    winner = naive_table_trick_winner(played, ref)
    won = [w + (s == winner) for s, w in enumerate(won)]
    broken = broken or any(c // 13 == 3 for _, c in played)
    if not any(after):
        return leaf(*won)
    return naive_table_minimax(after, winner, [], broken, trick_no + 1, won, ref, lambda w: leaf(*w), side)


@pytest.mark.parametrize("name", TABLES)
def test_double_dummy_matches_brute_force(name):
    """The tricks the leader's side takes against all the others, and the best of the leader's
    card values on the leaf of those tricks."""
    rules, n, count = TABLES[name]
    rnd = random.Random("dd " + name)
    ref = TableRules.from_rules(rules)
    for i in range(count):
        hands, leader, _, broken, won = endgame(rules, n, rnd, crowded=i % 2 == 1, trick_len=0)
        side = side_of(leader, rules)
        want = naive_table_minimax(hands, leader, [], broken, rules.cards_each - n, [0] * rules.players, ref,
                                   lambda w: sum(w[s] for s in side_seats(side, rules)), side)
        texts = [_cards(h) for h in hands]
        assert double_dummy(texts, leader, rules, spades_broken=broken) == want, (name, i)
        values = card_values(texts, leader, tricks_leaf(side, rules), side, tricks_won=won, rules=rules,
                             spades_broken=broken)
        assert max(values.values()) == want + sum(won[s] for s in side_seats(side, rules)), (name, i)


THREE, SIX = sa.Rules(players=3), sa.Rules(players=6, teams="pairs")
SIX_HANDS = ["AS 3H", "AS 4H", "KS 5H", "QS 6H", "2H 7H", "JS 8H"]


@pytest.mark.parametrize("call, message", [
    (lambda: double_dummy(["AS", "KS"], 0, THREE), "a deal has 3 hands, not 2"),
    (lambda: double_dummy(["AS KS", "QS", "2H"], 0, THREE), r"the 3 hands must be of equal size, not \[2, 1, 1\]"),
    (lambda: double_dummy(["AS", "KS", "QS"], 3, THREE), "leader must be a seat 0..2, not 3"),
    (lambda: double_dummy(["AS AS AS", "KS KS 2H", "QS QS 3H", "4H 5H 6H", "7H 8H 9H", "TH JH QH"], 0, SIX),
     "card AS appears 3 times, and a table of 6 players has it twice"),
    (lambda: double_dummy(["2D", "KS", "QS"], 0, THREE), "which a table of 3 removes from the deck"),
    (lambda: card_values(SIX_HANDS, 0, tricks_leaf(0, SIX), 3, tricks_won=[2] * 6, rules=SIX),
     "team must be a side 0..2 of 6 players in pairs, not 3"),
    (lambda: card_values(SIX_HANDS, 0, tricks_leaf(0, SIX), 0, tricks_won=[3] * 4, rules=SIX),
     "tricks_won must be 6 counts >= 0"),
    (lambda: card_values(SIX_HANDS, 0, tricks_leaf(0, SIX), 0, tricks_won=[3] * 6, rules=SIX),
     r"tricks_won \[3, 3, 3, 3, 3, 3\] sum to 18, but 15 trick\(s\) have been played"),
    (lambda: card_values(["AS", "4H", "KS 5H", "QS 6H", "2H", "JS"], 4, tricks_leaf(0, SIX), 0, tricks_won=[3] * 5 + [0],
                         trick=["7H", "8H", "3H", "AS"], rules=SIX, spades_broken=True),
     r"seat 1 could not play AS to the trick: its legal cards were 4H"),
    (lambda: card_values(SIX_HANDS, 0, np.zeros((18, 18)), 0, tricks_won=[3, 3, 3, 2, 2, 2], rules=SIX,
                         spades_broken=True), r"leaf must be a function of the 6 seats' tricks or an array of shape"),
    (lambda: card_values(SIX_HANDS, 0, lambda *w: float("nan"), 0, tricks_won=[3, 3, 3, 2, 2, 2], rules=SIX,
                         spades_broken=True), r"every reachable entry must be finite"),
])  # fmt: skip
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_leaf_array_equals_the_same_leaf_as_a_function():
    rules = sa.Rules(players=3)
    hands, won = ["AS 3H", "KS 4H", "QS 5H"], [5, 5, 5]
    leaf = leaf_of(3)
    table = np.zeros((18, 18, 18))
    for t in np.ndindex(*table.shape):
        table[t] = leaf(*t)
    assert card_values(hands, 1, table, 2, tricks_won=won, rules=rules) == card_values(hands, 1, leaf, 2, tricks_won=won,
                                                                                       rules=rules)
