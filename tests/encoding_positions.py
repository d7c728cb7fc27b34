"""Random positions of a table for the observation-vector tests: every decision of hands played
with random legal bids and cards, seen by the seat to act and by every other seat.

``positions(rules, seed, hands)`` yields ``(Hand, seat, blind_decision, hide_cards)``: the seat
to act (and, at a seat offered a blind nil, its question before it looks) and the other seats'
views, so that the vectors cover every phase. The match facts carried into each hand (scores,
bags, hands played) are drawn too, so the score and bag fields are not all 0.
"""

import numpy as np

import spades_ai as sa
from spades_ai.seats import seats


def _start(rules: sa.Rules, seed: int, k: int, rng) -> sa.Hand:
    cards = [int(c) for c in sa.deal(seed, k, rules)]
    sides = rules.n_sides
    scores = [int(x) for x in rng.integers(-300, 600, sides)]
    bags = [int(x) for x in rng.integers(0, rules.bag_limit, sides)]
    return sa.Hand(cards, int(rng.integers(rules.players)), rules, scores, bags, hands_played=int(rng.integers(5)))


def positions(rules: sa.Rules, seed: int = 1, hands: int = 3, views: bool = True):
    """Every decision of ``hands`` random hands (see the module docstring)."""
    rng = np.random.default_rng(seed)
    for k in range(hands):
        h = _start(rules, seed, k, rng)
        while h.phase != "over":
            seat = h.to_act
            if h.phase == "bidding" and h.legal_bids(blind=True):
                yield h, seat, True, False
                if rng.random() < 0.3:
                    h.bid(0, blind=True)
                    continue
            yield h, seat, False, False
            if views and rng.random() < 0.25:
                for other in seats(rules):
                    if other != seat:
                        yield h, other, False, bool(rng.random() < 0.2)
            if h.phase == "bidding":
                h.bid(int(rng.choice(h.legal_bids())))
            else:
                h.play(rng.choice(h.legal_cards()))
        yield h, int(rng.integers(rules.players)), False, False


def observation_of(h: sa.Hand, seat: int, blind_decision: bool, hide_cards: bool):
    """The seat's ``Observation`` of the position."""
    if seat == h.to_act and not hide_cards:
        return h.observation(blind_decision=blind_decision)
    return h.view(seat, hide_cards=hide_cards)


#: The 4-player rules whose vectors were recorded before the layout became a function of the
#: table (``test_encoding.TODAY_DIGEST``).
FOUR_PLAYER_RULES = (
    sa.Rules(),
    sa.Rules(blind_nil=True),
    sa.Rules(jokers=2, deuces_high=1),
    sa.Rules(closed_bidding=True, blind_nil=True),
    sa.Rules.preset("suicide"),
)
