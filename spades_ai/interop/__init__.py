"""Thin adapters to other game-AI frameworks; each imports its framework, nothing else does.
Both play every table of the rules (3 to 12 players, solo or in pairs).

- ``spades_ai.interop.openspiel`` (``pip install "spades-ai[openspiel]"``): registers the game
  ``"spades_ai"`` with OpenSpiel, and adapts bots both ways (``OpenSpielAgent``, ``SpadesBot``).
- ``spades_ai.interop.pettingzoo`` (``pip install "spades-ai[pettingzoo]"``): ``env(rules, players=, teams=)``,
  an AEC environment with action masks.
- ``spades_ai.interop.encoding`` (no extra dependency): the action ids and the observation
  vector both share, and ``observation_vector(obs)`` for our own ``Observation``.
- ``spades_ai.interop.episode`` (no extra dependency): what an episode of either is, one hand or
  a whole match (``episode="match"``), and its returns.
"""
