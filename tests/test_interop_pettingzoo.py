"""The PettingZoo adapter: PettingZoo's own API and seed tests (hand and match episodes), the
documented observation layout, hands and matches played through it against our engine, and where
optional imports may live."""

import ast
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import spades_ai as sa  # noqa: E402
from spades_ai.interop import encoding  # noqa: E402
from spades_ai.interop import pettingzoo as spz  # noqa: E402

from pettingzoo_play import dict_observation_warnings, play_random  # noqa: E402

RULES = [sa.Rules(), sa.Rules(blind_nil=True, bag_limit=2), sa.Rules.preset("suicide", first_lead="low_club")]


@dict_observation_warnings
@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_test(rules):
    api_test(spz.env(rules), num_cycles=150)


@dict_observation_warnings
def test_pettingzoo_api_test_rotating_dealer():
    api_test(spz.env(dealer=None), num_cycles=150)


@dict_observation_warnings
@pytest.mark.parametrize("rules", [sa.Rules(), sa.Rules(blind_nil=True, target_score=200)])
def test_pettingzoo_api_test_match_episodes(rules):
    api_test(spz.env(rules, dealer=None, episode="match"), num_cycles=400)


@pytest.mark.parametrize("rules", RULES[:2])
def test_pettingzoo_seed_test(rules):
    seed_test(lambda: spz.env(rules), num_cycles=100)


def test_pettingzoo_seed_test_match_episodes():
    seed_test(lambda: spz.env(sa.Rules(target_score=200), dealer=None, episode="match"), num_cycles=300)


def test_docstring_lists_the_observation_fields():
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\w+)\s+(.+)$", spz.__doc__, re.MULTILINE)
    documented = [(int(o), int(n), name) for o, n, name, _ in rows]
    expected = [(encoding.SLICES[name].start, size, name) for name, size, _ in encoding.FIELDS]
    assert documented == expected
    assert sum(size for _, size, _ in encoding.FIELDS) == encoding.OBSERVATION_SIZE == 567



@pytest.mark.parametrize("rules", RULES)
def test_hands_through_pettingzoo_match_our_hand(rules):
    e = spz.env(rules)
    for seed in (1, 2, 3):
        steps, rewards = play_random(e, seed)
        hand = sa.Hand(sa.deal(seed=seed, index=0), dealer=0, rules=rules)
        looked = set()
        for agent, obs, action in steps:
            seat = hand.to_act
            assert agent == f"player_{seat}"
            blind_choice = hand.phase == "bidding" and seat not in looked and hand.legal_bids(blind=True)
            view = hand.observation(blind_decision=bool(blind_choice))
            assert np.array_equal(obs["observation"], encoding.observation_vector(view))
            if action == encoding.LOOK:
                looked.add(seat)
            elif action == encoding.BLIND_NIL:
                hand.bid(0, blind=True)
            elif action >= encoding.BID_OFFSET:
                hand.bid(action - encoding.BID_OFFSET)
            else:
                hand.play(action)
        points = hand.result().points
        assert rewards == {f"player_{s}": float(points[s % 2]) for s in range(4)}


def test_reset_deals_our_deals_in_order():
    e = spz.env()
    e.reset(seed=7)
    for index in range(3):
        if index:
            e.reset()
        for seat in range(4):
            own = e.observe(f"player_{seat}")["observation"][encoding.SLICES["own_cards"]]
            assert list(np.flatnonzero(own)) == [int(c) for c in sa.deal(seed=7, index=index)[seat]]


def test_rotating_dealer_and_first_actor():
    e = spz.env(dealer=None)
    e.reset(seed=0)
    firsts = []
    for i in range(4):
        if i:
            e.reset()
        firsts.append(e.agent_selection)
    assert firsts == ["player_1", "player_2", "player_3", "player_0"]


def test_a_match_through_pettingzoo_is_play_matches_match():
    """Normal at every seat: match 0 of the seed is ``play_matches``'s match 0, hand by hand;
    the observations carry the match's scores and bags; +1 / -1 to the agents at the end."""
    rules, seed = sa.Rules(target_score=250), 5
    rec = sa.play_matches(["normal", "normal"], 1, seed=seed, rules=rules)
    e = spz.env(rules, dealer=None, episode="match")
    e.reset(seed=seed)
    normal, raw = sa.make_agent("normal"), e.unwrapped
    rewards, starts = {}, []
    for agent in e.agent_iter():
        _, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            rewards[agent] = reward
            e.step(None)
            continue
        t = raw.table
        if not t.actions:  # the first action of a hand
            v = e.observe(agent)["observation"]
            starts.append((info["hand_no"], t.dealer, tuple(np.round(v[encoding.SLICES["scores"]] * 1000).astype(int))))
        obs = t.view(t.to_act)
        action = encoding.BID_OFFSET + normal.bid(obs) if obs.phase == "bidding" else int(normal.play(obs))
        e.step(action)
    played = raw.episode.played
    assert [h.points for h in played] == [tuple(p) for p in rec.points.tolist()] and len(played) > 1
    assert [(k, d) for k, d, _ in starts] == list(enumerate(rec.dealer.tolist()))
    mine = [s for _, _, s in starts]  # the scores before each hand, (own team, other) of the first to bid
    first = [(d + 1) % 2 for d in rec.dealer.tolist()]
    carried = [(0, 0)] + [tuple(x) for x in rec.scores[:-1].tolist()]
    assert mine == [(c[f], c[1 - f]) for c, f in zip(carried, first)]
    winner = int(rec.winner[-1])
    assert rewards == {f"player_{s}": 1.0 if s % 2 == winner else -1.0 for s in range(4)}


def test_match_episodes_follow_one_another_and_refuse_bad_options():
    e = spz.env(episode="match")
    e.reset(seed=2)
    assert e.agent_selection == "player_1"  # dealer=0 fixes the first dealer of every match
    with pytest.raises(ValueError, match="episode must be one of 'hand', 'match'"):
        spz.env(episode="season")


def test_a_match_still_undecided_at_the_hand_limit_is_truncated(monkeypatch):
    monkeypatch.setattr("spades_ai.interop.episode.MAX_MATCH_HANDS", 1)
    e = spz.env(sa.Rules(target_score=10_000, loss_threshold=None), episode="match")
    _, rewards = play_random(e, seed=4)
    assert rewards == dict.fromkeys(e.possible_agents, 0.0)
    assert all(e.truncations.values()) and not any(e.terminations.values())


def test_illegal_actions_raise_and_change_nothing():
    e = spz.env()
    e.reset(seed=1)
    agent = e.agent_selection
    with pytest.raises(sa.IllegalPlayError, match="bidding"):
        e.step(0)
    with pytest.raises(ValueError, match="not in 0..67"):
        e.step(99)
    assert e.agent_selection == agent and e.unwrapped.table.actions == []
    e.step(np.int64(55))
    assert e.agent_selection != agent


def test_only_the_agent_to_act_has_a_mask():
    e = spz.env()
    e.reset(seed=2)
    masks = {a: e.observe(a)["action_mask"] for a in e.agents}
    assert [int(m.sum() > 0) for m in masks.values()] == [int(a == e.agent_selection) for a in e.agents]
    assert masks[e.agent_selection].dtype == np.int8


def test_render_ansi_shows_the_table():
    e = spz.env(render_mode="ansi")
    e.reset(seed=3)
    assert "seat 0:" in e.render()
    with pytest.raises(ValueError, match="render_mode"):
        spz.env(render_mode="rgb_array")


def test_optional_frameworks_are_imported_only_in_interop():
    root = Path(sa.__file__).parent
    optional = {"pyspiel", "open_spiel", "pettingzoo", "gymnasium"}
    # and gymnasium in the single-table view of the learning environment (the [learn] extra)
    allowed = {"learn/gym_env.py": {"gymnasium"}}
    offenders = []
    for path in root.rglob("*.py"):
        if path.parent.name == "interop":
            continue
        ok = allowed.get(path.relative_to(root).as_posix(), set())
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(root)}: {n}" for n in names if n.split(".")[0] in optional - ok]
    assert offenders == []
