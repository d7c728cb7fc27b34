"""Learned models inside the toolkit: the built-in agent ``learned`` (``make_agent("learned",
model="default")``), a bidder and a card player evaluated in numba from weights in a small
``.npz`` file (``weights/``, read with numpy; nothing is downloaded).

- ``features``: the inputs, computed in numba from what a kernel agent sees;
- ``network``: the forward pass of a one-hidden-layer network over packed weights;
- ``bidder`` / ``player``: the agent's ``bid`` and ``play`` kernels;
- ``model``: ``Model`` and ``load_model`` (a shipped name or a path), ``shipped_models``;
- ``replay``, ``rows``: recorded hands replayed into training rows, every card checked;
- ``optim``, ``fit``: the network in numpy and its optimiser, and the fitters
  (``experiments/train_models.py`` makes the shipped file from a seed);
- ``explore``: the exploring bidder whose hands teach the bidder what a nil is worth.
"""
