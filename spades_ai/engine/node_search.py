"""The exact search's node, one family for every table and objective (a template, ``spades_ai.templates``).

``node(p, w, s)`` searches the position ``p`` in the window ``w`` for the search ``s`` and
returns ``(value, relevant)``: the value and the cards whose ranks its proof used (none where
the search keeps no table). The move loop is the same for every table and objective: the
table's hint, the three ordered classes, the rest; equivalent cards searched once; a child's
relevant cards and the trick's pin backed up; the table probed and stored at trick boundaries.
What a position is and what the search means come from ``._binding``, inlined into the loop:

    enter(p, w, s)          (done, value, relevant, w, hint, key): counts the node, and decides
                            it unseen where it can (a leaf, the table, sure tricks)
    node_moves(p, s)        (moves, first, second, third): the distinct legal cards, ordered
    restrict(p, moves, hint, w, s)   the moves searched (one card only, for the value of a card)
    start(p, s)             (value, best) before any card
    play(c, p, s)           (q, done, pin): the child after ``c`` (``done``: it ends a trick)
    settled(q, done, w, s)  (known, value, relevant, child's window): a child decided unseen
    undo(p, c, s)           puts ``c`` back where the position keeps hands in an array
    backup(p, s, value, best, w, c, child)   (value, best, w, cut) after card ``c``
    run_pin(c, moves, p, relevant)   ``c`` if the proof used a card of the run ``c`` stands for
    store(p, w, s, value, best, relevant, key)   the table row a boundary's result proves

The bindings: this package's ``_binding`` is four in pairs' double dummy ("tricks",
``exact_node`` and ``objectives``); ``solver.POINTS_BINDING`` four in pairs' leaf of points;
``table_solver.TABLE_BINDINGS`` every other table's seat's side against the rest, one copy for
one deck and one for copies (``table_node``). Each is its own recursive kernel, the table and
the objective fixed when it is compiled: no node tests which it serves, and numba caches each
(it cannot load a second specialization of one recursive kernel from its cache, numba issue 6061).
"""

from spades_ai.engine.bits import ZERO, lowest_bit
from spades_ai.engine.jit import hot_kernel, kernel

from ._binding import backup, enter, node_moves, play, restrict, run_pin, settled, start, store, undo


@hot_kernel
def class_moves(cls, hint, first, second, third, rest):
    """The untried moves (``rest``) of class ``cls`` in the search order: the table's hint, the
    three ordered classes, then every other move."""
    if cls == 0:
        return hint & rest
    if cls == 1:
        return first & rest
    if cls == 2:
        return second & rest
    if cls == 3:
        return third & rest
    return rest


@kernel
def node(p, w, s):
    """``(value, relevant)`` of the position ``p`` in the window ``w`` (the module docstring)."""
    done, value, rel, w, hint, key = enter(p, w, s)
    if done:
        return value, rel
    moves, first, second, third = node_moves(p, s)
    moves, hint = restrict(p, moves, hint, w, s)
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
            q, done, pin = play(c, p, s)
            known, child, crel, cw = settled(q, done, w, s)
            if not known:
                child, crel = node(q, cw, s)
            undo(p, c, s)
            crel |= pin
            value, best, w, cut = backup(p, s, value, best, w, c, child)
            if cut:
                rel = crel
                break
            # Without a cut the result needs every card, and a card stands for its run.
            rel |= crel | run_pin(c, moves, p, crel)
        if cut:
            break
    store(p, w_in, s, value, best, rel, key)
    return value, rel
