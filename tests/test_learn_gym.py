"""The single-table gymnasium view: gymnasium's own checker, the same hand as VectorEnv, a fresh deal
after every reset whatever came before, and misuse (non-int actions and seats) refused."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from test_learn_env import RefTable  # the slow reference: a table replayed through Hand

import spades_ai as sa
from spades_ai.errors import IllegalBidError, IllegalPlayError
from spades_ai.learn import SpadesEnv, VectorEnv
from spades_ai.learn import encoding as enc


def test_check_env():
    check_env(SpadesEnv(seat=1), skip_render_check=True)


def test_one_table_of_the_vector_env():
    env, vec = SpadesEnv(seat=2), VectorEnv(1, seats=(2,))
    obs, info = env.reset(seed=4)
    vobs, vinfo = vec.reset(seed=4)
    for episode in range(2):
        while True:
            np.testing.assert_array_equal(obs, vobs[0])
            np.testing.assert_array_equal(info["action_mask"], vinfo["action_mask"][0])
            assert info["deal_no"] == episode
            a = int(np.flatnonzero(info["action_mask"])[-1])
            obs, reward, terminated, truncated, info = env.step(a)
            vobs, vreward, _, _, vinfo = vec.step(np.array([a]))
            assert reward == vreward[0]
            if terminated:
                break
        obs, info = env.reset()
        vobs, _, _, _, vinfo = vec.step(np.array([0]))


def test_illegal_actions():
    env = SpadesEnv()
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1000.0 and info["illegal"]
    env = SpadesEnv(illegal="raise")
    _, info = env.reset(seed=1)
    env.step(int(info["action_mask"].argmax()))  # a bid, then the play
    bad = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.raises(IllegalPlayError, match=f"table 0, seat 0: action {bad} "):
        env.step(bad)


# -- reset always deals the next hand, whatever came before (issue 33) -----------------------------
def first_decision(seed, deal_no, seat=0):
    """The observation and mask a reset onto deal ``deal_no`` of ``seed`` must give: the deal
    replayed through ``Hand`` up to ``seat``'s first decision (Normal at the other seats)."""
    ref = RefTable(seed, 0, sa.Rules(), (seat,), False)
    ref.k = deal_no
    obs, mask, *_ = ref.start_episode()
    return obs, mask


def check_fresh_deal(env, obs, info, deal_no):
    """``obs`` / ``info`` are deal ``deal_no`` of the env's seed at its first decision, with the
    seat's 13 cards and nothing played."""
    assert info["deal_no"] == deal_no and not info["illegal"]
    own = np.flatnonzero(obs[enc.SLICES["own_cards"]]).tolist()
    assert own == sorted(int(c) for c in sa.deal(env.vector.seed, deal_no)[env.seat])
    assert not obs[enc.SLICES["played_by"]].any() and not obs[enc.SLICES["current_trick"]].any()
    expected_obs, expected_mask = first_decision(env.vector.seed, deal_no, env.seat)
    np.testing.assert_array_equal(obs, expected_obs)
    np.testing.assert_array_equal(info["action_mask"], expected_mask)


def test_reset_after_an_illegal_action_deals_the_next_hand():
    """The report: reset(seed=6); step(55); step(1); reset() played on the old hand (12 cards,
    2C played for the agent); 28 of 30 such resets raised."""
    env = SpadesEnv()
    env.reset(seed=6)
    env.step(55)
    _, reward, terminated, _, info = env.step(1)
    assert terminated and info["illegal"] and reward == -1000.0
    assert not env.action_masks().any()  # nothing is legal until reset()
    obs, info = env.reset()
    check_fresh_deal(env, obs, info, 1)
    assert (env.action_masks() == info["action_mask"].astype(bool)).all()
    rng = np.random.default_rng(0)
    for seed in range(30):
        _, info = env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 6))):  # a few legal actions first, or none
            _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
        assert terminated and info["illegal"]
        obs, info = env.reset()
        check_fresh_deal(env, obs, info, 1)
        env.step(int(info["action_mask"].argmax()))  # and the new hand plays


def test_reset_mid_hand_after_the_end_and_with_a_seed():
    env = SpadesEnv(seat=1)
    obs, info = env.reset(seed=9)
    check_fresh_deal(env, obs, info, 0)
    for _ in range(3):
        _, _, _, _, info = env.step(int(info["action_mask"].argmax()))
    obs, info = env.reset()  # mid-hand: the hand is abandoned
    check_fresh_deal(env, obs, info, 1)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(info["action_mask"].argmax()))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    obs, info = env.reset()  # after the end
    check_fresh_deal(env, obs, info, 2)
    obs, info = env.reset(seed=9)  # a seed starts over at its deal 0
    check_fresh_deal(env, obs, info, 0)
    with pytest.raises(ValueError, match="takes no options"):
        env.reset(options={"reset_mask": np.ones(1, dtype=bool)})
    drawn = SpadesEnv(seat=1)
    obs, info = drawn.reset()  # no seed yet: deal 0 of a drawn one
    check_fresh_deal(drawn, obs, info, 0)


NOT_INTS = [3.7, 52.9, "53", "0", True, False, None, np.float64(53.0), np.float32(0.0), np.array(53.0), np.bool_(True),
            np.array(True), [53], np.array([53]), 53 + 0j]  # fmt: skip


@pytest.mark.parametrize("illegal", ["end", "raise"])
def test_non_integer_actions_are_refused_by_name(illegal):
    """int() took 3.7 as 3, "53" as bid 1, True as 1 and 52.9 as nil; now each is refused and
    the hand goes on as if it had not been tried."""
    env, twin = SpadesEnv(illegal=illegal), SpadesEnv(illegal=illegal)
    _, info = env.reset(seed=2)
    twin.reset(seed=2)
    for action in NOT_INTS:
        with pytest.raises(ValueError, match=r"action must be an int \(an action id 0\.\.67\), not "):
            env.step(action)
    bid = int(info["action_mask"].argmax())
    expected = twin.step(bid)[0]
    np.testing.assert_array_equal(env.step(bid)[0], expected)
    for action in (np.int16(bid), np.uint64(bid), np.array(bid, dtype=np.uint8)):  # numpy integers are ints
        one = SpadesEnv(illegal=illegal)
        one.reset(seed=2)
        np.testing.assert_array_equal(one.step(action)[0], expected)


@pytest.mark.parametrize("seat", [True, 0.5, "0", 4, -1, None])
def test_the_seat_is_a_seat(seat):
    with pytest.raises(ValueError, match=f"seat must be a seat 0..3, not {seat!r}"):
        SpadesEnv(seat=seat)


def test_random_actions_and_resets_raise_only_the_documented_errors():
    """Random sequences of legal, illegal and garbage actions and resets: only the documented
    errors come out (``ValueError`` for a non-int, the illegal-action errors with
    ``illegal="raise"``, ``RuntimeError`` for a step after the end), and every reset deals a
    fresh hand (checked against ``Hand``)."""
    rng = np.random.default_rng(33)
    garbage = NOT_INTS + [-1, 68, 99, 2**70, -(2**70), np.int64(-5), np.uint64(2**64 - 1)]
    kinds = ("reset", "legal", "illegal", "garbage")
    rough, play_on = (0.2, 0.3, 0.25, 0.25), (0.02, 0.9, 0.04, 0.04)  # mostly misuse / hands played out
    for illegal in ("end", "raise"):
        env = SpadesEnv(seat=int(rng.integers(4)), illegal=illegal)
        deal_no, ended, info = None, True, None
        seen = dict.fromkeys(["reset", "step", "illegal", "garbage", "after the end", "played out"], 0)
        for i in range(800):
            kind = rng.choice(kinds, p=rough if i // 100 % 2 else play_on)
            if deal_no is None or (ended and rng.random() < 0.5):
                kind = "reset"
            if kind == "reset":
                seed = int(rng.integers(50)) if deal_no is None or rng.random() < 0.5 else None
                obs, info = env.reset(seed=seed)
                deal_no = 0 if seed is not None else deal_no + 1
                check_fresh_deal(env, obs, info, deal_no)
                ended = False
                seen["reset"] += 1
                continue
            if kind == "legal" and not ended:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            elif kind == "illegal" and not ended:
                action = int(rng.choice(np.flatnonzero(info["action_mask"] == 0)))
            else:
                action = garbage[int(rng.integers(len(garbage)))]
            legal = not ended and check_action_ok(action) and 0 <= action < enc.N_ACTIONS and info["action_mask"][action]
            try:
                _, _, terminated, truncated, info = env.step(action)
            except RuntimeError:
                assert ended
                seen["after the end"] += 1
                continue
            except (IllegalBidError, IllegalPlayError):
                assert illegal == "raise" and not legal and check_action_ok(action)
                seen["illegal"] += 1
                continue
            except ValueError as e:
                assert not check_action_ok(action), e
                seen["garbage"] += 1
                continue
            assert not ended and check_action_ok(action)
            assert legal or (illegal == "end" and info["illegal"] and terminated)
            seen["step" if legal else "illegal"] += 1
            seen["played out"] += bool(legal and terminated)
            ended = terminated or truncated
        assert min(seen.values()) >= 5, seen  # every kind of move was tried, again and again


def check_action_ok(action) -> bool:
    """Whether ``action`` is an int (a numpy integer, a 0-d integer array), as the env sees it."""
    if isinstance(action, np.ndarray):
        return action.ndim == 0 and np.issubdtype(action.dtype, np.integer)
    return isinstance(action, (int, np.integer)) and not isinstance(action, bool)
