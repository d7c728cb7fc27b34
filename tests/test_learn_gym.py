"""The single-table gymnasium view: gymnasium's own checker, and the same hand as VectorEnv."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from spades_ai.errors import IllegalPlayError
from spades_ai.learn import SpadesEnv, VectorEnv


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
