"""The learned play model of the reading of the play (issue 21, item 3): a world's likelihood
under a model's card network against a slow Python replay with the network in numpy, the
``play_model`` option of Hard and Crazy, the Python face, and a tiny play model trained end to
end by its script."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import Hand, make_agent
from spades_ai.agents.spec import parse_agent
from spades_ai.engine import state as st
from spades_ai.interop.encoding import observation_vector
from spades_ai.models import features, fit, optim
from spades_ai.models import rows as training_rows
from spades_ai.models.model import load_model, packed_after
from spades_ai.montecarlo import search
from spades_ai.simulate import deal_masks
from experiment_scripts import experiment_script
from test_inference import _choice, _position, check_against_replay  # the replay's choices, positions and check

U64 = np.uint64


def _probabilities(obs, model) -> dict[int, float]:
    """The model's chance of each legal card at ``obs``: the features of every legal card (the
    numba kernels, tested in test_models), after the seat's observation vector for the
    ``"vector"`` kind (the Python reference, ``interop.encoding``), scored by the network in
    numpy, softmaxed."""
    pub, seat, hand, rules = np.array(obs.public), obs.seat, U64(obs.engine_cards), obs.rules_array
    legal = [int(c) for c in obs.legal_cards()]
    mask = U64(sum(1 << c for c in legal))
    ctx = np.empty(features.N_CARD_FEATURES)
    normal = features.play_context(pub, seat, hand, mask, rules, ctx)
    x = np.empty((len(legal), features.N_CARD_FEATURES))
    for i, c in enumerate(legal):
        features.card_features(pub, seat, hand, mask, rules, c, normal, ctx, x[i])
    if model.play_kind == "vector":
        x = np.hstack([np.repeat(observation_vector(obs)[None, :].astype(np.float64), len(legal), axis=0), x])
    s = optim.forward(model.play, x)[0][:, 0]
    p = np.exp(s - s.max())
    return dict(zip(legal, p / p.sum()))


def _reference(hand: Hand, seat: int, world, eps: float, model) -> float:
    """log P(the other seats' cards | world) under the learned model: the hand replayed with
    the world's cards through ``Hand``; at each other seat's card with more than one choice,
    ``(1 - eps) P(its choice) + eps / choices``, P summed over the choice's cards."""
    obs0 = hand.observation()
    start = [int(world[s]) | sum(1 << int(c) for c in obs0.played_by[s]) for s in range(4)]
    replay = Hand(start, dealer=hand.dealer)
    for i in range(4):
        replay.bid(hand.bids[(hand.dealer + 1 + i) % 4])
    ll = 0.0
    for s, c in hand.plays:
        c = int(c)
        if s != seat:
            obs = replay.observation()
            legal = [int(x) for x in obs.legal_cards()]
            cards = int(obs.cards)
            gone = int(obs.public[st.P_PLAYED]) & ~sum(1 << int(x) for x in obs.public[st.P_TRICK : st.P_TRICK + 4] if x >= 0)
            choices = {_choice(x, legal, cards, gone) for x in legal}
            if len(choices) > 1:
                p = _probabilities(obs, model)
                mine = _choice(c, legal, cards, gone)
                chance = sum(q for x, q in p.items() if _choice(x, legal, cards, gone) == mine)
                ll += math.log((1 - eps) * chance + eps / len(choices))
        replay.play(c)
    return ll


@pytest.mark.parametrize("eps,name", [(0.02, "default"), (0.3, "default"), (0.3, "reading")])
def test_learned_play_likelihood_matches_the_python_replay(eps, name):
    model = load_model(name)
    packed, at = packed_after(np.zeros(3, np.int64), model)  # the model after other params, as in an agent's
    players = [make_agent("normal"), make_agent("easy", careless=0.4), make_agent("random", seed=3), make_agent("learned")]
    reference = lambda hand, seat, world: _reference(hand, seat, world, eps, model)  # noqa: E731
    checked, informative = check_against_replay(random.Random(int(eps * 100) + 1), players, (13, 0, 12), 6, 8, eps, packed, at, reference, 1e-7)
    assert checked == 96 and informative > 50


def test_the_learned_model_reads_differently_from_normal():
    """The same worlds weigh differently under Normal's play and under the network, and the
    Python face refuses a play model without the noise it mixes in."""
    hand = _position(random.Random(5), deal_masks(5, 0, 1)[0], [make_agent("normal")] * 4)
    obs = hand.observation()
    worlds = sa.sample_worlds(obs, 200, seed=2)
    normal = sa.world_weights(obs, worlds, play_noise=0.3)
    learned = sa.world_weights(obs, worlds, play_noise=0.3, play_model="default")
    assert learned.shape == (200,) and (learned > 0).all() and not np.allclose(normal, learned)
    with pytest.raises(ValueError, match="play_noise"):
        sa.world_weights(obs, worlds, play_model="default")
    with pytest.raises(ValueError, match="no shipped model"):
        sa.world_weights(obs, worlds, play_noise=0.3, play_model="nonesuch")


def test_play_model_is_an_option_of_hard_and_crazy():
    crazy = make_agent("crazy", read_play=True, play_model="default")
    assert crazy.label == "crazy(read_play=True, play_model=default)"
    at = crazy.params[search.MC_PLAY_MODEL]
    assert at == len(search.MC_PARAMS)
    np.testing.assert_array_equal(crazy.params[at:], load_model("default").params())
    assert make_agent("crazy").params[search.MC_PLAY_MODEL] == 0 and len(make_agent("crazy").params) == len(search.MC_PARAMS)
    entrant = parse_agent("crazy:read_play=true,play_model=default")
    assert entrant.options["play_model"] == "default" and entrant.label == "crazy(read_play=True, play_model=default)"
    with pytest.raises(ValueError, match="read_play=True"):
        make_agent("crazy", play_model="default")
    with pytest.raises(ValueError, match="play_model"):
        make_agent("crazy", read_play=True, play_model="nonesuch")
    with pytest.raises(ValueError, match="play_model"):
        make_agent("crazy", read_play=True, play_model=3)


def test_hard_reading_with_a_play_model_plays_legally_and_reproducibly():
    hard = make_agent("hard", worlds=24, read_play=True, play_model="default")
    a = sa.play_hands([hard, "normal"], 3, seed=4)
    b = sa.play_hands([hard, "normal"], 3, seed=4)
    assert (a.tricks_won.sum(axis=1) == 13).all()
    np.testing.assert_array_equal(a.points, b.points)
    np.testing.assert_array_equal(a.tricks_won, b.tricks_won)
    jokers = sa.play_hands([hard, "normal"], 2, seed=4, rules=sa.Rules(jokers=2, deuces_high=2))  # the trump lane in the features
    assert (jokers.tricks_won.sum(axis=1) == 13).all()


def test_the_tiny_play_model_trains_end_to_end(tmp_path):
    """The script's tiny run: a dataset of Normal self-play, the network fitted on every seat,
    the default's bidder beside it; the same seed fits the same weights, and the file is a play
    model a reader takes; ``--players`` and ``--deals`` choose another dataset."""
    train_play_model = experiment_script("train_play_model")
    args = ["--tiny", "--seed", "4", "--data", str(tmp_path / "data")]
    first = train_play_model.main([*args, "--out", str(tmp_path / "a.npz")])
    again = train_play_model.main([*args, "--out", str(tmp_path / "b.npz")])
    a, b = load_model(first), load_model(again)
    assert a.info["role"] == "play model" and a.info["fit"]["card_decisions"] > 500 and a.play["W1"].shape == (4, features.N_CARD_FEATURES)
    for k in a.play:
        np.testing.assert_array_equal(a.play[k], b.play[k])
    np.testing.assert_array_equal(a.bid["W1"], load_model("default").bid["W1"])
    hand = _position(random.Random(2), deal_masks(2, 0, 1)[0], [make_agent("normal")] * 4)
    obs = hand.observation()
    w = sa.world_weights(obs, sa.sample_worlds(obs, 50, seed=1), play_noise=0.2, play_model=str(first))
    assert w.shape == (50,) and np.isfinite(w).all()
    hard = load_model(train_play_model.main([*args, "--players", "hard", "--deals", "3", "--out", str(tmp_path / "h.npz")]))
    assert hard.info["imitates"] == "hard, every seat" and hard.info["datasets"] == {"hard": 3}
    assert 0 < hard.info["fit"]["card_decisions"] < a.info["fit"]["card_decisions"]


def test_a_play_model_fits_one_opponent_of_a_results_folder(tmp_path):
    """From a ``--keep-plays`` run: the hands it recorded, one agent's cards (its seats at both
    tables), a model of them; a run without its plays is refused with the reason."""
    from spades_ai.tournament.recorded import recorded_hands

    run = sa.run_tournament(["normal", "easy"], deals=12, seed=3, out=tmp_path / "run", keep_plays=True, n_jobs=1, progress=False)
    hands, labels, rules = recorded_hands(run.path)
    assert len(hands["deals"]) == 24 and sorted(labels) == ["easy", "normal"]
    easy = labels.index("easy")
    assert ((hands["seat_agents"] == easy).sum(axis=1) == 2).all()  # two seats a hand, at both tables
    rows = training_rows.card_rows(hands, easy, rules)
    model = fit.train_play_model(hands, agent=easy, hidden=4, epochs=1, seed=1, rules=rules)
    assert model.info["fit"]["card_decisions"] == len(rows["count"]) > 100
    every = training_rows.card_rows(hands, None, rules)
    assert len(every["count"]) > len(rows["count"])
    bare = sa.run_tournament(["normal", "easy"], deals=2, seed=3, out=tmp_path / "bare", n_jobs=1, progress=False)
    with pytest.raises(ValueError, match="keep-plays"):
        recorded_hands(bare.path)
