"""A linear policy over the observation vector: weights fitted in numpy on a dataset, played by
a kernel agent (so it runs in the self-play loop, tournaments and the environment).

>>> import numpy as np
>>> agent = linear_agent(np.zeros((52, 567)), np.arange(52.0))   # prefers the highest card id
>>> agent.name
'linear'

A card's score is ``weights[card] @ obs + bias[card]``; the agent plays the legal card of the
highest score (the lowest card id on a tie) and bids like Normal. The weights travel as the
kernel agent's int64 ``params``: the vector's size, then in fixed point (``SCALE``) ``52 *
size`` weights and 52 biases. The weights are of one table's vector (``rules``: four in pairs,
567 floats, by default) and the agent refuses any other table, naming both.
"""

from __future__ import annotations

import numpy as np

from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.policies.normal import normal_agent_bid
from spades_ai.engine.bits import ONE, lowest_index
from spades_ai.engine.deal import public_id
from spades_ai.engine.jit import kernel
from spades_ai.capabilities import Part, Tables
from spades_ai.encoding import observation_layout, table_rules, write_observation
from spades_ai.seats import table_name

SCALE = 1 << 20


@kernel
def linear_bid(pub, seat, hand, legal, rules, params):
    """Normal's bid (the linear policy only plays cards)."""
    return normal_agent_bid(pub, seat, hand, legal, rules)


@kernel
def linear_play(pub, seat, hand, legal, rules, params):
    """The legal card of the highest linear score (an engine card id)."""
    size = params[0]  # the table's vector (the agent refuses any other table: ``linear_agent``)
    obs = np.empty(size, dtype=np.float32)
    write_observation(pub, seat, hand, False, rules, obs)
    best, best_score = -1, -np.inf
    m = legal
    while m:
        e = lowest_index(m)
        m &= m - ONE
        c = public_id(e, rules)
        score = float(params[1 + 52 * size + c])
        row = 1 + c * size
        for k in range(size):
            if obs[k] != 0.0:
                score += params[row + k] * obs[k]
        if score > best_score:
            best, best_score = e, score
    return best


def linear_agent(weights, bias, name: str = "linear", rules=None) -> KernelAgent:
    """The kernel agent of ``weights`` ``(52, size)`` and ``bias`` ``(52,)`` (any floats), for
    the table of ``rules`` (a ``Rules`` or a preset's name; four in pairs by default), whose
    vector has ``size`` floats; it refuses every other table (``TableError``)."""
    rules = table_rules(rules)
    size = observation_layout(rules).size
    weights, bias = np.asarray(weights, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if weights.shape != (52, size) or bias.shape != (52,):
        raise ValueError(f"weights are (52, {size}) and bias (52,) at {table_name(rules)}, not {weights.shape} and {bias.shape}")
    params = np.concatenate([[size], np.round(np.concatenate([weights.reshape(-1), bias]) * SCALE).astype(np.int64)])
    agent = KernelAgent(name, linear_bid, linear_play, params=params)
    table = (rules.players, rules.teams)
    agent.tables_part = Part(f"linear policy {name!r}", Tables(table_name(rules), lambda r: (r.players, r.teams) == table),
                             "docs/learning.md", "its weights are of that table's observation vector")  # fmt: skip
    return agent


def fit_linear(data: dict, ridge: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Ridge regression of the card played (one-hot) on the observation vector, over the play
    rows of a dataset (``load_dataset``): ``(weights (52, size), bias (52,))``, ``size`` the
    vector's of the dataset's table (567 at four in pairs)."""
    play = data["phase"] == 3
    x = data["obs"][play].astype(np.float64)
    y = np.zeros((len(x), 52))
    y[np.arange(len(x)), data["action"][play].astype(np.int64)] = 1.0
    x1 = np.hstack([x, np.ones((len(x), 1))])
    gram = x1.T @ x1 + ridge * np.eye(x1.shape[1])
    w = np.linalg.solve(gram, x1.T @ y)  # (568, 52)
    return w[:-1].T.copy(), w[-1].copy()
