"""The value bidder's rows (``montecarlo.bid_values``): each candidate bid played out, Normal
finishing, on the deal's own cards and on sampled worlds that agree with the bids before."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.agents.registry import make_agent
from spades_ai.errors import RulesError
from spades_ai.game import Hand
from spades_ai.models import features, replay
from spades_ai.models.model import OUT_VALUE_NIL, VALUE_SCALE, VALUE_SHIFTS
from spades_ai.montecarlo.bid_values import bids_agree, value_bidding_rows
from spades_ai.montecarlo.worlds import sample_worlds
from spades_ai.policies.normal import estimate_tricks, normal_bid

NORMAL = make_agent("normal")


def candidates(obs) -> dict[int, int]:
    """The value bidder's candidate bids at ``obs``, by output (as ``replay.value_candidate``)."""
    guess = normal_bid(obs.public, obs.seat, obs.engine_cards, obs.rules_array, replay.NUMBER_BIDS)
    nil_tried = estimate_tricks(obs.engine_cards, obs.rules_array) < 4.0
    out = {}
    for k in range(OUT_VALUE_NIL + 1):
        b = 0 if k == OUT_VALUE_NIL else guess + VALUE_SHIFTS[k]
        if b in obs.legal_bids() and (b >= 1 if k < OUT_VALUE_NIL else nil_tried):
            out[k] = b
    return out


def margin(result, seat: int) -> float:
    """The seat's side's points minus the other's, bags at their real cost, over VALUE_SCALE."""
    value = [result.contract_points[t] - 9 * result.new_bags[t] + result.nil_points[t] for t in (0, 1)]
    return (value[seat % 2] - value[1 - seat % 2]) / VALUE_SCALE


def test_one_world_is_each_candidate_played_out_by_normal_on_the_deal():
    """One world: each candidate bid played on a clone of the hand, Normal finishing, scored by
    ``HandResult`` with bags at their real cost; NaN for a bid not tried."""
    rows = value_bidding_rows(5, 0, 6)
    r, tried = 0, 0
    for i in range(6):
        hand = Hand(sa.deal(5, i), dealer=0)
        while hand.phase == "bidding":
            obs = hand.observation()
            x = np.empty(features.N_BID_FEATURES)
            features.bid_features(obs.public, obs.seat, obs.engine_cards, obs.rules_array, x)
            np.testing.assert_allclose(rows["x"][r], x, rtol=1e-6)
            bids = candidates(obs)
            for k in range(OUT_VALUE_NIL + 1):
                if k not in bids:
                    assert np.isnan(rows["vals"][r, k])
                    continue
                sim = hand.clone()
                sim.bid(bids[k])
                while sim.phase != "over":
                    o = sim.observation()
                    sim.bid(NORMAL.bid(o)) if sim.phase == "bidding" else sim.play(NORMAL.play(o))
                assert rows["vals"][r, k] == pytest.approx(margin(sim.result(), obs.seat))
                tried += 1
            hand.bid(NORMAL.bid(obs))
            r += 1
    assert r == len(rows["x"]) == 24 and tried > 4 * 24
    assert (rows["worlds"] == 1).all()


def test_the_first_bidder_averages_its_deal_and_the_sampled_worlds():
    """The first bidder has no bid before it to agree with: its row is the mean over the deal's
    own cards and the ``worlds - 1`` worlds ``sample_worlds`` draws from the rows' seed, each
    candidate played out by Normal (``play_out``)."""
    seed, worlds = 9, 4
    rows = value_bidding_rows(seed, 0, 2, worlds=worlds)
    for i in range(2):
        hand = Hand(sa.deal(seed, i), dealer=0)
        obs = hand.observation()
        assert obs.seat == 1
        own = np.array([[int(c) for c in sa.deal(seed, i)]], dtype=np.uint64)
        pool = np.concatenate([own, sample_worlds(obs, worlds - 1, seed=seed)])
        row = rows["vals"][4 * i]
        for k, b in candidates(obs).items():
            values = [margin(sa.play_out(obs, w, [NORMAL] * 4, first=b), obs.seat) for w in pool]
            assert row[k] == pytest.approx(np.mean(values))
        assert rows["worlds"][4 * i] == worlds


def test_a_sampled_world_is_kept_only_if_normal_makes_the_bids_before_on_it():
    """``bids_agree`` against the Python face: Normal bidding on the world's hands from the start
    of the hand makes every bid made so far; the deal's own cards always do."""
    agree = disagree = 0
    for i in range(3):
        deal = sa.deal(31, i)
        hand = Hand(deal, dealer=0)
        while hand.phase == "bidding":
            obs = hand.observation()
            own = np.array([int(c) for c in deal], dtype=np.uint64)
            assert bids_agree(obs.public, obs.seat, own, obs.rules_array)
            for world in sample_worlds(obs, 12, seed=i):
                replay_hand = Hand(tuple(sa.CardSet(int(m)) for m in world), dealer=0)
                same = True
                for _, bid, _ in hand.bid_history():
                    normal = NORMAL.bid(replay_hand.observation())
                    same = same and normal == bid
                    replay_hand.bid(normal)
                got = bool(bids_agree(obs.public, obs.seat, world, obs.rules_array))
                assert got == same
                agree, disagree = agree + same, disagree + (not same)
            hand.bid(NORMAL.bid(obs))
    assert agree > 0 and disagree > 0


def test_the_rows_are_the_same_for_any_chunking_and_fewer_worlds_where_bids_are_rare():
    whole = value_bidding_rows(3, 0, 4, worlds=3)
    parts = [value_bidding_rows(3, s, 2, worlds=3) for s in (0, 2)]
    for k in ("x", "vals", "worlds"):
        np.testing.assert_array_equal(whole[k], np.concatenate([p[k] for p in parts]))
    assert ((1 <= whole["worlds"]) & (whole["worlds"] <= 3)).all()
    assert (whole["worlds"][0::4] == 3).all()  # the first bidder keeps every world


def test_bad_worlds_and_rules_are_refused():
    with pytest.raises(ValueError, match="worlds must be in 1..4096"):
        value_bidding_rows(3, 0, 1, worlds=0)
    with pytest.raises(ValueError, match="worlds"):
        value_bidding_rows(3, 0, 1, worlds=2.5)
    with pytest.raises(RulesError, match="without blind nil"):
        value_bidding_rows(3, 0, 1, rules=sa.Rules(blind_nil=True))
