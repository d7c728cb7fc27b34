"""The value bidder's rows: each candidate bid of a seat played out in sampled worlds, Normal
finishing (issues 21 and 36).

At every seat's bid of a deal (dealer 0, Normal bidding and playing), the row holds the features
before the bid (``models.features.bid_features``) and, for each candidate of the value bidder
(``models.replay.value_candidate``: Normal's number bid moved by each of ``VALUE_SHIFTS``, then
nil where it is legal and Normal's estimate is below ``explore.NIL_TRIAL_BELOW``; NaN for a bid
not tried), the seat's side's margin when it bids it and Normal finishes the hand from there
(``side_margin`` / ``VALUE_SCALE``), averaged over up to ``worlds`` deals of the cards the seat
does not see. The bidding then goes on with Normal's own bid. It plays the learned models' one
table, four in pairs (``encoding.check_rules`` refuses the rest), so its arrays hold four seats
and two sides.

The first world is the deal's own cards, the hands the earlier bids were made on: one draw from
exactly what the seat should average over. The others are dealt anew by Hard's and Crazy's
sampler (``sampling``: every deal of the 39 unseen cards that fits what the seat has seen equally
likely), from the decision's stream keyed by the rows' seed as a built-in agent's is
(``kernels.decision_stream``), and kept only where Normal, bidding on them, makes every bid made
before the seat's (``bids_agree``): the earlier bidders of these rows are Normal, so the worlds
kept are draws from the exact distribution of the hidden cards given what the seat knows, and a
row's value is the plain mean over its worlds. Crazy's weights (``weights``: Normal's count with
noise) only approximate that; over the few worlds a row can afford they collapse toward uniform,
which put the later seats' labels 10 to 24 points a deal above their own deals' (the rows of
3,000 deals, 16 worlds). A row draws at most ``TRIES`` worlds per world it wants, so where the
earlier bids are rare it keeps fewer (``value_bidding_rows`` returns how many).

One world gives the rows the value bidder was first fitted on (issue 21). More worlds cut the
noise of a label, the nils' above all (a nil turns on the few worlds where it is caught), at
about ``worlds`` times the cost; every candidate of a row meets the same worlds, so their
differences are less noisy than their values.

>>> rows = value_bidding_rows(seed=5, start=0, n=2, worlds=4)
>>> rows["x"].shape, rows["vals"].shape, int(rows["worlds"].max()) <= 4
((8, 62), (8, 7), True)
"""

from __future__ import annotations

import numpy as np

from spades_ai.checks import check_count, check_seed
from spades_ai.encoding import check_rules
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.bits import U64
from spades_ai.engine.jit import kernel
from spades_ai.engine.score import F_CONTRACT_POINTS, F_NEW_BAGS, F_NIL_POINTS, N_FIELDS, bag_cost, score_hand_kernel
from spades_ai.engine.seats import side_of
from spades_ai.engine.state import (
    N_PUBLIC,
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_DEALER,
    P_HANDS_PLAYED,
    P_PHASE,
    P_SCORES,
    P_TO_ACT,
    P_WON,
    PHASE_BIDDING,
    PHASE_PLAYING,
    apply_bid,
    apply_card,
    legal_now,
    reset_public,
)
from spades_ai.errors import RulesError
from spades_ai.kernels import decision_stream
from spades_ai.models.features import N_BID_FEATURES, bid_features
from spades_ai.models.model import N_VALUE_OUTPUTS, VALUE_SCALE
from spades_ai.models.replay import NUMBER_BIDS, start_deal, value_candidate
from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.policies.normal import normal_agent_bid, normal_agent_play, normal_bid
from spades_ai.rules import Rules
from spades_ai.simulate import deal_masks

#: The most worlds a row (a label costs about ``worlds`` times one world's playouts).
MAX_WORLDS = 4096
#: Worlds drawn at most for each world a row wants (fewer agree with the bids before, the later
#: the seat: about 1 in 30 at the last).
TRIES = 64


@kernel
def normal_finish(pub, hands, rules):
    """Finish the hand with Normal at every seat: the bids still to come, then every card."""
    while pub[P_PHASE] == PHASE_BIDDING:
        seat = pub[P_TO_ACT]
        legal = legal_bids(seat, hands[seat], pub, rules) & 0x3FFF
        apply_bid(pub, hands, np.int64(normal_agent_bid(pub, seat, hands[seat], legal, rules)), False, rules)
    while pub[P_PHASE] == PHASE_PLAYING:
        seat = pub[P_TO_ACT]
        legal = U64(legal_now(pub, hands[seat], rules))
        apply_card(pub, hands, normal_agent_play(pub, seat, hands[seat], legal, rules), rules)


@kernel
def side_margin(pub, rules, side, sheet, nil_out):
    """A finished hand's worth to ``side``: its points minus the other side's, each side's bags
    at their real cost (``1 - bag_penalty / bag_limit`` a bag, as ``models.replay.V_TEAM``)."""
    zeros = np.zeros(2, dtype=np.int64)
    score_hand_kernel(
        pub[P_BIDS : P_BIDS + 4],
        pub[P_BLIND : P_BLIND + 4],
        pub[P_WON : P_WON + 4],
        zeros,
        zeros,
        rules,
        sheet,
        nil_out,
    )
    bag = 1.0 - bag_cost(rules)
    v = np.zeros(2)
    for t in range(2):
        v[t] = sheet[t, F_CONTRACT_POINTS] + bag * sheet[t, F_NEW_BAGS] + sheet[t, F_NIL_POINTS]
    return v[side] - v[1 - side]


@kernel
def world_margins(pub, seat, world, candidates, rules, out):
    """``out[k]``: the margin / ``VALUE_SCALE`` to ``seat``'s side when it bids
    ``candidates[k]`` in ``world`` (four hands) and Normal finishes; NaN where the candidate
    is -1 (no bid)."""
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    sim_hands = np.empty(4, dtype=np.uint64)
    sheet = np.zeros((2, N_FIELDS), dtype=np.int64)
    nil_out = np.zeros(4, dtype=np.int64)
    for k in range(len(candidates)):
        out[k] = np.nan
        if candidates[k] < 0:
            continue
        sim[:] = pub
        sim_hands[:] = world
        apply_bid(sim, sim_hands, np.int64(candidates[k]), False, rules)
        normal_finish(sim, sim_hands, rules)
        out[k] = side_margin(sim, rules, side_of(seat, rules), sheet, nil_out) / VALUE_SCALE


@kernel
def bids_agree(pub, seat, world, rules):
    """Whether Normal, dealt ``world`` (four hands) at the start of the hand of ``pub``, makes
    every bid made before ``seat``'s as it was made."""
    sim = np.empty(N_PUBLIC, dtype=np.int64)
    hands = world.copy()
    reset_public(
        sim, hands, pub[P_DEALER], pub[P_SCORES : P_SCORES + 2], pub[P_BAGS : P_BAGS + 2], pub[P_HANDS_PLAYED], rules
    )
    while sim[P_TO_ACT] != seat:
        o = sim[P_TO_ACT]
        legal = legal_bids(o, hands[o], sim, rules) & 0x3FFF
        b = normal_agent_bid(sim, o, hands[o], legal, rules)
        if b != pub[P_BIDS + o]:
            return False
        apply_bid(sim, hands, np.int64(b), False, rules)
    return True


@kernel
def bid_value_rows(deals, rules, worlds, seed, feats, vals, used):
    """The value bidder's rows of ``deals`` (see the module docstring) into ``feats`` and
    ``vals`` (``N_VALUE_OUTPUTS`` a row) and the worlds each averages into ``used``: up to
    ``worlds``, the sampled ones drawn from ``seed``. Returns the rows written (four a deal)."""
    pub = np.empty(N_PUBLIC, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    candidates = np.empty(N_VALUE_OUTPUTS, dtype=np.int64)
    v = np.empty(N_VALUE_OUTPUTS)
    m = 0
    for i in range(deals.shape[0]):
        start_deal(deals[i], 0, rules, hands, pub)
        while pub[P_PHASE] == PHASE_BIDDING:
            seat = pub[P_TO_ACT]
            hand = hands[seat]
            legal = legal_bids(seat, hand, pub, rules) & 0x3FFF
            bid_features(pub, seat, hand, rules, feats[m])
            guess = normal_bid(pub, seat, hand, rules, NUMBER_BIDS)
            for k in range(N_VALUE_OUTPUTS):
                b = value_candidate(k, guess, hand, rules)
                candidates[k] = b if b >= 0 and (legal >> b) & 1 else -1
            world_margins(pub, seat, hands, candidates, rules, vals[m])
            state = decision_stream(seed, pub, seat, hand)
            kept, tries, n = 1, 0, worlds - 1
            while kept < worlds and tries < TRIES * (worlds - 1):
                # twice the worlds each time: the sampler counts the deals once a call
                state, batch = sample_worlds_kernel(state, pub, seat, hand, rules, n)
                for j in range(n):
                    if kept < worlds and bids_agree(pub, seat, batch[j], rules):
                        world_margins(pub, seat, batch[j], candidates, rules, v)
                        vals[m] += v
                        kept += 1
                tries += n
                n = min(2 * n, TRIES * (worlds - 1) - tries)
            vals[m] /= kept
            used[m] = kept
            m += 1
            apply_bid(pub, hands, np.int64(normal_agent_bid(pub, seat, hand, legal, rules)), False, rules)
    return m


def value_bidding_rows(seed: int, start: int, n: int, rules: Rules | None = None, worlds: int = 1) -> dict:
    """The value bidder's rows of deals ``start .. start+n-1`` of ``seed`` (``bid_value_rows``:
    each candidate bid's margin over ``worlds`` worlds, the deal's own and ``worlds - 1``
    sampled, Normal finishing): ``x`` (float32 features, four rows a deal), ``vals``
    (``N_VALUE_OUTPUTS`` a row, NaN where not tried) and ``worlds`` (the worlds each row's values
    average: fewer than asked where the earlier bids are rare). The same rows for any chunking."""
    rules = check_rules(rules)
    if rules.blind_nil:
        raise RulesError(
            "the value bidder's rows are dealt without blind nil (its numbers come from the blind-nil dataset)"
        )
    worlds = check_count(worlds, "worlds")
    if not 1 <= worlds <= MAX_WORLDS:
        raise ValueError(
            f"worlds must be in 1..{MAX_WORLDS} (the deal's own cards and worlds - 1 sampled), not {worlds}"
        )
    deals = deal_masks(seed, start, n)
    x = np.zeros((4 * n, N_BID_FEATURES))
    vals = np.zeros((4 * n, N_VALUE_OUTPUTS))
    key = np.uint64(check_seed(seed)).view(np.int64)
    used = np.zeros(4 * n, dtype=np.int64)
    m = bid_value_rows(deals, rules.as_array(), np.int64(worlds), key, x, vals, used)
    return {"x": x[:m].astype(np.float32), "vals": vals[:m], "worlds": used[:m]}
