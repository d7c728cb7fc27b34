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
        self.dealer = int(match_first_dealer(np.uint64(self.seed), self.job)) if self.match else self.k % 4
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
