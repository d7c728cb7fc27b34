"""The OpenSpiel adapter: OpenSpiel's own conformance test, the rules as parameters, the hand
and the match it plays against our engine, hidden information, resampling from an information
state (OpenSpiel's ISMCTS on our game), and bots both ways."""

import dataclasses
import itertools

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import spades_ai as sa  # noqa: E402
from spades_ai.selfplay.play import play_hand_python  # noqa: E402
from spades_ai.interop import openspiel as sos  # noqa: E402
from spades_ai.interop.encoding import BLIND_NIL, LOOK, OBSERVATION_SIZE, SLICES, observation_vector  # noqa: E402
from spades_ai.simulate import first_dealer, match_deal  # noqa: E402
from spades_ai.testing import check_agent  # noqa: E402


def load(**params):
    return pyspiel.load_game("spades_ai", params)


def own_cards(state, player) -> int:
    """How many cards ``player``'s observation tensor shows it holding."""
    return int(sum(state.observation_tensor(player)[SLICES["own_cards"]]))


def dealt_state(game, hands):
    """A state after the chance nodes have dealt ``hands`` (four card lists, seats 0..3)."""
    state = game.new_initial_state()
    deal_hand(state, [sa.CardSet(h) for h in hands])
    return state


def deal_hand(state, hands):
    """Apply the chance outcomes that deal ``hands`` (four bitboards, seats 0..3) to the hand in progress."""
    for card in sos.dealing_order(hands, state.table.dealer):
        state.apply_action(card)


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
        {"episode": "match"},
        {"episode": "match", "blind_nil": True, "bidding": "suicide", "dealer": 2, "target_score": 0, "max_hands": 3},
    ],
)
def test_openspiel_random_sim_test(params):
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{}, {"blind_nil": True}, {"episode": "match"}])
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


def test_a_match_is_zero_sum_win_or_lose():
    game = load(episode="match")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.episode == "match" and load().episode == "hand"
    assert pyspiel.load_game(str(game)).episode == "match"  # the string form keeps the episode


# -- parameters ----------------------------------------------------------------------------
def test_every_simple_rules_field_is_a_parameter():
    fields = {f.name for f in dataclasses.fields(sa.Rules)}
    assert set(load().get_type().parameter_specification) == fields | {"dealer", "episode"}


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
        ({"episode": "season"}, sa.RulesError, "episode.*'hand', 'match'"),
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


def test_openspiel_agent_refuses_unknown_bots_and_options():
    with pytest.raises(ValueError, match="uniform_random, ismcts"):
        sos.OpenSpielAgent("alphazero")
    with pytest.raises(ValueError, match="no option rollouts; its options: simulations, uct_c"):
        sos.OpenSpielAgent("ismcts", rollouts=3)
    with pytest.raises(ValueError, match="simulations must be an int >= 1"):
        sos.OpenSpielAgent("ismcts", simulations=0)
    with pytest.raises(ValueError, match="for a bot named by a string"):
        sos.OpenSpielAgent(sos._uniform_random, simulations=3)


def test_openspiel_ismcts_by_name_is_one_of_our_agents():
    """ISMCTS in our harness: legal and reproducible (its worlds come from the seeded
    ``resampler``), and at a hand whose match scores offer a blind nil, which the resampled
    states must carry for the bids to replay."""
    agent, normal = sos.OpenSpielAgent("ismcts", simulations=3, seed=1), sa.make_agent("normal")
    assert agent.name == "openspiel:ismcts(simulations=3)"
    assert "all legal and reproducible" in check_agent(agent, hands=1, partner=normal)
    rules = sa.Rules(blind_nil=True, blind_nil_min_deficit=100)
    hand = sa.Hand(sa.deal(seed=3), dealer=3, rules=rules, scores=(20, 150))  # team 0 trails by 130
    play_hand_python(hand, [agent, normal, normal, normal])
    assert hand.phase == "over"


# -- whole matches ---------------------------------------------------------------------------
def test_a_match_through_openspiel_is_play_matches_match():
    """Normal at every seat on match 0's cards: the very hands, points and winner of
    ``play_matches``; the scores and bags carried into the observation; +1 / -1 at the end."""
    rules, seed = sa.Rules(target_score=250), 5
    rec = sa.play_matches(["normal", "normal"], 1, seed=seed, rules=rules)
    game = pyspiel.load_game("spades_ai", sos.params_from_rules(rules, first_dealer(seed, 0), "match"))
    state, bot = game.new_initial_state(), sos.SpadesBot("normal")
    before = []  # (dealer, scores, bags) each hand starts from, as the observation shows them
    while not state.is_terminal():
        if state.is_chance_node():
            assert state.table.dealt == []  # a new hand: its 52 cards are chance nodes again
            deal_hand(state, match_deal(seed, 0, state.table.hands_played, rules))
            v = np.array(state.observation_tensor(0))
            before.append((state.table.dealer, tuple(v[SLICES["scores"]] * 1000), tuple(v[SLICES["bag_counts"]] * 10)))
        state.apply_action(bot.step(state))
    played = state.episode.played
    assert len(played) == len(rec) > 1
    assert [h.points for h in played] == [tuple(p) for p in rec.points.tolist()]
    assert [d for d, _, _ in before] == rec.dealer.tolist()  # the dealer moves one seat left
    carried = [((0, 0), (0, 0))] + [(tuple(s), tuple(b)) for s, b in zip(rec.scores[:-1].tolist(), rec.bag_count[:-1].tolist())]
    assert [(tuple(round(x) for x in s), tuple(round(x) for x in b)) for _, s, b in before] == carried
    winner = int(rec.winner[-1])
    assert state.returns() == [1.0 if p % 2 == winner else -1.0 for p in range(4)]
    assert "hand 1 dealer" in state.information_state_string(0)  # earlier hands are remembered


def test_a_match_still_undecided_at_the_hand_limit_ends_drawn(monkeypatch):
    monkeypatch.setattr("spades_ai.interop.episode.MAX_MATCH_HANDS", 1)
    state = play_on(load(episode="match", target_score=10_000, loss_threshold=0).new_initial_state(), 108)
    assert state.is_terminal() and state.episode.unfinished and state.returns() == [0.0] * 4


def test_a_match_ends_by_the_rules_and_replays_from_its_history():
    game = load(episode="match", target_score=0, max_hands=2, loss_threshold=0)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        actions = [c for c, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(actions)))
    e = state.episode
    assert len(e.played) >= 2 and e.winner == sa.match_winner(e.played[-1].scores, game.rules, len(e.played))
    assert sum(state.returns()) == 0.0 and sorted(set(state.returns())) == [-1.0, 1.0]
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert str(again) == str(state) and again.returns() == state.returns()


# -- resampling from an information state ---------------------------------------------------------
def play_on(state, n, seed=None):
    """``n`` more actions by Normal, the chance nodes drawn from a stream keyed by ``seed``
    (by default ``n``)."""
    bot = sos.SpadesBot("normal")
    rng = np.random.default_rng(n if seed is None else seed)
    for _ in range(n):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
        else:
            state.apply_action(bot.step(state))
    return state


def hidden_cards(state, player):
    """What ``player`` cannot see: the other seats' dealt cards."""
    return tuple(int(state.table.hand.deal[s]) for s in range(4) if s != player)


@pytest.mark.parametrize(
    "params, moves",
    [
        ({}, 52 + 4 + 17),  # mid-play, voids shown
        ({"blind_nil": True}, 52 + 2),  # seats that have not looked at their cards
        ({"bidding": "whiz"}, 52 + 4 + 9),  # bids that show spade counts
        ({}, 30),  # still dealing
        ({"episode": "match", "target_score": 400}, 2 * 108 + 52 + 10),  # the third hand of a match
    ],
)
def test_resampled_states_look_the_same_to_the_player(params, moves):
    game = load(**params)
    state = play_on(game.new_initial_state(), moves)
    assert state.table.hands_played == (2 if game.episode == "match" else 0)
    start = len(state.history()) - len(state.table.dealt) - len(state.table.actions)  # the hand's first card
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for player in range(4):
        worlds = set()
        for _ in range(4):
            r = state.resample_from_infostate(player, sampler)
            assert r.information_state_string(player) == state.information_state_string(player)
            assert r.information_state_tensor(player) == state.information_state_tensor(player)
            assert r.observation_tensor(player) == state.observation_tensor(player)
            assert len(r.history()) == len(state.history()) and r.current_player() == state.current_player()
            assert r.history()[:start] == state.history()[:start]  # earlier hands of a match: as played
            if player == state.current_player():
                assert r.legal_actions() == state.legal_actions()
            if not state.is_chance_node():
                worlds.add(hidden_cards(r, player))
        assert state.is_chance_node() or len(worlds) > 1  # the hidden cards are redrawn
    same = [state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0)) for _ in range(2)]
    assert str(same[0]) == str(same[1])  # the same sampler stream, the same state


def consistent_worlds(game, state, player) -> set:
    """Every deal of the unseen cards (two left in each hidden hand) under which the hand so far
    can be played, by enumeration: the other seats' dealt cards, as ``hidden_cards`` gives them."""
    t = state.table
    obs = t.view(player)
    others = [s for s in range(4) if s != player]
    unseen = sum(int(t.hand.cards(s)) for s in others)
    worlds = set()
    for first in itertools.combinations(sos.mask_to_cards(unseen), 2):
        rest = unseen & ~sum(1 << int(c) for c in first)
        for second in itertools.combinations(sos.mask_to_cards(rest), 2):
            split = [sum(1 << int(c) for c in cards) for cards in (first, second)]
            split.append(rest & ~split[1])
            deal = [0] * 4
            deal[player] = int(t.hand.deal[player])
            for k, s in enumerate(others):
                deal[s] = split[k] | int(obs.played_by[s])
            if replays(game, deal, t.actions):
                worlds.add(tuple(deal[s] for s in others))
    return worlds


@pytest.mark.parametrize("params, seed", [({}, 6), ({"bidding": "whiz"}, 1)])
def test_resampling_reaches_every_consistent_deal_of_an_endgame_uniformly(params, seed):
    """Two cards left each: every deal of the six unseen cards that fits what the player saw
    (enumerated and replayed: a deal that breaks a void or a whiz bid cannot be replayed) is
    drawn, and no other, as many as ``count_worlds`` counts, each about equally often."""
    game = load(**params)
    state = play_on(game.new_initial_state(), 52 + 4 + 44, seed)
    player = state.current_player()
    consistent = consistent_worlds(game, state, player)
    assert len(consistent) == sa.count_worlds(state.table.view(player)) >= 10
    if game.rules.bidding == "whiz":  # the bids told spade counts: fewer deals than the voids allow
        assert len(consistent) < len(consistent_worlds(load(), state, player))
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    each = 25
    draws = [hidden_cards(state.resample_from_infostate(player, sampler), player) for _ in range(each * len(consistent))]
    counts = {w: draws.count(w) for w in set(draws)}
    assert set(counts) == consistent
    chi2 = sum((c - each) ** 2 / each for c in counts.values())
    assert chi2 < len(consistent) + 6 * len(consistent) ** 0.5  # far inside a uniform draw's spread


def replays(game, deal, actions) -> bool:
    """Whether ``actions`` can be played on ``deal`` (the engine refuses a card that breaks a
    void shown, and a whiz bid that is not the seat's spade count)."""
    trial = game.new_initial_state()
    try:
        deal_hand(trial, deal)
        for action in actions:
            trial.apply_action(action)
    except ValueError:  # IllegalBidError / IllegalPlayError
        return False
    return True


def test_resample_refuses_bad_arguments():
    state = play_on(load().new_initial_state(), 52)
    with pytest.raises(ValueError, match="player 0..3"):
        state.resample_from_infostate(4, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(TypeError, match="callable"):
        state.resample_from_infostate(0, 0.5)
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        state.resample_from_infostate(0, lambda: 1.5)


# -- OpenSpiel's own algorithms on our game -----------------------------------------------------
def ismcts_bot(game, simulations, seed, **kw):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed), **kw)


def test_openspiel_ismcts_plays_a_hand_against_normal():
    game = load()
    state = dealt_state(game, sa.deal(seed=12))
    bots = [ismcts_bot(game, 8, 1), sos.SpadesBot("normal"), sos.SpadesBot("normal"), sos.SpadesBot("normal")]
    hand = sa.Hand(sa.deal(seed=12), dealer=0)
    while not state.is_terminal():
        action = int(bots[state.current_player()].step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
        hand.bid(action - 52) if action >= 52 else hand.play(action)
    points = hand.result().points
    assert state.returns() == [float(points[p % 2]) for p in range(4)]


def test_openspiel_ismcts_moves_in_a_match():
    game = load(episode="match", blind_nil=True)
    state = play_on(game.new_initial_state(), 52 + 1)
    bot = ismcts_bot(game, 4, 2, max_world_samples=2)
    for _ in range(3):
        action = int(bot.step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.table.actions) == 4
