"""Hard and Crazy bidding like the learned agent (``bidder="learned"``, issue 36 item 4)."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.agents.registry import make_agent
from spades_ai.agents.spec import parse_agent
from spades_ai.game import Hand
from spades_ai.models import bidder
from spades_ai.models.model import model_at
from spades_ai.montecarlo.worlds import decision_values

LEARNED = make_agent("learned")
#: a small Hard, so the test plays in seconds once compiled
HARD = {"worlds": 8}


def test_it_bids_as_the_learned_agent_and_plays_as_hard_in_the_self_play_loop():
    """In the numba loop, Hard with the learned bidder plays the same hands, bid for bid and card
    for card, as ``Mixed(learned, hard)``; its bids differ from Hard's own on some deals."""
    searching = make_agent("hard", bidder="learned", **HARD)
    mixed = sa.Mixed("mixed", LEARNED, make_agent("hard", bidder="search", **HARD))
    a = sa.play_hands([searching, "normal"], 6, seed=3, keep_plays=True)
    b = sa.play_hands([mixed, "normal"], 6, seed=3, keep_plays=True)
    np.testing.assert_array_equal(a.bids, b.bids)
    np.testing.assert_array_equal(a.plays, b.plays)
    own = sa.play_hands([make_agent("hard", bidder="search", **HARD), "normal"], 6, seed=3)
    assert (own.bids[:, 0::2] != a.bids[:, 0::2]).any()


def test_from_python_it_bids_and_values_bids_as_the_learned_bidder():
    """``bid`` is the learned agent's; ``decision_values`` gives the learned bidder's value of
    every bid it weighs (expected points), and its bid."""
    agent = make_agent("crazy", bidder="learned", worlds=16)
    assert agent.label == "crazy(worlds=16, bidder=learned)"
    for i in range(4):
        obs = Hand(sa.deal(8, i)).observation()
        assert agent.bid(obs) == LEARNED.bid(obs)
        values = np.empty(14)
        bidder.bid_values(obs.public, obs.seat, obs.engine_cards, obs.rules_array, LEARNED.params, values,
                          model_at(LEARNED.params, obs.rules_array))  # the 4-player model of the agent's set
        bid, got = decision_values(agent, obs)
        assert bid == LEARNED.bid(obs)
        weighed = {b: float(values[b]) for b in obs.legal_bids() if np.isfinite(values[b])}
        assert {b: v for b, v in got.items() if not np.isnan(v)} == pytest.approx(weighed)


def test_a_blind_nil_and_the_bids_at_other_tables_stay_the_searchs():
    """The model knows the table of four in pairs and no match score: a blind nil, and every bid
    at three players, are Hard's own decisions (the same worlds: the same answers)."""
    # trailing 100-420 near the end, Hard bids blind nil (tests/test_mc_agents.py); the model never would
    deal = sa.simulate.deal_masks(60, 1, 1)[0].tolist()
    desperate = Hand(deal, 1, sa.Rules(blind_nil=True), (100, 420), hands_played=5).observation(blind_decision=True)
    wide = {"worlds": 300, "seed": 1}
    assert (
        make_agent("hard", bidder="learned", **wide).blind_nil(desperate)
        is make_agent("hard", bidder="search", **wide).blind_nil(desperate)
        is True
    )
    assert not LEARNED.blind_nil(desperate)
    learned_bids, own = make_agent("hard", bidder="learned", **HARD), make_agent("hard", bidder="search", **HARD)
    three = sa.Rules(players=3)
    for i in range(3):
        obs = Hand(sa.deal(1, i, three), rules=three).observation()
        assert learned_bids.bid(obs) == own.bid(obs)
        (b, values), (b_own, values_own) = decision_values(learned_bids, obs), decision_values(own, obs)
        assert b == b_own and values.keys() == values_own.keys()
        np.testing.assert_array_equal(list(values.values()), list(values_own.values()))  # NaN where not weighed


def test_the_option_is_checked_and_written_in_the_grammar():
    with pytest.raises(ValueError, match="option 'bidder': must be one of 'search', 'learned', not 'normal'"):
        make_agent("hard", bidder="normal")
    assert make_agent("crazy").options["bidder"] == "search"
    built = parse_agent("crazy:bidder=learned,worlds=8").build()
    assert built.label == "crazy(worlds=8, bidder=learned)" and built.learned_bids
