"""Rollouts: a world played out to its end by the rollout policy at every seat (a template).

The rollout policy (``rollout_bid``, ``rollout_play``, ``rollout_pass``) comes from the binding
module ``_binding`` beside this file: Normal here; ``make_agent("hard", rollout=agent)`` uses a
copy of this package's templates bound to that agent (``montecarlo.binding``). Every kernel
that calls the policy lives in a template module (``rollouts``, ``search``, ``tree_search``),
so a binding compiles only those again; the rest of the library is shared.
"""

import numpy as np

from spades_ai.engine.bids import BID_BITS, legal_bids
from spades_ai.engine.bits import ONE, U64
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.seats import cards_each, n_decks, next_seat
from spades_ai.engine.state import (
    P_BIDS,
    P_DEALER,
    P_N_BIDS,
    P_PHASE,
    P_TO_ACT,
    P_TRICK_LEN,
    P_TRICK_NO,
    PHASE_BIDDING,
    PHASE_PASSING,
    PHASE_PLAYING,
    apply_bid,
    apply_card,
    choose_pass,
    legal_now,
    pass_count,
    pass_ok,
    show_own,
)
from spades_ai.montecarlo.finishes import exact_finish
from spades_ai.montecarlo.utility import utility

from ._binding import rollout_bid, rollout_pass, rollout_play


@kernel
def rollout_passes(pub, hands, rules):
    """Play a passing round out with the rollout policy at every passer (a round that starts in
    the rollout: no pass is chosen yet)."""
    pending = np.zeros(4, dtype=np.uint64)
    while pub[P_PHASE] == PHASE_PASSING:
        seat = pub[P_TO_ACT]
        n = pass_count(pub, rules)
        cards = rollout_pass(pub, seat, hands[seat], n, rules)
        if not pass_ok(hands[seat], cards, n):
            raise ValueError("the rollout policy made an illegal pass")
        choose_pass(pub, hands, pending, seat, cards, rules)



@inline_kernel
def rollout(pub, hands, rules):
    """Finish the hand from any point with the rollout policy at every seat (passes and bids
    included). An illegal action of the policy raises rather than corrupting the world.

    Inlined: compiled apart, this one line optimised all of ``rollout_until`` again."""
    rollout_until(pub, hands, rules, 0)



@kernel
def rollout_until(pub, hands, rules, tricks_left):
    """``rollout`` until the hand is over or ``tricks_left`` tricks remain between tricks (0:
    to the end); from a point with fewer left it only finishes the current trick."""
    if pub[P_PHASE] == PHASE_PASSING:
        rollout_passes(pub, hands, rules)
    while pub[P_PHASE] == PHASE_BIDDING:
        seat = pub[P_TO_ACT]
        show_own(pub, hands, seat, rules)
        legal = legal_bids(seat, hands[seat], pub, rules) & BID_BITS
        b = rollout_bid(pub, seat, hands[seat], legal, rules)
        if b < 0 or b > cards_each(rules) or not (legal >> b) & 1:
            raise ValueError("the rollout policy made an illegal bid")
        apply_bid(pub, hands, b, False, rules)
    if pub[P_PHASE] == PHASE_PASSING:
        rollout_passes(pub, hands, rules)
    copies = n_decks(rules) > 1
    while pub[P_PHASE] == PHASE_PLAYING:
        if pub[P_TRICK_LEN] == 0 and cards_each(rules) - pub[P_TRICK_NO] <= tricks_left:
            return
        seat = pub[P_TO_ACT]
        if copies:  # the policy reads the seat's copies where a view would hold them
            show_own(pub, hands, seat, rules)
        legal = legal_now(pub, hands[seat], rules)
        card = rollout_play(pub, seat, hands[seat], legal, rules)
        if card < 0 or card > 55 or not (legal >> U64(card)) & ONE:
            raise ValueError("the rollout policy played an illegal card")
        apply_card(pub, hands, card, rules)



@kernel
def imagine_hidden_bids(sim, hands, rules):
    """Under closed bidding a bidder's view hides the bids made before it: in a simulated world,
    give each of those seats the bid the rollout policy would make with its cards there (a
    blind nil among them is not imagined)."""
    s = sim[P_DEALER]
    for _ in range(sim[P_N_BIDS]):
        s = next_seat(s, rules)
        if sim[P_BIDS + s] < 0:
            show_own(sim, hands, s, rules)
            legal = legal_bids(s, hands[s], sim, rules) & BID_BITS
            sim[P_BIDS + s] = rollout_bid(sim, s, hands[s], legal, rules)



@kernel
def finish_value(sim, hs, rules, f):
    """Value to ``f.side`` (``utility`` read as ``f.mode``) of the world ``(sim, hs)`` finished
    by the rollout policy, except that once ``f.tricks`` tricks remain the rest is solved
    exactly on ``utility`` (``finishes.exact_finish``, by the decision's ``Finish`` ``f``)."""
    rollout_until(sim, hs, rules, f.tricks)
    if sim[P_PHASE] != PHASE_PLAYING:
        return utility(sim, rules, f.side, f.sheet, f.nil_out, f.mode)
    return exact_finish(sim, hs, rules, f)
