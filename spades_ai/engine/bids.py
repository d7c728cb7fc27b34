"""Which bids a seat may make, for every bidding preset.

A bid is 0 (nil) or 1..cards_each (13 at four players, 17 at three). ``legal_bids`` returns a
mask: bit ``b`` set means bid ``b`` is allowed, and bit ``BLIND_NIL_BIT`` means a blind nil (a
nil declared before seeing the cards) is allowed; ``BID_BITS`` keeps the bids and drops it.
``bids`` holds -1 for seats that have not bid yet. A partner's bid counts (suicide, the
minimum side bid) only with pairs, and a blind nil's deficit is to the best other side.
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.bits import SPADES, popcount
from spades_ai.engine.seats import cards_each, n_seats, n_sides, partner, side_of
from spades_ai.engine.state import P_BIDS, P_N_BIDS, P_SCORES
from spades_ai.rules import (
    BID_CLASSIC,
    BID_MIRROR,
    BID_SUICIDE,
    BID_WHIZ,
    R_BIDDING,
    R_BLIND_DEFICIT,
    R_BLIND_NIL,
    R_HOOK,
    R_MIN_BID,
    R_MIN_TEAM_BID,
    R_NIL,
)

BLIND_NIL_BIT = 18
NIL_BIT = 1
BID_BITS = np.int64((1 << BLIND_NIL_BIT) - 1)  # bids 0..17: the most tricks of a hand


@kernel
def _from(lowest, top):
    """Bids ``lowest .. top`` as a mask (scalars only: an array passed to a kernel costs its
    reference counting)."""
    return ((np.int64(2) << top) - 1) & ~((np.int64(1) << max(lowest, 1)) - 1)


@kernel
def legal_bids(seat, hand, pub, rules):
    """The bid mask of ``seat`` holding ``hand`` in the hand whose public state is ``pub``."""
    preset = rules[R_BIDDING]
    # the arrays read before any branch (a read under a branch costs reference counting)
    mate = partner(seat, rules)
    mate_bid = pub[P_BIDS + max(mate, 0)]
    partner_bid = mate_bid if mate >= 0 else -1
    each = cards_each(rules)
    min_bid = rules[R_MIN_BID]
    nil_on = rules[R_NIL] != 0
    if preset == BID_MIRROR or preset == BID_WHIZ:
        n_spades = np.int64(popcount(hand & SPADES))
        mask = np.int64(1) << n_spades
        if preset == BID_WHIZ:
            mask = np.int64(NIL_BIT)
            if n_spades >= min_bid:
                mask |= np.int64(1) << n_spades
        return mask
    if preset == BID_SUICIDE:
        # Each side ends with at least one nil: the first partner bids nil or a number >= 4,
        # the second must bid nil after a number and may bid either after a nil (double nil).
        numbers = _from(max(4, min_bid), each)
        if partner_bid > 0:
            mask = np.int64(NIL_BIT)
        else:
            mask = numbers | NIL_BIT
    else:
        mask = _from(min_bid, each) | (NIL_BIT if nil_on else 0)
        if partner_bid >= 0 and rules[R_MIN_TEAM_BID] > 0:
            need = rules[R_MIN_TEAM_BID] - partner_bid  # partner's nil counts 0
            if need > 0:
                mask &= _from(max(need, min_bid), each)
    if preset == BID_CLASSIC or preset == BID_SUICIDE:
        if (mask & NIL_BIT) and rules[R_BLIND_NIL] != 0:
            deficit = best_other_score(pub, side_of(seat, rules), rules) - pub[P_SCORES + side_of(seat, rules)]
            if rules[R_BLIND_DEFICIT] == 0 or deficit >= rules[R_BLIND_DEFICIT]:
                mask |= np.int64(1) << BLIND_NIL_BIT
    if rules[R_HOOK] != 0 and pub[P_N_BIDS] == n_seats(rules) - 1:
        mask = hooked(mask, seat, pub, rules)
    return mask


@inline_kernel
def best_other_score(pub, side, rules):
    """The highest match score of the sides other than ``side``."""
    best = np.int64(-(1 << 62))
    for k in range(n_sides(rules)):
        if k != side:
            best = max(best, pub[P_SCORES + k])
    return best


@kernel
def hooked(mask, seat, pub, rules):
    """The hook: the last bidder may not bring the bids to exactly ``cards_each``, the tricks
    of the hand (a nil, blind or not, is 0), unless that leaves it no bid at all."""
    others = 0
    for s in range(n_seats(rules)):
        if s != seat:
            others += pub[P_BIDS + s]
    x = cards_each(rules) - others
    if x < 0:
        return mask
    cut = mask & ~(np.int64(1) << x)
    if x == 0:
        cut &= ~(np.int64(1) << BLIND_NIL_BIT)
    return cut if (cut & BID_BITS) != 0 else mask
