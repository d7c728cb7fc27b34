"""Determinized Monte Carlo search over sampled worlds: the decisions of Hard and Crazy (a template).

Before each card the search samples worlds, deals of the unseen cards that fit everything the
seat has seen (``sampling``), plays every distinct legal card (``candidates``) in each of them,
finishes the hand with the rollout policy at every seat (``rollouts``) and keeps the policy's
own card unless another is clearly better (``selection``). The same worlds serve every
candidate (common random numbers). Before bidding it does the same for each plausible bid,
nil included (``candidate_bids``), the later bidders bidding as the rollout policy would.

A finished world is worth ``utility`` to the seat's side, read against the other sides as the
``utility`` setting says. With ``solver_tricks`` k > 0 the
rollouts stop when k tricks remain and the rest is solved exactly (``finishes``), and a card
chosen with k tricks or fewer left gets its exact value in each world from one search. Under
``closed_bidding`` a bidder imagines the hidden bids before it as the rollout policy would bid
them (``rollouts.imagine_hidden_bids``). With ``bid_aware`` the worlds are weighted by the bids
(``weights``), and with ``play_eps`` > 0 also by the cards played (``reading``).

Blind nil, when the rules allow it, is decided before looking (``mc_blind_nil``): whole deals are
imagined (the seat's own cards unknown too), each played out once after a blind nil and once
after the bid the rollout policy would make with the cards it would then see, on
``win_chance`` (the chance of winning the match), since a blind nil's worth depends on the score.

Every setting of a search travels as one ``SearchSettings``; ``settings_of(params, rules)``
reads it from a kernel agent's ``params`` (layout ``MC_PARAMS``) at the table of ``rules``. A
decision can also write the value of every candidate (``out``: indexed by card id or bid, NaN
where nothing was evaluated), the very means the choice is made from, for labels and reviews
(``mc_decide``'s ``out``).
"""

from typing import NamedTuple

import numpy as np

from spades_ai.engine.bids import BID_BITS, legal_bids
from spades_ai.engine.bits import ONE, U64, ZERO, lowest_index, popcount
from spades_ai.engine.deal import deal_for
from spades_ai.engine.exact_table import memo_of
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.score import N_FIELDS
from spades_ai.engine.seats import cards_each, hand_slots, n_decks, n_seats, n_sides, side_of
from spades_ai.engine.solver import objective_values
from spades_ai.engine.state import (
    N_PUBLIC,
    P_BROKEN,
    P_PHASE,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_WON,
    PHASE_BIDDING,
    apply_bid,
    apply_card,
    copy_into,
)
from spades_ai.kernels import BLIND_NIL, decision_stream
from spades_ai.models.bidder import learned_bid_values
from spades_ai.montecarlo.candidates import candidate_bids, candidate_ids, class_of, play_candidates
from spades_ai.montecarlo.finishes import (
    FINISH_NONE,
    FINISH_TABLE,
    SOLVER_SHIFT,
    finish_of,
    no_finish,
    solver_generation,
    table_exact_values,
)
from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.montecarlo.selection import (
    ANCHOR_Z,
    RACE_BATCH,
    RACE_Z,
    anchored_choice,
    next_race_check,
    race_drop,
    raced_choice,
    thrifty_choice,
    worlds_for,
)
from spades_ai.montecarlo.utility import DEFAULT_UTILITY, UTILITIES, utility, win_chance
from spades_ai.montecarlo.weights import world_weights_kernel
from spades_ai.policies.normal import estimate_tricks
from spades_ai.rules import R_CLOSED

from ._binding import EXACT_FINISHES, WEIGHTED_WORLDS, rollout_bid, rollout_pass, rollout_play
from .rollouts import finish_value, imagine_hidden_bids, rollout


def _no_model() -> np.ndarray:
    """``SearchSettings.play_model`` where no model is given: read-only, as the params it is
    read from elsewhere (``settings_of`` on an agent's params), so that settings made in Python
    and an agent's settings are one type and a kernel taking them compiles once."""
    empty = np.zeros(1, np.int64)
    empty.flags.writeable = False
    return empty


class SearchSettings(NamedTuple):
    """Every setting of one Monte Carlo decision (``settings_of`` reads them from params)."""

    worlds: int
    """Worlds to sample (fewer when ``rollouts`` caps the playouts)."""
    rollouts: int
    """Cap on playouts per decision, one per world and candidate (0: none)."""
    bid_aware: bool
    """Weigh the worlds by the other seats' bids (``weights``)."""
    solver_tricks: int
    """The last this many tricks of every world solved exactly (0: none)."""
    race_z: float
    """Racing threshold in standard errors (0: no racing)."""
    thrift: bool
    """The cheapest card of the same effect on the trick unless a dearer one gains."""
    play_eps: float
    """Reading the play: the play model's noise (0: the play is not read)."""
    utility: int = UTILITIES.index(DEFAULT_UTILITY)
    """How a world's worth to the seat's side is read against the other sides (``utility``:
    ``UTILITY_OWN``, ``UTILITY_PARANOID`` or ``UTILITY_MEAN``)."""
    play_model: np.ndarray = _no_model()
    """The learned play model of the reading, packed (``Model.params``) from ``play_model_at``."""
    play_model_at: int = 0
    """Where ``play_model`` starts (0: no learned model, Normal's play with noise)."""


# -- one decision: the values of its candidates ------------------------------------------------
# The layers of a decision above ``rollout_values`` (``mc_agent_play`` into the one kernel
# ``mc_decide``, and in it ``card_decision`` -> ``mc_play`` -> ``evaluate``; the same for bids)
# are inlined at numba's IR level: each runs once per decision, and each compiled on its own
# re-optimised and emitted the whole search below it (rollouts, sampling, the rollout policy),
# about 2 s apiece of a cold first Hard run.
@inline_kernel
def evaluate(pub, seat, hand, rules, choices, is_bid, n_worlds, settings, state, anchor):
    """Play each choice (card ids, or bids when ``is_bid``) in ``n_worlds`` sampled worlds:
    ``(values[world, choice], world weights, fell_back, alive, anchor)``. Every choice meets
    the same worlds (common random numbers).

    Racing (``settings.race_z`` > 0, ``rollout_values``) drops clearly worse choices as it goes:
    their ``alive`` entry is False and their later values NaN, and the rows returned are the
    worlds played. With exact finishes and at most ``solver_tricks`` tricks left, a card's value
    in each world is exact (``exact_values``, no racing). ``play_eps`` > 0 (cards only) also
    weighs the worlds by the cards the other seats played."""
    state, worlds = sample_worlds_kernel(state, pub, seat, hand, rules, n_worlds)
    play_eps = 0.0 if is_bid else settings.play_eps
    fell_back = False
    # (a copy of this template without weighted worlds or exact finishes compiles neither: ``_binding``)
    if WEIGHTED_WORLDS and (settings.bid_aware or play_eps > 0.0):
        weights, fell_back = world_weights_kernel(pub, seat, worlds, n_worlds, rules, settings.bid_aware, play_eps,
                                                  settings.play_model, settings.play_model_at)
    else:
        weights = np.ones(n_worlds)
    # The decision's exact finishes, the table's shape read here once (a copy without them compiles none).
    if EXACT_FINISHES:
        f = finish_of(pub, rules, side_of(seat, rules), settings.utility, settings.solver_tricks, not is_bid)
    else:
        f = no_finish(rules, side_of(seat, rules), settings.utility)
    if EXACT_FINISHES and not is_bid and f.plan != FINISH_NONE and cards_each(rules) - pub[P_TRICK_NO] <= f.tricks:
        values = exact_values(pub, seat, rules, choices, worlds, f)
        return values, weights, fell_back, np.ones(len(choices), dtype=np.bool_), anchor
    values, alive, anchor, n_done = rollout_values(pub, seat, rules, choices, is_bid, worlds, weights, settings, anchor,
                                                   f)
    return values[:n_done], weights[:n_done], fell_back, alive, anchor


@kernel
def exact_values(pub, seat, rules, choices, worlds, f):
    """``values[world, choice]``: each card's exact value (``f``: the decision's ``Finish``, its
    leaves filled) in each world, every card visible, from one search of the world that values
    every card at once (``objective_values``); at a table other than four in pairs,
    ``table_exact_values``."""
    if f.plan == FINISH_TABLE:
        return table_exact_values(pub, rules, choices, worlds, f)
    n_worlds, n_c = len(worlds), len(choices)
    values = np.empty((n_worlds, n_c))
    trick = pub[P_TRICK : P_TRICK + pub[P_TRICK_LEN]].copy()
    won = pub[P_WON : P_WON + 4].copy()
    out = np.empty(56)  # indexed by engine id: the trump lane reaches 55
    for i in range(n_worlds):
        objective_values(worlds[i], seat, trick, won, pub[P_BROKEN] != 0, f.side, f.leaf, rules,
                         memo_of(f.tt, solver_generation(f.tt, f.gen), SOLVER_SHIFT, f.stats), out)
        for j in range(n_c):
            values[i, j] = out[choices[j]]
    return values


@kernel
def rollout_values(pub, seat, rules, choices, is_bid, worlds, weights, settings, anchor, f):
    """``(values, alive, anchor, worlds played)``: each choice played in each world and finished
    by the rollout policy (the last ``solver_tricks`` tricks exactly by the decision's
    ``Finish`` ``f``, ``finish_value``). With racing, at checks after 32, 64, 96, 128, 160,
    200, ... worlds (``next_race_check``) a choice clearly below the leader (``race_drop``)
    plays no more worlds (NaN values); if the anchor is dropped, the leader that beat it
    becomes the anchor; one choice left ends it."""
    n_worlds, n_c = len(worlds), len(choices)
    values = np.empty((n_worlds, n_c))
    alive = np.ones(n_c, dtype=np.bool_)
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hs = np.empty(hand_slots(rules), dtype=np.uint64)
    closed = rules[R_CLOSED] != 0 and pub[P_PHASE] == PHASE_BIDDING
    check = RACE_BATCH if settings.race_z > 0.0 and n_c > 1 else n_worlds
    for i in range(n_worlds):
        if i == check:
            anchor = race_drop(values, weights, i, alive, anchor, settings.race_z)
            check = next_race_check(i)
            if alive.sum() == 1:
                return values, alive, anchor, i
        for j in range(n_c):
            if not alive[j]:
                values[i, j] = np.nan
                continue
            copy_into(sim, pub)
            copy_into(hs, worlds[i])
            if closed:
                imagine_hidden_bids(sim, hs, rules)
            if is_bid:
                apply_bid(sim, hs, choices[j], False, rules)
            else:
                apply_card(sim, hs, choices[j], rules)
            if EXACT_FINISHES and f.plan != FINISH_NONE:
                values[i, j] = finish_value(sim, hs, rules, f)
            else:
                rollout(sim, hs, rules)
                values[i, j] = utility(sim, rules, f.side, f.sheet, f.nil_out, f.mode)
    return values, alive, anchor, n_worlds


@kernel
def choice_means(values, weights, choices, out):
    """``out[choices[j]]`` = choice ``j``'s weighted mean value over the worlds it played (a
    choice dropped by racing: those before it was dropped)."""
    for j in range(len(choices)):
        s = 0.0
        w = 0.0
        for i in range(len(weights)):
            if not np.isnan(values[i, j]):
                s += weights[i] * values[i, j]
                w += weights[i]
        out[choices[j]] = s / w


# -- the decisions -------------------------------------------------------------------------------
@inline_kernel
def mc_play(pub, seat, hand, rules, legal, settings, state, out):
    """The card (one-bit mask) chosen over sampled worlds, and whether the bid-aware weights
    fell back: the rollout policy's card unless another is clearly better (``raced_choice``),
    then with ``thrift`` the cheapest card of the same effect within noise of it. A non-empty
    ``out`` (56 values by card id) receives each candidate's mean value and, for every other
    legal card, that of the candidate standing for it (NaN when only one candidate: no search)."""
    cands = play_candidates(pub, hand, legal)
    if popcount(cands) == 1:
        return cands, False
    ids = candidate_ids(cands)
    anchor = class_of(ids, rollout_play(pub, seat, hand, legal, rules))
    n_worlds = worlds_for(settings.worlds, settings.rollouts, len(ids))
    values, weights, fell_back, alive, anchor = evaluate(pub, seat, hand, rules, ids, False, n_worlds, settings, state,
                                                         anchor)
    j = raced_choice(values, weights, alive, anchor, ANCHOR_Z)
    if settings.thrift:
        j = thrifty_choice(values, weights, alive, ids, j, pub, seat, hand, rules, ANCHOR_Z)
    if len(out):
        choice_means(values, weights, ids, out)
        m = legal & ~cands
        while m != ZERO:
            c = lowest_index(m)
            out[c] = out[ids[class_of(ids, c)]]
            m &= m - ONE
    return ONE << U64(ids[j]), fell_back


@inline_kernel
def mc_bid(pub, seat, hand, rules, bid_mask, settings, state, out):
    """The bid chosen over sampled deals, anchored on the rollout policy's bid (racing as
    ``mc_play``), and the fallback flag. A non-empty ``out`` (18 values by bid) receives the
    mean value of each candidate bid (NaN for the others)."""
    bid_mask = bid_mask & BID_BITS
    guess = rollout_bid(pub, seat, hand, bid_mask, rules)
    if bid_mask & BID_BITS & ~1 == 0 or popcount(U64(bid_mask)) == 1:
        return guess, False
    cands = candidate_bids(bid_mask, guess, estimate_tricks(hand, rules))
    n_c = len(cands)
    if n_c == 1:
        return cands[0], False
    anchor = 0
    for j in range(n_c):
        if cands[j] == guess:
            anchor = j
    n_worlds = worlds_for(settings.worlds, settings.rollouts, n_c)
    values, weights, fell_back, alive, anchor = evaluate(pub, seat, hand, rules, cands, True, n_worlds, settings, state,
                                                         anchor)
    if len(out):
        choice_means(values, weights, cands, out)
    return cands[raced_choice(values, weights, alive, anchor, ANCHOR_Z)], fell_back


@kernel
def mc_blind_nil(pub, seat, rules, settings, state):
    """Whether to bid blind nil, decided before looking (see the module docstring); and whether
    the bid-aware weights fell back."""
    n = worlds_for(settings.worlds, settings.rollouts, 2)
    worlds = np.empty((n, hand_slots(rules)), dtype=np.uint64)
    hands = np.empty(hand_slots(rules), dtype=np.uint64)
    for i in range(n):
        # Nothing is seen yet (no card played; no pass, which blind nil excludes): any deal fits.
        state = deal_for(state, hands, rules)
        copy_into(worlds[i], hands)
    fell_back = False
    if WEIGHTED_WORLDS and settings.bid_aware:
        # every argument given, as ``evaluate`` gives them: numba compiles a call that leaves the
        # defaults out as another version of the kernel (and of all it calls)
        weights, fell_back = world_weights_kernel(pub, seat, worlds, n, rules, True, 0.0, settings.play_model,
                                                  settings.play_model_at)
    else:
        weights = np.ones(n)
    values = np.empty((n, 2))
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hs = np.empty(hand_slots(rules), dtype=np.uint64)
    sheet = np.empty((n_sides(rules), N_FIELDS), dtype=np.int64)
    nil_out = np.empty(n_seats(rules), dtype=np.int64)
    closed = rules[R_CLOSED] != 0
    for i in range(n):
        for j in range(2):
            copy_into(sim, pub)
            copy_into(hs, worlds[i])
            if closed:
                imagine_hidden_bids(sim, hs, rules)
            if j == 0:  # look, then bid as the rollout policy would with these cards
                legal = legal_bids(seat, hs[seat], sim, rules) & BID_BITS
                apply_bid(sim, hs, rollout_bid(sim, seat, hs[seat], legal, rules), False, rules)
            else:
                apply_bid(sim, hs, 0, True, rules)
            rollout(sim, hs, rules)
            values[i, j] = win_chance(sim, rules, side_of(seat, rules), sheet, nil_out)
    return anchored_choice(values, weights, 0, ANCHOR_Z) == 1, fell_back


# -- the search as a kernel agent (spades_ai.kernels): params = MC_PARAMS ----------------------
#: The params slots of Hard and Crazy. ``play_eps``: the play model's noise in millionths, 0
#: when the agent does not read the play; ``play_model``: where the learned play model's packed
#: params (``Model.params``) start, after these slots (0: none, Normal's play); ``utility``: the
#: utility's mode (``UTILITY_*``); ``bid_model``: where the packed model whose learned bidder
#: bids for the agent starts (``bidder="learned"``: ``mc_agent_learned_bid``; 0: the search bids).
MC_PARAMS = ("seed", "worlds", "rollouts", "bid_aware", "solver_tricks", "blind_nil", "racing", "thrift", "play_eps", "play_model",
             "utility", "bid_model")
(MC_SEED, MC_WORLDS, MC_ROLLOUTS, MC_BID_AWARE, MC_SOLVER_TRICKS, MC_BLIND_NIL, MC_RACING, MC_THRIFT, MC_PLAY_EPS, MC_PLAY_MODEL,
 MC_UTILITY, MC_BID_MODEL) = range(12)
PLAY_EPS_SCALE = 1_000_000
#: ``params[MC_BID_AWARE]``: the bids left out of the world weights, weighed at every table, or
#: at a table of one deck only (``bid_aware="one_deck"``, Crazy's default: with several decks
#: Normal's bidding model, which the weights read the bids by, misled Crazy at 6 in pairs and
#: 8 solo; ``agents.hard.CRAZY_BID_AWARE``).
BIDS_NEVER, BIDS_ALWAYS, BIDS_ONE_DECK = range(3)
#: ``bid_aware`` as the agents' option names it, to its code in ``params``.
BID_AWARE_CODES = {False: BIDS_NEVER, True: BIDS_ALWAYS, "one_deck": BIDS_ONE_DECK}


@kernel
def bids_weighed(code, rules):
    """Whether a search with ``bid_aware`` code ``code`` (``BIDS_*``) weighs the worlds by the
    bids at the table of ``rules``."""
    return code == BIDS_ALWAYS or (code == BIDS_ONE_DECK and n_decks(rules) == 1)


@kernel
def settings_of(params, rules):
    """The ``SearchSettings`` a kernel agent's ``params`` (``MC_PARAMS``) ask for at the table
    of ``rules``."""
    return SearchSettings(params[MC_WORLDS], params[MC_ROLLOUTS], bids_weighed(params[MC_BID_AWARE], rules), params[MC_SOLVER_TRICKS],
                          RACE_Z if params[MC_RACING] != 0 else 0.0, params[MC_THRIFT] != 0,
                          params[MC_PLAY_EPS] / PLAY_EPS_SCALE, params[MC_UTILITY], params, params[MC_PLAY_MODEL])


# Every decision goes through one compiled kernel, ``mc_decide``; the agent's entries are
# inlined calls of it. numba links every kernel a compiled function calls into it and optimises
# it all again there: the bid and play entries compiled apart each optimised the sampler, the
# rollouts and the rollout policy below them (4 s of a cold first Hard run's 50).
#: What ``mc_decide`` decides: a card, the search's bid, or the learned bidder's where it bids.
DECIDE_CARD, DECIDE_BID, DECIDE_LEARNED_BID = 0, 1, 2


@kernel
def mc_decide(pub, seat, hand, legal, rules, params, out, what):
    """The search's decision ``what`` (``DECIDE_*``; ``legal``: the legal bids, or the legal
    cards' bits as an int64) and whether the bid-aware weights fell back: ``(bid or card id,
    fell_back)``, each candidate's value written into a non-empty ``out`` (56 by card id, 18
    by bid). The agent's Python face calls it too (``agents.hard``), so that a search compiles
    one entry, however it is asked."""
    if what == DECIDE_CARD:
        return card_decision(pub, seat, hand, U64(legal), rules, params, out)
    if what == DECIDE_LEARNED_BID and learned_bids_here(hand, rules):
        return learned_bid_decision(pub, seat, hand, legal, rules, params, out)
    return bid_decision(pub, seat, hand, legal, rules, params, out)


@inline_kernel
def mc_agent_bid(pub, seat, hand, legal, rules, params):
    return mc_decide(pub, seat, hand, legal, rules, params, np.empty(0), DECIDE_BID)[0]


@inline_kernel
def bid_decision(pub, seat, hand, legal, rules, params, out):
    """The search's bid in ``mc_decide`` and the fallback flag; each candidate bid's value into a
    non-empty ``out`` (see ``mc_bid``; NaN where no bid was weighed, everywhere for a blind-nil
    question)."""
    out[:] = np.nan
    state = decision_stream(params[MC_SEED], pub, seat, hand)
    if hand == ZERO:  # asked about a blind nil, before looking
        if params[MC_BLIND_NIL] == 0:
            return 0, False
        b, fell_back = mc_blind_nil(pub, seat, rules, settings_of(params, rules), state)
        return (BLIND_NIL if b else 0), fell_back
    return mc_bid(pub, seat, hand, rules, legal, settings_of(params, rules), state, out)


@inline_kernel
def learned_bids_here(hand, rules):
    """Whether a search with ``bidder="learned"`` bids by the learned bidder here: a sighted bid
    at the table of four in pairs, the only one its model knows. A blind nil (asked before
    looking, where the match's score decides) and every bid at another table are the search's."""
    return hand != ZERO and n_seats(rules) == 4 and n_sides(rules) == 2


@inline_kernel
def mc_agent_learned_bid(pub, seat, hand, legal, rules, params):
    """The bid of a search that bids like the learned agent (``bidder="learned"``): the learned
    bidder of the model packed from ``params[MC_BID_MODEL]`` where ``learned_bids_here``, else
    the search's own (``mc_agent_bid``)."""
    return mc_decide(pub, seat, hand, legal, rules, params, np.empty(0), DECIDE_LEARNED_BID)[0]


@inline_kernel
def learned_bid_decision(pub, seat, hand, legal, rules, params, out):
    """The learned bidder's bid (it never falls back), its expected points into a non-empty
    ``out`` (18 by bid; NaN for a bid it does not weigh), in ``mc_decide``."""
    out[:] = np.nan
    values = np.empty(14)
    values[:] = -np.inf  # (``bid_values`` writes all 14)
    b = learned_bid_values(pub, seat, hand, legal, rules, params, params[MC_BID_MODEL], values)
    if len(out):
        for k in range(14):
            if np.isfinite(values[k]):
                out[k] = values[k]
    return b, False


@inline_kernel
def mc_agent_play(pub, seat, hand, legal, rules, params):
    return mc_decide(pub, seat, hand, np.int64(legal), rules, params, np.empty(0), DECIDE_CARD)[0]


@inline_kernel
def card_decision(pub, seat, hand, legal, rules, params, out):
    """The search's card in ``mc_decide``: its id and the fallback flag; each legal card's value
    into a non-empty ``out`` (see ``mc_play``; NaN for the cards not legal, and for all when
    there was nothing to weigh)."""
    out[:] = np.nan
    state = decision_stream(params[MC_SEED], pub, seat, hand)
    c, fell_back = mc_play(pub, seat, hand, rules, legal, settings_of(params, rules), state, out)
    return lowest_index(c), fell_back


@kernel
def mc_agent_pass(pub, seat, hand, n, rules, params):
    """Hard and Crazy pass as their rollout policy does."""
    return rollout_pass(pub, seat, hand, n, rules)
