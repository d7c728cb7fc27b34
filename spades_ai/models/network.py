"""The networks' forward pass in numba, over weights packed in one float64 array.

A network is one hidden layer of ReLUs: ``out = W2 @ relu(W1 @ x + b1) + b2``, stored from
``offset`` as ``W1`` (``hidden x inputs``, row-major), ``b1``, ``W2`` (``outputs x hidden``),
``b2``: ``network_size(inputs, hidden, outputs)`` floats. ``optim.forward`` is the same in numpy.

A network over the observation vector (mostly zeros: the card network of the ``"vector"`` kind,
``models.player``) is packed with ``W1`` transposed (``inputs x hidden``): ``add_rows`` adds
one contiguous row a nonzero input, so the vector's part of the hidden layer is summed once a
decision and each card adds its own inputs' rows; ``relu_output`` finishes one output.
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel


@inline_kernel
def network_size(inputs, hidden, outputs):
    """Floats a network of these sizes takes in the packed array."""
    return hidden * inputs + hidden + outputs * hidden + outputs


@kernel
def forward(w, offset, inputs, hidden, outputs, x, h, out):
    """``out[:outputs]`` of the network at ``w[offset:]`` for input ``x``; ``h`` (``hidden``
    floats) is scratch."""
    b1 = offset + hidden * inputs
    for j in range(hidden):
        acc = w[b1 + j]
        row = offset + j * inputs
        for i in range(inputs):
            acc += w[row + i] * x[i]
        h[j] = acc if acc > 0.0 else 0.0
    w2 = b1 + hidden
    b2 = w2 + outputs * hidden
    for k in range(outputs):
        acc = w[b2 + k]
        row = w2 + k * hidden
        for j in range(hidden):
            acc += w[row + j] * h[j]
        out[k] = acc


@kernel
def add_rows(w, offset, hidden, x, first, h):
    """``h += W1[:, first:first + len(x)] @ x`` for the network at ``w[offset:]`` packed with
    ``W1`` transposed: a contiguous row of ``hidden`` floats for each nonzero input."""
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            xi = x[i]
            row = offset + (first + i) * hidden
            for j in range(hidden):
                h[j] += w[row + j] * xi


@inline_kernel
def relu_output(w, offset, inputs, hidden, outputs, k, h):
    """Output ``k`` of the network at ``w[offset:]`` (either packing) from its hidden layer
    before the ReLU, ``h`` (``W1 @ x + b1``)."""
    w2 = offset + hidden * inputs + hidden
    acc = w[w2 + outputs * hidden + k]
    row = w2 + k * hidden
    for j in range(hidden):
        if h[j] > 0.0:
            acc += w[row + j] * h[j]
    return acc


@inline_kernel
def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))
