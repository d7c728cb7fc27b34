"""ISMCTS: single-observer information-set Monte Carlo tree search, a research baseline.

The play follows Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree
Search" (SO-ISMCTS, the algorithm of the Spades app of Whitehouse et al.), in numba:

- one tree per decision, over the searching seat's information: a node is a sequence of cards
  played from the current position, whoever played them. The other seats' cards are tree moves
  too, chosen in the tree among the cards legal in the current determinization;
- every iteration draws a fresh determinization: a deal of the unseen cards that fits
  everything the seat has seen, exactly uniform (``sampling``), or, with
  ``bid_aware``, drawn from a pool of such deals with probability proportional to how well it
  explains the bids (``weights``: sampling-importance-resampling over as many
  uniform deals as there are iterations);
- selection descends while every move legal in the determinization has a child, by UCB with
  availability counts: a child's score is its mean reward to the side of the seat that plays
  it plus ``exploration * sqrt(ln(availability) / visits)``, where its availability counts the
  visits of its parent in which its card was legal (in that iteration's determinization), so a
  card the determinizations rarely allow is not starved. Children not legal in the
  determinization are skipped;
- expansion adds one untried legal card (drawn uniformly), the rollout policy (Normal by
  default; ``make_agent("ismcts", rollout=agent)`` binds any kernel agent through a bound
  copy of the Monte Carlo templates, as Hard's ``rollout=``) finishes the hand, and the
  reward is added to every node on the path;
- the card played is the root's most visited child (ties: the best mean).

The reward (``mode``, the agent's ``utility``) is a vector by default (``UTILITY_VECTOR``): every
side's ``utility`` read as ``mean`` (``utility_vector``), kept per side at every node, each seat
choosing by its own side's mean (max^n, the multi-player form of UCT). With a scalar reading
(``own``, ``paranoid``, ``mean``) a node keeps the searching side's value alone, which the other
sides minimize. At two sides (four in pairs) the two are the same search, choice for choice:
the other side's value is minus the searching side's, to the bit (``choosers``).

Cards of equal value are one move, as in Hard (``candidates.held_candidates``: in a suit, cards
with no card between them that may be in another hand or lies on the trick; the lowest stands
for the run), for every seat in its determinized hand; the copies of a card (several decks) are
one card id, so one move. The tree lives in preallocated arrays (one row per node,
at most one node per iteration plus the root; children as a linked list), so a decision
allocates ``O(iterations)`` memory once and nothing in the loop.

**Bids are not searched**: the item is the play. ISMCTS bids as Hard does (Monte Carlo over
``bid_worlds`` sampled deals, ``search.mc_bid``, bid-aware with ``bid_aware``), or, with
``bid_worlds=0``, as its rollout policy. Both follow ``rollout=``: the worlds of its bids are
played out by the same policy as those of its play. A blind nil is never bid.

This module is a template (see ``rollouts``): the policy comes from ``_binding``.
"""

import numpy as np

from spades_ai.engine.bits import ONE, U64, ZERO, lowest_index, popcount, select_bit
from spades_ai.engine.jit import kernel
from spades_ai.engine.rng import below
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.seats import cards_each, hand_slots, n_seats, n_sides, side_of
from spades_ai.engine.state import (
    N_PUBLIC, P_OWN2, P_OWN3, P_PHASE, P_TO_ACT, PHASE_PLAYING, apply_card, legal_now, upper_levels,
)
from spades_ai.kernels import decision_stream
from spades_ai.montecarlo.candidates import held_candidates
from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.montecarlo.tree import (
    NODE_AVAIL,
    NODE_CARD,
    NODE_CHILD,
    NODE_COLUMNS,
    NODE_KIDS,
    NODE_MOVER,
    NODE_NEXT,
    NODE_PARENT,
    NODE_VISITS,
    most_visited,
)
from spades_ai.montecarlo.utility import UTILITY_MEAN, UTILITY_VECTOR, utility, utility_vector
from spades_ai.montecarlo.weights import world_order, world_weights_kernel

from ._binding import rollout_bid
from .rollouts import rollout
from .search import SearchSettings, mc_bid


@kernel
def choosers(seat, rules, mode):
    """``(column, sign)`` of every seat: the tree value a seat chooses by and the sign it reads
    it with. ``UTILITY_VECTOR``: its own side's value, as it is (max^n). A scalar reading (the
    other modes): the one value, the searching ``seat``'s side's, maximized by that side and
    minimized by every other (paranoid in its form). At two sides the two agree: the other
    side's value is minus the first's."""
    n = n_seats(rules)
    column = np.zeros(n, dtype=np.int64)
    sign = np.ones(n)
    side = side_of(seat, rules)
    for p in range(n):
        if mode == UTILITY_VECTOR:
            column[p] = side_of(p, rules)
        elif side_of(p, rules) != side:
            sign[p] = -1.0
    return column, sign


@kernel
def tree_rewards(sim, rules, side, mode, sheet, nil_out, out):
    """The finished world ``sim``'s reward into ``out``: every side's (``utility_vector``) with
    ``UTILITY_VECTOR``, else ``side``'s ``utility`` read as ``mode`` in ``out[0]``."""
    if mode == UTILITY_VECTOR:
        utility_vector(sim, rules, sheet, nil_out, out)
    else:
        out[0] = utility(sim, rules, side, sheet, nil_out, mode)


@kernel
def seat_moves(sim, hs, p, rules):
    """The moves of seat ``p`` in the world ``hs``: its legal cards, one per class of equal
    value (``held_candidates``, its copies counted)."""
    h2, h3 = upper_levels(hs, p, rules)
    return held_candidates(sim, hs[p], h2, h3, legal_now(sim, hs[p], rules))


@kernel
def select_child(tree, value_sum, node, moves, untried, column, sign, exploration):
    """Count one availability for each child of ``node`` legal in ``moves``, and (when nothing
    is ``untried``) return the one of best UCB score read in ``value_sum[column]`` times
    ``sign``; -1 otherwise."""
    best = -1
    best_score = -np.inf
    c = tree[node, NODE_CHILD]
    while c >= 0:
        if (ONE << U64(tree[c, NODE_CARD])) & moves:
            tree[c, NODE_AVAIL] += 1
            if untried == ZERO:
                v = tree[c, NODE_VISITS]
                score = sign * value_sum[column, c] / v + exploration * np.sqrt(np.log(tree[c, NODE_AVAIL]) / v)
                if score > best_score:
                    best, best_score = c, score
        c = tree[c, NODE_NEXT]
    return best


@kernel
def add_child(tree, node, new, card, mover):
    """Write row ``new``: the child of ``node`` reached by ``mover`` playing ``card``."""
    tree[new, NODE_PARENT] = node
    tree[new, NODE_CARD] = card
    tree[new, NODE_MOVER] = mover
    tree[new, NODE_VISITS] = 0
    tree[new, NODE_AVAIL] = 1
    tree[new, NODE_CHILD] = -1
    tree[new, NODE_NEXT] = tree[node, NODE_CHILD]
    tree[new, NODE_KIDS] = 0
    tree[node, NODE_CHILD] = new
    tree[node, NODE_KIDS] = np.int64(U64(tree[node, NODE_KIDS]) | (ONE << U64(card)))


@kernel
def tree_search(pub, seat, hand, rules, worlds, order, exploration, state, mode=UTILITY_VECTOR):
    """Run one iteration per entry of ``order`` (iteration ``i`` is played in the world
    ``worlds[order[i]]``) from the position ``pub`` with ``seat`` to play, the rewards read as
    ``mode`` (``TREE_UTILITIES``' number).

    Returns ``(tree, value_sum, n_nodes, state)``: the rows ``0 .. n_nodes - 1`` of the tree
    (columns ``NODE_*``; row 0 is the root) and each node's summed rewards, ``value_sum[k,
    node]``: with ``UTILITY_VECTOR`` side ``k``'s, else (``k = 0`` only) ``seat``'s side's.
    """
    n_iter = len(order)
    tree = np.empty((n_iter + 1, NODE_COLUMNS), dtype=np.int64)
    value_sum = np.zeros((n_sides(rules) if mode == UTILITY_VECTOR else 1, n_iter + 1))
    tree[0, :] = 0
    tree[0, NODE_PARENT] = tree[0, NODE_CARD] = tree[0, NODE_MOVER] = tree[0, NODE_CHILD] = tree[0, NODE_NEXT] = -1
    n_nodes = 1
    side = side_of(seat, rules)
    column, sign = choosers(seat, rules, mode)
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hs = np.empty(hand_slots(rules), dtype=np.uint64)
    sheet = np.empty((n_sides(rules), N_FIELDS), dtype=np.int64)
    nil_out = np.empty(n_seats(rules), dtype=np.int64)
    reward = np.empty(len(value_sum))
    path = np.empty(n_seats(rules) * cards_each(rules) + 1, dtype=np.int64)
    for it in range(n_iter):
        sim[:] = pub
        hs[:] = worlds[order[it]]
        node = 0
        path[0] = 0
        depth = 1
        while sim[P_PHASE] == PHASE_PLAYING:
            p = sim[P_TO_ACT]
            moves = seat_moves(sim, hs, p, rules)
            untried = moves & ~U64(tree[node, NODE_KIDS])
            best = select_child(tree, value_sum, node, moves, untried, column[p], sign[p], exploration)
            if untried != ZERO:
                state, r = below(state, popcount(untried))
                card = lowest_index(select_bit(untried, r))
                add_child(tree, node, n_nodes, card, p)
                apply_card(sim, hs, card, rules)
                path[depth] = n_nodes
                depth += 1
                n_nodes += 1
                break
            node = best
            path[depth] = node
            depth += 1
            apply_card(sim, hs, tree[node, NODE_CARD], rules)
        rollout(sim, hs, rules)
        tree_rewards(sim, rules, side, mode, sheet, nil_out, reward)
        for d in range(depth):
            tree[path[d], NODE_VISITS] += 1
            for k in range(len(reward)):
                value_sum[k, path[d]] += reward[k]
    return tree, value_sum, n_nodes, state


@kernel
def ismcts_play(pub, seat, hand, rules, legal, iterations, exploration, bid_aware, state, mode=UTILITY_VECTOR):
    """The card (an id) chosen by ``iterations`` iterations of SO-ISMCTS from this observation
    (the seat's view ``pub``: its copies in ``P_OWN2`` / ``P_OWN3``), rewards read as ``mode``."""
    cands = held_candidates(pub, hand, U64(pub[P_OWN2]), U64(pub[P_OWN3]), legal)
    if popcount(cands) == 1:
        return lowest_index(cands)
    state, worlds = sample_worlds_kernel(state, pub, seat, hand, rules, iterations)
    if bid_aware:
        weights, _ = world_weights_kernel(pub, seat, worlds, iterations, rules)
        order, state = world_order(weights, iterations, state)
    else:
        order = np.arange(iterations)
    tree, value_sum, _, state = tree_search(pub, seat, hand, rules, worlds, order, exploration, state, mode)
    root = side_of(seat, rules) if mode == UTILITY_VECTOR else 0
    return most_visited(tree, value_sum[root])


# -- the kernel agent (spades_ai.kernels): params = ISMCTS_PARAMS -------------------------------
ISMCTS_PARAMS = ("seed", "iterations", "exploration_milli", "bid_aware", "bid_worlds", "utility")
IS_SEED, IS_ITERATIONS, IS_EXPLORATION, IS_BID_AWARE, IS_BID_WORLDS, IS_UTILITY = range(6)


@kernel
def ismcts_agent_bid(pub, seat, hand, legal, rules, params):
    if hand == ZERO:
        return 0  # asked about a blind nil: look at the cards first
    if params[IS_BID_WORLDS] == 0:
        return rollout_bid(pub, seat, hand, legal, rules)
    state = decision_stream(params[IS_SEED], pub, seat, hand)
    # the bids' Monte Carlo values the seat's side alone: a vector reads it as its own component
    mode = UTILITY_MEAN if params[IS_UTILITY] == UTILITY_VECTOR else params[IS_UTILITY]
    settings = SearchSettings(params[IS_BID_WORLDS], 0, params[IS_BID_AWARE] != 0, 0, 0.0, False, 0.0, mode, params, 0)
    return mc_bid(pub, seat, hand, rules, legal, settings, state, np.empty(0))[0]


@kernel
def ismcts_agent_play(pub, seat, hand, legal, rules, params):
    state = decision_stream(params[IS_SEED], pub, seat, hand)
    return ismcts_play(pub, seat, hand, rules, legal, params[IS_ITERATIONS], params[IS_EXPLORATION] / 1000.0,
                       params[IS_BID_AWARE] != 0, state, params[IS_UTILITY])


#: What ``ismcts_decide`` decides: a card, or a bid (a blind nil when ``hand`` is empty).
IS_DECIDE_CARD, IS_DECIDE_BID = 0, 1


@kernel
def ismcts_decide(pub, seat, hand, legal, rules, params, what):
    """The agent's decision ``what`` (``IS_DECIDE_*``; ``legal``: the legal bids, or the legal
    cards' bits as an int64), as ``ismcts_agent_bid`` / ``ismcts_agent_play`` decide it in the
    self-play loop. The agent's Python face calls this one kernel, so that the sampler, the
    rollouts and the rollout policy the two share are compiled and emitted once for Python."""
    if what == IS_DECIDE_CARD:
        return ismcts_agent_play(pub, seat, hand, U64(legal), rules, params)
    return ismcts_agent_bid(pub, seat, hand, legal, rules, params)
