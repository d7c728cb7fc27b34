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
  availability counts: a child's score is its mean reward (to the team of the seat that plays
  it) plus ``exploration * sqrt(ln(availability) / visits)``, where its availability counts the
  visits of its parent in which its card was legal (in that iteration's determinization), so a
  card the determinizations rarely allow is not starved. Children not legal in the
  determinization are skipped;
- expansion adds one untried legal card (drawn uniformly), the rollout policy (Normal by
  default; ``make_agent("ismcts", rollout=agent)`` binds any kernel agent through a bound
  copy of the Monte Carlo templates, as Hard's ``rollout=``) finishes the hand, and the
  reward, the search's ``utility`` (point difference with bags at their real cost and the match's
  end) to the searching seat's team, is added to every node on the path;
- the card played is the root's most visited child (ties: the best mean).

Cards of equal value are one move, as in Hard (``candidates.play_candidates``: in a suit, cards with
only cards of the same hand or played cards between them; the lowest stands for the run), for
every seat in its determinized hand. The tree lives in preallocated arrays (one row per node,
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
from spades_ai.engine.state import N_PUBLIC, P_PHASE, P_TO_ACT, PHASE_PLAYING, apply_card, legal_now
from spades_ai.kernels import decision_stream
from spades_ai.montecarlo.candidates import play_candidates
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
from spades_ai.montecarlo.utility import UTILITY_PARANOID, utility
from spades_ai.montecarlo.weights import world_order, world_weights_kernel

from ._binding import rollout_bid
from .rollouts import rollout
from .search import SearchSettings, mc_bid


@kernel
def tree_search(pub, seat, hand, rules, worlds, order, exploration, state):
    """Run one iteration per entry of ``order`` (iteration ``i`` is played in the world
    ``worlds[order[i]]``) from the position ``pub`` with ``seat`` to play.

    Returns ``(tree, reward_sum, n_nodes, state)``: the rows ``0 .. n_nodes - 1`` of the tree
    (columns ``NODE_*``; row 0 is the root) and each node's summed reward to ``seat``'s team.
    """
    n_iter = len(order)
    tree = np.empty((n_iter + 1, NODE_COLUMNS), dtype=np.int64)
    reward_sum = np.zeros(n_iter + 1)
    tree[0, :] = 0
    tree[0, NODE_PARENT] = -1
    tree[0, NODE_CARD] = -1
    tree[0, NODE_MOVER] = -1
    tree[0, NODE_CHILD] = -1
    tree[0, NODE_NEXT] = -1
    n_nodes = 1
    team = seat & 1
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hs = np.empty(4, dtype=np.uint64)
    sheet = np.empty((2, N_FIELDS), dtype=np.int64)
    nil_out = np.empty(4, dtype=np.int64)
    path = np.empty(53, dtype=np.int64)
    for it in range(n_iter):
        sim[:] = pub
        hs[:] = worlds[order[it]]
        node = 0
        depth = 0
        path[depth] = 0
        depth += 1
        while sim[P_PHASE] == PHASE_PLAYING:
            p = sim[P_TO_ACT]
            moves = play_candidates(sim, hs[p], legal_now(sim, hs[p], rules))
            untried = moves & ~U64(tree[node, NODE_KIDS])
            sign = 1.0 if (p & 1) == team else -1.0
            best = -1
            best_score = -np.inf
            c = tree[node, NODE_CHILD]
            while c >= 0:
                if (ONE << U64(tree[c, NODE_CARD])) & moves:
                    tree[c, NODE_AVAIL] += 1
                    if untried == ZERO:
                        v = tree[c, NODE_VISITS]
                        score = sign * reward_sum[c] / v + exploration * np.sqrt(np.log(tree[c, NODE_AVAIL]) / v)
                        if score > best_score:
                            best, best_score = c, score
                c = tree[c, NODE_NEXT]
            if untried != ZERO:
                state, r = below(state, popcount(untried))
                card = lowest_index(select_bit(untried, r))
                new = n_nodes
                n_nodes += 1
                tree[new, NODE_PARENT] = node
                tree[new, NODE_CARD] = card
                tree[new, NODE_MOVER] = p
                tree[new, NODE_VISITS] = 0
                tree[new, NODE_AVAIL] = 1
                tree[new, NODE_CHILD] = -1
                tree[new, NODE_NEXT] = tree[node, NODE_CHILD]
                tree[new, NODE_KIDS] = 0
                tree[node, NODE_CHILD] = new
                tree[node, NODE_KIDS] = np.int64(U64(tree[node, NODE_KIDS]) | (ONE << U64(card)))
                apply_card(sim, hs, card, rules)
                path[depth] = new
                depth += 1
                break
            node = best
            path[depth] = node
            depth += 1
            apply_card(sim, hs, tree[node, NODE_CARD], rules)
        rollout(sim, hs, rules)
        # the tree scores the searching side against every other as one (``sign``): paranoid
        reward = utility(sim, rules, team, sheet, nil_out, UTILITY_PARANOID)
        for d in range(depth):
            tree[path[d], NODE_VISITS] += 1
            reward_sum[path[d]] += reward
    return tree, reward_sum, n_nodes, state



@kernel
def ismcts_play(pub, seat, hand, rules, legal, iterations, exploration, bid_aware, state):
    """The card (an id) chosen by ``iterations`` iterations of SO-ISMCTS from this observation."""
    cands = play_candidates(pub, hand, legal)
    if popcount(cands) == 1:
        return lowest_index(cands)
    state, worlds = sample_worlds_kernel(state, pub, seat, hand, rules, iterations)
    if bid_aware:
        weights, _ = world_weights_kernel(pub, seat, worlds, iterations, rules)
        order, state = world_order(weights, iterations, state)
    else:
        order = np.arange(iterations)
    tree, reward_sum, _, state = tree_search(pub, seat, hand, rules, worlds, order, exploration, state)
    return most_visited(tree, reward_sum)



# -- the kernel agent (spades_ai.kernels): params = ISMCTS_PARAMS -------------------------------
ISMCTS_PARAMS = ("seed", "iterations", "exploration_milli", "bid_aware", "bid_worlds")
IS_SEED, IS_ITERATIONS, IS_EXPLORATION, IS_BID_AWARE, IS_BID_WORLDS = range(5)


@kernel
def ismcts_agent_bid(pub, seat, hand, legal, rules, params):
    if hand == ZERO:
        return 0  # asked about a blind nil: look at the cards first
    if params[IS_BID_WORLDS] == 0:
        return rollout_bid(pub, seat, hand, legal, rules)
    state = decision_stream(params[IS_SEED], pub, seat, hand)
    settings = SearchSettings(params[IS_BID_WORLDS], 0, params[IS_BID_AWARE] != 0, 0, 0.0, False, 0.0, UTILITY_PARANOID,
                              params, 0)
    return mc_bid(pub, seat, hand, rules, legal, settings, state, np.empty(0))[0]


@kernel
def ismcts_agent_play(pub, seat, hand, legal, rules, params):
    state = decision_stream(params[IS_SEED], pub, seat, hand)
    return ismcts_play(pub, seat, hand, rules, legal, params[IS_ITERATIONS], params[IS_EXPLORATION] / 1000.0,
                       params[IS_BID_AWARE] != 0, state)
