"""The learned models' network in numpy, and its optimiser: what every fitter (``models.fit``)
trains with.

A network is one hidden layer of ReLUs, ``{"W1", "b1", "W2", "b2"}`` (``network``'s layout):
``init_network`` draws it, ``forward`` evaluates it on rows (as ``network.forward`` does in
numba), ``fit_network`` runs Adam (``adam``) on it over the minibatches a fitter gives, with the
loss and its gradient the fitter gives. Every draw comes from the caller's ``numpy.random`` generator.
"""

from __future__ import annotations

import numpy as np


def init_network(inputs: int, hidden: int, outputs: int, rng) -> dict:
    """He-initialised weights of a one-hidden-layer network (``network``'s layout)."""
    return {"W1": rng.normal(0.0, np.sqrt(2.0 / inputs), (hidden, inputs)), "b1": np.zeros(hidden),
            "W2": rng.normal(0.0, np.sqrt(1.0 / hidden), (outputs, hidden)), "b2": np.zeros(outputs)}  # fmt: skip


def forward(net: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(outputs, hidden)`` of the network for the rows of ``x`` (as ``network.forward``)."""
    h = np.maximum(x @ net["W1"].T + net["b1"], 0.0)
    return h @ net["W2"].T + net["b2"], h


def _backward(net: dict, x, h, d_out) -> dict:
    dh = (d_out @ net["W2"]) * (h > 0)
    return {"W1": dh.T @ x, "b1": dh.sum(0), "W2": d_out.T @ h, "b2": d_out.sum(0)}


def adam(net: dict, lr: float = 3e-3):
    """Adam over ``net`` in place: a function that takes one step along a dict of gradients
    (``net``'s keys and shapes)."""
    m = {k: np.zeros_like(v) for k, v in net.items()}
    v = {k: np.zeros_like(w) for k, w in net.items()}
    t = 0

    def step(grads: dict) -> None:
        nonlocal t
        t += 1
        for k in net:
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
            net[k] -= lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)

    return step


def fit_network(net: dict, batches, loss_grad, epochs: int, lr: float = 3e-3) -> list[float]:
    """Adam on ``net`` in place: each epoch, for each ``(x, batch)`` of ``batches(epoch)``,
    ``loss_grad(outputs, batch) -> (loss, d_outputs)``. Returns each epoch's mean loss."""
    step = adam(net, lr)
    history = []
    for epoch in range(epochs):
        losses = []
        for x, batch in batches(epoch):
            out, h = forward(net, x)
            loss, d_out = loss_grad(out, batch)
            step(_backward(net, x, h, d_out))
            losses.append(loss)
        history.append(float(np.mean(losses)))
    return history


def softmax(z):
    """The softmax of each row of ``z``."""
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def shuffled(rng, n: int, batch: int):
    """An epoch's minibatches: the row indices of a fresh permutation of ``n`` rows, ``batch`` at a time."""
    order = rng.permutation(n)
    for s in range(0, n, batch):
        yield order[s : s + batch]
