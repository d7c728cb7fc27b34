"""Reading the play: how likely the cards the other seats played are in a sampled world.

Crazy weighs each world by the bids it explains (``weights``) and, with
``read_play``, by the cards: the hand is replayed from the first lead in the world, and at each
card another seat played, the play model says how likely that card was with the cards the seat
held there. The model is Normal's play with noise ``eps``: with probability ``1 - eps`` the seat
plays Normal's card or one of equal value (``candidates.play_candidates``: a run of cards with only
its own or earlier tricks' cards between them is one choice), and ``eps`` is spread evenly over
its other choices. A decision with one choice says nothing. So a world where a seat that ducked
held the ace Normal would have won with pays ``eps / (choices - 1)`` against ``1 - eps``.

The public array is the same in every world at each step of the replay (only the hidden hands
differ), so the replay's public states are built once per decision (``replay_states``) and each
world only asks the play model with its own hands. Log weights are summed; a world whose log
weight falls ``PLAY_CUTOFF`` below the best world seen so far stops its replay (its weight is
already negligible: ``e**-30``; the partial sum it keeps is an upper bound).

With a learned play model (``play_model``: a model's card network, ``models.player``) the chance
of a choice is the network's softmax summed over the choice's cards, mixed with the noise:
``(1 - eps) p + eps / choices``. The model is packed into the agent's params at ``at``
(``at = 0``: no model, Normal's play as above).
"""

import numpy as np

from spades_ai.models.player import card_probabilities
from spades_ai.montecarlo.candidates import play_candidates
from spades_ai.policies.normal import normal_agent_play
from spades_ai.engine.bits import ONE, SUIT_MASK, U64, highest_bit, lowest_index, popcount, suit_of
from spades_ai.engine.jit import kernel
from spades_ai.engine.seats import cards_each, hand_slots, n_seats, next_seat
from spades_ai.engine.state import (
    N_PUBLIC,
    P_BROKEN,
    P_LEADER,
    P_PHASE,
    P_PLAYED,
    P_PLAYED_BY,
    P_TO_ACT,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_VOIDS,
    P_WIN_CARD,
    P_WIN_SEAT,
    P_WON,
    PHASE_PLAYING,
    apply_card,
    clear_history,
    copy_into,
    history_card,
    history_leader,
    legal_now,
)

#: A world this many nats below the best one stops its replay.
PLAY_CUTOFF = 30.0


@kernel
def plays_in_order(pub, rules):
    """``(seats, cards, n)``: the ``n`` cards played so far in the order played, and who played
    each (finished tricks from ``P_HISTORY``, then the current trick)."""
    seats = np.empty(n_seats(rules) * cards_each(rules), dtype=np.int64)
    cards = np.empty(len(seats), dtype=np.int64)
    n = 0
    for t in range(pub[P_TRICK_NO] + 1):
        done = t < pub[P_TRICK_NO]
        s = history_leader(pub, t) if done else pub[P_LEADER]
        for i in range(n_seats(rules) if done else pub[P_TRICK_LEN]):
            seats[n] = s
            cards[n] = history_card(pub, t, i) if done else pub[P_TRICK + i]
            s = next_seat(s, rules)
            n += 1
    return seats, cards, n


@kernel
def replay_states(pub, rules):
    """``(states, seats, cards, n)``: ``states[k]`` is the public array just before the
    ``k``-th card of the hand (``seats[k]`` played ``cards[k]``), rebuilt from ``pub``."""
    seats, cards, n = plays_in_order(pub, rules)
    states = np.empty((max(n, 1), N_PUBLIC), dtype=np.int64)
    sim = pub.copy()
    sim[P_PLAYED] = 0
    for s in range(n_seats(rules)):
        sim[P_PLAYED_BY + s] = 0
        sim[P_TRICK + s] = -1
        sim[P_WON + s] = 0
    clear_history(sim)
    sim[P_TRICK_LEN] = 0
    sim[P_TRICK_NO] = 0
    sim[P_BROKEN] = 0
    sim[P_VOIDS] = 0
    sim[P_WIN_CARD] = -1
    sim[P_WIN_SEAT] = -1
    sim[P_PHASE] = PHASE_PLAYING
    if n > 0:
        sim[P_LEADER] = seats[0]
        sim[P_TO_ACT] = seats[0]
    hands = np.zeros(n_seats(rules), dtype=np.uint64)  # apply_card only takes the card out of its hand
    for k in range(n):
        copy_into(states[k], sim)
        apply_card(sim, hands, cards[k], rules)
    return states, seats, cards, n


@kernel
def choice_of(cands, card):
    """The choice (its lowest card, a bit of ``cands``) that ``card`` belongs to."""
    below = cands & SUIT_MASK[suit_of(card)] & ((ONE << U64(card + 1)) - ONE)
    return highest_bit(below)


@kernel
def card_log_likelihood(state, s, hand, card, log_keep, log_eps, rules, model, at, probs):
    """log P(seat ``s`` plays ``card`` from ``hand`` at public ``state``) under the play model
    (``log_keep = log(1 - eps)``, ``log_eps = log(eps)``; the learned model at ``model[at]``
    when ``at > 0``, ``probs`` its scratch of 56); 0 when it had a single choice."""
    legal = legal_now(state, hand, rules)
    if not (legal >> U64(card)) & ONE:
        raise ValueError("a replayed card is not legal in the world: the world does not fit the play")
    cands = play_candidates(state, hand, legal)
    n_c = popcount(cands)
    if n_c <= 1:
        return 0.0
    mine = choice_of(cands, card)
    if at > 0:
        card_probabilities(state, s, hand, legal, rules, model, at, probs)
        p = 0.0
        m = legal
        while m:
            c = lowest_index(m)
            m &= m - ONE
            if choice_of(cands, c) == mine:
                p += probs[c]
        return np.log((1.0 - np.exp(log_eps)) * p + np.exp(log_eps) / n_c)
    model_card = normal_agent_play(state, s, hand, legal, rules)
    if choice_of(cands, model_card) == mine:
        return log_keep
    return log_eps - np.log(n_c - 1.0)


@kernel
def play_log_likelihood(pub, seat, worlds, n, eps, rules, logw, model, at):
    """Add to ``logw[i]`` the log likelihood of the cards the other seats have played, given
    the hands world ``i`` gives them (rows of ``worlds``: the cards each seat still holds),
    under the play model with noise ``eps`` (module docstring: Normal's play, or the learned
    model packed at ``model[at]`` when ``at > 0``). ``logw`` may already hold the bid weights:
    the cutoff compares whole log weights."""
    if not 0.0 < eps < 1.0:
        raise ValueError("the play noise eps must be in (0, 1)")
    states, seats, cards, m = replay_states(pub, rules)
    log_keep = np.log(1.0 - eps)
    log_eps = np.log(eps)
    hs = np.empty(hand_slots(rules), dtype=np.uint64)
    probs = np.empty(56)
    best = -np.inf
    for i in range(n):
        for s in range(n_seats(rules)):
            hs[s] = worlds[i, s] | U64(pub[P_PLAYED_BY + s])
        ll = logw[i]
        for k in range(m):
            s = seats[k]
            c = cards[k]
            if s != seat:
                ll += card_log_likelihood(states[k], s, hs[s], c, log_keep, log_eps, rules, model, at, probs)
                if ll < best - PLAY_CUTOFF:
                    break
            hs[s] &= ~(ONE << U64(c))
        logw[i] = ll
        if ll > best:
            best = ll
