"""The learned models (``spades_ai.models``): features and networks in numba agree with their
numpy and Python twins, the bidder bids the best legal value, the agent is a built-in that
plays legally everywhere an agent plays, and a tiny model trains end to end from datasets."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.agents.registry import check_rollout, list_agents, make_agent
from spades_ai.encoding import OBSERVATION_SIZE, observation_layout
from spades_ai.game import Hand
from spades_ai.learn.dataset import read_config
from spades_ai.models import bidder, features, fit, network, optim
from spades_ai.models import rows as training_rows
from spades_ai.models.model import N_BID_OUTPUTS, N_SCALARS, Model, load_model, model_at, shipped_models
from spades_ai.testing import check_agent
from experiment_scripts import experiment_script



@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A model made by the training script's tiny run (datasets, fit, file)."""
    train_models = experiment_script("train_models")
    tmp = tmp_path_factory.mktemp("models")
    return train_models.main(["--tiny", "--seed", "3", "--data", str(tmp / "data"), "--out", str(tmp / "tiny.npz")])


def test_the_tiny_run_trains_a_model_that_plays(tiny_model):
    model = load_model(tiny_model)
    assert model.info["made_by"].endswith("--tiny") and model.info["fit"]["card_decisions"] > 0
    assert not model.values_bids and model.info["fit"]["bid_hands"] == 300 and model.play_kind == "vector"
    agent = make_agent("learned", model=str(tiny_model))
    records = sa.play_hands([agent, "normal"], 40, seed=5)
    assert (records.tricks_won.sum(axis=1) == 13).all()


def test_the_same_seed_fits_the_same_weights(tiny_model, tmp_path):
    train_models = experiment_script("train_models")
    again = train_models.main(["--tiny", "--seed", "3", "--data", str(tiny_model.parent / "data"), "--out", str(tmp_path / "again.npz")])
    a, b = load_model(tiny_model), load_model(again)
    for net in ("bid", "play"):
        for k in a.bid:
            np.testing.assert_array_equal(getattr(a, net)[k], getattr(b, net)[k])


def test_the_tiny_run_fits_the_value_bidder_when_asked(tiny_model, tmp_path):
    train_models = experiment_script("train_models")
    out = train_models.main(["--tiny", "--seed", "3", "--bidder", "values", "--data", str(tiny_model.parent / "data"), "--out", str(tmp_path / "t.npz")])
    model = load_model(out)
    assert model.values_bids and model.info["datasets"]["bidder"] == "values" and model.info["fit"]["bid_rows"] == 4 * 300
    assert (sa.play_hands([make_agent("learned", model=str(out)), "normal"], 20, seed=5).tricks_won.sum(axis=1) == 13).all()


def test_the_card_network_is_fitted_on_as_many_hard_deals_as_asked(tiny_model, tmp_path):
    train_models = experiment_script("train_models")
    common = ["--tiny", "--seed", "3", "--bidder-from", str(tiny_model), "--data", str(tmp_path / "data")]
    model = load_model(train_models.main([*common, "--hard-deals", "4", "--out", str(tmp_path / "four.npz")]))
    assert model.info["datasets"] == {"hard": 4}
    assert model.info["made_by"].endswith(f"--tiny --hard-deals 4 --bidder-from {tiny_model}")
    assert read_config(tmp_path / "data" / "hardv-s3")["deals"] == 4
    with pytest.raises(SystemExit):
        train_models.main([*common, "--hard-deals", "0"])


def test_the_bidding_rows_of_a_dataset_folder_are_built_chunk_by_chunk(tmp_path):
    from spades_ai.learn import write_dataset
    from spades_ai.learn.hands import dataset_hands, iter_dataset_hands
    from spades_ai.models import replay
    from spades_ai.models.explore import explorer

    out = write_dataset(tmp_path / "bids", [explorer(seed=4)] * 2, deals=10, seed=4, chunk_size=4)
    hands = dataset_hands(out)
    for n in (None, 6):  # all of them, and a count that ends inside a chunk
        whole = training_rows.bidding_rows({k: v[:n] for k, v in hands.items()})
        chunked = training_rows.dataset_bidding_rows(iter_dataset_hands(out), hands=n)
        for k in whole:
            np.testing.assert_array_equal(chunked[k], whole[k], err_msg=k)
        assert chunked["x"].dtype == np.float32 and chunked["cols"][:, replay.B_HAND].max() == (n or 10) - 1
    bid_rows = training_rows.dataset_bidding_rows(iter_dataset_hands(out))
    play = _random_vector_rows()
    with pytest.raises(ValueError, match="one of the two"):
        fit.train_model(hands, play, bid_rows=bid_rows)
    model = fit.train_model(None, play, bid_rows=bid_rows, settings=fit.FitSettings(bid_hidden=4, play_hidden=4, epochs=1))
    assert model.info["fit"]["bid_hands"] == 10 and model.play_kind == "vector"


#: a card network of 4 hidden units fitted for one epoch
TINY_FIT = fit.FitSettings(play_hidden=4, epochs=1)


def _random_vector_rows(n: int = 20) -> dict:
    """Rows of the vector card network (``rows.vector_card_rows``'s layout) drawn at random: ``n``
    decisions of three cards, two of them weighed."""
    rng = np.random.default_rng(0)
    values = rng.normal(size=3 * n).astype(np.float32)
    values[2::3] = np.nan
    return {"obs": (rng.random((n, OBSERVATION_SIZE)) < 0.1).astype(np.float32), "x": rng.random((3 * n, features.N_CARD_FEATURES), np.float32),
            "start": np.arange(0, 3 * n, 3), "count": np.full(n, 3), "values": values}  # fmt: skip


def test_a_model_keeps_another_models_bidder_beside_a_new_card_network():
    base = load_model("reading")
    model = fit.train_model(None, _random_vector_rows(), bidder_from=base, settings=TINY_FIT, info={"made_by": "test"})
    assert model.play_kind == "vector" and model.info["bidder_from"] == base.info and model.info["made_by"] == "test"
    for k in base.bid:
        np.testing.assert_array_equal(model.bid[k], base.bid[k])
    np.testing.assert_array_equal(model.scalars, base.scalars)
    again = fit.train_model(None, _random_vector_rows(), bidder_from=model, settings=TINY_FIT, info={"made_by": "test"})
    assert again.info == model.info  # the bidder's own model is named, however many models kept it
    with pytest.raises(ValueError, match="with bidder_from the bidder is that model's"):
        fit.train_model(None, _random_vector_rows(), bidder_from=base, bid_rows={"cols": None})


def test_training_hands_are_dealt_from_the_datasets_own_seed_and_every_card_is_checked(tmp_path):
    """The hands of a dataset come from the seed its config.json records (no seed is asked for);
    a record that does not fit the deals, a tampered card or a tampered seed, is refused by the
    replay naming the deal, the seat and the card."""
    import json

    from spades_ai.cards import DECK
    from spades_ai.learn import write_dataset
    from spades_ai.learn.dataset import DatasetError, write_hands_dataset
    from spades_ai.learn.hands import dataset_hands, dataset_seed
    from spades_ai.simulate import deal_masks

    out = write_dataset(tmp_path / "rows", ["normal", "easy"], deals=3, seed=5)
    hands = dataset_hands(out)
    assert dataset_seed(out) == 5 and (hands["deals"] == deal_masks(5, 0, 3)).all()
    training_rows.bidding_rows(hands), training_rows.card_rows(hands)  # the true record replays
    bad = {**hands, "plays": hands["plays"].copy()}
    leader = 1  # dealer 0: the seat on its left leads
    other = int(np.flatnonzero([(int(hands["deals"][1, 3]) >> c) & 1 for c in range(52)])[0])  # a card of seat 3
    bad["plays"][1, 0] = other
    for replay_rows in (training_rows.bidding_rows, training_rows.card_rows):
        with pytest.raises(ValueError, match=f"deal 1: seat {leader} is recorded playing {DECK[other]}, which it may not play"):
            replay_rows(bad)
    config = json.loads((out / "config.json").read_text())
    (out / "config.json").write_text(json.dumps({**config, "seed": 6}))  # the rows are seed 5's
    with pytest.raises(ValueError, match=r"deal 0: seat \d is recorded playing [2-9TJQKA][CDHS], which it may not play"):
        training_rows.card_rows(dataset_hands(out))
    recorded = write_hands_dataset(tmp_path / "recorded", {**hands, "starts": np.zeros((3, 5), np.int64),
                                   "points": np.zeros((3, 2), np.int64)}, sa.Rules(), agents=["normal", "easy"], source="results")  # fmt: skip
    with pytest.raises(DatasetError, match="records no seed"):
        dataset_hands(recorded)


def test_the_card_network_fits_the_labellers_values(tmp_path):
    from spades_ai.learn import load_dataset, write_dataset
    from spades_ai.learn.hands import dataset_hands

    hard = make_agent("hard", worlds=8)
    out = write_dataset(tmp_path / "hard", [hard, "normal"], deals=3, seed=8, labels="hard:worlds=8")
    data = load_dataset(out, columns=["deal_no", "seat", "phase", "action", "agent", "mask", "label_values"])
    hands = dataset_hands(out)
    cards = training_rows.card_rows(hands)
    values = training_rows.card_value_targets(data, cards)
    card = (data["phase"] == 3) & (data["mask"][:, :52].sum(1) > 1)
    played = cards["start"] + cards["chosen"]  # each decision's card played, in the rows
    np.testing.assert_allclose(values[played], data["label_values"][card, data["action"][card]] / 10.0, rtol=1e-6)
    assert np.isnan(values).sum() < len(values)  # the labeller weighed most cards
    fewer = {k: v[:-56] for k, v in data.items()}  # a hand short: not the same decisions
    with pytest.raises(ValueError, match="card decisions"):
        training_rows.card_value_targets(fewer, cards)
    rows = {**cards, "values": values}
    net, losses = fit.fit_player(rows, hidden=4, epochs=3, seed=1)
    assert losses[-1] < losses[0]


def test_the_value_loss_gradient_is_its_derivative():
    rng = np.random.default_rng(3)
    count = np.array([3, 2, 4])
    values = rng.normal(size=count.sum())
    values[[1, 7]] = np.nan  # cards the labeller did not weigh
    out = rng.normal(size=(count.sum(), 1))
    loss, grad = fit._value_loss(out, (count, None, values))
    for i in range(len(out)):
        bumped = out.copy()
        bumped[i, 0] += 1e-6
        np.testing.assert_allclose((fit._value_loss(bumped, (count, None, values))[0] - loss) / 1e-6, grad[i, 0], atol=1e-5)
    assert grad[1, 0] == 0 and grad[7, 0] == 0


def test_learned_is_a_listed_builtin_and_a_rollout_policy():
    assert "learned" in list_agents() and "default" in shipped_models()
    agent = make_agent("learned")
    assert agent.label == "learned" and check_rollout("learned").name == "learned"
    assert make_agent("learned", model="default").params.tolist() == agent.params.tolist()


@pytest.mark.parametrize("bidding", ["suicide", "mirror"])
def test_the_learned_agent_bids_under_forced_bidding(bidding):
    # suicide forces nils on hands the bidder would never bid nil on (their value is -inf)
    records = sa.play_hands(["learned", "normal"], 30, seed=4, rules=sa.Rules(bidding=bidding))
    assert (records.tricks_won.sum(axis=1) == 13).all()


def test_the_learned_agent_passes_check_agent():
    assert "learned" in check_agent(make_agent("learned"), hands=24)


@pytest.mark.parametrize("bad", ["nope", "missing.npz", 3])
def test_a_bad_model_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="model"):
        make_agent("learned", model=bad)


def test_a_model_of_the_wrong_shape_is_refused(tmp_path):
    m = load_model("default")
    with pytest.raises(ValueError, match="bid network's W2"):
        Model({**m.bid, "W2": m.bid["W2"][:3]}, m.play, m.scalars, bid_kind=m.bid_kind, play_kind=m.play_kind)
    np.savez(tmp_path / "junk.npz", a=np.zeros(2))
    with pytest.raises(ValueError, match="not a model file"):
        load_model(tmp_path / "junk.npz")


def test_a_model_file_holds_its_bidders_kind(tmp_path):
    """The kind of bidding network is stored in the file and read, never guessed, except for a
    file written before it was stored (``legacy_bid_kind``)."""
    from spades_ai.models.model import WEIGHTS_DIR, N_VALUE_OUTPUTS, legacy_bid_kind

    for name in shipped_models():  # the four-player models' tricks bidder, every other table's vector bidder
        with np.load(WEIGHTS_DIR / f"{name}.npz") as f:
            assert str(f["bid_kind"]) == ("tricks" if name in ("default", "reading") else "vector")
    m = load_model("default")
    value_net = optim.init_network(features.N_BID_FEATURES, 4, N_VALUE_OUTPUTS, np.random.default_rng(0))
    with pytest.raises(ValueError, match="bid network's W2"):
        Model(value_net, m.play, m.scalars, bid_kind="tricks", play_kind=m.play_kind)  # a value network said to be a tricks network
    with pytest.raises(ValueError, match="bid_kind is one of tricks, value, normal, vector, not 'values'"):
        Model(value_net, m.play, m.scalars, bid_kind="values", play_kind=m.play_kind)
    path = Model(value_net, m.play, m.scalars, bid_kind="value", play_kind=m.play_kind).save(tmp_path / "v.npz")
    assert load_model(path).bid_kind == "value" and load_model(path).params()[5] == 1  # H_BID_KIND: VALUE_BIDDER
    cards = load_model("reading").play  # a card network of the one kind there was then
    for kind, bid in (("tricks", m.bid), ("value", value_net)):  # a file of before: no bid_kind entry
        arrays = {f"{net}_{k}": layers[k] for net, layers in (("bid", bid), ("play", cards)) for k in bid}
        np.savez(tmp_path / "old.npz", **arrays, scalars=m.scalars, info=np.array("{}"))
        assert load_model(tmp_path / "old.npz").bid_kind == legacy_bid_kind(bid) == kind


def test_the_numba_network_is_the_numpy_network():
    rng = np.random.default_rng(1)
    net = optim.init_network(7, 5, 3, rng)
    w = np.concatenate([net[k].reshape(-1) for k in ("W1", "b1", "W2", "b2")])
    x = rng.normal(size=(4, 7))
    want = optim.forward(net, x)[0]
    out, h = np.empty(3), np.empty(5)
    for i in range(4):
        network.forward(np.concatenate([np.zeros(2), w]), 2, 7, 5, 3, x[i], h, out)
        np.testing.assert_allclose(out, want[i], rtol=1e-12, atol=1e-12)


def test_bid_features_describe_the_hand():
    hand = Hand(sa.deal(7, 3))
    seat = hand.to_act
    obs = hand.observation()
    x = np.empty(features.N_BID_FEATURES)
    features.bid_features(obs.public, seat, obs.engine_cards, obs.rules_array, x)
    cards = [str(c) for c in obs.cards]
    for s, letter in enumerate("CDHS"):
        mine = [c for c in cards if c[-1] == letter]
        assert x[9 * s] == pytest.approx(len(mine) / 6)
        assert [x[9 * s + 1 + j] for j in range(5)] == [float(r + letter in mine) for r in "AKQJT"]
        shortness = [float(len(mine) == n) for n in (0, 1, 2)]
        assert list(x[9 * s + 6 : 9 * s + 9]) == shortness
    assert x[38] == 1.0 and x[42:50].sum() == 0.0  # the first bid: no bid before it


def test_the_bidder_bids_the_best_legal_value():
    agent = make_agent("learned")
    rules = sa.Rules(min_bid=2)
    for i in range(12):
        hand = Hand(sa.deal(11, i), dealer=i % 4, rules=rules)
        while hand.phase == "bidding":
            obs = hand.observation()
            values = np.empty(14)
            at = model_at(agent.params, obs.rules_array)  # the agent's set of models: the table's
            bidder.bid_values(obs.public, obs.seat, obs.engine_cards, obs.rules_array, agent.params, values, at)
            b = agent.bid(obs)
            assert values[b] == max(values[o] for o in obs.legal_bids())
            hand.bid(b)
    assert N_BID_OUTPUTS == load_model("default").bid["W2"].shape[0]


def test_blind_nil_is_bid_when_the_model_says_it_pays(tmp_path):
    from spades_ai.models.model import BLIND_MADE, BLIND_PARTNER, SIGHTED_VALUE

    m = load_model("default")
    obs = Hand(sa.deal(2, 0), rules=sa.Rules(blind_nil=True)).observation(blind_decision=True)
    for made, sighted, want in ((0.9, 50.0, True), (0.5, 50.0, False)):
        scalars = np.array(m.scalars)
        scalars[[BLIND_MADE, BLIND_PARTNER, SIGHTED_VALUE]] = made, 20.0, sighted
        path = Model(m.bid, m.play, scalars, bid_kind=m.bid_kind, play_kind=m.play_kind).save(tmp_path / f"blind{made}.npz")
        assert make_agent("learned", model=str(path)).blind_nil(obs) is want
    assert make_agent("learned").blind_nil(obs) is (bidder.blind_nil_value(obs.rules_array, make_agent("learned").params) > 0)


@pytest.mark.slow
def test_hard_rolls_out_with_the_learned_agent():
    hard = make_agent("hard", worlds=16, rollout="learned")
    assert hard.label == "hard(worlds=16, rollout=learned)"
    records = sa.play_hands([hard, "normal"], 4, seed=2)
    assert (records.tricks_won.sum(axis=1) == 13).all()


@pytest.mark.slow
def test_the_learned_bidder_in_the_bidding_benchmark():
    from spades_ai.analysis.bidding import bidding_benchmark

    board = bidding_benchmark(["learned", "normal"], deals=40, seed=9)
    assert set(board.index) == {"learned", "normal"} and board.loc["normal", "margin"] == 0.0


def test_the_contract_study_prints_a_row_a_move(capsys):
    experiment_script("bid_shift_tricks").main(["--deals", "40", "--moves", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| +")]
    assert [r.split(" | ")[0] for r in rows] == ["| +0", "| +1"]


@pytest.fixture(scope="module")
def tiny_bids(tmp_path_factory):
    """A tiny bidding dataset of the explorer, as train_models.py writes its own (seed 21)."""
    from spades_ai.learn import write_dataset
    from spades_ai.models.explore import explorer

    return write_dataset(tmp_path_factory.mktemp("data") / "bids", [explorer(seed=21)] * 2, deals=60, seed=21, chunk_size=30)


def test_the_bidder_curve_pairs_each_fit_with_the_shipped_model(tiny_bids, tmp_path, capsys):
    experiment_script("learned_bidder_curve").main(["--dataset", str(tiny_bids), "--hands", "30", "60", "--hidden", "4", "--epochs", "1",
                                                    "--deals", "20", "--seed", "3", "--paired", "--keep", str(tmp_path)])  # fmt: skip
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [r.split(" | ")[0] for r in rows] == ["| 30", "| 60"]
    assert all(len(r.strip("|").split("|")) == 10 for r in rows)  # eight columns, then the paired difference and its interval
    assert sorted(p.name for p in tmp_path.glob("*.npz")) == ["bidder_30_4_1.npz", "bidder_60_4_1.npz"]
    assert load_model(tmp_path / "bidder_60_4_1.npz").info["bid_hands"] == 60


def test_the_inputs_probe_scores_both_networks_on_held_out_hands(tiny_bids, capsys):
    probe = experiment_script("bidder_inputs_probe")
    probe.main(["--dataset", str(tiny_bids), "--hands", "40", "--held-out", "20", "--hidden", "4", "--epochs", "1"])
    out = capsys.readouterr().out
    assert "| 62 features |" in out and "| 62 features + the 52 cards |" in out
    assert out.count("the cards' change in") == 2
    with pytest.raises(SystemExit, match="fewer than the 80 hands"):
        probe.main(["--dataset", str(tiny_bids), "--hands", "60", "--held-out", "20", "--hidden", "4", "--epochs", "1"])


# -- the value bidder ------------------------------------------------------------------------------
def test_the_value_bidder_loss_gradient_is_its_derivative():
    rng = np.random.default_rng(5)
    vals = rng.normal(size=(4, 7))
    vals[[0, 2, 3], [6, 0, 5]] = np.nan  # candidates not tried
    out = rng.normal(size=(4, 7))
    loss, grad = fit._bid_value_loss(out, vals)
    for i, j in np.ndindex(out.shape):
        bumped = out.copy()
        bumped[i, j] += 1e-6
        np.testing.assert_allclose((fit._bid_value_loss(bumped, vals)[0] - loss) / 1e-6, grad[i, j], atol=1e-5)
    assert grad[0, 6] == grad[2, 0] == grad[3, 5] == 0


def test_a_value_bidder_bids_its_best_legal_candidate(tmp_path):
    from spades_ai.models import replay
    from spades_ai.models.model import N_VALUE_OUTPUTS
    from spades_ai.policies.normal import estimate_tricks, normal_bid

    base = load_model("default")
    net = optim.init_network(features.N_BID_FEATURES, 8, N_VALUE_OUTPUTS, np.random.default_rng(4))
    net["b2"] = np.array([0.1, 0.3, 0.5, 0.4, 0.2, 0.0, 0.45])  # values near each other: the network decides
    model = Model(net, base.play, base.scalars, bid_kind="value", play_kind=base.play_kind)
    assert model.values_bids and not base.values_bids
    agent = make_agent("learned", model=str(model.save(tmp_path / "values.npz")))
    rules = sa.Rules(min_bid=2)
    chosen = set()
    for i in range(12):
        hand = Hand(sa.deal(13, i), dealer=i % 4, rules=rules)
        while hand.phase == "bidding":
            obs = hand.observation()
            x = np.empty(features.N_BID_FEATURES)
            features.bid_features(obs.public, obs.seat, obs.engine_cards, obs.rules_array, x)
            out = optim.forward(net, x[None])[0][0]
            guess = normal_bid(obs.public, obs.seat, obs.engine_cards, obs.rules_array, replay.NUMBER_BIDS)
            want = np.full(14, -np.inf)
            for k, shift in enumerate((-2, -1, 0, 1, 2, 3)):
                if 1 <= guess + shift <= 13:
                    want[guess + shift] = 100 * out[k]
            if estimate_tricks(obs.engine_cards, obs.rules_array) < 4.0:
                want[0] = 100 * out[6]
            values = np.empty(14)
            at = model_at(agent.params, obs.rules_array)
            bidder.bid_values(obs.public, obs.seat, obs.engine_cards, obs.rules_array, agent.params, values, at)
            np.testing.assert_allclose(values, want, rtol=1e-9)
            b = agent.bid(obs)
            assert values[b] == max(values[o] for o in obs.legal_bids())
            chosen.add(b - guess if b else "nil")
            hand.bid(b)
    assert len(chosen) > 1
    with pytest.raises(ValueError, match="bid network's b2"):  # its kind says 7 outputs: the short b2 is named
        Model({**net, "b2": net["b2"][:-1]}, base.play, base.scalars, bid_kind="value", play_kind=base.play_kind)


def test_the_value_bidder_script_fits_a_model_that_plays(tmp_path, capsys):
    out = experiment_script("value_bidder").main(["--deals", "300", "--worlds", "1", "2", "--hidden", "4", "--epochs", "1", "--bench-deals", "20",
                                                  "--jobs", "1", "--out", str(tmp_path / "values.npz")])  # fmt: skip
    model = load_model(out)
    assert model.values_bids and model.info["bid_deals"] == 300 and model.info["bid_worlds"] == 2
    rows = [line.strip("|").split("|") for line in capsys.readouterr().out.splitlines() if line.startswith("| 300 |")]
    assert [r[1].strip() for r in rows] == ["1", "2"] and all(len(r) == 13 for r in rows)
    experiment_script("value_bidder").main(["--models", str(out), "--bench-deals", "20", "--bench-seed", "13"])
    again = [line.split("|") for line in capsys.readouterr().out.splitlines() if line.startswith("| 300 |")]
    assert len(again) == 1 and [c.strip() for c in again[0][2:5]] == ["2", f"{model.info['bid_worlds_kept']:.2f}", "-"]
    check_agent(make_agent("learned", model=str(out)))


# -- the table a model was trained at ----------------------------------------------------------------
def _three_player_model() -> Model:
    inputs = observation_layout("cutthroat").size + features.N_CARD_FEATURES
    net = optim.init_network(inputs, 4, 1, np.random.default_rng(0))
    return Model({}, net, np.zeros(N_SCALARS), bid_kind="normal", play_kind="vector", table=(3, "solo"))


def test_the_four_player_models_refuse_another_table():
    for name in ("default", "reading"):
        m = load_model(name)
        assert m.table == (4, "pairs") and m.table_name == "4 players in pairs"
        assert m.check_table(sa.Rules()) == sa.Rules()
        with pytest.raises(sa.TableError, match=r"plays 4 players in pairs, not 3 players solo"):
            m.check_table("cutthroat")
        with pytest.raises(sa.TableError, match=r"of 4 players in pairs reads .* 567 floats, not vectors of 455 \(3 players solo\)"):
            m.check_vectors(np.zeros((2, 455), np.float32))
        assert m.check_vectors(np.zeros((2, OBSERVATION_SIZE))).dtype == np.float32


def test_a_model_of_another_table_keeps_it_and_refuses_the_four_player_vector(tmp_path):
    m = _three_player_model()
    path = m.save(tmp_path / "three.npz")
    again = load_model(path)
    assert again.table == (3, "solo") and again.play["W1"].shape[1] == 455 + features.N_CARD_FEATURES
    with pytest.raises(sa.TableError, match=r"of 3 players solo reads that table's vectors of 455 floats, not vectors of 567 \(4 players in pairs\)"):
        again.check_vectors(np.zeros(OBSERVATION_SIZE))
    agent = make_agent("learned", model=str(path))
    with pytest.raises(sa.TableError, match=r"agent 'learned.*' plays 3 players solo, not 4 players in pairs"):
        agent.check_table(sa.Rules())
    with pytest.raises(ValueError, match=r"play network's W1"):  # a 4-player network said to be of 3 players
        Model({}, load_model("default").play, m.scalars, bid_kind="normal", play_kind="vector", table=(3, "solo"))
    with pytest.raises(sa.TableError, match=r"a 'tricks' or 'value' bidding network plays 4 players in pairs, not 3 players solo"):
        Model(load_model("default").bid, m.play, m.scalars, bid_kind="tricks", play_kind="vector", table=(3, "solo"))


def test_train_model_refuses_rows_of_another_table():
    rows = _random_vector_rows()
    with pytest.raises(sa.TableError, match=r"of 3 players solo reads .* not vectors of 567 \(4 players in pairs\)"):
        fit.train_model(None, rows, bidder_from="default", rules=sa.Rules(players=3), settings=TINY_FIT)


def test_fit_settings_hold_train_models_defaults_and_refuse_bad_values():
    s = fit.FitSettings()
    assert (s.bid_hidden, s.play_hidden, s.epochs, s.bid_epochs, s.play_loss, s.play_decay, s.seed) == (32, 256, 4, None, "softmax", 1.0, 0)
    bad = [({"epochs": 0}, "epochs must be an int >= 1, not 0"), ({"bid_epochs": 1.5}, "bid_epochs must be an int >= 1 or None"),
           ({"play_loss": "mse"}, "play_loss is one of values, softmax, not 'mse'"), ({"seed": -1}, "seed must be an int >= 0"),
           ({"play_hidden": True}, "play_hidden must be an int >= 1, not True")]  # fmt: skip
    for kwargs, match in bad:
        with pytest.raises(ValueError, match=match):
            fit.FitSettings(**kwargs)
    with pytest.raises(TypeError, match="settings is a FitSettings"):
        fit.train_model(None, _random_vector_rows(), bidder_from="default", settings={"epochs": 1})
