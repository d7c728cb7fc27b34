"""Four in pairs' binding of ``node_search`` (a template, ``spades_ai.templates``): its
positions (``exact_node``) and the objective "tricks", the double dummy's test (``objectives``).
``solver.POINTS_BINDING`` binds the same positions to "points"."""

from spades_ai.engine.exact_node import node_moves, play, run_pin, undo
from spades_ai.engine.objectives import tricks_backup as backup
from spades_ai.engine.objectives import tricks_enter as enter
from spades_ai.engine.objectives import tricks_restrict as restrict
from spades_ai.engine.objectives import tricks_settled as settled
from spades_ai.engine.objectives import tricks_start as start
from spades_ai.engine.objectives import tricks_store as store

__all__ = ["backup", "enter", "node_moves", "play", "restrict", "run_pin", "settled", "start", "store", "undo"]
