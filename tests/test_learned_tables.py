"""The learned agent at every table it has a model of (issue 44, item 5): the card features read
the table (against a slow Python reference), the card rows replay any table, a set of models
packed for the agent plays each table's own, a model of another table bids like Normal, and a
table with no model is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import make_agent
from spades_ai.models import features, optim
from spades_ai.models import rows as training_rows
from spades_ai.models.model import N_SCALARS, TABLE_MODELS, Model, load_model, load_models, model_at, pack_models
from spades_ai.policies.normal import normal_agent_bid
from spades_ai.seats import left_of, partner, seats, side_of, side_seats, sides
from encoding_positions import positions

TABLES = [sa.Rules(players=3), sa.Rules(players=4, teams="solo"), sa.Rules(players=5), sa.Rules(players=6, teams="pairs"),
          sa.Rules(players=12, teams="solo")]  # fmt: skip


def _need(obs, side: int, rules: sa.Rules) -> int:
    """Tricks ``side`` still needs for its number bids (a nil bidder's tricks not counted)."""
    bids = obs.bids
    contract = sum(b for s in side_seats(side, rules) if (b := bids[s]) is not None and b > 0)
    counted = sum(obs.tricks_won[s] for s in side_seats(side, rules) if bids[s] is not None and bids[s] > 0)
    return contract - counted


def _reference_context(obs, rules: sa.Rules) -> dict[int, float]:
    """The table's slots of ``play_context``, from the observation in Python."""
    seat, each = obs.seat, rules.cards_each
    mate = partner(seat, rules)
    before = next(s for s in seats(rules) if left_of(s, rules) == seat)
    trick = obs.current_trick
    winner = None
    if trick:
        win_seat, win = trick[0]
        for s, c in trick[1:]:
            if (c.suit == win.suit and c.rank > win.rank) or (c.suit.name == "SPADES" and win.suit.name != "SPADES"):
                win_seat, win = s, c
        winner = win_seat
    nil = [obs.bids[s] == 0 for s in (seat, mate if mate is not None else -1, left_of(seat, rules), before)]
    if mate is None:
        nil[1] = False
    own = side_of(seat, rules)
    return {14: float(mate is not None and winner == mate), 20: obs.trick_no / each, 21: float(nil[0]), 22: float(nil[1]),
            23: float(nil[2]), 24: float(nil[3]), 25: max(_need(obs, own, rules), 0) / each,
            26: sum(max(_need(obs, k, rules), 0) for k in sides(rules) if k != own) / each}  # fmt: skip


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.players}{r.teams}")
def test_the_card_features_read_the_table(rules):
    checked = 0
    for h, seat, blind, hidden in positions(rules, seed=9, hands=2, views=False):
        if h.phase != "playing" or seat != h.to_act or blind:
            continue
        obs = h.observation()
        legal = [int(c) for c in obs.legal_cards()]
        mask = np.uint64(sum(1 << c for c in legal))
        ctx = np.empty(features.N_CARD_FEATURES)
        normal = features.play_context(np.array(obs.public), seat, obs.engine_cards, mask, obs.rules_array, ctx)
        for slot, want in _reference_context(obs, rules).items():
            assert ctx[slot] == pytest.approx(want), (slot, seat, obs.trick_no)
        x = np.empty(features.N_CARD_FEATURES)
        before = next(s for s in seats(rules) if left_of(s, rules) == seat)
        for c in legal:
            features.card_features(np.array(obs.public), seat, obs.engine_cards, mask, obs.rules_array, c, normal, ctx, x)
            suit = c // 13
            assert x[30] == float(suit in obs.voids[left_of(seat, rules)]) and x[31] == float(suit in obs.voids[before])
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("rules", [sa.Rules(players=3), sa.Rules(players=6, teams="pairs")], ids=["3", "6pairs"])
def test_the_card_rows_replay_a_table_and_check_every_card(rules, tmp_path):
    from spades_ai.learn import write_dataset
    from spades_ai.learn.hands import dataset_hands

    out = write_dataset(tmp_path / "d", ["normal"] * rules.players, 3, seed=5, rules=rules)
    hands = dataset_hands(out)
    rows = training_rows.card_rows(hands, None, rules)
    assert len(rows["count"]) > 0 and rows["count"].min() >= 2 and len(rows["x"]) == rows["count"].sum()
    # Normal played every card: the features say which legal card is Normal's, and it is the one played
    chosen = rows["x"][rows["start"] + rows["chosen"], 0]
    assert chosen.all()
    hands["plays"][0, 5] = 99  # no card: refused, naming the deal
    with pytest.raises(ValueError, match=r"deal 0: seat \d+ is recorded playing"):
        training_rows.card_rows(hands, None, rules)


def test_the_bidding_rows_refuse_another_table():
    with pytest.raises(sa.TableError, match=r"a 'tricks' or 'value' bidding network plays 4 players in pairs, not 3 players solo"):
        training_rows.bidding_rows({"deals": np.zeros((0, 3), np.uint64)}, sa.Rules(players=3))


def _model(rules: sa.Rules, seed: int = 0) -> Model:
    from spades_ai.encoding import observation_layout

    net = optim.init_network(observation_layout(rules).size + features.N_CARD_FEATURES, 4, 1, np.random.default_rng(seed))
    return Model({}, net, np.zeros(N_SCALARS), bid_kind="normal", play_kind="vector", table=(rules.players, rules.teams))


def test_a_set_of_models_plays_each_tables_own():
    three, four = _model(sa.Rules(players=3)), load_model("default")
    packed = pack_models([four, three])
    assert model_at(packed, sa.Rules().as_array()) == 7 and model_at(packed, sa.Rules(players=5).as_array()) == -1
    assert model_at(packed, sa.Rules(players=3).as_array()) == 7 + len(four.params())
    np.testing.assert_array_equal(packed[7 : 7 + len(four.params())], four.params())
    # at four in pairs the set plays as the default model alone; at three players as the 3-player model alone
    for rules, alone in ((sa.Rules(), four), (sa.Rules(players=3), three)):
        single, both = pack_models([alone]), packed
        for h, seat, blind, hidden in positions(rules, seed=3, hands=1, views=False):
            if h.phase != "playing" or len(h.legal_cards()) < 2:
                continue
            obs = h.observation()
            args = (np.array(obs.public), seat, obs.engine_cards, np.uint64(obs.legal_mask()), obs.rules_array)
            from spades_ai.models.player import learned_play

            assert learned_play(*args, single) == learned_play(*args, both)


def test_a_model_of_another_table_bids_like_normal():
    from spades_ai.models.bidder import learned_bid

    packed = pack_models([_model(sa.Rules(players=5))])
    n = 0
    for h, seat, blind, hidden in positions(sa.Rules(players=5), seed=4, hands=2, views=False):
        if h.phase != "bidding" or blind:
            continue
        obs = h.observation()
        legal = sum(1 << b for b in obs.legal_bids())
        args = (np.array(obs.public), seat, obs.engine_cards, legal, obs.rules_array)
        assert learned_bid(*args, packed) == normal_agent_bid(*args)
        n += 1
    assert n >= 5


def test_the_learned_agent_plays_every_table_with_a_shipped_model_and_refuses_the_rest():
    agent = make_agent("learned")
    shipped = {m.table for m in load_models("default")}
    assert (4, "pairs") in shipped and shipped <= set(TABLE_MODELS)
    for players, teams in shipped:
        rules = sa.Rules(players=players, teams=teams)
        records = sa.play_hands([agent] * players, 3, seed=1, rules=rules)
        assert records.bids.shape == (3, players) and (records.tricks_won.sum(1) == rules.cards_each).all()
    with pytest.raises(sa.TableError, match=r"agent 'learned' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not 8 players in pairs"):
        agent.check_table(sa.Rules(players=8, teams="pairs"))


def test_the_docs_example_of_the_learned_agent_at_three_players_runs():
    """docs/learning.md's "At every table: the learned agent" example, run as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "learning.md").read_text(encoding="utf-8")
    section = text.split("\n### At every table: the learned agent\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    exec(compile(block, "docs/learning.md", "exec"), {})


def test_the_table_models_script_fits_a_tiny_model_of_a_table(tmp_path, capsys):
    from experiment_scripts import experiment_script

    experiment_script("train_table_models").main(["--tiny", "--table", "5", "--data", str(tmp_path / "data"), "--out-dir", str(tmp_path)])
    model = load_model(tmp_path / "table-5.npz")
    assert model.table == (5, "solo") and model.bid_kind == "vector" and model.play["W1"].shape[0] == model.bid["W1"].shape[0] == 4
    assert "train_table_models.py --tiny --table 5" in model.info["made_by"]
    agent = make_agent("learned", model=str(tmp_path / "table-5.npz"))
    records = sa.play_hands([agent] + ["normal"] * 4, 2, seed=3, rules=sa.Rules(players=5))
    assert (records.tricks_won.sum(1) == 10).all()


def _vector_bidder_model(rules: sa.Rules, seed: int = 1) -> Model:
    from spades_ai.encoding import observation_layout

    inputs = observation_layout(rules).size + features.N_CARD_FEATURES
    rng = np.random.default_rng(seed)
    play, bid = optim.init_network(inputs, 4, 1, rng), optim.init_network(inputs, 6, 1, rng)
    return Model(bid, play, np.zeros(N_SCALARS), bid_kind="vector", play_kind="vector", table=(rules.players, rules.teams))


def test_the_vector_bidder_bids_its_top_candidate_as_numpy_scores_it():
    from spades_ai.interop.encoding import observation_vector
    from spades_ai.models.bidder import learned_bid
    from spades_ai.policies.normal import normal_bid

    rules = sa.Rules(players=5)
    model = _vector_bidder_model(rules)
    packed = pack_models([model])
    n = 0
    for h, seat, blind, hidden in positions(rules, seed=6, hands=3, views=False):
        if h.phase != "bidding" or seat != h.to_act:
            continue
        obs = h.observation(blind_decision=blind)
        legal = sum(1 << b for b in obs.legal_bids()) if not blind else int(obs.legal_mask())
        args = (np.array(obs.public), seat, obs.engine_cards, legal, obs.rules_array)
        got = learned_bid(*args, packed)
        if blind:  # the blind-nil question: Normal's answer
            assert got == normal_agent_bid(*args)
            continue
        normal = normal_bid(np.array(obs.public), seat, obs.engine_cards, obs.rules_array, legal)
        cands = [b for b in obs.legal_bids() if b == 0 or abs(b - normal) <= features.BID_WINDOW]
        x = np.empty((len(cands), features.N_CARD_FEATURES))
        for i, b in enumerate(cands):
            features.bid_candidate_features(b, normal, obs.rules_array, x[i])
        vec = np.repeat(observation_vector(obs)[None, :].astype(np.float64), len(cands), axis=0)
        scores = optim.forward(model.bid, np.hstack([vec, x]))[0][:, 0]
        assert got == cands[int(np.argmax(scores))]
        n += 1
    assert n >= 10


def test_the_vector_bidders_rows_hold_the_labellers_value_of_each_candidate(tmp_path):
    from spades_ai.learn import load_dataset, write_dataset
    from spades_ai.learn.hands import dataset_hands
    from spades_ai.encoding import BID_OFFSET, PH_BIDDING

    rules = sa.Rules(players=3)
    out = write_dataset(tmp_path / "d", ["normal"] * 3, 3, seed=2, rules=rules, labels="hard:worlds=4")
    data, hands = load_dataset(out), dataset_hands(out)
    rows = training_rows.vector_bid_rows(data, hands, rules)
    bids = np.asarray(data["phase"]) == PH_BIDDING
    assert 0 < len(rows["count"]) <= bids.sum() and rows["obs"].shape[1] == data["obs"].shape[1]
    assert len(rows["x"]) == rows["count"].sum() == len(rows["values"])
    labelled = np.asarray(data["label_values"])[bids][:, BID_OFFSET:]
    for d in range(len(rows["count"])):  # each candidate's value is the labeller's, by the bid its features name
        a, c = rows["start"][d], rows["count"][d]
        k = int(np.flatnonzero((np.asarray(data["obs"])[bids] == rows["obs"][d]).all(1))[0])
        each = rules.cards_each
        for i in range(a, a + c):
            b = round(rows["x"][i, 2] * each)
            want = labelled[k, b] / 10.0
            assert (np.isnan(want) and np.isnan(rows["values"][i])) or rows["values"][i] == pytest.approx(want)
