"""World sampling at every table of one deck (issue 34, item 4): 3, 4 (pairs and solo) and 5
players, i.e. 2, 3 and 4 hidden seats.

The counting kernels are checked against ``naive_tables.naive_worlds`` (the exact weighted
enumeration of a hidden deal, independent of the engine), with voids and with spade counts that
bids revealed; the draws by chi-square against the exact weights, for the int64 table and for
the float64 one that five players need in the first tricks. ``world_constraints`` is read from
public arrays written by hand (the engine does not deal these tables yet). The four-player
sampler, which must draw exactly as before, keeps its own tests in ``test_sampling.py``.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from naive_tables import naive_worlds
from scipy import stats

from spades_ai import Rules
from spades_ai.engine import state as st
from spades_ai.engine.rng import stream_state
from spades_ai.montecarlo.sampling import (
    Groups,
    Hidden,
    _draw_worlds,
    count_worlds_float,
    count_worlds_kernel,
    counts_fit,
    sample_world,
    sample_worlds_kernel,
    seat_groups,
    table_fits,
    world_constraints,
)
from spades_ai.rules import R_DECK

U64 = np.uint64
ALPHA = 1e-4
SPADES = 3


def bounds(voids, spades):
    """The kernels' ``(lo, hi)``: ``hi = 0`` for a void, ``lo = hi = n`` for a revealed count."""
    k = len(voids)
    lo = np.zeros((k, 4), dtype=np.int64)
    hi = np.full((k, 4), 17, dtype=np.int64)
    for i in range(k):
        for s in voids[i]:
            hi[i, s] = 0
        if spades[i] is not None:
            lo[i, SPADES], hi[i, SPADES] = (spades[i], spades[i]) if hi[i, SPADES] or spades[i] == 0 else (1, 0)
    return lo, hi


def exact_worlds(cards, sizes, voids, spades) -> dict:
    """``naive_worlds`` (weights: physical deals) less the worlds a revealed count excludes."""
    worlds = naive_worlds(cards, sizes, voids)
    return {w: n for w, n in worlds.items()
            if all(c is None or sum(x // 13 == SPADES for x in h) == c for h, c in zip(w, spades))}


def random_position(rng: random.Random, hidden: int, n_cards: int):
    """Unseen cards (distinct ids), the hidden seats' sizes, voids and revealed spade counts."""
    suits = rng.sample(range(4), rng.randint(2, 4))
    cards = rng.sample([c for c in range(52) if c // 13 in suits], n_cards)
    sizes = [0] * hidden
    for _ in cards:
        sizes[rng.randrange(hidden)] += 1
    voids = [{s for s in range(4) if rng.random() < 0.25} for _ in range(hidden)]
    n_spades = sum(c // 13 == SPADES for c in cards)
    spades = [rng.randint(0, min(n_spades, sizes[k])) if rng.random() < 0.3 else None for k in range(hidden)]
    return cards, sizes, voids, spades


def kernel_args(cards, sizes, voids, spades):
    lo, hi = bounds(voids, spades)
    return U64(sum(1 << c for c in cards)), np.array(sizes, dtype=np.int64), lo, hi


def as_world(hands, others) -> tuple:
    return tuple(tuple(c for c in range(52) if int(hands[o]) >> c & 1) for o in others)


def draw(cards, sizes, voids, spades, n, seed, table=count_worlds_kernel) -> list[tuple]:
    """``n`` worlds from ``sample_world`` with the counting ``table`` (seats 1.. are hidden)."""
    unseen, need, lo, hi = kernel_args(cards, sizes, voids, spades)
    f = table(unseen, need, lo, hi)
    others = np.arange(1, len(sizes) + 1, dtype=np.int64)
    hands = np.zeros(len(sizes) + 1, dtype=np.uint64)
    state = U64(stream_state(U64(seed), 0, 5))
    out = []
    for _ in range(n):
        state = U64(sample_world(state, f, unseen, others, need, lo, hi, hands))
        out.append(as_world(hands, others))
    return out


def chi_square(exact: dict, sample: list) -> float:
    """p-value of the sample's frequency of each world against the exact weights."""
    index = {w: i for i, w in enumerate(exact)}
    counts = np.zeros(len(exact))
    for w in sample:
        counts[index[w]] += 1  # a KeyError would be a world that breaks a constraint
    weights = np.array(list(exact.values()), dtype=float)
    return stats.chisquare(counts, weights / weights.sum() * len(sample)).pvalue


# -- counting: every table size against the enumeration ------------------------------------------
@pytest.mark.parametrize("hidden", [2, 3, 4])
def test_counts_equal_the_enumeration_with_voids_and_revealed_spades(hidden):
    """2, 3 and 4 hidden seats (3, 4 and 5 players): the table's total is the number of deals
    ``naive_worlds`` finds, after the revealed spade counts, and the float table agrees."""
    rng = random.Random(100 + hidden)
    seen = {"positive": 0, "zero": 0, "voids": 0, "counts": 0}
    for _ in range(150):
        cards, sizes, voids, spades = random_position(rng, hidden, rng.randint(4, 9))
        expected = sum(exact_worlds(cards, sizes, voids, spades).values())
        args = kernel_args(cards, sizes, voids, spades)
        assert count_worlds_kernel(*args)[0, -1] == expected, (cards, sizes, voids, spades)
        assert count_worlds_float(*args)[0, -1] == expected
        seen["positive" if expected else "zero"] += 1
        seen["voids"] += bool(expected) and sum(bool(v) for v in voids) >= 2
        seen["counts"] += bool(expected) and any(c is not None for c in spades)
    assert seen["positive"] >= 50 and seen["zero"] >= 10 and seen["voids"] >= 15 and seen["counts"] >= 15


@pytest.mark.parametrize("players", [3, 5])
def test_a_full_hand_counts_the_multinomial(players):
    """Before any card is played: every deal of the unseen cards, ``n! / prod(need!)``; exact in
    int64 at three players, beyond it at five, where the float table takes over."""
    rules = Rules(players=players)
    k = players - 1
    n = k * rules.cards_each
    expected = math.factorial(n) // math.factorial(rules.cards_each) ** k
    cards = list(range(n))  # which cards does not matter without voids
    unseen, need, lo, hi = kernel_args(cards, [rules.cards_each] * k, [set()] * k, [None] * k)
    assert counts_fit(unseen, need) == (expected < 2**62)
    if players == 3:
        assert count_worlds_kernel(unseen, need, lo, hi)[0, -1] == expected == 2333606220
    else:
        assert expected == 4705360871073570227520  # 40! / 10!^4 > 2**63
        assert count_worlds_float(unseen, need, lo, hi)[0, -1] == pytest.approx(expected, rel=1e-12)


# -- drawing: uniform over the deals, by chi-square ----------------------------------------------
CASES = {
    # name: (cards, sizes, voids, revealed spade counts)
    "two_hidden_void": ([0, 1, 13, 14, 15, 26, 27, 39, 40, 41], [5, 5], [{0}, set()], [None, None]),
    "two_hidden_count": ([0, 1, 13, 14, 15, 26, 27, 39, 40, 41], [5, 5], [set(), set()], [2, None]),
    "three_hidden": ([0, 1, 2, 13, 14, 26, 39, 40, 41], [3, 3, 3], [{0}, {1}, set()], [None, None, None]),
    "four_hidden": ([0, 1, 2, 13, 14, 26, 39, 40], [2, 2, 2, 2], [{0}, set(), {1}, set()], [None, 1, None, None]),
    "four_hidden_counts": ([0, 1, 13, 14, 26, 39, 40, 41], [2, 2, 2, 2], [set(), {0}, set(), set()], [1, None, 0, None]),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("table", [count_worlds_kernel, count_worlds_float], ids=["int64", "float64"])
def test_sample_world_draws_every_deal_with_its_exact_weight(name, table):
    cards, sizes, voids, spades = CASES[name]
    exact = exact_worlds(cards, sizes, voids, spades)
    assert 20 <= len(exact) <= 600 and set(exact.values()) == {1}  # one deck: every deal once
    sample = draw(cards, sizes, voids, spades, 40 * len(exact), seed=len(name), table=table)
    assert chi_square(exact, sample) > ALPHA


def constrained_first(cards, sizes, voids, spades, n, seed) -> list[tuple]:
    """A BIASED sampler, for contrast: the cards some seat may not hold first (the classic
    "constrained cards first"), then the others, each to a random seat that may hold it and
    has room, starting again on a dead end or a broken spade count. Every world it returns
    fits, but not every one is equally likely."""
    rng = random.Random(seed)
    constrained = [c for c in cards if any(c // 13 in v for v in voids)]
    free = [c for c in cards if c not in constrained]
    out = []
    while len(out) < n:
        room, hands = list(sizes), [[] for _ in sizes]
        for c in rng.sample(constrained, len(constrained)) + rng.sample(free, len(free)):
            seats = [k for k in range(len(sizes)) if room[k] and c // 13 not in voids[k]]
            if not seats:
                break
            k = rng.choice(seats)
            room[k] -= 1
            hands[k].append(c)
        else:
            if all(x is None or sum(c // 13 == SPADES for c in h) == x for h, x in zip(hands, spades)):
                out.append(tuple(tuple(sorted(h)) for h in hands))
    return out


@pytest.mark.parametrize("name", ["three_hidden", "four_hidden"])
def test_the_same_chi_square_rejects_a_constrained_first_sampler(name):
    cards, sizes, voids, spades = CASES[name]
    exact = exact_worlds(cards, sizes, voids, spades)
    assert chi_square(exact, constrained_first(cards, sizes, voids, spades, 40 * len(exact), seed=1)) < ALPHA


# -- exchangeable seats counted as one (the group table) -------------------------------------------
def test_seat_groups_merge_only_seats_bound_by_the_same_voids():
    need = np.array([3, 2, 4, 3, 2], dtype=np.int64)
    lo, hi = bounds([{0}, set(), {0}, set(), set()], [None, None, None, 2, None])
    group, gneed, glo, ghi = seat_groups(need, lo, hi, True)
    # seats 0 and 2 (no clubs), 1 and 4 (free); seat 3's two spades keep it alone; fewest cards
    # first, so that the largest group is the last (the one the table's state leaves out)
    assert group.tolist() == [2, 1, 2, 0, 1] and gneed.tolist() == [3, 4, 7]
    assert ghi[2, 0] == 0 and (ghi[2, 1:] >= 7).all() and (ghi[1] >= 4).all()
    assert glo[0, 3] == ghi[0, 3] == 2 and (glo[[1, 2]] == 0).all()
    # without merging the groups are the seats, bounds untouched
    group, gneed, glo, ghi = seat_groups(need, lo, hi, False)
    assert group.tolist() == [0, 1, 2, 3, 4] and gneed.tolist() == need.tolist()
    assert (glo == lo).all() and (ghi == hi).all()
    # all seats alike: one group, last, and an empty one before it for the table
    lo, hi = bounds([{2}] * 3, [None] * 3)
    groups = seat_groups(np.array([2, 2, 2], dtype=np.int64), lo, hi, True)
    assert isinstance(groups, Groups)  # one record, its fields named
    assert groups.group.tolist() == [1, 1, 1] and groups.need.tolist() == [0, 6] and (groups.hi[0] == 0).all()


def grouped_count(cards, sizes, voids, spades) -> int:
    """Deals counted on the group table, times the ways to split each group among its seats."""
    unseen, need, lo, hi = kernel_args(cards, sizes, voids, spades)
    group, gneed, glo, ghi = seat_groups(need, lo, hi, True)
    total = int(count_worlds_kernel(unseen, gneed, glo, ghi)[0, -1])
    for g, size in enumerate(gneed.tolist()):
        total *= math.factorial(size) // math.prod(math.factorial(n) for n in need[group == g].tolist())
    return total


@pytest.mark.parametrize("hidden", [2, 3, 4])
def test_group_counts_equal_the_enumeration(hidden):
    rng = random.Random(200 + hidden)
    merged = 0
    for _ in range(150):
        cards, sizes, voids, spades = random_position(rng, hidden, rng.randint(4, 9))
        voids = [v if rng.random() < 0.5 else set() for v in voids]  # more seats alike
        expected = sum(exact_worlds(cards, sizes, voids, spades).values())
        assert grouped_count(cards, sizes, voids, spades) == expected, (cards, sizes, voids, spades)
        _, need, lo, hi = kernel_args(cards, sizes, voids, spades)
        merged += bool(expected) and len(set(seat_groups(need, lo, hi, True)[0].tolist())) < hidden
    assert merged >= 30


def draw_grouped(cards, sizes, voids, spades, n, seed) -> list[tuple]:
    """``n`` worlds drawn as ``sample_worlds_kernel`` draws them with merged seats."""
    unseen, need, lo, hi = kernel_args(cards, sizes, voids, spades)
    groups = seat_groups(need, lo, hi, True)
    f = count_worlds_kernel(unseen, groups.need, groups.lo, groups.hi)
    k = len(sizes)
    worlds = np.empty((n, k + 1), dtype=np.uint64)
    others = np.arange(1, k + 1, dtype=np.int64)
    hidden = Hidden(np.array([unseen]), others, need, lo, hi, np.zeros(k + 1, dtype=np.uint64))
    _draw_worlds(U64(stream_state(U64(seed), 1, 5)), f, hidden, groups, 0, np.zeros(1, dtype=np.uint64), worlds)
    return [as_world(row, others) for row in worlds]


GROUP_CASES = {
    "one_group": ([0, 1, 13, 39, 40, 41], [2, 2, 1, 1], [{2}] * 4, [None] * 4),
    "two_seats_one_group": ([0, 1, 2, 13, 14, 39, 40, 41], [4, 4], [{2}, {2}], [None, None]),
    "two_groups": ([0, 1, 2, 13, 14, 26, 39, 40], [2, 2, 2, 2], [{0}, set(), {0}, set()], [None] * 4),
    "count_and_group": ([0, 1, 13, 14, 26, 39, 40, 41], [2, 2, 2, 2], [set(), {1}, {1}, set()], [1, None, None, None]),
}


@pytest.mark.parametrize("name", sorted(GROUP_CASES))
def test_merged_seats_draw_every_deal_with_its_exact_weight(name):
    cards, sizes, voids, spades = GROUP_CASES[name]
    exact = exact_worlds(cards, sizes, voids, spades)
    assert 20 <= len(exact) <= 600
    assert chi_square(exact, draw_grouped(cards, sizes, voids, spades, 40 * len(exact), seed=len(name))) > ALPHA


@pytest.mark.parametrize("players, each, fits", [(3, 17, True), (4, 13, True), (5, 10, False), (5, 7, False), (5, 4, True)])
def test_seats_are_merged_only_where_their_table_would_not_fit(players, each, fits):
    """Every seat counted at three and four players (four players draw as they always have);
    at five, 40! / 10!^4 ways at the start and 8**3 states after three tricks merge the seats
    alike, and the endgame counts them one by one again."""
    k = players - 1
    unseen, need, _, _ = kernel_args(list(range(k * each)), [each] * k, [set()] * k, [None] * k)
    assert table_fits(unseen, need) == fits


# -- world_constraints and sample_worlds_kernel from a public array --------------------------------
def public(rules, played_by=None, voids=(), bids=None, gave=None):
    """A public array of ``rules``' table written by hand: cards played by seat, voids
    ``(seat, suit)``, bids by seat (None: not yet), cards passed by seat."""
    a = rules.as_array()
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    n = rules.players
    for s in range(n):
        pub[st.P_BIDS + s] = -1 if bids is None or bids[s] is None else bids[s]
    played = 0
    for s, cards in (played_by or {}).items():
        m = sum(1 << c for c in cards)
        pub[st.P_PLAYED_BY + s] = np.int64(m)
        played |= m
    pub[st.P_PLAYED] = played
    pub[st.P_DECK] = a[R_DECK]
    for s, suit in voids:
        pub[st.P_VOIDS] |= 1 << (4 * s + suit)
    for s, cards in (gave or {}).items():
        pub[st.P_GAVE + s] = sum(1 << c for c in cards)
    return pub, a


def deck_of(rules) -> list[int]:
    return [c for c in range(52) if int(rules.as_array()[R_DECK]) >> c & 1]


def test_world_constraints_at_three_players():
    """Cutthroat: two hidden seats of 17 cards less what they played, the 2D out of the deck,
    voids and a mirror count read from the array, nobody's cards known."""
    rules = Rules(players=3, bidding="mirror")
    deck = deck_of(rules)
    assert len(deck) == 51 and 13 not in deck  # 2D removed
    rnd = random.Random(3)
    cards = rnd.sample(deck, 51)
    mine = sum(1 << c for c in cards[:17])
    played = {0: [cards[0]], 1: [cards[17]], 2: [cards[34]]}
    pub, a = public(rules, played, voids=[(2, 1)], bids=[None, 4, None])
    unseen, others, need, lo, hi, known = world_constraints(pub, 0, U64(mine & ~(1 << cards[0])), a)
    assert others.tolist() == [1, 2] and need.tolist() == [16, 16]
    assert int(unseen) == sum(1 << c for c in cards[17:]) & ~(1 << cards[17]) & ~(1 << cards[34])
    assert hi[1, 1] == 0 and (hi[0] > 0).all()
    spades_played = int(cards[17] // 13 == SPADES)
    assert lo[0, SPADES] == hi[0, SPADES] == 4 - spades_played
    assert known.tolist() == [0, 0, 0]


@pytest.mark.parametrize("teams", ["pairs", "solo"])
def test_partner_cards_are_known_only_with_pairs(teams):
    """Four players: the two cards seat 0 passed are known at seat 2 with pairs; solo there is
    no partner, so they stay unseen (and a pass cannot happen solo: written by hand here)."""
    rules = Rules(teams=teams)
    pub, a = public(rules, gave={0: [51, 50]})
    mine = sum(1 << c for c in range(13))
    unseen, others, need, lo, hi, known = world_constraints(pub, 0, U64(mine), a)
    assert others.tolist() == [1, 2, 3]
    if teams == "pairs":
        assert int(known[2]) == 3 << 50 and need.tolist() == [13, 11, 13]
        assert int(unseen) >> 50 == 0
    else:
        assert known.tolist() == [0, 0, 0, 0] and need.tolist() == [13, 13, 13]
        assert int(unseen) >> 50 == 3


def test_world_constraints_at_five_players():
    rules = Rules(players=5)
    deck = deck_of(rules)
    assert len(deck) == 50
    pub, a = public(rules, {3: [deck[-1]]}, voids=[(4, 0)], bids=[None] * 5)
    mine = sum(1 << c for c in deck[:10])
    unseen, others, need, lo, hi, known = world_constraints(pub, 2, U64(mine), a)
    assert others.tolist() == [3, 4, 0, 1] and need.tolist() == [9, 10, 10, 10]
    assert hi[1, 0] == 0 and len(known) == 5
    assert not table_fits(unseen, need)  # 39! / (9! 10!^3) ways: the seats alike are merged
    _, worlds = sample_worlds_kernel(U64(5), pub, 2, U64(mine), a, 64)
    assert worlds.shape == (64, 5) and (worlds[:, 2] == mine).all()
    sizes = np.bitwise_count(worlds).astype(int)
    assert (sizes[:, [3, 4, 0, 1]] == need).all() and ((worlds[:, 4] & U64(0x1FFF)) == 0).all()
    assert (np.bitwise_or.reduce(worlds, axis=1) == U64(int(unseen) | mine)).all()


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(teams="solo")], ids=["three", "four_solo"])
def test_sample_worlds_kernel_is_uniform_at_the_table(rules):
    """An endgame written by hand: every seat but the observer holds 3 unseen cards (3 played
    at three players fill 17 - 14); the worlds have a row per seat, keep the voids and the
    observer's hand, and are uniform by chi-square."""
    n = rules.players
    deck = deck_of(rules)
    rnd = random.Random(n)
    rnd.shuffle(deck)
    keep = 3
    hands = [deck[i * rules.cards_each:(i + 1) * rules.cards_each] for i in range(n)]
    played = {s: hands[s][keep:] for s in range(n)}
    lacking = sorted(set(range(4)) - {c // 13 for c in hands[1][:keep]})
    voids = [(1, lacking[0])] if lacking else []  # a void seat 1 could have shown
    pub, a = public(rules, played, voids=voids)
    mine = U64(sum(1 << c for c in hands[0][:keep]))
    unseen, others, need, lo, hi, known = world_constraints(pub, 0, mine, a)
    assert need.tolist() == [keep] * (n - 1)
    cards = [c for h in hands[1:] for c in h[:keep]]
    exact = exact_worlds(cards, need.tolist(), [{s for s in range(4) if hi[k, s] == 0} for k in range(n - 1)],
                         [None] * (n - 1))
    state, worlds = sample_worlds_kernel(U64(stream_state(U64(1), n, 9)), pub, 0, mine, a, 30 * len(exact))
    assert worlds.shape == (30 * len(exact), n) and (worlds[:, 0] == mine).all()
    sample = [as_world(row, range(1, n)) for row in worlds]
    assert chi_square(exact, sample) > ALPHA


def replays_legally(hand, world) -> bool:
    """Whether the hand's bids and cards so far are legal when dealt ``world`` (each hidden
    seat's row plus the cards it played): replayed through ``Hand``, which refuses a card that
    breaks must win. The slow reference of ``sampling.must_win_checks``."""
    from spades_ai import Hand
    from spades_ai.errors import IllegalPlayError

    rules = hand.rules
    played = {s: 0 for s in range(rules.players)}
    for s, c in hand.plays:
        played[s] |= 1 << rules.engine_id(int(c))
    dealt = [rules.public_mask(int(world[s]) | played[s]) for s in range(rules.players)]
    replay = Hand(dealt, dealer=hand.dealer, rules=rules)
    for _, b, blind in hand.bid_history():
        replay.bid(b, blind=blind)
    try:
        for _, c in hand.plays:
            replay.play(c)
    except IllegalPlayError:
        return False
    return True


@pytest.mark.parametrize("players", [3, 4])
def test_worlds_keep_must_win_and_stay_uniform_among_the_deals_that_do(players):
    """Under must win a card followed to a trick shows the seat held no legal card that beats
    the winning one. At positions where the uniform draw before must win's checks breaks it
    (some of its worlds do not replay: ``Hand`` refuses a card there), every world drawn
    replays the hand legally, and the worlds are uniform by chi-square over the deals that do."""
    from itertools import combinations

    from spades_ai import Hand, deal, make_agent
    from spades_ai.kernels import decision_stream
    from spades_ai.montecarlo.sampling import uniform_worlds

    rules = Rules(players=players, teams="solo", must_win=True)
    a, hard, checked = rules.as_array(), make_agent("hard", worlds=32), 0
    for i in range(80):
        hand = Hand(deal(81, i, rules), dealer=i % players, rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            if hand.phase == "playing" and rules.cards_each - obs.trick_no == 2 and not hand.current_trick:
                break
            hand.bid(hard.bid(obs)) if hand.phase == "bidding" else hand.play(hard.play(obs))
        pub, seat, mine = obs.public, obs.seat, U64(int(obs.engine_cards))
        key = U64(decision_stream(np.int64(5), pub, seat, mine))
        if all(replays_legally(hand, w) for w in uniform_worlds(key, pub, seat, mine, a, 100)[1]):
            continue
        # every deal of the hidden cards that keeps the counts and replays legally, each once
        others = [s for s in range(players) if s != seat]
        hidden = [rules.engine_id(int(c)) for s in others for c in hand.cards(s)]
        exact = set()
        for first in combinations(hidden, 2):
            rest = [c for c in hidden if c not in first]
            for second in combinations(rest, 2) if players == 4 else [tuple(rest)]:
                parts = [first, second] + ([tuple(c for c in rest if c not in second)] if players == 4 else [])
                world = np.zeros(players, dtype=np.uint64)
                world[seat] = mine
                for s, part in zip(others, parts):
                    world[s] = U64(sum(1 << c for c in part))
                if replays_legally(hand, world):
                    exact.add(tuple(int(world[s]) for s in others))
        _, worlds = sample_worlds_kernel(key, pub, seat, mine, a, 20 * len(exact))
        sample = [tuple(int(w[s]) for s in others) for w in worlds]
        assert set(sample) <= exact, "a world breaks must win"
        if len(exact) > 1:
            counts = np.array([sample.count(w) for w in sorted(exact)])
            assert stats.chisquare(counts).pvalue > ALPHA
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def bits_of(m: int) -> list[int]:
    return [c for c in range(56) if m >> c & 1]
