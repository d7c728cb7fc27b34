"""Multisets of cards as levels (``engine.copies``) against ``collections.Counter``."""

from collections import Counter
from itertools import product

import numpy as np
from numba import njit

from spades_ai.engine.bits import ONE, U64, ZERO
from spades_ai.engine.copies import MAX_COPIES, add_one, copies_of, levels_diff, levels_sum, size_of, take_from, take_held, take_one

B = ONE << U64(51)  # the ace of spades


def levels(count):
    """The levels of ``count`` copies of ``B``."""
    return tuple(B if count > k else ZERO for k in range(MAX_COPIES))


def test_sum_and_difference_agree_with_counter_for_every_pair_of_counts():
    for a, b in product(range(MAX_COPIES + 1), repeat=2):
        if a + b <= MAX_COPIES:
            got = levels_sum(*levels(a), *levels(b))
            assert copies_of(B, *got) == (Counter({51: a}) + Counter({51: b}))[51]
            assert got == levels(a + b)
        if b <= a:
            got = levels_diff(*levels(a), *levels(b))
            assert got == levels(a - b), (a, b)


def test_taking_and_adding_one_copy_keep_the_levels_nested():
    rng = np.random.default_rng(3)
    for _ in range(200):
        counts = Counter({int(c): int(k) for c, k in zip(rng.choice(56, 12, replace=False), rng.integers(0, 4, 12))})
        l = (ZERO, ZERO, ZERO)
        for c, k in counts.items():
            for _ in range(k):
                l = add_one(ONE << U64(c), *l)
        assert l[1] & ~l[0] == 0 and l[2] & ~l[1] == 0
        assert size_of(*l) == sum(counts.values())
        for c, k in counts.items():
            assert copies_of(ONE << U64(c), *l) == k
            if k:
                t = take_one(ONE << U64(c), *l)
                assert copies_of(ONE << U64(c), *t) == k - 1 and size_of(*t) == size_of(*l) - 1


@njit
def _taken(hands, seat, n, b, decks, held):
    """``hands`` after ``take_held`` (``held``) or ``take_from`` from a kernel: both are inlined."""
    if held:
        take_held(hands, seat, n, b, decks)
    else:
        take_from(hands, seat, n, b, decks)
    return hands


def test_take_held_and_take_from_remove_the_same_copy_at_every_count_and_deck():
    n, seat = 3, 1
    for decks in (1, 2, 3):
        for count in range(1, decks + 1):
            hands = np.zeros(decks * n, np.uint64)
            for k, level in enumerate(levels(count)[:decks]):
                hands[k * n + seat] = level
            want = [int(hands[k * n + seat]) for k in range(decks)]
            want[count - 1] = 0  # the copy leaves the highest level holding it
            for held in (True, False):
                got = _taken(hands.copy(), seat, n, B, decks, held)
                assert [int(got[k * n + seat]) for k in range(decks)] == want, (decks, count, held)
