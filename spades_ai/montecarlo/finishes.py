"""Exact finishes: the last tricks of a world solved with every card visible.

With ``solver_tricks`` k > 0 a search stops its rollouts when k tricks remain and solves the
rest of each world exactly, the searching seat's side maximizing ``utility`` and every other
seat minimizing it. At the table of four in pairs that is ``engine.solver`` (two teams, a
transposition table): ``fill_leaf`` tabulates ``utility`` over every finish (the solver's
objective), and one transposition table serves a whole decision, each search taking a new
generation. At every other table it is ``engine.table_solver``'s paranoid search (the side
against all the other seats, the standard reduction of a multi-player game to two parties),
on the leaf table of ``fill_table_leaf``; ``solver_fits`` chooses between the two.
"""


import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.seats import cards_each, n_decks, n_seats, n_sides, side_of
from spades_ai.engine.solver import TT_WAYS
from spades_ai.engine.bits import U64
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.state import N_PUBLIC, P_TRICK_NO, P_WON
from spades_ai.engine.table_solver import finish_code, leaf_size, next_split, table_value
from spades_ai.montecarlo.utility import utility

#: The exact finishes' transposition table: 2**SOLVER_TABLE_BITS rows (the Python solver's
#: size for up to 5 tricks), cleared once per decision; each search takes a new generation.
SOLVER_TABLE_BITS = 12
SOLVER_SHIFT = 64 - SOLVER_TABLE_BITS + TT_WAYS.bit_length() - 1
SOLVER_GENERATIONS = 4095

@kernel
def solver_fits(rules):
    """Whether ``engine.solver`` (four hands, two teams) plays the table: 4 players in pairs.
    Every other table is solved by ``engine.table_solver``."""
    return n_seats(rules) == 4 and n_sides(rules) == 2


@inline_kernel
def exact_fits(rules):
    """Whether the last tricks of a world can be solved exactly at this table: with one deck.
    With several decks (6 to 12 players) no solver plays cards that repeat, and its leaf table
    of ``(cards_each + 1) ** N`` entries would not fit either, so a search with
    ``solver_tricks`` plays every world to its end with the rollout policy."""
    return n_decks(rules) == 1


@kernel
def fill_leaf(leaf, pub, rules, team, mode, scratch, sheet, nil_out):
    """``leaf[t0, t1, t2, t3]`` = ``utility`` (read as ``mode``) to ``team`` of the hand of ``pub`` (bids all
    made) finished with seat s holding ``t_s`` tricks, for every finish reachable from the
    tricks won in ``pub``: the solver's objective. ``scratch`` is an ``N_PUBLIC`` array."""
    n = 13 - pub[P_TRICK_NO]
    scratch[:] = pub
    w0 = pub[P_WON]
    w1 = pub[P_WON + 1]
    w2 = pub[P_WON + 2]
    w3 = pub[P_WON + 3]
    for x0 in range(n + 1):
        for x1 in range(n + 1 - x0):
            for x2 in range(n + 1 - x0 - x1):
                x3 = n - x0 - x1 - x2
                scratch[P_WON] = w0 + x0
                scratch[P_WON + 1] = w1 + x1
                scratch[P_WON + 2] = w2 + x2
                scratch[P_WON + 3] = w3 + x3
                leaf[w0 + x0, w1 + x1, w2 + x2, w3 + x3] = utility(scratch, rules, team, sheet, nil_out, mode)



@kernel
def solver_generation(tt, gen):
    """A generation for the next exact search (``gen[0]`` counts them); the table is cleared
    when the 12-bit generations run out, so no search sees another's rows."""
    g = gen[0] + 1
    if g > SOLVER_GENERATIONS:
        tt[:] = 0
        g = 1
    gen[0] = g
    return U64(g)


@kernel
def fill_table_leaf(leaf, pub, rules, side, mode, scratch, sheet, nil_out):
    """``leaf[finish_code(won)]`` = ``utility`` (read as ``mode``) to ``side`` of the hand of
    ``pub`` (bids all made) finished with seat s holding ``won[s]`` tricks, for every finish
    reachable from the tricks won in ``pub``: ``engine.table_solver``'s objective, at any table.
    ``leaf`` has ``leaf_size(rules)`` entries; ``scratch`` is an ``N_PUBLIC`` array."""
    seats = n_seats(rules)
    n = cards_each(rules) - pub[P_TRICK_NO]
    scratch[:] = pub
    x = np.zeros(seats, dtype=np.int64)
    x[seats - 1] = n
    while True:
        for s in range(seats):
            scratch[P_WON + s] = pub[P_WON + s] + x[s]
        leaf[finish_code(scratch[P_WON : P_WON + seats], rules)] = utility(scratch, rules, side, sheet, nil_out, mode)
        if not next_split(x, n):
            return


@kernel
def table_leaf(rules, exact):
    """The leaf table of ``fill_table_leaf`` for a decision with exact finishes (``exact``) at a
    table other than four in pairs; one entry otherwise (unused)."""
    return np.empty(leaf_size(rules) if exact and not solver_fits(rules) else 1)


@kernel
def table_exact_values(pub, seat, rules, choices, worlds, mode):
    """``values[world, choice]``: each card's exact value to ``seat``'s side (``utility`` read
    as ``mode``) in each world at a table other than four in pairs, every card visible
    (``engine.table_solver``, one search per card and world)."""
    n_worlds, n_c = len(worlds), len(choices)
    side = side_of(seat, rules)
    leaf = table_leaf(rules, True)
    fill_table_leaf(leaf, pub, rules, side, mode, np.empty(N_PUBLIC, dtype=np.int64),
                    np.empty((n_sides(rules), N_FIELDS), dtype=np.int64), np.empty(n_seats(rules), dtype=np.int64))
    values = np.empty((n_worlds, n_c))
    hands = np.empty(n_seats(rules), dtype=np.uint64)
    for i in range(n_worlds):
        for j in range(n_c):
            hands[:] = worlds[i]
            values[i, j] = table_value(pub, hands, choices[j], side, leaf, rules)
    return values


@kernel
def table_finish(sim, hands, rules, side, mode, leaf, leaf_ready, scratch, sheet, nil_out):
    """The exact value to ``side`` (``utility`` read as ``mode``) of the world ``(sim, hands)``
    between tricks at a table other than four in pairs (``engine.table_solver``). ``leaf_ready``:
    ``leaf`` already holds every finish reachable from here, else it is filled for this world."""
    if not leaf_ready:
        fill_table_leaf(leaf, sim, rules, side, mode, scratch, sheet, nil_out)
    return table_value(sim, hands, -1, side, leaf, rules)
