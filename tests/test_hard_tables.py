"""Hard at every table of part 1 (3 players, 4 solo with must win, 5 players), issue 34.

* Hard with its default options plays whole hands through ``play_hands`` (the numba loop) and
  through ``Hand`` (``check_agent``: legal at every decision).
* Its options (exact finishes, bid-aware worlds, reading the play) at those tables: Crazy's
  tests, ``test_crazy_tables.py``.
* Thrift's ``trick_effect`` knows the last seat to play at any table.
"""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.engine.bits import ONE, U64, ZERO
from spades_ai.engine.state import P_TRICK_LEN, legal_now
from spades_ai.montecarlo.selection import trick_effect
from spades_ai.policies.tactics import trick_status, winners_over
from spades_ai.testing import check_agent

#: The tables other than 4 in pairs, must win on at four solo.
TABLES = {
    "three": dict(players=3),
    "four solo must win": dict(players=4, teams="solo", must_win=True),
    "five": dict(players=5),
}


@pytest.mark.parametrize("name", TABLES)
def test_hard_plays_whole_hands_at_every_table(name):
    rules = sa.Rules(**TABLES[name])
    n = rules.players
    rec = sa.play_hands(["hard"] + ["normal"] * (n - 1), 2, rules=rules, seed=5)
    assert rec.tricks_won.shape == (2, n) and (rec.tricks_won.sum(axis=1) == rules.cards_each).all()
    report = check_agent(sa.make_agent("hard", worlds=32), hands=n, rules=rules)
    assert report.startswith(f"hard: {n} hands") and "all legal" in report


def test_trick_effect_knows_the_last_seat_at_three_players():
    """Last to play at 3 players (two cards on the trick): every card that takes the trick has
    one effect (this seat wins it), every card that does not has another (the winner's)."""
    rules = sa.Rules(players=3)
    normal = sa.make_agent("normal")
    seen = 0
    for obs in _positions(normal, rules, seeds=range(6)):
        pub = obs.public
        if obs.phase != "playing" or pub[P_TRICK_LEN] != 2:
            continue
        hand = np.uint64(obs.engine_cards)
        legal = int(legal_now(pub, hand, obs.rules_array))
        win, _, led = trick_status(pub)
        by_beats = {}
        for c in (c for c in range(56) if legal >> c & 1):
            beats = winners_over(ONE << U64(c), win, led) != ZERO
            by_beats.setdefault(bool(beats), set()).add(trick_effect(pub, obs.seat, hand, c, obs.rules_array))
        assert all(len(effects) == 1 for effects in by_beats.values()), by_beats
        seen += len(by_beats) == 2
    assert seen > 5


def _positions(agent, rules, seeds):
    """Every observation of the deals of ``seeds`` at ``rules``, ``agent`` at every seat."""
    for seed in seeds:
        hand = sa.Hand(sa.deal(seed, 0, rules), rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            yield obs
            hand.bid(agent.bid(obs)) if hand.phase == "bidding" else hand.play(agent.play(obs))


def test_bids_above_thirteen_are_weighed_at_three_players():
    """At 3 players the bids run to 17 (``cards_each``): ``decision_values`` gives a value for
    every legal bid, those above 13 included, and the bid chosen is one of them."""
    from spades_ai.montecarlo import decision_values

    rules = sa.Rules(players=3)
    hand = sa.Hand(sa.deal(2, 0, rules), rules=rules)
    bid, values = decision_values(sa.make_agent("hard", worlds=16), hand.observation())
    assert sorted(values) == list(range(rules.cards_each + 1)) and bid in values
