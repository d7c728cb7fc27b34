"""Which bids a seat may make, for every bidding preset.

A bid is 0 (nil) or 1..13. ``legal_bids`` returns a mask: bit ``b`` set means bid ``b`` is
allowed, and bit ``BLIND_NIL_BIT`` means a blind nil (a nil declared before seeing the cards)
is allowed. ``bids`` holds -1 for seats that have not bid yet.
"""

import numpy as np

from spades_ai.engine.jit import kernel
from spades_ai.engine.bits import SPADES, popcount
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

BLIND_NIL_BIT = 14
NIL_BIT = 1
_NUMBERS = np.int64(0x3FFE)  # bits 1..13


@kernel
def _from(lowest):
    """Bids ``lowest .. 13`` as a mask."""
    return _NUMBERS & ~((np.int64(1) << lowest) - 1)


@kernel
def legal_bids(seat, hand, pub, rules):
    """The bid mask of ``seat`` holding ``hand`` in the hand whose public state is ``pub``."""
    preset = rules[R_BIDDING]
    partner_bid = pub[P_BIDS + ((seat + 2) & 3)]
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
        # Each team ends with at least one nil: the first partner bids nil or a number >= 4,
        # the second must bid nil after a number and may bid either after a nil (double nil).
        numbers = _from(max(4, min_bid))
        if partner_bid > 0:
            mask = np.int64(NIL_BIT)
        else:
            mask = numbers | NIL_BIT
    else:
        mask = _from(min_bid) | (NIL_BIT if nil_on else 0)
        if partner_bid >= 0 and rules[R_MIN_TEAM_BID] > 0:
            need = rules[R_MIN_TEAM_BID] - partner_bid  # partner's nil counts 0
            if need > 0:
                mask &= _from(max(need, min_bid))
    if preset == BID_CLASSIC or preset == BID_SUICIDE:
        if (mask & NIL_BIT) and rules[R_BLIND_NIL] != 0:
            team = seat & 1
            deficit = pub[P_SCORES + 1 - team] - pub[P_SCORES + team]
            if rules[R_BLIND_DEFICIT] == 0 or deficit >= rules[R_BLIND_DEFICIT]:
                mask |= np.int64(1) << BLIND_NIL_BIT
    if rules[R_HOOK] != 0 and pub[P_N_BIDS] == 3:
        mask = hooked(mask, seat, pub)
    return mask


@kernel
def hooked(mask, seat, pub):
    """The hook: the last bidder may not bring the four bids to exactly 13 (a nil, blind or
    not, is 0), unless that leaves it no bid at all."""
    others = 0
    for s in range(4):
        if s != seat:
            others += pub[P_BIDS + s]
    x = 13 - others
    if x < 0:
        return mask
    cut = mask & ~(np.int64(1) << x)
    if x == 0:
        cut &= ~(np.int64(1) << BLIND_NIL_BIT)
    return cut if (cut & 0x3FFF) != 0 else mask
