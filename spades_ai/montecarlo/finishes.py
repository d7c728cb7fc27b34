"""Exact finishes: the last tricks of a world solved with every card visible (``engine.solver``).

With ``solver_tricks`` k > 0 a search stops its rollouts when k tricks remain and solves the
rest of each world exactly, the searching team maximizing ``utility`` and the other team
minimizing it. ``fill_leaf`` tabulates ``utility`` over every finish (the solver's objective);
one transposition table serves a whole decision, each search taking a new generation.
"""


from spades_ai.engine.jit import kernel
from spades_ai.engine.solver import TT_WAYS
from spades_ai.engine.bits import U64
from spades_ai.engine.state import P_TRICK_NO, P_WON
from spades_ai.montecarlo.utility import utility

#: The exact finishes' transposition table: 2**SOLVER_TABLE_BITS rows (the Python solver's
#: size for up to 5 tricks), cleared once per decision; each search takes a new generation.
SOLVER_TABLE_BITS = 12
SOLVER_SHIFT = 64 - SOLVER_TABLE_BITS + TT_WAYS.bit_length() - 1
SOLVER_GENERATIONS = 4095

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

