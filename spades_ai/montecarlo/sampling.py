"""Exact, uniform sampling of the hidden cards: deals of the unseen cards consistent with an
observation (each seat's card count, the cards played, every void shown, every spade count
a bid revealed, and the cards the seat knows its partner holds because it passed them).

Counting works suit by suit. With three other seats holding ``need[0..2]`` cards and ``u[s]``
unseen cards of suit ``s``, a deal is a choice, for each suit, of how many of its cards each seat
gets (``x0 + x1 + x2 = u[s]``, with ``lo[k, s] <= x_k <= hi[k, s]``) and then which ones. The
number of deals of suits ``s..3`` that give seat 0 ``a`` cards and seat 1 ``b`` (seat 2 the
rest) is::

    f[s, a, b] = sum over x0, x1 of  C(u[s]; x0, x1, x2) * f[s + 1, a - x0, b - x1]

The bounds carry every constraint of this kind: a void shown is ``hi = 0``; a spade count
revealed by a bid (mirror, or a whiz bid other than nil: the bid is the bidder's number of
spades) fixes ``lo = hi =`` that count minus the spades the seat has played. Suit 3 is the trump
suit, jokers and high deuces included (they sit in the spade lane, ``engine.bits``).

``count_worlds_kernel`` fills ``f`` once per decision in exact int64 arithmetic (there are at most
39! / 13!^3 ~ 8.4e16 deals, below 2**63). ``sample_world`` then draws the counts of each suit in
turn with probability proportional to the number of deals they leave, and splits each suit
uniformly, so every consistent deal has exactly the same probability, with no rejection. Deal-
and-retry is as exact but about 9x slower; giving constrained cards out first is biased as soon
as two seats show voids.
"""

import numpy as np

from spades_ai.engine.jit import kernel
from spades_ai.engine.bits import SPADES, SUIT_MASK, U64, ZERO, popcount, select_bit
from spades_ai.engine.rng import below, below64
from spades_ai.engine.state import P_BIDS, P_BLIND_GAVE, P_DECK, P_GAVE, P_PLAYED, P_PLAYED_BY, P_VOIDS
from spades_ai.rules import BID_MIRROR, BID_WHIZ, R_BIDDING

#: The most cards of one suit: 13, or 17 in the trump suit with jokers and high deuces.
MAX_SUIT = 17


def _binomials():
    c = np.zeros((MAX_SUIT + 1, MAX_SUIT + 1), dtype=np.int64)
    for n in range(MAX_SUIT + 1):
        c[n, 0] = 1
        for k in range(1, n + 1):
            c[n, k] = c[n - 1, k - 1] + c[n - 1, k]
    return c


BINOM = _binomials()


@kernel
def revealed_spades(pub, seat, rules):
    """The number of spades (trumps) ``seat`` holds in all, as its bid revealed it, or -1.

    A mirror bid is always the count (nil: none); a whiz bid other than nil is too. The count
    is read from the bids the observation shows, so under closed bidding a hidden bid reveals
    nothing.
    """
    bid = pub[P_BIDS + seat]
    preset = rules[R_BIDDING]
    if bid < 0:
        return -1
    if preset == BID_MIRROR or (preset == BID_WHIZ and bid > 0):
        return bid
    return -1


@kernel
def partner_holds(pub, seat):
    """The cards ``seat`` knows its partner still holds: those it passed it (before the bidding,
    unless they came back in the blind pass, and in the blind pass), not played since."""
    partner = seat ^ 2
    gave = U64(pub[P_GAVE + seat]) & ~U64(pub[P_BLIND_GAVE + partner])
    return (gave | U64(pub[P_BLIND_GAVE + seat])) & ~U64(pub[P_PLAYED_BY + partner])


@kernel
def world_constraints(pub, seat, hand, rules):
    """``(unseen, others, need, lo, hi, known)`` for sampling what ``seat`` cannot see.

    ``others[k]`` is the seat ``k + 1`` places to the left, ``need[k]`` the unseen cards it
    holds, ``lo[k, s] .. hi[k, s]`` how many of suit ``s`` it may hold among them, and
    ``known[o]`` (by seat) the cards ``seat`` knows seat ``o`` holds besides (``partner_holds``).
    """
    known = np.zeros(4, dtype=np.uint64)
    known[seat ^ 2] = partner_holds(pub, seat)
    unseen = U64(pub[P_DECK]) & ~U64(pub[P_PLAYED]) & ~hand & ~known[seat ^ 2]
    others = np.empty(3, dtype=np.int64)
    need = np.empty(3, dtype=np.int64)
    lo = np.zeros((3, 4), dtype=np.int64)
    hi = np.empty((3, 4), dtype=np.int64)
    for k in range(3):
        o = (seat + 1 + k) & 3
        others[k] = o
        played = U64(pub[P_PLAYED_BY + o])
        need[k] = 13 - np.int64(popcount(played)) - np.int64(popcount(known[o]))
        for s in range(4):
            void = (pub[P_VOIDS] >> (4 * o + s)) & 1 == 1
            hi[k, s] = 0 if void else MAX_SUIT
        count = revealed_spades(pub, o, rules)
        if count >= 0:
            left = count - np.int64(popcount((played | known[o]) & SPADES))
            if left < 0 or (left > 0 and hi[k, 3] == 0):
                lo[k, 3], hi[k, 3] = 1, 0  # contradicts what was seen: no world
            else:
                lo[k, 3], hi[k, 3] = left, left
    return unseen, others, need, lo, hi, known


@kernel
def count_worlds_kernel(unseen, need, lo, hi):
    """The table ``f`` (see the module docstring); ``f[0, need[0], need[1]]`` is the number of
    consistent deals (0 if none)."""
    u = np.empty(4, dtype=np.int64)
    rem = np.zeros(5, dtype=np.int64)
    for s in range(4):
        u[s] = np.int64(popcount(unseen & SUIT_MASK[s]))
    for s in range(3, -1, -1):
        rem[s] = rem[s + 1] + u[s]
    f = np.zeros((5, 14, 14), dtype=np.int64)
    f[4, 0, 0] = 1
    for s in range(3, -1, -1):
        us = u[s]
        for a in range(min(need[0], rem[s]) + 1):
            for b in range(min(need[1], rem[s] - a) + 1):
                c = rem[s] - a - b
                if c > need[2]:
                    continue
                total = np.int64(0)
                for x0 in range(lo[0, s], min(a, us, hi[0, s]) + 1):
                    for x1 in range(lo[1, s], min(b, us - x0, hi[1, s]) + 1):
                        x2 = us - x0 - x1
                        if x2 > c or x2 < lo[2, s] or x2 > hi[2, s]:
                            continue
                        rest = f[s + 1, a - x0, b - x1]
                        if rest != 0:
                            total += BINOM[us, x0] * BINOM[us - x0, x1] * rest
                f[s, a, b] = total
    return f


@kernel
def sample_world(state, f, unseen, others, need, lo, hi, hands):
    """Deal ``unseen`` to the seats ``others`` into ``hands`` (uint64[4]) uniformly among the
    consistent deals counted in ``f``; returns the advanced random state."""
    a = need[0]
    b = need[1]
    for k in range(3):
        hands[others[k]] = ZERO
    for s in range(4):
        suit_cards = unseen & SUIT_MASK[s]
        us = np.int64(popcount(suit_cards))
        c = 0
        for t in range(s, 4):
            c += np.int64(popcount(unseen & SUIT_MASK[t]))
        c -= a + b
        state, r = below64(state, f[s, a, b])
        pick0 = 0
        pick1 = 0
        done = False
        for x0 in range(lo[0, s], min(a, us, hi[0, s]) + 1):
            for x1 in range(lo[1, s], min(b, us - x0, hi[1, s]) + 1):
                x2 = us - x0 - x1
                if x2 > c or x2 < lo[2, s] or x2 > hi[2, s]:
                    continue
                term = BINOM[us, x0] * BINOM[us - x0, x1] * f[s + 1, a - x0, b - x1]
                if r < term:
                    pick0, pick1 = x0, x1
                    done = True
                    break
                r -= term
            if done:
                break
        # Split the suit uniformly: pick0 cards to the first seat, pick1 to the second.
        left = us
        for _ in range(pick0):
            state, i = below(state, left)
            bit = select_bit(suit_cards, i)
            hands[others[0]] |= bit
            suit_cards ^= bit
            left -= 1
        for _ in range(pick1):
            state, i = below(state, left)
            bit = select_bit(suit_cards, i)
            hands[others[1]] |= bit
            suit_cards ^= bit
            left -= 1
        hands[others[2]] |= suit_cards
        a -= pick0
        b -= pick1
    return state


@kernel
def sample_worlds_kernel(state, pub, seat, hand, rules, n):
    """``n`` consistent worlds as rows of four bitboards (the seat's own hand included), drawn
    exactly uniformly among the deals that fit the observation (``sampling``)."""
    unseen, others, need, lo, hi, known = world_constraints(pub, seat, hand, rules)
    f = count_worlds_kernel(unseen, need, lo, hi)
    worlds = np.empty((n, 4), dtype=np.uint64)
    hands = np.empty(4, dtype=np.uint64)
    for i in range(n):
        state = sample_world(state, f, unseen, others, need, lo, hi, hands)
        for k in range(3):
            hands[others[k]] |= known[others[k]]
        hands[seat] = hand
        worlds[i] = hands
    return state, worlds

