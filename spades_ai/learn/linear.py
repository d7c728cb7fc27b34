"""A linear policy over the observation vector: weights fitted in numpy on a dataset, played by
a kernel agent (so it runs in the self-play loop, tournaments and the environment).

>>> import numpy as np
>>> agent = linear_agent(np.zeros((52, 567)), np.arange(52.0))   # prefers the highest card id
>>> agent.name
'linear'

A card's score is ``weights[card] @ obs + bias[card]``; the agent plays the legal card of the
highest score (the lowest card id on a tie) and bids like Normal. The weights travel as the
kernel agent's int64 ``params``, in fixed point (``SCALE``): ``52 * 567`` weights, then 52 biases.
"""

from __future__ import annotations

import numpy as np

from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.policies.normal import normal_agent_bid
from spades_ai.engine.bits import ONE, lowest_index
from spades_ai.engine.deal import public_id
from spades_ai.engine.jit import kernel
from spades_ai.encoding import OBSERVATION_SIZE
from spades_ai.encoding import write_observation

SCALE = 1 << 20
N_PARAMS = 52 * OBSERVATION_SIZE + 52


@kernel
def linear_bid(pub, seat, hand, legal, rules, params):
    """Normal's bid (the linear policy only plays cards)."""
    return normal_agent_bid(pub, seat, hand, legal, rules)


@kernel
def linear_play(pub, seat, hand, legal, rules, params):
    """The legal card of the highest linear score (an engine card id)."""
    obs = np.empty(OBSERVATION_SIZE, dtype=np.float32)
    write_observation(pub, seat, hand, False, rules, obs)
    best, best_score = -1, -np.inf
    m = legal
    while m:
        e = lowest_index(m)
        m &= m - ONE
        c = public_id(e, rules)
        score = float(params[52 * OBSERVATION_SIZE + c])
        row = c * OBSERVATION_SIZE
        for k in range(OBSERVATION_SIZE):
            if obs[k] != 0.0:
                score += params[row + k] * obs[k]
        if score > best_score:
            best, best_score = e, score
    return best


def linear_agent(weights, bias, name: str = "linear") -> KernelAgent:
    """The kernel agent of ``weights`` ``(52, 567)`` and ``bias`` ``(52,)`` (any floats)."""
    weights, bias = np.asarray(weights, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if weights.shape != (52, OBSERVATION_SIZE) or bias.shape != (52,):
        raise ValueError(f"weights are (52, {OBSERVATION_SIZE}) and bias (52,), not {weights.shape} and {bias.shape}")
    params = np.round(np.concatenate([weights.reshape(-1), bias]) * SCALE).astype(np.int64)
    return KernelAgent(name, linear_bid, linear_play, params=params)


def fit_linear(data: dict, ridge: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Ridge regression of the card played (one-hot) on the observation vector, over the play
    rows of a dataset (``load_dataset``): ``(weights (52, 567), bias (52,))``."""
    play = data["phase"] == 3
    x = data["obs"][play].astype(np.float64)
    y = np.zeros((len(x), 52))
    y[np.arange(len(x)), data["action"][play].astype(np.int64)] = 1.0
    x1 = np.hstack([x, np.ones((len(x), 1))])
    gram = x1.T @ x1 + ridge * np.eye(x1.shape[1])
    w = np.linalg.solve(gram, x1.T @ y)  # (568, 52)
    return w[:-1].T.copy(), w[-1].copy()
