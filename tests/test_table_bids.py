"""Normal's bidding counts tricks for the table it sits at (issue 45): the count's table
(``trick_table``, ``nil_table``) and each of its rules against a slow reference or hand-made
hands at 3, 5 and 8 players; four players in pairs keep the four-player count exactly."""

import math

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.policies.normal import (
    BID_LINE,
    EXPECTED_MAX,
    NIL_EASED,
    PAIRS_BID_LINE,
    PAIRS_NIL_EASED,
    bid_target,
    copy_share,
    count_tricks,
    estimate_tricks,
    four_players,
    four_players_nil,
    nil_safe,
    nil_safe_at,
    nil_table,
    rival_spades,
    rivals,
    ruff_free,
    table_tricks,
    trick_table,
    void_chance,
)
from spades_ai.simulate import deal_masks

U = np.uint64
ZERO = U(0)
SUITS = "CDHS"
RANKS = "23456789TJQKA"


def hand_of(text: str) -> np.uint64:
    """The bitboard of cards written as ``"AS KS 2H"`` (one deck, card id ``suit*13 + rank``)."""
    return U(sum(1 << (SUITS.index(c[1]) * 13 + RANKS.index(c[0])) for c in text.split()))


#: Three low cards in each side suit: no ruffs, no side honours.
FILL = "2C 3C 4C 2D 3D 4D 2H 3H 4H"


def table(players: int, teams: str = "solo", **kw) -> sa.Rules:
    return sa.Rules(players=players, teams=teams, **kw)


FOUR_HOUSE = [sa.Rules(), sa.Rules(jokers=2, deuces_high=1), sa.Rules(closed_bidding=True, pass_cards=2), sa.Rules.load("suicide")]


@pytest.mark.parametrize("rules", FOUR_HOUSE, ids=["default", "jokers", "passing", "suicide"])
def test_four_players_in_pairs_count_as_the_four_player_count(rules):
    """Four in pairs, under every house rule, read exactly the numbers the four-player count
    was written with: their bids cannot move (the records digest holds)."""
    arr = rules.as_array()
    assert trick_table(arr) == four_players()
    assert nil_table(arr) == four_players_nil()
    for row in deal_masks(3, 0, 50, rules):
        for m in row:
            h = U(rules.engine_mask(int(m)))
            assert table_tricks(h, arr) == estimate_tricks(h, arr)
            assert bid_target(estimate_tricks(h, arr), 4, True) == estimate_tricks(h, arr)
            assert nil_safe_at(h, ZERO, ZERO, nil_table(arr), 1) == nil_safe(h)


def test_void_chance_is_the_hypergeometric_chance():
    for unseen, suit, each in [(39, 10, 13), (40, 9, 10), (34, 9, 17), (91, 22, 13)]:
        assert void_chance(unseen, suit, each) == pytest.approx(math.comb(unseen - suit, each) / math.comb(unseen, each), rel=1e-9)
    assert void_chance(20, 15, 10) == 0.0  # too few other cards to fill a hand


def test_void_chance_meets_the_deals_at_five_players():
    """At 5 players (10 cards each, 12 clubs: 2C out), seat 1 shows a club void as often as
    ``void_chance`` says given seat 0's clubs."""
    rules = table(5)
    clubs = 0x1FFF
    seen, voids = np.zeros(11), np.zeros(11)
    for row in deal_masks(11, 0, 4000, rules):
        mine = bin(int(row[0]) & clubs).count("1")
        seen[mine] += 1
        voids[mine] += (int(row[1]) & clubs) == 0
    for mine in (1, 2, 3):
        assert voids[mine] / seen[mine] == pytest.approx(void_chance(40, 12 - mine, 10), abs=0.02)


@pytest.mark.parametrize("players, teams, decks", [(3, "solo", 1), (5, "solo", 1), (8, "pairs", 2)])
def test_rival_spades_is_the_longest_rivals_holding_on_the_deals(players, teams, decks):
    """The longest rival's spades (copies counted), averaged over deals, against the formula
    (the expected maximum of normal draws) at 3, 5 and 8 players."""
    rules = table(players, teams)
    arr = rules.as_array()
    n = rivals(arr)
    spades = 0x1FFF << 39
    longest = []
    for row in deal_masks(12, 0, 1500, rules):
        count = [sum(bin(int(row[k * players + s]) & spades).count("1") for k in range(decks)) for s in range(players)]
        others = [count[s] for s in range(1, players) if teams == "solo" or s != players // 2]
        assert len(others) == n
        longest.append(max(others))
    assert rival_spades(players, rules.cards_each, 13 * decks, n) == pytest.approx(np.mean(longest), abs=0.3)


def test_expected_max_is_the_mean_of_the_largest_draw():
    rng = np.random.default_rng(0)
    for n in (2, 4, 7, 11):
        assert EXPECTED_MAX[n] == pytest.approx(rng.standard_normal((200_000, n)).max(axis=1).mean(), abs=0.01)


def test_copies_out_share_a_top_card():
    """A card with a copy out is not a sure trick: each copy out takes one in held + out."""
    assert copy_share(1, 1) == 1.0 and copy_share(0, 3) == 0.0
    assert copy_share(1, 2) == 0.5 and copy_share(1, 3) == pytest.approx(1 / 3)
    assert copy_share(2, 3) == pytest.approx(4 / 3) and copy_share(3, 3) == 3.0
    rules = table(8, "pairs")
    arr = rules.as_array()
    one_ace = hand_of("AS 4S " + FILL)
    # at 8 players (two decks) one ace of spades with its copy out counts half ...
    assert estimate_tricks(one_ace, arr) == 1.0 and table_tricks(one_ace, arr) == pytest.approx(0.5)
    # ... and both copies count two
    assert table_tricks(hand_of("AS " + FILL), arr, hand_of("AS")) == pytest.approx(2.0)


def test_spade_honours_are_guarded_by_every_copy_above_them():
    """At 8 players (two aces of spades) a king needs three spades where one deck needs two."""
    rules, four = table(8, "pairs"), sa.Rules()
    t = trick_table(rules.as_array())
    kx = hand_of("KS 5S " + FILL)
    assert count_tricks(kx, four.as_array(), ZERO, ZERO, four_players()) == pytest.approx(1.0)
    assert count_tricks(kx, rules.as_array(), ZERO, ZERO, t) == pytest.approx(0.2)  # 0.4, its copy out: half
    assert count_tricks(hand_of("KS 5S 4S " + FILL), rules.as_array(), ZERO, ZERO, t) == pytest.approx(0.5)


def test_long_spades_run_from_the_longest_rivals_length():
    """Five spades hold a long trick at four players; at 3 (17 cards each) the longest rival
    holds five too, and at 5 (10 each) the fourth spade is long already."""
    five = hand_of("9S 8S 7S 6S 5S " + FILL)
    assert trick_table(table(3).as_array()).long_from == 5
    assert trick_table(table(5).as_array()).long_from == 3
    assert trick_table(table(8, "pairs").as_array()).long_from == 5
    assert estimate_tricks(five, sa.Rules().as_array()) == 1.0  # the fifth spade
    assert table_tricks(five, table(3).as_array()) == 0.0
    assert table_tricks(five, table(5).as_array()) == 2.0  # the fourth and the fifth


def test_rivals_who_can_ruff_cost_an_ace():
    """Side aces and ruffs are worth the chance that no rival ruffs: less at 5 players and at
    8 and 12 in pairs than at four, a little more at 3."""
    factor = {p: trick_table(table(p, t).as_array()).ace_factor for p, t in [(3, "solo"), (5, "solo"), (8, "pairs"), (12, "pairs")]}
    assert factor[3] > 1.0 > factor[8] > factor[5] and factor[12] < factor[8]
    assert factor[5] == pytest.approx(ruff_free(5, 10, 13, 4) / ruff_free(4, 13, 13, 2))
    ace = hand_of("AH 7H 5H 3C 2C 4D 5D")
    five = table(5).as_array()
    assert table_tricks(ace, five) == pytest.approx(factor[5] * 1.0)


def test_must_win_ruffs_more_and_loses_kings():
    solo = sa.Rules.load("solo")  # 4 players, must win
    t = trick_table(solo.as_array())
    free = trick_table(table(4).as_array())
    assert t.ruff_factor == pytest.approx(1.4 * free.ruff_factor) and t.honour_factor == 0.85 and free.honour_factor == 1.0
    void_king = hand_of("KH 4H 3H 9S 8S 7S 2D 3D 4D 5D 6D 7D 8D")  # void in clubs, three spades to ruff with
    base = estimate_tricks(void_king, sa.Rules().as_array())  # 0.6 king + 2 x 0.8 ruffs
    assert base == pytest.approx(0.6 + 1.6)
    assert table_tricks(void_king, solo.as_array()) == pytest.approx(0.6 * 0.85 + 1.6 * t.ruff_factor)


def test_nil_chances_grow_with_the_seats_at_the_trick():
    """A king needs 3 low guards at four players, 5 at 3 (two rivals: the suit goes round
    often), one at 12 in pairs (eleven cards fall over it); the spades a nil may hold follow the
    spades a seat is dealt (one more where a nil is eased, ``PAIRS_NIL_EASED``)."""
    kxx = hand_of("KH 3H 2H 5D 4D 3D 2C")
    kxxx = hand_of("KH 4H 3H 2H 5D 4D 3D 2C")
    kx = hand_of("KH 2H 5D 4D 3D 2C")
    three, five, twelve = (nil_table(table(p, t).as_array()) for p, t in [(3, "solo"), (5, "solo"), (12, "pairs")])
    assert not nil_safe(kxx) and nil_safe(kxxx) and not nil_safe_at(kxxx, ZERO, ZERO, three, 1)
    assert nil_safe_at(kx, ZERO, ZERO, twelve, 3) and not nil_safe(kx)
    assert (three.max_spades, five.max_spades, twelve.max_spades) == (4, 2, 4)
    # the queen of spades is nil-safe at 12 (six spades of the decks above it), never at four
    qs = hand_of("QS 2H 3H 4D")
    assert nil_safe_at(qs, ZERO, ZERO, twelve, 3) and not nil_safe(qs)


def test_a_side_ace_is_nil_safe_only_with_a_copy_out_and_guards():
    """With one deck an ace takes its trick when its suit is led to it; with two or three decks
    another copy may fall first: two low guards keep it under at 8 solo, one where a nil is
    eased (8 and 12 in pairs, a partner covering; 12 solo)."""
    axx, ax = hand_of("AH 3H 2H 5D 4D"), hand_of("AH 2H 5D 4D")
    eight, twelve = (nil_table(table(p, "pairs").as_array()) for p in (8, 12))
    eight_solo, twelve_solo = (nil_table(table(p).as_array()) for p in (8, 12))
    assert four_players_nil().ace_guard == nil_table(table(3).as_array()).ace_guard == nil_table(table(5).as_array()).ace_guard
    assert not nil_safe(axx) and not nil_safe_at(axx, ZERO, ZERO, nil_table(table(3).as_array()), 1)
    assert nil_safe_at(axx, ZERO, ZERO, eight, 2) and nil_safe_at(axx, ZERO, ZERO, twelve, 3)
    assert nil_safe_at(ax, ZERO, ZERO, eight, 2) and nil_safe_at(ax, ZERO, ZERO, twelve, 3)
    assert nil_safe_at(ax, ZERO, ZERO, twelve_solo, 3) and not nil_safe_at(ax, ZERO, ZERO, eight_solo, 2)
    assert nil_safe_at(axx, ZERO, ZERO, eight_solo, 2)


@pytest.mark.parametrize("players,teams", [(6, "pairs"), (8, "pairs"), (10, "pairs"), (12, "pairs"), (12, "solo")])
def test_an_eased_nil_holds_a_spade_more_and_a_guard_less(players, teams):
    """Where a nil is eased (a partner covers it, or eleven cards fall on a trick) the nil test
    is the table's own with one spade more, a top spade with two spades above it, and one low
    guard less under a side ace or king (at least one)."""
    rules = table(players, teams)
    assert (PAIRS_NIL_EASED if teams == "pairs" else NIL_EASED)[players]
    t = nil_table(rules.as_array())
    seats, decks = players, rules.decks
    assert t.max_spades == math.floor(13 * decks / seats + 0.25) + 1 and t.spades_over == 2
    assert t.ace_guard == max(math.ceil(12 / (seats - 1)) - 1, 1) and t.king_guard == max(math.ceil(9 / (seats - 1)) - 1, 1)
    assert t.queen_guard == math.ceil(6 / (seats - 1))


def test_four_solo_bids_no_nil():
    """Four solo: no partner covers a nil and three rivals' cards fall on each trick (Normal
    made 37-50% of its nils there on the benchmark's deals): the nil test holds no hand."""
    low = hand_of("2C 3C 4C 2D 3D 4D 2H 3H 4H 5H 6H 7H 8H")
    assert nil_safe(low) and nil_table(table(4).as_array()).max_spades == -1
    assert not nil_safe_at(low, ZERO, ZERO, nil_table(table(4).as_array()), 1)
    assert nil_safe_at(low, ZERO, ZERO, nil_table(table(4, "pairs").as_array()), 1)


def test_bid_lines_are_the_estimate_at_four_in_pairs_and_shade_big_counts():
    """``bid_target`` is ``a + b * est``: at four in pairs ``est`` itself; elsewhere a slope
    of at most one (a big count is bid further below itself than a small one), and a row with
    slope one is a cushion (at most one trick below)."""
    assert tuple(PAIRS_BID_LINE[4]) == (0.0, 1.0)
    assert BID_LINE.shape == PAIRS_BID_LINE.shape == (13, 2)
    for lines in (BID_LINE, PAIRS_BID_LINE):
        assert ((lines[:, 1] > 0.5) & (lines[:, 1] <= 1.0)).all()
        assert all(-1.0 <= a <= 0.0 for a, b in lines if b == 1.0)
    assert bid_target(6.0, 3) == pytest.approx(1.0 + 0.7 * 6.0)
    assert 6.0 - bid_target(6.0, 3) < 10.0 - bid_target(10.0, 3)


def test_must_win_leaves_no_nil():
    """Under must win a nil bidder must beat the winning card whenever it can (the solo preset
    made 26% of Normal's nils on the benchmark's deals): Normal bids none there."""
    solo = nil_table(sa.Rules.load("solo").as_array())
    assert solo.max_spades == -1 and nil_table(table(5).as_array()).max_spades == 2
    low = hand_of("2C 3C 4C 2D 3D 4D 2H 3H 4H")
    assert nil_safe(low) and nil_safe_at(low, ZERO, ZERO, nil_table(table(5).as_array()), 1)
    assert not nil_safe_at(low, ZERO, ZERO, solo, 1)


SPADE_LANE = 0x1FFFF << 39


def _copies(bit: int, levels) -> int:
    return sum(1 for lv in levels if lv >> bit & 1)


def _size(mask: int, levels) -> int:
    return sum(bin(lv & mask).count("1") for lv in levels)


def naive_four_player_count(levels, extra: int) -> float:
    """The four-player count as it was written before issue 45, in plain Python: the reference
    that four players in pairs (and every user of ``estimate_tricks``) count exactly as before."""
    total = 0.0
    n_sp = _size(SPADE_LANE, levels)
    sp = [((lv & SPADE_LANE) >> extra) & SPADE_LANE for lv in levels]
    aces, kings, queens = (_copies(39 + r, sp) for r in (12, 11, 10))
    total += aces * 1.0
    total += kings * (1.0 if n_sp >= 2 else 0.4)
    total += queens * (0.9 if n_sp >= 3 else 0.3)
    if n_sp >= 4:
        total += _copies(39 + 9, sp) * 0.5
    if n_sp > 4:
        total += n_sp - 4
    spare = n_sp - aces - kings - queens
    for s in range(3):
        n = _size(0x1FFF << 13 * s, levels)
        aces, kings = _copies(13 * s + 12, levels), _copies(13 * s + 11, levels)
        total += aces * (1.0 if n <= 5 else 0.6)
        if 2 <= n <= 5:
            total += kings * (0.8 if aces > 0 else 0.6)
        elif n == 1:
            total += kings * 0.15
        if 3 <= n <= 4:
            total += _copies(13 * s + 10, levels) * (0.3 if aces + kings > 0 else 0.15)
        if spare > 0:
            if n == 0:
                r = min(spare, 2)
                total += 0.8 * r
                spare -= r
            elif n == 1:
                total += 0.7
                spare -= 1
            elif n == 2 and spare >= 2:
                total += 0.3
                spare -= 1
    return total


@pytest.mark.parametrize("rules", [sa.Rules(), sa.Rules(jokers=2, deuces_high=1), table(8, "pairs"), table(12, "pairs")],
                         ids=["four", "jokers", "eight-pairs", "twelve-pairs"])  # fmt: skip
def test_the_four_player_count_is_bit_identical_to_the_old_one(rules):
    """``estimate_tricks`` (what Hard, Crazy's weights and the models read) equals the count as
    written before, on random deals, copies included; at four in pairs ``table_tricks`` too."""
    arr, n = rules.as_array(), rules.players
    for row in deal_masks(21, 0, 40, rules):
        lv = [int(rules.engine_mask(int(m))) for m in row] + [0] * (3 * n - len(row))
        for s in range(n):
            levels = [lv[k * n + s] for k in range(3)]
            want = naive_four_player_count(levels, rules.jokers + rules.deuces_high)
            got = estimate_tricks(U(levels[0]), arr, U(levels[1]), U(levels[2]))
            assert got == want  # exactly: the same operations in the same order
            if rules.four_in_pairs:
                assert table_tricks(U(levels[0]), arr) == want


def naive_four_player_nil_safe(levels) -> bool:
    """The nil test as it was written before issue 45, in plain Python."""
    hand = levels[0]
    sp = hand & SPADE_LANE
    if _size(SPADE_LANE, levels) > 3:
        return False
    if sp and (sp.bit_length() - 1) % 13 + 13 * ((sp.bit_length() - 1) >= 52) >= 9:
        return False
    for s in range(3):
        m = hand & 0x1FFF << 13 * s
        if not m:
            continue
        if m >> 13 * s + 12 & 1:
            return False
        low = 0x3F << 13 * s
        n_low = sum(bin(lv & (0x1FFF << 13 * s) & low).count("1") for lv in levels)
        if m >> 13 * s + 11 & 1 and n_low < 3 or m >> 13 * s + 10 & 1 and n_low < 2:
            return False
    return True


@pytest.mark.parametrize("rules", [sa.Rules(), sa.Rules(jokers=2, deuces_high=1), table(8, "pairs")], ids=["four", "jokers", "eight"])
def test_the_four_player_nil_test_is_the_old_one(rules):
    """``nil_safe`` (and at four in pairs Normal's nil test) answers as the old test did."""
    arr, n = rules.as_array(), rules.players
    for row in deal_masks(22, 0, 60, rules):
        lv = [int(rules.engine_mask(int(m))) for m in row] + [0] * (3 * n - len(row))
        for s in range(n):
            levels = [lv[k * n + s] for k in range(3)]
            want = naive_four_player_nil_safe(levels)
            assert nil_safe(U(levels[0]), U(levels[1]), U(levels[2])) == want
            if rules.four_in_pairs:
                assert nil_safe_at(U(levels[0]), ZERO, ZERO, nil_table(arr), rules.decks) == want


# == Normal's bids at the table (the kernel, through a hand's observation) ==================
NORMAL = sa.make_agent("normal")


def _first_bid_reference(obs) -> int:
    """Normal's bid for the first seat to bid (no bid known, no bags), in plain Python: nil
    with a hand nil-safe at the table and a count under 1.6, else the table's line
    ``a + b * est`` rounded up from .4 (at least 1)."""
    from spades_ai import kernels as K
    from spades_ai.policies.normal import table_estimate

    rules, hand = obs.rules, obs.engine_cards
    arr = rules.as_array()
    _, h2, h3 = K.own_copies(obs.public, hand)
    pairs = rules.teams == "pairs"
    est = table_estimate(table_tricks(hand, arr, h2, h3), rules.players, pairs)
    if est < 1.6 and nil_safe_at(hand, h2, h3, nil_table(arr), rules.decks):
        return 0
    a, b = (PAIRS_BID_LINE if pairs else BID_LINE)[rules.players]
    return max(1, math.floor(a + b * est + 0.6))


@pytest.mark.parametrize("players,teams", [(3, "solo"), (4, "solo"), (5, "solo"), (6, "solo"), (8, "solo"), (6, "pairs"),
                                           (8, "pairs"), (12, "pairs")])  # fmt: skip
def test_the_first_bid_follows_the_tables_line_on_random_deals(players, teams):
    """The first seat to bid (nothing to trim for) bids its count along the table's line
    (``BID_LINE``, ``PAIRS_BID_LINE``) or nil, as the slow reference does, on random deals."""
    from spades_ai.simulate import deal

    rules = table(players, teams)
    for i in range(40):
        hand = sa.Hand(deal(100 + i, rules=rules), dealer=0, rules=rules)
        obs = hand.observation()
        assert NORMAL.bid(obs) == _first_bid_reference(obs), f"deal {100 + i}"


def _after_partner_nil(rules, seed):
    """A hand of ``rules`` at the bid of the partner of the first seat, after that seat's nil,
    where the partner's cards are nil-safe at the table with a small count; None if ``seed``
    deals none."""
    from spades_ai.simulate import deal

    hand = sa.Hand(deal(seed, rules=rules), dealer=rules.players - 1, rules=rules)
    first = hand.to_act
    hand.bid(0)
    while hand.to_act != (first + rules.n_sides) % rules.players:
        hand.bid(1)
    obs = hand.observation()
    return obs if _first_bid_reference(obs) == 0 else None


@pytest.mark.parametrize("players", [4, 6, 12])
def test_a_partnership_goes_double_nil_only_beyond_four(players):
    """From six players in pairs a partner's nil does not stop a nil (the partnership's double
    nil: Normal's nils make 76-91% there); at four in pairs Normal never bids nil after its
    partner's (the partnership game's bids stay as they were)."""
    rules = table(players, "pairs")
    found = [obs for obs in (_after_partner_nil(rules, s) for s in range(200)) if obs is not None][:3]
    assert found, "no nil-safe partner in 200 deals"
    for obs in found:
        assert (NORMAL.bid(obs) == 0) == (players > 4)


def test_a_twelve_pairs_hand_bids_nil_with_an_ace_and_one_guard():
    """At twelve in pairs the nil counts the table: a side ace with one low card under it and
    a low spade is nil-safe (eleven cards fall on each trick, two more copies of the ace are
    out, and the partner covers); at eight solo it still needs two low guards."""
    ax = hand_of("AH 2H 5D 4D 3D 2C 3C 4C 5C 6C 7C 2S 3S")
    assert nil_safe_at(ax, ZERO, ZERO, nil_table(table(12, "pairs").as_array()), 3)
    assert not nil_safe_at(ax, ZERO, ZERO, nil_table(table(8).as_array()), 2)
    assert not nil_safe(ax)
