"""Self-play: many deals or whole matches with an agent in each seat, in one compiled loop.

``play_hands`` / ``play_matches`` (``play``) return ``HandRecords`` (``records``); the loop
(``loop``, a template bound per lineup by ``codegen``) calls kernel agents inside numba and asks
Python agents in batches (``python_seats``); ``play_out`` finishes an observed hand in one
imagined world; ``compile_ahead`` compiles the built-in agents in a second process on a first run.
"""

from spades_ai.selfplay.play import play_hands, play_matches
from spades_ai.selfplay.playout import play_out
from spades_ai.selfplay.records import HandRecords

__all__ = ["HandRecords", "play_hands", "play_matches", "play_out"]
