"""The OpenSpiel adapter: OpenSpiel's own conformance test, the rules as parameters, the hand
it plays against our engine, hidden information, and bots both ways."""

import dataclasses

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import spades_ai as sa  # noqa: E402
from spades_ai.selfplay.play import play_hand_python  # noqa: E402
from spades_ai.interop import openspiel as sos  # noqa: E402
from spades_ai.interop.encoding import BLIND_NIL, LOOK, OBSERVATION_SIZE, SLICES, observation_vector  # noqa: E402
from spades_ai.testing import check_agent  # noqa: E402


def load(**params):
    return pyspiel.load_game("spades_ai", params)


def own_cards(state, player) -> int:
    """How many cards ``player``'s observation tensor shows it holding."""
    return int(sum(state.observation_tensor(player)[SLICES["own_cards"]]))


def dealt_state(game, hands):
    """A state after the chance nodes have dealt ``hands`` (four card lists, seats 0..3)."""
    state = game.new_initial_state()
    dealer = game.dealer
    for k in range(52):
        state.apply_action(int(hands[(dealer + 1 + k) % 4][k // 4]))
    return state


# -- conformance ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"blind_nil": True, "bag_limit": 2, "dealer": 3, "spade_lead": "anytime"},
        {"bidding": "suicide", "nil_tricks_count": True, "first_lead": "low_club"},
        {"bidding": "mirror", "ten_for_200": True, "dealer": 1},
        {"bidding": "whiz", "min_bid": 2, "spade_lead": "after_three_tricks"},
        {"nil": False, "min_team_bid": 4, "target_score": 0, "max_hands": 3, "loss_threshold": 0},
    ],
)
def test_openspiel_random_sim_test(params):
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{}, {"blind_nil": True}])
def test_openspiel_api_test_on_sampled_states(params):
    """OpenSpiel's integration api_test (the partial-tree checks, on 400 sampled states)."""
    import unittest

    from open_spiel.integration_tests import api_test

    case = type("SpadesAI", (api_test.EnforceAPIOnPartialTreeBase,), {"game_name": "spades_ai", "game": load(**params)})
    result = unittest.TextTestRunner(verbosity=0).run(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    assert result.wasSuccessful() and result.testsRun == 5, result.failures + result.errors


def test_game_type_and_sizes():
    game = load()
    t = game.get_type()
    sizes = (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes())
    assert t.short_name == "spades_ai" and sizes == (4, 68, 52)
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + 52 + 52 * 52]
    assert game.max_game_length() == 56 and load(blind_nil=True).max_game_length() == 60


# -- parameters ----------------------------------------------------------------------------
def test_every_simple_rules_field_is_a_parameter():
    fields = {f.name for f in dataclasses.fields(sa.Rules)}
    assert set(load().get_type().parameter_specification) == fields | {"dealer"}


@pytest.mark.parametrize(
    "rules",
    [
        sa.Rules(),
        sa.Rules(target_score=300, bag_limit=5, nil_bonus=50, spade_lead="after_first_trick", loss_threshold=None),
        sa.Rules.preset("suicide", min_bid=2),
        sa.Rules(target_score=None, max_hands=4, blind_nil=True, blind_nil_min_deficit=100, first_lead="low_club"),
    ],
)
def test_parameters_round_trip_the_rules(rules):
    game = pyspiel.load_game("spades_ai", sos.params_from_rules(rules, dealer=2))
    assert game.rules == rules and game.dealer == 2
    again = pyspiel.load_game(str(game))  # OpenSpiel's string form parses back to the same rules
    assert again.rules == rules


@pytest.mark.parametrize(
    "params, error, words",
    [
        ({"bag_limit": 0}, sa.RulesError, "bag_limit"),
        ({"spade_lead": "never"}, sa.RulesError, "spade_lead"),
        ({"nil": False, "blind_nil": True}, sa.RulesError, "blind_nil"),
        ({"bidding": "mirror", "min_bid": 3}, sa.RulesError, "min_bid"),
        ({"target_score": 0}, sa.RulesError, "target_score"),
        ({"dealer": 7}, sa.RulesError, "dealer"),
        ({"bogus": 1}, pyspiel.SpielError, "bogus"),
        ({"bag_limit": "ten"}, pyspiel.SpielError, "bag_limit"),
    ],
)
def test_bad_parameters_are_refused_by_name(params, error, words):
    with pytest.raises(error, match=words):
        load(**params)


# -- the hand is our engine's --------------------------------------------------------------
@pytest.mark.parametrize(
    "seed, params", [(3, {}), (5, {"dealer": 2, "bidding": "suicide"}), (8, {"nil_tricks_count": True})]
)
def test_a_hand_through_openspiel_matches_our_hand(seed, params):
    game = load(**params)
    hands = sa.deal(seed=seed, index=0)
    state = dealt_state(game, hands)
    hand = sa.Hand(hands, dealer=game.dealer, rules=game.rules)
    normal = sa.make_agent("normal")
    while not state.is_terminal():
        assert state.current_player() == hand.to_act
        obs = hand.observation()
        assert state.observation_tensor(obs.seat) == observation_vector(obs).tolist()
        if hand.phase == "bidding":
            assert state.legal_actions() == [52 + b for b in hand.legal_bids()]
            b = normal.bid(obs)
            hand.bid(b)
            state.apply_action(52 + b)
        else:
            assert state.legal_actions() == [int(c) for c in hand.legal_cards()]
            c = normal.play(obs)
            hand.play(c)
            state.apply_action(int(c))
    points = hand.result().points
    assert state.returns() == [float(points[p % 2]) for p in range(4)]


def test_action_strings_and_illegal_actions():
    game = load()
    state = dealt_state(game, sa.deal(seed=1))
    assert [state.action_to_string(a) for a in state.legal_actions()[:3]] == ["nil", "bid 1", "bid 2"]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal AS"
    with pytest.raises(sa.IllegalPlayError, match="bidding"):
        state.apply_action(0)
    with pytest.raises(sa.IllegalBidError, match="look"):
        state.apply_action(LOOK)
    for _ in range(4):
        state.apply_action(55)
    other = int(sa.deal(seed=1)[(state.current_player() + 1) % 4][0])
    with pytest.raises(sa.IllegalPlayError, match="does not hold"):
        state.apply_action(other)
    assert state.history()[-1] == 55  # the refused card changed nothing


def test_blind_nil_is_chosen_before_looking():
    game = load(blind_nil=True)
    state = dealt_state(game, sa.deal(seed=2))
    seat = state.current_player()
    assert state.legal_actions() == [BLIND_NIL, LOOK]
    assert own_cards(state, seat) == 0  # not looked yet
    assert "unseen" in state.information_state_string(seat)
    state.apply_action(BLIND_NIL)
    assert state.table.hand.blind[seat] and state.table.hand.bids[seat] == 0
    assert own_cards(state, seat) == 13  # looked after bidding
    nxt = state.current_player()
    assert state.legal_actions() == [BLIND_NIL, LOOK]
    state.apply_action(LOOK)
    assert state.current_player() == nxt and state.legal_actions()[0] == 52


def test_blind_nil_needs_the_deficit():
    game = load(blind_nil=True, blind_nil_min_deficit=100)  # scores start level: never
    state = dealt_state(game, sa.deal(seed=2))
    assert BLIND_NIL not in state.legal_actions() and state.legal_actions()[0] == 52


# -- hidden information ----------------------------------------------------------------------
def test_what_a_player_sees_does_not_depend_on_hidden_cards():
    game = load()
    hands = [list(h) for h in sa.deal(seed=4)]
    swapped = [list(h) for h in hands]
    swapped[1][0], swapped[3][0] = hands[3][0], hands[1][0]  # two cards change hands between seats 1 and 3
    swapped[1].sort(), swapped[3].sort()
    a, b = dealt_state(game, hands), dealt_state(game, swapped)
    for s in (a, b):
        for bid in (55, 56, 57, 53):
            s.apply_action(bid)
    for p in (0, 2):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.observation_tensor(1) != b.observation_tensor(1)


def test_public_observer_leaves_out_own_cards():
    game = load()
    state = dealt_state(game, sa.deal(seed=4))
    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    obs = make_observation(game, public)
    views = []
    for p in range(4):
        obs.set_from(state, p)
        assert obs.tensor[SLICES["own_cards"]].sum() == 0
        views.append(obs.string_from(state, p))
    assert all("S:" not in v for v in views)


def test_private_observer_shows_only_own_cards():
    game = load()
    state = dealt_state(game, sa.deal(seed=4))
    private = pyspiel.IIGObservationType(public_info=False, perfect_recall=False)
    obs = make_observation(game, private)
    obs.set_from(state, 2)
    assert obs.tensor.shape == (52,) and list(np.flatnonzero(obs.tensor)) == [int(c) for c in sa.deal(seed=4)[2]]
    assert obs.string_from(state, 2).startswith("p2 holds S:")


def test_clone_and_serialization_keep_the_state():
    game = load(blind_nil=True)
    state = dealt_state(game, sa.deal(seed=6))
    state.apply_action(LOOK)
    state.apply_action(56)
    copy = state.clone()
    copy.apply_action(LOOK)
    assert state.legal_actions() == [BLIND_NIL, LOOK] and copy.legal_actions()[0] == 52
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.information_state_tensor(2) == state.information_state_tensor(2)


# -- bots both ways --------------------------------------------------------------------------
def test_normal_as_an_openspiel_bot_beats_random():
    game = load()
    rng = np.random.default_rng(0)
    bots = [sos.SpadesBot("normal"), pyspiel.make_uniform_random_bot(1, 1)]
    bots += [sos.SpadesBot("normal"), pyspiel.make_uniform_random_bot(3, 2)]
    returns = np.array([evaluate_bots(game.new_initial_state(), bots, rng) for _ in range(6)])
    assert (returns[:, 0] == returns[:, 2]).all() and (returns[:, 1] == returns[:, 3]).all()
    assert returns[:, 0].mean() > returns[:, 1].mean()


def test_spades_bot_answers_a_blind_nil_choice_and_refuses_other_games():
    class Blind:
        name = "blind"

        def blind_nil(self, obs):
            assert obs.blind_decision and not obs.cards
            return True

        def bid(self, obs):
            return obs.legal_bids()[-1]

        def play(self, obs):
            return obs.legal_cards()[0]

    game = load(blind_nil=True)
    state = dealt_state(game, sa.deal(seed=2))
    assert sos.SpadesBot(Blind()).step(state) == BLIND_NIL
    assert sos.SpadesBot("normal").step(state) == LOOK
    with pytest.raises(TypeError, match="spades_ai"):
        sos.SpadesBot("normal").step(pyspiel.load_game("tic_tac_toe").new_initial_state())


def test_state_from_observation_is_indistinguishable_for_the_seat():
    game = load()
    state = dealt_state(game, sa.deal(seed=9))
    normal = sos.SpadesBot("normal")
    for _ in range(4 + 23):  # the bids and into the sixth trick
        state.apply_action(normal.step(state))
    seat = state.current_player()
    rebuilt = sos.state_from_observation(state.table.view(seat), seed=1)
    assert rebuilt.information_state_string(seat) == state.information_state_string(seat)
    assert rebuilt.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert rebuilt.legal_actions() == state.legal_actions()
    again = sos.state_from_observation(state.table.view(seat), seed=1)
    assert str(again) == str(rebuilt)  # the same observation and seed: the same world


@pytest.mark.parametrize("rules", [sa.Rules(), sa.Rules(blind_nil=True)])
def test_openspiel_random_bot_passes_our_agent_check(rules):
    report = check_agent(sos.OpenSpielAgent(seed=1), hands=4, rules=rules)
    assert "all legal and reproducible" in report


def test_openspiel_random_bot_loses_to_normal_in_our_harness():
    agent, normal = sos.OpenSpielAgent(seed=2), sa.make_agent("normal")
    points = np.zeros(2)
    for i in range(4):
        hand = sa.Hand(sa.deal(seed=11, index=i), dealer=i % 4)
        play_hand_python(hand, [agent, normal, agent, normal])
        points += hand.result().points
    assert points[1] > points[0]


def test_openspiel_agent_takes_a_factory_and_sits_in_a_tournament(tmp_path):
    seen = []

    def first_legal(game, player, seed):
        seen.append(seed)
        return pyspiel.make_uniform_random_bot(player, 0)

    agent = sos.OpenSpielAgent(first_legal, name="first")
    hand = sa.Hand(sa.deal(seed=1), dealer=0)
    play_hand_python(hand, [agent, sa.make_agent("normal")] * 2)
    assert len(seen) == 2 * 13 + 2 and hand.phase == "over"

    run = sa.run_tournament(
        ["spades_ai.interop.openspiel:OpenSpielAgent:seed=3", "normal"],
        deals=2,
        out=tmp_path / "run",
        n_jobs=1,
        progress=False,
    )
    df = sa.load_results(run)
    assert set(df["agent"]) == {"spades_ai.interop.openspiel:OpenSpielAgent(seed=3)", "normal"} and len(df) == 8


def test_openspiel_agent_refuses_unknown_bots():
    with pytest.raises(ValueError, match="uniform_random"):
        sos.OpenSpielAgent("alphazero")
