"""The batched environment's kernels: every table stepped in one numba call, as a template.

The other seats' agents come from ONE relative import (the binding): ``_binding.py`` beside
this file binds Normal at every slot; for any other lineup ``spades_ai.selfplay.codegen.bind``
copies this file verbatim next to a generated binding, so numba inlines those agents' kernels.

A table is a hand in progress (``pubs[t]``, ``hands[t]``) plus its bookkeeping row
``rows[t]`` (``V_*``). Between two calls every table waits for a *controlled* seat (bit ``s``
of ``ctrl``) or has just ended its episode (``V_DONE``: the next step starts the next one and
ignores its action, gymnasium's next-step autoreset). The other seats are played inside the
loop by the kernel agents of ``slots`` (``slots[s] = (bid slot, play slot)``).

Which cards a table plays (no dependence on the other tables or their number)::

    episode k of table t       job = (t << 32) + k
    hands  (episode="hand")    the deal (seed, job), exactly ``sa.deal(seed, job, rules)``; dealer
                               k % players
    matches (episode="match")  hand h of match ``job``: stream (seed, job, 1 + h), first dealer
                               from (seed, job, 2**40), as ``play_matches`` deals match ``job``

Blind nil: a controlled seat whose turn to bid offers a blind nil is asked first, without its
cards (the table's blind-nil and look actions, ``spades_ai.encoding``); bit ``s`` of
``V_LOOKED`` is set once it has looked. Rules that hide bids (``closed_bidding``), and tables of
several decks (a view carries its seat's copies), are played on the seat's view
(``engine.state.observe``), for the agents' decisions and for the observation vector alike.
Every table of the rules is played: seats, sides and the hands' copies are the rules array's.
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.deal import deal_match_hand, match_first_dealer
from spades_ai.selfplay.loop_kernels import MAX_MATCH_HANDS, after_hand
from spades_ai.engine import score as _sc
from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, legal_bids
from spades_ai.engine.bits import ONE, U64, ZERO
from spades_ai.engine.deal import DEAL_STREAM, deal_for
from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel
from spades_ai.engine.rng import stream_state
from spades_ai.engine.seats import cards_each, n_seats, n_sides, side_of
from spades_ai.engine.state import (
    N_PUBLIC,
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_DEALER,
    P_PHASE,
    P_SCORES,
    P_TO_ACT,
    P_WON,
    PHASE_BIDDING,
    PHASE_OVER,
    apply_bid,
    apply_card,
    hides_anything,
    legal_now,
    observe,
    reset_public,
)
from spades_ai.encoding import BID_OFFSET, blind_nil_action, look_action, n_actions, write_observation
from spades_ai.learn.vectors import engine_id, write_mask

# the seat dispatch: a bound copy of this template has its own _binding (spades_ai.templates)
from ._binding import seat_bid, seat_pass, seat_play  # noqa: F401 -- seat_pass: the binding's contract


# a table's bookkeeping row
V_EPISODE, V_JOB, V_HAND_NO, V_LOOKED, V_DONE, V_SEAT = 0, 1, 2, 3, 4, 5
ROW_WIDTH = 8

# the other seats' slots: a seat's row of ``slots``
S_BID, S_PLAY = 0, 1

# ``err``: an agent's illegal action (what, table, seat, action, slot)
E_BID, E_CARD = 1, 2
ERR_SIZE = 5

AT_SEAT, HAND_OVER, AGENT_ILLEGAL = 0, 1, 2


class Batch(NamedTuple):
    """What every table of the batch is played by (the same for every step)."""

    seed: np.uint64
    """The seed of the deals (the module docstring: which cards)."""
    ctrl: np.int64
    """Bit ``s`` set for each controlled seat."""
    match: bool
    """Whether an episode is a match (else a hand)."""
    slots: np.ndarray
    """``slots[s] = (bid slot, play slot)``: the other seats' agents."""
    params: np.ndarray
    """The lineup's params, row ``k`` for agent ``k`` (``selfplay.codegen``)."""
    rules: np.ndarray
    """The rules array."""


class Tables(NamedTuple):
    """The state of every table, row ``t`` for table ``t``."""

    pubs: np.ndarray
    """``int64 (n, N_PUBLIC)``: the public array of the hand in progress."""
    hands: np.ndarray
    """``uint64 (n, decks * N)``: its hands (levels, ``engine.copies``)."""
    rows: np.ndarray
    """``int64 (n, ROW_WIDTH)``: the bookkeeping row (``V_*``)."""


class Outputs(NamedTuple):
    """What a step (or reset) writes, row ``t`` for table ``t``."""

    obs: np.ndarray
    """``float32 (n, size)``: the observation vector of the seat to act."""
    masks: np.ndarray
    """``int8 (n, n_actions)``: its legal actions."""
    rewards: np.ndarray
    """``float64 (n,)``: the points of the hands ended for the side of the seat that acted."""
    terminated: np.ndarray
    """``bool (n,)``: the episode ended."""
    truncated: np.ndarray
    """``bool (n,)``: the match was cut at ``MAX_MATCH_HANDS``."""
    points: np.ndarray
    """``int64 (n, sides)``: the points of the hands ended, per side."""
    err: np.ndarray
    """``int64 (ERR_SIZE,)``: an agent's illegal action (``E_*``, table, seat, action, slot)."""
#: The blind-nil question put to an agent before it looks (the self-play loop's own, ``selfplay.loop``)
BLIND_QUESTION = (1 << BLIND_NIL_BIT) | 1
# -- the other seats -------------------------------------------------------------------------------
@hot_kernel
def play_others(pub, hands, row, ctrl, slots, params, rules, view, err, t):
    """Play the other seats' turns until a controlled seat is to act (AT_SEAT; a seat without a
    blind-nil option is marked as having looked) or the hand is over (HAND_OVER). An agent's
    illegal action fills ``err`` and returns AGENT_ILLEGAL."""
    hides = hides_anything(rules)
    while True:
        phase = pub[P_PHASE]
        if phase == PHASE_OVER:
            return HAND_OVER
        seat = pub[P_TO_ACT]
        hand = hands[seat]
        if (ctrl >> seat) & 1:
            if phase == PHASE_BIDDING and not (legal_bids(seat, hand, pub, rules) >> BLIND_NIL_BIT) & 1:
                row[V_LOOKED] |= 1 << seat
            return AT_SEAT
        seen = pub
        if hides:
            observe(pub, hands, seat, rules, view)
            seen = view
        if phase == PHASE_BIDDING:
            slot = slots[seat, S_BID]
            full = legal_bids(seat, hand, pub, rules)
            blind = False
            if (full >> BLIND_NIL_BIT) & 1:
                blind = seat_bid(slot, seen, seat, ZERO, np.int64(BLIND_QUESTION), rules, params) == BLIND_NIL_BIT
            b = np.int64(0)
            if not blind:
                legal = full & BID_BITS
                b = seat_bid(slot, seen, seat, hand, legal, rules, params)
                if b < 0 or b > cards_each(rules) or not (legal >> b) & 1:
                    err[0], err[1], err[2], err[3], err[4] = E_BID, t, seat, b, slot
                    return AGENT_ILLEGAL
            apply_bid(pub, hands, b, blind, rules)
        else:
            slot = slots[seat, S_PLAY]
            legal = legal_now(pub, hand, rules)
            card = seat_play(slot, seen, seat, hand, legal, rules, params)
            if card < 0 or card > 55 or not (legal >> U64(card)) & ONE:
                err[0], err[1], err[2], err[3], err[4] = E_CARD, t, seat, card, slot
                return AGENT_ILLEGAL
            apply_card(pub, hands, card, rules)


# -- episodes --------------------------------------------------------------------------------------
@kernel
def start_hand(seed, match, pub, hands, row, dealer, scores, bags, rules):
    """Deal the table's next hand (``row[V_JOB]``, ``row[V_HAND_NO]``) and reset ``pub``."""
    if match:
        deal_match_hand(seed, row[V_JOB], row[V_HAND_NO], hands, rules)
    else:
        deal_for(stream_state(seed, row[V_JOB], DEAL_STREAM), hands, rules)
    reset_public(pub, hands, dealer, scores, bags, row[V_HAND_NO], rules)
    row[V_LOOKED] = 0


@kernel
def start_episode(seed, match, t, pub, hands, row, rules):
    """Start episode ``row[V_EPISODE]`` of table ``t`` (the module docstring: which cards)."""
    job = (t << 32) + row[V_EPISODE]
    row[V_JOB], row[V_HAND_NO], row[V_DONE] = job, 0, 0
    dealer = match_first_dealer(seed, job, rules) if match else row[V_EPISODE] % n_seats(rules)
    zeros = np.zeros(n_sides(rules), dtype=np.int64)
    start_hand(seed, match, pub, hands, row, dealer, zeros, zeros, rules)


@hot_kernel
def settle(batch, tables, out, t, view, sheet, nil):
    """Play table ``t`` on to its next controlled decision (the episode's next hand in a match),
    or to the end of its episode; write its observation and mask. The points of a hand that
    ends go to ``out.points`` (per side) and, for the side of ``row[V_SEAT]`` (the seat that just
    acted), to ``out.rewards[t]``. Returns False on an agent's illegal action (``out.err``). Whole
    arrays and the index ``t``: a hot kernel is passed arrays at no cost, slices would be made."""
    seed, match, rules = batch.seed, batch.match, batch.rules
    obs, points = out.obs, out.points
    pub, hands, row, mask = tables.pubs[t], tables.hands[t], tables.rows[t], out.masks[t]
    while True:
        status = play_others(pub, hands, row, batch.ctrl, batch.slots, batch.params, rules, view, out.err, t)
        if status == AGENT_ILLEGAL:
            return False
        if status == AT_SEAT:
            seat = pub[P_TO_ACT]
            row[V_SEAT] = seat
            pending = pub[P_PHASE] == PHASE_BIDDING and not (row[V_LOOKED] >> seat) & 1
            seen = pub
            if hides_anything(rules):
                observe(pub, hands, seat, rules, view)
                seen = view
            write_observation(seen, seat, hands[seat], pending, rules, obs[t])
            write_mask(pub, hands[seat], pending, rules, mask)
            return True
        n, k = n_seats(rules), n_sides(rules)
        _sc.score_hand_kernel(pub[P_BIDS : P_BIDS + n], pub[P_BLIND : P_BLIND + n], pub[P_WON : P_WON + n],
                              pub[P_SCORES : P_SCORES + k], pub[P_BAGS : P_BAGS + k], rules, sheet, nil)  # fmt: skip
        for side in range(k):
            points[t, side] += sheet[side, _sc.F_POINTS]
        out.rewards[t] += sheet[side_of(row[V_SEAT], rules), _sc.F_POINTS]
        if match:
            k = row[V_HAND_NO]
            winner, dealer = after_hand(sheet, k, pub[P_DEALER], rules)
            if winner < 0 and k + 1 < MAX_MATCH_HANDS:
                row[V_HAND_NO] = k + 1
                start_hand(seed, match, pub, hands, row, dealer, sheet[:, _sc.F_SCORE], sheet[:, _sc.F_BAGS], rules)
                continue
            out.truncated[t] = winner < 0
            out.terminated[t] = winner >= 0
        else:
            out.terminated[t] = True
        row[V_DONE] = 1
        write_observation(pub, row[V_SEAT], hands[row[V_SEAT]], False, rules, obs[t])
        for a in range(n_actions(rules)):  # any action is accepted (and ignored) on the autoreset step
            mask[a] = 1
        return True


@inline_kernel
def apply_action(pub, hands, row, action, rules):
    """The controlled seat to act takes ``action`` (checked against its mask beforehand)."""
    seat = pub[P_TO_ACT]
    if action == look_action(rules):
        row[V_LOOKED] |= 1 << seat
    elif action == blind_nil_action(rules):
        row[V_LOOKED] |= 1 << seat
        apply_bid(pub, hands, np.int64(0), True, rules)
    elif action >= BID_OFFSET:
        apply_bid(pub, hands, np.int64(action - BID_OFFSET), False, rules)
    else:
        apply_card(pub, hands, engine_id(action, rules), rules)


# -- the batch -------------------------------------------------------------------------------------
@kernel
def reset_kernel(batch, tables, obs, masks, err, restart, fresh):
    """Start an episode on every table that ``restart`` marks and play on to its first controlled
    decision: episode 0 with ``fresh``, else the table's next episode, whatever state its current
    one was left in (mid-hand, or ended). The other tables are left as they are. Writes ``obs``
    and ``masks``; returns False on an agent's illegal action (``err``)."""
    rules = batch.rules
    view, sheet, nil = _work(rules)
    n = tables.pubs.shape[0]
    out = Outputs(obs, masks, np.zeros(n, dtype=np.float64), np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_),
                  np.zeros((n, n_sides(rules)), dtype=np.int64), err)  # fmt: skip
    rows = tables.rows
    for t in range(n):
        if not restart[t]:
            continue
        if fresh:
            rows[t, :] = 0
        else:
            rows[t, V_EPISODE] += 1
        start_episode(batch.seed, batch.match, t, tables.pubs[t], tables.hands[t], rows[t], rules)
        if not settle(batch, tables, out, t, view, sheet, nil):
            return False
    return True


@kernel
def _work(rules):
    """``settle``'s work arrays: ``(view, sheet, nil)``."""
    return (np.empty(N_PUBLIC, dtype=np.int64), np.empty((n_sides(rules), _sc.N_FIELDS), dtype=np.int64),
            np.empty(n_seats(rules), dtype=np.int64))  # fmt: skip


@kernel
def first_illegal(actions, masks):
    """The first table whose action is not in its mask (a row of the table's actions), -1 if none."""
    for t in range(actions.shape[0]):
        a = actions[t]
        if a < 0 or a >= masks.shape[1] or masks[t, a] == 0:
            return t
    return -1


@kernel
def step_kernel(actions, batch, tables, out):
    """One step of every table: -1 after it, or (nothing changed) the first table whose action
    is illegal; -2 on an agent's illegal action (``out.err``). A table whose episode ended on the
    last step starts the next one instead (its action ignored)."""
    bad = first_illegal(actions, out.masks)
    if bad >= 0:
        return bad
    view, sheet, nil = _work(batch.rules)
    rewards, terminated, truncated, points = out.rewards, out.terminated, out.truncated, out.points
    for t in range(tables.pubs.shape[0]):
        pub, hand4, row = tables.pubs[t], tables.hands[t], tables.rows[t]
        rewards[t], terminated[t], truncated[t] = 0.0, False, False
        for side in range(points.shape[1]):
            points[t, side] = 0
        if row[V_DONE]:
            row[V_EPISODE] += 1
            start_episode(batch.seed, batch.match, t, pub, hand4, row, batch.rules)
        else:
            apply_action(pub, hand4, row, actions[t], batch.rules)
        if not settle(batch, tables, out, t, view, sheet, nil):
            return -2
    return -1
