"""Crazy at every table of part 1 (3 players, 4 solo, 5 players; must win), issue 34.

* Exact finishes (``solver_tricks``) off four in pairs: the side against every other seat
  (``engine.table_solver``), each card's value in each world equal to the brute-force paranoid
  minimax of ``naive_tables.naive_table_minimax`` on the utility, from a decision with the last
  tricks left, after rollouts down to the last tricks, and under a bid.
* Bid weights (``bid_aware``) read every other seat's bid; reading the play (``read_play``)
  replays the tricks of any table, its log likelihood equal to a replay through ``Hand``.
* Crazy with its defaults plays whole hands at each table (``play_hands``, ``check_agent``); a
  learned play model is still refused off four in pairs, by name.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from naive_tables import TableRules, naive_table_minimax

import spades_ai as sa
from spades_ai.engine import state as st
from spades_ai.engine.bits import U64
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.table_solver import finish_code, next_split
from spades_ai.kernels import decision_stream
from spades_ai.montecarlo import candidates, rollouts, sampling, search
from spades_ai.montecarlo.reading import play_log_likelihood, plays_in_order
from spades_ai.montecarlo.utility import UTILITIES, utility
from spades_ai.montecarlo.weights import bid_log_likelihood, world_weights_kernel
from spades_ai.seats import partner, seat_order, seats
from spades_ai.testing import check_agent

#: The tables other than four in pairs; must win on at four solo and at three.
TABLES = {
    "three": sa.Rules(players=3),
    "three must win": sa.Rules(players=3, must_win=True),
    "four solo must win": sa.Rules(players=4, teams="solo", must_win=True),
    "five": sa.Rules(players=5),
}


def bits(m: int) -> list[int]:
    return [c for c in range(56) if m >> c & 1]


def positions(rules, seed: int, n_hands: int, agent="normal"):
    """Every observation of ``n_hands`` deals played by ``agent`` at every seat: ``(hand, obs)``."""
    agent = sa.make_agent(agent) if isinstance(agent, str) else agent
    for i in range(n_hands):
        hand = sa.Hand(sa.deal(seed, i, rules), dealer=i % rules.players, rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            yield hand, obs
            hand.bid(agent.bid(obs)) if hand.phase == "bidding" else hand.play(agent.play(obs))


def play_decisions(rules, tricks_left, seed: int, n_hands: int):
    """Play decisions with 2+ candidates and ``tricks_left`` tricks to play (the current one too)."""
    for hand, obs in positions(rules, seed, n_hands):
        if obs.phase == "playing" and rules.cards_each - obs.trick_no in tricks_left and n_candidates(obs) >= 2:
            yield hand, obs


def n_candidates(obs) -> int:
    legal = sum(1 << c for c in obs.legal_cards())
    return int(candidates.play_candidates(obs.public, U64(obs.cards), U64(legal))).bit_count()


def naive_finish(pub, hands, rules, side, mode) -> float:
    """The brute-force paranoid value of ``(pub, hands)`` to ``side`` on ``utility`` read as
    ``mode`` (``naive_tables``: legal cards and tricks from the slow reference)."""
    n = rules.players
    leader = int(pub[st.P_LEADER])
    trick = [((leader + i) % n, int(pub[st.P_TRICK + i])) for i in range(int(pub[st.P_TRICK_LEN]))]
    scratch = pub.copy()
    sheet, nil_out = np.zeros((rules.n_sides, N_FIELDS), dtype=np.int64), np.zeros(n, dtype=np.int64)

    def leaf(won):
        scratch[st.P_WON : st.P_WON + n] = won
        return utility(scratch, rules.as_array(), side, sheet, nil_out, mode)

    return naive_table_minimax([bits(int(h)) for h in hands], leader, trick, bool(pub[st.P_BROKEN]), int(pub[st.P_TRICK_NO]),
                               pub[st.P_WON : st.P_WON + n].tolist(), TableRules.from_rules(rules), leaf, side)


def settings(worlds: int, solver_tricks: int, mode: str = "mean") -> search.SearchSettings:
    return search.SearchSettings(worlds, 0, False, solver_tricks, 0.0, False, 0.0, UTILITIES.index(mode))


def decision(obs, seed: int = 5):
    """``(pub, seat, hand, rules array, state)`` of a decision."""
    hand = U64(int(obs.engine_cards))
    return obs.public, obs.seat, hand, obs.rules_array, U64(decision_stream(np.int64(seed), obs.public, obs.seat, hand))


# -- exact finishes -----------------------------------------------------------------------------
def test_next_split_visits_every_split_once():
    for players, n in ((3, 4), (5, 3), (4, 0)):
        x = np.zeros(players, dtype=np.int64)
        x[-1] = n
        seen = [tuple(x)]
        while next_split(x, n):
            seen.append(tuple(x))
        assert len(set(seen)) == len(seen) == math.comb(n + players - 1, players - 1) and all(sum(s) == n for s in seen)
        assert tuple(x) == (0,) * (players - 1) + (n,)
    rules = sa.Rules(players=5).as_array()
    assert finish_code(np.array([1, 0, 2, 0, 3]), rules) == 1 + 2 * 11**2 + 3 * 11**4


@pytest.mark.parametrize("name", TABLES)
def test_exact_values_equal_the_brute_force_paranoid_finish(name):
    """With the last 3 tricks left, each card's value in each world is the paranoid minimax of
    that world (the seat's side against every other seat), on the utility of every mode."""
    rules = TABLES[name]
    checked = 0
    for k, (hand, obs) in enumerate(play_decisions(rules, {1, 2, 3}, seed=61, n_hands=3)):
        pub, seat, cards, ra, state = decision(obs)
        ids = np.array(bits(int(candidates.play_candidates(pub, cards, U64(sum(1 << rules.engine_id(int(c)) for c in obs.legal_cards()))))))
        mode = UTILITIES[k % len(UTILITIES)]
        values, _, _, _, _ = search.evaluate(pub, seat, cards, ra, ids, False, 2, settings(2, 3, mode), state, 0)
        _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, ra, 2)
        for i, world in enumerate(worlds):
            for j, card in enumerate(ids):
                sim, hs = pub.copy(), world.copy()
                st.apply_card(sim, hs, int(card), ra)
                if sim[st.P_PHASE] == st.PHASE_OVER:
                    want = utility(sim, ra, seat % rules.n_sides, np.zeros((rules.n_sides, N_FIELDS), np.int64),
                                   np.zeros(rules.players, np.int64), UTILITIES.index(mode))
                else:
                    want = naive_finish(sim, hs, rules, seat % rules.n_sides, UTILITIES.index(mode))
                assert values[i, j] == pytest.approx(want, abs=1e-9), (name, obs, i, card)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", TABLES)
def test_rollouts_hand_the_last_tricks_to_the_table_solver(name):
    """With 2 tricks solved and more left, each value is Normal's play down to 2 tricks, then
    the brute-force paranoid minimax of the rest."""
    rules = TABLES[name]
    checked = 0
    for hand, obs in play_decisions(rules, {3, 4}, seed=62, n_hands=2):
        pub, seat, cards, ra, state = decision(obs)
        ids = np.array(bits(int(candidates.play_candidates(pub, cards, U64(sum(1 << rules.engine_id(int(c)) for c in obs.legal_cards()))))))
        values, _, _, _, _ = search.evaluate(pub, seat, cards, ra, ids, False, 2, settings(2, 2), state, 0)
        _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, ra, 2)
        for i, world in enumerate(worlds):
            for j, card in enumerate(ids):
                sim, hs = pub.copy(), world.copy()
                st.apply_card(sim, hs, int(card), ra)
                rollouts.rollout_until(sim, hs, ra, 2)
                assert sim[st.P_TRICK_LEN] == 0 and rules.cards_each - sim[st.P_TRICK_NO] == 2
                assert values[i, j] == pytest.approx(naive_finish(sim, hs, rules, seat % rules.n_sides, UTILITIES.index("mean")), abs=1e-9)
                checked += 1
    assert checked > 10


def test_bids_weighed_with_the_last_tricks_solved_at_five():
    """A bid's value per world at 5 players: the rollout bids and plays down to 2 tricks, then
    the paranoid finish on the utility of the bids made in that world."""
    rules = TABLES["five"]
    hand, obs = next((h, o) for h, o in positions(rules, seed=63, n_hands=1) if o.phase == "bidding" and o.seat == 2)
    pub, seat, cards, ra, state = decision(obs)
    bids = np.array([0, 2, 4], dtype=np.int64)
    values, _, _, _, _ = search.evaluate(pub, seat, cards, ra, bids, True, 2, settings(2, 2), state, 0)
    _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, ra, 2)
    for i, world in enumerate(worlds):
        for j, b in enumerate(bids):
            sim, hs = pub.copy(), world.copy()
            st.apply_bid(sim, hs, int(b), False, ra)
            rollouts.rollout_until(sim, hs, ra, 2)
            assert values[i, j] == pytest.approx(naive_finish(sim, hs, rules, seat, UTILITIES.index("mean")), abs=1e-9)


# -- bid weights and reading the play --------------------------------------------------------------
#: The tables of the bid weights: those above, and two of several decks (copies of cards).
WEIGHT_TABLES = {**TABLES, "six pairs": sa.Rules(players=6, teams="pairs"), "eight": sa.Rules(players=8)}


def dealt_multiset(pub, world, o, rules) -> tuple:
    """The levels (``engine.copies``) of the cards seat ``o`` was dealt in ``world``, counted
    card by card in Python: every level of its hand there and of the cards it has played."""
    n, count = rules.players, {}
    masks = [int(world[k * n + o]) for k in range(rules.decks)]
    masks += [int(pub[p + o]) for p in (st.P_PLAYED_BY, st.P_PLAYED_BY2, st.P_PLAYED_BY3)[: rules.decks]]
    for m in masks:
        for c in bits(m):
            count[c] = count.get(c, 0) + 1
    return tuple(U64(sum(1 << c for c, k in count.items() if k > level)) for level in range(3))


@pytest.mark.parametrize("name", WEIGHT_TABLES)
def test_bid_weights_read_every_other_seat(name):
    """The bid-aware log weight of a world is the sum, over every other seat, of its bid's log
    likelihood given the cards it holds there and has played, every copy counted (before
    tempering)."""
    rules = WEIGHT_TABLES[name]
    checked = 0
    for hand, obs in positions(rules, seed=64, n_hands=2):
        if obs.phase != "playing" or obs.trick_no not in (0, 3):
            continue
        pub, seat, cards, ra, state = decision(obs)
        _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, ra, 64)
        w, fell_back = world_weights_kernel(pub, seat, worlds, 64, ra)
        logw = np.array([sum(bid_log_likelihood(pub[st.P_BIDS + o], l1, ra, partner(o, rules) is not None, l2, l3)
                             for o in seats(rules) if o != seat
                             for l1, l2, l3 in [dealt_multiset(pub, world, o, rules)]) for world in worlds])
        if not fell_back:
            assert np.allclose(np.log(w), logw - logw.max())
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("name", WEIGHT_TABLES)
def test_the_bid_model_expects_normals_bid_at_every_table(name):
    """The most likely number bid of a hand under the bid model is the one Normal bids with it
    at that table when nothing moves it (the first bid of a deal, no bags): the model reads the
    count on the table's scale and with every copy, as Normal's bid does (``normal_bid``)."""
    from spades_ai.engine.bids import legal_bids
    from spades_ai.policies.normal import normal_bid

    rules = WEIGHT_TABLES[name]
    ra, checked = rules.as_array(), 0
    for i in range(40):
        obs = sa.Hand(sa.deal(65, i, rules), dealer=i % rules.players, rules=rules).observation()
        pub, seat, hand = obs.public, obs.seat, U64(int(obs.engine_cards))
        legal = np.int64(legal_bids(seat, hand, pub, ra))
        want = int(normal_bid(pub, seat, hand, ra, legal))
        if want == 0:
            continue
        levels = (hand, U64(pub[st.P_OWN2]), U64(pub[st.P_OWN3]))
        paired = partner(seat, rules) is not None
        ll = [bid_log_likelihood(b, levels[0], ra, paired, levels[1], levels[2]) for b in range(1, rules.cards_each + 1)]
        assert 1 + int(np.argmax(ll)) == want, (i, want, ll)
        checked += 1
    assert checked >= 20


def reference_play_log_likelihood(hand, seat, world, eps: float) -> float:
    """log P(the other seats' cards | world): the hand replayed with the world's cards through
    ``Hand``, Normal asked (through its Python face) at each card of another seat."""
    from test_inference import _engine_choice

    rules = hand.rules
    obs0 = hand.observation()
    start = [int(world[s]) | int(obs0.public[st.P_PLAYED_BY + s]) for s in seats(rules)]
    replay = sa.Hand([rules.public_mask(m) for m in start], dealer=hand.dealer, rules=rules)
    for s in seat_order(hand.dealer + 1, rules):
        replay.bid(hand.bids[s])
    normal = sa.make_agent("normal")
    ll = 0.0
    for s, c in hand.plays:
        if s != seat:
            obs = replay.observation()
            legal = [rules.engine_id(int(x)) for x in obs.legal_cards()]
            mine = int(obs.engine_cards)
            gone = int(obs.public[st.P_PLAYED]) & ~sum(1 << int(x) for x in obs.public[st.P_TRICK : st.P_TRICK + obs.public[st.P_TRICK_LEN]])
            gone |= ((1 << 56) - 1) & ~int(obs.public[st.P_DECK])
            choices = {_engine_choice(x, legal, mine, gone) for x in legal}
            if len(choices) > 1:
                model, card = rules.engine_id(int(normal.play(obs))), rules.engine_id(int(c))
                same = _engine_choice(model, legal, mine, gone) == _engine_choice(card, legal, mine, gone)
                ll += math.log(1 - eps) if same else math.log(eps) - math.log(len(choices) - 1)
        replay.play(c)
    return ll


@pytest.mark.parametrize("name", TABLES)
def test_reading_the_play_replays_any_table(name):
    """Seats played by Normal, careless Easy and random to a point of the hand: the cards in
    the order played, and the log likelihood of sampled worlds and of the true one against a
    replay through ``Hand``."""
    rules = TABLES[name]
    eps = 0.3
    players = [sa.make_agent("normal"), sa.make_agent("easy", careless=0.5), sa.make_agent("random", seed=2)]
    rng = random.Random(65)
    informative = 0
    for i in range(3):
        hand = sa.Hand(sa.deal(65, i, rules), dealer=i % rules.players, rules=rules)
        normal = sa.make_agent("normal")
        while hand.phase == "bidding":
            hand.bid(normal.bid(hand.observation()))
        for _ in range(rng.randint(rules.players * 3, rules.players * (rules.cards_each - 2))):
            obs = hand.observation()
            hand.play(players[obs.seat % len(players)].play(obs))
        obs = hand.observation()
        pub, seat, cards, ra, state = decision(obs)
        order, played, n = plays_in_order(pub, ra)
        assert [(int(s), rules.public_id(int(c))) for s, c in zip(order[:n], played[:n])] == [(s, int(c)) for s, c in hand.plays]
        _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, ra, 4)
        worlds = np.concatenate([worlds, np.array([hand._hands], dtype=np.uint64)])
        logw = np.zeros(len(worlds))
        play_log_likelihood(pub, seat, worlds, len(worlds), eps, ra, logw, np.zeros(1, np.int64), 0)
        for w, world in zip(logw, worlds):
            ref = reference_play_log_likelihood(hand, seat, world, eps)
            assert w == pytest.approx(ref, abs=1e-9) or (w > ref and w < logw.max() - 30), (w, ref)
            informative += ref < 0
    assert informative >= 6


# -- Crazy at the table ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TABLES)
def test_crazy_plays_whole_hands_at_every_table(name):
    """Crazy with its defaults (exact finishes, bid-aware worlds) and with ``read_play``, its
    budget cut to few worlds: whole hands through the numba loop and through ``Hand``."""
    rules = TABLES[name]
    n = rules.players
    crazy = sa.make_agent("crazy", worlds=24, rollouts=0)
    assert crazy.options["solver_tricks"] == 3 and crazy.options["bid_aware"]
    rec = sa.play_hands([crazy] + ["normal"] * (n - 1), 1, rules=rules, seed=66)
    assert rec.tricks_won.shape == (1, n) and rec.tricks_won.sum() == rules.cards_each
    report = check_agent(sa.make_agent("crazy", worlds=16, rollouts=0, read_play=True), hands=1, rules=rules)
    assert report.startswith("crazy: 1 hands") and "all legal" in report


def test_crazy_weighs_the_bids_where_one_deck_is_dealt_only():
    """Crazy's default ``bid_aware="one_deck"`` decides as ``bid_aware=True`` at a table of one
    deck and as ``bid_aware=False`` with several decks (issue 45: there Normal's bidding model,
    which the weights read the bids by, misled it), in the numba loop, bid for bid and card for
    card; and at each table the other setting decides otherwise on some deal."""
    small = {"worlds": 24, "rollouts": 0, "seed": 5}  # the budget of the test above: one compile
    for rules, same in ((sa.Rules(players=3), True), (sa.Rules(players=6, teams="pairs"), False)):
        default, weighed, unweighed = (
            sa.play_hands([sa.make_agent("crazy", **small, **extra), "normal", "normal"], 8, rules=rules, seed=8, keep_plays=True)
            for extra in ({}, {"bid_aware": True}, {"bid_aware": False})
        )
        twin, other = (weighed, unweighed) if same else (unweighed, weighed)
        np.testing.assert_array_equal(default.bids, twin.bids)
        np.testing.assert_array_equal(default.plays, twin.plays)
        assert not np.array_equal(default.plays, other.plays), rules
    assert sa.make_agent("crazy").params[search.MC_BID_AWARE] == search.BIDS_ONE_DECK
    with pytest.raises(ValueError, match=r"option 'bid_aware'.*\"one_deck\""):
        sa.make_agent("crazy", bid_aware="one deck")


def test_a_learned_play_model_is_refused_off_four_in_pairs():
    agent = sa.make_agent("crazy", read_play=True, play_model="reading")
    with pytest.raises(sa.TableError, match=r"agent 'crazy\(.*\)' with play_model='reading' plays 4 players in pairs, not 3 players solo"):
        sa.play_hands([agent, "normal", "normal"], 1, rules=sa.Rules(players=3))


def test_reading_the_play_is_refused_with_several_decks():
    """Crazy's reading of the play replays one copy of each card: at 6 to 12 players a seat that
    played both copies of a card broke it ("a replayed card is not legal in the world"), so
    ``read_play=True`` refuses those tables by name and plays those of one deck."""
    crazy = sa.make_agent("crazy", read_play=True, worlds=32)
    with pytest.raises(sa.TableError, match=r"agent 'crazy\(.*read_play=True.*\)' with read_play=True plays 3 to 5 players \(one deck\), not 6 players in pairs"):
        sa.play_hands([crazy, "normal", "normal"], 1, rules=sa.Rules(players=6, teams="pairs"))
    assert sa.play_hands([crazy, "normal", "normal"], 1, rules=sa.Rules(players=3)).tricks_won.sum() == 17
