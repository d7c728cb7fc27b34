"""ISMCTS (issue 11, item 5): options and their errors, legal and reproducible play everywhere an
agent plays, the tree against a slow Python reference (availability counts included) and against
hand-counted numbers, and exact endgames against the solver.

Budgets are small so the file runs in about a minute on a warm cache.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import Hand, Rules, make_agent, play_hands, play_matches
from spades_ai.montecarlo import tree as nodes
from spades_ai.montecarlo import tree_search
from spades_ai.montecarlo.candidates import play_candidates
from spades_ai.montecarlo.utility import utility
from spades_ai.montecarlo.sampling import count_worlds_kernel, world_constraints
from spades_ai.cards import cards_to_mask, parse_cards
from spades_ai.engine import state as st
from spades_ai.engine.bits import select_bit
from spades_ai.engine.rng import below, stream_state
from spades_ai.engine.score import N_FIELDS
from spades_ai.simulate import deal_masks
from spades_ai.solver import card_values
from spades_ai.testing import check_agent
from test_kernel_agents import Wrapped  # a Python agent forwarding to a kernel agent

U64 = np.uint64
SMALL = {"iterations": 48, "bid_worlds": 8}


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


# -- options ---------------------------------------------------------------------------------
def test_make_agent_ismcts_defaults_label_and_options():
    a = make_agent("ismcts")
    assert a.name == "ismcts" and a.label == "ismcts"
    assert set(a.options) == {"seed", "iterations", "exploration", "bid_aware", "bid_worlds", "rollout"}
    b = make_agent("ismcts", iterations=np.int64(300), exploration=25, bid_worlds=0, seed=3)
    assert b.options["iterations"] == 300 and b.options["exploration"] == 25.0
    assert b.label == "ismcts(seed=3, iterations=300, exploration=25.0, bid_worlds=0)"
    assert "ismcts" in sa.list_agents()


@pytest.mark.parametrize(
    "options, key",
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": -5}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"iterations": True}, "iterations"),
        ({"iterations": 2_000_000}, "iterations"),
        ({"exploration": -1.0}, "exploration"),
        ({"exploration": "60"}, "exploration"),
        ({"exploration": float("nan")}, "exploration"),
        ({"bid_worlds": -1}, "bid_worlds"),
        ({"bid_aware": 1}, "bid_aware"),
        ({"seed": -1}, "seed"),
        ({"rollout": "crazy"}, "rollout"),
        ({"rollout": 3}, "rollout"),
    ],
)
def test_bad_ismcts_options_are_refused_naming_the_option(options, key):
    with pytest.raises(ValueError, match=f"agent 'ismcts' option '{key}'"):
        make_agent("ismcts", **options)


def test_unknown_ismcts_option_lists_the_valid_ones():
    with pytest.raises(ValueError, match="no option 'worlds'.*iterations"):
        make_agent("ismcts", worlds=10)


def test_ismcts_is_not_a_rollout_policy():
    with pytest.raises(ValueError, match="rollout.*searches itself"):
        make_agent("hard", rollout=make_agent("ismcts", iterations=4))
    with pytest.raises(ValueError, match="rollout.*searches itself"):
        make_agent("ismcts", rollout=make_agent("ismcts", iterations=4))


# -- legal and reproducible everywhere ----------------------------------------------------------
@pytest.mark.parametrize(
    "rules, options",
    [
        (Rules(), {**SMALL, "bid_aware": True}),
        (Rules.preset("mirror"), {"iterations": 32, "bid_worlds": 0}),
        (Rules(spade_lead="anytime", first_lead="low_club", nil_tricks_count=True),
         {"iterations": 32, "exploration": 0.0}),
    ],
)
def test_ismcts_passes_check_agent(rules, options):
    report = check_agent(make_agent("ismcts", **options), hands=8, seed=3, rules=rules)
    assert "all legal and reproducible" in report


def test_same_seed_same_records_other_seed_other_records():
    a = play_hands([make_agent("ismcts", seed=1, **SMALL), "normal"], 6, seed=2)
    assert (a.tricks_won.sum(axis=1) == 13).all()
    assert a == play_hands([make_agent("ismcts", seed=1, **SMALL), "normal"], 6, seed=2)
    b = play_hands([make_agent("ismcts", seed=2, **SMALL), "normal"], 6, seed=2, keep_plays=True)
    a_plays = play_hands([make_agent("ismcts", seed=1, **SMALL), "normal"], 6, seed=2, keep_plays=True)
    assert not np.array_equal(a_plays.plays, b.plays)  # the seed drives the search


def test_numba_loop_and_python_face_agree_in_hands_and_matches():
    agent = make_agent("ismcts", seed=4, **SMALL)
    assert play_hands([agent, "normal"], 4, seed=8) == play_hands([Wrapped(agent), "normal"], 4, seed=8)
    rules = Rules(target_score=150)
    m = play_matches([agent, "easy"], 2, seed=1, rules=rules)
    assert m == play_matches([Wrapped(agent), "easy"], 2, seed=1, rules=rules)


def test_ismcts_in_a_tournament_by_name_with_options(tmp_path):
    run = sa.run_tournament(["ismcts:iterations=32,bid_worlds=0", "normal"], deals=4, seed=1, out=tmp_path, n_jobs=1,
                            progress=False)  # fmt: skip
    df = sa.load_results(run)
    assert set(df["agent"].astype(str)) == {"ismcts(iterations=32, bid_worlds=0)", "normal"}
    assert len(df) == 4 * 2 * 2


def test_any_kernel_agent_as_rollout_policy():
    easy = make_agent("ismcts", rollout="easy:careless=0.5", **SMALL)
    assert easy.label == "ismcts(iterations=48, bid_worlds=8, rollout=easy(careless=0.5))"
    # the tree's playouts and the Monte Carlo bids both play the worlds out with Easy
    bound = sys.modules[easy.module.__name__.rpartition(".")[0] + "._binding"]
    assert bound._policy_play is make_agent("easy", careless=0.5).play_kernel
    assert easy.module.rollout.py_func.__globals__["rollout_play"] is bound.rollout_play  # the tree's playouts
    assert easy.module.mc_bid.py_func.__globals__["rollout_play"] is bound.rollout_play
    rec = play_hands([easy, "normal"], 4, seed=5, keep_plays=True)
    assert rec == play_hands([make_agent("ismcts", rollout="easy:careless=0.5", **SMALL), "normal"], 4, seed=5, keep_plays=True)
    plain = play_hands([make_agent("ismcts", **SMALL), "normal"], 4, seed=5, keep_plays=True)
    assert not np.array_equal(rec.plays, plain.plays)


def test_bids_follow_the_rollout_policy():
    """``bid_worlds=0``: ISMCTS bids as its rollout policy (Easy here), not as Normal (the same
    binding as the test above, so no second compile of the search)."""
    ismcts = make_agent("ismcts", iterations=8, bid_worlds=0, rollout="easy:careless=0.5")
    rec = play_hands([ismcts, "normal"], 30, seed=6)
    assert np.array_equal(rec.bids, play_hands([make_agent("easy", careless=0.5), "normal"], 30, seed=6).bids)
    assert not np.array_equal(rec.bids, play_hands(["normal", "normal"], 30, seed=6).bids)


def test_bid_worlds_zero_bids_as_normal():
    rec = play_hands([make_agent("ismcts", iterations=8, bid_worlds=0), "normal"], 20, seed=6)
    assert np.array_equal(rec.bids, play_hands(["normal", "normal"], 20, seed=6).bids)


def test_no_peeking_decisions_are_the_same_on_any_deal_that_fits_the_observation():
    import random

    from test_mc_agents import decide, n_choices, normal_positions, redeal

    rng = random.Random(5)
    agent = make_agent("ismcts", seed=2, **SMALL)
    checked = 0
    for hand, obs in normal_positions(seed=17, n_hands=4, rules_cycle=(Rules(), Rules(first_lead="low_club"))):
        if n_choices(obs) < 2 or rng.random() > 0.3:
            continue
        want = decide(agent, obs)
        other = redeal(rng, hand, obs)
        if other is None:
            continue
        assert other.deal != hand.deal
        assert decide(agent, other.observation()) == want
        checked += 1
    assert checked >= 20


# -- the tree ------------------------------------------------------------------------------
def _search(pub, seat, hand, rules, worlds, order, exploration, seed=7):
    state = U64(stream_state(U64(seed), 0, 0))  # numba hands a uint64 back as a Python int
    tree, rsum, n, _ = tree_search.tree_search(pub, seat, U64(hand), rules, np.array(worlds, dtype=np.uint64),
                                  np.array(order, dtype=np.int64), float(exploration), state)  # fmt: skip
    return tree[:n], rsum[:n]


def _children(tree, node):
    out = {}
    c = tree[node, nodes.NODE_CHILD]
    while c >= 0:
        out[int(tree[c, nodes.NODE_CARD])] = c
        c = tree[c, nodes.NODE_NEXT]
    return out


def test_availability_counts_by_hand_on_the_last_trick():
    """Seat 0 leads the last trick with AS; seats 1-3 each hold one of 2H 3H 4H. Seat 1's child
    for a card is available exactly in the iterations (after it was added) whose world gives
    seat 1 that card, and is then its only, so visited, move."""
    rules = Rules()
    r = rules.as_array()
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    zeros = np.zeros(2, dtype=np.int64)
    st.reset_public(pub, np.zeros(4, dtype=np.uint64), 3, zeros, zeros, 0, r)
    hands = np.array([mask("AS KS"), mask("2H 9D"), mask("3H 8D"), mask("4H 7D")], dtype=np.uint64)
    for _ in range(4):
        st.apply_bid(pub, hands, 3, False, r)
    pub[st.P_TO_ACT] = 0  # seat 0 leads a 12-trick-old hand: mark the other 48 cards played
    gone = ((1 << 52) - 1) & ~int(mask("AS KS 2H 9D 3H 8D 4H 7D"))
    pub[st.P_PLAYED] = gone
    # Each seat played 12 cards: give seat 0 all gone spades, the rest spread so the counts fit.
    gone_cards = [c for c in range(52) if gone >> c & 1]
    for s in range(4):
        pub[st.P_PLAYED_BY + s] = sum(1 << c for c in gone_cards[11 * s : 11 * s + 11])
    pub[st.P_TRICK_NO] = 11
    pub[st.P_WON + 0] = 11
    pub[st.P_BROKEN] = 1
    # First trick of the two: seat 0 plays KS and wins against 9D 8D 7D.
    for card in ("KS", "9D", "8D", "7D"):
        st.apply_card(pub, hands, int(parse_cards(card)[0]), r)
    assert pub[st.P_TRICK_NO] == 12 and pub[st.P_TO_ACT] == 0
    # Three worlds: seat 1 holds 2H, 3H, 2H again (with seats 2 and 3 the other two).
    w_a = [mask("AS"), mask("2H"), mask("3H"), mask("4H")]
    w_b = [mask("AS"), mask("3H"), mask("4H"), mask("2H")]
    w_c = [mask("AS"), mask("4H"), mask("2H"), mask("3H")]
    order = [0, 1, 0, 0, 2, 1, 0]
    tree, rsum = _search(pub, 0, mask("AS"), r, [w_a, w_b, w_c], order, 60.0)
    (root_as,) = _children(tree, 0).values()
    assert tree[root_as, nodes.NODE_VISITS] == tree[root_as, nodes.NODE_AVAIL] == 7
    kids = _children(tree, root_as)
    h2, h3, h4 = (int(parse_cards(c)[0]) for c in ("2H", "3H", "4H"))
    assert set(kids) == {h2, h3, h4}
    # Iteration 0 only adds AS below the root (one node per iteration); from iteration 1 on,
    # seat 1 holds 3H (1, 5), 2H (2, 3, 6) or 4H (4) and its card is its only move.
    assert [tree[kids[c], nodes.NODE_AVAIL] for c in (h2, h3, h4)] == [3, 2, 1]
    assert [tree[kids[c], nodes.NODE_VISITS] for c in (h2, h3, h4)] == [3, 2, 1]
    assert tree[0, nodes.NODE_VISITS] == 7 and len(tree) == 1 + 1 + 3 + 2 + 1  # 3H, 2H go one seat deeper
    assert all(tree[kids[c], nodes.NODE_MOVER] == 1 for c in kids)
    # Seat 0 takes the last trick in every world: 12 tricks to its team against a bid of 6.
    sheet, nil_out = np.empty((2, N_FIELDS), dtype=np.int64), np.empty(4, dtype=np.int64)
    end = pub.copy()
    h = hands.copy()
    for card in ("AS", "2H", "3H", "4H"):
        st.apply_card(end, h, int(parse_cards(card)[0]), r)
    assert rsum[0] == pytest.approx(7 * utility(end, r, 0, sheet, nil_out))


def naive_search(pub, seat, rules, worlds, order, exploration, seed):
    """SO-ISMCTS written plainly in Python (a dict of nodes keyed by their card sequence), with
    the same random draws as the kernel: the reference for ``ismcts.search``."""
    state = U64(stream_state(U64(seed), 0, 0))  # numba hands a uint64 back as a Python int
    nodes = {(): {"visits": 0, "avail": 0, "reward": 0.0, "kids": []}}  # kids: newest first
    team = seat & 1
    sheet, nil_out = np.empty((2, N_FIELDS), dtype=np.int64), np.empty(4, dtype=np.int64)
    for it in order:
        sim = pub.copy()
        hs = np.array(worlds[it], dtype=np.uint64)
        key = ()
        path = [key]
        while sim[st.P_PHASE] == st.PHASE_PLAYING:
            p = int(sim[st.P_TO_ACT])
            moves = int(play_candidates(sim, hs[p], U64(st.legal_now(sim, hs[p], rules))))
            kids = nodes[key]["kids"]
            untried = moves & ~sum(1 << c for c in kids)
            sign = 1.0 if p & 1 == team else -1.0
            best, best_score = None, -math.inf
            for c in kids:
                if moves >> c & 1:
                    child = nodes[key + (c,)]
                    child["avail"] += 1
                    if not untried:
                        v = child["visits"]
                        score = sign * child["reward"] / v + exploration * math.sqrt(math.log(child["avail"]) / v)
                        if score > best_score:
                            best, best_score = c, score
            if untried:
                state, r = below(U64(state), untried.bit_count())
                card = int(select_bit(U64(untried), r)).bit_length() - 1
                nodes[key]["kids"].insert(0, card)
                nodes[key + (card,)] = {"visits": 0, "avail": 1, "reward": 0.0, "kids": []}
                st.apply_card(sim, hs, card, rules)
                key = key + (card,)
                path.append(key)
                break
            key = key + (best,)
            path.append(key)
            st.apply_card(sim, hs, best, rules)
        tree_search.rollout(sim, hs, rules)
        reward = utility(sim, rules, team, sheet, nil_out)
        for k in path:
            nodes[k]["visits"] += 1
            nodes[k]["reward"] += reward
    return nodes


def _flatten(tree, rsum):
    """The kernel's tree as the reference's dict: card sequence -> (visits, avail, reward)."""
    out = {}

    def walk(node, key):
        out[key] = (int(tree[node, nodes.NODE_VISITS]), int(tree[node, nodes.NODE_AVAIL]), float(rsum[node]))
        for card, child in _children(tree, node).items():
            walk(child, key + (card,))

    walk(0, ())
    return out


def _late_positions(seed, n_hands, min_trick):
    normal = make_agent("normal")
    masks = deal_masks(seed, 0, n_hands)
    for i in range(n_hands):
        hand = Hand(masks[i].tolist(), dealer=i % 4)
        while hand.phase != "over":
            obs = hand.observation()
            if hand.phase == "bidding":
                hand.bid(normal.bid(obs))
                continue
            if hand.trick_no >= min_trick and len(obs.legal_cards()) >= 2:
                yield hand, obs
            hand.play(normal.play(obs))


@pytest.mark.parametrize("exploration", [30.0, 0.0])
def test_search_matches_the_python_reference_node_by_node(exploration):
    """Visits, availability and summed reward of every node, on late positions of Normal
    self-play, each iteration in a fresh world drawn by the agent's own sampler."""
    from spades_ai.montecarlo.sampling import sample_worlds_kernel

    checked = differs = 0
    for k, (hand, obs) in enumerate(_late_positions(21, 6, 9)):
        if k % 5:
            continue
        mine = U64(int(obs.cards))
        _, worlds = sample_worlds_kernel(U64(stream_state(U64(k), 1, 2)), obs.public, obs.seat, mine, obs.rules_array, 40)
        rng = np.random.default_rng(k)
        order = rng.integers(0, 40, size=150)
        tree, rsum = _search(obs.public, obs.seat, int(mine), obs.rules_array, worlds, order, exploration, seed=k)
        want = naive_search(obs.public, obs.seat, obs.rules_array, worlds.tolist(), order.tolist(), exploration, k)
        got = _flatten(tree, rsum)
        assert set(got) == set(want)
        for key, (v, a, r) in got.items():
            assert (v, a) == (want[key]["visits"], want[key]["avail"]), key
            assert r == pytest.approx(want[key]["reward"], abs=1e-9), key
        differs += sum(a > v for v, a, _ in got.values())
        checked += 1
    assert checked >= 5
    assert differs > 20  # availability really differs from visits


def test_exact_endgames_pick_the_solvers_best_card():
    """Late positions where the observation leaves one possible deal (voids and play fix every
    hidden card): with many iterations ISMCTS plays a card the exact solver values best under
    the same utility."""
    agent = make_agent("ismcts", iterations=3000, exploration=10.0)
    sheet, nil_out = np.empty((2, N_FIELDS), dtype=np.int64), np.empty(4, dtype=np.int64)
    checked = 0
    for hand, obs in _late_positions(7, 2000, 8):
        if checked == 12:
            break
        unseen, _, need, lo, hi, _ = world_constraints(obs.public, obs.seat, U64(int(obs.cards)), obs.rules_array)
        if count_worlds_kernel(unseen, need, lo, hi)[0, -1] != 1:
            continue
        pub = obs.public
        team = obs.seat & 1

        def leaf(t0, t1, t2, t3, pub=pub, team=team, rules=obs.rules_array):
            end = pub.copy()
            end[st.P_WON : st.P_WON + 4] = (t0, t1, t2, t3)
            return float(utility(end, rules, team, sheet, nil_out))

        n = int(pub[st.P_TRICK_LEN])
        trick = [int(pub[st.P_TRICK + i]) for i in range(n)]
        leader = int(pub[st.P_LEADER])
        values = card_values([hand.cards(s) for s in range(4)], leader, leaf, team,
                             tricks_won=[int(x) for x in pub[st.P_WON : st.P_WON + 4]], trick=trick,
                             rules=Rules(), spades_broken=bool(pub[st.P_BROKEN]))  # fmt: skip
        best = max(values.values())
        if min(values.values()) == best:
            continue  # every card is as good: nothing to test
        got = agent.play(obs)
        assert values[got] == best, (str(obs.cards), trick, values, got)
        checked += 1
    assert checked == 12
