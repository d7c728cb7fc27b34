"""Every built-in agent under every house rule of RULES.md, one at a time and in random
combinations (issue 9): every hand finishes, every pass, bid and card is legal (``check_agent``
plays them through ``Hand``, which refuses anything illegal), decisions are reproducible, and
the numba self-play loop gives the same records as the checked Python loop.

The default run is small; ``pytest -m slow`` plays 1,000 hands per agent over random rules.
"""

from __future__ import annotations

import random

import pytest
from naive import random_rules_kwargs

from spades_ai import Rules, make_agent, play_hands
from spades_ai.selfplay.play import resolve_lineup
from spades_ai.testing import check_agent

AGENTS = ("random", "easy", "normal", "hard", "crazy")

#: One rule set per option value of RULES.md's table (each with the defaults otherwise).
EVERY_OPTION = {
    "defaults": Rules(),
    "target_250_loss_off": Rules(target_score=250, loss_threshold=None),
    "nil_off": Rules(nil=False),
    "nil_bonus_50": Rules(nil_bonus=50),
    "blind_nil": Rules(blind_nil=True),
    "blind_nil_trailing_100": Rules(blind_nil=True, blind_nil_min_deficit=100),
    "nil_tricks_count": Rules(nil_tricks_count=True),
    "bag_limit_2": Rules(bag_limit=2, bag_penalty=20),
    "lead_after_first": Rules(spade_lead="after_first_trick"),
    "lead_after_three": Rules(spade_lead="after_three_tricks"),
    "lead_after_three_or_broken": Rules(spade_lead="after_three_tricks_or_broken"),
    "lead_anytime": Rules(spade_lead="anytime"),
    "low_club": Rules(first_lead="low_club"),
    "min_bid_4": Rules(min_bid=4),
    "min_team_bid_5": Rules(min_team_bid=5),
    "ten_for_200": Rules(ten_for_200=True),
    "suicide": Rules.preset("suicide"),
    "mirror": Rules.preset("mirror"),
    "whiz": Rules.preset("whiz", min_bid=2),
    "max_hands_3": Rules(target_score=None, max_hands=3),
    "closed_bidding": Rules(closed_bidding=True),
    "hook": Rules(hook=True),
    "half_blind_penalty": Rules(blind_nil=True, half_blind_penalty=True),
    "pass_1": Rules(pass_cards=1),
    "pass_3": Rules(pass_cards=3),
    "blind_pass_2": Rules(blind_nil=True, blind_pass=2),
    "jokers_1": Rules(jokers=1),
    "jokers_2": Rules(jokers=2),
    "deuces_high_1": Rules(deuces_high=1),
    "deuces_high_4": Rules(deuces_high=4),
    "jokers_2_deuces_high_2": Rules(jokers=2, deuces_high=2),
    "jokers_1_deuces_high_3_low_club": Rules(jokers=1, deuces_high=3, first_lead="low_club"),
}


def agent(name: str, seed: int = 1):
    """A built-in; Hard and Crazy with a few worlds, so that the rules, not the search, are tried."""
    if name in ("hard", "crazy"):
        return make_agent(name, worlds=4, seed=seed)
    return make_agent(name, seed=seed)


def random_rules(seed: int, n: int) -> list[Rules]:
    rng = random.Random(seed)
    return [Rules(**random_rules_kwargs(rng)) for _ in range(n)]


@pytest.mark.parametrize("option", list(EVERY_OPTION))
@pytest.mark.parametrize("name", AGENTS)
def test_every_builtin_plays_legally_under_every_option(name, option):
    hands = 4 if name in ("hard", "crazy") else 12
    report = check_agent(agent(name), hands=hands, seed=7, rules=EVERY_OPTION[option], opponents="random")
    assert report.endswith("all legal and reproducible")


@pytest.mark.parametrize("k, rules", list(enumerate(random_rules(91, 8))))
@pytest.mark.parametrize("name", AGENTS)
def test_every_builtin_plays_legally_under_random_combinations(name, k, rules):
    hands = 4 if name in ("hard", "crazy") else 8
    report = check_agent(agent(name, seed=k), hands=hands, seed=100 + k, rules=rules)
    assert report.endswith("all legal and reproducible")


def test_the_random_combinations_draw_jokers_and_high_deuces():
    drawn = random_rules(91, 8) + random_rules(92, 12)
    assert any(r.jokers for r in drawn) and any(r.deuces_high for r in drawn)
    assert any(r.jokers and r.deuces_high and (r.pass_cards or r.closed_bidding) for r in drawn)


@pytest.mark.parametrize("rules", [Rules(jokers=2, deuces_high=2, pass_cards=3), Rules.preset("mirror", jokers=1, deuces_high=2)])
@pytest.mark.parametrize("name", ["hard", "ismcts"])
def test_exact_leaves_and_ismcts_play_jokers_and_high_deuces_legally(name, rules):
    """Hard's exact finish (``solver_tricks``) and ISMCTS search the trump lane too."""
    a = make_agent("hard", worlds=4, solver_tricks=4, seed=2) if name == "hard" else make_agent("ismcts", iterations=60, seed=2)
    report = check_agent(a, hands=4, seed=11, rules=rules, opponents="normal")
    assert report.endswith("all legal and reproducible")


class Checked:
    """A built-in behind a plain Python class: self-play then takes the Python loop, where
    ``Hand`` checks every action."""

    def __init__(self, inner):
        self.inner, self.name = inner, inner.name

    def __getattr__(self, attr):
        return getattr(self.inner, attr)


@pytest.mark.parametrize("k, rules", list(enumerate(random_rules(92, 12))))
def test_numba_self_play_equals_the_checked_python_loop_under_random_combinations(k, rules):
    lineup = [agent("hard", k), agent("normal", k), agent("easy", k), agent("random", k)]
    if k % 2:
        lineup = [agent("crazy", k), agent("normal", k), agent("normal", k), agent("random", k)]
    fast = play_hands(lineup, 6, seed=k, rules=rules, dealer=k % 4)
    slow = play_hands([Checked(a) for a in resolve_lineup(lineup)], 6, seed=k, rules=rules, dealer=k % 4)
    assert fast == slow
    assert (fast.tricks_won.sum(axis=1) == 13).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", AGENTS)
def test_a_thousand_hands_per_builtin_under_random_rules(name):
    played = 0
    for k, rules in enumerate(random_rules(1000 + AGENTS.index(name), 50)):
        report = check_agent(agent(name, seed=k), hands=20, seed=k, rules=rules, opponents=agent("normal"))
        assert report.endswith("all legal and reproducible")
        played += 20
    assert played == 1000


@pytest.mark.parametrize("rules", [Rules(jokers=1), Rules(deuces_high=2), Rules(jokers=2, deuces_high=2, pass_cards=3)])
def test_the_framework_adapters_refuse_jokers_and_high_deuces_by_name(rules):
    """OpenSpiel and PettingZoo encode the plain 52-card deck: both build on ``encoding.Table``."""
    from spades_ai import RulesError
    from spades_ai.interop.encoding import Table

    with pytest.raises(RulesError, match=r"rules fields 'jokers' \(\d\) and 'deuces_high' \(\d\) must be 0"):
        Table(rules.replace(pass_cards=0))


def test_python_worlds_hold_card_ids_under_jokers_and_high_deuces():
    """``sample_worlds`` / ``play_out`` / ``world_weights`` speak card ids at the Python face
    (the kernels' trump lane stays inside)."""
    import numpy as np

    from spades_ai import Hand, deal, play_out, sample_worlds
    from spades_ai.montecarlo.worlds import count_worlds, world_weights

    rules = Rules(jokers=2, deuces_high=2)
    hand = Hand(deal(4), rules=rules)
    normal = make_agent("normal")
    while hand.phase == "bidding":
        hand.bid(normal.bid(hand.observation()))
    for _ in range(9):
        hand.play(normal.play(hand.observation()))
    obs = hand.observation()
    assert count_worlds(obs) > 1
    worlds = sample_worlds(obs, 30, seed=2)
    played = [int(p) for p in obs.played_by]
    for w in worlds:
        assert int(w[obs.seat]) == int(obs.cards)
        assert int(np.bitwise_or.reduce(w)) | played[0] | played[1] | played[2] | played[3] == (1 << 52) - 1
    assert world_weights(obs, worlds).shape == (30,)
    first = obs.legal_cards()[-1]
    result = play_out(obs, worlds[0], ["normal"] * 4, first=first)
    assert sum(result.tricks_won) == 13
