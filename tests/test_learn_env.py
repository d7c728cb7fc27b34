"""The batched environment against a slow reference: every table's trajectory replayed through
``Hand`` (the other seats played by Normal from Python, the observation vector by
``interop.encoding.observation_vector``) must give the same vector, mask and reward at every
step; tables must not depend on each other; illegal actions change nothing."""

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.engine.deal import deal_match_hand, match_first_dealer
from spades_ai.selfplay.loop_kernels import MAX_MATCH_HANDS
from spades_ai.errors import IllegalBidError, IllegalPlayError, RulesError
from spades_ai.interop.encoding import observation_vector
from spades_ai.learn import VectorEnv
from spades_ai.learn import encoding as enc


class RefTable:
    """Table ``t`` of a ``VectorEnv``, played through ``Hand`` in Python."""

    def __init__(self, seed, t, rules, seats, match, others=None):
        self.seed, self.t, self.rules, self.seats, self.match = seed, t, rules, seats, match
        self.others = others or [sa.make_agent("normal")] * 4
        self.k, self.done = 0, False

    def start_episode(self):
        self.job = (self.t << 32) + self.k
        self.hand_no, self.scores, self.bags, self.done = 0, (0, 0), (0, 0), False
        self.dealer = int(match_first_dealer(np.uint64(self.seed), self.job, sa.Rules().as_array())) if self.match else self.k % 4
        self.start_hand()
        return self.settle(0.0)

    def start_hand(self):
        if self.match:
            masks = np.zeros(4, dtype=np.uint64)
            deal_match_hand(np.uint64(self.seed), self.job, self.hand_no, masks, sa.Rules().as_array())
            masks = [int(m) for m in masks]
        else:
            masks = [int(c) for c in sa.deal(self.seed, self.job)]
        self.hand = sa.Hand(masks, self.dealer, self.rules, self.scores, self.bags, hands_played=self.hand_no)
        self.looked = [not self.rules.blind_nil] * 4

    def step(self, action):
        if self.done:
            self.k += 1
            return self.start_episode()
        h, seat = self.hand, self.hand.to_act
        if action == enc.LOOK:
            self.looked[seat] = True
        elif action == enc.BLIND_NIL:
            self.looked[seat] = True
            h.bid(0, blind=True)
        elif action >= enc.BID_OFFSET:
            h.bid(action - enc.BID_OFFSET)
        else:
            h.play(action)
        return self.settle(0.0)

    def settle(self, reward):
        while True:
            h = self.hand
            while h.phase != "over" and h.to_act not in self.seats:
                obs, agent = h.observation(), self.others[h.to_act]
                if h.phase == "bidding":
                    if h.legal_bids(blind=True) and agent.blind_nil(h.observation(blind_decision=True)):
                        h.bid(0, blind=True)
                    else:
                        h.bid(agent.bid(obs))
                else:
                    h.play(agent.play(obs))
            if h.phase != "over":
                seat = h.to_act
                if h.phase == "bidding" and not h.legal_bids(blind=True):
                    self.looked[seat] = True
                pending = h.phase == "bidding" and not self.looked[seat]
                self.seat = seat
                mask = np.zeros(enc.N_ACTIONS, dtype=np.int8)
                if pending:
                    mask[[enc.BLIND_NIL, enc.LOOK]] = 1
                elif h.phase == "bidding":
                    mask[[enc.BID_OFFSET + b for b in h.legal_bids()]] = 1
                else:
                    mask[[int(c) for c in h.legal_cards()]] = 1
                return observation_vector(h.observation(blind_decision=pending)), mask, reward, False, False
            result = h.result()
            reward += result.points[self.seat % 2]
            term, trunc = True, False
            if self.match:
                self.hand_no += 1
                winner = sa.match_winner(result.scores, self.rules, hands_played=self.hand_no)
                if winner is None and self.hand_no < MAX_MATCH_HANDS:
                    self.scores, self.bags, self.dealer = result.scores, result.bag_count, (self.dealer + 1) % 4
                    self.start_hand()
                    continue
                term, trunc = winner is not None, winner is None
            self.done = True
            return observation_vector(h.view(self.seat)), np.ones(enc.N_ACTIONS, np.int8), reward, term, trunc


def choose(masks, rng):
    """A uniformly random legal action per table, in numpy."""
    r = rng.random(masks.shape) * masks
    return r.argmax(axis=1)


def check_against_reference(rules, seats, episode, n=5, steps=40, seed=3, copy=True, others=None):
    env = VectorEnv(n, seats=seats, rules=rules, episode=episode, copy=copy, others=others or "normal")
    obs, info = env.reset(seed=seed)
    refs = [RefTable(seed, t, rules, seats, episode == "match", others) for t in range(n)]
    expected = [r.start_episode() for r in refs]
    rng = np.random.default_rng(seed)
    seen = set()
    rewards = terminated = truncated = None  # (no step yet)
    for step in range(steps + 1):
        for t, (v, mask, reward, term, trunc) in enumerate(expected):
            where = f"step {step}, table {t}"
            np.testing.assert_array_equal(obs[t], v, err_msg=where)
            np.testing.assert_array_equal(info["action_mask"][t], mask, err_msg=where)
            if step:
                assert (rewards[t], terminated[t], truncated[t]) == (reward, term, trunc), where
            if not refs[t].done:
                assert info["seat"][t] == refs[t].hand.to_act, where
                seen.add(refs[t].hand.phase)
            assert info["deal_no"][t] == refs[t].job, where
        actions = choose(info["action_mask"], rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        expected = [r.step(int(a)) for r, a in zip(refs, actions)]
    return seen


RULE_SETS = {
    "default": (sa.Rules(), (0,), "hand"),
    "blind nil, a partnership": (sa.Rules(blind_nil=True), (0, 2), "hand"),
    "closed bidding, jokers": (sa.Rules(closed_bidding=True, jokers=2, blind_nil=True), (1,), "hand"),
    "high deuces, suicide": (sa.Rules(deuces_high=2, bidding="suicide"), (3,), "hand"),
    "match, self-play": (sa.Rules(target_score=150, loss_threshold=-150, blind_nil=True), (0, 1, 2, 3), "match"),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_trajectories_equal_the_hand_replay(name):
    rules, seats, episode = RULE_SETS[name]
    seen = check_against_reference(rules, seats, episode, steps=60 if episode == "match" else 32)
    assert {"bidding", "playing"} <= seen


def test_trajectories_in_the_env_buffers():
    """copy=False: the environment's own arrays are returned (and rewritten by the next step)."""
    rules, seats, episode = RULE_SETS["default"]
    check_against_reference(rules, seats, episode, steps=30, copy=False)


def test_other_agents_at_the_other_seats():
    """Easy, a Mixed (Easy's bids, random cards) and random: a loop bound to them."""
    easy, rnd = sa.make_agent("easy"), sa.make_agent("random")
    others = [None, easy, sa.Mixed("easy-random", easy, rnd), rnd]
    check_against_reference(sa.Rules(blind_nil=True), (0,), "hand", steps=20, others=others)


def test_blind_nil_and_match_are_reached():
    """The rule sets above do take blind nils and play whole matches (else the test proves less)."""
    rules, seats, _ = RULE_SETS["match, self-play"]
    env = VectorEnv(64, seats=seats, rules=rules, episode="match")
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    blind = ended = 0
    for _ in range(200):
        actions = choose(info["action_mask"], rng)
        blind += int((actions == enc.BLIND_NIL).sum())
        obs, reward, terminated, truncated, info = env.step(actions)
        ended += int(terminated.sum())
        assert (info["hand_no"] >= 0).all()
    assert blind > 0 and ended > 0
    assert obs[:, enc.SLICES["scores"]].any()


def run(n, steps, seed=11, **kw):
    """Obs, masks and rewards of every table; the action of table t at step s is chosen from
    (t, s) only, so the tables' actions do not depend on how many there are."""
    env = VectorEnv(n, **kw)
    obs, info = env.reset(seed=seed)
    out = [(obs, info["action_mask"], np.zeros(n))]
    for s in range(steps):
        mask = info["action_mask"]
        key = (np.arange(n, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(s * 97)) % np.uint64(1 << 31)
        pick = key.astype(np.int64) % mask.sum(axis=1)
        actions = np.array([np.flatnonzero(m)[p] for m, p in zip(mask, pick)])
        obs, reward, terminated, truncated, info = env.step(actions)
        out.append((obs, info["action_mask"], reward))
    return out


def test_tables_do_not_depend_on_num_envs():
    steps = 20
    one, seven, big = run(1, steps), run(7, steps), run(4096, steps)
    for s in range(steps + 1):
        for k in range(3):
            np.testing.assert_array_equal(one[s][k][:1], seven[s][k][:1])
            np.testing.assert_array_equal(seven[s][k], big[s][k][:7])


def test_an_illegal_action_names_table_seat_action_and_changes_nothing():
    env = VectorEnv(4)
    obs, info = env.reset(seed=2)
    obs, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))  # the bids: now every table plays
    mask = info["action_mask"]
    state = [a.copy() for a in (env._pubs, env._hands, env._rows, env._obs, env._masks)]
    bad = mask.argmax(axis=1)
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    seat = int(info["seat"][2])
    with pytest.raises(IllegalPlayError, match=rf"table 2, seat {seat}: action {bad[2]} \({enc.action_to_string(bad[2])}\)"):
        env.step(bad)
    for a, b in zip(state, (env._pubs, env._hands, env._rows, env._obs, env._masks)):
        np.testing.assert_array_equal(a, b)
    # the same step, legal this time, goes on as if nothing had happened
    fresh = VectorEnv(4)
    _, first = fresh.reset(seed=2)
    fresh.step(first["action_mask"].argmax(axis=1))
    np.testing.assert_array_equal(env.step(mask.argmax(axis=1))[0], fresh.step(mask.argmax(axis=1))[0])
    with pytest.raises(IllegalBidError, match=r"table 0, seat 0: action 99 \(not an action\)"):
        env = VectorEnv(1)
        env.reset(seed=1)
        env.step(np.array([99]))


def test_rules_without_actions_are_refused():
    with pytest.raises(RulesError, match="pass_cards"):
        VectorEnv(2, rules=sa.Rules(pass_cards=2))
    with pytest.raises(RulesError, match="blind_pass"):
        VectorEnv(2, rules=sa.Rules(blind_nil=True, blind_pass=1))
    with pytest.raises(ValueError, match="seats"):
        VectorEnv(2, seats=(0, 0))
    with pytest.raises(TypeError, match="kernel agents"):
        VectorEnv(2, others=object())


# -- misuse (issue 33) ------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", ["0", "02", (0.5,), (True,), (np.float64(0),), (0, "2"), 0, None])
def test_non_integer_seats_are_refused(seats):
    """``int()`` took '0', 0.5 and True as seat 0."""
    with pytest.raises((TypeError, ValueError), match="seat"):
        VectorEnv(1, seats=seats)


def test_numpy_integer_seats_are_seats():
    assert VectorEnv(1, seats=(np.int64(2), np.uint8(0))).seats == (0, 2)


def not_actions(n: int) -> list:
    """Actions for ``n`` tables that are not ``n`` ints: each must raise ``ValueError``."""
    ints = [53] * (n - 1)
    return [
        np.full(n, 53.0), np.full(n, 3.7), np.ones(n, dtype=bool), np.full(n, "53"), np.full(n, 53, dtype=object),
        ints + [True], ints + [3.7], tuple(ints + ["53"]), ints + [np.float64(53)], ints + [np.array(53.0)],
        ints + [None], "53", np.full((1, n), 53), np.full(n + 1, 53), [53] * (n + 1), 53,
    ]  # fmt: skip


def test_non_integer_actions_are_refused_and_change_nothing():
    env, twin = VectorEnv(2), VectorEnv(2)
    _, info = env.reset(seed=4)
    twin.reset(seed=4)
    for actions in not_actions(2):
        with pytest.raises(ValueError, match=r"actions must be 2 ints|the action of table 1 must be an int \(an action"):
            env.step(actions)
    bids = info["action_mask"].argmax(axis=1)
    expected = twin.step(bids)[0]
    np.testing.assert_array_equal(env.step([np.int8(bids[0]), int(bids[1])])[0], expected)
    for actions in (bids.astype(np.uint8), tuple(bids.tolist()), [np.uint64(b) for b in bids]):  # ints all
        one = VectorEnv(2)
        one.reset(seed=4)
        np.testing.assert_array_equal(one.step(actions)[0], expected)


def test_an_int_beyond_int64_is_an_illegal_action():
    env = VectorEnv(2)
    _, info = env.reset(seed=4)
    with pytest.raises(IllegalBidError, match=rf"table 1, seat 0: action {2**70} \(not an action\)"):
        env.step([int(info["action_mask"][0].argmax()), 2**70])


@pytest.mark.parametrize("copy", [False, True])
def test_an_edited_mask_changes_nothing(copy):
    """copy=False returned the very mask the next step checked: a caller who set a bit there
    got an illegal action applied, and the engine corrupted."""
    env, twin = VectorEnv(3, copy=copy), VectorEnv(3)
    _, info = env.reset(seed=8)
    _, twin_info = twin.reset(seed=8)
    rng = np.random.default_rng(8)
    for step in range(30):
        mask = info["action_mask"]
        np.testing.assert_array_equal(mask, twin_info["action_mask"])
        actions = choose(mask, rng)
        if not mask[1].all():  # not an autoreset step, where every action goes
            bad = int(np.flatnonzero(mask[1] == 0)[0])
            mask[1, bad] = 1  # the caller's edit
            mask[0] = 0
            with pytest.raises((IllegalBidError, IllegalPlayError), match=rf"table 1, seat \d: action {bad} "):
                env.step(np.array([actions[0], bad, actions[2]]))
        obs, _, _, _, info = env.step(actions)
        twin_obs, _, _, _, twin_info = twin.step(actions)
        np.testing.assert_array_equal(obs, twin_obs, err_msg=f"step {step}")


def test_a_partial_reset_starts_the_next_episode_of_its_tables():
    """``options={"reset_mask": m}``: the marked tables leave their hand (mid-hand or ended) for
    their next episode, the others stay where they are (each table replayed through ``Hand``);
    arrays already returned keep their values (copy=True)."""
    seed, n = 6, 3
    env = VectorEnv(n)
    obs, info = env.reset(seed=seed)
    refs = [RefTable(seed, t, sa.Rules(), (0,), False) for t in range(n)]
    for r in refs:
        r.start_episode()
    rng = np.random.default_rng(6)
    for step in range(60):
        prev, before = obs, obs.copy()
        if step % 7 == 3:
            restart = rng.random(n) < 0.5
            restart[step % n] = True
            obs, info = env.reset(options={"reset_mask": restart})
            expected = []
            for r, go in zip(refs, restart):
                r.k += int(go)
                expected.append(r.start_episode() if go else None)
        else:
            actions = choose(info["action_mask"], rng)
            obs, _, _, _, info = env.step(actions)
            expected = [r.step(int(a)) for r, a in zip(refs, actions)]
        for t in range(n):
            where = f"step {step}, table {t}"
            if expected[t] is None:  # not restarted: as it was
                np.testing.assert_array_equal(obs[t], before[t], err_msg=where)
            else:
                np.testing.assert_array_equal(obs[t], expected[t][0], err_msg=where)
                np.testing.assert_array_equal(info["action_mask"][t], expected[t][1], err_msg=where)
            assert info["deal_no"][t] == (t << 32) + refs[t].k, where
        np.testing.assert_array_equal(prev, before)  # copy=True: a later step or reset leaves it be
    assert sum(r.k for r in refs) >= 8
    prev, before = obs, obs.copy()
    env.reset(seed=seed)
    np.testing.assert_array_equal(prev, before)


def test_a_partial_reset_is_refused_when_it_cannot_be_one():
    env = VectorEnv(2)
    whole = np.array([True, True])
    with pytest.raises(RuntimeError, match="reset_mask"):
        env.reset(options={"reset_mask": whole})
    env.reset(seed=1)
    with pytest.raises(ValueError, match="seed must be None"):
        env.reset(seed=2, options={"reset_mask": whole})
    for mask in ([True, True], np.array([1, 1]), np.array([True]), np.array([[True, True]])):
        with pytest.raises(ValueError, match=r"options\['reset_mask'\] must be a bool array of 2"):
            env.reset(options={"reset_mask": mask})
    with pytest.raises(ValueError, match="options may only hold 'reset_mask'"):
        env.reset(options={"seed": 3})


def test_random_misuse_of_the_vector_env():
    """copy=False, random steps (legal, one illegal table, garbage), full and partial resets,
    and a caller scribbling on the returned buffers: only the documented errors come out, and
    every table a reset starts is its next deal fresh (its seat's 13 cards, as ``Hand`` shows)."""
    n, rng = 3, np.random.default_rng(34)
    env = VectorEnv(n, copy=False)
    k, done, seed = np.zeros(n, dtype=int), np.zeros(n, dtype=bool), None
    seen = dict.fromkeys(["reset", "partial", "step", "illegal", "garbage", "scribble", "hand over"], 0)
    for _ in range(400):
        op = rng.random()
        if seed is None or op < 0.06:
            seed = int(rng.integers(1000))
            obs, info = env.reset(seed=seed)
            k[:], done[:], restart, kind = 0, False, np.ones(n, dtype=bool), "reset"
        elif op < 0.14:
            restart = rng.random(n) < 0.5
            restart[int(rng.integers(n))] = True
            obs, info = env.reset(options={"reset_mask": restart})
            k += restart
            done &= ~restart
            kind = "partial"
        else:
            mask = info["action_mask"].copy()
            actions = choose(mask, rng)
            if rng.random() < 0.3:
                seen["scribble"] += 1
                info["action_mask"][:] = rng.integers(0, 2, info["action_mask"].shape)
                obs[:] = -1.0
            if op < 0.25 and not mask.all(axis=1).any():
                t = int(rng.integers(n))
                actions[t] = int(rng.choice(np.concatenate([np.flatnonzero(mask[t] == 0), [-3, 68, 500]])))
                with pytest.raises((IllegalBidError, IllegalPlayError), match=f"table {t}, seat"):
                    env.step(actions)
                seen["illegal"] += 1
                actions = choose(mask, rng)
            elif op < 0.35:
                garbage = not_actions(n)
                with pytest.raises(ValueError, match=f"actions must be {n} ints|the action of table {n - 1} must be an int"):
                    env.step(garbage[int(rng.integers(len(garbage)))])
                seen["garbage"] += 1
            obs, _, terminated, truncated, info = env.step(actions)
            k += done
            done = terminated | truncated
            seen["step"] += 1
            seen["hand over"] += int(done.sum())
            continue
        seen[kind] += 1
        for t in np.flatnonzero(restart):
            ref = RefTable(seed, int(t), sa.Rules(), (0,), False)
            ref.k = int(k[t])
            expected_obs, expected_mask, *_ = ref.start_episode()
            np.testing.assert_array_equal(obs[t], expected_obs)
            np.testing.assert_array_equal(info["action_mask"][t], expected_mask)
            own = np.flatnonzero(obs[t, enc.SLICES["own_cards"]]).tolist()
            assert own == sorted(int(c) for c in sa.deal(seed, (int(t) << 32) + int(k[t]))[0])
            assert info["deal_no"][t] == (int(t) << 32) + k[t]
    assert min(seen.values()) >= 10, seen
