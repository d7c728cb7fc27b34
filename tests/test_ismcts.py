"""ISMCTS (issue 11, item 5): options and their errors, legal and reproducible play everywhere an
agent plays, the tree against a slow Python reference (availability counts included) and against
hand-counted numbers, and exact endgames against the solver.

Budgets are small so the file runs in about a minute on a warm cache.
"""

from __future__ import annotations

import math
import sys
from collections import Counter

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import Hand, Rules, make_agent, play_hands, play_matches
from spades_ai.montecarlo import tree as nodes
from spades_ai.montecarlo import tree_search
from spades_ai.montecarlo.candidates import held_candidates, play_candidates
from spades_ai.montecarlo.utility import UTILITY_MEAN, UTILITY_OWN, UTILITY_PARANOID, UTILITY_VECTOR, utility
from spades_ai.seats import seats, side_of, sides
from spades_ai.montecarlo.sampling import count_worlds_kernel, world_constraints
from spades_ai.cards import cards_to_mask, parse_cards
from spades_ai.engine import state as st
from spades_ai.engine.bits import select_bit, suit_of
from spades_ai.errors import TableError
from spades_ai.engine.rng import below, stream_state
from spades_ai.engine.score import N_FIELDS
from spades_ai.simulate import deal_masks
from spades_ai.solver import card_values
from spades_ai.testing import check_agent
from spades_ai.testing.table import CHECKED_TABLES
from test_kernel_agents import Wrapped  # a Python agent forwarding to a kernel agent

U64 = np.uint64
SMALL = {"iterations": 48, "bid_worlds": 8}


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


# -- options ---------------------------------------------------------------------------------
def test_make_agent_ismcts_defaults_label_and_options():
    a = make_agent("ismcts")
    assert a.name == "ismcts" and a.label == "ismcts"
    assert set(a.options) == {"seed", "iterations", "exploration", "bid_aware", "bid_worlds", "rollout", "utility"}
    assert a.options["utility"] == "vector"
    assert make_agent("ismcts", utility="own").label == "ismcts(utility=own)"
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
        ({"utility": "max_n"}, "utility"),
        ({"utility": 3}, "utility"),
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
    # from Python, bids and cards alike go through one compiled entry (its closure emitted once)
    assert len(agent.module.ismcts_decide.signatures) == 1
    assert not agent.module.ismcts_agent_bid.signatures and not agent.module.ismcts_agent_play.signatures


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
def _search(pub, seat, hand, rules, worlds, order, exploration, seed=7, mode=UTILITY_PARANOID):
    """The kernel's tree and the summed rewards of its nodes, ``rsum[k, node]`` (one row
    ``k`` per side with ``UTILITY_VECTOR``, else the searching side's alone)."""
    state = U64(stream_state(U64(seed), 0, 0))  # numba hands a uint64 back as a Python int
    tree, rsum, n, _ = tree_search.tree_search(pub, seat, U64(hand), rules, np.array(worlds, dtype=np.uint64),
                                  np.array(order, dtype=np.int64), float(exploration), state, mode)  # fmt: skip
    return tree[:n], rsum[:, :n]


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
    assert rsum[0, 0] == pytest.approx(7 * utility(end, r, 0, sheet, nil_out))


def naive_search(pub, seat, table, worlds, order, exploration, seed, mode=UTILITY_PARANOID):
    """SO-ISMCTS written plainly in Python (a dict of nodes keyed by their card sequence), with
    the same random draws as the kernel: the reference for ``tree_search``. A node's
    ``reward`` holds every side's summed reward with ``UTILITY_VECTOR`` (a seat chooses by its
    own side's), else the searching side's (a seat of another side chooses by minus it)."""
    rules = table.as_array()
    state = U64(stream_state(U64(seed), 0, 0))  # numba hands a uint64 back as a Python int
    width = len(sides(table)) if mode == UTILITY_VECTOR else 1
    nodes = {(): {"visits": 0, "avail": 0, "reward": [0.0] * width, "kids": []}}  # kids: newest first
    team = side_of(seat, table)
    sheet = np.empty((len(sides(table)), N_FIELDS), dtype=np.int64)
    nil_out = np.empty(table.players, dtype=np.int64)
    for it in order:
        sim = pub.copy()
        hs = np.array(worlds[it], dtype=np.uint64)
        key = ()
        path = [key]
        while sim[st.P_PHASE] == st.PHASE_PLAYING:
            p = int(sim[st.P_TO_ACT])
            moves = int(tree_search.seat_moves(sim, hs, p, rules))
            kids = nodes[key]["kids"]
            untried = moves & ~sum(1 << c for c in kids)
            if mode == UTILITY_VECTOR:
                k, sign = side_of(p, table), 1.0
            else:
                k, sign = 0, (1.0 if side_of(p, table) == team else -1.0)
            best, best_score = None, -math.inf
            for c in kids:
                if moves >> c & 1:
                    child = nodes[key + (c,)]
                    child["avail"] += 1
                    if not untried:
                        v = child["visits"]
                        score = sign * child["reward"][k] / v + exploration * math.sqrt(math.log(child["avail"]) / v)
                        if score > best_score:
                            best, best_score = c, score
            if untried:
                state, r = below(U64(state), untried.bit_count())
                card = int(select_bit(U64(untried), r)).bit_length() - 1
                nodes[key]["kids"].insert(0, card)
                nodes[key + (card,)] = {"visits": 0, "avail": 1, "reward": [0.0] * width, "kids": []}
                st.apply_card(sim, hs, card, rules)
                key = key + (card,)
                path.append(key)
                break
            key = key + (best,)
            path.append(key)
            st.apply_card(sim, hs, best, rules)
        tree_search.rollout(sim, hs, rules)
        if mode == UTILITY_VECTOR:
            reward = [utility(sim, rules, s, sheet, nil_out, UTILITY_MEAN) for s in sides(table)]
        else:
            reward = [utility(sim, rules, team, sheet, nil_out, mode)]
        for key in path:
            nodes[key]["visits"] += 1
            nodes[key]["reward"] = [a + b for a, b in zip(nodes[key]["reward"], reward)]
    return nodes


def _flatten(tree, rsum):
    """The kernel's tree as the reference's dict: card sequence -> (visits, avail, reward)."""
    out = {}

    def walk(node, key):
        out[key] = (int(tree[node, nodes.NODE_VISITS]), int(tree[node, nodes.NODE_AVAIL]), rsum[:, node].tolist())
        for card, child in _children(tree, node).items():
            walk(child, key + (card,))

    walk(0, ())
    return out


def same_tree(got, want) -> int:
    """Assert the kernel's flattened tree is the reference's, node by node; return how many
    nodes have an availability above their visits."""
    assert set(got) == set(want)
    for key, (v, a, r) in got.items():
        assert (v, a) == (want[key]["visits"], want[key]["avail"]), key
        assert r == pytest.approx(want[key]["reward"], abs=1e-9), key
    return sum(a > v for v, a, _ in got.values())


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
        want = naive_search(obs.public, obs.seat, Rules(), worlds.tolist(), order.tolist(), exploration, k)
        differs += same_tree(_flatten(tree, rsum), want)
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


# -- every table (issue 44, item 4): one value per side, copies as one move ---------------------
TINY = {"iterations": 16, "bid_worlds": 4}


@pytest.mark.parametrize("name", sorted(CHECKED_TABLES))
def test_ismcts_plays_legally_and_reproducibly_at_every_table(name):
    rules = CHECKED_TABLES[name]
    report = check_agent(make_agent("ismcts", seed=3, **TINY), hands=2, seed=5, rules=rules)
    assert "all legal and reproducible" in report


@pytest.mark.parametrize("name", ["3", "6 pairs", "8"])
def test_same_seed_same_hands_other_seed_other_hands_at_other_tables(name):
    rules = CHECKED_TABLES[name]

    def run(seed):
        lineup = [make_agent("ismcts", seed=seed, **TINY)] + ["normal"] * (rules.players - 1)
        return play_hands(lineup, 2, seed=4, rules=rules, keep_plays=True)

    a = run(1)
    assert (a.tricks_won.sum(axis=1) == rules.cards_each).all()
    assert np.array_equal(a.plays, run(1).plays)
    assert not np.array_equal(a.plays, run(2).plays)


def _table_positions(rules, seed, n_hands, left):
    """Observations of Normal self-play at ``rules`` with at most ``left`` cards still held and
    at least two legal cards."""
    normal = make_agent("normal")
    for i in range(n_hands):
        hand = Hand(sa.deal(seed, i, rules), dealer=i % rules.players, rules=rules)
        while hand.phase != "over":
            obs = hand.observation()
            if hand.phase == "bidding":
                hand.bid(normal.bid(obs))
                continue
            if len(obs.legal_cards()) >= 2 and sum(len(hand.cards(s)) for s in seats(rules)) <= left:
                yield obs
            hand.play(normal.play(obs))


def _copies(levels) -> Counter:
    """The multiset of engine ids of a card mask's levels."""
    return Counter(c for m in levels for c in range(64) if int(m) >> c & 1)


def naive_candidates(obs) -> set[int]:
    """The moves of the seat to act, plainly: its legal cards, merged in a suit where no card
    between two of them may be in another hand (a copy left in the deck, less the played and the
    seat's own) or lies on the current trick."""
    pub = obs.public
    own = _copies([obs.engine_cards, pub[st.P_OWN2], pub[st.P_OWN3]])
    deck = _copies([pub[st.P_DECK], pub[st.P_DECK2], pub[st.P_DECK3]])
    played = _copies([pub[st.P_PLAYED], pub[st.P_PLAYED2], pub[st.P_PLAYED3]])
    trick = {int(pub[st.P_TRICK + i]) for i in range(int(pub[st.P_TRICK_LEN]))}
    apart = {c for c in deck if deck[c] - played[c] - own[c] > 0} | trick
    legal = int(st.legal_now(pub, U64(obs.engine_cards), obs.rules_array))
    out = set()
    for suit in range(4):
        prev = None
        for c in (c for c in range(64) if legal >> c & 1 and suit_of(c) == suit):
            if prev is None or any(prev < x < c for x in apart):
                out.add(c)
            prev = c
    return out


@pytest.mark.parametrize("name", ["4 pairs", "3", "6 pairs", "8", "12"])
def test_held_candidates_against_a_plain_reference(name):
    """Copies counted (a card one copy of which fell still separates two of the seat's cards),
    and ``play_candidates`` to the bit at one deck."""
    rules = CHECKED_TABLES[name]
    checked = merged = 0
    for obs in _table_positions(rules, 8, 3, rules.players * rules.cards_each):
        pub, hand = obs.public, U64(obs.engine_cards)
        legal = U64(st.legal_now(pub, hand, obs.rules_array))
        got = int(held_candidates(pub, hand, U64(pub[st.P_OWN2]), U64(pub[st.P_OWN3]), legal))
        assert {c for c in range(64) if got >> c & 1} == naive_candidates(obs)
        if rules.decks == 1:
            assert got == int(play_candidates(pub, hand, legal))
        checked += 1
        merged += got != int(legal)
    assert checked > 30 and merged > 5


def test_a_card_with_a_copy_still_out_separates_two_of_the_seats_cards():
    """Two decks: 9H and JH in hand, one 10H played, the other unseen: both are moves (with one
    deck, the played 10H would merge them)."""
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    pub[st.P_DECK], pub[st.P_DECK2] = (1 << 52) - 1, (1 << 52) - 1
    pub[st.P_TRICK : st.P_TRICK + 12] = -1
    pub[st.P_PLAYED] = mask("TH")
    cards = U64(mask("9H JH"))
    assert int(held_candidates(pub, cards, U64(0), U64(0), cards)) == mask("9H JH")
    pub[st.P_PLAYED2] = mask("TH")  # both copies gone: one move
    assert int(held_candidates(pub, cards, U64(0), U64(0), cards)) == mask("9H")
    pub[st.P_PLAYED2] = 0  # the seat holds the other copy itself: one move again
    assert int(held_candidates(pub, cards | U64(mask("TH")), U64(0), U64(0), cards)) == mask("9H")


@pytest.mark.parametrize("name, mode", [("3", UTILITY_VECTOR), ("4 solo", UTILITY_VECTOR), ("5", UTILITY_PARANOID),
                                        ("6 pairs", UTILITY_VECTOR), ("3", UTILITY_OWN)])
def test_vector_backup_matches_the_python_reference_at_other_tables(name, mode):
    """Every side's summed reward at every node (the vector backup, each seat choosing by its
    own side's mean), and the scalar readings, against ``naive_search`` on tiny trees."""
    from spades_ai.montecarlo.sampling import sample_worlds_kernel

    rules = CHECKED_TABLES[name]
    checked = 0
    for k, obs in enumerate(_table_positions(rules, 11, 4, 4 * rules.players)):
        if k % 3 or checked == 4:
            continue
        mine = U64(obs.engine_cards)
        _, worlds = sample_worlds_kernel(U64(stream_state(U64(k), 1, 2)), obs.public, obs.seat, mine, obs.rules_array, 12)
        order = np.random.default_rng(k).integers(0, 12, size=60)
        tree, rsum = _search(obs.public, obs.seat, int(mine), obs.rules_array, worlds, order, 40.0, seed=k, mode=mode)
        assert len(rsum) == (len(sides(rules)) if mode == UTILITY_VECTOR else 1)
        want = naive_search(obs.public, obs.seat, rules, worlds.tolist(), order.tolist(), 40.0, k, mode)
        same_tree(_flatten(tree, rsum), want)
        checked += 1
    assert checked == 4


def test_the_vector_tree_at_two_sides_is_the_paranoid_tree_to_the_bit():
    """Four in pairs: the vector backup grows the same tree as the one value of today's search
    (visits, availability, every choice), its searching side's sums are that value's, bit for
    bit, and the other side's are their negation."""
    from spades_ai.montecarlo.sampling import sample_worlds_kernel

    for k, (hand, obs) in enumerate(_late_positions(23, 3, 8)):
        if k % 4:
            continue
        mine = U64(int(obs.cards))
        _, worlds = sample_worlds_kernel(U64(stream_state(U64(k), 1, 2)), obs.public, obs.seat, mine, obs.rules_array, 30)
        order = np.random.default_rng(k).integers(0, 30, size=200)
        args = (obs.public, obs.seat, int(mine), obs.rules_array, worlds, order, 150.0)
        tree, one = _search(*args, seed=k, mode=UTILITY_PARANOID)
        tree_v, both = _search(*args, seed=k, mode=UTILITY_VECTOR)
        assert np.array_equal(tree, tree_v)
        team = side_of(obs.seat, Rules())
        assert np.array_equal(both[team], one[0]) and np.array_equal(both[1 - team], -one[0])


def test_ismcts_at_four_in_pairs_plays_alike_with_every_utility_but_own():
    records = [play_hands([make_agent("ismcts", seed=1, utility=u, **SMALL), "normal"], 3, seed=9, keep_plays=True)
               for u in ("vector", "paranoid", "mean")]  # fmt: skip
    assert records[0] == records[1] == records[2]
    assert np.array_equal(records[0].plays, records[1].plays) and np.array_equal(records[0].plays, records[2].plays)


def test_a_rollout_policy_that_refuses_the_table_is_named():
    agent = make_agent("ismcts", rollout="learned", **TINY)
    with pytest.raises(TableError, match="agent 'learned' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not 8 players solo"):
        play_hands([agent] + ["normal"] * 7, 1, rules=CHECKED_TABLES["8"])
