"""The learning environment and the datasets at every table of ``CHECKED_TABLES``: the batched
environment against a slow reference (each table's hand played through ``Hand``, the other seats
by Normal from Python, the vector by ``observation_vector``), the gymnasium view and its id under
``check_env``, and decision rows with Hard's labels replayed against ``Hand``. Few steps each."""

import numpy as np
import pytest

import spades_ai as sa
from spades_ai.encoding import observation_layout
from spades_ai.errors import TableError
from spades_ai.interop.encoding import observation_vector
from spades_ai.learn import VectorEnv
from spades_ai.seats import side_of
from spades_ai.testing.table import CHECKED_TABLES

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pyarrow")


class RefHand:
    """Episode ``k`` of table ``t`` of a ``VectorEnv`` of hands, played through ``Hand``."""

    def __init__(self, seed: int, t: int, k: int, rules: sa.Rules, seat: int):
        self.rules, self.seat = rules, seat
        self.normal = sa.make_agent("normal")
        cards = [int(c) for c in sa.deal(seed, (t << 32) + k, rules)]
        self.hand = sa.Hand(cards, k % rules.players, rules)
        self.layout = observation_layout(rules)
        self.settle()

    def settle(self):
        h = self.hand
        while h.phase != "over" and h.to_act != self.seat:
            obs = h.observation()
            if h.phase == "bidding":
                h.bid(self.normal.bid(obs))
            else:
                h.play(self.normal.play(obs))

    def now(self):
        """The seat's vector and mask (all ones once the hand is over) and its side's points."""
        h = self.hand
        mask = np.zeros(self.layout.n_actions, np.int8)
        if h.phase == "over":
            mask[:] = 1
            return observation_vector(h.view(self.seat)), mask, float(h.result().points[side_of(self.seat, self.rules)])
        legal = [52 + b for b in h.legal_bids()] if h.phase == "bidding" else [int(c) for c in h.legal_cards()]
        mask[legal] = 1
        return observation_vector(h.observation()), mask, 0.0

    def step(self, action: int):
        if action >= 52:
            self.hand.bid(action - 52)
        else:
            self.hand.play(action)
        self.settle()


@pytest.mark.parametrize("name", list(CHECKED_TABLES))
def test_vector_env_against_hand_at_every_table(name):
    rules = CHECKED_TABLES[name]
    seat = rules.players - 1
    env = VectorEnv(2, seats=(seat,), rules=rules)
    obs, info = env.reset(seed=5)
    layout = observation_layout(rules)
    assert obs.shape == (2, layout.size) and info["action_mask"].shape == (2, layout.n_actions)
    refs = [RefHand(5, t, 0, rules, seat) for t in range(2)]
    rng = np.random.default_rng(1)
    for _ in range(rules.cards_each + 2):  # the bid, every card, and the first step of episode 1
        for t, ref in enumerate(refs):
            want_obs, want_mask, want_reward = ref.now()
            np.testing.assert_array_equal(obs[t], want_obs)
            np.testing.assert_array_equal(info["action_mask"][t], want_mask)
            assert info["seat"][t] == seat
        actions = np.array([rng.choice(np.flatnonzero(info["action_mask"][t])) for t in range(2)])
        done = [ref.hand.phase == "over" for ref in refs]
        for t, ref in enumerate(refs):
            if done[t]:
                refs[t] = RefHand(5, t, 1, rules, seat)
            else:
                ref.step(int(actions[t]))
        obs, reward, terminated, _, info = env.step(actions)
        for t, ref in enumerate(refs):
            ended = ref.hand.phase == "over" and not done[t]
            assert terminated[t] == ended
            assert reward[t] == (ref.now()[2] if ended else 0.0)
            assert info["points"].shape == (2, rules.n_sides)
    assert all(ref.hand.phase != "over" for ref in refs)


def test_a_table_is_chosen_by_preset_rules_or_keywords():
    env = VectorEnv(1, rules="cutthroat")
    assert env.rules.players == 3 and env.layout.size == observation_layout("cutthroat").size
    assert sa.learn.SpadesEnv(rules="cutthroat").rules == sa.Rules.preset("cutthroat")
    six = sa.learn.SpadesEnv(players=6, teams=True, seat=5)
    assert six.rules.n_sides == 3 and six.observation_space.shape == (observation_layout(six.rules).size,)
    assert sa.learn.SpadesEnv(players=4, teams=False).rules.n_sides == 4
    with pytest.raises(ValueError, match="seat 0..2"):
        sa.learn.SpadesEnv(rules="cutthroat", seat=3)
    with pytest.raises(ValueError, match="others is one agent or one per seat \\(3\\)"):
        VectorEnv(1, rules="cutthroat", others=["normal"] * 4)
    with pytest.raises(TypeError, match="rules must be"):
        VectorEnv(1, rules=3)
    VectorEnv(1, rules="cutthroat", others="learned").reset(seed=0)  # the learned agent's 3-player model
    with pytest.raises(TableError, match="agent 'learned' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not 8 players solo"):
        VectorEnv(1, rules=sa.Rules(players=8), others="learned")


@pytest.mark.parametrize("name", list(CHECKED_TABLES))
def test_gymnasium_check_env_at_every_table(name):
    from gymnasium.utils.env_checker import check_env

    from spades_ai.learn.gym_env import ENV_ID

    rules = CHECKED_TABLES[name]
    env = gym.make(ENV_ID, players=rules.players, teams=rules.teams, seat=1)
    assert env.unwrapped.rules == rules
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert obs.shape == (observation_layout(rules).size,) and env.action_space.n == observation_layout(rules).n_actions
    obs, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.observation_space.contains(obs)


def test_gymnasium_makes_a_preset_by_name():
    from spades_ai.learn.gym_env import ENV_ID

    env = gym.make(ENV_ID, rules="cutthroat")
    assert env.unwrapped.rules.players == 3


def _replayed(data: dict, seed: int, rules: sa.Rules, labels: bool):
    """Each row against ``Hand``: the acting seat's vector, mask and action, and (``labels``) the
    label values, those of a direct call of ``decision_values`` on the row's observation."""
    from spades_ai.montecarlo import decision_values

    labeller = sa.make_agent("hard", worlds=4, rollouts=1)
    layout = observation_layout(rules)
    i = 0
    for k in np.unique(data["deal_no"]):
        rows = np.flatnonzero(data["deal_no"] == k)
        h = sa.Hand([int(c) for c in sa.deal(seed, int(k), rules)], 0, rules)
        for r in rows:
            seat, action = int(data["seat"][r]), int(data["action"][r])
            assert seat == h.to_act
            np.testing.assert_array_equal(data["obs"][r], observation_vector(h.observation()))
            mask = data["mask"][r]
            assert mask[action] == 1 and mask.shape == (layout.n_actions,)
            if labels:
                _, direct = decision_values(labeller, h.observation())
                want = np.full(layout.n_actions, np.nan, np.float32)
                want[[a + 52 if h.phase == "bidding" else int(a) for a in direct]] = list(direct.values())
                np.testing.assert_array_equal(data["label_values"][r], want)  # NaN: one candidate, not searched
                assert mask[np.flatnonzero(~np.isnan(want))].all() and mask[data["label_action"][r]]
            if action >= 52:
                h.bid(action - 52)
            else:
                h.play(action)
            i += 1
        assert h.phase == "over"
        for r in rows:
            assert data["outcome"][r] == h.result().points[side_of(int(data["seat"][r]), rules)]
    return i


@pytest.mark.parametrize("name", ["3", "6 pairs"])
def test_a_dataset_with_hards_labels_at_another_table(name, tmp_path):
    from spades_ai.learn import load_dataset, write_dataset

    rules = CHECKED_TABLES[name]
    out = write_dataset(tmp_path / "rows", ["normal"] * rules.players, 1, seed=4, rules=rules,
                        labels="hard:worlds=4,rollouts=1")  # fmt: skip
    data = load_dataset(out)
    layout = observation_layout(rules)
    assert data["obs"].shape == (len(data["seat"]), layout.size)
    assert data["label_values"].shape == (len(data["seat"]), layout.n_actions)
    assert _replayed(data, 4, rules, labels=True) == rules.players * (1 + rules.cards_each)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CHECKED_TABLES))
def test_datasets_at_every_table(name, tmp_path):
    from spades_ai.learn import load_dataset, write_dataset

    rules = CHECKED_TABLES[name]
    out = write_dataset(tmp_path / "rows", ["normal"] * rules.players, 2, seed=3, rules=rules, labels="hard:worlds=4,rollouts=1")
    data = load_dataset(out)
    assert _replayed(data, 3, rules, labels=True) == 2 * rules.players * (1 + rules.cards_each)


def test_the_docs_example_at_three_players_runs():
    """docs/learning.md's "At every table" example, run as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "learning.md").read_text(encoding="utf-8")
    section = text.split("\n### At every table\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    exec(compile(block, "docs/learning.md", "exec"), {})


def test_a_linear_policy_of_a_table_plays_it_and_refuses_another():
    from spades_ai.learn import linear_agent

    rules = sa.Rules(players=3)
    agent = linear_agent(np.zeros((52, observation_layout(rules).size)), np.arange(52.0), rules="cutthroat")
    h = sa.Hand([int(c) for c in sa.deal(2, 0, rules)], 0, rules)
    normal = sa.make_agent("normal")
    while h.phase == "bidding":
        h.bid(normal.bid(h.observation()))
    for _ in range(6):
        assert int(agent.play(h.observation())) == max(int(c) for c in h.legal_cards())  # the highest card id
        h.play(agent.play(h.observation()))
    with pytest.raises(TableError, match="agent 'linear' plays 3 players solo, not 4 players in pairs: its weights"):
        agent.check_table(sa.Rules())
    with pytest.raises(ValueError, match=r"weights are \(52, 455\) and bias \(52,\) at 3 players solo"):
        linear_agent(np.zeros((52, 567)), np.zeros(52), rules=rules)
