"""Hard and Crazy bidding like the learned agent (``bidder="learned"``, issue 36 item 4)."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.agents.registry import make_agent
from spades_ai.agents.spec import parse_agent
from spades_ai.game import Hand
from spades_ai.models import bidder
from spades_ai.montecarlo.worlds import decision_values

LEARNED = make_agent("learned")
#: a small Hard, so the test plays in seconds once compiled
HARD = {"worlds": 8}


def test_it_bids_as_the_learned_agent_and_plays_as_hard_in_the_self_play_loop():
    """In the numba loop, Hard with the learned bidder plays the same hands, bid for bid and card
    for card, as ``Mixed(learned, hard)``; its bids differ from Hard's own on some deals."""
    searching = make_agent("hard", bidder="learned", **HARD)
    mixed = sa.Mixed("mixed", LEARNED, make_agent("hard", **HARD))
    a = sa.play_hands([searching, "normal"], 6, seed=3, keep_plays=True)
    b = sa.play_hands([mixed, "normal"], 6, seed=3, keep_plays=True)
    np.testing.assert_array_equal(a.bids, b.bids)
    np.testing.assert_array_equal(a.plays, b.plays)
    own = sa.play_hands([make_agent("hard", **HARD), "normal"], 6, seed=3)
    assert (own.bids[:, 0::2] != a.bids[:, 0::2]).any()


def test_from_python_it_bids_and_values_bids_as_the_learned_bidder():
    """``bid`` and ``blind_nil`` are the learned agent's; ``decision_values`` gives the learned
    bidder's value of every bid it weighs (expected points), and its bid."""
    agent = make_agent("crazy", bidder="learned", worlds=16)
    assert agent.label == "crazy(worlds=16, bidder=learned)"
    for i in range(4):
        obs = Hand(sa.deal(8, i)).observation()
        assert agent.bid(obs) == LEARNED.bid(obs)
        values = np.empty(14)
        bidder.bid_values(obs.public, obs.seat, obs.engine_cards, obs.rules_array, LEARNED.params, values)
        bid, got = decision_values(agent, obs)
        assert bid == LEARNED.bid(obs)
        weighed = {b: float(values[b]) for b in obs.legal_bids() if np.isfinite(values[b])}
        assert {b: v for b, v in got.items() if not np.isnan(v)} == pytest.approx(weighed)
    blind = Hand(sa.deal(2, 0), rules=sa.Rules(blind_nil=True)).observation(blind_decision=True)
    assert agent.blind_nil(blind) is LEARNED.blind_nil(blind)


def test_the_option_is_checked_and_refuses_other_tables():
    with pytest.raises(ValueError, match="option 'bidder': must be one of 'search', 'learned', not 'normal'"):
        make_agent("hard", bidder="normal")
    assert make_agent("hard").options["bidder"] == "search" and make_agent("crazy").options["bidder"] == "search"
    obs = Hand(sa.deal(1, 0, sa.Rules(players=3)), rules=sa.Rules(players=3)).observation()
    with pytest.raises(ValueError, match=r"bidder=learned plays only 4 players in pairs"):
        make_agent("hard", bidder="learned", **HARD).bid(obs)
    assert "bidder=learned" in make_agent("hard", bidder="learned").label
    built = parse_agent("hard:bidder=learned,worlds=8").build()
    assert built.label == "hard(worlds=8, bidder=learned)" and built.learned_bids
