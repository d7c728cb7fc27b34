"""The observation vector as a function of the table (``spades_ai.encoding``): at four players in
pairs exactly the 567 floats of before (a digest of the vectors of random positions, recorded
before the layout was derived from the table), and at every checked table the numba kernel
against a slow, obvious Python reference written from the layout's description."""

import hashlib
from collections import Counter

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.encoding import (
    FIELDS,
    OBSERVATION_SIZE,
    PHASES,
    observation_layout,
    write_observation,
)
from spades_ai.interop.encoding import observation_vector
from spades_ai.seats import table_name
from spades_ai.testing.table import CHECKED_TABLES

from encoding_positions import FOUR_PLAYER_RULES, observation_of, positions

#: sha256 of the vectors of ``FOUR_PLAYER_RULES``' positions (seed 10 + i, 2 hands each), as
#: the hand-written 4-seat encoder gave them before the layout became a function of the table
TODAY_DIGEST = "fb58745f679e04b81aaa75b296f4247dc7a71ad6347a2b66a3766abbad5726ff"
TODAY_COUNT = 1010
#: the 4-player layout of before, (name, size), in order
TODAY_FIELDS = [("own_cards", 52), ("played_by", 208), ("current_trick", 208), ("trick_leader", 4), ("bids", 56),
                ("blind_nil", 4), ("tricks_won", 4), ("phase", 5), ("dealer", 4), ("spades_broken", 1), ("voids", 16),
                ("scores", 2), ("bag_counts", 2), ("trick_no", 1)]  # fmt: skip


def naive_vector(obs) -> np.ndarray:
    """The vector of ``obs`` built field by field in plain Python, from the words of the layout:
    seats relative to the observer, a plane of 52 per copy level, sides from the observer's own."""
    r = obs.rules
    n, decks, each, k = r.players, r.decks, r.cards_each, r.n_sides
    me = obs.seat

    def rel(seat):
        return (seat - me) % n

    def planes(cards):
        out = [0.0] * (52 * decks)
        for card, times in Counter(int(c) for c in cards).items():
            for level in range(times):
                out[52 * level + card] = 1.0
        return out

    own = [0.0] * (52 * decks) if obs.blind_decision else planes(obs.cards)
    played, trick = [[0.0] * (52 * decks) for _ in range(n)], [[0.0] * 52 for _ in range(n)]
    for seat, cards in enumerate(obs.played_by):
        played[rel(seat)] = planes(cards)
    leader = [0.0] * n
    for seat, card in obs.current_trick:
        trick[rel(seat)][int(card)] = 1.0
    if obs.current_trick:
        leader[rel(obs.current_trick[0][0])] = 1.0
    bids, blind, won = [[0.0] * (each + 1) for _ in range(n)], [0.0] * n, [0.0] * n
    voids, dealer = [[0.0] * 4 for _ in range(n)], [0.0] * n
    for seat in range(n):
        if obs.bids[seat] is not None:
            bids[rel(seat)][obs.bids[seat]] = 1.0
        blind[rel(seat)] = float(obs.blind[seat])
        won[rel(seat)] = obs.tricks_won[seat] / each
        for suit in obs.voids[seat]:
            voids[rel(seat)][suit] = 1.0
    dealer[rel(obs.dealer)] = 1.0
    phase = [0.0] * 5
    phase[PHASES.index("blind_decision" if obs.blind_decision else obs.phase)] = 1.0
    order = [(me % k + j) % k for j in range(k)]
    scores = [min(1.0, max(-1.0, obs.scores[s] / 1000)) for s in order]
    bags = [obs.bag_count[s] / r.bag_limit for s in order]
    flat = [own, *played, *trick, leader, *bids, blind, won, phase, dealer, [float(obs.spades_broken)], *voids, scores,
            bags, [obs.trick_no / each]]  # fmt: skip
    return np.array([x for part in flat for x in part], dtype=np.float32)


def test_four_in_pairs_is_todays_layout():
    assert [(name, size) for name, size, _ in FIELDS] == TODAY_FIELDS
    assert OBSERVATION_SIZE == observation_layout(sa.Rules()).size == 567


def test_four_in_pairs_vectors_are_todays_byte_for_byte():
    digest, count = hashlib.sha256(), 0
    for i, rules in enumerate(FOUR_PLAYER_RULES):
        for h, seat, blind, hide in positions(rules, seed=10 + i, hands=2):
            digest.update(observation_vector(observation_of(h, seat, blind, hide)).tobytes())
            count += 1
    assert (count, digest.hexdigest()) == (TODAY_COUNT, TODAY_DIGEST)


@pytest.mark.parametrize("name", list(CHECKED_TABLES))
def test_kernel_against_naive_at_every_table(name):
    rules = CHECKED_TABLES[name]
    layout = observation_layout(rules)
    ra = rules.as_array()
    seen = 0
    for h, seat, blind, hide in positions(rules, seed=3, hands=1):
        obs = observation_of(h, seat, blind, hide)
        want = naive_vector(obs)
        assert want.shape == (layout.size,)
        got = np.full(layout.size + 3, 7.0, np.float32)  # a longer buffer: only the vector is written
        write_observation(obs.public, obs.seat, obs.engine_cards, obs.blind_decision, ra, got)
        assert np.array_equal(got[: layout.size], want), f"{name}: seat {seat}, {obs.phase}, trick {obs.trick_no}"
        assert (got[layout.size :] == 7.0).all()
        seen += 1
    assert seen > rules.players * rules.cards_each


@pytest.mark.parametrize("name", list(CHECKED_TABLES))
def test_layout_follows_the_table(name):
    rules = CHECKED_TABLES[name]
    layout = observation_layout(rules)
    n, decks, each = rules.players, rules.decks, rules.cards_each
    assert layout.table == table_name(rules)
    sizes = {name: size for name, size, _ in layout.fields}
    assert sizes["own_cards"] == 52 * decks and sizes["played_by"] == n * decks * 52 and sizes["bids"] == n * (each + 1)
    assert sizes["scores"] == sizes["bag_counts"] == rules.n_sides
    assert sum(sizes.values()) == layout.size
    assert [layout.slices[f].start for f in sizes] == list(np.cumsum([0, *sizes.values()])[:-1])
    assert layout.n_actions == 52 + each + 3 and layout.action_to_string(layout.blind_nil) == "blind nil"
    assert layout.action_to_string(52 + each) == f"bid {each}" and layout.bid_action(each) == 52 + each
    with pytest.raises(ValueError, match=r"action .* is not in"):
        layout.action_to_string(layout.n_actions)
    assert (layout.low <= 0).all() and (layout.high == 1).all() and layout.low.shape == (layout.size,)


def test_a_table_is_chosen_by_preset_or_rules():
    assert observation_layout("cutthroat") is observation_layout(sa.Rules(players=3))
    assert observation_layout(None).size == 567
    with pytest.raises(TypeError, match="rules must be"):
        observation_layout(3)
    with pytest.raises(sa.RulesError, match="preset"):
        observation_layout("no-such-table")


def test_observation_vector_refuses_a_wrong_buffer():
    h = sa.Hand([int(c) for c in sa.deal(1, 0, sa.Rules(players=3))], 0, sa.Rules(players=3))
    with pytest.raises(ValueError, match="float32 array of 455"):
        observation_vector(h.observation(), np.zeros(567, np.float32))
