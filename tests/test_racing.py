"""Racing in Hard's and Crazy's evaluation (issue 11, item 4): candidates clearly worse than the
leader stop playing worlds; the final choice stays anchored (``agents.hard``)."""

from __future__ import annotations

import numpy as np
import pytest

from spades_ai import Rules, make_agent, play_hands
from spades_ai.montecarlo import candidates, search, selection
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.state import legal_now
from spades_ai.kernels import decision_stream
from spades_ai.testing import check_agent
from tests.test_mc_agents import normal_positions

U64 = np.uint64


def decide(obs, worlds, z, bid_aware=False, seed=3):
    """Hard's decision at ``obs`` (a bid, or a card id) with racing threshold ``z`` (0: none)."""
    hand = U64(int(obs.cards))
    pub, seat, rules = obs.public, obs.seat, obs.rules_array
    state = U64(decision_stream(np.int64(seed), pub, seat, hand))
    if obs.phase == "bidding":
        legal = np.int64(legal_bids(seat, hand, pub, rules) & 0x3FFF)
        return int(search.mc_bid(pub, seat, hand, rules, legal, search.SearchSettings(worlds, 0, bid_aware, 0, z, False, 0.0), state, np.empty(0))[0])
    legal = U64(legal_now(pub, hand, rules))
    return int(search.mc_play(pub, seat, hand, rules, legal, search.SearchSettings(worlds, 0, bid_aware, 0, z, False, 0.0), state, np.empty(0))[0])


# -- race_drop on constructed values ----------------------------------------------------------
def test_a_clearly_worse_candidate_is_dropped():
    rnd = np.random.default_rng(1)
    noise = 10.0 * rnd.standard_normal(64)  # shared by all candidates: the worlds' luck
    values = np.stack([noise, noise + 5.0 + rnd.standard_normal(64), noise - 30.0 + rnd.standard_normal(64),
                       noise + 4.9 + rnd.standard_normal(64)], axis=1)
    alive = np.ones(4, dtype=np.bool_)
    anchor = selection.race_drop(values, np.ones(64), 64, alive, 0, 3.0)
    # 2 is 35 points below the leader in every world: gone. The leader (1) and its near-equal
    # rival (3) stay. The anchor (0) is 5 points below the leader with se ~0.13: dropped too,
    # and the leader stands in for it.
    assert alive.tolist() == [False, True, False, True]
    assert anchor == 1


def test_noise_alone_drops_nothing_and_the_anchor_is_kept_without_clear_evidence():
    rnd = np.random.default_rng(2)
    values = 50.0 * rnd.standard_normal((64, 3))  # independent noise, equal means
    values[:, 2] -= 3.0  # a little worse, far inside the noise (se ~ 9)
    alive = np.ones(3, dtype=np.bool_)
    assert selection.race_drop(values, np.ones(64), 64, alive, 2, 3.0) == 2
    assert alive.all()


def test_racing_uses_the_world_weights():
    """A candidate worse only in worlds that weigh nothing is not dropped; worse in the worlds
    that count, it is."""
    values = np.zeros((40, 2))
    values[:20, 1] = -100.0
    w = np.r_[np.zeros(20), np.ones(20)]
    alive = np.ones(2, dtype=np.bool_)
    selection.race_drop(values, w, 40, alive, 0, 3.0)
    assert alive.all()
    alive[:] = True
    selection.race_drop(values, w[::-1].copy(), 40, alive, 0, 3.0)
    assert alive.tolist() == [True, False]


def test_only_the_first_worlds_count():
    values = np.zeros((64, 2))
    values[32:, 1] = -100.0  # worse only after the check
    alive = np.ones(2, dtype=np.bool_)
    selection.race_drop(values, np.ones(64), 32, alive, 0, 3.0)
    assert alive.all()


def test_raced_choice_chooses_among_the_alive():
    values = np.zeros((30, 3))
    values[:, 2] = 50.0  # clearly best, but dropped (as if by an earlier check): not chosen
    values[:, 1] = 10.0
    alive = np.array([True, True, False])
    assert selection.raced_choice(values, np.ones(30), alive, 0, 2.0) == 1
    assert selection.raced_choice(values, np.ones(30), np.ones(3, dtype=np.bool_), 0, 2.0) == 2
    assert selection.raced_choice(values, np.ones(30), np.array([False, True, False]), 1, 2.0) == 1


def test_the_race_checks_grow_by_a_quarter():
    checks, n = [], selection.RACE_BATCH
    while n < 600:
        checks.append(n)
        n = selection.next_race_check(n)
    assert checks[:6] == [32, 64, 96, 128, 160, 200]
    assert all(b - a >= selection.RACE_BATCH for a, b in zip(checks, checks[1:]))


# -- evaluate and the decisions ---------------------------------------------------------------
def test_a_threshold_that_never_drops_gives_the_choice_without_racing():
    """z = inf runs the race's checks but drops nothing: every decision (bids and cards, uniform
    and bid-aware worlds) is exactly the one without racing."""
    n = 0
    for _, obs in normal_positions(seed=61, n_hands=4, rules_cycle=[Rules(), Rules(spade_lead="anytime")]):
        for aware in (False, True):
            assert decide(obs, 80, np.inf, aware) == decide(obs, 80, 0.0, aware), obs
            n += 1
    assert n > 400


def test_racing_plays_the_same_worlds_and_stops_the_dropped():
    """The values of the candidates still alive are those of the race without drops, on the
    rows played; a dropped candidate's rows after its drop are NaN."""
    dropped = 0
    for _, obs in normal_positions(seed=67, n_hands=3):
        if obs.phase != "playing":
            continue
        hand = U64(int(obs.cards))
        legal = U64(legal_now(obs.public, hand, obs.rules_array))
        ids = np.array([c for c in range(52) if int(candidates.play_candidates(obs.public, hand, legal)) >> c & 1], dtype=np.int64)
        if len(ids) < 2:
            continue
        state = U64(decision_stream(np.int64(4), obs.public, obs.seat, hand))
        args = (obs.public, obs.seat, hand, obs.rules_array, ids, False, 200)
        full, _, _, alive_full, _ = search.evaluate(*args, search.SearchSettings(200, 0, False, 0, 0.0, False, 0.0), state, 0)
        raced, _, _, alive, _ = search.evaluate(*args, search.SearchSettings(200, 0, False, 0, 3.0, False, 0.0), state, 0)
        assert alive_full.all()
        assert np.array_equal(raced[:, alive], full[: len(raced), alive])
        dropped += int((~alive).sum())
        for j in np.flatnonzero(~alive):
            assert np.isnan(raced[-1, j]) or len(raced) < 200
    assert dropped > 5


def test_racing_saves_rollouts_and_rarely_changes_the_choice():
    """At Hard's budget racing changes few decisions (only where a dropped candidate would have
    won later) and drops candidates in many."""
    changed = total = 0
    for _, obs in normal_positions(seed=71, n_hands=3):
        total += 1
        changed += decide(obs, 256, selection.RACE_Z) != decide(obs, 256, 0.0)
    assert total > 150 and changed <= 0.05 * total


def test_racing_agents_are_reproducible_and_pass_check_agent():
    for name, racing in (("hard", 1), ("crazy", 0)):  # the defaults: Crazy measured stronger without
        default = make_agent(name)
        assert default.params[search.MC_RACING] == racing and default.params[search.MC_THRIFT] == 1
        agent = make_agent(name, worlds=64, seed=4, racing=True)
        assert agent.params[search.MC_RACING] == 1
        check_agent(agent, hands=3, seed=19)
        off = make_agent(name, racing=False, thrift=False)
        assert off.params[search.MC_RACING] == 0 and off.params[search.MC_THRIFT] == 0
        assert ("racing=False" in off.label) == (racing == 1) and "thrift=False" in off.label
    a = play_hands([make_agent("hard", worlds=64, racing=True), "normal"], 6, seed=8)
    b = play_hands([make_agent("hard", worlds=64, racing=True), "normal"], 6, seed=8)
    assert np.array_equal(a.sheet, b.sheet)


@pytest.mark.parametrize("bad", [1, 0, "yes", None])
def test_racing_and_thrift_are_validated(bad):
    for option in ("racing", "thrift"):
        with pytest.raises(ValueError, match=f"option '{option}': must be True or False"):
            make_agent("hard", **{option: bad})
