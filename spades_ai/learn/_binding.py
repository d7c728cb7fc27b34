"""The default binding of ``vector_loop``: Normal at every slot, the self-play loop's own
(``spades_ai.selfplay.loop``'s seat dispatch: ``seat_bid``, ``seat_play``, ``seat_pass`` of
``(slot, pub, seat, hand, legal | n, rules, params)``). Other lineups get a generated binding
beside a verbatim copy of the template (``spades_ai.selfplay.codegen.bind``).
"""

from spades_ai.selfplay.loop import seat_bid, seat_pass, seat_play

__all__ = ["seat_bid", "seat_pass", "seat_play"]
