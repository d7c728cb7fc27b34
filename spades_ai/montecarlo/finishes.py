"""Exact finishes: the last tricks of a world solved with every card visible.

With ``solver_tricks`` k > 0 a search stops its rollouts when k tricks remain and solves the
rest of each world exactly, the searching seat's side maximizing ``utility`` and every other
seat minimizing it. At the table of four in pairs that is ``engine.solver`` (two teams, a
transposition table): ``fill_leaf`` tabulates ``utility`` over every finish (the solver's
objective), and one transposition table serves a whole decision, each search taking a new
generation. At every other table it is ``engine.table_solver``'s paranoid search (the side
against all the other seats, the standard reduction of a multi-player game to two parties),
on the leaf table of ``fill_table_leaf``. A decision reads the table's shape once
(``finish_plan``) into its ``Finish``, the record its exact finishes use; a world is then
finished by that plan (``exact_finish``), and no rollout reads the shape again.
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.bits import U64
from spades_ai.engine.exact_table import STATS, TT_WAYS, TT_WIDTH, memo_of
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.seats import cards_each, n_decks, n_seats, n_sides
from spades_ai.engine.solver import position_value
from spades_ai.engine.state import N_PUBLIC, P_BROKEN, P_TO_ACT, P_TRICK_NO, P_WON
from spades_ai.engine.table_solver import finish_code, leaf_size, next_split, table_value
from spades_ai.montecarlo.utility import utility

#: The exact finishes' transposition table: 2**SOLVER_TABLE_BITS rows (the Python solver's
#: size for up to 5 tricks), cleared once per decision; each search takes a new generation.
SOLVER_TABLE_BITS = 12
SOLVER_SHIFT = 64 - SOLVER_TABLE_BITS + TT_WAYS.bit_length() - 1
SOLVER_GENERATIONS = 4095
#: A decision's exact finishes (``finish_plan``): none; ``engine.solver`` at four in pairs;
#: ``engine.table_solver`` at every other table of one deck.
FINISH_NONE = 0
FINISH_PAIRS = 1
FINISH_TABLE = 2

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
def table_exact_values(pub, rules, choices, worlds, f):
    """``values[world, choice]``: each card's exact value to the side ``f.side`` (``utility``
    read as ``f.mode``, the leaf ``f.leaf_n`` filled: ``finish_of``) in each world at a table
    other than four in pairs, every card visible (``engine.table_solver``, one search per card
    and world)."""
    n_worlds, n_c = len(worlds), len(choices)
    values = np.empty((n_worlds, n_c))
    hands = np.empty(n_seats(rules), dtype=np.uint64)
    for i in range(n_worlds):
        for j in range(n_c):
            hands[:] = worlds[i]
            values[i, j] = table_value(pub, hands, choices[j], f.side, f.leaf_n, rules)
    return values


@kernel
def table_finish(sim, hands, rules, side, mode, leaf, leaf_ready, scratch, sheet, nil_out):
    """The exact value to ``side`` (``utility`` read as ``mode``) of the world ``(sim, hands)``
    between tricks at a table other than four in pairs (``engine.table_solver``). ``leaf_ready``:
    ``leaf`` already holds every finish reachable from here, else it is filled for this world."""
    if not leaf_ready:
        fill_table_leaf(leaf, sim, rules, side, mode, scratch, sheet, nil_out)
    return table_value(sim, hands, -1, side, leaf, rules)


@kernel
def finish_plan(rules, solver_tricks):
    """The exact finishes of a decision with ``solver_tricks`` (0: none), from the table's
    shape, read here once per decision: ``FINISH_PAIRS`` at four in pairs, ``FINISH_TABLE`` at
    every other table of one deck, ``FINISH_NONE`` without (``exact_fits``)."""
    exact = solver_tricks > 0 and exact_fits(rules)
    return FINISH_NONE if not exact else (FINISH_PAIRS if solver_fits(rules) else FINISH_TABLE)


class Finish(NamedTuple):
    """What the exact finishes of one decision use (``finish_of``), and the scratch of its
    rollouts' scores."""

    plan: int
    """``FINISH_NONE``, ``FINISH_PAIRS`` or ``FINISH_TABLE`` (``finish_plan``)."""
    side: int
    """The searching seat's side, whose ``utility`` (read as ``mode``) is maximised."""
    mode: int
    tricks: int
    """The last this many tricks of a world are solved exactly."""
    ready: bool
    """The leaves hold every finish reachable from the decision (its bids were known): else
    each world fills them for its own bids."""
    leaf: np.ndarray
    """``fill_leaf``'s ``(14, 14, 14, 14)`` table (``FINISH_PAIRS``; one entry otherwise)."""
    leaf_n: np.ndarray
    """``fill_table_leaf``'s table (``FINISH_TABLE``; one entry otherwise)."""
    tt: np.ndarray
    """The transposition table of the decision (``FINISH_PAIRS``), a generation per search."""
    gen: np.ndarray
    stats: np.ndarray
    won: np.ndarray
    scratch: np.ndarray
    sheet: np.ndarray
    nil_out: np.ndarray


@kernel
def finish_of(pub, rules, side, mode, solver_tricks, ready):
    """The ``Finish`` of a decision at ``pub`` for ``side`` (``solver_tricks``: 0 for none;
    ``ready``: the bids are known, so the leaves are filled here once)."""
    plan = finish_plan(rules, solver_tricks)
    pairs = plan == FINISH_PAIRS
    f = Finish(plan, side, mode, solver_tricks, ready, np.empty((14, 14, 14, 14) if pairs else (1, 1, 1, 1)),
               np.empty(leaf_size(rules) if plan == FINISH_TABLE else 1),
               np.zeros(TT_WIDTH << SOLVER_TABLE_BITS if pairs else 0, dtype=np.uint64), np.zeros(1, dtype=np.int64),
               np.zeros(STATS, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(N_PUBLIC, dtype=np.int64),
               np.empty((n_sides(rules), N_FIELDS), dtype=np.int64), np.empty(n_seats(rules), dtype=np.int64))
    if ready:
        fill_finish_leaf(pub, rules, f)
    return f


@kernel
def no_finish(rules, side, mode):
    """The ``Finish`` of a decision without exact finishes (``FINISH_NONE``): the scratch of
    its rollouts' scores only, in a copy of the search that compiles no solver."""
    one = np.empty(1)
    return Finish(FINISH_NONE, side, mode, np.int64(0), False, one.reshape((1, 1, 1, 1)), one,
                  np.zeros(0, dtype=np.uint64), np.zeros(1, dtype=np.int64), np.zeros(STATS, dtype=np.int64),
                  np.empty(4, dtype=np.int64), np.empty(N_PUBLIC, dtype=np.int64),
                  np.empty((n_sides(rules), N_FIELDS), dtype=np.int64), np.empty(n_seats(rules), dtype=np.int64))


@kernel
def fill_finish_leaf(pub, rules, f):
    """Fill the leaf of ``f``'s plan for the hand of ``pub`` (bids all made)."""
    if f.plan == FINISH_PAIRS:
        fill_leaf(f.leaf, pub, rules, f.side, f.mode, f.scratch, f.sheet, f.nil_out)
    elif f.plan == FINISH_TABLE:
        fill_table_leaf(f.leaf_n, pub, rules, f.side, f.mode, f.scratch, f.sheet, f.nil_out)


@kernel
def exact_finish(sim, hands, rules, f):
    """The exact value to ``f.side`` of the world ``(sim, hands)`` between tricks, by the
    decision's plan (``f.plan`` not ``FINISH_NONE``), on the decision's leaves if ``f.ready``,
    else on this world's."""
    if f.plan == FINISH_TABLE:
        return table_finish(sim, hands, rules, f.side, f.mode, f.leaf_n, f.ready, f.scratch, f.sheet, f.nil_out)
    if not f.ready:
        fill_leaf(f.leaf, sim, rules, f.side, f.mode, f.scratch, f.sheet, f.nil_out)
    for s in range(n_seats(rules)):  # the four-in-pairs solver: four seats
        f.won[s] = sim[P_WON + s]
    return position_value(hands, sim[P_TO_ACT], f.won, sim[P_BROKEN] != 0, f.side, f.leaf, rules,
                          memo_of(f.tt, solver_generation(f.tt, f.gen), SOLVER_SHIFT, f.stats))
