"""The self-play loop, as a template: ``spades_ai.agents.codegen`` makes one module per set of
kernel agents by putting, in place of the placeholders between the markers below, a
``seat_bid``, a ``seat_play`` and a ``seat_pass`` that call those agents' kernels directly (so numba inlines
them, and the module is cached on disk like any other). Python agents join the same loop
through ``objmode`` callbacks, so there is one loop for every kind of agent.

A lineup gives each seat a bid slot and a play slot (``slots[seat, 0]``, ``slots[seat, 1]``: an
agent may bid like one agent and play like another, ``Mixed``): slot ``k`` below the number of
kernel agents calls kernel agent ``k``; a larger slot calls a Python agent registered in
``spades_ai.agents.python_seats``.
A seat passes cards with its bid slot.
An illegal action stops the loop and is reported in ``err``: (1 bid / 2 card / 3 pass, seat,
action, slot), then the public array, the four hands and the cards played in order (``report``), from
which the caller rebuilds the hand and raises the engine's own error, naming the agent.

Deal ``i`` of ``play_hands`` comes from ``(seed, i)``; hand ``k`` of match ``m`` of
``play_matches`` from ``(seed, m, stream 1 + k)``, and match ``m``'s first dealer from its own
stream (``selfplay_kernels``), so the same seed gives the same cards whoever sits down.

Rules that hide something from a seat or pass cards (closed bidding, ``pass_cards``,
``blind_pass``) take ``play_on_house``, where every decision is made on the seat's view and
passing rounds are played; the default rules keep ``play_on``, the tight loop, which pays
nothing for them (one test of the rules per hand).
"""

import numpy as np
from numba import objmode  # noqa: F401 -- used by the generated seat dispatch

from spades_ai.agents.python_seats import python_decision  # noqa: F401 -- used by the generated seat dispatch
from spades_ai.agents.selfplay_kernels import (
    MAX_MATCH_HANDS,
    after_hand,
    deal_match_hand,
    grow,
    match_first_dealer,
    record_arrays,
    record_hand,
)
from spades_ai.engine.bids import BLIND_NIL_BIT, legal_bids
from spades_ai.engine.deal import DEAL_STREAM, deal_from_state
from spades_ai.engine.jit import callback_kernel, inline_kernel, kernel  # noqa: F401 -- the generated seat dispatch
from spades_ai.engine.rng import stream_state
from spades_ai.engine.state import (
    N_PUBLIC,
    P_PHASE,
    P_TO_ACT,
    PHASE_BIDDING,
    PHASE_PASSING,
    PHASE_PLAYING,
    apply_bid,
    apply_card,
    choose_pass,
    hides_anything,
    legal_now,
    observe,
    pass_count,
    pass_ok,
    reset_public,
)

# -- seat dispatch: replaced in each generated module ------------------------------------------


@kernel
def seat_bid(slot, pub, seat, hand, legal, rules, params, seq, n_seq):
    """The bid of the agent in ``slot`` (placeholder)."""
    return -1


@kernel
def seat_play(slot, pub, seat, hand, legal, rules, params, seq, n_seq):
    """The card id the agent in ``slot`` plays (placeholder)."""
    return -1


@kernel
def seat_pass(slot, pub, seat, hand, n, rules, params, seq, n_seq):
    """The mask of the ``n`` cards the agent in ``slot`` passes (placeholder)."""
    return np.uint64(0)


# -- end of seat dispatch ----------------------------------------------------------------------


ERR_SIZE = 4 + N_PUBLIC + 4 + 52


@kernel
def report(err, what, seat, action, slot, pub, hands, seq):
    """Fill ``err`` (``ERR_SIZE``) with the illegal action and the state it was taken in."""
    err[0], err[1], err[2], err[3] = what, seat, action, slot
    err[4 : 4 + N_PUBLIC] = pub
    for s in range(4):
        err[4 + N_PUBLIC + s] = np.int64(hands[s])
    err[8 + N_PUBLIC :] = seq


@kernel
def play_on(pub, hands, slots, params, rules, seq, n_played, err):
    """Play the hand in ``pub`` / ``hands`` from wherever it stands to its end, noting the cards
    in play order in ``seq`` (``64 * seat + card``; ``n_played`` are there already). Returns
    False (with ``err`` filled) on an illegal action."""
    while pub[P_PHASE] == PHASE_BIDDING:
        seat = pub[P_TO_ACT]
        slot = slots[seat, 0]
        full = legal_bids(seat, hands[seat], pub, rules)
        blind = False
        if (full >> BLIND_NIL_BIT) & 1:
            # asked before looking: no cards, only the blind nil and the nil to choose from
            ask = np.int64((1 << BLIND_NIL_BIT) | 1)
            blind = seat_bid(slot, pub, seat, np.uint64(0), ask, rules, params, seq, n_played) == BLIND_NIL_BIT
        legal = full & 0x3FFF
        b = 0 if blind else seat_bid(slot, pub, seat, hands[seat], legal, rules, params, seq, n_played)
        if not blind and (b < 0 or b > 13 or not (legal >> b) & 1):
            report(err, 1, seat, b, slot, pub, hands, seq)
            return False
        apply_bid(pub, hands, b, blind, rules)
    i = n_played
    while pub[P_PHASE] == PHASE_PLAYING:
        seat = pub[P_TO_ACT]
        hand = hands[seat]
        legal = legal_now(pub, hand, rules)
        card = seat_play(slots[seat, 1], pub, seat, hand, legal, rules, params, seq, i)
        if card < 0 or card > 51 or not (legal >> np.uint64(card)) & np.uint64(1):
            report(err, 2, seat, card, slots[seat, 1], pub, hands, seq)
            return False
        seq[i] = 64 * seat + card
        i += 1
        apply_card(pub, hands, card, rules)
    return True


@kernel
def play_on_house(pub, hands, slots, params, rules, seq, n_played, err):
    """``play_on`` under rules that hide something or pass cards: every decision is taken on
    the seat's view (``engine.state.observe``), and the passing rounds are played (each passer
    chooses on its own view; the choices wait in ``pending`` until the exchange). The hand
    must not be in the middle of a passing round."""
    view = np.empty_like(pub)
    pending = np.zeros(4, dtype=np.uint64)
    i = n_played
    while pub[P_PHASE] == PHASE_PASSING or pub[P_PHASE] == PHASE_BIDDING or pub[P_PHASE] == PHASE_PLAYING:
        seat = pub[P_TO_ACT]
        observe(pub, seat, rules, view)
        hand = hands[seat]
        if pub[P_PHASE] == PHASE_PASSING:
            slot = slots[seat, 0]
            n = pass_count(pub, rules)
            cards = seat_pass(slot, view, seat, hand, n, rules, params, seq, i)
            if not pass_ok(hand, cards, n):
                report(err, 3, seat, np.int64(cards), slot, pub, hands, seq)
                return False
            choose_pass(pub, hands, pending, seat, cards, rules)
        elif pub[P_PHASE] == PHASE_BIDDING:
            slot = slots[seat, 0]
            full = legal_bids(seat, hand, pub, rules)
            blind = False
            if (full >> BLIND_NIL_BIT) & 1:
                ask = np.int64((1 << BLIND_NIL_BIT) | 1)
                blind = seat_bid(slot, view, seat, np.uint64(0), ask, rules, params, seq, i) == BLIND_NIL_BIT
            legal = full & 0x3FFF
            b = 0 if blind else seat_bid(slot, view, seat, hand, legal, rules, params, seq, i)
            if not blind and (b < 0 or b > 13 or not (legal >> b) & 1):
                report(err, 1, seat, b, slot, pub, hands, seq)
                return False
            apply_bid(pub, hands, b, blind, rules)
        else:
            legal = legal_now(pub, hand, rules)
            card = seat_play(slots[seat, 1], view, seat, hand, legal, rules, params, seq, i)
            if card < 0 or card > 51 or not (legal >> np.uint64(card)) & np.uint64(1):
                report(err, 2, seat, card, slots[seat, 1], pub, hands, seq)
                return False
            seq[i] = 64 * seat + card
            i += 1
            apply_card(pub, hands, card, rules)
    return True


@kernel
def play_rest(pub, hands, slots, params, rules, seq, n_played, err):
    """Play the hand in ``pub`` / ``hands`` to its end: ``play_on``, or ``play_on_house`` under
    rules that hide something or pass cards."""
    if hides_anything(rules):
        return play_on_house(pub, hands, slots, params, rules, seq, n_played, err)
    return play_on(pub, hands, slots, params, rules, seq, n_played, err)


@kernel
def play_one_hand(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, slots, params, rules, seq, err):
    """Pass, bid and play one dealt hand; leaves the result in ``pub`` (see ``play_rest``)."""
    reset_public(pub, hands, dealer, score0, score1, bags0, bags1, hands_played, rules)
    return play_rest(pub, hands, slots, params, rules, seq, 0, err)


@kernel
def play_hands_kernel(seed, start, n, dealer, keep, slots, params, rules, err):
    """Deals ``start .. start+n-1``: the record arrays of ``record_arrays``, the cards of each
    hand in play order (``keep``; else an empty array), and the rows done."""
    bids, blind, tricks_won, sheet, nil = record_arrays(n)
    plays = np.empty((n if keep else 0, 52), dtype=np.int8)
    pub = np.zeros(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    seq = np.zeros(52, dtype=np.int64)
    for i in range(n):
        deal_from_state(stream_state(seed, start + i, DEAL_STREAM), hands)
        if not play_one_hand(pub, hands, dealer, 0, 0, 0, 0, 0, slots, params, rules, seq, err):
            return bids, blind, tricks_won, sheet, nil, plays, i
        record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil)
        if keep:
            for j in range(52):
                plays[i, j] = seq[j] & 63
    return bids, blind, tricks_won, sheet, nil, plays, n


@kernel
def play_matches_kernel(seed, start, n, keep, slots, params, rules, err):
    """Matches ``start .. start+n-1``; one row per hand plus each row's match, hand, dealer
    and winner (-1 until a match's last hand), and the cards in play order (``keep``)."""
    cap = max(16, n * 24)
    bids, blind, tricks_won, sheet, nil = record_arrays(cap)
    meta = np.empty((cap, 4), dtype=np.int64)
    plays = np.empty((cap if keep else 0, 52), dtype=np.int8)
    pub = np.zeros(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    seq = np.zeros(52, dtype=np.int64)
    row = 0
    for m in range(start, start + n):
        dealer = match_first_dealer(seed, m)
        score0 = score1 = bags0 = bags1 = 0
        for k in range(MAX_MATCH_HANDS):
            if row == cap:
                cap *= 2
                bids, blind, tricks_won = grow(bids, cap), grow(blind, cap), grow(tricks_won, cap)
                sheet, nil, meta = grow(sheet, cap), grow(nil, cap), grow(meta, cap)
                if keep:
                    plays = grow(plays, cap)
            deal_match_hand(seed, m, k, hands)
            if not play_one_hand(pub, hands, dealer, score0, score1, bags0, bags1, k, slots, params, rules, seq, err):
                return bids[:row], blind[:row], tricks_won[:row], sheet[:row], nil[:row], meta[:row], plays[:row]
            record_hand(pub, rules, row, bids, blind, tricks_won, sheet, nil)
            if keep:
                for j in range(52):
                    plays[row, j] = seq[j] & 63
            meta[row, 0], meta[row, 1], meta[row, 2] = m, k, dealer
            score0, score1, bags0, bags1, winner, dealer = after_hand(sheet[row], k, dealer, rules)
            meta[row, 3] = winner
            row += 1
            if winner >= 0:
                break
    return bids[:row], blind[:row], tricks_won[:row], sheet[:row], nil[:row], meta[:row], plays[: row if keep else 0]
