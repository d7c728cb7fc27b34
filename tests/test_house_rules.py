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
from spades_ai.agents.selfplay import resolve_lineup
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
