"""Invariants of dealing, play and scoring, checked on hypothesis-drawn inputs."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import naive_match_winner, naive_score, random_rules_kwargs

import spades_ai as sa
from spades_ai import Hand, IllegalPlayError, Rules, match_winner, score_hand
from spades_ai.simulate import deal_masks

SEEDS = st.integers(0, 2**64 - 1)
INDICES = st.integers(0, 2**40)
SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rules_strategy(draw):
    return Rules(**random_rules_kwargs(random.Random(draw(st.integers(0, 2**32)))))


@st.composite
def trick_counts(draw):
    """Four non-negative counts adding to 13."""
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]


# -- dealing -----------------------------------------------------------------------------------


@SETTINGS
@given(seed=SEEDS, index=INDICES)
def test_deal_is_a_partition_of_the_deck(seed, index):
    hands = sa.deal(seed, index)
    assert len(hands) == 4 and all(len(h) == 13 for h in hands)
    cards = [int(c) for h in hands for c in h]
    assert sorted(cards) == list(range(52))
    for h in hands:
        assert [int(c) for c in h] == sorted(int(c) for c in h)


@SETTINGS
@given(seed=SEEDS, index=st.integers(0, 2**40), n=st.integers(1, 6), k=st.integers(0, 5))
def test_same_key_same_deal_in_any_order(seed, index, n, k):
    k %= n
    first = sa.deal(seed, index + k)
    batch = deal_masks(seed, index, n)  # dealt in a batch, after other deals
    assert sa.deal(seed, index + k) == first
    assert [int(m) for m in batch[k]] == [sum(1 << int(c) for c in h) for h in first]
    assert [int(m) for m in deal_masks(seed, index + k, 1)[0]] == [int(m) for m in batch[k]]


@SETTINGS
@given(seed=SEEDS, index=INDICES)
def test_different_keys_differ(seed, index):
    """Neighbouring keys give different deals (a stuck stream would repeat one deal)."""
    base = sa.deal(seed, index)
    assert sa.deal(seed, index + 1) != base
    assert sa.deal(seed ^ 1, index) != base


# -- play ---------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 400), rules=rules_strategy(), dealer=st.integers(0, 3))
def test_random_playouts_take_13_tricks(seed, n, rules, dealer):
    tricks = sa.random_playouts(n, seed=seed, rules=rules, dealer=dealer)
    assert tricks.shape == (n, 4) and tricks.dtype == np.int64
    assert (tricks.sum(axis=1) == 13).all() and (tricks >= 0).all()


def pass_randomly(h: Hand, choose) -> None:
    """Passing rounds, if the rules have one now: ``choose(cards, n)`` picks each seat's pass."""
    while h.phase == "passing":
        seat = h.to_act
        h.pass_cards(seat, choose(sorted(int(c) for c in h.cards(seat)), h.observation().pass_count))


@settings(deadline=None, max_examples=60)
@given(seed=SEEDS, index=INDICES, rules=rules_strategy(), dealer=st.integers(0, 3), data=st.data())
def test_a_seat_only_plays_cards_it_holds(seed, index, rules, dealer, data):
    hands = [set(int(c) for c in h) for h in sa.deal(seed, index)]
    h = Hand([sorted(x) for x in hands], dealer=dealer, rules=rules)
    pass_randomly(h, lambda cards, n: data.draw(st.permutations(cards))[:n])
    while h.phase == "bidding":
        h.bid(data.draw(st.sampled_from(h.legal_bids())))
    pass_randomly(h, lambda cards, n: data.draw(st.permutations(cards))[:n])
    hands = [set(int(c) for c in h.cards(s)) for s in range(4)]  # the cards after any passes
    played = [[], [], [], []]
    while h.phase == "playing":
        seat = h.to_act
        held = [int(c) for c in h.cards(seat)]
        assert set(held) == hands[seat] - set(played[seat])
        legal = [int(c) for c in h.legal_cards()]
        assert legal and set(legal) <= set(held)
        stranger = data.draw(st.sampled_from(sorted(set(range(52)) - set(held))))
        try:
            h.play(stranger)
        except IllegalPlayError as exc:
            assert f"seat {seat} does not hold" in str(exc)
        else:
            raise AssertionError(f"seat {seat} played {stranger}, which it does not hold")
        card = data.draw(st.sampled_from(legal))
        h.play(card)
        played[seat].append(card)
        assert card not in [int(c) for c in h.cards(seat)]
    assert [sorted(p) for p in played] == [sorted(x) for x in hands]
    assert sum(h.tricks_won) == 13
    assert all(len(t) == 4 and [s for s, _ in t] == [(t[0][0] + i) % 4 for i in range(4)] for t in h.tricks)


# -- scoring ------------------------------------------------------------------------------------


@st.composite
def hand_outcomes(draw):
    rules = draw(rules_strategy())
    bids = draw(st.lists(st.integers(0, 13), min_size=4, max_size=4))
    tricks = draw(trick_counts())
    blind = [b == 0 and draw(st.booleans()) for b in bids]
    scores = draw(st.tuples(st.integers(-2000, 2000), st.integers(-2000, 2000)))
    bags = draw(st.tuples(st.integers(0, rules.bag_limit - 1), st.integers(0, rules.bag_limit - 1)))
    return rules, bids, tricks, blind, scores, bags


@SETTINGS
@given(case=hand_outcomes())
def test_score_invariants(case):
    rules, bids, tricks, blind, scores, bags = case
    r = score_hand(bids, tricks, rules, blind=blind, scores=scores, bag_count=bags)
    for t in (0, 1):
        assert r.scores[t] == scores[t] + r.points[t]  # scores conserve
        assert 0 <= r.bag_count[t] < rules.bag_limit  # bags stay below the limit
        assert r.points[t] == r.contract_points[t] + r.new_bags[t] + r.nil_points[t] - r.bag_penalties[t] * rules.bag_penalty
        assert bags[t] + r.new_bags[t] == r.bag_count[t] + r.bag_penalties[t] * rules.bag_limit  # no bag lost
        assert r.team_tricks[t] == tricks[t] + tricks[t + 2]
        assert r.contract[t] == bids[t] + bids[t + 2]  # a nil adds 0
        assert r.made[t] == (r.counted_tricks[t] >= r.contract[t])
        assert r.new_bags[t] >= 0 and r.bag_penalties[t] >= 0
        if not r.made[t]:
            assert r.contract_points[t] == -10 * r.contract[t]
    for s in range(4):
        assert r.nil_made[s] == (None if bids[s] > 0 else tricks[s] == 0)
    ref = naive_score(bids, blind, tricks, scores, bags, rules)
    assert list(r.points) == ref["points"] and list(r.scores) == ref["scores"] and list(r.bag_count) == ref["bags"]
    assert list(r.made) == ref["made"] and list(r.nil_made) == ref["nil"]


@SETTINGS
@given(case=hand_outcomes())
def test_a_trick_more_never_lowers_contract_points(case):
    """A trick moved from the other team to a non-nil bidder never lowers its team's contract
    points (made stays made, set may become made) and leaves its nil points alone."""
    rules, bids, tricks, blind, scores, bags = case
    for seat in range(4):
        donors = [s for s in range(4) if s % 2 != seat % 2 and tricks[s] > 0]
        if bids[seat] == 0 or not donors:
            continue
        more = list(tricks)
        more[seat] += 1
        more[donors[0]] -= 1
        a = score_hand(bids, tricks, rules, blind=blind, scores=scores, bag_count=bags)
        b = score_hand(bids, more, rules, blind=blind, scores=scores, bag_count=bags)
        t = seat % 2
        assert b.contract_points[t] >= a.contract_points[t]
        assert b.nil_points[t] == a.nil_points[t]


@SETTINGS
@given(scores=st.tuples(st.integers(-1000, 1500), st.integers(-1000, 1500)), rules=rules_strategy(),
       hands_played=st.integers(0, 30))
def test_match_winner_properties(scores, rules, hands_played):
    w = match_winner(scores, rules, hands_played=hands_played)
    assert w == naive_match_winner(scores, rules, hands_played)
    assert match_winner(scores[::-1], rules, hands_played=hands_played) == (None if w is None else 1 - w)
    if w is not None:
        assert scores[w] > scores[1 - w]
    if scores[0] == scores[1]:
        assert w is None


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 2**32), rules=rules_strategy())
def test_played_hands_score_consistently(seed, rules):
    """A whole random hand: tricks add to 13, and the result is score_hand of its bids and tricks."""
    rnd = random.Random(seed)
    h = Hand(sa.deal(seed), dealer=rnd.randrange(4), rules=rules)
    pass_randomly(h, rnd.sample)
    while h.phase == "bidding":
        h.bid(rnd.choice(h.legal_bids()))
    pass_randomly(h, rnd.sample)
    while h.phase == "playing":
        h.play(rnd.choice(h.legal_cards()))
    assert sum(h.tricks_won) == 13
    assert h.result() == score_hand(h.bids, h.tricks_won, rules, blind=h.blind)
