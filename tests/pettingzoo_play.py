"""Helpers of the PettingZoo tests (``test_interop_pettingzoo``, ``test_adapters_tables``)."""

from __future__ import annotations

import numpy as np
import pytest

# api_test warns about any dict observation except in PettingZoo's own classic envs, which it
# exempts by name; the dict {"observation", "action_mask"} is the convention those envs set.
dict_observation_warnings = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


def play_random(e, seed):
    """One episode of the AEC env ``e`` with uniformly random legal actions: the acting agents'
    (agent, observation, action) in order, and each agent's final reward."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, rewards = [], {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            rewards[agent] = reward
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        steps.append((agent, obs, action))
        e.step(action)
    return steps, rewards
