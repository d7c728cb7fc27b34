"""The tables each environment plays (issue 44): the learning environments with the table's
vector, and the PettingZoo and OpenSpiel adapters: PettingZoo's ``api_test`` and OpenSpiel's
random simulation test at each table of ``CHECKED_TABLES``, the rewards of each seat's side, the
deal of the table's decks (copies included) by chance nodes, resampling from an information state,
and bots both ways."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import Rules
from spades_ai.interop.encoding import BID_OFFSET, observation_layout, observation_vector
from spades_ai.seats import seats, side_of, side_seats
from spades_ai.testing import CHECKED_TABLES, check_agent

from pettingzoo_play import dict_observation_warnings, play_random

OTHER_TABLES = [Rules.preset("cutthroat"), Rules.preset("solo"), Rules(players=5), Rules(players=4, teams="solo")]
TABLES = list(CHECKED_TABLES)
#: the big tables, whose whole matches take long: their match checks are marked slow
BIG = {"8", "12"}


def slow_if_big(names):
    return [pytest.param(n, marks=pytest.mark.slow) if n in BIG else n for n in names]


@pytest.mark.parametrize("rules", OTHER_TABLES, ids=lambda r: f"{r.players}-{r.teams}")
def test_the_learning_environments_play_other_tables(rules):
    from spades_ai.encoding import observation_layout
    from spades_ai.learn import SpadesEnv, VectorEnv

    size = observation_layout(rules).size
    assert VectorEnv(2, rules=rules).layout.size == SpadesEnv(rules=rules).observation_space.shape[0] == size != 567


# -- PettingZoo -------------------------------------------------------------------------------
@dict_observation_warnings
@pytest.mark.parametrize("name", TABLES)
def test_pettingzoo_api_test_at_every_table(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from spades_ai.interop.pettingzoo import env

    api_test(env(CHECKED_TABLES[name], dealer=None), num_cycles=200)


@dict_observation_warnings
@pytest.mark.parametrize("name", slow_if_big(TABLES))
def test_pettingzoo_api_test_of_matches_at_every_table(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from spades_ai.interop.pettingzoo import env

    api_test(env(CHECKED_TABLES[name], dealer=None, episode="match"), num_cycles=400)


def test_pettingzoo_seed_test_off_four_players():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import seed_test

    from spades_ai.interop.pettingzoo import env

    seed_test(lambda: env("cutthroat"), num_cycles=100)
    seed_test(lambda: env(players=8, dealer=None, episode="match"), num_cycles=100)



@pytest.mark.parametrize("name", TABLES)
def test_a_pettingzoo_hand_is_our_hand_at_every_table(name):
    """Agents player_0..player_{N-1}, the table's observation and actions, and each agent's
    reward its side's points: the hand replayed on our ``Hand``."""
    pytest.importorskip("pettingzoo")
    from spades_ai.interop.pettingzoo import env

    rules = CHECKED_TABLES[name]
    e = env(rules, dealer=2)
    layout = observation_layout(rules)
    assert e.possible_agents == [f"player_{s}" for s in seats(rules)]
    assert e.action_space("player_0").n == layout.n_actions
    assert e.observation_space("player_0")["observation"].shape == (layout.size,)
    steps, rewards = play_random(e, seed=3)
    hand = sa.Hand(sa.deal(3, 0, rules), dealer=2, rules=rules)
    for agent, obs, action in steps:
        assert agent == f"player_{hand.to_act}"
        assert np.array_equal(obs["observation"], observation_vector(hand.observation()))
        hand.bid(action - BID_OFFSET) if action >= BID_OFFSET else hand.play(action)
    points = hand.result().points
    assert rewards == {f"player_{s}": float(points[side_of(s, rules)]) for s in seats(rules)}


def test_pettingzoo_takes_a_preset_players_and_teams():
    pytest.importorskip("pettingzoo")
    from spades_ai.interop.pettingzoo import env

    e = env("cutthroat")
    e.reset(seed=1)
    assert e.unwrapped.rules == Rules.preset("cutthroat") and len(e.agents) == 3
    mask = e.observe(e.agent_selection)["action_mask"]
    assert mask[BID_OFFSET + 17] == 1 and len(mask) == 72  # 17 cards each: a bid of 17 is an action
    six = env(players=6, teams="pairs").unwrapped
    assert (six.rules.players, six.rules.teams, six.rules.decks) == (6, "pairs", 2)
    assert env(Rules(bag_limit=5), players=3).unwrapped.rules == Rules(bag_limit=5, players=3)
    with pytest.raises(sa.RulesError, match="teams"):
        env(players=5, teams="pairs")
    with pytest.raises(sa.RulesError, match="pass_cards"):
        env(Rules(pass_cards=2))


@pytest.mark.parametrize("rules", [Rules.preset("cutthroat", target_score=150), Rules(players=6, teams="pairs", target_score=150)],
                         ids=["3", "6 pairs"])  # fmt: skip
def test_a_pettingzoo_match_pays_the_winning_side(rules):
    """+1 to each agent of the winning side, -1 / (sides - 1) to the others: zero-sum."""
    pytest.importorskip("pettingzoo")
    from spades_ai.interop.pettingzoo import env

    e = env(rules, dealer=None, episode="match")
    _, rewards = play_random(e, seed=5)
    played = e.unwrapped.episode.played
    winner = sa.match_winner(played[-1].scores, rules, len(played))
    loss = -1.0 / (rules.n_sides - 1)
    assert rewards == {f"player_{s}": 1.0 if side_of(s, rules) == winner else loss for s in seats(rules)}
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert [h.dealer for h in played[1:]] == [(h.dealer + 1) % rules.players for h in played[:-1]]  # moving left


# -- OpenSpiel --------------------------------------------------------------------------------
def load(name, **params):
    pyspiel = pytest.importorskip("pyspiel")
    from spades_ai.interop.openspiel import params_from_rules

    return pyspiel.load_game("spades_ai", params_from_rules(CHECKED_TABLES[name], **params))


@pytest.mark.parametrize("name", TABLES)
def test_openspiel_random_sim_test_at_every_table(name):
    pyspiel = pytest.importorskip("pyspiel")
    game = load(name)
    rules = CHECKED_TABLES[name]
    layout = observation_layout(rules)
    assert (game.num_players(), game.num_distinct_actions()) == (rules.players, layout.n_actions)
    assert game.observation_tensor_shape() == [layout.size]
    assert game.information_state_tensor_shape() == [layout.size + 52 * rules.decks + 52 * rules.players * rules.cards_each]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", slow_if_big(TABLES))
def test_openspiel_random_sim_test_of_matches_at_every_table(name):
    pyspiel = pytest.importorskip("pyspiel")
    pyspiel.random_sim_test(load(name, episode="match", dealer=1), num_sims=1, serialize=True, verbose=False)


def test_openspiel_players_and_teams_are_game_parameters():
    pyspiel = pytest.importorskip("pyspiel")
    from spades_ai.interop.openspiel import params_from_rules

    three = pyspiel.load_game("spades_ai", {"players": 3})
    assert three.rules == Rules.preset("cutthroat") and three.num_players() == 3
    six = pyspiel.load_game("spades_ai", {"players": 6, "teams": "pairs", "dealer": 5})
    assert (six.rules.teams, six.rules.decks, six.dealer) == ("pairs", 2, 5)
    again = pyspiel.load_game(str(six))  # the string form keeps the table
    assert again.rules == six.rules and again.num_players() == 6
    assert pyspiel.load_game("spades_ai", params_from_rules("cutthroat")).rules == Rules.preset("cutthroat")
    with pytest.raises(sa.RulesError, match=r"dealer' must be a seat 0..2, not 3"):
        pyspiel.load_game("spades_ai", {"players": 3, "dealer": 3})
    with pytest.raises(sa.RulesError, match="teams"):
        pyspiel.load_game("spades_ai", {"players": 5, "teams": "pairs"})


def test_openspiel_deals_the_copies_of_several_decks():
    """Two decks at eight players: each card id is an outcome with the odds of its copies left;
    once both copies are dealt it is no outcome, and dealing a third is refused."""
    game = load("8")
    state = game.new_initial_state()
    first = dict(state.chance_outcomes())
    assert len(first) == 52 and first[51] == pytest.approx(2 / 104)
    state.apply_action(51)
    after = dict(state.chance_outcomes())
    assert after[51] == pytest.approx(1 / 103) and after[0] == pytest.approx(2 / 103)
    state.apply_action(51)
    assert 51 not in dict(state.chance_outcomes())
    with pytest.raises(ValueError, match="no copy of AS is left to deal at 8 players solo"):
        state.apply_action(51)
    three = load("3").new_initial_state()
    assert len(three.chance_outcomes()) == 51  # the 2D is out


def test_openspiel_returns_are_each_sides_points():
    pyspiel = pytest.importorskip("pyspiel")
    from spades_ai.interop.openspiel import SpadesBot, dealing_order

    for name in ("3", "6 pairs"):
        rules = CHECKED_TABLES[name]
        state = load(name).new_initial_state()
        hands = sa.deal(4, 0, rules)
        for card in dealing_order(hands, 0):
            state.apply_action(card)
        hand, bot = sa.Hand(hands, dealer=0, rules=rules), SpadesBot("normal")
        while not state.is_terminal():
            action = bot.step(state)
            state.apply_action(action)
            hand.bid(action - BID_OFFSET) if action >= BID_OFFSET else hand.play(action)
        points = hand.result().points
        assert state.returns() == [float(points[side_of(p, rules)]) for p in seats(rules)]
        assert state.is_terminal() and pyspiel.PlayerId.TERMINAL == state.current_player()


@pytest.mark.parametrize("name", TABLES)
def test_openspiel_resampling_at_every_table(name):
    """Mid-play: a resampled state looks the same to the player, and redraws the hidden cards."""
    pyspiel = pytest.importorskip("pyspiel")
    from spades_ai.interop.openspiel import SpadesBot

    game = load(name)
    rules = game.rules
    state, bot = game.new_initial_state(), SpadesBot("normal")
    rng = np.random.default_rng(1)
    while state.is_chance_node() or len(state.table.actions) < rules.players + 2 * rules.players + 1:
        if state.is_chance_node():
            cards, p = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(cards, p=p)))
        else:
            state.apply_action(bot.step(state))
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    for player in (0, state.current_player()):
        worlds = set()
        for _ in range(3):
            r = state.resample_from_infostate(player, sampler)
            assert r.information_state_string(player) == state.information_state_string(player)
            assert r.information_state_tensor(player) == state.information_state_tensor(player)
            assert r.history()[-len(state.table.actions):] == state.history()[-len(state.table.actions):]
            assert int(r.table.hand.deal[player]) == int(state.table.hand.deal[player])
            if player == state.current_player():
                assert r.legal_actions() == state.legal_actions()
            worlds.add(tuple(int(r.table.hand.deal[s]) for s in seats(rules)))
        assert len(worlds) > 1


@pytest.mark.parametrize("name", TABLES)
def test_bots_both_ways_at_every_table(name):
    """Normal as an OpenSpiel bot beside OpenSpiel's random bot (partners' returns equal), and
    OpenSpiel's random bot as our agent, legal and reproducible, at the table."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from spades_ai.interop.openspiel import OpenSpielAgent, SpadesBot

    game, rules = load(name), CHECKED_TABLES[name]
    bots = [SpadesBot("normal") if s % 2 == 0 else pyspiel.make_uniform_random_bot(s, s) for s in seats(rules)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))
    for s in seats(rules):
        assert returns[s] == returns[side_seats(side_of(s, rules), rules)[0]]
    report = check_agent(OpenSpielAgent(seed=1), hands=1, rules=rules)
    assert "all legal and reproducible" in report


def test_the_every_table_examples_of_docs_interop_run():
    """docs/interop.md's cutthroat examples (PettingZoo, then OpenSpiel), run as written."""
    import contextlib
    import io
    import re
    from pathlib import Path

    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    page = (Path(__file__).parent.parent / "docs" / "interop.md").read_text()
    section = page.split("\n## Every table\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 2
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "docs/interop.md", "exec"), {})
    rewards, returns, report = out.getvalue().splitlines()
    assert sorted(eval(rewards)) == ["player_0", "player_1", "player_2"]
    assert len(eval(returns)) == 3 and "all legal and reproducible" in report


def test_openspiel_ismcts_is_our_agent_at_cutthroat():
    """OpenSpiel's ISMCTS, its worlds drawn by ``resample_from_infostate`` at three players, as
    one of our agents: legal and reproducible."""
    pytest.importorskip("pyspiel")
    from spades_ai.interop.openspiel import OpenSpielAgent

    agent = OpenSpielAgent("ismcts", simulations=2, seed=1)
    assert "all legal and reproducible" in check_agent(agent, hands=1, rules=Rules.preset("cutthroat"))


@pytest.mark.parametrize("name", ["3", pytest.param("6 pairs", marks=pytest.mark.slow)])
def test_a_pettingzoo_match_is_play_matches_match_off_four_players(name):
    """Normal at every seat: match 0 of the seed is ``play_matches``'s, hand by hand (its first
    dealer, the dealer moving left, each hand's points per side, the winner)."""
    pytest.importorskip("pettingzoo")
    from spades_ai.interop.pettingzoo import env

    rules, seed = CHECKED_TABLES[name].replace(target_score=200), 5
    rec = sa.play_matches(["normal"] * rules.n_sides, 1, seed=seed, rules=rules)
    e = env(rules, dealer=None, episode="match")
    e.reset(seed=seed)
    normal, raw, rewards = sa.make_agent("normal"), e.unwrapped, {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            rewards[agent] = reward
            e.step(None)
            continue
        obs = raw.table.view(raw.table.to_act)
        e.step(BID_OFFSET + normal.bid(obs) if obs.phase == "bidding" else int(normal.play(obs)))
    played = raw.episode.played
    assert [h.points for h in played] == [tuple(p) for p in rec.points.tolist()] and len(played) > 1
    assert [h.dealer for h in played] == rec.dealer.tolist()
    winner = int(rec.winner[-1])
    assert rewards == {f"player_{s}": 1.0 if side_of(s, rules) == winner else -1.0 / (rules.n_sides - 1) for s in seats(rules)}


@pytest.mark.parametrize("name", ["3", "6 pairs"])
def test_openspiel_api_test_on_sampled_states_off_four_players(name):
    """OpenSpiel's integration api_test (the partial-tree checks, on 400 sampled states)."""
    pytest.importorskip("pyspiel")
    import unittest

    from open_spiel.integration_tests import api_test

    case = type("SpadesAI", (api_test.EnforceAPIOnPartialTreeBase,), {"game_name": "spades_ai", "game": load(name)})
    result = unittest.TextTestRunner(verbosity=0).run(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    assert result.wasSuccessful() and result.testsRun == 5, result.failures + result.errors
