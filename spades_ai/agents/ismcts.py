"""ISMCTS: single-observer information-set Monte Carlo tree search, a research baseline.

The play follows Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree
Search" (SO-ISMCTS, the algorithm of the Spades app of Whitehouse et al.), in numba:

- one tree per decision, over the searching seat's information: a node is a sequence of cards
  played from the current position, whoever played them. The other seats' cards are tree moves
  too, chosen in the tree among the cards legal in the current determinization;
- every iteration draws a fresh determinization: a deal of the unseen cards that fits
  everything the seat has seen, exactly uniform (``hard.sample_worlds``), or, with
  ``bid_aware``, drawn from a pool of such deals with probability proportional to how well it
  explains the bids (``hard.world_weights``: sampling-importance-resampling over as many
  uniform deals as there are iterations);
- selection descends while every move legal in the determinization has a child, by UCB with
  availability counts: a child's score is its mean reward (to the team of the seat that plays
  it) plus ``exploration * sqrt(ln(availability) / visits)``, where its availability counts the
  visits of its parent in which its card was legal (in that iteration's determinization), so a
  card the determinizations rarely allow is not starved. Children not legal in the
  determinization are skipped;
- expansion adds one untried legal card (drawn uniformly), the rollout policy (Normal by
  default; ``make_agent("ismcts", rollout=agent)`` binds any kernel agent through a
  specialised copy of this module, as Hard's ``rollout=``) finishes the hand, and the
  reward, Hard's ``utility`` (point difference with bags at their real cost and the match's
  end) to the searching seat's team, is added to every node on the path;
- the card played is the root's most visited child (ties: the best mean).

Cards of equal value are one move, as in Hard (``hard.play_candidates``: in a suit, cards with
only cards of the same hand or played cards between them; the lowest stands for the run), for
every seat in its determinized hand. The tree lives in preallocated arrays (one row per node,
at most one node per iteration plus the root; children as a linked list), so a decision
allocates ``O(iterations)`` memory once and nothing in the loop.

**Bids are not searched**: the item is the play. ISMCTS bids as Hard does (Monte Carlo over
``bid_worlds`` sampled deals with Normal rollouts, ``hard.mc_bid``, bid-aware with
``bid_aware``), or, with ``bid_worlds=0``, as Normal. A blind nil is never bid.
"""

import numpy as np

from spades_ai.agents.hard import mc_bid, play_candidates, sample_worlds, utility, world_weights
from spades_ai.agents.normal import normal_agent_bid
from spades_ai.engine.bits import ONE, U64, ZERO, lowest_index, popcount, select_bit
from spades_ai.engine.jit import kernel
from spades_ai.engine.rng import below, next_u64
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.state import N_PUBLIC, P_PHASE, P_TO_ACT, PHASE_PLAYING, apply_card, legal_now
from spades_ai.kernels import decision_stream

# codegen replaces the lines between the markers below: keep them out of import sorting.
# isort: off
# -- rollout policy: a kernel agent's bid and play (spades_ai.kernels) -------------------------
# A specialised copy of this module, made by spades_ai.agents.codegen for
# make_agent("ismcts", rollout=agent), replaces the lines between these markers.
from spades_ai.agents.normal import normal_agent_bid as rollout_bid  # noqa: E402, F401
from spades_ai.agents.normal import normal_agent_play as rollout_play  # noqa: E402

# -- end of rollout policy ---------------------------------------------------------------------
# isort: on

# The tree: one int64 row per node (columns below) and its summed reward in a float64 array.
#   T_PARENT  the parent's row (-1 at the root)     T_CARD   the card played to reach it
#   T_MOVER   the seat that played that card         T_VISITS iterations through it
#   T_AVAIL   its parent's visits in which its card was legal (availability)
#   T_CHILD   the first child's row (-1: none)      T_NEXT   the next sibling's row (-1: last)
#   T_KIDS    the cards of its children (a uint64 mask stored as int64)
T_PARENT, T_CARD, T_MOVER, T_VISITS, T_AVAIL, T_CHILD, T_NEXT, T_KIDS = range(8)
T_COLUMNS = 8


@kernel
def playout(pub, hands, rules):
    """Finish the play from any point with the rollout policy at every seat. An illegal card
    of the policy raises rather than corrupting the world."""
    while pub[P_PHASE] == PHASE_PLAYING:
        seat = pub[P_TO_ACT]
        legal = legal_now(pub, hands[seat], rules)
        card = rollout_play(pub, seat, hands[seat], legal, rules)
        if card < 0 or card > 55 or not (legal >> U64(card)) & ONE:
            raise ValueError("the rollout policy played an illegal card")
        apply_card(pub, hands, card, rules)


@kernel
def world_order(weights, n, state):
    """``n`` indices into the weighted pool of worlds, each drawn with probability proportional
    to its weight (multinomial resampling); and the advanced stream."""
    cum = np.cumsum(weights)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        state, x = next_u64(state)
        u = (x >> U64(11)) * (1.0 / 9007199254740992.0) * cum[-1]  # uniform in [0, total)
        out[i] = min(np.searchsorted(cum, u, side="right"), len(cum) - 1)
    return out, state


@kernel
def search(pub, seat, hand, rules, worlds, order, exploration, state):
    """Run one iteration per entry of ``order`` (iteration ``i`` is played in the world
    ``worlds[order[i]]``) from the position ``pub`` with ``seat`` to play.

    Returns ``(tree, reward_sum, n_nodes, state)``: the rows ``0 .. n_nodes - 1`` of the tree
    (columns ``T_*``; row 0 is the root) and each node's summed reward to ``seat``'s team.
    """
    n_iter = len(order)
    tree = np.empty((n_iter + 1, T_COLUMNS), dtype=np.int64)
    reward_sum = np.zeros(n_iter + 1)
    tree[0, :] = 0
    tree[0, T_PARENT] = -1
    tree[0, T_CARD] = -1
    tree[0, T_MOVER] = -1
    tree[0, T_CHILD] = -1
    tree[0, T_NEXT] = -1
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
            untried = moves & ~U64(tree[node, T_KIDS])
            sign = 1.0 if (p & 1) == team else -1.0
            best = -1
            best_score = -np.inf
            c = tree[node, T_CHILD]
            while c >= 0:
                if (ONE << U64(tree[c, T_CARD])) & moves:
                    tree[c, T_AVAIL] += 1
                    if untried == ZERO:
                        v = tree[c, T_VISITS]
                        score = sign * reward_sum[c] / v + exploration * np.sqrt(np.log(tree[c, T_AVAIL]) / v)
                        if score > best_score:
                            best, best_score = c, score
                c = tree[c, T_NEXT]
            if untried != ZERO:
                state, r = below(state, popcount(untried))
                card = lowest_index(select_bit(untried, r))
                new = n_nodes
                n_nodes += 1
                tree[new, T_PARENT] = node
                tree[new, T_CARD] = card
                tree[new, T_MOVER] = p
                tree[new, T_VISITS] = 0
                tree[new, T_AVAIL] = 1
                tree[new, T_CHILD] = -1
                tree[new, T_NEXT] = tree[node, T_CHILD]
                tree[new, T_KIDS] = 0
                tree[node, T_CHILD] = new
                tree[node, T_KIDS] = np.int64(U64(tree[node, T_KIDS]) | (ONE << U64(card)))
                apply_card(sim, hs, card, rules)
                path[depth] = new
                depth += 1
                break
            node = best
            path[depth] = node
            depth += 1
            apply_card(sim, hs, tree[node, T_CARD], rules)
        playout(sim, hs, rules)
        reward = utility(sim, rules, team, sheet, nil_out)
        for d in range(depth):
            tree[path[d], T_VISITS] += 1
            reward_sum[path[d]] += reward
    return tree, reward_sum, n_nodes, state


@kernel
def most_visited(tree, reward_sum):
    """The card of the root's most visited child (ties: the higher mean, then the lower card)."""
    best = -1
    c = tree[0, T_CHILD]
    while c >= 0:
        if best < 0:
            best = c
        else:
            v, bv = tree[c, T_VISITS], tree[best, T_VISITS]
            if v > bv or (v == bv and reward_sum[c] > reward_sum[best]) or (
                v == bv and reward_sum[c] == reward_sum[best] and tree[c, T_CARD] < tree[best, T_CARD]
            ):
                best = c
        c = tree[c, T_NEXT]
    return tree[best, T_CARD]


@kernel
def ismcts_play(pub, seat, hand, rules, legal, iterations, exploration, bid_aware, state):
    """The card (an id) chosen by ``iterations`` iterations of SO-ISMCTS from this observation."""
    cands = play_candidates(pub, hand, legal)
    if popcount(cands) == 1:
        return lowest_index(cands)
    state, worlds = sample_worlds(state, pub, seat, hand, rules, iterations)
    if bid_aware:
        weights, _ = world_weights(pub, seat, worlds, iterations, rules)
        order, state = world_order(weights, iterations, state)
    else:
        order = np.arange(iterations)
    tree, reward_sum, _, state = search(pub, seat, hand, rules, worlds, order, exploration, state)
    return most_visited(tree, reward_sum)


# -- the kernel agent (spades_ai.kernels): params = ISMCTS_PARAMS -------------------------------
ISMCTS_PARAMS = ("seed", "iterations", "exploration_milli", "bid_aware", "bid_worlds")
P_IS_SEED, P_IS_ITERATIONS, P_IS_EXPLORATION, P_IS_BID_AWARE, P_IS_BID_WORLDS = range(5)


@kernel
def ismcts_agent_bid(pub, seat, hand, legal, rules, params):
    if hand == ZERO:
        return 0  # asked about a blind nil: look at the cards first
    if params[P_IS_BID_WORLDS] == 0:
        return normal_agent_bid(pub, seat, hand, legal, rules)
    state = decision_stream(params[P_IS_SEED], pub, seat, hand)
    return mc_bid(pub, seat, hand, rules, legal, params[P_IS_BID_WORLDS], 0, params[P_IS_BID_AWARE] != 0, state, 0, 0.0)[0]


@kernel
def ismcts_agent_play(pub, seat, hand, legal, rules, params):
    state = decision_stream(params[P_IS_SEED], pub, seat, hand)
    return ismcts_play(pub, seat, hand, rules, legal, params[P_IS_ITERATIONS], params[P_IS_EXPLORATION] / 1000.0,
                       params[P_IS_BID_AWARE] != 0, state)
