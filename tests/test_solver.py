"""The exact solver (``spades_ai.solver``) against the plain minimax of ``naive.py``.

* ``double_dummy`` equals ``naive_double_dummy`` on thousands of random endgames of 1-3 tricks,
  under every spade-lead option, spades broken or not (and the sample is checked to be one where
  those options change answers, so the comparison has teeth).
* ``card_values`` equals ``naive_minimax`` card by card on random endgames, mid-trick included,
  with random leaf tables (ties, fractions, per-seat terms such as a nil), for either team.
* With the trick-count leaf, ``card_values`` agrees with ``double_dummy`` on positions of 2-7
  tricks reached by random play, from both teams' side.
* Kernels: equivalent-card merging against a definition by hand; pext/pdep against the portable
  versions. Hand-checked full deals, the low-club first lead, table reuse across generations,
  threads, and every input error.
"""

from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from naive import SPADES, naive_double_dummy, naive_legal_cards, naive_minimax, naive_trick_winner, plays_as, suit

import spades_ai as sa
from spades_ai import solver
from spades_ai.engine import bits, exact_moves, exact_table, objectives
from spades_ai.engine import solver as ksolver
from spades_ai.rules import R_SPADE_LEAD, SPADE_LEADS, Rules
from spades_ai.solver import card_values, double_dummy, tricks_leaf

RULES = {lead: Rules(spade_lead=lead) for lead in SPADE_LEADS}


def random_endgame(rnd: random.Random, n: int):
    """Four hands of ``n`` cards, often from few suits so that tricks interact, a leader, a flag."""
    kind = rnd.random()
    if kind < 0.4:
        deck = list(range(52))
    else:
        suits = {3} | set(rnd.sample(range(3), 1 if kind < 0.8 else 2))
        deck = [c for c in range(52) if suit(c) in suits]
    cards = rnd.sample(deck, 4 * n)
    hands = [sorted(cards[s * n : (s + 1) * n]) for s in range(4)]
    return hands, rnd.randrange(4), rnd.random() < 0.5


def play_into_trick(rnd: random.Random, hands, leader, broken, trick_no, rules, k):
    """Play ``k`` random legal cards of the trick led by ``leader``: ``(hands, trick ids)``."""
    hands = [list(h) for h in hands]
    trick = []
    for i in range(k):
        s = (leader + i) % 4
        card = rnd.choice(naive_legal_cards(hands[s], trick, broken, trick_no, rules))
        hands[s].remove(card)
        trick.append(card)
    return hands, trick


def random_leaf(rnd: random.Random, team: int):
    """A leaf function: the team's tricks, a random table, or a bid-like score with a nil."""
    kind = rnd.randrange(4)
    if kind == 0:
        return lambda *t: float(t[team] + t[team + 2])
    if kind == 1:
        table = {}
        return lambda *t: table.setdefault(t, float(rnd.randint(-3, 3)))
    if kind == 2:
        table = {}
        return lambda *t: table.setdefault(t, rnd.random())
    nil_seat = rnd.randrange(4)
    bid = rnd.randint(1, 12)

    def score(*t):
        v = 0.0
        for s in range(4):
            sign = 1.0 if s % 2 == team else -1.0
            if s == nil_seat:
                v += sign * (100.0 if t[s] == 0 else -100.0)
        ours = t[team] + t[team + 2] - (t[nil_seat] if nil_seat % 2 == team else 0)
        v += 10.0 * bid + (ours - bid) if ours >= bid else -10.0 * bid
        return v

    return score


# -- double dummy against minimax ---------------------------------------------------------------


def test_double_dummy_matches_minimax():
    rnd = random.Random(11)
    seen_values = set()
    broken_matters = 0
    for i in range(2500):
        n = 1 + i % 3
        hands, leader, broken = random_endgame(rnd, n)
        lead = SPADE_LEADS[i % len(SPADE_LEADS)]
        got = double_dummy(hands, leader, rules=RULES[lead], spades_broken=broken)
        want = naive_double_dummy(hands, leader, broken, RULES[lead])
        assert got == want, (hands, leader, lead, broken, got, want)
        seen_values.add(got)
        if lead == "broken":
            # Keep the comparison honest: the flag must change some answers. (With 3 tricks or
            # fewer left, the other options all allow spade leads: see the test below.)
            broken_matters += naive_double_dummy(hands, leader, not broken, RULES[lead]) != want
    assert seen_values == {0, 1, 2, 3}
    assert broken_matters >= 20


JOKER_RULES = [Rules(jokers=j, deuces_high=d, spade_lead=lead) for j in range(3) for d in range(5 - j) if j or d
               for lead in ("broken", "anytime")]


def trumpy_endgame(rnd: random.Random, n: int):
    """``random_endgame`` with the deuces always in the deck, so jokers and high deuces play."""
    hands, leader, broken = random_endgame(rnd, n)
    held = {c for h in hands for c in h}
    for deuce in rnd.sample([0, 13, 26, 39], 2):
        if deuce not in held:
            seat, i = rnd.randrange(4), rnd.randrange(n)
            held.discard(hands[seat][i])
            hands[seat][i] = deuce
            held.add(deuce)
    return [sorted(h) for h in hands], leader, broken


def test_double_dummy_and_card_values_with_jokers_and_high_deuces_match_minimax():
    """The solver runs on the engine's layout (jokers and high deuces above the ace, in the
    trump lane); minimax plays the same ids by RULES.md's order."""
    rnd = random.Random(29)
    differs = 0
    for i in range(900):
        rules = JOKER_RULES[i % len(JOKER_RULES)]
        n = 1 + i % 3
        hands, leader, broken = trumpy_endgame(rnd, n)
        got = double_dummy(hands, leader, rules=rules, spades_broken=broken)
        want = naive_double_dummy(hands, leader, broken, rules)
        assert got == want, (hands, leader, broken, rules)
        differs += want != naive_double_dummy(hands, leader, broken, Rules(spade_lead=rules.spade_lead))
        check_card_values_at(rnd, hands, leader, broken, rules, rnd.randrange(4))
    assert differs > 50  # the jokers and high deuces change many answers


def test_spade_lead_options_in_the_first_tricks():
    """The options that count tricks matter only in the first three tricks, too deep for the
    minimax: there, the legal cards (a constant leaf makes the search trivial) must equal the
    reference, and where an option allows every lead the answer must equal ``anytime``'s."""
    rnd = random.Random(14)
    const = np.ones((14, 14, 14, 14))
    for i in range(40):
        lead = SPADE_LEADS[i % len(SPADE_LEADS)]
        left = 11 + i % 3
        hands, leader, broken, won = random_position(rnd, left, RULES["anytime"])
        if i % 2:
            # A leader with a spade and one other card tests the restriction the hardest.
            leader_spades = [c for c in hands[leader] if suit(c) == SPADES]
            if not leader_spades or len(leader_spades) == len(hands[leader]):
                continue
        k = rnd.randrange(4)
        h, trick = play_into_trick(rnd, hands, leader, broken, 13 - left, RULES[lead], k)
        vals = card_values(h, leader, const, 0, tricks_won=won, trick=trick, rules=RULES[lead], spades_broken=broken)
        seat = (leader + k) % 4
        assert sorted(vals) == naive_legal_cards(h[seat], trick, broken, 13 - left, RULES[lead])
    for i in range(4):
        hands, leader, broken, _ = random_position(rnd, 11 + i % 2, RULES["anytime"])
        anytime = double_dummy(hands, leader, RULES["anytime"], broken)
        assert double_dummy(hands, leader, RULES["after_first_trick"], broken) == anytime
        assert double_dummy(hands, leader, RULES["broken"], True) == anytime
        assert double_dummy(hands, leader, RULES["after_three_tricks_or_broken"], True) == anytime


def test_double_dummy_four_tricks_sample():
    rnd = random.Random(12)
    for i in range(25):
        hands, leader, broken = random_endgame(rnd, 4)
        lead = SPADE_LEADS[i % len(SPADE_LEADS)]
        assert double_dummy(hands, leader, RULES[lead], broken) == naive_double_dummy(hands, leader, broken, RULES[lead])


@pytest.mark.slow
def test_double_dummy_four_tricks_many():
    rnd = random.Random(13)
    for i in range(600):
        hands, leader, broken = random_endgame(rnd, 4)
        lead = SPADE_LEADS[i % len(SPADE_LEADS)]
        assert double_dummy(hands, leader, RULES[lead], broken) == naive_double_dummy(hands, leader, broken, RULES[lead])


# -- card values against minimax ----------------------------------------------------------------


def check_card_values(rnd: random.Random, n: int, k: int):
    """``check_card_values_at`` on a random endgame of ``n`` tricks, a random spade-lead option."""
    hands, leader, broken = random_endgame(rnd, n)
    return check_card_values_at(rnd, hands, leader, broken, RULES[rnd.choice(SPADE_LEADS)], k)


def check_card_values_at(rnd: random.Random, hands, leader: int, broken: bool, rules: Rules, k: int):
    """From an endgame between tricks, ``k`` random cards into the next trick, with random
    tricks won and a random leaf: ``card_values`` gives every legal card (named as the rules
    name them) the value minimax gives it. Returns the values."""
    trick_no = 13 - len(hands[0])
    hands, trick = play_into_trick(rnd, hands, leader, broken, trick_no, rules, k)
    won = [0, 0, 0, 0]
    for _ in range(trick_no):
        won[rnd.randrange(4)] += 1
    team = rnd.randrange(2)
    leaf = random_leaf(rnd, team)
    got = card_values(hands, leader, leaf, team, tricks_won=won, trick=trick, rules=rules, spades_broken=broken)
    seat = (leader + k) % 4
    legal = naive_legal_cards(hands[seat], trick, broken, trick_no, rules)
    assert sorted(got) == legal
    assert all(str(c) == str(rules.card(c)) for c in got)
    played = [((leader + i) % 4, c) for i, c in enumerate(trick)]
    for card in legal:
        after = [list(h) for h in hands]
        after[seat].remove(card)
        now = played + [(seat, card)]
        if len(now) == 4:
            winner = naive_trick_winner(now, rules)
            new_won = [w + (s == winner) for s, w in enumerate(won)]
            now_broken = broken or any(plays_as(c, rules) == SPADES for _, c in now)
            want = naive_minimax(after, winner, (), now_broken, trick_no + 1, new_won, rules, leaf, team)
        else:
            want = naive_minimax(after, leader, now, broken, trick_no, won, rules, leaf, team)
        assert got[rules.card(card)] == pytest.approx(want), (hands, leader, trick, card, team, rules)
    return got


def test_card_values_match_minimax():
    rnd = random.Random(21)
    spread = 0
    for i in range(1500):
        got = check_card_values(rnd, (1, 2, 3, 3, 2, 3)[i % 6], rnd.randrange(4))
        spread += len(set(got.values())) > 1
    assert spread > 150  # positions where the choice of card matters


def test_each_objective_is_a_node_search_of_its_own():
    """One node search (the template ``node_search``), the objective bound into a copy per
    objective when it is compiled: no node tests which objective it serves (numba cannot load
    a second specialization of one recursive kernel from its cache, hence a copy, not a type)."""
    from spades_ai.engine import node_search

    tricks, points = ksolver.tricks_search, ksolver.points_search
    assert tricks is node_search and points.__name__.startswith("spades_ai_bound_points_")
    assert (tricks.enter, tricks.backup, tricks.store) == (objectives.tricks_enter, objectives.tricks_backup,
                                                           objectives.tricks_store)
    assert (points.enter, points.backup, points.store) == (objectives.points_enter, objectives.points_backup,
                                                           objectives.points_store)
    assert tricks.node is not points.node and points.node_moves is tricks.node_moves
    hands = [[0, 1], [13, 14], [26, 27], [39, 40]]  # seat 3 ruffs both club leads
    assert double_dummy(hands, leader=0) == 0
    assert set(card_values(hands, 0, tricks_leaf(0), 0, tricks_won=[3, 3, 3, 2]).values()) == {6.0}


def test_position_value_matches_minimax():
    """The kernel Hard's rollouts end in: one search of a position between tricks, in one
    table shared by the searches of a test (a new generation each), against minimax."""
    rnd = random.Random(23)
    tt = np.zeros(exact_table.TT_WIDTH << 12, np.uint64)
    shift = solver._shift(12)
    stats = np.zeros(exact_table.STATS, np.int64)
    spread = 0
    for gen in range(1, 1201):
        n = (1, 2, 3)[gen % 3]
        hands, leader, broken = random_endgame(rnd, n)
        rules = RULES[rnd.choice(SPADE_LEADS)]
        won = [0, 0, 0, 0]
        for _ in range(13 - n):
            won[rnd.randrange(4)] += 1
        team = rnd.randrange(2)
        leaf = random_leaf(rnd, team)
        table = solver._leaf_table(leaf, won)
        got = ksolver.position_value(np.array([sum(1 << c for c in h) for h in hands], np.uint64), leader,
                                     np.array(won, np.int64), broken, team, table, rules.as_array(),
                                     exact_table.memo_of(tt, gen, shift, stats))
        want = naive_minimax(hands, leader, (), broken, 13 - n, won, rules, leaf, team)
        assert got == pytest.approx(want), (hands, leader, broken, won, team)
        lo, hi = ksolver.reachable_bounds(table, np.array(won, np.int64), n)
        spread += lo < want < hi
    assert spread > 100  # positions strictly inside the window: a real search


@pytest.mark.slow
def test_card_values_match_minimax_four_tricks():
    rnd = random.Random(22)
    for _ in range(600):
        check_card_values(rnd, 4, rnd.randrange(4))


def random_position(rnd: random.Random, tricks_left: int, rules: Rules):
    """A deal played at random (naive rules) down to ``tricks_left`` tricks: hands, leader,
    broken, tricks won."""
    cards = list(range(52))
    rnd.shuffle(cards)
    hands = [sorted(cards[13 * s : 13 * s + 13]) for s in range(4)]
    leader = rnd.randrange(4)
    broken = False
    won = [0, 0, 0, 0]
    for trick_no in range(13 - tricks_left):
        hands, trick = play_into_trick(rnd, hands, leader, broken, trick_no, rules, 4)
        leader = naive_trick_winner([((leader + i) % 4, c) for i, c in enumerate(trick)])
        broken = broken or any(suit(c) == SPADES for c in trick)
        won[leader] += 1
    return hands, leader, broken, won


def test_card_values_trick_leaf_match_double_dummy():
    rnd = random.Random(31)
    for i in range(240):
        rules = RULES[SPADE_LEADS[i % len(SPADE_LEADS)]]
        left = 2 + i % 6
        hands, leader, broken, won = random_position(rnd, left, rules)
        dd = double_dummy(hands, leader, rules, broken)
        team = leader % 2
        ours = card_values(hands, leader, tricks_leaf(team), team, tricks_won=won, rules=rules, spades_broken=broken)
        assert max(ours.values()) == won[team] + won[team + 2] + dd
        theirs = card_values(hands, leader, tricks_leaf(1 - team), 1 - team, tricks_won=won, rules=rules,
                             spades_broken=broken)
        assert min(theirs.values()) == won[1 - team] + won[3 - team] + left - dd


def test_partner_totals_key_matches_per_seat_key():
    """A leaf that only adds up one team's partners lets the table key that team by its total.
    The same leaf plus a tiny per-seat term (no merging possible) must give the same values."""
    rnd = random.Random(33)
    tilt = np.tensordot([1.0, 2.0, 3.0, 4.0], np.indices((14, 14, 14, 14)), axes=1) * 1e-7
    differs = 0
    for i in range(60):
        left = 4 + i % 4
        hands, leader, broken, won = random_position(rnd, left, RULES["broken"])
        team = rnd.randrange(2)
        leaf = np.zeros((14, 14, 14, 14))
        score = random_leaf(random.Random(i), team) if i % 3 else (lambda *t: float(t[0] - 3 * (t[2] > 0)))
        for t in itertools.product(range(14), repeat=3):
            if sum(t) <= 13:
                leaf[(*t, 13 - sum(t))] = score(*t, 13 - sum(t))
        a = card_values(hands, leader, leaf, team, tricks_won=won, spades_broken=broken)
        b = card_values(hands, leader, leaf + tilt, team, tricks_won=won, spades_broken=broken)
        assert a.keys() == b.keys()
        for c in a:
            assert abs(a[c] - b[c]) < 1e-5, (hands, leader, won, c, a[c], b[c])
        differs += len(set(a.values())) > 1
    assert differs > 10


@pytest.mark.slow
def test_full_deals_trick_leaf_match_double_dummy():
    rnd = random.Random(32)
    for _ in range(5):
        hands, leader, _, _ = random_position(rnd, 13, Rules())
        dd = double_dummy(hands, leader)
        vals = card_values(hands, leader, tricks_leaf(leader % 2), leader % 2)
        assert max(vals.values()) == dd


# -- hand-checked positions ---------------------------------------------------------------------


def test_full_deal_examples():
    suits = ["AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
             "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"]
    # Seat 3 holds every spade: it ruffs each lead and wins all 13 tricks.
    assert double_dummy(suits, 0) == 0
    assert double_dummy(suits, 3) == 13
    assert sa.double_dummy(" / ".join(suits), leader=1) == 13


# Positions where a generalized table entry is right only thanks to a detail of the relevant
# cards: the first three need the cards an equivalent card stands for ("a card stands for the
# run above it" in the node search; without it they give 3, 3, 4), the next three the boundary cards of
# the cashing count (quick_tricks' pins; without them 3, 6, 4), the next three the boundary of
# the top spade run (sure_spade_run's pin; without it 4, 6, 4), then two of each of the last
# two kinds again. Found by comparing the solver
# with an exact-key version on random positions; every answer was confirmed by an exhaustive
# search (every legal card, no table), the first also by ``naive_double_dummy`` (slow test).
REGRESSIONS = [
    ("3H JH 8S JS QS / AD 4H KH 4S AS / 5D TD KD 6S TS / 3C 2D 9D QD 2S", 2, True, "after_first_trick", 4),
    (("2C 3C 5C KD QD KH AH JS / QC 8D TD AD 3H 2S 9S TS / 4C 6C JC AC 4S 7S QS KS / "
      "7C 8C 9C TC KC 5D 7H 8S"), 1, False, "anytime", 2),
    (("5C JC TH JH AH 2S 5S KS / JD 2D 5D 2H 7H 4S TS JS / 9D 7D 3H 6H 9H KH 3S QS / "
      "8C QC KC 4D 6S 7S 8S 9S"), 0, True, "broken", 3),
    ("3C JC 2H 9S JS QS / 9D AD JH 4S 7S AS / 4C 5D 4H 5H 8S TS / 6C KC 4D TD 3H 6S", 2, False,
     "after_three_tricks", 2),
    ("2D AD QH 4S 7S JS QS / QC 3D 5D 9D 3S 5S KS / 4C 6C 8C 6D QD 8S AS / AC 4D 8D 2S 6S 9S TS", 0, True,
     "after_first_trick", 5),
    ("5C 7C 9C AC TD JD 2S / 2C QC 2D 6D 7D 8D 9D / 2H 4H 6H QH 3S 8S JS / 3C 6C JC 5S 6S 9S AS", 3, False,
     "after_three_tricks", 3),
    ("JC JD 4H 4S 7S KS / AC 7H 9H QH KH 5S / 2C 4C 5C 3D QD TS / 5D 8D 2S 6S 9S QS", 2, True,
     "after_three_tricks", 3),
    ("2D 4D 5D 9D 8S TS AS / 2C 3C 6C 4H TH 2S 9S / 7C QC 9H 3S 5S 6S KS / AC 6D QD 2H 7S JS QS", 0, True,
     "anytime", 5),
    ("2C 4C 7C 7D 5S 6S AS / 3C QC 6D 9D 4H 3S 4S / JC KC TD 2H 7H 9S KS / TC 2S 7S 8S TS JS QS", 0, False,
     "broken", 3),
    # Two more of each of the last two kinds, found once the top spade joined every region.
    ("3D 6D 3H 3S / 7C 8C TH JH / 4C TC KC 9S / 3C AC 7S JS", 2, True, "anytime", 2),
    ("3C TD QD 2S 8S KS AS / 9C QC 2D 3D JD JH JS / 4C 5C 7D 8D KD 4H KH / 4D 5D 6D 9D AD 5H QH", 0, True,
     "after_first_trick", 5),
    ("3H 5H QH AH AS / JH 3S 7S 9S TS / 6C 7H 6S QS KS / 5C 4H 8H 4S 5S", 2, True, "broken", 4),
    ("2H 5H TS JS AS / 7C 2D 5S 6S QS / 6D 2S 7S 8S 9S / 4C 9D AD 3S KS", 1, True,
     "after_three_tricks_or_broken", 2),
]


@pytest.mark.parametrize("deal, leader, broken, lead, want", REGRESSIONS)
def test_double_dummy_regressions(deal, leader, broken, lead, want):
    assert double_dummy(deal, leader, RULES[lead], broken) == want
    hands = deal.split("/")
    team = leader % 2
    vals = card_values(hands, leader, tricks_leaf(team), team, tricks_won=[13 - len(hands[0].split()), 0, 0, 0],
                       rules=RULES[lead], spades_broken=broken)
    assert max(vals.values()) == want + (13 - len(hands[0].split())) * (team == 0)


def exhaustive_kernel():
    """A plain numba search for the slow test: every legal card, alpha-beta on "at least k
    tricks", no table, no equivalent cards, no sure tricks. Not cached (numba cannot cache
    this recursion reliably), so it compiles in each run that needs it."""
    from numba import njit

    from spades_ai.engine.bits import lowest_bit, popcount, suit_mask_of
    from spades_ai.engine.play import follow_mask, lead_mask, winning_offset

    @njit
    def at_least(hands, seat, pos, led, trick, broken, n, target, team, spade_lead):
        if pos == 0 and target <= 0:
            return True
        if pos == 0 and target > n:
            return False
        h = hands[seat]
        legal = lead_mask(h, broken, 13 - n, spade_lead, 0) if pos == 0 else follow_mask(h, led)
        ours = (seat & 1) == team
        m = legal
        while m:
            c = lowest_bit(m)
            m ^= c
            hands[seat] = h ^ c
            trick[pos] = c
            if pos < 3:
                r = at_least(hands, (seat + 1) & 3, pos + 1, suit_mask_of(c) if pos == 0 else led, trick, broken, n,
                             target, team, spade_lead)
            else:
                w = (seat + 1 + winning_offset(trick[0], trick[1], trick[2], trick[3])) & 3
                nb = broken or ((trick[0] | trick[1] | trick[2] | trick[3]) >> np.uint64(39)) != 0
                saved = trick.copy()
                r = at_least(hands, w, 0, np.uint64(0), trick, nb, n - 1, target - ((w & 1) == team), team,
                             spade_lead)
                trick[:] = saved
            hands[seat] = h
            if r == ours:
                return ours
        return not ours

    @njit
    def tricks(hands, leader, broken, spade_lead):
        n = np.int64(popcount(hands[0]))
        trick = np.zeros(4, np.uint64)
        v = 0
        while v < n and at_least(hands.copy(), leader, 0, np.uint64(0), trick, broken, n, v + 1, leader & 1,
                                 spade_lead):
            v += 1
        return v

    return tricks


@pytest.mark.slow
def test_double_dummy_against_exhaustive_search():
    exhaustive = exhaustive_kernel()
    rnd = random.Random(71)
    for i in range(1500):
        n = 5 + i % 2
        hands, leader, broken = random_endgame(rnd, n)
        lead = SPADE_LEADS[i % len(SPADE_LEADS)]
        masks = np.array([sum(1 << c for c in h) for h in hands], np.uint64)
        want = exhaustive(masks, leader, broken, RULES[lead].as_array()[R_SPADE_LEAD])
        assert double_dummy(hands, leader, RULES[lead], broken) == want, (hands, leader, broken, lead)


@pytest.mark.slow
def test_first_regression_by_minimax():
    deal, leader, broken, lead, want = REGRESSIONS[0]
    hands = [[int(c) for c in sa.parse_cards(h)] for h in deal.split("/")]
    assert naive_double_dummy(hands, leader, broken, RULES[lead]) == want


def test_low_club_first_lead():
    rules = Rules(first_lead="low_club")
    for index in range(6):
        hands = sa.deal(5, index)
        holder = next(s for s in range(4) if sa.Card.parse("2C") in hands[s])
        # A forced lead can only cost the leader's team.
        assert double_dummy(hands, holder, rules) <= double_dummy(hands, holder)
        # A constant leaf keeps the 13-trick search trivial: only the legality is tested.
        vals = card_values(hands, holder, np.ones((14, 14, 14, 14)), holder % 2, rules=rules)
        assert vals == {sa.Card.parse("2C"): 1.0}
        with pytest.raises(ValueError, match="lowest club"):
            double_dummy(hands, (holder + 1) % 4, rules)
        with pytest.raises(ValueError, match="lowest club"):
            card_values(hands, (holder + 3) % 4, np.ones((14, 14, 14, 14)), 0, rules=rules)


def test_tables_survive_generation_wrap():
    rnd = random.Random(41)
    cases = [random_endgame(rnd, 3) for _ in range(12)]
    want = [naive_double_dummy(h, lead, brk, RULES["broken"]) for h, lead, brk in cases]
    solver._tables.dd_gen = solver._GENERATIONS - 5
    solver._tables.obj_gen = solver._GENERATIONS - 5
    for (h, lead, brk), w in zip(cases, want):
        assert double_dummy(h, lead, spades_broken=brk) == w
        won = [0, 0, 0, 0]
        won[lead] = 10
        vals = card_values(h, lead, tricks_leaf(lead % 2), lead % 2, tricks_won=won, spades_broken=brk)
        assert max(vals.values()) == w + 10


def test_threads_agree():
    rnd = random.Random(42)
    cases = [random_endgame(rnd, 3) for _ in range(40)]
    want = [double_dummy(h, lead, spades_broken=brk) for h, lead, brk in cases]
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda c: double_dummy(c[0], c[1], spades_broken=c[2]), cases))
    assert got == want


# -- kernels --------------------------------------------------------------------------------------


def test_distinct_moves_matches_definition():
    rnd = random.Random(51)
    for _ in range(3000):
        cards = rnd.sample(range(52), rnd.randint(4, 52))
        own = sum(1 << c for c in cards[: rnd.randint(1, min(13, len(cards)))])
        gone = sum(1 << c for c in cards if not own >> c & 1 and rnd.random() < 0.6)
        legal = own if rnd.random() < 0.5 else own & bits.SUIT_MASK[rnd.randrange(4)].item()
        assert int(exact_moves.distinct_moves(np.uint64(legal), np.uint64(own), np.uint64(gone))) == \
            naive_distinct_runs(legal, own, gone)


def naive_distinct_runs(legal: int, own: int, gone: int) -> int:
    """Drop each card whose next lower own card in its suit has only ``gone`` cards between."""
    keep = 0
    for c in range(52):
        if not legal >> c & 1:
            continue
        lower = [x for x in range(13 * (c // 13), c) if own >> x & 1]
        if lower and all(gone >> x & 1 for x in range(lower[-1] + 1, c)):
            continue
        keep |= 1 << c
    return keep


def test_compress_deposit_match_portable():
    rng = np.random.default_rng(52)
    for _ in range(2000):
        x, mask = (np.uint64(v >> rng.integers(0, 52)) for v in rng.integers(0, 2**52, size=2))
        packed = bits.compress_bits(x, mask)
        assert packed == bits.compress_bits_portable(x, mask)
        assert bits.deposit_bits(packed, mask) == bits.deposit_bits_portable(packed, mask) == (x & mask)


# -- input errors ----------------------------------------------------------------------------------

HANDS = ["AS 2H", "KS 3H", "QS 4H", "JS 5H"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hands": HANDS[:3]}, "4 hands, not 3"),
        ({"hands": ["AS 2H", "KS", "QS 4H", "JS 5H"]}, r"equal size, not \[2, 1, 2, 2\]"),
        ({"hands": ["", "", "", ""]}, "1..13 cards"),
        ({"hands": ["AS 2H", "AS 3H", "QS 4H", "JS 5H"]}, "seats 0 and 1 both hold AS"),
        ({"hands": ["AS 2H", "KS 3H", "QS 4X", "JS 5H"]}, "seat 2's hand: bad card '4X'"),
        ({"hands": ["AS AS", "KS 3H", "QS 4H", "JS 5H"]}, "seat 0's hand: card AS appears twice"),
        ({"hands": [1 << 60, 2, 4, 8]}, "bits outside 0..51"),
        ({"hands": 7}, "four card collections"),
        ({"leader": 4}, "leader must be a seat 0..3, not 4"),
        ({"leader": -1}, "leader must be a seat"),
        ({"leader": True}, "leader must be a seat"),
        ({"leader": 1.0}, "leader must be a seat"),
        ({"rules": "broken"}, "rules must be a Rules object"),
        ({"spades_broken": 1}, "spades_broken must be True or False"),
    ],
)
def test_double_dummy_errors(kwargs, message):
    args = {"hands": HANDS, "leader": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        double_dummy(**args)


LEAF = tricks_leaf(0)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"trick": ["2C", "3C", "4C", "5C"]}, "0..3 cards, not 4"),
        ({"trick": ["AS"]}, "seat 0 holds AS, already played"),
        ({"trick": ["6H", "7H"]}, r"must hold \[1, 1, 2, 2\] cards, not \[2, 2, 2, 2\]"),
        ({"hands": ["2H", "KS 3H", "QS 4H", "JS 5H"], "trick": ["AS"]}, "seat 0 could not play AS"),
        ({"hands": ["AS", "KS 3H", "QS 4H", "JS 5H"], "trick": ["6H"], "tricks_won": [11, 0, 0, 0],
          "spades_broken": True, "leader": 0}, None),
        ({"hands": ["AS", "3H", "QS 4H", "JS 5H"], "trick": ["6H", "KS"], "spades_broken": True},
         "seat 1 could not play KS to the trick: its legal cards were 3H"),
        ({"tricks_won": [1, 2, 3]}, "four counts"),
        ({"tricks_won": [11, 0, 0, -1]}, "four counts >= 0"),
        ({"tricks_won": [1, 2, 3, 4]}, "sum to 10, but 11 trick"),
        ({"tricks_won": None}, "tricks_won is needed"),
        ({"leaf": np.zeros((13, 14, 14, 14))}, r"shape \(14, 14, 14, 14\)"),
        ({"leaf": np.full((14, 14, 14, 14), np.nan)}, "every reachable entry must be finite"),
        ({"team": 2}, "team must be 0 or 1"),
        ({"team": True}, "team must be 0 or 1, not True"),
        ({"team": 0.0}, "team must be 0 or 1, not 0.0"),
        ({"leader": 5}, "leader must be a seat"),
    ],
)
def test_card_values_errors(kwargs, message):
    args = {"hands": ["AS 2H", "KS 3H", "QS 4H", "JS 5H"], "leader": 0, "leaf": LEAF, "team": 0,
            "tricks_won": [11, 0, 0, 0], **kwargs}
    if message is None:
        # The control case: the same shape of input, valid, gives values.
        assert card_values(**args)
        return
    with pytest.raises(ValueError, match=message):
        card_values(**args)


def test_card_values_leaf_function_equals_table():
    hands, leader, broken = random_endgame(random.Random(61), 3)
    won = [3, 3, 2, 2]
    table = np.zeros((14, 14, 14, 14))
    for t in itertools.product(range(14), repeat=4):
        table[t] = t[1] * 2 - t[0] + 0.5 * t[3]
    f = lambda t0, t1, t2, t3: t1 * 2 - t0 + 0.5 * t3
    a = card_values(hands, leader, table, 1, tricks_won=won, spades_broken=broken)
    b = card_values(hands, leader, f, 1, tricks_won=won, spades_broken=broken)
    assert a == b
