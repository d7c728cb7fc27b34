"""Hard and Crazy: determinized Monte Carlo agents, the two strongest levels of RULES.md.

Before each card, Hard samples ``worlds`` deals of the unseen cards that fit everything it has
seen (``sampling``), plays every distinct legal card in each of them (cards of equal value in a
suit count once: all ranks between them are its own or played to earlier tricks), finishes the hand with the
Normal policy at every seat, and plays the card with the best mean value. The same worlds serve
every candidate card (common random numbers). Before bidding it does the same for each
plausible bid (nil included), with the later bidders bidding as Normal would.

A finished hand's value to the seat's team is ``utility``: the difference between the teams'
points, with every bag charged its real cost (``bag_penalty / bag_limit`` for each bag the hand
adds to the count, the penalty itself counted when the count reaches the limit), that cost
halved for a team within ``NEAR_TARGET`` (150) points of the target, where the match is likely
to end before the bags come due, and ``MATCH_BONUS`` (300) when the hand ends the match (target,
loss threshold or max hands) in the team's favour, minus it against.

With ``solver_tricks`` k > 0 (``make_agent("hard", solver_tricks=k)``) the rollouts stop when
k tricks remain and the rest of each world is solved exactly (``engine.solver``: every card of
the world visible, Hard's team maximizing ``utility``, the other team minimizing it), so the
decisions of the last k tricks are exact in each world; Normal's mistakes in the endgame no
longer blur the values of earlier cards and bids.
Under ``closed_bidding`` a bidder has not seen the bids before it: in each sampled world it
imagines them as the rollout policy would bid with the cards there (``imagine_hidden_bids``).
When the rules pass cards, Hard and Crazy pass as their rollout policy does, and the sampler
keeps the cards a seat passed with its partner.

Blind nil, when the rules allow it, is decided before looking: Hard imagines ``worlds`` whole
deals (its own 13 cards unknown too; Crazy weighs them by the bids made so far), and in each
plays the hand out twice, once after a blind nil and once after the bid the rollout policy
would make with the cards it would then see. Here the objective is the match: ``win_chance``,
the chance of winning the match after the hand (1 or 0 when the hand ends it, otherwise a
normal approximation on the score difference, bags at their cost, and the hands left), because
a blind nil is a gamble whose worth depends on the score: far behind late in the match a +-200
swing is worth more than its expected points. It bids blind nil only when that chance is
clearly higher (``anchored_choice``, looking at the cards being the anchor).
``make_agent("hard", blind_nil=False)`` never bids it.

With ``racing`` (``make_agent("hard", racing=True)``) the candidates race over the worlds: one
clearly worse than the best so far (``RACE_Z`` standard errors of the paired difference, checked
after 32 worlds and then every quarter more) stops playing worlds (``evaluate``); the final
choice is still ``anchored_choice`` among the survivors, on Normal's choice, or on the candidate
that clearly beat it if Normal's was dropped. With ``thrift`` a card is replaced by the cheapest
card with the same effect on the current trick (``trick_effect``: a lower card of its suit, or
a side card for a spade) unless the rollouts show the dearer one clearly gains
(``thrifty_choice``): the equal-value noise of the evaluation no longer decides which card of
equal effect is spent (``experiments/waste.py`` measures it).

Crazy is Hard with far more worlds, exact finishes (``solver_tricks=3``) and bid-aware
sampling: each world is weighted by how well the hidden hands in it explain the bids their
holders made (a Normal-like bidder with Gaussian noise; a nil asks for a nil-safe hand) and,
with ``read_play=True`` (off by default: not measured to help yet), by how likely the cards
the other seats have played are with the hands they hold there (``inference``: Normal's play
with noise ``play_noise``). When the weights collapse (effective sample size below
``min(n / 4, 32)`` worlds) it tempers them toward uniform and counts the fallback.
"""

import math

import numpy as np

from spades_ai.agents.candidates import distinct_cards, play_candidates, trick_mask  # noqa: F401 (Hard's API)
from spades_ai.agents.inference import play_log_likelihood
from spades_ai.agents.normal import estimate_tricks, nil_safe
from spades_ai.agents.sampling import count_worlds, revealed_spades, sample_world, world_constraints
from spades_ai.agents.tactics import trick_status, winners_over
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.bits import ONE, RANK_OF, SUIT_MASK, U64, ZERO, lowest_bit, lowest_index, popcount, suit_of
from spades_ai.engine.deal import deal_for
from spades_ai.engine.jit import kernel
from spades_ai.engine.score import F_BAGS, F_POINTS, F_SCORE, N_FIELDS, match_winner, score_hand
from spades_ai.engine.solver import STATS, TT_WAYS, TT_WIDTH, objective_values, position_value
from spades_ai.engine.state import (
    N_PUBLIC,
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_BROKEN,
    P_DEALER,
    P_DECK,
    P_HANDS_PLAYED,
    P_N_BIDS,
    P_PHASE,
    P_PLAYED,
    P_PLAYED_BY,
    P_SCORES,
    P_TO_ACT,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_WON,
    PHASE_BIDDING,
    PHASE_PASSING,
    PHASE_PLAYING,
    apply_bid,
    apply_card,
    choose_pass,
    legal_now,
    pass_count,
    pass_ok,
)
from spades_ai.kernels import BLIND_NIL, decision_stream
from spades_ai.rules import NO_TARGET, R_BAG_LIMIT, R_BAG_PENALTY, R_CLOSED, R_FIRST_LEAD, R_MAX_HANDS, R_SPADE_LEAD, R_TARGET

# codegen replaces the lines between the markers below: keep them out of import sorting.
# isort: off
# -- rollout policy: a kernel agent's bid and play (spades_ai.kernels) -------------------------
# A specialised copy of this module, made by spades_ai.agents.codegen for
# make_agent("hard", rollout=agent), replaces the lines between these markers.
from spades_ai.agents.normal import normal_agent_bid as rollout_bid  # noqa: E402
from spades_ai.agents.normal import normal_agent_play as rollout_play  # noqa: E402
from spades_ai.agents.normal import normal_agent_pass as rollout_pass  # noqa: E402

# -- end of rollout policy ---------------------------------------------------------------------
# isort: on

MATCH_BONUS = 300.0
#: A team this close to the target pays ``NEAR_TARGET_BAG_COST`` of a bag's cost (see ``utility``).
NEAR_TARGET = 150
NEAR_TARGET_BAG_COST = 0.5
#: How many standard errors a candidate must beat Normal's choice by (see ``anchored_choice``).
ANCHOR_Z = 2.0
#: Racing (``make_agent("hard", racing=True)``): a candidate this many standard errors of the
#: paired difference below the leader stops playing worlds (``race_drop``); the first check
#: after ``RACE_BATCH`` worlds, then every quarter more worlds, at least ``RACE_BATCH`` more.
RACE_Z = 3.0
RACE_BATCH = 32
BID_SIGMA = 1.2
#: Bid-aware weights keep at least this many effective worlds (or a quarter of them).
MIN_EFFECTIVE_WORLDS = 32.0
#: The exact finishes' transposition table: 2**SOLVER_TABLE_BITS rows (the Python solver's
#: size for up to 5 tricks), cleared once per decision; each search takes a new generation.
SOLVER_TABLE_BITS = 12
SOLVER_SHIFT = 64 - SOLVER_TABLE_BITS + TT_WAYS.bit_length() - 1
SOLVER_GENERATIONS = 4095
#: ``win_chance``'s match model: a team scores about this many points a hand ...
POINTS_PER_HAND = 60.0
#: ... and the difference between the teams moves by about this much a hand (standard deviation).
HAND_SIGMA = 100.0


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


@kernel
def rollout(pub, hands, rules):
    """Finish the hand from any point with the rollout policy at every seat (passes and bids
    included). An illegal action of the policy raises rather than corrupting the world."""
    rollout_until(pub, hands, rules, 0)


@kernel
def rollout_until(pub, hands, rules, tricks_left):
    """``rollout`` until the hand is over or ``tricks_left`` tricks remain between tricks (0:
    to the end); from a point with fewer left it only finishes the current trick."""
    if pub[P_PHASE] == PHASE_PASSING:
        rollout_passes(pub, hands, rules)
    while pub[P_PHASE] == PHASE_BIDDING:
        seat = pub[P_TO_ACT]
        legal = legal_bids(seat, hands[seat], pub, rules) & 0x3FFF
        b = rollout_bid(pub, seat, hands[seat], legal, rules)
        if b < 0 or b > 13 or not (legal >> b) & 1:
            raise ValueError("the rollout policy made an illegal bid")
        apply_bid(pub, hands, b, False, rules)
    if pub[P_PHASE] == PHASE_PASSING:
        rollout_passes(pub, hands, rules)
    while pub[P_PHASE] == PHASE_PLAYING:
        if pub[P_TRICK_LEN] == 0 and 13 - pub[P_TRICK_NO] <= tricks_left:
            return
        seat = pub[P_TO_ACT]
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
    for i in range(sim[P_N_BIDS]):
        s = (sim[P_DEALER] + 1 + i) & 3
        if sim[P_BIDS + s] < 0:
            legal = legal_bids(s, hands[s], sim, rules) & 0x3FFF
            sim[P_BIDS + s] = rollout_bid(sim, s, hands[s], legal, rules)


@kernel
def utility(pub, rules, team, sheet, nil_out):
    """Value of the finished hand in ``pub`` to ``team``: point difference, bags at their cost,
    and the match's end."""
    score_hand(pub[P_BIDS : P_BIDS + 4], pub[P_BLIND : P_BLIND + 4], pub[P_WON : P_WON + 4],
               pub[P_SCORES : P_SCORES + 2], pub[P_BAGS : P_BAGS + 2], rules, sheet, nil_out)
    per_bag = rules[R_BAG_PENALTY] / rules[R_BAG_LIMIT]
    value = np.zeros(2)
    for t in range(2):
        # Bags still on the count will cost their share of a penalty later, unless the match
        # is about to end (then they are nearly free).
        near_end = sheet[t, F_SCORE] >= rules[R_TARGET] - NEAR_TARGET
        cost = per_bag * (NEAR_TARGET_BAG_COST if near_end else 1.0)
        value[t] = sheet[t, F_POINTS] - cost * (sheet[t, F_BAGS] - pub[P_BAGS + t])
    v = value[team] - value[1 - team]
    w = match_winner(sheet[0, F_SCORE], sheet[1, F_SCORE], pub[P_HANDS_PLAYED] + 1, rules)
    if w >= 0:
        v += MATCH_BONUS if w == team else -MATCH_BONUS
    return v


@kernel
def fill_leaf(leaf, pub, rules, team, scratch, sheet, nil_out):
    """``leaf[t0, t1, t2, t3]`` = ``utility`` to ``team`` of the hand of ``pub`` (bids all
    made) finished with seat s holding ``t_s`` tricks, for every finish reachable from the
    tricks won in ``pub``: the solver's objective. ``scratch`` is an ``N_PUBLIC`` array."""
    n = 13 - pub[P_TRICK_NO]
    scratch[:] = pub
    w0 = pub[P_WON]
    w1 = pub[P_WON + 1]
    w2 = pub[P_WON + 2]
    w3 = pub[P_WON + 3]
    for x0 in range(n + 1):
        for x1 in range(n + 1 - x0):
            for x2 in range(n + 1 - x0 - x1):
                x3 = n - x0 - x1 - x2
                scratch[P_WON] = w0 + x0
                scratch[P_WON + 1] = w1 + x1
                scratch[P_WON + 2] = w2 + x2
                scratch[P_WON + 3] = w3 + x3
                leaf[w0 + x0, w1 + x1, w2 + x2, w3 + x3] = utility(scratch, rules, team, sheet, nil_out)


@kernel
def solver_generation(tt, gen):
    """A generation for the next exact search (``gen[0]`` counts them); the table is cleared
    when the 12-bit generations run out, so no search sees another's rows."""
    g = gen[0] + 1
    if g > SOLVER_GENERATIONS:
        tt[:] = 0
        g = 1
    gen[0] = g
    return U64(g)


@kernel
def finish_value(sim, hs, rules, team, solver_tricks, leaf, leaf_ready, tt, gen, stats, won, scratch, sheet,
                 nil_out):
    """Value to ``team`` of the world ``(sim, hs)`` finished by the rollout policy, except that
    once ``solver_tricks`` (> 0) tricks remain the rest is solved exactly on ``utility``, both
    teams playing their best with every card visible. ``leaf_ready``: ``leaf`` already holds
    every finish reachable from here (the bids were known at the decision), else it is filled
    for this world's bids."""
    rollout_until(sim, hs, rules, solver_tricks)
    if sim[P_PHASE] != PHASE_PLAYING:
        return utility(sim, rules, team, sheet, nil_out)
    if not leaf_ready:
        fill_leaf(leaf, sim, rules, team, scratch, sheet, nil_out)
    for s in range(4):
        won[s] = sim[P_WON + s]
    return position_value(hs, sim[P_TO_ACT], won, sim[P_BROKEN] != 0, team, leaf, rules[R_SPADE_LEAD],
                          rules[R_FIRST_LEAD], tt, solver_generation(tt, gen), SOLVER_SHIFT, stats)


@kernel
def win_chance(pub, rules, team, sheet, nil_out):
    """The chance that ``team`` wins the match, after the finished hand in ``pub``.

    1 or 0 when the hand ends the match. Otherwise the score difference (each bag on the count
    charged ``bag_penalty / bag_limit``) against a random walk of ``HAND_SIGMA`` a hand over the
    hands left: the target's distance from the leader at ``POINTS_PER_HAND`` a hand, or the
    hands ``max_hands`` leaves, whichever is fewer.
    """
    score_hand(pub[P_BIDS : P_BIDS + 4], pub[P_BLIND : P_BLIND + 4], pub[P_WON : P_WON + 4],
               pub[P_SCORES : P_SCORES + 2], pub[P_BAGS : P_BAGS + 2], rules, sheet, nil_out)
    s0, s1 = sheet[0, F_SCORE], sheet[1, F_SCORE]
    w = match_winner(s0, s1, pub[P_HANDS_PLAYED] + 1, rules)
    if w >= 0:
        return 1.0 if w == team else 0.0
    per_bag = rules[R_BAG_PENALTY] / rules[R_BAG_LIMIT]
    mine = sheet[team, F_SCORE] - per_bag * sheet[team, F_BAGS]
    d = mine - (sheet[1 - team, F_SCORE] - per_bag * sheet[1 - team, F_BAGS])
    left = 1e9
    if rules[R_TARGET] != NO_TARGET:
        left = max(1.0, (rules[R_TARGET] - max(s0, s1)) / POINTS_PER_HAND)
    if rules[R_MAX_HANDS] > 0:
        left = min(left, max(1.0, rules[R_MAX_HANDS] - pub[P_HANDS_PLAYED] - 1.0))
    return 0.5 * (1.0 + math.erf(d / (HAND_SIGMA * math.sqrt(2.0 * left))))


@kernel
def mc_blind_nil(pub, seat, rules, n_worlds, max_rollouts, bid_aware, state):
    """Whether to bid blind nil, decided before looking (see the module docstring); and whether
    the bid-aware weights fell back."""
    n = worlds_for(n_worlds, max_rollouts, 2)
    worlds = np.empty((n, 4), dtype=np.uint64)
    hands = np.empty(4, dtype=np.uint64)
    for i in range(n):
        # Nothing is seen yet (no card played; no pass, which blind nil excludes): any deal fits.
        state = deal_for(state, hands, rules)
        worlds[i] = hands
    fell_back = False
    if bid_aware:
        weights, fell_back = world_weights(pub, seat, worlds, n, rules)
    else:
        weights = np.ones(n)
    values = np.empty((n, 2))
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hs = np.empty(4, dtype=np.uint64)
    sheet = np.empty((2, N_FIELDS), dtype=np.int64)
    nil_out = np.empty(4, dtype=np.int64)
    closed = rules[R_CLOSED] != 0
    for i in range(n):
        for j in range(2):
            sim[:] = pub
            hs[:] = worlds[i]
            if closed:
                imagine_hidden_bids(sim, hs, rules)
            if j == 0:  # look, then bid as the rollout policy would with these cards
                legal = legal_bids(seat, hs[seat], sim, rules) & 0x3FFF
                apply_bid(sim, hs, rollout_bid(sim, seat, hs[seat], legal, rules), False, rules)
            else:
                apply_bid(sim, hs, 0, True, rules)
            rollout(sim, hs, rules)
            values[i, j] = win_chance(sim, rules, seat & 1, sheet, nil_out)
    return anchored_choice(values, weights, 0, ANCHOR_Z) == 1, fell_back


@kernel
def bid_log_likelihood(bid, hand, rules):
    """log P(bid | hand) under the bidding model (Normal's count with Gaussian noise)."""
    if bid == 0:
        return np.log(0.9) if nil_safe(hand) and estimate_tricks(hand, rules) < 2.0 else np.log(0.03)
    d = (bid - 0.1 - estimate_tricks(hand, rules)) / BID_SIGMA
    return -0.5 * d * d


@kernel
def _ess(logw, t):
    """Effective sample size of the weights ``exp(t * logw)`` (``logw`` has maximum 0)."""
    s1 = 0.0
    s2 = 0.0
    for x in logw:
        w = np.exp(t * x)
        s1 += w
        s2 += w * w
    return s1 * s1 / s2


@kernel
def world_weights(pub, seat, worlds, n, rules, bids=True, play_eps=0.0):
    """Bid-aware weights of ``n`` sampled worlds (rows of ``worlds``); returns (weights, tempered).

    Each world is weighted by the likelihood of every known, non-blind bid of the other seats
    given that seat's hand in the world (the cards it holds there plus those it has played).
    A bid that states a spade count (mirror, whiz) is skipped: the sampler already holds every
    world to it exactly. ``bids=False`` leaves the bids out; ``play_eps`` > 0 multiplies in the
    likelihood of the cards the other seats have played (``inference``: Normal's play with noise
    ``play_eps``).
    When the weights collapse (effective sample size below ``min(n / 4, 32)``) they are
    tempered, ``w ** t`` with the largest ``t`` in [0, 1] that keeps that many effective
    worlds (``t = 0`` is uniform sampling), and the decision counts as a fallback.
    """
    logw = np.zeros(n)
    for k in range(1, 4):
        o = (seat + k) & 3
        b = pub[P_BIDS + o]
        if not bids or b < 0 or pub[P_BLIND + o] != 0 or revealed_spades(pub, o, rules) >= 0:
            continue
        played = U64(pub[P_PLAYED_BY + o])
        for i in range(n):
            logw[i] += bid_log_likelihood(b, worlds[i, o] | played, rules)
    if play_eps > 0.0 and pub[P_PHASE] == PHASE_PLAYING:
        play_log_likelihood(pub, seat, worlds, n, play_eps, rules, logw)
    logw -= logw.max()
    floor = max(2.0, min(0.25 * n, MIN_EFFECTIVE_WORLDS))
    if _ess(logw, 1.0) >= floor:
        return np.exp(logw), False
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if _ess(logw, mid) >= floor:
            lo = mid
        else:
            hi = mid
    return np.exp(lo * logw), True


@kernel
def sample_worlds(state, pub, seat, hand, rules, n):
    """``n`` consistent worlds as rows of four bitboards (the seat's own hand included), drawn
    exactly uniformly among the deals that fit the observation (``sampling``)."""
    unseen, others, need, lo, hi, known = world_constraints(pub, seat, hand, rules)
    f = count_worlds(unseen, need, lo, hi)
    worlds = np.empty((n, 4), dtype=np.uint64)
    hands = np.empty(4, dtype=np.uint64)
    for i in range(n):
        state = sample_world(state, f, unseen, others, need, lo, hi, hands)
        for k in range(3):
            hands[others[k]] |= known[others[k]]
        hands[seat] = hand
        worlds[i] = hands
    return state, worlds


@kernel
def weight_sums(weights, n):
    """``(sum, sum of squares)`` of the first ``n`` world weights, summed in order (as compiled
    ``weights.sum()`` does: numpy's own sum, run when the JIT is off, adds pairwise, which can
    change the last bits and so, rarely, a decision)."""
    w_sum = 0.0
    w2_sum = 0.0
    for i in range(n):
        w_sum += weights[i]
        w2_sum += weights[i] * weights[i]
    return w_sum, w2_sum


@kernel
def paired_advantage(values, weights, n, a, b, w_sum, n_eff):
    """``(mean, standard error)`` of candidate ``a``'s advantage over ``b``, paired world by
    world over the first ``n`` worlds, weighted (``w_sum`` and the effective count ``n_eff``
    from ``weight_sums``)."""
    mean = 0.0
    for i in range(n):
        mean += weights[i] * (values[i, a] - values[i, b])
    mean /= w_sum
    var = 0.0
    for i in range(n):
        d = values[i, a] - values[i, b] - mean
        var += weights[i] * d * d
    var /= w_sum
    return mean, np.sqrt(var / max(n_eff - 1.0, 1.0))


@kernel
def anchored_choice(values, weights, anchor, z):
    """Index of the candidate to play: the anchor (Normal's choice) unless another candidate's
    weighted mean advantage over it, paired world by world, exceeds ``z`` standard errors.

    Picking the largest of several noisy means favours the luckiest estimate (the winner's
    curse): with few worlds Hard would bid and play wildly. Anchoring on Normal's choice makes
    a small budget fall back to Normal rather than below it.
    """
    n, k = values.shape
    w_sum, w2_sum = weight_sums(weights, n)
    n_eff = w_sum * w_sum / w2_sum
    best = anchor
    best_mean = 0.0
    for j in range(k):
        if j == anchor:
            continue
        mean, se = paired_advantage(values, weights, n, j, anchor, w_sum, n_eff)
        if mean - z * se > 0.0 and mean > best_mean:
            best, best_mean = j, mean
    return best


@kernel
def trick_effect(pub, seat, hand, card):
    """The effect of ``card`` on the current trick, as a number (equal numbers: the same
    effect; ``experiments/waste.py`` states the definition and tests it):
    last to play, the team that wins the trick, or the seat when that team has a nil bidder;
    earlier, 0 if the card does not beat the trick so far, otherwise its suit and how many
    cards a later seat may hold above it in that suit."""
    n = pub[P_TRICK_LEN]
    win, win_seat, led = trick_status(pub)
    beats = n == 0 or winners_over(ONE << U64(card), win, led) != ZERO
    if n == 3:
        w = seat if beats else win_seat
        t = w & 1
        if pub[P_BIDS + t] == 0 or pub[P_BIDS + t + 2] == 0:
            return 100 + w
        return 200 + t
    if not beats:
        return 0
    unseen = U64(pub[P_DECK]) & ~(hand | U64(pub[P_PLAYED]))
    suit = suit_of(card)
    above = popcount(unseen & SUIT_MASK[suit] & ~((ONE << U64(card + 1)) - ONE))
    return 300 + 14 * suit + above


@kernel
def thrift_cost(card):
    """What playing ``card`` spends: any spade (or lane card) costs more than any side card;
    within each, by rank."""
    return (suit_of(card) == 3) * 100 + RANK_OF[card]


@kernel
def thrifty_choice(values, weights, alive, ids, chosen, pub, seat, hand, z):
    """Keep the gains, drop the noise: the cheapest candidate with the same effect on the
    current trick as ``chosen`` (``trick_effect``; cheaper: lower in the same suit, or a side
    card for a spade) whose value is not clearly below the chosen one's (the chosen card's mean
    advantage, paired world by world, under ``z`` standard errors); ``chosen`` if there is none.
    A dearer card is played only where the rollouts show it gains."""
    n = values.shape[0]
    c = ids[chosen]
    eff = trick_effect(pub, seat, hand, c)
    w_sum, w2_sum = weight_sums(weights, n)
    n_eff = w_sum * w_sum / w2_sum
    best = chosen
    best_cost = thrift_cost(ids[chosen])
    for j in range(len(ids)):
        a = ids[j]
        if j == chosen or not alive[j]:
            continue
        if not ((suit_of(a) == suit_of(c) and a < c) or (suit_of(c) == 3 and suit_of(a) != 3)):
            continue
        cost = thrift_cost(a)
        if cost >= best_cost or trick_effect(pub, seat, hand, a) != eff:
            continue
        mean, se = paired_advantage(values, weights, n, chosen, j, w_sum, n_eff)
        if mean <= z * se:
            best, best_cost = j, cost
    return best


@kernel
def worlds_for(n_worlds, max_rollouts, n_candidates):
    """Worlds to sample: ``n_worlds``, fewer when ``max_rollouts`` (if > 0) caps the playouts
    (one per world and candidate) of a decision with many candidates."""
    if max_rollouts > 0:
        return max(1, min(n_worlds, max_rollouts // n_candidates))
    return n_worlds


@kernel
def race_drop(values, weights, n_done, alive, anchor, z):
    """Racing: after the first ``n_done`` worlds, drop (``alive[j] = False``) every candidate
    whose weighted mean is below the leader's (the alive candidate with the best mean so far)
    by more than ``z`` standard errors of the paired difference, world by world. Returns the
    anchor for ``anchored_choice``: ``anchor``, or the leader if the anchor was dropped (the
    leader beat it clearly, so it stands in for it: another candidate must beat the leader
    clearly to be played)."""
    k = values.shape[1]
    w_sum, w2_sum = weight_sums(weights, n_done)
    if w_sum <= 0.0:
        return anchor
    n_eff = w_sum * w_sum / w2_sum
    leader = -1
    best = -np.inf
    for j in range(k):
        if alive[j]:
            m = 0.0
            for i in range(n_done):
                m += weights[i] * values[i, j]
            if m > best:
                leader, best = j, m
    for j in range(k):
        if not alive[j] or j == leader:
            continue
        mean, se = paired_advantage(values, weights, n_done, leader, j, w_sum, n_eff)
        if mean > z * se:
            alive[j] = False
    return anchor if alive[anchor] else leader


@kernel
def next_race_check(n_done):
    """The world count of the next racing check: every quarter more worlds, at least
    ``RACE_BATCH`` more (checks at 32, 64, 96, 128, 160, 200, 250, ...)."""
    return n_done + max(RACE_BATCH, n_done // 4)


@kernel
def evaluate(pub, seat, hand, rules, choices, is_bid, n_worlds, bid_aware, state, solver_tricks, race_z, anchor, play_eps=0.0):
    """Play each choice (card ids, or bids when ``is_bid``) in ``n_worlds`` sampled worlds and
    finish the hand with Normal: ``(values[world, choice], world weights, fell_back, alive,
    anchor)``. Every choice meets the same worlds (common random numbers).

    With ``race_z`` > 0 the choices race: at checks after 32, 64, 96, 128, 160, 200, ... worlds
    (``next_race_check``), a choice whose mean so far is below the leader's by more than
    ``race_z`` standard errors of the paired difference is dropped (``race_drop``) and plays no
    more worlds: its ``alive`` entry is False and its values from then on are NaN. If the
    ``anchor`` (Normal's choice) is dropped, the leader that beat it becomes the anchor. When one
    choice is left the race stops: the rows returned are the worlds played. ``race_z`` <= 0:
    every choice plays every world (``alive`` all True, ``anchor`` unchanged).

    With ``solver_tricks`` k > 0 the last k tricks of every world are solved exactly instead
    (``finish_value``); a card chosen with k tricks or fewer left (this one included) gets its
    exact value in each world from one search of the world (``objective_values``), which
    values every card at once (no racing there). With ``play_eps`` > 0 the worlds are also
    weighted by the cards the other seats played (``world_weights``, ``inference``)."""
    state, worlds = sample_worlds(state, pub, seat, hand, rules, n_worlds)
    fell_back = False
    if bid_aware or play_eps > 0.0:
        weights, fell_back = world_weights(pub, seat, worlds, n_worlds, rules, bid_aware, play_eps)
    else:
        weights = np.ones(n_worlds)
    n_c = len(choices)
    values = np.empty((n_worlds, n_c))
    alive = np.ones(n_c, dtype=np.bool_)
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hs = np.empty(4, dtype=np.uint64)
    sheet = np.empty((2, N_FIELDS), dtype=np.int64)
    nil_out = np.empty(4, dtype=np.int64)
    team = seat & 1
    closed = rules[R_CLOSED] != 0 and pub[P_PHASE] == PHASE_BIDDING
    # Exact finishes: the leaf table (filled once here when the bids are known), one
    # transposition table for the decision, a new generation per search.
    exact = solver_tricks > 0
    leaf = np.empty((14, 14, 14, 14) if exact else (1, 1, 1, 1))
    scratch = np.empty(N_PUBLIC, dtype=np.int64)
    leaf_ready = not is_bid
    if exact and leaf_ready:
        fill_leaf(leaf, pub, rules, team, scratch, sheet, nil_out)
    tt = np.zeros(TT_WIDTH << SOLVER_TABLE_BITS if exact else 0, dtype=np.uint64)
    gen = np.zeros(1, dtype=np.int64)
    stats = np.zeros(STATS, dtype=np.int64)
    won = np.empty(4, dtype=np.int64)
    if exact and not is_bid and 13 - pub[P_TRICK_NO] <= solver_tricks:
        n_trick = pub[P_TRICK_LEN]
        trick = np.empty(n_trick, dtype=np.int64)
        for t in range(n_trick):
            trick[t] = pub[P_TRICK + t]
        for s in range(4):
            won[s] = pub[P_WON + s]
        out = np.empty(56)  # indexed by engine id: the trump lane reaches 55
        for i in range(n_worlds):
            objective_values(worlds[i], seat, trick, won, pub[P_BROKEN] != 0, team, leaf, rules[R_SPADE_LEAD],
                             rules[R_FIRST_LEAD], tt, solver_generation(tt, gen), SOLVER_SHIFT, stats, out)
            for j in range(n_c):
                values[i, j] = out[choices[j]]
        return values, weights, fell_back, alive, anchor
    racing = race_z > 0.0 and n_c > 1
    check = RACE_BATCH if racing else n_worlds
    n_alive = n_c
    for i in range(n_worlds):
        if i == check:
            anchor = race_drop(values, weights, i, alive, anchor, race_z)
            check = next_race_check(i)
            n_alive = 0
            for j in range(n_c):
                if alive[j]:
                    n_alive += 1
            if n_alive == 1:
                return values[:i], weights[:i], fell_back, alive, anchor
        for j in range(n_c):
            if not alive[j]:
                values[i, j] = np.nan
                continue
            sim[:] = pub
            hs[:] = worlds[i]
            if closed:
                imagine_hidden_bids(sim, hs, rules)
            if is_bid:
                apply_bid(sim, hs, choices[j], False, rules)
            else:
                apply_card(sim, hs, choices[j], rules)
            if exact:
                values[i, j] = finish_value(sim, hs, rules, team, solver_tricks, leaf, leaf_ready, tt, gen, stats, won,
                                            scratch, sheet, nil_out)
            else:
                rollout(sim, hs, rules)
                values[i, j] = utility(sim, rules, team, sheet, nil_out)
    return values, weights, fell_back, alive, anchor


@kernel
def raced_choice(values, weights, alive, anchor, z):
    """``anchored_choice`` among the candidates still ``alive`` after a race (all of them
    played every row of ``values``); an index into the full candidate list. ``anchor`` is
    alive (``race_drop`` keeps it so)."""
    n, k = values.shape
    n_alive = 0
    for j in range(k):
        if alive[j]:
            n_alive += 1
    if n_alive == k:
        return anchored_choice(values, weights, anchor, z)
    idx = np.empty(n_alive, dtype=np.int64)
    sub = np.empty((n, n_alive))
    a = 0
    m = 0
    for j in range(k):
        if alive[j]:
            if j == anchor:
                a = m
            idx[m] = j
            for i in range(n):
                sub[i, m] = values[i, j]
            m += 1
    return idx[anchored_choice(sub, weights, a, z)]


@kernel
def mc_play(pub, seat, hand, rules, legal, n_worlds, max_rollouts, bid_aware, state, solver_tricks, race_z, thrift, play_eps=0.0):
    """The card (one-bit mask) chosen over sampled worlds (see ``anchored_choice``; with
    ``race_z`` > 0 the candidates race, ``evaluate``; with ``thrift`` the cheapest card of the
    same effect within noise of it, ``thrifty_choice``); and whether the bid-aware weights fell
    back. ``play_eps`` > 0: the worlds are also weighted by the play (``inference``)."""
    cands = play_candidates(pub, hand, legal)
    if popcount(cands) == 1:
        return cands, False
    n_c = np.int64(popcount(cands))
    ids = np.empty(n_c, dtype=np.int64)
    m = cands
    for j in range(n_c):
        b = lowest_bit(m)
        ids[j] = lowest_index(b)
        m ^= b
    # The anchor: the candidate standing for the rollout policy's card (the lowest of its run).
    policy_card = rollout_play(pub, seat, hand, legal, rules)
    anchor = 0
    for j in range(n_c):
        if ids[j] <= policy_card and suit_of(ids[j]) == suit_of(policy_card):
            anchor = j
    n_worlds = worlds_for(n_worlds, max_rollouts, n_c)
    values, weights, fell_back, alive, anchor = evaluate(pub, seat, hand, rules, ids, False, n_worlds, bid_aware, state,
                                                 solver_tricks, race_z, anchor, play_eps)
    j = raced_choice(values, weights, alive, anchor, ANCHOR_Z)
    if thrift:
        j = thrifty_choice(values, weights, alive, ids, j, pub, seat, hand, ANCHOR_Z)
    return ONE << U64(ids[j]), fell_back


@kernel
def candidate_bids(bid_mask, guess, expected_tricks):
    """The bids Hard weighs: the legal numbers from ``guess - 2`` to ``guess + 3`` (at most
    seven), then nil when it is legal and the hand expects fewer than three tricks."""
    cands = np.empty(8, dtype=np.int64)
    n_c = 0
    for b in range(max(1, guess - 2), min(13, guess + 3) + 1):
        if (bid_mask >> b) & 1 and n_c < 7:
            cands[n_c] = b
            n_c += 1
    if bid_mask & 1 and expected_tricks < 3.0:
        cands[n_c] = 0
        n_c += 1
    return cands[:n_c]


@kernel
def mc_bid(pub, seat, hand, rules, bid_mask, n_worlds, max_rollouts, bid_aware, state, solver_tricks, race_z):
    """The bid chosen over sampled deals (see ``anchored_choice``, anchored on the rollout
    policy's bid; racing as ``mc_play``); and the fallback flag."""
    bid_mask = bid_mask & 0x3FFF
    guess = rollout_bid(pub, seat, hand, bid_mask, rules)
    if bid_mask & 0x3FFE == 0 or popcount(U64(bid_mask)) == 1:
        return guess, False
    cands = candidate_bids(bid_mask, guess, estimate_tricks(hand, rules))
    n_c = len(cands)
    if n_c == 1:
        return cands[0], False
    anchor = 0
    for j in range(n_c):
        if cands[j] == guess:
            anchor = j
    n_worlds = worlds_for(n_worlds, max_rollouts, n_c)
    values, weights, fell_back, alive, anchor = evaluate(pub, seat, hand, rules, cands, True, n_worlds, bid_aware, state,
                                                 solver_tricks, race_z, anchor, 0.0)
    return cands[raced_choice(values, weights, alive, anchor, ANCHOR_Z)], fell_back


# -- the kernel agents (spades_ai.kernels): params = MC_PARAMS ---------------------------------
#: ``play_eps``: the play model's noise in millionths, 0 when the agent does not read the play.
MC_PARAMS = ("seed", "worlds", "rollouts", "bid_aware", "solver_tricks", "blind_nil", "racing", "thrift", "play_eps")
(P_MC_SEED, P_MC_WORLDS, P_MC_ROLLOUTS, P_MC_BID_AWARE, P_MC_SOLVER_TRICKS, P_MC_BLIND_NIL, P_MC_RACING, P_MC_THRIFT,
 P_MC_PLAY_EPS) = range(9)
PLAY_EPS_SCALE = 1_000_000


@kernel
def race_z_of(params):
    """The racing threshold the params ask for (0: no racing)."""
    return RACE_Z if params[P_MC_RACING] != 0 else 0.0


@kernel
def mc_agent_bid(pub, seat, hand, legal, rules, params):
    state = decision_stream(params[P_MC_SEED], pub, seat, hand)
    if hand == ZERO:  # asked about a blind nil, before looking
        if params[P_MC_BLIND_NIL] == 0:
            return 0
        b, _ = mc_blind_nil(pub, seat, rules, params[P_MC_WORLDS], params[P_MC_ROLLOUTS], params[P_MC_BID_AWARE] != 0, state)
        return BLIND_NIL if b else 0
    return mc_bid(pub, seat, hand, rules, legal, params[P_MC_WORLDS], params[P_MC_ROLLOUTS], params[P_MC_BID_AWARE] != 0, state,
                  params[P_MC_SOLVER_TRICKS], race_z_of(params))[0]


@kernel
def mc_agent_play(pub, seat, hand, legal, rules, params):
    state = decision_stream(params[P_MC_SEED], pub, seat, hand)
    c, _ = mc_play(pub, seat, hand, rules, legal, params[P_MC_WORLDS], params[P_MC_ROLLOUTS], params[P_MC_BID_AWARE] != 0, state,
                   params[P_MC_SOLVER_TRICKS], race_z_of(params), params[P_MC_THRIFT] != 0,
                   params[P_MC_PLAY_EPS] / PLAY_EPS_SCALE)
    return lowest_index(c)


@kernel
def mc_agent_pass(pub, seat, hand, n, rules, params):
    """Hard and Crazy pass as their rollout policy does."""
    return rollout_pass(pub, seat, hand, n, rules)
