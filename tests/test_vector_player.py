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
from spades_ai.models import fit, network, optim
from spades_ai.models import rows as training_rows
from spades_ai.models.model import H_PLAY_KIND, VECTOR_PLAYER, Model, load_model
from experiment_scripts import experiment_script

COLUMNS = ["obs", "phase", "mask", "label_values", "action"]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Four deals of Hard (8 worlds) at seats 0 and 2, labelled by it, Normal at 1 and 3."""
    out = tmp_path_factory.mktemp("vector") / "hard"
    return write_dataset(out, [make_agent("hard", worlds=8), "normal"], deals=4, seed=8, chunk_size=2, labels="hard:worlds=8")


def _vector_model(hidden: int = 6, seed: int = 0) -> Model:
    """The shipped bidder beside a random vector card network."""
    base = load_model("default")
    net = optim.init_network(OBSERVATION_SIZE, hidden, 52, np.random.default_rng(seed))
    return Model(base.bid, net, base.scalars, bid_kind=base.bid_kind, play_kind="vector")


def test_the_rows_are_the_card_decisions_with_a_choice_and_their_values(labelled):
    data = load_dataset(labelled, columns=COLUMNS)
    rows = training_rows.vector_card_rows(data)
    card = data["phase"] == PH_PLAYING
    values = data["label_values"][card, :52]
    kept = (~np.isnan(values)).sum(1) > 1
    assert 0 < len(rows["x"]) == kept.sum() < card.sum()  # a last card (one legal) teaches nothing
    assert rows["x"].dtype == np.float32 and rows["x"].shape[1] == OBSERVATION_SIZE
    np.testing.assert_array_equal(rows["x"], data["obs"][card][kept])
    np.testing.assert_allclose(rows["values"], values[kept] / 10.0, rtol=1e-6)
    legal = data["mask"][card][kept][:, :52] == 1
    assert (np.isnan(rows["values"]) | legal).all()
    # chunk by chunk, cut at a number of decisions: the first rows of the whole
    first = training_rows.dataset_vector_rows(iter_dataset(labelled, columns=COLUMNS), decisions=50)
    np.testing.assert_array_equal(first["x"], rows["x"][:50])
    np.testing.assert_array_equal(first["values"], rows["values"][:50])


def test_a_value_of_a_card_the_seat_could_not_play_is_refused(labelled):
    data = load_dataset(labelled, columns=COLUMNS)
    card = np.flatnonzero(data["phase"] == PH_PLAYING)[0]
    illegal = np.flatnonzero(data["mask"][card, :52] == 0)[0]
    data["label_values"] = data["label_values"].copy()
    data["label_values"][card, illegal] = 1.0
    with pytest.raises(ValueError, match="card decision 0: the labeller valued .*, which the seat could not play"):
        training_rows.vector_card_rows(data)
    with pytest.raises(ValueError, match="'label_values'"):
        training_rows.vector_card_rows({k: v for k, v in data.items() if k != "label_values"})


@pytest.mark.parametrize("loss", [fit._centred_value_loss, fit._soft_value_loss])
def test_the_vector_losses_gradients_are_their_derivatives(loss):
    rng = np.random.default_rng(4)
    values = np.full((3, 52), np.nan)
    for d, cards in enumerate(([0, 5, 9], [12, 13], [1, 2, 40, 51])):
        values[d, cards] = rng.normal(size=len(cards))
    out = rng.normal(size=(3, 52))
    value, grad = loss(out, values)
    for d, c in [(0, 5), (1, 13), (2, 51), (0, 7)]:
        bumped = out.copy()
        bumped[d, c] += 1e-6
        np.testing.assert_allclose((loss(bumped, values)[0] - value) / 1e-6, grad[d, c], atol=1e-5)
    assert (grad[np.isnan(values)] == 0).all()  # a card not weighed is not pushed
    same = np.where(np.isnan(values), 0.0, values)
    assert fit._centred_value_loss(same + 3.0, values)[0] == pytest.approx(0.0)  # only the differences count


def test_the_vector_player_fits_the_values_and_scores_its_regret(labelled):
    rows = training_rows.vector_card_rows(load_dataset(labelled, columns=COLUMNS))
    for loss in fit.VECTOR_LOSSES:
        net, losses = fit.fit_vector_player(rows, hidden=16, epochs=30, batch=64, loss=loss, seed=2)
        assert losses[-1] < losses[0] and net["W1"].dtype == np.float64
    again, _ = fit.fit_vector_player(rows, hidden=16, epochs=30, batch=64, loss=loss, seed=2)
    np.testing.assert_array_equal(net["W1"], again["W1"])
    score = fit.vector_regret(net, rows)
    assert 0.0 <= score["regret"] and 0.0 <= score["agreement"] <= 1.0
    perfect = {"W1": np.zeros((1, OBSERVATION_SIZE)), "b1": np.zeros(1), "W2": np.zeros((52, 1)), "b2": np.zeros(52)}
    one = {"x": rows["x"][:1], "values": rows["values"][:1]}
    perfect["b2"][np.nanargmax(one["values"][0])] = 1.0  # its top card is the labeller's best
    assert fit.vector_regret(perfect, one) == {"regret": 0.0, "agreement": 1.0}
    with pytest.raises(ValueError, match="loss is one of values, softmax, not 'mse'"):
        fit.fit_vector_player(rows, loss="mse")


def test_the_sparse_pass_is_the_numpy_network():
    rng = np.random.default_rng(1)
    net = optim.init_network(9, 5, 4, rng)
    w = np.concatenate([net["W1"].T.reshape(-1), net["b1"], net["W2"].reshape(-1), net["b2"]])  # W1 transposed
    x = rng.normal(size=(3, 9)) * (rng.random((3, 9)) < 0.4)  # mostly zeros, as the observation vector
    want = optim.forward(net, x)[0]
    h = np.empty(5)
    for i in range(3):
        network.sparse_hidden(np.concatenate([np.zeros(2), w]), 2, 9, 5, x[i], h)
        got = [network.output_of(np.concatenate([np.zeros(2), w]), 2, 9, 5, 4, k, h) for k in range(4)]
        np.testing.assert_allclose(got, want[i], rtol=1e-12, atol=1e-12)


def test_the_agent_plays_the_networks_top_card_on_its_observation_vector(tmp_path):
    """In the self-play loop, the agent's every card is the legal card of the highest score of
    the numpy network on the observation vector the dataset records."""
    model = _vector_model()
    agent = make_agent("learned", model=str(model.save(tmp_path / "v.npz")))
    assert agent.params[H_PLAY_KIND] == VECTOR_PLAYER
    data = load_dataset(write_dataset(tmp_path / "d", [agent, "normal"], deals=12, seed=4))
    play = (data["phase"] == PH_PLAYING) & (data["agent"] == 0) & (data["mask"][:, :52].sum(1) > 1)
    scores = optim.forward(model.play, data["obs"][play].astype(np.float64))[0]
    top = np.argmax(np.where(data["mask"][play][:, :52] == 1, scores, -np.inf), axis=1)
    assert play.sum() > 100
    np.testing.assert_array_equal(top, data["action"][play])


def test_a_model_file_holds_its_card_networks_kind(tmp_path):
    """The card network's kind is stored and read; a file without one was written when there
    was one kind, ``"cards"``; a network of another kind's shape, or an unknown kind, is refused."""
    m = _vector_model()
    assert load_model(m.save(tmp_path / "v.npz")).play_kind == "vector"
    cards = load_model("reading")
    with pytest.raises(ValueError, match=r"play network.s W1 is \(8, 567\) \(567 inputs, 52 outputs\), not \(8, 32\)"):
        Model(m.bid, cards.play, m.scalars, bid_kind=m.bid_kind, play_kind="vector")
    with pytest.raises(ValueError, match="play_kind is one of cards, vector, not 'vectors'"):
        Model(m.bid, m.play, m.scalars, bid_kind=m.bid_kind, play_kind="vectors")
    arrays = {f"{net}_{k}": layers[k] for net, layers in (("bid", cards.bid), ("play", cards.play)) for k in cards.bid}
    np.savez(tmp_path / "old.npz", **arrays, scalars=cards.scalars, info=np.array("{}"), bid_kind=np.array("tricks"))
    assert load_model(tmp_path / "old.npz").play_kind == "cards"


@pytest.mark.parametrize("rules", [sa.Rules(players=3), sa.Rules(players=4, teams="solo")])
def test_the_learned_agent_refuses_a_table_but_four_in_pairs(rules):
    card_player = sa.Mixed("cards", make_agent("normal"), make_agent("learned"))
    for lineup in (["learned", "normal"], [card_player, "normal"]):
        with pytest.raises(ValueError, match="the learned agent plays 4 players in two pairs"):
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
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| ") and " | values | " in ln]
    assert len(lines) == 4 and lines[0].startswith("| 40 | 4 | values | all |") and all(ln.count("|") == 9 for ln in lines)
