"""The strong defender of experiments/defender.py (issue 45): OpenSpiel's MCTS in sampled
worlds, at tiny sizes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import spades_ai as sa  # noqa: E402
from experiment_scripts import experiment_script  # noqa: E402
from spades_ai.seats import partner, seats  # noqa: E402
from spades_ai.testing import check_agent  # noqa: E402

D = experiment_script("defender")


def first_card_view(seed: int = 3, rules=None):
    """A view of the first seat to play a card, Normal's bids before it."""
    normal = sa.make_agent("normal")
    hand = sa.Hand(sa.deal(seed, rules=rules), rules=rules)
    while hand.phase == "bidding":
        hand.bid(normal.bid(hand.observation()))
    return hand.observation()


def test_difference_weights_give_own_side_less_the_others():
    four = D.difference_weights(sa.Rules())
    returns = np.array([30.0, -50.0, 30.0, -50.0])  # each seat gets its side's points
    assert (four @ returns).tolist() == [80.0, -80.0, 80.0, -80.0]
    three = sa.Rules(players=3)
    assert (D.difference_weights(three) @ np.array([10.0, 20.0, 40.0])).tolist() == [-20.0, -5.0, 25.0]
    assert partner(0, sa.Rules()) == 2 and len(seats(three)) == 3


def test_it_plays_a_legal_card_and_repeats_by_seed():
    obs = first_card_view()
    agent = D.DeterminizedMCTS(worlds=2, simulations=6, seed=5)
    card = agent.play(obs)
    assert card in obs.legal_cards()
    visits = agent.visits(obs)
    assert sum(n for n, _ in visits.values()) == 2 * 6 - 2  # the root's own first visit, per world
    assert set(visits) == {int(c) for c in obs.legal_cards()}
    again = D.DeterminizedMCTS(worlds=2, simulations=6, seed=5)
    assert again.visits(obs) == visits and again.play(obs) == card


def test_it_passes_the_agent_check_with_normal_rollouts_and_searched_bids():
    check_agent(D.DeterminizedMCTS(worlds=1, simulations=2, rollout="normal", bidder="search"), hands=1)


def test_it_plays_at_three_players():
    rules = sa.Rules(players=3)
    obs = first_card_view(4, rules)
    assert D.DeterminizedMCTS(worlds=1, simulations=4).play(obs) in obs.legal_cards()


@pytest.mark.parametrize(
    "options, words",
    [
        ({"worlds": 0}, ["worlds", "0"]),
        ({"simulations": 1.5}, ["simulations"]),
        ({"rollout": "smart"}, ["rollout", "'smart'"]),
        ({"utility": "mean"}, ["utility", "'mean'"]),
        ({"uct_c": -1.0}, ["uct_c"]),
    ],
)
def test_a_bad_option_is_named(options, words):
    with pytest.raises(ValueError) as e:
        D.DeterminizedMCTS(**options)
    for w in words:
        assert w in str(e.value)
