"""The selection statistics: from a table of values (world by candidate) to the choice.

``anchored_choice`` keeps the rollout policy's choice unless another candidate is clearly better
(paired world by world, ``ANCHOR_Z`` standard errors): picking the largest of several noisy means
favours the luckiest estimate. Racing (``race_drop``) stops playing worlds with a candidate
clearly worse than the leader (``RACE_Z``, checked after ``RACE_BATCH`` worlds and then every
quarter more). Thrift (``thrifty_choice``) replaces a card by the cheapest one with the same
effect on the current trick (``trick_effect``) unless the dearer one clearly gains.
"""

import numpy as np

from spades_ai.engine.bits import ONE, RANK_OF, SUIT_MASK, U64, ZERO, popcount, suit_of
from spades_ai.engine.jit import kernel
from spades_ai.engine.seats import n_seats, partner, side_of
from spades_ai.engine.state import P_BIDS, P_DECK, P_PLAYED, P_TRICK_LEN
from spades_ai.kernels import equal_cards_last
from spades_ai.policies.tactics import trick_status, winners_over

#: How many standard errors a candidate must beat the anchor by (see ``anchored_choice``).
ANCHOR_Z = 2.0
#: Racing: a candidate this many standard errors of the paired difference below the leader
#: stops playing worlds (``race_drop``); the first check after ``RACE_BATCH`` worlds, then
#: every quarter more worlds, at least ``RACE_BATCH`` more.
RACE_Z = 3.0
RACE_BATCH = 32

@kernel
def weight_sums(weights, n):
    """``(sum, sum of squares)`` of the first ``n`` world weights, summed in order (as compiled
    ``weights.sum()`` does: numpy's own sum, run when the JIT is off, adds pairwise, which can
    change the last bits and so, rarely, a decision)."""
    w_sum = 0.0
    w2_sum = 0.0
    for i in range(n):
        w_sum += weights[i]
        w2_sum += weights[i] * weights[i]
    return w_sum, w2_sum



@kernel
def paired_advantage(values, weights, n, a, b, w_sum, n_eff):
    """``(mean, standard error)`` of candidate ``a``'s advantage over ``b``, paired world by
    world over the first ``n`` worlds, weighted (``w_sum`` and the effective count ``n_eff``
    from ``weight_sums``)."""
    mean = 0.0
    for i in range(n):
        mean += weights[i] * (values[i, a] - values[i, b])
    mean /= w_sum
    var = 0.0
    for i in range(n):
        d = values[i, a] - values[i, b] - mean
        var += weights[i] * d * d
    var /= w_sum
    return mean, np.sqrt(var / max(n_eff - 1.0, 1.0))



@kernel
def anchored_choice(values, weights, anchor, z):
    """Index of the candidate to play: the anchor (Normal's choice) unless another candidate's
    weighted mean advantage over it, paired world by world, exceeds ``z`` standard errors.

    Picking the largest of several noisy means favours the luckiest estimate (the winner's
    curse): with few worlds Hard would bid and play wildly. Anchoring on Normal's choice makes
    a small budget fall back to Normal rather than below it.
    """
    n, k = values.shape
    w_sum, w2_sum = weight_sums(weights, n)
    n_eff = w_sum * w_sum / w2_sum
    best = anchor
    best_mean = 0.0
    for j in range(k):
        if j == anchor:
            continue
        mean, se = paired_advantage(values, weights, n, j, anchor, w_sum, n_eff)
        if mean - z * se > 0.0 and mean > best_mean:
            best, best_mean = j, mean
    return best



@kernel
def trick_effect(pub, seat, hand, card, rules):
    """The effect of ``card`` on the current trick, as a number (equal numbers: the same
    effect; ``experiments/waste.py`` states the definition and tests it):
    last to play, the side that wins the trick, or the seat when that side has a nil bidder;
    earlier, 0 if the card does not beat the trick so far, otherwise its suit and how many
    cards a later seat may hold above it in that suit."""
    n = pub[P_TRICK_LEN]
    last = n_seats(rules) - 1
    win, win_seat, led = trick_status(pub)
    beats = n == 0 or winners_over(ONE << U64(card), win, led, equal_cards_last(rules)) != ZERO
    if n == last:
        w = seat if beats else win_seat
        t = side_of(w, rules)
        p = partner(w, rules)
        if pub[P_BIDS + w] == 0 or (p >= 0 and pub[P_BIDS + p] == 0):
            return 100 + w
        return 200 + t
    if not beats:
        return 0
    unseen = U64(pub[P_DECK]) & ~(hand | U64(pub[P_PLAYED]))
    suit = suit_of(card)
    above = popcount(unseen & SUIT_MASK[suit] & ~((ONE << U64(card + 1)) - ONE))
    return 300 + 14 * suit + above



@kernel
def thrift_cost(card):
    """What playing ``card`` spends: any spade (or lane card) costs more than any side card;
    within each, by rank."""
    return (suit_of(card) == 3) * 100 + RANK_OF[card]



@kernel
def thrifty_choice(values, weights, alive, ids, chosen, pub, seat, hand, rules, z):
    """Keep the gains, drop the noise: the cheapest candidate with the same effect on the
    current trick as ``chosen`` (``trick_effect``; cheaper: lower in the same suit, or a side
    card for a spade) whose value is not clearly below the chosen one's (the chosen card's mean
    advantage, paired world by world, under ``z`` standard errors); ``chosen`` if there is none.
    A dearer card is played only where the rollouts show it gains."""
    n = values.shape[0]
    c = ids[chosen]
    eff = trick_effect(pub, seat, hand, c, rules)
    w_sum, w2_sum = weight_sums(weights, n)
    n_eff = w_sum * w_sum / w2_sum
    best = chosen
    best_cost = thrift_cost(ids[chosen])
    for j in range(len(ids)):
        a = ids[j]
        if j == chosen or not alive[j]:
            continue
        if not ((suit_of(a) == suit_of(c) and a < c) or (suit_of(c) == 3 and suit_of(a) != 3)):
            continue
        cost = thrift_cost(a)
        if cost >= best_cost or trick_effect(pub, seat, hand, a, rules) != eff:
            continue
        mean, se = paired_advantage(values, weights, n, chosen, j, w_sum, n_eff)
        if mean <= z * se:
            best, best_cost = j, cost
    return best



@kernel
def worlds_for(n_worlds, max_rollouts, n_candidates):
    """Worlds to sample: ``n_worlds``, fewer when ``max_rollouts`` (if > 0) caps the playouts
    (one per world and candidate) of a decision with many candidates."""
    if max_rollouts > 0:
        return max(1, min(n_worlds, max_rollouts // n_candidates))
    return n_worlds



@kernel
def race_drop(values, weights, n_done, alive, anchor, z):
    """Racing: after the first ``n_done`` worlds, drop (``alive[j] = False``) every candidate
    whose weighted mean is below the leader's (the alive candidate with the best mean so far)
    by more than ``z`` standard errors of the paired difference, world by world. Returns the
    anchor for ``anchored_choice``: ``anchor``, or the leader if the anchor was dropped (the
    leader beat it clearly, so it stands in for it: another candidate must beat the leader
    clearly to be played)."""
    k = values.shape[1]
    w_sum, w2_sum = weight_sums(weights, n_done)
    if w_sum <= 0.0:
        return anchor
    n_eff = w_sum * w_sum / w2_sum
    leader = -1
    best = -np.inf
    for j in range(k):
        if alive[j]:
            m = 0.0
            for i in range(n_done):
                m += weights[i] * values[i, j]
            if m > best:
                leader, best = j, m
    for j in range(k):
        if not alive[j] or j == leader:
            continue
        mean, se = paired_advantage(values, weights, n_done, leader, j, w_sum, n_eff)
        if mean > z * se:
            alive[j] = False
    return anchor if alive[anchor] else leader



@kernel
def next_race_check(n_done):
    """The world count of the next racing check: every quarter more worlds, at least
    ``RACE_BATCH`` more (checks at 32, 64, 96, 128, 160, 200, 250, ...)."""
    return n_done + max(RACE_BATCH, n_done // 4)



@kernel
def raced_choice(values, weights, alive, anchor, z):
    """``anchored_choice`` among the candidates still ``alive`` after a race (all of them
    played every row of ``values``); an index into the full candidate list. ``anchor`` is
    alive (``race_drop`` keeps it so)."""
    n, k = values.shape
    n_alive = 0
    for j in range(k):
        if alive[j]:
            n_alive += 1
    if n_alive == k:
        return anchored_choice(values, weights, anchor, z)
    idx = np.empty(n_alive, dtype=np.int64)
    sub = np.empty((n, n_alive))
    a = 0
    m = 0
    for j in range(k):
        if alive[j]:
            if j == anchor:
                a = m
            idx[m] = j
            for i in range(n):
                sub[i, m] = values[i, j]
            m += 1
    return idx[anchored_choice(sub, weights, a, z)]

