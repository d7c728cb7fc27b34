"""The observation vector and the action ids that the learning environment, the PettingZoo and
OpenSpiel adapters, the datasets and the learned models share: one layout, defined here below
every layer that reads it (no optional dependency; ``spades_ai.learn.encoding`` re-exports it).

Actions (one id space everywhere)::

    0..51   play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..65  bid 0..13: 52 = nil, 53 = 1, ..., 65 = 13
    66      blind nil: offered first, before the seat looks at its cards, when the rules allow one
    67      look: decline the blind nil, see the cards, then bid with 52..65

The vector (``OBSERVATION_SIZE`` = 567 float32) is ``FIELDS`` in order (``SLICES`` gives each
field's slice); seats in it are relative to the observer: 0 = itself, 1 = its left (plays
next), 2 = its partner, 3 = its right. Under ``jokers`` / ``deuces_high`` a joker or high deuce
keeps the card id of the card it replaces (``Rules``), so the 52 card ids still name every card.
The Python reference is ``spades_ai.interop.encoding.observation_vector(obs)``; the kernel
``write_observation`` computes the same vector in numba from what a kernel agent is given (the
batched environment, ``spades_ai.learn.vector_loop``, the datasets and the learned card network
read it). A decision's
phase is its ``PHASES`` index (``PH_*``: a dataset's ``phase`` column). The 68 actions express
every rule but card passing (``check_rules``).

>>> SLICES["bids"], OBSERVATION_SIZE, action_to_string(BID_OFFSET + 4)
(slice(472, 528, None), 567, 'bid 4')
"""

from __future__ import annotations

import numpy as np

from spades_ai.cards import DECK
from spades_ai.engine.bits import ONE, U64, lowest_index
from spades_ai.engine.deal import public_id
from spades_ai.engine.jit import hot_kernel, inline_kernel
from spades_ai.engine.state import (
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_BROKEN,
    P_DEALER,
    P_LEADER,
    P_PHASE,
    P_PLAYED_BY,
    P_SCORES,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_VOIDS,
    P_WON,
    PHASE_BIDDING,
    PHASE_PLAYING,
)
from spades_ai.capabilities import require_table
from spades_ai.errors import RulesError
from spades_ai.rules import R_BAG_LIMIT, R_EXTRA, R_N_EXTRA, Rules

N_ACTIONS = 68
BID_OFFSET = 52
BLIND_NIL = 66
LOOK = 67


def bid_action(bid: int) -> int:
    """The action id of bid ``bid`` (0 = nil .. 13)."""
    return BID_OFFSET + int(bid)


def action_to_string(action: int) -> str:
    """``AS``, ``nil``, ``bid 4``, ``blind nil`` or ``look``."""
    action = int(action)
    if 0 <= action < 52:
        return str(DECK[action])
    if action == BID_OFFSET:
        return "nil"
    if BID_OFFSET < action < BLIND_NIL:
        return f"bid {action - BID_OFFSET}"
    if action == BLIND_NIL:
        return "blind nil"
    if action == LOOK:
        return "look"
    raise ValueError(f"action {action} is not in 0..{N_ACTIONS - 1}")


PHASES = ("dealing", "blind_decision", "bidding", "playing", "over")
#: each decision's ``PHASES`` index (the vector's phase one-hot, a dataset's ``phase`` column)
PH_BLIND, PH_BIDDING, PH_PLAYING, PH_OVER = 1, 2, 3, 4


def check_rules(rules: Rules | None) -> Rules:
    """The rules, refused with a ``RulesError`` if the 68 actions cannot express them.

    Card passing (``pass_cards``, ``blind_pass``) has no action ids. Everything else is played:
    closed bidding (each seat's vector shows only what its view shows), jokers and high deuces
    (they keep the card id of the card they replace, so 0..51 still name every card), every
    bidding preset, blind nil (actions 66 and 67). Four players in pairs only
    (``require_table(rules, "learning")``)."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a spades_ai.Rules, not {type(rules).__name__}")
    require_table(rules, "learning")
    if rules.pass_cards or rules.blind_pass:
        raise RulesError(
            "the learning environment's 68 actions (52 cards, 14 bids, blind nil, look) have none for card passing: "
            f"rules fields 'pass_cards' ({rules.pass_cards}) and 'blind_pass' ({rules.blind_pass}) must be 0"
        )
    return rules


#: (name, size, what it holds); seats relative to the observer, cards by id (2C = 0 .. AS = 51).
FIELDS = (
    ("own_cards", 52, "cards the observer holds now (all 0 before it has looked at them)"),
    ("played_by", 4 * 52, "cards each seat has played so far, one block of 52 per seat"),
    ("current_trick", 4 * 52, "the card each seat has played to the unfinished trick"),
    ("trick_leader", 4, "seat that led the unfinished trick (all 0 when it is empty)"),
    ("bids", 4 * 14, "each seat's bid, one-hot 0 (nil) .. 13; all 0 until the seat bids"),
    ("blind_nil", 4, "1 if the seat bid blind nil"),
    ("tricks_won", 4, "tricks each seat has won / 13"),
    ("phase", 5, "one-hot: dealing, blind_decision, bidding, playing, over"),
    ("dealer", 4, "one-hot dealer seat"),
    ("spades_broken", 1, "1 once a spade has been played"),
    ("voids", 4 * 4, "seat x suit (C D H S): 1 once the seat has shown it holds none"),
    ("scores", 2, "match scores before the hand, (own team, other team), score / 1000 clipped to [-1, 1]"),
    ("bag_counts", 2, "match bag counts before the hand, (own team, other team) / bag_limit"),
    ("trick_no", 1, "tricks finished / 13"),
)


def _offsets(fields) -> dict[str, slice]:
    out, at = {}, 0
    for name, size, _ in fields:
        out[name] = slice(at, at + size)
        at += size
    return out


SLICES = _offsets(FIELDS)
OBSERVATION_SIZE = sum(size for _, size, _ in FIELDS)
#: Bounds of each entry (only the scores can be negative).
OBSERVATION_LOW = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
OBSERVATION_LOW[SLICES["scores"]] = -1.0
OBSERVATION_HIGH = np.ones(OBSERVATION_SIZE, dtype=np.float32)

# The offsets as plain ints, for the kernels (numba freezes module-level ints into the code).
O_OWN = SLICES["own_cards"].start
O_PLAYED = SLICES["played_by"].start
O_TRICK = SLICES["current_trick"].start
O_LEADER = SLICES["trick_leader"].start
O_BIDS = SLICES["bids"].start
O_BLIND = SLICES["blind_nil"].start
O_WON = SLICES["tricks_won"].start
O_PHASE = SLICES["phase"].start
O_DEALER = SLICES["dealer"].start
O_BROKEN = SLICES["spades_broken"].start
O_VOIDS = SLICES["voids"].start
O_SCORES = SLICES["scores"].start
O_BAGS = SLICES["bag_counts"].start
O_TRICK_NO = SLICES["trick_no"].start


# -- cards in the engine's layout and as card ids ----------------------------------------------
@inline_kernel
def id_mask(mask, rules):
    """An engine bitboard as card ids (each joker or high deuce back on its card's id)."""
    for i in range(rules[R_N_EXTRA]):
        lane = ONE << U64(52 + i)
        if mask & lane:
            mask = (mask & ~lane) | (ONE << U64(rules[R_EXTRA + i]))
    return mask


@inline_kernel
def set_bits(out, base, mask):
    """``out[base + c] = 1`` for every bit ``c`` of ``mask``."""
    while mask:
        out[base + lowest_index(mask)] = 1
        mask &= mask - ONE


# -- the vector in numba ---------------------------------------------------------------------------
@hot_kernel
def write_observation(pub, seat, hand, blind_decision, rules, out):
    """``out`` (float32, ``OBSERVATION_SIZE``) = the observation vector of ``seat`` holding
    ``hand`` (engine layout) in ``pub`` (its view), as ``interop.encoding.observation_vector``."""
    for k in range(OBSERVATION_SIZE):
        out[k] = 0.0
    if not blind_decision:
        set_bits(out, O_OWN, id_mask(hand, rules))
    for s in range(4):
        r = (s - seat) & 3
        set_bits(out, O_PLAYED + 52 * r, id_mask(U64(pub[P_PLAYED_BY + s]), rules))
        b = pub[P_BIDS + s]
        if b >= 0:
            out[O_BIDS + 14 * r + b] = 1.0
        out[O_BLIND + r] = 1.0 if pub[P_BLIND + s] != 0 else 0.0
        out[O_WON + r] = pub[P_WON + s] / 13.0
        for suit in range(4):
            if (pub[P_VOIDS] >> (4 * s + suit)) & 1:
                out[O_VOIDS + 4 * r + suit] = 1.0
    n = pub[P_TRICK_LEN]
    leader = pub[P_LEADER]
    for i in range(n):
        r = (leader + i - seat) & 3
        out[O_TRICK + 52 * r + public_id(pub[P_TRICK + i], rules)] = 1.0
    if n > 0:
        out[O_LEADER + ((leader - seat) & 3)] = 1.0
    phase = pub[P_PHASE]
    if blind_decision:
        out[O_PHASE + PH_BLIND] = 1.0
    elif phase == PHASE_BIDDING:
        out[O_PHASE + PH_BIDDING] = 1.0
    elif phase == PHASE_PLAYING:
        out[O_PHASE + PH_PLAYING] = 1.0
    else:
        out[O_PHASE + PH_OVER] = 1.0
    out[O_DEALER + ((pub[P_DEALER] - seat) & 3)] = 1.0
    out[O_BROKEN] = 1.0 if pub[P_BROKEN] != 0 else 0.0
    us = seat & 1
    for j in range(2):
        team = us ^ j
        out[O_SCORES + j] = min(1.0, max(-1.0, pub[P_SCORES + team] / 1000.0))
        out[O_BAGS + j] = pub[P_BAGS + team] / rules[R_BAG_LIMIT]
    out[O_TRICK_NO] = pub[P_TRICK_NO] / 13.0
