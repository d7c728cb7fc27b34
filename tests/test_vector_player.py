"""The learned card network over the observation vector (issue 36): its rows from a labelled
dataset, its losses, its fit, its sparse forward pass in numba against numpy, the kind stored in
the model file, the agent playing the network's top card in the self-play loop, the table it
refuses, and the curve script."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.agents.registry import make_agent
from spades_ai.encoding import OBSERVATION_SIZE, PH_PLAYING
from spades_ai.learn import iter_dataset, load_dataset, write_dataset
from spades_ai.learn.hands import dataset_hands, iter_dataset_hands
from spades_ai.models import fit, network, optim
from spades_ai.models.features import N_CARD_FEATURES
from spades_ai.models import rows as training_rows
from spades_ai.models.model import H_PLAY_KIND, VECTOR_PLAYER, Model, load_model, model_at
from spades_ai.seats import table_name
from experiment_scripts import experiment_script

COLUMNS = ["obs", "phase", "mask", "action", "label_values"]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Four deals of Hard (8 worlds) at seats 0 and 2, labelled by it, Normal at 1 and 3."""
    out = tmp_path_factory.mktemp("vector") / "hard"
    return write_dataset(out, [make_agent("hard", worlds=8), "normal"], deals=4, seed=8, chunk_size=2, labels="hard:worlds=8")


def _vector_model(hidden: int = 6, seed: int = 0) -> Model:
    """The shipped bidder beside a random vector card network."""
    base = load_model("default")
    net = optim.init_network(OBSERVATION_SIZE + N_CARD_FEATURES, hidden, 1, np.random.default_rng(seed))
    return Model(base.bid, net, base.scalars, bid_kind=base.bid_kind, play_kind="vector")


def test_the_rows_are_each_decisions_vector_and_its_cards_features_and_values(labelled):
    data, hands = load_dataset(labelled, columns=COLUMNS), dataset_hands(labelled)
    rows = training_rows.vector_card_rows(data, hands)
    cards = training_rows.card_rows(hands)
    choice = (data["phase"] == PH_PLAYING) & (data["mask"][:, :52].sum(1) > 1)
    assert rows["obs"].dtype == np.float32 and rows["obs"].shape == (choice.sum(), OBSERVATION_SIZE)
    np.testing.assert_array_equal(rows["obs"], data["obs"][choice])
    np.testing.assert_array_equal(rows["x"], cards["x"].astype(np.float32))
    np.testing.assert_array_equal(rows["count"], data["mask"][choice][:, :52].sum(1))
    np.testing.assert_allclose(rows["values"], training_rows.card_value_targets(data, cards), rtol=1e-6)
    # chunk by chunk, cut at a number of decisions: the first decisions of the whole
    first = training_rows.dataset_vector_rows(zip(iter_dataset(labelled, columns=COLUMNS), iter_dataset_hands(labelled)), decisions=50)
    used = first["start"][-1] + first["count"][-1]
    for k, n in (("obs", 50), ("start", 50), ("count", 50), ("x", used), ("values", used)):
        np.testing.assert_array_equal(first[k], rows[k][:n], err_msg=k)
    with pytest.raises(ValueError, match="card decisions"):  # rows and hands that do not belong together
        training_rows.vector_card_rows({k: v[:-56] for k, v in data.items()}, hands)


def _soft_batch(rng):
    count = np.array([3, 2, 4, 2])
    values = rng.normal(size=count.sum())
    values[[1, 8, 9]] = np.nan  # weighed not; the last decision has one weighed card: it teaches nothing
    return (count, None, values)


def test_the_soft_value_loss_gradient_is_its_derivative():
    rng = np.random.default_rng(4)
    batch = _soft_batch(rng)
    out = rng.normal(size=(11, 1))
    value, grad = fit._soft_value_loss(out, batch)
    for i in range(11):
        bumped = out.copy()
        bumped[i, 0] += 1e-6
        np.testing.assert_allclose((fit._soft_value_loss(bumped, batch)[0] - value) / 1e-6, grad[i, 0], atol=1e-5)
    assert (grad[[1, 8, 9, 10], 0] == 0).all()  # cards not weighed, and a decision of one weighed card
    assert fit._soft_value_loss(out.astype(np.float32), batch)[0] == pytest.approx(value, rel=1e-5)


def test_the_vector_player_fits_the_values_and_scores_its_regret(labelled):
    rows = training_rows.vector_card_rows(load_dataset(labelled, columns=COLUMNS), dataset_hands(labelled))
    decisions = np.arange(len(rows["count"]))
    for loss, loss_grad in zip(fit.VECTOR_LOSSES, (fit._value_loss, fit._soft_value_loss)):
        def on_all(net):
            return loss_grad(fit.vector_scores(net, rows, decisions)[0], (rows["count"], None, rows["values"]))[0]

        start, _ = fit.fit_vector_player(rows, hidden=16, epochs=0, loss=loss, seed=2)  # the drawn network
        net, losses = fit.fit_vector_player(rows, hidden=16, epochs=20, batch=32, loss=loss, seed=2)
        assert on_all(net) < on_all(start) and len(losses) == 20 and net["W1"].dtype == np.float64
    again, _ = fit.fit_vector_player(rows, hidden=16, epochs=20, batch=32, loss=loss, seed=2)
    np.testing.assert_array_equal(net["W1"], again["W1"])
    # the scores are the numpy network's on each card's whole input, the vector then the features
    scores, _, seg = fit.vector_scores(net, rows, decisions)
    whole = np.hstack([rows["obs"][seg], rows["x"]]).astype(np.float64)
    np.testing.assert_allclose(scores, optim.forward(net, whole)[0], rtol=1e-9, atol=1e-9)
    # the regret, one decision at a time
    lost, same, n = 0.0, 0, 0
    for d in decisions:
        s, c = rows["start"][d], rows["count"][d]
        v, sc = rows["values"][s : s + c], scores[s : s + c, 0]
        if (~np.isnan(v)).sum() > 1:
            got = v[np.argmax(np.where(np.isnan(v), -np.inf, sc))]
            lost, same, n = lost + np.nanmax(v) - got, same + (got == np.nanmax(v)), n + 1
    got = fit.vector_regret(net, rows, batch=7)
    assert got["regret"] == pytest.approx(lost * 10 / n) and got["agreement"] == pytest.approx(same / n)
    with pytest.raises(ValueError, match="loss is one of values, softmax, not 'mse'"):
        fit.fit_vector_player(rows, loss="mse")
    # the weight decay shrinks the vector's weights, not the card features'
    shrunk, _ = fit.fit_vector_player(rows, hidden=16, epochs=2, batch=32, decay=999.0, seed=2)
    assert np.abs(shrunk["W1"][:, :OBSERVATION_SIZE]).max() < 0.01 < 0.05 < np.abs(shrunk["W1"][:, OBSERVATION_SIZE:]).max()
    with pytest.raises(ValueError, match=r"decay shrinks its weights by lr \* decay a step, in \[0, 1\): not 0.001 \* 1000.0"):
        fit.fit_vector_player(rows, decay=1000.0)


def test_the_sparse_pass_is_the_numpy_network():
    rng = np.random.default_rng(1)
    net = optim.init_network(9, 5, 1, rng)
    w = np.concatenate([np.zeros(2), net["W1"].T.reshape(-1), net["b1"], net["W2"].reshape(-1), net["b2"]])  # W1 transposed
    x = rng.normal(size=(3, 9)) * (rng.random((3, 9)) < 0.4)  # mostly zeros, as the observation vector
    want = optim.forward(net, x)[0]
    for i in range(3):
        h = net["b1"].copy()
        network.add_rows(w, 2, 5, x[i, :6], 0, h)  # the shared part, then the rest
        network.add_rows(w, 2, 5, x[i, 6:], 6, h)
        assert network.relu_output(w, 2, 9, 5, 1, 0, h) == pytest.approx(want[i, 0], rel=1e-12, abs=1e-12)


def test_the_agent_plays_the_networks_top_card_on_its_vector_and_features(tmp_path):
    """In the self-play loop, the agent's every card is the legal card of the highest score of
    the numpy network on the observation vector the dataset records and the card's features."""
    model = _vector_model()
    agent = make_agent("learned", model=str(model.save(tmp_path / "v.npz")))
    assert agent.params[model_at(agent.params, sa.Rules().as_array()) + H_PLAY_KIND] == VECTOR_PLAYER
    out = write_dataset(tmp_path / "d", [agent, "normal"], deals=12, seed=4)
    data = load_dataset(out)
    cards = training_rows.card_rows(dataset_hands(out), agent=0)
    mine = (data["phase"] == PH_PLAYING) & (data["agent"] == 0) & (data["mask"][:, :52].sum(1) > 1)
    rows = {"obs": data["obs"][mine], "x": cards["x"], "start": cards["start"], "count": cards["count"]}
    scores = fit.vector_scores(model.play, rows, np.arange(len(cards["count"])))[0][:, 0]
    top = [np.argmax(scores[s : s + c]) for s, c in zip(cards["start"], cards["count"])]  # the first of equal scores
    assert len(top) > 100
    np.testing.assert_array_equal(top, cards["chosen"])


def test_a_model_file_holds_its_card_networks_kind(tmp_path):
    """The card network's kind is stored and read; a file without one was written when there
    was one kind, ``"cards"``; a network of another kind's shape, or an unknown kind, is refused."""
    m = _vector_model()
    assert load_model(m.save(tmp_path / "v.npz")).play_kind == "vector"
    cards = load_model("reading")
    with pytest.raises(ValueError, match=r"play network.s W1 is \(8, 599\) \(599 inputs, 1 outputs\), not \(8, 32\)"):
        Model(m.bid, cards.play, m.scalars, bid_kind=m.bid_kind, play_kind="vector")
    with pytest.raises(ValueError, match="play_kind is one of cards, vector, not 'vectors'"):
        Model(m.bid, m.play, m.scalars, bid_kind=m.bid_kind, play_kind="vectors")
    arrays = {f"{net}_{k}": layers[k] for net, layers in (("bid", cards.bid), ("play", cards.play)) for k in cards.bid}
    np.savez(tmp_path / "old.npz", **arrays, scalars=cards.scalars, info=np.array("{}"), bid_kind=np.array("tricks"))
    assert load_model(tmp_path / "old.npz").play_kind == "cards"


@pytest.mark.parametrize("rules", [sa.Rules(players=6), sa.Rules(players=8, teams="pairs")])
def test_the_learned_agent_refuses_a_table_without_a_model(rules):
    card_player = sa.Mixed("cards", make_agent("normal"), make_agent("learned"))
    others = ["normal"] * (rules.players - 1)
    for lineup in (["learned", *others], [card_player, *others]):
        with pytest.raises(sa.TableError, match=f"agent 'learned' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not {table_name(rules)}"):
            sa.play_hands(lineup, 2, seed=1, rules=rules)


def test_crazy_reads_the_play_with_a_vector_play_model(tmp_path):
    path = _vector_model().save(tmp_path / "v.npz")
    crazy = make_agent("hard", worlds=16, read_play=True, play_model=str(path))
    records = sa.play_hands([crazy, "normal"], 2, seed=3)
    assert (records.tricks_won.sum(axis=1) == 13).all()


def test_the_curve_prints_a_row_a_network(labelled, capsys):
    curve = experiment_script("vector_player_curve")
    curve.main(["--data", str(labelled), "--decisions", "40", "0", "--hidden", "4", "--epochs", "1", "--inputs", "all", "no-history",
                "--deals", "4"])  # fmt: skip
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| ") and " | softmax | " in ln]
    assert len(lines) == 4 and lines[0].startswith("| 40 | 4 | softmax | 1 | 1 | all |") and all(ln.count("|") == 11 for ln in lines)


def test_the_card_player_script_pairs_two_models_on_the_same_deals(tmp_path, capsys):
    script = experiment_script("card_player_vs_normal")
    a, b = _vector_model(seed=1).save(tmp_path / "a.npz"), _vector_model(seed=2).save(tmp_path / "b.npz")
    script.main([str(a), str(b), "--deals", "6", "--seed", "5"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and "card network vs Normal" in lines[0] and "(6 deals of seed 5)" in lines[0] and "paired" in lines[2]
    gains = experiment_script("vector_player_curve").card_player_gains(load_model(a), 6, 5)
    assert lines[0].split("Normal ")[1].startswith(f"{gains.mean():+.2f}")
    with pytest.raises(SystemExit):
        script.main([str(a), str(b), str(a)])


def test_the_card_player_script_plays_the_whole_agent_with_its_bids(tmp_path, capsys):
    script = experiment_script("card_player_vs_normal")
    a = _vector_model(seed=1).save(tmp_path / "a.npz")
    script.main([str(a), "--deals", "6", "--seed", "5", "--whole"])
    line = capsys.readouterr().out.strip()
    learned = make_agent("learned", model=str(a))
    x, y = sa.play_hands([learned, "normal"], 6, seed=5).points, sa.play_hands(["normal", learned], 6, seed=5).points
    gains = (x[:, 0] - x[:, 1] + y[:, 1] - y[:, 0]) / 2
    assert line.startswith(f"{a}: learned agent vs Normal {gains.mean():+.2f} ± ")
    assert line.endswith("(6 deals of seed 5)")
    cards = experiment_script("vector_player_curve").card_player_gains(load_model(a), 6, 5)
    assert not np.array_equal(cards, gains)  # the learned bids, not Normal's
