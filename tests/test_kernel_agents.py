"""Kernel agents: a researcher's numba bid and play run wherever a built-in runs."""

import sys

import numba
import numpy as np
import pytest

import spades_ai as sa
from spades_ai import kernels as K
from spades_ai.engine.state import P_PLAYED
from spades_ai.errors import IllegalBidError, IllegalPlayError
from spades_ai.testing import check_agent


# -- a small agent written only against spades_ai.kernels ---------------------------------------
@numba.njit
def greedy_bid(pub, seat, hand, legal, rules):
    tops = K.count(hand & K.SPADES) // 2
    for s in range(4):
        tops += K.count(K.suit_cards(hand, s) >> np.uint64(13 * s + 12))  # aces
    return K.nearest_legal_bid(legal, max(1, tops))


@numba.njit
def greedy_play(pub, seat, hand, legal, rules):
    """Win with the highest card while the team needs tricks, else throw the lowest."""
    if K.tricks_needed(pub, seat & 1, rules) > 0:
        return K.highest_card(legal)
    return K.lowest_card(legal)


GREEDY = sa.kernel_agent("greedy", greedy_bid, greedy_play)


@numba.njit
def nil_bid(pub, seat, hand, legal, rules):
    return 0


@numba.njit
def card_60(pub, seat, hand, legal, rules):
    return 60


@numba.njit
def seeded_play(pub, seat, hand, legal, rules, params):
    state = K.decision_stream(params[0], pub, seat, hand)
    _, r = K.draw_below(state, K.count(legal))
    return K.lowest_index(K.select_bit(legal, r))


class Wrapped:
    """A Python agent that asks a kernel agent: the loop stops for it and Python answers."""

    def __init__(self, inner):
        self.inner = inner
        self.name = "wrapped-" + inner.name

    def bid(self, obs):
        return self.inner.bid(obs)

    def play(self, obs):
        return self.inner.play(obs)


def test_kernel_agent_plays_in_numba_and_from_python_alike():
    fast = sa.play_hands([GREEDY, "normal"], 300, seed=4)
    assert (fast.tricks_won.sum(axis=1) == 13).all()
    slow = sa.play_hands([Wrapped(GREEDY), "normal"], 300, seed=4)
    assert fast == slow
    m_fast = sa.play_matches([GREEDY, "easy"], 3, seed=2, rules=sa.Rules(target_score=250))
    m_slow = sa.play_matches([Wrapped(GREEDY), "easy"], 3, seed=2, rules=sa.Rules(target_score=250))
    assert m_fast == m_slow


@numba.njit
def blind_bid(pub, seat, hand, legal, rules):
    if (legal >> K.BLIND_NIL) & 1:  # asked before looking: seats 0 and 1 take it, 2 and 3 look
        return K.BLIND_NIL if seat < 2 else 0
    return greedy_bid(pub, seat, hand, legal, rules)


BLINDY = sa.kernel_agent("blindy", blind_bid, greedy_play)


class Copy(Wrapped):
    """A Python agent that asks a kernel agent every question, the blind nil too."""

    def blind_nil(self, obs):
        return self.inner.blind_nil(obs)


@pytest.mark.parametrize("tables", [1, 3, 256])
def test_a_python_copy_of_a_kernel_agent_gives_its_records_on_any_number_of_tables(monkeypatch, tables):
    from spades_ai.selfplay.play import Seating

    rules = sa.Rules.preset("blind")
    fast = sa.play_hands([BLINDY, "normal"], 60, seed=12, rules=rules, keep_plays=True)
    assert fast.blind[:, 0].any() and not fast.blind[:, 2].any()  # both answers to the question
    mixed = sa.Mixed("blind-bids", BLINDY, sa.make_agent("easy"))
    m_fast = sa.play_matches([mixed, "normal"], 5, seed=3, rules=rules.replace(target_score=200), keep_plays=True)
    monkeypatch.setattr(Seating, "TABLES", tables)  # how many hands the loop plays at once
    assert sa.play_hands([Copy(BLINDY), "normal"], 60, seed=12, rules=rules, keep_plays=True) == fast
    m_copy = sa.Mixed("blind-bids", Copy(BLINDY), sa.make_agent("easy"))  # a Python bidder, a kernel player
    assert sa.play_matches([m_copy, "normal"], 5, seed=3, rules=rules.replace(target_score=200), keep_plays=True) == m_fast


def test_builtins_are_kernel_agents():
    for name in sa.list_agents():
        agent = sa.make_agent(name, **({"worlds": 4} if name in ("hard", "crazy") else {}))
        assert isinstance(agent, sa.KernelAgent), name
    rec = sa.play_hands(["normal", "easy"], 200, seed=9)
    again = sa.play_hands([Wrapped(sa.make_agent("normal")), Wrapped(sa.make_agent("easy"))], 200, seed=9)
    assert rec == again


@pytest.mark.parametrize("module", ["easy", "normal", "tactics"])
def test_easy_and_normal_are_written_against_the_public_kernels(module):
    """Easy and Normal read the game only through ``spades_ai.kernels``, as a user's agent must:
    no index into the engine's arrays, no import of the engine's state, bits or bids. What a
    user can build is therefore at least as good and as fast as these built-ins."""
    import ast
    import importlib
    import inspect

    tree = ast.parse(inspect.getsource(importlib.import_module(f"spades_ai.policies.{module}")))
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            assert node.value.id not in ("pub", "rules"), f"{module}: {ast.unparse(node)} at line {node.lineno}"
        if isinstance(node, ast.ImportFrom):
            allowed = node.module in ("spades_ai.kernels", "spades_ai.policies.tactics", "spades_ai.engine.jit", "collections")
            assert allowed or ast.unparse(node) == "from spades_ai import kernels as K", ast.unparse(node)
        if isinstance(node, ast.Import):
            assert all(a.name in ("numpy",) for a in node.names), ast.unparse(node)


def test_illegal_actions_name_agent_seat_and_action():
    liar = sa.kernel_agent("liar", nil_bid, card_60)
    with pytest.raises(IllegalPlayError, match=r"'liar' at seat [02] chose an illegal card 60"):
        sa.play_hands([liar, "normal"], 1)
    with pytest.raises(IllegalPlayError, match=r"kernel agent 'liar' at seat \d played 60"):
        h = sa.Hand(sa.deal(0))
        for _ in range(4):
            h.bid(3)
        liar.play(h.observation())
    no_nil = sa.Rules(nil=False)
    nils = sa.kernel_agent("nils", nil_bid, greedy_play)
    with pytest.raises(IllegalBidError, match="'nils' at seat .* illegal bid 0: .*nil is off"):
        sa.play_hands([nils, "normal"], 5, rules=no_nil)


def test_kernel_agent_refuses_non_kernels():
    with pytest.raises(TypeError, match="numba.njit function"):
        sa.kernel_agent("py", lambda *a: 1, greedy_play)

    @numba.njit
    def three(pub, seat, hand):
        return 0

    with pytest.raises(TypeError, match="takes 3 arguments"):
        sa.kernel_agent("short", three, greedy_play)
    with pytest.raises(TypeError, match="both take params, or neither"):
        sa.kernel_agent("halfparams", greedy_bid, seeded_play)

    @numba.njit
    def bid_p(pub, seat, hand, legal, rules, params):
        return 1

    with pytest.raises(TypeError, match="give params"):
        sa.kernel_agent("noparams", bid_p, seeded_play)


def test_kernel_agent_with_params_and_a_random_stream():
    @numba.njit
    def bid6(pub, seat, hand, legal, rules, params):
        return K.nearest_legal_bid(legal, params[1])

    a = sa.kernel_agent("rnd", bid6, seeded_play, params=[1, 3])
    b = sa.kernel_agent("rnd", bid6, seeded_play, params=[2, 3])
    ra, rb = sa.play_hands([a, "normal"], 100, seed=1), sa.play_hands([b, "normal"], 100, seed=1)
    assert (ra.bids[:, 0] == 3).all() and ra != rb  # another seed, other cards played
    assert ra == sa.play_hands([a, "normal"], 100, seed=1)
    assert ra == sa.play_hands([Wrapped(a), "normal"], 100, seed=1)


def test_kernel_agent_passes_check_agent():
    check_agent(GREEDY, hands=30)


def test_kernel_agent_in_a_tournament_by_spec(tmp_path):
    spec = f"{__name__}:GREEDY"
    run = sa.run_tournament([spec, "normal"], deals=40, out=tmp_path, n_jobs=1, progress=False)
    df = sa.load_results(run)
    assert set(df["agent"].astype(str)) == {spec, "normal"}
    fast = sa.play_hands([GREEDY, "normal"], 40, seed=0)
    rows = df[(df.rotation == 0) & (df.side == 0)].sort_values("deal_no")
    assert (rows["points"].to_numpy() == fast.points[:, 0]).all()


def test_kernel_agent_as_rollout_policy():
    """A user's kernel agent as Hard's rollout policy: its bids, cards and pass (one compile of
    Hard's search bound to it, minutes on a cold cache, so one test holds every check)."""
    hard = sa.make_agent("hard", worlds=4, rollout=LOW_PASS)
    assert hard.label == "hard(worlds=4, rollout=low-pass)"
    # the search's rollouts, its anchor and its imagined bids call the policy's kernels
    # (test_templates checks every template and the records of rollout="normal")
    assert hard.module.rollout_play is LOW_PASS.play_kernel and hard.module.rollout_bid is LOW_PASS.bid_kernel
    rec = sa.play_hands([hard, "normal"], 6, seed=3)
    assert rec == sa.play_hands([sa.make_agent("hard", worlds=4, rollout=LOW_PASS), "normal"], 6, seed=3)
    assert rec != sa.play_hands([sa.make_agent("hard", worlds=4), "normal"], 6, seed=3)
    obs = sa.Hand(sa.deal(1), rules=sa.Rules(pass_cards=2)).observation()  # the pass is the policy's too
    assert hard.pass_cards(obs) == LOW_PASS.pass_cards(obs) != sa.make_agent("hard", worlds=4).pass_cards(obs)
    by_name = sa.make_agent("hard", worlds=4, rollout="easy:careless=0.1")
    easy = sa.make_agent("easy", careless=0.1)  # takes params: the binding passes them as a constant
    bound = sys.modules[by_name.module.__name__.rpartition(".")[0] + "._binding"]
    assert bound._policy_play is easy.play_kernel and list(bound._POLICY_PARAMS) == list(easy.params)
    with pytest.raises(ValueError, match="rollout"):
        sa.make_agent("hard", rollout=sa.make_agent("crazy", worlds=2))
    with pytest.raises(ValueError, match="rollout"):
        sa.make_agent("hard", rollout=Wrapped(GREEDY))


def test_a_rollout_policy_with_many_params_keeps_them_out_of_the_generated_source():
    """The learned agent's 577,742 params were a 12 MB literal in its copy's binding, about
    10 s to write and parse in every process: past ``LITERAL_PARAMS`` the binding reads them
    from a file of the kernel cache folder named by their digest, equal to the agent's own."""
    from pathlib import Path

    from spades_ai.montecarlo.binding import LITERAL_PARAMS

    learned = sa.make_agent("learned")
    assert len(learned.params) > LITERAL_PARAMS
    hard = sa.make_agent("hard", worlds=4, rollout=learned)  # binds the copy; compiles nothing yet
    bound = sys.modules[hard.module.__name__.rpartition(".")[0] + "._binding"]
    assert bound._policy_play is learned.play_kernel
    assert bound._POLICY_PARAMS.dtype == np.int64 and np.array_equal(bound._POLICY_PARAMS, learned.params)
    assert Path(bound.__file__).stat().st_size < 4096


def test_mixed_bids_like_one_and_plays_like_another():
    mixed = sa.Mixed("g-bids", GREEDY, sa.make_agent("normal"))
    rec = sa.play_hands([mixed, "normal"], 200, seed=6)
    greedy = sa.play_hands([GREEDY, "normal"], 200, seed=6)
    normal = sa.play_hands(["normal", "normal"], 200, seed=6)
    assert (rec.bids[:, 0] == greedy.bids[:, 0]).all() and (rec.bids[:, 1] == normal.bids[:, 1]).all()
    assert rec == sa.play_hands([Wrapped(mixed), "normal"], 200, seed=6)


# -- the public kernel API reads what the Observation says --------------------------------------
@numba.njit
def read_all(pub, seat, hand, rules):
    out = np.empty(16, dtype=np.int64)
    out[0] = K.dealer(pub)
    out[1] = K.bid_of(pub, (seat + 1) & 3)
    out[2] = K.tricks_won(pub, seat)
    out[3] = K.trick_no(pub)
    out[4] = np.int64(K.cards_played(pub))
    out[5] = K.trick_len(pub)
    out[6] = K.led_suit(pub)
    out[7] = K.winning_seat(pub)
    out[8] = K.spades_broken(pub)
    out[9] = K.score(pub, 1)
    out[10] = K.bag_count(pub, 0)
    out[11] = np.int64(K.legal_cards(pub, hand, rules))
    out[12] = K.bag_limit(rules)
    out[13] = np.int64(K.played_by(pub, (seat + 2) & 3))
    out[14] = K.is_void(pub, (seat + 1) & 3, 0) + 2 * K.is_void(pub, (seat + 1) & 3, 3)
    out[15] = K.leader(pub)
    return out


def test_kernel_accessors_agree_with_the_observation():
    normal = sa.make_agent("normal")
    rules = sa.Rules(bag_limit=5)
    for i in range(20):
        h = sa.Hand(sa.deal(11, i), dealer=i % 4, rules=rules, scores=(30, -20), bag_count=(2, 4))
        for _ in range(4):
            h.bid(normal.bid(h.observation()))
        for _ in range(5 + 2 * i):
            obs = h.observation()
            got = read_all(obs.public, obs.seat, np.uint64(int(obs.cards)), obs.rules_array)
            s = obs.seat
            trick = obs.current_trick
            want = [
                obs.dealer, obs.bids[(s + 1) % 4], obs.tricks_won[s], obs.trick_no,
                sum(int(m) for m in obs.played_by), len(trick), trick[0][1].suit if trick else -1,
                got[7] if not trick else _winner(trick), obs.spades_broken, obs.scores[1], obs.bag_count[0],
                sum(1 << c for c in obs.legal_cards()), 5, int(obs.played_by[(s + 2) % 4]),
                (0 in obs.voids[(s + 1) % 4]) + 2 * (3 in obs.voids[(s + 1) % 4]), obs.leader,
            ]  # fmt: skip
            assert got.tolist() == [int(x) for x in want], (i, h.trick_no)
            h.play(normal.play(obs))


def _winner(trick):
    led = trick[0][1].suit
    best = max(trick, key=lambda sc: (sc[1].suit == 3, sc[1].suit == led, sc[1].rank))
    return best[0]


# -- the Monte Carlo parts from Python ------------------------------------------------------------
def _mid_hand(seed=3, cards=9):
    normal = sa.make_agent("normal")
    h = sa.Hand(sa.deal(seed, 1))
    for _ in range(4):
        h.bid(normal.bid(h.observation()))
    for _ in range(cards):
        h.play(normal.play(h.observation()))
    return h


def test_sample_worlds_fit_the_observation_and_are_reproducible():
    h = _mid_hand()
    obs = h.observation()
    worlds = sa.sample_worlds(obs, 300, seed=2)
    assert worlds.shape == (300, 4) and worlds.dtype == np.uint64
    assert (worlds == sa.sample_worlds(obs, 300, seed=2)).all()
    assert not (worlds == sa.sample_worlds(obs, 300, seed=3)).all()
    played = int(obs.public[P_PLAYED])
    for w in worlds:
        assert int(w[obs.seat]) == int(obs.cards)
        assert sum(int(x).bit_count() for x in w) == 52 - len(obs.plays)
        for s in range(4):
            assert int(w[s]).bit_count() == 13 - len(obs.played_by[s])
            for suit in obs.voids[s]:
                assert int(w[s]) >> (13 * suit) & 0x1FFF == 0
    assert all(int(w[s]) & played == 0 for w in worlds for s in range(4))
    assert sa.count_worlds(obs) > len({tuple(int(x) for x in w) for w in worlds}) > 250
    aware = sa.sample_worlds(obs, 50, seed=2, bid_aware=True)
    assert aware.shape == (50, 4) and (aware[:, obs.seat] == int(obs.cards)).all()
    assert len(sa.world_weights(obs, worlds)) == 300


def test_count_worlds_in_an_endgame_by_brute_force():
    import itertools

    h = _mid_hand(cards=44)  # two tricks left
    obs = h.observation()
    hidden = [c for s in range(4) if s != obs.seat for c in h.cards(s)]
    others = [s for s in range(4) if s != obs.seat]
    sizes = [len(h.cards(s)) for s in others]
    count = 0
    for perm in itertools.permutations(hidden):
        split = [perm[: sizes[0]], perm[sizes[0] : sizes[0] + sizes[1]], perm[sizes[0] + sizes[1] :]]
        if all(list(split[k]) == sorted(split[k]) for k in range(3)) and all(
            c.suit not in obs.voids[s] for k, s in enumerate(others) for c in split[k]
        ):
            count += 1
    assert sa.count_worlds(obs) == count


def test_play_out_with_the_true_world_finishes_the_real_hand():
    h = _mid_hand()
    obs = h.observation()
    truth = np.array([int(h.cards(s)) for s in range(4)], dtype=np.uint64)
    normal = sa.make_agent("normal")
    finished = h.clone()
    while finished.phase != "over":
        finished.play(normal.play(finished.observation()))
    assert sa.play_out(obs, truth, ["normal"] * 4) == finished.result()
    card = obs.legal_cards()[-1]
    other = h.clone()
    other.play(card)
    while other.phase != "over":
        other.play(normal.play(other.observation()))
    assert sa.play_out(obs, truth, [normal, normal], first=card) == other.result()
    assert sa.play_out(obs, truth, [Wrapped(normal)] * 4, first=card) == other.result()


def test_play_out_refuses_a_world_that_does_not_fit():
    h = _mid_hand()
    obs = h.observation()
    world = sa.sample_worlds(obs, 1, seed=1)[0].copy()
    bad = world.copy()
    bad[obs.seat] ^= np.uint64(1)
    with pytest.raises(ValueError, match="other cards"):
        sa.play_out(obs, bad, ["normal"] * 4)
    o = (obs.seat + 1) % 4
    swapped = world.copy()
    swapped[o], swapped[(o + 1) % 4] = world[(o + 1) % 4], world[o]
    if int(swapped[o]).bit_count() != int(world[o]).bit_count() or any(
        int(swapped[s]) >> (13 * suit) & 0x1FFF for s in range(4) for suit in obs.voids[s]
    ):
        with pytest.raises(ValueError, match="world gives seat"):
            sa.play_out(obs, swapped, ["normal"] * 4)
    with pytest.raises(ValueError, match="may not play"):
        sa.play_out(obs, world, ["normal"] * 4, first=_illegal(obs))


def _illegal(obs):
    legal = {int(c) for c in obs.legal_cards()}
    mine = [c for c in obs.cards if int(c) not in legal]
    return mine[0] if mine else next(c for c in range(52) if not int(obs.cards) >> c & 1)


def test_keep_plays_records_every_card_in_order():
    rec = sa.play_hands([GREEDY, "normal"], 30, seed=8, keep_plays=True)
    assert rec.plays.shape == (30, 52) and sa.play_hands([GREEDY, "normal"], 30, seed=8).plays is None
    for i in (0, 17, 29):
        h = sa.Hand(sa.deal(8, i))
        order = [(h.dealer + 1 + k) % 4 for k in range(4)]
        for s in order:
            h.bid(int(rec.bids[i, s]))
        for c in rec.plays[i]:
            h.play(int(c))  # every card checked again by the Hand
        assert h.tricks_won == rec.tricks_won[i].tolist()
    m = sa.play_matches(["normal", "easy"], 2, seed=4, keep_plays=True)
    assert m.plays.shape == (len(m), 52) and sorted(m.plays[0].tolist()) == list(range(52))


# -- card passing: an optional pass kernel -------------------------------------------------------
@numba.njit
def low_pass(pub, seat, hand, n, rules):
    out = K.ZERO
    m = hand
    for _ in range(n):
        b = K.lowest_bit(m)
        out |= b
        m &= ~b
    return out


#: Greedy with a pass kernel of its own: the user's policy that Hard is bound to.
LOW_PASS = sa.kernel_agent("low-pass", greedy_bid, greedy_play, pass_=low_pass)


@numba.njit
def greedy_bid_p(pub, seat, hand, legal, rules, params):
    return greedy_bid(pub, seat, hand, legal, rules)


@numba.njit
def pass_seeded(pub, seat, hand, n, rules, params):
    state = K.decision_stream(params[0], pub, seat, hand)
    out = K.ZERO
    m = hand
    for _ in range(n):
        state, r = K.draw_below(state, K.count(m))
        b = K.select_bit(m, r)
        out |= b
        m &= ~b
    return out


@numba.njit
def pass_too_many(pub, seat, hand, n, rules):
    return hand


class WrappedPasser(Wrapped):
    def pass_cards(self, obs):
        return self.inner.pass_cards(obs)


PASSING = [sa.Rules(pass_cards=2), sa.Rules(pass_cards=3, closed_bidding=True), sa.Rules(blind_nil=True, blind_pass=2)]


@pytest.mark.parametrize("rules", PASSING)
def test_a_pass_kernel_plays_in_numba_and_from_python_alike(rules):
    low = LOW_PASS
    seeded = sa.kernel_agent("seeded", greedy_bid_p, seeded_play, pass_=pass_seeded, params=[7])
    for agent in (low, seeded, GREEDY):
        fast = sa.play_hands([agent, "normal"], 60, seed=5, rules=rules)
        assert fast == sa.play_hands([WrappedPasser(agent), "normal"], 60, seed=5, rules=rules)
        assert (fast.tricks_won.sum(axis=1) == 13).all()
        assert check_agent(agent, hands=12, rules=rules).endswith("all legal and reproducible")
    if rules.pass_cards:  # the pass changes the hands, so the records
        assert sa.play_hands([low, "normal"], 60, seed=5, rules=rules) != sa.play_hands([GREEDY, "normal"], 60, seed=5, rules=rules)


def test_without_a_pass_kernel_an_agent_passes_its_highest_cards():
    h = sa.Hand(sa.deal(3), rules=sa.Rules(pass_cards=3))
    obs = h.observation()
    assert GREEDY.pass_kernel is K.default_pass
    assert GREEDY.pass_cards(obs) == sa.policies.default_pass(obs)
    # by rank; at equal rank a spade, then clubs, diamonds, hearts (kernels.highest_cards)
    highest = sorted(obs.cards, key=lambda c: (c.rank, c.suit == 3, -c.suit))[-3:]
    assert sorted(GREEDY.pass_cards(obs)) == sorted(highest)


def test_an_illegal_pass_names_the_agent():
    cheat = sa.kernel_agent("cheat", greedy_bid, greedy_play, pass_=pass_too_many)
    with pytest.raises(sa.IllegalPassError, match=r"'cheat' at seat [02] chose an illegal pass .*: it passes 2 different cards"):
        sa.play_hands([cheat, "normal"], 1, rules=sa.Rules(pass_cards=2))
    with pytest.raises(sa.IllegalPassError, match=r"kernel agent 'cheat' at seat \d passed"):
        cheat.pass_cards(sa.Hand(sa.deal(0), rules=sa.Rules(pass_cards=2)).observation())
    with pytest.raises(TypeError, match="pass_ takes params, so bid and play must too"):
        sa.kernel_agent("x", greedy_bid, greedy_play, pass_=pass_seeded)
    with pytest.raises(TypeError, match=r"pass_\(pub, seat, hand, n, rules\)"):
        sa.kernel_agent("x", greedy_bid, greedy_play, pass_=nil_bid.py_func if hasattr(nil_bid, "py_func") else 3)


@pytest.mark.slow
def test_a_hard_bound_to_a_pass_kernel_plays_a_blind_nil_match():
    """A compile of Hard's whole search bound to the policy (minutes): a slow study."""
    rules = sa.Rules(blind_nil=True, blind_pass=2, target_score=250)
    rec = sa.play_matches([sa.make_agent("hard", worlds=4, rollout=LOW_PASS), "normal"], 1, seed=3, rules=rules)
    assert (rec.tricks_won.sum(axis=1) == 13).all()


def test_an_illegal_bid_after_the_passing_names_the_engine_reason():
    nils = sa.kernel_agent("nils", nil_bid, greedy_play)
    with pytest.raises(IllegalBidError, match="'nils' at seat .* illegal bid 0: .*nil is off"):
        sa.play_hands([nils, "normal"], 5, rules=sa.Rules(nil=False, pass_cards=2, closed_bidding=True))


# -- jokers and high deuces through the kernel API ------------------------------------------------
@numba.njit
def lane_facts(pub, hand, rules):
    """What a kernel agent reads of its cards: (id, suit, rank, face id) for each card held."""
    out = np.empty((K.count(hand), 4), dtype=np.int64)
    m = hand
    i = 0
    while m != K.ZERO:
        c = K.lowest_card(m)
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = c, K.card_suit(c), K.card_rank(c), K.face_card(c, rules)
        m ^= K.card_bit(c)
        i += 1
    return out, K.deck(pub), K.unseen_cards(pub, hand), K.extra_trumps(rules), K.jokers(rules), K.deuces_high(rules)


@pytest.mark.parametrize("jokers, deuces_high", [(0, 0), (2, 2), (1, 3), (0, 4)])
def test_kernel_api_reads_the_trump_lane_as_spades_above_the_ace(jokers, deuces_high):
    """A kernel sees a joker or high deuce as a spade (suit 3) ranking above the ace, in trump
    order, whose face is the ``Card`` the Python side shows; the deck and the unseen cards hold
    the lane, never the bits its cards left."""
    rules = sa.Rules(jokers=jokers, deuces_high=deuces_high, spade_lead="anytime")
    for i in range(4):
        hand = sa.Hand(sa.deal(9, i), rules=rules)
        for _ in range(4):
            hand.bid(2)
        seen = 0
        for seat in range(4):
            obs = hand.view(seat)
            facts, deck, unseen, extra, j, d = lane_facts(obs.public, obs.engine_cards, obs.rules_array)
            assert (extra, j, d) == (jokers + deuces_high, jokers, deuces_high)
            assert int(deck) == int(rules.as_array()[sa.rules.R_DECK]) and int(deck).bit_count() == 52
            assert int(unseen) == int(deck) & ~int(obs.engine_cards)
            for c, suit, rank, face in facts.tolist():
                card = rules.card(face)
                assert card == face and card.suit == suit and card.rank == rank, (c, card)
                assert (c >= 52) == (face in rules.extra_trumps)
                seen += c >= 52
        assert seen == jokers + deuces_high  # every joker and high deuce was dealt to someone
    # ranks in the lane follow RULES.md's order: BJ > LJ > 2S > 2D > 2C > 2H > AS
    order = [str(rules.card(c)) for c in sorted(rules.extra_trumps, key=lambda c: -rules.card(c).rank)]
    want = (["BJ", "LJ"][:jokers] + ["2S", "2D", "2C", "2H"][:deuces_high])
    assert order == want


def test_a_kernel_agent_plays_jokers_and_high_deuces_legally():
    """The greedy kernel agent (highest card when it needs tricks) plays the lane's ids."""
    rules = sa.Rules(jokers=2, deuces_high=2, pass_cards=2)
    assert check_agent(GREEDY, hands=6, seed=4, rules=rules).endswith("all legal and reproducible")
    records = sa.play_hands([GREEDY, "normal"], 30, seed=5, rules=rules, keep_plays=True)
    assert (records.tricks_won.sum(axis=1) == 13).all()
    assert sorted(records.plays[0].tolist()) == list(range(52))  # card ids at the Python face


def test_seat_play_counts_no_references_only_for_hot_play_kernels():
    """The loop's seat dispatch is a hot kernel (no reference counting around a card) when every
    play kernel of the lineup is one, as the built-ins' cheap players are; under a hot caller
    (the learning loop's ``settle``), a lineup with an agent that may allocate (Hard's search,
    the learned agent's network, a researcher's kernel) reaches its kernels through counted seat
    functions. The self-play loop counts references: its seat functions are inlined whatever
    the agents, never a compiled level of their own above an agent's kernels."""
    from spades_ai.selfplay.codegen import lineup_binding

    fast = lineup_binding([sa.make_agent("normal"), sa.make_agent("easy"), sa.make_agent("random")])
    assert "@hot_kernel\ndef seat_play(" in fast
    assert "@inline_kernel\ndef seat_bid(" in fast and "@inline_kernel\ndef seat_pass(" in fast
    for other in ("hard", "learned"):
        lineup = [sa.make_agent("normal"), sa.make_agent(other)]
        slow = lineup_binding(lineup, hot_caller=True)
        assert "@counted_kernel\ndef seat_play(" in slow and "@counted_kernel\ndef seat_bid(" in slow
        assert "@inline_kernel\ndef seat_pass(" in slow
        loop = lineup_binding(lineup)
        assert "@inline_kernel\ndef seat_play(" in loop and "@inline_kernel\ndef seat_bid(" in loop
    cheap = lineup_binding([sa.make_agent("normal"), sa.make_agent("easy")], hot_caller=True)
    assert "@inline_kernel\ndef seat_bid(" in cheap
