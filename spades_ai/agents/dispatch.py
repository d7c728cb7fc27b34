"""The built-in agents as numba kernels, chosen by kind, and the seat's decision stream.

Each built-in is a kind (``KIND_*``) plus an int64 parameter vector (``PARAM_*`` slots). A
decision's random stream is keyed by the agent's seed and the observation itself (own cards,
cards played, seat, bids made), so the same observation always gives the same decision, in
self-play, from Python, in any order.

``agent_bid`` and ``agent_play`` return the decision and a flag that is True when a bid-aware
(Crazy) decision's world weights collapsed and were tempered toward uniform.
"""


from spades_ai.agents.easy import easy_bid, easy_play, random_bid, random_card
from spades_ai.agents.hard import mc_bid, mc_play
from spades_ai.agents.normal import normal_bid, normal_play
from spades_ai.engine.jit import kernel
from spades_ai.engine.bids import legal_bids
from spades_ai.engine.bits import U64, lowest_index
from spades_ai.engine.rng import mix64, stream_state
from spades_ai.engine.state import P_N_BIDS, P_PLAYED, legal_now

KIND_RANDOM, KIND_EASY, KIND_NORMAL, KIND_HARD, KIND_CRAZY = 0, 1, 2, 3, 4
PARAM_SEED, PARAM_CARELESS, PARAM_WORLDS, PARAM_BID_AWARE, PARAM_ROLLOUTS = 0, 1, 2, 3, 4
N_PARAMS = 5


@kernel
def decision_state(seed, pub, seat, hand):
    """The random stream of one decision, keyed by the agent's seed and the observation."""
    return stream_state(U64(seed), hand ^ mix64(U64(pub[P_PLAYED])), U64(seat + 4 * pub[P_N_BIDS]))


@kernel
def agent_bid(kinds, params, pub, seat, hand, rules):
    """``(bid, fell_back)`` of the built-in agent at ``seat`` (the seat to act).

    ``kinds[seat]`` and ``params[seat]`` describe the agent; rows are read in place rather
    than sliced, which keeps reference counting out of the hot loop.
    """
    kind = kinds[seat]
    mask = legal_bids(seat, hand, pub, rules)
    fell_back = False
    if kind == KIND_RANDOM:
        _, b = random_bid(mask, decision_state(params[seat, PARAM_SEED], pub, seat, hand))
    elif kind == KIND_EASY:
        b = easy_bid(hand, mask)
    elif kind == KIND_NORMAL:
        b = normal_bid(pub, seat, hand, rules, mask)
    else:
        state = decision_state(params[seat, PARAM_SEED], pub, seat, hand)
        b, fell_back = mc_bid(
            pub, seat, hand, rules, mask, params[seat, PARAM_WORLDS], params[seat, PARAM_ROLLOUTS], params[seat, PARAM_BID_AWARE] != 0, state
        )
    return b, fell_back


@kernel
def agent_play(kinds, params, pub, seat, hand, rules):
    """``(card id, fell_back)`` the built-in agent at ``seat`` (the seat to act) plays."""
    kind = kinds[seat]
    legal = legal_now(pub, hand, rules)
    fell_back = False
    if kind == KIND_RANDOM:
        _, c = random_card(legal, decision_state(params[seat, PARAM_SEED], pub, seat, hand))
    elif kind == KIND_EASY:
        state = decision_state(params[seat, PARAM_SEED], pub, seat, hand)
        _, c = easy_play(pub, legal, params[seat, PARAM_CARELESS], state)
    elif kind == KIND_NORMAL:
        c = normal_play(pub, seat, hand, rules, legal)
    else:
        state = decision_state(params[seat, PARAM_SEED], pub, seat, hand)
        c, fell_back = mc_play(
            pub, seat, hand, rules, legal, params[seat, PARAM_WORLDS], params[seat, PARAM_ROLLOUTS], params[seat, PARAM_BID_AWARE] != 0, state
        )
    return lowest_index(c), fell_back
