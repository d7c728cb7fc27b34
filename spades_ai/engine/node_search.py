"""The exact search's node, one family for every objective (a template, ``spades_ai.templates``).

``node(p, w, s)`` searches the position ``p`` (``exact_node.Pos``) in the window ``w`` for the
search ``s`` (``exact_node.Search`` or ``LeafSearch``) and returns ``(value, relevant)``: the value
and the cards whose ranks its proof used. The move loop is the same for every objective: the
table's hint, the three ordered classes, the rest; equivalent cards searched once; a child's
relevant cards and the trick's pin backed up; the table probed and stored at trick boundaries.
What an objective means comes from ``._binding``, six steps inlined into the loop:

    enter(p, w, s)        at a trick boundary: (done, value, relevant, w, hint, key)
    restrict(moves, hint, w)   the moves searched (one card only, for the value of a card)
    start(p, s)           (value, best) before any card
    settled(q, done, w, s)     (known, value, relevant, child's window): a child decided unseen
    backup(p, s, value, best, w, c, child)   (value, best, w, cut) after card c
    store(p, w, s, value, best, relevant, key)   the table row a boundary's result proves

This package's ``_binding`` is the double dummy's test ("tricks", ``solver.dd_tricks``); the
copy bound to ``solver.POINTS_BINDING`` searches a leaf of points (``objective_values``,
``position_value``). Each is its own recursive kernel, the objective fixed when it is compiled:
no node tests which objective it serves, and numba caches both (it cannot load a second
specialization of one recursive kernel from its cache, numba issue 6061).
"""

from spades_ai.engine.bits import ZERO, lowest_bit
from spades_ai.engine.exact_node import after, class_moves, no_key, node_moves, run_pin
from spades_ai.engine.jit import kernel

from ._binding import backup, enter, restrict, settled, start, store


@kernel
def node(p, w, s):
    """``(value, relevant)`` of the position ``p`` in the window ``w`` (the module docstring)."""
    s.stats[0] += 1
    hint = ZERO
    key = no_key()
    if p.pos == 0:
        done, value, rel, w, hint, key = enter(p, w, s)
        if done:
            return value, rel
    moves, first, second, third = node_moves(p, s)
    moves, hint = restrict(moves, hint, w)
    w_in = w
    value, best = start(p, s)
    rel = ZERO
    rest = moves
    cut = False
    for cls in range(5):
        m = class_moves(cls, hint, first, second, third, rest)
        while m != ZERO:
            c = lowest_bit(m)
            m ^= c
            rest ^= c
            q, done, pin = after(c, p)
            known, child, crel, cw = settled(q, done, w, s)
            if not known:
                child, crel = node(q, cw, s)
            crel |= pin
            value, best, w, cut = backup(p, s, value, best, w, c, child)
            if cut:
                rel = crel
                break
            # Without a cut the result needs every card, and a card stands for its run.
            rel |= crel | run_pin(c, moves, p.a0, crel)
        if cut:
            break
    if p.pos == 0:
        store(p, w_in, s, value, best, rel, key)
    return value, rel
