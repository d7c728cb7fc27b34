"""World weights: how well each sampled world explains what the other seats did.

Crazy weighs each world by the likelihood of every known bid of the other seats given the hand
each holds there (``bid_log_likelihood``: Normal's count with Gaussian noise, on the table's
scale and with every copy of a card counted, as Normal bids there; a nil asks for a nil-safe
hand) and, when it reads the play, of the cards they played (``reading``). When the
weights collapse (effective sample size below ``min(n / 4, 32)``) they are tempered toward
uniform and the decision counts as a fallback. ``world_order`` resamples a pool of worlds by
weight (ISMCTS's determinizations).
"""

import numpy as np

from spades_ai.engine.bits import U64, ZERO
from spades_ai.engine.copies import levels_sum
from spades_ai.engine.jit import kernel
from spades_ai.engine.rng import next_u64
from spades_ai.engine.seats import n_decks, n_seats, next_seat, partner
from spades_ai.engine.state import (
    P_BIDS, P_BLIND, P_PHASE, P_PLAYED_BY, P_PLAYED_BY2, P_PLAYED_BY3, PHASE_PLAYING, upper_levels,
)
from spades_ai.montecarlo.reading import play_log_likelihood
from spades_ai.montecarlo.sampling import revealed_spades
from spades_ai.policies.normal import bid_target, nil_safe_at, nil_table, table_estimate, table_tricks

BID_SIGMA = 1.2
#: Bid-aware weights keep at least this many effective worlds (or a quarter of them).
MIN_EFFECTIVE_WORLDS = 32.0

@kernel
def bid_log_likelihood(bid, hand, rules, paired=False, hand2=ZERO, hand3=ZERO):
    """log P(bid | hand) under the bidding model: Normal's count for the table with Gaussian
    noise, as Normal bids there (``normal.table_tricks`` on the four-player scale,
    ``table_estimate``, along its ``bid_target``; ``paired``: the bidder has a partner), every
    copy of a card counted (``hand2``, ``hand3``: the hand's levels with several decks); a nil
    asks for a hand nil-safe at the table (``nil_table``). At four players in pairs the
    four-player count and nil test themselves."""
    seats = n_seats(rules)
    est = table_estimate(table_tricks(hand, rules, hand2, hand3), seats, paired)
    if bid == 0:
        safe = nil_safe_at(hand, hand2, hand3, nil_table(rules), n_decks(rules))
        return np.log(0.9) if safe and est < 2.0 else np.log(0.03)
    d = (bid - 0.1 - bid_target(est, seats, paired)) / BID_SIGMA
    return -0.5 * d * d


@kernel
def dealt_levels(pub, world, o, rules):
    """The levels of the cards seat ``o`` was dealt in ``world`` (a row of hands,
    ``world[k * N + o]``): those it holds there plus those it has played."""
    h2, h3 = upper_levels(world, o, rules)
    return levels_sum(world[o], h2, h3, U64(pub[P_PLAYED_BY + o]), U64(pub[P_PLAYED_BY2 + o]),
                      U64(pub[P_PLAYED_BY3 + o]))



@kernel
def effective_worlds(logw, t):
    """Effective sample size of the weights ``exp(t * logw)`` (``logw`` has maximum 0)."""
    s1 = 0.0
    s2 = 0.0
    for x in logw:
        w = np.exp(t * x)
        s1 += w
        s2 += w * w
    return s1 * s1 / s2



@kernel
def world_weights_kernel(pub, seat, worlds, n, rules, bids=True, play_eps=0.0, play_model=None, play_model_at=0):
    """Bid-aware weights of ``n`` sampled worlds (rows of ``worlds``); returns (weights, tempered).

    Each world is weighted by the likelihood of every known, non-blind bid of the other seats
    given that seat's hand in the world (the cards it holds there plus those it has played,
    copies counted: ``dealt_levels``).
    A bid that states a spade count (mirror, whiz) is skipped: the sampler already holds every
    world to it exactly. ``bids=False`` leaves the bids out; ``play_eps`` > 0 multiplies in the
    likelihood of the cards the other seats have played (``reading``: Normal's play with noise
    ``play_eps``, or the learned play model packed in ``play_model`` from ``play_model_at``).
    When the weights collapse (effective sample size below ``min(n / 4, 32)``) they are
    tempered, ``w ** t`` with the largest ``t`` in [0, 1] that keeps that many effective
    worlds (``t = 0`` is uniform sampling), and the decision counts as a fallback.
    """
    logw = np.zeros(n)
    o = seat
    for _ in range(n_seats(rules) - 1):
        o = next_seat(o, rules)
        b = pub[P_BIDS + o]
        if not bids or b < 0 or pub[P_BLIND + o] != 0 or revealed_spades(pub, o, rules) >= 0:
            continue
        paired = partner(o, rules) >= 0
        for i in range(n):
            h1, h2, h3 = dealt_levels(pub, worlds[i], o, rules)
            logw[i] += bid_log_likelihood(b, h1, rules, paired, h2, h3)
    if play_eps > 0.0 and pub[P_PHASE] == PHASE_PLAYING:
        if play_model is None:
            play_log_likelihood(pub, seat, worlds, n, play_eps, rules, logw, np.zeros(1, np.int64), 0)
        else:
            play_log_likelihood(pub, seat, worlds, n, play_eps, rules, logw, play_model, play_model_at)
    logw -= logw.max()
    floor = max(2.0, min(0.25 * n, MIN_EFFECTIVE_WORLDS))
    if effective_worlds(logw, 1.0) >= floor:
        return np.exp(logw), False
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if effective_worlds(logw, mid) >= floor:
            lo = mid
        else:
            hi = mid
    return np.exp(lo * logw), True



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

