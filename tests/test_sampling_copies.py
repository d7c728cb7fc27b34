"""World sampling with cards that repeat (issue 35, item 3): 6 to 12 players, two and three decks.

With copies a world is a multiset deal, weighted by the physical deals that give it
(``naive_tables.naive_worlds``; ``docs/design/tables.md``, section 5). The sampler counts the
unseen cards physically and draws physical cards, then stores them as copy levels
(``hands[k * N + seat]``). Checked here: the counting table against the weighted enumeration
(seat by seat, and with exchangeable seats merged into groups), the draws by chi-square against
the weights, ``constraints_with_copies`` read from public arrays written by hand (the engine
does not play these tables yet), and that no world breaks a void, a card count or the multiset
of unseen cards. One deck is ``test_sampling.py``'s and ``test_sampling_tables.py``'s.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from scipy import stats
from test_sampling_tables import bounds, exact_worlds  # the one-deck positions' helpers, copies and all

from spades_ai import Rules
from spades_ai.engine import state as st
from spades_ai.engine.rng import stream_state
from spades_ai.montecarlo.sampling import (
    Hidden,
    _draw_worlds,
    constraints_with_copies,
    count_worlds_float,
    count_worlds_kernel,
    sample_world,
    sample_worlds_kernel,
    seat_groups,
    table_fits,
    world_constraints,
)
from spades_ai.rules import R_DECK, R_DECK2, R_DECK3

U64 = np.uint64
ALPHA = 1e-4
SPADES = 3


def levels(cards, decks: int) -> np.ndarray:
    """The copy levels (``uint64[decks]``) of a multiset of card ids."""
    count = Counter(cards)
    return np.array([sum(1 << c for c, k in count.items() if k > lv) for lv in range(decks)], dtype=np.uint64)


def cards_of(levels_) -> tuple:
    """The sorted card ids, with repeats, of the copy levels ``levels_``."""
    return tuple(sorted(c for lv in levels_ for c in range(52) if int(lv) >> c & 1))


def world_of(row, others, n: int) -> tuple:
    """The hidden seats' hands of a world row (``decks * n`` levels), as ``naive_worlds`` keys."""
    decks = len(row) // n
    return tuple(cards_of(row[[k * n + o for k in range(decks)]]) for o in others)


def chi_square(exact: dict, sample: list) -> float:
    """p-value of the sample's frequency of each world against the exact weights."""
    index = {w: i for i, w in enumerate(exact)}
    counts = np.zeros(len(exact))
    for w in sample:
        counts[index[w]] += 1  # a KeyError would be a world that breaks a constraint
    weights = np.array(list(exact.values()), dtype=float)
    return stats.chisquare(counts, weights / weights.sum() * len(sample)).pvalue


def grouped_count(unseen, need, lo, hi) -> int:
    """Deals counted on the group table, times the ways to split each group among its seats."""
    group, gneed, glo, ghi = seat_groups(need, lo, hi, True)
    total = int(count_worlds_kernel(unseen, gneed, glo, ghi)[0, -1])
    for g, size in enumerate(gneed.tolist()):
        total *= math.factorial(size) // math.prod(math.factorial(n) for n in need[group == g].tolist())
    return total


def random_position(rng: random.Random, hidden: int, decks: int, n_cards: int):
    """Unseen cards with copies (a few ids, each up to ``decks`` times), the hidden seats' sizes,
    voids and revealed spade counts."""
    suits = rng.sample(range(4), rng.randint(2, 4))
    ids = rng.sample([c for c in range(52) if c // 13 in suits], rng.randint(-(-n_cards // decks), n_cards))
    cards = []
    while len(cards) < n_cards:
        c = rng.choice(ids)
        if cards.count(c) < decks:
            cards.append(c)
    sizes = [0] * hidden
    for _ in cards:
        sizes[rng.randrange(hidden)] += 1
    voids = [{s for s in range(4) if rng.random() < 0.25} for _ in range(hidden)]
    n_spades = sum(c // 13 == SPADES for c in cards)
    spades = [rng.randint(0, min(n_spades, sizes[k])) if rng.random() < 0.2 else None for k in range(hidden)]
    return cards, sizes, voids, spades


# -- counting physical deals ----------------------------------------------------------------------
@pytest.mark.parametrize("hidden, decks", [(5, 2), (7, 2), (11, 3)])
def test_counts_equal_the_weighted_enumeration(hidden, decks):
    """6, 8 and 12 players: the table's total, seat by seat, with groups and in float64, is the
    number of physical deals ``naive_worlds`` weighs the worlds with."""
    rng = random.Random(300 + hidden)
    seen = {"positive": 0, "zero": 0, "copies": 0, "merged": 0}
    for _ in range(60):
        cards, sizes, voids, spades = random_position(rng, hidden, decks, rng.randint(3, 7))
        expected = sum(exact_worlds(cards, sizes, voids, spades).values())
        unseen, need = levels(cards, decks), np.array(sizes, dtype=np.int64)
        lo, hi = bounds(voids, spades)
        assert count_worlds_kernel(unseen, need, lo, hi)[0, -1] == expected, (cards, sizes, voids, spades)
        assert count_worlds_float(unseen, need, lo, hi)[0, -1] == expected
        assert grouped_count(unseen, need, lo, hi) == expected
        seen["positive" if expected else "zero"] += 1
        seen["copies"] += bool(expected) and max(Counter(cards).values()) > 1
        seen["merged"] += bool(expected) and len(set(seat_groups(need, lo, hi, True)[0].tolist())) < hidden
    assert seen["positive"] >= 25 and seen["zero"] >= 5 and seen["copies"] >= 20 and seen["merged"] >= 20


def test_a_suit_of_three_decks_among_many_seats_counts_past_int64_in_float():
    """39 spades of three decks among five seats: a split of one suit passes int64 (about
    1.5e24 ways), so its ways are counted in the table's float (once they wrapped negative, and
    drawing a world at 12 players in pairs never ended); drawing from it ends."""
    spades = [c for c in deck_of(Rules(players=12)) if c // 13 == SPADES]
    unseen = levels(spades, 3)
    need = np.array([8, 8, 8, 8, 7], dtype=np.int64)
    lo, hi = bounds([set()] * 5, [None] * 5)
    expected = math.factorial(39) // (math.factorial(8) ** 4 * math.factorial(7))
    f = count_worlds_float(unseen, need, lo, hi)
    assert f[0, -1] == pytest.approx(expected, rel=1e-12)
    hands = np.zeros(3 * 5, dtype=U64)
    sample_world(U64(stream_state(U64(7), 0, 1)), f, unseen, np.arange(5), need, lo, hi, hands)
    assert [sum(int(hands[k * 5 + o]).bit_count() for k in range(3)) for o in range(5)] == need.tolist()


def test_the_weights_count_the_copies():
    """Two aces and two kings of spades between two seats of two cards: three worlds, the split
    one from four of the six physical deals (tables.md, section 5)."""
    unseen = levels([51, 51, 50, 50], 2)
    need = np.array([2, 2], dtype=np.int64)
    lo, hi = bounds([set(), set()], [None, None])
    assert count_worlds_kernel(unseen, need, lo, hi)[0, -1] == 6
    hands = np.zeros(2 * 3, dtype=np.uint64)  # seat 0 looks on; seats 1 and 2 hidden
    state, split = U64(stream_state(U64(4), 0, 1)), 0
    others = np.array([1, 2], dtype=np.int64)
    f = count_worlds_kernel(unseen, need, lo, hi)
    for _ in range(6000):
        state = U64(sample_world(state, f, unseen, others, need, lo, hi, hands))
        split += world_of(hands, [1, 2], 3) == ((50, 51), (50, 51))
    assert stats.binomtest(split, 6000, 4 / 6).pvalue > ALPHA


# -- drawing: each world with its weight ----------------------------------------------------------
CASES = {
    # name: (decks, unseen cards with repeats, sizes, voids, revealed spade counts)
    "six_players": (2, [51, 51, 50, 38, 38, 25, 12, 12], [2, 2, 2, 1, 1], [set(), {2}, set(), {0}, set()],
                    [None] * 5),
    "eight_players": (2, [51, 51, 49, 38, 37, 37, 12, 12], [2, 2, 1, 1, 1, 1, 0],
                      [{0}, set(), {0, 2}, set(), {3}, set(), set()], [None] * 7),
    "eight_players_count": (2, [51, 51, 49, 38, 38, 12, 11], [2, 1, 0, 1, 2, 1, 0], [set(), {3}, set(), set(),
                            set(), {2}, set()], [None, None, None, None, 1, None, None]),
    "twelve_players": (3, [51, 51, 51, 38, 38, 12, 25, 25], [2, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0],
                       [set(), {3}, set(), {0}, set(), set(), {3}, set(), set(), {2}, set()], [None] * 11),
}


def draw(case, n: int, seed: int, merge: bool) -> list[tuple]:
    """``n`` worlds drawn as ``sample_worlds_kernel`` draws them, the seats counted one by one or
    merged into groups; seat 0 looks on."""
    decks, cards, sizes, voids, spades = case
    unseen, need = levels(cards, decks), np.array(sizes, dtype=np.int64)
    lo, hi = bounds(voids, spades)
    groups = seat_groups(need, lo, hi, merge)
    f = count_worlds_kernel(unseen, groups.need, groups.lo, groups.hi)
    k = len(sizes)
    worlds = np.empty((n, decks * (k + 1)), dtype=np.uint64)
    others = np.arange(1, k + 1, dtype=np.int64)
    hidden = Hidden(unseen, others, need, lo, hi, np.zeros(k + 1, dtype=np.uint64))
    _draw_worlds(U64(stream_state(U64(seed), 2, 5)), f, hidden, groups, 0, np.zeros(decks, dtype=np.uint64), worlds)
    return [world_of(row, others, k + 1) for row in worlds]


@pytest.mark.parametrize("merge", [False, True], ids=["seats", "groups"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_draws_follow_the_weights_of_the_physical_deals(name, merge):
    decks, cards, sizes, voids, spades = CASES[name]
    exact = exact_worlds(cards, sizes, voids, spades)
    assert 20 <= len(exact) <= 700 and len(set(exact.values())) > 1  # copies: unequal weights
    if merge:  # the groups must differ from the seats for the test to say anything
        group = seat_groups(np.array(sizes, dtype=np.int64), *bounds(voids, spades), True)[0]
        assert len(set(group.tolist())) < len(sizes)
    sample = draw(CASES[name], 30 * len(exact), seed=len(name) + merge, merge=merge)
    assert chi_square(exact, sample) > ALPHA


def test_the_same_chi_square_rejects_drawing_the_worlds_uniformly():
    """A sampler that draws "a multiset deal, uniformly" (every world once) is wrong with copies,
    and the test above tells: the exact worlds drawn with equal probability fail it."""
    decks, cards, sizes, voids, spades = CASES["six_players"]
    exact = exact_worlds(cards, sizes, voids, spades)
    rng = random.Random(1)
    uniform = rng.choices(list(exact), k=30 * len(exact))
    assert chi_square(exact, uniform) < ALPHA


# -- from a public array: constraints_with_copies and sample_worlds_kernel -------------------------
def deck_of(rules) -> list[int]:
    """The table's deck, one id per physical card."""
    a = rules.as_array()
    return [c for c in range(52) for slot in (R_DECK, R_DECK2, R_DECK3) if int(a[slot]) >> c & 1]


def public(rules, played_by, voids=(), bids=None, own=()):
    """A public array (the view of the seat holding ``own``) written by hand: the cards played
    by seat (ids with repeats), voids ``(seat, suit)``, bids by seat, the viewer's copies."""
    a = rules.as_array()
    decks = rules.decks
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    for s in range(rules.players):
        pub[st.P_BIDS + s] = -1 if bids is None or bids[s] is None else bids[s]
    everything = []
    for s, cards in played_by.items():
        for slot, lv in zip((st.P_PLAYED_BY, st.P_PLAYED_BY2, st.P_PLAYED_BY3), levels(cards, decks)):
            pub[slot + s] = np.int64(lv)
        everything += cards
    for slot, lv in zip((st.P_PLAYED, st.P_PLAYED2, st.P_PLAYED3), levels(everything, decks)):
        pub[slot] = np.int64(lv)
    pub[st.P_DECK], pub[st.P_DECK2], pub[st.P_DECK3] = a[R_DECK], a[R_DECK2], a[R_DECK3]
    for s, suit in voids:
        pub[st.P_VOIDS] |= 1 << (4 * s + suit)
    for slot, lv in zip((st.P_OWN2, st.P_OWN3), levels(own, decks)[1:]):
        pub[slot] = np.int64(lv)
    return pub, a


def endgame(players: int, hands, voids=(), seed: int = 0, bidding: str = "classic"):
    """A position written by hand: ``hands[s]`` the cards seat ``s`` still holds (seat 0 looks
    on), the rest of the deck shuffled out as the cards each seat played (``cards_each`` in all),
    ``voids`` as ``(seat, suit)``; with mirror bidding every bid is the bidder's spades.
    Returns ``(rules, pub, rules_array)``."""
    rules = Rules(players=players, bidding=bidding)
    rest = Counter(deck_of(rules))
    rest.subtract(Counter(c for h in hands for c in h))
    assert min(rest.values()) >= 0, "more copies in the hands than in the deck"
    rest = list(rest.elements())
    random.Random(seed).shuffle(rest)
    played, i = {}, 0
    for s in range(players):
        k = rules.cards_each - len(hands[s])
        played[s], i = rest[i:i + k], i + k
    assert i == len(rest)
    bids = [sum(c // 13 == SPADES for c in hands[s] + played[s]) for s in range(players)] if bidding == "mirror" else None
    pub, a = public(rules, played, voids, bids, own=hands[0])
    return rules, pub, a


def dealt(players: int, held, seed: int, void_p: float = 0.5):
    """``endgame`` of a random deal in which seat ``s`` still holds ``held[s]`` cards and shows
    each suit it lacks void with probability ``void_p``; returns ``(rules, hands, pub, a)``."""
    rng = random.Random(seed)
    deck = deck_of(Rules(players=players))
    rng.shuffle(deck)
    hands, i = [], 0
    for s in range(players):
        hands.append(sorted(deck[i:i + held[s]]))
        i += held[s]
    voids = [(s, suit) for s in range(1, players) for suit in range(4)
             if all(c // 13 != suit for c in hands[s]) and rng.random() < void_p]
    rules, pub, a = endgame(players, hands, voids, seed)
    return rules, hands, pub, a


def test_constraints_with_copies_read_the_public_array():
    """Eight players, two decks: unseen = deck - played - own with copies counted, each hidden
    seat's need its cards left (copies counted), voids as hi = 0; ``world_constraints`` keeps the
    one-deck face (level 1 only)."""
    hands = [[30, 30, 5], [51, 51], [50, 12], [12, 13], [], [7], [7, 40], [1]]
    rules, pub, a = endgame(8, hands, voids=[(2, 1), (3, 3), (5, 2)], seed=8)
    own = levels(hands[0], 2)
    assert int(own[1]) == 1 << 30 and pub[st.P_OWN2] == 1 << 30
    hidden = constraints_with_copies(pub, 0, own[0], a)
    assert isinstance(hidden, Hidden)  # one record, its fields named
    unseen, others, need, lo, hi, known = hidden
    assert hidden.need is need and hidden.known is known
    assert cards_of(unseen) == tuple(sorted(c for h in hands[1:] for c in h))
    assert int(unseen[1]) == 1 << 51 | 1 << 12 | 1 << 7  # the cards unseen twice
    assert others.tolist() == list(range(1, 8)) and need.tolist() == [len(h) for h in hands[1:]]
    assert (hi == 0).nonzero()[0].tolist() == [1, 2, 4] and hi[1, 1] == hi[2, 3] == hi[4, 2] == 0
    assert (lo == 0).all() and known.tolist() == [0] * 8
    first, *rest = world_constraints(pub, 0, own[0], a)
    assert int(first) == int(unseen[0]) and all(np.array_equal(x, y) for x, y in zip(rest, (others, need, lo, hi, known)))


@pytest.mark.parametrize("name", sorted(n for n in CASES if all(c is None for c in CASES[n][4])))
def test_sample_worlds_kernel_draws_the_weights_at_the_table(name):
    """End to end from a public array: rows of ``decks * players`` levels, the observer's hand
    (with its copies) in its columns, and every world with its physical weight by chi-square.
    The hidden hands are one world of the case (the cases with a revealed spade count are the
    counting tests': mirror and whiz bidding, which reveal them, are played with one deck)."""
    decks, cards, sizes, voids, spades = CASES[name]
    players = len(sizes) + 1
    mirror = any(c is not None for c in spades)
    world = next(iter(exact_worlds(cards, sizes, voids, spades)))
    if mirror:
        spades = [sum(c // 13 == SPADES for c in h) for h in world]
    exact = exact_worlds(cards, sizes, voids, spades)
    hands = [[30, 30]] + [list(h) for h in world]
    rules, pub, a = endgame(players, hands, [(k + 1, s) for k, v in enumerate(voids) for s in v], seed=players,
                            bidding="mirror" if mirror else "classic")
    own = levels(hands[0], decks)
    n = 30 * len(exact)
    _, worlds = sample_worlds_kernel(U64(stream_state(U64(len(name)), players, 9)), pub, 0, own[0], a, n)
    assert worlds.shape == (n, decks * players)
    assert (worlds[:, [k * players for k in range(decks)]] == own).all()
    assert chi_square(exact, [world_of(row, range(1, players), players) for row in worlds]) > ALPHA


@pytest.mark.parametrize("players", [6, 8, 12])
def test_sampled_worlds_never_break_a_constraint(players):
    """Midgames (many worlds, seats merged): every world deals exactly the unseen multiset, gives
    each seat its number of cards, copies counted, no card of a suit it showed void in, and
    keeps the observer's hand."""
    rng = random.Random(players)
    rules = Rules(players=players)
    decks = rules.decks
    for trial in range(3):
        held = [rng.randint(4, 8)] * players
        for s in rng.sample(range(1, players), players // 3):
            held[s] -= 1  # these played to the current trick
        rules, hands, pub, a = dealt(players, held, seed=100 * players + trial)
        own = levels(hands[0], decks)
        unseen, others, need, lo, hi, _ = constraints_with_copies(pub, 0, own[0], a)
        assert cards_of(unseen) == tuple(sorted(c for h in hands[1:] for c in h))
        assert not table_fits(unseen, need)  # drawn through the groups
        _, worlds = sample_worlds_kernel(U64(trial), pub, 0, own[0], a, 200)
        for row in worlds:
            world = world_of(row, others, players)
            assert tuple(sorted(c for h in world for c in h)) == cards_of(unseen)
            for k, h in enumerate(world):
                assert len(h) == need[k] and all(hi[k, c // 13] > 0 for c in h)
            for lv in range(1, decks):  # the levels nest: level k + 1 within level k
                assert (row[lv * players:(lv + 1) * players] & ~row[(lv - 1) * players:lv * players] == 0).all()
        assert (worlds[:, [k * players for k in range(decks)]] == own).all()


def test_a_table_too_large_to_count_is_refused():
    """Seven hidden seats of 13 cards counted one by one (no merging) would make a table of
    14**6 states a suit: refused with a clear error rather than filling the memory."""
    unseen = np.array([(1 << 52) - 1, (1 << 52) - 1 - (1 << 51)], dtype=np.uint64)
    need = np.full(7, 13, dtype=np.int64)
    lo, hi = np.zeros((7, 4), dtype=np.int64), np.full((7, 4), 39, dtype=np.int64)
    with pytest.raises(ValueError, match="too many hidden seats"):
        count_worlds_kernel(unseen, need, lo, hi)
