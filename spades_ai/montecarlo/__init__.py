"""The Monte Carlo library: what Hard, Crazy and ISMCTS are made of, for researchers to build on.

Modules, from the bottom up (each imports only those above it):

- ``sampling``: deals of the unseen cards that fit everything a seat has seen, exactly uniform,
  for any number of hidden seats
- ``reading``: a world's likelihood under Normal's play with noise (reading the play)
- ``weights``: world weights from the bids (and the play), tempered when they collapse
- ``candidates``: the cards (one per class of equal value) and bids a search weighs
- ``utility``: what a finished hand is worth to a side, against the others (own, paranoid or
  mean), or to every side at once (a tree's vector); ``finishes``: exact last tricks
- ``selection``: from values to a choice (anchoring, racing, thrift)
- templates, bound to a rollout policy (``binding``): ``rollouts``, ``search`` (Hard and Crazy's
  decisions, as kernels and as a kernel agent), ``tree_search`` (ISMCTS); ``tree`` is its layout
- ``worlds``: the same from Python, on an ``Observation``

>>> import spades_ai as sa
>>> obs = sa.Hand(sa.deal(seed=1)).observation()
>>> count_worlds(obs) > 10**15, sample_worlds(obs, 3).shape
(True, (3, 4))
"""

from spades_ai.montecarlo.worlds import count_worlds, decision_values, sample_worlds, world_weights

__all__ = ["count_worlds", "decision_values", "sample_worlds", "world_weights"]
