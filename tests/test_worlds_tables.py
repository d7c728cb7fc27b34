"""The Monte Carlo Python API at every table (issue 42): ``sample_worlds``, ``count_worlds``,
``world_weights``, ``decision_values`` and ``play_out`` at 3 and 4 players solo, 5, 6 in pairs,
8 solo and 12, one to three decks.

A world is a row of ``decks * players`` bitboards, column ``k * players + seat`` the cards
``seat`` holds at least ``k + 1`` times (``montecarlo.worlds``). Checked against slow obvious
Python: the worlds against the observation read from the plays (the seat's own cards, each
seat's count, the cards played, the voids the plays showed), the counts against the weighted
enumeration of ``naive_tables.naive_worlds``, ``play_out`` against the same deal played
through ``Hand`` with the same agents, and ``decision_values`` against the weighted means of the
agent's own search. The four-player pairs checks are ``test_kernel_agents.py``'s.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from naive_tables import cards_each, deck, naive_worlds

import spades_ai as sa
from spades_ai.cards import CardSet
from spades_ai.engine import state as st
from spades_ai.errors import TableError
from spades_ai.montecarlo import candidates, search
from spades_ai.montecarlo.worlds import world_width
from spades_ai.seats import left_of, seats

TABLES = {
    "3 solo": sa.Rules(players=3),
    "4 solo": sa.Rules(players=4, teams="solo"),
    "5 solo": sa.Rules(players=5),
    "6 pairs": sa.Rules(players=6, teams="pairs"),
    "8 solo": sa.Rules(players=8),
    "12 solo": sa.Rules(players=12),
}
NORMAL = sa.make_agent("normal")


def hand_at(rules, seed: int, left: int) -> sa.Hand:
    """A hand of ``rules`` bid and played by Normal until ``left`` cards are still held."""
    h = sa.Hand(sa.deal(seed, 0, rules), rules=rules)
    while h.phase == "bidding":
        h.bid(NORMAL.bid(h.observation()))
    while sum(len(h.cards(s)) for s in seats(rules)) > left:
        h.play(NORMAL.play(h.observation()))
    return h


def seat_cards(world, seat: int, rules) -> Counter:
    """The cards ``seat`` holds in ``world``, copies counted, read from its columns."""
    n = rules.players
    return Counter(int(c) for c in CardSet.from_levels(*(int(world[k * n + seat]) for k in range(rules.decks))))


def shown_voids(obs) -> list[set[int]]:
    """The suits each seat has shown it lacks, read from the plays: it did not follow the lead."""
    voids = [set() for _ in seats(obs.rules)]
    plays = obs.plays
    for start in range(0, len(plays), obs.rules.players):
        trick = plays[start : start + obs.rules.players]
        led = trick[0][1].suit
        for s, c in trick[1:]:
            if c.suit != led:
                voids[s].add(led)
    return voids


def assert_fits(world, obs) -> None:
    """``world`` is consistent with ``obs``, by the plays alone (slow and obvious)."""
    rules = obs.rules
    assert world.shape == (world_width(rules),) == (rules.decks * rules.players,) and world.dtype == np.uint64
    assert seat_cards(world, obs.seat, rules) == Counter(int(c) for c in obs.cards)
    played = Counter(int(c) for _, c in obs.plays)
    held = Counter()
    for s in seats(rules):
        mine = seat_cards(world, s, rules)
        assert sum(mine.values()) == cards_each(rules.players) - sum(1 for p, _ in obs.plays if p == s)
        assert not any(c // 13 in shown_voids(obs)[s] for c in mine)
        held += mine
    assert held + played == Counter(deck(rules.players))


@pytest.mark.parametrize("name", TABLES)
def test_sample_worlds_fit_the_observation_at_every_table(name):
    rules = TABLES[name]
    obs = hand_at(rules, 3, rules.players * rules.cards_each // 2 + 1).observation()
    assert shown_voids(obs) == obs.voids
    worlds = sa.sample_worlds(obs, 40, seed=2)
    assert worlds.shape == (40, rules.decks * rules.players) and worlds.dtype == np.uint64
    assert (worlds == sa.sample_worlds(obs, 40, seed=2)).all()
    assert not (worlds == sa.sample_worlds(obs, 40, seed=3)).all()
    for w in worlds:
        assert_fits(w, obs)
    assert len({w.tobytes() for w in worlds}) > 30
    aware = sa.sample_worlds(obs, 20, seed=2, bid_aware=True)
    assert aware.shape == (20, world_width(rules))
    for w in aware:
        assert_fits(w, obs)
    weights = sa.world_weights(obs, worlds)
    assert weights.shape == (40,) and np.isfinite(weights).all() and (weights > 0).all() and weights.max() == 1.0
    if rules.decks == 1:
        read = sa.world_weights(obs, worlds, play_noise=0.3)
        assert np.isfinite(read).all() and (read > 0).all()
    else:  # the reading kernel's replay holds one copy of a card: refused, not wrong
        with pytest.raises(TableError, match=r"reading the play \(play_noise=\) plays 3 to 5 players \(one deck\)"):
            sa.world_weights(obs, worlds, play_noise=0.3)
    with pytest.raises(ValueError, match=rf"must be an \(n, {world_width(rules)}\) array"):
        sa.world_weights(obs, worlds[:, :-1])


@pytest.mark.parametrize("name", TABLES)
def test_count_worlds_equals_the_weighted_enumeration(name):
    """Late in the hand, the deals of the physical unseen cards, enumerated with their weights."""
    rules = TABLES[name]
    obs = hand_at(rules, 6, 10).observation()
    unseen = Counter(deck(rules.players)) - Counter(int(c) for _, c in obs.plays) - Counter(int(c) for c in obs.cards)
    others = [s for s in seats(rules) if s != obs.seat]
    sizes = [cards_each(rules.players) - sum(1 for p, _ in obs.plays if p == s) for s in others]
    voids = [shown_voids(obs)[s] for s in others]
    exact = naive_worlds(sorted(unseen.elements()), sizes, voids)
    assert sa.count_worlds(obs) == sum(exact.values()) > 1
    for w in sa.sample_worlds(obs, 30, seed=1):
        assert tuple(tuple(sorted(seat_cards(w, s, rules).elements())) for s in others) in exact


def true_world(h: sa.Hand) -> np.ndarray:
    """The cards each seat of ``h`` still holds, as a world (card ids)."""
    rules = h.rules
    levels = [h.cards(s).levels() for s in seats(rules)]
    return np.array([levels[s][k] for k in range(rules.decks) for s in seats(rules)], dtype=np.uint64)


def finish(h: sa.Hand, agents) -> sa.HandResult:
    """``h`` played out through ``Hand`` by ``agents`` (one a seat)."""
    h = h.clone()
    while h.phase != "over":
        obs = h.observation()
        agent = agents[h.to_act]
        h.bid(agent.bid(obs)) if h.phase == "bidding" else h.play(agent.play(obs))
    return h.result()


class InPython:
    """Normal behind a Python seat, so that ``play_out`` asks the loop's Python questions."""

    name = "in-python"

    def bid(self, obs):
        return NORMAL.bid(obs)

    def play(self, obs):
        return NORMAL.play(obs)


def hand_of_world(h: sa.Hand, world) -> sa.Hand:
    """The hand ``h`` as it would stand had the deal been ``world`` plus the cards each seat
    played: the same dealer, bids and plays, replayed through ``Hand``."""
    rules = h.rules
    dealt = []
    for s in seats(rules):
        cards = list(seat_cards(world, s, rules).elements()) + [int(c) for p, c in h.plays if p == s]
        dealt.append(CardSet(cards))
    other = sa.Hand(dealt, dealer=h.dealer, rules=rules)
    for _, b, blind in h.bid_history():
        other.bid(b, blind)
    for _, c in h.plays:
        other.play(c)
    return other


@pytest.mark.parametrize("name", TABLES)
def test_play_out_equals_the_deal_played_through_hand(name):
    rules = TABLES[name]
    h = hand_at(rules, 7, rules.players * rules.cards_each - 2 * rules.players - 1)
    obs = h.observation()
    kernel, python = [NORMAL] * rules.players, [InPython()] + [NORMAL] * (rules.players - 1)
    assert sa.play_out(obs, true_world(h), ["normal"] * rules.players) == finish(h, kernel)
    card = obs.legal_cards()[-1]
    after = h.clone()
    after.play(card)
    assert sa.play_out(obs, true_world(h), python, first=card) == finish(after, python)
    for world in sa.sample_worlds(obs, 3, seed=4):
        imagined = hand_of_world(h, world)
        assert sa.play_out(obs, world, kernel) == finish(imagined, kernel)
        imagined.play(card)
        assert sa.play_out(obs, world, kernel, first=card) == finish(imagined, kernel)


@pytest.mark.parametrize("name", ["3 solo", "6 pairs", "12 solo"])
def test_play_out_from_the_bidding(name):
    rules = TABLES[name]
    h = sa.Hand(sa.deal(11, 0, rules), rules=rules)
    h.bid(NORMAL.bid(h.observation()))
    obs = h.observation()
    bid = obs.legal_bids()[1]
    after = h.clone()
    after.bid(bid)
    agents = [NORMAL] * rules.players
    assert sa.play_out(obs, true_world(h), agents, first=bid) == finish(after, agents)


def with_cards(world, seat: int, cards: Counter, rules) -> np.ndarray:
    """``world`` with ``seat``'s columns holding ``cards`` (a Counter of card ids)."""
    out = world.copy()
    levels = CardSet(list(cards.elements())).levels()
    for k in range(rules.decks):
        out[k * rules.players + seat] = np.uint64(levels[k])
    return out


@pytest.mark.parametrize("name", ["5 solo", "6 pairs", "12 solo"])
def test_play_out_refuses_a_world_that_does_not_fit(name):
    rules = TABLES[name]
    n = rules.players
    h = hand_at(rules, 3, n * rules.cards_each // 2 + 1)
    obs, world = h.observation(), true_world(h)
    agents = ["normal"] * n
    table = "6 players in pairs" if rules.teams == "pairs" else f"{n} players solo"
    with pytest.raises(ValueError, match=rf"a world at {table} .* has {world_width(rules)} bitboards"):
        sa.play_out(obs, world[:-1], agents)
    mine = seat_cards(world, obs.seat, rules)
    with pytest.raises(ValueError, match=f"seat {obs.seat} other cards"):
        sa.play_out(obs, with_cards(world, obs.seat, mine - Counter([min(mine)]), rules), agents)
    o = left_of(obs.seat, rules)
    theirs = seat_cards(world, o, rules)
    with pytest.raises(ValueError, match=f"gives seat {o} {sum(theirs.values()) - 1} cards, not"):
        sa.play_out(obs, with_cards(world, o, theirs - Counter([min(theirs)]), rules), agents)
    # a card none of whose copies is left for seat o: played, or held by the others
    held = Counter(int(c) for _, c in obs.plays)
    for s in seats(rules):
        held += seat_cards(world, s, rules) if s != o else Counter()
    gone = next(c for c in sorted(set(deck(n))) if held[c] + theirs[c] == deck(n).count(c) and theirs[c] < rules.decks)
    extra = theirs - Counter([max(c for c in theirs if c != gone)]) + Counter([gone])
    with pytest.raises(ValueError, match=f"gives seat {o} a card that is played or held by another seat"):
        sa.play_out(obs, with_cards(world, o, extra, rules), agents)
    void = next((s, suit) for s in seats(rules) if s != obs.seat for suit in obs.voids[s])
    v, suit = void
    holders = [s for s in seats(rules) if suit in {c // 13 for c in seat_cards(world, s, rules)}]
    q = next(s for s in holders if s not in (v, obs.seat))
    mine_v, mine_q = seat_cards(world, v, rules), seat_cards(world, q, rules)
    x, d = min(c for c in mine_q if c // 13 == suit), min(mine_v)
    swapped = with_cards(world, v, mine_v - Counter([d]) + Counter([x]), rules)
    swapped = with_cards(swapped, q, mine_q - Counter([x]) + Counter([d]), rules)
    with pytest.raises(ValueError, match="of a suit it has shown it lacks"):
        sa.play_out(obs, swapped, agents)
    if rules.decks > 1:  # a second copy of a card the seat does not hold once
        loose = world.copy()
        loose[n + o] |= np.uint64(1 << next(c for c in sorted(set(deck(n))) if not theirs[c]))
        with pytest.raises(ValueError, match=f"levels of seat {o} are not nested"):
            sa.play_out(obs, loose, agents)


@pytest.mark.parametrize("name", TABLES)
def test_decision_values_are_the_means_the_search_chooses_from(name):
    """As at four in pairs (``test_mc_agents``): the action is the agent's own, every legal
    card or bid has a value, and the candidates' values are the weighted means of ``evaluate``
    on the worlds of its search."""
    from spades_ai.montecarlo.candidates import candidate_ids
    from spades_ai.montecarlo.selection import worlds_for

    rules = TABLES[name]
    agent = sa.make_agent("hard", worlds=12, racing=False)
    h = hand_at(rules, 9, rules.players * rules.cards_each // 2)
    while True:
        obs = h.observation()
        pub, seat, hand, rules_array, settings, state = agent.search_args(obs)
        cands = candidates.play_candidates(pub, hand, np.uint64(st.legal_now(pub, hand, rules_array)))
        if int(cands).bit_count() >= 2:
            break
        h.play(NORMAL.play(obs))
    card, values = sa.decision_values(agent, obs)
    assert card == agent.play(obs) and set(values) == set(obs.legal_cards())
    ids = candidate_ids(cands)
    n = worlds_for(settings.worlds, settings.rollouts, len(ids))
    v, w, _, _, _ = search.evaluate(pub, seat, hand, rules_array, ids, False, n, settings, state, 0)
    for j, c in enumerate(ids):
        assert values[rules.engine_card(int(c))] == pytest.approx(float((w * v[:, j]).sum() / w.sum()), rel=1e-12)
    fresh = sa.Hand(sa.deal(9, 0, rules), rules=rules).observation()
    bid, bid_values = sa.decision_values(agent, fresh)
    assert bid == agent.bid(fresh) and set(bid_values) == set(fresh.legal_bids()) and not np.isnan(bid_values[bid])


def test_a_learned_play_model_is_refused_off_four_in_pairs():
    rules = TABLES["3 solo"]
    obs = hand_at(rules, 3, 30).observation()
    worlds = sa.sample_worlds(obs, 4, seed=1)
    with pytest.raises(TableError, match="a learned play model .* plays 4 players in pairs, not 3 players solo"):
        sa.world_weights(obs, worlds, play_noise=0.3, play_model="default")
    agent = sa.make_agent("hard", worlds=8, read_play=True, play_model="reading")
    with pytest.raises(TableError, match="with play_model=.reading. plays 4 players in pairs, not 3 players solo"):
        sa.decision_values(agent, obs)
