"""The objective of ``node_search`` (a template, ``spades_ai.templates``): "tricks", the double
dummy's test. ``solver.POINTS_BINDING`` is the binding of its bound copy to "points"."""

from spades_ai.engine.objectives import tricks_backup as backup
from spades_ai.engine.objectives import tricks_enter as enter
from spades_ai.engine.objectives import tricks_restrict as restrict
from spades_ai.engine.objectives import tricks_settled as settled
from spades_ai.engine.objectives import tricks_start as start
from spades_ai.engine.objectives import tricks_store as store

__all__ = ["backup", "enter", "restrict", "settled", "start", "store"]
